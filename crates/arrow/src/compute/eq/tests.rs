use super::*;
use crate::array::*;
use crate::buffer::{Bitmap, Buffer, OffsetBuffer};
use crate::datatype::{Field, FieldRef, Fields, UnionFields, UnionMode};
use crate::native::{I128, MonthDayNano, View};
use std::sync::Arc;

fn i32s(v: &[Option<i32>]) -> Array {
    Array::from(PrimitiveArray::<i32>::from_options(v.iter().copied()))
}

fn strs(v: &[Option<&str>]) -> Array {
    Array::from(StringArray::from_options(v.iter().copied()))
}

fn bits(v: &[bool]) -> Bitmap {
    v.iter().copied().collect()
}

fn diff_text(a: &Array, b: &Array) -> String {
    first_difference(a, b).map_or("equal".into(), |d| d.to_string())
}

fn item(dt: DataType) -> FieldRef {
    Arc::new(Field::new("item", dt, true))
}

fn list(offsets: Vec<i32>, child: Array, validity: Option<Bitmap>) -> Array {
    let field = item(child.data_type().clone());
    let offsets = OffsetBuffer::try_new(offsets.into()).unwrap();
    Array::from(ListArray::try_new(field, offsets, child, validity).unwrap())
}

#[test]
fn sliced_equals_unsliced() {
    let a = i32s(&[Some(0), Some(1), None, Some(3), Some(4)]);
    let b = i32s(&[Some(1), None, Some(3)]);
    assert!(logical_eq(&a.slice(1, 3), &b));
    assert_eq!(a.slice(1, 3), b);
    assert_ne!(a.slice(0, 3), b);
    assert_eq!(diff_text(&a.slice(0, 3), &b), "index 0: 0 vs 1");
}

#[test]
fn type_and_length_messages() {
    let a = i32s(&[Some(1)]);
    let b = Array::from(PrimitiveArray::<i64>::new(vec![1]));
    assert_eq!(diff_text(&a, &b), "types differ: Int32 vs Int64");
    let d = first_difference(&a, &b).unwrap();
    assert_eq!(d.index, None);
    assert_eq!(diff_text(&a, &i32s(&[Some(1), None])), "length 1 vs 2");
    // Nested field metadata is part of the type.
    let meta: crate::datatype::Metadata = [("k".to_string(), "v".to_string())].into();
    let f1 = Arc::new(Field::new("item", DataType::Int32, true));
    let f2 = Arc::new(Field::new("item", DataType::Int32, true).with_metadata(meta));
    let o = || OffsetBuffer::try_new(vec![0, 1].into()).unwrap();
    let l1 = Array::from(ListArray::try_new(f1, o(), a.clone(), None).unwrap());
    let l2 = Array::from(ListArray::try_new(f2, o(), a.clone(), None).unwrap());
    assert_eq!(
        diff_text(&l1, &l2),
        "types differ: List<item: Int32> vs List<item: Int32> (field metadata differs)"
    );
}

#[test]
fn null_slot_contents_are_ignored() {
    let validity = bits(&[true, false, true]);
    let a = PrimitiveArray::<i32>::new(vec![1, 99, 3])
        .with_validity(Some(validity.clone()))
        .unwrap();
    let b = PrimitiveArray::<i32>::new(vec![1, -7, 3])
        .with_validity(Some(validity.clone()))
        .unwrap();
    assert_eq!(Array::from(a), Array::from(b));
    // A bitmap without nulls equals no bitmap.
    let all = PrimitiveArray::<i32>::new(vec![1, 2])
        .with_validity(Some(bits(&[true, true])))
        .unwrap();
    assert_eq!(Array::from(all), i32s(&[Some(1), Some(2)]));
    // Strings: the null slot covers different bytes.
    let o1 = OffsetBuffer::try_new(vec![0, 2, 5, 6].into()).unwrap();
    let o2 = OffsetBuffer::try_new(vec![0, 2, 2, 3].into()).unwrap();
    let s1 = StringArray::try_new(o1, b"abxyzc".to_vec().into(), Some(validity.clone())).unwrap();
    let s2 = StringArray::try_new(o2, b"abc".to_vec().into(), Some(validity.clone())).unwrap();
    assert_eq!(Array::from(s1), Array::from(s2));
    // Booleans at odd bit offsets, null slot bits differ.
    let b1 = BooleanArray::try_new(
        bits(&[false, true, true, false]),
        Some(bits(&[true, true, false, true])),
    )
    .unwrap()
    .slice(1, 3);
    let b2 = BooleanArray::try_new(
        bits(&[true, false, false]),
        Some(bits(&[true, false, true])),
    )
    .unwrap();
    assert_eq!(Array::from(b1.clone()), Array::from(b2));
    let b3 = BooleanArray::from_options([Some(true), None, Some(true)]);
    assert_eq!(
        diff_text(&Array::from(b1), &Array::from(b3)),
        "index 2: false vs true"
    );
}

