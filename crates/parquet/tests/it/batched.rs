//! Batches cut inside row groups hold exactly the rows of the row group read whole (itself
//! checked against pyarrow in `read_values.rs`): every official file and the pyarrow-written
//! matrix (tiny pages, page v1 and v2, nested columns, every encoding) read in batches of 1, 7
//! and 1,000 rows.

use crate::common::{parquet_files, python_writes};
use quiver_arrow::compute::{concat, logical_eq};
use quiver_arrow::parallel::ThreadPool;
use quiver_arrow::{Array, RecordBatch};
use quiver_parquet::arrow::options::ReadOptions;
use quiver_parquet::file::{FileReader, Selection};
use std::path::PathBuf;

/// Column `c` of every batch, concatenated.
fn column(batches: &[RecordBatch], c: usize) -> Array {
    let parts: Vec<&Array> = batches.iter().map(|b| &b.columns()[c]).collect();
    concat(&parts).unwrap()
}

/// Reads each file whole and in batches of several sizes, and in batches cut by a byte-array
/// limit of 4 KiB; returns how many files were compared.
fn compare_batched(files: &[PathBuf]) -> usize {
    let mut compared = 0;
    let mut cut_by_limit = 0;
    let mut in_parallel = 0;
    for f in files {
        let bytes = std::fs::read(f).unwrap();
        let options = ReadOptions {
            verify_crc: false,
            ..ReadOptions::default()
        };
        let Ok(reader) = FileReader::try_new(&bytes, options) else {
            continue;
        };
        let Ok(whole) = reader.read_all() else {
            continue;
        };
        let rows: usize = whole.iter().map(|b| b.num_rows()).sum();
        for batch_size in [1, 7, 1000] {
            if batch_size == 1 && rows > 20_000 {
                continue;
            }
            let s = Selection {
                batch_size,
                ..Selection::default()
            };
            let got: Vec<RecordBatch> = reader
                .batches(&s)
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap_or_else(|e| panic!("{}, batches of {batch_size}: {e}", f.display()));
            assert!(got.iter().all(|b| b.num_rows() <= batch_size));
            assert_eq!(got.iter().map(|b| b.num_rows()).sum::<usize>(), rows);
            for c in 0..reader.schema().fields.len() {
                if rows == 0 {
                    continue;
                }
                assert!(
                    logical_eq(&column(&got, c), &column(&whole, c)),
                    "{}: column {c} in batches of {batch_size}",
                    f.display()
                );
            }
        }
        // On 3 threads with batches larger than the row groups: small row groups are decoded
        // several at once (one per thread), their batches kept in order.
        let parallel = ReadOptions {
            verify_crc: false,
            threads: ThreadPool::new(3).unwrap(),
            ..ReadOptions::default()
        };
        let reader = FileReader::try_new(&bytes, parallel).unwrap();
        let s = Selection {
            batch_size: 100_000,
            ..Selection::default()
        };
        let got: Vec<RecordBatch> = reader
            .batches(&s)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{}, in parallel: {e}", f.display()));
        assert_eq!(got.iter().map(|b| b.num_rows()).sum::<usize>(), rows);
        in_parallel += usize::from(
            reader.num_row_groups() > 1 && whole.iter().all(|b| b.num_rows() <= 100_000),
        );
        for c in 0..reader.schema().fields.len() {
            if rows > 0 {
                assert!(
                    logical_eq(&column(&got, c), &column(&whole, c)),
                    "{}: column {c} with row groups in parallel",
                    f.display()
                );
            }
        }
        // Batches cut so that no byte-array column holds more than 4 KiB of values.
        let limited = ReadOptions {
            verify_crc: false,
            byte_array_limit: 4096,
            ..ReadOptions::default()
        };
        let reader = FileReader::try_new(&bytes, limited).unwrap();
        let s = Selection {
            batch_size: 1000,
            ..Selection::default()
        };
        match reader.batches(&s).unwrap().collect::<Result<Vec<_>, _>>() {
            Ok(got) => {
                let plain = whole
                    .iter()
                    .map(|b| b.num_rows().div_ceil(1000))
                    .sum::<usize>();
                cut_by_limit += usize::from(got.len() > plain);
                for c in 0..reader.schema().fields.len() {
                    if rows > 0 {
                        assert!(
                            logical_eq(&column(&got, c), &column(&whole, c)),
                            "{}: column {c} cut by the byte-array limit",
                            f.display()
                        );
                    }
                }
            }
            // One record holds more than the limit: an error naming the column.
            Err(e) => assert!(
                e.to_string().contains("more than 4096"),
                "{}: {e}",
                f.display()
            ),
        }
        compared += 1;
    }
    assert!(cut_by_limit > 0, "no file was cut by the byte-array limit");
    assert!(
        in_parallel > 0,
        "no file had small row groups to read in parallel"
    );
    compared
}

#[test]
fn official_files_read_in_batches_as_whole() {
    let Some(files) = parquet_files() else { return };
    let compared = compare_batched(&files);
    assert!(compared >= 50, "only {compared} files compared");
}

#[test]
fn pyarrow_matrix_reads_in_batches_as_whole() {
    let (_dir, files) = python_writes("write_matrix.py");
    assert_eq!(compare_batched(&files), files.len());
}
