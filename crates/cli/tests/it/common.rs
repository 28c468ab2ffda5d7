//! Helpers: the binary, generated data sets, reading Arrow files back.

use assert_cmd::Command;
use quiver_arrow::compute::concat;
use quiver_arrow::{Array, RecordBatch};
use quiver_ipc::read::{FileReader, StreamReader};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The `quiver` binary under test.
pub fn quiver() -> Command {
    let mut c = Command::cargo_bin("quiver").expect("the quiver binary is built");
    c.env_remove("COLUMNS");
    c
}

/// Runs quiver with `args`, asserting success; returns stdout.
pub fn ok(args: &[&str]) -> String {
    let out = quiver().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "quiver {args:?} failed ({:?}): {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs quiver with `args`, asserting exit code `code`; returns stderr. Also checks that no
/// panic message reached the user.
pub fn fails(args: &[&str], code: i32) -> String {
    let out = quiver().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "quiver {args:?}: {stderr}");
    assert_no_panic(&stderr);
    stderr
}

/// Runs quiver with `args` in the directory `dir` (so that messages show short relative
/// names), asserting exit code `code`; returns (stdout, stderr).
pub fn run_in(dir: &Path, args: &[&str], code: i32) -> (String, String) {
    let out = quiver().current_dir(dir).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "quiver {args:?}: {stderr}");
    assert_no_panic(&stderr);
    (String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
}

/// Errors are one or two lines, with no panic message or backtrace.
pub fn assert_no_panic(stderr: &str) {
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains("RUST_BACKTRACE"), "{stderr}");
    assert!(!stderr.contains("internal error"), "{stderr}");
    assert!(stderr.lines().count() <= 2, "more than two lines: {stderr}");
}

/// A path as a `&str`.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A directory of generated files shared by the tests of one run.
pub fn data_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().unwrap()).path()
}

/// `quiver generate DATASET --rows ROWS` into `name` in the shared directory (once).
pub fn generated(dataset: &str, rows: u64, name: &str) -> PathBuf {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let path = data_dir().join(name);
    if !path.exists() {
        let rows = rows.to_string();
        ok(&[
            "generate",
            dataset,
            "--rows",
            &rows,
            "--batch-size",
            "1000",
            "-o",
            s(&path),
        ]);
    }
    path
}

/// A small lineitem table (2,500 rows in batches of 1,000) as an IPC file.
pub fn lineitem() -> PathBuf {
    generated("lineitem", 2500, "lineitem.arrow")
}

/// A small nested table as an IPC file.
pub fn nested() -> PathBuf {
    generated("nested", 1500, "nested.arrow")
}

/// Every row of an IPC file or stream, as one batch.
pub fn read_arrow(path: &Path) -> RecordBatch {
    let bytes = std::fs::read(path).unwrap();
    let batches: Vec<RecordBatch> = if bytes.starts_with(b"ARROW1") {
        let mut r = FileReader::from_bytes(bytes.into()).unwrap();
        (0..r.num_batches()).map(|i| r.batch(i).unwrap()).collect()
    } else {
        let mut r = StreamReader::try_new(std::io::Cursor::new(bytes)).unwrap();
        std::iter::from_fn(|| r.next_batch().unwrap()).collect()
    };
    one_batch(&batches)
}

/// Batches joined into one.
pub fn one_batch(batches: &[RecordBatch]) -> RecordBatch {
    let schema = batches[0].schema().clone();
    let columns = (0..schema.fields.len())
        .map(|c| concat(&batches.iter().map(|b| b.column(c)).collect::<Vec<&Array>>()).unwrap())
        .collect();
    RecordBatch::try_new(schema, columns).unwrap()
}

/// Asserts two batches hold equal values (types and field names included).
pub fn assert_same(expected: &RecordBatch, actual: &RecordBatch, what: &str) {
    if let Err(e) = quiver_integration::compare::compare_batches(
        std::slice::from_ref(expected),
        std::slice::from_ref(actual),
    ) {
        panic!("{what}: {e}");
    }
    assert_eq!(
        expected.schema().fields,
        actual.schema().fields,
        "{what}: schemas differ"
    );
}

/// `python3` when pyarrow imports; `None` (skip) otherwise, a failure when `CI=true`.
pub fn python() -> Option<&'static str> {
    quiver_integration::testdata::pyarrow_python()
}

/// The path of a script in `tests/py`.
pub fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/py")
        .join(name)
}

/// A gold integration file, or `None` when the test data is absent (outside CI).
pub fn gold(relative: &str) -> Option<PathBuf> {
    let dir = quiver_integration::testdata::require_test_subdir(
        quiver_integration::testdata::IPC_INTEGRATION,
    )
    .unwrap()?;
    Some(dir.join(relative))
}
