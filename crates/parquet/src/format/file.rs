//! `struct FileMetaData` and `struct RowGroup`, whose column chunks are indexed on decode
//! and decoded on access ([`ColumnChunks`]).
//!
//! ```thrift
//! struct RowGroup {
//!   1: required list<ColumnChunk> columns  2: required i64 total_byte_size  3: required i64 num_rows
//!   4: optional list<SortingColumn> sorting_columns  5: optional i64 file_offset
//!   6: optional i64 total_compressed_size  7: optional i16 ordinal
//! }
//! struct FileMetaData {
//!   1: required i32 version  2: required list<SchemaElement> schema;  3: required i64 num_rows
//!   4: required list<RowGroup> row_groups  5: optional list<KeyValue> key_value_metadata
//!   6: optional string created_by  7: optional list<ColumnOrder> column_orders;
//!   8: optional EncryptionAlgorithm encryption_algorithm  9: optional binary footer_signing_key_metadata
//! }
//! ```

use super::{
    ColumnChunk, ColumnOrder, EncryptionAlgorithm, KeyValue, SchemaElement, SortingColumn,
};
use crate::thrift::{CompactReader, CompactWriter, ThriftRead, ThriftWrite, ValueType};
use quiver_arrow::{Error, Result};
use std::borrow::Cow;

/// The column chunks of a row group. Decoding a footer only *indexes* them (records where
/// each chunk's bytes are, skipping over them); a chunk is decoded when asked for, so that
/// reading a few columns of a wide file does not pay for the others.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnChunks<'a>(Repr<'a>);

#[derive(Debug, Clone, PartialEq)]
enum Repr<'a> {
    /// `buf[starts[i]..starts[i + 1]]` is chunk `i`'s encoded struct.
    Indexed {
        buf: &'a [u8],
        starts: Vec<u32>,
    },
    Decoded(Vec<ColumnChunk<'a>>),
}

impl<'a> ColumnChunks<'a> {
    /// Column chunks already decoded (as a writer builds them).
    pub fn from_decoded(chunks: Vec<ColumnChunk<'a>>) -> Self {
        Self(Repr::Decoded(chunks))
    }

    /// How many column chunks there are.
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Indexed { starts, .. } => starts.len() - 1,
            Repr::Decoded(v) => v.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The encoded bytes of chunk `i` when indexed (`None` when decoded or out of range).
    pub fn raw(&self, i: usize) -> Option<&'a [u8]> {
        match &self.0 {
            Repr::Indexed { buf, starts } if i + 1 < starts.len() => {
                Some(&buf[starts[i] as usize..starts[i + 1] as usize])
            }
            _ => None,
        }
    }

    /// Column chunk `i`, decoded now if it was only indexed. Errors name the chunk's index
    /// and the byte offset in the footer.
    pub fn get(&self, i: usize) -> Result<Cow<'_, ColumnChunk<'a>>> {
        if i >= self.len() {
            return Err(Error::invalid(format!(
                "column chunk {i} of {} requested",
                self.len()
            )));
        }
        match &self.0 {
            Repr::Decoded(v) => Ok(Cow::Borrowed(&v[i])),
            Repr::Indexed { buf, starts } => {
                let end = starts[i + 1] as usize;
                let mut r = CompactReader::at(&buf[..end], starts[i] as usize);
                let chunk =
                    ColumnChunk::read(&mut r).map_err(|e| e.context(format!("column {i}")))?;
                Ok(Cow::Owned(chunk))
            }
        }
    }

    /// Every column chunk, decoded.
    pub fn decode_all(&self) -> Result<Vec<ColumnChunk<'a>>> {
        (0..self.len())
            .map(|i| self.get(i).map(Cow::into_owned))
            .collect()
    }

    /// Decodes a `list<ColumnChunk>` field: each chunk straight into its slot when the
    /// reader is eager (then `check` gets each chunk as soon as it is decoded), else
    /// [`Self::index`].
    fn read(r: &mut CompactReader<'a>, check: &mut RowGroupCheck<'_, 'a>) -> Result<Self> {
        if !r.is_eager() {
            return Self::index(r);
        }
        let (ty, n) = r.list_header()?;
        if ty != ValueType::Struct {
            return Err(Error::oos(format!(
                "thrift: list of column chunks holds {}",
                ty.name()
            )));
        }
        // Each chunk is decoded straight into its slot (they are large: moving costs). The
        // vector grows with what was decoded, and a chunk without metadata (one byte of input
        // for hundreds of bytes of struct) stops decoding at once.
        let mut chunks: Vec<ColumnChunk<'a>> = Vec::with_capacity(n.min(1024));
        for i in 0..n {
            chunks.push(ColumnChunk::default());
            let chunk = chunks.last_mut().expect("just pushed"); // ok: pushed above
            let done = chunk.read_into(r);
            let empty = chunk.meta_data.is_none()
                && chunk.crypto_metadata.is_none()
                && chunk.encrypted_column_metadata.is_none();
            match done {
                Err(e) => return Err(e.context(format!("column {i}"))),
                Ok(()) if empty => {
                    return Err(Error::oos(format!(
                        "column {i}: the column chunk has no meta_data"
                    )));
                }
                Ok(()) => check(i, chunk)?,
            }
        }
        Ok(Self(Repr::Decoded(chunks)))
    }

    /// Indexes a `list<ColumnChunk>` field: records each element's start and skips it.
    fn index(r: &mut CompactReader<'a>) -> Result<Self> {
        let mut starts = Vec::new();
        let position = |r: &CompactReader<'_>| {
            u32::try_from(r.position()).map_err(|_| Error::oos("thrift: footer larger than 4 GiB"))
        };
        r.for_each_element(ValueType::Struct, |r, _| {
            starts.push(position(r)?);
            r.skip_struct()
        })?;
        starts.push(position(r)?);
        Ok(Self(Repr::Indexed {
            buf: r.buffer(),
            starts,
        }))
    }

    fn write(&self, w: &mut CompactWriter) {
        match &self.0 {
            Repr::Decoded(v) => w.list(v),
            Repr::Indexed { .. } => {
                w.list_header(ValueType::Struct, self.len());
                for i in 0..self.len() {
                    w.raw(self.raw(i).unwrap_or_default());
                }
            }
        }
    }
}

