//! Writing batches in any output format.

use crate::args::{Compression, JsonNonFinite, WriteArgs};
use crate::format::{Format, default_delimiter, parse_delimiter};
use anyhow::Result;
use clap::ValueEnum;
use quiver_arrow::{RecordBatch, SchemaRef};
use quiver_ipc::Codec;
use quiver_ipc::write::{FileWriter, StreamWriter, WriteOptions};
use quiver_text::csv::{CsvWriteOptions, CsvWriter};
use quiver_text::json::{JsonFormat, JsonWriter, NonFinite};
use std::io::Write;
use std::path::Path;

type Out = Box<dyn Write + Send>;

/// The Parquet writer over the output.
type ParquetWriter = quiver_parquet::file::writer::FileWriter<Out>;

/// A writer of batches in one of the output formats (writers are boxed: their sizes differ a
/// lot, and there is one per output).
pub enum Sink {
    /// Arrow IPC file.
    File(Box<FileWriter<Out>>),
    /// Arrow IPC stream.
    Stream(Box<StreamWriter<Out>>),
    /// CSV.
    Csv(Box<CsvWriter<Out>>),
    /// JSON Lines or a JSON array.
    Json(JsonWriter<Out>),
    /// Parquet.
    Parquet(Box<ParquetWriter>),
}

/// The output format for `path`: `--to`, else the extension; a usage error otherwise.
pub fn output_format(path: &Path, to: Option<Format>) -> Result<Format> {
    if let Some(f) = to {
        return Ok(f);
    }
    if crate::source::is_stdio(path) {
        crate::usage!(
            "writing to standard output needs --to {}",
            Format::choices()
        );
    }
    match Format::from_path(path) {
        Some(f) => Ok(f),
        None => crate::usage!(
            "{}: cannot tell the output format from the extension; use .arrow, .arrows, .csv, \
             .parquet, .jsonl or .json, or pass --to",
            path.display()
        ),
    }
}

/// Checks options that only some formats take.
pub fn check_write_args(format: Format, args: &WriteArgs) -> Result<()> {
    if let Some(c) = args.compression {
        let ipc = matches!(c, Compression::None | Compression::Lz4 | Compression::Zstd);
        if !(format == Format::Parquet || (format.is_arrow() && ipc)) {
            let name = c.to_possible_value().map(|v| v.get_name().to_string());
            crate::usage!(
                "--compression {} applies to {}, not {}",
                name.unwrap_or_default(),
                if ipc {
                    "Arrow IPC and Parquet output"
                } else {
                    "Parquet output"
                },
                format.describe()
            );
        }
    }
    if format != Format::Parquet
        && let Some(flag) = args.parquet.first_given()
    {
        crate::usage!("{flag} applies to Parquet output only");
    }
    if args.out_delimiter.is_some() && format != Format::Csv {
        crate::usage!("--out-delimiter applies to CSV output only");
    }
    let json = matches!(format, Format::Json | Format::Jsonl);
    if args.json.non_finite != JsonNonFinite::Null && !json {
        crate::usage!("--json-nonfinite applies to JSON output only");
    }
    if args.batch_size == Some(0) {
        crate::usage!("--batch-size must be at least 1");
    }
    Ok(())
}

impl Sink {
    /// Starts writing `schema` as `format` to `w`.
    pub fn create(
        format: Format,
        w: Out,
        schema: &SchemaRef,
        args: &WriteArgs,
        path: &Path,
    ) -> Result<Sink> {
        let codec = match args.compression {
            Some(Compression::Lz4) => Some(Codec::Lz4Frame),
            Some(Compression::Zstd) => Some(Codec::Zstd),
            _ => None,
        };
        let ipc = WriteOptions::new().with_compression(codec);
        Ok(match format {
            Format::Arrow => Sink::File(Box::new(FileWriter::try_new(w, schema, ipc)?)),
            Format::Arrows => Sink::Stream(Box::new(StreamWriter::try_new(w, schema, ipc)?)),
            Format::Csv => {
                let delimiter = match &args.out_delimiter {
                    Some(d) => parse_delimiter(d)?,
                    None => default_delimiter(path),
                };
                let options = CsvWriteOptions {
                    delimiter,
                    header: true,
                };
                Sink::Csv(Box::new(CsvWriter::try_new(w, schema, options)?))
            }
            Format::Jsonl | Format::Json => {
                let layout = match format {
                    Format::Jsonl => JsonFormat::Lines,
                    _ => JsonFormat::Array,
                };
                let non_finite = match args.json.non_finite {
                    JsonNonFinite::Null => NonFinite::Null,
                    JsonNonFinite::String => NonFinite::String,
                };
                Sink::Json(JsonWriter::try_new(w, schema, layout)?.with_non_finite(non_finite))
            }
            Format::Parquet => {
                let options = crate::parquet::write::write_options(schema, args)?;
                Sink::Parquet(Box::new(ParquetWriter::new(w, schema.clone(), options)?))
            }
        })
    }

    /// Writes one batch.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        match self {
            Sink::File(w) => w.write(batch)?,
            Sink::Stream(w) => w.write(batch)?,
            Sink::Csv(w) => w.write(batch)?,
            Sink::Json(w) => w.write(batch)?,
            Sink::Parquet(w) => w.write(batch)?,
        }
        Ok(())
    }

    /// Ends the output (footer, end-of-stream marker, closing bracket) and flushes it.
    pub fn finish(self) -> Result<()> {
        let mut w = match self {
            Sink::File(w) => w.finish()?,
            Sink::Stream(w) => w.finish()?,
            Sink::Csv(w) => w.finish()?,
            Sink::Json(w) => w.finish()?,
            Sink::Parquet(w) => w.close()?.0,
        };
        w.flush()?;
        Ok(())
    }
}
