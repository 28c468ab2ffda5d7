//! The IPC streaming format: a schema message, dictionary and record batch messages, and the
//! end-of-stream marker.

use super::core::Core;
use super::{IntoIpcSchema, WriteOptions};
use crate::message::write_end_of_stream;
use crate::schema::IpcSchema;
use quiver_arrow::{Metadata, RecordBatch, Result};
use std::io::Write;

/// Writes record batches as an IPC stream.
///
/// The schema message is written on creation; each [`StreamWriter::write`] writes the
/// dictionary messages the batch needs (new dictionaries, deltas or replacements) and then
/// the batch; [`StreamWriter::finish`] writes the end-of-stream marker. Many small writes go
/// to `W`: wrap unbuffered writers (files, sockets) in a [`std::io::BufWriter`].
///
/// ```
/// use quiver_arrow::{Array, DataType, Field, RecordBatch, Schema, StringArray};
/// use quiver_ipc::{Codec, write::{StreamWriter, WriteOptions}};
/// use std::sync::Arc;
/// let schema = Arc::new(Schema::new(vec![Field::new("s", DataType::Utf8, true)]));
/// let s = Array::from(StringArray::from_options([Some("a"), None]));
/// let batch = RecordBatch::try_new(schema.clone(), vec![s]).unwrap();
/// let options = WriteOptions::default().with_compression(Some(Codec::Lz4Frame));
/// let mut w = StreamWriter::try_new(Vec::new(), &schema, options).unwrap();
/// w.write(&batch).unwrap();
/// let other = Arc::new(Schema::new(vec![Field::new("t", DataType::Utf8, true)]));
/// let wrong = RecordBatch::try_new(other, vec![batch.column(0).clone()]).unwrap();
/// assert!(w.write(&wrong).is_err()); // not the writer's schema
/// let bytes = w.finish().unwrap();
/// assert_eq!(&bytes[..4], &[0xff; 4]);
/// ```
#[derive(Debug)]
pub struct StreamWriter<W: Write> {
    core: Core<W>,
}

impl<W: Write> StreamWriter<W> {
    /// Checks the options and schema and writes the schema message.
    pub fn try_new(w: W, schema: impl IntoIpcSchema, options: WriteOptions) -> Result<Self> {
        let mut core = Core::try_new(w, schema.into_ipc_schema(), options, false)?;
        core.write_schema()?;
        Ok(StreamWriter { core })
    }

    /// Writes `batch` (after the dictionary messages it needs). Its fields must be the
    /// writer's; schema-level metadata is not compared (the writer's is the one written).
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        self.write_with_metadata(batch, &Metadata::new())
    }

    /// Like [`StreamWriter::write`], with message-level custom metadata on the batch message.
    pub fn write_with_metadata(&mut self, batch: &RecordBatch, metadata: &Metadata) -> Result<()> {
        self.core.write_batch(batch, metadata)
    }

    /// The schema being written, with its dictionary ids.
    pub fn schema(&self) -> &IpcSchema {
        self.core.schema()
    }

    /// The options in use.
    pub fn options(&self) -> &WriteOptions {
        self.core.options()
    }

    /// The inner writer.
    pub fn get_ref(&self) -> &W {
        self.core.inner()
    }

    /// Writes the end-of-stream marker, flushes, and returns the inner writer.
    pub fn finish(mut self) -> Result<W> {
        let mut eos = Vec::with_capacity(8);
        write_end_of_stream(&mut eos)?;
        self.core.write_raw(&eos)?;
        self.core.into_inner()
    }
}
