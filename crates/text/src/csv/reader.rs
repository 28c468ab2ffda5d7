//! The streaming CSV reader.

use super::CsvReadOptions;
use super::infer::ColumnGuess;
use super::record::{Record, RecordReader};
use super::writer::is_string_like;
use crate::types::format_data_type;
use crate::value::{BinaryText, append_text, is_text_type};
use quiver_arrow::builder::{ArrayBuilder, make_builder};
use quiver_arrow::{Error, Field, RecordBatch, Result, Schema, SchemaRef};
use std::collections::VecDeque;
use std::io::Read;
use std::sync::Arc;

/// Reads CSV into record batches (see the [module docs](super) for nulls and inference).
///
/// Text accepted per type with an explicit schema: integers of every width (range-checked);
/// floats (`1.5`, `-2e-3`, `inf`, `NaN`); booleans (`true`/`false` in any case, `1`/`0`);
/// strings (must be UTF-8) and binary (the raw bytes); `fixed_size_binary[N]` (exactly N
/// bytes); `date32` `YYYY-MM-DD`; `date64` a date or timestamp; timestamps
/// `YYYY-MM-DD[T| ]HH:MM[:SS[.fraction]][Z|±HH:MM]` (a value with an offset converts exactly;
/// a value without one in a zoned column is local time in the column's zone, and an error
/// when that local time falls in a daylight-saving gap or fold, as with pyarrow's
/// `assume_timezone`; a zone in a column without one is an error; fraction digits beyond the
/// unit must be zeros); times
/// `HH:MM[:SS[.fraction]]`; durations an integer count; decimals exactly (`-123.45`, `1e3`),
/// digits beyond the scale must be zeros and more digits than the precision is an error;
/// intervals as `quiver_arrow::display` writes them; dictionaries of strings or binary
/// (dictionary-encoded). Nested types are [`Error::NotSupported`].
///
/// ```
/// use quiver_text::csv::{CsvReader, CsvReadOptions};
/// let data = "id,name\n1,a\n2,\n";
/// let mut r = CsvReader::try_new(data.as_bytes(), CsvReadOptions::default()).unwrap();
/// assert_eq!(r.schema().fields[0].data_type(), &quiver_arrow::DataType::Int64);
/// let batch = r.next_batch().unwrap().unwrap();
/// assert_eq!(batch.num_rows(), 2);
/// assert_eq!(batch.column(1).null_count(), 1);
/// ```
pub struct CsvReader<R: Read> {
    reader: RecordReader<R>,
    schema: SchemaRef,
    builders: Vec<ArrayBuilder>,
    /// Per column: how nulls are recognised.
    nulls: Vec<NullRule>,
    null_values: Vec<Vec<u8>>,
    /// Sampled records not yet returned.
    pending: VecDeque<Record>,
    record: Record,
    batch_size: usize,
    done: bool,
}

impl<R: Read> CsvReader<R> {
    /// Reads the header and, without an explicit schema, samples up to
    /// [`CsvReadOptions::infer_rows`] records to infer the column types (they are returned by
    /// the first batches as usual).
    pub fn try_new(reader: R, options: CsvReadOptions) -> Result<Self> {
        let mut reader = RecordReader::new(reader, options.delimiter, options.quote);
        let mut record = Record::default();
        let header = if options.has_header {
            if !read_record(&mut reader, &mut record)? {
                return Err(Error::oos(
                    "the CSV input is empty: there is no header line",
                ));
            }
            Some(header_names(&record))
        } else {
            None
        };
        let mut pending = VecDeque::new();
        let schema = match &options.schema {
            Some(s) => explicit_schema(s, header.as_deref())?,
            None => {
                let sample_rows = options.infer_rows.max(1);
                while pending.len() < sample_rows && read_record(&mut reader, &mut record)? {
                    pending.push_back(record.clone());
                }
                Arc::new(infer_schema(header, &pending, &options.null_values)?)
            }
        };
        Self::with_schema(reader, schema, pending, &options)
    }

    fn with_schema(
        reader: RecordReader<R>,
        schema: SchemaRef,
        pending: VecDeque<Record>,
        options: &CsvReadOptions,
    ) -> Result<Self> {
        let batch_size = options.batch_size.max(1);
        let capacity = batch_size.min(8192);
        let mut builders = Vec::with_capacity(schema.fields.len());
        let mut nulls = Vec::with_capacity(schema.fields.len());
        for f in schema.fields.iter() {
            if !is_text_type(f.data_type()) {
                return Err(Error::not_supported(format!(
                    "column {:?} has type {}, which CSV cannot hold (nested types are not supported)",
                    f.name(),
                    format_data_type(f.data_type())
                )));
            }
            builders.push(make_builder(f.data_type(), capacity)?);
            nulls.push(match is_string_like(f.data_type()) {
                false => NullRule::EmptyOrMarker,
                true if options.strings_can_be_null => NullRule::UnquotedMarker,
                true => NullRule::Never,
            });
        }
        Ok(CsvReader {
            reader,
            schema,
            builders,
            nulls,
            null_values: options
                .null_values
                .iter()
                .map(|s| s.as_bytes().to_vec())
                .collect(),
            pending,
            record: Record::default(),
            batch_size,
            done: false,
        })
    }

