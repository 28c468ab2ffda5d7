//! Inspection of the physical layout of IPC data: what the metadata of each message says
//! (header, lengths, field nodes, buffers, compression, dictionary ids), where the messages
//! of a file or stream lie, and which field each body buffer belongs to.
//!
//! This is not a reader (see [`crate::read`]): nothing is decoded into arrays, and malformed
//! input is reported where it is found instead of aborting the whole inspection. Every offset
//! and length is checked against the input, and memory use is bounded by the input size.
//!
//! - [`inspect_message`]: one `Message` flatbuffer → [`MessageInfo`].
//! - [`inspect_file`]: a whole IPC file → [`FileLayout`] (footer, and every footer block with
//!   the message found at its offset).
//! - [`inspect_stream`]: a whole IPC stream → [`StreamLayout`] (messages in order, then how
//!   the stream ends: marker, end of input or an error after the good part).
//! - [`label_buffers`]: the field nodes and buffers of a batch, grouped by field path.
//!
//! ```
//! use quiver_arrow::{Array, DataType, Field, PrimitiveArray, RecordBatch, Schema};
//! use quiver_ipc::inspect::{MessageHeader, StreamEnd, inspect_stream};
//! use quiver_ipc::write::{StreamWriter, WriteOptions};
//! use std::sync::Arc;
//! let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int32, true)]));
//! let x = Array::from(PrimitiveArray::<i32>::from_options([Some(1), None, Some(3)]));
//! let batch = RecordBatch::try_new(schema.clone(), vec![x]).unwrap();
//! let mut w = StreamWriter::try_new(Vec::new(), schema, WriteOptions::default()).unwrap();
//! w.write(&batch).unwrap();
//! let bytes = w.finish().unwrap();
//! let layout = inspect_stream(&bytes);
//! let kinds: Vec<_> = layout.messages.iter().map(|m| m.info.header).collect();
//! assert_eq!(kinds, [MessageHeader::Schema, MessageHeader::RecordBatch]);
//! assert_eq!(layout.messages[1].info.length, 3);
//! assert!(matches!(layout.end, StreamEnd::Marker(_)));
//! ```

mod file;
mod labels;
mod stream;

pub use file::{BlockInfo, FileLayout, inspect_file};
pub use labels::{BufferLabel, BufferRole, FieldLayout, label_buffers};
pub use stream::{Framing, StreamEnd, StreamLayout, StreamMessage, inspect_stream};

use crate::compression::Codec;
use crate::fb::org::apache::arrow::flatbuf as fb;
use crate::message::verifier_options;
use crate::schema::metadata_from_fb;
use quiver_arrow::{Error, Metadata, Result};

/// What a message carries (the `MessageHeader` union of `Message.fbs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MessageHeader {
    /// A schema.
    Schema,
    /// A record batch.
    RecordBatch,
    /// A dictionary batch.
    DictionaryBatch,
    /// A tensor (not supported by the readers).
    Tensor,
    /// A sparse tensor (not supported by the readers).
    SparseTensor,
    /// Any other header type value (`0` is `NONE`: no header).
    Unknown(u8),
}

impl Default for MessageHeader {
    fn default() -> Self {
        MessageHeader::Unknown(0)
    }
}

impl std::fmt::Display for MessageHeader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MessageHeader::Schema => f.write_str("Schema"),
            MessageHeader::RecordBatch => f.write_str("RecordBatch"),
            MessageHeader::DictionaryBatch => f.write_str("DictionaryBatch"),
            MessageHeader::Tensor => f.write_str("Tensor"),
            MessageHeader::SparseTensor => f.write_str("SparseTensor"),
            MessageHeader::Unknown(n) => write!(f, "Unknown({n})"),
        }
    }
}

impl From<fb::MessageHeader> for MessageHeader {
    fn from(h: fb::MessageHeader) -> Self {
        match h {
            fb::MessageHeader::Schema => MessageHeader::Schema,
            fb::MessageHeader::RecordBatch => MessageHeader::RecordBatch,
            fb::MessageHeader::DictionaryBatch => MessageHeader::DictionaryBatch,
            fb::MessageHeader::Tensor => MessageHeader::Tensor,
            fb::MessageHeader::SparseTensor => MessageHeader::SparseTensor,
            other => MessageHeader::Unknown(other.0),
        }
    }
}

/// The fields of one `Message` flatbuffer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MessageInfo {
    /// Metadata version as stored: `0` is V1 … `4` is V5 (see [`metadata_version_name`]).
    pub version: i16,
    /// What the message carries.
    pub header: MessageHeader,
    /// Declared body length.
    pub body_length: i64,
    /// Message-level custom metadata.
    pub custom_metadata: Metadata,
    /// Schema messages: the number of top-level fields.
    pub schema_fields: Option<usize>,
    /// Record and dictionary batches: the batch length (rows).
    pub length: i64,
    /// (length, null count) of every field node.
    pub nodes: Vec<(i64, i64)>,
    /// (offset, length) of every buffer in the body.
    pub buffers: Vec<(i64, i64)>,
    /// `variadicBufferCounts` (one per view field).
    pub variadic_counts: Vec<i64>,
    /// The body compression codec, `None` when the body is not compressed.
    pub compression: Option<Codec>,
    /// Dictionary batches: the id.
    pub dictionary_id: Option<i64>,
    /// Dictionary batches: the delta flag.
    pub is_delta: bool,
    /// Compressed bodies, when the body was available ([`inspect_file`], [`inspect_stream`]):
    /// one entry per buffer, see [`buffer_uncompressed_lengths`]. Empty otherwise.
    pub uncompressed_lengths: Vec<Option<i64>>,
}

