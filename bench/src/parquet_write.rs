//! The Parquet writes (issue #14) with quiver (`quiver-parquet`'s `FileWriter`) and arrow-rs
//! (the `parquet` crate's `ArrowWriter`). The input IPC file is loaded into memory before the
//! clock starts; the clock covers creating the output, every batch and the close (footer
//! written, buffers flushed to the file; no `fsync`, as no writer here syncs).
//!
//! Settings are each library's defaults but for the codec and dictionary: row groups of 1Mi
//! rows, data pages v1 of 1 MiB, statistics. quiver also writes the page index and page CRCs
//! by default; arrow-rs the page index but no CRCs; pyarrow (`py/ops.py`) is asked for both.

use crate::{Measured, Op};
use anyhow::{Context, Result, bail};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Instant;

/// Bytes of the `BufWriter` both Rust writers write through.
const SINK_BUFFER: usize = 1 << 20;

/// The settings of a Parquet write operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settings {
    /// SNAPPY, dictionary encoding (falling back to PLAIN past 1 MiB of dictionary).
    Snappy,
    /// ZSTD level 1, dictionary encoding.
    Zstd,
    /// Uncompressed, PLAIN, no dictionary.
    Plain,
}

/// The ZSTD level of [`Settings::Zstd`] (every writer's default but DuckDB's, which is 3).
pub const ZSTD_LEVEL: i32 = 1;

/// Loads `input` with quiver, then times writing it with quiver's `FileWriter` on `threads`
/// threads (`ThreadPool::sequential()` for 1, started before the clock).
pub fn quiver(op: Op, input: &Path, output: Option<&Path>, threads: usize) -> Result<Measured> {
    use quiver_arrow::parallel::ThreadPool;
    use quiver_parquet::codec::Codec;
    use quiver_parquet::file::writer::{FileWriter, WriteOptions};

    let settings = op.parquet_write().context("not a Parquet write")?;
    let output = output.context("--output is required")?;
    let (schema, batches) = crate::quiver_ops::load(input)?;
    let mut options = WriteOptions {
        threads: if threads > 1 {
            ThreadPool::new(threads)?
        } else {
            ThreadPool::sequential()
        },
        ..WriteOptions::default()
    };
    let column = &mut options.column;
    match settings {
        Settings::Snappy => column.codec = Codec::Snappy,
        Settings::Zstd => {
            column.codec = Codec::Zstd;
            column.level = Some(ZSTD_LEVEL);
        }
        Settings::Plain => {
            column.codec = Codec::Uncompressed;
            column.dictionary = false;
        }
    }
    let loaded_rss_kb = crate::rss::reset_peak()?;
    let cpu = crate::rss::cpu_seconds();
    let t = Instant::now();
    let sink = BufWriter::with_capacity(SINK_BUFFER, File::create(output)?);
    let mut w = FileWriter::new(sink, schema, options)?;
    for b in &batches {
        w.write(b)?;
    }
    let (sink, _) = w.close()?;
    let mut file = sink.into_inner().map_err(|e| e.into_error())?;
    file.flush()?;
    drop(file);
    let seconds = t.elapsed().as_secs_f64();
    let cpu = crate::rss::cpu_since(cpu);
    Ok(Measured {
        seconds,
        loaded_rss_kb,
        cpu: Some(cpu),
        ..crate::quiver_ops::totals(&batches)
    })
}

/// Loads `input` with arrow-rs, then times writing it with `ArrowWriter` (which encodes on the
/// calling thread only).
pub fn arrow_rs(op: Op, input: &Path, output: Option<&Path>) -> Result<Measured> {
    use parquet::arrow::ArrowWriter;
    use parquet::basic::{Compression, ZstdLevel};
    use parquet::file::properties::WriterProperties;

    let settings = op.parquet_write().context("not a Parquet write")?;
    let output = output.context("--output is required")?;
    let (schema, batches) = crate::arrow_ops::load(input)?;
    let props = WriterProperties::builder();
    let props = match settings {
        Settings::Snappy => props.set_compression(Compression::SNAPPY),
        Settings::Zstd => props.set_compression(Compression::ZSTD(ZstdLevel::try_new(ZSTD_LEVEL)?)),
        Settings::Plain => props
            .set_compression(Compression::UNCOMPRESSED)
            .set_dictionary_enabled(false),
    }
    .build();
    let loaded_rss_kb = crate::rss::reset_peak()?;
    let cpu = crate::rss::cpu_seconds();
    let t = Instant::now();
    let sink = BufWriter::with_capacity(SINK_BUFFER, File::create(output)?);
    let mut w = ArrowWriter::try_new(sink, schema, Some(props))?;
    for b in &batches {
        w.write(b)?;
    }
    let sink = w.into_inner()?;
    let mut file = sink.into_inner().map_err(|e| e.into_error())?;
    file.flush()?;
    drop(file);
    let seconds = t.elapsed().as_secs_f64();
    let cpu = crate::rss::cpu_since(cpu);
    if batches.is_empty() {
        bail!("{} holds no batches", input.display());
    }
    Ok(Measured {
        seconds,
        loaded_rss_kb,
        cpu: Some(cpu),
        ..crate::arrow_ops::totals(&batches)
    })
}
