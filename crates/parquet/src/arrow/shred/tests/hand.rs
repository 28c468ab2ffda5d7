//! Levels computed by hand from the Dremel paper and the Parquet documentation, the flat fast
//! path, and the errors.
#![allow(clippy::single_range_in_vec_init)] // expected ranges are lists of ranges

use super::*;
use quiver_arrow::buffer::{Bitmap, Buffer, OffsetBuffer};

fn ints(v: &[Option<i32>]) -> Array {
    PrimitiveArray::<i32>::from_options(v.iter().copied()).into()
}

fn list(item: Field, offsets: Vec<i32>, values: Array, valid: Option<Vec<bool>>) -> Array {
    let o = OffsetBuffer::try_new(Buffer::from(offsets)).unwrap();
    let v = valid.map(|v| v.into_iter().collect::<Bitmap>());
    ListArray::try_new(Arc::new(item), o, values, v)
        .unwrap()
        .into()
}

fn nested(leaf: &ShreddedLeaf) -> (&[i16], &[i16]) {
    match &leaf.levels {
        LeafLevels::Nested { def, rep } => (def, rep),
        LeafLevels::Flat => panic!("expected nested levels"),
    }
}

#[test]
fn list_of_nullable_ints_has_the_documented_levels() {
    // [[1, 2], [], null, [null, 3]]: optional group (LIST) { repeated group list { optional int32 } }.
    let item = Field::new("element", DataType::Int32, true);
    let values = ints(&[Some(1), Some(2), None, Some(3)]);
    let a = list(
        item.clone(),
        vec![0, 2, 2, 2, 4],
        values,
        Some(vec![true, true, false, true]),
    );
    let f = Field::new("l", a.data_type().clone(), true);
    let leaves = shred(&a, &f).unwrap();
    assert_eq!(leaves.len(), 1);
    let (def, rep) = nested(&leaves[0]);
    assert_eq!(def, [3, 3, 1, 0, 2, 3]);
    assert_eq!(rep, [0, 1, 0, 0, 0, 1]);
    assert_eq!((leaves[0].max_def, leaves[0].max_rep), (3, 1));
    assert_eq!(leaves[0].ranges, [0..4]);
    check(&a, &f);

    // The same lists with the null entry spanning child values 2..5, the whole sliced from 1.
    let values = ints(&[
        Some(9),
        Some(1),
        Some(2),
        Some(7),
        Some(7),
        Some(7),
        None,
        Some(3),
    ]);
    let a = list(
        item,
        vec![0, 1, 3, 3, 6, 8],
        values,
        Some(vec![true, true, true, false, true]),
    );
    let a = a.slice(1, 4);
    let leaves = shred(&a, &f).unwrap();
    let (def, rep) = nested(&leaves[0]);
    assert_eq!(def, [3, 3, 1, 0, 2, 3]);
    assert_eq!(rep, [0, 1, 0, 0, 0, 1]);
    assert_eq!(leaves[0].ranges, [1..3, 6..8]);
    check(&a, &f);
}

