//! Zoned timestamps: text without an offset is local time in the column's zone, text with an
//! offset converts exactly, and written values keep their offset so that quiver, pyarrow and
//! DuckDB read them back to the same instants.

use crate::oracle::{have_oracles, read_back, values};
use crate::util::*;
use quiver_arrow::display::format_value;
use quiver_arrow::{Array, DataType, TimeUnit};
use quiver_text::csv::CsvReadOptions;
use quiver_text::parse_schema;
use std::sync::Arc;

/// Reads one CSV column `ts` of type `spec` and returns its values as integers.
fn read_ts(spec: &str, values: &[&str]) -> quiver_arrow::Result<Vec<Option<i64>>> {
    let schema = Arc::new(parse_schema(&format!("ts: {spec}")).unwrap());
    let text = format!("ts\n{}\n", values.join("\n"));
    let batches = read_csv(
        text.as_bytes(),
        CsvReadOptions::default().with_schema(schema),
    )?;
    let Array::I64(a) = batches[0].column(0) else {
        panic!("not a timestamp column");
    };
    Ok((0..a.len())
        .map(|i| a.is_valid(i).then(|| a.value(i)))
        .collect())
}

// 2024-07-01 00:00:00Z in seconds.
const JULY_1: i64 = 1_719_792_000;
const HOUR: i64 = 3600;

#[test]
fn naive_text_is_local_time_in_the_column_zone() {
    let v = read_ts("timestamp[s, tz=+02:00]", &["2024-07-01 12:00:00"]).unwrap();
    assert_eq!(v, [Some(JULY_1 + 10 * HOUR)]);
    let ny = read_ts(
        "timestamp[ms, tz=America/New_York]",
        &[
            "2024-07-01 12:00:00",
            "2024-01-01 12:00:00",
            "2024-07-01",
            "2024-07-01 12:00:00Z",
            "2024-07-01 12:00:00+02:00",
        ],
    )
    .unwrap();
    let ms = |s: i64| Some(s * 1000);
    assert_eq!(
        ny,
        [
            ms(JULY_1 + 16 * HOUR),       // EDT, UTC-4
            ms(1_704_110_400 + 5 * HOUR), // EST, UTC-5
            ms(JULY_1 + 4 * HOUR),        // a date is local midnight
            ms(JULY_1 + 12 * HOUR),       // Z: exact
            ms(JULY_1 + 10 * HOUR),       // explicit offset: exact
        ]
    );
}

#[test]
fn local_times_in_gaps_and_folds_are_errors_naming_the_value() {
    let spec = "timestamp[s, tz=America/New_York]";
    let gap = read_ts(spec, &["2024-01-01 00:00:00", "2024-03-10 02:30:00"]).unwrap_err();
    let text = gap.to_string();
    assert!(
        text.contains("line 3") && text.contains("\"2024-03-10 02:30:00\""),
        "{text}"
    );
    assert!(text.contains("does not exist"), "{text}");
    let fold = read_ts(spec, &["2024-11-03 01:30:00"])
        .unwrap_err()
        .to_string();
    assert!(
        fold.contains("happened twice in America/New_York"),
        "{fold}"
    );
    // With an offset the same wall-clock time is fine.
    assert!(read_ts(spec, &["2024-11-03 01:30:00-04:00"]).is_ok());
}

#[test]
fn unknown_zones_are_schema_errors() {
    let e = parse_schema("ts: timestamp[s, tz=America/New_Yrok]").unwrap_err();
    assert!(
        e.to_string()
            .contains("unknown time zone \"America/New_Yrok\""),
        "{e}"
    );
    assert!(parse_schema("ts: timestamp[s, tz=Europe/Paris]").is_ok());
}

fn zoned_batch() -> quiver_arrow::RecordBatch {
    let ts = |u, tz: &str| DataType::Timestamp(u, Some(Arc::from(tz)));
    // 2023-12-31 20:00:07-05:00, 2024-07-01 12:00:00.5-04:00, -1 ms.
    let ms = [
        Some(1_704_070_807_000),
        Some((JULY_1 + 16 * HOUR) * 1000 + 500),
        Some(-1),
    ];
    batch_of(vec![
        (
            "ny",
            prim::<i64>(ts(TimeUnit::Millisecond, "America/New_York"), ms),
        ),
        (
            "kolkata",
            prim::<i64>(ts(TimeUnit::Millisecond, "+05:30"), ms),
        ),
        (
            "utc",
            prim::<i64>(ts(TimeUnit::Millisecond, "UTC"), [ms[0], None, ms[2]]),
        ),
    ])
}

#[test]
fn written_zoned_values_keep_their_offset_and_round_trip() {
    let batch = zoned_batch();
    assert_eq!(
        format_value(batch.column(0), 0),
        "2023-12-31 20:00:07.000-05:00"
    );
    let csv = write_csv(std::slice::from_ref(&batch));
    let text = String::from_utf8(csv.clone()).unwrap();
    assert!(
        text.contains("2023-12-31 20:00:07.000-05:00,2024-01-01 06:30:07.000+05:30,"),
        "{text}"
    );
    assert!(text.contains("2024-07-01 12:00:00.500-04:00"), "{text}");
    let options = CsvReadOptions::default().with_schema(batch.schema().clone());
    assert_same(&batch, &read_csv(&csv, options).unwrap());
    let json = write_json(
        std::slice::from_ref(&batch),
        quiver_text::json::JsonFormat::Lines,
    );
    assert_same(
        &batch,
        &read_json(&json, Some(batch.schema().clone())).unwrap(),
    );
    if !have_oracles() {
        return;
    }
    let ns = |v: Option<i64>| v.map_or(serde_json::Value::Null, |ms| (ms * 1_000_000).into());
    for (kind, data) in [("csv", &csv), ("jsonl", &json)] {
        let found = read_back(kind, data);
        // pyarrow.json infers no timestamps with fractions (they stay strings): CSV only.
        let libraries: &[&str] = if kind == "csv" {
            &["pyarrow", "duckdb"]
        } else {
            &["duckdb"]
        };
        for library in libraries {
            for (c, name) in ["ny", "kolkata", "utc"].iter().enumerate() {
                let Array::I64(a) = batch.column(c) else {
                    unreachable!()
                };
                let want: Vec<_> = (0..a.len())
                    .map(|i| ns(a.is_valid(i).then(|| a.value(i))))
                    .collect();
                assert_eq!(
                    values(&found, library, name),
                    &serde_json::Value::from(want),
                    "{kind} {library} {name}"
                );
            }
        }
    }
}
