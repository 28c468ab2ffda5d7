//! Random nested data types and random values of a type.
//!
//! Leaves: Boolean, Int8/32/64, UInt16/64, Float32/64, Decimal128(10, 2), Date32,
//! Timestamp(ms, UTC), Utf8, LargeUtf8, Binary, Utf8View, BinaryView, FixedSizeBinary(3) and
//! (0), Dictionary<Int16 or UInt8, Utf8>, RunEndEncoded<Int32, Int64 or Utf8>, Null. Nested:
//! List, LargeList, ListView, LargeListView, FixedSizeList(2, 1 or 0), Struct of 1 to 3 fields,
//! Map<Utf8, T>, sparse and dense unions of 2 or 3 children with shuffled type ids.

use super::model::Value;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, subsequence};
use quiver_arrow::{DataType, Field, FieldRef, IntegerType, TimeUnit, UnionFields, UnionMode};
use std::sync::Arc;

/// Most values a generated vector holds.
pub const MAX_VALUES: usize = 60;

/// Most values a generated long vector holds.
pub const MAX_LONG_VALUES: usize = 300;

/// Type ids unions draw from (shuffled, so mostly not the default `0, 1, 2`, in any order).
const UNION_IDS: [i8; 6] = [0, 1, 3, 7, 42, 127];

/// Strings that repeat often (dictionaries dedupe them, run-end encoding merges them); some
/// longer than the 12 bytes a view holds inline.
const POOL: [&str; 8] = [
    "",
    "a",
    "b",
    "héllo",
    "exactly12byt",
    "thirteen byte",
    "a string well beyond twelve bytes",
    "ünïcödé and more than twelve",
];

fn field(name: &str, data_type: DataType, nullable: bool) -> FieldRef {
    // A Null-typed field can only hold nulls.
    let nullable = nullable || data_type == DataType::Null;
    Arc::new(Field::new(name, data_type, nullable))
}

/// The types without children (dictionaries and run-end encoded types count as leaves).
fn leaf_type() -> BoxedStrategy<DataType> {
    let run_ends = || field("run_ends", DataType::Int32, false);
    prop_oneof![
        Just(DataType::Boolean),
        Just(DataType::Int8),
        Just(DataType::Int32),
        Just(DataType::Int64),
        Just(DataType::UInt16),
        Just(DataType::UInt64),
        Just(DataType::Float32),
        Just(DataType::Float64),
        Just(DataType::Decimal128 {
            precision: 10,
            scale: 2
        }),
        Just(DataType::Date32),
        Just(DataType::Timestamp(
            TimeUnit::Millisecond,
            Some("UTC".into())
        )),
        Just(DataType::Utf8),
        Just(DataType::LargeUtf8),
        Just(DataType::Binary),
        Just(DataType::Utf8View),
        Just(DataType::BinaryView),
        Just(DataType::FixedSizeBinary(3)),
        Just(DataType::FixedSizeBinary(0)),
        Just(DataType::dictionary(IntegerType::Int16, DataType::Utf8)),
        Just(DataType::dictionary(IntegerType::UInt8, DataType::Utf8)),
        Just(DataType::RunEndEncoded(
            run_ends(),
            field("values", DataType::Int64, true)
        )),
        Just(DataType::RunEndEncoded(
            run_ends(),
            field("values", DataType::Utf8, true)
        )),
        Just(DataType::Null),
    ]
    .boxed()
}

/// Random data types nested up to three levels deep, flat about a quarter of the time.
pub fn arb_type() -> BoxedStrategy<DataType> {
    arb_type_of_depth(3)
}

/// Random data types nested up to `depth` levels deep, flat about a quarter of the time.
pub fn arb_type_of_depth(depth: u32) -> BoxedStrategy<DataType> {
    let nested = leaf_type().prop_recursive(depth, 24, 3, |inner| {
        let child = (inner.clone(), any::<bool>());
        prop_oneof![
            4 => (child.clone(), 0u8..7)
                .prop_map(|((t, n), kind)| list_of(kind, field("item", t, n))),
            1 => vec(child.clone(), 1..=3).prop_map(|fs| {
                let fields: Vec<FieldRef> = (fs.into_iter().enumerate())
                    .map(|(i, (t, n))| field(&format!("f{i}"), t, n))
                    .collect();
                DataType::Struct(fields.into())
            }),
            1 => child.prop_map(|(t, n)| map_of(t, n)),
            1 => arb_union(inner),
        ]
    });
    // Flat types at the top level a quarter of the time (nested types mostly hold them).
    prop_oneof![1 => leaf_type(), 3 => nested].boxed()
}

/// One of the list types over `item`.
fn list_of(kind: u8, item: FieldRef) -> DataType {
    match kind {
        0 => DataType::List(item),
        1 => DataType::LargeList(item),
        2 => DataType::ListView(item),
        3 => DataType::LargeListView(item),
        4 => DataType::FixedSizeList(item, 0),
        5 => DataType::FixedSizeList(item, 1),
        _ => DataType::FixedSizeList(item, 2),
    }
}

