//! Opening inputs: Arrow IPC files and Parquet files (memory-mapped, zero-copy), IPC streams,
//! CSV and JSON Lines, from a path or standard input, as one batch source.

use crate::args::ReadArgs;
use crate::format::{self, Format, Magic, default_delimiter, parse_delimiter};
use crate::parquet::read::ParquetInput;
use anyhow::{Context, Result};
use bytes::Bytes;
use quiver_arrow::{RecordBatch, SchemaRef};
use quiver_ipc::IpcSchema;
use quiver_ipc::read::{FileReader, ReadOptions, StreamReader};
use quiver_text::csv::{CsvReadOptions, CsvReader};
use quiver_text::json::{ArrayAsLines, JsonReadOptions, JsonReader};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Where reading has got to, for progress bars.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    /// Bytes read of a known total (`None` when the total is unknown, as for stdin).
    Bytes(u64, Option<u64>),
    /// Batches read of a known count.
    Batches(u64, u64),
    /// Rows read of a known count.
    Rows(u64, u64),
}

/// An opened input: its name for messages, its format, and the batches.
pub struct Input {
    /// The path as given, or `<stdin>`.
    pub label: String,
    /// The format read.
    pub format: Format,
    reader: Reader,
    /// Column indices kept (`None`: all).
    projection: Option<Vec<usize>>,
    /// The reader itself decodes only the projected columns.
    pushed_down: bool,
    schema: SchemaRef,
    bytes_read: Arc<AtomicU64>,
    total_bytes: Option<u64>,
    /// For text read with an inferred schema: the rows inference looked at.
    inferred_from: Option<usize>,
}

enum Reader {
    File {
        reader: FileReader,
        next: usize,
        bytes: Bytes,
    },
    Stream(StreamReader<Box<dyn Read + Send>>),
    Csv(CsvReader<Box<dyn Read + Send>>),
    Json(JsonReader<Box<dyn BufRead + Send>>),
    Parquet(Box<ParquetInput>),
}