#[test]
fn null_versus_value_is_reported() {
    let a = strs(&[Some("a"), None, Some("c")]);
    let b = strs(&[Some("a"), Some("b"), Some("c")]);
    assert_eq!(diff_text(&a, &b), "index 1: null vs \"b\"");
    assert_eq!(diff_text(&b, &a), "index 1: \"b\" vs null");
    let c = strs(&[Some("a"), None, Some("d")]);
    assert_eq!(diff_text(&a, &c), "index 2: \"c\" vs \"d\"");
}

#[test]
fn floats_compare_bit_patterns() {
    let f = |v: &[f64]| Array::from(PrimitiveArray::<f64>::new(v.to_vec()));
    assert_eq!(f(&[f64::NAN, 1.5]), f(&[f64::NAN, 1.5]));
    assert_eq!(
        diff_text(&f(&[1.0, 0.0]), &f(&[1.0, -0.0])),
        "index 1: 0.0 vs -0.0"
    );
    let other_nan = f64::from_bits(f64::NAN.to_bits() | 1);
    assert!(other_nan.is_nan());
    assert_eq!(
        diff_text(&f(&[f64::NAN]), &f(&[other_nan])),
        "index 0: NaN vs NaN"
    );
    let h = |v: f32| {
        Array::from(PrimitiveArray::<half::f16>::new(vec![half::f16::from_f32(
            v,
        )]))
    };
    assert_eq!(h(f32::NAN), h(f32::NAN));
    assert_ne!(h(0.0), h(-0.0));
}

#[test]
fn decimals_and_intervals_by_value() {
    let dt = DataType::Decimal128 {
        precision: 10,
        scale: 2,
    };
    let d = |v: &[i128]| {
        let vals: Vec<I128> = v.iter().map(|&x| I128::from_i128(x)).collect();
        Array::from(
            PrimitiveArray::<I128>::new(vals)
                .with_data_type(dt.clone())
                .unwrap(),
        )
    };
    assert_eq!(d(&[12345, -1]), d(&[12345, -1]));
    assert_eq!(
        diff_text(&d(&[12345, -1]), &d(&[12345, -2])),
        "index 1: -0.01 vs -0.02"
    );
    let mdn = |n: i64| {
        Array::from(PrimitiveArray::<MonthDayNano>::new(vec![MonthDayNano {
            months: 1,
            days: 2,
            nanoseconds: n,
        }]))
    };
    assert_eq!(mdn(3), mdn(3));
    assert_eq!(
        diff_text(&mdn(3), &mdn(4)),
        "index 0: 1m 2d 3ns vs 1m 2d 4ns"
    );
}

#[test]
fn view_layouts_do_not_matter() {
    let long = "a string longer than twelve bytes";
    let a = StringViewArray::from_options([Some("short"), None, Some(long)]);
    // Same values, the long one in a second data buffer at another offset, garbage under null.
    let mut data = b"0123456789".to_vec();
    data.extend_from_slice(long.as_bytes());
    let prefix = [
        long.as_bytes()[0],
        long.as_bytes()[1],
        long.as_bytes()[2],
        long.as_bytes()[3],
    ];
    let views = vec![
        View::inline(b"short"),
        View::inline(b"garbage"),
        View::reference(long.len() as u32, prefix, 1, 10),
    ];
    let buffers: Arc<[Buffer<u8>]> =
        Arc::new([Buffer::from(b"unused".to_vec()), Buffer::from(data)]);
    let b =
        StringViewArray::try_new(views.into(), buffers, Some(bits(&[true, false, true]))).unwrap();
    assert_eq!(Array::from(a.clone()), Array::from(b));
    let c = StringViewArray::from_options([
        Some("short"),
        None,
        Some("a string longer than twelve bytez"),
    ]);
    assert_eq!(
        diff_text(&Array::from(a), &Array::from(c)),
        "index 2: \"a string longer than twelve bytes\" vs \"a string longer than twelve bytez\""
    );
}

