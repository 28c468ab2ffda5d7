//! Reading and writing files. Reading: [`FileReader`] over a file in memory (or a memory map) or a `Read + Seek`,
//! batches by a [`Selection`] (columns, row groups, rows, offset, limit, batch size). The work
//! for a row group is planned first (the byte ranges of the projected column chunks), the bytes
//! fetched, then the chunks decoded in parallel and the arrays built.

mod atomic;
mod batches;
mod chunk_meta;
pub mod merge;
mod project;
mod selection;
mod source;
pub mod writer;

pub use atomic::AtomicFile;
pub use batches::Batches;
pub(crate) use project::Projection;
pub use selection::{RowRanges, Selection};
pub use source::{ReadAt, read_footer};

use crate::arrow::build::{Column, build};
use crate::arrow::leaf::{ChunkOptions, ColumnStream, LeafChunk};
use crate::arrow::options::ReadOptions;
use crate::arrow::split;
use crate::arrow::{ArrowSchema, arrow_schema};
use crate::codec::Decompressor;
use crate::metadata::{MAGIC, ParquetMetaData, chunk_byte_range, parse_file, parse_metadata};
use quiver_arrow::datatype::{DataType, SchemaRef};
use quiver_arrow::parallel::ThreadPool;
use quiver_arrow::{Error, RecordBatch, Result};
use source::Source;
use std::ops::Range;
use std::sync::Arc;

/// A Parquet file, its metadata decoded.
pub struct FileReader<'a> {
    source: Source<'a>,
    meta: ParquetMetaData<'a>,
    arrow: ArrowSchema,
    options: ReadOptions,
    schema_ref: SchemaRef,
    dictionary_size_missing: bool,
    /// Data pages v2 are compressed whatever their `is_compressed` says.
    v2_always_compressed: bool,
    /// The file's row number of each row group's first row.
    first_rows: Vec<u64>,
}

/// The most bytes a dictionary page header takes (PARQUET-816 padding).
const MAX_DICTIONARY_HEADER: u64 = 100;

/// The application and version (major, minor, patch) a `created_by` string names, as in
/// "parquet-mr version 1.2.8 (build …)" or "parquet-cpp version 1.5.1-SNAPSHOT": the text
/// before " version", then up to three numbers (missing ones are 0, as Arrow C++ reads them).
pub fn writer_version(created_by: Option<&str>) -> Option<(&str, (u64, u64, u64))> {
    let created_by = created_by?;
    let (app, rest) = match created_by.find(" version") {
        Some(i) => (&created_by[..i], &created_by[i + " version".len()..]),
        None => (created_by, ""),
    };
    let mut numbers = rest
        .trim_start()
        .split(|c: char| !c.is_ascii_digit())
        .take(3)
        .map(|n| n.parse().unwrap_or(0));
    let mut next = || numbers.next().unwrap_or(0);
    Some((app.trim(), (next(), next(), next())))
}

/// Whether `created_by` names a parquet-mr before 1.2.9, whose column chunk sizes leave out the
/// dictionary page header (PARQUET-816, IMPALA-694); no version counts as old, as Arrow C++ counts it.
pub fn parquet_816(created_by: Option<&str>) -> bool {
    writer_version(created_by).is_some_and(|(app, v)| app == "parquet-mr" && v < (1, 2, 9))
}

/// Whether `created_by` names a parquet-cpp before Arrow 3.0 ("parquet-cpp version 1.5.1"; later
/// ones call themselves "parquet-cpp-arrow"), which compressed the values of data pages v2 but
/// marked them `is_compressed = false` (ARROW-10353, ARROW-17100).
pub fn v2_always_compressed(created_by: Option<&str>) -> bool {
    writer_version(created_by).is_some_and(|(app, v)| app == "parquet-cpp" && v < (2, 0, 0))
}

impl<'a> FileReader<'a> {
    /// Decodes the footer of the file `bytes` (a whole file in memory or memory-mapped).
    pub fn try_new(bytes: &'a [u8], options: ReadOptions) -> Result<Self> {
        Self::with_metadata(parse_file(bytes)?, Source::Bytes(bytes), options)
    }

    /// A reader over `reader`, a file of `len` bytes whose metadata `footer` is (from
    /// [`read_footer`]). Column chunks are read from `reader` when a row group is read.
    pub fn from_reader(
        footer: &'a [u8],
        len: u64,
        reader: impl ReadAt + 'a,
        options: ReadOptions,
    ) -> Result<Self> {
        let meta = parse_metadata(footer, len)?;
        let source = Source::Reader(std::sync::Mutex::new(Box::new(reader)), len);
        let head = source.fetch(0..MAGIC.len() as u64)?;
        if head.as_ref() != MAGIC {
            return Err(Error::oos(format!(
                "not a Parquet file: the first 4 bytes are {:02x?}, not \"PAR1\"",
                head.as_ref()
            )));
        }
        drop(head);
        Self::with_metadata(meta, source, options)
    }

