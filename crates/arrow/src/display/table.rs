//! ASCII tables of record batches and columns.

use super::value::{write_field_value, write_value};
use crate::array::Array;
use crate::record_batch::RecordBatch;
use std::fmt::Write;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Options for [`pretty_format_batches_with`].
///
/// ```
/// use quiver_arrow::display::TableOptions;
/// let opts = TableOptions { max_width: Some(80), max_rows: Some(20) };
/// assert_eq!(TableOptions::default().max_rows, None);
/// # let _ = opts;
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableOptions {
    /// Fit every line into this many terminal cells by narrowing the widest columns and
    /// truncating their cells with `…`. When the columns cannot all keep 12 cells (or their
    /// full content, if shorter), the table shows its first columns and a `…` column, and a last
    /// line names the columns left out: short values such as dates are never cut. A width too
    /// small for even one column is exceeded. `None`: nothing is ever cut.
    pub max_width: Option<usize>,
    /// Show at most this many rows; a line under the table says how many were left out.
    pub max_rows: Option<usize>,
}

/// Renders batches as one ASCII table (see [`pretty_format_batches_with`]) without limits.
///
/// ```
/// use quiver_arrow::{Array, PrimitiveArray, StringArray, RecordBatch, Schema, Field, DataType};
/// use quiver_arrow::display::pretty_format_batches;
/// let schema = Schema::new(vec![
///     Field::new("id", DataType::Int32, false),
///     Field::new("name", DataType::Utf8, true),
/// ]);
/// let batch = RecordBatch::try_new(schema.into(), vec![
///     Array::from(PrimitiveArray::<i32>::new(vec![1, 22])),
///     Array::from(StringArray::from_options([Some("joe"), None])),
/// ]).unwrap();
/// assert_eq!(pretty_format_batches(&[batch]), "\
/// +----+------+
/// | id | name |
/// +----+------+
/// | 1  | joe  |
/// | 22 | null |
/// +----+------+
/// ");
/// ```
pub fn pretty_format_batches(batches: &[RecordBatch]) -> String {
    pretty_format_batches_with(batches, &TableOptions::default())
}

/// Renders batches as one ASCII table: a `+---+` border, a header row with the column names of
/// the first batch's schema, then every row of every batch, cells left-aligned and rendered
/// with [`write_field_value`](super::write_field_value) (UUIDs and bool8 shown as such). Control characters in cells (such as line
/// breaks) are escaped (`\n`) to keep one line per row. Widths are counted in terminal cells
/// (see [`cell_width`]: CJK and emoji are two, combining marks zero); cells are cut and padded
/// by cells, never inside a character. No batches give an empty string.
pub fn pretty_format_batches_with(batches: &[RecordBatch], options: &TableOptions) -> String {
    let Some(first) = batches.first() else {
        return String::new();
    };
    let header = first
        .schema()
        .fields
        .iter()
        .map(|f| sanitize(f.name()))
        .collect();
    let mut table = Table::new(header, options.max_rows);
    for batch in batches {
        table.add_batch(batch);
    }
    table.render(options.max_width)
}

/// Renders arrays as one column named `name` (the arrays' slots one after the other), in the
/// format of [`pretty_format_batches`].
///
/// ```
/// use quiver_arrow::{Array, PrimitiveArray};
/// use quiver_arrow::display::pretty_format_columns;
/// let a = Array::from(PrimitiveArray::<f64>::from_options([Some(1.5), None]));
/// assert_eq!(pretty_format_columns("x", &[a]), "\
/// +------+
/// | x    |
/// +------+
/// | 1.5  |
/// | null |
/// +------+
/// ");
/// ```
pub fn pretty_format_columns(name: &str, columns: &[Array]) -> String {
    let mut table = Table::new(vec![sanitize(name)], None);
    for c in columns {
        table.add_rows(std::slice::from_ref(c), &[], c.len());
    }
    table.render(None)
}

/// Escapes control characters so that a cell stays on one line.
fn sanitize(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Cells collected before rendering (column widths need every cell).
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    max_rows: Option<usize>,
    omitted: usize,
}