fn map_of(value: DataType, nullable: bool) -> DataType {
    let kv: Vec<FieldRef> = vec![
        field("keys", DataType::Utf8, false),
        field("values", value, nullable),
    ];
    DataType::Map(field("entries", DataType::Struct(kv.into()), false), false)
}

fn arb_union(inner: BoxedStrategy<DataType>) -> BoxedStrategy<DataType> {
    vec(inner, 2..=3)
        .prop_flat_map(|children| {
            let ids = subsequence(UNION_IDS.to_vec(), children.len()).prop_shuffle();
            let mode = prop_oneof![Just(UnionMode::Sparse), Just(UnionMode::Dense)];
            (Just(children), ids, mode)
        })
        .prop_map(|(children, ids, mode)| {
            let fields: Vec<FieldRef> = (children.into_iter().enumerate())
                .map(|(i, t)| field(&format!("u{i}"), t, true))
                .collect();
            DataType::Union(
                UnionFields::try_new(ids, fields).expect("distinct ids"),
                mode,
            )
        })
        .boxed()
}

/// A type and 0..=60 values of it.
pub fn arb_case() -> BoxedStrategy<(DataType, Vec<Value>)> {
    arb_type()
        .prop_flat_map(|dt| (Just(dt.clone()), arb_values(&dt, 0..=MAX_VALUES)))
        .boxed()
}

/// Values of `dt` at a nullable position (about 20% nulls); half of the time in runs of up
/// to 4 equal values (runs for run-end encoding to merge and slices to split, repeated
/// dictionary keys).
pub fn arb_values(
    dt: &DataType,
    len: impl Into<proptest::collection::SizeRange>,
) -> BoxedStrategy<Vec<Value>> {
    let len = len.into();
    let runs = in_runs(dt, len.clone(), 4, len.end_incl());
    prop_oneof![vec(arb_value(dt, true), len), runs].boxed()
}

/// Up to `max_len` values in `runs` runs of 1..=`max_run` equal values.
fn in_runs(
    dt: &DataType,
    runs: proptest::collection::SizeRange,
    max_run: usize,
    max_len: usize,
) -> impl Strategy<Value = Vec<Value>> + use<> {
    vec((arb_value(dt, true), 1..=max_run), runs).prop_map(move |runs| {
        let mut out: Vec<Value> = runs
            .into_iter()
            .flat_map(|(v, n)| std::iter::repeat_n(v, n))
            .collect();
        out.truncate(max_len);
        out
    })
}

/// Up to [`MAX_LONG_VALUES`] values, often in long runs (long runs of nulls and of valid slots
/// put run boundaries on and across the 64-bit words that bitmap kernels work in).
pub fn arb_long_values(dt: &DataType) -> BoxedStrategy<Vec<Value>> {
    prop_oneof![
        vec(arb_value(dt, true), 0..=MAX_LONG_VALUES),
        in_runs(dt, (0..=40).into(), 80, MAX_LONG_VALUES),
        in_runs(dt, (0..=80).into(), 8, MAX_LONG_VALUES),
    ]
    .boxed()
}

/// One value of `dt`; null about a fifth of the time when `nullable`. Unions are never
/// `Null` themselves (they have no validity): their null is a null child value.
pub fn arb_value(dt: &DataType, nullable: bool) -> BoxedStrategy<Value> {
    let v = non_null(dt);
    if nullable && !matches!(dt, DataType::Union(..) | DataType::Null) {
        prop_oneof![1 => Just(Value::Null), 4 => v].boxed()
    } else {
        v
    }
}

