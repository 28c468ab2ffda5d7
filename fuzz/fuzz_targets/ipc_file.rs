//! The IPC file format: the bytes are read by `FileReader::from_bytes` (every batch by index,
//! last first, then all through the iterator) and, for comparison, by `FileReader::try_new`
//! over a `Cursor` (every batch by index, twice). Errors are fine; panics, aborts, hangs and
//! unbounded allocations are bugs, and so is a returned batch that fails full validation or
//! that two ways of reading disagree on. Batches are compared as they are read, so that a
//! footer listing one small (compressed) batch thousands of times does not make the harness
//! itself hold them all.

#![no_main]

use bytes::Bytes;
use libfuzzer_sys::fuzz_target;
use quiver_arrow::{RecordBatch, Result};
use quiver_fuzz::{Checker, assert_same_batch};
use quiver_ipc::read::FileReader;

fuzz_target!(|data: &[u8]| {
    let mut checker = Checker::default();
    let Ok(mut a) = FileReader::from_bytes(Bytes::copy_from_slice(data)) else {
        return;
    };
    let Ok(mut b) = FileReader::try_new(std::io::Cursor::new(data)) else {
        panic!("from_bytes read the footer but try_new over a Cursor failed");
    };
    assert_eq!(
        a.schema(),
        b.schema(),
        "the file readers disagree on the schema"
    );
    assert_eq!(a.num_batches(), b.num_batches());
    let _ = (
        a.version(),
        a.custom_metadata().len(),
        a.num_dictionary_batches(),
        a.ipc_schema(),
    );
    let _ = a.dictionaries().map(|d| d.len());
    let n = a.num_batches();
    // By index, last first (the first access is random).
    for i in (0..n).rev() {
        let x = a.batch_with_metadata(i).map(|(batch, _metadata)| batch);
        compare(
            i,
            &mut checker,
            ("from_bytes batch_with_metadata", x),
            ("try_new batch", b.batch(i)),
        );
    }
    // The iterator returns batch 0, 1, … until the first error.
    for (i, x) in a.enumerate() {
        let failed = x.is_err();
        let y = b.batch(i);
        compare(
            i,
            &mut checker,
            ("from_bytes iterator", x),
            ("try_new batch", y),
        );
        if failed {
            break;
        }
    }
});

/// Checks two reads of batch `i`: both fail, or both succeed with valid, equal batches.
fn compare(
    i: usize,
    checker: &mut Checker,
    (wx, x): (&str, Result<RecordBatch>),
    (wy, y): (&str, Result<RecordBatch>),
) {
    match (x, y) {
        (Ok(x), Ok(y)) => {
            checker.check(wx, &x);
            checker.check(wy, &y);
            assert_same_batch(i, (wx, &x), (wy, &y));
        }
        (Err(_), Err(_)) => {}
        (Ok(_), Err(e)) => panic!("batch {i}: {wx} read it, {wy} failed: {e}"),
        (Err(e), Ok(_)) => panic!("batch {i}: {wx} failed, {wy} read it: {e}"),
    }
}
