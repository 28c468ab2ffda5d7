//! Merging files (`file::merge`) read back as the concatenation of its inputs.
//!
//! The inputs come from every official file quiver reads: each is read, cut in two, and each
//! half written by quiver's writer (dictionaries per half, so the halves' dictionaries differ
//! and must be merged; the second half under another codec and page version, so its pages
//! must be re-compressed), then merged verbatim and coalescing, with the default dictionary
//! limit and with a tiny one that forces PLAIN pages. The merged file must read as the
//! original file. Schema changes (reordered, missing and appended fields), errors, statistics,
//! Bloom filters and sorting columns have tests of their own; `merge_oracles.rs` checks the
//! same against pyarrow, DuckDB, polars and Spark.

use crate::common::parquet_files;
use quiver_arrow::array::{Array, PrimitiveArray, StringArray};
use quiver_arrow::compute::first_difference;
use quiver_arrow::datatype::{DataType, Field, Schema, SchemaRef};
use quiver_arrow::parallel::ThreadPool;
use quiver_arrow::{RecordBatch, Result};
use quiver_parquet::arrow::column_writer::{BloomOptions, PageVersion};
use quiver_parquet::arrow::options::ReadOptions;
use quiver_parquet::codec::Codec;
use quiver_parquet::file::FileReader;
use quiver_parquet::file::merge::{MergeInput, MergeOptions, MergeReport, RowGroupTarget, merge};
use quiver_parquet::file::writer::{FileWriter, WriteOptions};
use quiver_parquet::format::SortingColumn;
use std::sync::Arc;

/// Writes `batches` with `opts`.
pub fn write(schema: &SchemaRef, batches: &[RecordBatch], opts: &WriteOptions) -> Result<Vec<u8>> {
    let mut w = FileWriter::new(Vec::new(), schema.clone(), opts.clone())?;
    for b in batches {
        w.write(b)?;
    }
    Ok(w.close()?.0)
}

/// Every batch of `bytes`, with the schema.
pub fn read(bytes: &[u8]) -> Result<(SchemaRef, Vec<RecordBatch>)> {
    let r = FileReader::try_new(
        bytes,
        ReadOptions {
            verify_crc: false,
            ..ReadOptions::default()
        },
    )?;
    Ok((r.schema().clone(), r.read_all()?))
}

/// The rows of `batches` (of `schema`), column by column, concatenated.
fn columns_of(schema: &SchemaRef, batches: &[RecordBatch]) -> Vec<Array> {
    (0..schema.fields.len())
        .map(|c| {
            let parts: Vec<&Array> = batches.iter().map(|b| b.column(c)).collect();
            if parts.is_empty() {
                let t = schema.fields[c].data_type();
                return quiver_arrow::builder::make_builder(t, 0).unwrap().finish();
            }
            quiver_arrow::compute::concat(&parts).unwrap()
        })
        .collect()
}

fn columns(batches: &[RecordBatch], n: usize) -> Vec<Array> {
    columns_of(&batches[0].schema().clone(), batches)[..n].to_vec()
}

/// Asserts that `merged` reads as `expected` (batches of `schema`).
fn assert_reads_as(merged: &[u8], schema: &SchemaRef, expected: &[RecordBatch], what: &str) {
    let (got_schema, got) = read(merged).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(got_schema.fields, schema.fields, "{what}: schema");
    for (c, (a, b)) in columns_of(schema, expected)
        .iter()
        .zip(columns_of(schema, &got))
        .enumerate()
    {
        if let Some(d) = first_difference(a, &b) {
            panic!("{what}: column {c} ({}): {d}", schema.fields[c].name());
        }
    }
}

/// Merges `files` (bytes) with `opts`.
pub fn merge_bytes(files: &[&[u8]], opts: &MergeOptions) -> Result<(Vec<u8>, MergeReport)> {
    let names: Vec<String> = (0..files.len()).map(|i| format!("input {i}")).collect();
    let inputs: Vec<MergeInput<'_>> = files
        .iter()
        .zip(&names)
        .map(|(b, name)| MergeInput {
            name,
            bytes: b,
            file: None,
        })
        .collect();
    let mut out = Vec::new();
    let report = merge(&inputs, &mut out, opts)?;
    Ok((out, report))
}

fn coalescing() -> MergeOptions {
    MergeOptions {
        coalesce: Some(RowGroupTarget::default()),
        threads: ThreadPool::sequential(),
        ..MergeOptions::default()
    }
}

fn verbatim() -> MergeOptions {
    MergeOptions {
        coalesce: None,
        ..coalescing()
    }
}

/// A file's name, the schema and batches its halves read as, and the halves.
type Halves = (String, SchemaRef, Vec<RecordBatch>, Vec<u8>, [Vec<u8>; 2]);

