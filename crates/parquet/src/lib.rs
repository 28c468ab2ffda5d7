//! quiver-parquet: Apache Parquet for quiver (the reader is being built; see the open issues).
//!
//! Layers, bottom up (`../shared/DESIGN.md` §6): [`encoding`] holds the pure decoding kernels,
//! [`codec`] page decompression.

pub mod arrow;
pub mod codec;
pub mod encoding;
pub mod file;
pub mod format;
pub mod levels;
pub mod metadata;
pub mod page;
pub mod schema;
pub mod thrift;
