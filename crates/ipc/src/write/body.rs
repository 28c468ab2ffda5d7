//! An encoded batch: field nodes, buffer entries and the body as a list of slices, laid out with
//! padding and optional compression; and its `RecordBatch` / `DictionaryBatch` metadata.

use super::WriteOptions;
use crate::compression::{Codec, Parts, compress_buffers};
use crate::fb::org::apache::arrow::flatbuf as fb;
use crate::message::{ZEROS, finish_message, padding};
use crate::schema::metadata_to_fb;
use bytes::Bytes;
use flatbuffers::{FlatBufferBuilder, WIPOffset};
use quiver_arrow::parallel::ThreadPool;
use quiver_arrow::{Metadata, Result};

/// Total uncompressed bytes from which buffers are compressed on the options' thread pool
/// (below it, on the calling thread).
const PARALLEL_MIN_BYTES: usize = 1 << 20;

/// A flattened field's length and null count, as the `FieldNode` of a `RecordBatch` message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldNode {
    /// Number of slots.
    pub length: usize,
    /// Number of null slots (0 for unions and run-end encoded arrays, which have no validity
    /// of their own; the length for the Null type).
    pub null_count: usize,
}

/// Where a buffer lies in the body, as the `Buffer` of a `RecordBatch` message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferSpec {
    /// Byte offset from the start of the body (a multiple of the alignment).
    pub offset: usize,
    /// Length in bytes, without padding (compressed length and prefix when compressed).
    pub length: usize,
}

/// What the encoder collects from the arrays, before layout.
#[derive(Debug, Default)]
pub(crate) struct RawBatch {
    pub length: usize,
    pub nodes: Vec<FieldNode>,
    pub buffers: Vec<Bytes>,
    pub variadic_counts: Vec<i64>,
}

/// Arrays encoded for one message: field nodes, buffer entries and the body.
///
/// The body is a list of slices (the arrays' own buffers where they needed no rewriting, then
/// zero padding) that together are [`EncodedBatch::body_len`] bytes long.
#[derive(Clone, Debug)]
pub struct EncodedBatch {
    length: usize,
    nodes: Vec<FieldNode>,
    buffers: Vec<BufferSpec>,
    variadic_counts: Vec<i64>,
    compression: Option<Codec>,
    parts: Vec<Bytes>,
    body_len: usize,
}

impl EncodedBatch {
    /// Lays out `raw`: compresses each buffer when asked, pads each to the alignment.
    pub(crate) fn layout(raw: RawBatch, options: &WriteOptions) -> Result<Self> {
        let mut stored = compress_messages(std::slice::from_ref(&raw), options, || ())?;
        let stored = stored.pop().expect("one message in, one out"); // ok: one message in, one out.
        Ok(Self::assemble(raw, stored, options))
    }

    /// Lays out `raw` with its buffers as `stored` (one [`Parts`] per buffer, compressed
    /// when the options say so): pads each to the alignment.
    pub(crate) fn assemble(raw: RawBatch, stored: Vec<Parts>, options: &WriteOptions) -> Self {
        let align = options.alignment();
        let mut parts = Vec::with_capacity(stored.len() * 2);
        let mut buffers = Vec::with_capacity(stored.len());
        let mut offset = 0;
        for b in stored {
            let len: usize = b.iter().map(Bytes::len).sum();
            let pad = padding(len, align);
            buffers.push(BufferSpec {
                offset,
                length: len,
            });
            offset += len + pad;
            parts.extend(b.into_iter().filter(|p| !p.is_empty()));
            if pad > 0 {
                parts.push(Bytes::from_static(&ZEROS[..pad]));
            }
        }
        EncodedBatch {
            length: raw.length,
            nodes: raw.nodes,
            buffers,
            variadic_counts: raw.variadic_counts,
            compression: options.compression(),
            parts,
            body_len: offset,
        }
    }

