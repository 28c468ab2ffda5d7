//! Every official Parquet test file quiver reads holds pyarrow's values (`tests/read_values.py`
//! compares column by column, quiver's batches sent as an Arrow IPC stream); files pyarrow
//! rejects, quiver rejects.

use crate::common::{all_parquet_files, file_name, parquet_files, python_lines, python_writes};
use quiver_parquet::arrow::options::ReadOptions;
use quiver_parquet::file::FileReader;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Files whose page CRCs are wrong: quiver refuses them by default (pyarrow does not check) and
/// reads them as pyarrow does with verification off.
const CORRUPT_CRC: [&str; 2] = [
    "datapage_v1-corrupt-checksum.parquet",
    "rle-dict-uncompressed-corrupt-checksum.parquet",
];

/// Files pyarrow reads that quiver refuses on purpose, with the text quiver's error must
/// hold: parquet-testing's `int96_from_spark.parquet` holds INT96 instants of the years 9999
/// and 290000, outside the nanosecond range, which pyarrow wraps to other dates (1816, 2147)
/// and quiver names as an error (read in microseconds they are exact: `writers.rs`).
const DELIBERATE: [(&str, &str); 1] = [(
    "int96_from_spark.parquet",
    "is out of the range of timestamp[ns]",
)];

/// Reads `path` with quiver and writes the batches to `out` as an IPC stream (a stream, not a
/// file: a dictionary column's dictionary changes from row group to row group, which only a
/// stream's replacement dictionaries express).
fn read_to_ipc(path: &Path, out: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let name = path.file_name().unwrap().to_str().unwrap();
    let mut options = ReadOptions::default();
    if CORRUPT_CRC.contains(&name) {
        let e = FileReader::try_new(&bytes, options.clone())
            .unwrap()
            .read_all()
            .unwrap_err();
        assert!(e.to_string().contains("CRC mismatch"), "{name}: {e}");
        options.verify_crc = false;
    }
    let reader = FileReader::try_new(&bytes, options).map_err(|e| e.to_string())?;
    let batches = reader.read_all().map_err(|e| e.to_string())?;
    let file = std::fs::File::create(out).map_err(|e| e.to_string())?;
    let mut w =
        quiver_ipc::write::StreamWriter::try_new(file, reader.schema().clone(), Default::default())
            .map_err(|e| e.to_string())?;
    for b in &batches {
        w.write(b).map_err(|e| e.to_string())?;
    }
    w.finish().map_err(|e| e.to_string())?;
    Ok(())
}

/// What comparing files with pyarrow found.
pub struct Outcome {
    /// Files read differently, or read by one side only, or a panic.
    pub problems: Vec<String>,
    /// Files read equal to pyarrow's reading.
    pub same: usize,
    /// Files pyarrow and quiver both reject (quiver with a clean error): name, quiver's error.
    pub rejected: Vec<(String, String)>,
}

/// The file pyarrow reads in place of `file`: the one `oracles.json` beside it names for it (a
/// file pyarrow cannot read, such as LZO, holding the same values as one it can), else itself.
fn oracle(file: &Path) -> PathBuf {
    let dir = file.parent().unwrap();
    let Ok(text) = std::fs::read_to_string(dir.join("oracles.json")) else {
        return file.to_path_buf();
    };
    let map: Value = serde_json::from_str(&text).unwrap();
    let name = file.file_name().unwrap().to_str().unwrap();
    map.get(name)
        .and_then(Value::as_str)
        .map_or_else(|| file.to_path_buf(), |o| dir.join(o))
}