    /// The schema of the batches (explicit or inferred).
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// The next batch of up to `batch_size` rows, or `None` at the end. After an error the
    /// reader is finished (further calls return `None`).
    pub fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        if self.done {
            return Ok(None);
        }
        let result = self.fill_batch();
        if !matches!(result, Ok(Some(_))) {
            self.done = true;
        }
        result
    }

    fn fill_batch(&mut self) -> Result<Option<RecordBatch>> {
        let mut rows = 0;
        while rows < self.batch_size && self.next_record()? {
            self.append_record()?;
            rows += 1;
        }
        if rows == 0 {
            return Ok(None);
        }
        let columns = self
            .builders
            .iter_mut()
            .map(|b| b.try_finish())
            .collect::<Result<_>>()?;
        RecordBatch::try_new_with_rows(self.schema.clone(), columns, rows).map(Some)
    }

    /// Moves the next record (sampled or fresh) into `self.record`.
    fn next_record(&mut self) -> Result<bool> {
        if let Some(r) = self.pending.pop_front() {
            self.record = r;
            return Ok(true);
        }
        read_record(&mut self.reader, &mut self.record)
    }

    fn append_record(&mut self) -> Result<()> {
        let line = self.record.line();
        let fields = &self.schema.fields;
        if self.record.len() != fields.len() {
            return Err(wrong_field_count(line, fields.len(), self.record.len()));
        }
        for (i, (v, quoted)) in self.record.iter().enumerate() {
            let field = &fields[i];
            let b = &mut self.builders[i];
            if self.nulls[i].is_null(v, quoted, &self.null_values) {
                if !field.is_nullable() {
                    return Err(value_error(
                        line,
                        field,
                        "null value in a non-nullable column",
                    ));
                }
                b.append_null();
                continue;
            }
            append_text(b, field.data_type(), v, BinaryText::Raw)
                .map_err(|m| value_error(line, field, &m))?;
        }
        Ok(())
    }
}

impl<R: Read> Iterator for CsvReader<R> {
    type Item = Result<RecordBatch>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_batch().transpose()
    }
}

fn value_error(line: u64, field: &Field, message: &str) -> Error {
    Error::OutOfSpec {
        context: format!("line {line}, column {:?}", field.name()),
        message: message.to_string(),
    }
}

/// How a column recognises nulls (see the module docs).
#[derive(Clone, Copy, Debug)]
enum NullRule {
    /// Non-string columns: an empty field (quoted or not) or a null marker.
    EmptyOrMarker,
    /// String and binary columns: an unquoted field equal to a marker (`""` is a string).
    UnquotedMarker,
    /// String and binary columns with `strings_can_be_null == false`.
    Never,
}

impl NullRule {
    fn is_null(self, v: &[u8], quoted: bool, markers: &[Vec<u8>]) -> bool {
        match self {
            NullRule::EmptyOrMarker => v.is_empty() || markers.iter().any(|n| n == v),
            NullRule::UnquotedMarker => !quoted && markers.iter().any(|n| n == v),
            NullRule::Never => false,
        }
    }
}

/// Reads one record; `false` at the end.
fn read_record<R: Read>(reader: &mut RecordReader<R>, record: &mut Record) -> Result<bool> {
    reader.read(record)
}

fn header_names(record: &Record) -> Vec<String> {
    record
        .iter()
        .map(|(name, _)| String::from_utf8_lossy(name).into_owned())
        .collect()
}

fn explicit_schema(schema: &SchemaRef, header: Option<&[String]>) -> Result<SchemaRef> {
    if let Some(names) = header {
        if names.len() != schema.fields.len() {
            return Err(Error::oos(format!(
                "line 1: the header has {} fields but the schema has {} columns",
                names.len(),
                schema.fields.len()
            )));
        }
    }
    Ok(schema.clone())
}

/// A record with `found` fields where the header (or schema) has `expected`.
fn wrong_field_count(line: impl std::fmt::Display, expected: usize, found: usize) -> Error {
    let noun = if expected == 1 { "field" } else { "fields" };
    Error::oos(format!(
        "line {line}: expected {expected} {noun}, found {found}"
    ))
}

fn infer_schema(
    header: Option<Vec<String>>,
    sample: &VecDeque<Record>,
    null_values: &[String],
) -> Result<Schema> {
    let names = match header {
        Some(names) => names,
        None => {
            let width = sample.front().map_or(0, Record::len);
            (0..width).map(|i| format!("f{i}")).collect()
        }
    };
    let nulls: Vec<&[u8]> = null_values.iter().map(|s| s.as_bytes()).collect();
    let mut guesses = vec![ColumnGuess::default(); names.len()];
    for record in sample {
        if record.len() != names.len() {
            return Err(wrong_field_count(record.line(), names.len(), record.len()));
        }
        for (g, (v, quoted)) in guesses.iter_mut().zip(record.iter()) {
            // Quoted text is a value even when it spells a null marker.
            if v.is_empty() && quoted {
                g.add_quoted_empty();
            } else if !v.is_empty() && (quoted || !nulls.contains(&v)) {
                g.add(v);
            }
        }
    }
    let fields: Vec<Field> = names
        .into_iter()
        .zip(&guesses)
        .map(|(name, g)| Field::new(name, g.data_type(), true))
        .collect();
    Ok(Schema::new(fields))
}
