//! The Arrow schema quiver gives every official Parquet test file equals pyarrow's
//! (`tests/arrow_schema.py` compares them, quiver's sent as an IPC schema message): names,
//! types, nullability, field metadata (field ids, extension types) and schema metadata.
//! One blind spot: pyarrow's IPC reader drops the name of a map's entries field, so that name
//! (pyarrow calls it after the map column) is checked by the unit tests instead.

use crate::common::{file_name, parquet_files, python_lines, python_writes};
use quiver_parquet::arrow::arrow_schema;
use quiver_parquet::arrow::options::ReadOptions;
use quiver_parquet::metadata::parse_file;
use quiver_parquet::schema::SchemaDescriptor;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
    let mut problems = Vec::new();
    let mut both = 0;
    for v in python_lines("arrow_schema.py", &input) {
        let name = file_name(&v);
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
    // The `*.parquet` files (the extension-less fuzz cases stall this comparison: to look into).
    let files: Vec<_> = files
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "parquet"))
        .collect();
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
    let (_dir, files) = python_writes("write_types.py");
    let (problems, both) = compare(&files);
    assert!(
        problems.is_empty(),
        "{} files differ:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert_eq!(both, files.len());
}