/// Counts the bytes that pass through, for progress.
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// The label used in messages for a path argument.
pub fn label_of(path: &Path) -> String {
    if is_stdio(path) {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

/// True for the `-` argument.
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads a whole input into memory (memory-mapped for files).
pub fn read_all(path: &Path) -> Result<(Bytes, String)> {
    let label = label_of(path);
    let bytes = if is_stdio(path) {
        let mut v = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut v)
            .context("<stdin>")?;
        Bytes::from(v)
    } else {
        map_file(path).with_context(|| label.clone())?
    };
    Ok((bytes, label))
}

/// Memory-maps a file (empty files become empty bytes).
fn map_file(path: &Path) -> Result<Bytes> {
    Ok(open_mapped(path)?.1)
}

/// Opens a file and memory-maps it (an empty file maps to empty bytes).
pub fn open_mapped(path: &Path) -> Result<(File, Bytes)> {
    open_mapped_with(path, |_| {})
}

/// [`open_mapped`], handing the map to `advise` first (for hints on how it will be read).
pub fn open_mapped_with(path: &Path, advise: impl FnOnce(&memmap2::Mmap)) -> Result<(File, Bytes)> {
    let file = File::open(path)?;
    if file.metadata()?.len() == 0 {
        return Ok((file, Bytes::new()));
    }
    // SAFETY: the map is read-only and private to this process. Another process truncating or
    // rewriting the file while quiver runs would change the bytes under us (or fault); quiver
    // treats every byte as untrusted and validates it, and that external race is the usual,
    // documented caveat of memory-mapped tools.
    let map = unsafe { memmap2::Mmap::map(&file)? };
    advise(&map);
    Ok((file, Bytes::from_owner(map)))
}

impl Input {
    /// Opens `path` (or stdin for `-`) with the read options; `columns` selects columns by
    /// name.
    pub fn open(path: &Path, args: &ReadArgs, columns: Option<&[String]>) -> Result<Input> {
        let label = label_of(path);
        let mut input = open_reader(path, args, &label).with_context(|| label.clone())?;
        if let Some(names) = columns {
            if let Reader::Parquet(p) = &mut input.reader {
                // The library projects, by name or dotted path into structs.
                input.schema = match p.select_columns(names) {
                    Ok(schema) => schema,
                    Err(e) => crate::usage!("{label}: {e}"),
                };
                input.pushed_down = true;
                return Ok(input);
            }
            let indices = project(&input.schema, names, &label)?;
            input.schema = Arc::new(input.schema.project(&indices)?);
            // IPC files decode only the selected columns; other readers select afterwards.
            if let Reader::File { reader, bytes, .. } = &mut input.reader {
                let options = ReadOptions::new().with_projection(indices.clone());
                *reader = FileReader::from_bytes_with_options(bytes.clone(), options)
                    .with_context(|| label.clone())?;
                input.pushed_down = true;
            }
            input.projection = Some(indices);
        }
        Ok(input)
    }

    /// The schema of the batches returned (after column selection).
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// Lets the reader skip `offset` rows and stop after `limit` where it can (Parquet skips
    /// whole row groups); returns the offset and limit the caller still has to apply. Call it
    /// before the first batch.
    pub fn select_rows(&mut self, offset: usize, limit: Option<usize>) -> (usize, Option<usize>) {
        match &mut self.reader {
            Reader::Parquet(p) => {
                p.select_rows(offset, limit);
                (0, limit)
            }
            _ => (offset, limit),
        }
    }

    /// The IPC schema (with dictionary ids) of Arrow inputs, before column selection.
    pub fn ipc_schema(&self) -> Option<&IpcSchema> {
        match &self.reader {
            Reader::File { reader, .. } => Some(reader.ipc_schema()),
            Reader::Stream(s) => Some(s.ipc_schema()),
            _ => None,
        }
    }

    /// The next batch, or `None` at the end.
    pub fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        let batch = self
            .next_raw()
            .map_err(|e| self.inference_hint(e))
            .with_context(|| self.label.clone())?;
        match (batch, &self.projection) {
            (Some(b), Some(p)) if !self.pushed_down => Ok(Some(b.project(p)?)),
            (b, _) => Ok(b),
        }
    }

    /// A value that does not parse as the type inferred from the first rows gets a hint
    /// saying so and how to read it.
    fn inference_hint(&self, e: anyhow::Error) -> anyhow::Error {
        let Some(rows) = self.inferred_from else {
            return e;
        };
        let value_error = e.downcast_ref::<quiver_arrow::Error>().is_some_and(|q| {
            matches!(q, quiver_arrow::Error::OutOfSpec { context, message }
                if context.starts_with("line ")
                    && (context.contains(", column ") || context.contains(", field "))
                    && !message.contains("schema")
                    && !message.contains("given twice"))
        });
        if !value_error {
            return e;
        }
        let noun = if rows == 1 { "row" } else { "rows" };
        anyhow::anyhow!(
            "{e} (types were inferred from the first {} {noun}; pass a larger --infer-rows, \
             or --schema)",
            crate::numbers::group(rows as u64)
        )
    }

    fn next_raw(&mut self) -> Result<Option<RecordBatch>> {
        Ok(match &mut self.reader {
            Reader::File { reader, next, .. } => {
                if *next >= reader.num_batches() {
                    return Ok(None);
                }
                let i = *next;
                *next += 1;
                Some(
                    reader
                        .batch(i)
                        .with_context(|| format!("record batch {i}"))?,
                )
            }
            Reader::Stream(s) => s.next_batch()?,
            Reader::Csv(c) => c.next_batch()?,
            Reader::Json(j) => j.next_batch()?,
            Reader::Parquet(p) => p.next_batch()?,
        })
    }

    /// True when reading can go on after a batch failed to decode (the batches of an IPC
    /// file are found through its footer, independently of each other).
    pub fn resumes_after_error(&self) -> bool {
        matches!(self.reader, Reader::File { .. })
    }

    /// How far reading has got.
    pub fn position(&self) -> Position {
        match &self.reader {
            Reader::File { reader, next, .. } => {
                Position::Batches(*next as u64, reader.num_batches() as u64)
            }
            Reader::Parquet(p) => {
                let (done, total) = p.progress();
                Position::Rows(done, total)
            }
            _ => Position::Bytes(self.bytes_read.load(Ordering::Relaxed), self.total_bytes),
        }
    }

    /// For Arrow IPC files: the file's bytes, the column projection (for the readers to push
    /// down) and the number of batches, so that other threads can open their own readers over
    /// the same memory.
    pub fn ipc_file_parts(&self) -> Option<(Bytes, Option<Vec<usize>>, usize)> {
        match &self.reader {
            Reader::File { reader, bytes, .. } => {
                Some((bytes.clone(), self.projection.clone(), reader.num_batches()))
            }
            _ => None,
        }
    }
}

