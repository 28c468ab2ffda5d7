//! Files quiver writes read back, in pyarrow, DuckDB and polars, as the files they were made
//! from: every official file and pyarrow-written file quiver reads is rewritten under several
//! writer settings, and `tests/write_check.py` has each reader read the original and the
//! rewritten file and compare (pyarrow also compares the restored Arrow schema).

use crate::common::{parquet_files, python_lines, python_writes, writer_available};
use quiver_arrow::parallel::ThreadPool;
use quiver_parquet::arrow::column_writer::PageVersion;
use quiver_parquet::arrow::options::ReadOptions;
use quiver_parquet::codec::Codec;
use quiver_parquet::file::FileReader;
use quiver_parquet::file::writer::{FileWriter, WriteOptions};
use serde_json::json;
use std::path::{Path, PathBuf};

/// Reads `path` with quiver and writes it to `out`; `false` when quiver cannot read it.
fn rewrite(path: &Path, out: &Path, opts: &WriteOptions) -> bool {
    let bytes = std::fs::read(path).unwrap();
    let options = ReadOptions {
        verify_crc: false,
        ..ReadOptions::default()
    };
    let Ok(reader) = FileReader::try_new(&bytes, options) else {
        return false;
    };
    let Ok(batches) = reader.read_all() else {
        return false;
    };
    let file = std::fs::File::create(out).unwrap();
    let mut w = FileWriter::new(file, reader.schema().clone(), opts.clone())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    for b in &batches {
        w.write(b)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    w.close()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    true
}

/// Writer settings the rewrite tests run: the default (v1 pages, dictionary, snappy), v2 pages
/// with zstd and the modern encodings, and tiny pages and row groups without dictionaries.
fn settings() -> Vec<(&'static str, WriteOptions)> {
    let default = WriteOptions::default();
    let mut modern = WriteOptions::default();
    modern.column.page_version = PageVersion::V2;
    modern.column.codec = Codec::Zstd;
    modern.column.choose_encoding = true;
    let mut tiny = WriteOptions::default();
    tiny.column.dictionary = false;
    tiny.column.page_rows = 3;
    tiny.column.codec = Codec::Uncompressed;
    tiny.row_group_rows = 7;
    tiny.threads = ThreadPool::sequential();
    vec![("default", default), ("modern", modern), ("tiny", tiny)]
}

/// Rewrites `files` under every setting and checks them with `readers`; returns how many
/// files were rewritten.
fn check_rewrites(files: &[PathBuf], readers: &[&str]) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let mut input = String::new();
    let mut n = 0;
    for (i, f) in files.iter().enumerate() {
        // DuckDB and polars read INT96 timestamps to the microsecond, so a file of them is no
        // oracle for the nanoseconds quiver writes as INT64: pyarrow alone checks it.
        let readers = if f.to_string_lossy().contains("int96") {
            &readers[..1]
        } else {
            readers
        };
        for (name, opts) in settings() {
            let out = dir.path().join(format!("{i}-{name}.parquet"));
            if !rewrite(f, &out, &opts) {
                continue;
            }
            n += 1;
            let case = json!({"original": f, "written": out, "readers": readers});
            input.push_str(&format!("{case}\n"));
        }
    }
    let mut problems = Vec::new();
    for line in python_lines("write_check.py", &input) {
        for e in line["errors"].as_array().unwrap() {
            problems.push(format!("{}: {}", line["written"], e.as_str().unwrap()));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
    n
}

#[test]
fn pyarrow_written_types_rewritten_read_the_same_everywhere() {
    if !writer_available("pyarrow", "import pyarrow") {
        return;
    }
    let (_dir, files) = python_writes("write_types.py");
    let mut readers = vec!["pyarrow"];
    if writer_available("duckdb", "import duckdb") {
        readers.push("duckdb");
    }
    if writer_available("polars", "import polars") {
        readers.push("polars");
    }
    let n = check_rewrites(&files, &readers);
    assert!(n >= 3 * files.len(), "{n} of {} rewritten", files.len());
}

#[test]
fn pyarrow_written_matrix_rewritten_reads_the_same() {
    if !writer_available("pyarrow", "import pyarrow") {
        return;
    }
    let (_dir, files) = python_writes("write_matrix.py");
    let n = check_rewrites(&files, &["pyarrow", "duckdb"]);
    assert!(n >= 3 * files.len(), "{n} of {} rewritten", files.len());
}

#[test]
fn official_files_rewritten_read_the_same_in_pyarrow() {
    let Some(files) = parquet_files() else { return };
    if !writer_available("pyarrow", "import pyarrow") {
        return;
    }
    let files: Vec<PathBuf> = files
        .into_iter()
        .filter(|f| {
            !f.to_string_lossy().contains("bad_data") && !f.to_string_lossy().contains("fuzzing")
        })
        .collect();
    let n = check_rewrites(&files, &["pyarrow"]);
    assert!(n > 100, "only {n} rewritten");
}

#[test]
fn the_thread_count_does_not_change_the_file() {
    if !writer_available("pyarrow", "import pyarrow") {
        return;
    }
    let (_dir, files) = python_writes("write_matrix.py");
    let out = tempfile::tempdir().unwrap();
    let mut compared = 0;
    for (i, f) in files.iter().enumerate() {
        let mut written = Vec::new();
        for threads in [1, 3] {
            let opts = WriteOptions {
                threads: ThreadPool::new(threads).unwrap(),
                row_group_rows: 5,
                ..WriteOptions::default()
            };
            let path = out.path().join(format!("{i}-{threads}.parquet"));
            if rewrite(f, &path, &opts) {
                written.push(std::fs::read(&path).unwrap());
            }
        }
        if let [a, b] = &written[..] {
            assert!(
                a == b,
                "{}: the file depends on the thread count",
                f.display()
            );
            compared += 1;
        }
    }
    assert!(compared > 10, "only {compared} files compared");
}

#[test]
fn empty_inputs_make_files_pyarrow_reads() {
    use quiver_arrow::array::{Array, PrimitiveArray};
    use quiver_arrow::datatype::{DataType, Field, Schema};
    use std::sync::Arc;
    if !writer_available("pyarrow", "import pyarrow") {
        return;
    }
    let schema = Arc::new(Schema::new(vec![
        Field::new("x", DataType::Int64, true),
        Field::new("n", DataType::Null, true),
    ]));
    let dir = tempfile::tempdir().unwrap();
    // No batch at all, and one batch of no rows.
    for (name, rows) in [("none", None), ("zero", Some(0usize))] {
        let path = dir.path().join(format!("{name}.parquet"));
        let mut w = FileWriter::create(&path, schema.clone(), WriteOptions::default()).unwrap();
        if let Some(n) = rows {
            let x = Array::I64(PrimitiveArray::from_options(vec![None; n]));
            let nulls = Array::Null(quiver_arrow::array::NullArray::new(n));
            let b = quiver_arrow::RecordBatch::try_new(schema.clone(), vec![x, nulls]).unwrap();
            w.write(&b).unwrap();
        }
        let summary = w.finish().unwrap();
        assert_eq!((summary.rows, summary.row_groups), (0, 0));
        let out = std::process::Command::new("python3")
            .args([
                "-c",
                "import sys, pyarrow.parquet as pq; t = pq.read_table(sys.argv[1]); print(t.num_rows, t.schema.types)",
            ])
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            "0 [DataType(int64), DataType(null)]"
        );
    }
}

/// A chunk whose dictionary outgrows its limit goes on in full-size PLAIN pages (a bug once
/// closed a page after every slice of 1,024 values once the chunk had fallen back).
#[test]
fn pages_after_a_dictionary_fallback_are_full_size() {
    use quiver_arrow::array::{Array, PrimitiveArray};
    use quiver_arrow::datatype::{DataType, Field, Schema};
    use quiver_parquet::format::{Encoding, PageType};
    use std::sync::Arc;
    let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int64, false)]));
    let rows = 200_000i64;
    let x = Array::I64(PrimitiveArray::new(
        (0..rows).map(|i| i * 7919 % 1_000_003).collect::<Vec<_>>(),
    ));
    let batch = quiver_arrow::RecordBatch::try_new(schema.clone(), vec![x]).unwrap();
    let mut opts = WriteOptions::default();
    opts.column.dictionary_limit = 64 << 10;
    let mut w = FileWriter::new(Vec::new(), schema, opts).unwrap();
    w.write(&batch).unwrap();
    let (bytes, _) = w.close().unwrap();
    let reader = FileReader::try_new(&bytes, ReadOptions::default()).unwrap();
    let chunk = reader.metadata().column_chunk(0, 0).unwrap();
    let meta = chunk.meta_data.as_ref().unwrap();
    let stats: Vec<_> = meta.encoding_stats.as_ref().unwrap().iter().collect();
    let count = |t: PageType, e: Encoding| {
        stats
            .iter()
            .filter(|s| s.page_type == t && s.encoding == e)
            .map(|s| s.count)
            .sum::<i32>()
    };
    let dict_pages = count(PageType::DATA_PAGE, Encoding::RLE_DICTIONARY);
    let plain_pages = count(PageType::DATA_PAGE, Encoding::PLAIN);
    assert_eq!(
        count(PageType::DICTIONARY_PAGE, Encoding::PLAIN),
        1,
        "{stats:?}"
    );
    assert!(dict_pages >= 1 && plain_pages >= 1, "{stats:?}");
    // 20,000 rows per page at most: 10 pages, plus one cut at the fallback.
    assert!(dict_pages + plain_pages <= 11, "{stats:?}");
    assert_eq!(reader.read_all().unwrap()[0].column(0).len(), rows as usize);
}

