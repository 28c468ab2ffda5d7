//! The arrow-testing integration "gold" files: every `.stream` and `.arrow_file` reads, every
//! batch passes full validation, the file equals the stream, and big-endian files equal their
//! little-endian counterparts.

use super::read_common::{batches_differ, ipc_stream_dir, read_file, read_stream};
use bytes::Bytes;
use quiver_arrow::{DataType, Fields, RecordBatch, Schema, SchemaRef, ValidationLevel};
use std::path::Path;
use std::sync::Arc;

/// How a case's stream and file relate.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Expect {
    /// Same schema, logically equal batches.
    Equal,
    /// The stream (written by Arrow C++ 1.0.0) renamed the map's fields to the canonical
    /// `entries`/`key`/`value`; the file keeps the JSON's names. Equal otherwise.
    StreamHasCanonicalMapNames,
}
use Expect::*;

/// (folder, case, expectation): every case of the folders the reader supports.
const CASES: &[(&str, &str, Expect)] = &[
    ("0.14.1", "generated_datetime", Equal),
    ("0.14.1", "generated_decimal", Equal),
    ("0.14.1", "generated_dictionary", Equal),
    ("0.14.1", "generated_interval", Equal),
    ("0.14.1", "generated_map", Equal),
    ("0.14.1", "generated_nested", Equal),
    ("0.14.1", "generated_primitive", Equal),
    ("0.14.1", "generated_primitive_no_batches", Equal),
    ("0.14.1", "generated_primitive_zerolength", Equal),
    ("0.17.1", "generated_union", Equal),
    ("1.0.0-littleendian", "generated_custom_metadata", Equal),
    ("1.0.0-littleendian", "generated_datetime", Equal),
    ("1.0.0-littleendian", "generated_decimal", Equal),
    ("1.0.0-littleendian", "generated_decimal256", Equal),
    ("1.0.0-littleendian", "generated_dictionary", Equal),
    ("1.0.0-littleendian", "generated_dictionary_unsigned", Equal),
    (
        "1.0.0-littleendian",
        "generated_duplicate_fieldnames",
        Equal,
    ),
    ("1.0.0-littleendian", "generated_extension", Equal),
    ("1.0.0-littleendian", "generated_interval", Equal),
    ("1.0.0-littleendian", "generated_map", Equal),
    (
        "1.0.0-littleendian",
        "generated_map_non_canonical",
        StreamHasCanonicalMapNames,
    ),
    ("1.0.0-littleendian", "generated_nested", Equal),
    ("1.0.0-littleendian", "generated_nested_dictionary", Equal),
    (
        "1.0.0-littleendian",
        "generated_nested_large_offsets",
        Equal,
    ),
    ("1.0.0-littleendian", "generated_null", Equal),
    ("1.0.0-littleendian", "generated_null_trivial", Equal),
    ("1.0.0-littleendian", "generated_primitive", Equal),
    (
        "1.0.0-littleendian",
        "generated_primitive_large_offsets",
        Equal,
    ),
    (
        "1.0.0-littleendian",
        "generated_primitive_no_batches",
        Equal,
    ),
    (
        "1.0.0-littleendian",
        "generated_primitive_zerolength",
        Equal,
    ),
    ("1.0.0-littleendian", "generated_recursive_nested", Equal),
    ("1.0.0-littleendian", "generated_union", Equal),
    ("1.0.0-bigendian", "generated_custom_metadata", Equal),
    ("1.0.0-bigendian", "generated_datetime", Equal),
    ("1.0.0-bigendian", "generated_decimal", Equal),
    ("1.0.0-bigendian", "generated_decimal256", Equal),
    ("1.0.0-bigendian", "generated_dictionary", Equal),
    ("1.0.0-bigendian", "generated_dictionary_unsigned", Equal),
    ("1.0.0-bigendian", "generated_duplicate_fieldnames", Equal),
    ("1.0.0-bigendian", "generated_extension", Equal),
    ("1.0.0-bigendian", "generated_interval", Equal),
    ("1.0.0-bigendian", "generated_map", Equal),
    (
        "1.0.0-bigendian",
        "generated_map_non_canonical",
        StreamHasCanonicalMapNames,
    ),
    ("1.0.0-bigendian", "generated_nested", Equal),
    ("1.0.0-bigendian", "generated_nested_dictionary", Equal),
    ("1.0.0-bigendian", "generated_nested_large_offsets", Equal),
    ("1.0.0-bigendian", "generated_null", Equal),
    ("1.0.0-bigendian", "generated_null_trivial", Equal),
    ("1.0.0-bigendian", "generated_primitive", Equal),
    (
        "1.0.0-bigendian",
        "generated_primitive_large_offsets",
        Equal,
    ),
    ("1.0.0-bigendian", "generated_primitive_no_batches", Equal),
    ("1.0.0-bigendian", "generated_primitive_zerolength", Equal),
    ("1.0.0-bigendian", "generated_recursive_nested", Equal),
    ("1.0.0-bigendian", "generated_union", Equal),
    ("2.0.0-compression", "generated_lz4", Equal),
    ("2.0.0-compression", "generated_uncompressible_lz4", Equal),
    ("2.0.0-compression", "generated_uncompressible_zstd", Equal),
    ("2.0.0-compression", "generated_zstd", Equal),
    ("4.0.0-shareddict", "generated_shared_dict", Equal),
];

