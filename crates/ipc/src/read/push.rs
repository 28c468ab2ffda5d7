//! A push decoder for the streaming format: feed bytes as they arrive, get batches out.
//!
//! A small state machine: prefix → metadata → body → (message handled) → prefix… Bytes are
//! buffered only until a message is complete; a message that arrived in one chunk is decoded
//! zero-copy from it, one split over several chunks is first gathered into one aligned buffer.
//! Nothing is allocated beyond the bytes fed in.

use super::ReadOptions;
use super::batch::decode_record_batch;
use super::dictionary::DictionaryTable;
use super::stream::schema_of;
use crate::convert::IpcSchema;
use crate::message::{Message, MessageKind, Prefix, parse_prefix};
use bytes::Bytes;
use quiver_arrow::buffer::MutableBuffer;
use quiver_arrow::{Error, RecordBatch, Result, SchemaRef};
use std::collections::VecDeque;

#[derive(Debug)]
enum State {
    /// Waiting for a message prefix (or the end-of-stream marker).
    Prefix,
    /// Waiting for `len` bytes of metadata.
    Metadata(usize),
    /// Waiting for the body of the message whose metadata is known.
    Body { metadata: Bytes, len: usize },
    /// The end-of-stream marker was read.
    Finished,
    /// An error occurred; nothing more is decoded.
    Failed,
}

/// Decodes an IPC stream pushed in chunks.
///
/// ```
/// use quiver_ipc::read::StreamDecoder;
/// let mut d = StreamDecoder::new();
/// // Half a message prefix: nothing to decode yet, and the stream is incomplete.
/// assert!(d.feed(bytes::Bytes::from_static(&[0xFF, 0xFF])).unwrap().is_empty());
/// assert!(d.schema().is_none());
/// assert!(d.finish().is_err());
/// ```
pub struct StreamDecoder {
    chunks: VecDeque<Bytes>,
    available: usize,
    state: State,
    schema: Option<(IpcSchema, DictionaryTable)>,
    options: ReadOptions,
    messages: usize,
    batches: usize,
}

impl std::fmt::Debug for StreamDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamDecoder")
            .field("state", &self.state)
            .field("buffered", &self.available)
            .field("schema", &self.schema.as_ref().map(|(s, _)| s))
            .field("messages", &self.messages)
            .finish_non_exhaustive()
    }
}

impl Default for StreamDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamDecoder {
    /// A decoder with full validation.
    pub fn new() -> Self {
        Self::with_options(ReadOptions::new())
    }

    /// A decoder reading as `options` say.
    pub fn with_options(options: ReadOptions) -> Self {
        StreamDecoder {
            chunks: VecDeque::new(),
            available: 0,
            state: State::Prefix,
            schema: None,
            options,
            messages: 0,
            batches: 0,
        }
    }

    /// The schema, once its message has been decoded.
    pub fn schema(&self) -> Option<&SchemaRef> {
        self.schema.as_ref().map(|(s, _)| &s.schema)
    }

    /// The schema with dictionary ids and byte order, once decoded.
    pub fn ipc_schema(&self) -> Option<&IpcSchema> {
        self.schema.as_ref().map(|(s, _)| s)
    }

    /// True once the end-of-stream marker has been read.
    pub fn is_finished(&self) -> bool {
        matches!(self.state, State::Finished)
    }

    /// Checks that the input ended at a message boundary after the schema.
    pub fn finish(&self) -> Result<()> {
        match self.state {
            State::Finished => Ok(()),
            State::Prefix if self.available == 0 && self.schema.is_some() => Ok(()),
            State::Prefix if self.available == 0 => {
                Err(Error::oos("the stream has no schema message"))
            }
            State::Failed => Err(Error::oos("the decoder failed earlier")),
            _ => Err(Error::oos(format!(
                "the stream ends inside message {} ({} bytes pending)",
                self.messages, self.available
            ))),
        }
    }

    /// Feeds the next bytes of the stream; returns the record batches they complete. After an
    /// error, every call fails.
    pub fn feed(&mut self, bytes: Bytes) -> Result<Vec<RecordBatch>> {
        if matches!(self.state, State::Failed) {
            return Err(Error::oos("the decoder failed earlier"));
        }
        if matches!(self.state, State::Finished) {
            return Ok(Vec::new()); // bytes after the end-of-stream marker are ignored
        }
        if !bytes.is_empty() {
            self.available += bytes.len();
            self.chunks.push_back(bytes);
        }
        let mut out = Vec::new();
        match self.run(&mut out) {
            Ok(()) => Ok(out),
            Err(e) => {
                self.state = State::Failed;
                Err(e.context(format!("message {}", self.messages)))
            }
        }
    }

