use super::*;
use crate::array::*;
use crate::buffer::{Bitmap, Buffer, OffsetBuffer};
use crate::datatype::{DataType, Field, FieldRef, Fields, IntegerType, UnionFields, UnionMode};
use crate::error::Error;
use crate::validate::ValidationLevel;
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

fn item(dt: DataType) -> FieldRef {
    Arc::new(Field::new("item", dt, true))
}

fn list(offsets: Vec<i32>, child: Array, validity: Option<Bitmap>) -> Array {
    let field = item(child.data_type().clone());
    let offsets = OffsetBuffer::try_new(offsets.into()).unwrap();
    Array::from(ListArray::try_new(field, offsets, child, validity).unwrap())
}

/// Concatenates, checks full validation and logical equality with `expected`, returns the result.
fn check(parts: &[&Array], expected: &Array) -> Array {
    let out = concat(parts).unwrap();
    out.validate(ValidationLevel::Full).unwrap();
    if let Some(d) = crate::compute::first_difference(&out, expected) {
        panic!("concat result differs from expectation: {d}");
    }
    out
}

#[test]
fn errors_name_both_types() {
    let a = i32s(&[Some(1)]);
    let b = strs(&[Some("x")]);
    let e = concat(&[&a, &b]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid argument: cannot concatenate arrays of different types: Int32 and Utf8"
    );
    let e = concat(&[]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid argument: concat needs at least one array"
    );
}

#[test]
fn primitives_keep_type_and_drop_empty_validity() {
    let dates = |v: &[Option<i32>]| {
        Array::from(
            PrimitiveArray::<i32>::from_options(v.iter().copied())
                .with_data_type(DataType::Date32)
                .unwrap(),
        )
    };
    let a = dates(&[Some(1), None, Some(3), Some(4)]);
    let b = dates(&[Some(5), Some(6)]);
    let out = check(
        &[&a.slice(2, 2), &b],
        &dates(&[Some(3), Some(4), Some(5), Some(6)]),
    );
    assert_eq!(out.data_type(), &DataType::Date32);
    assert!(out.validity().is_none(), "no input slot is null");
    let out = check(
        &[&b, &a.slice(1, 2)],
        &dates(&[Some(5), Some(6), None, Some(3)]),
    );
    assert_eq!(out.null_count(), 1);
    let f = |v: &[f64]| Array::from(PrimitiveArray::<f64>::new(v.to_vec()));
    check(
        &[&f(&[1.5]), &f(&[f64::NAN, -0.0])],
        &f(&[1.5, f64::NAN, -0.0]),
    );
}

#[test]
fn booleans_at_odd_bit_offsets() {
    let va: Vec<Option<bool>> = (0..150)
        .map(|i| (i % 7 != 0).then_some(i % 3 == 0))
        .collect();
    let vb: Vec<Option<bool>> = (0..90).map(|i| Some(i % 5 < 2)).collect();
    let a = Array::from(BooleanArray::from_options(va.iter().copied()));
    let b = Array::from(BooleanArray::from_options(vb.iter().copied()));
    let mut exp: Vec<Option<bool>> = va[3..73].to_vec();
    exp.extend_from_slice(&vb[5..66]);
    exp.extend_from_slice(&va[140..150]);
    let expected = Array::from(BooleanArray::from_options(exp));
    check(
        &[&a.slice(3, 70), &b.slice(5, 61), &a.slice(140, 10)],
        &expected,
    );
}