type Read = (SchemaRef, Vec<RecordBatch>);

/// Reads one case as stream and as file, validates and compares them.
fn check_case(dir: &Path, folder: &str, case: &str, expect: Expect) -> Result<Read, String> {
    let base = dir.join("integration").join(folder).join(case);
    let load = |ext: &str| {
        let path = base.with_extension(ext);
        std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let stream = read_stream(&load("stream")?).map_err(|e| format!("stream: {e}"))?;
    let file = read_file(Bytes::from(load("arrow_file")?)).map_err(|e| format!("file: {e}"))?;
    for (what, (_, batches)) in [("stream", &stream), ("file", &file)] {
        for (i, b) in batches.iter().enumerate() {
            b.validate(ValidationLevel::Full)
                .map_err(|e| format!("{what} batch {i}: {e}"))?;
        }
    }
    match expect {
        Equal => match batches_differ(&stream, &file) {
            Some(d) => Err(format!("file differs from stream: {d}")),
            None => Ok(stream),
        },
        StreamHasCanonicalMapNames => {
            if stream.0 == file.0 || canonical_schema(&file.0) != *stream.0 {
                return Err(format!(
                    "expected the stream to differ from the file by map field names only:\n{:?}\n{:?}",
                    stream.0, file.0
                ));
            }
            maps_equal(&stream.1, &file.1)?;
            Ok(stream)
        }
    }
}

/// `dt` with a map's fields renamed `entries`, `key`, `value` (as Arrow C++ writes them).
fn canonical(dt: &DataType) -> DataType {
    let DataType::Map(entries, sorted) = dt else {
        return dt.clone();
    };
    let DataType::Struct(kv) = entries.data_type() else {
        return dt.clone();
    };
    let kv: Fields = kv
        .iter()
        .zip(["key", "value"])
        .map(|(f, name)| Arc::new(f.as_ref().clone().with_name(name)))
        .collect();
    let entries = entries.as_ref().clone().with_name("entries");
    DataType::Map(
        Arc::new(entries.with_data_type(DataType::Struct(kv))),
        *sorted,
    )
}

fn canonical_schema(s: &Schema) -> Schema {
    let fields: Fields = s
        .fields
        .iter()
        .map(|f| Arc::new(f.as_ref().clone().with_data_type(canonical(f.data_type()))))
        .collect();
    Schema::new(fields).with_metadata(s.metadata.clone())
}

/// Map columns equal slot by slot (validity, keys and values), whatever their field names.
fn maps_equal(a: &[RecordBatch], b: &[RecordBatch]) -> Result<(), String> {
    if a.len() != b.len() {
        return Err(format!("{} batches vs {}", a.len(), b.len()));
    }
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        for (j, (cx, cy)) in x.columns().iter().zip(y.columns()).enumerate() {
            let (Some(mx), Some(my)) = (cx.as_map(), cy.as_map()) else {
                return Err(format!("batch {i}, column {j} is not a map"));
            };
            let same = mx.len() == my.len()
                && (0..mx.len()).all(|k| {
                    let (rx, ry) = (mx.offsets().range(k), my.offsets().range(k));
                    let slice = |a: &quiver_arrow::Array, r: std::ops::Range<usize>| {
                        a.slice(r.start, r.len())
                    };
                    mx.is_null(k) == my.is_null(k)
                        && slice(mx.keys(), rx.clone()) == slice(my.keys(), ry.clone())
                        && slice(mx.values(), rx) == slice(my.values(), ry)
                });
            if !same {
                return Err(format!("batch {i}, column {j}: map values differ"));
            }
        }
    }
    Ok(())
}

#[test]
fn gold_files_read_validate_and_agree() {
    let Some(dir) = ipc_stream_dir() else { return };
    let mut failures = Vec::new();
    let mut little = std::collections::HashMap::new();
    let mut big = Vec::new();
    for &(folder, case, expect) in CASES {
        match check_case(&dir, folder, case, expect) {
            Ok(read) if folder == "1.0.0-littleendian" => {
                little.insert(case, read);
            }
            Ok(read) if folder == "1.0.0-bigendian" => big.push((case, read)),
            Ok(_) => {}
            Err(e) => failures.push(format!("{folder}/{case}: {e}")),
        }
    }
    for (case, read) in &big {
        let Some(le) = little.get(case) else { continue };
        if let Some(d) = batches_differ(le, read) {
            failures.push(format!(
                "1.0.0-bigendian/{case} differs from little-endian: {d}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} gold cases failed:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}

#[test]
fn every_gold_case_is_listed() {
    let Some(dir) = ipc_stream_dir() else { return };
    for &folder in &[
        "0.14.1",
        "0.17.1",
        "1.0.0-littleendian",
        "1.0.0-bigendian",
        "2.0.0-compression",
        "4.0.0-shareddict",
    ] {
        let entries = std::fs::read_dir(dir.join("integration").join(folder)).expect("gold folder");
        for e in entries {
            let name = e.expect("entry").file_name().to_string_lossy().into_owned();
            if let Some(case) = name.strip_suffix(".stream") {
                assert!(
                    CASES.iter().any(|&(f, c, _)| (f, c) == (folder, case)),
                    "{folder}/{case} is not listed in CASES"
                );
            }
        }
    }
}
