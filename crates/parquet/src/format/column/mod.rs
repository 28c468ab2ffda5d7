//! `struct ColumnMetaData`, `struct PageEncodingStats` and `struct ColumnChunk` with its
//! encryption unions.
//!
//! ```thrift
//! struct PageEncodingStats { 1: required PageType page_type; 2: required Encoding encoding; 3: required i32 count; }
//! struct ColumnMetaData {
//!   1: required Type type  2: required list<Encoding> encodings  3: required list<string> path_in_schema
//!   4: required CompressionCodec codec  5: required i64 num_values  6: required i64 total_uncompressed_size
//!   7: required i64 total_compressed_size  8: optional list<KeyValue> key_value_metadata
//!   9: required i64 data_page_offset  10: optional i64 index_page_offset
//!   11: optional i64 dictionary_page_offset  12: optional Statistics statistics;
//!   13: optional list<PageEncodingStats> encoding_stats;  14: optional i64 bloom_filter_offset;
//!   15: optional i32 bloom_filter_length;  16: optional SizeStatistics size_statistics;
//!   17: optional GeospatialStatistics geospatial_statistics;
//! }
//! struct EncryptionWithFooterKey {}
//! struct EncryptionWithColumnKey { 1: required list<string> path_in_schema  2: optional binary key_metadata }
//! union ColumnCryptoMetaData { 1: EncryptionWithFooterKey ENCRYPTION_WITH_FOOTER_KEY  2: EncryptionWithColumnKey ENCRYPTION_WITH_COLUMN_KEY }
//! struct ColumnChunk {
//!   1: optional string file_path  2: required i64 file_offset = 0  3: optional ColumnMetaData meta_data
//!   4: optional i64 offset_index_offset  5: optional i32 offset_index_length
//!   6: optional i64 column_index_offset  7: optional i32 column_index_length
//!   8: optional ColumnCryptoMetaData crypto_metadata  9: optional binary encrypted_column_metadata
//! }
//! ```

mod fast;

use super::union::{read_union, write_union};
use super::{
    CompressionCodec, Encoding, GeospatialStatistics, KeyValue, PageType, SizeStatistics,
    Statistics, Type,
};
use crate::thrift::{
    CompactReader, CompactWriter, Encoded, ThriftList, ThriftRead, ThriftWrite, ValueType,
};
use quiver_arrow::{Error, Result};

/// `struct PageEncodingStats`: how many pages of a type use an encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageEncodingStats {
    /// `1: required PageType page_type`.
    pub page_type: PageType,
    /// `2: required Encoding encoding`.
    pub encoding: Encoding,
    /// `3: required i32 count`.
    pub count: i32,
}

