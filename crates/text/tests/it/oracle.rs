//! pyarrow, DuckDB and polars reading what quiver wrote (`tests/py/read_back.py`).
//!
//! Skipped with a message when `python3` with pyarrow, duckdb and polars is unavailable,
//! unless `CI=true` (`scripts/test.sh` installs them).

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

/// True when the oracles can be used; panics in CI when they cannot.
pub fn have_oracles() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import pyarrow, duckdb, polars"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "pyarrow, duckdb and polars are required when CI=true"
        );
        eprintln!("warning: pyarrow/duckdb/polars not importable; skipping");
    }
    ok
}

/// What each library read from `data` written to a file as `kind` (`csv` or `jsonl`):
/// `{library: {column: {"type": …, "values": […]}}}` (see the script for the value forms).
pub fn read_back(kind: &str, data: &[u8]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("data.{kind}"));
    std::fs::write(&path, data).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/py/read_back.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(kind)
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "read_back.py failed on\n{}\n{}",
        String::from_utf8_lossy(data),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The values one library read for `column`.
pub fn values<'a>(found: &'a Value, library: &str, column: &str) -> &'a Value {
    &found[library][column]["values"]
}

/// The type one library read for `column`.
pub fn type_of<'a>(found: &'a Value, library: &str, column: &str) -> &'a str {
    found[library][column]["type"]
        .as_str()
        .unwrap_or("<missing>")
}
