//! The footer: `PAR1` magic at both ends, the metadata length, and [`ParquetMetaData`]
//! (the decoded, validated `FileMetaData`).
//!
//! Sans-IO: a reader fetches the last [`FOOTER_TAIL_LEN`] bytes, asks [`footer_len`] how many
//! bytes from the end it needs, fetches them and calls [`parse_metadata`]. [`parse_file`] does
//! all of it over a whole file in memory.
//!
//! Decoding is selective: row groups' column chunks are only indexed (their bytes skipped
//! over); [`ParquetMetaData::column_chunk`] decodes and validates one chunk when asked for it.
//! Encrypted files are recognised and rejected with [`ENCRYPTED`]: a `PARE` footer at once,
//! an encrypted column of a plaintext footer when that column is read.

mod validate;

use crate::format::{ColumnChunk, FileMetaData, RowGroup, SchemaElement};
use crate::schema::SchemaDescriptor;
use quiver_arrow::{Error, Result};
use std::borrow::Cow;
use std::ops::Range;

pub use validate::{chunk_byte_range, locations};

/// The magic at the start and end of a Parquet file.
pub const MAGIC: &[u8; 4] = b"PAR1";
/// The magic of a file whose footer is encrypted.
pub const MAGIC_ENCRYPTED: &[u8; 4] = b"PARE";
/// The fixed tail of every file: the metadata length (4 bytes little-endian) and the magic.
pub const FOOTER_TAIL_LEN: usize = 8;
/// The message of every error about encryption.
pub const ENCRYPTED: &str = "encrypted; decryption keys required";

/// The error for an encrypted file or column.
pub fn encrypted_error() -> Error {
    Error::not_supported(ENCRYPTED)
}

/// From the last 8 bytes of a file: how many bytes from its end hold the footer (the
/// metadata and these 8 bytes). `PARE` is the encrypted error; other magic is an error.
pub fn footer_len(tail: &[u8; FOOTER_TAIL_LEN]) -> Result<usize> {
    let magic = &tail[4..];
    if magic == MAGIC_ENCRYPTED {
        return Err(encrypted_error().context("footer magic PARE"));
    }
    if magic != MAGIC {
        return Err(Error::oos(format!(
            "not a Parquet file: the last 4 bytes are {magic:02x?}, not \"PAR1\""
        )));
    }
    let len = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
    Ok(len as usize + FOOTER_TAIL_LEN)
}

/// The decoded and validated file metadata, borrowing from the footer's bytes.
#[derive(Debug, Clone)]
pub struct ParquetMetaData<'a> {
    file: FileMetaData<'a>,
    leaves: Vec<usize>,
    descr: SchemaDescriptor<'a>,
    data: Range<u64>,
    file_len: u64,
    /// Every column chunk is decoded and was validated (by [`parse_metadata_eager`]).
    validated: bool,
}

/// Decodes and validates the metadata (`metadata`: the bytes before the last 8, of the
/// length [`footer_len`] gave minus 8) of a file of `file_len` bytes. Column chunks are only
/// indexed: each is decoded and validated when [`ParquetMetaData::column_chunk`] asks for it.
pub fn parse_metadata(metadata: &[u8], file_len: u64) -> Result<ParquetMetaData<'_>> {
    parse(metadata, file_len, false)
}

/// Like [`parse_metadata`], but decodes every column chunk in the same pass (no index) and
/// validates them all, each as soon as it is decoded: for when all columns will be read.
pub fn parse_metadata_eager(metadata: &[u8], file_len: u64) -> Result<ParquetMetaData<'_>> {
    let mut m = parse(metadata, file_len, true)?;
    if !m.validated {
        // The schema came after the row groups: the chunks are checked now.
        for g in 0..m.num_row_groups() {
            for c in 0..m.num_columns() {
                m.column_chunk(g, c)?;
            }
        }
        m.validated = true;
    }
    Ok(m)
}

/// Where column data may lie in a file of `file_len` bytes whose metadata is `metadata_len`
/// bytes long: after the leading magic, before the footer.
fn data_range(metadata_len: usize, file_len: u64) -> Result<Range<u64>> {
    let footer = (metadata_len + FOOTER_TAIL_LEN) as u64;
    if file_len < footer + MAGIC.len() as u64 {
        return Err(Error::oos(format!(
            "footer of {footer} bytes does not fit in a file of {file_len} bytes \
             with its leading magic"
        )));
    }
    Ok(MAGIC.len() as u64..file_len - footer)
}

