//! Parquet merging of two different files: the input is two files, the first's length in the
//! first 4 bytes (little-endian; the rest is the second), merged in that order verbatim and
//! coalescing, page CRCs unchecked so mutated pages reach the rewriting code; a merged file is
//! then read back in full. Seeded with pairs that store a decimal column two ways and whose
//! Bloom filters do not unite, so the value conversion and the filter rebuild are reached.
//! Errors are fine; panics, hangs and allocations the input does not justify are bugs.

#![no_main]

use libfuzzer_sys::fuzz_target;
use quiver_arrow::parallel::ThreadPool;
use quiver_parquet::file::merge::{MergeInput, MergeOptions, RowGroupTarget, merge};

fuzz_target!(|data: &[u8]| {
    let Some((len, rest)) = data.split_first_chunk::<4>() else {
        return;
    };
    let len = (u32::from_le_bytes(*len) as usize).min(rest.len());
    let (a, b) = rest.split_at(len);
    let inputs = [
        MergeInput {
            name: "a",
            bytes: a,
            file: None,
        },
        MergeInput {
            name: "b",
            bytes: b,
            file: None,
        },
    ];
    for coalesce in [None, Some(RowGroupTarget::default())] {
        let opts = MergeOptions {
            coalesce,
            threads: ThreadPool::sequential(),
            verify_crc: false,
            ..MergeOptions::default()
        };
        let mut out = Vec::new();
        if merge(&inputs, &mut out, &opts).is_ok() {
            quiver_fuzz::read_parquet(&out);
        }
    }
});
