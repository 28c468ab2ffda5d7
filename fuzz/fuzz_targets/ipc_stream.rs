//! The IPC streaming format: the bytes are read by `StreamReader` (pull, over `&[u8]`) and by
//! `StreamDecoder` (push, in three chunks whose boundaries and alignment depend on the input).
//! Errors are fine; panics, aborts, hangs and unbounded allocations are bugs, and so is a
//! returned batch that fails full validation or that the two readers disagree on. Batches are
//! compared as they are decoded (the pull reader follows the push decoder chunk by chunk), so
//! that the harness holds at most one chunk's batches.

#![no_main]

use bytes::Bytes;
use libfuzzer_sys::fuzz_target;
use quiver_arrow::RecordBatch;
use quiver_fuzz::{Checker, assert_same_batch, hash};
use quiver_ipc::read::{StreamDecoder, StreamReader};

fuzz_target!(|data: &[u8]| {
    let mut checker = Checker::default();
    let mut pull = Pull::new(data);
    let mut decoder = StreamDecoder::new();
    let mut pushed = 0;
    let mut push_complete = true;
    for chunk in chunks(data) {
        match decoder.feed(chunk) {
            Ok(batches) => {
                for batch in &batches {
                    checker.check("StreamDecoder", batch);
                    pull.compare(pushed, batch, &mut checker);
                    pushed += 1;
                }
            }
            Err(_) => {
                push_complete = false;
                break;
            }
        }
    }
    push_complete &= decoder.finish().is_ok();
    if let (Some(reader), Some(schema)) = (&pull.reader, decoder.schema()) {
        assert_eq!(
            reader.schema(),
            schema,
            "StreamReader and StreamDecoder disagree on the schema"
        );
    }
    // Read the rest with the pull reader.
    while let Some(batch) = pull.next(&mut checker) {
        drop(batch);
    }
    if pull.complete && push_complete {
        assert_eq!(
            pull.read, pushed,
            "both readers succeeded with different numbers of batches"
        );
    }
});

/// `StreamReader` over the input, read as far as the push decoder got.
struct Pull<'a> {
    reader: Option<StreamReader<&'a [u8]>>,
    /// Batches read so far.
    read: usize,
    /// True once the reader reached the end without error.
    complete: bool,
}

impl<'a> Pull<'a> {
    fn new(data: &'a [u8]) -> Self {
        let reader = StreamReader::try_new(data).ok();
        if let Some(r) = &reader {
            let _ = (r.custom_metadata().len(), r.ipc_schema());
        }
        Pull {
            reader,
            read: 0,
            complete: false,
        }
    }

    /// The next batch, checked; `None` at the end or after an error.
    fn next(&mut self, checker: &mut Checker) -> Option<RecordBatch> {
        let reader = self.reader.as_mut()?;
        match reader.next_batch() {
            Ok(Some(batch)) => {
                checker.check("StreamReader", &batch);
                let _ = (reader.batch_metadata().len(), reader.dictionaries().len());
                self.read += 1;
                Some(batch)
            }
            Ok(None) => {
                // After the end the reader keeps returning `None`.
                assert!(matches!(reader.next_batch(), Ok(None)));
                self.complete = true;
                self.reader = None;
                None
            }
            Err(_) => {
                self.reader = None;
                None
            }
        }
    }

    /// Compares batch `n` of the push decoder with the pull reader's (when it has one).
    fn compare(&mut self, n: usize, pushed: &RecordBatch, checker: &mut Checker) {
        if let Some(pulled) = self.next(checker) {
            assert_same_batch(n, ("StreamReader", &pulled), ("StreamDecoder", pushed));
        }
    }
}

/// `data` in three chunks (some possibly empty) at boundaries chosen by a hash of the input,
/// each copied to its own allocation starting 0 to 7 bytes past an 8-byte boundary, so that
/// both the zero-copy path (a message within one chunk, possibly misaligned) and the
/// gathering path (a message split over chunks) run.
fn chunks(data: &[u8]) -> Vec<Bytes> {
    let h = hash(data);
    let len = data.len() as u64;
    let a = (h % (len + 1)) as usize;
    let b = a + ((h >> 21) % (len - a as u64 + 1)) as usize;
    let shift = (h >> 61) as usize; // 0..8
    [&data[..a], &data[a..b], &data[b..]]
        .into_iter()
        .map(|c| {
            let mut v = vec![0u8; shift];
            v.extend_from_slice(c);
            Bytes::from(v).slice(shift..)
        })
        .collect()
}