/// The Dremel paper's Document records (r1, r2), as non-nullable lists of required structs.
#[test]
fn dremel_paper_document_has_the_papers_levels() {
    let req_list =
        |name: &str, item: Field| Field::new(name, DataType::List(Arc::new(item)), false);
    let i64s = |v: &[i64]| Array::from(PrimitiveArray::<i64>::new(v.to_vec()));
    let strs = |v: &[Option<&str>]| Array::from(StringArray::from_options(v.iter().copied()));
    let element = |t: DataType| Field::new("element", t, false);

    let backward = req_list("Backward", element(DataType::Int64));
    let forward = req_list("Forward", element(DataType::Int64));
    let links_t = DataType::Struct(vec![backward.clone(), forward.clone()].into());
    let code = Field::new("Code", DataType::Utf8, false);
    let country = Field::new("Country", DataType::Utf8, true);
    let lang_t = DataType::Struct(vec![code, country].into());
    let language = req_list("Language", element(lang_t.clone()));
    let url = Field::new("Url", DataType::Utf8, true);
    let name_t = DataType::Struct(vec![language.clone(), url].into());
    let fields = vec![
        Field::new("DocId", DataType::Int64, false),
        Field::new("Links", links_t.clone(), true),
        req_list("Name", element(name_t.clone())),
    ];
    let doc_t = DataType::Struct(fields.clone().into());

    let list_of = |f: &Field, offsets: Vec<i32>, values: Array| {
        let DataType::List(item) = f.data_type() else {
            unreachable!()
        };
        list((**item).clone(), offsets, values, None)
    };
    let links = StructArray::try_new(
        match &links_t {
            DataType::Struct(f) => f.clone(),
            _ => unreachable!(),
        },
        2,
        vec![
            list_of(&backward, vec![0, 0, 2], i64s(&[10, 30])),
            list_of(&forward, vec![0, 3, 4], i64s(&[20, 40, 60, 80])),
        ],
        None,
    )
    .unwrap();
    let struct_fields = |t: &DataType| match t {
        DataType::Struct(f) => f.clone(),
        _ => unreachable!(),
    };
    let langs = StructArray::try_new(
        struct_fields(&lang_t),
        3,
        vec![
            strs(&[Some("en-us"), Some("en"), Some("en-gb")]),
            strs(&[Some("us"), None, Some("gb")]),
        ],
        None,
    )
    .unwrap();
    let names = StructArray::try_new(
        struct_fields(&name_t),
        4,
        vec![
            list_of(&language, vec![0, 2, 2, 3, 3], langs.into()),
            strs(&[Some("http://A"), Some("http://B"), None, Some("http://C")]),
        ],
        None,
    )
    .unwrap();
    let doc = StructArray::try_new(
        fields.into(),
        2,
        vec![
            i64s(&[10, 20]),
            links.into(),
            list_of(
                &req_list("Name", element(name_t.clone())),
                vec![0, 3, 4],
                names.into(),
            ),
        ],
        None,
    )
    .unwrap();
    let a = Array::from(doc);
    let f = Field::new("Document", doc_t, false);
    let leaves = shred(&a, &f).unwrap();
    let got: Vec<(Vec<i16>, Vec<i16>)> = leaves
        .iter()
        .map(|l| {
            let (d, r) = nested(l);
            (d.to_vec(), r.to_vec())
        })
        .collect();
    // DocId, Links.Backward, Links.Forward, Name.Language.Code, Name.Language.Country, Name.Url
    let want: [(&[i16], &[i16]); 6] = [
        (&[0, 0], &[]),
        (&[1, 2, 2], &[0, 0, 1]),
        (&[2, 2, 2, 2], &[0, 1, 1, 0]),
        (&[2, 2, 1, 2, 1], &[0, 2, 1, 1, 0]),
        (&[3, 2, 1, 3, 1], &[0, 2, 1, 1, 0]),
        (&[2, 2, 1, 2], &[0, 1, 1, 0]),
    ];
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert_eq!((&g.0[..], &g.1[..]), w);
    }
    let max: Vec<(i16, i16)> = leaves.iter().map(|l| (l.max_def, l.max_rep)).collect();
    assert_eq!(max, [(0, 0), (2, 1), (2, 1), (2, 2), (3, 2), (2, 1)]);
    assert_eq!(
        leaves[4].ranges,
        [0..3],
        "Country: both languages and en-gb"
    );
    check(&a, &f);
}

