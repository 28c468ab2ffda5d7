//! Helpers the Parquet integration tests share: the official test files, files written by a
//! Python script, and running a Python comparison over JSON lines.

use quiver_integration::testdata::parquet_test_files;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Every file under the official Parquet test folders (parquet-testing `data` and `bad_data`,
/// arrow-testing `data/parquet`), sorted; `None` (skip) without test data outside CI.
pub fn test_files() -> Option<Vec<PathBuf>> {
    parquet_test_files().unwrap_or_else(|e| panic!("{e}"))
}

/// The Parquet files among [`test_files`]: `*.parquet`, and the fuzz cases (whatever their
/// name: extension-less or `*.fuzz`).
pub fn parquet_files() -> Option<Vec<PathBuf>> {
    Some(
        all_parquet_files()?
            .into_iter()
            .filter(|p| decoded_bytes(p) <= LARGE_DECODED)
            .collect(),
    )
}

/// Files whose column chunks decode to more than this are left to the tests that read every
/// official file's values once ([`all_parquet_files`]): the others read each file many times
/// (halves, merges, batch sizes, threads), and concatenate columns, which 32-bit offsets
/// cannot hold past 2 GiB (parquet-testing's `large_string_map.brotli.parquet`: 4 KB on
/// disk, two map keys of 1 GiB each).
pub const LARGE_DECODED: u64 = 256 << 20;

/// [`parquet_files`] with the files that decode to more than [`LARGE_DECODED`] bytes too.
pub fn all_parquet_files() -> Option<Vec<PathBuf>> {
    let files = test_files()?;
    Some(
        files
            .into_iter()
            .filter(|p| {
                p.extension().is_some_and(|e| e == "parquet")
                    || (p.to_string_lossy().contains("fuzzing")
                        && p.extension().is_none_or(|e| e == "fuzz"))
            })
            .collect(),
    )
}

/// The bytes the file's column chunks take once decompressed, from its metadata (0 when the
/// footer does not decode: such files are small and rejected).
pub fn decoded_bytes(path: &Path) -> u64 {
    let Ok(bytes) = std::fs::read(path) else {
        return 0;
    };
    let Ok(meta) = quiver_parquet::metadata::parse_file(&bytes) else {
        return 0;
    };
    let mut total = 0u64;
    for g in 0..meta.num_row_groups() {
        for c in 0..meta.num_columns() {
            if let Ok(chunk) = meta.column_chunk(g, c)
                && let Some(m) = &chunk.meta_data
            {
                total = total.saturating_add(u64::try_from(m.total_uncompressed_size).unwrap_or(0));
            }
        }
    }
    total
}

/// Runs `tests/<script>` (a Python script writing Parquet files into the folder it is given)
/// and returns the folder and its `*.parquet` files, sorted (other files, such as
/// `oracles.json`, stay in the folder).
pub fn python_writes(script: &str) -> (tempfile::TempDir, Vec<PathBuf>) {
    let dir = tempfile::tempdir().unwrap();
    python_on_folder(script, dir.path());
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    files.sort();
    (dir, files)
}

/// Runs `tests/<script> DIR` and asserts that it succeeds.
pub fn python_on_folder(script: &str, dir: &Path) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(script);
    let ok = std::process::Command::new("python3")
        .arg(&script)
        .arg(dir)
        .status()
        .unwrap();
    assert!(ok.success(), "{} failed", script.display());
}

/// Runs `tests/<script>` with `input` (JSON lines) on standard input; returns its JSON lines.
pub fn python_lines(script: &str, input: &str) -> Vec<serde_json::Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(script);
    let mut child = std::process::Command::new("python3")
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The file name of a path given as JSON.
pub fn file_name(v: &serde_json::Value) -> String {
    v["file"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_string()
}

/// Whether the writer a differential test needs is there: `python3 -c <check>` succeeds (e.g.
/// `import duckdb`). Outside CI a missing one skips the test with the reason printed; under
/// `CI=true` (where `scripts/test.sh` installs every writer) it is a failure.
pub fn writer_available(name: &str, check: &str) -> bool {
    let ok = std::process::Command::new("python3")
        .args(["-c", check])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "{name} is required when CI=true (scripts/test.sh installs it): `python3 -c '{check}'` fails"
        );
        eprintln!("skipping: {name} is missing (`python3 -c '{check}'` fails)");
    }
    ok
}
