//! The metadata of every file in parquet-testing (`data`, `bad_data`) and
//! arrow-testing/data/parquet, decoded and compared with pyarrow's view of it
//! (`tests/pyarrow_metadata.py`); files pyarrow rejects must be rejected, cleanly.

use crate::common::test_files;
use quiver_arrow::Error;
use quiver_integration::testdata::pyarrow_python;
use quiver_parquet::format::{ColumnChunk, CompressionCodec};
use quiver_parquet::metadata::{ENCRYPTED, ParquetMetaData, parse_file};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn pyarrow_view(files: &[PathBuf]) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pyarrow_metadata.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .args(files)
        .output()
        .expect("run python3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn is_encrypted(e: &Error) -> bool {
    e.to_string().contains(ENCRYPTED)
}

/// Files pyarrow rejects when it converts the schema to Arrow, which is the schema layer's
/// business (a later layer), not the footer's.
const SCHEMA_LEVEL_REJECTIONS: &[&str] = &["incorrect_map_schema.parquet"];

/// Whether pyarrow's answer for one file is acceptable as quiver's; `Err` says why not.
fn check_file(path: &Path, want: &Value) -> Result<&'static str, String> {
    let bytes = std::fs::read(path).unwrap();
    let name = path.display().to_string();
    let ours = parse_file(&bytes);
    if want.get("aborted").is_some() {
        // pyarrow crashed on the footer (fuzz files): no verdict to compare with. quiver's
        // answer, read or refuse, is only required to come back (no panic, checked here).
        let _ = ours.map(|m| m.decode_all());
        return Ok("pyarrow aborted");
    }
    if let Some(err) = want.get("error") {
        let schema_level = SCHEMA_LEVEL_REJECTIONS.iter().any(|f| name.ends_with(f));
        return match &ours {
            Ok(m) if m.decode_all().is_ok() && !schema_level => Err(format!(
                "{name}: pyarrow rejects it ({err}), quiver reads it"
            )),
            _ => Ok("rejected"),
        };
    }
    let m = match ours {
        Ok(m) => m,
        // pyarrow reads the footer but not the data: rejecting the footer is fine.
        Err(_) if want["table_ok"] == false => return Ok("rejected"),
        // pyarrow's table has no rows (fuzzed footers whose row groups it never reads):
        // refusing the file, cleanly, loses no data.
        Err(_) if want["table_rows"] == 0 => return Ok("rejected"),
        Err(e) => return Err(format!("{name}: pyarrow reads it, quiver: {e}")),
    };
    std::panic::catch_unwind(|| compare_file(&m, want, &name)).map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .unwrap_or_else(|| format!("{name}: comparison panicked"))
    })?;
    Ok("compared")
}