impl<'a> ThriftRead<'a> for PageEncodingStats {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        if let Some([page_type, encoding, count]) = r.small_i32_triple() {
            return Ok(PageEncodingStats {
                page_type: page_type.into(),
                encoding: encoding.into(),
                count,
            });
        }
        let (mut page_type, mut encoding, mut count) = (None, None, None);
        r.read_struct("PageEncodingStats", |r, f| {
            match f.id {
                1 => page_type = r.value(f)?,
                2 => encoding = r.value(f)?,
                3 => count = r.value(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        match (page_type, encoding, count) {
            (Some(page_type), Some(encoding), Some(count)) => Ok(PageEncodingStats {
                page_type,
                encoding,
                count,
            }),
            _ => Err(Error::oos(
                "PageEncodingStats lacks one of page_type, encoding, count",
            )),
        }
    }
}

impl ThriftWrite for PageEncodingStats {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field(1, &self.page_type);
        w.field(2, &self.encoding);
        w.field(3, &self.count);
        w.struct_end();
    }
}

/// `struct ColumnMetaData`: what a column chunk holds and where.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnMetaData<'a> {
    /// `1: required Type type`.
    pub type_: Type,
    /// `2: required list<Encoding> encodings`.
    pub encodings: ThriftList<'a, Encoding>,
    /// `3: required list<string> path_in_schema`.
    pub path_in_schema: ThriftList<'a, &'a str>,
    /// `4: required CompressionCodec codec`.
    pub codec: CompressionCodec,
    /// `5: required i64 num_values`.
    pub num_values: i64,
    /// `6: required i64 total_uncompressed_size` (pages and their headers).
    pub total_uncompressed_size: i64,
    /// `7: required i64 total_compressed_size` (pages and their headers).
    pub total_compressed_size: i64,
    /// `8: optional list<KeyValue> key_value_metadata`.
    pub key_value_metadata: Option<Vec<KeyValue<'a>>>,
    /// `9: required i64 data_page_offset`.
    pub data_page_offset: i64,
    /// `10: optional i64 index_page_offset`.
    pub index_page_offset: Option<i64>,
    /// `11: optional i64 dictionary_page_offset`.
    pub dictionary_page_offset: Option<i64>,
    /// `12: optional Statistics statistics` (checked when read, decoded by
    /// [`Encoded::get`]).
    pub statistics: Option<Encoded<'a, Statistics<'a>>>,
    /// `13: optional list<PageEncodingStats> encoding_stats`.
    pub encoding_stats: Option<ThriftList<'a, PageEncodingStats>>,
    /// `14: optional i64 bloom_filter_offset`.
    pub bloom_filter_offset: Option<i64>,
    /// `15: optional i32 bloom_filter_length`.
    pub bloom_filter_length: Option<i32>,
    /// `16: optional SizeStatistics size_statistics` (checked when read, decoded by
    /// [`Encoded::get`]).
    pub size_statistics: Option<Encoded<'a, SizeStatistics>>,
    /// `17: optional GeospatialStatistics geospatial_statistics` (boxed: rare and large).
    pub geospatial_statistics: Option<Box<GeospatialStatistics>>,
}

/// The required fields of [`ColumnMetaData`], by field id, for the missing-field check.
const REQUIRED: [(i16, &str); 8] = [
    (1, "type"),
    (2, "encodings"),
    (3, "path_in_schema"),
    (4, "codec"),
    (5, "num_values"),
    (6, "total_uncompressed_size"),
    (7, "total_compressed_size"),
    (9, "data_page_offset"),
];

/// Stores `v` (when the field had the right type) and records field `id` as seen.
fn set<T>(slot: &mut T, v: Option<T>, seen: &mut u32, id: i16) {
    if let Some(v) = v {
        *slot = v;
        *seen |= 1 << id;
    }
}

impl<'a> ColumnMetaData<'a> {
    /// A placeholder with every field empty, that [`Self::read_into`] fills.
    pub(crate) fn empty() -> Self {
        ColumnMetaData {
            type_: Type::BOOLEAN,
            encodings: ThriftList::default(),
            path_in_schema: ThriftList::default(),
            codec: CompressionCodec::UNCOMPRESSED,
            num_values: 0,
            total_uncompressed_size: 0,
            total_compressed_size: 0,
            key_value_metadata: None,
            data_page_offset: 0,
            index_page_offset: None,
            dictionary_page_offset: None,
            statistics: None,
            encoding_stats: None,
            bloom_filter_offset: None,
            bloom_filter_length: None,
            size_statistics: None,
            geospatial_statistics: None,
        }
    }

