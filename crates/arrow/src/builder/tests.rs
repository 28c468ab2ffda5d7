//! Shared test helpers and tests across builders (`make_builder` round trips).

use super::*;
use crate::datatype::{
    Field, FieldRef, Fields, IntegerType, IntervalUnit, TimeUnit, UnionFields, UnionMode,
};
use crate::{Metadata, ValidationLevel};
use bytes::Bytes;
use std::sync::Arc;

/// Asserts that a non-empty frozen buffer starts on a 64-byte boundary.
#[track_caller]
pub(crate) fn assert_aligned(bytes: &Bytes) {
    assert!(!bytes.is_empty(), "check alignment on a non-empty buffer");
    assert_eq!(
        bytes.as_ptr() as usize % 64,
        0,
        "buffer is not 64-byte aligned"
    );
}

/// Asserts that an array passes full validation.
#[track_caller]
pub(crate) fn assert_valid(array: &Array) {
    if let Err(e) = array.validate(ValidationLevel::Full) {
        panic!("{} array fails validation: {e}", array.data_type());
    }
}

/// `List<Struct<a: Dictionary<Int32, Utf8>, b: Map<Utf8, Int64>>>` with a non-default item
/// name, nullability and metadata at several levels.
fn nested_type() -> DataType {
    let metadata: Metadata = [("k".to_string(), "v".to_string())].into();
    let entries = Field::new(
        "entries",
        DataType::Struct(
            vec![
                Field::new("keys", DataType::Utf8, false),
                Field::new("values", DataType::Int64, true),
            ]
            .into(),
        ),
        false,
    );
    let fields = vec![
        Field::new(
            "a",
            DataType::dictionary(IntegerType::Int32, DataType::Utf8),
            true,
        )
        .with_metadata(metadata.clone()),
        Field::new("b", DataType::Map(Arc::new(entries), false), false),
    ];
    let item = Field::new("element", DataType::Struct(fields.into()), true).with_metadata(metadata);
    DataType::List(Arc::new(item))
}

#[test]
fn make_builder_nested_round_trip() {
    let dt = nested_type();
    let mut b = make_builder(&dt, 4).unwrap();
    assert_eq!(b.data_type(), dt);
    let list = b.as_list_mut().unwrap();
    // Row 0: [{a: "x", b: {k1: 1, k2: null}}, {a: null, b: {}}]
    let s = list.values().as_struct_mut().unwrap();
    let a = s.field_builder(0).as_dictionary_mut().unwrap();
    a.append_str("x").unwrap();
    a.append_null();
    let m = s.field_builder(1).as_map_mut().unwrap();
    m.keys().as_string_mut().unwrap().append_value("k1");
    m.values()
        .as_primitive_mut::<i64>()
        .unwrap()
        .append_value(1);
    m.keys().as_string_mut().unwrap().append_value("k2");
    m.values().append_null();
    m.append(true);
    m.append(true);
    s.append(true);
    s.append(true);
    list.append(true);
    // Row 1: null list. Row 2: [{a: "x", b: {k3: 3}}] reusing the dictionary entry.
    list.append_null();
    let s = list.values().as_struct_mut().unwrap();
    s.field_builder(0)
        .as_dictionary_mut()
        .unwrap()
        .append_str("x")
        .unwrap();
    let m = s.field_builder(1).as_map_mut().unwrap();
    m.keys().as_string_mut().unwrap().append_value("k3");
    m.values()
        .as_primitive_mut::<i64>()
        .unwrap()
        .append_value(3);
    m.append(true);
    s.append(true);
    list.append(true);

    let array = b.finish();
    assert_eq!(array.data_type(), &dt, "the exact type requested");
    assert_valid(&array);
    let list = array.as_list().unwrap();
    assert_eq!(list.offsets().as_slice(), &[0, 2, 2, 3]);
    assert_eq!(&list.validity().unwrap().bytes()[..], &[0b101]);
    let s = list.values().as_struct().unwrap();
    assert!(s.validity().is_none());
    let a = s.column(0).as_dictionary().unwrap();
    let keys = a.keys().as_primitive::<i32>().unwrap();
    assert_eq!(keys.values().as_slice(), &[0, 0, 0]);
    assert_eq!(&keys.validity().unwrap().bytes()[..], &[0b101]);
    assert_eq!(a.values().as_utf8().unwrap().values().as_slice(), b"x");
    let m = s.column(1).as_map().unwrap();
    assert_eq!(m.offsets().as_slice(), &[0, 2, 2, 3]);
    assert_eq!(m.keys().as_utf8().unwrap().values().as_slice(), b"k1k2k3");
    let mv = m.values().as_primitive::<i64>().unwrap();
    assert_eq!(mv.values().as_slice(), &[1, 0, 3]);
    // The builder was reset and builds the same type again.
    assert!(b.is_empty());
    b.append_null();
    let again = b.finish();
    assert_eq!(again.data_type(), &dt);
    assert_valid(&again);
}

