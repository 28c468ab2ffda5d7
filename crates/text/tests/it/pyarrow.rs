//! Differential tests against pyarrow's CSV reader (`tests/py/csv_compare.py`).
//!
//! Skipped with a message when `python3` with pyarrow is unavailable, unless `CI=true`.

use crate::util::*;
use quiver_text::csv::{CsvReadOptions, CsvReader};
use quiver_text::json::JsonFormat;
use quiver_text::{format_data_type, parse_schema};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/py/csv_compare.py")
}

/// True when pyarrow can be used; panics in CI when it cannot.
fn have_pyarrow() -> bool {
    quiver_integration::testdata::pyarrow_python().is_some()
}

fn run(args: &[&Path]) -> String {
    let out = Command::new("python3")
        .arg(script())
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "csv_compare.py failed:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

const DATA: &str = "\
i,neg,f,b,d,ts,tsu,dec,s
1,-5,1.5,true,2020-01-02,2020-01-02 03:04:05,2020-01-02T03:04:05.123456Z,12.34,plain
2,-9223372036854775808,-2.5e-3,FALSE,1969-12-31,2020-01-02T03:04:05,2020-01-02T04:04:05+01:00,-0.01,\"with,comma\"
,0,1E10,True,,1900-02-28 23:59:59,,,\"quote \"\"q\"\" and
newline\"
4,,inf,false,2400-02-29,,1970-01-01T00:00:00Z,99999.99,é😀 ünï
5,7,-0.0,,2020-02-29,2020-01-02 03:04:05,2020-01-02T03:04:05.5Z,0,NA
";

/// pyarrow's null markers less the NaN spellings (`NULLS` in csv_compare.py).
fn pyarrow_nulls() -> Vec<String> {
    [
        "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "1.#IND", "1.#QNAN", "N/A", "NA",
        "NULL", "n/a", "null",
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn csv_values_match_pyarrow() {
    if !have_pyarrow() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("data.csv");
    std::fs::write(&csv_path, DATA).unwrap();
    for (spec, name) in [
        (
            "i: int64, neg: int64, f: double, b: bool, d: date32, ts: timestamp[s], \
          tsu: timestamp[us, tz=UTC], dec: decimal128(7, 2), s: string",
            "a",
        ),
        (
            "i: int8, neg: int64, f: float, b: bool, d: date32, ts: timestamp[ms], \
          tsu: timestamp[ns, tz=UTC], dec: decimal128(20, 4), s: string",
            "b",
        ),
    ] {
        let schema = Arc::new(parse_schema(spec).unwrap());
        let options = CsvReadOptions::default()
            .with_schema(schema.clone())
            .with_null_values(pyarrow_nulls());
        let batches = read_csv(DATA.as_bytes(), options).unwrap();
        let jsonl = dir.path().join(format!("{name}.jsonl"));
        std::fs::write(&jsonl, write_json(&batches, JsonFormat::Lines)).unwrap();
        let types: serde_json::Map<String, serde_json::Value> = schema
            .fields
            .iter()
            .map(|f| (f.name().to_string(), format_data_type(f.data_type()).into()))
            .collect();
        let types_path = dir.path().join(format!("{name}.types.json"));
        std::fs::write(&types_path, serde_json::Value::Object(types).to_string()).unwrap();
        let out = run(&[Path::new("values"), &csv_path, &jsonl, &types_path]);
        assert!(out.contains("compared 5 rows x 9 columns"), "{out}");
    }
}

#[test]
fn inferred_types_match_pyarrow() {
    if !have_pyarrow() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("infer.csv");
    std::fs::write(&csv_path, DATA).unwrap();
    let options = CsvReadOptions::default().with_null_values(pyarrow_nulls());
    let reader = CsvReader::try_new(DATA.as_bytes(), options).unwrap();
    let ours: Vec<String> = reader
        .schema()
        .fields
        .iter()
        .map(|f| format!("{}: {}", f.name(), format_data_type(f.data_type())))
        .collect();
    let theirs = run(&[Path::new("infer"), &csv_path]);
    let theirs: Vec<&str> = theirs.lines().collect();
    // Deliberate difference: pyarrow infers `dec` (12.34, 99999.99) as double, as do we.
    assert_eq!(ours, theirs);
}
