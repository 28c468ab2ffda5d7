//! The example layouts of the Arrow columnar format specification (`Columnar.rst`, sections
//! "Physical Memory Layout"), built with quiver's builders and compared byte for byte with the
//! spec's tables: validity bytes as printed (`00011101`, bit 7 first), offsets, type ids and
//! values as little-endian bytes.
//!
//! Bytes the spec marks "unspecified" (null slots) are not compared, except where the builder
//! documents what it writes there (the primitive builder writes zeros). The spec's bitmap
//! padding is "0": bytes of a validity bitmap past its last slot must be zero.
//!
//! The spec's list-view tables are one of many valid representations ("it may have the
//! following representation"); builders always write lists in order, so those tables are built
//! with the array constructors and the builder's own (in-order) layout is checked separately.

use quiver_arrow::builder::*;
use quiver_arrow::*;
use std::sync::Arc;

// ---------------------------------------------------------------------------------------------
// Expected bytes

/// Expected bytes of a buffer: `Some(b)` must match, `None` is "unspecified" in the spec.
type Spec = Vec<Option<u8>>;

/// Values whose little-endian bytes the spec tables list.
trait Le: Copy {
    fn le(self) -> Vec<u8>;
}
macro_rules! le_impl {
    ($($t:ty),*) => {$(
        impl Le for $t {
            fn le(self) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }
        }
    )*};
}
le_impl!(i8, u8, i32, i64, f32);

/// The bytes of `values`, `None` slots unspecified.
fn le<T: Le>(values: &[Option<T>]) -> Spec {
    values
        .iter()
        .flat_map(|v| match v {
            Some(x) => x.le().into_iter().map(Some).collect::<Vec<_>>(),
            None => vec![None; std::mem::size_of::<T>()],
        })
        .collect()
}

/// The bytes of `values`, all specified.
fn le_all<T: Le>(values: &[T]) -> Spec {
    values.iter().flat_map(|v| v.le()).map(Some).collect()
}

/// Raw bytes, all specified.
fn exact(bytes: &[u8]) -> Spec {
    bytes.iter().copied().map(Some).collect()
}

#[track_caller]
fn assert_buffer(what: &str, actual: &[u8], expected: &Spec) {
    assert_eq!(
        actual.len(),
        expected.len(),
        "{what}: {} bytes, the spec has {}",
        actual.len(),
        expected.len()
    );
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        if let Some(e) = e {
            assert_eq!(a, e, "{what}: byte {i} is {a:#04x}, the spec has {e:#04x}");
        }
    }
}

/// A validity bitmap as the spec prints it: byte 0 with bit 7 first (`00011101`); any later
/// bytes are padding and must be zero.
#[track_caller]
fn assert_validity(what: &str, validity: Option<&Bitmap>, spec: &str) {
    let v = validity.unwrap_or_else(|| panic!("{what}: no validity bitmap, the spec has {spec}"));
    assert_eq!(v.offset(), 0, "{what}: bitmap starts at bit offset 0");
    let expected = u8::from_str_radix(spec, 2).unwrap();
    let bytes = v.bytes();
    assert!(!bytes.is_empty(), "{what}: empty bitmap");
    assert_eq!(
        bytes[0], expected,
        "{what}: validity {:08b}, the spec has {spec}",
        bytes[0]
    );
    assert!(
        bytes[1..].iter().all(|&b| b == 0),
        "{what}: padding must be zero"
    );
}

/// Buffers of the variable-size binary layouts: validity, offsets bytes, data bytes.
fn var_binary_buffers(a: &Array) -> (Option<&Bitmap>, &[u8], &[u8]) {
    match a {
        Array::Binary(b) => (
            b.validity(),
            b.offsets().buffer().bytes(),
            b.values().bytes(),
        ),
        Array::LargeBinary(b) => (
            b.validity(),
            b.offsets().buffer().bytes(),
            b.values().bytes(),
        ),
        Array::Utf8(b) => (
            b.validity(),
            b.offsets().buffer().bytes(),
            b.values().bytes(),
        ),
        Array::LargeUtf8(b) => (
            b.validity(),
            b.offsets().buffer().bytes(),
            b.values().bytes(),
        ),
        other => panic!("not a variable-size binary array: {}", other.data_type()),
    }
}

