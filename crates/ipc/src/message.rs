//! Encapsulated message framing.
//!
//! A message is: an optional continuation marker `0xFFFFFFFF` (absent in streams written
//! before Arrow 0.15), a little-endian `i32` metadata length, the `Message` flatbuffer padded
//! to 8 bytes, then `bodyLength` bytes of body. A length of 0 marks the end of a stream.
//!
//! [`parse_prefix`] and [`Message::try_new`] work on bytes (sans-IO); [`read_message`] and
//! [`write_message`] are thin layers over `std::io`.

use crate::fb::org::apache::arrow::flatbuf as fb;
use crate::schema::{IpcSchema, check_version, metadata_from_fb, schema_from_fb, schema_to_fb};
use bytes::Bytes;
use flatbuffers::{FlatBufferBuilder, ForwardsUOffset, UnionWIPOffset, Vector, WIPOffset};
use quiver_arrow::buffer::MutableBuffer;
use quiver_arrow::{Error, Metadata, Result};
use std::io::{Read, Write};

/// The continuation marker that starts every message since Arrow 0.15.
pub const CONTINUATION: u32 = 0xFFFF_FFFF;

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
    let first = u32::from_le_bytes(first.try_into().expect("4 bytes")); // ok: `get(..4)` is 4 bytes
    let (prefix_len, len) = if first == CONTINUATION {
        let Some(len) = buf.get(4..8) else {
            return Ok(None);
        };
        (8, i32::from_le_bytes(len.try_into().expect("4 bytes"))) // ok: `get(4..8)` is 4 bytes
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
            .map_err(|e| flatbuffer_error("message metadata", &e))?;
        check_version(m.version())?;
        let kind = match m.header_type() {
            fb::MessageHeader::Schema => MessageKind::Schema,
            fb::MessageHeader::RecordBatch => MessageKind::RecordBatch,
            fb::MessageHeader::DictionaryBatch => MessageKind::DictionaryBatch,
            fb::MessageHeader::Tensor => {
                return Err(Error::not_supported("Tensor messages"));
            }
            fb::MessageHeader::SparseTensor => {
                return Err(Error::not_supported("SparseTensor messages"));
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
            .map_err(|e| flatbuffer_error("message metadata", &e))?;
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

    /// The schema a schema message carries (an error for other messages).
    pub fn schema(&self) -> Result<IpcSchema> {
        let s = self.fb().header_as_schema().ok_or_else(|| {
            Error::oos(format!(
                "expected a schema message, found {:?}",
                self.kind()
            ))
        })?;
        schema_from_fb(s)
    }
}

/// A schema as one encapsulated message of its own (Parquet's `ARROW:schema` key).
impl IpcSchema {
    /// The schema as an encapsulated IPC message: the continuation marker `0xFFFFFFFF`, the
    /// metadata length as a little-endian `i32`, and a V5 `Message` flatbuffer with a `Schema`
    /// header padded to 8 bytes (no body). These are the bytes a stream starts with, and
    /// (base64-encoded) the value of Parquet's `ARROW:schema` key.
    ///
    /// ```
    /// use quiver_arrow::{DataType, Field, Schema};
    /// use quiver_ipc::IpcSchema;
    /// let schema = IpcSchema::new(Schema::new(vec![Field::new("x", DataType::Int32, true)]).into());
    /// let bytes = schema.to_message_bytes().unwrap();
    /// assert_eq!(&bytes[..4], &[0xFF; 4]);
    /// assert_eq!(bytes.len() % 8, 0);
    /// assert_eq!(IpcSchema::from_message_bytes(&bytes).unwrap(), schema);
    /// ```
    pub fn to_message_bytes(&self) -> Result<Vec<u8>> {
        let mut fbb = FlatBufferBuilder::new();
        let header = schema_to_fb(&mut fbb, self)?.as_union_value();
        let metadata = finish_message(fbb, (fb::MessageHeader::Schema, header), 0, None)?;
        let mut out = Vec::new();
        write_message(&mut out, &metadata, &[])?;
        Ok(out)
    }

    /// The schema in an encapsulated IPC schema message (see [`IpcSchema::to_message_bytes`]),
    /// also in the pre-0.15 form without the continuation marker. The bytes must hold exactly
    /// one message, and it must be a schema.
    ///
    /// ```
    /// use quiver_ipc::IpcSchema;
    /// let e = IpcSchema::from_message_bytes(&[0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]).unwrap_err();
    /// assert!(e.to_string().contains("no schema message"), "{e}");
    /// ```
    pub fn from_message_bytes(bytes: &[u8]) -> Result<IpcSchema> {
        let mut rest = bytes;
        let message = read_message(&mut rest)
            .map_err(|e| e.context("schema message"))?
            .ok_or_else(|| {
                Error::oos(format!(
                    "no schema message in {} bytes (empty, or an end-of-stream marker)",
                    bytes.len()
                ))
            })?;
        if !rest.is_empty() {
            let verb = if rest.len() == 1 { "follows" } else { "follow" };
            return Err(Error::oos(format!(
                "{} {verb} the schema message of {}",
                byte_count(rest.len()),
                byte_count(bytes.len() - rest.len())
            )));
        }
        message.schema().map_err(|e| e.context("schema message"))
    }
}

/// Reads exactly `len` bytes into a fresh 64-byte aligned buffer, growing it in steps as bytes
/// arrive so that a lying length costs no more memory than the input actually supplies.
pub(crate) fn read_aligned<R: Read>(r: &mut R, len: usize) -> Result<Bytes> {
    const STEP: usize = 16 << 20;
    let mut buf = MutableBuffer::with_capacity(len.min(STEP));
    while buf.len() < len {
        let start = buf.len();
        let n = (len - start).min(STEP.max(start));
        buf.extend_zeros(n);
        let got = read_up_to(r, &mut buf.as_mut_slice()[start..])?;
        if got < n {
            return Err(Error::oos(format!(
                "input ends after {} of {}",
                start + got,
                byte_count(len)
            )));
        }
    }
    Ok(buf.freeze())
}

/// `n bytes`, or `1 byte`, for messages.
pub(crate) fn byte_count(n: usize) -> String {
    if n == 1 {
        "1 byte".into()
    } else {
        format!("{n} bytes")
    }
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
    if &head[..4] == b"ARRO" {
        // As a legacy length, 1.3 GB: far likelier the IPC file magic `ARROW1`.
        return Err(Error::oos(
            "the input holds \"ARRO\" where a stream message starts, as an Arrow IPC file \
             (ARROW1) does: read it as an IPC file, not a stream",
        ));
    }
    let first = u32::from_le_bytes(head[..4].try_into().expect("4 bytes")); // ok: `head[..4]` is 4 bytes
    if first == CONTINUATION {
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
            Err(e) => return Err(Error::from(e)),
        }
    }
    Ok(n)
}

/// Key/value pairs as `metadata_to_fb` builds them.
pub(crate) type KeyValues<'b> = Option<WIPOffset<Vector<'b, ForwardsUOffset<fb::KeyValue<'b>>>>>;

/// Finishes a V5 `Message` flatbuffer with the given header.
pub(crate) fn finish_message<'b>(
    mut fbb: FlatBufferBuilder<'b>,
    header: (fb::MessageHeader, WIPOffset<UnionWIPOffset>),
    body_len: usize,
    custom_metadata: KeyValues<'b>,
) -> Result<Vec<u8>> {
    let body_len = i64::try_from(body_len)
        .map_err(|_| Error::overflow(format!("message body of {body_len} bytes")))?;
    let args = fb::MessageArgs {
        version: fb::MetadataVersion::V5,
        header_type: header.0,
        header: Some(header.1),
        bodyLength: body_len,
        custom_metadata,
    };
    let m = fb::Message::create(&mut fbb, &args);
    fbb.finish(m, None);
    Ok(fbb.finished_data().to_vec())
}

