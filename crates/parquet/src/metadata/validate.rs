//! Validation of decoded metadata: the structure at decode time, each column chunk when it
//! is decoded. Errors say what is wrong with the numbers; callers add where.

use super::encrypted_error;
use crate::format::{ColumnChunk, FileMetaData, SchemaElement, Type};
use quiver_arrow::{Error, Result};
use std::ops::Range;

/// Checks what the whole file's metadata promises; returns the schema indices of the leaf
/// columns.
pub(super) fn file(m: &FileMetaData<'_>, data: &Range<u64>) -> Result<Vec<usize>> {
    if m.num_rows < 0 {
        return Err(Error::oos(format!("num_rows is {}", m.num_rows)));
    }
    let leaf_indices = leaves(&m.schema)?;
    let leaves = leaf_indices.len();
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
    Ok(leaf_indices)
}

/// Walks the depth-first schema list: every group's children are present, the list holds
/// exactly one tree, every leaf has a known physical type; returns the leaves' indices.
fn leaves(schema: &[SchemaElement<'_>]) -> Result<Vec<usize>> {
    let Some(root) = schema.first() else {
        return Err(Error::oos("the schema has no root element"));
    };
    if root.is_leaf() && schema.len() > 1 {
        return Err(Error::oos("the schema's root is not a group"));
    }
    // Children still expected by each open group, innermost last.
    let mut open: Vec<usize> = Vec::new();
    let mut leaves = Vec::new();
    for (i, e) in schema.iter().enumerate() {
        if i > 0 {
            match open.last_mut() {
                Some(n) => *n -= 1,
                None => {
                    return Err(Error::oos(format!(
                        "schema element {i} ({:?}) is outside the root's tree",
                        e.name
                    )));
                }
            }
        }
        match e.num_children {
            Some(n) if n < 0 => {
                return Err(Error::oos(format!(
                    "schema element {i} ({:?}) has num_children {n}",
                    e.name
                )));
            }
            _ if e.is_leaf() && i > 0 => {
                if matches!(e.type_, None | Some(Type::Unknown(_))) {
                    return Err(Error::oos(format!(
                        "leaf schema element {i} ({:?}) has physical type {:?}",
                        e.name, e.type_
                    )));
                }
                leaves.push(i);
            }
            Some(n) => open.push(n as usize),
            None => open.push(0),
        }
        while open.last() == Some(&0) {
            open.pop();
        }
    }
    if let Some(n) = open.last() {
        return Err(Error::oos(format!(
            "the schema ends with {n} children of a group missing"
        )));
    }
    Ok(leaves)
}

/// Checks one decoded column chunk: not encrypted, metadata present, of the leaf's physical
/// type, counts and sizes non-negative, its pages inside `data`.
pub(super) fn chunk(
    c: &ColumnChunk<'_>,
    leaf: &SchemaElement<'_>,
    data: &Range<u64>,
) -> Result<()> {
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
    let indexes = [
        ("offset index", c.offset_index_offset, c.offset_index_length),
        ("column index", c.column_index_offset, c.column_index_length),
        ("Bloom filter", m.bloom_filter_offset, m.bloom_filter_length),
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
    chunk_byte_range(c, data).map(drop)
}

/// The bytes of a column chunk's pages: from its dictionary page (when the offset is set,
/// positive and before the first data page; writers put 0 for "none") or first data page,
/// `total_compressed_size` long, checked to end before the footer (`data.end`). Its start is
/// only checked to be non-negative: writers of empty chunks put a data page offset of 0.
pub fn chunk_byte_range(c: &ColumnChunk<'_>, data: &Range<u64>) -> Result<Range<u64>> {
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
        Some(end) if start >= 0 && (end as u64) <= data.end => Ok(start as u64..end as u64),
        _ => Err(Error::oos(format!(
            "pages at {start} of {} bytes do not end before the footer at {}",
            m.total_compressed_size, data.end
        ))),
    }
}
