//! The structs, unions and enums of parquet.thrift (apache/parquet-format
//! `src/main/thrift/parquet.thrift`), decoded and encoded by hand over [`crate::thrift`].
//!
//! Each type's IDL is quoted in its module; field ids are exactly the IDL's. Binary and
//! string fields borrow from the bytes decoded. Fields unknown to this version are skipped;
//! enum values and union variants it does not know are kept as `Unknown(..)`, never an
//! error. Required fields that are absent are errors naming the struct and field.

mod column;
mod crypto;
mod enums;
mod file;
mod index;
mod logical;
mod page;
mod schema;
mod stats;
mod union;

pub use column::{ColumnChunk, ColumnCryptoMetaData, ColumnMetaData, PageEncodingStats};
pub use crypto::{AesGcm, EncryptionAlgorithm, FileCryptoMetaData};
pub use enums::{
    BoundaryOrder, CompressionCodec, ConvertedType, EdgeInterpolationAlgorithm, Encoding,
    FieldRepetitionType, PageType, Type,
};
pub use file::{ChunkCheck, ColumnChunks, FileMetaData, RowGroup};
pub use index::{BloomFilterHeader, BloomFilterVariant, ColumnIndex, OffsetIndex, PageLocation};
pub use logical::{ColumnOrder, LogicalType, TimeUnit};
pub use page::{DataPageHeader, DataPageHeaderV2, DictionaryPageHeader, PageHeader};
pub use schema::{KeyValue, SchemaElement, SortingColumn};
pub use stats::{BoundingBox, GeospatialStatistics, SizeStatistics, Statistics};

#[cfg(test)]
mod tests;
