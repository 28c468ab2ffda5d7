//! The page index (`struct ColumnIndex`, `struct OffsetIndex`, `struct PageLocation`) and
//! `struct BloomFilterHeader` with its unions.
//!
//! ```thrift
//! struct PageLocation { 1: required i64 offset  2: required i32 compressed_page_size  3: required i64 first_row_index }
//! struct OffsetIndex { 1: required list<PageLocation> page_locations  2: optional list<i64> unencoded_byte_array_data_bytes }
//! struct ColumnIndex {
//!   1: required list<bool> null_pages  2: required list<binary> min_values  3: required list<binary> max_values
//!   4: required BoundaryOrder boundary_order  5: optional list<i64> null_counts
//!   6: optional list<i64> repetition_level_histograms;  7: optional list<i64> definition_level_histograms;
//!   8: optional list<i64> nan_counts
//! }
//! union BloomFilterAlgorithm { 1: SplitBlockAlgorithm BLOCK; }
//! union BloomFilterHash { 1: XxHash XXHASH; }
//! union BloomFilterCompression { 1: Uncompressed UNCOMPRESSED; }
//! struct BloomFilterHeader {
//!   1: required i32 numBytes;  2: required BloomFilterAlgorithm algorithm;
//!   3: required BloomFilterHash hash;  4: required BloomFilterCompression compression;
//! }
//! ```

use super::BoundaryOrder;
use super::union::{read_empty_union, write_union};
use crate::thrift::{CompactReader, CompactWriter, ThriftRead, ThriftWrite, ValueType};
use quiver_arrow::{Error, Result};

/// `struct PageLocation`: where a data page is and its first row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageLocation {
    /// `1: required i64 offset`.
    pub offset: i64,
    /// `2: required i32 compressed_page_size` (including the page header).
    pub compressed_page_size: i32,
    /// `3: required i64 first_row_index` (within the row group).
    pub first_row_index: i64,
}

impl<'a> ThriftRead<'a> for PageLocation {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let (mut offset, mut size, mut first) = (None, None, None);
        r.read_struct("PageLocation", |r, f| {
            match f.id {
                1 => offset = r.value(f)?,
                2 => size = r.value(f)?,
                3 => first = r.value(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        let (Some(offset), Some(compressed_page_size), Some(first_row_index)) =
            (offset, size, first)
        else {
            return Err(Error::oos(
                "PageLocation lacks one of offset, compressed_page_size, first_row_index",
            ));
        };
        Ok(PageLocation {
            offset,
            compressed_page_size,
            first_row_index,
        })
    }
}

impl ThriftWrite for PageLocation {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field(1, &self.offset);
        w.field(2, &self.compressed_page_size);
        w.field(3, &self.first_row_index);
        w.struct_end();
    }
}

/// `struct OffsetIndex`: the location of every data page of a column chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OffsetIndex {
    /// `1: required list<PageLocation> page_locations`.
    pub page_locations: Vec<PageLocation>,
    /// `2: optional list<i64> unencoded_byte_array_data_bytes`.
    pub unencoded_byte_array_data_bytes: Option<Vec<i64>>,
}

impl OffsetIndex {
    /// Decodes an offset index from its bytes (as `ColumnChunk.offset_index_*` locate them).
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        Self::read(&mut CompactReader::new(bytes))
    }
}

