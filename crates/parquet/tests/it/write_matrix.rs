//! The writer matrix: one table of every Arrow type Parquet holds, flat and nested, with nulls
//! at every level and dictionary columns whose dictionaries change from batch to batch
//! (`tests/matrix_source.py`, read from an IPC stream), written by quiver under settings that
//! together cover every codec, both page versions, dictionary on, off and falling back, each
//! forced encoding where valid and the modern profile's choice, tiny and default pages and row
//! groups, statistics off and CRCs off. Batches are written whole and as slices whose arrays
//! have nonzero offsets at every level.
//!
//! `tests/write_matrix_check.py` has pyarrow (the Arrow schema restored exactly as pyarrow
//! restores its own files'), DuckDB, polars and Spark read each file equal to the source, and
//! arrow-rs too when its checker is built: `cargo build --release --manifest-path
//! bench/Cargo.toml --bin parquet_check` (or `QUIVER_PARQUET_CHECK=<binary>`); without it the
//! arrow-rs part is skipped with a message.

use crate::common::{python_lines, writer_available};
use quiver_arrow::RecordBatch;
use quiver_arrow::array::{Array, FixedSizeListArray, GenericListArray, MapArray, StructArray};
use quiver_arrow::compute::concat;
use quiver_arrow::parallel::ThreadPool;
use quiver_parquet::arrow::column_writer::{PageVersion, StatisticsLevel};
use quiver_parquet::codec::Codec;
use quiver_parquet::file::writer::{ColumnOverride, FileWriter, WriteOptions};
use quiver_parquet::format::Encoding;
use serde_json::json;
use std::path::{Path, PathBuf};

/// `a` copied behind a copy of itself and sliced back: the same values at offset `a.len()`.
fn shifted(a: &Array) -> Array {
    let n = a.len();
    concat(&[a, a]).unwrap().slice(n, n)
}

/// `a` rebuilt so that it and every array below it sit at a nonzero offset of their buffers.
pub fn offset_everywhere(a: &Array) -> Array {
    let a = shifted(a);
    match &a {
        Array::List(l) => Array::List(list(l)),
        Array::LargeList(l) => Array::LargeList(list(l)),
        Array::FixedSizeList(l) => Array::FixedSizeList(
            FixedSizeListArray::try_new(
                l.field().clone(),
                l.size() as i32,
                l.len(),
                offset_everywhere(l.values()),
                a.validity().cloned(),
            )
            .unwrap(),
        ),
        Array::Struct(s) => Array::Struct(structure(s)),
        Array::Map(m) => Array::Map(
            MapArray::try_new(
                m.entries_field().clone(),
                m.keys_sorted(),
                m.offsets().clone(),
                structure(m.entries()),
                a.validity().cloned(),
            )
            .unwrap(),
        ),
        _ => a.clone(),
    }
}

fn list<O: quiver_arrow::buffer::Offset>(l: &GenericListArray<O>) -> GenericListArray<O> {
    GenericListArray::try_new(
        l.field().clone(),
        l.offsets().clone(),
        offset_everywhere(l.values()),
        l.validity().cloned(),
    )
    .unwrap()
}

fn structure(s: &StructArray) -> StructArray {
    let children = s.columns().iter().map(offset_everywhere).collect();
    StructArray::try_new(s.fields().clone(), s.len(), children, s.validity().cloned()).unwrap()
}

/// The batches as written: the first whole, the second in three slices and the third whole,
/// each of these two with offsets at every level.
fn pieces(batches: &[RecordBatch]) -> Vec<RecordBatch> {
    let deep = |b: &RecordBatch| {
        let cols = b.columns().iter().map(offset_everywhere).collect();
        RecordBatch::try_new(b.schema().clone(), cols).unwrap()
    };
    let mut out = vec![batches[0].clone()];
    let n = batches[1].num_rows();
    for (start, end) in [(0, 1), (1, 517), (517, n)] {
        out.push(deep(&batches[1].slice(start, end - start)));
    }
    out.push(deep(&batches[2]));
    out
}

