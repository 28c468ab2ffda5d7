//! `ColumnOptions::distinct_count`: chunks whose data pages are all dictionary-encoded get
//! `Statistics.distinct_count`, equal to DuckDB's `COUNT(DISTINCT)` of the chunk's values and
//! read the same by pyarrow and DuckDB (`tests/write_distinct_check.py` over
//! `tests/distinct_source.py`'s data: NaNs of several payloads, both zeros, half floats,
//! decimals, strings, a dictionary array with unused and null dictionary values, a list); chunks
//! that fell back to PLAIN, and booleans, get none; without the option no chunk gets one.

use crate::common::{python_writes, writer_available};
use quiver_arrow::RecordBatch;
use quiver_parquet::arrow::column_writer::ColumnOptions;
use quiver_parquet::codec::Codec;
use quiver_parquet::file::writer::{ColumnOverride, FileWriter, WriteOptions};
use std::path::Path;

/// Writes the batches with `distinct_count` on or off; `big` falls back past 2,000 bytes of
/// dictionary.
fn write(batches: &[RecordBatch], path: &Path, distinct_count: bool) {
    let mut o = WriteOptions {
        row_group_rows: 1000,
        ..WriteOptions::default()
    };
    o.column.page_rows = 300;
    o.column.distinct_count = distinct_count;
    o.column.codec = Codec::Zstd;
    let big = ColumnOptions {
        dictionary_limit: 2000,
        ..o.column.clone()
    };
    o.column_overrides
        .push(("big".into(), ColumnOverride::Options(big)));
    let mut w = FileWriter::create(path, batches[0].schema().clone(), o).unwrap();
    for b in batches {
        w.write(b).unwrap();
    }
    w.finish().unwrap();
}

/// Every chunk's distinct count, as quiver reads it back.
fn distinct_counts(path: &Path) -> Vec<Option<i64>> {
    let bytes = std::fs::read(path).unwrap();
    let meta = quiver_parquet::metadata::parse_file(&bytes).unwrap();
    let mut out = Vec::new();
    for g in 0..meta.num_row_groups() {
        for c in 0..meta.num_columns() {
            let chunk = meta.column_chunk(g, c).unwrap();
            let stats = chunk.meta_data.as_ref().unwrap().statistics.as_ref();
            out.push(stats.and_then(|s| s.get().distinct_count));
        }
    }
    out
}

#[test]
fn distinct_counts_equal_count_distinct_in_duckdb() {
    if !writer_available("duckdb", "import duckdb") {
        return;
    }
    let (dir, _) = python_writes("distinct_source.py");
    let file = std::fs::File::open(dir.path().join("source.arrow")).unwrap();
    let batches: Vec<RecordBatch> = quiver_ipc::read::StreamReader::try_new(file)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let ours = dir.path().join("quiver.parquet");
    write(&batches, &ours, true);

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/write_distinct_check.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg(&ours)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut problems = Vec::new();
    let mut summary = None;
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        match v.get("error") {
            Some(e) => problems.push(e.as_str().unwrap().to_string()),
            None => summary = Some(v),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let summary = summary.unwrap();
    let list = |k: &str| -> Vec<String> {
        let v = summary[k].as_array().unwrap();
        v.iter().map(|x| x.as_str().unwrap().to_string()).collect()
    };
    let groups = ["0", "1", "2"];
    let absent: Vec<String> = groups
        .iter()
        .flat_map(|g| [format!("{g}:b"), format!("{g}:big")])
        .collect();
    let mut got_absent = list("absent");
    got_absent.sort();
    let mut want_absent = absent.clone();
    want_absent.sort();
    assert_eq!(got_absent, want_absent);
    // Every other chunk (11 leaves × 3 row groups) was counted and checked.
    assert_eq!(list("counted").len(), 33, "{:?}", list("counted"));

    // Without the option, no chunk has a distinct count.
    let plain = dir.path().join("without.parquet");
    write(&batches, &plain, false);
    let counts = distinct_counts(&plain);
    assert_eq!(counts.len(), 39);
    assert!(counts.iter().all(Option::is_none), "{counts:?}");
    assert_eq!(distinct_counts(&ours).iter().flatten().count(), 33);
}
