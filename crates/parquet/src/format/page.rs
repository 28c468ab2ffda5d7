//! `struct PageHeader` and the headers of each page type.
//!
//! ```thrift
//! struct DataPageHeader {
//!   1: required i32 num_values  2: required Encoding encoding
//!   3: required Encoding definition_level_encoding;  4: required Encoding repetition_level_encoding;
//!   5: optional Statistics statistics;
//! }
//! struct IndexPageHeader { }
//! struct DictionaryPageHeader { 1: required i32 num_values; 2: required Encoding encoding  3: optional bool is_sorted; }
//! struct DataPageHeaderV2 {
//!   1: required i32 num_values  2: required i32 num_nulls  3: required i32 num_rows
//!   4: required Encoding encoding  5: required i32 definition_levels_byte_length;
//!   6: required i32 repetition_levels_byte_length;  7: optional bool is_compressed = true;
//!   8: optional Statistics statistics;
//! }
//! struct PageHeader {
//!   1: required PageType type  2: required i32 uncompressed_page_size  3: required i32 compressed_page_size
//!   4: optional i32 crc  5: optional DataPageHeader data_page_header;
//!   6: optional IndexPageHeader index_page_header;  7: optional DictionaryPageHeader dictionary_page_header;
//!   8: optional DataPageHeaderV2 data_page_header_v2;
//! }
//! ```

use super::{Encoding, PageType, Statistics};
use crate::thrift::{CompactReader, CompactWriter, ThriftRead, ThriftWrite, ValueType};
use quiver_arrow::{Error, Result};

fn missing(name: &str, fields: &str) -> Error {
    Error::oos(format!("{name} lacks one of its required fields {fields}"))
}

/// `struct DataPageHeader`: a v1 data page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataPageHeader<'a> {
    /// `1: required i32 num_values` (including nulls).
    pub num_values: i32,
    /// `2: required Encoding encoding`.
    pub encoding: Encoding,
    /// `3: required Encoding definition_level_encoding`.
    pub definition_level_encoding: Encoding,
    /// `4: required Encoding repetition_level_encoding`.
    pub repetition_level_encoding: Encoding,
    /// `5: optional Statistics statistics`.
    pub statistics: Option<Statistics<'a>>,
}

impl<'a> ThriftRead<'a> for DataPageHeader<'a> {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let (mut n, mut enc, mut def, mut rep, mut statistics) = (None, None, None, None, None);
        r.read_struct("DataPageHeader", |r, f| {
            match f.id {
                1 => n = r.value(f)?,
                2 => enc = r.value(f)?,
                3 => def = r.value(f)?,
                4 => rep = r.value(f)?,
                5 => statistics = r.value(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        let (Some(num_values), Some(encoding), Some(d), Some(rl)) = (n, enc, def, rep) else {
            return Err(missing(
                "DataPageHeader",
                "num_values, encoding, definition_level_encoding, repetition_level_encoding",
            ));
        };
        Ok(DataPageHeader {
            num_values,
            encoding,
            definition_level_encoding: d,
            repetition_level_encoding: rl,
            statistics,
        })
    }
}

impl ThriftWrite for DataPageHeader<'_> {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field(1, &self.num_values);
        w.field(2, &self.encoding);
        w.field(3, &self.definition_level_encoding);
        w.field(4, &self.repetition_level_encoding);
        w.field_opt(5, &self.statistics);
        w.struct_end();
    }
}

/// `struct DictionaryPageHeader`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DictionaryPageHeader {
    /// `1: required i32 num_values`.
    pub num_values: i32,
    /// `2: required Encoding encoding`.
    pub encoding: Encoding,
    /// `3: optional bool is_sorted`.
    pub is_sorted: Option<bool>,
}

impl<'a> ThriftRead<'a> for DictionaryPageHeader {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let (mut n, mut enc, mut is_sorted) = (None, None, None);
        r.read_struct("DictionaryPageHeader", |r, f| {
            match f.id {
                1 => n = r.value(f)?,
                2 => enc = r.value(f)?,
                3 => is_sorted = r.bool_field(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        let (Some(num_values), Some(encoding)) = (n, enc) else {
            return Err(missing("DictionaryPageHeader", "num_values, encoding"));
        };
        Ok(DictionaryPageHeader {
            num_values,
            encoding,
            is_sorted,
        })
    }
}

impl ThriftWrite for DictionaryPageHeader {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field(1, &self.num_values);
        w.field(2, &self.encoding);
        w.field_bool_opt(3, self.is_sorted);
        w.struct_end();
    }
}

/// `struct DataPageHeaderV2`: levels first and never compressed, then the values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataPageHeaderV2<'a> {
    /// `1: required i32 num_values` (including nulls).
    pub num_values: i32,
    /// `2: required i32 num_nulls`.
    pub num_nulls: i32,
    /// `3: required i32 num_rows`.
    pub num_rows: i32,
    /// `4: required Encoding encoding`.
    pub encoding: Encoding,
    /// `5: required i32 definition_levels_byte_length`.
    pub definition_levels_byte_length: i32,
    /// `6: required i32 repetition_levels_byte_length`.
    pub repetition_levels_byte_length: i32,
    /// `7: optional bool is_compressed = true` (`None` means true).
    pub is_compressed: Option<bool>,
    /// `8: optional Statistics statistics`.
    pub statistics: Option<Statistics<'a>>,
}

impl DataPageHeaderV2<'_> {
    /// Whether the values section is compressed (the default when the field is absent).
    pub fn values_compressed(&self) -> bool {
        self.is_compressed.unwrap_or(true)
    }
}

