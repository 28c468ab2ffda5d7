//! Unit tests of the read side, on messages built here byte by byte (so that every malformed
//! case can be expressed exactly).

mod decode;
mod stream;

use crate::compression::{Codec, compress_buffer};
use crate::fb::org::apache::arrow::flatbuf as fb;
use crate::message::{Message, write_message};
use crate::schema::{IpcSchema, schema_to_fb};
use bytes::Bytes;
use flatbuffers::FlatBufferBuilder;
use quiver_arrow::{DataType, Field, Schema};
use std::sync::Arc;

/// A record batch (or dictionary batch) message under construction.
#[derive(Clone)]
pub(super) struct Batch {
    pub length: i64,
    pub nodes: Vec<(i64, i64)>,
    pub buffers: Vec<Vec<u8>>,
    pub variadic: Option<Vec<i64>>,
    pub version: fb::MetadataVersion,
    pub codec: Option<Codec>,
    /// `Some((id, is_delta))` for a dictionary batch.
    pub dictionary: Option<(i64, bool)>,
    /// Buffer descriptors to use instead of the laid-out ones.
    pub descriptors: Option<Vec<(i64, i64)>>,
}

impl Batch {
    pub fn new(length: i64) -> Self {
        Batch {
            length,
            nodes: Vec::new(),
            buffers: Vec::new(),
            variadic: None,
            version: fb::MetadataVersion::V5,
            codec: None,
            dictionary: None,
            descriptors: None,
        }
    }
    pub fn node(mut self, len: i64, nulls: i64) -> Self {
        self.nodes.push((len, nulls));
        self
    }
    pub fn buffer(mut self, bytes: impl AsRef<[u8]>) -> Self {
        self.buffers.push(bytes.as_ref().to_vec());
        self
    }

    /// The body (buffers padded to 8 bytes) and the buffer descriptors.
    fn body(&self) -> (Vec<u8>, Vec<fb::Buffer>) {
        let mut body = Vec::new();
        let mut descriptors = Vec::new();
        for b in &self.buffers {
            let start = body.len();
            match self.codec {
                Some(codec) => compress_buffer(codec, b, None, &mut body).unwrap(),
                None => body.extend_from_slice(b),
            }
            descriptors.push(fb::Buffer::new(start as i64, (body.len() - start) as i64));
            body.resize(body.len().div_ceil(8) * 8, 0);
        }
        if let Some(d) = &self.descriptors {
            descriptors = d.iter().map(|&(o, l)| fb::Buffer::new(o, l)).collect();
        }
        (body, descriptors)
    }

    /// Metadata flatbuffer and body.
    pub fn parts(&self) -> (Vec<u8>, Vec<u8>) {
        let (body, descriptors) = self.body();
        let mut fbb = FlatBufferBuilder::new();
        let nodes: Vec<fb::FieldNode> = self
            .nodes
            .iter()
            .map(|&(l, n)| fb::FieldNode::new(l, n))
            .collect();
        let nodes = fbb.create_vector(&nodes);
        let buffers = fbb.create_vector(&descriptors);
        let variadic = self.variadic.as_ref().map(|v| fbb.create_vector(v));
        let compression = self.codec.map(|c| {
            let codec = match c {
                Codec::Lz4Frame => fb::CompressionType::LZ4_FRAME,
                Codec::Zstd => fb::CompressionType::ZSTD,
            };
            fb::BodyCompression::create(
                &mut fbb,
                &fb::BodyCompressionArgs {
                    codec,
                    method: fb::BodyCompressionMethod::BUFFER,
                },
            )
        });
        let rb = fb::RecordBatch::create(
            &mut fbb,
            &fb::RecordBatchArgs {
                length: self.length,
                nodes: Some(nodes),
                buffers: Some(buffers),
                compression,
                variadicBufferCounts: variadic,
            },
        );
        let (header_type, header) = match self.dictionary {
            None => (fb::MessageHeader::RecordBatch, rb.as_union_value()),
            Some((id, is_delta)) => {
                let d = fb::DictionaryBatch::create(
                    &mut fbb,
                    &fb::DictionaryBatchArgs {
                        id,
                        data: Some(rb),
                        isDelta: is_delta,
                    },
                );
                (fb::MessageHeader::DictionaryBatch, d.as_union_value())
            }
        };
        let args = fb::MessageArgs {
            version: self.version,
            header_type,
            header: Some(header),
            bodyLength: body.len() as i64,
            custom_metadata: None,
        };
        let m = fb::Message::create(&mut fbb, &args);
        fbb.finish(m, None);
        (fbb.finished_data().to_vec(), body)
    }

    /// The verified message.
    pub fn message(&self) -> Message {
        let (metadata, body) = self.parts();
        Message::try_new(Bytes::from(metadata), Bytes::from(body)).unwrap()
    }

    /// The framed message (continuation marker, length, metadata, body).
    pub fn framed(&self) -> Vec<u8> {
        let (metadata, body) = self.parts();
        let mut out = Vec::new();
        write_message(&mut out, &metadata, &[&body]).unwrap();
        out
    }
}

/// A one-column schema.
pub(super) fn schema1(dt: DataType) -> IpcSchema {
    IpcSchema::new(Arc::new(Schema::new(vec![Field::new("a", dt, true)])))
}

/// The framed schema message of `schema`.
pub(super) fn schema_message(schema: &IpcSchema) -> Vec<u8> {
    schema.to_message_bytes().unwrap()
}

/// Little-endian bytes of `values`.
pub(super) fn le<T: Copy, const N: usize>(values: &[T], f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    values.iter().flat_map(|&v| f(v)).collect()
}

/// A batch with one Int32 column `[1, null, 3]`.
pub(super) fn int32_batch() -> Batch {
    Batch::new(3)
        .node(3, 1)
        .buffer([0b101])
        .buffer(le(&[1i32, 0, 3], i32::to_le_bytes))
}
