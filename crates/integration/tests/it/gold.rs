//! The official integration gold files (apache/arrow-testing): every `.json.gz` of the six
//! version folders is listed here with its expected outcome, read, validated, and round
//! tripped through `write_json`. A file present on disk but not listed fails the suite.

use quiver_arrow::compute::first_difference;
use quiver_arrow::{Array, ValidationLevel};
use quiver_integration::testdata::require_test_subdir;
use quiver_integration::{JsonFile, read_json, read_json_path, write_json};
use std::path::{Path, PathBuf};

const INTEGRATION: &str = "arrow-testing/data/arrow-ipc-stream/integration";
const VERSIONS: &[&str] = &[
    "0.14.1",
    "0.17.1",
    "1.0.0-littleendian",
    "1.0.0-bigendian",
    "2.0.0-compression",
    "4.0.0-shareddict",
];

/// `(version folder, file stem)`: one line per official file. Every one reads and passes
/// full validation, batch level included.
const CASES: &[(&str, &str)] = &[
    ("0.14.1", "generated_datetime"),
    ("0.14.1", "generated_decimal"),
    ("0.14.1", "generated_dictionary"),
    ("0.14.1", "generated_interval"),
    ("0.14.1", "generated_map"),
    ("0.14.1", "generated_nested"),
    ("0.14.1", "generated_primitive"),
    ("0.14.1", "generated_primitive_no_batches"),
    ("0.14.1", "generated_primitive_zerolength"),
    ("0.17.1", "generated_union"),
    ("1.0.0-littleendian", "generated_custom_metadata"),
    ("1.0.0-littleendian", "generated_datetime"),
    ("1.0.0-littleendian", "generated_decimal"),
    ("1.0.0-littleendian", "generated_decimal256"),
    ("1.0.0-littleendian", "generated_dictionary"),
    ("1.0.0-littleendian", "generated_dictionary_unsigned"),
    ("1.0.0-littleendian", "generated_duplicate_fieldnames"),
    ("1.0.0-littleendian", "generated_extension"),
    ("1.0.0-littleendian", "generated_interval"),
    ("1.0.0-littleendian", "generated_map"),
    ("1.0.0-littleendian", "generated_map_non_canonical"),
    ("1.0.0-littleendian", "generated_nested"),
    ("1.0.0-littleendian", "generated_nested_dictionary"),
    ("1.0.0-littleendian", "generated_nested_large_offsets"),
    ("1.0.0-littleendian", "generated_null"),
    ("1.0.0-littleendian", "generated_null_trivial"),
    ("1.0.0-littleendian", "generated_primitive"),
    ("1.0.0-littleendian", "generated_primitive_large_offsets"),
    ("1.0.0-littleendian", "generated_primitive_no_batches"),
    ("1.0.0-littleendian", "generated_primitive_zerolength"),
    ("1.0.0-littleendian", "generated_recursive_nested"),
    ("1.0.0-littleendian", "generated_union"),
    ("1.0.0-bigendian", "generated_custom_metadata"),
    ("1.0.0-bigendian", "generated_datetime"),
    ("1.0.0-bigendian", "generated_decimal"),
    ("1.0.0-bigendian", "generated_decimal256"),
    ("1.0.0-bigendian", "generated_dictionary"),
    ("1.0.0-bigendian", "generated_dictionary_unsigned"),
    ("1.0.0-bigendian", "generated_duplicate_fieldnames"),
    ("1.0.0-bigendian", "generated_extension"),
    ("1.0.0-bigendian", "generated_interval"),
    ("1.0.0-bigendian", "generated_map"),
    ("1.0.0-bigendian", "generated_map_non_canonical"),
    ("1.0.0-bigendian", "generated_nested"),
    ("1.0.0-bigendian", "generated_nested_dictionary"),
    ("1.0.0-bigendian", "generated_nested_large_offsets"),
    ("1.0.0-bigendian", "generated_null"),
    ("1.0.0-bigendian", "generated_null_trivial"),
    ("1.0.0-bigendian", "generated_primitive"),
    ("1.0.0-bigendian", "generated_primitive_large_offsets"),
    ("1.0.0-bigendian", "generated_primitive_no_batches"),
    ("1.0.0-bigendian", "generated_primitive_zerolength"),
    ("1.0.0-bigendian", "generated_recursive_nested"),
    ("1.0.0-bigendian", "generated_union"),
    ("2.0.0-compression", "generated_lz4"),
    ("2.0.0-compression", "generated_uncompressible_lz4"),
    ("2.0.0-compression", "generated_uncompressible_zstd"),
    ("2.0.0-compression", "generated_zstd"),
    ("4.0.0-shareddict", "generated_shared_dict"),
];

/// The integration folder, or `None` to skip (outside CI, when the data is absent).
pub(crate) fn integration_dir() -> Option<PathBuf> {
    require_test_subdir(INTEGRATION).unwrap_or_else(|e| panic!("{e}"))
}

/// Reads the gold file `version/stem.json.gz`.
pub(crate) fn read_gold(dir: &Path, version: &str, stem: &str) -> JsonFile {
    let path = dir.join(version).join(format!("{stem}.json.gz"));
    read_json_path(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs `check` on every case, then fails listing every case that failed.
fn for_each_case(check: impl Fn(&Path, &str, &str) -> Result<(), String>) {
    let Some(dir) = integration_dir() else {
        return;
    };
    let failures: Vec<String> = CASES
        .iter()
        .filter_map(|&(version, stem)| {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                check(&dir, version, stem)
            }))
            .unwrap_or_else(|_| Err("panicked".to_string()));
            outcome.err().map(|e| format!("{version}/{stem}: {e}"))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} gold files failed:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}

