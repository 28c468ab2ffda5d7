//! Differential tests: files written by other Parquet writers (DuckDB, polars, fastparquet,
//! Spark) read by quiver equal to pyarrow's reading of them, through the one comparison in
//! [`crate::read_values`]. Each writer's script (`tests/write_<writer>.py`) covers the types,
//! codecs, page versions, encodings, nesting and null patterns the writer offers. Also pyarrow
//! files past 16-bit row group and page counts (`tests/write_many.py`).

use crate::common::{python_writes, writer_available};
use crate::read_values::assert_read_as_pyarrow;

/// Writes the files with `script` and asserts they read as pyarrow reads them (`rejected`:
/// files both refuse); `at_least` guards against a script that silently wrote few files.
fn check_writer(script: &str, rejected: &[&str], at_least: usize) -> tempfile::TempDir {
    let (dir, files) = python_writes(script);
    assert!(
        files.len() >= at_least,
        "{script} wrote {} files",
        files.len()
    );
    let same = assert_read_as_pyarrow(&files, rejected);
    eprintln!("{script}: {same} files read as pyarrow reads them");
    dir
}

/// DuckDB: every codec × Parquet v1/v2, dictionaries off, tiny pages, many row groups, empty.
#[test]
fn duckdb_written_files_read_as_pyarrow_reads_them() {
    if writer_available("duckdb", "import duckdb") {
        check_writer("write_duckdb.py", &["null-fixed-array.parquet"], 20);
    }
}

/// polars' own writer: every codec, statistics on and off, tiny pages, many row groups, empty.
#[test]
fn polars_written_files_read_as_pyarrow_reads_them() {
    if writer_available("polars", "import polars") {
        check_writer("write_polars.py", &[], 15);
    }
}

/// fastparquet: every codec (LZO too, in python-lzo's framing) × data page v1/v2, statistics
/// on and off, INT96 times, fixed-width text, row groups of uneven sizes, tiny pages, empty.
#[test]
fn fastparquet_written_files_read_as_pyarrow_reads_them() {
    if writer_available("fastparquet", "import fastparquet") {
        check_writer("write_fastparquet.py", &["fixed-text.parquet"], 20);
    }
}

/// Spark (parquet-mr): every codec it writes without native libraries × writer v1/v2, INT96 and
/// INT64 timestamps, legacy and standard layouts, dictionaries off, tiny pages and row groups.
#[test]
fn spark_written_files_read_as_pyarrow_reads_them() {
    let check = "import pyspark, shutil; assert shutil.which('java')";
    if writer_available("pyspark and a Java runtime", check) {
        let dir = check_writer("write_spark.py", &[], 20);
        int96_past_nanoseconds_reads_as_spark_wrote_it(&dir.path().join("int96"));
    }
}

/// Spark's INT96 of instants past the nanosecond range (years 1, 9999 and 290000; the last
/// wrapped by Spark's 64-bit Julian-day arithmetic) read in microseconds equal the same instants
/// Spark wrote as INT64 microseconds; in milliseconds, the same cut to milliseconds; in
/// nanoseconds (the default), an error naming the column and the value, not another date.
fn int96_past_nanoseconds_reads_as_spark_wrote_it(dir: &std::path::Path) {
    use quiver_arrow::datatype::TimeUnit;
    use quiver_parquet::arrow::options::ReadOptions;
    use quiver_parquet::file::FileReader;
    let read = |name: &str, unit| -> quiver_arrow::Result<Vec<Option<i64>>> {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let options = ReadOptions {
            int96_unit: unit,
            ..ReadOptions::default()
        };
        let batches = FileReader::try_new(&bytes, options)?.read_all()?;
        let mut out = Vec::new();
        for b in &batches {
            let a = b.column(1).as_primitive::<i64>();
            let a = a.expect("timestamps as 64-bit integers");
            out.extend((0..a.len()).map(|i| a.is_valid(i).then(|| a.value(i))));
        }
        Ok(out)
    };
    let micros = read("far-TIMESTAMP_MICROS.parquet", TimeUnit::Microsecond).unwrap();
    assert_eq!(micros.len(), 8);
    assert_eq!(micros[5], Some(9_089_380_393_200_000_000));
    assert_eq!(
        read("far-INT96.parquet", TimeUnit::Microsecond).unwrap(),
        micros
    );
    let millis: Vec<_> = micros
        .iter()
        .map(|m| m.map(|m| m.div_euclid(1000)))
        .collect();
    assert_eq!(
        read("far-INT96.parquet", TimeUnit::Millisecond).unwrap(),
        millis
    );
    let e = read("far-INT96.parquet", TimeUnit::Nanosecond).unwrap_err();
    let e = e.to_string();
    assert!(
        e.contains("column \"a\"") && e.contains("2932896 days") && e.contains("timestamp[ns]"),
        "{e}"
    );
}

/// More than 32,767 row groups, and a column chunk of more than 32,767 pages (pyarrow), read
/// as pyarrow reads them; the counts are checked in quiver's metadata and page headers.
#[test]
fn more_than_32767_row_groups_or_pages_read_as_pyarrow_reads_them() {
    use quiver_parquet::format::{PageHeader, PageType};
    let (_dir, files) = python_writes("write_many.py");
    let names: Vec<_> = files.iter().map(|f| f.file_name().unwrap()).collect();
    assert_eq!(names, ["pages.parquet", "row-groups.parquet"]);
    let groups = std::fs::read(&files[1]).unwrap();
    let meta = quiver_parquet::metadata::parse_file(&groups).unwrap();
    assert_eq!(meta.num_row_groups(), 33_000);
    let bytes = std::fs::read(&files[0]).unwrap();
    let meta = quiver_parquet::metadata::parse_file(&bytes).unwrap();
    let chunk = meta.column_chunk(0, 0).unwrap();
    let m = chunk.meta_data.as_ref().unwrap();
    let (mut pos, end) = (
        m.data_page_offset as usize,
        (m.data_page_offset + m.total_compressed_size) as usize,
    );
    let mut data_pages = 0;
    while pos < end {
        let (h, len): (PageHeader, usize) = PageHeader::decode(&bytes[pos..end]).unwrap();
        data_pages += usize::from(h.type_ != PageType::DICTIONARY_PAGE);
        pos += len + h.compressed_page_size as usize;
    }
    assert!(data_pages > 32_767, "{data_pages} pages");
    assert_read_as_pyarrow(&files, &[]);
}
