//! Interoperability: files and streams quiver writes, read by pyarrow (`tests/py/read_ipc.py`)
//! and compared value by value with what was written.
//!
//! Needs `python3` with pyarrow (`python3 -m pip install pyarrow`). Without it the tests skip
//! with a message, except under `CI=true`, where they fail.

use super::write_canon::Expected;
use super::write_data::{ROWS, all_types, batch_of, dictionary_batches, prim, words};
use quiver_arrow::{Array, DataType, Field, IntegerType, Metadata, RecordBatch, Schema};
use quiver_ipc::write::{FileWriter, StreamWriter, WriteOptions};
use quiver_ipc::{Codec, DictionaryFields, Endianness, IpcSchema};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// True when `python3` can import pyarrow; otherwise skips (prints why), or panics under
/// `CI=true`.
pub(crate) fn pyarrow_available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import pyarrow"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "python3 with pyarrow is required when CI=true (python3 -m pip install pyarrow)"
        );
        eprintln!("warning: python3 cannot import pyarrow; skipping the pyarrow interop test");
    }
    ok
}

/// Runs `python3` with `args`; returns its standard output, or panics with `what` and its
/// standard error.
pub(crate) fn python(what: &str, args: &[&std::ffi::OsStr]) -> Vec<u8> {
    let out = Command::new("python3").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{what} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// A fresh scratch directory for one test.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quiver-ipc-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Removes a scratch directory, unless `QUIVER_KEEP` is set (to look at the files).
pub(crate) fn cleanup(dir: &Path) {
    if std::env::var_os("QUIVER_KEEP").is_none() {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// Runs the script on `paths`; returns each input's lines (between `FILE` and `END`).
fn pyarrow_read(paths: &[PathBuf]) -> Vec<Vec<String>> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/py/read_ipc.py");
    let mut args = vec![script.as_os_str()];
    args.extend(paths.iter().map(|p| p.as_os_str()));
    let text = String::from_utf8(python("read_ipc.py", &args)).unwrap();
    let mut inputs = Vec::new();
    for line in text.lines() {
        if line.starts_with("FILE ") {
            inputs.push(Vec::new());
        } else if line != "END" {
            inputs
                .last_mut()
                .expect("FILE comes first")
                .push(line.to_string());
        }
    }
    assert_eq!(inputs.len(), paths.len());
    inputs
}

/// Compares pyarrow's lines with the expected ones, naming the first difference.
fn compare(path: &Path, actual: &[String], expected: &[String]) {
    let schema = actual
        .iter()
        .find(|l| l.starts_with("SCHEMA "))
        .cloned()
        .unwrap_or_default();
    if let Some(e) = actual.iter().find(|l| l.starts_with("ERROR ")) {
        panic!("pyarrow could not read {}: {e}", path.display());
    }
    let actual: Vec<&String> = actual
        .iter()
        .filter(|l| !l.starts_with("SCHEMA "))
        .collect();
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert_eq!(
            *a,
            e,
            "{}: line {i} differs\npyarrow read schema {schema}",
            path.display()
        );
    }
    assert_eq!(
        actual.len(),
        expected.len(),
        "{}: number of lines",
        path.display()
    );
}

/// How to write one input.
struct Output {
    name: String,
    file: bool,
    options: WriteOptions,
}

fn outputs() -> Vec<Output> {
    let o = WriteOptions::default;
    let variants = [
        ("plain8", o()),
        ("plain64", o().with_alignment(64)),
        ("lz4", o().with_compression(Some(Codec::Lz4Frame))),
        (
            "zstd64",
            o().with_compression(Some(Codec::Zstd)).with_alignment(64),
        ),
    ];
    let mut out = Vec::new();
    for file in [false, true] {
        for (name, options) in variants.iter().cloned() {
            let ext = if file { "arrow" } else { "arrows" };
            out.push(Output {
                name: format!("{name}.{ext}"),
                file,
                options,
            });
        }
    }
    out
}

/// Writes `batches` to `path` as a file or a stream.
fn write(
    path: &Path,
    out: &Output,
    schema: &IpcSchema,
    batches: &[(RecordBatch, Metadata)],
    footer: &Metadata,
) {
    let w = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    if out.file {
        let mut w = FileWriter::try_new(w, schema, out.options.clone()).unwrap();
        for (b, m) in batches {
            w.write_with_metadata(b, m).unwrap();
        }
        w.set_footer_metadata(footer.clone());
        w.finish().unwrap();
    } else {
        let mut w = StreamWriter::try_new(w, schema, out.options.clone()).unwrap();
        for (b, m) in batches {
            w.write_with_metadata(b, m).unwrap();
        }
        w.finish().unwrap();
    }
}

/// Writes `batches` in every output variant and checks what pyarrow reads.
fn check_everywhere(
    test: &str,
    schema: &IpcSchema,
    types: &[&str],
    batches: &[(RecordBatch, Metadata)],
) {
    let dir = scratch(test);
    let footer = Metadata::from([("quiver:footer".to_string(), "yes".to_string())]);
    let outs = outputs();
    let paths: Vec<PathBuf> = outs.iter().map(|o| dir.join(&o.name)).collect();
    for (o, p) in outs.iter().zip(&paths) {
        write(p, o, schema, batches, &footer);
    }
    for ((o, p), actual) in outs.iter().zip(&paths).zip(pyarrow_read(&paths)) {
        let expected = Expected {
            schema: &schema.schema,
            types,
            footer: o.file.then_some(&footer),
            batches,
        };
        compare(p, &actual, &expected.lines());
    }
    cleanup(&dir);
}

fn meta(pairs: &[(&str, &str)]) -> Metadata {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn every_type_compressed_or_not_sliced_or_not() {
    if !pyarrow_available() {
        return;
    }
    let mut columns = all_types();
    let first = columns.remove(0);
    columns.insert(
        0,
        super::write_data::Column {
            field: first
                .field
                .with_metadata(meta(&[("quiver:note", "field metadata")])),
            ..first
        },
    );
    let batch = batch_of(
        &columns,
        meta(&[("quiver:origin", "write_pyarrow"), ("unicode", "ünï")]),
    );
    let types: Vec<&str> = columns.iter().map(|c| c.pyarrow).collect();
    let batches = vec![
        (batch.clone(), meta(&[("batch", "whole")])),
        (batch.slice(1, 3), meta(&[("batch", "rows 1..4")])),
        (batch.slice(ROWS, 0), Metadata::new()),
        (batch.slice(4, 1), Metadata::new()),
    ];
    let schema = IpcSchema::new(batch.schema().clone());
    check_everywhere("every-type", &schema, &types, &batches);
}

#[test]
fn dictionary_deltas_replacements_and_nesting() {
    if !pyarrow_available() {
        return;
    }
    let types = [
        "dictionary<values=string, indices=int32, ordered=0>",
        super::write_data::NESTED_DICT_TYPE,
    ];
    // Deltas only: every output variant (files included).
    let (schema, batches) = dictionary_batches(false);
    check_everywhere("dict-deltas", &IpcSchema::new(schema), &types, &batches);
    // Replacements (streams only), with deltas on and off.
    let (schema, batches) = dictionary_batches(true);
    let dir = scratch("dict-replace");
    let schema = IpcSchema::new(schema);
    let mut paths = Vec::new();
    for deltas in [true, false] {
        let out = Output {
            name: format!("deltas-{deltas}.arrows"),
            file: false,
            options: WriteOptions::default().with_dictionary_deltas(deltas),
        };
        paths.push(dir.join(&out.name));
        write(
            paths.last().unwrap(),
            &out,
            &schema,
            &batches,
            &Metadata::new(),
        );
    }
    let expected = Expected {
        schema: &schema.schema,
        types: &types,
        footer: None,
        batches: &batches,
    };
    for (p, actual) in paths.iter().zip(pyarrow_read(&paths)) {
        compare(p, &actual, &expected.lines());
    }
    cleanup(&dir);
}

#[test]
fn one_dictionary_shared_by_two_fields() {
    if !pyarrow_available() {
        return;
    }
    let values = Arc::new(words(&["x", "y", "z"]));
    let keys = |k: [i8; ROWS]| prim(DataType::Int8, k.map(Some));
    let a = Array::from(
        quiver_arrow::DictionaryArray::try_new(keys([0, 1, 2, 1, 0]), values.clone(), false)
            .unwrap(),
    );
    let b = Array::from(
        quiver_arrow::DictionaryArray::try_new(keys([2, 2, 1, 0, 0]), values, false).unwrap(),
    );
    let dt = DataType::dictionary(IntegerType::Int8, DataType::Utf8);
    let schema = Arc::new(Schema::new(vec![
        Field::new("a", dt.clone(), true),
        Field::new("b", dt, false),
    ]));
    let mut dictionaries = DictionaryFields::default();
    dictionaries.insert(vec![0], 7);
    dictionaries.insert(vec![1], 7);
    let ipc = IpcSchema {
        schema: schema.clone(),
        dictionaries,
        endianness: Endianness::Little,
    };
    let batch = RecordBatch::try_new(schema, vec![a, b]).unwrap();
    let types = ["dictionary<values=string, indices=int8, ordered=0>"; 2];
    check_everywhere("shared-dict", &ipc, &types, &[(batch, Metadata::new())]);
}
