//! Writing IPC streams and files.
//!
//! Layers, innermost first:
//! - [`encode_record_batch`] / [`encode_arrays`] (no IO): arrays → field nodes, buffer entries
//!   and a body made of slices. Buffers that need no rewriting are shared with the arrays
//!   (zero copy); slices are normalised so that only the referenced data is written (offsets
//!   rebased to 0, bitmaps realigned, children cut to the referenced range). Optional per-buffer
//!   compression (LZ4 frame / ZSTD), split over the threads of
//!   [`WriteOptions::with_thread_pool`] when there is enough work.
//! - [`DictionaryTracker`]: which dictionaries a reader has seen; decides, per batch, between
//!   nothing, a delta and a replacement (an error in the file format).
//! - [`StreamWriter`] and [`FileWriter`] over `std::io::Write`; [`PreallocatedFile`] is the
//!   fast `Write` for a file on disk, and [`SyncAhead`] syncs a file that must end up durable
//!   while it is written.
//!
//! ```
//! use quiver_arrow::{Array, DataType, Field, PrimitiveArray, RecordBatch, Schema};
//! use quiver_ipc::write::{StreamWriter, WriteOptions};
//! use std::sync::Arc;
//! let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int32, true)]));
//! let x = Array::from(PrimitiveArray::<i32>::from_options([Some(1), None, Some(3)]));
//! let batch = RecordBatch::try_new(schema.clone(), vec![x]).unwrap();
//! let mut w = StreamWriter::try_new(Vec::new(), schema, WriteOptions::default()).unwrap();
//! w.write(&batch).unwrap();
//! let bytes = w.finish().unwrap();
//! assert_eq!(&bytes[bytes.len() - 8..], &[0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
//! ```

mod body;
mod core;
mod dictionary;
mod encode;
mod file;
mod normalize;
mod preallocate;
mod stream;
mod sync_ahead;

pub(crate) use body::RawBatch;
pub use body::{BufferSpec, EncodedBatch, FieldNode};
pub use dictionary::{DictionaryTracker, DictionaryUpdate};
pub use encode::{encode_arrays, encode_record_batch};
pub use file::FileWriter;
pub use preallocate::{PreallocatedFile, release_space, reserve_space};
pub use stream::StreamWriter;
pub use sync_ahead::{SYNC_STEP, SyncAhead};

use crate::compression::Codec;
use crate::schema::IpcSchema;
use quiver_arrow::parallel::ThreadPool;
use quiver_arrow::{Error, Result, SchemaRef};

/// How writers lay out and compress what they write.
///
/// ```
/// use quiver_ipc::{Codec, write::WriteOptions};
/// let o = WriteOptions::default().with_alignment(64).with_compression(Some(Codec::Zstd));
/// assert_eq!(o.alignment(), 64);
/// assert_eq!(o.compression(), Some(Codec::Zstd));
/// assert!(o.emit_dictionary_deltas());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    alignment: usize,
    compression: Option<Codec>,
    compression_level: Option<i32>,
    emit_dictionary_deltas: bool,
    thread_pool: ThreadPool,
}

impl Default for WriteOptions {
    /// 8-byte alignment, no compression, dictionary deltas on, the global thread pool.
    fn default() -> Self {
        WriteOptions {
            alignment: 8,
            compression: None,
            compression_level: None,
            emit_dictionary_deltas: true,
            thread_pool: ThreadPool::global(),
        }
    }
}

impl WriteOptions {
    /// The defaults (see [`WriteOptions::default`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// Aligns every body buffer (and the start of every body in the output) to `alignment`
    /// bytes: 8 (what other implementations write) or 64 (SIMD-friendly). Other values are
    /// rejected when a writer is created.
    pub fn with_alignment(mut self, alignment: usize) -> Self {
        self.alignment = alignment;
        self
    }

    /// Compresses every body buffer separately with `codec` (`None`: no compression).
    pub fn with_compression(mut self, codec: Option<Codec>) -> Self {
        self.compression = codec;
        self
    }

    /// The codec's level (ZSTD only; `None` for the codec's default).
    pub fn with_compression_level(mut self, level: Option<i32>) -> Self {
        self.compression_level = level;
        self
    }

    /// Whether a dictionary that grew by appending values is sent as a delta (only the new
    /// values) rather than in full as a replacement. The file format cannot hold
    /// replacements, so there a grown dictionary is an error when deltas are off.
    pub fn with_dictionary_deltas(mut self, emit: bool) -> Self {
        self.emit_dictionary_deltas = emit;
        self
    }

    /// The threads that compress the buffers of a message (of a batch and the dictionaries it
    /// brings), and while they do, a compressing [`FileWriter`] writes the previous batch on
    /// the calling thread. Messages with less than 1 MiB of buffers are compressed on the
    /// calling thread alone. The output is the same whatever the pool. Default:
    /// [`ThreadPool::global`]; [`ThreadPool::sequential`] compresses on the calling thread.
    ///
    /// ```
    /// use quiver_arrow::parallel::ThreadPool;
    /// use quiver_ipc::write::WriteOptions;
    /// let pool = ThreadPool::new(4)?;
    /// let o = WriteOptions::default().with_thread_pool(pool.clone());
    /// assert_eq!(o.thread_pool(), &pool);
    /// # Ok::<(), quiver_arrow::Error>(())
    /// ```
    pub fn with_thread_pool(mut self, pool: ThreadPool) -> Self {
        self.thread_pool = pool;
        self
    }

    /// See [`WriteOptions::with_alignment`].
    pub fn alignment(&self) -> usize {
        self.alignment
    }
    /// See [`WriteOptions::with_compression`].
    pub fn compression(&self) -> Option<Codec> {
        self.compression
    }
    /// See [`WriteOptions::with_compression_level`].
    pub fn compression_level(&self) -> Option<i32> {
        self.compression_level
    }
    /// See [`WriteOptions::with_dictionary_deltas`].
    pub fn emit_dictionary_deltas(&self) -> bool {
        self.emit_dictionary_deltas
    }
    /// See [`WriteOptions::with_thread_pool`].
    pub fn thread_pool(&self) -> &ThreadPool {
        &self.thread_pool
    }

    /// Checks the options: the alignment must be 8 or 64.
    pub fn check(&self) -> Result<()> {
        if self.alignment != 8 && self.alignment != 64 {
            return Err(Error::invalid(format!(
                "IPC buffer alignment must be 8 or 64 bytes, not {}",
                self.alignment
            )));
        }
        Ok(())
    }
}

/// A schema to write: an [`IpcSchema`] (explicit dictionary ids and byte order) or a plain
/// [`SchemaRef`], which gets dictionary ids `0, 1, 2…` ([`IpcSchema::new`]).
pub trait IntoIpcSchema {
    /// The schema with its IPC state.
    fn into_ipc_schema(self) -> IpcSchema;
}

impl IntoIpcSchema for IpcSchema {
    fn into_ipc_schema(self) -> IpcSchema {
        self
    }
}
impl IntoIpcSchema for &IpcSchema {
    fn into_ipc_schema(self) -> IpcSchema {
        self.clone()
    }
}
impl IntoIpcSchema for SchemaRef {
    fn into_ipc_schema(self) -> IpcSchema {
        IpcSchema::new(self)
    }
}
impl IntoIpcSchema for &SchemaRef {
    fn into_ipc_schema(self) -> IpcSchema {
        IpcSchema::new(self.clone())
    }
}