#[test]
fn strings_and_binary_rebase_offsets() {
    let a = strs(&[Some("zero"), Some("one"), None, Some("three")]);
    let b = strs(&[Some(""), Some("ünïcode")]);
    let out = check(
        &[&a.slice(1, 3), &b],
        &strs(&[Some("one"), None, Some("three"), Some(""), Some("ünïcode")]),
    );
    let s = out.as_utf8().unwrap();
    assert_eq!(s.offsets().as_slice(), &[0, 3, 3, 8, 8, 17]);
    assert_eq!(s.values().len(), 17, "only referenced bytes are copied");
    let large = |v: &[Option<&str>]| Array::from(LargeStringArray::from_options(v.iter().copied()));
    check(
        &[
            &large(&[Some("a"), None]).slice(1, 1),
            &large(&[Some("bc")]),
        ],
        &large(&[None, Some("bc")]),
    );
    let bin = |v: &[Option<&[u8]>]| Array::from(BinaryArray::from_options(v.iter().copied()));
    check(
        &[&bin(&[Some(b"\x00\x01")]), &bin(&[None, Some(b"\xff")])],
        &bin(&[Some(b"\x00\x01"), None, Some(b"\xff")]),
    );
}

#[test]
fn binary_offsets_overflow_is_an_error() {
    // 2^30 + 1 zeroed bytes, allocated lazily by the OS and never touched: two arrays each
    // referencing all of them need 2^31 + 2 bytes, beyond i32 offsets.
    let n = (1usize << 30) + 1;
    let values = Buffer::<u8>::from_bytes(bytes::Bytes::from(vec![0u8; n]));
    let offsets = OffsetBuffer::try_new(vec![0, n as i32].into()).unwrap();
    let a = Array::from(BinaryArray::try_new(offsets, values, None).unwrap());
    let e = concat(&[&a, &a]).unwrap_err();
    assert!(matches!(e, Error::Overflow { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "overflow: concatenated values need offset 2147483650, beyond the range of i32 offsets"
    );
}

#[test]
fn list_offsets_overflow_is_an_error() {
    let n = (1usize << 30) + 1;
    let l = list(vec![0, n as i32], Array::from(NullArray::new(n)), None);
    let e = concat(&[&l, &l]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "overflow: concatenated list values need offset 2147483650, beyond the range of i32 offsets"
    );
}

#[test]
fn views_share_buffers_with_rewritten_indices() {
    let long1 = "the first string longer than twelve bytes";
    let long2 = "the second string longer than twelve bytes";
    let a = Array::from(StringViewArray::from_options([
        Some(long1),
        None,
        Some("short"),
    ]));
    let b = Array::from(StringViewArray::from_options([Some("tiny"), Some(long2)]));
    let out = check(
        &[&a, &b],
        &Array::from(StringViewArray::from_options([
            Some(long1),
            None,
            Some("short"),
            Some("tiny"),
            Some(long2),
        ])),
    );
    let v = out.as_utf8_view().unwrap();
    assert_eq!(v.data_buffers().len(), 2);
    assert_eq!(v.views()[4].buffer_index(), 1);
    let bv = Array::from(BinaryViewArray::from_options([
        Some(long1.as_bytes()),
        None,
    ]));
    check(
        &[&bv.slice(1, 1), &bv],
        &Array::from(BinaryViewArray::from_options([
            None,
            Some(long1.as_bytes()),
            None,
        ])),
    );
}

#[test]
fn fixed_size_binary_sliced() {
    let fsb = |v: Vec<u8>, valid: Option<&[bool]>| {
        let n = v.len() / 2;
        Array::from(FixedSizeBinaryArray::try_new(2, n, v.into(), valid.map(bits)).unwrap())
    };
    let a = fsb(vec![1, 2, 3, 4, 5, 6], Some(&[true, false, true]));
    let b = fsb(vec![7, 8], None);
    check(
        &[&a.slice(1, 2), &b],
        &fsb(vec![0, 0, 5, 6, 7, 8], Some(&[false, true, true])),
    );
}

#[test]
fn lists_concat_children_ranges() {
    // [[1, 2], null, [3]] whose null slot points at garbage, then [[4, 5, 6]].
    let a = list(
        vec![0, 2, 4, 5],
        i32s(&[Some(1), Some(2), Some(-1), Some(-1), Some(3)]),
        Some(bits(&[true, false, true])),
    );
    let b = list(
        vec![1, 4],
        i32s(&[Some(0), Some(4), Some(5), Some(6)]),
        None,
    );
    let expected = list(
        vec![0, 0, 1, 4],
        i32s(&[Some(3), Some(4), Some(5), Some(6)]),
        Some(bits(&[false, true, true])),
    );
    let out = check(&[&a.slice(1, 2), &b], &expected);
    let l = out.as_list().unwrap();
    assert_eq!(l.offsets().as_slice(), &[0, 2, 3, 6]);
    assert_eq!(
        l.values().len(),
        6,
        "the null slot's child range is copied too"
    );
    let large = |offsets: Vec<i64>, child: Array| {
        let o = OffsetBuffer::try_new(offsets.into()).unwrap();
        Array::from(LargeListArray::try_new(item(DataType::Int32), o, child, None).unwrap())
    };
    check(
        &[
            &large(vec![0, 1], i32s(&[Some(1)])),
            &large(vec![0, 0], i32s(&[])),
        ],
        &large(vec![0, 1, 1], i32s(&[Some(1)])),
    );
}

#[test]
fn list_views_are_trimmed_and_moved() {
    let field = item(DataType::Int32);
    let lv = |offsets: Vec<i32>, sizes: Vec<i32>, child: Array, valid: Option<Bitmap>| {
        Array::from(
            ListViewArray::try_new(field.clone(), offsets.into(), sizes.into(), child, valid)
                .unwrap(),
        )
    };
    // [[3, 4], null, [4]] over a child with unused values around them.
    let a = lv(
        vec![2, 0, 3],
        vec![2, 1, 1],
        i32s(&[Some(9), Some(9), Some(3), Some(4), Some(9)]),
        Some(bits(&[true, false, true])),
    );
    let b = lv(vec![1, 0], vec![1, 2], i32s(&[Some(7), Some(8)]), None);
    let expected = lv(
        vec![0, 0, 1, 3, 2],
        vec![2, 0, 1, 1, 2],
        i32s(&[Some(3), Some(4), Some(7), Some(8)]),
        Some(bits(&[true, false, true, true, true])),
    );
    let out = check(&[&a, &b], &expected);
    let l = out.as_list_view().unwrap();
    assert_eq!(l.values().len(), 4, "unused child values are dropped");
    assert_eq!(l.offsets().as_slice(), &[0, 0, 1, 3, 2]);
    check(
        &[&a.slice(2, 1), &b.slice(0, 1)],
        &lv(vec![0, 1], vec![1, 1], i32s(&[Some(4), Some(8)]), None),
    );
}

#[test]
fn fixed_size_lists_sliced() {
    let fsl = |child: Array, valid: Option<Bitmap>| {
        let n = child.len() / 2;
        Array::from(FixedSizeListArray::try_new(item(DataType::Int32), 2, n, child, valid).unwrap())
    };
    let a = fsl(
        i32s(&[Some(1), Some(2), Some(3), None, Some(5), Some(6)]),
        Some(bits(&[true, true, false])),
    );
    let b = fsl(i32s(&[Some(7), Some(8)]), None);
    check(
        &[&a.slice(1, 2), &b],
        &fsl(
            i32s(&[Some(3), None, Some(0), Some(0), Some(7), Some(8)]),
            Some(bits(&[true, false, true])),
        ),
    );
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
fn structs_concat_children() {
    let a = points(
        &[Some(1), Some(2), Some(3)],
        &[Some("x"), None, Some("z")],
        Some(bits(&[true, false, true])),
    );
    let b = points(&[Some(4)], &[Some("w")], None);
    check(
        &[&a.slice(1, 2), &b],
        &points(
            &[None, Some(3), Some(4)],
            &[None, Some("z"), Some("w")],
            Some(bits(&[false, true, true])),
        ),
    );
}

#[test]
fn maps_concat_entries() {
    let entries = |keys: &[&str], vals: &[Option<i32>]| {
        let fields: Fields = vec![
            Field::new("key", DataType::Utf8, false),
            Field::new("value", DataType::Int32, true),
        ]
        .into();
        let k = strs(&keys.iter().map(|s| Some(*s)).collect::<Vec<_>>());
        StructArray::try_new(fields, keys.len(), vec![k, i32s(vals)], None).unwrap()
    };
    let map = |offsets: Vec<i32>, e: StructArray, valid: Option<Bitmap>| {
        let field = Arc::new(Field::new("entries", e.data_type().clone(), false));
        let o = OffsetBuffer::try_new(offsets.into()).unwrap();
        Array::from(MapArray::try_new(field, false, o, e, valid).unwrap())
    };
    let a = map(
        vec![0, 1, 3],
        entries(&["a", "b", "c"], &[Some(1), Some(2), None]),
        None,
    );
    let b = map(
        vec![0, 0, 1],
        entries(&["d"], &[Some(4)]),
        Some(bits(&[false, true])),
    );
    check(
        &[&a.slice(1, 1), &b],
        &map(
            vec![0, 2, 2, 3],
            entries(&["b", "c", "d"], &[Some(2), None, Some(4)]),
            Some(bits(&[true, false, true])),
        ),
    );
}

fn union_fields() -> UnionFields {
    UnionFields::try_new(
        vec![3i8, 1],
        vec![
            Field::new("int", DataType::Int32, true),
            Field::new("str", DataType::Utf8, true),
        ],
    )
    .unwrap()
}

#[test]
fn sparse_unions_sliced() {
    let sparse = |ids: Vec<i8>, ints: &[Option<i32>], ss: &[Option<&str>]| {
        Array::from(
            UnionArray::try_new(
                union_fields(),
                UnionMode::Sparse,
                ids.into(),
                None,
                vec![i32s(ints), strs(ss)],
            )
            .unwrap(),
        )
    };
    let a = sparse(
        vec![3, 1, 3],
        &[Some(1), None, Some(3)],
        &[None, Some("a"), None],
    );
    let b = sparse(vec![1], &[None], &[Some("b")]);
    check(
        &[&a.slice(1, 2), &b],
        &sparse(
            vec![1, 3, 1],
            &[None, Some(3), None],
            &[Some("a"), None, Some("b")],
        ),
    );
}

#[test]
fn dense_unions_trim_children_and_move_offsets() {
    let dense = |ids: Vec<i8>, offsets: Vec<i32>, ints: &[Option<i32>], ss: &[Option<&str>]| {
        Array::from(
            UnionArray::try_new(
                union_fields(),
                UnionMode::Dense,
                ids.into(),
                Some(offsets.into()),
                vec![i32s(ints), strs(ss)],
            )
            .unwrap(),
        )
    };
    // [int 1, str "a", int 2, int 3]
    let a = dense(
        vec![3, 1, 3, 3],
        vec![0, 0, 1, 2],
        &[Some(1), Some(2), Some(3)],
        &[Some("a")],
    );
    // [str "b", int null]
    let b = dense(
        vec![1, 3],
        vec![1, 0],
        &[None],
        &[Some("unused"), Some("b")],
    );
    let expected = dense(
        vec![3, 3, 1, 3],
        vec![0, 1, 0, 2],
        &[Some(2), Some(3), None],
        &[Some("b")],
    );
    let out = check(&[&a.slice(2, 2), &b], &expected);
    let u = out.as_union().unwrap();
    assert_eq!(u.children()[0].len(), 3);
    assert_eq!(u.children()[1].len(), 1, "the unused string is not copied");
    assert_eq!(u.offsets().unwrap().as_slice(), &[0, 1, 0, 2]);
}

fn dict(keys: &[Option<u8>], values: Arc<Array>) -> Array {
    let keys = Array::from(PrimitiveArray::<u8>::from_options(keys.iter().copied()));
    Array::from(DictionaryArray::try_new(keys, values, false).unwrap())
}

#[test]
fn dictionaries_share_or_merge() {
    let shared: Arc<Array> = Arc::new(strs(&[Some("a"), Some("b")]));
    let a = dict(&[Some(0), None, Some(1)], shared.clone());
    let b = dict(&[Some(1)], shared.clone());
    let out = check(
        &[&a.slice(1, 2), &b],
        &dict(&[None, Some(1), Some(1)], shared.clone()),
    );
    let d = out.as_dictionary().unwrap();
    assert!(
        Arc::ptr_eq(d.values(), &shared),
        "a shared dictionary is kept"
    );
    let other: Arc<Array> = Arc::new(strs(&[Some("c"), Some("a")]));
    let c = dict(&[Some(0), Some(1)], other);
    let out = check(
        &[&a, &c],
        &dict(
            &[Some(0), None, Some(1), Some(2), Some(0)],
            Arc::new(strs(&[Some("a"), Some("b"), Some("c")])),
        ),
    );
    let d = out.as_dictionary().unwrap();
    assert_eq!(d.values().len(), 4, "dictionaries are appended");
    assert_eq!(d.key(3), Some(2));
    assert_eq!(d.key(4), Some(3));
    assert_eq!(d.key_type(), IntegerType::UInt8);
}

/// Pieces of one dictionary array between arrays of nulls with an empty dictionary of their
/// own (how a reader pads null fixed-size lists): the dictionary is kept once, unmoved, not
/// appended per piece (300 pieces would overflow u8 keys), and a dictionary met again after
/// another keeps its first place.
#[test]
fn a_dictionary_met_again_is_kept_once() {
    let shared: Arc<Array> = Arc::new(strs(&[Some("a"), Some("b")]));
    let whole = dict(&[Some(1), Some(0), Some(1)], shared.clone());
    let empty: Arc<Array> = Arc::new(strs(&[]));
    let nulls = dict(&[None, None], empty);
    let mut pieces = Vec::new();
    let mut want = Vec::new();
    for i in 0..300 {
        pieces.push(whole.slice(i % 3, 1));
        want.push([Some(1), Some(0), Some(1)][i % 3]);
        pieces.push(nulls.clone());
        want.extend([None, None]);
    }
    let refs: Vec<&Array> = pieces.iter().collect();
    let out = check(&refs, &dict(&want, shared.clone()));
    let d = out.as_dictionary().unwrap();
    assert!(
        Arc::ptr_eq(d.values(), &shared),
        "the one dictionary is kept"
    );
    let other: Arc<Array> = Arc::new(strs(&[Some("c")]));
    let c = dict(&[Some(0)], other);
    let out = check(
        &[&whole, &c, &whole.slice(1, 1)],
        &dict(
            &[Some(1), Some(0), Some(1), Some(2), Some(0)],
            Arc::new(strs(&[Some("a"), Some("b"), Some("c")])),
        ),
    );
    let d = out.as_dictionary().unwrap();
    assert_eq!(d.values().len(), 3, "each dictionary once");
    assert_eq!(d.key(3), Some(2));
    assert_eq!(d.key(4), Some(0));
}

#[test]
fn dictionary_key_overflow_is_an_error() {
    let names: Vec<String> = (0..200).map(|i| format!("v{i}")).collect();
    let values = |offset: usize| -> Arc<Array> {
        let v: Vec<Option<&str>> = names.iter().map(|s| Some(&s[offset.min(1)..])).collect();
        Arc::new(strs(&v))
    };
    let all: Vec<Option<u8>> = (0..200).map(Some).collect();
    let a = dict(&all, values(0));
    let b = dict(&all, values(1));
    let e = concat(&[&a, &b]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "overflow: 400 concatenated dictionary values hold more distinct values (among those \
         the keys use) than uint8 keys index (256)"
    );
    // Values no key uses take no entry: slices of two dictionaries of 200 values each, whose
    // keys use 100 values in all.
    let keys: Vec<Option<u8>> = (0..50).map(Some).collect();
    let (a, b) = (dict(&keys, values(0)), dict(&keys, values(1)));
    let out = concat(&[&a, &b]).unwrap();
    out.validate(ValidationLevel::Full).unwrap();
    assert_eq!(out.as_dictionary().unwrap().values().len(), 100);
    let e = concat(&[&a, &b, &a.slice(0, 0), &dict(&[Some(199)], values(1))]).unwrap();
    assert_eq!(e.as_dictionary().unwrap().values().len(), 101);
}

/// Dictionaries that side by side pass the key type, but hold few distinct values (one per
/// row group of a Parquet column, say), are unified by value: each value once, null values
/// one null entry, keys mapped; what the result reads is what the inputs read.
#[test]
fn dictionaries_too_many_side_by_side_are_unified_by_value() {
    let mut pieces = Vec::new();
    let mut want = Vec::new();
    for i in 0..300 {
        // A dictionary of its own each time (not shared), in varying order, some with a null.
        let v: Vec<Option<&str>> = match i % 3 {
            0 => vec![Some("x"), Some("y")],
            1 => vec![Some("y"), None, Some("x")],
            _ => vec![Some("z")],
        };
        let keys: Vec<Option<u8>> = match i % 3 {
            0 => vec![Some(1), None, Some(0)],
            1 => vec![Some(0), Some(1), Some(2)],
            _ => vec![Some(0)],
        };
        for k in &keys {
            want.push(k.and_then(|k| v[k as usize]));
        }
        pieces.push(dict(&keys, Arc::new(strs(&v))));
    }
    let refs: Vec<&Array> = pieces.iter().collect();
    let out = concat(&refs).unwrap();
    out.validate(ValidationLevel::Full).unwrap();
    let d = out.as_dictionary().unwrap();
    assert_eq!(d.values().len(), 4, "x, y, null, z once each");
    let got: Vec<Option<String>> = (0..d.len())
        .map(|i| {
            d.key(i).and_then(|k| {
                let Array::Utf8(v) = d.values().as_ref() else {
                    panic!("string values")
                };
                v.is_valid(k).then(|| v.value(k).to_string())
            })
        })
        .collect();
    let want: Vec<Option<String>> = want.iter().map(|w| w.map(str::to_string)).collect();
    assert_eq!(got, want);
}

fn ree(ends: &[i32], values: Array) -> RunEndArray {
    RunEndArray::try_new(
        Array::from(PrimitiveArray::<i32>::new(ends.to_vec())),
        values,
    )
    .unwrap()
}

#[test]
fn run_ends_rebased_for_sliced_inputs() {
    // [1, 1, 2, 2, 2, null] sliced to [1, 2, 2, 2]; then [7, 7, 7].
    let a = ree(&[2, 5, 6], i32s(&[Some(1), Some(2), None]));
    let b = ree(&[3], i32s(&[Some(7)]));
    let expected = ree(&[1, 4, 7], i32s(&[Some(1), Some(2), Some(7)]));
    let out = check(
        &[&Array::from(a.slice(1, 4)), &Array::from(b)],
        &Array::from(expected),
    );
    let r = out.as_run_end_encoded().unwrap();
    assert_eq!(
        r.run_ends()
            .as_primitive::<i32>()
            .unwrap()
            .values()
            .as_slice(),
        &[1, 4, 7]
    );
    assert_eq!(r.values().len(), 3);
    let empty = Array::from(a.slice(2, 0));
    let out = check(&[&empty, &empty], &Array::from(a.slice(0, 0)));
    assert_eq!(out.len(), 0);
}

#[test]
fn run_end_overflow_is_an_error() {
    let r = RunEndArray::try_new(
        Array::from(PrimitiveArray::<i16>::new(vec![20_000])),
        i32s(&[Some(1)]),
    )
    .unwrap();
    let r = Array::from(r);
    let e = concat(&[&r, &r]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "overflow: run end 40000 is beyond the range of i16 run ends"
    );
}

#[test]
fn null_arrays_add_lengths() {
    let n = Array::from(NullArray::new(3));
    let out = check(&[&n, &n.slice(1, 1)], &Array::from(NullArray::new(4)));
    assert_eq!(out.len(), 4);
}
