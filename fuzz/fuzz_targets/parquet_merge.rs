//! Parquet merging: the input merged with itself three times, verbatim and coalescing (with a
//! dictionary limit so small that merged dictionaries fall back to PLAIN, and the third copy's
//! pages are written PLAIN from its dictionary pages where they can be), page CRCs unchecked so
//! mutated pages reach the rewriting code; a merged file is then read back in full. Errors are fine;
//! panics, hangs and allocations the input does not justify are bugs.

#![no_main]

use libfuzzer_sys::fuzz_target;
use quiver_arrow::parallel::ThreadPool;
use quiver_parquet::file::merge::{MergeInput, MergeOptions, RowGroupTarget, merge};

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
        MergeInput {
            name: "c",
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
        if merge(&inputs, &mut out, &opts).is_ok() {
            quiver_fuzz::read_parquet(&out);
        }
    }
});