#[test]
fn binary_and_fixed_size_binary() {
    let a = Array::from(BinaryArray::from_options([
        Some(&b"joe"[..]),
        None,
        Some(b""),
    ]));
    let b = Array::from(BinaryArray::from_options([
        Some(&b"x"[..]),
        Some(b"joe"),
        None,
        Some(b""),
    ]));
    assert_eq!(a, b.slice(1, 3));
    assert_eq!(diff_text(&a, &b.slice(0, 3)), "index 0: 0x6a6f65 vs 0x78");
    let fsb = |v: Vec<u8>, valid: &[bool]| {
        Array::from(
            FixedSizeBinaryArray::try_new(2, valid.len(), v.into(), Some(bits(valid))).unwrap(),
        )
    };
    let x = fsb(vec![1, 2, 9, 9, 3, 4], &[true, false, true]);
    let y = fsb(vec![1, 2, 0, 0, 3, 4], &[true, false, true]);
    assert_eq!(x, y);
    let z = fsb(vec![1, 2, 0, 0, 3, 5], &[true, false, true]);
    assert_eq!(diff_text(&x, &z), "index 2: 0x0304 vs 0x0305");
}

#[test]
fn lists_ignore_offsets_and_null_ranges() {
    let child_a = i32s(&[Some(1), Some(2), Some(3), Some(4), Some(5)]);
    // [[1, 2], null (pointing at [3]), [4, 5]]
    let a = list(vec![0, 2, 3, 5], child_a, Some(bits(&[true, false, true])));
    // [[1, 2], null (empty), [4, 5]] with a leading unused child value.
    let child_b = i32s(&[Some(9), Some(1), Some(2), Some(4), Some(5)]);
    let b = list(vec![1, 3, 3, 5], child_b, Some(bits(&[true, false, true])));
    assert_eq!(a, b);
    let child_c = i32s(&[Some(1), Some(2), Some(4), Some(6)]);
    let c = list(vec![0, 2, 2, 4], child_c, Some(bits(&[true, false, true])));
    assert_eq!(
        diff_text(&a, &c),
        "index 2, child 0 (\"item\"), index 1: 5 vs 6"
    );
    let d = list(
        vec![0, 2, 2, 5],
        i32s(&[Some(1), Some(2), Some(4), Some(5), Some(6)]),
        None,
    );
    assert_eq!(diff_text(&a, &d), "index 1: null vs []");
    let e = list(
        vec![0, 2, 2, 3],
        i32s(&[Some(1), Some(2), Some(4)]),
        Some(bits(&[true, false, true])),
    );
    assert_eq!(diff_text(&a, &e), "index 2: [4, 5] vs [4]");
}

fn points(a: &[Option<i32>], b: &[Option<&str>], validity: Option<Bitmap>) -> Array {
    let fields: Fields = vec![
        Field::new("a", DataType::Int32, true),
        Field::new("b", DataType::Utf8, true),
    ]
    .into();
    Array::from(StructArray::try_new(fields, a.len(), vec![i32s(a), strs(b)], validity).unwrap())
}

#[test]
fn nested_list_of_struct() {
    let s1 = points(
        &[Some(1), Some(2), Some(3), Some(99)],
        &[Some("x"), Some("y"), Some("z"), Some("junk")],
        Some(bits(&[true, true, true, false])),
    );
    let l1 = list(vec![0, 1, 3, 4], s1, None);
    // The same logical lists, the null struct holding other garbage, over a sliced child.
    let s2 = points(
        &[Some(0), Some(1), Some(2), Some(3), Some(-5)],
        &[None, Some("x"), Some("y"), Some("z"), None],
        Some(bits(&[true, true, true, true, false])),
    );
    let l2 = list(vec![1, 2, 4, 5], s2, None);
    assert_eq!(l1, l2);
    let s3 = points(
        &[Some(1), Some(2), Some(6), Some(0)],
        &[Some("x"), Some("y"), Some("z"), None],
        Some(bits(&[true, true, true, false])),
    );
    let l3 = list(vec![0, 1, 3, 4], s3, None);
    assert_eq!(
        diff_text(&l1, &l3),
        "index 1, child 0 (\"item\"), index 1, child 0 (\"a\"): 3 vs 6"
    );
    let d = first_difference(&l1, &l3).unwrap();
    assert_eq!(d.index, Some(1));
    assert_eq!(
        d.path,
        vec!["child 0 (\"item\")", "index 1", "child 0 (\"a\")"]
    );
    assert_eq!(d.reason, "3 vs 6");
}