impl Table {
    fn new(header: Vec<String>, max_rows: Option<usize>) -> Self {
        Table {
            header,
            rows: Vec::new(),
            max_rows,
            omitted: 0,
        }
    }

    /// Adds the rows of `batch` (values shown as their fields say), up to the row limit.
    fn add_batch(&mut self, batch: &RecordBatch) {
        let fields = &batch.schema().fields;
        self.add_rows(batch.columns(), fields, batch.num_rows());
    }

    /// Adds rows `0..num_rows` of `columns`, the values of `fields` (when given), up to the
    /// row limit.
    fn add_rows(&mut self, columns: &[Array], fields: &[crate::FieldRef], num_rows: usize) {
        let room = self
            .max_rows
            .map_or(usize::MAX, |m| m.saturating_sub(self.rows.len()));
        let shown = num_rows.min(room);
        self.omitted += num_rows - shown;
        let mut buf = String::new();
        for r in 0..shown {
            let row = columns
                .iter()
                .enumerate()
                .map(|(k, c)| {
                    buf.clear();
                    // Writing into a `String` cannot fail.
                    let _ = match fields.get(k) {
                        Some(f) => write_field_value(&mut buf, f, c, r),
                        None => write_value(&mut buf, c, r),
                    };
                    sanitize(&buf)
                })
                .collect();
            self.rows.push(row);
        }
    }

    fn render(&self, max_width: Option<usize>) -> String {
        let mut natural = Vec::new();
        grow_widths(&mut natural, std::slice::from_ref(&self.header));
        grow_widths(&mut natural, &self.rows);
        let layout = Layout::new(&natural, max_width);
        let mut out = String::new();
        layout.write_head(&mut out, &self.header);
        for row in &self.rows {
            layout.write_row(&mut out, row);
        }
        layout.write_border(&mut out);
        if self.omitted > 0 {
            let s = if self.omitted == 1 { "" } else { "s" };
            // Writing into a `String` cannot fail.
            let _ = writeln!(out, "… {} more row{s}", self.omitted);
        }
        layout.write_hidden(&mut out, &self.header, max_width);
        out
    }
}

/// Which columns a table shows and how wide they are (in cells), decided from the widest cell
/// of each column.
#[derive(Clone, Debug)]
struct Layout {
    /// Leading columns shown; the others are left out behind a `…` column.
    shown: usize,
    /// Widths of the shown columns (and of the `…` column when some are left out).
    widths: Vec<usize>,
    border: String,
}

impl Layout {
    /// The layout for columns whose widest cells (header included) are `natural` cells wide.
    fn new(natural: &[usize], max_width: Option<usize>) -> Layout {
        let mut widths = natural.to_vec();
        let shown = max_width.map_or(widths.len(), |max| columns_that_fit(&widths, max));
        if shown < widths.len() {
            widths.truncate(shown);
            widths.push(1);
        }
        if let Some(max) = max_width {
            fit(&mut widths, max);
        }
        let mut border = String::from("+");
        for w in &widths {
            border.extend(std::iter::repeat_n('-', w + 2));
            border.push('+');
        }
        Layout {
            shown,
            widths,
            border,
        }
    }

    fn write_border(&self, out: &mut String) {
        out.push_str(&self.border);
        out.push('\n');
    }

    fn write_head(&self, out: &mut String, header: &[String]) {
        self.write_border(out);
        self.write_row(out, header);
        self.write_border(out);
    }

    /// One row, cut to the shown columns (plus the `…` marker when columns are left out).
    fn write_row(&self, out: &mut String, cells: &[String]) {
        if self.shown < cells.len() {
            let mut cut = cells[..self.shown].to_vec();
            cut.push("…".to_string());
            write_row(out, &cut, &self.widths);
        } else {
            write_row(out, cells, &self.widths);
        }
    }

