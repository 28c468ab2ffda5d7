//! The operations with quiver (`quiver-arrow`, `quiver-ipc`).

use crate::{Measured, Op, timed};
use anyhow::{Context, Result, bail};
use bytes::Bytes;
use quiver_arrow::{RecordBatch, SchemaRef};
use quiver_ipc::Codec;
use quiver_ipc::read::{FileReader, ReadOptions, StreamReader};
use quiver_ipc::write::{FileWriter, PreallocatedFile, StreamWriter, WriteOptions};
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::Path;
use std::time::Instant;

/// Performs `op` on `input` (writing `output`), timing only the operation.
pub fn run(op: Op, input: &Path, output: Option<&Path>, threads: usize) -> Result<Measured> {
    match op {
        Op::WriteFileNone => write(input, output, None, false),
        Op::WriteFileLz4 => write(input, output, Some(Codec::Lz4Frame), false),
        Op::WriteFileZstd => write(input, output, Some(Codec::Zstd), false),
        Op::WriteStream => write(input, output, None, true),
        Op::ReadFileSeek => timed(
            || {
                let mut r = FileReader::try_new(File::open(input)?)?;
                (0..r.num_batches())
                    .map(|i| r.batch(i).with_context(|| format!("batch {i}")))
                    .collect()
            },
            totals,
        ),
        Op::ReadStream => timed(
            || {
                let mut r = StreamReader::try_new(BufReader::new(File::open(input)?))?;
                let mut out = Vec::new();
                while let Some(b) = r.next_batch()? {
                    out.push(b);
                }
                Ok(out)
            },
            totals,
        ),
        Op::ReadMmapValidated => timed(|| read_mmap(input, threads, true), totals),
        Op::ReadMmapUnvalidated => timed(|| read_mmap(input, threads, false), totals),
        Op::ReadFileLz4T1 | Op::ReadFileLz4T2 | Op::ReadFileZstdT1 | Op::ReadFileZstdT2 => {
            timed(|| read_mmap(input, threads, true), totals)
        }
        other => bail!("{} is not an IPC operation", other.name()),
    }
}

/// Rows, batches, columns and in-memory bytes of `batches`.
pub fn totals(batches: &[RecordBatch]) -> Measured {
    Measured {
        seconds: 0.0,
        bytes: batches.iter().map(|b| b.buffer_bytes() as u64).sum(),
        rows: batches.iter().map(|b| b.num_rows() as u64).sum(),
        batches: batches.len() as u64,
        columns: batches.first().map_or(0, |b| b.num_columns() as u64),
        repeats: 1,
        loaded_rss_kb: 0,
        cpu: None,
    }
}

/// Maps `path` (zero-copy: every uncompressed buffer points into the map). The Parquet
/// operations of both implementations read through it too.
pub fn map(path: &Path) -> Result<Bytes> {
    let file = File::open(path).with_context(|| path.display().to_string())?;
    // SAFETY: the benchmark's data files are not modified while they are mapped.
    let map = unsafe { memmap2::Mmap::map(&file)? };
    Ok(Bytes::from_owner(map))
}

/// Reads every batch of the IPC file at `path` from a memory map on `threads` threads (batch
/// `i` on thread `i % threads`, each thread with its own reader over the shared map).
fn read_mmap(path: &Path, threads: usize, validate: bool) -> Result<Vec<RecordBatch>> {
    let bytes = map(path)?;
    // Decompression stays on the reading thread: `threads` alone decides how many cores work.
    let options = ReadOptions::new().with_parallel_decompression(false);
    let options = if validate {
        options
    } else {
        // SAFETY: the benchmark's inputs were written by quiver or pyarrow and pass full
        // validation (the validated operations check the same files).
        unsafe { options.with_trusted_input() }
    };
    let reader = FileReader::from_bytes_with_options(bytes.clone(), options.clone())?;
    if threads <= 1 {
        let mut reader = reader;
        return (0..reader.num_batches())
            .map(|i| reader.batch(i).with_context(|| format!("batch {i}")))
            .collect();
    }
    let n = reader.num_batches();
    drop(reader);
    let parts: Vec<Result<Vec<(usize, RecordBatch)>>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (bytes, options) = (bytes.clone(), options.clone());
                s.spawn(move || -> Result<Vec<(usize, RecordBatch)>> {
                    let mut r = FileReader::from_bytes_with_options(bytes, options)?;
                    (t..n)
                        .step_by(threads)
                        .map(|i| Ok((i, r.batch(i).with_context(|| format!("batch {i}"))?)))
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| bail!("a reading thread panicked"))
            })
            .collect()
    });
    let mut slots: Vec<Option<RecordBatch>> = vec![None; n];
    for part in parts {
        for (i, b) in part? {
            slots[i] = Some(b);
        }
    }
    slots
        .into_iter()
        .enumerate()
        .map(|(i, b)| b.with_context(|| format!("batch {i} was not read")))
        .collect()
}

/// Loads every batch of the IPC file `input` into memory (read whole, not mapped), then times
/// writing them to `output` as a file (or a stream), including the final flush and close.
fn write(
    input: &Path,
    output: Option<&Path>,
    codec: Option<Codec>,
    stream: bool,
) -> Result<Measured> {
    let output = output.context("--output is required")?;
    let (schema, batches) = load(input)?;
    let options = WriteOptions::new().with_compression(codec);
    let t = Instant::now();
    // quiver's file sink: disk space reserved ahead of the data (`PreallocatedFile`).
    let sink = BufWriter::new(PreallocatedFile::new(File::create(output)?));
    let sink = if stream {
        let mut w = StreamWriter::try_new(sink, &schema, options)?;
        for b in &batches {
            w.write(b)?;
        }
        w.finish()?
    } else {
        let mut w = FileWriter::try_new(sink, &schema, options)?;
        for b in &batches {
            w.write(b)?;
        }
        w.finish()?
    };
    let mut file = sink.into_inner().map_err(|e| e.into_error())?.finish()?;
    file.flush()?;
    drop(file);
    let mut m = totals(&batches);
    m.seconds = t.elapsed().as_secs_f64();
    Ok(m)
}

/// Every batch of the IPC file at `path`, over a copy of the file in memory.
pub fn load(path: &Path) -> Result<(SchemaRef, Vec<RecordBatch>)> {
    let bytes = Bytes::from(std::fs::read(path).with_context(|| path.display().to_string())?);
    let mut r = FileReader::from_bytes(bytes)?;
    let batches = (0..r.num_batches())
        .map(|i| r.batch(i))
        .collect::<quiver_arrow::Result<Vec<_>>>()?;
    Ok((r.schema().clone(), batches))
}
