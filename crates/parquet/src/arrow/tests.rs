//! The legacy list and map rules of `LogicalTypes.md` on hand-built schemas (the pyarrow
//! comparison in `tests/it/arrow_schema.rs` covers what current writers produce).

use super::*;
use crate::format::{ConvertedType, SchemaElement, Type};
use crate::schema::tests::{group, leaf};
use quiver_arrow::datatype::DataType;

fn annotated(mut e: SchemaElement<'static>, c: ConvertedType) -> SchemaElement<'static> {
    e.converted_type = Some(c);
    e
}

fn field_type(elements: &[SchemaElement<'static>]) -> (String, Plan) {
    let s = SchemaDescriptor::new(elements).unwrap();
    let a = arrow_schema(&s, elements, &[], &ReadOptions::default()).unwrap();
    (
        format!("{:?}", a.schema.fields[0].data_type()),
        a.plans[0].clone(),
    )
}

fn list_item(elements: &[SchemaElement<'static>]) -> (String, bool, String) {
    let s = SchemaDescriptor::new(elements).unwrap();
    let a = arrow_schema(&s, elements, &[], &ReadOptions::default()).unwrap();
    let f = &a.schema.fields[0];
    match f.data_type() {
        DataType::List(item) => (
            item.name().to_string(),
            item.is_nullable(),
            format!("{:?}", item.data_type()),
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn legacy_lists() {
    let list = |name| annotated(group(name, 'O', 1), ConvertedType::LIST);
    // Two-level: the repeated node is a leaf.
    let e = [
        group("m", '-', 1),
        list("a"),
        leaf("array", 'P', Type::INT32),
    ];
    assert_eq!(list_item(&e), ("array".into(), false, "Int32".into()));
    // The repeated group has several fields: it is the element.
    let e = [
        group("m", '-', 1),
        list("a"),
        group("pair", 'P', 2),
        leaf("x", 'R', Type::INT32),
        leaf("y", 'O', Type::INT32),
    ];
    let (name, nullable, t) = list_item(&e);
    assert_eq!((name.as_str(), nullable), ("pair", false));
    assert!(t.starts_with("Struct"), "{t}");
    // Named `array` or `<list>_tuple` with one field: still the element.
    for rep in ["array", "a_tuple"] {
        let e = [
            group("m", '-', 1),
            list("a"),
            group(rep, 'P', 1),
            leaf("x", 'O', Type::INT32),
        ];
        let (name, nullable, t) = list_item(&e);
        assert_eq!((name.as_str(), nullable), (rep, false));
        assert!(t.starts_with("Struct"), "{t}");
    }
    // The repeated group's one field is itself repeated (rule 3): the group is the element,
    // a struct holding a list — unless the group is annotated LIST, when it is a two-level
    // list serving as the element (as pyarrow reads parquet-mr's old list structure).
    for annotate in [false, true] {
        let mut middle = group("element", 'P', 1);
        if annotate {
            middle = annotated(middle, ConvertedType::LIST);
        }
        let e = [
            group("m", '-', 1),
            list("a"),
            middle,
            leaf("x", 'P', Type::INT32),
        ];
        let (name, nullable, t) = list_item(&e);
        assert_eq!((name.as_str(), nullable), ("element", false));
        let want = if annotate { "List" } else { "Struct" };
        assert!(t.starts_with(want), "{t}");
        if annotate {
            assert_eq!(
                field_type(&e).1,
                Plan::List {
                    node: 1,
                    repeated: 2,
                    element: Box::new(Plan::List {
                        node: 2,
                        repeated: 3,
                        element: Box::new(Plan::Leaf { column: 0, node: 3 })
                    })
                }
            );
        }
    }
    // Three-level: the element is the repeated group's one child.
    let e = [
        group("m", '-', 1),
        list("a"),
        group("list", 'P', 1),
        leaf("element", 'O', Type::INT32),
    ];
    assert_eq!(list_item(&e), ("element".into(), true, "Int32".into()));
    let (_, plan) = field_type(&e);
    assert_eq!(
        plan,
        Plan::List {
            node: 1,
            repeated: 2,
            element: Box::new(Plan::Leaf { column: 0, node: 3 })
        }
    );
}

#[test]
fn bare_repeated_fields_are_non_null_lists() {
    let e = [group("m", '-', 1), leaf("r", 'P', Type::INT64)];
    let s = SchemaDescriptor::new(&e).unwrap();
    let a = arrow_schema(&s, &e, &[], &ReadOptions::default()).unwrap();
    let f = &a.schema.fields[0];
    assert!(!f.is_nullable());
    assert_eq!(list_item(&e), ("r".into(), false, "Int64".into()));
    assert_eq!(
        a.plans[0],
        Plan::List {
            node: 1,
            repeated: 1,
            element: Box::new(Plan::Leaf { column: 0, node: 1 })
        }
    );
}

#[test]
fn maps_and_map_key_value() {
    for c in [ConvertedType::MAP, ConvertedType::MAP_KEY_VALUE] {
        let e = [
            group("m", '-', 1),
            annotated(group("tags", 'O', 1), c),
            group("key_value", 'P', 2),
            leaf("key", 'R', Type::INT32),
            leaf("value", 'O', Type::DOUBLE),
        ];
        let s = SchemaDescriptor::new(&e).unwrap();
        let a = arrow_schema(&s, &e, &[], &ReadOptions::default()).unwrap();
        match a.schema.fields[0].data_type() {
            // The entries field is named after the map, as pyarrow names it.
            DataType::Map(entries, false) => assert_eq!(entries.name(), "tags"),
            other => panic!("{other:?}"),
        }
        // Optional keys are refused, as pyarrow refuses them.
        let mut bad = e.clone();
        bad[3] = leaf("key", 'O', Type::INT32);
        let s = SchemaDescriptor::new(&bad).unwrap();
        let err = arrow_schema(&s, &bad, &[], &ReadOptions::default()).unwrap_err();
        assert!(err.to_string().contains("keys must be required"), "{err}");
    }
}

#[test]
fn unknown_logical_types_fall_back_and_mismatches_are_errors() {
    let mut e = leaf("x", 'R', Type::INT64);
    e.logical_type = Some(crate::format::LogicalType::Unknown(99));
    let els = [group("m", '-', 1), e];
    assert_eq!(field_type(&els).0, "Int64");
    let mut e = leaf("x", 'R', Type::INT64);
    e.logical_type = Some(crate::format::LogicalType::Date);
    let els = [group("m", '-', 1), e];
    let s = SchemaDescriptor::new(&els).unwrap();
    let err = arrow_schema(&s, &els, &[], &ReadOptions::default()).unwrap_err();
    assert!(
        err.to_string().contains("cannot annotate physical type"),
        "{err}"
    );
}

#[test]
fn json_reads_as_the_json_extension_from_either_annotation() {
    let ext = |e: SchemaElement<'static>| {
        let els = [group("m", '-', 1), e];
        let s = SchemaDescriptor::new(&els).unwrap();
        let a = arrow_schema(&s, &els, &[], &ReadOptions::default()).unwrap();
        let f = &a.schema.fields[0];
        (
            format!("{:?}", f.data_type()),
            f.metadata().get("ARROW:extension:name").cloned(),
        )
    };
    let json = Some("arrow.json".to_string());
    // fastparquet writes only the converted type; pyarrow reads both as `arrow.json`.
    let converted = annotated(leaf("j", 'O', Type::BYTE_ARRAY), ConvertedType::JSON);
    assert_eq!(ext(converted), ("Utf8".to_string(), json.clone()));
    let mut logical = leaf("j", 'O', Type::BYTE_ARRAY);
    logical.logical_type = Some(crate::format::LogicalType::Json);
    assert_eq!(ext(logical), ("Utf8".to_string(), json));
    let plain = annotated(leaf("s", 'O', Type::BYTE_ARRAY), ConvertedType::UTF8);
    assert_eq!(ext(plain), ("Utf8".to_string(), None));
}

/// INT96 as Spark writes it from 64-bit microseconds `v` (parquet-mr: the Julian day in 64-bit
/// microseconds, wrapping; truncating division and remainder).
fn spark_int96(v: i64) -> [u8; 12] {
    const MICROS_PER_DAY: i64 = 86_400_000_000;
    let julian = v.wrapping_add(2_440_588 * MICROS_PER_DAY);
    let (day, micros) = (julian / MICROS_PER_DAY, julian % MICROS_PER_DAY);
    let mut b = [0; 12];
    b[..8].copy_from_slice(&(micros * 1000).to_le_bytes());
    b[8..].copy_from_slice(&(day as i32).to_le_bytes());
    b
}

#[test]
fn int96_reads_spark_values_past_the_nanosecond_range_or_refuses_them() {
    use super::build::int96_value;
    use quiver_arrow::datatype::TimeUnit::*;
    // parquet-testing's int96_from_spark.md lists these microseconds; the last wraps.
    for v in [
        1_704_141_296_123_456,
        253_402_225_200_000_000,
        9_089_380_393_200_000_000,
        -62_135_596_800_000_000,
        -1,
        0,
    ] {
        let b = spark_int96(v);
        assert_eq!(int96_value(Microsecond, &b), Some(v), "{v}");
        // Cut to the unit downwards: -1 µs is 1969-12-31 23:59:59.999.
        assert_eq!(
            int96_value(Millisecond, &b),
            Some(v.div_euclid(1000)),
            "{v}"
        );
        assert_eq!(
            int96_value(Second, &b),
            Some(v.div_euclid(1_000_000)),
            "{v}"
        );
        assert_eq!(int96_value(Nanosecond, &b), v.checked_mul(1000), "{v}");
    }
    // Nanosecond precision is kept; a time of day before the epoch's day is exact.
    let mut b = [0; 12];
    b[..8].copy_from_slice(&(86_400_000_000_000i64 - 1).to_le_bytes());
    b[8..].copy_from_slice(&(2_440_588i32 - 1).to_le_bytes());
    assert_eq!(int96_value(Nanosecond, &b), Some(-1));
    assert_eq!(int96_value(Microsecond, &b), Some(-1));
    // The widest Julian days are refused in nanoseconds, never wrapped.
    b[8..].copy_from_slice(&i32::MAX.to_le_bytes());
    assert_eq!(int96_value(Nanosecond, &b), None);
    b[8..].copy_from_slice(&i32::MIN.to_le_bytes());
    assert_eq!(int96_value(Nanosecond, &b), None);
    assert!(int96_value(Second, &b).is_some());
}
