//! quiver-parquet: the Apache Parquet format.
//!
//! Layers, bottom-up (`../shared/DESIGN.md` §6):
//! [`thrift`] (the compact protocol) → [`format`](mod@format) (the structs of parquet.thrift) →
//! [`metadata`] (the footer, validated) → [`schema`] (the schema tree, leaf descriptors) →
//! [`encoding`] (pure decoding kernels), [`codec`] (page decompression) → [`page`] (page
//! headers, CRCs, levels and values of a page) → [`levels`] (definition/repetition levels,
//! record assembly) → [`arrow`] (Parquet ↔ Arrow types, `ARROW:schema`, column decoding, array
//! building; the only module that knows Arrow arrays) → [`file`](mod@file) (readers over whole
//! files). [`bloom`] (split-block Bloom filters) knows only hashes, bytes and the format's header.

pub mod arrow;
pub mod bloom;
pub mod codec;
pub mod encoding;
pub mod file;
pub mod format;
pub mod levels;
pub mod metadata;
pub mod page;
pub mod schema;
pub mod thrift;