/// `struct RowGroup`.
#[derive(Debug, Clone, PartialEq)]
pub struct RowGroup<'a> {
    /// `1: required list<ColumnChunk> columns` (one per leaf column, in schema order).
    pub columns: ColumnChunks<'a>,
    /// `2: required i64 total_byte_size` (uncompressed).
    pub total_byte_size: i64,
    /// `3: required i64 num_rows`.
    pub num_rows: i64,
    /// `4: optional list<SortingColumn> sorting_columns`.
    pub sorting_columns: Option<Vec<SortingColumn>>,
    /// `5: optional i64 file_offset`.
    pub file_offset: Option<i64>,
    /// `6: optional i64 total_compressed_size`.
    pub total_compressed_size: Option<i64>,
    /// `7: optional i16 ordinal`.
    pub ordinal: Option<i16>,
}

impl<'a> ThriftRead<'a> for RowGroup<'a> {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        Self::read_with(r, &mut |_, _| Ok(()))
    }
}

/// What a row group's eager decoding does with each column chunk (index, chunk).
type RowGroupCheck<'c, 'a> = dyn FnMut(usize, &ColumnChunk<'a>) -> Result<()> + 'c;

/// What [`FileMetaData::decode_checked`] does with each column chunk as soon as it is
/// decoded (its bytes and struct still in cache): it gets the schema elements decoded so far
/// (empty when the schema comes after the row groups), the row group's and the chunk's index
/// and the chunk.
pub type ChunkCheck<'c, 'a> =
    dyn FnMut(&[SchemaElement<'a>], usize, usize, &ColumnChunk<'a>) -> Result<()> + 'c;

impl<'a> RowGroup<'a> {
    fn read_with(r: &mut CompactReader<'a>, check: &mut RowGroupCheck<'_, 'a>) -> Result<Self> {
        let (mut columns, mut total_byte_size, mut num_rows) = (None, None, None);
        let mut g = RowGroup {
            columns: ColumnChunks::from_decoded(Vec::new()),
            total_byte_size: 0,
            num_rows: 0,
            sorting_columns: None,
            file_offset: None,
            total_compressed_size: None,
            ordinal: None,
        };
        r.read_struct("RowGroup", |r, f| {
            match f.id {
                1 if f.ty == ValueType::List => columns = Some(ColumnChunks::read(r, check)?),
                2 => total_byte_size = r.value(f)?,
                3 => num_rows = r.value(f)?,
                4 => g.sorting_columns = r.list_field(f)?,
                5 => g.file_offset = r.value(f)?,
                6 => g.total_compressed_size = r.value(f)?,
                7 => g.ordinal = r.value(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        let (Some(c), Some(t), Some(n)) = (columns, total_byte_size, num_rows) else {
            return Err(Error::oos(
                "RowGroup lacks one of columns, total_byte_size, num_rows",
            ));
        };
        (g.columns, g.total_byte_size, g.num_rows) = (c, t, n);
        Ok(g)
    }
}

impl ThriftWrite for RowGroup<'_> {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field_header(1, ValueType::List.code());
        self.columns.write(w);
        w.field(2, &self.total_byte_size);
        w.field(3, &self.num_rows);
        w.field_list_opt(4, &self.sorting_columns);
        w.field_opt(5, &self.file_offset);
        w.field_opt(6, &self.total_compressed_size);
        w.field_opt(7, &self.ordinal);
        w.struct_end();
    }
}

/// `struct FileMetaData`: the footer. Use [`crate::metadata`] to read and validate it.
#[derive(Debug, Clone, PartialEq)]
pub struct FileMetaData<'a> {
    /// `1: required i32 version`.
    pub version: i32,
    /// `2: required list<SchemaElement> schema` (depth-first; the first is the root).
    pub schema: Vec<SchemaElement<'a>>,
    /// `3: required i64 num_rows`.
    pub num_rows: i64,
    /// `4: required list<RowGroup> row_groups`.
    pub row_groups: Vec<RowGroup<'a>>,
    /// `5: optional list<KeyValue> key_value_metadata`.
    pub key_value_metadata: Option<Vec<KeyValue<'a>>>,
    /// `6: optional string created_by` (bytes: not always UTF-8 in the wild).
    pub created_by: Option<&'a [u8]>,
    /// `7: optional list<ColumnOrder> column_orders` (one per leaf column).
    pub column_orders: Option<Vec<ColumnOrder>>,
    /// `8: optional EncryptionAlgorithm encryption_algorithm` (plaintext-footer encryption).
    pub encryption_algorithm: Option<EncryptionAlgorithm<'a>>,
    /// `9: optional binary footer_signing_key_metadata`.
    pub footer_signing_key_metadata: Option<&'a [u8]>,
}

impl<'a> FileMetaData<'a> {
    /// Decodes the Thrift struct alone (no validation; see [`crate::metadata::parse_metadata`]),
    /// the column chunks only indexed.
    pub fn decode(bytes: &'a [u8]) -> Result<Self> {
        Self::read(&mut CompactReader::new(bytes))
    }

    /// Decodes the Thrift struct alone, the column chunks too.
    pub fn decode_eager(bytes: &'a [u8]) -> Result<Self> {
        Self::read(&mut CompactReader::new(bytes).eager())
    }

    /// Decodes the Thrift struct alone, the column chunks too, calling `check` on each chunk
    /// as soon as it is decoded (an error from it is the result). The flag says whether every
    /// chunk was checked against the schema the result has: not when a schema field follows
    /// the row groups.
    pub fn decode_checked(bytes: &'a [u8], check: &mut ChunkCheck<'_, 'a>) -> Result<(Self, bool)> {
        let mut r = CompactReader::new(bytes).eager();
        Self::read_with(&mut r, Some(check))
    }

    /// Encodes the struct.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = CompactWriter::new();
        self.write(&mut w);
        w.into_bytes()
    }
}

impl<'a> ThriftRead<'a> for FileMetaData<'a> {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        Self::read_with(r, None).map(|(m, _)| m)
    }
}