/// Reads `files` with quiver and pyarrow (each file, or its [`oracle`]) and compares them.
pub fn compare(files: &[PathBuf]) -> Outcome {
    let dir = tempfile::tempdir().unwrap();
    let mut input = String::new();
    for (i, f) in files.iter().enumerate() {
        let ipc = dir.path().join(format!("{i}.arrow"));
        let mut case = match std::panic::catch_unwind(|| read_to_ipc(f, &ipc)) {
            Ok(Ok(())) => json!({"file": f, "ipc": ipc}),
            Ok(Err(e)) => json!({"file": f, "error": e}),
            Err(_) => json!({"file": f, "error": "PANIC"}),
        };
        case["oracle"] = json!(oracle(f));
        input.push_str(&case.to_string());
        input.push('\n');
    }
    let lines = python_lines("read_values.py", &input);
    let errors: Vec<(String, String)> = input
        .lines()
        .filter_map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            Some((
                v["file"].as_str()?.to_string(),
                v.get("error")?.as_str()?.to_string(),
            ))
        })
        .collect();
    let mut out = Outcome {
        problems: Vec::new(),
        same: 0,
        rejected: Vec::new(),
    };
    assert_eq!(lines.len(), files.len());
    for v in lines {
        let file = v["file"].as_str().unwrap();
        let name = file_name(&v);
        let ours_err = errors
            .iter()
            .find(|(f, _)| f == file)
            .map(|(_, e)| e.as_str());
        match (v.get("pyarrow_error"), ours_err) {
            (None, None) => {
                let diffs = v["diffs"].as_array().unwrap();
                if diffs.is_empty() {
                    out.same += 1;
                } else {
                    out.problems.push(format!("{name}: {diffs:?}"));
                }
            }
            (Some(_), Some(e)) if e != "PANIC" => out.rejected.push((name, e.to_string())),
            // pyarrow cannot build the table (its own limit, e.g. nested columns past 2 GiB:
            // "Nested data conversions not implemented for chunked array outputs"); quiver
            // reading it is no disagreement about the file.
            (Some(p), None)
                if p.as_str()
                    .is_some_and(|p| p.starts_with("ArrowNotImplementedError")) =>
            {
                out.same += 1
            }
            (None, Some(e))
                if DELIBERATE
                    .iter()
                    .any(|(f, why)| name == *f && e.contains(why)) =>
            {
                out.same += 1
            }
            // pyarrow reads no rows from it (fuzzed footers): a clean refusal loses no data.
            (None, Some(e)) if e != "PANIC" && v["their_rows"] == 0 => {
                out.rejected.push((name, e.to_string()))
            }
            (Some(p), None) => out
                .problems
                .push(format!("{name}: pyarrow refuses ({p}), quiver reads it")),
            (_, Some(e)) => out.problems.push(format!("{name}: quiver: {e}")),
        }
    }
    out
}

/// Asserts that quiver reads every one of `files` as pyarrow does, except those named in
/// `rejected`, which both must refuse (quiver with a clean error); returns how many compared.
pub fn assert_read_as_pyarrow(files: &[PathBuf], rejected: &[&str]) -> usize {
    let out = compare(files);
    assert!(
        out.problems.is_empty(),
        "{} of {} files differ:\n{}",
        out.problems.len(),
        files.len(),
        out.problems.join("\n")
    );
    let mut want: Vec<&str> = rejected.to_vec();
    want.sort_unstable();
    let mut got: Vec<&str> = out.rejected.iter().map(|(n, _)| n.as_str()).collect();
    got.sort_unstable();
    assert_eq!(
        got, want,
        "files both pyarrow and quiver refuse: {:?}",
        out.rejected
    );
    assert_eq!(out.same + out.rejected.len(), files.len());
    out.same
}