/// Columns by physical type, for the forced encodings.
const INT_COLUMNS: &[&str] = &[
    "i8",
    "i16",
    "i32",
    "i64",
    "u8",
    "u16",
    "u32",
    "u64",
    "dec9",
    "dec18",
    "date",
    "t_ms",
    "t_us",
    "t_ns",
    "ts_s",
    "ts_ms",
    "ts_us",
    "ts_us_ntz",
    "ts_ns",
    "dur",
    "req",
    "list",
    "list_req",
    "list_list",
    "all_null",
    "st_st.in.v",
    "deep",
];
const BYTE_COLUMNS: &[&str] = &[
    "s",
    "ls",
    "sv",
    "bin",
    "lbin",
    "req_s",
    "llist",
    "all_null_s",
];
const FLOAT_COLUMNS: &[&str] = &["f32", "f64", "fsl", "st_st.in.w"];
const FIXED_COLUMNS: &[&str] = &["fsb", "dec38", "f16"];

fn forced(columns: &[&[&str]], encoding: Encoding) -> Vec<(String, ColumnOverride)> {
    columns
        .iter()
        .flat_map(|c| c.iter())
        .map(|c| (c.to_string(), ColumnOverride::Encoding(encoding)))
        .collect()
}

/// What a reader does not read in a setting's files (beyond the columns `matrix_source.py`
/// lists): `reader` (the whole file) or `reader:column`.
type Unread = &'static [&'static str];

/// The settings, each with what readers do not read: together every codec, page version and
/// encoding.
fn settings() -> Vec<(&'static str, WriteOptions, Unread)> {
    let mut out = vec![("default", WriteOptions::default(), &[][..])];

    let mut o = WriteOptions::default();
    o.column.page_version = PageVersion::V2;
    o.column.codec = Codec::Zstd;
    o.column.level = Some(7);
    o.column.page_rows = 50;
    o.column.page_size = 512;
    o.row_group_rows = 900;
    o.threads = ThreadPool::sequential();
    out.push(("v2-zstd-tiny-pages", o, &[]));

    let mut o = WriteOptions::default();
    o.column.codec = Codec::Gzip;
    o.column.dictionary_limit = 200;
    o.column.page_size = 2048;
    o.row_group_bytes = 16 << 10;
    out.push(("gzip-dictionary-fallback", o, &[]));

    // The modern profile, dictionaries falling back. Spark has no brotli codec without
    // native libraries.
    let mut o = WriteOptions::default();
    o.column.codec = Codec::Brotli;
    o.column.page_version = PageVersion::V2;
    o.column.choose_encoding = true;
    o.column.dictionary_limit = 100;
    // polars (2.1) panics on the required field of a nullable struct when pages falling back
    // from the dictionary are DELTA_BINARY_PACKED (pyarrow, DuckDB and arrow-rs read it; polars
    // reads each encoding alone).
    out.push(("brotli-modern", o, &["spark", "polars:st"]));

    let mut o = WriteOptions::default();
    o.column.codec = Codec::Lz4Raw;
    o.column.dictionary = false;
    o.column.page_rows = 300;
    o.column_overrides = forced(&[INT_COLUMNS], Encoding::DELTA_BINARY_PACKED);
    o.column_overrides
        .extend(forced(&[BYTE_COLUMNS], Encoding::DELTA_LENGTH_BYTE_ARRAY));
    o.column_overrides
        .extend(forced(&[FIXED_COLUMNS], Encoding::DELTA_BYTE_ARRAY));
    o.column_overrides
        .extend(forced(&[FLOAT_COLUMNS], Encoding::BYTE_STREAM_SPLIT));
    // polars decodes no DELTA_BYTE_ARRAY FIXED_LEN_BYTE_ARRAY pages.
    out.push(("lz4raw-delta", o, &["polars:dec38", "polars:fsb"]));

    let mut o = WriteOptions::default();
    o.column.codec = Codec::Lz4;
    o.column.page_version = PageVersion::V2;
    o.column.dictionary = false;
    o.column_overrides = forced(
        &[INT_COLUMNS, FLOAT_COLUMNS, FIXED_COLUMNS],
        Encoding::BYTE_STREAM_SPLIT,
    );
    o.column_overrides
        .extend(forced(&[BYTE_COLUMNS], Encoding::DELTA_BYTE_ARRAY));
    // DuckDB and polars decode BYTE_STREAM_SPLIT for FLOAT, DOUBLE, INT32 and INT64 only.
    // Spark's vectorized reader has no unsigned 32/64-bit BYTE_STREAM_SPLIT.
    let fixed = &[
        "duckdb:fsb",
        "duckdb:dec38",
        "polars:fsb",
        "polars:dec38",
        "spark:u32",
        "spark:u64",
    ];
    out.push(("lz4-v2-byte-stream-split", o, fixed));

    let mut o = WriteOptions::default();
    o.column.codec = Codec::Uncompressed;
    o.column.statistics = StatisticsLevel::None;
    o.column.crc = false;
    o.row_group_rows = 97;
    out.push(("uncompressed-no-stats-small-groups", o, &[]));
    out
}