/// Offsets as the spec lists them, as `i32` or `i64` bytes.
fn offsets_spec(large: bool, offsets: &[i64]) -> Spec {
    if large {
        le_all(offsets)
    } else {
        le_all(&offsets.iter().map(|&o| o as i32).collect::<Vec<_>>())
    }
}

// ---------------------------------------------------------------------------------------------
// Validity bitmaps and fixed-size primitives

#[test]
fn validity_bitmap_example() {
    // values = [0, 1, null, 2, null, 3] → bitmap 00101011.
    let mut b = PrimitiveBuilder::<i32>::new();
    for v in [Some(0), Some(1), None, Some(2), None, Some(3)] {
        b.append_option(v);
    }
    let a = b.finish();
    assert_eq!(a.null_count(), 2);
    assert_validity("validity", a.validity(), "00101011");
}

#[test]
fn int32_array() {
    // [1, null, 2, 4, 8]: length 5, null count 1, validity 00011101, values 1, ?, 2, 4, 8.
    let mut b = PrimitiveBuilder::<i32>::new();
    b.append_value(1);
    b.append_null();
    b.append_value(2);
    b.append_value(4);
    b.append_value(8);
    let a = b.finish();
    assert_eq!((a.len(), a.null_count()), (5, 1));
    assert_validity("validity", a.validity(), "00011101");
    let values = a.values().bytes();
    assert_buffer(
        "values",
        values,
        &le(&[Some(1i32), None, Some(2), Some(4), Some(8)]),
    );
    // The primitive builder documents that null slots hold zero.
    assert_eq!(&values[4..8], &[0; 4]);
}

#[test]
fn non_null_int32_array() {
    // [1, 2, 3, 4, 8]: the spec allows validity 00011111 or no bitmap; builders elide it.
    let mut b = PrimitiveBuilder::<i32>::new();
    b.append_slice(&[1, 2, 3, 4, 8]);
    let a = b.finish();
    assert_eq!((a.len(), a.null_count()), (5, 0));
    assert!(a.validity().is_none());
    assert_buffer("values", a.values().bytes(), &le_all(&[1i32, 2, 3, 4, 8]));
}

// ---------------------------------------------------------------------------------------------
// Variable-size binary

#[test]
fn var_binary_array() {
    // ['joe', null, null, 'mark']: validity 00001001, offsets 0, 3, 3, 3, 7, data "joemark".
    // The same layout for Binary and Utf8, with 32- and 64-bit offsets.
    let values = [Some("joe"), None, None, Some("mark")];
    let mut binary = BinaryBuilder::new();
    let mut large_binary = LargeBinaryBuilder::new();
    let mut utf8 = StringBuilder::new();
    let mut large_utf8 = LargeStringBuilder::new();
    for v in values {
        binary.append_option(v.map(str::as_bytes));
        large_binary.append_option(v.map(str::as_bytes));
        utf8.append_option(v);
        large_utf8.append_option(v);
    }
    let cases = [
        (Array::from(binary.finish()), false),
        (Array::from(large_binary.finish()), true),
        (Array::from(utf8.finish()), false),
        (Array::from(large_utf8.finish()), true),
    ];
    for (a, large) in &cases {
        let what = a.data_type().to_string();
        assert_eq!((a.len(), a.null_count()), (4, 2), "{what}");
        let (validity, offsets, data) = var_binary_buffers(a);
        assert_validity(&what, validity, "00001001");
        assert_buffer(&what, offsets, &offsets_spec(*large, &[0, 3, 3, 3, 7]));
        assert_buffer(&what, data, &exact(b"joemark"));
    }
}

