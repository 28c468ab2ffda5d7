//! Reading whole files: over the bytes of a file in memory (or a memory map), one record batch
//! per row group, every column decoded. (Projection, row selection, batch sizes, parallel
//! decoding and the `Read + Seek` and sans-IO fetchers build on this.)

use crate::arrow::build::{Column, build};
use crate::arrow::leaf::{ChunkOptions, decode_chunk};
use crate::arrow::options::ReadOptions;
use crate::arrow::{ArrowSchema, arrow_schema};
use crate::codec::Decompressor;
use crate::metadata::{ParquetMetaData, chunk_byte_range, parse_file};
use quiver_arrow::datatype::SchemaRef;
use quiver_arrow::{Error, RecordBatch, Result};
use std::sync::Arc;

/// A Parquet file in memory, its metadata decoded.
pub struct FileReader<'a> {
    bytes: &'a [u8],
    meta: ParquetMetaData<'a>,
    arrow: ArrowSchema,
    options: ReadOptions,
    schema_ref: SchemaRef,
    dictionary_size_missing: bool,
}

/// The most bytes a dictionary page header takes (PARQUET-816 padding).
const MAX_DICTIONARY_HEADER: u64 = 100;

/// Whether `created_by` names a parquet-mr before 1.2.9, whose column chunk sizes leave out the
/// dictionary page header (PARQUET-816, IMPALA-694); no version counts as old, as Arrow C++ counts it.
fn parquet_816(created_by: Option<&str>) -> bool {
    let Some(rest) = created_by.and_then(|c| c.strip_prefix("parquet-mr")) else {
        return false;
    };
    let version = rest
        .trim_start()
        .strip_prefix("version")
        .unwrap_or("")
        .trim();
    let numbers: Vec<u64> = version
        .split(|c: char| !c.is_ascii_digit())
        .take(3)
        .map(|n| n.parse().unwrap_or(0))
        .collect();
    let v = (
        numbers.first().copied().unwrap_or(0),
        numbers.get(1).copied().unwrap_or(0),
        numbers.get(2).copied().unwrap_or(0),
    );
    v < (1, 2, 9)
}

impl<'a> FileReader<'a> {
    /// Decodes the footer of the file `bytes`.
    pub fn try_new(bytes: &'a [u8], options: ReadOptions) -> Result<Self> {
        let meta = parse_file(bytes)?;
        let kv: Vec<(&[u8], Option<&[u8]>)> = meta
            .file()
            .key_value_metadata
            .iter()
            .flatten()
            .map(|kv| (kv.key, kv.value))
            .collect();
        let arrow = arrow_schema(meta.schema_descr(), meta.schema(), &kv, &options)?;
        let schema_ref = Arc::new(arrow.schema.clone());
        let created_by = meta
            .file()
            .created_by
            .and_then(|b| std::str::from_utf8(b).ok());
        let dictionary_size_missing = parquet_816(created_by);
        Ok(FileReader {
            dictionary_size_missing,
            bytes,
            meta,
            arrow,
            options,
            schema_ref,
        })
    }

    /// The Arrow schema of the batches.
    pub fn schema(&self) -> &SchemaRef {
        &self.schema_ref
    }

    /// The file's metadata.
    pub fn metadata(&self) -> &ParquetMetaData<'a> {
        &self.meta
    }

    /// The number of row groups.
    pub fn num_row_groups(&self) -> usize {
        self.meta.num_row_groups()
    }

    /// Row group `i` as one record batch. Column chunks are decoded in parallel on
    /// [`ReadOptions::threads`], the largest first.
    pub fn read_row_group(&self, i: usize) -> Result<RecordBatch> {
        let rows = self.meta.row_group(i)?.num_rows;
        let schema = self.meta.schema_descr();
        let mut jobs: Vec<(usize, i64)> = (0..schema.columns().len())
            .map(|c| {
                let size = self
                    .meta
                    .column_chunk(i, c)
                    .ok()
                    .and_then(|ch| ch.meta_data.as_ref().map(|m| m.total_compressed_size))
                    .unwrap_or(0);
                (c, size)
            })
            .collect();
        jobs.sort_by_key(|&(c, size)| (std::cmp::Reverse(size), c));
        let decoded = self.options.threads.run_jobs(
            jobs,
            || {
                let mut decompressor = Decompressor::default();
                move |(c, _): (usize, i64)| {
                    self.read_column(i, c, &mut decompressor)
                        .map(|col| (c, col))
                }
            },
            || {},
        )?;
        let mut columns: Vec<Option<Column>> = (0..schema.columns().len()).map(|_| None).collect();
        for (c, col) in decoded {
            columns[c] = Some(col);
        }
        let arrays = self
            .arrow
            .plans
            .iter()
            .zip(self.arrow.schema.fields.iter())
            .map(|(p, f)| build(p, f, &mut columns))
            .collect::<Result<Vec<_>>>()
            .map_err(|e| e.context(format!("row group {i}")))?;
        let rows =
            usize::try_from(rows).map_err(|_| Error::oos(format!("row group {i}: {rows} rows")))?;
        RecordBatch::try_new_with_rows(self.schema_ref.clone(), arrays, rows)
            .map_err(|e| e.into_input_error().context(format!("row group {i}")))
    }

    /// Column `c` of row group `i`, decoded and its levels assembled.
    fn read_column(&self, i: usize, c: usize, decompressor: &mut Decompressor) -> Result<Column> {
        let schema = self.meta.schema_descr();
        let descr = &schema.columns()[c];
        let at = || format!("row group {i}, column {c} ({:?})", descr.dotted_path());
        let chunk = self.meta.column_chunk(i, c).map_err(|e| e.context(at()))?;
        let mut range =
            chunk_byte_range(&chunk, &self.meta.data_range()).map_err(|e| e.context(at()))?;
        if self.dictionary_size_missing {
            // PARQUET-816: old parquet-mr left the dictionary page header out of the size.
            range.end = (range.end + MAX_DICTIONARY_HEADER).min(self.meta.data_range().end);
        }
        let bytes = &self.bytes[range.start as usize..range.end as usize];
        let meta = chunk
            .meta_data
            .as_ref()
            .ok_or_else(|| Error::oos(format!("{}: no metadata", at())))?;
        let options = ChunkOptions {
            verify_crc: self.options.verify_crc,
        };
        let leaf =
            decode_chunk(bytes, meta, descr, options, decompressor).map_err(|e| e.context(at()))?;
        Column::new(schema, c, leaf).map_err(|e| e.context(at()))
    }

    /// Every row group, in order.
    pub fn read_all(&self) -> Result<Vec<RecordBatch>> {
        (0..self.num_row_groups())
            .map(|i| self.read_row_group(i))
            .collect()
    }

    /// The options in use.
    pub fn options(&self) -> &ReadOptions {
        &self.options
    }
}
