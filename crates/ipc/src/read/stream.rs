//! The streaming format over `std::io::Read`.
//!
//! A stream is a schema message, then dictionary batches and record batches in any order
//! (a dictionary before the first batch that uses it), then an end-of-stream marker
//! (`0xFFFFFFFF 00000000`, or the legacy `00000000`) or simply the end of the input.

use super::ReadOptions;
use super::batch::decode_record_batch;
use super::dictionary::DictionaryTable;
use crate::convert::{IpcSchema, schema_from_fb};
use crate::message::{Message, MessageKind, read_message};
use quiver_arrow::{Error, Metadata, RecordBatch, Result, SchemaRef};
use std::io::Read;

/// Reads record batches from an IPC stream.
///
/// ```no_run
/// use quiver_ipc::read::StreamReader;
/// let file = std::fs::File::open("data.stream")?;
/// let reader = StreamReader::try_new(std::io::BufReader::new(file))?;
/// println!("{} columns", reader.schema().fields.len());
/// for batch in reader {
///     println!("{} rows", batch?.num_rows());
/// }
/// # Ok::<(), quiver_arrow::Error>(())
/// ```
pub struct StreamReader<R> {
    reader: R,
    schema: IpcSchema,
    dictionaries: DictionaryTable,
    options: ReadOptions,
    /// Messages read so far (the schema is message 0).
    messages: usize,
    batches: usize,
    done: bool,
    /// Message-level custom metadata of the last batch read.
    batch_metadata: Metadata,
}

impl<R> std::fmt::Debug for StreamReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamReader")
            .field("schema", &self.schema)
            .field("messages", &self.messages)
            .field("batches", &self.batches)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl<R: Read> StreamReader<R> {
    /// Reads the schema message, with full validation of everything read later.
    pub fn try_new(reader: R) -> Result<Self> {
        Self::try_new_with_options(reader, ReadOptions::new())
    }

    /// Reads the schema message; batches are read as `options` say.
    pub fn try_new_with_options(mut reader: R, options: ReadOptions) -> Result<Self> {
        let message = read_message(&mut reader)
            .map_err(|e| e.context("message 0 (schema)"))?
            .ok_or_else(|| Error::oos("the stream has no schema message (it is empty)"))?;
        let schema = schema_of(&message).map_err(|e| e.context("message 0 (schema)"))?;
        Ok(StreamReader {
            reader,
            dictionaries: DictionaryTable::new(&schema)?,
            schema,
            options,
            messages: 1,
            batches: 0,
            done: false,
            batch_metadata: Metadata::new(),
        })
    }

    /// The schema of the batches.
    pub fn schema(&self) -> &SchemaRef {
        &self.schema.schema
    }

    /// The schema with its dictionary ids and byte order.
    pub fn ipc_schema(&self) -> &IpcSchema {
        &self.schema
    }

    /// The schema's custom metadata.
    pub fn custom_metadata(&self) -> &Metadata {
        &self.schema.schema.metadata
    }

    /// The dictionaries read so far.
    pub fn dictionaries(&self) -> &DictionaryTable {
        &self.dictionaries
    }

    /// The message-level custom metadata of the batch returned last (empty when it had none).
    pub fn batch_metadata(&self) -> &Metadata {
        &self.batch_metadata
    }

    /// The underlying reader.
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// The next record batch, `None` at the end of the stream.
    pub fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        if self.done {
            return Ok(None);
        }
        let r = self.read_until_batch();
        if !matches!(r, Ok(Some(_))) {
            self.done = true; // the end, or an error: nothing sensible follows
        }
        r
    }

    fn read_until_batch(&mut self) -> Result<Option<RecordBatch>> {
        loop {
            let index = self.messages;
            let ctx = |e: Error| e.context(format!("message {index}"));
            let Some(message) = read_message(&mut self.reader).map_err(ctx)? else {
                return Ok(None);
            };
            self.messages += 1;
            match message.kind() {
                MessageKind::Schema => return Err(ctx(Error::oos("a second schema message"))),
                MessageKind::DictionaryBatch => {
                    self.dictionaries
                        .apply(&message, &self.options)
                        .map_err(ctx)?;
                }
                MessageKind::RecordBatch => {
                    let batch = self.batches;
                    self.batches += 1;
                    self.batch_metadata = message.custom_metadata();
                    return decode_record_batch(
                        &message,
                        &self.schema,
                        &self.dictionaries,
                        &self.options,
                    )
                    .map(Some)
                    .map_err(|e| ctx(e.context(format!("record batch {batch}"))));
                }
            }
        }
    }
}

impl<R: Read> Iterator for StreamReader<R> {
    type Item = Result<RecordBatch>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_batch().transpose()
    }
}

/// The schema a schema message carries.
pub(crate) fn schema_of(message: &Message) -> Result<IpcSchema> {
    let s = message.fb().header_as_schema().ok_or_else(|| {
        Error::oos(format!(
            "expected a schema message, found {:?}",
            message.kind()
        ))
    })?;
    schema_from_fb(s)
}