// ---------------------------------------------------------------------------------------------
// Views

/// A 16-byte view written out by hand: length (LE), then the inline bytes zero padded.
fn inline_view(s: &[u8]) -> [u8; 16] {
    let mut v = [0u8; 16];
    v[..4].copy_from_slice(&(s.len() as u32).to_le_bytes());
    v[4..4 + s.len()].copy_from_slice(s);
    v
}

/// A 16-byte view written out by hand: length, prefix, buffer index, offset.
fn long_view(s: &[u8], buffer: u32, offset: u32) -> [u8; 16] {
    let mut v = [0u8; 16];
    v[..4].copy_from_slice(&(s.len() as u32).to_le_bytes());
    v[4..8].copy_from_slice(&s[..4]);
    v[8..12].copy_from_slice(&buffer.to_le_bytes());
    v[12..16].copy_from_slice(&offset.to_le_bytes());
    v
}

#[test]
fn binary_view_and_utf8_view_arrays() {
    const LONG1: &str = "this is a long string"; // 21 bytes
    const LONG2: &str = "another long one"; // 16 bytes
    let values = [
        Some("joe"),
        None,
        Some(LONG1),
        Some("twelve bytes"), // exactly 12: the longest inline value
        Some(LONG2),
        Some(""),
    ];
    let mut expected_views: Vec<Option<[u8; 16]>> = vec![
        Some(inline_view(b"joe")),
        None, // unspecified
        Some(long_view(LONG1.as_bytes(), 0, 0)),
        Some(inline_view(b"twelve bytes")),
        Some(long_view(LONG2.as_bytes(), 0, 21)),
        Some([0; 16]),
    ];
    // Spot-check the hand-made views against the layout table itself.
    assert_eq!(
        expected_views[0],
        Some([3, 0, 0, 0, b'j', b'o', b'e', 0, 0, 0, 0, 0, 0, 0, 0, 0])
    );
    assert_eq!(
        expected_views[4],
        Some([16, 0, 0, 0, b'a', b'n', b'o', b't', 0, 0, 0, 0, 21, 0, 0, 0])
    );
    let spec: Spec = expected_views
        .drain(..)
        .flat_map(|v| match v {
            Some(bytes) => bytes.map(Some).to_vec(),
            None => vec![None; 16],
        })
        .collect();

    let mut sb = StringViewBuilder::new();
    let mut bb = BinaryViewBuilder::new();
    for v in values {
        sb.append_option(v);
        bb.append_option(v.map(str::as_bytes));
    }
    let s = sb.finish();
    let b = bb.finish();
    assert_eq!(s.iter().collect::<Vec<_>>(), values);
    let parts = [
        (
            "Utf8View",
            s.validity(),
            s.views().bytes(),
            s.data_buffers(),
        ),
        (
            "BinaryView",
            b.validity(),
            b.views().bytes(),
            b.data_buffers(),
        ),
    ];
    for (what, validity, views, data) in parts {
        assert_validity(what, validity, "00111101");
        assert_buffer(what, views, &spec);
        assert_eq!(data.len(), 1, "{what}: one data buffer");
        assert_buffer(
            what,
            data[0].bytes(),
            &exact(b"this is a long stringanother long one"),
        );
    }
    Array::from(s).validate(ValidationLevel::Full).unwrap();
    Array::from(b).validate(ValidationLevel::Full).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Lists

fn list_int8_spec_builder() -> ListArray {
    // [[12, -7, 25], null, [0, -127, 127, 50], []]
    let mut b = ListBuilder::new(PrimitiveBuilder::<i8>::new());
    b.values().append_slice(&[12, -7, 25]);
    b.append(true);
    b.append_null();
    b.values().append_slice(&[0, -127, 127, 50]);
    b.append(true);
    b.append(true);
    b.finish()
}

/// The child of a list-like array as `Int8` values; it must have no validity bitmap.
#[track_caller]
fn int8_child(child: &Array) -> &[u8] {
    let p = child.as_primitive::<i8>().expect("an Int8 child");
    assert!(
        p.validity().is_none(),
        "the spec's child has no validity bitmap"
    );
    p.values().bytes()
}

#[test]
fn list_of_int8() {
    let a = list_int8_spec_builder();
    assert_eq!((a.len(), a.null_count()), (4, 1));
    assert_validity("validity", a.validity(), "00001101");
    assert_buffer(
        "offsets",
        a.offsets().buffer().bytes(),
        &le_all(&[0i32, 3, 3, 7, 7]),
    );
    assert_eq!(a.values().len(), 7);
    assert_buffer(
        "values",
        int8_child(a.values()),
        &le_all(&[12i8, -7, 25, 0, -127, 127, 50]),
    );
}

#[test]
fn list_of_list_of_int8() {
    // [[[1, 2], [3, 4]], [[5, 6, 7], null, [8]], [[9, 10]]]
    let spec: [&[Option<&[i8]>]; 3] = [
        &[Some(&[1, 2]), Some(&[3, 4])],
        &[Some(&[5, 6, 7]), None, Some(&[8])],
        &[Some(&[9, 10])],
    ];
    let mut b = ListBuilder::new(ListBuilder::new(PrimitiveBuilder::<i8>::new()));
    for outer in spec {
        for inner in outer {
            match inner {
                Some(values) => {
                    b.values().values().append_slice(values);
                    b.values().append(true);
                }
                None => b.values().append_null(),
            }
        }
        b.append(true);
    }
    let a = b.finish();
    assert_eq!((a.len(), a.null_count()), (3, 0));
    assert!(a.validity().is_none(), "validity bitmap: not required");
    assert_buffer(
        "offsets",
        a.offsets().buffer().bytes(),
        &le_all(&[0i32, 2, 5, 6]),
    );
    let inner = a.values().as_list().expect("a List<Int8> child");
    assert_eq!((inner.len(), inner.null_count()), (6, 1));
    assert_validity("inner validity", inner.validity(), "00110111");
    assert_buffer(
        "inner offsets",
        inner.offsets().buffer().bytes(),
        &le_all(&[0i32, 2, 4, 7, 7, 8, 10]),
    );
    assert_buffer(
        "values",
        int8_child(inner.values()),
        &le_all(&[1i8, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
    );
}

/// The logical values of an `Int8` list view.
fn list_view_values(a: &ListViewArray) -> Vec<Option<Vec<i8>>> {
    (0..a.len())
        .map(|i| {
            a.get(i).map(|v| {
                let p = v.as_primitive::<i8>().unwrap();
                p.values().as_slice().to_vec()
            })
        })
        .collect()
}

fn int8_item() -> FieldRef {
    Arc::new(Field::new("item", DataType::Int8, true))
}

#[test]
fn list_view_of_int8() {
    let logical = vec![
        Some(vec![12, -7, 25]),
        None,
        Some(vec![0, -127, 127, 50]),
        Some(vec![]),
    ];
    // The spec's representation: offsets 0, 7, 3, 0; sizes 3, 0, 4, 0.
    let spec = ListViewArray::try_new(
        int8_item(),
        vec![0, 7, 3, 0].into(),
        vec![3, 0, 4, 0].into(),
        Array::from(PrimitiveArray::<i8>::new(vec![
            12, -7, 25, 0, -127, 127, 50,
        ])),
        Some([true, false, true, true].into_iter().collect()),
    )
    .unwrap();
    assert_validity("validity", spec.validity(), "00001101");
    assert_buffer("offsets", spec.offsets().bytes(), &le_all(&[0i32, 7, 3, 0]));
    assert_buffer("sizes", spec.sizes().bytes(), &le_all(&[3i32, 0, 4, 0]));
    assert_eq!(list_view_values(&spec), logical);
    Array::from(spec).validate(ValidationLevel::Full).unwrap();

    // The builder writes the lists in order: the null list gets the empty range at offset 3.
    let mut b = ListViewBuilder::new(PrimitiveBuilder::<i8>::new());
    b.values().append_slice(&[12, -7, 25]);
    b.append(true);
    b.append_null();
    b.values().append_slice(&[0, -127, 127, 50]);
    b.append(true);
    b.append(true);
    let built = b.finish();
    assert_eq!((built.len(), built.null_count()), (4, 1));
    assert_validity("builder validity", built.validity(), "00001101");
    assert_buffer(
        "builder offsets",
        built.offsets().bytes(),
        &le_all(&[0i32, 3, 3, 7]),
    );
    assert_buffer(
        "builder sizes",
        built.sizes().bytes(),
        &le_all(&[3i32, 0, 4, 0]),
    );
    assert_buffer(
        "builder values",
        int8_child(built.values()),
        &le_all(&[12i8, -7, 25, 0, -127, 127, 50]),
    );
    assert_eq!(list_view_values(&built), logical);
}

#[test]
fn list_view_with_out_of_order_and_shared_values() {
    // [[12, -7, 25], null, [0, -127, 127, 50], [], [50, 12]]: offsets 4, 7, 0, 0, 3; sizes
    // 3, 0, 4, 0, 2 over the child 0, -127, 127, 50, 12, -7, 25 (the last list overlaps two
    // others). No builder writes views out of order, so this one is built from the table.
    let a = ListViewArray::try_new(
        int8_item(),
        vec![4, 7, 0, 0, 3].into(),
        vec![3, 0, 4, 0, 2].into(),
        Array::from(PrimitiveArray::<i8>::new(vec![
            0, -127, 127, 50, 12, -7, 25,
        ])),
        Some([true, false, true, true, true].into_iter().collect()),
    )
    .unwrap();
    assert_validity("validity", a.validity(), "00011101");
    assert_buffer("offsets", a.offsets().bytes(), &le_all(&[4i32, 7, 0, 0, 3]));
    assert_buffer("sizes", a.sizes().bytes(), &le_all(&[3i32, 0, 4, 0, 2]));
    assert_buffer(
        "values",
        int8_child(a.values()),
        &le_all(&[0i8, -127, 127, 50, 12, -7, 25]),
    );
    assert_eq!(
        list_view_values(&a),
        vec![
            Some(vec![12, -7, 25]),
            None,
            Some(vec![0, -127, 127, 50]),
            Some(vec![]),
            Some(vec![50, 12]),
        ]
    );
    Array::from(a).validate(ValidationLevel::Full).unwrap();
}

#[test]
fn fixed_size_list_of_bytes() {
    // [[192, 168, 0, 12], null, [192, 168, 0, 25], [192, 168, 0, 1]] as FixedSizeList<byte>[4]:
    // validity 00001101; child of 16 values, no nulls, bytes 4-7 unspecified.
    let lists: [Option<[u8; 4]>; 4] = [
        Some([192, 168, 0, 12]),
        None,
        Some([192, 168, 0, 25]),
        Some([192, 168, 0, 1]),
    ];
    let mut b = FixedSizeListBuilder::new(PrimitiveBuilder::<u8>::new(), 4);
    for l in lists {
        // A null list still occupies 4 child values; the spec's child has no nulls, so write
        // placeholders there.
        b.values().append_slice(&l.unwrap_or([0xEE; 4]));
        b.append(l.is_some());
    }
    let a = b.finish();
    assert_eq!((a.len(), a.null_count()), (4, 1));
    assert_validity("validity", a.validity(), "00001101");
    let child = a.values().as_primitive::<u8>().unwrap();
    assert_eq!((child.len(), child.null_count()), (16, 0));
    assert!(child.validity().is_none());
    let mut expected = le(&[None::<i32>]); // bytes 4-7: unspecified
    expected.splice(0..0, exact(&[192, 168, 0, 12]));
    expected.extend(exact(&[192, 168, 0, 25, 192, 168, 0, 1]));
    assert_buffer("child values", child.values().bytes(), &expected);

    // `append_null` puts 4 nulls in the child instead: the same logical array, with a child
    // validity bitmap of 11110000 11111111 (slot order) → bytes 00001111, 11111111.
    let mut b = FixedSizeListBuilder::new(PrimitiveBuilder::<u8>::new(), 4);
    for l in lists {
        match l {
            Some(v) => {
                b.values().append_slice(&v);
                b.append(true);
            }
            None => b.append_null(),
        }
    }
    let a = b.finish();
    assert_validity("validity", a.validity(), "00001101");
    let child = a.values().as_primitive::<u8>().unwrap();
    assert_eq!(
        child.validity().unwrap().bytes().as_ref(),
        &[0b0000_1111, 0b1111_1111]
    );
    assert_buffer("child values", child.values().bytes(), &expected);
}

// ---------------------------------------------------------------------------------------------
// Structs

#[test]
fn struct_of_var_binary_and_int32() {
    // [{'joe', 1}, {null, 2}, null, {'mark', 4}] with children ['joe', null, 'alice', 'mark']
    // and [1, 2, null, 4]: the null struct slot hides the child value 'alice'.
    let fields = Fields::from(vec![
        Field::new("name", DataType::Binary, true),
        Field::new("age", DataType::Int32, true),
    ]);
    let rows = [
        (Some("joe"), Some(1), true),
        (None, Some(2), true),
        (Some("alice"), None, false),
        (Some("mark"), Some(4), true),
    ];
    let mut b = StructBuilder::try_new(fields).unwrap();
    for (name, age, valid) in rows {
        let names = b.field_builder(0).as_binary_mut().unwrap();
        names.append_option(name.map(str::as_bytes));
        let ages = b.field_builder(1).as_primitive_mut::<i32>().unwrap();
        ages.append_option(age);
        b.append(valid);
    }
    let s = b.finish();
    assert_eq!((s.len(), s.null_count()), (4, 1));
    assert_validity("struct validity", s.validity(), "00001011");

    let name = s.column(0);
    assert_eq!((name.len(), name.null_count()), (4, 1));
    let (validity, offsets, data) = var_binary_buffers(name);
    assert_validity("field-0 validity", validity, "00001101");
    assert_buffer("field-0 offsets", offsets, &le_all(&[0i32, 3, 3, 8, 12]));
    assert_buffer("field-0 data", data, &exact(b"joealicemark"));

    let age = s.column(1).as_primitive::<i32>().unwrap();
    assert_eq!((age.len(), age.null_count()), (4, 1));
    assert_validity("field-1 validity", age.validity(), "00001011");
    assert_buffer(
        "field-1 values",
        age.values().bytes(),
        &le(&[Some(1i32), Some(2), None, Some(4)]),
    );
}

// ---------------------------------------------------------------------------------------------
// Unions

#[test]
fn dense_union() {
    // DenseUnion<f: Float32, i: Int32> [{f=1.2}, null, {f=3.4}, {i=5}]: types 0, 0, 0, 1;
    // offsets 0, 1, 2, 0; f = [1.2, null, 3.4] (validity 00000101), i = [5].
    let fields = UnionFields::try_new(
        vec![0, 1],
        vec![
            Field::new("f", DataType::Float32, true),
            Field::new("i", DataType::Int32, true),
        ],
    )
    .unwrap();
    fn f(b: &mut UnionBuilder) -> &mut PrimitiveBuilder<f32> {
        b.append(0).unwrap().as_primitive_mut::<f32>().unwrap()
    }
    let mut b = UnionBuilder::new_dense(fields).unwrap();
    f(&mut b).append_value(1.2);
    f(&mut b).append_null();
    f(&mut b).append_value(3.4);
    b.append(1)
        .unwrap()
        .as_primitive_mut::<i32>()
        .unwrap()
        .append_value(5);
    let u = b.finish().unwrap();
    assert_eq!(u.len(), 4);
    assert!(u.is_null(1));
    assert_buffer("types", u.type_ids().bytes(), &le_all(&[0i8, 0, 0, 1]));
    let offsets = u.offsets().expect("a dense union has offsets");
    assert_buffer("offsets", offsets.bytes(), &le_all(&[0i32, 1, 2, 0]));

    let f = u.children()[0].as_primitive::<f32>().unwrap();
    assert_eq!((f.len(), f.null_count()), (3, 1));
    assert_validity("f validity", f.validity(), "00000101");
    assert_buffer(
        "f values",
        f.values().bytes(),
        &le(&[Some(1.2f32), None, Some(3.4)]),
    );
    let i = u.children()[1].as_primitive::<i32>().unwrap();
    assert_eq!((i.len(), i.null_count()), (1, 0));
    assert!(i.validity().is_none());
    assert_buffer("i values", i.values().bytes(), &le_all(&[5i32]));
}

#[test]
fn sparse_union() {
    // SparseUnion<i: Int32, f: Float32, s: VarBinary>
    // [{i=5}, {f=1.2}, {s='joe'}, {f=3.4}, {i=4}, {s='mark'}]: types 0, 1, 2, 1, 0, 2; every
    // child has 6 slots, valid only where selected.
    let fields = UnionFields::with_default_ids(vec![
        Field::new("i", DataType::Int32, true),
        Field::new("f", DataType::Float32, true),
        Field::new("s", DataType::Binary, true),
    ]);
    let mut b = UnionBuilder::new_sparse(fields).unwrap();
    let int = |b: &mut UnionBuilder, v: i32| {
        let c = b.append(0).unwrap();
        c.as_primitive_mut::<i32>().unwrap().append_value(v)
    };
    let float = |b: &mut UnionBuilder, v: f32| {
        let c = b.append(1).unwrap();
        c.as_primitive_mut::<f32>().unwrap().append_value(v)
    };
    let bytes = |b: &mut UnionBuilder, v: &str| {
        let c = b.append(2).unwrap();
        c.as_binary_mut().unwrap().append_value(v)
    };
    int(&mut b, 5);
    float(&mut b, 1.2);
    bytes(&mut b, "joe");
    float(&mut b, 3.4);
    int(&mut b, 4);
    bytes(&mut b, "mark");
    let u = b.finish().unwrap();
    assert_eq!(u.len(), 6);
    assert!(
        u.offsets().is_none(),
        "a sparse union has no offsets buffer"
    );
    assert_buffer(
        "types",
        u.type_ids().bytes(),
        &le_all(&[0i8, 1, 2, 1, 0, 2]),
    );

    let i = u.children()[0].as_primitive::<i32>().unwrap();
    assert_eq!((i.len(), i.null_count()), (6, 4));
    assert_validity("i validity", i.validity(), "00010001");
    assert_buffer(
        "i values",
        i.values().bytes(),
        &le(&[Some(5i32), None, None, None, Some(4), None]),
    );
    let f = u.children()[1].as_primitive::<f32>().unwrap();
    assert_eq!((f.len(), f.null_count()), (6, 4));
    assert_validity("f validity", f.validity(), "00001010");
    assert_buffer(
        "f values",
        f.values().bytes(),
        &le(&[None, Some(1.2f32), None, Some(3.4), None, None]),
    );
    let s = &u.children()[2];
    assert_eq!((s.len(), s.null_count()), (6, 4));
    let (validity, offsets, data) = var_binary_buffers(s);
    assert_validity("s validity", validity, "00100100");
    assert_buffer("s offsets", offsets, &le_all(&[0i32, 0, 0, 3, 3, 3, 7]));
    assert_buffer("s data", data, &exact(b"joemark"));
}

// ---------------------------------------------------------------------------------------------
// Dictionary and run-end encoding

#[test]
fn dictionary_encoded_var_binary() {
    // ['foo', 'bar', 'foo', 'bar', null, 'baz'] → indices [0, 1, 0, 1, null, 2] (Int32) into
    // the dictionary ['foo', 'bar', 'baz'].
    let mut b = BinaryDictionaryBuilder::<i32>::new();
    for v in [
        Some("foo"),
        Some("bar"),
        Some("foo"),
        Some("bar"),
        None,
        Some("baz"),
    ] {
        b.append_option(v.map(str::as_bytes)).unwrap();
    }
    let d = b.finish();
    assert_eq!(
        d.data_type(),
        &DataType::dictionary(IntegerType::Int32, DataType::Binary)
    );
    assert_eq!((d.len(), d.null_count()), (6, 1));
    let keys = d.keys().as_primitive::<i32>().unwrap();
    assert_validity("indices validity", keys.validity(), "00101111");
    assert_buffer(
        "indices",
        keys.values().bytes(),
        &le(&[Some(0i32), Some(1), Some(0), Some(1), None, Some(2)]),
    );
    let (validity, offsets, data) = var_binary_buffers(d.values());
    assert!(validity.is_none());
    assert_buffer("dictionary offsets", offsets, &le_all(&[0i32, 3, 6, 9]));
    assert_buffer("dictionary data", data, &exact(b"foobarbaz"));
}

#[test]
fn dictionary_with_duplicates_and_nulls() {
    // The spec's second form: indices [0, 1, 3, 1, 4, 2] into ['foo', 'bar', 'baz', 'foo',
    // null]. The null count comes from the indices only (0 here), although slot 4 reads null.
    let values = Array::from(BinaryArray::from_options([
        Some(&b"foo"[..]),
        Some(b"bar"),
        Some(b"baz"),
        Some(b"foo"),
        None,
    ]));
    let keys = Array::from(PrimitiveArray::<i32>::new(vec![0, 1, 3, 1, 4, 2]));
    let d = DictionaryArray::try_new(keys, values, false).unwrap();
    assert_eq!(d.null_count(), 0);
    assert!(d.keys().validity().is_none());
    assert!(d.is_null_value(4));
    assert!(!d.is_null_value(2));
    Array::from(d).validate(ValidationLevel::Full).unwrap();
}

#[test]
fn run_end_encoded_float32() {
    // [1.0, 1.0, 1.0, 1.0, null, null, 2.0] → run_ends 4, 6, 7 (Int32, no nulls, no bitmap);
    // values [1.0, null, 2.0] with validity 00000101.
    let mut b = PrimitiveRunBuilder::<i32, f32>::new();
    for v in [
        Some(1.0),
        Some(1.0),
        Some(1.0),
        Some(1.0),
        None,
        None,
        Some(2.0),
    ] {
        b.append_option(v).unwrap();
    }
    let a = b.finish();
    assert_eq!(a.len(), 7);
    let ends = a.run_ends().as_primitive::<i32>().unwrap();
    assert_eq!((ends.len(), ends.null_count()), (3, 0));
    assert!(ends.validity().is_none());
    assert_buffer("run_ends", ends.values().bytes(), &le_all(&[4i32, 6, 7]));
    let values = a.values().as_primitive::<f32>().unwrap();
    assert_eq!((values.len(), values.null_count()), (3, 1));
    assert_validity("values validity", values.validity(), "00000101");
    assert_buffer(
        "values",
        values.values().bytes(),
        &le(&[Some(1.0f32), None, Some(2.0)]),
    );
    // The parent has no buffers of its own (no validity bitmap).
    assert!(Array::from(a).validity().is_none());
}

#[test]
fn null_layout_has_no_buffers() {
    let mut b = NullBuilder::new();
    b.append_nulls(5);
    let a = Array::from(b.finish());
    assert_eq!((a.len(), a.null_count()), (5, 5));
    assert!(a.validity().is_none());
}