fn non_null(dt: &DataType) -> BoxedStrategy<Value> {
    match dt {
        DataType::Null => Just(Value::Null).boxed(),
        DataType::Boolean => any::<bool>().prop_map(Value::Bool).boxed(),
        DataType::Int8 => any::<i8>().prop_map(|x| Value::Int(x.into())).boxed(),
        DataType::Int32 | DataType::Date32 => {
            prop_oneof![4 => any::<i32>(), 1 => select(vec![i32::MIN, i32::MAX, -1, 0])]
                .prop_map(|x| Value::Int(x.into()))
                .boxed()
        }
        DataType::Int64 => any::<i64>().prop_map(Value::Int).boxed(),
        // Mostly plausible instants (years 1843..2096), sometimes any i64 or an extreme one.
        DataType::Timestamp(..) => prop_oneof![
            6 => -4_000_000_000_000i64..4_000_000_000_000,
            2 => any::<i64>(),
            1 => select(vec![i64::MIN, i64::MAX, -1, 0]),
        ]
        .prop_map(Value::Int)
        .boxed(),
        DataType::UInt16 => any::<u16>().prop_map(|x| Value::UInt(x.into())).boxed(),
        DataType::UInt64 => any::<u64>().prop_map(Value::UInt).boxed(),
        DataType::Float32 => float32().prop_map(|b| Value::Float(b.into())).boxed(),
        DataType::Float64 => float64().prop_map(Value::Float).boxed(),
        // Mostly within precision 10, sometimes any i128 or an extreme one.
        DataType::Decimal128 { .. } => prop_oneof![
            6 => -9_999_999_999i128..=9_999_999_999,
            2 => any::<i128>(),
            1 => select(vec![i128::MIN, i128::MAX, -1, 0, 1, -100, 99]),
        ]
        .prop_map(Value::Decimal)
        .boxed(),
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => string().boxed(),
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView => {
            prop_oneof![vec(any::<u8>(), 0..=12), vec(any::<u8>(), 13..=40)]
                .prop_map(Value::Bytes)
                .boxed()
        }
        DataType::FixedSizeBinary(w) => {
            vec(any::<u8>(), *w as usize).prop_map(Value::Bytes).boxed()
        }
        DataType::Dictionary { .. } => pooled_string(),
        DataType::RunEndEncoded(_, values) => match values.data_type() {
            DataType::Int64 => prop_oneof![
                2 => select(vec![-1i64, 0, 1, i64::MIN, i64::MAX]),
                1 => any::<i64>()
            ]
            .prop_map(Value::Int)
            .boxed(),
            _ => pooled_string(),
        },
        _ => non_null_nested(dt),
    }
}

fn non_null_nested(dt: &DataType) -> BoxedStrategy<Value> {
    match dt {
        DataType::List(f)
        | DataType::LargeList(f)
        | DataType::ListView(f)
        | DataType::LargeListView(f) => vec(arb_value(f.data_type(), f.is_nullable()), 0..=4)
            .prop_map(Value::List)
            .boxed(),
        DataType::FixedSizeList(f, n) => {
            vec(arb_value(f.data_type(), f.is_nullable()), *n as usize)
                .prop_map(Value::List)
                .boxed()
        }
        DataType::Struct(fields) => {
            let children: Vec<_> = fields
                .iter()
                .map(|f| arb_value(f.data_type(), f.is_nullable()))
                .collect();
            children.prop_map(Value::Struct).boxed()
        }
        DataType::Map(entries, _) => {
            let DataType::Struct(kv) = entries.data_type() else {
                unreachable!("generated maps have struct entries")
            };
            let entry = (
                arb_value(kv[0].data_type(), false),
                arb_value(kv[1].data_type(), kv[1].is_nullable()),
            );
            vec(entry, 0..=3).prop_map(Value::Map).boxed()
        }
        DataType::Union(fields, _) => {
            let children: Vec<BoxedStrategy<Value>> = fields
                .type_ids()
                .iter()
                .zip(fields.fields().iter())
                .map(|(&id, f)| {
                    arb_value(f.data_type(), f.is_nullable())
                        .prop_map(move |v| Value::Union(id, Box::new(v)))
                        .boxed()
                })
                .collect();
            proptest::strategy::Union::new(children).boxed()
        }
        other => panic!("no value strategy for {other}"),
    }
}

fn string() -> impl Strategy<Value = Value> {
    prop_oneof!["[a-c]{0,3}", "\\PC{0,12}", "[a-z]{12,13}", "\\PC{13,30}",].prop_map(Value::Str)
}

fn pooled_string() -> BoxedStrategy<Value> {
    select(POOL.to_vec())
        .prop_map(|s| Value::Str(s.to_string()))
        .boxed()
}

fn float32() -> impl Strategy<Value = u32> {
    let special = select(vec![
        0.0f32.to_bits(),
        (-0.0f32).to_bits(),
        f32::NAN.to_bits(),
        f32::NAN.to_bits() | 1,
        (-f32::NAN).to_bits(),
        f32::INFINITY.to_bits(),
        f32::NEG_INFINITY.to_bits(),
        f32::MIN_POSITIVE.to_bits(),
        1.0f32.to_bits(),
    ]);
    prop_oneof![special, any::<u32>(), (-1e6f32..1e6).prop_map(f32::to_bits)]
}

fn float64() -> impl Strategy<Value = u64> {
    let special = select(vec![
        0.0f64.to_bits(),
        (-0.0f64).to_bits(),
        f64::NAN.to_bits(),
        f64::NAN.to_bits() | 1,
        (-f64::NAN).to_bits(),
        f64::INFINITY.to_bits(),
        f64::NEG_INFINITY.to_bits(),
        f64::MIN_POSITIVE.to_bits(),
        1.5f64.to_bits(),
    ]);
    prop_oneof![special, any::<u64>(), (-1e9f64..1e9).prop_map(f64::to_bits)]
}