/// The two halves of every official file quiver reads, written by quiver (the second twice:
/// with zstd, and with v2 pages), with the whole file's batches.
fn halves() -> Vec<Halves> {
    let Some(files) = parquet_files() else {
        return Vec::new();
    };
    let mut first = WriteOptions {
        threads: ThreadPool::sequential(),
        ..WriteOptions::default()
    };
    first.column.page_rows = 100;
    let mut zstd = first.clone();
    zstd.column.codec = Codec::Zstd;
    let mut v2 = first.clone();
    v2.column.page_version = PageVersion::V2;
    let mut out = Vec::new();
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        let Ok((schema, batches)) = read(&bytes) else {
            continue;
        };
        let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
        if rows < 2 || schema.fields.is_empty() {
            continue;
        }
        let whole = RecordBatch::try_new_with_rows(
            schema.clone(),
            columns(&batches, schema.fields.len()),
            rows,
        )
        .unwrap();
        let (a, b) = (
            whole.slice(0, rows / 2),
            whole.slice(rows / 2, rows - rows / 2),
        );
        // Types quiver reads but cannot write (e.g. a time zone only INT96 has) are left out.
        let written = (
            write(&schema, &[a], &first),
            write(&schema, std::slice::from_ref(&b), &zstd),
            write(&schema, &[b], &v2),
        );
        let (Ok(x), Ok(y), Ok(z)) = written else {
            continue;
        };
        // The merged file must read as its inputs read: their schema as quiver wrote it.
        let (written, mut expected) = read(&x).unwrap();
        expected.extend(read(&y).unwrap().1);
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        out.push((name, written, expected, x, [y, z]));
    }
    out
}

#[test]
fn halves_of_every_official_file_merge_into_the_file() {
    let cases = halves();
    if cases.is_empty() {
        return;
    }
    let mut tiny = coalescing();
    tiny.dictionary_limit = 16;
    let mut totals = MergeReport::default().pages;
    for (name, schema, whole, a, seconds) in &cases {
        let modes = [
            ("verbatim", verbatim()),
            ("coalescing", coalescing()),
            ("tiny dictionary", tiny.clone()),
        ];
        for ((mode, opts), (k, b)) in modes
            .iter()
            .flat_map(|m| seconds.iter().enumerate().map(move |b| (m, b)))
        {
            let what = format!("{name} ({mode}, second half {k})");
            let (merged, report) =
                merge_bytes(&[a, b], opts).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_reads_as(&merged, schema, whole, &what);
            let rows: usize = whole.iter().map(RecordBatch::num_rows).sum();
            assert_eq!(report.rows as usize, rows, "{what}");
            totals.remapped += report.pages.remapped;
            totals.reencoded += report.pages.reencoded;
            totals.recompressed += report.pages.recompressed;
            totals.copied += report.pages.copied;
            totals.as_v1 += report.pages.as_v1;
        }
    }
    // The cases did exercise every path.
    assert!(cases.len() > 40, "{} files", cases.len());
    for (what, n) in [
        ("remapped", totals.remapped),
        ("re-encoded", totals.reencoded),
        ("re-compressed", totals.recompressed),
        ("copied", totals.copied),
        ("written as v1", totals.as_v1),
    ] {
        assert!(n > 100, "only {n} pages {what}");
    }
}

#[test]
fn official_files_merged_with_themselves_read_twice() {
    let Some(files) = parquet_files() else {
        return;
    };
    let mut n = 0;
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        let Ok((schema, batches)) = read(&bytes) else {
            continue;
        };
        let twice: Vec<RecordBatch> = batches.iter().chain(&batches).cloned().collect();
        for opts in [verbatim(), coalescing()] {
            let what = format!("{} ({:?})", f.display(), opts.coalesce);
            let (merged, report) = match merge_bytes(&[&bytes, &bytes], &opts) {
                Ok(done) => done,
                // Pages whose header lies about their compression are refused, not copied.
                Err(e) if e.to_string().contains("(ARROW-17100)") => continue,
                Err(e) => panic!("{what}: {e}"),
            };
            if twice.is_empty() {
                assert_eq!(report.rows, 0, "{what}");
                assert_eq!(read(&merged).unwrap().0.fields, schema.fields, "{what}");
            } else {
                assert_reads_as(&merged, &schema, &twice, &what);
            }
        }
        n += 1;
    }
    assert!(n > 50, "{n} files");
}

fn int_batch(schema: &SchemaRef, cols: Vec<Array>) -> RecordBatch {
    RecordBatch::try_new(schema.clone(), cols).unwrap()
}

fn ints(v: &[Option<i64>]) -> Array {
    Array::I64(PrimitiveArray::from_options(v.iter().copied()))
}

fn strs(v: &[Option<&str>]) -> Array {
    Array::Utf8(StringArray::from_options(v.iter().copied()))
}

