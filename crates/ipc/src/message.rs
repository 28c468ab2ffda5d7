//! Encapsulated message framing.
//!
//! A message is: an optional continuation marker `0xFFFFFFFF` (absent in streams written
//! before Arrow 0.15), a little-endian `i32` metadata length, the `Message` flatbuffer padded
//! to 8 bytes, then `bodyLength` bytes of body. A length of 0 marks the end of a stream.
//!
//! [`parse_prefix`] and [`Message::try_new`] work on bytes (sans-IO); [`read_message`] and
//! [`write_message`] are thin layers over `std::io`.

use crate::convert::{check_version, metadata_from_fb};
use crate::fb::org::apache::arrow::flatbuf as fb;
use bytes::Bytes;
use quiver_arrow::buffer::MutableBuffer;
use quiver_arrow::{Error, Metadata, Result};
use std::io::{Read, Write};

/// The continuation marker that starts every message since Arrow 0.15.
pub const CONTINUATION: u32 = 0xFFFF_FFFF;

/// Largest metadata flatbuffer accepted (the format stores its length as `i32`).
pub const MAX_METADATA_LEN: usize = i32::MAX as usize;

/// Limits applied when verifying metadata flatbuffers from untrusted input.
pub(crate) fn verifier_options() -> flatbuffers::VerifierOptions {
    flatbuffers::VerifierOptions {
        max_depth: 128,
        max_tables: 8_000_000,
        max_apparent_size: 1 << 31,
        ignore_missing_null_terminator: false,
    }
}

/// The start of a message as found in the bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prefix {
    /// End of stream (a zero length, with or without continuation marker).
    EndOfStream {
        /// Bytes the marker occupies (4 or 8).
        prefix_len: usize,
    },
    /// A message whose metadata of `metadata_len` bytes follows the prefix.
    Message {
        /// Bytes of the prefix (4 for legacy messages, 8 otherwise).
        prefix_len: usize,
        /// Length of the metadata flatbuffer including its padding.
        metadata_len: usize,
    },
}

/// Parses the prefix at the start of `buf`: `Ok(None)` when `buf` is too short to tell.
pub fn parse_prefix(buf: &[u8]) -> Result<Option<Prefix>> {
    let Some(first) = buf.get(..4) else {
        return Ok(None);
    };
    let first = u32::from_le_bytes(first.try_into().expect("4 bytes"));
    let (prefix_len, len) = if first == CONTINUATION {
        let Some(len) = buf.get(4..8) else {
            return Ok(None);
        };
        (8, i32::from_le_bytes(len.try_into().expect("4 bytes")))
    } else {
        (4, first as i32)
    };
    match len {
        0 => Ok(Some(Prefix::EndOfStream { prefix_len })),
        n if n < 0 => Err(Error::oos(format!(
            "message metadata length is negative ({n})"
        ))),
        n => Ok(Some(Prefix::Message {
            prefix_len,
            metadata_len: n as usize,
        })),
    }
}

/// What a message carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageKind {
    /// A schema.
    Schema,
    /// A record batch.
    RecordBatch,
    /// A dictionary batch.
    DictionaryBatch,
}

/// A verified message: its metadata flatbuffer and its body.
#[derive(Clone, Debug)]
pub struct Message {
    metadata: Bytes,
    body: Bytes,
    kind: MessageKind,
}

impl Message {
    /// Verifies `metadata` (a `Message` flatbuffer, padding allowed after it), its version and
    /// header type, and that `body` has the declared length.
    pub fn try_new(metadata: Bytes, body: Bytes) -> Result<Self> {
        let m = flatbuffers::root_with_opts::<fb::Message>(&verifier_options(), &metadata)
            .map_err(|e| Error::oos(format!("invalid message metadata flatbuffer: {e}")))?;
        check_version(m.version())?;
        let kind = match m.header_type() {
            fb::MessageHeader::Schema => MessageKind::Schema,
            fb::MessageHeader::RecordBatch => MessageKind::RecordBatch,
            fb::MessageHeader::DictionaryBatch => MessageKind::DictionaryBatch,
            fb::MessageHeader::Tensor => return Err(Error::NotSupported("Tensor messages".into())),
            fb::MessageHeader::SparseTensor => {
                return Err(Error::NotSupported("SparseTensor messages".into()));
            }
            fb::MessageHeader::NONE => return Err(Error::oos("message has no header")),
            other => {
                return Err(Error::oos(format!(
                    "unknown message header type {}",
                    other.0
                )));
            }
        };
        let declared = m.bodyLength();
        if declared < 0 || declared as u64 != body.len() as u64 {
            return Err(Error::oos(format!(
                "message declares a body of {declared} bytes but {} were given",
                body.len()
            )));
        }
        Ok(Message {
            metadata,
            body,
            kind,
        })
    }

    /// The body length a metadata flatbuffer declares (verifying it), before the body is read.
    pub fn declared_body_length(metadata: &[u8]) -> Result<usize> {
        let m = flatbuffers::root_with_opts::<fb::Message>(&verifier_options(), metadata)
            .map_err(|e| Error::oos(format!("invalid message metadata flatbuffer: {e}")))?;
        usize::try_from(m.bodyLength())
            .map_err(|_| Error::oos(format!("negative body length {}", m.bodyLength())))
    }

