//! A push decoder for the streaming format: feed bytes as they arrive, get batches out.
//!
//! A small framing state machine: prefix → metadata → body → (the message goes to the
//! [`StreamState`] shared with [`StreamReader`](super::StreamReader)) → prefix… Bytes are
//! buffered only until a message is complete; a message that arrived in one chunk is decoded
//! zero-copy from it, one split over several chunks is first gathered into one aligned buffer.
//! Nothing is allocated beyond the bytes fed in.

use super::ReadOptions;
use super::state::{Decoded, StreamState};
use crate::message::{Message, Prefix, parse_prefix};
use crate::schema::IpcSchema;
use bytes::Bytes;
use quiver_arrow::buffer::MutableBuffer;
use quiver_arrow::{Error, Metadata, RecordBatch, Result, SchemaRef};
use std::collections::VecDeque;

/// Where the framing of the next message stands.
#[derive(Debug)]
enum Frame {
    /// Waiting for a message prefix (or the end-of-stream marker).
    Prefix,
    /// Waiting for `len` bytes of metadata.
    Metadata(usize),
    /// Waiting for the body of the message whose metadata is known.
    Body { metadata: Bytes, len: usize },
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
    frame: Frame,
    /// The stream-level state: schema, dictionaries, counters, finished or failed.
    state: StreamState,
}

impl std::fmt::Debug for StreamDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamDecoder")
            .field("frame", &self.frame)
            .field("buffered", &self.available)
            .field("state", &self.state)
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
            frame: Frame::Prefix,
            state: StreamState::new(options),
        }
    }

    /// The schema, once its message has been decoded.
    pub fn schema(&self) -> Option<&SchemaRef> {
        self.state.schema()
    }

    /// The schema with dictionary ids and byte order, once decoded.
    pub fn ipc_schema(&self) -> Option<&IpcSchema> {
        self.state.ipc_schema()
    }

    /// True once the end-of-stream marker has been read.
    pub fn is_finished(&self) -> bool {
        self.state.is_finished()
    }

    /// Checks that the input ended at a message boundary after the schema.
    pub fn finish(&self) -> Result<()> {
        let at_boundary = matches!(self.frame, Frame::Prefix) && self.available == 0;
        if self.state.is_finished() {
            Ok(())
        } else if self.state.is_failed() {
            Err(Error::oos("the decoder failed earlier"))
        } else if at_boundary && self.state.schema().is_some() {
            Ok(())
        } else if at_boundary {
            Err(Error::oos("the stream has no schema message"))
        } else {
            Err(Error::oos(format!(
                "the stream ends inside message {} ({} pending)",
                self.state.messages(),
                crate::message::byte_count(self.available)
            )))
        }
    }

    /// Feeds the next bytes of the stream; returns the record batches they complete. After an
    /// error, every call fails.
    pub fn feed(&mut self, bytes: Bytes) -> Result<Vec<RecordBatch>> {
        let mut out = Vec::new();
        self.push(bytes, &mut |batch, _| out.push(batch))?;
        Ok(out)
    }

    /// Like [`StreamDecoder::feed`], with the message-level custom metadata of each batch
    /// (empty when its message had none), as [`StreamReader::batch_metadata`] gives it.
    ///
    /// [`StreamReader::batch_metadata`]: super::StreamReader::batch_metadata
    pub fn feed_with_metadata(&mut self, bytes: Bytes) -> Result<Vec<(RecordBatch, Metadata)>> {
        let mut out = Vec::new();
        self.push(bytes, &mut |batch, metadata| out.push((batch, metadata)))?;
        Ok(out)
    }

    /// Buffers `bytes` and decodes every message they complete, handing each record batch to
    /// `out`.
    fn push(&mut self, bytes: Bytes, out: &mut dyn FnMut(RecordBatch, Metadata)) -> Result<()> {
        if self.state.is_failed() {
            return Err(Error::oos("the decoder failed earlier"));
        }
        if self.state.is_finished() {
            return Ok(()); // bytes after the end-of-stream marker are ignored
        }
        if !bytes.is_empty() {
            self.available += bytes.len();
            self.chunks.push_back(bytes);
        }
        while !self.state.is_finished() && self.can_advance() {
            let message = match self.step() {
                Ok(Some(message)) => message,
                Ok(None) => continue,
                Err(e) => return Err(self.state.fail(e)),
            };
            if let Decoded::RecordBatch(batch, metadata) = self.state.decode(&message)? {
                out(batch, metadata);
            }
        }
        Ok(())
    }

    /// Advances the framing by one step (the caller checked [`StreamDecoder::can_advance`]):
    /// a message when its last part was taken.
    fn step(&mut self) -> Result<Option<Message>> {
        match std::mem::replace(&mut self.frame, Frame::Prefix) {
            Frame::Prefix => {
                let mut head = [0u8; 8];
                let n = self.peek(&mut head);
                match parse_prefix(&head[..n])? {
                    None => {}
                    Some(Prefix::EndOfStream { prefix_len }) => {
                        self.take(prefix_len);
                        self.state.end();
                    }
                    Some(Prefix::Message {
                        prefix_len,
                        metadata_len,
                    }) => {
                        self.take(prefix_len);
                        self.frame = Frame::Metadata(metadata_len);
                    }
                }
            }
            Frame::Metadata(len) if self.available >= len => {
                let metadata = self.take(len);
                let len = Message::declared_body_length(&metadata)?;
                self.frame = Frame::Body { metadata, len };
            }
            Frame::Body { metadata, len } if self.available >= len => {
                return Message::try_new(metadata, self.take(len)).map(Some);
            }
            waiting => self.frame = waiting,
        }
        Ok(None)
    }

    /// True when the buffered bytes are enough for the next framing step.
    fn can_advance(&self) -> bool {
        match &self.frame {
            Frame::Prefix => {
                self.available >= 8 || self.available >= 4 && !self.starts_with_marker()
            }
            Frame::Metadata(len) => self.available >= *len,
            Frame::Body { len, .. } => self.available >= *len,
        }
    }

    fn starts_with_marker(&self) -> bool {
        let mut head = [0u8; 4];
        self.peek(&mut head) == 4 && head == [0xFF; 4]
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
