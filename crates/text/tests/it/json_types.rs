//! JSON output that other tools read with its types, and quiver's own JSON Lines read back
//! with the types it was written from: non-finite floats (`null` by default) and ISO dates and
//! timestamps recognised by inference.

use crate::oracle::{have_oracles, read_back, type_of, values};
use crate::util::*;
use quiver_arrow::{Array, DataType, RecordBatch, TimeUnit};
use quiver_text::json::{JsonFormat, JsonWriter, NonFinite};
use serde_json::json;
use std::sync::Arc;

fn floats() -> RecordBatch {
    let v = [
        Some(1.5),
        Some(f64::NAN),
        Some(f64::INFINITY),
        None,
        Some(f64::NEG_INFINITY),
    ];
    batch_of(vec![("f", prim::<f64>(DataType::Float64, v))])
}

fn json_with(batch: &RecordBatch, non_finite: NonFinite) -> Vec<u8> {
    let mut w = JsonWriter::try_new(Vec::new(), batch.schema(), JsonFormat::Lines)
        .unwrap()
        .with_non_finite(non_finite);
    w.write(batch).unwrap();
    w.finish().unwrap()
}

#[test]
fn non_finite_floats_are_null_by_default() {
    let batch = floats();
    let text = json_with(&batch, NonFinite::default());
    assert_eq!(
        String::from_utf8(text.clone()).unwrap(),
        "{\"f\":1.5}\n{\"f\":null}\n{\"f\":null}\n{\"f\":null}\n{\"f\":null}\n"
    );
    // quiver infers a float column back.
    let back = read_json(&text, None).unwrap();
    assert_eq!(back[0].column(0).data_type(), &DataType::Float64);
    if !have_oracles() {
        return;
    }
    let found = read_back("jsonl", &text);
    for library in ["pyarrow", "duckdb", "polars"] {
        assert_eq!(type_of(&found, library, "f"), "double", "{library}");
        assert_eq!(
            values(&found, library, "f"),
            &json!([1.5, null, null, null, null])
        );
    }
}

#[test]
fn non_finite_floats_as_strings_read_back_exactly() {
    let batch = floats();
    let text = json_with(&batch, NonFinite::String);
    assert_eq!(
        String::from_utf8(text.clone()).unwrap(),
        "{\"f\":1.5}\n{\"f\":\"NaN\"}\n{\"f\":\"inf\"}\n{\"f\":null}\n{\"f\":\"-inf\"}\n"
    );
    // Inferred (numbers and non-finite spellings make a float column) and with the schema.
    assert_same(&batch, &read_json(&text, None).unwrap());
    assert_same(
        &batch,
        &read_json(&text, Some(batch.schema().clone())).unwrap(),
    );
}

fn temporal_batch() -> RecordBatch {
    let ts = |u, tz: Option<&str>| DataType::Timestamp(u, tz.map(Arc::from));
    let secs = [Some(1_709_294_400i64), None, Some(-1)];
    let scaled = |k: i64| secs.map(|v| v.map(|s| s * k + k / 7));
    batch_of(vec![
        (
            "d",
            prim::<i32>(DataType::Date32, [Some(19_783), None, Some(-1)]),
        ),
        ("s", prim::<i64>(ts(TimeUnit::Second, None), secs)),
        (
            "ms",
            prim::<i64>(ts(TimeUnit::Millisecond, None), scaled(1_000)),
        ),
        (
            "us",
            prim::<i64>(ts(TimeUnit::Microsecond, None), scaled(1_000_000)),
        ),
        (
            "ns",
            prim::<i64>(ts(TimeUnit::Nanosecond, None), scaled(1_000_000_000)),
        ),
        (
            "utc",
            prim::<i64>(ts(TimeUnit::Millisecond, Some("UTC")), scaled(1_000)),
        ),
        (
            "text",
            Array::from(quiver_arrow::StringArray::from_options([
                Some("2024-03-01x"),
                None,
                Some("x"),
            ])),
        ),
    ])
}

#[test]
fn inference_restores_dates_and_timestamps_written_by_quiver() {
    let batch = temporal_batch();
    let text = write_json(std::slice::from_ref(&batch), JsonFormat::Lines);
    let first = String::from_utf8(text.clone()).unwrap();
    let first = first.lines().next().unwrap();
    assert!(
        first.starts_with(
            "{\"d\":\"2024-03-01\",\"s\":\"2024-03-01 12:00:00\",\"ms\":\"2024-03-01 12:00:00.142\""
        ),
        "{first}"
    );
    assert_same(&batch, &read_json(&text, None).unwrap());
    if !have_oracles() {
        return;
    }
    // What pyarrow.json infers from the same text: dates become timestamp[s], whole-second
    // timestamps timestamp[s], timestamps with a fraction or an offset and a fraction stay
    // strings (quiver infers date32 and the unit from the digits, with tz=UTC for offsets).
    let found = read_back("jsonl", &text);
    assert_eq!(type_of(&found, "pyarrow", "d"), "timestamp[s]");
    assert_eq!(type_of(&found, "pyarrow", "s"), "timestamp[s]");
    assert_eq!(type_of(&found, "pyarrow", "ms"), "string");
    assert_eq!(type_of(&found, "pyarrow", "utc"), "string");
    // DuckDB agrees with quiver on dates and on the instants.
    assert_eq!(type_of(&found, "duckdb", "d"), "date32[day]");
    let ns = |s: i64| json!(s * 1_000_000_000);
    assert_eq!(
        values(&found, "duckdb", "s"),
        &json!([ns(1_709_294_400), null, ns(-1)])
    );
    assert_eq!(
        values(&found, "pyarrow", "s"),
        values(&found, "duckdb", "s")
    );
}

#[test]
fn inference_mixes_dates_and_timestamps_like_csv() {
    let lines = |vals: &[&str]| -> Vec<u8> {
        vals.iter()
            .map(|v| format!("{{\"a\":{v}}}\n"))
            .collect::<String>()
            .into_bytes()
    };
    let ty = |vals: &[&str]| {
        read_json(&lines(vals), None).unwrap()[0]
            .column(0)
            .data_type()
            .clone()
    };
    let ts = |u, tz: Option<&str>| DataType::Timestamp(u, tz.map(Arc::from));
    assert_eq!(ty(&["\"2024-03-01\"", "null"]), DataType::Date32);
    assert_eq!(
        ty(&["\"2024-03-01\"", "\"2024-03-01 12:00\""]),
        ts(TimeUnit::Second, None)
    );
    assert_eq!(
        ty(&["\"2024-03-01 12:00:00.5\"", "\"2024-03-01 12:00:00\""]),
        ts(TimeUnit::Millisecond, None)
    );
    assert_eq!(
        ty(&["\"2024-03-01 12:00:00.1234567\""]),
        ts(TimeUnit::Nanosecond, None)
    );
    assert_eq!(
        ty(&["\"2024-03-01 12:00:00Z\"", "\"2024-03-01 12:00:00+02:00\""]),
        ts(TimeUnit::Second, Some("UTC"))
    );
    assert_eq!(
        ty(&["\"2024-03-01 12:00:00Z\"", "\"2024-03-01 12:00:00\""]),
        DataType::Utf8
    );
    assert_eq!(ty(&["\"2024-03-01\"", "\"x\""]), DataType::Utf8);
    assert_eq!(ty(&["\"2024-03-01\"", "1"]), DataType::Utf8);
    assert_eq!(ty(&["\"NaN\""]), DataType::Utf8);
    assert_eq!(ty(&["\"inf\"", "2"]), DataType::Float64);
}
