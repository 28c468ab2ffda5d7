//! Shared helpers: batch building, reading and writing through quiver-text, comparison.

use half::f16;
use quiver_arrow::compute::first_difference;
use quiver_arrow::{
    Array, BinaryArray, BooleanArray, DataType, DaysMs, Field, I256, IntegerType, IntervalUnit,
    MonthDayNano, PrimitiveArray, PrimitiveType, RecordBatch, Schema, StringArray, TimeUnit,
};
use quiver_text::csv::{CsvReadOptions, CsvReader, CsvWriteOptions, CsvWriter};
use quiver_text::json::{JsonFormat, JsonReadOptions, JsonReader, JsonWriter};
use std::sync::Arc;

/// A primitive column of logical type `dt`.
pub fn prim<T: PrimitiveType>(dt: DataType, v: impl IntoIterator<Item = Option<T>>) -> Array {
    Array::from(
        PrimitiveArray::<T>::from_options(v)
            .with_data_type(dt)
            .unwrap(),
    )
}

/// Flat columns of every type CSV can hold (5 rows each, with nulls and edge values).
pub fn flat_columns() -> Vec<(&'static str, Array)> {
    use DataType as D;
    let ts = |u, tz: Option<&str>| D::Timestamp(u, tz.map(Arc::from));
    vec![
        (
            "i8",
            prim::<i8>(
                D::Int8,
                [Some(i8::MIN), Some(i8::MAX), None, Some(0), Some(-1)],
            ),
        ),
        (
            "i16",
            prim::<i16>(D::Int16, [Some(i16::MIN), Some(1), None, Some(0), Some(-1)]),
        ),
        (
            "i32",
            prim::<i32>(
                D::Int32,
                [Some(i32::MIN), Some(i32::MAX), None, Some(0), Some(7)],
            ),
        ),
        (
            "i64",
            prim::<i64>(
                D::Int64,
                [Some(i64::MIN), Some(i64::MAX), None, Some(0), Some(9)],
            ),
        ),
        (
            "u8",
            prim::<u8>(D::UInt8, [Some(255), Some(0), None, Some(1), Some(2)]),
        ),
        (
            "u16",
            prim::<u16>(D::UInt16, [Some(u16::MAX), Some(0), None, Some(1), Some(2)]),
        ),
        (
            "u32",
            prim::<u32>(D::UInt32, [Some(u32::MAX), Some(0), None, Some(1), Some(2)]),
        ),
        (
            "u64",
            prim::<u64>(D::UInt64, [Some(u64::MAX), Some(0), None, Some(1), Some(2)]),
        ),
        (
            "f16",
            prim::<f16>(
                D::Float16,
                [
                    Some(f16::from_f32(0.1)),
                    Some(f16::MAX),
                    None,
                    Some(f16::NAN),
                    Some(f16::NEG_INFINITY),
                ],
            ),
        ),
        (
            "f32",
            prim::<f32>(
                D::Float32,
                [
                    Some(0.1),
                    Some(f32::MIN_POSITIVE),
                    None,
                    Some(f32::NAN),
                    Some(-0.0),
                ],
            ),
        ),
        (
            "f64",
            prim::<f64>(
                D::Float64,
                [
                    Some(0.1),
                    Some(1e-300),
                    None,
                    Some(f64::INFINITY),
                    Some(-1.5e300),
                ],
            ),
        ),
        (
            "bool",
            Array::from(BooleanArray::from_options([
                Some(true),
                Some(false),
                None,
                Some(true),
                Some(false),
            ])),
        ),
        (
            "utf8",
            Array::from(StringArray::from_options([
                Some("a,b"),
                Some("q\"uote"),
                None,
                Some("line\nbreak\t\u{1}"),
                Some("é😀 \\"),
            ])),
        ),
        (
            "bin",
            Array::from(BinaryArray::from_options([
                Some(&b"\x00\xff"[..]),
                Some(b"raw"),
                None,
                Some(b"x"),
                Some(b"\\"),
            ])),
        ),
        (
            "date32",
            prim::<i32>(
                D::Date32,
                [Some(18_292), Some(-1), None, Some(0), Some(2_932_896)],
            ),
        ),
        (
            "date64",
            prim::<i64>(
                D::Date64,
                [
                    Some(1_580_428_800_000),
                    Some(1_580_473_496_789),
                    None,
                    Some(0),
                    Some(-86_400_000),
                ],
            ),
        ),
        (
            "t32s",
            prim::<i32>(
                D::Time32(TimeUnit::Second),
                [Some(0), Some(86_399), None, Some(45_296), Some(1)],
            ),
        ),
        (
            "t32ms",
            prim::<i32>(
                D::Time32(TimeUnit::Millisecond),
                [Some(0), Some(86_399_999), None, Some(45_296_789), Some(1)],
            ),
        ),
        (
            "t64us",
            prim::<i64>(
                D::Time64(TimeUnit::Microsecond),
                [Some(0), Some(86_399_999_999), None, Some(1), Some(2)],
            ),
        ),
        (
            "t64ns",
            prim::<i64>(
                D::Time64(TimeUnit::Nanosecond),
                [Some(0), Some(86_399_999_999_999), None, Some(1), Some(2)],
            ),
        ),
        (
            "ts_s",
            prim::<i64>(
                ts(TimeUnit::Second, None),
                [
                    Some(0),
                    Some(-1),
                    None,
                    Some(1_580_473_496),
                    Some(253_402_300_799),
                ],
            ),
        ),
        (
            "ts_ms",
            prim::<i64>(
                ts(TimeUnit::Millisecond, None),
                [Some(0), Some(-1), None, Some(1_580_473_496_789), Some(5)],
            ),
        ),
        (
            "ts_us_utc",
            prim::<i64>(
                ts(TimeUnit::Microsecond, Some("UTC")),
                [
                    Some(0),
                    Some(-1),
                    None,
                    Some(1_580_473_496_789_123),
                    Some(5),
                ],
            ),
        ),
        (
            "ts_ns_off",
            prim::<i64>(
                ts(TimeUnit::Nanosecond, Some("+02:00")),
                [
                    Some(0),
                    Some(-1),
                    None,
                    Some(1_580_473_496_789_123_456),
                    Some(5),
                ],
            ),
        ),
        (
            "ts_ms_paris",
            prim::<i64>(
                ts(TimeUnit::Millisecond, Some("Europe/Paris")),
                [Some(0), Some(-1), None, Some(1_580_473_496_789), Some(5)],
            ),
        ),
        (
            "dur",
            prim::<i64>(
                D::Duration(TimeUnit::Millisecond),
                [Some(0), Some(-1500), None, Some(i64::MAX), Some(5)],
            ),
        ),
        (
            "dec32",
            prim::<i32>(
                D::Decimal32 {
                    precision: 9,
                    scale: 2,
                },
                [Some(-12345), Some(999_999_999), None, Some(0), Some(5)],
            ),
        ),
        (
            "dec64",
            prim::<i64>(
                D::Decimal64 {
                    precision: 18,
                    scale: -2,
                },
                [Some(-12345), Some(1), None, Some(0), Some(5)],
            ),
        ),
        (
            "dec128",
            prim::<quiver_arrow::I128>(
                D::Decimal128 {
                    precision: 38,
                    scale: 10,
                },
                [
                    Some((-12345i128).into()),
                    Some((10i128.pow(38) - 1).into()),
                    None,
                    Some(0i128.into()),
                    Some(5i128.into()),
                ],
            ),
        ),
        (
            "dec256",
            prim::<I256>(
                D::Decimal256 {
                    precision: 76,
                    scale: 5,
                },
                [
                    Some(I256([u64::MAX, u64::MAX, u64::MAX, 0x0fff_ffff_ffff_ffff])),
                    Some(I256::from_i128(-1)),
                    None,
                    Some(I256::default()),
                    Some(I256::from_i128(i128::MIN)),
                ],
            ),
        ),
        (
            "ym",
            prim::<i32>(
                D::Interval(IntervalUnit::YearMonth),
                [Some(14), Some(-14), None, Some(0), Some(1)],
            ),
        ),
        (
            "dt",
            prim::<DaysMs>(
                D::Interval(IntervalUnit::DayTime),
                [
                    Some(DaysMs {
                        days: 3,
                        milliseconds: -4000,
                    }),
                    Some(DaysMs::default()),
                    None,
                    Some(DaysMs {
                        days: -1,
                        milliseconds: 1,
                    }),
                    Some(DaysMs::default()),
                ],
            ),
        ),
        (
            "mdn",
            prim::<MonthDayNano>(
                D::Interval(IntervalUnit::MonthDayNano),
                [
                    Some(MonthDayNano {
                        months: 1,
                        days: -2,
                        nanoseconds: 3,
                    }),
                    Some(MonthDayNano::default()),
                    None,
                    Some(MonthDayNano {
                        months: 0,
                        days: 0,
                        nanoseconds: i64::MIN,
                    }),
                    Some(MonthDayNano::default()),
                ],
            ),
        ),
        (
            "large_utf8",
            built(
                &D::LargeUtf8,
                &["x", "y", "null", "a longer string value", "é"],
            ),
        ),
        (
            "utf8_view",
            built(
                &D::Utf8View,
                &[
                    "short",
                    "a string longer than twelve bytes",
                    "null",
                    "w",
                    "z",
                ],
            ),
        ),
        (
            "large_bin",
            built(&D::LargeBinary, &["62", "01", "null", "00", "ff"]),
        ),
        (
            "bin_view",
            built(
                &D::BinaryView,
                &["62", "6161616161616161616161616161", "null", "00", "ff"],
            ),
        ),
        (
            "fsb",
            built(
                &D::FixedSizeBinary(2),
                &["6263", "0000", "null", "ffff", "0a0d"],
            ),
        ),
        (
            "dict",
            built(
                &D::dictionary(IntegerType::Int8, D::Utf8),
                &["a", "b", "null", "a", "c,d"],
            ),
        ),
    ]
}