#[test]
fn reordered_missing_and_appended_fields() {
    let ab = Arc::new(Schema::new(vec![
        Field::new("a", DataType::Int64, true),
        Field::new("b", DataType::Utf8, true),
    ]));
    let ba = Arc::new(Schema::new(vec![
        Field::new("b", DataType::Utf8, true),
        Field::new("a", DataType::Int64, true),
    ]));
    let a_only = Arc::new(Schema::new(vec![Field::new("a", DataType::Int64, true)]));
    let ac = Arc::new(Schema::new(vec![
        Field::new("a", DataType::Int64, true),
        Field::new("c", DataType::Utf8, true),
    ]));
    let opts = WriteOptions::default();
    let f1 = write(
        &ab,
        &[int_batch(
            &ab,
            vec![ints(&[Some(1), None]), strs(&[Some("x"), Some("y")])],
        )],
        &opts,
    )
    .unwrap();
    let f2 = write(
        &ba,
        &[int_batch(
            &ba,
            vec![strs(&[None, Some("z")]), ints(&[Some(3), Some(4)])],
        )],
        &opts,
    )
    .unwrap();
    let f3 = write(
        &a_only,
        &[int_batch(&a_only, vec![ints(&[Some(5)])])],
        &opts,
    )
    .unwrap();
    let f4 = write(
        &ac,
        &[int_batch(
            &ac,
            vec![ints(&[Some(6), Some(7)]), strs(&[Some("p"), None])],
        )],
        &opts,
    )
    .unwrap();
    let abc = Arc::new(Schema::new(vec![
        Field::new("a", DataType::Int64, true),
        Field::new("b", DataType::Utf8, true),
        Field::new("c", DataType::Utf8, true),
    ]));
    let expected = int_batch(
        &abc,
        vec![
            ints(&[Some(1), None, Some(3), Some(4), Some(5), Some(6), Some(7)]),
            strs(&[Some("x"), Some("y"), None, Some("z"), None, None, None]),
            strs(&[None, None, None, None, None, Some("p"), None]),
        ],
    );
    for opts in [verbatim(), coalescing()] {
        let (merged, report) = merge_bytes(&[&f1, &f2, &f3, &f4], &opts).unwrap();
        assert_reads_as(
            &merged,
            &abc,
            std::slice::from_ref(&expected),
            "schema changes",
        );
        assert_eq!(report.appended_fields, vec!["c".to_string()]);
        assert!(report.pages.nulls >= 3, "{report:?}");
    }
}

#[test]
fn incompatible_inputs_are_errors_naming_the_input_and_field() {
    let opts = WriteOptions::default();
    let a = Arc::new(Schema::new(vec![Field::new("a", DataType::Int64, true)]));
    let a32 = Arc::new(Schema::new(vec![Field::new("a", DataType::Int32, true)]));
    let req = Arc::new(Schema::new(vec![
        Field::new("a", DataType::Int64, true),
        Field::new("r", DataType::Int64, false),
    ]));
    let f = write(&a, &[int_batch(&a, vec![ints(&[Some(1)])])], &opts).unwrap();
    let f32 = write(
        &a32,
        &[int_batch(
            &a32,
            vec![Array::I32(PrimitiveArray::from_options([Some(1)]))],
        )],
        &opts,
    )
    .unwrap();
    let fr = write(
        &req,
        &[int_batch(&req, vec![ints(&[Some(1)]), ints(&[Some(2)])])],
        &opts,
    )
    .unwrap();
    let err = |files: &[&[u8]]| merge_bytes(files, &coalescing()).unwrap_err().to_string();
    let e = err(&[&f, &f32]);
    assert!(
        e.contains("input 1") && e.contains("\"a\"") && e.contains("INT32"),
        "{e}"
    );
    let e = err(&[&fr, &f]);
    assert!(
        e.contains("input 1") && e.contains("\"r\"") && e.contains("required"),
        "{e}"
    );
    let e = err(&[&f, &f[..f.len() - 3]]);
    assert!(e.contains("input 1"), "{e}");
    let e = err(&[&f, b"not a parquet file at all"]);
    assert!(
        e.contains("input 1") && e.contains("not a Parquet file"),
        "{e}"
    );
    let e = merge_bytes(&[], &coalescing()).unwrap_err().to_string();
    assert!(e.contains("no input"), "{e}");
}

