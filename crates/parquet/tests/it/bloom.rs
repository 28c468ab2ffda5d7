//! Bloom filters written by others read by `quiver_parquet::bloom`: parquet-mr's (the
//! parquet-testing files), DuckDB's and pyarrow's. Every value of a column (read by quiver)
//! checks true in its chunk's filter, values not in the column check true no more often than
//! the filter's bits predict, and a filter quiver builds from the column's values at the same
//! size equals the writer's byte for byte.

use crate::common::{python_writes, writer_available};
use quiver_arrow::array::Array;
use quiver_integration::testdata::require_test_data;
use quiver_parquet::arrow::options::ReadOptions;
use quiver_parquet::bloom::{Sbbf, hash_bytes};
use quiver_parquet::file::{FileReader, Selection};
use std::collections::HashSet;
use std::path::Path;

/// The hashes of an array's non-null values (of their PLAIN encoding as the column's physical
/// type: 8, 16 and 32-bit integers as INT32) and the width of a fixed-width value.
fn plain_hashes(array: &Array) -> (Vec<u64>, Option<usize>) {
    fn fixed<T: Copy, const N: usize>(
        values: impl Iterator<Item = Option<T>>,
        bytes: impl Fn(T) -> [u8; N],
    ) -> (Vec<u64>, Option<usize>) {
        let hashes = values.flatten().map(|v| hash_bytes(&bytes(v))).collect();
        (hashes, Some(N))
    }
    fn var<'v>(values: impl Iterator<Item = Option<&'v [u8]>>) -> (Vec<u64>, Option<usize>) {
        (values.flatten().map(hash_bytes).collect(), None)
    }
    match array {
        Array::I8(a) => fixed(a.iter(), |v| i32::from(v).to_le_bytes()),
        Array::I16(a) => fixed(a.iter(), |v| i32::from(v).to_le_bytes()),
        Array::I32(a) => fixed(a.iter(), i32::to_le_bytes),
        Array::U8(a) => fixed(a.iter(), |v| u32::from(v).to_le_bytes()),
        Array::U16(a) => fixed(a.iter(), |v| u32::from(v).to_le_bytes()),
        Array::U32(a) => fixed(a.iter(), u32::to_le_bytes),
        Array::I64(a) => fixed(a.iter(), i64::to_le_bytes),
        Array::U64(a) => fixed(a.iter(), u64::to_le_bytes),
        Array::F32(a) => fixed(a.iter(), f32::to_le_bytes),
        Array::F64(a) => fixed(a.iter(), f64::to_le_bytes),
        Array::Utf8(a) => var(a.iter().map(|v| v.map(str::as_bytes))),
        Array::LargeUtf8(a) => var(a.iter().map(|v| v.map(str::as_bytes))),
        Array::Binary(a) => var(a.iter()),
        Array::LargeBinary(a) => var(a.iter()),
        Array::FixedSizeBinary(a) => (a.iter().flatten().map(hash_bytes).collect(), Some(a.size())),
        other => panic!("no PLAIN hash for {:?}", other.data_type()),
    }
}

/// Hashes of `n` values of the column's physical type that are not among `present`: byte
/// strings (`absent-<k>`), or fixed-width values from a counter.
fn absent_hashes(present: &HashSet<u64>, width: Option<usize>, n: usize) -> Vec<u64> {
    (0u64..)
        .map(|k| match width {
            None => hash_bytes(format!("absent-{k}").as_bytes()),
            Some(w) => {
                let v = k.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5555;
                hash_bytes(&v.to_le_bytes()[..w.min(8)])
            }
        })
        .filter(|h| !present.contains(h))
        .take(n)
        .collect()
}

/// The chance a hash not inserted checks true, from the filter's bits: over the blocks, the
/// product of each word's fraction of set bits.
fn predicted_fpp(filter: &Sbbf) -> f64 {
    let blocks = filter.as_bytes().chunks_exact(32);
    let n = blocks.len() as f64;
    let sum: f64 = blocks
        .map(|block| {
            block
                .chunks_exact(4)
                .map(|w| f64::from(u32::from_le_bytes(w.try_into().unwrap()).count_ones()) / 32.0)
                .product::<f64>()
        })
        .sum();
    sum / n
}