impl<'a> ThriftRead<'a> for DataPageHeaderV2<'a> {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let mut ints = [None::<i32>; 6];
        let (mut encoding, mut is_compressed, mut statistics) = (None, None, None);
        r.read_struct("DataPageHeaderV2", |r, f| {
            match f.id {
                1..=3 => ints[f.id as usize - 1] = r.value(f)?,
                4 => encoding = r.value(f)?,
                5 | 6 => ints[f.id as usize - 2] = r.value(f)?,
                7 => is_compressed = r.bool_field(f)?,
                8 => statistics = r.value(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        let ([Some(nv), Some(nn), Some(nr), Some(dl), Some(rl), _], Some(encoding)) =
            (ints, encoding)
        else {
            return Err(missing(
                "DataPageHeaderV2",
                "num_values, num_nulls, num_rows, encoding, definition_levels_byte_length, \
                 repetition_levels_byte_length",
            ));
        };
        Ok(DataPageHeaderV2 {
            num_values: nv,
            num_nulls: nn,
            num_rows: nr,
            encoding,
            definition_levels_byte_length: dl,
            repetition_levels_byte_length: rl,
            is_compressed,
            statistics,
        })
    }
}

impl ThriftWrite for DataPageHeaderV2<'_> {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field(1, &self.num_values);
        w.field(2, &self.num_nulls);
        w.field(3, &self.num_rows);
        w.field(4, &self.encoding);
        w.field(5, &self.definition_levels_byte_length);
        w.field(6, &self.repetition_levels_byte_length);
        w.field_bool_opt(7, self.is_compressed);
        w.field_opt(8, &self.statistics);
        w.struct_end();
    }
}

/// `struct PageHeader`: precedes every page of a column chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageHeader<'a> {
    /// `1: required PageType type`.
    pub type_: PageType,
    /// `2: required i32 uncompressed_page_size` (without this header).
    pub uncompressed_page_size: i32,
    /// `3: required i32 compressed_page_size` (without this header).
    pub compressed_page_size: i32,
    /// `4: optional i32 crc` (CRC-32 of the page's bytes as stored).
    pub crc: Option<i32>,
    /// `5: optional DataPageHeader data_page_header`.
    pub data_page_header: Option<DataPageHeader<'a>>,
    /// `6: optional IndexPageHeader index_page_header` (an empty struct: only its presence).
    pub index_page_header: bool,
    /// `7: optional DictionaryPageHeader dictionary_page_header`.
    pub dictionary_page_header: Option<DictionaryPageHeader>,
    /// `8: optional DataPageHeaderV2 data_page_header_v2`.
    pub data_page_header_v2: Option<DataPageHeaderV2<'a>>,
}

impl<'a> PageHeader<'a> {
    /// Decodes the page header at the start of `bytes`; returns it and its length in bytes
    /// (the page's data follows).
    pub fn decode(bytes: &'a [u8]) -> Result<(Self, usize)> {
        let mut r = CompactReader::new(bytes);
        let header = Self::read(&mut r)?;
        Ok((header, r.position()))
    }
}

impl<'a> ThriftRead<'a> for PageHeader<'a> {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let (mut type_, mut unc, mut comp) = (None, None, None);
        let mut h = PageHeader {
            type_: PageType::DATA_PAGE,
            uncompressed_page_size: 0,
            compressed_page_size: 0,
            crc: None,
            data_page_header: None,
            index_page_header: false,
            dictionary_page_header: None,
            data_page_header_v2: None,
        };
        r.read_struct("PageHeader", |r, f| {
            match f.id {
                1 => type_ = r.value(f)?,
                2 => unc = r.value(f)?,
                3 => comp = r.value(f)?,
                4 => h.crc = r.value(f)?,
                5 => h.data_page_header = r.value(f)?,
                6 => {
                    h.index_page_header = f.ty == ValueType::Struct;
                    r.skip_field(f)?;
                }
                7 => h.dictionary_page_header = r.value(f)?,
                8 => h.data_page_header_v2 = r.value(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        let (Some(t), Some(u), Some(c)) = (type_, unc, comp) else {
            return Err(missing(
                "PageHeader",
                "type, uncompressed_page_size, compressed_page_size",
            ));
        };
        h.type_ = t;
        h.uncompressed_page_size = u;
        h.compressed_page_size = c;
        Ok(h)
    }
}

impl ThriftWrite for PageHeader<'_> {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field(1, &self.type_);
        w.field(2, &self.uncompressed_page_size);
        w.field(3, &self.compressed_page_size);
        w.field_opt(4, &self.crc);
        w.field_opt(5, &self.data_page_header);
        if self.index_page_header {
            w.field_empty_struct(6);
        }
        w.field_opt(7, &self.dictionary_page_header);
        w.field_opt(8, &self.data_page_header_v2);
        w.struct_end();
    }
}