/// A column built from JSON-ish text with `make_builder` + the JSON reader's conversions
/// (used for layouts without convenient constructors). `"null"` is a null; binary is hex.
pub fn built(dt: &DataType, values: &[&str]) -> Array {
    let schema = Arc::new(Schema::new(vec![Field::new("c", dt.clone(), true)]));
    let mut lines = String::new();
    for v in values {
        if *v == "null" {
            lines.push_str("{\"c\":null}\n");
        } else {
            lines.push_str(&format!("{{\"c\":{}}}\n", serde_json::Value::from(*v)));
        }
    }
    let batch = read_json(lines.as_bytes(), Some(schema)).unwrap().remove(0);
    batch.column(0).clone()
}

/// A column from raw JSON value texts (`null` for nulls), read with the JSON reader.
pub fn built_json(dt: &DataType, values: &[&str]) -> Array {
    let schema = Arc::new(Schema::new(vec![Field::new("c", dt.clone(), true)]));
    let lines: String = values.iter().map(|v| format!("{{\"c\":{v}}}\n")).collect();
    read_json(lines.as_bytes(), Some(schema))
        .unwrap()
        .remove(0)
        .column(0)
        .clone()
}

/// A batch of the given named columns (all nullable).
pub fn batch_of(columns: Vec<(&str, Array)>) -> RecordBatch {
    let fields: Vec<Field> = columns
        .iter()
        .map(|(n, a)| Field::new(*n, a.data_type().clone(), true))
        .collect();
    let arrays = columns.into_iter().map(|(_, a)| a).collect();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays).unwrap()
}