#[test]
fn merged_statistics_equal_those_of_the_data_written_whole() {
    let schema = Arc::new(Schema::new(vec![
        Field::new("i", DataType::Int64, true),
        Field::new("s", DataType::Utf8, true),
        Field::new("f", DataType::Float64, true),
    ]));
    let batch = |i: &[Option<i64>], s: &[Option<&str>], f: &[Option<f64>]| {
        int_batch(
            &schema,
            vec![
                ints(i),
                strs(s),
                Array::F64(PrimitiveArray::from_options(f.iter().copied())),
            ],
        )
    };
    let parts = [
        batch(
            &[Some(5), None, Some(-3)],
            &[Some("m"), Some("zz"), None],
            &[Some(f64::NAN), Some(1.5), None],
        ),
        batch(&[None, None], &[None, None], &[None, None]),
        batch(
            &[Some(9), Some(0)],
            &[Some("a"), Some("b")],
            &[Some(-0.0), Some(7.0)],
        ),
    ];
    let opts = WriteOptions::default();
    let files: Vec<Vec<u8>> = parts
        .iter()
        .map(|p| write(&schema, std::slice::from_ref(p), &opts).unwrap())
        .collect();
    let refs: Vec<&[u8]> = files.iter().map(Vec::as_slice).collect();
    let (merged, _) = merge_bytes(&refs, &coalescing()).unwrap();
    let whole = write(&schema, &parts, &opts).unwrap();
    let stats = |bytes: &[u8]| {
        let m = quiver_parquet::metadata::parse_file(bytes).unwrap();
        (0..3)
            .map(|c| {
                let chunk = m.column_chunk(0, c).unwrap().into_owned();
                let s = chunk.meta_data.unwrap().statistics.unwrap().get();
                (
                    s.min_value.map(<[u8]>::to_vec),
                    s.max_value.map(<[u8]>::to_vec),
                    s.null_count,
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(stats(&merged), stats(&whole));
}

#[test]
fn bloom_filters_are_united() {
    let schema = Arc::new(Schema::new(vec![Field::new("s", DataType::Utf8, true)]));
    let mut opts = WriteOptions::default();
    opts.column.bloom = Some(BloomOptions {
        ndv: 100,
        fpp: 0.01,
    });
    let values_a: Vec<String> = (0..60).map(|i| format!("a{i}")).collect();
    let values_b: Vec<String> = (0..60).map(|i| format!("b{i}")).collect();
    let file = |v: &[String], opts: &WriteOptions| {
        let col: Vec<Option<&str>> = v.iter().map(|s| Some(s.as_str())).collect();
        write(&schema, &[int_batch(&schema, vec![strs(&col)])], opts).unwrap()
    };
    let mut bigger = opts.clone();
    bigger.column.bloom = Some(BloomOptions {
        ndv: 5000,
        fpp: 0.01,
    });
    let (a, b) = (file(&values_a, &opts), file(&values_b, &bigger));
    let bloom_of = |bytes: &[u8], g: usize| {
        let m = quiver_parquet::metadata::parse_file(bytes).unwrap();
        let meta = m
            .column_chunk(g, 0)
            .unwrap()
            .into_owned()
            .meta_data
            .unwrap();
        let at = meta.bloom_filter_offset.unwrap() as usize;
        quiver_parquet::bloom::Sbbf::read(&bytes[at..]).unwrap().0
    };
    // One size: OR-ed as they are.
    let a2 = file(&values_b, &opts);
    let (merged, report) = merge_bytes(&[&a, &a2], &coalescing()).unwrap();
    let united = bloom_of(&merged, 0);
    let mut or = bloom_of(&a, 0).as_bytes().to_vec();
    for (o, x) in or.iter_mut().zip(bloom_of(&a2, 0).as_bytes()) {
        *o |= x;
    }
    assert_eq!(united.as_bytes(), or);
    assert!(report.notes.iter().all(|n| !n.contains("rebuilt")));
    // Two sizes: rebuilt from the values, no smaller than the larger (folding to the smaller
    // would crowd the larger one's values into its bits).
    let (merged, report) = merge_bytes(&[&a, &b], &coalescing()).unwrap();
    let united = bloom_of(&merged, 0);
    assert_eq!(united.as_bytes().len(), bloom_of(&b, 0).as_bytes().len());
    assert!(report.notes.iter().any(|n| n.contains("rebuilt")));
    for v in values_a.iter().chain(&values_b) {
        assert!(
            united.check(quiver_parquet::bloom::hash_bytes(v.as_bytes())),
            "{v}"
        );
    }
    // Verbatim: each row group keeps its own filter, byte for byte.
    let (merged, _) = merge_bytes(&[&a, &b], &verbatim()).unwrap();
    assert_eq!(bloom_of(&merged, 1), bloom_of(&b, 0));
}

/// Joined row groups whose filters cannot be united (one had none) get a filter rebuilt from
/// every value, whatever the pages' encodings: no filter an input had is lost.
#[test]
fn bloom_filters_that_do_not_unite_are_rebuilt_from_the_values() {
    use quiver_parquet::bloom::{hash_bytes, hash_f64, hash_i64};
    use quiver_parquet::file::writer::ColumnOverride;
    use quiver_parquet::format::Encoding;
    let schema = Arc::new(Schema::new(vec![
        Field::new("i", DataType::Int64, true),
        Field::new("s", DataType::Utf8, true),
        Field::new("f", DataType::Float64, true),
    ]));
    let part = |k: i64| {
        let rows = k * 1000..k * 1000 + 1000;
        let i: Vec<Option<i64>> = rows
            .clone()
            .map(|r| (r % 9 != 4).then_some(r * 31))
            .collect();
        let s: Vec<String> = rows.clone().map(|r| format!("s{}", r % 700)).collect();
        let s: Vec<Option<&str>> = s.iter().map(|v| Some(v.as_str())).collect();
        let f = rows.map(|r| Some(r as f64 / 8.0));
        int_batch(
            &schema,
            vec![
                ints(&i),
                strs(&s),
                Array::F64(PrimitiveArray::from_options(f)),
            ],
        )
    };
    let parts = [part(0), part(1), part(2)];
    let mut with = WriteOptions::default();
    with.column.bloom = Some(BloomOptions {
        ndv: 1000,
        fpp: 0.01,
    });
    with.column.page_rows = 250;
    let mut without = WriteOptions::default();
    without.column.page_version = PageVersion::V2;
    without.column.codec = Codec::Zstd;
    without.column_overrides = vec![
        ("i".into(), ColumnOverride::Dictionary(false)),
        (
            "i".into(),
            ColumnOverride::Encoding(Encoding::DELTA_BINARY_PACKED),
        ),
        ("f".into(), ColumnOverride::Dictionary(false)),
        (
            "f".into(),
            ColumnOverride::Encoding(Encoding::BYTE_STREAM_SPLIT),
        ),
        ("s".into(), ColumnOverride::Dictionary(false)),
        (
            "s".into(),
            ColumnOverride::Encoding(Encoding::DELTA_BYTE_ARRAY),
        ),
    ];
    let files = [
        write(&schema, std::slice::from_ref(&parts[0]), &with).unwrap(),
        write(&schema, std::slice::from_ref(&parts[1]), &without).unwrap(),
        write(&schema, std::slice::from_ref(&parts[2]), &with).unwrap(),
    ];
    let refs: Vec<&[u8]> = files.iter().map(Vec::as_slice).collect();
    let (merged, report) = merge_bytes(&refs, &coalescing()).unwrap();
    assert_reads_as(&merged, &schema, &parts, "rebuilt filters");
    assert!(
        report
            .notes
            .iter()
            .filter(|n| n.contains("rebuilt"))
            .count()
            == 3,
        "{:?}",
        report.notes
    );
    let m = quiver_parquet::metadata::parse_file(&merged).unwrap();
    assert_eq!(m.num_row_groups(), 1);
    for c in 0..3 {
        let meta = m
            .column_chunk(0, c)
            .unwrap()
            .into_owned()
            .meta_data
            .unwrap();
        let at = meta.bloom_filter_offset.expect("a rebuilt filter") as usize;
        let bloom = quiver_parquet::bloom::Sbbf::read(&merged[at..]).unwrap().0;
        let mut missing = 0;
        for col in parts.iter().map(|p| p.column(c)) {
            for r in 0..col.len() {
                let h = match col {
                    Array::I64(a) if a.is_valid(r) => hash_i64(a.value(r)),
                    Array::F64(a) if a.is_valid(r) => hash_f64(a.value(r)),
                    Array::Utf8(a) if a.is_valid(r) => hash_bytes(a.value(r).as_bytes()),
                    _ => continue,
                };
                missing += usize::from(!bloom.check(h));
            }
        }
        let absent_hits = (0..1000)
            .filter(|k| bloom.check(hash_bytes(format!("absent-{k}").as_bytes())))
            .count();
        assert_eq!(missing, 0, "column {c}: values the rebuilt filter excludes");
        // Sized for the distinct values at 1% false positives.
        assert!(
            absent_hits < 40,
            "column {c}: {absent_hits} of 1000 absent values pass"
        );
    }
    // Verbatim: nothing to unite; each row group keeps what its input had.
    let (merged, report) = merge_bytes(&refs, &verbatim()).unwrap();
    assert!(report.notes.iter().all(|n| !n.contains("rebuilt")));
    let m = quiver_parquet::metadata::parse_file(&merged).unwrap();
    let has = |g| {
        m.column_chunk(g, 0)
            .unwrap()
            .into_owned()
            .meta_data
            .unwrap()
            .bloom_filter_offset
            .is_some()
    };
    assert_eq!((has(0), has(1), has(2)), (true, false, true));
}

#[test]
fn sorting_columns_survive_only_where_still_true() {
    let schema = Arc::new(Schema::new(vec![Field::new("k", DataType::Int64, true)]));
    let opts = WriteOptions {
        sorting_columns: vec![SortingColumn {
            column_idx: 0,
            descending: false,
            nulls_first: false,
        }],
        ..WriteOptions::default()
    };
    let file =
        |v: &[Option<i64>]| write(&schema, &[int_batch(&schema, vec![ints(v)])], &opts).unwrap();
    let (a, b, c) = (
        file(&[Some(1), Some(2)]),
        file(&[Some(2), Some(5)]),
        file(&[Some(3), Some(4)]),
    );
    let sorting = |bytes: &[u8]| {
        let m = quiver_parquet::metadata::parse_file(bytes).unwrap();
        (0..m.num_row_groups())
            .map(|g| m.row_group(g).unwrap().sorting_columns.clone())
            .collect::<Vec<_>>()
    };
    let (merged, report) = merge_bytes(&[&a, &b], &coalescing()).unwrap();
    assert_eq!(sorting(&merged), vec![Some(opts.sorting_columns.clone())]);
    assert!(report.notes.is_empty(), "{report:?}");
    let (merged, report) = merge_bytes(&[&b, &c], &coalescing()).unwrap();
    assert_eq!(sorting(&merged), vec![None]);
    assert!(
        report.notes.iter().any(|n| n.contains("sorting_columns")),
        "{report:?}"
    );
    let (merged, _) = merge_bytes(&[&b, &c], &verbatim()).unwrap();
    assert_eq!(
        sorting(&merged),
        vec![Some(opts.sorting_columns.clone()); 2]
    );
}

#[test]
fn mutants_merge_or_fail_cleanly_and_what_merges_reads() {
    use crate::mutants::{Rng, mutate};
    let Some(root) =
        quiver_integration::testdata::require_test_data().unwrap_or_else(|e| panic!("{e}"))
    else {
        return;
    };
    let names = [
        "alltypes_dictionary.parquet",
        "datapage_v2.snappy.parquet",
        "nested_lists.snappy.parquet",
        "data_index_bloom_encoding_stats.parquet",
        "delta_length_byte_array.parquet",
    ];
    let mut rng = Rng(0x0000_DDBA_11C0_FFEE);
    let (mut merged, mut refused) = (0, 0);
    for name in names {
        let file = std::fs::read(root.join("parquet-testing/data").join(name)).unwrap();
        for k in 0..120 {
            let m = mutate(&mut rng, &file);
            let opts = if k % 2 == 0 { coalescing() } else { verbatim() };
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                merge_bytes(&[&file, &m], &opts).map(|(out, _)| {
                    // What merged is a file: it reads, or its reading fails cleanly as the
                    // mutant's own does.
                    let _ = read(&out);
                })
            }));
            match r {
                Ok(Ok(())) => merged += 1,
                Ok(Err(e)) => {
                    assert!(e.to_string().contains("input 1"), "{name}: {e}");
                    refused += 1;
                }
                Err(_) => panic!("{name}: mutant {k} panicked"),
            }
        }
    }
    assert!(
        merged > 0 && refused > 0,
        "{merged} merged, {refused} refused"
    );
}

/// A sink that records the copies it is asked for, and fails once `fail_after` bytes were
/// handed to it (if set).
#[derive(Default)]
struct RecordingSink {
    out: Vec<u8>,
    copies: Vec<(u64, u64)>,
    fail_after: Option<usize>,
}

impl quiver_parquet::file::merge::MergeSink for RecordingSink {
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.out.extend_from_slice(bytes);
        match self.fail_after {
            Some(n) if self.out.len() > n => Err(quiver_arrow::Error::invalid("disk full (test)")),
            _ => Ok(()),
        }
    }

    fn copy_range(&mut self, _: &std::fs::File, offset: u64, len: u64, bytes: &[u8]) -> Result<()> {
        assert_eq!(bytes.len() as u64, len);
        self.copies.push((offset, len));
        self.write_bytes(bytes)
    }

    fn flush(&mut self) -> Result<()> {
        Ok(())
    }
}