    /// Number of rows.
    pub fn length(&self) -> usize {
        self.length
    }
    /// Field nodes in depth-first pre-order.
    pub fn nodes(&self) -> &[FieldNode] {
        &self.nodes
    }
    /// Buffer entries in depth-first pre-order.
    pub fn buffers(&self) -> &[BufferSpec] {
        &self.buffers
    }
    /// Number of data buffers of each view field, in depth-first pre-order.
    pub fn variadic_buffer_counts(&self) -> &[i64] {
        &self.variadic_counts
    }
    /// The codec the buffers are compressed with.
    pub fn compression(&self) -> Option<Codec> {
        self.compression
    }
    /// Length of the body in bytes (a multiple of the alignment).
    pub fn body_len(&self) -> usize {
        self.body_len
    }
    /// The body as slices to write one after the other.
    pub fn body_parts(&self) -> &[Bytes] {
        &self.parts
    }
    /// The body in one piece (a copy; writers use [`EncodedBatch::body_parts`]).
    pub fn body(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.body_len);
        for p in &self.parts {
            out.extend_from_slice(p);
        }
        out
    }

    /// The `Message` flatbuffer of a `RecordBatch` message carrying this batch.
    pub fn record_batch_message(&self, custom_metadata: &Metadata) -> Result<Vec<u8>> {
        let mut fbb = FlatBufferBuilder::new();
        let header = self.header(&mut fbb);
        let kv = metadata_to_fb(&mut fbb, custom_metadata);
        let header = (fb::MessageHeader::RecordBatch, header.as_union_value());
        finish_message(fbb, header, self.body_len, kv)
    }

    /// The `Message` flatbuffer of a `DictionaryBatch` message carrying this batch (one
    /// column: the dictionary values) for dictionary `id`.
    pub fn dictionary_batch_message(
        &self,
        id: i64,
        is_delta: bool,
        custom_metadata: &Metadata,
    ) -> Result<Vec<u8>> {
        let mut fbb = FlatBufferBuilder::new();
        let data = self.header(&mut fbb);
        let args = fb::DictionaryBatchArgs {
            id,
            data: Some(data),
            isDelta: is_delta,
        };
        let dict = fb::DictionaryBatch::create(&mut fbb, &args);
        let kv = metadata_to_fb(&mut fbb, custom_metadata);
        let header = (fb::MessageHeader::DictionaryBatch, dict.as_union_value());
        finish_message(fbb, header, self.body_len, kv)
    }

    fn header<'b>(&self, fbb: &mut FlatBufferBuilder<'b>) -> WIPOffset<fb::RecordBatch<'b>> {
        let nodes: Vec<fb::FieldNode> = (self.nodes.iter())
            .map(|n| fb::FieldNode::new(n.length as i64, n.null_count as i64))
            .collect();
        let nodes = fbb.create_vector(&nodes);
        let buffers: Vec<fb::Buffer> = (self.buffers.iter())
            .map(|b| fb::Buffer::new(b.offset as i64, b.length as i64))
            .collect();
        let buffers = fbb.create_vector(&buffers);
        let variadic =
            (!self.variadic_counts.is_empty()).then(|| fbb.create_vector(&self.variadic_counts));
        let compression = self.compression.map(|c| {
            let codec = match c {
                Codec::Lz4Frame => fb::CompressionType::LZ4_FRAME,
                Codec::Zstd => fb::CompressionType::ZSTD,
            };
            let method = fb::BodyCompressionMethod::BUFFER;
            fb::BodyCompression::create(fbb, &fb::BodyCompressionArgs { codec, method })
        });
        let args = fb::RecordBatchArgs {
            length: self.length as i64,
            nodes: Some(nodes),
            buffers: Some(buffers),
            compression,
            variadicBufferCounts: variadic,
        };
        fb::RecordBatch::create(fbb, &args)
    }
}

/// The buffers of several messages as they go into their bodies: compressed separately
/// (length prefix included; empty buffers stay empty) when the options say so, all messages'
/// buffers together on the options' thread pool when there are enough bytes. `before` runs
/// once on this thread, while the pool's threads compress (see [`compress_buffers`]).
pub(crate) fn compress_messages(
    raws: &[RawBatch],
    options: &WriteOptions,
    before: impl FnOnce(),
) -> Result<Vec<Vec<Parts>>> {
    let Some(codec) = options.compression() else {
        before();
        let stored = raws
            .iter()
            .map(|r| r.buffers.iter().map(|b| vec![b.clone()]).collect());
        return Ok(stored.collect());
    };
    let buffers: Vec<Bytes> = raws
        .iter()
        .flat_map(|r| r.buffers.iter().cloned())
        .collect();
    let total: usize = buffers.iter().map(Bytes::len).sum();
    let sequential = ThreadPool::sequential();
    let pool = if total < PARALLEL_MIN_BYTES {
        &sequential
    } else {
        options.thread_pool()
    };
    let level = options.compression_level();
    let mut all = compress_buffers(codec, level, &buffers, pool, before)?.into_iter();
    let stored = raws
        .iter()
        .map(|r| all.by_ref().take(r.buffers.len()).collect());
    Ok(stored.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(buffers: Vec<Bytes>) -> RawBatch {
        RawBatch {
            length: 1,
            buffers,
            ..RawBatch::default()
        }
    }

    #[test]
    fn padding_is_zero_and_offsets_aligned() {
        let b = vec![
            Bytes::from_static(&[1, 2, 3]),
            Bytes::new(),
            Bytes::from(vec![7u8; 9]),
        ];
        for align in [8, 64] {
            let o = WriteOptions::default().with_alignment(align);
            let e = EncodedBatch::layout(raw(b.clone()), &o).unwrap();
            let offsets: Vec<usize> = e.buffers().iter().map(|b| b.offset).collect();
            assert_eq!(offsets, vec![0, align, align]);
            assert_eq!(e.body_len(), if align == 8 { 24 } else { 128 });
            let body = e.body();
            assert_eq!(body.len(), e.body_len());
            assert_eq!(&body[..3], &[1, 2, 3]);
            assert!(body[3..align].iter().all(|&x| x == 0));
            assert!(body[align + 9..].iter().all(|&x| x == 0));
        }
    }

    #[test]
    fn parallel_compression_keeps_order() {
        let bufs: Vec<Bytes> = (0..5u8)
            .map(|i| Bytes::from(vec![i; 400_000]))
            .chain([Bytes::new()])
            .collect();
        // Two messages compressed together come back apart, each buffer in its place.
        let raws = [raw(bufs[..2].to_vec()), raw(bufs[2..].to_vec())];
        for codec in [Codec::Lz4Frame, Codec::Zstd] {
            let o = WriteOptions::default().with_compression(Some(codec));
            let out = compress_messages(&raws, &o, || ()).unwrap();
            assert_eq!(out.len(), 2);
            assert_eq!((out[0].len(), out[1].len()), (2, 4));
            assert!(out[1][3].is_empty());
            let all: Vec<_> = out.concat();
            for (i, o) in all.iter().take(5).enumerate() {
                let o = Bytes::from(o.concat());
                let back = crate::compression::decompress_buffer(codec, &o, 400_000).unwrap();
                assert_eq!(&back[..], &bufs[i][..]);
            }
        }
    }
}