/// How eager decoding validated the chunks.
enum Checked {
    /// Every chunk, against the final schema, and all are valid.
    All,
    /// Every chunk, against the final schema: the first invalid one's error.
    Failed(Error),
    /// Not all, or not against the final schema (a schema field after the row groups).
    Partly,
}

/// What eager decoding gives: the metadata, how its chunks were checked, and the schema tree
/// it built from the final schema (when it built one: the file had column chunks).
struct Decoded<'a> {
    file: FileMetaData<'a>,
    checked: Checked,
    descr: Option<SchemaDescriptor<'a>>,
}

/// Decodes every chunk, validating each as soon as it is decoded (in cache). An invalid
/// chunk does not stop decoding: a later schema field may replace the one it was checked
/// against, and errors of the whole file come first.
fn decode_validated<'a>(metadata: &'a [u8], file_len: u64) -> Result<Decoded<'a>> {
    // The schema tree and its leaf columns' schema indices, from the schema decoded before
    // the row groups (`None` when it does not make a tree: validating the file reports that).
    let mut tree: Option<Option<(SchemaDescriptor<'a>, Vec<usize>)>> = None;
    let (mut unchecked, mut failed) = (false, None);
    let (file, checked) = FileMetaData::decode_checked(metadata, &mut |schema, g, c, chunk| {
        let tree = tree.get_or_insert_with(|| {
            let descr = SchemaDescriptor::new(schema).ok()?;
            let leaves = leaf_indices(&descr);
            Some((descr, leaves))
        });
        match tree.as_ref().and_then(|(_, l)| l.get(c)) {
            Some(_) if failed.is_some() => {}
            Some(&i) => {
                failed = validate::chunk(chunk, &schema[i], file_len)
                    .err()
                    .map(|e| e.context(format!("row group {g}, column {c}")));
            }
            None => unchecked = true,
        }
        Ok(())
    })?;
    let (checked, descr) = match failed {
        _ if !checked || unchecked => (Checked::Partly, None),
        Some(e) => (Checked::Failed(e), None),
        // Built from the schema the result has (the flag says no schema field followed).
        None => (Checked::All, tree.flatten().map(|(d, _)| d)),
    };
    Ok(Decoded {
        file,
        checked,
        descr,
    })
}

/// The index in the schema of each leaf column.
fn leaf_indices(descr: &SchemaDescriptor<'_>) -> Vec<usize> {
    descr
        .columns()
        .iter()
        .map(|c| c.nodes.last().copied().unwrap_or(0))
        .collect()
}

fn parse(metadata: &[u8], file_len: u64, eager: bool) -> Result<ParquetMetaData<'_>> {
    let data = data_range(metadata.len(), file_len)?;
    let decoded = if eager {
        decode_validated(metadata, file_len)
    } else {
        FileMetaData::decode(metadata).map(|file| Decoded {
            file,
            checked: Checked::Partly,
            descr: None,
        })
    }
    .map_err(|e| e.context("file metadata"))?;
    let Decoded {
        file,
        checked,
        descr,
    } = decoded;
    let descr = validate::file(&file, &data, descr).map_err(|e| e.context("file metadata"))?;
    let validated = match checked {
        Checked::All => true,
        Checked::Failed(e) => return Err(e),
        Checked::Partly => false,
    };
    let leaves = leaf_indices(&descr);
    Ok(ParquetMetaData {
        file,
        leaves,
        descr,
        data,
        file_len,
        validated,
    })
}