#[test]
fn top_level_leaves_take_the_flat_path_unless_their_nulls_are_elsewhere() {
    let a = ints(&[Some(1), None, Some(3)]).slice(1, 2);
    let l = &shred(&a, &Field::new("x", DataType::Int32, true)).unwrap()[0];
    assert_eq!(l.levels, LeafLevels::Flat);
    assert_eq!((l.max_def, l.max_rep, l.ranges.clone()), (1, 0, vec![0..2]));
    let l = &shred(&ints(&[]), &Field::new("x", DataType::Int32, false)).unwrap()[0];
    assert_eq!(
        (l.levels.clone(), l.max_def, l.ranges.clone()),
        (LeafLevels::Flat, 0, vec![])
    );

    let n = Array::from(NullArray::new(3));
    let l = &shred(&n, &Field::new("n", DataType::Null, true)).unwrap()[0];
    assert_eq!(nested(l), (&[0i16, 0, 0][..], &[][..]));
    assert_eq!(l.ranges, [0..3]);

    // Keys pointing to a null dictionary value are null, as pyarrow writes them.
    let values = Array::from(StringArray::from_options([Some("a"), None]));
    let keys = PrimitiveArray::<i8>::from_options([Some(0), Some(1), None, Some(0)]);
    let d = Array::from(DictionaryArray::try_new(keys.into(), values, false).unwrap());
    let f = Field::new("d", d.data_type().clone(), true);
    let l = &shred(&d, &f).unwrap()[0];
    assert_eq!(nested(l), (&[1i16, 0, 0, 1][..], &[][..]));
    assert!(matches!(l.array, Array::Dictionary(_)));
    assert_eq!(l.ranges, [0..4]);
    check(&d, &f);

    // Run-end encoded: positions are the runs' values, nulls from the values.
    let ends = PrimitiveArray::<i32>::new(vec![2, 3, 6]);
    let values = PrimitiveArray::<i64>::from_options([Some(5), None, Some(7)]);
    let r = RunEndArray::try_new(ends.into(), values.into()).unwrap();
    let r = Array::from(r).slice(1, 4);
    let f = Field::new("r", r.data_type().clone(), true);
    let l = &shred(&r, &f).unwrap()[0];
    assert_eq!(nested(l), (&[1i16, 0, 1, 1][..], &[][..]));
    assert_eq!(l.ranges, [0..3, 2..3], "positions 0, 1, 2, 2");
    assert_eq!(l.array.len(), 3);
    check(&r, &f);
}

#[test]
fn nulls_in_non_nullable_fields_are_errors_only_where_reached() {
    let err = shred(
        &ints(&[Some(1), None]),
        &Field::new("x", DataType::Int32, false),
    )
    .unwrap_err();
    assert!(err.to_string().contains("\"x\""), "{err}");

    // A required child's nulls under its struct's nulls are never reached.
    let c = Field::new("c", DataType::Int32, false);
    let fields: quiver_arrow::datatype::Fields = vec![c].into();
    let masked = StructArray::try_new(
        fields.clone(),
        3,
        vec![ints(&[Some(1), None, Some(3)])],
        Some([true, false, true].into_iter().collect()),
    )
    .unwrap();
    let f = Field::new("s", DataType::Struct(fields.clone()), true);
    let leaves = shred(&masked.into(), &f).unwrap();
    assert_eq!(nested(&leaves[0]).0, [1, 0, 1]);
    assert_eq!(leaves[0].ranges, [0..1, 2..3]);
    let bare =
        StructArray::try_new(fields, 3, vec![ints(&[Some(1), None, Some(3)])], None).unwrap();
    let err = shred(&bare.into(), &f).unwrap_err();
    assert!(err.to_string().contains("\"s.c\""), "{err}");

    // Nor are a required element's nulls inside a null list entry's span.
    let item = Field::new("element", DataType::Int32, false);
    let a = list(
        item.clone(),
        vec![0, 1, 2],
        ints(&[Some(1), None]),
        Some(vec![true, false]),
    );
    let f = Field::new("l", a.data_type().clone(), true);
    assert_eq!(nested(&shred(&a, &f).unwrap()[0]).0, [2, 0]);
    let a = list(item, vec![0, 1, 2], ints(&[Some(1), None]), None);
    let err = shred(&a, &f).unwrap_err();
    assert!(err.to_string().contains("\"l.element\""), "{err}");
}

#[test]
fn an_array_of_another_type_than_its_field_is_an_error() {
    let err = shred(&ints(&[Some(1)]), &Field::new("x", DataType::Int64, true)).unwrap_err();
    assert!(err.to_string().contains("\"x\""), "{err}");
    let item = Field::new("element", DataType::Int32, true);
    let a = list(item, vec![0, 1], ints(&[Some(1)]), None);
    let wrong = DataType::List(Arc::new(Field::new("element", DataType::Utf8, true)));
    let err = shred(&a, &Field::new("l", wrong, true)).unwrap_err();
    assert!(err.to_string().contains("\"l.element\""), "{err}");
}
