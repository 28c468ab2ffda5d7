//! Helpers shared by the read tests: the test-data folder, whole-input readers, the
//! end-of-stream marker and metadata literals.

use bytes::Bytes;
use quiver_arrow::{Metadata, RecordBatch, Result, SchemaRef};
use quiver_ipc::read::{FileReader, StreamReader};
use std::path::PathBuf;

/// `$QUIVER_TEST_DATA`, else `shared/testdata` beside the repository. `None` (skip) when it
/// does not exist, except under `CI=true`, where that panics.
pub fn test_data() -> Option<PathBuf> {
    let dir = match std::env::var_os("QUIVER_TEST_DATA") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/testdata"),
    };
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("CI").map_or(true, |v| v != "true"),
        "test data folder {} is missing (set QUIVER_TEST_DATA); required when CI=true",
        dir.display()
    );
    eprintln!(
        "warning: test data folder {} is missing; skipping",
        dir.display()
    );
    None
}

/// `arrow-testing/data/arrow-ipc-stream` of the test data.
pub fn ipc_stream_dir() -> Option<PathBuf> {
    let dir = test_data()?.join("arrow-testing/data/arrow-ipc-stream");
    assert!(
        dir.is_dir(),
        "{} is missing from the test data",
        dir.display()
    );
    Some(dir)
}

/// Every batch of a stream, with its schema.
pub fn read_stream(bytes: &[u8]) -> Result<(SchemaRef, Vec<RecordBatch>)> {
    let reader = StreamReader::try_new(bytes)?;
    let schema = reader.schema().clone();
    Ok((schema, reader.collect::<Result<Vec<_>>>()?))
}

/// Every batch of a file, with its schema.
pub fn read_file(bytes: Bytes) -> Result<(SchemaRef, Vec<RecordBatch>)> {
    let mut reader = FileReader::from_bytes(bytes)?;
    let schema = reader.schema().clone();
    let batches = (0..reader.num_batches())
        .map(|i| reader.batch(i))
        .collect::<Result<Vec<_>>>()?;
    Ok((schema, batches))
}

/// Why two sets of batches differ, `None` when they are equal (schemas, then each column).
pub fn batches_differ(
    a: &(SchemaRef, Vec<RecordBatch>),
    b: &(SchemaRef, Vec<RecordBatch>),
) -> Option<String> {
    if a.0 != b.0 {
        return Some(format!("schemas differ:\n{:?}\n{:?}", a.0, b.0));
    }
    if a.1.len() != b.1.len() {
        return Some(format!("{} batches vs {}", a.1.len(), b.1.len()));
    }
    for (i, (x, y)) in a.1.iter().zip(&b.1).enumerate() {
        for (j, (cx, cy)) in x.columns().iter().zip(y.columns()).enumerate() {
            if let Some(d) = quiver_arrow::compute::first_difference(cx, cy) {
                return Some(format!("batch {i}, column {j}: {d}"));
            }
        }
    }
    None
}

/// The end-of-stream marker: continuation marker and a zero length.
pub const EOS: [u8; 8] = [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0];

/// Metadata from `(key, value)` pairs.
pub fn kv(pairs: &[(&str, &str)]) -> Metadata {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}
