//! The streaming format over `std::io::Read`.
//!
//! A stream is a schema message, then dictionary batches and record batches in any order
//! (a dictionary before the first batch that uses it), then an end-of-stream marker
//! (`0xFFFFFFFF 00000000`, or the legacy `00000000`) or simply the end of the input.

use super::ReadOptions;
use super::dictionary::DictionaryTable;
use super::state::{Decoded, StreamState};
use crate::message::read_message;
use crate::schema::IpcSchema;
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
    /// The stream-level state; its schema is set by `try_new`.
    state: StreamState,
    /// Message-level custom metadata of the last batch read.
    batch_metadata: Metadata,
}

impl<R> std::fmt::Debug for StreamReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamReader")
            .field("state", &self.state)
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
        let mut state = StreamState::new(options);
        let message = read_message(&mut reader)
            .map_err(|e| state.fail(e))?
            .ok_or_else(|| Error::oos("the stream has no schema message (it is empty)"))?;
        state.decode(&message)?; // the first message: the schema, or an error
        Ok(StreamReader {
            reader,
            state,
            batch_metadata: Metadata::new(),
        })
    }

    /// The schema of the batches.
    pub fn schema(&self) -> &SchemaRef {
        &self.ipc_schema().schema
    }

    /// The schema with its dictionary ids and byte order.
    pub fn ipc_schema(&self) -> &IpcSchema {
        self.state.ipc_schema().expect("try_new read the schema") // ok: set before try_new returns
    }

    /// The schema's custom metadata.
    pub fn custom_metadata(&self) -> &Metadata {
        &self.schema().metadata
    }

    /// The dictionaries read so far.
    pub fn dictionaries(&self) -> &DictionaryTable {
        self.state.dictionaries().expect("try_new read the schema") // ok: set before try_new returns
    }

    /// The message-level custom metadata of the batch returned last (empty when it had none).
    pub fn batch_metadata(&self) -> &Metadata {
        &self.batch_metadata
    }

    /// The underlying reader.
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// The next record batch, `None` at the end of the stream (and after an error: nothing
    /// sensible follows).
    pub fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        while !self.state.is_finished() && !self.state.is_failed() {
            let message = match read_message(&mut self.reader) {
                Ok(Some(message)) => message,
                Ok(None) => {
                    self.state.end();
                    break;
                }
                Err(e) => return Err(self.state.fail(e)),
            };
            if let Decoded::RecordBatch(batch, metadata) = self.state.decode(&message)? {
                self.batch_metadata = metadata;
                return Ok(Some(batch));
            }
        }
        Ok(None)
    }
}

impl<R: Read> Iterator for StreamReader<R> {
    type Item = Result<RecordBatch>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_batch().transpose()
    }
}