/// Decodes and validates the metadata of a whole file in memory.
pub fn parse_file(file: &[u8]) -> Result<ParquetMetaData<'_>> {
    if file.len() < 2 * MAGIC.len() + 4 {
        return Err(Error::oos(format!(
            "not a Parquet file: {} bytes is too short",
            file.len()
        )));
    }
    let tail: &[u8; FOOTER_TAIL_LEN] = file[file.len() - FOOTER_TAIL_LEN..]
        .try_into()
        .expect("8 bytes"); // ok: the file has at least 12 bytes
    let needed = footer_len(tail)?;
    if &file[..4] == MAGIC_ENCRYPTED {
        return Err(encrypted_error().context("leading magic PARE"));
    }
    if &file[..4] != MAGIC {
        return Err(Error::oos(format!(
            "not a Parquet file: the first 4 bytes are {:02x?}, not \"PAR1\"",
            &file[..4]
        )));
    }
    if needed + MAGIC.len() > file.len() {
        return Err(Error::oos(format!(
            "metadata length {} does not fit in a file of {} bytes",
            needed - FOOTER_TAIL_LEN,
            file.len()
        )));
    }
    parse_metadata(
        &file[file.len() - needed..file.len() - FOOTER_TAIL_LEN],
        file.len() as u64,
    )
}

impl<'a> ParquetMetaData<'a> {
    /// The decoded `FileMetaData` (column chunks indexed, not decoded).
    pub fn file(&self) -> &FileMetaData<'a> {
        &self.file
    }

    /// The application that wrote the file (`created_by`), when it is UTF-8 text.
    pub fn created_by(&self) -> Option<&'a str> {
        self.file
            .created_by
            .and_then(|b| std::str::from_utf8(b).ok())
    }

    /// The decoded `FileMetaData`.
    pub fn into_inner(self) -> FileMetaData<'a> {
        self.file
    }

    /// The schema elements, depth-first, the root first.
    pub fn schema(&self) -> &[SchemaElement<'a>] {
        &self.file.schema
    }

    /// The schema tree and its leaf columns.
    pub fn schema_descr(&self) -> &SchemaDescriptor<'a> {
        &self.descr
    }

    /// The number of leaf columns (column chunks in each row group).
    pub fn num_columns(&self) -> usize {
        self.leaves.len()
    }

    /// The index in [`Self::schema`] of each leaf column, in column order.
    pub fn leaf_indices(&self) -> &[usize] {
        &self.leaves
    }

    /// The number of row groups.
    pub fn num_row_groups(&self) -> usize {
        self.file.row_groups.len()
    }

    /// The total number of rows.
    pub fn num_rows(&self) -> i64 {
        self.file.num_rows
    }

    /// Where column data may lie: after the leading magic, before the footer.
    pub fn data_range(&self) -> Range<u64> {
        self.data.clone()
    }

    /// The length of the whole file, footer included: what a column chunk's pages are
    /// bounded by when read ([`chunk_byte_range`]).
    pub fn file_len(&self) -> u64 {
        self.file_len
    }

    /// Row group `i`.
    pub fn row_group(&self, i: usize) -> Result<&RowGroup<'a>> {
        self.file.row_groups.get(i).ok_or_else(|| {
            Error::invalid(format!(
                "row group {i} requested of {}",
                self.num_row_groups()
            ))
        })
    }

    /// Leaf column `column` of row group `row_group`, decoded (borrowed when it already
    /// was) and validated: its metadata is present, of the leaf's physical type, sizes and
    /// counts are non-negative and its pages lie inside the file. An encrypted column is the
    /// [`ENCRYPTED`] error. Errors name the row group and column.
    pub fn column_chunk(
        &self,
        row_group: usize,
        column: usize,
    ) -> Result<Cow<'_, ColumnChunk<'a>>> {
        let rg = self.row_group(row_group)?;
        let at = || format!("row group {row_group}, column {column}");
        let chunk = rg.columns.get(column).map_err(|e| e.context(at()))?;
        let leaf = self
            .leaves
            .get(column)
            .map(|&i| &self.file.schema[i])
            .ok_or_else(|| Error::invalid(format!("column {column} requested")))?;
        if !self.validated {
            validate::chunk(&chunk, leaf, self.file_len).map_err(|e| e.context(at()))?;
        }
        Ok(chunk)
    }

    /// Every column chunk of every row group, decoded and validated (`[row group][column]`).
    pub fn decode_all(&self) -> Result<Vec<Vec<ColumnChunk<'a>>>> {
        (0..self.num_row_groups())
            .map(|g| {
                (0..self.num_columns())
                    .map(|c| self.column_chunk(g, c).map(Cow::into_owned))
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