/// Reads all batches of JSON Lines.
pub fn read_json(
    data: &[u8],
    schema: Option<quiver_arrow::SchemaRef>,
) -> quiver_arrow::Result<Vec<RecordBatch>> {
    let options = JsonReadOptions {
        schema,
        ..Default::default()
    };
    JsonReader::try_new(data, options)?.collect()
}

/// Reads all batches of CSV with `options`.
pub fn read_csv(data: &[u8], options: CsvReadOptions) -> quiver_arrow::Result<Vec<RecordBatch>> {
    CsvReader::try_new(data, options)?.collect()
}

/// Writes batches as JSON in `format`, NaN and infinities as strings (so that every value
/// reads back; the default writes them as `null`).
pub fn write_json(batches: &[RecordBatch], format: JsonFormat) -> Vec<u8> {
    let mut w = JsonWriter::try_new(Vec::new(), batches[0].schema(), format)
        .unwrap()
        .with_non_finite(quiver_text::json::NonFinite::String);
    for b in batches {
        w.write(b).unwrap();
    }
    w.finish().unwrap()
}

/// Writes batches as CSV with a header.
pub fn write_csv(batches: &[RecordBatch]) -> Vec<u8> {
    let mut w =
        CsvWriter::try_new(Vec::new(), batches[0].schema(), CsvWriteOptions::default()).unwrap();
    for b in batches {
        w.write(b).unwrap();
    }
    w.finish().unwrap()
}

/// Asserts that the concatenated rows of `got` equal `expected`, column by column.
pub fn assert_same(expected: &RecordBatch, got: &[RecordBatch]) {
    let rows: usize = got.iter().map(RecordBatch::num_rows).sum();
    assert_eq!(rows, expected.num_rows(), "row count");
    let mut offset = 0;
    for b in got {
        assert_eq!(b.schema(), expected.schema(), "schema");
        for (c, f) in expected.schema().fields.iter().enumerate() {
            let want = expected.column(c).slice(offset, b.num_rows());
            if let Some(d) = first_difference(&want, b.column(c)) {
                panic!("column {:?} ({}): {d}", f.name(), f.data_type());
            }
        }
        offset += b.num_rows();
    }
}
