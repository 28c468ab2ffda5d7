//! What the stream and file writers share: position tracking, message framing with aligned
//! bodies, and the per-batch sequence (dictionaries first, then the batch).

use super::dictionary::DictionaryTracker;
use super::{WriteOptions, encode_arrays, encode_record_batch};
use crate::convert::{Endianness, IpcSchema, schema_to_fb};
use crate::fb::org::apache::arrow::flatbuf as fb;
use crate::message::{padding, write_message};
use bytes::Bytes;
use flatbuffers::{FlatBufferBuilder, ForwardsUOffset, UnionWIPOffset, Vector, WIPOffset};
use quiver_arrow::{Error, Metadata, RecordBatch, Result};
use std::io::Write;

/// Zero bytes for padding.
pub(crate) static PAD: [u8; 64] = [0; 64];

/// Key/value pairs as `metadata_to_fb` builds them.
pub(crate) type KeyValues<'b> = Option<WIPOffset<Vector<'b, ForwardsUOffset<fb::KeyValue<'b>>>>>;

/// Finishes a V5 `Message` flatbuffer with the given header.
pub(crate) fn message_bytes<'b>(
    mut fbb: FlatBufferBuilder<'b>,
    header: (fb::MessageHeader, WIPOffset<UnionWIPOffset>),
    body_len: usize,
    custom_metadata: KeyValues<'b>,
) -> Result<Vec<u8>> {
    let body_len = i64::try_from(body_len)
        .map_err(|_| Error::Overflow(format!("message body of {body_len} bytes")))?;
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

/// Where a message lies in the output: what the file footer's `Block` records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Block {
    /// Offset of the message's first byte (its continuation marker).
    pub offset: u64,
    /// Prefix, metadata and padding.
    pub metadata_len: usize,
    /// Body bytes.
    pub body_len: usize,
}

impl Block {
    pub(crate) fn to_fb(self) -> Result<fb::Block> {
        let meta = i32::try_from(self.metadata_len)
            .map_err(|_| Error::Overflow(format!("metadata of {} bytes", self.metadata_len)))?;
        Ok(fb::Block::new(
            self.offset as i64,
            meta,
            self.body_len as i64,
        ))
    }
}

/// A writer that counts the bytes written through it.
#[derive(Debug)]
pub(crate) struct Counting<W> {
    inner: W,
    position: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.position += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The state both writers carry: output, schema, options, dictionaries sent so far.
#[derive(Debug)]
pub(crate) struct Core<W: Write> {
    out: Counting<W>,
    schema: IpcSchema,
    options: WriteOptions,
    tracker: DictionaryTracker,
}

impl<W: Write> Core<W> {
    /// Checks the options and schema; writes nothing.
    pub(crate) fn try_new(
        w: W,
        schema: IpcSchema,
        options: WriteOptions,
        file: bool,
    ) -> Result<Self> {
        options.check()?;
        if schema.endianness != Endianness::Little {
            return Err(Error::NotSupported(
                "writing big-endian IPC data (quiver writes the host's little-endian order)".into(),
            ));
        }
        schema.dictionaries.value_types(&schema.schema)?;
        let tracker = DictionaryTracker::new(file, options.emit_dictionary_deltas());
        Ok(Core {
            out: Counting {
                inner: w,
                position: 0,
            },
            schema,
            options,
            tracker,
        })
    }

    pub(crate) fn schema(&self) -> &IpcSchema {
        &self.schema
    }
    pub(crate) fn options(&self) -> &WriteOptions {
        &self.options
    }
    pub(crate) fn inner(&self) -> &W {
        &self.out.inner
    }

    /// Writes raw bytes (file magic, footer).
    pub(crate) fn write_raw(&mut self, bytes: &[u8]) -> Result<()> {
        self.out.write_all(bytes)?;
        Ok(())
    }

    /// Flushes and returns the inner writer.
    pub(crate) fn into_inner(mut self) -> Result<W> {
        self.out.flush()?;
        Ok(self.out.inner)
    }

    /// The schema as a `Message` flatbuffer.
    pub(crate) fn write_schema(&mut self) -> Result<Block> {
        let mut fbb = FlatBufferBuilder::new();
        let schema = schema_to_fb(&mut fbb, &self.schema)?;
        let header = (fb::MessageHeader::Schema, schema.as_union_value());
        let metadata = message_bytes(fbb, header, 0, None)?;
        self.write_message(metadata, &[])
    }

    /// Writes the dictionaries `batch` needs that the reader lacks, then `batch`; returns the
    /// blocks of the dictionary messages and of the batch. Everything is encoded before
    /// anything is written, so an error leaves the output and the dictionary state unchanged
    /// (unless the error is the writer's own).
    pub(crate) fn write_batch(
        &mut self,
        batch: &RecordBatch,
        metadata: &Metadata,
    ) -> Result<(Vec<Block>, Block)> {
        self.check_schema(batch)?;
        let pending = self.tracker.plan(&self.schema, batch.columns())?;
        let mut dictionaries = Vec::with_capacity(pending.updates().len());
        for u in pending.updates() {
            let values = std::slice::from_ref(&u.values);
            let e = encode_arrays(values, u.values.len(), &self.options)?;
            let m = e.dictionary_batch_message(u.id, u.is_delta, &Metadata::new())?;
            dictionaries.push((m, e));
        }
        let e = encode_record_batch(batch, &self.options)?;
        let m = e.record_batch_message(metadata)?;
        self.tracker.commit(pending);
        let mut blocks = Vec::with_capacity(dictionaries.len());
        for (dm, de) in dictionaries {
            blocks.push(self.write_message(dm, de.body_parts())?);
        }
        let batch_block = self.write_message(m, e.body_parts())?;
        Ok((blocks, batch_block))
    }

    /// Frames one message, padding the metadata so that the body starts at a multiple of the
    /// alignment from the start of the output.
    fn write_message(&mut self, mut metadata: Vec<u8>, body: &[Bytes]) -> Result<Block> {
        let offset = self.out.position;
        let align = self.options.alignment();
        let body_start = (offset % align as u64) as usize + 8 + metadata.len();
        metadata.resize(metadata.len() + padding(body_start, align), 0);
        let parts: Vec<&[u8]> = body.iter().map(|b| b.as_ref()).collect();
        let (metadata_len, body_len) = write_message(&mut self.out, &metadata, &parts)?;
        Ok(Block {
            offset,
            metadata_len,
            body_len,
        })
    }

    /// The batch's fields must be the writer's (schema-level metadata may differ).
    fn check_schema(&self, batch: &RecordBatch) -> Result<()> {
        let (got, want) = (&batch.schema().fields, &self.schema.schema.fields);
        if std::sync::Arc::ptr_eq(batch.schema(), &self.schema.schema) || got == want {
            return Ok(());
        }
        if got.len() != want.len() {
            return Err(Error::invalid(format!(
                "record batch has {} fields but the writer's schema has {}",
                got.len(),
                want.len()
            )));
        }
        let diff = (got.iter().zip(want.iter()).enumerate()).find(|(_, (g, w))| g != w);
        Err(Error::invalid(match diff {
            Some((i, (g, w))) => {
                format!("record batch field {i} is {g:?} but the writer's schema has {w:?}")
            }
            None => "record batch fields differ from the writer's schema".to_string(),
        }))
    }
}
