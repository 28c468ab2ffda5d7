//! Every buffer quiver allocates starts on a 64-byte boundary (the alignment the columnar format
//! recommends, DESIGN.md §3), and foreign memory is used in place when it is aligned for the
//! value type, copied to an aligned allocation when it is not.

use bytes::Bytes;
use quiver_arrow::buffer::ALIGNMENT;
use quiver_arrow::*;

/// One buffer of an array tree: where it sits in the tree, its address and its length.
#[derive(Debug)]
struct BufferRef {
    path: String,
    ptr: usize,
    len: usize,
}

fn push(out: &mut Vec<BufferRef>, path: &str, name: &str, bytes: &[u8]) {
    out.push(BufferRef {
        path: format!("{path}.{name}"),
        ptr: bytes.as_ptr() as usize,
        len: bytes.len(),
    });
}

/// Collects every buffer of `a` and its descendants, depth first: validity bitmaps, values,
/// offsets, sizes, views and view data buffers, type ids and union offsets.
fn collect_buffers(a: &Array, path: &str, out: &mut Vec<BufferRef>) {
    // A dictionary's validity is its keys' (collected with the keys).
    if let (Some(v), false) = (a.validity(), matches!(a, Array::Dictionary(_))) {
        push(out, path, "validity", v.bytes());
    }
    let child = |name: &str| format!("{path}.{name}");
    match a {
        Array::Null(_) => {}
        Array::Boolean(b) => push(out, path, "values", b.values().bytes()),
        Array::Binary(b) => {
            push(out, path, "offsets", b.offsets().buffer().bytes());
            push(out, path, "data", b.values().bytes());
        }
        Array::LargeBinary(b) => {
            push(out, path, "offsets", b.offsets().buffer().bytes());
            push(out, path, "data", b.values().bytes());
        }
        Array::Utf8(s) => {
            push(out, path, "offsets", s.offsets().buffer().bytes());
            push(out, path, "data", s.values().bytes());
        }
        Array::LargeUtf8(s) => {
            push(out, path, "offsets", s.offsets().buffer().bytes());
            push(out, path, "data", s.values().bytes());
        }
        Array::BinaryView(v) => {
            push(out, path, "views", v.views().bytes());
            for (i, d) in v.data_buffers().iter().enumerate() {
                push(out, path, &format!("data{i}"), d.bytes());
            }
        }
        Array::Utf8View(v) => {
            push(out, path, "views", v.views().bytes());
            for (i, d) in v.data_buffers().iter().enumerate() {
                push(out, path, &format!("data{i}"), d.bytes());
            }
        }
        Array::FixedSizeBinary(f) => push(out, path, "values", f.values().bytes()),
        Array::List(l) => {
            push(out, path, "offsets", l.offsets().buffer().bytes());
            collect_buffers(l.values(), &child(l.field().name()), out);
        }
        Array::LargeList(l) => {
            push(out, path, "offsets", l.offsets().buffer().bytes());
            collect_buffers(l.values(), &child(l.field().name()), out);
        }
        Array::ListView(l) => {
            push(out, path, "offsets", l.offsets().bytes());
            push(out, path, "sizes", l.sizes().bytes());
            collect_buffers(l.values(), &child(l.field().name()), out);
        }
        Array::LargeListView(l) => {
            push(out, path, "offsets", l.offsets().bytes());
            push(out, path, "sizes", l.sizes().bytes());
            collect_buffers(l.values(), &child(l.field().name()), out);
        }
        Array::FixedSizeList(l) => collect_buffers(l.values(), &child(l.field().name()), out),
        Array::Struct(s) => {
            for (f, c) in s.fields().iter().zip(s.columns()) {
                collect_buffers(c, &child(f.name()), out);
            }
        }
        Array::Map(m) => {
            push(out, path, "offsets", m.offsets().buffer().bytes());
            let entries = Array::Struct(m.entries().clone());
            collect_buffers(&entries, &child(m.entries_field().name()), out);
        }
        Array::Union(u) => {
            push(out, path, "type_ids", u.type_ids().bytes());
            if let Some(o) = u.offsets() {
                push(out, path, "offsets", o.bytes());
            }
            for (f, c) in u.fields().fields().iter().zip(u.children()) {
                collect_buffers(c, &child(f.name()), out);
            }
        }
        Array::Dictionary(d) => {
            collect_buffers(d.keys(), &child("keys"), out);
            collect_buffers(d.values(), &child("dictionary"), out);
        }
        Array::RunEndEncoded(r) => {
            collect_buffers(r.run_ends(), &child("run_ends"), out);
            collect_buffers(r.values(), &child("values"), out);
        }
        other => match_primitive!(
            other,
            p => push(out, path, "values", p.values().bytes()),
            _ => unreachable!("every non-primitive layout is matched above")
        ),
    }
}