    /// Decodes the struct into `self` in place (it is large: moving it costs more than
    /// decoding most of its fields).
    fn read_into(&mut self, r: &mut CompactReader<'a>) -> Result<()> {
        let mut seen = 0u32;
        let m = self;
        r.read_struct("ColumnMetaData", |r, f| {
            match f.id {
                1 => set(&mut m.type_, r.value(f)?, &mut seen, 1),
                2 => set(&mut m.encodings, ThriftList::field(r, f)?, &mut seen, 2),
                3 => set(
                    &mut m.path_in_schema,
                    ThriftList::field(r, f)?,
                    &mut seen,
                    3,
                ),
                4 => set(&mut m.codec, r.value(f)?, &mut seen, 4),
                5 => set(&mut m.num_values, r.value(f)?, &mut seen, 5),
                6 => set(&mut m.total_uncompressed_size, r.value(f)?, &mut seen, 6),
                7 => set(&mut m.total_compressed_size, r.value(f)?, &mut seen, 7),
                8 => m.key_value_metadata = r.list_field(f)?,
                9 => set(&mut m.data_page_offset, r.value(f)?, &mut seen, 9),
                10 => m.index_page_offset = r.value(f)?,
                11 => m.dictionary_page_offset = r.value(f)?,
                12 => m.statistics = r.value(f)?,
                13 => m.encoding_stats = ThriftList::field(r, f)?,
                14 => m.bloom_filter_offset = r.value(f)?,
                15 => m.bloom_filter_length = r.value(f)?,
                16 => m.size_statistics = r.value(f)?,
                17 => m.geospatial_statistics = r.value(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        match REQUIRED.iter().find(|(id, _)| seen & (1 << id) == 0) {
            Some((_, name)) => Err(Error::oos(format!(
                "ColumnMetaData lacks required field {name}"
            ))),
            None => Ok(()),
        }
    }
}

impl<'a> ThriftRead<'a> for ColumnMetaData<'a> {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let mut m = Self::empty();
        m.read_into(r)?;
        Ok(m)
    }
}

impl ThriftWrite for ColumnMetaData<'_> {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field(1, &self.type_);
        w.field(2, &self.encodings);
        w.field(3, &self.path_in_schema);
        w.field(4, &self.codec);
        w.field(5, &self.num_values);
        w.field(6, &self.total_uncompressed_size);
        w.field(7, &self.total_compressed_size);
        w.field_list_opt(8, &self.key_value_metadata);
        w.field(9, &self.data_page_offset);
        w.field_opt(10, &self.index_page_offset);
        w.field_opt(11, &self.dictionary_page_offset);
        w.field_opt(12, &self.statistics);
        w.field_opt(13, &self.encoding_stats);
        w.field_opt(14, &self.bloom_filter_offset);
        w.field_opt(15, &self.bloom_filter_length);
        w.field_opt(16, &self.size_statistics);
        w.field_opt(17, &self.geospatial_statistics);
        w.struct_end();
    }
}

/// `union ColumnCryptoMetaData`: how an encrypted column's key is found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ColumnCryptoMetaData<'a> {
    /// `1: EncryptionWithFooterKey ENCRYPTION_WITH_FOOTER_KEY`.
    WithFooterKey,
    /// `2: EncryptionWithColumnKey ENCRYPTION_WITH_COLUMN_KEY`.
    WithColumnKey {
        /// `1: required list<string> path_in_schema`.
        path_in_schema: Vec<&'a str>,
        /// `2: optional binary key_metadata`.
        key_metadata: Option<&'a [u8]>,
    },
    /// A variant this version does not know: its field id.
    Unknown(i16),
}

fn with_column_key<'a>(r: &mut CompactReader<'a>) -> Result<ColumnCryptoMetaData<'a>> {
    let (mut path, mut key_metadata) = (None, None);
    r.read_struct("EncryptionWithColumnKey", |r, f| {
        match f.id {
            1 => path = r.list_field(f)?,
            2 => key_metadata = r.value(f)?,
            _ => r.skip_field(f)?,
        }
        Ok(())
    })?;
    let path_in_schema = path
        .ok_or_else(|| Error::oos("EncryptionWithColumnKey lacks required field path_in_schema"))?;
    Ok(ColumnCryptoMetaData::WithColumnKey {
        path_in_schema,
        key_metadata,
    })
}

impl<'a> ThriftRead<'a> for ColumnCryptoMetaData<'a> {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        read_union(r, "ColumnCryptoMetaData", Self::Unknown, |r, id| match id {
            1 => r.skip_struct().map(|()| Self::WithFooterKey),
            2 => with_column_key(r),
            other => r.skip_struct().map(|()| Self::Unknown(other)),
        })
    }
}