fn item(dt: DataType) -> FieldRef {
    Arc::new(Field::new("item", dt, true))
}

/// One type per `DataType` variant (and per logical primitive type).
fn every_type() -> Vec<DataType> {
    use DataType as D;
    let union_fields = UnionFields::try_new(
        vec![3, 1],
        vec![
            Field::new("u1", D::Utf8, true),
            Field::new("u2", D::Boolean, true),
        ],
    )
    .unwrap();
    let entries = Field::new(
        "entries",
        D::Struct(
            vec![
                Field::new("keys", D::Int32, false),
                Field::new("values", D::LargeUtf8, true),
            ]
            .into(),
        ),
        false,
    );
    let ree = |dt: D| {
        D::RunEndEncoded(
            Arc::new(Field::new("run_ends", D::Int16, false)),
            Arc::new(Field::new("values", dt, true)),
        )
    };
    vec![
        D::Null,
        D::Boolean,
        D::Int8,
        D::Int16,
        D::Int32,
        D::Int64,
        D::UInt8,
        D::UInt16,
        D::UInt32,
        D::UInt64,
        D::Float16,
        D::Float32,
        D::Float64,
        D::Decimal32 {
            precision: 9,
            scale: 2,
        },
        D::Decimal64 {
            precision: 18,
            scale: -3,
        },
        D::Decimal128 {
            precision: 38,
            scale: 10,
        },
        D::Decimal256 {
            precision: 76,
            scale: 0,
        },
        D::Date32,
        D::Date64,
        D::Time32(TimeUnit::Millisecond),
        D::Time64(TimeUnit::Nanosecond),
        D::Timestamp(TimeUnit::Microsecond, Some("Europe/Paris".into())),
        D::Timestamp(TimeUnit::Second, None),
        D::Interval(IntervalUnit::YearMonth),
        D::Interval(IntervalUnit::DayTime),
        D::Interval(IntervalUnit::MonthDayNano),
        D::Duration(TimeUnit::Second),
        D::FixedSizeBinary(5),
        D::Binary,
        D::Utf8,
        D::LargeBinary,
        D::LargeUtf8,
        D::BinaryView,
        D::Utf8View,
        D::FixedSizeList(item(D::Int16), 3),
        D::List(item(D::Utf8View)),
        D::LargeList(item(D::Boolean)),
        D::ListView(item(D::Int32)),
        D::LargeListView(item(D::Binary)),
        D::Struct(vec![Field::new("s", D::Float64, false)].into()),
        D::Map(Arc::new(entries), true),
        D::Union(union_fields.clone(), UnionMode::Sparse),
        D::Union(union_fields, UnionMode::Dense),
        D::dictionary(IntegerType::UInt8, D::LargeUtf8),
        D::dictionary(
            IntegerType::Int64,
            D::Decimal128 {
                precision: 5,
                scale: 1,
            },
        ),
        D::dictionary(IntegerType::Int16, D::FixedSizeBinary(2)),
        D::dictionary(IntegerType::Int16, D::BinaryView),
        D::dictionary(IntegerType::Int16, D::Boolean),
        D::dictionary(IntegerType::Int8, D::Null),
        D::dictionary(IntegerType::Int8, D::list_of(D::Int8)),
        ree(D::Utf8),
        ree(D::Float32),
        ree(D::Struct(Fields::empty())),
        ree(D::dictionary(IntegerType::Int8, D::Utf8)),
    ]
}

