//! Checks shared by the fuzz targets: whatever a reader returns must be valid and printable.
//!
//! Readers may return errors for malformed input; they must never panic, abort, hang or
//! allocate without bound, and every batch they return must pass
//! [`RecordBatch::validate`] at [`ValidationLevel::Full`] (the readers validate what they
//! return unless the caller opted out with the `unsafe` trusted-input option).

use quiver_arrow::compute::first_difference;
use quiver_arrow::display::{format_value, write_value};
use quiver_arrow::{Array, RecordBatch, ValidationLevel};
use std::fmt;

/// Slots rendered per column: all of them up to this many, else the first and last halves.
/// Valid data can be long without being large (a `Null` column, a struct without children or
/// a run-end encoded column of a few bytes may have 2^62 slots), so rendering every slot
/// would only measure the harness.
const SLOTS_PER_COLUMN: usize = 64;

/// Bytes of text one slot may render to before rendering is cut short: one list slot of valid
/// data may hold billions of `null` children (e.g. a list of `Null`).
const MAX_SLOT_TEXT: usize = 64 << 10;

/// Checks the batches one fuzz input produced, rendering at most [`SLOTS_PER_INPUT`] slots in
/// all (a file footer may list the same small batch thousands of times).
#[derive(Debug)]
pub struct Checker {
    slots_left: usize,
}

/// Slots rendered per fuzz input.
pub const SLOTS_PER_INPUT: usize = 4096;

impl Default for Checker {
    fn default() -> Self {
        Checker {
            slots_left: SLOTS_PER_INPUT,
        }
    }
}

impl Checker {
    /// Asserts that a batch a reader returned is valid, then renders its slots.
    ///
    /// # Panics
    /// When the batch fails full validation (the reader returned invalid data), or when
    /// rendering panics.
    pub fn check(&mut self, what: &str, batch: &RecordBatch) {
        if let Err(e) = batch.validate(ValidationLevel::Full) {
            panic!("{what} returned a batch that fails full validation: {e}");
        }
        for column in batch.columns() {
            self.render_column(column);
        }
    }

    /// Renders (a bounded sample of) the slots of a valid column.
    fn render_column(&mut self, column: &Array) {
        let len = column.len();
        let half = SLOTS_PER_COLUMN / 2;
        let slots: Box<dyn Iterator<Item = usize>> = if len <= SLOTS_PER_COLUMN {
            Box::new(0..len)
        } else {
            Box::new((0..half).chain(len - half..len))
        };
        for i in slots {
            if self.slots_left == 0 {
                return;
            }
            self.slots_left -= 1;
            render_slot(column, i);
        }
    }
}

/// Renders slot `i` with [`write_value`] into a bounded buffer and, when it fits, checks that
/// [`format_value`] (the same rendering into a `String`) agrees.
fn render_slot(column: &Array, i: usize) {
    let mut out = Bounded(String::new());
    if write_value(&mut out, column, i).is_ok() {
        assert_eq!(format_value(column, i), out.0, "slot {i}");
    }
}

/// A `String` that refuses writes beyond [`MAX_SLOT_TEXT`] bytes.
struct Bounded(String);

impl fmt::Write for Bounded {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.0.len() + s.len() > MAX_SLOT_TEXT {
            return Err(fmt::Error);
        }
        self.0.push_str(s);
        Ok(())
    }
}

/// Asserts that batch `n` as read by two readers is the same (logically equal columns).
///
/// # Panics
/// When the batches differ.
pub fn assert_same_batch(n: usize, a: (&str, &RecordBatch), b: (&str, &RecordBatch)) {
    let ((wa, x), (wb, y)) = (a, b);
    assert_eq!(
        x.num_rows(),
        y.num_rows(),
        "batch {n}: {wa} and {wb} disagree on the number of rows"
    );
    assert_eq!(
        x.num_columns(),
        y.num_columns(),
        "batch {n}: {wa} and {wb} disagree on the number of columns"
    );
    for (j, (cx, cy)) in x.columns().iter().zip(y.columns()).enumerate() {
        if let Some(d) = first_difference(cx, cy) {
            panic!("batch {n}, column {j}: {wa} and {wb} disagree: {d}");
        }
    }
}

/// A cheap hash of the input (FNV-1a), used to choose chunk boundaries deterministically.
pub fn hash(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Reads a Parquet file as the `parquet_read` target does: CRC checks off (mutated pages
/// reach the decoders), batches of 100 rows, at most 2,000 batches (a few bytes may declare
/// billions of rows, which the reader streams in bounded memory), every column validated in
/// full. Errors end the read.
pub fn read_parquet(data: &[u8]) {
    use quiver_arrow::parallel::ThreadPool;
    use quiver_parquet::arrow::options::ReadOptions;
    use quiver_parquet::file::{FileReader, Selection};
    let options = ReadOptions {
        threads: ThreadPool::sequential(),
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
        for batch in batches.take(2000) {
            let Ok(batch) = batch else { break };
            for column in batch.columns() {
                let _ = column.validate(ValidationLevel::Full);
            }
        }
    }
}