#[test]
fn verbatim_merge_copies_each_file_in_one_call_and_sink_errors_come_back() {
    let schema = Arc::new(Schema::new(vec![
        Field::new("k", DataType::Int64, true),
        Field::new("s", DataType::Utf8, true),
    ]));
    let dir = tempfile::tempdir().unwrap();
    let opts = WriteOptions {
        row_group_rows: 100,
        ..WriteOptions::default()
    };
    let mut paths = Vec::new();
    for f in 0..5i64 {
        let k: Vec<Option<i64>> = (0..350)
            .map(|i| (i % 7 != 0).then_some(f * 1000 + i))
            .collect();
        let s: Vec<String> = (0..350).map(|i| format!("file {f} row {i}")).collect();
        let s: Vec<Option<&str>> = s.iter().map(|x| Some(x.as_str())).collect();
        let batch = int_batch(&schema, vec![ints(&k), strs(&s)]);
        let path = dir.path().join(format!("{f}.parquet"));
        std::fs::write(&path, write(&schema, &[batch], &opts).unwrap()).unwrap();
        paths.push(path);
    }
    let bytes: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let files: Vec<std::fs::File> = paths
        .iter()
        .map(|p| std::fs::File::open(p).unwrap())
        .collect();
    let names: Vec<String> = (0..paths.len()).map(|i| format!("{i}.parquet")).collect();
    let inputs = |with_files: bool| -> Vec<MergeInput<'_>> {
        (0..paths.len())
            .map(|i| MergeInput {
                name: &names[i],
                bytes: &bytes[i],
                file: with_files.then_some(&files[i]),
            })
            .collect()
    };
    let in_memory = {
        let mut out = Vec::new();
        merge(&inputs(false), &mut out, &verbatim()).unwrap();
        out
    };
    for threads in [ThreadPool::sequential(), ThreadPool::new(3).unwrap()] {
        let opts = MergeOptions {
            threads,
            ..verbatim()
        };
        let mut sink = RecordingSink::default();
        let report = merge(&inputs(true), &mut sink, &opts).unwrap();
        assert_eq!(
            sink.out, in_memory,
            "the same file whether copied or written"
        );
        assert_eq!(report.row_groups, 20);
        // Each input's row groups lie one after the other from byte 4 to its page index or
        // footer: one copy per input.
        assert_eq!(sink.copies.len(), paths.len(), "{:?}", sink.copies);
        assert!(sink.copies.iter().all(|&(offset, _)| offset == 4));
        assert_eq!(
            sink.copies.iter().map(|c| c.1).sum::<u64>(),
            report.bytes_copied
        );
    }
    // A sink that fails part-way: its error is the merge's, whichever batch it hits.
    for opts in [verbatim(), coalescing()] {
        let mut whole = Vec::new();
        merge(&inputs(true), &mut whole, &opts).unwrap();
        for fail_after in [0, 1000, whole.len() / 2, whole.len() - 1] {
            let mut sink = RecordingSink {
                fail_after: Some(fail_after),
                ..RecordingSink::default()
            };
            let e = merge(&inputs(true), &mut sink, &opts).unwrap_err();
            assert!(e.to_string().contains("disk full (test)"), "{e}");
        }
    }
}

