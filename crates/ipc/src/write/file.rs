//! The IPC file format: magic, the stream messages, and a footer indexing the dictionary and
//! record batch messages.

use super::core::{Block, Core};
use super::{IntoIpcSchema, WriteOptions};
use crate::fb::org::apache::arrow::flatbuf as fb;
use crate::message::write_end_of_stream;
use crate::schema::{IpcSchema, metadata_to_fb, schema_to_fb};
use flatbuffers::FlatBufferBuilder;
use quiver_arrow::{Error, Metadata, RecordBatch, Result};
use std::io::Write;

/// The magic string at both ends of an IPC file.
pub(crate) const MAGIC: &[u8; 6] = b"ARROW1";

/// Writes record batches as an IPC file.
///
/// The file starts with `ARROW1` and two zero bytes, then holds the stream (schema message
/// included); [`FileWriter::finish`] appends the end-of-stream marker, the footer (schema,
/// dictionary and record batch blocks, custom metadata), its length and `ARROW1`.
///
/// A dictionary may grow between batches (written as deltas) but not be replaced: the file
/// format cannot express replacements, and writing a batch that would need one is an error.
///
/// ```
/// use quiver_arrow::{Array, DataType, Field, PrimitiveArray, RecordBatch, Schema};
/// use quiver_ipc::write::{FileWriter, WriteOptions};
/// use std::sync::Arc;
/// let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Float64, false)]));
/// let x = Array::from(PrimitiveArray::<f64>::new(vec![1.5, 2.5]));
/// let batch = RecordBatch::try_new(schema.clone(), vec![x]).unwrap();
/// let mut w = FileWriter::try_new(Vec::new(), schema, WriteOptions::default()).unwrap();
/// w.write(&batch).unwrap();
/// let bytes = w.finish().unwrap();
/// assert_eq!(&bytes[..8], b"ARROW1\0\0");
/// assert_eq!(&bytes[bytes.len() - 6..], b"ARROW1");
/// ```
#[derive(Debug)]
pub struct FileWriter<W: Write> {
    core: Core<W>,
    footer_metadata: Metadata,
}

impl<W: Write> FileWriter<W> {
    /// Checks the options and schema and writes the magic and the schema message.
    pub fn try_new(w: W, schema: impl IntoIpcSchema, options: WriteOptions) -> Result<Self> {
        let mut core = Core::try_new(w, schema.into_ipc_schema(), options, true)?;
        core.write_raw(&[&MAGIC[..], &[0, 0]].concat())?;
        core.write_schema()?;
        Ok(FileWriter {
            core,
            footer_metadata: Metadata::new(),
        })
    }

    /// Writes `batch` (after the dictionary messages it needs). Its fields must be the
    /// writer's; schema-level metadata is not compared.
    ///
    /// With compression, the batch is compressed now and its bytes are written during the
    /// next call (or [`FileWriter::finish`]), while the next batch is being compressed: an
    /// error writing to `W` may therefore come from the call after. The file is readable
    /// only once finished in any case.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        self.write_with_metadata(batch, &Metadata::new())
    }

    /// Like [`FileWriter::write`], with message-level custom metadata on the batch message.
    pub fn write_with_metadata(&mut self, batch: &RecordBatch, metadata: &Metadata) -> Result<()> {
        self.core.write_batch(batch, metadata)
    }

    /// Sets the custom metadata stored in the footer.
    pub fn set_footer_metadata(&mut self, metadata: Metadata) {
        self.footer_metadata = metadata;
    }

    /// The schema being written, with its dictionary ids.
    pub fn schema(&self) -> &IpcSchema {
        self.core.schema()
    }

    /// The options in use.
    pub fn options(&self) -> &WriteOptions {
        self.core.options()
    }

    /// The inner writer (with compression, the last batch written may not have reached it
    /// yet; see [`FileWriter::write`]).
    pub fn get_ref(&self) -> &W {
        self.core.inner()
    }

    /// Writes a whole message framed elsewhere (`metadata_len` bytes of prefix, metadata and
    /// padding, then the body) as it is, at the next multiple of 8 bytes, and lists it in the
    /// footer: a dictionary batch (`dictionary`) or a record batch. The caller checked the
    /// message against the schema.
    pub(crate) fn write_framed(
        &mut self,
        dictionary: bool,
        bytes: &[u8],
        metadata_len: usize,
    ) -> Result<()> {
        self.core.write_framed(dictionary, bytes, metadata_len)
    }

    /// Frames and writes a message from its `Message` flatbuffer and body, and lists it in
    /// the footer: a dictionary batch (`dictionary`) or a record batch.
    pub(crate) fn write_encoded_message(
        &mut self,
        dictionary: bool,
        metadata: Vec<u8>,
        body: &[bytes::Bytes],
    ) -> Result<()> {
        self.core.write_encoded_message(dictionary, metadata, body)
    }

    /// [`FileWriter::finish`], also returning the length of the file written.
    pub(crate) fn finish_with_len(mut self) -> Result<(W, u64)> {
        self.write_tail()?;
        let len = self.core.position();
        Ok((self.core.into_inner()?, len))
    }

    /// Writes the end-of-stream marker, the footer, its length and the closing magic; flushes
    /// and returns the inner writer.
    pub fn finish(mut self) -> Result<W> {
        self.write_tail()?;
        self.core.into_inner()
    }

    fn write_tail(&mut self) -> Result<()> {
        self.core.flush_pending()?;
        let mut tail = Vec::new();
        write_end_of_stream(&mut tail)?;
        let footer = self.footer()?;
        let len = i32::try_from(footer.len())
            .map_err(|_| Error::overflow(format!("file footer of {} bytes", footer.len())))?;
        tail.extend_from_slice(&footer);
        tail.extend_from_slice(&len.to_le_bytes());
        tail.extend_from_slice(MAGIC);
        self.core.write_raw(&tail)
    }

    fn footer(&self) -> Result<Vec<u8>> {
        let mut fbb = FlatBufferBuilder::new();
        let schema = schema_to_fb(&mut fbb, self.core.schema())?;
        let blocks = |b: &[Block]| b.iter().map(|b| b.to_fb()).collect::<Result<Vec<_>>>();
        let (dictionaries, batches) = self.core.blocks();
        let dictionaries = fbb.create_vector(&blocks(dictionaries)?);
        let batches = fbb.create_vector(&blocks(batches)?);
        let custom_metadata = metadata_to_fb(&mut fbb, &self.footer_metadata);
        let args = fb::FooterArgs {
            version: fb::MetadataVersion::V5,
            schema: Some(schema),
            dictionaries: Some(dictionaries),
            recordBatches: Some(batches),
            custom_metadata,
        };
        let footer = fb::Footer::create(&mut fbb, &args);
        fbb.finish(footer, None);
        Ok(fbb.finished_data().to_vec())
    }
}