    /// The line naming the columns left out, if any (cut to `max_width`).
    fn write_hidden(&self, out: &mut String, header: &[String], max_width: Option<usize>) {
        let hidden = &header[self.shown.min(header.len())..];
        if hidden.is_empty() {
            return;
        }
        let n = hidden.len();
        let s = if n == 1 { "" } else { "s" };
        let line = format!("… {n} more column{s}: {}", hidden.join(", "));
        match max_width {
            Some(max) if cell_width(&line) > max => {
                out.push_str(prefix_within(&line, max.saturating_sub(1)).0);
                out.push('…');
            }
            _ => out.push_str(&line),
        }
        out.push('\n');
    }
}

/// Renders a table a piece at a time, for outputs too large to hold. Each
/// [`TableWriter::write`] measures its rows: when they need wider columns than the rows before
/// them (within [`TableOptions::max_width`], if any), the border and header are drawn again
/// with the new widths above them. So nothing is ever cut without a width limit, and within
/// one cells are cut (with `…`) only where the limit leaves no room. Rows written in one piece
/// give exactly [`pretty_format_batches_with`]'s table (without a row limit).
///
/// ```
/// use quiver_arrow::{Array, PrimitiveArray, RecordBatch, Schema, Field, DataType};
/// use quiver_arrow::display::{TableOptions, TableWriter, pretty_format_batches};
/// let schema = std::sync::Arc::new(Schema::new(vec![Field::new("n", DataType::Int32, false)]));
/// let batch = |v: Vec<i32>| {
///     RecordBatch::try_new(schema.clone(), vec![Array::from(PrimitiveArray::<i32>::new(v))])
///         .unwrap()
/// };
/// let mut w = TableWriter::new(&schema, TableOptions::default());
/// let mut text = w.write(&[batch(vec![1, 2])]);
/// text += &w.write(&[batch(vec![333])]);
/// text += &w.finish();
/// // The later 333 needs a wider column: the header is drawn again above it.
/// assert_eq!(text, "\
/// +---+
/// | n |
/// +---+
/// | 1 |
/// | 2 |
/// +-----+
/// | n   |
/// +-----+
/// | 333 |
/// +-----+
/// ");
/// ```
#[derive(Debug)]
pub struct TableWriter {
    header: Vec<String>,
    max_width: Option<usize>,
    /// The widest cell of each column so far, header included.
    natural: Vec<usize>,
    layout: Option<Layout>,
}

impl TableWriter {
    /// A table of `schema`'s columns; [`TableOptions::max_rows`] is not used (the caller
    /// chooses the rows).
    pub fn new(schema: &crate::Schema, options: TableOptions) -> TableWriter {
        let header: Vec<String> = schema.fields.iter().map(|f| sanitize(f.name())).collect();
        let mut natural = Vec::new();
        grow_widths(&mut natural, std::slice::from_ref(&header));
        TableWriter {
            header,
            max_width: options.max_width,
            natural,
            layout: None,
        }
    }

    /// The rows of `batches`, preceded by the border and header the first time and whenever
    /// these rows need other column widths than the rows before.
    pub fn write(&mut self, batches: &[RecordBatch]) -> String {
        let mut table = Table::new(Vec::new(), None);
        for batch in batches {
            table.add_batch(batch);
        }
        grow_widths(&mut self.natural, &table.rows);
        let layout = Layout::new(&self.natural, self.max_width);
        let mut out = String::new();
        let changed = self
            .layout
            .as_ref()
            .is_none_or(|l| l.shown != layout.shown || l.widths != layout.widths);
        if changed {
            layout.write_head(&mut out, &self.header);
            self.layout = Some(layout);
        }
        if let Some(layout) = &self.layout {
            for row in &table.rows {
                layout.write_row(&mut out, row);
            }
        }
        out
    }

    /// The bottom border and the line naming the columns left out (the header too, when no
    /// rows were written).
    pub fn finish(mut self) -> String {
        let mut out = String::new();
        if self.layout.is_none() {
            out = self.write(&[]);
        }
        if let Some(layout) = &self.layout {
            layout.write_border(&mut out);
            layout.write_hidden(&mut out, &self.header, self.max_width);
        }
        out
    }
}

/// Raises `widths` to the cell widths of `rows` (extending it to the longest row).
fn grow_widths(widths: &mut Vec<usize>, rows: &[Vec<String>]) {
    for row in rows {
        if widths.len() < row.len() {
            widths.resize(row.len(), 0);
        }
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell_width(cell));
        }
    }
}

