//! The Arrow schema quiver gives every official Parquet test file equals pyarrow's
//! (`tests/arrow_schema.py` compares them, quiver's sent as an IPC schema message): names,
//! types, nullability, field metadata (field ids, extension types) and schema metadata.
//! One blind spot: pyarrow's IPC reader drops the name of a map's entries field, so that name
//! (pyarrow calls it after the map column) is checked by the unit tests instead.

use quiver_integration::testdata::require_test_data;
use quiver_parquet::arrow::arrow_schema;
use quiver_parquet::arrow::options::ReadOptions;
use quiver_parquet::metadata::parse_file;
use quiver_parquet::schema::SchemaDescriptor;
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn parquet_files() -> Option<Vec<PathBuf>> {
    let root = require_test_data().unwrap_or_else(|e| panic!("{e}"))?;
    let mut files = Vec::new();
    for dir in [
        "parquet-testing/data",
        "parquet-testing/bad_data",
        "arrow-testing/data/parquet",
    ] {
        let mut stack = vec![root.join(dir)];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).unwrap() {
                let p = entry.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|e| e == "parquet") {
                    files.push(p);
                }
            }
        }
    }
    files.sort();
    Some(files)
}

/// quiver's Arrow schema of `path` as an IPC schema message.
fn ours(path: &Path) -> Result<Vec<u8>, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let meta = parse_file(&bytes).map_err(|e| e.to_string())?;
    let descr = SchemaDescriptor::new(meta.schema()).map_err(|e| e.to_string())?;
    let kv: Vec<(&[u8], Option<&[u8]>)> = meta
        .file()
        .key_value_metadata
        .iter()
        .flatten()
        .map(|kv| (kv.key, kv.value))
        .collect();
    let s = arrow_schema(&descr, meta.schema(), &kv, &ReadOptions::default())
        .map_err(|e| e.to_string())?;
    quiver_ipc::IpcSchema::new(Arc::new(s.schema))
        .to_message_bytes()
        .map_err(|e| e.to_string())
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Compares quiver's and pyarrow's schemas of `files`: returns the differences, and how many
/// files both read.
fn compare(files: &[PathBuf]) -> (Vec<String>, usize) {
    let mut input = String::new();
    for f in files {
        let case = match ours(f) {
            Ok(ipc) => json!({"file": f, "ipc": hex(&ipc)}),
            Err(e) => json!({"file": f, "error": e}),
        };
        input.push_str(&case.to_string());
        input.push('\n');
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/arrow_schema.py");
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
    let mut problems = Vec::new();
    let mut both = 0;
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let name = v["file"]
            .as_str()
            .unwrap()
            .rsplit('/')
            .next()
            .unwrap()
            .to_string();
        match (v.get("pyarrow").is_some(), v.get("quiver").is_some()) {
            (true, true) if v["equal"] == true && v["metadata_equal"] == true => both += 1,
            // Both refuse the file.
            (false, false) => {}
            _ => problems.push(format!(
                "{name}:\n  pyarrow: {}\n  quiver:  {}",
                v.get("pyarrow").or(v.get("pyarrow_error")).unwrap(),
                v.get("quiver").or(v.get("error")).unwrap_or(&Value::Null)
            )),
        }
    }
    (problems, both)
}

#[test]
fn official_files_have_pyarrows_arrow_schema() {
    let Some(files) = parquet_files() else { return };
    let (problems, both) = compare(&files);
    assert!(
        problems.is_empty(),
        "{} files differ:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(both >= 50, "only {both} of {} files compared", files.len());
}

/// Files pyarrow writes with every Arrow type it can store, under several writer settings
/// (`tests/write_types.py`): the types `ARROW:schema` restores, legacy list names, INT96, …
#[test]
fn pyarrow_written_types_read_as_pyarrow_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/write_types.py");
    let ok = std::process::Command::new("python3")
        .arg(script)
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(ok.success());
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let (problems, both) = compare(&files);
    assert!(
        problems.is_empty(),
        "{} files differ:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert_eq!(both, files.len());
}
