//! The writer core, what the stream and file writers share: position tracking, message
//! framing with aligned bodies, and the per-batch sequence (dictionaries first, then the
//! batch).

use super::WriteOptions;
use super::body::{EncodedBatch, compress_messages};
use super::dictionary::DictionaryTracker;
use super::encode::encode_raw;
use crate::fb::org::apache::arrow::flatbuf as fb;
use crate::message::{ZEROS, finish_message, padding, write_message};
use crate::schema::{Endianness, IpcSchema, schema_to_fb};
use bytes::Bytes;
use flatbuffers::FlatBufferBuilder;
use quiver_arrow::{Error, Metadata, RecordBatch, Result};
use std::io::Write;

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
            .map_err(|_| Error::overflow(format!("metadata of {} bytes", self.metadata_len)))?;
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

/// The messages one `write` produces, in output order: the dictionary batches the record
/// batch needs, then the record batch (each as metadata and body).
#[derive(Debug)]
pub(crate) struct Encoded {
    dictionaries: Vec<(Vec<u8>, EncodedBatch)>,
    batch: (Vec<u8>, EncodedBatch),
}

/// The output, and (for the file footer) the blocks of the messages written to it.
#[derive(Debug)]
struct Sink<W> {
    out: Counting<W>,
    align: usize,
    keep_blocks: bool,
    dictionary_blocks: Vec<Block>,
    batch_blocks: Vec<Block>,
}

impl<W: Write> Sink<W> {
    /// Frames one message, padding the metadata so that the body starts at a multiple of the
    /// alignment from the start of the output.
    fn write_message(&mut self, mut metadata: Vec<u8>, body: &[Bytes]) -> Result<Block> {
        let offset = self.out.position;
        let body_start = (offset % self.align as u64) as usize + 8 + metadata.len();
        metadata.resize(metadata.len() + padding(body_start, self.align), 0);
        let parts: Vec<&[u8]> = body.iter().map(|b| b.as_ref()).collect();
        let (metadata_len, body_len) = write_message(&mut self.out, &metadata, &parts)?;
        Ok(Block {
            offset,
            metadata_len,
            body_len,
        })
    }

    /// Keeps the block of a message just written (file writers).
    fn record(&mut self, dictionary: bool, block: Block) {
        if self.keep_blocks {
            if dictionary {
                self.dictionary_blocks.push(block);
            } else {
                self.batch_blocks.push(block);
            }
        }
    }

    /// Writes a whole framed message as it is (`metadata_len` bytes of prefix, metadata and
    /// padding, then the body), starting at the next multiple of 8 bytes (zero bytes fill the
    /// gap, which only a message of a length not a multiple of 8 leaves).
    fn write_framed(&mut self, dictionary: bool, bytes: &[u8], metadata_len: usize) -> Result<()> {
        let gap = padding((self.out.position % 8) as usize, 8);
        self.out.write_all(&ZEROS[..gap])?;
        let offset = self.out.position;
        self.out.write_all(bytes)?;
        let body_len = bytes.len().checked_sub(metadata_len).ok_or_else(|| {
            Error::invalid(format!(
                "a message of {} bytes cannot have {metadata_len} bytes of metadata",
                bytes.len()
            ))
        })?;
        self.record(
            dictionary,
            Block {
                offset,
                metadata_len,
                body_len,
            },
        );
        Ok(())
    }

    fn write_encoded(&mut self, e: Encoded) -> Result<()> {
        for (metadata, body) in e.dictionaries {
            let block = self.write_message(metadata, body.body_parts())?;
            self.record(true, block);
        }
        let (metadata, body) = e.batch;
        let block = self.write_message(metadata, body.body_parts())?;
        self.record(false, block);
        Ok(())
    }
}

/// The state both writers carry: output, schema, options, dictionaries sent so far, and
/// the batch held back to be written while the next is compressed.
#[derive(Debug)]
pub(crate) struct Core<W: Write> {
    sink: Sink<W>,
    schema: IpcSchema,
    options: WriteOptions,
    tracker: DictionaryTracker,
    /// Whether a batch is held back until the next `write_batch` (or `flush_pending`), so
    /// that its bytes go out while the next batch is compressed: for compressing file
    /// writers, whose output is not readable before the footer anyway.
    hold_back: bool,
    pending: Option<Encoded>,
}

impl<W: Write> Core<W> {
    /// Checks the options and schema; writes nothing. A file writer (`file`) keeps the
    /// blocks of the messages it writes, for its footer.
    pub(crate) fn try_new(
        w: W,
        schema: IpcSchema,
        options: WriteOptions,
        file: bool,
    ) -> Result<Self> {
        options.check()?;
        if schema.endianness != Endianness::Little {
            return Err(Error::not_supported(
                "writing big-endian IPC data (quiver writes the host's little-endian order)",
            ));
        }
        schema.dictionaries.value_types(&schema.schema)?;
        let tracker = DictionaryTracker::new(file, options.emit_dictionary_deltas());
        Ok(Core {
            sink: Sink {
                out: Counting {
                    inner: w,
                    position: 0,
                },
                align: options.alignment(),
                keep_blocks: file,
                dictionary_blocks: Vec::new(),
                batch_blocks: Vec::new(),
            },
            schema,
            hold_back: file && options.compression().is_some(),
            options,
            tracker,
            pending: None,
        })
    }