/// The width of `s` in terminal cells, as [`unicode_width`] counts it: East Asian wide and
/// fullwidth characters and emoji are two cells, combining marks and zero-width joiners none,
/// everything else one.
///
/// ```
/// use quiver_arrow::display::cell_width;
/// assert_eq!(cell_width("abc"), 3);
/// assert_eq!(cell_width("中文"), 4);
/// assert_eq!(cell_width("e\u{301}"), 1);
/// ```
pub fn cell_width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// The longest prefix of `s` at most `cells` wide that ends between two characters clusters
/// (never before a zero-width character such as a combining mark, nor after a zero-width
/// joiner), and its width in cells.
fn prefix_within(s: &str, cells: usize) -> (&str, usize) {
    let (mut end, mut used, mut start) = (0, 0, 0);
    let mut after_joiner = false;
    for (i, c) in s.char_indices() {
        let starts_cluster = c.width().unwrap_or(0) > 0 && !after_joiner;
        if i > start && starts_cluster {
            let w = cell_width(&s[start..i]);
            if used + w > cells {
                return (&s[..end], used);
            }
            used += w;
            (end, start) = (i, i);
        }
        after_joiner = c == '\u{200D}';
    }
    let w = cell_width(&s[start..]);
    if used + w > cells {
        (&s[..end], used)
    } else {
        (s, used + w)
    }
}

/// Columns narrower than this (or than their content, if shorter) are not shown; the table
/// leaves out its last columns instead. Twelve cells keep dates, short numbers and names whole.
const MIN_COLUMN_WIDTH: usize = 12;

/// How many leading columns fit in `max` characters when each keeps
/// `min(content, MIN_COLUMN_WIDTH)` characters, leaving room for a one-character `…` column
/// when some are cut. At least one.
fn columns_that_fit(widths: &[usize], max: usize) -> usize {
    let cost = |w: usize| w.min(MIN_COLUMN_WIDTH) + 3;
    if widths.iter().map(|&w| cost(w)).sum::<usize>() < max {
        return widths.len();
    }
    let mut used = 1 + cost(1);
    let mut k = 0;
    for &w in widths {
        if used + cost(w) > max {
            break;
        }
        used += cost(w);
        k += 1;
    }
    k.max(1)
}

/// One `| a | b |` line, cells truncated with `…` and padded to `widths` (in cells).
fn write_row(out: &mut String, cells: &[String], widths: &[usize]) {
    out.push('|');
    for (cell, &w) in cells.iter().zip(widths) {
        out.push(' ');
        let n = cell_width(cell);
        let used = if n > w {
            let (prefix, used) = prefix_within(cell, w.saturating_sub(1));
            out.push_str(prefix);
            out.push('…');
            used + 1
        } else {
            out.push_str(cell);
            n
        };
        out.extend(std::iter::repeat_n(' ', w.saturating_sub(used)));
        out.push_str(" |");
    }
    out.push('\n');
}

/// Narrows `widths` so that a table line (`| ` + cell + ` ` per column, plus the final `|`)
/// fits in `max` characters: the widest columns are capped at a common width, the space left
/// over goes one character at a time to the capped columns, left to right. Columns keep at
/// least one character.
fn fit(widths: &mut [usize], max: usize) {
    let available = max.saturating_sub(3 * widths.len() + 1);
    let total: usize = widths.iter().sum();
    if total <= available {
        return;
    }
    let capped_sum = |cap: usize| widths.iter().map(|&w| w.min(cap)).sum::<usize>();
    // Largest cap whose capped total fits (1 if none does).
    let (mut lo, mut hi) = (1, widths.iter().copied().max().unwrap_or(1));
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if capped_sum(mid) <= available {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let cap = lo;
    let mut left = available.saturating_sub(capped_sum(cap));
    for w in widths.iter_mut() {
        if *w > cap {
            *w = if left > 0 {
                left -= 1;
                cap + 1
            } else {
                cap
            };
        }
    }
}