/// `DecimalLayout::Auto` (the default) stores decimals of precision ≤ 18 as integers where a
/// codec or a delta encoding follows, and as fixed-size byte arrays of the fewest bytes where
/// the values are stored as they are, column by column; quiver reads each back equal.
#[test]
fn decimal_layout_follows_each_columns_codec_and_encoding() {
    use quiver_arrow::array::{Array, PrimitiveArray};
    use quiver_arrow::datatype::{DataType, Field, Schema};
    use quiver_arrow::{I128, RecordBatch};
    use quiver_parquet::arrow::write_schema::DecimalLayout;
    use quiver_parquet::file::writer::ColumnOverride;
    use quiver_parquet::format::{Encoding, Type};
    use std::sync::Arc;

    let dec = |precision| DataType::Decimal128 {
        precision,
        scale: 2,
    };
    let schema = Arc::new(Schema::new(vec![
        Field::new("d15", dec(15), true),
        Field::new("d7", dec(7), false),
        Field::new("raw", dec(15), true),
    ]));
    let column = |p: i128| {
        let values =
            (0..1000).map(|i| (i % 5 != 1).then(|| I128::from_i128((i * 7919 - 3_000_000) * p)));
        Array::I128(
            PrimitiveArray::from_options(values)
                .with_data_type(dec(15))
                .unwrap(),
        )
    };
    let d7 = {
        let values = (0..1000).map(|i| Some(I128::from_i128(i * 9973 - 4_000_000)));
        Array::I128(
            PrimitiveArray::from_options(values)
                .with_data_type(dec(7))
                .unwrap(),
        )
    };
    let batch =
        RecordBatch::try_new(schema.clone(), vec![column(1_000_000), d7, column(999)]).unwrap();
    let uncompressed = |o: &mut WriteOptions| o.column.codec = Codec::Uncompressed;
    let raw_column = |o: &mut WriteOptions| {
        let mut c = o.column.clone();
        c.codec = Codec::Uncompressed;
        o.column_overrides
            .push(("raw".into(), ColumnOverride::Options(c)));
    };
    /// A setting: its name, how it changes the defaults, the columns' physical types.
    type Case = (&'static str, fn(&mut WriteOptions), [Type; 3]);
    let cases: Vec<Case> = vec![
        (
            "default (snappy)",
            |_: &mut WriteOptions| {},
            [Type::INT64, Type::INT32, Type::INT64],
        ),
        (
            "one column uncompressed",
            raw_column,
            [Type::INT64, Type::INT32, Type::FIXED_LEN_BYTE_ARRAY],
        ),
        (
            "uncompressed",
            uncompressed,
            [Type::FIXED_LEN_BYTE_ARRAY; 3],
        ),
        (
            "uncompressed, modern encodings",
            |o: &mut WriteOptions| {
                o.column.codec = Codec::Uncompressed;
                o.column.choose_encoding = true;
            },
            [Type::INT64, Type::INT32, Type::INT64],
        ),
        (
            "uncompressed, DELTA_BINARY_PACKED",
            |o: &mut WriteOptions| {
                o.column.codec = Codec::Uncompressed;
                o.column.dictionary = false;
                o.column.encoding = Some(Encoding::DELTA_BINARY_PACKED);
            },
            [Type::INT64, Type::INT32, Type::INT64],
        ),
        (
            "uncompressed, integers asked for",
            |o: &mut WriteOptions| {
                o.column.codec = Codec::Uncompressed;
                o.schema.decimals = DecimalLayout::Integer;
            },
            [Type::INT64, Type::INT32, Type::INT64],
        ),
        (
            "snappy, fixed size asked for",
            |o: &mut WriteOptions| o.schema.decimals = DecimalLayout::FixedLenByteArray,
            [Type::FIXED_LEN_BYTE_ARRAY; 3],
        ),
    ];
    for (name, setup, want) in cases {
        let mut o = WriteOptions::default();
        setup(&mut o);
        let mut w = FileWriter::new(Vec::new(), schema.clone(), o).unwrap();
        w.write(&batch).unwrap();
        let (bytes, _) = w.close().unwrap();
        let md = quiver_parquet::metadata::parse_file(&bytes).unwrap();
        let types: Vec<Option<Type>> = md.schema()[1..].iter().map(|e| e.type_).collect();
        assert_eq!(types, want.map(Some), "{name}");
        // Fixed-size decimals take the fewest bytes: 7 at precision 15, 4 at precision 7.
        for (e, p) in md.schema()[1..].iter().zip([15, 7, 15]) {
            if e.type_ == Some(Type::FIXED_LEN_BYTE_ARRAY) {
                assert_eq!(e.type_length, Some(if p == 15 { 7 } else { 4 }), "{name}");
            }
        }
        let reader = FileReader::try_new(&bytes, ReadOptions::default()).unwrap();
        let back = reader.read_all().unwrap();
        assert_eq!(back.len(), 1, "{name}");
        assert_eq!(back[0].columns(), batch.columns(), "{name}");
    }
}

/// A column chunk's bytes do not depend on the room its dictionary was given from the previous
/// row group (`EncodedChunk::dictionary_room`): each row group of a three-group file equals the
/// same rows written alone, for dictionaries that stay (a low-cardinality number and string)
/// and that fall back (unique numbers and strings past a 4 KiB dictionary limit).
#[test]
fn a_dictionary_reserved_from_the_last_row_group_writes_the_same_chunks() {
    use quiver_arrow::RecordBatch;
    use quiver_arrow::array::{Array, PrimitiveArray, StringArray};
    use quiver_arrow::datatype::{DataType, Field, Schema};
    use std::sync::Arc;

    let schema = Arc::new(Schema::new(vec![
        Field::new("few", DataType::Int64, false),
        Field::new("unique", DataType::Int64, false),
        Field::new("few_s", DataType::Utf8, true),
        Field::new("unique_s", DataType::Utf8, true),
    ]));
    let rows = 3000i64;
    let few: Vec<Option<String>> = (0..rows)
        .map(|i| (i % 11 != 3).then(|| format!("s{}", i % 5)))
        .collect();
    let unique: Vec<Option<String>> = (0..rows)
        .map(|i| (i % 13 != 3).then(|| format!("value {i}")))
        .collect();
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            Array::I64(PrimitiveArray::from_options((0..rows).map(|i| Some(i % 7)))),
            Array::I64(PrimitiveArray::from_options(
                (0..rows).map(|i| Some(i * 7919)),
            )),
            Array::Utf8(StringArray::from_options(few.iter().map(Option::as_deref))),
            Array::Utf8(StringArray::from_options(
                unique.iter().map(Option::as_deref),
            )),
        ],
    )
    .unwrap();
    let mut opts = WriteOptions {
        row_group_rows: 1000,
        ..WriteOptions::default()
    };
    opts.column.dictionary_limit = 4096;
    let write = |b: &RecordBatch| {
        let mut w = FileWriter::new(Vec::new(), schema.clone(), opts.clone()).unwrap();
        w.write(b).unwrap();
        w.close().unwrap().0
    };
    let whole = write(&batch);
    let md = quiver_parquet::metadata::parse_file(&whole).unwrap();
    assert_eq!(md.num_row_groups(), 3);
    let chunk_bytes = |file: &[u8], md: &quiver_parquet::metadata::ParquetMetaData<'_>, g, c| {
        let chunk = md.column_chunk(g, c).unwrap();
        let m = chunk.meta_data.as_ref().unwrap();
        let start = m.dictionary_page_offset.unwrap_or(m.data_page_offset) as usize;
        file[start..start + m.total_compressed_size as usize].to_vec()
    };
    for g in 0..3 {
        let alone = write(&batch.slice(g * 1000, 1000));
        let md_alone = quiver_parquet::metadata::parse_file(&alone).unwrap();
        for c in 0..4 {
            assert_eq!(
                chunk_bytes(&whole, &md, g, c),
                chunk_bytes(&alone, &md_alone, 0, c),
                "row group {g}, column {c}"
            );
        }
    }
}

