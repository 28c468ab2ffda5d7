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

// The flatc-generated bindings (`fb/org/…`, not edited by hand) call `unwrap()` in their
// accessors. ok: none of them can fail on what quiver reads. A scalar or enum field's
// accessor passes its schema default (`Some(default)`), so the lookup always has a value; a
// `required` table or vector field's accessor passes `None`, and every buffer is checked by
// `flatbuffers::root_with_opts` (`message::verifier_options`) before any accessor runs, whose
// verifier rejects a table missing a required field. Unverified access exists only behind
// `Message::fb`, over metadata verified when the message was made.
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