#[test]
fn every_gold_file_is_listed() {
    let Some(dir) = integration_dir() else {
        return;
    };
    let mut on_disk = Vec::new();
    for version in VERSIONS {
        let entries = std::fs::read_dir(dir.join(version)).expect("version folder");
        for e in entries {
            let name = e.expect("entry").file_name().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix(".json.gz") {
                on_disk.push(format!("{version}/{stem}"));
            }
        }
    }
    on_disk.sort();
    let mut listed: Vec<String> = CASES.iter().map(|(v, s)| format!("{v}/{s}")).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "the table of gold files is out of date");
}

fn read_and_validate(dir: &Path, version: &str, stem: &str) -> Result<(), String> {
    let path = dir.join(version).join(format!("{stem}.json.gz"));
    let file = read_json_path(&path).map_err(|e| e.to_string())?;
    for (i, batch) in file.batches.iter().enumerate() {
        for (c, column) in batch.columns().iter().enumerate() {
            column
                .validate(ValidationLevel::Full)
                .map_err(|e| format!("batch {i}, column {c}: {e}"))?;
        }
        batch
            .validate(ValidationLevel::Full)
            .map_err(|e| format!("batch {i}: {e}"))?;
    }
    for (id, values) in &file.dictionaries.values {
        values
            .validate(ValidationLevel::Full)
            .map_err(|e| format!("dictionary {id}: {e}"))?;
    }
    Ok(())
}

#[test]
fn gold_files_read_and_validate() {
    for_each_case(read_and_validate);
}

/// Compares two files: schemas, dictionary ids and values, and every column.
pub(crate) fn compare(a: &JsonFile, b: &JsonFile) -> Result<(), String> {
    if a.schema != b.schema {
        return Err(format!("schemas differ:\n{:?}\n{:?}", a.schema, b.schema));
    }
    if a.dictionaries.ids != b.dictionaries.ids {
        return Err(format!(
            "dictionary ids differ: {:?} vs {:?}",
            a.dictionaries.ids, b.dictionaries.ids
        ));
    }
    let ids = |f: &JsonFile| f.dictionaries.values.keys().copied().collect::<Vec<_>>();
    if ids(a) != ids(b) {
        return Err(format!("dictionaries differ: {:?} vs {:?}", ids(a), ids(b)));
    }
    for (id, values) in &a.dictionaries.values {
        diff(values, &b.dictionaries.values[id]).map_err(|e| format!("dictionary {id}: {e}"))?;
    }
    if a.batches.len() != b.batches.len() {
        return Err(format!(
            "{} vs {} batches",
            a.batches.len(),
            b.batches.len()
        ));
    }
    for (i, (x, y)) in a.batches.iter().zip(&b.batches).enumerate() {
        if x.num_rows() != y.num_rows() {
            return Err(format!(
                "batch {i}: {} vs {} rows",
                x.num_rows(),
                y.num_rows()
            ));
        }
        for (c, (p, q)) in x.columns().iter().zip(y.columns()).enumerate() {
            diff(p, q).map_err(|e| format!("batch {i}, column {c}: {e}"))?;
        }
    }
    Ok(())
}

fn diff(a: &Array, b: &Array) -> Result<(), String> {
    match first_difference(a, b) {
        None => Ok(()),
        Some(d) => Err(d.to_string()),
    }
}

fn round_trip(dir: &Path, version: &str, stem: &str) -> Result<(), String> {
    let original = read_gold(dir, version, stem);
    let text = write_json(&original).map_err(|e| format!("write: {e}"))?;
    let again = read_json(text.as_bytes()).map_err(|e| format!("read back: {e}"))?;
    compare(&original, &again)?;
    // Writing is deterministic and stable: the second generation is the same text.
    let text2 = write_json(&again).map_err(|e| format!("write again: {e}"))?;
    if text != text2 {
        return Err("writing the read-back file gives different JSON".to_string());
    }
    Ok(())
}

#[test]
fn gold_files_round_trip() {
    for_each_case(round_trip);
}

/// The JSON written for a gold file equals the gold JSON itself, member for member, apart
/// from what the format leaves open (documented per difference below).
#[test]
fn written_json_matches_gold_json() {
    for_each_case(|dir, version, stem| {
        let path = dir.join(version).join(format!("{stem}.json.gz"));
        let gold = super::spot_checks::gold_json(&path);
        let written: serde_json::Value = serde_json::from_str(
            &write_json(&read_gold(dir, version, stem)).map_err(|e| e.to_string())?,
        )
        .map_err(|e| e.to_string())?;
        super::spot_checks::same_json(&normalise_gold(gold), &written)
    });
}

/// Brings a gold file to the form quiver writes: pre-1.0 union `VALIDITY` dropped (unions no
/// longer have one) and decimals given their default `bitWidth` 128.
fn normalise_gold(mut v: serde_json::Value) -> serde_json::Value {
    super::spot_checks::normalise(&mut v);
    v
}
