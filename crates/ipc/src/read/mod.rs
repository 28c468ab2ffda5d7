//! Reading IPC streams and files.
//!
//! Layers, innermost first:
//! - [`decode_record_batch`] (sans-IO): a verified [`Message`](crate::message::Message) and its
//!   body → a [`RecordBatch`](quiver_arrow::RecordBatch). Every buffer is a zero-copy slice of the
//!   body unless it had to be decompressed or byte-swapped.
//! - [`DictionaryTable`]: the dictionaries read so far (replacement and delta batches, nested
//!   dictionaries, one dictionary shared by several fields).
//! - [`StreamState`] (sans-IO): the stream-level rules, one complete message at a time (the
//!   schema first, then dictionary batches into the table and record batches decoded with
//!   their message-level custom metadata), with the message counters and errors naming them.
//! - [`StreamReader`] (over `std::io::Read`) and [`StreamDecoder`] (push bytes in, get batches
//!   out): the streaming format, each framing messages its way and handing them to a
//!   [`StreamState`].
//! - [`FileReader`]: the file format with random access to batches, over `Read + Seek` or over
//!   [`bytes::Bytes`] (e.g. a memory map, read zero-copy).
//!
//! Untrusted input (DESIGN.md §4) is checked in two layers: the format (message framing, node
//! and buffer counts against the schema, every buffer range against the body, declared
//! decompressed sizes against a budget) while decoding, then every array with
//! [`Array::validate`](quiver_arrow::Array::validate) at [`ValidationLevel::Full`](quiver_arrow::ValidationLevel::Full) unless the
//! caller opted out with the `unsafe` [`ReadOptions::with_trusted_input`].
//!
//! ```
//! use quiver_ipc::read::StreamReader;
//! let err = StreamReader::try_new(&b""[..]).unwrap_err();
//! assert_eq!(err.to_string(), "the stream has no schema message (it is empty)");
//! ```

mod arrays;
mod batch;
mod body;
mod dictionary;
mod endian;
mod file;
mod push;
mod roots;
mod state;
mod stream;
mod walk;

pub(crate) use batch::check_record_batch;
pub use batch::decode_record_batch;
pub(crate) use body::buffer_range;
pub use dictionary::DictionaryTable;
pub(crate) use file::StoredMessage;
pub use file::{FileReader, FileSource, SeekSource};
pub use push::StreamDecoder;
pub use state::{Decoded, StreamState};
pub use stream::StreamReader;

use quiver_arrow::parallel::ThreadPool;

/// Decompressed bytes every message may use regardless of its body size.
const MIN_DECOMPRESSION_BUDGET: usize = 1 << 20;

/// How readers treat their input.
///
/// ```
/// use quiver_ipc::read::ReadOptions;
/// let o = ReadOptions::new().with_max_decompression_ratio(100);
/// assert_eq!(o.max_decompression_ratio(), 100);
/// assert!(o.validates());
/// ```
#[derive(Clone, Debug)]
pub struct ReadOptions {
    validate: bool,
    max_decompression_ratio: usize,
    max_decompressed_bytes: usize,
    max_dictionary_bytes: usize,
    thread_pool: ThreadPool,
    projection: Option<std::sync::Arc<[usize]>>,
}

impl Default for ReadOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl ReadOptions {
    /// Full validation; a message may decompress to at most 1024 times its body size (at
    /// least 1 MiB, at most 4 GiB).
    pub fn new() -> Self {
        ReadOptions {
            validate: true,
            max_decompression_ratio: 1024,
            max_decompressed_bytes: 4 << 30,
            max_dictionary_bytes: usize::MAX,
            thread_pool: ThreadPool::global(),
            projection: None,
        }
    }

    /// Decodes only these top-level columns (indices into the schema, in the order given):
    /// record batches come back with the projected schema, and the other columns' buffers are
    /// skipped without being decoded or validated (compressed buffers are still decompressed;
    /// dictionaries are read whole). An index beyond the schema is an error when a batch is
    /// decoded. The reader's own `schema()` stays the file's.
    ///
    /// ```
    /// use quiver_ipc::read::ReadOptions;
    /// let o = ReadOptions::new().with_projection(vec![2, 0]);
    /// assert_eq!(o.projection(), Some(&[2, 0][..]));
    /// ```
    pub fn with_projection(mut self, columns: Vec<usize>) -> Self {
        self.projection = Some(columns.into());
        self
    }

    /// See [`ReadOptions::with_projection`].
    pub fn projection(&self) -> Option<&[usize]> {
        self.projection.as_deref()
    }

    /// The threads that decompress the buffers of a compressed message (the calling thread
    /// and helpers from the pool). Messages that declare less than 1 MiB of decompressed
    /// buffers are decompressed on the calling thread alone. The batches read are the same
    /// whatever the pool. Default: [`ThreadPool::global`].
    ///
    /// ```
    /// use quiver_arrow::parallel::ThreadPool;
    /// use quiver_ipc::read::ReadOptions;
    /// let pool = ThreadPool::new(4)?;
    /// let o = ReadOptions::new().with_thread_pool(pool.clone());
    /// assert_eq!(o.thread_pool(), &pool);
    /// # Ok::<(), quiver_arrow::Error>(())
    /// ```
    pub fn with_thread_pool(mut self, pool: ThreadPool) -> Self {
        self.thread_pool = pool;
        self
    }

