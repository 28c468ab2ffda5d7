//! The operations with arrow-rs (the crates.io `arrow` crate).

use crate::{Measured, Op, timed};
use anyhow::{Context, Result, bail};
use arrow::array::{Array, ArrayData, RecordBatch};
use arrow::buffer::Buffer;
use arrow::datatypes::SchemaRef;
use arrow::ipc::reader::{FileDecoder, FileReader, StreamReader, read_footer_length};
use arrow::ipc::writer::{FileWriter, IpcWriteOptions, StreamWriter};
use arrow::ipc::{Block, CompressionType, convert::try_fb_to_schema, root_as_footer};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// Performs `op` on `input` (writing `output`), timing only the operation.
pub fn run(op: Op, input: &Path, output: Option<&Path>, threads: usize) -> Result<Measured> {
    match op {
        Op::WriteFileNone => write(input, output, None, false),
        Op::WriteFileLz4 => write(input, output, Some(CompressionType::LZ4_FRAME), false),
        Op::WriteFileZstd => write(input, output, Some(CompressionType::ZSTD), false),
        Op::WriteStream => write(input, output, None, true),
        // Validation is on by default in arrow-rs readers (`ArrayDataBuilder::build` checks
        // offsets, UTF-8, dictionary keys… of every array).
        Op::ReadFileSeek => timed(
            || {
                let r = FileReader::try_new(File::open(input)?, None)?;
                Ok(r.collect::<Result<Vec<_>, _>>()?)
            },
            totals,
        ),
        Op::ReadStream => timed(
            || {
                let r = StreamReader::try_new_buffered(File::open(input)?, None)?;
                Ok(r.collect::<Result<Vec<_>, _>>()?)
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
        bytes: batches
            .iter()
            .flat_map(|b| b.columns())
            .map(|c| data_bytes(&c.to_data()))
            .sum(),
        rows: batches.iter().map(|b| b.num_rows() as u64).sum(),
        batches: batches.len() as u64,
        columns: batches.first().map_or(0, |b| b.num_columns() as u64),
        repeats: 1,
        loaded_rss_kb: 0,
        cpu: None,
    }
}

/// Bytes of the buffers an array refers to (lengths, not capacities: a zero-copy buffer's
/// capacity is the whole memory map).
fn data_bytes(d: &ArrayData) -> u64 {
    let own: usize = d.buffers().iter().map(Buffer::len).sum();
    let nulls = d.nulls().map_or(0, |n| n.buffer().len());
    (own + nulls) as u64 + d.child_data().iter().map(data_bytes).sum::<u64>()
}

/// Maps `path` into an arrow [`Buffer`] (zero-copy).
fn map(path: &Path) -> Result<Buffer> {
    let file = File::open(path).with_context(|| path.display().to_string())?;
    // SAFETY: the benchmark's data files are not modified while they are mapped.
    let map = unsafe { memmap2::Mmap::map(&file)? };
    Ok(Buffer::from(bytes::Bytes::from_owner(map)))
}

/// A [`FileDecoder`] over the footer of the IPC file in `buf`, with the dictionaries read, and
/// the record batch blocks.
fn decoder(buf: &Buffer, validate: bool) -> Result<(FileDecoder, Vec<Block>)> {
    if buf.len() < 10 {
        bail!("not an Arrow IPC file: {} bytes", buf.len());
    }
    let trailer = buf.len() - 10;
    let footer_len = read_footer_length(buf[trailer..].try_into()?)?;
    let start = trailer
        .checked_sub(footer_len)
        .context("footer longer than the file")?;
    let footer = root_as_footer(&buf[start..trailer]).map_err(|e| anyhow::anyhow!("{e}"))?;
    let schema = try_fb_to_schema(footer.schema().context("footer without a schema")?)?;
    let mut decoder = FileDecoder::new(Arc::new(schema), footer.version());
    if !validate {
        // SAFETY: the benchmark's inputs were written by quiver or pyarrow and pass full
        // validation (the validated operations check the same files).
        decoder = unsafe { decoder.with_skip_validation(true) };
    }
    for block in footer.dictionaries().iter().flatten() {
        let data = block_data(buf, block);
        decoder.read_dictionary(block, &data)?;
    }
    let blocks = footer
        .recordBatches()
        .context("footer without record batches")?
        .iter()
        .copied()
        .collect();
    Ok((decoder, blocks))
}

/// The message of `block` (metadata and body), zero-copy.
fn block_data(buf: &Buffer, block: &Block) -> Buffer {
    let len = block.metaDataLength() as usize + block.bodyLength() as usize;
    buf.slice_with_length(block.offset() as usize, len)
}

/// Reads every batch of the IPC file at `path` from a memory map with `FileDecoder` on
/// `threads` threads (batch `i` on thread `i % threads`, each thread with its own decoder over
/// the shared map).
fn read_mmap(path: &Path, threads: usize, validate: bool) -> Result<Vec<RecordBatch>> {
    let buf = map(path)?;
    let read_one = |decoder: &FileDecoder, i: usize, block: &Block| -> Result<RecordBatch> {
        decoder
            .read_record_batch(block, &block_data(&buf, block))?
            .with_context(|| format!("block {i} holds no record batch"))
    };
    if threads <= 1 {
        let (decoder, blocks) = decoder(&buf, validate)?;
        return blocks
            .iter()
            .enumerate()
            .map(|(i, b)| read_one(&decoder, i, b))
            .collect();
    }
    let parts: Vec<Result<Vec<(usize, RecordBatch)>>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (buf, read_one) = (&buf, &read_one);
                s.spawn(move || -> Result<Vec<(usize, RecordBatch)>> {
                    let (decoder, blocks) = decoder(buf, validate)?;
                    (t..blocks.len())
                        .step_by(threads)
                        .map(|i| Ok((i, read_one(&decoder, i, &blocks[i])?)))
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
    let mut slots: Vec<Option<RecordBatch>> = Vec::new();
    for part in parts {
        for (i, b) in part? {
            if slots.len() <= i {
                slots.resize(i + 1, None);
            }
            slots[i] = Some(b);
        }
    }
    slots
        .into_iter()
        .enumerate()
        .map(|(i, b)| b.with_context(|| format!("batch {i} was not read")))
        .collect()
}

/// Loads every batch of the IPC file `input` into memory (read through `File`, not mapped),
/// then times writing them to `output` as a file (or a stream), including the final flush and
/// close.
fn write(
    input: &Path,
    output: Option<&Path>,
    codec: Option<CompressionType>,
    stream: bool,
) -> Result<Measured> {
    let output = output.context("--output is required")?;
    let (schema, batches) = load(input)?;
    let options = IpcWriteOptions::default().try_with_compression(codec)?;
    let t = Instant::now();
    let sink = BufWriter::new(File::create(output)?);
    let sink = if stream {
        let mut w = StreamWriter::try_new_with_options(sink, &schema, options)?;
        for b in &batches {
            w.write(b)?;
        }
        w.finish()?;
        w.into_inner()?
    } else {
        let mut w = FileWriter::try_new_with_options(sink, &schema, options)?;
        for b in &batches {
            w.write(b)?;
        }
        w.finish()?;
        w.into_inner()?
    };
    let mut file = sink.into_inner().map_err(|e| e.into_error())?;
    file.flush()?;
    drop(file);
    let mut m = totals(&batches);
    m.seconds = t.elapsed().as_secs_f64();
    Ok(m)
}

/// Every batch of the IPC file at `path`, read into fresh memory.
pub fn load(path: &Path) -> Result<(SchemaRef, Vec<RecordBatch>)> {
    let r = FileReader::try_new(File::open(path)?, None)?;
    let schema = r.schema();
    Ok((schema, r.collect::<Result<Vec<_>, _>>()?))
}