/// Zero bytes used for padding.
pub(crate) static ZEROS: [u8; 64] = [0; 64];

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
        .map_err(|_| Error::overflow(format!("metadata of {padded} bytes")))?;
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

/// An error for a flatbuffer that failed verification, on one line (the verifier's trace of
/// enclosing tables is joined with commas).
pub(crate) fn flatbuffer_error(what: &str, e: &flatbuffers::InvalidFlatbuffer) -> Error {
    let text = e.to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    Error::oos(format!("invalid {what} flatbuffer: {}", parts.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{IpcSchema, schema_from_fb, schema_to_fb};
    use flatbuffers::FlatBufferBuilder;
    use quiver_arrow::{DataType, Field, Schema};
    use std::sync::Arc;

    #[test]
    fn an_ipc_file_read_as_a_stream_is_named() {
        let mut r: &[u8] = b"ARROW1\0\0\xff\xff\xff\xff";
        let e = read_message(&mut r).unwrap_err().to_string();
        assert!(e.contains("as an Arrow IPC file (ARROW1) does"), "{e}");
    }

    #[test]
    fn a_short_block_says_how_much_arrived() {
        let e = |input: &[u8], len: usize| {
            let mut r = input;
            read_aligned(&mut r, len).unwrap_err().to_string()
        };
        assert_eq!(e(&[1, 2, 3], 74176), "input ends after 3 of 74176 bytes");
        assert_eq!(e(&[], 1), "input ends after 0 of 1 byte");
        // Past the first step of the growing buffer.
        let big = vec![7u8; (16 << 20) + 5];
        assert_eq!(
            e(&big, (16 << 20) + 9),
            format!(
                "input ends after {} of {} bytes",
                (16 << 20) + 5,
                (16 << 20) + 9
            )
        );
        let mut r = &big[..];
        assert_eq!(read_aligned(&mut r, 10).unwrap().as_ref(), &[7u8; 10]);
    }

    /// A framed-less Message flatbuffer with a Schema header.
    fn schema_message(version: fb::MetadataVersion, features: &[i64]) -> Bytes {
        let schema = IpcSchema::new(Arc::new(Schema::new(vec![Field::new(
            "x",
            DataType::Int32,
            true,
        )])));
        let mut fbb = FlatBufferBuilder::new();
        let s = schema_to_fb(&mut fbb, &schema).unwrap();
        // With features, a bare schema table (no fields) carrying just the feature list.
        let header = if features.is_empty() {
            s
        } else {
            let f: Vec<fb::Feature> = features.iter().map(|&v| fb::Feature(v)).collect();
            let f = fbb.create_vector(&f);
            fb::Schema::create(
                &mut fbb,
                &fb::SchemaArgs {
                    features: Some(f),
                    ..Default::default()
                },
            )
        };
        let m = fb::Message::create(
            &mut fbb,
            &fb::MessageArgs {
                version,
                header_type: fb::MessageHeader::Schema,
                header: Some(header.as_union_value()),
                bodyLength: 0,
                custom_metadata: None,
            },
        );
        fbb.finish(m, None);
        Bytes::copy_from_slice(fbb.finished_data())
    }

    #[test]
    fn versions_v4_and_v5_read_newer_and_older_rejected() {
        for v in [fb::MetadataVersion::V4, fb::MetadataVersion::V5] {
            let m = Message::try_new(schema_message(v, &[]), Bytes::new()).unwrap();
            assert_eq!(m.kind(), MessageKind::Schema);
        }
        let e = Message::try_new(schema_message(fb::MetadataVersion(5), &[]), Bytes::new())
            .unwrap_err();
        assert!(e.to_string().contains("newer than V5"), "{e}");
        let e = Message::try_new(schema_message(fb::MetadataVersion::V3, &[]), Bytes::new())
            .unwrap_err();
        assert!(matches!(e, Error::NotSupported { .. }), "{e}");
    }

    #[test]
    fn unknown_feature_flags_are_rejected() {
        let known = Message::try_new(
            schema_message(fb::MetadataVersion::V5, &[1, 2]),
            Bytes::new(),
        )
        .unwrap();
        schema_from_fb(known.fb().header_as_schema().unwrap()).unwrap();
        let m =
            Message::try_new(schema_message(fb::MetadataVersion::V5, &[4]), Bytes::new()).unwrap();
        let e = schema_from_fb(m.fb().header_as_schema().unwrap()).unwrap_err();
        assert!(e.to_string().contains("unknown feature 4"), "{e}");
    }

    #[test]
    fn tensor_messages_are_recognised_and_unsupported() {
        for (header_type, name) in [
            (fb::MessageHeader::Tensor, "Tensor"),
            (fb::MessageHeader::SparseTensor, "SparseTensor"),
        ] {
            let mut fbb = FlatBufferBuilder::new();
            let shape = fbb.create_vector::<flatbuffers::WIPOffset<fb::TensorDim>>(&[]);
            let int = fb::Int::create(
                &mut fbb,
                &fb::IntArgs {
                    bitWidth: 32,
                    is_signed: true,
                },
            );
            let data = fb::Buffer::new(0, 0);
            let index_type = fb::Int::create(
                &mut fbb,
                &fb::IntArgs {
                    bitWidth: 64,
                    is_signed: true,
                },
            );
            let coo = fb::SparseTensorIndexCOO::create(
                &mut fbb,
                &fb::SparseTensorIndexCOOArgs {
                    indicesType: Some(index_type),
                    indicesStrides: None,
                    indicesBuffer: Some(&data),
                    isCanonical: false,
                },
            )
            .as_union_value();
            let header = if name == "Tensor" {
                fb::Tensor::create(
                    &mut fbb,
                    &fb::TensorArgs {
                        type_type: fb::Type::Int,
                        type_: Some(int.as_union_value()),
                        shape: Some(shape),
                        strides: None,
                        data: Some(&data),
                    },
                )
                .as_union_value()
            } else {
                fb::SparseTensor::create(
                    &mut fbb,
                    &fb::SparseTensorArgs {
                        type_type: fb::Type::Int,
                        type_: Some(int.as_union_value()),
                        shape: Some(shape),
                        non_zero_length: 0,
                        sparseIndex_type: fb::SparseTensorIndex::SparseTensorIndexCOO,
                        sparseIndex: Some(coo),
                        data: Some(&data),
                    },
                )
                .as_union_value()
            };
            let m = fb::Message::create(
                &mut fbb,
                &fb::MessageArgs {
                    version: fb::MetadataVersion::V5,
                    header_type,
                    header: Some(header),
                    bodyLength: 0,
                    custom_metadata: None,
                },
            );
            fbb.finish(m, None);
            let e = Message::try_new(Bytes::copy_from_slice(fbb.finished_data()), Bytes::new())
                .unwrap_err();
            assert!(
                matches!(&e, Error::NotSupported { message: s, .. } if s.contains(name)),
                "{e}"
            );
        }
    }

    #[test]
    fn body_length_must_match() {
        let e = Message::try_new(
            schema_message(fb::MetadataVersion::V5, &[]),
            Bytes::from_static(&[0; 8]),
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("declares a body of 0 bytes but 8"),
            "{e}"
        );
    }

    #[test]
    fn prefixes() {
        assert_eq!(parse_prefix(&[0xff, 0xff]).unwrap(), None);
        assert_eq!(
            parse_prefix(&[0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]).unwrap(),
            Some(Prefix::EndOfStream { prefix_len: 8 })
        );
        assert_eq!(
            parse_prefix(&[0, 0, 0, 0]).unwrap(),
            Some(Prefix::EndOfStream { prefix_len: 4 })
        );
        assert_eq!(
            parse_prefix(&[16, 0, 0, 0]).unwrap(),
            Some(Prefix::Message {
                prefix_len: 4,
                metadata_len: 16
            })
        );
        assert!(parse_prefix(&[0xff, 0xff, 0xff, 0xff, 0xf0, 0xff, 0xff, 0xff]).is_err());
    }
}