    pub(crate) fn schema(&self) -> &IpcSchema {
        &self.schema
    }
    pub(crate) fn options(&self) -> &WriteOptions {
        &self.options
    }
    pub(crate) fn inner(&self) -> &W {
        &self.sink.out.inner
    }
    /// The blocks of the dictionary and record batch messages written so far (file writers).
    pub(crate) fn blocks(&self) -> (&[Block], &[Block]) {
        (&self.sink.dictionary_blocks, &self.sink.batch_blocks)
    }

    /// Writes the batch held back, if any.
    pub(crate) fn flush_pending(&mut self) -> Result<()> {
        match self.pending.take() {
            Some(e) => self.sink.write_encoded(e),
            None => Ok(()),
        }
    }

    /// Writes raw bytes (file magic, footer), after the batch held back.
    pub(crate) fn write_raw(&mut self, bytes: &[u8]) -> Result<()> {
        self.flush_pending()?;
        self.sink.out.write_all(bytes)?;
        Ok(())
    }

    /// Writes the batch held back, flushes and returns the inner writer.
    pub(crate) fn into_inner(mut self) -> Result<W> {
        self.flush_pending()?;
        self.sink.out.flush()?;
        Ok(self.sink.out.inner)
    }

    /// Bytes written so far.
    pub(crate) fn position(&self) -> u64 {
        self.sink.out.position
    }

    /// Writes one message framed elsewhere, as it is (see `Sink::write_framed`), after the
    /// batch held back; a dictionary batch (`dictionary`) or a record batch.
    pub(crate) fn write_framed(
        &mut self,
        dictionary: bool,
        bytes: &[u8],
        metadata_len: usize,
    ) -> Result<()> {
        self.flush_pending()?;
        self.sink.write_framed(dictionary, bytes, metadata_len)
    }

    /// Frames and writes one message from its `Message` flatbuffer and body, after the batch
    /// held back; a dictionary batch (`dictionary`) or a record batch.
    pub(crate) fn write_encoded_message(
        &mut self,
        dictionary: bool,
        metadata: Vec<u8>,
        body: &[Bytes],
    ) -> Result<()> {
        self.flush_pending()?;
        let block = self.sink.write_message(metadata, body)?;
        self.sink.record(dictionary, block);
        Ok(())
    }

    /// The schema as a `Message` flatbuffer.
    pub(crate) fn write_schema(&mut self) -> Result<()> {
        let mut fbb = FlatBufferBuilder::new();
        let schema = schema_to_fb(&mut fbb, &self.schema)?;
        let header = (fb::MessageHeader::Schema, schema.as_union_value());
        let metadata = finish_message(fbb, header, 0, None)?;
        self.flush_pending()?;
        self.sink.write_message(metadata, &[]).map(|_| ())
    }

    /// Writes the dictionaries `batch` needs that the reader lacks, then `batch`.
    ///
    /// Everything is encoded before anything of this batch is written, so an error leaves
    /// the output and the dictionary state unchanged (unless the error is the writer's own).
    /// A compressing file writer holds the encoded batch back and writes it during the next
    /// call, on this thread while the thread pool's other threads compress the next batch (or
    /// in [`Core::flush_pending`]); an error writing it is returned by that call.
    pub(crate) fn write_batch(&mut self, batch: &RecordBatch, metadata: &Metadata) -> Result<()> {
        self.check_schema(batch)?;
        let plan = self.tracker.plan(&self.schema, batch.columns())?;
        let mut raws = Vec::with_capacity(plan.updates().len() + 1);
        for u in plan.updates() {
            let values = std::slice::from_ref(&u.values);
            raws.push(encode_raw(values, u.values.len(), &self.options)?);
        }
        // Columns whose dictionaries were unified carry keys into the unified dictionary.
        let columns = plan.columns().unwrap_or(batch.columns());
        raws.push(encode_raw(columns, batch.num_rows(), &self.options)?);

        let mut previous = self.pending.take();
        let sink = &mut self.sink;
        let mut written = Ok(());
        let stored = compress_messages(&raws, &self.options, || {
            if let Some(p) = previous.take() {
                written = sink.write_encoded(p);
            }
        });
        written?;
        if let Some(p) = previous {
            // (Not reached: `compress_messages` runs its `before` exactly once.)
            self.sink.write_encoded(p)?;
        }
        let mut messages = raws.into_iter().zip(stored?);
        let mut dictionaries = Vec::with_capacity(plan.updates().len());
        for (u, (raw, stored)) in plan.updates().iter().zip(messages.by_ref()) {
            let e = EncodedBatch::assemble(raw, stored, &self.options);
            let m = e.dictionary_batch_message(u.id, u.is_delta, &Metadata::new())?;
            dictionaries.push((m, e));
        }
        let (raw, stored) = messages
            .next()
            .expect("the record batch's buffers come last"); // ok: the record batch's buffers come last.
        let e = EncodedBatch::assemble(raw, stored, &self.options);
        let m = e.record_batch_message(metadata)?;
        self.tracker.commit(plan);
        let encoded = Encoded {
            dictionaries,
            batch: (m, e),
        };
        if self.hold_back {
            self.pending = Some(encoded);
            Ok(())
        } else {
            self.sink.write_encoded(encoded)
        }
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