/// Snappy pages whose values repeat a few earlier ones (at most one in
/// `codec::snappy::gather::GATHER_REPEATS`) are made PLAIN from their dictionary page's
/// stream with the repeats inserted — at the start, the end, in runs, among nulls, far back —
/// and pages with more repeats are compressed again; both read as the inputs.
#[test]
fn few_repeats_are_inserted_into_the_dictionary_stream() {
    let n = 2000usize;
    // Repeats per file. The second file's dictionary passes the limit (each holds about
    // 65 KiB of strings, 16 KB of integers); the pages of the files after it come from their
    // dictionary pages: 0 to 50 repeats among ~1,850 values are within one in 32, 200 not.
    let repeats = [0usize, 0, 0, 1, 7, 40, 50, 200];
    for (utf8, limit) in [(true, 100 << 10), (false, 20 << 10)] {
        let t = if utf8 {
            DataType::Utf8
        } else {
            DataType::Int64
        };
        let schema = Arc::new(Schema::new(vec![Field::new("v", t.clone(), true)]));
        let opts = WriteOptions {
            threads: ThreadPool::sequential(),
            ..WriteOptions::default()
        };
        let mut rng = crate::mutants::Rng(0x2545_f491_4f6c_dd1d);
        let mut next = |m: usize| rng.below(m);
        let (mut files, mut batches) = (Vec::new(), Vec::new());
        for (f, &k) in repeats.iter().enumerate() {
            let mut v: Vec<usize> = (0..n).collect();
            for r in 0..k {
                // At the end, in a run of one value, right at the start, or anywhere.
                let (at, from) = match r % 4 {
                    0 => (n - 1 - r / 4, next(n - 1 - r / 4)),
                    1 => (11 + r / 4, 10),
                    2 => (1 + r / 4, 0),
                    _ => {
                        let at = 1 + next(n - 1);
                        (at, next(at))
                    }
                };
                v[at] = v[from];
            }
            // Nulls among them (a repeat that lands on one is gone).
            let v: Vec<Option<usize>> = v
                .into_iter()
                .enumerate()
                .map(|(j, x)| (j % 13 != 5).then_some(x))
                .collect();
            let array = if utf8 {
                let text = |j: usize| format!("file {f} value {j:05} {}", "z".repeat(j % 23));
                let s: Vec<Option<String>> = v.iter().map(|x| x.map(text)).collect();
                Array::Utf8(StringArray::from_options(s.iter().map(|s| s.as_deref())))
            } else {
                let i: Vec<Option<i64>> = v
                    .iter()
                    .map(|x| x.map(|j| (f * n + j) as i64 * 104_729))
                    .collect();
                ints(&i)
            };
            let batch = int_batch(&schema, vec![array]);
            files.push(write(&schema, std::slice::from_ref(&batch), &opts).unwrap());
            batches.push(batch);
        }
        let refs: Vec<&[u8]> = files.iter().map(|f| &f[..]).collect();
        let merge_opts = MergeOptions {
            dictionary_limit: limit,
            ..coalescing()
        };
        let (merged, report) = merge_bytes(&refs, &merge_opts).unwrap();
        let what = format!("{t:?}");
        assert_reads_as(&merged, &schema, &batches, &what);
        // Files 3-7; the second file's own page and the last file's are rewritten the usual
        // way.
        let p = &report.pages;
        assert_eq!(p.from_dictionary, 5, "{what}: {p:?}");
        assert_eq!(p.reencoded, 7, "{what}: {p:?}");
        // The CRCs written over the new pages hold (checked by default).
        FileReader::try_new(&merged[..], ReadOptions::default())
            .unwrap()
            .read_all()
            .unwrap();
    }
}

