//! The CSV writer.

use crate::types::format_data_type;
use crate::value::{BinaryText, is_text_type, write_text};
use quiver_arrow::{Error, RecordBatch, Result, Schema};
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
///     Array::from(PrimitiveArray::<i32>::from_options([Some(1), None])),
///     Array::from(StringArray::from_options([Some("a,b"), Some("x")])),
/// ]).unwrap();
/// let mut w = CsvWriter::try_new(Vec::new(), &schema, CsvWriteOptions::default()).unwrap();
/// w.write(&batch).unwrap();
/// assert_eq!(String::from_utf8(w.finish().unwrap()).unwrap(), "id,s\n1,\"a,b\"\n,x\n");
/// ```
pub struct CsvWriter<W: Write> {
    writer: csv::Writer<W>,
    schema: Schema,
    scratch: Vec<u8>,
}

fn csv_error(e: csv::Error) -> Error {
    match e.into_kind() {
        csv::ErrorKind::Io(io) => Error::from(io),
        other => Error::invalid(format!("CSV writer: {other:?}")),
    }
}

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
        let mut writer = csv::WriterBuilder::new()
            .delimiter(options.delimiter)
            .from_writer(w);
        if options.header && !schema.fields.is_empty() {
            let names = schema.fields.iter().map(|f| f.name().as_bytes());
            writer.write_record(names).map_err(csv_error)?;
        }
        Ok(CsvWriter {
            writer,
            schema: schema.clone(),
            scratch: Vec::new(),
        })
    }

    /// Writes the rows of `batch`, whose column types must be the schema's.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        let fields = &self.schema.fields;
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
        for row in 0..batch.num_rows() {
            for c in batch.columns() {
                self.scratch.clear();
                if c.is_valid(row) {
                    write_text(&mut self.scratch, c, row, BinaryText::Raw);
                }
                self.writer.write_field(&self.scratch).map_err(csv_error)?;
            }
            self.writer
                .write_record(std::iter::empty::<&[u8]>())
                .map_err(csv_error)?;
        }
        Ok(())
    }

    /// Flushes and returns the inner writer.
    pub fn finish(self) -> Result<W> {
        self.writer
            .into_inner()
            .map_err(|e| Error::from(std::io::Error::new(e.error().kind(), e.error().to_string())))
    }
}