impl MessageInfo {
    /// Sum of the buffer lengths once decompressed: the declared uncompressed length of every
    /// compressed buffer, the stored length (without the 8-byte prefix) of buffers stored
    /// raw. `None` unless the body is compressed and every buffer's prefix was readable.
    pub fn uncompressed_body_length(&self) -> Option<u64> {
        self.compression?;
        let mut total = 0u64;
        for (&(_, len), u) in self.buffers.iter().zip(&self.uncompressed_lengths) {
            let n = match u {
                _ if len == 0 => 0,
                Some(-1) => u64::try_from(len).ok()?.saturating_sub(8),
                Some(n) => u64::try_from(*n).ok()?,
                None => return None,
            };
            total = total.saturating_add(n);
        }
        (self.uncompressed_lengths.len() == self.buffers.len()).then_some(total)
    }
}

/// `"V1"` … `"V5"` for the stored metadata versions `0` … `4`, `"unknown (n)"` otherwise.
pub fn metadata_version_name(version: i16) -> String {
    match version {
        0..=4 => format!("V{}", version + 1),
        other => format!("unknown ({other})"),
    }
}

/// Parses a `Message` flatbuffer (padding after it allowed) without checking its version or
/// header type. Fails when the flatbuffer does not verify, or on a compression method or
/// codec this crate does not know.
pub fn inspect_message(metadata: &[u8]) -> Result<MessageInfo> {
    parse_message(metadata).map(|(_, info)| info)
}

/// [`inspect_message`], also returning the verified flatbuffer.
fn parse_message(metadata: &[u8]) -> Result<(fb::Message<'_>, MessageInfo)> {
    let m = flatbuffers::root_with_opts::<fb::Message>(&verifier_options(), metadata)
        .map_err(|e| crate::message::flatbuffer_error("message", &e))?;
    let mut info = MessageInfo {
        version: m.version().0,
        header: m.header_type().into(),
        body_length: m.bodyLength(),
        custom_metadata: metadata_from_fb(m.custom_metadata()),
        ..MessageInfo::default()
    };
    if let Some(s) = m.header_as_schema() {
        info.schema_fields = Some(s.fields().map_or(0, |f| f.len()));
    }
    let batch = if let Some(d) = m.header_as_dictionary_batch() {
        info.dictionary_id = Some(d.id());
        info.is_delta = d.isDelta();
        d.data()
    } else {
        m.header_as_record_batch()
    };
    if let Some(b) = batch {
        batch_info(&b, &mut info)?;
    }
    Ok((m, info))
}

/// Copies the fields of a `RecordBatch` table into `info`.
fn batch_info(b: &fb::RecordBatch<'_>, info: &mut MessageInfo) -> Result<()> {
    info.length = b.length();
    info.nodes = (b.nodes().into_iter().flatten())
        .map(|n| (n.length(), n.null_count()))
        .collect();
    info.buffers = (b.buffers().into_iter().flatten())
        .map(|x| (x.offset(), x.length()))
        .collect();
    info.variadic_counts = b.variadicBufferCounts().into_iter().flatten().collect();
    info.compression = match b.compression() {
        None => None,
        Some(c) if c.method() != fb::BodyCompressionMethod::BUFFER => {
            return Err(Error::not_supported(format!(
                "body compression method {}",
                c.method().0
            )));
        }
        Some(c) => Some(match c.codec() {
            fb::CompressionType::LZ4_FRAME => Codec::Lz4Frame,
            fb::CompressionType::ZSTD => Codec::Zstd,
            other => {
                return Err(Error::not_supported(format!(
                    "compression codec {}",
                    other.0
                )));
            }
        }),
    };
    Ok(())
}

/// For a compressed body, the uncompressed length prefix of every buffer (the first 8 bytes of
/// the buffer in `body`, little-endian `i64`; `-1` means the buffer is stored raw). `None`
/// for a buffer without a prefix: empty, shorter than 8 bytes, or outside `body`. All `None`
/// when `info` says the body is not compressed.
pub fn buffer_uncompressed_lengths(info: &MessageInfo, body: &[u8]) -> Vec<Option<i64>> {
    let prefix = |&(offset, len): &(i64, i64)| {
        let start = usize::try_from(offset).ok()?;
        let len = usize::try_from(len).ok()?;
        if len < 8 || start.checked_add(len)? > body.len() {
            return None;
        }
        let bytes = body.get(start..start.checked_add(8)?)?;
        Some(i64::from_le_bytes(bytes.try_into().ok()?))
    };
    match info.compression {
        Some(_) => info.buffers.iter().map(prefix).collect(),
        None => vec![None; info.buffers.len()],
    }
}

/// [`inspect_message`] with the uncompressed lengths filled from `body` when it is compressed.
fn message_with_body(metadata: &[u8], body: &[u8]) -> Result<MessageInfo> {
    let mut info = inspect_message(metadata)?;
    if info.compression.is_some() {
        info.uncompressed_lengths = buffer_uncompressed_lengths(&info, body);
    }
    Ok(info)
}

#[cfg(test)]
mod tests;
