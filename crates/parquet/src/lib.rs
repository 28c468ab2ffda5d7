//! quiver-parquet: the Apache Parquet format.
//!
//! Layers, bottom-up (DESIGN.md §6): [`thrift`] (the compact protocol) → [`format`] (the
//! structs of parquet.thrift) → [`metadata`] (the footer, validated). Schema, pages,
//! encodings and the Arrow conversion build on these.

pub mod format;
pub mod metadata;
pub mod thrift;