/// Column indices for names, or a usage error listing the columns there are.
pub fn project(schema: &SchemaRef, names: &[String], label: &str) -> Result<Vec<usize>> {
    names
        .iter()
        .map(|n| match schema.fields.index_of(n) {
            Some(i) => Ok(i),
            None => {
                let all: Vec<&str> = schema.fields.iter().map(|f| f.name()).collect();
                crate::usage!(
                    "{label}: no column named {n:?} (columns: {})",
                    all.join(", ")
                )
            }
        })
        .collect()
}

/// Refuses read options that do not apply to inputs of `format` (CSV options for Parquet,
/// Parquet options for CSV…), which would otherwise do nothing without a word.
fn check_read_args(format: Format, args: &ReadArgs) -> Result<()> {
    let csv = format == Format::Csv;
    let text = matches!(format, Format::Csv | Format::Jsonl | Format::Json);
    let given = [
        ("--delimiter", args.delimiter.is_some(), csv),
        ("--no-header", args.no_header, csv),
        ("--null-value", !args.null_values.is_empty(), csv),
        ("--schema", args.schema.is_some(), text),
        ("--schema-from", args.schema_from.is_some(), text),
        (
            "--int96-unit",
            args.int96_unit != crate::args::Int96Unit::default(),
            format == Format::Parquet,
        ),
        ("--skip-crc", args.skip_crc, format == Format::Parquet),
    ];
    if let Some((name, _, _)) = given.iter().find(|(_, set, applies)| *set && !applies) {
        crate::usage!(
            "{name} does not apply to {} input (it is for {})",
            format.describe(),
            match *name {
                "--delimiter" | "--no-header" | "--null-value" => "CSV",
                "--schema" | "--schema-from" => "CSV and JSON",
                _ => "Parquet",
            }
        );
    }
    Ok(())
}

fn open_reader(path: &Path, args: &ReadArgs, label: &str) -> Result<Input> {
    let counter = Arc::new(AtomicU64::new(0));
    let (format, raw, total): (Format, Box<dyn BufRead + Send>, Option<u64>) = if is_stdio(path) {
        let mut r = BufReader::with_capacity(1 << 20, std::io::stdin());
        let magic = Magic::of(r.fill_buf().unwrap_or_default(), b"");
        let format = format::resolve(args.from, magic, None)?;
        check_read_args(format, args)?;
        (format, Box::new(r), None)
    } else {
        let format = detect(path, args.from)?;
        check_read_args(format, args)?;
        if format == Format::Arrow {
            let bytes = map_file(path)?;
            return file_input(bytes, label, counter);
        }
        if format == Format::Parquet {
            return parquet_input(map_file(path)?, args, label, counter);
        }
        let file = File::open(path)?;
        let total = file.metadata().ok().map(|m| m.len());
        (
            format,
            Box::new(BufReader::with_capacity(1 << 20, file)),
            total,
        )
    };
    let source = RawInput {
        format,
        raw,
        total,
        counter,
    };
    reader_input(source, args, path, label)
}