#[test]
fn official_files_read_as_pyarrow_reads_them() {
    let Some(files) = all_parquet_files() else {
        return;
    };
    let Outcome { problems, same, .. } = compare(&files);
    assert!(
        problems.is_empty(),
        "{} files differ:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(same >= 50, "only {same} files compared");
}

/// Files pyarrow writes with every Arrow type it can store (`tests/write_types.py`, under
/// several writer settings) read to pyarrow's values, restored types included.
#[test]
fn pyarrow_written_types_read_as_pyarrow_reads_them() {
    let (_dir, files) = python_writes("write_types.py");
    assert_read_as_pyarrow(&files, &[]);
}

/// pyarrow-written files (`tests/write_matrix.py`): every codec, page versions 1 and 2,
/// dictionary on and off, the delta, byte-stream-split and RLE-boolean encodings, tiny pages,
/// many row groups, checksums, an empty table; flat and nested columns with nulls at every level.
#[test]
fn pyarrow_written_matrix_reads_as_pyarrow_reads_it() {
    let (_dir, files) = python_writes("write_matrix.py");
    assert_read_as_pyarrow(&files, &[]);
}

/// Lists of lists in the legacy shapes (`tests/write_legacy_lists.py`: a repeated group
/// annotated LIST as the element, a group whose one field is repeated, `array` and `_tuple`
/// names), required and optional, with empty and null lists across pages and row groups, read
/// to pyarrow's types and values.
#[test]
fn legacy_lists_of_lists_read_as_pyarrow_reads_them() {
    let (_dir, files) = python_writes("write_legacy_lists.py");
    assert_eq!(files.len(), 10);
    assert_read_as_pyarrow(&files, &[]);
}

/// Data pages v2 of a parquet-cpp before Arrow 3.0 (`tests/write_pre_arrow3_v2.py`: compressed
/// values marked `is_compressed = false`, under every codec) read as pyarrow reads them, which
/// decompresses them for such writers (ARROW-17100); merging such a file is refused, since
/// copied pages would keep the false flag under quiver's name.
#[test]
fn pre_arrow3_v2_pages_read_as_pyarrow_reads_them() {
    let (_dir, files) = python_writes("write_pre_arrow3_v2.py");
    assert_eq!(files.len(), 5);
    assert_read_as_pyarrow(&files, &[]);
    let bytes = std::fs::read(&files[0]).unwrap();
    use quiver_parquet::file::merge::{MergeInput, MergeOptions, merge};
    let input = |name| MergeInput {
        name,
        bytes: &bytes,
        file: None,
    };
    for opts in [
        MergeOptions::default(),
        MergeOptions {
            coalesce: None,
            ..MergeOptions::default()
        },
    ] {
        let mut out = Vec::new();
        let e = merge(&[input("a"), input("b")], &mut out, &opts).unwrap_err();
        assert!(e.to_string().contains("ARROW-17100"), "{e}");
    }
}

/// Decoding column chunks on one thread or on several gives the same batches.
#[test]
fn the_thread_count_does_not_change_what_is_read() {
    use quiver_arrow::compute::logical_eq;
    use quiver_arrow::parallel::ThreadPool;
    let Some(files) = parquet_files() else { return };
    let mut compared = 0;
    for f in files
        .iter()
        .filter(|f| f.to_str().unwrap().contains("parquet-testing/data"))
    {
        let bytes = std::fs::read(f).unwrap();
        let read = |threads: ThreadPool| {
            let options = ReadOptions {
                threads,
                verify_crc: false,
                ..ReadOptions::default()
            };
            FileReader::try_new(&bytes, options)
                .and_then(|r| r.read_all())
                .map_err(|e| e.to_string())
        };
        match (
            read(ThreadPool::sequential()),
            read(ThreadPool::new(3).unwrap()),
        ) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.len(), b.len());
                for (x, y) in a.iter().zip(&b) {
                    for (cx, cy) in x.columns().iter().zip(y.columns()) {
                        assert!(logical_eq(cx, cy), "{}", f.display());
                    }
                }
                compared += 1;
            }
            (Err(a), Err(b)) => assert_eq!(a, b, "{}", f.display()),
            (a, b) => panic!("{}: {:?} vs {:?}", f.display(), a.is_ok(), b.is_ok()),
        }
    }
    assert!(compared > 40, "{compared}");
}