/// Batches of a `dictionary<int8>` column, top-level and in a list, each with 100 values of
/// its own, are written into one chunk with one dictionary of 300 values: the stored
/// `ARROW:schema` gives those dictionaries int32 keys (int8 cannot index them; pyarrow and
/// quiver failed on such files), and the file reads back with every batch's values. A column
/// whose batches share their dictionary keeps int8 keys.
#[test]
fn dictionaries_outgrowing_their_keys_get_wider_keys_in_arrow_schema() {
    use quiver_arrow::array::{Array, DictionaryArray, ListArray, PrimitiveArray, StringArray};
    use quiver_arrow::buffer::OffsetBuffer;
    use quiver_arrow::compute::concat;
    use quiver_arrow::datatype::{DataType, Field, IntegerType, Schema};
    use std::sync::Arc;
    let int8 = DataType::dictionary(IntegerType::Int8, DataType::Utf8);
    let item = Arc::new(Field::new("item", int8.clone(), true));
    let schema = Arc::new(Schema::new(vec![
        Field::new("d", int8.clone(), true),
        Field::new("l", DataType::List(item.clone()), true),
        Field::new("same", int8.clone(), true),
    ]));
    let strings = |prefix: String| {
        let names: Vec<String> = (0..100).map(|j| format!("{prefix}{j}")).collect();
        Array::from(StringArray::from_options(
            names.iter().map(|n| Some(n.as_str())),
        ))
    };
    let shared = Arc::new(strings("s".into()));
    let batch = |k: usize| {
        let values = strings(format!("b{k}-"));
        let keys = || {
            Array::from(PrimitiveArray::<i8>::new(
                (0..100).map(|j| j as i8).collect::<Vec<_>>(),
            ))
        };
        let d = Array::from(DictionaryArray::try_new(keys(), values, false).unwrap());
        // 100 lists of 0 or 2 values (the 100 values once each).
        let offsets: Vec<i32> = (0..=100).map(|i: i32| (i / 2) * 2).collect();
        let offsets = OffsetBuffer::try_new(offsets.into());
        let l = ListArray::try_new(item.clone(), offsets.unwrap(), d.clone(), None).unwrap();
        let same = Array::from(DictionaryArray::try_new(keys(), shared.clone(), false).unwrap());
        quiver_arrow::RecordBatch::try_new(schema.clone(), vec![d.clone(), Array::from(l), same])
            .unwrap()
    };
    let batches: Vec<quiver_arrow::RecordBatch> = (0..3).map(batch).collect();
    // Dictionary pages holding the 300 values; no dictionary pages at all (the values are
    // PLAIN); a dictionary falling back to PLAIN after the first batch's 100 values (long
    // enough to pass a small limit), so that no dictionary page holds more than int8 indexes.
    let mut plain = WriteOptions::default();
    plain.column.dictionary = false;
    let mut falling_back = WriteOptions::default();
    falling_back.column.dictionary_limit = 200;
    for (case, options) in [("dictionary", WriteOptions::default()), ("plain", plain)]
        .into_iter()
        .chain([("fallen back", falling_back)])
    {
        let mut w = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
        for b in &batches {
            w.write(b).unwrap();
        }
        let (bytes, summary) = w.close().unwrap();
        assert_eq!(summary.row_groups, 1);
        let reader = FileReader::try_new(&bytes, ReadOptions::default()).unwrap();
        let read = reader.read_all().unwrap();
        let got = read[0].schema();
        let int32 = DataType::dictionary(IntegerType::Int32, DataType::Utf8);
        assert_eq!(got.fields[0].data_type(), &int32, "{case}");
        let DataType::List(f) = got.fields[1].data_type() else {
            panic!("{:?}", got.fields[1])
        };
        assert_eq!(f.data_type(), &int32, "{case}");
        assert_eq!(
            got.fields[2].data_type(),
            &int8,
            "{case}: one shared dictionary of 100 fits int8"
        );
        for c in 0..3 {
            let have: Vec<&Array> = read.iter().map(|b| b.column(c)).collect();
            let have = concat(&have).unwrap();
            assert_eq!(have.len(), 300);
            for (k, b) in batches.iter().enumerate() {
                let (got, want) = (&have.slice(k * 100, 100), b.column(c));
                let slots = |a: &Array| (0..a.len()).map(|i| render(a, i)).collect::<Vec<_>>();
                assert_eq!(slots(got), slots(want), "{case}: column {c} batch {k}");
            }
        }
    }
    /// Slot `i` of a string, dictionary-of-string or list array, as text (keys resolved).
    fn render(a: &Array, i: usize) -> String {
        if a.is_null(i) {
            return "null".into();
        }
        match a {
            Array::Utf8(s) => format!("{:?}", s.value(i)),
            Array::Dictionary(d) => render(d.values(), d.key(i).unwrap()),
            Array::List(l) => {
                let v = l.value(i);
                let items: Vec<String> = (0..v.len()).map(|j| render(&v, j)).collect();
                format!("[{}]", items.join(","))
            }
            other => panic!("{:?}", other.data_type()),
        }
    }
}