    /// The verified flatbuffer.
    pub(crate) fn fb(&self) -> fb::Message<'_> {
        // SAFETY: `metadata` was verified as a `Message` flatbuffer by `root_with_opts` in
        // `try_new`, and `Bytes` is immutable, so the unchecked access reads a verified buffer.
        unsafe { flatbuffers::root_unchecked::<fb::Message>(&self.metadata) }
    }

    /// What the message carries.
    pub fn kind(&self) -> MessageKind {
        self.kind
    }
    /// The body.
    pub fn body(&self) -> &Bytes {
        &self.body
    }
    /// The metadata flatbuffer bytes.
    pub fn metadata_bytes(&self) -> &Bytes {
        &self.metadata
    }
    /// Message-level custom metadata.
    pub fn custom_metadata(&self) -> Metadata {
        metadata_from_fb(self.fb().custom_metadata())
    }
}

/// Reads exactly `len` bytes into a fresh 64-byte aligned buffer, growing it in steps as bytes
/// arrive so that a lying length costs no more memory than the input actually supplies.
pub fn read_aligned<R: Read>(r: &mut R, len: usize) -> Result<Bytes> {
    const STEP: usize = 16 << 20;
    let mut buf = MutableBuffer::with_capacity(len.min(STEP));
    while buf.len() < len {
        let start = buf.len();
        let n = (len - start).min(STEP.max(start));
        buf.extend_zeros(n);
        if let Err(e) = r.read_exact(&mut buf.as_mut_slice()[start..]) {
            return Err(match e.kind() {
                std::io::ErrorKind::UnexpectedEof => Error::oos(format!(
                    "input ends inside a block of {len} bytes (fewer than {} available)",
                    start + n
                )),
                _ => Error::Io(e),
            });
        }
    }
    Ok(buf.freeze())
}

/// Reads the next message from `r`: `Ok(None)` at an end-of-stream marker or at a clean end of
/// input before a message starts.
pub fn read_message<R: Read>(r: &mut R) -> Result<Option<Message>> {
    let mut head = [0u8; 8];
    let got = read_up_to(r, &mut head[..4])?;
    if got == 0 {
        return Ok(None);
    }
    if got < 4 {
        return Err(Error::oos(format!(
            "input ends inside a message prefix ({got} of 4 bytes)"
        )));
    }
    if u32::from_le_bytes(head[..4].try_into().expect("4 bytes")) == CONTINUATION {
        let got = read_up_to(r, &mut head[4..8])?;
        if got == 0 {
            return Ok(None); // a bare continuation marker at the very end: treat as end
        }
        if got < 4 {
            return Err(Error::oos("input ends inside a message length"));
        }
    }
    match parse_prefix(&head)?.ok_or_else(|| Error::oos("incomplete message prefix"))? {
        Prefix::EndOfStream { .. } => Ok(None),
        Prefix::Message { metadata_len, .. } => {
            let metadata =
                read_aligned(r, metadata_len).map_err(|e| e.context("message metadata"))?;
            let body_len = Message::declared_body_length(&metadata)?;
            let body = read_aligned(r, body_len).map_err(|e| e.context("message body"))?;
            Message::try_new(metadata, body).map(Some)
        }
    }
}

fn read_up_to<R: Read>(r: &mut R, buf: &mut [u8]) -> Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::Io(e)),
        }
    }
    Ok(n)
}

/// Zero bytes used for padding.
pub(crate) const ZEROS: [u8; 64] = [0; 64];

/// Number of bytes to add to `len` to reach a multiple of `align`.
#[inline]
pub fn padding(len: usize, align: usize) -> usize {
    (align - len % align) % align
}

/// Writes one message (continuation marker, length, metadata padded to 8 bytes, body) and
/// returns (metadata length including prefix and padding, body length).
pub fn write_message<W: Write>(
    w: &mut W,
    metadata: &[u8],
    body: &[&[u8]],
) -> Result<(usize, usize)> {
    let padded = metadata.len() + padding(metadata.len() + 8, 8);
    let len = i32::try_from(padded)
        .map_err(|_| Error::Overflow(format!("metadata of {padded} bytes")))?;
    w.write_all(&CONTINUATION.to_le_bytes())?;
    w.write_all(&len.to_le_bytes())?;
    w.write_all(metadata)?;
    w.write_all(&ZEROS[..padded - metadata.len()])?;
    let mut body_len = 0;
    for part in body {
        w.write_all(part)?;
        body_len += part.len();
    }
    Ok((padded + 8, body_len))
}

/// Writes the end-of-stream marker (continuation marker and a zero length).
pub fn write_end_of_stream<W: Write>(w: &mut W) -> Result<()> {
    w.write_all(&CONTINUATION.to_le_bytes())?;
    w.write_all(&0u32.to_le_bytes())?;
    Ok(())
}
