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

/// JSON Lines that pyarrow's `json.read_json` reads as doubles (integers beyond int64), opened
/// by a byte order mark: quiver infers the same types and values (doubles compared by bits).
#[test]
fn json_integers_beyond_int64_and_a_byte_order_mark_read_as_pyarrow_reads_them() {
    if !have_pyarrow() {
        return;
    }
    let data = "\u{feff}{\"a\": 1, \"b\": -9223372036854775808, \"c\": 18446744073709551615}\n\
                {\"a\": 99999999999999999999, \"b\": 9223372036854775807, \"c\": -1}\n\
                {\"a\": -9223372036854775809, \"b\": null, \"c\": 0}\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.jsonl");
    std::fs::write(&path, data).unwrap();
    let py = format!(
        "import struct\n\
         import pyarrow.json as pj\n\
         t = pj.read_json({:?})\n\
         bits = lambda v: struct.unpack('<q', struct.pack('<d', v))[0] if isinstance(v, float) else v\n\
         for f in t.schema: print(f.name, f.type, [bits(v) for v in t.column(f.name).to_pylist()])\n",
        path.to_str().unwrap()
    );
    let out = Command::new("python3").args(["-c", &py]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs = String::from_utf8(out.stdout).unwrap();
    let batches = read_json(data.as_bytes(), None).unwrap();
    let mut ours = String::new();
    let batch = &batches[0];
    for (i, f) in batch.schema().fields.iter().enumerate() {
        let c = batch.column(i);
        let values: Vec<String> = (0..c.len())
            .map(|r| match f.data_type() {
                _ if c.is_null(r) => "None".into(),
                quiver_arrow::DataType::Float64 => {
                    let v = c.as_primitive::<f64>().unwrap().value(r);
                    (v.to_bits() as i64).to_string()
                }
                _ => quiver_arrow::display::format_value(c, r),
            })
            .collect();
        let t = format_data_type(f.data_type());
        ours.push_str(&format!("{} {} [{}]\n", f.name(), t, values.join(", ")));
    }
    assert_eq!(ours, theirs);
}
