//! Validation rules: maps.

use super::*;

fn entries_field(key_nullable: bool) -> FieldRef {
    field(
        "entries",
        DataType::Struct(Fields::from(vec![
            Field::new("key", DataType::Utf8, key_nullable),
            Field::new("value", DataType::Int32, true),
        ])),
        false,
    )
}

fn map_entries(keys: Array) -> StructArray {
    let DataType::Struct(fields) = entries_field(false).data_type().clone() else {
        unreachable!()
    };
    let n = keys.len();
    StructArray::try_new(fields, n, vec![keys, ages(n)], None).unwrap()
}

#[test]
fn map_keys_must_not_be_null() {
    let keys = |k: [Option<&str>; 4]| Array::from(StringArray::from_options(k));
    let ok = MapArray::try_new(
        entries_field(false),
        false,
        offsets(&[0, 2, 4]),
        map_entries(keys([Some("a"), Some("b"), Some("c"), Some("d")])),
        None,
    )
    .unwrap();
    assert_valid(&Array::from(ok));

    let with_null = map_entries(keys([Some("a"), Some("b"), None, Some("d")]));
    let msg = err_text(MapArray::try_new(
        entries_field(false),
        false,
        offsets(&[0, 2, 4]),
        with_null.clone(),
        None,
    ));
    assert_eq!(msg, "map key 2 is null");
    // Entries the offsets do not reference are not part of any map.
    let short = MapArray::try_new(
        entries_field(false),
        false,
        offsets(&[0, 2]),
        with_null,
        None,
    );
    assert_valid(&Array::from(short.unwrap()));

    // A key column that understates its nulls passes the constructor (which trusts the
    // declared count) but not full validation, which names the path to the keys.
    let lying = Bitmap::try_new_with_unset(Bytes::from_static(&[0b1011]), 0, 4, 0).unwrap();
    let (o, v, _) =
        StringArray::from_options([Some("a"), Some("b"), Some("c"), Some("d")]).into_parts();
    let lying_keys = Array::from(StringArray::try_new(o, v, Some(lying)).unwrap());
    let m = MapArray::try_new(
        entries_field(false),
        false,
        offsets(&[0, 2, 4]),
        map_entries(lying_keys),
        None,
    )
    .unwrap();
    let msg = full_only_err(&Array::from(m));
    assert_eq!(
        msg,
        "child 0 (\"entries\"), child 0 (\"key\"): declared null count 0 but the validity \
         bitmap has 1 nulls"
    );
}

#[test]
fn map_entries_must_be_a_two_field_struct_with_non_nullable_keys() {
    let map = |entries: DataType| DataType::Map(field("entries", entries, false), false);
    let kv = |fields: Vec<Field>| DataType::Struct(Fields::from(fields));
    let key = Field::new("key", DataType::Utf8, false);
    let value = Field::new("value", DataType::Int32, true);

    map(kv(vec![key.clone(), value.clone()]))
        .validate()
        .unwrap();
    let cases = [
        (map(DataType::Int32), "Map entries must be a Struct"),
        (
            map(kv(vec![key.clone()])),
            "Map entries struct has 1 fields, expected 2",
        ),
        (
            map(kv(vec![key.clone(), value.clone(), value.clone()])),
            "Map entries struct has 3 fields, expected 2",
        ),
        (
            map(kv(vec![key.clone().with_nullable(true), value.clone()])),
            "Map keys must not be nullable",
        ),
        // Nested inside another type, still found.
        (
            DataType::list_of(map(kv(vec![key.with_nullable(true), value]))),
            "Map keys must not be nullable",
        ),
    ];
    for (dt, expected) in cases {
        assert_eq!(err_text(dt.validate()), expected, "{dt}");
    }

    // The array constructor applies the same rule.
    let msg = err_text(MapArray::try_new(
        entries_field(true),
        false,
        offsets(&[0, 1]),
        map_entries(names(1)),
        None,
    ));
    assert_eq!(msg, "Map keys must not be nullable");
}