#[test]
fn struct_null_slots_ignore_children_and_earliest_child_wins() {
    let a = points(
        &[Some(1), Some(2)],
        &[Some("x"), Some("y")],
        Some(bits(&[false, true])),
    );
    let b = points(
        &[Some(7), Some(2)],
        &[None, Some("y")],
        Some(bits(&[false, true])),
    );
    assert_eq!(a, b);
    let c = points(
        &[Some(1), Some(2), Some(3)],
        &[Some("x"), Some("y"), Some("z")],
        None,
    );
    let d = points(
        &[Some(1), Some(2), Some(4)],
        &[Some("x"), Some("q"), Some("z")],
        None,
    );
    assert_eq!(
        diff_text(&c, &d),
        "index 1, child 1 (\"b\"): \"y\" vs \"q\""
    );
    assert_eq!(
        diff_text(&c.slice(2, 1), &d.slice(2, 1)),
        "index 0, child 0 (\"a\"): 3 vs 4"
    );
    assert_eq!(
        diff_text(&a, &c.slice(0, 2)),
        "index 0: null vs {a: 1, b: \"x\"}"
    );
}

fn dict(keys: &[Option<i8>], values: Array) -> Array {
    let keys = Array::from(PrimitiveArray::<i8>::from_options(keys.iter().copied()));
    Array::from(DictionaryArray::try_new(keys, values, false).unwrap())
}

#[test]
fn dictionaries_compare_resolved_values() {
    let a = dict(
        &[Some(0), Some(1), Some(0), None],
        strs(&[Some("a"), Some("b")]),
    );
    let b = dict(
        &[Some(1), Some(0), Some(1), None],
        strs(&[Some("b"), Some("a"), Some("c")]),
    );
    assert_eq!(a, b);
    // A valid key to a null value is a null slot.
    let c = dict(
        &[Some(0), Some(1), Some(0), Some(2)],
        strs(&[Some("a"), Some("b"), None]),
    );
    assert_eq!(a, c);
    let d = dict(
        &[Some(0), Some(2), Some(0), None],
        strs(&[Some("a"), Some("b"), Some("c")]),
    );
    assert_eq!(diff_text(&a, &d), "index 1: \"b\" vs \"c\" (keys 1 vs 2)");
    let e = dict(
        &[Some(0), Some(1), None, None],
        strs(&[Some("a"), Some("b")]),
    );
    assert_eq!(diff_text(&a, &e), "index 2: \"a\" vs null");
    // Same dictionary, sliced keys.
    let shared: Arc<Array> = Arc::new(strs(&[Some("a"), Some("b")]));
    let k = |v: &[i8]| Array::from(PrimitiveArray::<i8>::new(v.to_vec()));
    let f = DictionaryArray::try_new(k(&[1, 0, 1]), shared.clone(), false).unwrap();
    let g = DictionaryArray::try_new(k(&[0, 1]), shared, false).unwrap();
    assert_eq!(Array::from(f.slice(1, 2)), Array::from(g));
}

fn ree(ends: &[i32], values: Array) -> RunEndArray {
    RunEndArray::try_new(
        Array::from(PrimitiveArray::<i32>::new(ends.to_vec())),
        values,
    )
    .unwrap()
}

#[test]
fn run_end_encoded_by_logical_sequence() {
    // [1, 1, 2, 2, 2, null]
    let a = ree(&[2, 5, 6], i32s(&[Some(1), Some(2), None]));
    let b = ree(
        &[1, 2, 4, 5, 6],
        i32s(&[Some(1), Some(1), Some(2), Some(2), None]),
    );
    assert_eq!(Array::from(a.clone()), Array::from(b.clone()));
    // Slices at different run positions: [1, 2, 2] from both.
    assert_eq!(Array::from(a.slice(1, 3)), Array::from(b.slice(1, 3)));
    let c = ree(&[3, 6], i32s(&[Some(1), Some(2)]));
    assert_eq!(
        diff_text(&Array::from(a.clone()), &Array::from(c.clone())),
        "index 2: 2 vs 1"
    );
    assert_eq!(
        diff_text(&Array::from(a.slice(3, 3)), &Array::from(c.slice(3, 3))),
        "index 2: null vs 2"
    );
}