    /// Advances the state machine as far as the buffered bytes allow.
    fn run(&mut self, out: &mut Vec<RecordBatch>) -> Result<()> {
        loop {
            match std::mem::replace(&mut self.state, State::Failed) {
                State::Prefix => {
                    let mut head = [0u8; 8];
                    let n = self.peek(&mut head);
                    match parse_prefix(&head[..n])? {
                        None => self.state = State::Prefix,
                        Some(Prefix::EndOfStream { prefix_len }) => {
                            self.take(prefix_len);
                            self.state = State::Finished;
                        }
                        Some(Prefix::Message {
                            prefix_len,
                            metadata_len,
                        }) => {
                            self.take(prefix_len);
                            self.state = State::Metadata(metadata_len);
                        }
                    }
                }
                State::Metadata(len) if self.available >= len => {
                    let metadata = self.take(len);
                    let len = Message::declared_body_length(&metadata)?;
                    self.state = State::Body { metadata, len };
                }
                State::Body { metadata, len } if self.available >= len => {
                    let message = Message::try_new(metadata, self.take(len))?;
                    self.state = State::Prefix;
                    self.messages += 1;
                    if let Some(batch) = self.handle(&message)? {
                        out.push(batch);
                    }
                }
                waiting => self.state = waiting,
            }
            if !matches!(
                self.state,
                State::Prefix | State::Metadata(_) | State::Body { .. }
            ) || !self.can_advance()
            {
                return Ok(());
            }
        }
    }

    /// True when the buffered bytes are enough for the current state's next step.
    fn can_advance(&self) -> bool {
        match &self.state {
            State::Prefix => {
                self.available >= 8 || self.available >= 4 && !self.starts_with_marker()
            }
            State::Metadata(len) => self.available >= *len,
            State::Body { len, .. } => self.available >= *len,
            _ => false,
        }
    }

    fn starts_with_marker(&self) -> bool {
        let mut head = [0u8; 4];
        self.peek(&mut head) == 4 && head == [0xFF; 4]
    }

    fn handle(&mut self, message: &Message) -> Result<Option<RecordBatch>> {
        let Some((schema, dictionaries)) = &mut self.schema else {
            let schema = schema_of(message)?;
            self.schema = Some((schema.clone(), DictionaryTable::new(&schema)?));
            return Ok(None);
        };
        match message.kind() {
            MessageKind::Schema => Err(Error::oos("a second schema message")),
            MessageKind::DictionaryBatch => {
                dictionaries.apply(message, &self.options).map(|_| None)
            }
            MessageKind::RecordBatch => {
                let i = self.batches;
                self.batches += 1;
                decode_record_batch(message, schema, dictionaries, &self.options)
                    .map(Some)
                    .map_err(|e| e.context(format!("record batch {i}")))
            }
        }
    }

    /// Copies up to `out.len()` buffered bytes into `out` without consuming them.
    fn peek(&self, out: &mut [u8]) -> usize {
        let mut n = 0;
        for c in &self.chunks {
            let k = (out.len() - n).min(c.len());
            out[n..n + k].copy_from_slice(&c[..k]);
            n += k;
            if n == out.len() {
                break;
            }
        }
        n
    }

    /// Consumes `n` buffered bytes (the caller checked `n <= available`): zero-copy when they
    /// lie in one chunk, gathered into an aligned buffer otherwise.
    fn take(&mut self, n: usize) -> Bytes {
        self.available -= n;
        if let Some(front) = self.chunks.front_mut() {
            if front.len() >= n {
                let out = front.split_to(n);
                if front.is_empty() {
                    self.chunks.pop_front();
                }
                return out;
            }
        }
        let mut buf = MutableBuffer::with_capacity(n);
        while buf.len() < n {
            let Some(mut c) = self.chunks.pop_front() else {
                break;
            };
            let k = (n - buf.len()).min(c.len());
            buf.extend_from_slice(&c[..k]);
            if k < c.len() {
                let _ = c.split_to(k);
                self.chunks.push_front(c);
            }
        }
        buf.freeze()
    }
}