fn buffers_of(a: &Array) -> Vec<BufferRef> {
    let mut out = Vec::new();
    collect_buffers(a, "$", &mut out);
    out
}

/// Every non-empty buffer of `a` starts on a 64-byte boundary. (An empty buffer holds no bytes
/// and so has no address to align: `Bytes::new()` points at a static empty slice.) Returns the
/// number of buffers checked.
#[track_caller]
fn assert_all_aligned(a: &Array, what: &str) -> usize {
    let buffers = buffers_of(a);
    let mut checked = 0;
    for b in &buffers {
        if b.len == 0 {
            continue;
        }
        assert_eq!(
            b.ptr % ALIGNMENT,
            0,
            "{what}: buffer {} ({} bytes) starts at {:#x}, not on a {ALIGNMENT}-byte boundary",
            b.path,
            b.len,
            b.ptr
        );
        checked += 1;
    }
    checked
}

// ---------------------------------------------------------------------------------------------
// The walker itself

#[test]
fn collect_buffers_finds_every_buffer_of_a_nested_array() {
    // List<Struct<a: Int32, s: Utf8>> with nulls everywhere: 1 + 1 + (1 + 2 + 3) buffers.
    let fields = Fields::from(vec![
        Field::new("a", DataType::Int32, true),
        Field::new("s", DataType::Utf8, true),
    ]);
    let a = Array::from(PrimitiveArray::<i32>::from_options([Some(1), None]));
    let s = Array::from(StringArray::from_options([None, Some("x")]));
    let st = StructArray::try_new(
        fields.clone(),
        2,
        vec![a, s],
        Some([true, false].into_iter().collect()),
    )
    .unwrap();
    let offsets = buffer::OffsetBuffer::try_new(vec![0, 2].into()).unwrap();
    let field = Field::new("item", DataType::Struct(fields), true);
    let list = ListArray::try_new(
        field.into(),
        offsets,
        Array::from(st),
        Some([false].into_iter().collect()),
    )
    .unwrap();
    let paths: Vec<String> = buffers_of(&Array::from(list))
        .into_iter()
        .map(|b| b.path)
        .collect();
    assert_eq!(
        paths,
        [
            "$.validity",
            "$.offsets",
            "$.item.validity",
            "$.item.a.validity",
            "$.item.a.values",
            "$.item.s.validity",
            "$.item.s.offsets",
            "$.item.s.data",
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Foreign memory: zero copy when aligned for the type, an aligned copy otherwise

/// Foreign memory with a known, 64-byte aligned base address (like a memory map or a message
/// body read into an aligned allocation by someone else).
struct Foreign(Box<Aligned>);

#[repr(C, align(64))]
struct Aligned([u8; 256]);

impl AsRef<[u8]> for Foreign {
    fn as_ref(&self) -> &[u8] {
        &self.0.0
    }
}

/// 256 bytes of foreign memory holding 0, 1, 2, … and its base address.
fn foreign() -> (Bytes, usize) {
    let mut block = Box::new(Aligned([0; 256]));
    for (i, b) in block.0.iter_mut().enumerate() {
        *b = i as u8;
    }
    let base = block.0.as_ptr() as usize;
    (Bytes::from_owner(Foreign(block)), base)
}

#[test]
fn aligned_foreign_memory_is_used_in_place() {
    let (bytes, base) = foreign();
    assert_eq!(base % ALIGNMENT, 0);
    assert_eq!(
        bytes.as_ptr() as usize,
        base,
        "from_owner keeps the owner's memory"
    );

    // At the base: zero copy for every type.
    let b = Buffer::<u64>::from_bytes(bytes.clone());
    assert_eq!(b.as_ptr() as usize, base);
    assert_eq!(b.len(), 32);
    assert_eq!(b.get(1), u64::from_le_bytes([8, 9, 10, 11, 12, 13, 14, 15]));

    // 8 bytes in: still aligned for 8-byte values (what other IPC writers guarantee), so still
    // zero copy, even though not on a 64-byte boundary.
    let at8 = bytes.slice(8..72);
    for ptr in [
        Buffer::<i64>::from_bytes(at8.clone()).as_ptr() as usize,
        Buffer::<f64>::from_bytes(at8.clone()).as_ptr() as usize,
        Buffer::<I128>::from_bytes(at8.clone()).as_ptr() as usize,
        Buffer::<I256>::from_bytes(at8.clone()).as_ptr() as usize,
        Buffer::<MonthDayNano>::from_bytes(at8.clone()).as_ptr() as usize,
        Buffer::<View>::from_bytes(at8.clone()).as_ptr() as usize,
    ] {
        assert_eq!(ptr, base + 8);
    }
    let i128s = Buffer::<I128>::from_bytes(at8);
    assert_eq!(i128s.len(), 4);
    assert_eq!(
        i128s.get(0).to_i128(),
        i128::from_le_bytes(std::array::from_fn(|i| 8 + i as u8))
    );

    // Bytes have no alignment requirement: any offset is zero copy.
    let at3 = bytes.slice(3..10);
    let u8s = Buffer::<u8>::from_bytes(at3);
    assert_eq!(u8s.as_ptr() as usize, base + 3);
    assert_eq!(u8s.as_slice(), &[3, 4, 5, 6, 7, 8, 9]);

    // Zero-copy slices stay in place.
    let s = Buffer::<u32>::from_bytes(bytes).slice(10, 2);
    assert_eq!(s.as_ptr() as usize, base + 40);
    assert_eq!(
        s.as_slice(),
        &[
            u32::from_le_bytes([40, 41, 42, 43]),
            u32::from_le_bytes([44, 45, 46, 47])
        ]
    );
}

#[test]
fn misaligned_foreign_memory_is_copied_to_an_aligned_address() {
    let (bytes, base) = foreign();
    for start in [1usize, 2, 3, 4, 5, 7] {
        let raw = bytes.slice(start..start + 64);
        assert!(!Buffer::<i64>::is_aligned(&raw));
        let b = Buffer::<i64>::from_bytes(raw);
        let ptr = b.as_ptr() as usize;
        assert_ne!(
            ptr,
            base + start,
            "misaligned bytes must not be viewed in place"
        );
        assert_eq!(ptr % ALIGNMENT, 0, "the copy is 64-byte aligned");
        assert_eq!(b.len(), 8);
        // Same values as the foreign bytes.
        let expected: Vec<i64> = (0..8)
            .map(|i| i64::from_le_bytes(std::array::from_fn(|j| (start + 8 * i + j) as u8)))
            .collect();
        assert_eq!(b.as_slice(), expected.as_slice());
    }
    // 4 bytes in: aligned for i32 (zero copy) but not for i64 or I128 (copied).
    let at4 = bytes.slice(4..68);
    assert_eq!(
        Buffer::<i32>::from_bytes(at4.clone()).as_ptr() as usize,
        base + 4
    );
    let i128s = Buffer::<I128>::from_bytes(at4.clone());
    assert_eq!(i128s.as_ptr() as usize % ALIGNMENT, 0);
    assert_eq!(
        i128s.get(0).to_i128(),
        i128::from_le_bytes(std::array::from_fn(|i| 4 + i as u8))
    );
    // Trailing bytes that do not make a whole value are dropped, not read.
    let odd = Buffer::<i32>::from_bytes(bytes.slice(1..12));
    assert_eq!(odd.len(), 2);
    assert_eq!(odd.as_ptr() as usize % ALIGNMENT, 0);
    assert_eq!(odd.get(1), i32::from_le_bytes([5, 6, 7, 8]));
}

#[test]
fn bitmaps_over_foreign_memory_are_zero_copy() {
    let (bytes, base) = foreign();
    // Bit offsets handle any position; the bytes are never copied.
    let b = Bitmap::try_new(bytes.slice(5..9), 3, 20).unwrap();
    assert_eq!(b.bytes().as_ptr() as usize, base + 5);
    // Byte 5 is 0b0000_0101: from bit 3 on, bits 0 0 0 0 0, then byte 6 = 0b0000_0110.
    let first: Vec<bool> = b.iter().take(8).collect();
    assert_eq!(
        first,
        [false, false, false, false, false, false, true, true]
    );
}

#[test]
fn buffers_from_vectors_are_aligned() {
    for n in [0usize, 1, 63, 64, 65, 1000] {
        let b = Buffer::from((0..n as u16).collect::<Vec<_>>());
        assert_eq!(b.len(), n);
        if n > 0 {
            assert_eq!(b.as_ptr() as usize % ALIGNMENT, 0, "{n} values");
        }
        let bm: Bitmap = (0..n).map(|i| i % 3 == 0).collect();
        if n > 0 {
            assert_eq!(bm.bytes().as_ptr() as usize % ALIGNMENT, 0, "{n} bits");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Builders: every buffer of every layout, at many sizes, batch after batch

/// Slot `i` is null when this is false (a third of the slots), so validity bitmaps exist.
fn valid(i: usize) -> bool {
    i % 3 != 1
}

/// Short (inline in views) and long (out of line) strings alternately.
fn text(i: usize) -> String {
    if i % 2 == 0 {
        format!("v{i}")
    } else {
        format!("a value longer than twelve bytes, number {i}")
    }
}

/// A reusable builder: each call appends `n` slots and finishes a batch.
type Fill = Box<dyn FnMut(usize) -> Array>;

/// One layout: its name, its filler, and the number of buffers an array of 1000 slots has by
/// the spec's buffer listing ("Buffer Listing for Each Layout"), children included, where a
/// validity bitmap exists only for arrays with nulls (builders elide it otherwise: list
/// children here have none, nor do the map's entries and keys) and `None` when it varies
/// (view data buffers).
struct Case {
    name: &'static str,
    fill: Fill,
    buffers: Option<usize>,
}

fn case(name: &'static str, buffers: impl Into<Option<usize>>, fill: Fill) -> Case {
    Case {
        name,
        fill,
        buffers: buffers.into(),
    }
}

fn primitive<T: PrimitiveType>(value: fn(usize) -> T) -> Fill {
    let mut b = builder::PrimitiveBuilder::<T>::new();
    Box::new(move |n| {
        for i in 0..n {
            b.append_option(valid(i).then(|| value(i)));
        }
        Array::from(b.finish())
    })
}

fn leaf_cases() -> Vec<Case> {
    use builder::*;
    let mut boolean = BooleanBuilder::new();
    let mut binary = BinaryBuilder::new();
    let mut large_binary = LargeBinaryBuilder::new();
    let mut utf8 = StringBuilder::new();
    let mut large_utf8 = LargeStringBuilder::new();
    let mut fixed = FixedSizeBinaryBuilder::new(3);
    let mut null = NullBuilder::new();
    vec![
        case(
            "Null",
            0,
            Box::new(move |n| {
                null.append_nulls(n);
                Array::from(null.finish())
            }),
        ),
        case(
            "Boolean",
            2,
            Box::new(move |n| {
                (0..n).for_each(|i| boolean.append_option(valid(i).then_some(i % 2 == 0)));
                Array::from(boolean.finish())
            }),
        ),
        case("Int8", 2, primitive(|i| i as i8)),
        case("Int32", 2, primitive(|i| i as i32)),
        case("Float64", 2, primitive(|i| i as f64 / 3.0)),
        case("Float16", 2, primitive(|i| half::f16::from_f32(i as f32))),
        case(
            "Decimal128",
            2,
            primitive(|i| I128::from(i as i128 * 1_000_000_007)),
        ),
        case("Decimal256", 2, primitive(|i| I256::from(-(i as i128)))),
        case(
            "Interval(DayTime)",
            2,
            primitive(|i| DaysMs {
                days: i as i32,
                milliseconds: 7,
            }),
        ),
        case(
            "Interval(MonthDayNano)",
            2,
            primitive(|i| MonthDayNano {
                months: 1,
                days: i as i32,
                nanoseconds: -(i as i64),
            }),
        ),
        case(
            "Binary",
            3,
            Box::new(move |n| {
                (0..n).for_each(|i| binary.append_option(valid(i).then(|| text(i))));
                Array::from(binary.finish())
            }),
        ),
        case(
            "LargeBinary",
            3,
            Box::new(move |n| {
                (0..n).for_each(|i| large_binary.append_option(valid(i).then(|| text(i))));
                Array::from(large_binary.finish())
            }),
        ),
        case(
            "Utf8",
            3,
            Box::new(move |n| {
                (0..n).for_each(|i| utf8.append_option(valid(i).then(|| text(i))));
                Array::from(utf8.finish())
            }),
        ),
        case(
            "LargeUtf8",
            3,
            Box::new(move |n| {
                (0..n).for_each(|i| large_utf8.append_option(valid(i).then(|| text(i))));
                Array::from(large_utf8.finish())
            }),
        ),
        case(
            "FixedSizeBinary(3)",
            2,
            Box::new(move |n| {
                for i in 0..n {
                    fixed
                        .append_option(valid(i).then_some([i as u8; 3]))
                        .unwrap();
                }
                Array::from(fixed.finish())
            }),
        ),
    ]
}

fn view_cases() -> Vec<Case> {
    use builder::*;
    // Small blocks: the long values spread over many data buffers, each its own allocation.
    let mut binary_view = BinaryViewBuilder::new().with_block_size(100);
    let mut utf8_view = StringViewBuilder::new().with_block_size(100);
    vec![
        case(
            "BinaryView",
            None,
            Box::new(move |n| {
                (0..n).for_each(|i| binary_view.append_option(valid(i).then(|| text(i))));
                Array::from(binary_view.finish())
            }),
        ),
        case(
            "Utf8View",
            None,
            Box::new(move |n| {
                (0..n).for_each(|i| utf8_view.append_option(valid(i).then(|| text(i))));
                Array::from(utf8_view.finish())
            }),
        ),
    ]
}

fn list_cases() -> Vec<Case> {
    use builder::*;
    let mut list = ListBuilder::new(PrimitiveBuilder::<i32>::new());
    let mut large_list = LargeListBuilder::new(StringBuilder::new());
    let mut list_view = ListViewBuilder::new(PrimitiveBuilder::<i16>::new());
    let mut large_list_view = LargeListViewBuilder::new(BooleanBuilder::new());
    let mut fixed_list = FixedSizeListBuilder::new(PrimitiveBuilder::<i64>::new(), 2);
    let mut list_of_lists = ListBuilder::new(ListBuilder::new(PrimitiveBuilder::<u8>::new()));
    vec![
        case(
            "List<Int32>",
            3,
            Box::new(move |n| {
                for i in 0..n {
                    (0..i % 4).for_each(|j| list.values().append_value(j as i32));
                    list.append(valid(i));
                }
                Array::from(list.finish())
            }),
        ),
        case(
            "LargeList<Utf8>",
            4,
            Box::new(move |n| {
                for i in 0..n {
                    (0..i % 3).for_each(|j| large_list.values().append_value(text(i + j)));
                    large_list.append(valid(i));
                }
                Array::from(large_list.finish())
            }),
        ),
        case(
            "ListView<Int16>",
            4,
            Box::new(move |n| {
                for i in 0..n {
                    (0..i % 4).for_each(|j| list_view.values().append_value(j as i16));
                    list_view.append(valid(i));
                }
                Array::from(list_view.finish())
            }),
        ),
        case(
            "LargeListView<Boolean>",
            4,
            Box::new(move |n| {
                for i in 0..n {
                    (0..i % 4).for_each(|j| large_list_view.values().append_value(j % 2 == 0));
                    large_list_view.append(valid(i));
                }
                Array::from(large_list_view.finish())
            }),
        ),
        case(
            "FixedSizeList<Int64>[2]",
            2,
            Box::new(move |n| {
                for i in 0..n {
                    fixed_list.values().append_slice(&[i as i64, -(i as i64)]);
                    fixed_list.append(valid(i));
                }
                Array::from(fixed_list.finish())
            }),
        ),
        case(
            "List<List<UInt8>>",
            5,
            Box::new(move |n| {
                for i in 0..n {
                    for j in 0..i % 3 {
                        let inner = list_of_lists.values();
                        (0..j).for_each(|k| inner.values().append_value(k as u8));
                        inner.append(valid(i + j));
                    }
                    list_of_lists.append(valid(i));
                }
                Array::from(list_of_lists.finish())
            }),
        ),
    ]
}

fn nested_cases() -> Vec<Case> {
    use builder::*;
    let fields = Fields::from(vec![
        Field::new("a", DataType::Int32, true),
        Field::new("b", DataType::Utf8View, true),
    ]);
    let mut structs = StructBuilder::try_new(fields).unwrap();
    let mut map = MapBuilder::new(StringBuilder::new(), PrimitiveBuilder::<i32>::new());
    let union_fields = UnionFields::try_new(
        vec![2, 5],
        vec![
            Field::new("i", DataType::Int32, true),
            Field::new("s", DataType::Utf8, true),
        ],
    )
    .unwrap();
    let mut sparse = UnionBuilder::new_sparse(union_fields.clone()).unwrap();
    let mut dense = UnionBuilder::new_dense(union_fields).unwrap();
    let mut dictionary = StringDictionaryBuilder::<i16>::new();
    let mut runs = PrimitiveRunBuilder::<i32, i64>::new();
    let mut string_runs = StringRunBuilder::<i16>::new();
    let append_union = |b: &mut UnionBuilder, i: usize| {
        let child = b.append(if i % 2 == 0 { 2 } else { 5 }).unwrap();
        match child.as_primitive_mut::<i32>() {
            Some(p) => p.append_option(valid(i).then_some(i as i32)),
            None => child
                .as_string_mut()
                .unwrap()
                .append_option(valid(i).then(|| text(i))),
        }
    };
    vec![
        case(
            "Struct<a: Int32, b: Utf8View>",
            None,
            Box::new(move |n| {
                for i in 0..n {
                    let a = structs.field_builder(0).as_primitive_mut::<i32>().unwrap();
                    a.append_option((i % 5 != 0).then_some(i as i32));
                    let b = structs.field_builder(1).as_string_view_mut().unwrap();
                    b.append_option((i % 7 != 0).then(|| text(i)));
                    structs.append(valid(i));
                }
                Array::from(structs.finish())
            }),
        ),
        case(
            "Map<Utf8, Int32>",
            6,
            Box::new(move |n| {
                for i in 0..n {
                    for j in 0..i % 3 {
                        map.keys().append_value(text(i + j));
                        map.values().append_option((j != 1).then_some(j as i32));
                    }
                    map.append(valid(i));
                }
                Array::from(map.finish())
            }),
        ),
        case(
            "SparseUnion<i: Int32, s: Utf8>",
            6,
            Box::new(move |n| {
                (0..n).for_each(|i| append_union(&mut sparse, i));
                Array::from(sparse.finish().unwrap())
            }),
        ),
        case(
            "DenseUnion<i: Int32, s: Utf8>",
            7,
            Box::new(move |n| {
                for i in 0..n {
                    let child = dense.append(if i % 2 == 0 { 2 } else { 5 }).unwrap();
                    match child.as_primitive_mut::<i32>() {
                        Some(p) => p.append_option(valid(i).then_some(i as i32)),
                        None => child
                            .as_string_mut()
                            .unwrap()
                            .append_option(valid(i).then(|| text(i))),
                    }
                }
                Array::from(dense.finish().unwrap())
            }),
        ),
        case(
            "Dictionary<Int16, Utf8>",
            4,
            Box::new(move |n| {
                for i in 0..n {
                    dictionary
                        .append_option(valid(i).then(|| text(i % 7)))
                        .unwrap();
                }
                Array::from(dictionary.finish())
            }),
        ),
        case(
            "RunEndEncoded<Int32, Int64>",
            3,
            Box::new(move |n| {
                for i in 0..n {
                    runs.append_option((i % 10 < 7).then_some(i as i64 / 5))
                        .unwrap();
                }
                Array::from(runs.finish())
            }),
        ),
        case(
            "RunEndEncoded<Int16, Utf8>",
            4,
            Box::new(move |n| {
                for i in 0..n {
                    string_runs
                        .append_option((i % 10 < 7).then(|| text(i / 4)))
                        .unwrap();
                }
                Array::from(string_runs.finish())
            }),
        ),
    ]
}

#[test]
fn every_buffer_builders_produce_is_64_byte_aligned() {
    let mut cases: Vec<Case> = [leaf_cases(), view_cases(), list_cases(), nested_cases()]
        .into_iter()
        .flatten()
        .collect();
    for n in [0usize, 1, 63, 64, 65, 1000] {
        for c in &mut cases {
            // Two batches from the same builder: finishing resets it for reuse.
            for batch in 0..2 {
                let a = (c.fill)(n);
                let what = format!("{} of {n} (batch {batch})", c.name);
                assert_eq!(a.len(), n, "{what}");
                a.validate(ValidationLevel::Full)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                let checked = assert_all_aligned(&a, &what);
                if n == 1000 {
                    // Nothing is empty at this size, so nothing was skipped ...
                    let buffers = buffers_of(&a);
                    assert_eq!(checked, buffers.len(), "{what}: {buffers:?}");
                    // ... and the count matches the spec's buffer listing.
                    if let Some(expected) = c.buffers {
                        assert_eq!(checked, expected, "{what}: {buffers:?}");
                    }
                }
            }
        }
    }
}

/// One type of every layout (nested ones included), for the dynamic builders.
fn every_layout_type() -> Vec<DataType> {
    use datatype::{IntervalUnit, TimeUnit};
    let f = |name: &str, dt: DataType| Field::new(name, dt, true);
    let entries = Field::new(
        "entries",
        DataType::Struct(Fields::from(vec![
            Field::new("key", DataType::Utf8, false),
            Field::new("value", DataType::Int64, true),
        ])),
        false,
    );
    let union = UnionFields::try_new(
        vec![1, 4],
        vec![f("a", DataType::Float64), f("b", DataType::BinaryView)],
    )
    .unwrap();
    vec![
        DataType::Null,
        DataType::Boolean,
        DataType::UInt16,
        DataType::Float16,
        DataType::Decimal128 {
            precision: 20,
            scale: 3,
        },
        DataType::Decimal256 {
            precision: 60,
            scale: 0,
        },
        DataType::Time64(TimeUnit::Microsecond),
        DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into())),
        DataType::Interval(IntervalUnit::MonthDayNano),
        DataType::FixedSizeBinary(5),
        DataType::LargeBinary,
        DataType::Utf8View,
        DataType::FixedSizeList(f("item", DataType::Int32).into(), 3),
        DataType::LargeList(f("item", DataType::Utf8).into()),
        DataType::ListView(f("item", DataType::Int8).into()),
        DataType::Struct(Fields::from(vec![
            f("s", DataType::Utf8),
            f("l", DataType::list_of(DataType::Boolean)),
        ])),
        DataType::Map(entries.into(), false),
        DataType::Union(union.clone(), UnionMode::Sparse),
        DataType::Union(union, UnionMode::Dense),
        DataType::dictionary(IntegerType::UInt8, DataType::LargeUtf8),
        DataType::RunEndEncoded(
            Field::new("run_ends", DataType::Int64, false).into(),
            f("values", DataType::Float32).into(),
        ),
    ]
}

#[test]
fn dynamic_builders_allocate_aligned_buffers_for_every_type() {
    for dt in every_layout_type() {
        let mut b = builder::make_builder(&dt, 10).unwrap();
        for n in [0usize, 1, 63, 64, 65, 1000] {
            // Nulls exercise every buffer a type has without values: validity bitmaps,
            // offsets, type ids, dense offsets, run ends, child slots.
            (0..n).for_each(|_| b.append_null());
            let a = b.finish();
            let what = format!("{dt} with {n} nulls");
            assert_eq!(a.data_type(), &dt, "{what}");
            assert_eq!(a.len(), n, "{what}");
            a.validate(ValidationLevel::Full)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let checked = assert_all_aligned(&a, &what);
            if n > 0 && dt != DataType::Null {
                assert!(checked > 0, "{what}: no buffer was checked");
            }
        }
    }
}