/// Decodes a `list<RowGroup>`, passing each chunk to `check` with the schema and indices.
fn read_row_groups<'a>(
    r: &mut CompactReader<'a>,
    schema: &[SchemaElement<'a>],
    check: &mut ChunkCheck<'_, 'a>,
) -> Result<Vec<RowGroup<'a>>> {
    let mut groups = Vec::new();
    r.for_each_element(ValueType::Struct, |r, g| {
        groups.push(RowGroup::read_with(r, &mut |c, chunk| {
            check(schema, g, c, chunk)
        })?);
        Ok(())
    })?;
    Ok(groups)
}

impl<'a> FileMetaData<'a> {
    fn read_with(
        r: &mut CompactReader<'a>,
        mut check: Option<&mut ChunkCheck<'_, 'a>>,
    ) -> Result<(Self, bool)> {
        let mut stale = false;
        let (mut version, mut schema, mut num_rows, mut row_groups) = (None, None, None, None);
        let mut m = FileMetaData {
            version: 0,
            schema: Vec::new(),
            num_rows: 0,
            row_groups: Vec::new(),
            key_value_metadata: None,
            created_by: None,
            column_orders: None,
            encryption_algorithm: None,
            footer_signing_key_metadata: None,
        };
        r.read_struct("FileMetaData", |r, f| {
            match f.id {
                1 => version = r.value(f)?,
                2 => {
                    schema = r.list_field(f)?;
                    stale |= row_groups.is_some();
                }
                3 => num_rows = r.value(f)?,
                4 => {
                    row_groups =
                        match (&mut check, f.ty) {
                            (Some(check), ValueType::List | ValueType::Set) => Some(
                                read_row_groups(r, schema.as_deref().unwrap_or_default(), check)?,
                            ),
                            _ => r.list_field(f)?,
                        }
                }
                5 => m.key_value_metadata = r.list_field(f)?,
                6 => m.created_by = r.value(f)?,
                7 => m.column_orders = r.list_field(f)?,
                8 => m.encryption_algorithm = r.value(f)?,
                9 => m.footer_signing_key_metadata = r.value(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        let (Some(v), Some(s), Some(n), Some(g)) = (version, schema, num_rows, row_groups) else {
            return Err(Error::oos(
                "FileMetaData lacks one of version, schema, num_rows, row_groups",
            ));
        };
        (m.version, m.schema, m.num_rows, m.row_groups) = (v, s, n, g);
        Ok((m, check.is_some() && !stale))
    }
}

impl ThriftWrite for FileMetaData<'_> {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field(1, &self.version);
        w.field_list(2, &self.schema);
        w.field(3, &self.num_rows);
        w.field_list(4, &self.row_groups);
        w.field_list_opt(5, &self.key_value_metadata);
        w.field_opt(6, &self.created_by);
        w.field_list_opt(7, &self.column_orders);
        w.field_opt(8, &self.encryption_algorithm);
        w.field_opt(9, &self.footer_signing_key_metadata);
        w.struct_end();
    }
}
