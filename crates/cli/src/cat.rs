//! `quiver head` and `quiver cat`: rows as a table (fitted to the terminal), CSV, JSON Lines
//! or JSON.

use crate::args::{CatArgs, CatFormat, HeadArgs, ReadArgs, ViewArgs, WriteArgs};
use crate::format::Format;
use crate::sink::Sink;
use crate::source::Input;
use anyhow::Result;
use quiver_arrow::RecordBatch;
use quiver_arrow::display::{TableOptions, TableWriter};
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
    // Readers that can skip rows themselves (Parquet: whole row groups) are told the window.
    let (skip, limit) = input.select_rows(offset, limit);
    let mut rows = RowWindow {
        skip,
        left: limit.unwrap_or(usize::MAX),
    };
    if format == CatFormat::Table {
        print_table(&mut input, &mut rows, view.width)?;
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
            compression: None,
            batch_size: None,
            out_delimiter: None,
            json: Default::default(),
            sort_by: Vec::new(),
            parquet: Default::default(),
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
        if !std::io::stdout().is_terminal() {
            return None;
        }
        terminal_columns().or_else(|| std::env::var("COLUMNS").ok()?.parse().ok())
    })
}

/// The column count of the terminal on standard output, when it reports one. A terminal that
/// reports 0 rows (some pseudo-terminals) still has its columns.
#[cfg(unix)]
fn terminal_columns() -> Option<usize> {
    let size = rustix::termios::tcgetwinsize(std::io::stdout()).ok()?;
    (size.ws_col > 0).then_some(usize::from(size.ws_col))
}

/// The column count of the terminal on standard output, when it reports one.
#[cfg(not(unix))]
fn terminal_columns() -> Option<usize> {
    console::Term::stdout()
        .size_checked()
        .map(|(_, cols)| usize::from(cols))
}

/// Rows per piece of a streamed table: memory stays bounded whatever the number of rows; a
/// piece with wider values than the ones before widens the columns (the header is drawn again).
const TABLE_PAGE_ROWS: usize = 10_000;

fn print_table(input: &mut Input, rows: &mut RowWindow, width: Option<usize>) -> Result<()> {
    let options = TableOptions {
        max_width: table_width(width),
        max_rows: None,
    };
    let mut table = TableWriter::new(input.schema(), options);
    let mut out = std::io::stdout().lock();
    let mut page: Vec<RecordBatch> = Vec::new();
    let mut page_rows = 0;
    while let Some(b) = rows.next(input)? {
        page_rows += b.num_rows();
        page.push(b);
        if page_rows >= TABLE_PAGE_ROWS {
            out.write_all(table.write(&page).as_bytes())?;
            page.clear();
            page_rows = 0;
        }
    }
    if !page.is_empty() {
        out.write_all(table.write(&page).as_bytes())?;
    }
    out.write_all(table.finish().as_bytes())?;
    out.flush()?;
    Ok(())
}
