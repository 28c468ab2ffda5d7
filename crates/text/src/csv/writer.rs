//! The CSV writer.

use crate::types::format_data_type;
use crate::value::{BinaryText, is_text_type, write_field_text};
use quiver_arrow::{DataType, Error, RecordBatch, Result, Schema};
use std::io::Write;

/// Options of [`CsvWriter`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CsvWriteOptions {
    /// Field delimiter (default `,`).
    pub delimiter: u8,
    /// Whether to write a header line with the column names (default `true`).
    pub header: bool,
}

impl Default for CsvWriteOptions {
    fn default() -> Self {
        CsvWriteOptions {
            delimiter: b',',
            header: true,
        }
    }
}

impl CsvWriteOptions {
    /// Sets [`CsvWriteOptions::delimiter`].
    pub fn with_delimiter(mut self, delimiter: u8) -> Self {
        self.delimiter = delimiter;
        self
    }
    /// Sets [`CsvWriteOptions::header`].
    pub fn with_header(mut self, header: bool) -> Self {
        self.header = header;
        self
    }
}

/// Writes record batches as CSV (value forms in the [module docs](super)).
///
/// ```
/// use quiver_text::csv::{CsvWriter, CsvWriteOptions};
/// use quiver_arrow::{Array, PrimitiveArray, StringArray, RecordBatch, Schema, Field, DataType};
/// let schema = Schema::new(vec![Field::new("id", DataType::Int32, true), Field::new("s", DataType::Utf8, true)]);
/// let batch = RecordBatch::try_new(schema.clone().into(), vec![
///     Array::from(PrimitiveArray::<i32>::from_options([Some(1), None, Some(3)])),
///     Array::from(StringArray::from_options([Some("a,b"), Some("x"), Some("")])),
/// ]).unwrap();
/// let mut w = CsvWriter::try_new(Vec::new(), &schema, CsvWriteOptions::default()).unwrap();
/// w.write(&batch).unwrap();
/// assert_eq!(String::from_utf8(w.finish().unwrap()).unwrap(), "id,s\n1,\"a,b\"\n,x\n3,\"\"\n");
/// ```
pub struct CsvWriter<W: Write> {
    w: W,
    schema: Schema,
    delimiter: u8,
    /// Per column: whether an empty value is written `""` (strings and binary).
    quote_empty: Vec<bool>,
    buf: Vec<u8>,
    scratch: Vec<u8>,
}

/// Flush to the inner writer when the buffer grows beyond this.
const FLUSH_AT: usize = 1 << 16;

impl<W: Write> CsvWriter<W> {
    /// A writer for batches of `schema`; writes the header now when asked. Nested column
    /// types are [`Error::NotSupported`].
    pub fn try_new(w: W, schema: &Schema, options: CsvWriteOptions) -> Result<Self> {
        for f in schema.fields.iter() {
            if !is_text_type(f.data_type()) {
                return Err(Error::not_supported(format!(
                    "column {:?} has type {}, which CSV cannot hold (nested types are not supported)",
                    f.name(),
                    format_data_type(f.data_type())
                )));
            }
        }
        let mut writer = CsvWriter {
            w,
            schema: schema.clone(),
            delimiter: options.delimiter,
            quote_empty: schema
                .fields
                .iter()
                .map(|f| is_string_like(f.data_type()))
                .collect(),
            buf: Vec::with_capacity(FLUSH_AT + 1024),
            scratch: Vec::new(),
        };
        if options.header && !schema.fields.is_empty() {
            for (i, f) in schema.fields.iter().enumerate() {
                writer.field(i, Some(f.name().as_bytes()));
            }
            writer.buf.push(b'\n');
        }
        Ok(writer)
    }

    /// Appends field `i` (`None` for a null), with its delimiter.
    fn field(&mut self, i: usize, value: Option<&[u8]>) {
        if i > 0 {
            self.buf.push(self.delimiter);
        }
        match value {
            None if self.schema.fields.len() == 1 => self.buf.extend_from_slice(b"\"\""),
            None => {}
            Some(v) => write_field(&mut self.buf, v, self.delimiter, self.quote_empty[i]),
        }
    }

    /// Writes the rows of `batch`, whose column types must be the schema's.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        // A cheap clone (shared fields), so rows can be written through `&mut self`.
        let fields = self.schema.fields.clone();
        if batch.num_columns() != fields.len() {
            return Err(Error::invalid(format!(
                "the batch has {} columns, the CSV writer's schema {}",
                batch.num_columns(),
                fields.len()
            )));
        }
        for (f, c) in fields.iter().zip(batch.columns()) {
            if c.data_type() != f.data_type() {
                return Err(Error::invalid(format!(
                    "column {:?} has type {} in the batch but {} in the writer's schema",
                    f.name(),
                    format_data_type(c.data_type()),
                    format_data_type(f.data_type())
                )));
            }
        }
        if fields.is_empty() {
            return Ok(());
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        for row in 0..batch.num_rows() {
            for (i, c) in batch.columns().iter().enumerate() {
                scratch.clear();
                if c.is_valid(row) {
                    write_field_text(&mut scratch, &fields[i], c, row, BinaryText::Raw);
                    self.field(i, Some(&scratch));
                } else {
                    self.field(i, None);
                }
            }
            self.buf.push(b'\n');
            if self.buf.len() >= FLUSH_AT {
                self.w.write_all(&self.buf)?;
                self.buf.clear();
            }
        }
        self.scratch = scratch;
        Ok(())
    }

    /// Writes what is buffered, flushes and returns the inner writer.
    pub fn finish(mut self) -> Result<W> {
        self.w.write_all(&self.buf)?;
        self.w.flush()?;
        Ok(self.w)
    }
}

/// Appends one field: quoted (inner quotes doubled) when it holds the delimiter, a quote or
/// a line end, or when it is empty and `quote_empty`.
fn write_field(out: &mut Vec<u8>, v: &[u8], delimiter: u8, quote_empty: bool) {
    let special = |b: &u8| *b == delimiter || matches!(b, b'"' | b'\n' | b'\r');
    let quote = v.iter().any(special) || (v.is_empty() && quote_empty);
    if !quote {
        out.extend_from_slice(v);
        return;
    }
    out.push(b'"');
    for part in v.split_inclusive(|&b| b == b'"') {
        out.extend_from_slice(part);
        if part.last() == Some(&b'"') {
            out.push(b'"');
        }
    }
    out.push(b'"');
}

/// Whether values of `dt` are text or bytes (an empty value differs from a null).
pub(super) fn is_string_like(dt: &DataType) -> bool {
    match dt {
        DataType::Dictionary { value, .. } => is_string_like(value),
        other => matches!(
            other,
            DataType::Utf8
                | DataType::LargeUtf8
                | DataType::Utf8View
                | DataType::Binary
                | DataType::LargeBinary
                | DataType::BinaryView
                | DataType::FixedSizeBinary(_)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_when_needed() {
        let f = |v: &str, empty| {
            let mut out = Vec::new();
            write_field(&mut out, v.as_bytes(), b',', empty);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(f("plain", true), "plain");
        assert_eq!(f("a,b", false), "\"a,b\"");
        assert_eq!(f("say \"hi\"", false), "\"say \"\"hi\"\"\"");
        assert_eq!(f("two\nlines", false), "\"two\nlines\"");
        assert_eq!(f("", true), "\"\"");
        assert_eq!(f("", false), "");
    }
}
