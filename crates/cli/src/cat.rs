//! `quiver head` and `quiver cat`: rows as a table (fitted to the terminal), CSV, JSON Lines
//! or JSON.

use crate::args::{CatArgs, CatFormat, HeadArgs, ReadArgs, ViewArgs, WriteArgs};
use crate::format::Format;
use crate::sink::Sink;
use crate::source::Input;
use anyhow::Result;
use quiver_arrow::display::{TableOptions, pretty_format_batches_with};
use quiver_arrow::{RecordBatch, SchemaRef, builder::make_builder};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

/// Runs `quiver head`.
pub fn run_head(a: &HeadArgs) -> Result<ExitCode> {
    show(&a.file, &a.read, &a.view, CatFormat::Table, 0, Some(a.rows))
}

/// Runs `quiver cat`.
pub fn run_cat(a: &CatArgs) -> Result<ExitCode> {
    show(&a.file, &a.read, &a.view, a.format, a.offset, a.limit)
}

fn show(
    file: &Path,
    read: &ReadArgs,
    view: &ViewArgs,
    format: CatFormat,
    offset: usize,
    limit: Option<usize>,
) -> Result<ExitCode> {
    let mut input = Input::open(file, read, view.columns.as_deref())?;
    let mut rows = RowWindow {
        skip: offset,
        left: limit.unwrap_or(usize::MAX),
    };
    if format == CatFormat::Table {
        let mut batches = Vec::new();
        while let Some(b) = rows.next(&mut input)? {
            batches.push(b);
        }
        print_table(input.schema(), &batches, view.width)?;
    } else {
        let to = match format {
            CatFormat::Csv => Format::Csv,
            CatFormat::Jsonl => Format::Jsonl,
            _ => Format::Json,
        };
        let out = Box::new(std::io::BufWriter::with_capacity(
            1 << 16,
            std::io::stdout(),
        ));
        let args = WriteArgs {
            to: Some(to),
            compression: crate::args::Compression::None,
            batch_size: None,
            out_delimiter: None,
        };
        let mut sink = Sink::create(to, out, input.schema(), &args, Path::new("-"))?;
        while let Some(b) = rows.next(&mut input)? {
            sink.write(&b)?;
        }
        sink.finish()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The rows between `--offset` and `--limit`, sliced out of the batches (zero-copy).
struct RowWindow {
    skip: usize,
    left: usize,
}

impl RowWindow {
    fn next(&mut self, input: &mut Input) -> Result<Option<RecordBatch>> {
        while self.left > 0 {
            let Some(b) = input.next_batch()? else {
                return Ok(None);
            };
            let n = b.num_rows();
            if self.skip >= n {
                self.skip -= n;
                continue;
            }
            let take = (n - self.skip).min(self.left);
            let out = b.slice(self.skip, take);
            self.skip = 0;
            self.left -= take;
            return Ok(Some(out));
        }
        Ok(None)
    }
}

/// The width to fit tables into: `--width`, else the terminal's when standard output is one.
fn table_width(width: Option<usize>) -> Option<usize> {
    width.or_else(|| {
        let out = std::io::stdout();
        if !out.is_terminal() {
            return None;
        }
        console::Term::stdout()
            .size_checked()
            .map(|(_, cols)| usize::from(cols))
    })
}

fn print_table(schema: &SchemaRef, batches: &[RecordBatch], width: Option<usize>) -> Result<()> {
    let options = TableOptions {
        max_width: table_width(width),
        max_rows: None,
    };
    let text = if batches.is_empty() {
        pretty_format_batches_with(&[empty_batch(schema)?], &options)
    } else {
        pretty_format_batches_with(batches, &options)
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

fn empty_batch(schema: &SchemaRef) -> Result<RecordBatch> {
    let columns = schema
        .fields
        .iter()
        .map(|f| Ok(make_builder(f.data_type(), 0)?.finish()))
        .collect::<Result<Vec<_>>>()?;
    Ok(RecordBatch::try_new(schema.clone(), columns)?)
}
