//! Whole Parquet files read to Arrow: the footer, every page of every column chunk (all
//! encodings and codecs), levels assembled, arrays built and validated, in batches. Errors are
//! fine; panics, hangs and allocations the input does not justify are bugs.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| quiver_fuzz::read_parquet(data));
