//! The stream-level rules, sans-IO: one complete message in, what it means out.
//!
//! The first message must be the schema; then dictionary batches update the dictionary table
//! and record batches are decoded against it. [`StreamReader`](super::StreamReader) (pulling
//! messages from `std::io::Read`) and [`StreamDecoder`](super::StreamDecoder) (framing pushed
//! bytes) both drive a [`StreamState`], so they count messages, name them in errors and stop
//! after an error the same way.

use super::ReadOptions;
use super::batch::decode_record_batch;
use super::dictionary::DictionaryTable;
use crate::message::{Message, MessageKind};
use crate::schema::IpcSchema;
use quiver_arrow::{Error, Metadata, RecordBatch, Result, SchemaRef};

/// What one message of a stream meant.
#[derive(Debug)]
pub enum Decoded {
    /// The schema (the first message) was read.
    Schema,
    /// A dictionary batch with this id was applied to the dictionary table.
    Dictionary(i64),
    /// A record batch and the custom metadata of its message (empty when it had none).
    RecordBatch(RecordBatch, Metadata),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    /// Taking messages.
    Running,
    /// The stream ended ([`StreamState::end`]).
    Finished,
    /// A message could not be read or decoded; nothing more is decoded.
    Failed,
}

/// The state of a stream being read, fed one complete [`Message`] at a time: the schema, the
/// dictionaries read so far, the options, message and batch counters, and whether the stream
/// ended or failed. It does no IO: a caller frames messages (e.g. with
/// [`read_message`](crate::message::read_message), or from the data and header of a transport
/// that frames messages itself) and hands them over.
///
/// Errors name the message by its index in the stream (`message 0 (schema)`, `message N`) and
/// record batches by their index among the batches (`record batch K`).
///
/// ```
/// use quiver_arrow::{Array, DataType, Field, Metadata, PrimitiveArray, RecordBatch, Schema};
/// use quiver_ipc::message::read_message;
/// use quiver_ipc::read::{Decoded, ReadOptions, StreamState};
/// use quiver_ipc::write::{StreamWriter, WriteOptions};
/// use std::sync::Arc;
/// let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int32, true)]));
/// let x = Array::from(PrimitiveArray::<i32>::from_options([Some(1), None]));
/// let batch = RecordBatch::try_new(schema.clone(), vec![x]).unwrap();
/// let mut w = StreamWriter::try_new(Vec::new(), schema, WriteOptions::default()).unwrap();
/// let metadata = Metadata::from([("k".to_string(), "v".to_string())]);
/// w.write_with_metadata(&batch, &metadata).unwrap();
/// let bytes = w.finish().unwrap();
///
/// let mut state = StreamState::new(ReadOptions::new());
/// let mut input = &bytes[..];
/// while let Some(message) = read_message(&mut input).unwrap() {
///     match state.decode(&message).unwrap() {
///         Decoded::Schema | Decoded::Dictionary(_) => {}
///         Decoded::RecordBatch(b, metadata) => {
///             assert_eq!(b.num_rows(), 2);
///             assert_eq!(metadata["k"], "v");
///         }
///     }
/// }
/// state.end();
/// assert_eq!((state.messages(), state.batches()), (2, 1));
/// // A second schema message breaks the rules.
/// let mut again = &bytes[..];
/// let schema_message = read_message(&mut again).unwrap().unwrap();
/// let mut state = StreamState::new(ReadOptions::new());
/// state.decode(&schema_message).unwrap();
/// let e = state.decode(&schema_message).unwrap_err();
/// assert_eq!(e.to_string(), "message 1: a second schema message");
/// assert!(state.is_failed());
/// ```
pub struct StreamState {
    schema: Option<(IpcSchema, DictionaryTable)>,
    options: ReadOptions,
    /// Messages taken so far: the index of the next one (the schema is message 0).
    messages: usize,
    /// Record batch messages taken so far.
    batches: usize,
    status: Status,
}