impl<'a> ThriftRead<'a> for OffsetIndex {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let (mut locations, mut unencoded) = (None, None);
        r.read_struct("OffsetIndex", |r, f| {
            match f.id {
                1 => locations = r.list_field(f)?,
                2 => unencoded = r.list_field(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        Ok(OffsetIndex {
            page_locations: locations
                .ok_or_else(|| Error::oos("OffsetIndex lacks required field page_locations"))?,
            unencoded_byte_array_data_bytes: unencoded,
        })
    }
}

impl ThriftWrite for OffsetIndex {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field_list(1, &self.page_locations);
        w.field_list_opt(2, &self.unencoded_byte_array_data_bytes);
        w.struct_end();
    }
}

/// `struct ColumnIndex`: per-page statistics of a column chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnIndex<'a> {
    /// `1: required list<bool> null_pages`.
    pub null_pages: Vec<bool>,
    /// `2: required list<binary> min_values`.
    pub min_values: Vec<&'a [u8]>,
    /// `3: required list<binary> max_values`.
    pub max_values: Vec<&'a [u8]>,
    /// `4: required BoundaryOrder boundary_order`.
    pub boundary_order: BoundaryOrder,
    /// `5: optional list<i64> null_counts`.
    pub null_counts: Option<Vec<i64>>,
    /// `6: optional list<i64> repetition_level_histograms`.
    pub repetition_level_histograms: Option<Vec<i64>>,
    /// `7: optional list<i64> definition_level_histograms`.
    pub definition_level_histograms: Option<Vec<i64>>,
    /// `8: optional list<i64> nan_counts`.
    pub nan_counts: Option<Vec<i64>>,
}

impl<'a> ColumnIndex<'a> {
    /// Decodes a column index from its bytes (as `ColumnChunk.column_index_*` locate them).
    pub fn decode(bytes: &'a [u8]) -> Result<Self> {
        Self::read(&mut CompactReader::new(bytes))
    }
}

impl<'a> ThriftRead<'a> for ColumnIndex<'a> {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let (mut null_pages, mut mins, mut maxs, mut order) = (None, None, None, None);
        let mut c = ColumnIndex {
            null_pages: Vec::new(),
            min_values: Vec::new(),
            max_values: Vec::new(),
            boundary_order: BoundaryOrder::UNORDERED,
            null_counts: None,
            repetition_level_histograms: None,
            definition_level_histograms: None,
            nan_counts: None,
        };
        r.read_struct("ColumnIndex", |r, f| {
            match f.id {
                1 => null_pages = r.list_field(f)?,
                2 => mins = r.list_field(f)?,
                3 => maxs = r.list_field(f)?,
                4 => order = r.value(f)?,
                5 => c.null_counts = r.list_field(f)?,
                6 => c.repetition_level_histograms = r.list_field(f)?,
                7 => c.definition_level_histograms = r.list_field(f)?,
                8 => c.nan_counts = r.list_field(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        let (Some(n), Some(mins), Some(maxs), Some(order)) = (null_pages, mins, maxs, order) else {
            return Err(Error::oos(
                "ColumnIndex lacks one of null_pages, min_values, max_values, boundary_order",
            ));
        };
        (c.null_pages, c.min_values, c.max_values, c.boundary_order) = (n, mins, maxs, order);
        Ok(c)
    }
}

impl ThriftWrite for ColumnIndex<'_> {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field_list(1, &self.null_pages);
        w.field_list(2, &self.min_values);
        w.field_list(3, &self.max_values);
        w.field(4, &self.boundary_order);
        w.field_list_opt(5, &self.null_counts);
        w.field_list_opt(6, &self.repetition_level_histograms);
        w.field_list_opt(7, &self.definition_level_histograms);
        w.field_list_opt(8, &self.nan_counts);
        w.struct_end();
    }
}

/// One of the Bloom filter header's unions, all of whose variants are empty structs: the
/// only variant parquet.thrift defines (field 1: `BLOCK`, `XXHASH`, `UNCOMPRESSED`) or an
/// unknown one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BloomFilterVariant {
    /// Field 1: the split-block algorithm, xxHash (64 bits), or no compression.
    Defined,
    /// A variant this version does not know: its field id.
    Unknown(i16),
}

impl<'a> ThriftRead<'a> for BloomFilterVariant {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        read_empty_union(r, "BloomFilter union", |id| match id {
            1 => BloomFilterVariant::Defined,
            other => BloomFilterVariant::Unknown(other),
        })
    }
}

impl ThriftWrite for BloomFilterVariant {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        let id = match self {
            BloomFilterVariant::Defined => 1,
            BloomFilterVariant::Unknown(id) => *id,
        };
        write_union(w, |w| w.field_empty_struct(id));
    }
}

/// `struct BloomFilterHeader`: precedes a Bloom filter's bitset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BloomFilterHeader {
    /// `1: required i32 numBytes` (of the bitset).
    pub num_bytes: i32,
    /// `2: required BloomFilterAlgorithm algorithm` (`Defined` = `BLOCK`).
    pub algorithm: BloomFilterVariant,
    /// `3: required BloomFilterHash hash` (`Defined` = `XXHASH`).
    pub hash: BloomFilterVariant,
    /// `4: required BloomFilterCompression compression` (`Defined` = `UNCOMPRESSED`).
    pub compression: BloomFilterVariant,
}

impl BloomFilterHeader {
    /// Decodes the header at the start of `bytes`; returns it and its length (the bitset
    /// follows).
    pub fn decode(bytes: &[u8]) -> Result<(Self, usize)> {
        let mut r = CompactReader::new(bytes);
        let h = Self::read(&mut r)?;
        Ok((h, r.position()))
    }
}

impl<'a> ThriftRead<'a> for BloomFilterHeader {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let (mut n, mut a, mut h, mut c) = (None, None, None, None);
        r.read_struct("BloomFilterHeader", |r, f| {
            match f.id {
                1 => n = r.value(f)?,
                2 => a = r.value(f)?,
                3 => h = r.value(f)?,
                4 => c = r.value(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        let (Some(num_bytes), Some(algorithm), Some(hash), Some(compression)) = (n, a, h, c) else {
            return Err(Error::oos(
                "BloomFilterHeader lacks one of numBytes, algorithm, hash, compression",
            ));
        };
        Ok(BloomFilterHeader {
            num_bytes,
            algorithm,
            hash,
            compression,
        })
    }
}

impl ThriftWrite for BloomFilterHeader {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field(1, &self.num_bytes);
        w.field(2, &self.algorithm);
        w.field(3, &self.hash);
        w.field(4, &self.compression);
        w.struct_end();
    }
}
