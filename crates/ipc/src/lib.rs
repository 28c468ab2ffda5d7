//! quiver-ipc: the Arrow IPC stream and file formats.
//!
//! Layers (see ARCHITECTURE.md): `fb` (flatc bindings, private) → [`schema`] (the flatbuffer
//! schema codec: `Schema` ↔ [`quiver_arrow::Schema`], dictionary ids by field path) →
//! [`message`] (encapsulated message framing, the schema message) → [`compression`] (LZ4 frame
//! / ZSTD body buffers) → [`read`](mod@read) / [`write`](mod@write) (record batches,
//! dictionaries, streams and files). [`inspect`] shows the physical layout of files and
//! streams without decoding arrays. [`merge`](mod@merge) joins IPC files of one schema into one,
//! copying their record batch messages as they are.
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
pub mod inspect;
pub mod merge;
pub mod message;
pub mod read;
pub mod schema;
pub mod write;

pub use compression::Codec;
pub use schema::{DictionaryFields, Endianness, IpcSchema};
