//! Validation of decoded metadata: the structure at decode time, each column chunk when it
//! is decoded. Errors say what is wrong with the numbers; callers add where.

use super::encrypted_error;
use crate::format::{ColumnChunk, FileMetaData, SchemaElement};
use crate::schema::SchemaDescriptor;
use quiver_arrow::{Error, Result};
use std::ops::Range;

/// Checks what the whole file's metadata promises; returns the schema tree (which checks that
/// the depth-first list holds exactly one tree whose leaves have known physical types).
/// `built` is the tree when it was already built from `m.schema`.
pub(super) fn file<'a>(
    m: &FileMetaData<'a>,
    data: &Range<u64>,
    built: Option<SchemaDescriptor<'a>>,
) -> Result<SchemaDescriptor<'a>> {
    if m.num_rows < 0 {
        return Err(Error::oos(format!("num_rows is {}", m.num_rows)));
    }
    let schema = match built {
        Some(schema) => schema,
        None => SchemaDescriptor::new(&m.schema)?,
    };
    let leaves = schema.columns().len();
    for (i, rg) in m.row_groups.iter().enumerate() {
        let at = |e: Error| e.context(format!("row group {i}"));
        if rg.num_rows < 0 {
            return Err(at(Error::oos(format!("num_rows is {}", rg.num_rows))));
        }
        if rg.columns.len() != leaves {
            return Err(at(Error::oos(format!(
                "{} column chunks for {leaves} leaf columns in the schema",
                rg.columns.len()
            ))));
        }
        if let Some(offset) = rg.file_offset.filter(|&o| o < 0 || o as u64 > data.end) {
            return Err(at(Error::oos(format!(
                "file_offset {offset} is outside the file's data {data:?}"
            ))));
        }
    }
    Ok(schema)
}

/// Checks one decoded column chunk: not encrypted, metadata present, of the leaf's physical
/// type, counts and sizes non-negative, its pages inside a file of `file_len` bytes.
pub(super) fn chunk(c: &ColumnChunk<'_>, leaf: &SchemaElement<'_>, file_len: u64) -> Result<()> {
    if c.crypto_metadata.is_some() || c.encrypted_column_metadata.is_some() {
        return Err(encrypted_error());
    }
    let m = c
        .meta_data
        .as_ref()
        .ok_or_else(|| Error::oos("the column chunk has no meta_data"))?;
    if Some(m.type_) != leaf.type_ {
        return Err(Error::oos(format!(
            "physical type {} differs from the schema's {:?} for {:?}",
            m.type_.name(),
            leaf.type_,
            leaf.name
        )));
    }
    for (name, v) in [
        ("num_values", m.num_values),
        ("total_uncompressed_size", m.total_uncompressed_size),
        ("total_compressed_size", m.total_compressed_size),
    ] {
        if v < 0 {
            return Err(Error::oos(format!("{name} is {v}")));
        }
    }
    chunk_byte_range(c, file_len).map(drop)
}

/// Checks that the chunk's pages, page index (column and offset index) and Bloom filter lie
/// before the footer (`data`: [`ParquetMetaData::data_range`](super::ParquetMetaData::data_range)).
/// Not part of `chunk`: reading values never needs the indexes, and Arrow C++ reads files
/// whose page index is misplaced or whose last pages run into the footer (it bounds a chunk
/// by the file's end, as [`chunk_byte_range`] does). Their readers (merge) check the bytes
/// they take, and `quiver validate` reports a misplaced one with this.
pub fn locations(c: &ColumnChunk<'_>, data: &Range<u64>) -> Result<()> {
    let pages = chunk_byte_range(c, u64::MAX)?;
    if pages.end > data.end {
        let size = pages.end - pages.start;
        return Err(Error::oos(format!(
            "pages at {} of {size} bytes do not end before the footer at {}",
            pages.start, data.end
        )));
    }
    let bloom = c.meta_data.as_ref().map_or((None, None), |m| {
        (m.bloom_filter_offset, m.bloom_filter_length)
    });
    let indexes = [
        ("offset index", c.offset_index_offset, c.offset_index_length),
        ("column index", c.column_index_offset, c.column_index_length),
        ("Bloom filter", bloom.0, bloom.1),
    ];
    for (name, offset, len) in indexes {
        let (Some(offset), len) = (offset, i64::from(len.unwrap_or(0))) else {
            continue;
        };
        if offset < 0 || len < 0 || (offset as u64).saturating_add(len as u64) > data.end {
            return Err(Error::oos(format!(
                "the {name} at {offset} of {len} bytes does not end before the footer at {}",
                data.end
            )));
        }
    }
    Ok(())
}

/// The bytes of a column chunk's pages: from its dictionary page (when the offset is set,
/// positive and before the first data page; writers put 0 for "none") or first data page,
/// `total_compressed_size` long, checked to end inside a file of `file_len` bytes. Its start
/// is only checked to be non-negative: writers of empty chunks put a data page offset of 0.
///
/// The bound is the file's end, not the footer's start, as in Arrow C++: pages that run into
/// the footer are invalid ([`locations`] reports them) but readable, and pyarrow reads them.
pub fn chunk_byte_range(c: &ColumnChunk<'_>, file_len: u64) -> Result<Range<u64>> {
    let m = c
        .meta_data
        .as_ref()
        .ok_or_else(|| Error::oos("the column chunk has no meta_data"))?;
    let start = match m.dictionary_page_offset {
        Some(d) if d > 0 && d < m.data_page_offset => d,
        _ => m.data_page_offset,
    };
    let end = start
        .checked_add(m.total_compressed_size)
        .filter(|_| m.total_compressed_size >= 0);
    match end {
        Some(end) if start >= 0 && (end as u64) <= file_len => Ok(start as u64..end as u64),
        _ => Err(Error::oos(format!(
            "pages at {start} of {} bytes do not end inside the file of {file_len} bytes",
            m.total_compressed_size
        ))),
    }
}