/// A byte limit closes row groups inside a batch too: one batch of 20,000 rows under a 16 KiB
/// limit (and no row limit) becomes many row groups of about that size, every row read back
/// in order.
#[test]
fn row_groups_close_by_bytes_within_one_batch() {
    use quiver_arrow::array::{Array, PrimitiveArray, StringArray};
    use quiver_arrow::datatype::{DataType, Field, Schema};
    use std::sync::Arc;
    let rows = 20_000i64;
    let schema = Arc::new(Schema::new(vec![
        Field::new("i", DataType::Int64, false),
        Field::new("s", DataType::Utf8, true),
    ]));
    let names: Vec<Option<String>> = (0..rows)
        .map(|i| (i % 11 != 0).then(|| format!("name{}", i * 2_654_435_761 % 1_000_003)))
        .collect();
    let batch = quiver_arrow::RecordBatch::try_new(
        schema.clone(),
        vec![
            Array::I64(PrimitiveArray::from_options((0..rows).map(Some))),
            Array::Utf8(StringArray::from_options(
                names.iter().map(Option::as_deref),
            )),
        ],
    )
    .unwrap();
    let limit = 16 << 10;
    let opts = WriteOptions {
        row_group_rows: usize::MAX,
        row_group_bytes: limit,
        ..WriteOptions::default()
    };
    let mut w = FileWriter::new(Vec::new(), schema.clone(), opts).unwrap();
    w.write(&batch).unwrap();
    let (file, _) = w.close().unwrap();
    let md = quiver_parquet::metadata::parse_file(&file).unwrap();
    let groups = md.num_row_groups();
    assert!(groups >= 10, "{groups} row groups");
    for g in 0..groups {
        let bytes: i64 = (0..2)
            .map(|c| {
                let chunk = md.column_chunk(g, c).unwrap();
                chunk.meta_data.as_ref().unwrap().total_compressed_size
            })
            .sum();
        // Closed once past the limit, by slices of at most an eighth of a group past it.
        assert!(
            bytes as usize <= limit + limit / 4,
            "row group {g}: {bytes} bytes"
        );
    }
    let reader = FileReader::try_new(&file, ReadOptions::default()).unwrap();
    let read = reader.read_all().unwrap();
    let all: Vec<&quiver_arrow::array::Array> = read.iter().map(|b| b.column(0)).collect();
    let ids = quiver_arrow::compute::concat(&all).unwrap();
    let ids = ids.as_primitive::<i64>().unwrap();
    assert_eq!(ids.values().as_slice(), (0..rows).collect::<Vec<_>>());
    let all: Vec<&quiver_arrow::array::Array> = read.iter().map(|b| b.column(1)).collect();
    let s = quiver_arrow::compute::concat(&all).unwrap();
    let s = s.as_utf8().unwrap();
    for (i, want) in names.iter().enumerate() {
        assert_eq!(
            (!s.is_null(i)).then(|| s.value(i)),
            want.as_deref(),
            "row {i}"
        );
    }
}

