//! Merges checked by other readers: `tests/merge_inputs.py` writes ~50 cases (every codec, v1
//! and v2 pages, dictionaries identical, overlapping, disjoint and past the limit, dictionary
//! and PLAIN pages in one chunk, nested columns, files from pyarrow, DuckDB, polars,
//! fastparquet and Spark, page indexes, Bloom filters, sorting columns, key-value metadata,
//! field ids, reordered, missing and new columns, and inputs that must be refused); each is
//! merged verbatim and coalescing, and `tests/merge_check.py` compares the output with the
//! concatenated inputs in pyarrow, DuckDB and polars (Spark for the cases that need it) and
//! checks the carried metadata (statistics, page index, Bloom filters, sorting, field ids,
//! layout) or, for a refused case, that the error names the file and the field.

use crate::common::{python_lines, writer_available};
use quiver_arrow::parallel::ThreadPool;
use quiver_parquet::file::merge::{MergeOptions, RowGroupTarget, merge_files};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The cases Spark also reads (its JVM is slow to start and to read small files).
const SPARK_CASES: [&str; 7] = [
    "decimal-layouts",
    "writer-spark",
    "writers-mixed",
    "page-index",
    "nested",
    "dict-fallback",
    "dict-large-repeats",
];

fn cases(root: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("case.json").exists())
        .collect();
    out.sort();
    out
}

fn inputs(case: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(case)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    out.sort();
    out
}

#[test]
fn merged_cases_read_as_their_inputs_in_every_reader() {
    for (name, import) in [
        ("pyarrow", "import pyarrow"),
        ("DuckDB", "import duckdb"),
        ("polars", "import polars"),
    ] {
        if !writer_available(name, import) {
            return;
        }
    }
    let spark = writer_available("Spark", "import pyspark")
        && std::process::Command::new("java")
            .arg("-version")
            .output()
            .is_ok();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("cases");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/merge_inputs.py");
    let mut cmd = std::process::Command::new("python3");
    cmd.arg(script).arg(&root);
    if !spark {
        cmd.arg("--no-spark");
    }
    assert!(cmd.status().unwrap().success());
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let mut jobs = String::new();
    let all = cases(&root);
    assert!(all.len() >= 45, "{} cases", all.len());
    for case in &all {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let meta: Value =
            serde_json::from_str(&std::fs::read_to_string(case.join("case.json")).unwrap())
                .unwrap();
        let rows = meta["target_rows"].as_u64().unwrap_or(1 << 20);
        for mode in ["verbatim", "coalesce"] {
            let opts = MergeOptions {
                coalesce: (mode == "coalesce").then_some(RowGroupTarget {
                    rows,
                    bytes: u64::MAX,
                }),
                dictionary_limit: meta["dictionary_page_limit"]
                    .as_u64()
                    .map_or(1 << 20, |n| n as usize),
                threads: ThreadPool::sequential(),
                ..MergeOptions::default()
            };
            let output = out.join(format!("{name}-{mode}.parquet"));
            let mut engines = vec!["pyarrow", "duckdb", "polars"];
            if spark && SPARK_CASES.contains(&name.as_str()) {
                engines.push("spark");
            }
            let mut job =
                json!({"case": case, "mode": mode, "target_rows": rows, "engines": engines});
            match merge_files(&inputs(case), &output, &opts) {
                Ok(_) => job["output"] = json!(output),
                Err(e) => {
                    assert!(!output.exists(), "{name}: an output after an error");
                    job["error"] = json!(e.to_string());
                }
            }
            jobs.push_str(&format!("{job}\n"));
        }
    }
    let results = python_lines("merge_check.py", &jobs);
    assert_eq!(results.len(), 2 * all.len());
    let failed: Vec<String> = results
        .iter()
        .filter(|r| r["ok"] != json!(true))
        .map(|r| format!("{}: {}", r["case"], r["failures"]))
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} merges fail:\n{}",
        failed.len(),
        results.len(),
        failed.join("\n")
    );
}

#[test]
fn the_checker_tells_right_merges_from_wrong_ones() {
    if !writer_available("DuckDB", "import duckdb") || !writer_available("polars", "import polars")
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/merge_check.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg("--self-test")
        .arg(dir.path())
        .args(["--engines", "pyarrow,duckdb,polars"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "merge_check.py --self-test: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
