//! Parquet merging: the input merged with itself, verbatim and coalescing (with a dictionary
//! limit so small that merged dictionaries fall back to PLAIN), page CRCs unchecked so mutated
//! pages reach the rewriting code; a merged file is then read back in full. Errors are fine;
//! panics, hangs and allocations the input does not justify are bugs.

#![no_main]

use libfuzzer_sys::fuzz_target;
use quiver_arrow::parallel::ThreadPool;
use quiver_parquet::arrow::options::ReadOptions;
use quiver_parquet::file::merge::{MergeInput, MergeOptions, RowGroupTarget, merge};
use quiver_parquet::file::{FileReader, Selection};

fuzz_target!(|data: &[u8]| {
    let inputs = [
        MergeInput {
            name: "a",
            bytes: data,
            file: None,
        },
        MergeInput {
            name: "b",
            bytes: data,
            file: None,
        },
    ];
    for coalesce in [None, Some(RowGroupTarget::default())] {
        let opts = MergeOptions {
            coalesce,
            dictionary_limit: 64,
            threads: ThreadPool::sequential(),
            ..MergeOptions::default()
        };
        let mut out = Vec::new();
        if merge(&inputs, &mut out, &opts).is_err() {
            continue;
        }
        let options = ReadOptions {
            threads: ThreadPool::sequential(),
            verify_crc: false,
            ..ReadOptions::default()
        };
        let Ok(reader) = FileReader::try_new(&out, options) else {
            continue;
        };
        let selection = Selection {
            batch_size: 100,
            ..Selection::default()
        };
        if let Ok(batches) = reader.batches(&selection) {
            for batch in batches.take(2000) {
                let Ok(batch) = batch else { break };
                for column in batch.columns() {
                    let _ = column.validate(quiver_arrow::ValidationLevel::Full);
                }
            }
        }
    }
});
