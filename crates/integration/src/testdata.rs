//! The folder of official test files (apache/arrow-testing, apache/parquet-testing), read in
//! place: `QUIVER_TEST_DATA`, or `../shared/testdata` beside the repository.

use std::path::PathBuf;

/// The environment variable naming the test-data folder.
pub const TEST_DATA_VAR: &str = "QUIVER_TEST_DATA";

/// The test-data folder: `$QUIVER_TEST_DATA`, else `shared/testdata` next to the repository
/// root (the folder may not exist).
pub fn test_data_dir() -> PathBuf {
    match std::env::var_os(TEST_DATA_VAR) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/testdata"),
    }
}

/// The test-data folder when it exists. When it does not: `Ok(None)` (tests skip), except
/// under CI (`CI=true`), where missing data is an error so that tests fail instead of skipping.
///
/// ```
/// match quiver_integration::testdata::require_test_data() {
///     Ok(Some(dir)) => assert!(dir.is_dir()),
///     Ok(None) => {} // skipped outside CI
///     Err(message) => panic!("{message}"),
/// }
/// ```
pub fn require_test_data() -> Result<Option<PathBuf>, String> {
    let dir = test_data_dir();
    if dir.is_dir() {
        return Ok(Some(dir));
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        return Err(format!(
            "test data folder {} is missing (set {TEST_DATA_VAR}); required when CI=true",
            dir.display()
        ));
    }
    eprintln!(
        "warning: test data folder {} is missing (set {TEST_DATA_VAR}); skipping",
        dir.display()
    );
    Ok(None)
}

/// A subfolder of the test data (e.g. `arrow-testing/data/arrow-ipc-stream/integration`),
/// under the rules of [`require_test_data`].
pub fn require_test_subdir(relative: &str) -> Result<Option<PathBuf>, String> {
    let Some(root) = require_test_data()? else {
        return Ok(None);
    };
    let dir = root.join(relative);
    if dir.is_dir() {
        Ok(Some(dir))
    } else {
        Err(format!("{} is missing from the test data", dir.display()))
    }
}

/// The folders of official Parquet files, relative to the test-data folder: parquet-testing's
/// `data` and `bad_data`, and arrow-testing's `data/parquet`.
pub const PARQUET_DIRS: [&str; 3] = [
    "parquet-testing/data",
    "parquet-testing/bad_data",
    "arrow-testing/data/parquet",
];

/// Every file under [`PARQUET_DIRS`] (any name: fuzz cases have no extension), sorted;
/// `Ok(None)` when the test data is absent outside CI (see [`require_test_data`]), an error
/// when one of the folders is missing.
pub fn parquet_test_files() -> Result<Option<Vec<PathBuf>>, String> {
    let Some(root) = require_test_data()? else {
        return Ok(None);
    };
    let mut files = Vec::new();
    for dir in PARQUET_DIRS {
        let dir = root.join(dir);
        if !dir.is_dir() {
            return Err(format!("{} is missing from the test data", dir.display()));
        }
        walk(&dir, &mut files).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    files.sort();
    Ok(Some(files))
}

fn walk(dir: &std::path::Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// Where the Arrow IPC integration gold files live, relative to the test-data folder.
pub const IPC_INTEGRATION: &str = "arrow-testing/data/arrow-ipc-stream/integration";

/// Every gold case's `.json.gz` under [`IPC_INTEGRATION`] (one folder per version), sorted;
/// `Ok(None)` when the test data is absent outside CI (see [`require_test_data`]).
pub fn gold_json_cases() -> Result<Option<Vec<PathBuf>>, String> {
    let Some(dir) = require_test_subdir(IPC_INTEGRATION)? else {
        return Ok(None);
    };
    let mut cases = Vec::new();
    let versions = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for version in versions {
        let version = version.map_err(|e| e.to_string())?.path();
        if !version.is_dir() {
            continue;
        }
        for entry in
            std::fs::read_dir(&version).map_err(|e| format!("{}: {e}", version.display()))?
        {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.to_string_lossy().ends_with(".json.gz") {
                cases.push(path);
            }
        }
    }
    cases.sort();
    Ok(Some(cases))
}

/// `python3` when it can import pyarrow (the interoperability tests run it); `None` when it
/// cannot, so that the test skips with a warning, except under `CI=true` (where
/// `scripts/test.sh` installs pyarrow), which panics instead.
pub fn pyarrow_python() -> Option<&'static str> {
    let ok = std::process::Command::new("python3")
        .args(["-c", "import pyarrow"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        return Some("python3");
    }
    assert!(
        std::env::var("CI").map_or(true, |v| v != "true"),
        "pyarrow is required when CI=true (scripts/test.sh installs it)"
    );
    eprintln!("warning: pyarrow not importable; skipping");
    None
}