impl std::fmt::Debug for StreamState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamState")
            .field("schema", &self.ipc_schema())
            .field("messages", &self.messages)
            .field("batches", &self.batches)
            .field("status", &self.status)
            .finish_non_exhaustive()
    }
}

impl StreamState {
    /// A stream before its schema message, read as `options` say.
    pub fn new(options: ReadOptions) -> Self {
        StreamState {
            schema: None,
            options,
            messages: 0,
            batches: 0,
            status: Status::Running,
        }
    }

    /// The options batches are read with.
    pub fn options(&self) -> &ReadOptions {
        &self.options
    }

    /// The schema, once its message has been decoded.
    pub fn schema(&self) -> Option<&SchemaRef> {
        self.ipc_schema().map(|s| &s.schema)
    }

    /// The schema with dictionary ids and byte order, once decoded.
    pub fn ipc_schema(&self) -> Option<&IpcSchema> {
        self.schema.as_ref().map(|(s, _)| s)
    }

    /// The dictionaries read so far (once the schema is known).
    pub fn dictionaries(&self) -> Option<&DictionaryTable> {
        self.schema.as_ref().map(|(_, d)| d)
    }

    /// The number of messages taken so far, which is the index of the next message.
    pub fn messages(&self) -> usize {
        self.messages
    }

    /// The number of record batch messages taken so far.
    pub fn batches(&self) -> usize {
        self.batches
    }

    /// True once [`StreamState::end`] was called.
    pub fn is_finished(&self) -> bool {
        self.status == Status::Finished
    }

    /// True once a message failed (to be framed or decoded).
    pub fn is_failed(&self) -> bool {
        self.status == Status::Failed
    }

    /// Takes the next message of the stream: the first must be the schema, the others
    /// dictionary or record batches. An error names the message (and the record batch) and
    /// leaves the state failed; after it, or after [`StreamState::end`], every call fails.
    pub fn decode(&mut self, message: &Message) -> Result<Decoded> {
        match self.status {
            Status::Running => {}
            Status::Failed => return Err(Error::oos("the stream failed earlier")),
            Status::Finished => return Err(Error::oos("a message after the end of the stream")),
        }
        let index = self.messages;
        self.messages += 1;
        self.apply(message).map_err(|e| {
            self.status = Status::Failed;
            e.context(message_name(index))
        })
    }

    /// Marks the end of the stream (an end-of-stream marker or the end of the input).
    pub fn end(&mut self) {
        if self.status == Status::Running {
            self.status = Status::Finished;
        }
    }

    /// Records that the next message could not be framed (`error` came from reading its
    /// prefix, metadata or body): the state fails, and the error is returned naming the
    /// message.
    pub fn fail(&mut self, error: Error) -> Error {
        self.status = Status::Failed;
        error.context(message_name(self.messages))
    }

    fn apply(&mut self, message: &Message) -> Result<Decoded> {
        let Some((schema, dictionaries)) = &mut self.schema else {
            let schema = message.schema()?;
            let dictionaries = DictionaryTable::new(&schema)?;
            self.schema = Some((schema, dictionaries));
            return Ok(Decoded::Schema);
        };
        match message.kind() {
            MessageKind::Schema => Err(Error::oos("a second schema message")),
            MessageKind::DictionaryBatch => dictionaries
                .apply(message, &self.options)
                .map(Decoded::Dictionary),
            MessageKind::RecordBatch => {
                let batch = self.batches;
                self.batches += 1;
                decode_record_batch(message, schema, dictionaries, &self.options)
                    .map(|b| Decoded::RecordBatch(b, message.custom_metadata()))
                    .map_err(|e| e.context(format!("record batch {batch}")))
            }
        }
    }
}

/// How errors name the message at `index`.
fn message_name(index: usize) -> String {
    match index {
        0 => "message 0 (schema)".to_string(),
        i => format!("message {i}"),
    }
}
