//! Inputs the fuzz targets in `fuzz/` found (minimised with `cargo fuzz tmin`), and smaller
//! hand-made inputs with the same root cause, replayed as ordinary tests (DESIGN.md §7). Each
//! is read every way (stream, push decoder in chunks, file over `Bytes` and over a `Cursor`)
//! and must give its expected outcome without panicking; batches that read must be valid.
//!
//! To add a case, see `fuzz/README.md` ("When it finds a bug").

use bytes::Bytes;
use quiver_arrow::{RecordBatch, Result, ValidationLevel};
use quiver_ipc::read::{FileReader, StreamDecoder, StreamReader};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What reading an input must give.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// This many batches, each valid.
    Batches(usize),
    /// An error whose text contains this phrase.
    Error(&'static str),
}

/// One input and what each format makes of it.
struct Case {
    name: &'static str,
    bytes: &'static [u8],
    /// Read as a stream, by `StreamReader` and by `StreamDecoder`.
    stream: Expect,
    /// Read as a file, by `FileReader` (every batch by index, then through the iterator).
    file: Expect,
}

const CASES: &[Case] = &[
    // Controls: the unpatched inputs of the hand-made cases below read as valid data.
    Case {
        name: "control_stream_empty_schema",
        bytes: STREAM_EMPTY_SCHEMA,
        stream: Expect::Batches(0),
        file: Expect::Error(""),
    },
    Case {
        name: "control_file_empty_schema",
        bytes: FILE_EMPTY_SCHEMA,
        stream: Expect::Error(""),
        file: Expect::Batches(0),
    },
    // ipc_file crash-67a7d485: a record batch message with metadata version 0x7FFF (V32768):
    // `check_version` computed `version + 1` in i16 for its message and overflowed.
    Case {
        name: "fuzz_file_batch_version_i16_max",
        bytes: FUZZ_FILE_BATCH_VERSION_I16_MAX,
        stream: Expect::Error(""),
        file: Expect::Error("record batch 0: metadata version 32768 is newer than V5"),
    },
    // The same as a 64-byte stream: the schema message says version 0x7FFF.
    Case {
        name: "stream_schema_version_i16_max",
        bytes: STREAM_SCHEMA_VERSION_I16_MAX,
        stream: Expect::Error("metadata version 32768 is newer than V5"),
        file: Expect::Error(""),
    },
    // A negative message version (-1) was reported as "newer than V5" (as version 0).
    Case {
        name: "stream_schema_version_negative",
        bytes: STREAM_SCHEMA_VERSION_NEGATIVE,
        stream: Expect::Error("invalid metadata version: enum value -1"),
        file: Expect::Error(""),
    },
    // A file whose footer says version -1: the footer check only rejected versions above V5,
    // and `FileReader::version` then computed `-1 as u16 + 1` and overflowed.
    Case {
        name: "file_footer_version_negative",
        bytes: FILE_FOOTER_VERSION_NEGATIVE,
        stream: Expect::Error(""),
        file: Expect::Error("invalid metadata version: enum value -1"),
    },
];