    fn with_metadata(
        meta: ParquetMetaData<'a>,
        source: Source<'a>,
        options: ReadOptions,
    ) -> Result<Self> {
        let kv: Vec<(&[u8], Option<&[u8]>)> = meta
            .file()
            .key_value_metadata
            .iter()
            .flatten()
            .map(|kv| (kv.key, kv.value))
            .collect();
        let arrow = arrow_schema(meta.schema_descr(), meta.schema(), &kv, &options)?;
        let schema_ref = Arc::new(arrow.schema.clone());
        let created_by = meta.created_by();
        let dictionary_size_missing = parquet_816(created_by);
        let v2_always_compressed = v2_always_compressed(created_by);
        let mut first_rows = Vec::with_capacity(meta.num_row_groups());
        let mut row = 0u64;
        for g in 0..meta.num_row_groups() {
            first_rows.push(row);
            row = row.saturating_add(u64::try_from(meta.row_group(g)?.num_rows).unwrap_or(0));
        }
        Ok(FileReader {
            first_rows,
            dictionary_size_missing,
            v2_always_compressed,
            source,
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

    /// Row group `i` as one record batch, every column (an error when its byte-array values
    /// exceed [`ReadOptions::byte_array_limit`]: read such row groups with
    /// [`batches`](FileReader::batches)).
    pub fn read_row_group(&self, i: usize) -> Result<RecordBatch> {
        let mut batches = self.read_projected(i, &self.project_all())?;
        match batches.len() {
            1 => Ok(batches.remove(0)),
            n => Err(Error::overflow(format!(
                "row group {i} is cut into {n} batches by the byte-array limit; read it in batches"
            ))),
        }
    }

    /// The byte ranges of row group `i`'s column chunks that `projection` needs, in file order
    /// (what an IO layer fetches; nearby ranges are read separately for now).
    pub fn plan_row_group(&self, i: usize, columns: &[usize]) -> Result<Vec<(usize, Range<u64>)>> {
        let mut plan = columns
            .iter()
            .map(|&c| self.chunk_range(i, c).map(|r| (c, r)))
            .collect::<Result<Vec<_>>>()?;
        plan.sort_by_key(|(_, r)| r.start);
        Ok(plan)
    }

    fn chunk_range(&self, i: usize, c: usize) -> Result<Range<u64>> {
        // `column_chunk`'s errors name the row group and column already.
        let chunk = self.meta.column_chunk(i, c)?;
        let mut range = chunk_byte_range(&chunk, self.meta.file_len())
            .map_err(|e| e.context(self.column_at(i, c)))?;
        if self.dictionary_size_missing {
            // PARQUET-816: old parquet-mr left the dictionary page header out of the size.
            range.end = (range.end + MAX_DICTIONARY_HEADER).min(self.meta.file_len());
        }
        Ok(range)
    }

    /// Row group `i`, the columns of `projection`, as one batch (several when a byte-array
    /// column's values exceed [`ReadOptions::byte_array_limit`]).
    pub(crate) fn read_projected(
        &self,
        i: usize,
        projection: &Projection,
    ) -> Result<Vec<RecordBatch>> {
        let mut rg = self.open_row_group(i, projection)?;
        let rows = rg.rows;
        self.next_rows(&mut rg, rows, projection)
    }

    /// Row group `g`, ready to be decoded a batch at a time: the chunks of `projection`'s
    /// columns fetched in file order.
    pub(crate) fn open_row_group(
        &self,
        g: usize,
        projection: &Projection,
    ) -> Result<RowGroupStream<'_>> {
        let rows = self.meta.row_group(g)?.num_rows;
        let rows =
            usize::try_from(rows).map_err(|_| Error::oos(format!("row group {g}: {rows} rows")))?;
        let plan = self.plan_row_group(g, &projection.columns)?;
        let ranges: Vec<Range<u64>> = plan.iter().map(|(_, r)| r.clone()).collect();
        let fetched = self
            .source
            .fetch_many(&ranges)
            .map_err(|e| e.context(format!("row group {g}")))?;
        let mut streams = Vec::with_capacity(plan.len());
        for ((c, range), bytes) in plan.into_iter().zip(fetched) {
            let len = range.end - range.start;
            let target = projection.leaf_targets.get(c).and_then(Option::as_ref);
            streams.push((len, c, self.column_stream(g, c, bytes, target)?));
        }
        // The largest chunks first, so that threads finish together.
        streams.sort_by_key(|&(len, c, _)| (std::cmp::Reverse(len), c));
        Ok(RowGroupStream {
            g,
            rows,
            done: 0,
            streams: streams.into_iter().map(|(_, c, s)| (c, s)).collect(),
        })
    }

    fn column_at(&self, g: usize, c: usize) -> String {
        let path = self.meta.schema_descr().columns()[c].dotted_path();
        format!("row group {g}, column {c} ({path:?})")
    }

    /// The stream of column `c` of row group `g` over its chunk's `bytes`, decoding its values
    /// for the leaf array `target` (schema node and Arrow type) when known.
    fn column_stream<'r>(
        &'r self,
        g: usize,
        c: usize,
        bytes: crate::page::ChunkBytes<'r>,
        target: Option<&(usize, DataType)>,
    ) -> Result<ColumnStream<'r>> {
        let at = || self.column_at(g, c);
        let chunk = self.meta.column_chunk(g, c).map_err(|e| e.context(at()))?;
        let meta = chunk
            .meta_data
            .as_ref()
            .ok_or_else(|| Error::oos(format!("{}: no metadata", at())))?;
        let options = ChunkOptions {
            verify_crc: self.options.verify_crc,
            v2_always_compressed: self.v2_always_compressed,
            decimal128: matches!(target, Some((_, DataType::Decimal128 { .. }))),
        };
        let descr = &self.meta.schema_descr().columns()[c];
        ColumnStream::new(bytes, meta, descr, options).map_err(|e| e.context(at()))
    }