/// Asserts every present hash checks true, absent ones within the predicted rate, and that a
/// filter built from `present` at the same size equals `filter`.
fn check_filter(filter: &Sbbf, present: &[u64], width: Option<usize>, what: &str) {
    assert!(!present.is_empty(), "{what}: no values");
    for &h in present {
        assert!(
            filter.check(h),
            "{what}: a value in the column checks false"
        );
    }
    let set: HashSet<u64> = present.iter().copied().collect();
    let n = 20_000;
    let absent = absent_hashes(&set, width, n);
    let positives = absent.iter().filter(|&&h| filter.check(h)).count() as f64;
    let expected = predicted_fpp(filter) * n as f64;
    // Binomial: the mean plus five standard deviations (and a little for tiny means).
    let bound = expected + 5.0 * expected.sqrt() + 3.0;
    assert!(
        positives <= bound,
        "{what}: {positives} of {n} absent values check true, {expected:.1} predicted"
    );
    let mut built = Sbbf::new(filter.as_bytes().len());
    for &h in present {
        built.insert(h);
    }
    assert!(
        built == *filter,
        "{what}: the filter built from the column's values differs from the file's"
    );
}

/// Every column chunk's Bloom filter in `file`: (row group, column, filter, num_bytes).
fn file_filters(file: &[u8]) -> Vec<(usize, usize, Sbbf)> {
    let meta = quiver_parquet::metadata::parse_file(file).unwrap();
    let mut out = Vec::new();
    for g in 0..meta.num_row_groups() {
        for c in 0..meta.num_columns() {
            let chunk = meta.column_chunk(g, c).unwrap();
            let m = chunk.meta_data.as_ref().unwrap();
            let Some(offset) = m.bloom_filter_offset else {
                continue;
            };
            let start = usize::try_from(offset).unwrap();
            let (filter, used) = Sbbf::read(&file[start..]).unwrap();
            if let Some(len) = m.bloom_filter_length {
                assert_eq!(
                    used,
                    usize::try_from(len).unwrap(),
                    "row group {g} column {c}"
                );
            }
            out.push((g, c, filter));
        }
    }
    out
}

/// Column `c` of row group `g`, read by quiver.
fn read_column(reader: &FileReader<'_>, g: usize, c: usize) -> Array {
    let selection = Selection {
        row_groups: Some(vec![g]),
        ..Selection::default()
    };
    let batches: Vec<_> = reader
        .batches(&selection)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(batches.len(), 1);
    batches[0].column(c).clone()
}

/// Checks every filter of the file at `path` against its column; returns the filters checked
/// with their row group, column and number of distinct non-null values.
fn check_file(path: &Path) -> Vec<(usize, usize, usize, Sbbf)> {
    let bytes = std::fs::read(path).unwrap();
    let reader = FileReader::try_new(&bytes, ReadOptions::default()).unwrap();
    let mut out = Vec::new();
    for (g, c, filter) in file_filters(&bytes) {
        let (hashes, width) = plain_hashes(&read_column(&reader, g, c));
        let what = format!("{} row group {g} column {c}", path.display());
        check_filter(&filter, &hashes, width, &what);
        let distinct = hashes.iter().collect::<HashSet<_>>().len();
        out.push((g, c, distinct, filter));
    }
    out
}

#[test]
fn parquet_testing_xxhash_filter_holds_its_four_strings() {
    let Some(root) = require_test_data().unwrap_or_else(|e| panic!("{e}")) else {
        return;
    };
    let data = root.join("parquet-testing/data");
    let bytes = std::fs::read(data.join("bloom_filter.xxhash.bin")).unwrap();
    let (filter, used) = Sbbf::read(&bytes).unwrap();
    assert_eq!((used, filter.as_bytes().len()), (16 + 1024, 1024));
    // parquet-mr inserted these four strings (Arrow C++'s and others' compatibility tests).
    let words = ["hello", "parquet", "bloom", "filter"];
    let hashes: Vec<u64> = words.iter().map(|w| hash_bytes(w.as_bytes())).collect();
    check_filter(&filter, &hashes, None, "bloom_filter.xxhash.bin");
    let mut again = Vec::new();
    filter.write(&mut again);
    assert_eq!(again, bytes, "the header and bitset written back");
    // The deprecated binary header (murmur3) is not a thrift header.
    let old = std::fs::read(data.join("bloom_filter.bin")).unwrap();
    let e = Sbbf::read(&old).unwrap_err().to_string();
    assert!(e.contains("BloomFilterHeader"), "{e}");
}