    /// See [`ReadOptions::with_thread_pool`].
    pub fn thread_pool(&self) -> &ThreadPool {
        &self.thread_pool
    }

    /// Shorthand for [`ReadOptions::with_thread_pool`]: `false` decompresses every buffer on
    /// the calling thread ([`ThreadPool::sequential`], for callers that spread messages over
    /// threads themselves, and for single-threaded measurements), `true` on the global pool
    /// ([`ThreadPool::global`], the default).
    ///
    /// ```
    /// use quiver_arrow::parallel::ThreadPool;
    /// use quiver_ipc::read::ReadOptions;
    /// let o = ReadOptions::new().with_parallel_decompression(false);
    /// assert!(!o.parallel_decompression());
    /// assert_eq!(o.thread_pool(), &ThreadPool::sequential());
    /// ```
    pub fn with_parallel_decompression(self, parallel: bool) -> Self {
        self.with_thread_pool(if parallel {
            ThreadPool::global()
        } else {
            ThreadPool::sequential()
        })
    }

    /// Whether the thread pool is not [`ThreadPool::sequential`] (see
    /// [`ReadOptions::with_parallel_decompression`]).
    pub fn parallel_decompression(&self) -> bool {
        !self.thread_pool.is_sequential()
    }

    /// Skips the full (O(n)) validation of decoded arrays: offsets, UTF-8, views, dictionary
    /// keys, union type ids, run ends and null counts are trusted. The format checks (buffer
    /// ranges, counts, sizes) and structural validation still run.
    ///
    /// # Safety
    /// The input must be valid Arrow IPC data whose arrays pass
    /// [`Array::validate`](quiver_arrow::Array::validate) at [`ValidationLevel::Full`](quiver_arrow::ValidationLevel::Full) (for
    /// example, data this process wrote itself): the invariants listed in
    /// `quiver_arrow::validate` that `unsafe` code relies on (UTF-8 strings, monotone offsets,
    /// views in bounds) are then not checked.
    pub unsafe fn with_trusted_input(mut self) -> Self {
        self.validate = false;
        self
    }

    /// Bounds the total decompressed size of one message to `ratio` times its (compressed)
    /// body size (at least 1 MiB), so that a small input cannot make the reader allocate
    /// gigabytes. Raise it for data that compresses extremely well.
    pub fn with_max_decompression_ratio(mut self, ratio: usize) -> Self {
        self.max_decompression_ratio = ratio;
        self
    }

    /// Absolute bound on the decompressed size of one message, whatever its body size.
    pub fn with_max_decompressed_bytes(mut self, bytes: usize) -> Self {
        self.max_decompressed_bytes = bytes;
        self
    }

    /// Absolute bound on the bytes of dictionary values a reader holds at once (the sum over
    /// dictionary ids of [`Array::buffer_bytes`](quiver_arrow::Array::buffer_bytes) of the
    /// current dictionaries, deltas included). Unbounded by default.
    ///
    /// Independently of it, the dictionaries held may not exceed the bytes of the dictionary
    /// messages read so far times [`ReadOptions::max_decompression_ratio`] (at least 1 MiB):
    /// a stream repeating one small, highly compressed delta cannot grow a dictionary by the
    /// whole per-message decompression budget each time.
    ///
    /// ```
    /// use quiver_ipc::read::ReadOptions;
    /// let o = ReadOptions::new().with_max_dictionary_bytes(64 << 20);
    /// assert_eq!(o.max_dictionary_bytes(), 64 << 20);
    /// ```
    pub fn with_max_dictionary_bytes(mut self, bytes: usize) -> Self {
        self.max_dictionary_bytes = bytes;
        self
    }

    /// True unless [`ReadOptions::with_trusted_input`] was used.
    pub fn validates(&self) -> bool {
        self.validate
    }

    /// See [`ReadOptions::with_max_decompression_ratio`].
    pub fn max_decompression_ratio(&self) -> usize {
        self.max_decompression_ratio
    }

    /// See [`ReadOptions::with_max_decompressed_bytes`].
    pub fn max_decompressed_bytes(&self) -> usize {
        self.max_decompressed_bytes
    }

    /// See [`ReadOptions::with_max_dictionary_bytes`].
    pub fn max_dictionary_bytes(&self) -> usize {
        self.max_dictionary_bytes
    }

    /// The bytes of dictionary values a reader may hold after reading `message_bytes` bytes
    /// of dictionary messages (see [`ReadOptions::with_max_dictionary_bytes`]).
    pub(crate) fn dictionary_budget(&self, message_bytes: usize) -> usize {
        message_bytes
            .saturating_mul(self.max_decompression_ratio.max(1))
            .max(MIN_DECOMPRESSION_BUDGET)
            .min(self.max_dictionary_bytes)
    }

    /// The decompressed bytes a message with a body of `body_len` bytes may produce.
    pub(crate) fn decompression_budget(&self, body_len: usize) -> usize {
        body_len
            .saturating_mul(self.max_decompression_ratio)
            .max(MIN_DECOMPRESSION_BUDGET)
            .min(self.max_decompressed_bytes)
    }
}

#[cfg(test)]
mod tests;
