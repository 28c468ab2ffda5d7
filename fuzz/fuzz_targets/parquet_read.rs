//! Whole Parquet files read to Arrow: the footer, every page of every column chunk (all
//! encodings and codecs), levels assembled, arrays built and validated, in batches. Errors are
//! fine; panics, hangs and allocations the input does not justify are bugs.

#![no_main]

use libfuzzer_sys::fuzz_target;
use quiver_arrow::parallel::ThreadPool;
use quiver_parquet::arrow::options::ReadOptions;
use quiver_parquet::file::{FileReader, Selection};

fuzz_target!(|data: &[u8]| {
    let options = ReadOptions {
        threads: ThreadPool::sequential(),
        // Mutated pages should reach the decoders, not stop at the checksum.
        verify_crc: false,
        ..ReadOptions::default()
    };
    let Ok(reader) = FileReader::try_new(data, options) else {
        return;
    };
    let selection = Selection {
        batch_size: 100,
        ..Selection::default()
    };
    if let Ok(batches) = reader.batches(&selection) {
        // A few bytes may legitimately declare billions of rows (an RLE run); the reader
        // streams them in bounded memory, and 2,000 batches show it does.
        for batch in batches.take(2000) {
            let Ok(batch) = batch else { break };
            for column in batch.columns() {
                let _ = column.validate(quiver_arrow::ValidationLevel::Full);
            }
        }
    }
});