/// Opens input already in memory whose format is known (as `quiver meta` has it), read as if
/// from `path` (for the CSV delimiter).
pub fn open_bytes(
    bytes: Bytes,
    format: Format,
    path: &Path,
    args: &ReadArgs,
    label: &str,
) -> Result<Input> {
    check_read_args(format, args)?;
    let total = Some(bytes.len() as u64);
    let counter = Arc::new(AtomicU64::new(0));
    if format == Format::Arrow {
        return file_input(bytes, label, counter);
    }
    if format == Format::Parquet {
        return parquet_input(bytes, args, label, counter).with_context(|| label.to_string());
    }
    let source = RawInput {
        format,
        raw: Box::new(std::io::Cursor::new(bytes)),
        total,
        counter,
    };
    reader_input(source, args, path, label).with_context(|| label.to_string())
}

/// A byte source and what is known of it.
struct RawInput {
    format: Format,
    raw: Box<dyn BufRead + Send>,
    total: Option<u64>,
    counter: Arc<AtomicU64>,
}

fn reader_input(source: RawInput, args: &ReadArgs, path: &Path, label: &str) -> Result<Input> {
    let RawInput {
        format,
        raw,
        total,
        counter,
    } = source;
    if format == Format::Parquet {
        // Parquet is read from its end: standard input is read into memory first.
        let mut v = Vec::new();
        let mut counted = Counting {
            inner: raw,
            count: counter.clone(),
        };
        counted.read_to_end(&mut v)?;
        return parquet_input(Bytes::from(v), args, label, counter);
    }
    let counted = Counting {
        inner: raw,
        count: counter.clone(),
    };
    let reader = text_or_stream(format, counted, args, path)?;
    let explicit = args.schema.is_some() || args.schema_from.is_some();
    let inferred_from = (!format.is_arrow() && !explicit).then_some(args.infer_rows.max(1));
    let schema = match &reader {
        Reader::File { reader, .. } => reader.schema().clone(),
        Reader::Stream(s) => s.schema().clone(),
        Reader::Csv(c) => c.schema().clone(),
        Reader::Json(j) => j.schema().clone(),
        Reader::Parquet(p) => p.schema().clone(),
    };
    Ok(Input {
        label: label.into(),
        format,
        reader,
        projection: None,
        pushed_down: false,
        schema,
        bytes_read: counter,
        total_bytes: total,
        inferred_from,
    })
}

/// A Parquet file read from memory (stdin) or a map.
fn parquet_input(
    bytes: Bytes,
    args: &ReadArgs,
    label: &str,
    counter: Arc<AtomicU64>,
) -> Result<Input> {
    let total = bytes.len() as u64;
    let reader = ParquetInput::open(bytes, args)?;
    Ok(Input {
        label: label.into(),
        format: Format::Parquet,
        schema: reader.schema().clone(),
        reader: Reader::Parquet(Box::new(reader)),
        projection: None,
        pushed_down: false,
        bytes_read: counter,
        total_bytes: Some(total),
        inferred_from: None,
    })
}

/// An IPC file read from memory (stdin) or a map.
fn file_input(bytes: Bytes, label: &str, counter: Arc<AtomicU64>) -> Result<Input> {
    let total = bytes.len() as u64;
    let reader = FileReader::from_bytes(bytes.clone())?;
    Ok(Input {
        label: label.into(),
        format: Format::Arrow,
        schema: reader.schema().clone(),
        reader: Reader::File {
            reader,
            next: 0,
            bytes,
        },
        projection: None,
        pushed_down: false,
        bytes_read: counter,
        total_bytes: Some(total),
        inferred_from: None,
    })
}

fn text_or_stream(
    format: Format,
    counted: Counting<Box<dyn BufRead + Send>>,
    args: &ReadArgs,
    path: &Path,
) -> Result<Reader> {
    Ok(match format {
        Format::Arrow => {
            let mut v = Vec::new();
            BufReader::new(counted).read_to_end(&mut v)?;
            let bytes = Bytes::from(v);
            let reader = FileReader::from_bytes(bytes.clone())?;
            Reader::File {
                reader,
                next: 0,
                bytes,
            }
        }
        Format::Arrows => Reader::Stream(StreamReader::try_new(
            Box::new(counted) as Box<dyn Read + Send>
        )?),
        Format::Csv => Reader::Csv(CsvReader::try_new(
            Box::new(counted) as Box<dyn Read + Send>,
            csv_options(args, path)?,
        )?),
        Format::Parquet => unreachable!("Parquet is read from memory"), // ok: reader_input returns first
        Format::Jsonl | Format::Json => {
            let mut text = BufReader::with_capacity(1 << 16, counted);
            let lines: Box<dyn BufRead + Send> = if starts_array(&mut text)? {
                Box::new(BufReader::with_capacity(1 << 16, ArrayAsLines::new(text)))
            } else {
                Box::new(text)
            };
            Reader::Json(JsonReader::try_new(lines, json_options(args)?)?)
        }
    })
}