#[test]
fn fuzz_regressions_read_as_expected() {
    let failures: Vec<String> = CASES
        .iter()
        .flat_map(|case| {
            let ways: [(&str, Expect, ReadFn); 4] = [
                ("StreamReader", case.stream, read_stream),
                ("StreamDecoder", case.stream, read_pushed),
                ("FileReader::from_bytes", case.file, read_file_bytes),
                ("FileReader::try_new", case.file, read_file_seek),
            ];
            ways.into_iter().filter_map(|(way, expect, read)| {
                check(case.bytes, expect, read)
                    .err()
                    .map(|e| format!("{} ({way}): {e}", case.name))
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} reads failed:\n{}",
        failures.len(),
        CASES.len() * 4,
        failures.join("\n")
    );
}

/// One way of reading every batch of an input.
type ReadFn = fn(&[u8]) -> Result<Vec<RecordBatch>>;

/// Reads `bytes` with `read`, catching panics, and compares the outcome with `expect`.
fn check(bytes: &[u8], expect: Expect, read: ReadFn) -> std::result::Result<(), String> {
    let outcome = catch_unwind(AssertUnwindSafe(|| read(bytes))).map_err(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("?");
        format!("panicked: {message}")
    })?;
    match (outcome, expect) {
        (Ok(batches), Expect::Batches(n)) if batches.len() == n => {
            batches.iter().enumerate().try_for_each(|(i, b)| {
                b.validate(ValidationLevel::Full)
                    .map_err(|e| format!("batch {i} is invalid: {e}"))
            })
        }
        (Err(e), Expect::Error(phrase)) if e.to_string().contains(phrase) => Ok(()),
        (Ok(batches), expect) => Err(format!(
            "expected {expect:?}, read {} batches",
            batches.len()
        )),
        (Err(e), expect) => Err(format!("expected {expect:?}, got the error: {e}")),
    }
}

/// Every batch through `StreamReader`, touching its metadata accessors on the way.
fn read_stream(bytes: &[u8]) -> Result<Vec<RecordBatch>> {
    let mut reader = StreamReader::try_new(bytes)?;
    let _ = (reader.custom_metadata().len(), reader.dictionaries().len());
    let mut batches = Vec::new();
    while let Some(batch) = reader.next_batch()? {
        let _ = reader.batch_metadata().len();
        batches.push(batch);
    }
    Ok(batches)
}

/// Every batch through `StreamDecoder`, fed in chunks of 5 bytes (a message split over chunks).
fn read_pushed(bytes: &[u8]) -> Result<Vec<RecordBatch>> {
    let mut decoder = StreamDecoder::new();
    let mut batches = Vec::new();
    for chunk in bytes.chunks(5) {
        batches.extend(decoder.feed(Bytes::copy_from_slice(chunk))?);
    }
    decoder.finish()?;
    Ok(batches)
}

/// Every batch of a file over `Bytes`: by index (last first), then through the iterator.
fn read_file_bytes(bytes: &[u8]) -> Result<Vec<RecordBatch>> {
    let mut reader = FileReader::from_bytes(Bytes::copy_from_slice(bytes))?;
    let _ = (
        reader.version(),
        reader.custom_metadata().len(),
        reader.num_dictionary_batches(),
    );
    for i in (0..reader.num_batches()).rev() {
        reader.batch_with_metadata(i)?;
    }
    reader.collect()
}

/// Every batch of a file over `Read + Seek`, by index.
fn read_file_seek(bytes: &[u8]) -> Result<Vec<RecordBatch>> {
    let mut reader = FileReader::try_new(std::io::Cursor::new(bytes))?;
    let _ = reader.version();
    (0..reader.num_batches()).map(|i| reader.batch(i)).collect()
}

/// `fuzz/artifacts/ipc_file/minimized-from-15de8ccc…` (from crash-67a7d485…), 626 bytes.
const FUZZ_FILE_BATCH_VERSION_I16_MAX: &[u8] = b"\x41\x52\x52\x4f\x57\x31\x00\x00\x94\x00\x00\x00\x10\x00\x00\x00\x00\x00\x0a\x00\x0e\x00\x06\x00\
    \x0d\x00\x08\x00\x0a\x00\x00\x00\x00\x00\x03\x00\x10\x00\x00\x00\x00\x01\x0a\x00\x0c\x00\x00\x00\
    \x08\x00\x04\x00\x0a\x00\x00\x00\x08\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\
    \x18\x00\x00\x00\x00\x00\x12\x00\x18\x00\x14\x00\x13\x00\x12\x00\x0c\x00\x00\x00\x08\xfc\x03\x00\
    \x12\x00\x00\x00\x14\x00\x00\x00\x14\x00\x00\x00\x1c\x00\x00\x00\x00\x00\x07\x01\x20\x00\x00\x00\
    \x00\x00\x00\x00\x00\x00\x00\x00\x08\x00\x0c\x00\x08\x00\x04\x00\x08\x00\x00\x00\x02\x00\x00\x00\
    \x03\x00\x00\x00\x02\x00\x00\x00\x66\x30\x00\x00\x00\x00\x00\x00\x8c\x00\x00\x00\x14\x00\x00\x00\
    \x00\x00\x00\x00\x0c\x00\x16\x00\x0e\x00\x15\x00\x10\x00\x04\x00\x0c\x00\x00\x00\x78\x00\x00\x80\
    \xff\xff\xff\xff\xff\xff\xff\x7f\x32\x67\x56\xd9\x7f\xa9\xd1\x94\x37\xf9\x21\x4a\x41\x37\x69\x9c\
    \x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\
    \xff\xff\xff\xff\xff\xff\xff\x7f\x00\x00\x00\x00\x00\x00\xed\xb6\x64\x89\x98\xbe\x49\xb1\xbe\x88\
    \x83\xcd\x88\x4d\x1a\x0c\x00\x00\x00\x00\x00\x00\x00\x00\x0f\x40\x04\x66\xb9\x3b\x7d\xd6\x00\x00\
    \x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x02\x00\x00\x00\x66\x30\x00\x00\x00\x00\
    \x00\x00\x8c\x00\x00\x14\x00\x00\x00\x00\x00\x00\x00\x0c\x00\x16\x00\x00\x00\x00\x00\x00\xcb\xb8\
    \xff\xff\xff\xff\xff\xff\xff\x00\x00\x2b\x00\x00\x00\x00\x00\x00\x00\x2b\x00\x00\x00\x00\x00\x00\
    \x00\x2b\x00\x00\x00\x00\x00\x00\x00\x2e\x00\x00\x00\x08\x00\x0c\x00\x08\x00\x04\x00\x08\x00\x00\
    \x00\x02\x00\x00\x00\x03\x00\x00\x00\x02\x00\x00\x00\x66\x35\x00\x00\xc0\x00\x00\x00\x41\x52\x52\
    \x4f\x57\x31\x00\x0c\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x14\x00\x00\x00\x00\x00\x00\x00\
    \x0c\x00\x10\x00\x00\x00\x0c\x00\x08\x00\x04\x00\x0c\x00\x00\x00\x0c\x00\x00\x00\x28\x00\x00\x00\
    \x38\x00\x00\x00\x01\x00\x00\x00\xa0\x00\x00\x00\x00\x00\x00\x00\x90\x00\x00\x00\x00\x00\x00\x00\
    \x78\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x0a\x00\
    \x0c\x00\x00\x00\x08\x00\x04\x00\x0a\x00\x00\x00\x08\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00\x00\
    \x01\x00\x00\x00\x18\x00\x00\x00\x00\x00\x12\x00\x18\x00\x14\x00\x13\x00\x12\x00\x0c\x00\x00\x00\
    \x08\x00\x04\x00\x12\x00\x00\x00\x14\x00\x00\x00\x14\x00\x00\x00\x1c\x00\x00\x00\x00\x00\x07\x01\
    \x20\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x08\x00\x0c\x00\x08\x00\x04\x00\x08\x00\x00\x00\
    \x02\x00\x00\x00\x03\x00\x00\x00\x02\x00\x00\x00\x66\x35\x00\x00\xc0\x00\x00\x00\x41\x52\x52\x4f\
    \x57\x31";

/// An empty-schema stream written by pyarrow 26 (`ipc.new_stream(sink, pa.schema([]))`).
const STREAM_EMPTY_SCHEMA: &[u8] = b"\xff\xff\xff\xff\x30\x00\x00\x00\x10\x00\x00\x00\x00\x00\x0a\x00\x0c\x00\x06\x00\x05\x00\x08\x00\
    \x0a\x00\x00\x00\x00\x01\x04\x00\x0c\x00\x00\x00\x08\x00\x08\x00\x00\x00\x04\x00\x08\x00\x00\x00\
    \x04\x00\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff\x00\x00\x00\x00";

/// An empty-schema file written by pyarrow 26 (`ipc.new_file(sink, pa.schema([]))`).
const FILE_EMPTY_SCHEMA: &[u8] = b"\x41\x52\x52\x4f\x57\x31\x00\x00\xff\xff\xff\xff\x30\x00\x00\x00\x10\x00\x00\x00\x00\x00\x0a\x00\
    \x0c\x00\x06\x00\x05\x00\x08\x00\x0a\x00\x00\x00\x00\x01\x04\x00\x0c\x00\x00\x00\x08\x00\x08\x00\
    \x00\x00\x04\x00\x08\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff\x00\x00\x00\x00\
    \x10\x00\x00\x00\x0c\x00\x14\x00\x06\x00\x08\x00\x0c\x00\x10\x00\x0c\x00\x00\x00\x00\x00\x04\x00\
    \x1c\x00\x00\x00\x0c\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x08\x00\x08\x00\
    \x00\x00\x04\x00\x08\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\x40\x00\x00\x00\x41\x52\x52\x4f\
    \x57\x31";

/// An empty-schema stream written by pyarrow, its schema message's version set to 0x7FFF.
const STREAM_SCHEMA_VERSION_I16_MAX: &[u8] = b"\xff\xff\xff\xff\x30\x00\x00\x00\x10\x00\x00\x00\x00\x00\x0a\x00\x0c\x00\x06\x00\x05\x00\x08\x00\
    \x0a\x00\x00\x00\x00\x01\xff\x7f\x0c\x00\x00\x00\x08\x00\x08\x00\x00\x00\x04\x00\x08\x00\x00\x00\
    \x04\x00\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff\x00\x00\x00\x00";

/// An empty-schema stream written by pyarrow, its schema message's version set to -1.
const STREAM_SCHEMA_VERSION_NEGATIVE: &[u8] = b"\xff\xff\xff\xff\x30\x00\x00\x00\x10\x00\x00\x00\x00\x00\x0a\x00\x0c\x00\x06\x00\x05\x00\x08\x00\
    \x0a\x00\x00\x00\x00\x01\xff\xff\x0c\x00\x00\x00\x08\x00\x08\x00\x00\x00\x04\x00\x08\x00\x00\x00\
    \x04\x00\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff\x00\x00\x00\x00";

/// An empty-schema file written by pyarrow, its footer's version set to -1.
const FILE_FOOTER_VERSION_NEGATIVE: &[u8] = b"\x41\x52\x52\x4f\x57\x31\x00\x00\xff\xff\xff\xff\x30\x00\x00\x00\x10\x00\x00\x00\x00\x00\x0a\x00\
    \x0c\x00\x06\x00\x05\x00\x08\x00\x0a\x00\x00\x00\x00\x01\x04\x00\x0c\x00\x00\x00\x08\x00\x08\x00\
    \x00\x00\x04\x00\x08\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff\x00\x00\x00\x00\
    \x10\x00\x00\x00\x0c\x00\x14\x00\x06\x00\x08\x00\x0c\x00\x10\x00\x0c\x00\x00\x00\x00\x00\xff\xff\
    \x1c\x00\x00\x00\x0c\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x08\x00\x08\x00\
    \x00\x00\x04\x00\x08\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\x40\x00\x00\x00\x41\x52\x52\x4f\
    \x57\x31";