fn union_fields() -> UnionFields {
    UnionFields::try_new(
        vec![5i8, 7],
        vec![
            Field::new("int", DataType::Int32, true),
            Field::new("str", DataType::Utf8, true),
        ],
    )
    .unwrap()
}

#[test]
fn dense_union_offsets_are_irrelevant() {
    let ids = |v: &[i8]| Buffer::from(v.to_vec());
    // [int 1, str "a", int null, int 3]
    let a = UnionArray::try_new(
        union_fields(),
        UnionMode::Dense,
        ids(&[5, 7, 5, 5]),
        Some(vec![0, 0, 1, 2].into()),
        vec![i32s(&[Some(1), None, Some(3)]), strs(&[Some("a")])],
    )
    .unwrap();
    let b = UnionArray::try_new(
        union_fields(),
        UnionMode::Dense,
        ids(&[5, 7, 7, 5]),
        Some(vec![2, 1, 0, 0].into()),
        vec![i32s(&[Some(3), Some(0), Some(1)]), strs(&[None, Some("a")])],
    )
    .unwrap();
    // Slot 2 is null on both sides (through different children).
    assert_eq!(Array::from(a.clone()), Array::from(b));
    let c = UnionArray::try_new(
        union_fields(),
        UnionMode::Sparse,
        ids(&[5, 7, 5, 7]),
        None,
        vec![
            i32s(&[Some(1), None, None, None]),
            strs(&[None, Some("a"), None, Some("b")]),
        ],
    )
    .unwrap();
    let d = UnionArray::try_new(
        union_fields(),
        UnionMode::Sparse,
        ids(&[5, 7, 5, 5]),
        None,
        vec![
            i32s(&[Some(2), None, None, Some(4)]),
            strs(&[None, Some("a"), None, None]),
        ],
    )
    .unwrap();
    let (c, d) = (Array::from(c), Array::from(d));
    assert_eq!(diff_text(&c, &d), "index 0, child 0 (\"int\"): 1 vs 2");
    assert_eq!(
        diff_text(&c.slice(1, 3), &d.slice(1, 3)),
        "index 2: {str=\"b\"} vs {int=4}"
    );
}

#[test]
fn maps_compare_entries_in_order() {
    let entries = |keys: &[&str], vals: &[Option<i32>]| {
        let fields: Fields = vec![
            Field::new("key", DataType::Utf8, false),
            Field::new("value", DataType::Int32, true),
        ]
        .into();
        let k = strs(&keys.iter().map(|s| Some(*s)).collect::<Vec<_>>());
        StructArray::try_new(fields, keys.len(), vec![k, i32s(vals)], None).unwrap()
    };
    let map = |offsets: Vec<i32>, e: StructArray| {
        let field = Arc::new(Field::new("entries", e.data_type().clone(), false));
        let o = OffsetBuffer::try_new(offsets.into()).unwrap();
        Array::from(MapArray::try_new(field, false, o, e, None).unwrap())
    };
    let a = map(
        vec![0, 2, 3],
        entries(&["k", "j", "x"], &[Some(1), None, Some(3)]),
    );
    let b = map(
        vec![1, 3, 4],
        entries(&["z", "k", "j", "x"], &[Some(0), Some(1), None, Some(3)]),
    );
    assert_eq!(a, b);
    let c = map(
        vec![0, 2, 3],
        entries(&["j", "k", "x"], &[None, Some(1), Some(3)]),
    );
    assert_eq!(
        diff_text(&a, &c),
        "index 0, child 0 (\"entries\"), index 0, child 0 (\"key\"): \"k\" vs \"j\""
    );
}

