//! The messages of an IPC stream, in order.

use super::{MessageInfo, buffer_uncompressed_lengths, parse_message};
use crate::message::{Prefix, byte_count, parse_prefix};
use crate::schema::{IpcSchema, schema_from_fb};
use quiver_arrow::{Error, Result};

/// How a message's length prefix is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// `0xFFFFFFFF` then the `i32` metadata length (8 bytes; Arrow 0.15 and later).
    Continuation,
    /// The `i32` metadata length alone (4 bytes; streams written before Arrow 0.15).
    Legacy,
}

impl Framing {
    /// Bytes the prefix takes.
    pub fn prefix_len(self) -> usize {
        match self {
            Framing::Continuation => 8,
            Framing::Legacy => 4,
        }
    }
}

/// One message of a stream.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamMessage {
    /// Byte offset of the message prefix in the stream.
    pub offset: u64,
    /// How the prefix is written.
    pub prefix: Framing,
    /// Length of the metadata flatbuffer with its padding (as the prefix says).
    pub metadata_length: usize,
    /// Length of the body (as the metadata says).
    pub body_length: usize,
    /// What the metadata says.
    pub info: MessageInfo,
}

/// How a stream ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StreamEnd {
    /// An end-of-stream marker at this offset.
    Marker(u64),
    /// The input ends after the last message, without a marker.
    Eof,
    /// The message at `offset` could not be inspected; the messages before it could.
    Error {
        /// Offset of the bad message (or of the end of input inside it).
        offset: u64,
        /// What is wrong.
        message: String,
    },
}

/// The physical layout of an IPC stream.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamLayout {
    /// The messages in order, up to the end marker, the end of input or the first error.
    pub messages: Vec<StreamMessage>,
    /// The schema of the first message, when it is a schema message that converts.
    pub schema: Option<IpcSchema>,
    /// How the stream ends.
    pub end: StreamEnd,
    /// Bytes after the end-of-stream marker.
    pub trailing_bytes: u64,
}

/// Inspects the messages of a whole stream, in order, until the end-of-stream marker, the
/// end of the input or the first malformed message. Never fails: a malformed message ends
/// the layout with [`StreamEnd::Error`] after the messages inspected so far.
pub fn inspect_stream(bytes: &[u8]) -> StreamLayout {
    let mut layout = StreamLayout {
        messages: Vec::new(),
        schema: None,
        end: StreamEnd::Eof,
        trailing_bytes: 0,
    };
    let mut pos = 0usize;
    while pos < bytes.len() {
        match next_message(bytes, pos, &mut layout) {
            Ok(Some(next)) => pos = next,
            Ok(None) => return layout,
            Err(e) => {
                layout.end = StreamEnd::Error {
                    offset: pos as u64,
                    message: e.to_string(),
                };
                return layout;
            }
        }
    }
    layout
}

/// Inspects the message at `pos`, adding it to `layout`; returns where the next one starts,
/// `None` at an end-of-stream marker (recorded in `layout`).
fn next_message(bytes: &[u8], pos: usize, layout: &mut StreamLayout) -> Result<Option<usize>> {
    let rest = &bytes[pos..];
    let (prefix_len, metadata_len) = match parse_prefix(rest)? {
        None => {
            return Err(Error::oos(format!(
                "input ends inside a message prefix ({} left)",
                byte_count(rest.len())
            )));
        }
        Some(Prefix::EndOfStream { prefix_len }) => {
            layout.end = StreamEnd::Marker(pos as u64);
            layout.trailing_bytes = (rest.len().saturating_sub(prefix_len)) as u64;
            return Ok(None);
        }
        Some(Prefix::Message {
            prefix_len,
            metadata_len,
        }) => (prefix_len, metadata_len),
    };
    let metadata = take(rest, prefix_len, metadata_len, "message metadata")?;
    let body_start = prefix_len + metadata_len; // within `rest`: no overflow
    let (m, mut info) = parse_message(metadata)?;
    let body_length = usize::try_from(info.body_length)
        .map_err(|_| Error::oos(format!("negative body length {}", info.body_length)))?;
    let body = take(rest, body_start, body_length, "message body")?;
    if info.compression.is_some() {
        info.uncompressed_lengths = buffer_uncompressed_lengths(&info, body);
    }
    let first = layout.messages.is_empty();
    layout.messages.push(StreamMessage {
        offset: pos as u64,
        prefix: if prefix_len == 8 {
            Framing::Continuation
        } else {
            Framing::Legacy
        },
        metadata_length: metadata_len,
        body_length,
        info,
    });
    if first && let Some(s) = m.header_as_schema() {
        layout.schema = Some(schema_from_fb(s).map_err(|e| e.context("schema message"))?);
    }
    Ok(Some(pos + body_start + body_length))
}

/// `len` bytes of `rest` from `start`, or an error naming `what`.
fn take<'a>(rest: &'a [u8], start: usize, len: usize, what: &str) -> Result<&'a [u8]> {
    start
        .checked_add(len)
        .and_then(|end| rest.get(start..end))
        .ok_or_else(|| {
            Error::oos(format!(
                "input ends inside the {what}: {} declared, {} available",
                byte_count(len),
                rest.len().saturating_sub(start)
            ))
        })
}
