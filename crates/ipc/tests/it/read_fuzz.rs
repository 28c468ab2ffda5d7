//! Malformed input never panics: the arrow-testing fuzz regression files and thousands of
//! random mutations of gold files must each read as an error or as valid data.

use super::read_common::{ipc_stream_dir, read_file, read_stream};
use bytes::Bytes;
use quiver_arrow::{RecordBatch, Result, SchemaRef, ValidationLevel};
use quiver_ipc::read::StreamDecoder;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Reads `bytes` every way there is (stream, push decoder in small chunks, file) and checks
/// that whatever is returned is valid. `Err(message)` when something panicked or returned
/// invalid data.
fn read_every_way(bytes: &[u8]) -> std::result::Result<(), String> {
    let checked = |what: &str, r: Result<(SchemaRef, Vec<RecordBatch>)>| match r {
        Ok((_, batches)) => batches.iter().enumerate().try_for_each(|(i, b)| {
            b.validate(ValidationLevel::Full)
                .map_err(|e| format!("{what} returned invalid batch {i}: {e}"))
        }),
        Err(_) => Ok(()),
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        checked("stream", read_stream(bytes))?;
        checked("push decoder", push_decode(bytes, 7))?;
        checked("file", read_file(Bytes::copy_from_slice(bytes)))
    }));
    match outcome {
        Ok(r) => r,
        Err(panic) => Err(format!(
            "panicked: {}",
            panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("?")
        )),
    }
}

/// Feeds `bytes` to a [`StreamDecoder`] in chunks of `chunk` bytes.
fn push_decode(bytes: &[u8], chunk: usize) -> Result<(SchemaRef, Vec<RecordBatch>)> {
    let mut d = StreamDecoder::new();
    let mut batches = Vec::new();
    for c in bytes.chunks(chunk) {
        batches.extend(d.feed(Bytes::copy_from_slice(c))?);
    }
    d.finish()?;
    let schema = d.schema().cloned().unwrap_or_default();
    Ok((schema, batches))
}

#[test]
fn fuzz_regression_files_do_not_panic() {
    let Some(dir) = ipc_stream_dir() else { return };
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("clusterfuzz-") || n.starts_with("crash-"))
        .collect();
    names.sort();
    assert!(names.len() > 40, "only {} fuzz files found", names.len());
    let failures: Vec<String> = names
        .iter()
        .filter_map(|n| {
            let bytes = std::fs::read(dir.join(n)).expect("readable");
            read_every_way(&bytes).err().map(|e| format!("{n}: {e}"))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} fuzz files failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A fixed-seed xorshift64 generator.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Gold files to mutate, and how many mutants of each.
const MUTATED: &[(&str, usize)] = &[
    ("1.0.0-littleendian/generated_primitive.stream", 400),
    ("1.0.0-littleendian/generated_nested.arrow_file", 400),
    ("1.0.0-littleendian/generated_dictionary.stream", 300),
    (
        "1.0.0-littleendian/generated_nested_dictionary.arrow_file",
        300,
    ),
    ("1.0.0-littleendian/generated_union.stream", 300),
    ("1.0.0-littleendian/generated_map.arrow_file", 200),
    ("1.0.0-bigendian/generated_interval.stream", 200),
    ("1.0.0-littleendian/generated_recursive_nested.stream", 200),
    ("0.14.1/generated_datetime.stream", 200),
    ("2.0.0-compression/generated_zstd.arrow_file", 250),
    ("2.0.0-compression/generated_lz4.stream", 250),
];

/// One mutant: a few bytes overwritten, sometimes truncated.
fn mutate(original: &[u8], rng: &mut XorShift) -> Vec<u8> {
    let mut m = original.to_vec();
    for _ in 0..1 + rng.below(4) {
        let i = rng.below(m.len());
        m[i] = match rng.below(4) {
            0 => 0xFF,
            1 => 0,
            2 => m[i] ^ (1 << rng.below(8)),
            _ => rng.next() as u8,
        };
    }
    if rng.below(10) == 0 {
        m.truncate(rng.below(m.len()));
    }
    m
}

#[test]
fn mutated_gold_files_do_not_panic() {
    let Some(dir) = ipc_stream_dir() else { return };
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut failures = Vec::new();
    let mut total = 0;
    for &(name, count) in MUTATED {
        let original = std::fs::read(dir.join("integration").join(name)).expect("gold file");
        for k in 0..count {
            let mutant = mutate(&original, &mut rng);
            total += 1;
            if let Err(e) = read_every_way(&mutant) {
                failures.push(format!("{name} mutant {k}: {e}"));
            }
        }
    }
    assert!(total >= 3000, "{total} mutants");
    assert!(
        failures.is_empty(),
        "{} of {total} mutants failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