#[test]
fn list_views_and_fixed_size_lists() {
    let field = item(DataType::Int32);
    let lv = |offsets: Vec<i32>, sizes: Vec<i32>, child: Array| {
        Array::from(
            ListViewArray::try_new(field.clone(), offsets.into(), sizes.into(), child, None)
                .unwrap(),
        )
    };
    // [[3, 4], [1], [3, 4]] with shared and reordered ranges.
    let a = lv(
        vec![2, 0, 2],
        vec![2, 1, 2],
        i32s(&[Some(1), Some(9), Some(3), Some(4)]),
    );
    let b = lv(
        vec![0, 2, 3],
        vec![2, 1, 2],
        i32s(&[Some(3), Some(4), Some(1), Some(3), Some(4)]),
    );
    assert_eq!(a, b);
    let c = lv(
        vec![0, 2, 3],
        vec![2, 1, 2],
        i32s(&[Some(3), Some(4), Some(1), Some(3), Some(5)]),
    );
    assert_eq!(
        diff_text(&a, &c),
        "index 2, child 0 (\"item\"), index 1: 4 vs 5"
    );
    let fsl = |child: Array, valid: Option<Bitmap>| {
        let n = child.len() / 2;
        Array::from(FixedSizeListArray::try_new(field.clone(), 2, n, child, valid).unwrap())
    };
    let x = fsl(
        i32s(&[Some(0), Some(0), Some(1), Some(2), Some(3), Some(4)]),
        None,
    )
    .slice(1, 2);
    let y = fsl(i32s(&[Some(1), Some(2), Some(3), Some(4)]), None);
    assert_eq!(x, y);
    let z = fsl(i32s(&[Some(1), Some(2), Some(3), None]), None);
    assert_eq!(
        diff_text(&x, &z),
        "index 1, child 0 (\"item\"), index 1: 4 vs null"
    );
    let w = fsl(
        i32s(&[Some(1), Some(2), Some(7), None]),
        Some(bits(&[true, false])),
    );
    assert_eq!(diff_text(&x, &w), "index 1: [3, 4] vs null");
}

/// Deterministic pseudo-random numbers (xorshift) for the oracle test.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn first_difference_matches_slow_oracle() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..300 {
        let len = (rng.next() % 150) as usize;
        let gen_vals = |rng: &mut Rng| -> Vec<Option<i32>> {
            (0..len + 7)
                .map(|_| (rng.next() % 5 != 0).then(|| (rng.next() % 3) as i32))
                .collect()
        };
        let (va, vb) = (gen_vals(&mut rng), gen_vals(&mut rng));
        let (oa, ob) = ((rng.next() % 7) as usize, (rng.next() % 7) as usize);
        let a = i32s(&va).slice(oa, len);
        let b = i32s(&vb).slice(ob, len);
        let expect = (0..len).find(|&i| va[oa + i] != vb[ob + i]);
        let got = first_difference(&a, &b).and_then(|d| d.index);
        assert_eq!(got, expect, "round {round}");
        // Same data through strings and booleans.
        let to_s = |v: &[Option<i32>]| -> Vec<Option<String>> {
            v.iter()
                .map(|x| x.map(|x| "ab".repeat(x as usize)))
                .collect()
        };
        let (sa, sb) = (to_s(&va), to_s(&vb));
        let s = |v: &[Option<String>]| {
            Array::from(StringArray::from_options(v.iter().map(|x| x.as_deref())))
        };
        let got =
            first_difference(&s(&sa).slice(oa, len), &s(&sb).slice(ob, len)).and_then(|d| d.index);
        assert_eq!(got, expect, "strings, round {round}");
        let to_b = |v: &[Option<i32>]| {
            Array::from(BooleanArray::from_options(
                v.iter().map(|x| x.map(|x| x == 1)),
            ))
        };
        let expect_b = (0..len).find(|&i| va[oa + i].map(|x| x == 1) != vb[ob + i].map(|x| x == 1));
        let got = first_difference(&to_b(&va).slice(oa, len), &to_b(&vb).slice(ob, len))
            .and_then(|d| d.index);
        assert_eq!(got, expect_b, "booleans, round {round}");
    }
}

#[test]
fn null_arrays() {
    assert_eq!(
        Array::from(NullArray::new(3)),
        Array::from(NullArray::new(5)).slice(1, 3)
    );
    assert_eq!(
        diff_text(
            &Array::from(NullArray::new(3)),
            &Array::from(NullArray::new(2))
        ),
        "length 3 vs 2"
    );
}