/// Inputs whose string and integer values never repeat within a file: once the merged
/// dictionary falls back, their pages are written PLAIN straight from their dictionary pages
/// (Snappy and uncompressed chunks; a Snappy page with a repeated value too, the repeat
/// inserted; other codecs take the usual way). The output reads as the inputs concatenated
/// either way.
#[test]
fn unique_values_fall_back_to_plain_from_their_dictionary_pages() {
    let schema = Arc::new(Schema::new(vec![
        Field::new("s", DataType::Utf8, true),
        Field::new("r", DataType::Utf8, false),
        Field::new("i", DataType::Int64, true),
    ]));
    // Pages made from their dictionary page: files 3-6, three columns each (12); but file
    // 5's `r` repeats a value, which only Snappy pages insert (`codec::snappy::gather`).
    for (codec, from_dictionary) in [
        (Codec::Snappy, 12),
        (Codec::Uncompressed, 11),
        (Codec::Zstd, 0),
    ] {
        let mut opts = WriteOptions {
            threads: ThreadPool::sequential(),
            ..WriteOptions::default()
        };
        opts.column.codec = codec;
        let mut files = Vec::new();
        let mut batches = Vec::new();
        for f in 0..6usize {
            // Long enough for Snappy to find back-references inside the dictionary page.
            let text = |k: usize| format!("value {k:05} of file {f}, with some repeated text");
            let s: Vec<Option<String>> = (0..300).map(|k| (k % 7 != 3).then(|| text(k))).collect();
            let mut r: Vec<String> = (0..300).map(|k| format!("r{f}-{k}")).collect();
            if f == 4 {
                // A repeated value: this file's page is its dictionary page's values with one
                // inserted.
                r[10] = r[5].clone();
            }
            let i: Vec<Option<i64>> = (0..300)
                .map(|k| (k % 11 != 0).then_some((f * 1000 + k) as i64 * 7919))
                .collect();
            let batch = int_batch(
                &schema,
                vec![
                    Array::Utf8(StringArray::from_options(s.iter().map(|v| v.as_deref()))),
                    Array::Utf8(StringArray::from_options(
                        r.iter().map(|v| Some(v.as_str())),
                    )),
                    ints(&i),
                ],
            );
            files.push(write(&schema, std::slice::from_ref(&batch), &opts).unwrap());
            batches.push(batch);
        }
        let refs: Vec<&[u8]> = files.iter().map(|f| &f[..]).collect();
        let merge_opts = MergeOptions {
            // The second file's dictionaries already pass it: every later file falls back.
            dictionary_limit: 1 << 10,
            ..coalescing()
        };
        let (merged, report) = merge_bytes(&refs, &merge_opts).unwrap();
        assert_reads_as(&merged, &schema, &batches, &format!("{codec}"));
        let p = &report.pages;
        assert_eq!(p.from_dictionary, from_dictionary, "{codec}: {p:?}");
        // And file 3's own pages, whose dictionary passed the limit, the usual way.
        assert!(p.reencoded >= p.from_dictionary + 3, "{codec}: {p:?}");
        // The CRCs written over the new pages hold (checked by default).
        let r = FileReader::try_new(&merged[..], ReadOptions::default()).unwrap();
        assert_eq!(
            r.read_all()
                .unwrap()
                .iter()
                .map(|b| b.num_rows())
                .sum::<usize>(),
            1800
        );
    }
}