/// Skips leading whitespace; true when the JSON text then starts with `[` (a JSON array of
/// objects rather than JSON Lines).
fn starts_array(r: &mut impl BufRead) -> Result<bool> {
    loop {
        let buf = r.fill_buf()?;
        let Some(&first) = buf.first() else {
            return Ok(false);
        };
        let ws = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
        if ws == 0 {
            return Ok(first == b'[');
        }
        r.consume(ws);
    }
}

/// The format of an input as [`Input::open`] decides it (standard input by its first bytes,
/// which stay unread).
pub fn input_format(path: &Path, args: &ReadArgs) -> Result<Format> {
    let label = label_of(path);
    if is_stdio(path) {
        let mut stdin = std::io::stdin().lock();
        let magic = Magic::of(stdin.fill_buf().unwrap_or_default(), b"");
        return format::resolve(args.from, magic, None).with_context(|| label);
    }
    detect(path, args.from).with_context(|| label)
}

/// The format of the file at `path`: `--from` (`from`), else its magic numbers, else its
/// extension (see [`format::resolve`]).
pub fn detect(path: &Path, from: Option<Format>) -> Result<Format> {
    let (head, tail) = ends(path)?;
    format::resolve(from, Magic::of(&head, &tail), Format::from_path(path))
}

/// The first and last 8 bytes of a file (fewer when it is shorter).
fn ends(path: &Path) -> std::io::Result<(Vec<u8>, Vec<u8>)> {
    let mut file = File::open(path)?;
    let mut head = [0u8; 8];
    let n = read_up_to(&mut file, &mut head)?;
    let len = file.metadata()?.len();
    let mut tail = [0u8; 8];
    let mut m = 0;
    if len > 8 {
        file.seek(SeekFrom::Start(len - 8))?;
        m = read_up_to(&mut file, &mut tail)?;
    }
    Ok((head[..n].to_vec(), tail[..m].to_vec()))
}

fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

fn explicit_schema(args: &ReadArgs) -> Result<Option<SchemaRef>> {
    if let Some(spec) = &args.schema {
        return match quiver_text::parse_schema(spec) {
            Ok(s) => Ok(Some(Arc::new(s))),
            Err(e) => crate::usage!("--schema: {e}"),
        };
    }
    if let Some(path) = &args.schema_from {
        let input = Input::open(path, &ReadArgs::default(), None)
            .with_context(|| "--schema-from".to_string())?;
        return Ok(Some(input.schema().clone()));
    }
    Ok(None)
}

/// The CSV reading options the arguments give (the delimiter defaults by `path`).
pub fn csv_options(args: &ReadArgs, path: &Path) -> Result<CsvReadOptions> {
    let delimiter = match &args.delimiter {
        Some(d) => parse_delimiter(d)?,
        None => default_delimiter(path),
    };
    let defaults = CsvReadOptions::default();
    Ok(CsvReadOptions {
        delimiter,
        has_header: !args.no_header,
        infer_rows: args.infer_rows.max(1),
        schema: explicit_schema(args)?,
        batch_size: args.batch_size.unwrap_or(defaults.batch_size),
        null_values: std::iter::once(String::new())
            .chain(args.null_values.iter().cloned())
            .collect(),
        ..defaults
    })
}

fn json_options(args: &ReadArgs) -> Result<JsonReadOptions> {
    let defaults = JsonReadOptions::default();
    Ok(JsonReadOptions {
        infer_rows: args.infer_rows.max(1),
        schema: explicit_schema(args)?,
        batch_size: args.batch_size.unwrap_or(defaults.batch_size),
    })
}
