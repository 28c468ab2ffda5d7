//! The streaming JSON Lines reader.

use super::JsonReadOptions;
use super::decode::{DecodeError, Mode, append_members, check_readable};
use super::infer::{Kind, merge_value, struct_fields};
use super::parser::{Json, parse};
use quiver_arrow::builder::{ArrayBuilder, make_builder};
use quiver_arrow::{Error, RecordBatch, Result, Schema, SchemaRef};
use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::Arc;

/// Reads JSON Lines into record batches (see the [module docs](super) for inference and the
/// accepted values).
///
/// ```
/// use quiver_text::json::{JsonReader, JsonReadOptions};
/// let data = "{\"a\": 1, \"b\": {\"c\": [1.5, null]}}\n\n{\"a\": null}\n";
/// let mut r = JsonReader::try_new(data.as_bytes(), JsonReadOptions::default()).unwrap();
/// assert_eq!(quiver_text::format_schema(r.schema()),
///            "a: int64, b: struct<c: list<item: double>>");
/// let batch = r.next_batch().unwrap().unwrap();
/// assert_eq!(batch.num_rows(), 2);
/// ```
pub struct JsonReader<R: BufRead> {
    reader: R,
    schema: SchemaRef,
    builders: Vec<ArrayBuilder>,
    line: Vec<u8>,
    line_no: u64,
    /// Sampled lines (number, bytes) not yet returned.
    pending: VecDeque<(u64, Vec<u8>)>,
    mode: Mode,
    batch_size: usize,
    done: bool,
}

impl<R: BufRead> JsonReader<R> {
    /// Prepares to read; without an explicit schema, reads up to
    /// [`JsonReadOptions::infer_rows`] objects to infer it (they are returned by the first
    /// batches as usual).
    pub fn try_new(reader: R, options: JsonReadOptions) -> Result<Self> {
        let mut r = JsonReader {
            reader,
            schema: Arc::new(Schema::default()),
            builders: Vec::new(),
            line: Vec::new(),
            line_no: 0,
            pending: VecDeque::new(),
            mode: Mode {
                strict_keys: options.schema.is_none(),
            },
            batch_size: options.batch_size.max(1),
            done: false,
        };
        r.schema = match &options.schema {
            Some(s) => s.clone(),
            None => Arc::new(r.infer(options.infer_rows.max(1))?),
        };
        let capacity = r.batch_size.min(8192);
        for f in r.schema.fields.iter() {
            check_readable(f)?;
            r.builders.push(make_builder(f.data_type(), capacity)?);
        }
        Ok(r)
    }

    fn infer(&mut self, rows: usize) -> Result<Schema> {
        let mut kind = Kind::Struct(Vec::new());
        while self.pending.len() < rows && self.read_line()? {
            let line_no = self.line_no;
            let value = parse_object(&self.line, line_no)?;
            merge_value(&mut kind, &value).map_err(|c| {
                let e = DecodeError {
                    path: c.path,
                    message: c.message,
                };
                row_error(line_no, &e)
            })?;
            self.pending.push_back((line_no, self.line.clone()));
        }
        let Kind::Struct(fields) = kind else {
            return Err(Error::oos("internal error: rows did not infer to a struct"));
        };
        Ok(Schema::new(struct_fields(&fields)))
    }

    /// Reads the next non-blank line into `self.line`; `false` at the end.
    fn read_line(&mut self) -> Result<bool> {
        loop {
            self.line.clear();
            if self.reader.read_until(b'\n', &mut self.line)? == 0 {
                return Ok(false);
            }
            self.line_no += 1;
            // A UTF-8 byte order mark may open the input (as pyarrow and DuckDB read it).
            if self.line_no == 1 && self.line.starts_with(b"\xEF\xBB\xBF") {
                self.line.drain(..3);
            }
            if self.line.iter().any(|b| !b.is_ascii_whitespace()) {
                return Ok(true);
            }
        }
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
        while rows < self.batch_size {
            let line_no = if let Some((n, bytes)) = self.pending.pop_front() {
                self.line = bytes;
                n
            } else if self.read_line()? {
                self.line_no
            } else {
                break;
            };
            let value = parse_object(&self.line, line_no)?;
            let Json::Object(members) = &value else {
                return Err(Error::oos("internal error: not an object"));
            };
            append_members(&mut self.builders, &self.schema.fields, members, self.mode)
                .map_err(|e| row_error(line_no, &e))?;
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
}

impl<R: BufRead> Iterator for JsonReader<R> {
    type Item = Result<RecordBatch>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_batch().transpose()
    }
}

/// Parses a line that must hold one object.
fn parse_object(line: &[u8], line_no: u64) -> Result<Json<'_>> {
    let v = parse(line).map_err(|m| Error::oos(m).context(format!("line {line_no}")))?;
    if !matches!(v, Json::Object(_)) {
        return Err(
            Error::oos(format!("expected a JSON object, found {}", v.kind()))
                .context(format!("line {line_no}")),
        );
    }
    Ok(v)
}

fn row_error(line_no: u64, e: &DecodeError) -> Error {
    Error::OutOfSpec {
        context: format!("line {line_no}, field {:?}", e.path_text()),
        message: e.message.clone(),
    }
}