    /// The next `k` rows of `rg` (at most the rows it has left), the columns decoded in
    /// parallel on [`ReadOptions::threads`] and the arrays of `projection` built: one batch, or
    /// several when a byte-array column's values exceed [`ReadOptions::byte_array_limit`].
    pub(crate) fn next_rows(
        &self,
        rg: &mut RowGroupStream<'_>,
        k: usize,
        projection: &Projection,
    ) -> Result<Vec<RecordBatch>> {
        self.next_rows_on(rg, k, projection, &self.options.threads)
    }

    /// [`next_rows`](FileReader::next_rows) with the columns decoded on `threads`.
    pub(crate) fn next_rows_on(
        &self,
        rg: &mut RowGroupStream<'_>,
        k: usize,
        projection: &Projection,
        threads: &ThreadPool,
    ) -> Result<Vec<RecordBatch>> {
        let g = rg.g;
        let k = k.min(rg.rows - rg.done);
        let first = self.first_rows[g] + rg.done as u64;
        let leaves = self.decode_leaves(rg, k, threads)?;
        let limit = self.options.byte_array_limit;
        if !leaves
            .iter()
            .any(|(_, l)| split::value_bytes(l).is_some_and(|b| b > limit))
        {
            return Ok(vec![
                self.assemble(leaves, g, first, k, projection, threads)?,
            ]);
        }
        let columns = self.meta.schema_descr().columns();
        let max_def = |c: usize| columns[c].max_def();
        let named: Vec<_> = leaves
            .iter()
            .map(|(c, l)| (l, max_def(*c), format!("{:?}", columns[*c].dotted_path())))
            .collect();
        let cuts =
            split::cuts(&named, k, limit).map_err(|e| e.context(format!("row group {g}")))?;
        drop(named);
        let mut rest = leaves;
        let mut at = 0;
        let mut out = Vec::with_capacity(cuts.len());
        for cut in cuts {
            let n = cut - at;
            let mut piece = Vec::with_capacity(rest.len());
            let mut tail = Vec::with_capacity(rest.len());
            for (c, leaf) in rest {
                if cut == k {
                    piece.push((c, leaf));
                } else {
                    let (a, b) = split::split(leaf, n, max_def(c))?;
                    piece.push((c, a));
                    tail.push((c, b));
                }
            }
            out.push(self.assemble(piece, g, first + at as u64, n, projection, threads)?);
            rest = tail;
            at = cut;
        }
        Ok(out)
    }