#[test]
fn parquet_testing_files_filters_hold_their_columns() {
    let Some(root) = require_test_data().unwrap_or_else(|e| panic!("{e}")) else {
        return;
    };
    let data = root.join("parquet-testing/data");
    for name in [
        "data_index_bloom_encoding_stats.parquet",
        "data_index_bloom_encoding_with_length.parquet",
    ] {
        let checked = check_file(&data.join(name));
        assert_eq!(checked.len(), 1, "{name}: one filter");
        assert_eq!(checked[0].2, 14, "{name}: 14 distinct strings");
    }
}

/// The filter options a file's name gives (`ndv<N>-fpp<P>[-plain]` or `fpp<P>`): the ndv (0
/// when absent) and the fpp.
fn name_options(path: &Path) -> (u64, f64) {
    let stem = path.file_stem().unwrap().to_str().unwrap();
    let stem = stem.trim_end_matches("-plain");
    let (ndv, fpp) = stem.split_once("fpp").unwrap();
    let ndv = ndv.trim_start_matches("ndv").trim_end_matches('-');
    (ndv.parse().unwrap_or(0), fpp.parse().unwrap())
}

#[test]
fn duckdb_filters_hold_their_columns_and_match_quivers() {
    if !writer_available("duckdb", "import duckdb") {
        return;
    }
    let (_dir, files) = python_writes("write_bloom_duckdb.py");
    assert_eq!(files.len(), 2);
    for path in &files {
        let (_, fpp) = name_options(path);
        let checked = check_file(path);
        // Three row groups of ten columns; the high-cardinality chunks of the last fall back
        // to PLAIN and have none.
        assert!(
            checked.len() >= 25,
            "{}: {} filters",
            path.display(),
            checked.len()
        );
        for (g, c, distinct, filter) in &checked {
            // DuckDB sizes a filter by the dictionary's size, as the spec's formula does.
            assert_eq!(
                filter.as_bytes().len(),
                Sbbf::optimal_num_bytes(*distinct as u64, fpp),
                "{} row group {g} column {c}: {distinct} values at fpp {fpp}",
                path.display()
            );
        }
    }
}

#[test]
fn pyarrow_filters_hold_their_columns_and_match_quivers() {
    let check = "import inspect, pyarrow.parquet as pq; \
                 assert 'bloom_filter_options' in inspect.signature(pq.write_table).parameters";
    if !writer_available(
        "pyarrow writing Bloom filters (bloom_filter_options)",
        check,
    ) {
        return;
    }
    let (_dir, files) = python_writes("write_bloom_pyarrow.py");
    assert_eq!(files.len(), 4);
    for path in &files {
        let (ndv, fpp) = name_options(path);
        let checked = check_file(path);
        assert_eq!(checked.len(), 3 * 11, "{}", path.display());
        for (g, c, distinct, filter) in &checked {
            // pyarrow sizes a filter for the ndv option, then folds a sparse one (halving
            // ORs block pairs, the filter built at the smaller size), so the size is only
            // bounded: at most the formula's for the option and, when the column has no more
            // distinct values than the option says, not so small that the bits predict a rate
            // much above the fpp asked for.
            let what = format!("{} row group {g} column {c}", path.display());
            let bytes = filter.as_bytes().len();
            assert!(
                bytes <= Sbbf::optimal_num_bytes(ndv, fpp),
                "{what}: {bytes} bytes"
            );
            let predicted = predicted_fpp(filter);
            assert!(
                *distinct as u64 > ndv || predicted <= fpp * 2.0,
                "{what}: {distinct} values in {bytes} bytes predict {predicted}"
            );
        }
    }
}
