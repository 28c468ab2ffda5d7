//! Every official IPC gold case: the `.arrow_file` and the `.stream` both read into exactly the
//! data of the `.json.gz` (schema, batch count, every value), as the Arrow integration tester's
//! VALIDATE mode checks.

use quiver_integration::compare::{compare_batches, compare_schemas};
use quiver_integration::read_json_path;
use quiver_integration::testdata::require_test_data;
use quiver_ipc::read::{FileReader, StreamReader};
use std::path::{Path, PathBuf};

const VERSIONS: &[&str] = &[
    "0.14.1",
    "0.17.1",
    "1.0.0-littleendian",
    "1.0.0-bigendian",
    "2.0.0-compression",
    "4.0.0-shareddict",
];

fn integration_dir() -> Option<PathBuf> {
    let dir = require_test_data().unwrap_or_else(|e| panic!("{e}"))?;
    Some(dir.join("arrow-testing/data/arrow-ipc-stream/integration"))
}

fn check_case(dir: &Path, version: &str, stem: &str) -> Result<(), String> {
    let base = dir.join(version).join(stem);
    let json = read_json_path(base.with_extension("json.gz")).map_err(|e| format!("json: {e}"))?;

    let bytes = std::fs::read(base.with_extension("arrow_file")).map_err(|e| e.to_string())?;
    let file = FileReader::from_bytes(bytes.into()).map_err(|e| format!("file: {e}"))?;
    compare_schemas(&json.schema, file.schema()).map_err(|e| format!("file: {e}"))?;
    let batches = file
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("file: {e}"))?;
    compare_batches(&json.batches, &batches).map_err(|e| format!("file: {e}"))?;

    let stream = std::fs::File::open(base.with_extension("stream")).map_err(|e| e.to_string())?;
    let reader = StreamReader::try_new(std::io::BufReader::new(stream))
        .map_err(|e| format!("stream: {e}"))?;
    compare_schemas(&json.schema, reader.schema()).map_err(|e| format!("stream: {e}"))?;
    let batches = reader
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("stream: {e}"))?;
    compare_batches(&json.batches, &batches).map_err(|e| format!("stream: {e}"))
}

#[test]
fn every_gold_file_and_stream_equals_its_json() {
    let Some(dir) = integration_dir() else { return };
    let mut cases = Vec::new();
    for version in VERSIONS {
        let entries =
            std::fs::read_dir(dir.join(version)).unwrap_or_else(|e| panic!("{version}: {e}"));
        for entry in entries {
            let name = entry
                .expect("directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned();
            if let Some(stem) = name.strip_suffix(".json.gz") {
                cases.push((*version, stem.to_string()));
            }
        }
    }
    cases.sort();
    assert!(cases.len() >= 59, "found only {} gold cases", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(v, s)| {
            check_case(&dir, v, s)
                .err()
                .map(|e| format!("{v}/{s}: {e}"))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} gold cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    eprintln!("{} gold cases: file and stream equal the JSON", cases.len());
}

#[test]
fn the_comparison_names_the_first_difference() {
    let Some(dir) = integration_dir() else { return };
    let base = dir.join("1.0.0-littleendian/generated_primitive");
    let json = read_json_path(base.with_extension("json.gz")).expect("gold json");
    let bytes = std::fs::read(base.with_extension("arrow_file")).expect("gold file");
    let mut batches: Vec<_> = FileReader::from_bytes(bytes.into())
        .expect("gold file")
        .collect::<Result<_, _>>()
        .expect("batches");
    compare_batches(&json.batches, &batches).expect("equal before the change");

    // Drop the last row of batch 1: the rows differ.
    let short = batches[1].slice(0, batches[1].num_rows() - 1);
    let saved = std::mem::replace(&mut batches[1], short);
    let e = compare_batches(&json.batches, &batches).unwrap_err();
    assert!(e.starts_with("batch 1: "), "{e}");
    batches[1] = saved;

    // Swap the first two rows of every column of batch 0: the first column that changes is
    // named with its index.
    let b = &batches[0];
    let swapped: Vec<_> = b
        .columns()
        .iter()
        .map(|c| {
            let parts = [&c.slice(1, 1), &c.slice(0, 1), &c.slice(2, c.len() - 2)];
            quiver_arrow::compute::concat(&parts).expect("concat")
        })
        .collect();
    batches[0] = quiver_arrow::RecordBatch::try_new(b.schema().clone(), swapped).expect("batch");
    let e = compare_batches(&json.batches, &batches).unwrap_err();
    assert!(e.starts_with("batch 0, column "), "{e}");
    assert!(e.contains("index 0"), "{e}");
}