impl ThriftWrite for ColumnCryptoMetaData<'_> {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        write_union(w, |w| match self {
            Self::WithFooterKey => w.field_empty_struct(1),
            Self::WithColumnKey {
                path_in_schema,
                key_metadata,
            } => {
                w.field_header(2, ValueType::Struct.code());
                w.struct_begin();
                w.field_list(1, path_in_schema);
                w.field_opt(2, key_metadata);
                w.struct_end();
            }
            Self::Unknown(id) => w.field_empty_struct(*id),
        });
    }
}

/// `struct ColumnChunk`: one column of one row group.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ColumnChunk<'a> {
    /// `1: optional string file_path` (data in another file; not part of the specification).
    pub file_path: Option<&'a str>,
    /// `2: required i64 file_offset = 0` (deprecated).
    pub file_offset: i64,
    /// `3: optional ColumnMetaData meta_data` (required in practice).
    pub meta_data: Option<ColumnMetaData<'a>>,
    /// `4: optional i64 offset_index_offset`.
    pub offset_index_offset: Option<i64>,
    /// `5: optional i32 offset_index_length`.
    pub offset_index_length: Option<i32>,
    /// `6: optional i64 column_index_offset`.
    pub column_index_offset: Option<i64>,
    /// `7: optional i32 column_index_length`.
    pub column_index_length: Option<i32>,
    /// `8: optional ColumnCryptoMetaData crypto_metadata` (boxed: rare and large).
    pub crypto_metadata: Option<Box<ColumnCryptoMetaData<'a>>>,
    /// `9: optional binary encrypted_column_metadata`.
    pub encrypted_column_metadata: Option<&'a [u8]>,
}

impl<'a> ColumnChunk<'a> {
    /// Decodes the struct into `self` in place (for decoding straight into a vector's slot),
    /// which must be `ColumnChunk::default()`. Chunks of the shape writers give them take
    /// [`fast`]; the rest, errors included, this generic decoder.
    pub(crate) fn read_into(&mut self, r: &mut CompactReader<'a>) -> Result<()> {
        if fast::column_chunk(r, self) {
            return Ok(());
        }
        *self = ColumnChunk::default();
        self.read_into_generic(r)
    }

    /// The generic decoder of [`Self::read_into`].
    pub(crate) fn read_into_generic(&mut self, r: &mut CompactReader<'a>) -> Result<()> {
        let c = self;
        r.read_struct("ColumnChunk", |r, f| {
            match f.id {
                1 => c.file_path = r.value(f)?,
                2 => c.file_offset = r.value(f)?.unwrap_or(c.file_offset),
                3 if f.ty == ValueType::Struct => c
                    .meta_data
                    .get_or_insert_with(ColumnMetaData::empty)
                    .read_into(r)?,
                4 => c.offset_index_offset = r.value(f)?,
                5 => c.offset_index_length = r.value(f)?,
                6 => c.column_index_offset = r.value(f)?,
                7 => c.column_index_length = r.value(f)?,
                8 => c.crypto_metadata = r.value(f)?,
                9 => c.encrypted_column_metadata = r.value(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })
    }
}

impl<'a> ThriftRead<'a> for ColumnChunk<'a> {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let mut c = ColumnChunk::default();
        c.read_into(r)?;
        Ok(c)
    }
}

impl ThriftWrite for ColumnChunk<'_> {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field_opt(1, &self.file_path);
        w.field(2, &self.file_offset);
        w.field_opt(3, &self.meta_data);
        w.field_opt(4, &self.offset_index_offset);
        w.field_opt(5, &self.offset_index_length);
        w.field_opt(6, &self.column_index_offset);
        w.field_opt(7, &self.column_index_length);
        w.field_opt(8, &self.crypto_metadata);
        w.field_opt(9, &self.encrypted_column_metadata);
        w.struct_end();
    }
}