/// PLAIN pages of dictionary<int8> batches count towards the distinct values a row group
/// holds by the keys the batches have, not by their dictionaries' whole length: two batches
/// of 50 rows over dictionaries of 200 values each keep int8. Batches written one at a time,
/// each dropped before the next is made (a new dictionary may then sit where a freed one was),
/// still count each dictionary: three of 100 values widen.
#[test]
fn plain_pages_count_the_dictionary_values_their_keys_can_reach() {
    use quiver_arrow::array::{Array, DictionaryArray, PrimitiveArray, StringArray};
    use quiver_arrow::datatype::{DataType, Field, IntegerType, Schema};
    use std::sync::Arc;
    let int8 = DataType::dictionary(IntegerType::Int8, DataType::Utf8);
    let schema = Arc::new(Schema::new(vec![Field::new("d", int8.clone(), true)]));
    let batch = |k: usize, values: usize, rows: usize| {
        let names: Vec<String> = (0..values).map(|j| format!("b{k}-{j}")).collect();
        let values = StringArray::from_options(names.iter().map(|n| Some(n.as_str())));
        let keys = PrimitiveArray::<i8>::new((0..rows).map(|j| j as i8).collect::<Vec<_>>());
        let d = DictionaryArray::try_new(keys.into(), Array::from(values), false).unwrap();
        quiver_arrow::RecordBatch::try_new(schema.clone(), vec![d.into()]).unwrap()
    };
    let int32 = DataType::dictionary(IntegerType::Int32, DataType::Utf8);
    for (values, rows, batches, want) in [(200, 50, 2, &int8), (100, 100, 3, &int32)] {
        let mut options = WriteOptions::default();
        options.column.dictionary = false;
        let mut w = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
        let mut expected = Vec::new();
        for k in 0..batches {
            let b = batch(k, values, rows);
            let d = b.column(0).as_dictionary().unwrap();
            let v = d.values().as_utf8().unwrap();
            expected.extend((0..rows).map(|i| v.value(d.key(i).unwrap()).to_string()));
            w.write(&b).unwrap();
        }
        let (bytes, _) = w.close().unwrap();
        let reader = FileReader::try_new(&bytes, ReadOptions::default()).unwrap();
        let read = reader.read_all().unwrap();
        assert_eq!(
            read[0].schema().fields[0].data_type(),
            want,
            "{values} values"
        );
        let got: Vec<String> = read
            .iter()
            .flat_map(|b| {
                let d = b.column(0).as_dictionary().unwrap().clone();
                let v = d.values().as_utf8().unwrap().clone();
                (0..d.len())
                    .map(move |i| v.value(d.key(i).unwrap()).to_string())
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(got, expected, "{values} values");
    }
}

/// Null patterns whose definition levels reach the RLE encoder's word steps with every count
/// of groups already in a bit-packed run (the column writer puts validity slice by slice, so
/// a run can carry any number of groups into the next slice): a run filled to exactly 63
/// groups by a word must end there. Read back by quiver and by pyarrow, value for value.
#[test]
fn definition_levels_of_any_null_pattern_read_back() {
    use crate::mutants::Rng;
    use quiver_arrow::array::{Array, PrimitiveArray};
    use quiver_arrow::datatype::{DataType, Field, Schema};
    use std::sync::Arc;
    let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int32, true)]));
    let dir = tempfile::tempdir().unwrap();
    let mut patterns: Vec<Vec<bool>> = Vec::new();
    // A valid stretch, `lead` groups of mixed bits left open at the 1,024-row slice's end,
    // then words of mixed bits in the next slice (`lead` = 7 once made a run of 64 groups).
    for lead in 0..8 {
        let mut valid = vec![true; 1024 - 8 * lead];
        valid.extend((0..8 * (lead + 70)).map(|i| i % 2 == 1));
        valid.resize(2048, true);
        patterns.push(valid);
    }
    // Random runs of valid and null rows and stretches of random bits.
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..12 {
        let mut valid = Vec::new();
        while valid.len() < 5000 {
            let n = rng.below(700);
            match rng.below(3) {
                0 => valid.extend(std::iter::repeat_n(true, n)),
                1 => valid.extend(std::iter::repeat_n(false, n % 40)),
                _ => valid.extend((0..n).map(|_| rng.below(2) == 0)),
            }
        }
        valid.truncate(5000);
        patterns.push(valid);
    }
    let mut cases = String::new();
    for (k, valid) in patterns.iter().enumerate() {
        let values = (0..valid.len()).map(|i| valid[i].then_some(i as i32));
        let x = Array::I32(PrimitiveArray::from_options(values));
        let batch = quiver_arrow::RecordBatch::try_new(schema.clone(), vec![x]).unwrap();
        let path = dir.path().join(format!("p{k}.parquet"));
        let mut w = FileWriter::create(&path, schema.clone(), WriteOptions::default()).unwrap();
        w.write(&batch).unwrap();
        w.finish().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let read = FileReader::try_new(&bytes, ReadOptions::default())
            .and_then(|r| r.read_all())
            .unwrap_or_else(|e| panic!("pattern {k}: {e}"));
        let got: Vec<&quiver_arrow::array::Array> = read.iter().map(|b| b.column(0)).collect();
        let got = quiver_arrow::compute::concat(&got).unwrap();
        assert!(
            quiver_arrow::compute::logical_eq(&got, batch.column(0)),
            "pattern {k}"
        );
        // The batch as an IPC stream: what pyarrow must read from the file.
        let ipc = dir.path().join(format!("p{k}.arrows"));
        let file = std::fs::File::create(&ipc).unwrap();
        let mut s =
            quiver_ipc::write::StreamWriter::try_new(file, schema.clone(), Default::default())
                .unwrap();
        s.write(&batch).unwrap();
        s.finish().unwrap();
        let case = json!({"original": ipc, "written": path, "ipc": ipc, "readers": ["pyarrow"]});
        cases.push_str(&format!("{case}\n"));
    }
    if !writer_available("pyarrow", "import pyarrow") {
        return;
    }
    let lines = python_lines("write_check.py", &cases);
    assert_eq!(lines.len(), patterns.len());
    for line in lines {
        assert!(line["errors"].as_array().unwrap().is_empty(), "{line}");
    }
}
