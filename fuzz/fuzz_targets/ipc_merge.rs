//! Arrow IPC file merging: the input merged with itself (`quiver_ipc::merge::merge`, with and
//! without full validation of the record batches), the merged file then read back, every
//! batch validated in full. Errors are fine; panics, hangs and allocations the input does not
//! justify are bugs, and so is a merged file that quiver's reader rejects or whose batch
//! fails validation when the merge validated every batch of its inputs.

#![no_main]

use bytes::Bytes;
use libfuzzer_sys::fuzz_target;
use quiver_ipc::merge::{MergeInput, MergeOptions, merge};
use quiver_ipc::read::FileReader;

fuzz_target!(|data: &[u8]| {
    let bytes = Bytes::copy_from_slice(data);
    let inputs = [
        MergeInput::new("a", bytes.clone()),
        MergeInput::new("b", bytes),
    ];
    for full in [false, true] {
        let opts = MergeOptions::new().with_full_validation(full);
        let Ok((out, _)) = merge(&inputs, Vec::new(), &opts) else {
            continue;
        };
        let reader = FileReader::from_bytes(Bytes::from(out));
        let Ok(mut reader) = reader else {
            assert!(!full, "a validated merge wrote a file its reader rejects");
            continue;
        };
        for i in 0..reader.num_batches().min(2000) {
            match reader.batch(i) {
                Ok(batch) => {
                    let valid = batch.validate(quiver_arrow::ValidationLevel::Full);
                    assert!(!full || valid.is_ok(), "batch {i}: {valid:?}");
                }
                Err(e) => assert!(!full, "batch {i} of a validated merge: {e}"),
            }
        }
    }
});