#[test]
fn metadata_matches_pyarrow() {
    let Some(files) = test_files() else { return };
    if pyarrow_python().is_none() {
        return;
    }
    let expected = pyarrow_view(&files);
    assert_eq!(expected.len(), files.len());
    let mut counts = std::collections::BTreeMap::new();
    let mut failures = Vec::new();
    for (path, want) in files.iter().zip(&expected) {
        match check_file(path, want) {
            Ok(outcome) => *counts.entry(outcome).or_insert(0) += 1,
            Err(e) => failures.push(e),
        }
    }
    eprintln!("{counts:?}");
    assert!(
        failures.is_empty(),
        "{} files differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(counts["compared"] > 50, "{counts:?}");
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn compare_file(m: &ParquetMetaData<'_>, want: &Value, name: &str) {
    assert_eq!(
        m.num_rows(),
        want["num_rows"].as_i64().unwrap(),
        "{name}: num_rows"
    );
    assert_eq!(
        m.num_columns() as u64,
        want["num_columns"].as_u64().unwrap(),
        "{name}"
    );
    let kv: Vec<Value> = m
        .file()
        .key_value_metadata
        .iter()
        .flatten()
        .map(|kv| serde_json::json!([hex(kv.key), hex(kv.value.unwrap_or_default())]))
        .collect();
    // pyarrow keeps the last value of a repeated key.
    let want_kv = want["kv"].as_array().unwrap();
    for pair in want_kv {
        assert!(
            kv.contains(pair),
            "{name}: key-value {pair} missing from {kv:?}"
        );
    }
    // pyarrow says "" when there is none.
    let created_by = String::from_utf8_lossy(m.file().created_by.unwrap_or_default());
    assert_eq!(
        Some(&*created_by),
        want["created_by"].as_str(),
        "{name}: created_by"
    );
    let groups = want["row_groups"].as_array().unwrap();
    assert_eq!(m.num_row_groups(), groups.len(), "{name}: row groups");
    for (g, want_g) in groups.iter().enumerate() {
        let rg = m.row_group(g).unwrap();
        assert_eq!(
            rg.num_rows,
            want_g["num_rows"].as_i64().unwrap(),
            "{name} rg {g}"
        );
        assert_eq!(
            rg.total_byte_size,
            want_g["total_byte_size"].as_i64().unwrap()
        );
        for (c, want_c) in want_g["columns"].as_array().unwrap().iter().enumerate() {
            let at = format!("{name}: row group {g}, column {c}");
            match m.column_chunk(g, c) {
                Ok(chunk) => compare_chunk(&chunk, want_c, &at),
                Err(e) if is_encrypted(&e) && name.contains("encrypt") => {}
                // pyarrow reads the footer but not the data, or no rows from it: rejecting the
                // chunk is fine.
                Err(_) if want["table_ok"] == false || want["table_rows"] == 0 => {}
                Err(e) => panic!("{at}: {e}"),
            }
        }
    }
}

fn compare_chunk(chunk: &ColumnChunk<'_>, want: &Value, at: &str) {
    let m = chunk.meta_data.as_ref().unwrap();
    assert_eq!(
        m.path_in_schema.join("."),
        want["path"].as_str().unwrap(),
        "{at}"
    );
    assert_eq!(
        m.type_.name(),
        want["physical_type"].as_str().unwrap(),
        "{at}"
    );
    // pyarrow names LZ4_RAW "LZ4" and the Hadoop-framed LZ4 "UNKNOWN".
    let codec = match m.codec {
        CompressionCodec::LZ4_RAW => "LZ4",
        CompressionCodec::LZ4 => "UNKNOWN",
        other => other.name(),
    };
    assert_eq!(codec, want["compression"].as_str().unwrap(), "{at}: codec");
    let encodings: Vec<&str> = m.encodings.iter().map(|e| e.name()).collect();
    let want_enc: Vec<&str> = want["encodings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let mut sorted = encodings.clone();
    sorted.sort();
    sorted.dedup();
    let mut want_sorted = want_enc.clone();
    want_sorted.sort();
    // A writer may list an encoding twice (large_string_map.brotli.parquet: PLAIN).
    want_sorted.dedup();
    assert_eq!(
        sorted, want_sorted,
        "{at}: encodings {encodings:?} vs {want_enc:?}"
    );
    for (field, ours) in [
        ("num_values", m.num_values),
        ("total_compressed_size", m.total_compressed_size),
        ("total_uncompressed_size", m.total_uncompressed_size),
        ("data_page_offset", m.data_page_offset),
        ("file_offset", chunk.file_offset),
    ] {
        assert_eq!(Some(ours), want[field].as_i64(), "{at}: {field}");
    }
    assert_eq!(
        m.dictionary_page_offset,
        want["dictionary_page_offset"].as_i64(),
        "{at}"
    );
    let Some(want_stats) = want.get("stats").filter(|s| !s.is_null()) else {
        return;
    };
    let stats = m
        .statistics
        .map(|s| s.get())
        .expect("pyarrow has statistics");
    if let Some(n) = want_stats["null_count"].as_i64() {
        assert_eq!(stats.null_count, Some(n), "{at}: null_count");
    }
    if let Some(min) = want_stats["min"].as_str() {
        let ours = stats.min_value.or(stats.min).map(hex);
        assert_eq!(ours.as_deref(), Some(min), "{at}: min");
        let ours = stats.max_value.or(stats.max).map(hex);
        assert_eq!(ours.as_deref(), want_stats["max"].as_str(), "{at}: max");
    }
}

#[test]
fn encrypted_files_say_so() {
    let Some(files) = test_files() else { return };
    let mut seen = 0;
    for path in files
        .iter()
        .filter(|p| p.to_string_lossy().ends_with(".parquet.encrypted"))
    {
        let bytes = std::fs::read(path).unwrap();
        let err = match parse_file(&bytes) {
            Err(e) => e,
            Ok(m) => {
                // A plaintext footer: the encrypted columns are the error.
                assert!(
                    m.file().encryption_algorithm.is_some(),
                    "{}",
                    path.display()
                );
                m.decode_all().expect_err("an encrypted column")
            }
        };
        assert!(is_encrypted(&err), "{}: {err}", path.display());
        seen += 1;
    }
    assert!(seen >= 8, "{seen} encrypted files");
}

/// A column chunk whose page index lies past the footer: its values read as they are (as
/// pyarrow reads them: reading never needs the page index), and the check `quiver validate`
/// runs names the index, the row group and the column once (it used to say "row group 0,
/// column 0, row group 0, column 0").
#[test]
fn a_misplaced_page_index_is_named_once() {
    use quiver_parquet::file::FileReader;
    use quiver_parquet::format::{ColumnChunks, FileMetaData};
    let Some(files) = test_files() else { return };
    let path = files
        .iter()
        .find(|p| p.ends_with("parquet-testing/data/alltypes_plain.parquet"))
        .expect("alltypes_plain.parquet");
    let bytes = std::fs::read(path).unwrap();
    let n = bytes.len();
    let len = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap()) as usize;
    let start = n - 8 - len;
    let mut meta = FileMetaData::decode(&bytes[start..n - 8]).unwrap();
    let mut chunks: Vec<ColumnChunk<'_>> = (0..meta.row_groups[0].columns.len())
        .map(|c| meta.row_groups[0].columns.get(c).unwrap().into_owned())
        .collect();
    chunks[0].column_index_offset = Some(n as i64 + 100);
    chunks[0].column_index_length = Some(19);
    meta.row_groups[0].columns = ColumnChunks::from_decoded(chunks);
    let footer = meta.encode();
    let mut file = bytes[..start].to_vec();
    file.extend_from_slice(&footer);
    file.extend_from_slice(&(footer.len() as u32).to_le_bytes());
    file.extend_from_slice(b"PAR1");
    let read = |b: &[u8]| FileReader::try_new(b, Default::default())?.read_all();
    let (ours, whole) = (read(&file).unwrap(), read(&bytes).unwrap());
    assert_eq!(ours.len(), whole.len());
    for (a, b) in ours.iter().zip(&whole) {
        for (x, y) in a.columns().iter().zip(b.columns()) {
            assert!(quiver_arrow::compute::logical_eq(x, y));
        }
    }
    let meta = parse_file(&file).unwrap();
    let chunk = meta.column_chunk(0, 0).unwrap();
    let e = quiver_parquet::metadata::locations(&chunk, &meta.data_range()).unwrap_err();
    assert!(e.to_string().contains("column index at"), "{e}");
}