#[test]
fn make_builder_covers_every_type() {
    for dt in every_type() {
        let mut b = make_builder(&dt, 2).unwrap_or_else(|e| panic!("{dt}: {e}"));
        assert_eq!(b.data_type(), dt);
        let empty = b.finish();
        assert_eq!(empty.data_type(), &dt);
        assert_eq!(empty.len(), 0);
        assert_valid(&empty);
        b.append_null();
        b.append_null();
        let a = b.finish();
        assert_eq!(a.data_type(), &dt, "{dt}");
        assert_eq!(a.len(), 2, "{dt}");
        assert_valid(&a);
        // Every layout with nulls reports them (Null, union and run-end arrays included).
        assert_eq!(a.null_count(), 2, "{dt}");
        // Nested inside a list, the child type is preserved too.
        let list = DataType::List(item(dt.clone()));
        let mut b = make_builder(&list, 0).unwrap();
        let l = b.as_list_mut().unwrap();
        l.values().append_null();
        l.append(true);
        let a = b.finish();
        assert_eq!(a.data_type(), &list);
        assert_valid(&a);
    }
}

#[test]
fn make_builder_rejects_bad_types_and_keeps_run_end_field_names() {
    let bad_decimal = DataType::Decimal32 {
        precision: 10,
        scale: 0,
    };
    assert!(make_builder(&bad_decimal, 0).is_err());
    let odd_names = DataType::RunEndEncoded(
        Arc::new(Field::new("ends", DataType::Int32, false)),
        Arc::new(Field::new("values", DataType::Utf8, true)),
    );
    let mut b = make_builder(&odd_names, 0).unwrap();
    let r = b.as_run_end_mut().unwrap();
    r.append_str("x").unwrap();
    r.append_str("x").unwrap();
    r.append_null().unwrap();
    let a = b.finish();
    assert_eq!(a.data_type(), &odd_names);
    assert_eq!(a.len(), 3);
    assert_valid(&a);
    let nullable_ends = DataType::RunEndEncoded(
        Arc::new(Field::new("run_ends", DataType::Int32, true)),
        Arc::new(Field::new("values", DataType::Utf8, true)),
    );
    assert!(make_builder(&nullable_ends, 0).is_err());
}

#[test]
fn typed_accessors() {
    let mut b = make_builder(&DataType::Date32, 0).unwrap();
    assert!(b.as_primitive_mut::<i64>().is_none());
    b.as_primitive_mut::<i32>().unwrap().append_value(19000);
    assert!(b.as_string_mut().is_none());
    assert_eq!(b.len(), 1);
    let a = b.finish();
    assert_eq!(a.data_type(), &DataType::Date32);
    assert_eq!(a.as_primitive::<i32>().unwrap().value(0), 19000);

    let mut b = ArrayBuilder::from(PrimitiveBuilder::<u8>::new());
    b.as_primitive_mut::<u8>().unwrap().append_slice(&[1, 2]);
    assert_eq!(b.try_finish().unwrap().len(), 2);
}

#[test]
fn try_finish_reports_nested_misuse() {
    let dt = DataType::Struct(
        vec![
            Field::new("x", DataType::Int32, true),
            Field::new("y", DataType::Utf8, true),
        ]
        .into(),
    );
    let mut b = make_builder(&DataType::List(item(dt)), 0).unwrap();
    let s = b.as_list_mut().unwrap().values().as_struct_mut().unwrap();
    s.field_builder(0)
        .as_primitive_mut::<i32>()
        .unwrap()
        .append_value(1);
    s.append(true);
    let err = b.try_finish().unwrap_err();
    assert!(err.to_string().contains("\"y\" has 0 values"), "{err}");
    assert_eq!(b.len(), 0);
}

#[test]
fn builders_are_send_and_sync() {
    fn check<T: Send + Sync + Clone + std::fmt::Debug>() {}
    check::<ArrayBuilder>();
    check::<ListBuilder<StringBuilder>>();
    check::<PrimitiveDictionaryBuilder<i8, f64>>();
    check::<StringRunBuilder<i16>>();
}