/// Reads the IPC stream `path` with quiver-ipc.
fn read_ipc(path: &Path) -> Vec<RecordBatch> {
    let file = std::fs::File::open(path).unwrap();
    quiver_ipc::read::StreamReader::try_new(std::io::BufReader::new(file))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}

/// The arrow-rs checker binary, when built.
fn arrow_rs_checker() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("QUIVER_PARQUET_CHECK") {
        return Some(PathBuf::from(p));
    }
    let bench = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/target");
    let found = ["release", "debug"]
        .iter()
        .map(|p| bench.join(p).join("parquet_check"))
        .find(|p| p.is_file());
    if found.is_none() {
        eprintln!(
            "skipping arrow-rs: build it with `cargo build --release --manifest-path \
             bench/Cargo.toml --bin parquet_check` (or set QUIVER_PARQUET_CHECK)"
        );
    }
    found
}

#[test]
fn matrix_reads_equal_to_the_source_everywhere() {
    if !writer_available("pyarrow", "import pyarrow") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("source.arrow");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/matrix_source.py");
    let ok = std::process::Command::new("python3")
        .arg(script)
        .arg(&source)
        .status()
        .unwrap();
    assert!(ok.success());
    let batches = read_ipc(&source);
    assert_eq!(batches.len(), 3);
    let pieces = pieces(&batches);
    let mut readers = vec!["pyarrow"];
    for (name, check) in [
        ("duckdb", "import duckdb"),
        ("polars", "import polars"),
        (
            "spark",
            "import pyspark, shutil; assert shutil.which('java')",
        ),
    ] {
        if writer_available(name, check) {
            readers.push(name);
        }
    }
    let checker = arrow_rs_checker();
    let mut input = String::new();
    for (name, opts, not_read_by) in settings() {
        let out = dir.path().join(format!("{name}.parquet"));
        let mut w = FileWriter::create(&out, batches[0].schema().clone(), opts).unwrap();
        for b in &pieces {
            w.write(b).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        let summary = w.finish().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(summary.rows, 3000, "{name}");
        let mut arrow_rs = None;
        if let Some(bin) = &checker {
            let ipc = dir.path().join(format!("{name}.arrow-rs.arrow"));
            let st = std::process::Command::new(bin)
                .arg(&out)
                .arg(&ipc)
                .status()
                .unwrap();
            assert!(st.success(), "{name}: arrow-rs cannot read the file");
            arrow_rs = Some(ipc);
        }
        let readers: Vec<&str> = readers
            .iter()
            .copied()
            .filter(|r| !not_read_by.contains(r))
            .collect();
        let case = json!({"name": name, "source": source, "written": out, "readers": readers,
                          "skip": not_read_by, "arrow_rs": arrow_rs});
        input.push_str(&format!("{case}\n"));
    }
    let mut problems = Vec::new();
    let lines = python_lines("write_matrix_check.py", &input);
    assert_eq!(lines.len(), settings().len());
    for line in lines {
        for e in line["errors"].as_array().unwrap() {
            problems.push(format!("{}: {}", line["name"], e.as_str().unwrap()));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
