//! quiver-ipc: the Arrow IPC stream and file formats.
//!
//! Layers (DESIGN.md §5): `fb` (flatc bindings, private) → [`convert`] (flatbuffer schema ↔
//! [`quiver_arrow::Schema`], dictionary ids by field path) → [`message`] (encapsulated message
//! framing) → [`compression`] (LZ4 frame / ZSTD body buffers) → [`read`](mod@read) / [`write`](mod@write) (record
//! batches, dictionaries, streams and files). [`inspect`] shows the physical layout of files and
//! streams without decoding arrays.
//!
//! Readers and writers split the (de)compression of a message's buffers over the
//! [`ThreadPool`](quiver_arrow::parallel::ThreadPool) of their options: the global pool, one
//! thread per core, unless [`read::ReadOptions::with_thread_pool`] or
//! [`write::WriteOptions::with_thread_pool`] says otherwise. What they read and write does not
//! depend on it.

#[allow(unreachable_pub, clippy::all)]
#[rustfmt::skip]
mod fb;

pub mod compression;
pub mod convert;
pub mod inspect;
pub mod message;
pub mod read;
pub mod write;

pub use compression::Codec;
pub use convert::{DictionaryFields, Endianness, IpcSchema};