    /// Decodes the next `k` rows of every column of `rg`, in parallel on `threads`.
    fn decode_leaves(
        &self,
        rg: &mut RowGroupStream<'_>,
        k: usize,
        threads: &ThreadPool,
    ) -> Result<Vec<(usize, LeafChunk)>> {
        let (g, done, rows) = (rg.g, rg.done, rg.rows);
        let jobs: Vec<&mut (usize, ColumnStream<'_>)> = rg.streams.iter_mut().collect();
        let leaves = threads.run_jobs(
            jobs,
            || {
                let mut decompressor = Decompressor::default();
                move |(c, stream): &mut (usize, ColumnStream<'_>)| {
                    let at = |e: Error| e.context(self.column_at(g, *c));
                    let (leaf, got) = stream.next(k, &mut decompressor).map_err(at)?;
                    if got != k {
                        return Err(at(Error::oos(format!(
                            "the column chunk ends after {} rows, the row group has {rows}",
                            done + got
                        ))));
                    }
                    Ok((*c, leaf))
                }
            },
            || {},
        )?;
        rg.done += k;
        Ok(leaves)
    }

    /// The batch of `k` rows of row group `g` from its decoded `leaves` (levels assembled in
    /// parallel), the first being row `first` of the file.
    fn assemble(
        &self,
        leaves: Vec<(usize, LeafChunk)>,
        g: usize,
        first: u64,
        k: usize,
        projection: &Projection,
        threads: &ThreadPool,
    ) -> Result<RecordBatch> {
        let schema = self.meta.schema_descr();
        let decoded = threads.run_jobs(
            leaves,
            || {
                move |(c, leaf): (usize, LeafChunk)| {
                    let mut col = Column::new(schema, c, leaf)
                        .map_err(|e| e.context(self.column_at(g, c)))?;
                    if let Some(Some((node, t))) = projection.leaf_targets.get(c) {
                        col.prebuild(*node, t);
                    }
                    Ok::<_, Error>((c, col))
                }
            },
            || {},
        )?;
        let mut columns: Vec<Option<Column>> = (0..schema.columns().len()).map(|_| None).collect();
        for (c, col) in decoded {
            columns[c] = Some(col);
        }
        let mut arrays = projection
            .items
            .iter()
            .map(|(plan, field)| build(plan, field, &mut columns))
            .collect::<Result<Vec<_>>>()
            .map_err(|e| e.context(format!("row group {g}")))?;
        if projection.row_number {
            let numbers: Vec<i64> = (first..first + k as u64).map(|r| r as i64).collect();
            arrays.push(quiver_arrow::array::PrimitiveArray::<i64>::from(numbers).into());
        }
        RecordBatch::try_new_with_rows(projection.schema.clone(), arrays, k)
            .map_err(|e| e.into_input_error().context(format!("row group {g}")))
    }

    /// Batches by `selection`, in row order.
    pub fn batches(&self, selection: &Selection) -> Result<Batches<'_, 'a>> {
        Batches::new(self, selection)
    }

    /// Every row group, in order: one batch each (several for a row group whose byte-array
    /// values exceed [`ReadOptions::byte_array_limit`]).
    pub fn read_all(&self) -> Result<Vec<RecordBatch>> {
        let projection = self.project_all();
        let mut out = Vec::with_capacity(self.num_row_groups());
        for i in 0..self.num_row_groups() {
            out.extend(self.read_projected(i, &projection)?);
        }
        Ok(out)
    }

    /// The options in use.
    pub fn options(&self) -> &ReadOptions {
        &self.options
    }
}

/// A row group being read: its projected columns' streams (largest chunk first), its rows and
/// how many are decoded.
pub(crate) struct RowGroupStream<'r> {
    g: usize,
    rows: usize,
    done: usize,
    streams: Vec<(usize, ColumnStream<'r>)>,
}

impl RowGroupStream<'_> {
    /// Rows decoded so far.
    pub(crate) fn done(&self) -> usize {
        self.done
    }
}

#[cfg(test)]
mod writer_version_tests {
    use super::*;

    #[test]
    fn created_by_strings_name_the_writers_with_known_quirks() {
        assert_eq!(
            writer_version(Some("parquet-mr version 1.2.8 (build 12ab)")),
            Some(("parquet-mr", (1, 2, 8)))
        );
        assert_eq!(
            writer_version(Some("parquet-cpp version 1.5.1-SNAPSHOT")),
            Some(("parquet-cpp", (1, 5, 1)))
        );
        assert_eq!(writer_version(Some("impala")), Some(("impala", (0, 0, 0))));
        assert_eq!(writer_version(None), None);
        // PARQUET-816: parquet-mr before 1.2.9, or without a version.
        assert!(parquet_816(Some("parquet-mr version 1.2.8")));
        assert!(parquet_816(Some("parquet-mr")));
        assert!(!parquet_816(Some("parquet-mr version 1.2.9")));
        assert!(!parquet_816(Some("parquet-cpp version 1.0.0")));
        // ARROW-17100: parquet-cpp before 2.0 (the name before Arrow 3.0), not parquet-cpp-arrow.
        assert!(v2_always_compressed(Some(
            "parquet-cpp version 1.5.1-SNAPSHOT"
        )));
        assert!(!v2_always_compressed(Some(
            "parquet-cpp-arrow version 2.0.0"
        )));
        assert!(!v2_always_compressed(Some(
            "parquet-cpp-arrow version 26.0.1"
        )));
        assert!(!v2_always_compressed(Some("parquet-mr version 1.5.1")));
        assert!(!v2_always_compressed(None));
    }
}
