//! The Parquet file writer: record batches in, a Parquet file out.
//!
//! Each batch is cut to the row group's remaining rows (and, under a byte limit, to about the
//! rows the bytes left hold, by the group's bytes per row so far), its top-level columns shredded and
//! encoded in parallel (one job per top-level column, on [`WriteOptions::threads`]); a row
//! group is closed when it reaches [`WriteOptions::row_group_rows`] rows or
//! [`WriteOptions::row_group_bytes`] encoded bytes, and written in column order: each chunk's
//! dictionary page, data pages, then the row group's bloom filters. The column indexes, then
//! the offset indexes, then the footer follow the last row group.
//!
//! **Memory:** the writer holds the current row group's encoded (compressed) pages, at most
//! about `row_group_bytes` plus one page per column, besides the batch being written.

use super::chunk_meta::{GroupRecord, Placement, chunk_record, row_groups, write_indexes};
use crate::arrow::column_writer::{ColumnChunkWriter, ColumnOptions, EncodedChunk, LeafShape};
use crate::arrow::shred::shred;
use crate::arrow::write_schema::{SchemaOptions, WriteSchema};
use crate::format::{ColumnOrder, FileMetaData, KeyValue, SortingColumn};
use crate::levels::assemble::Repetition;
use crate::page::write::BlockPool;
use crate::schema::SchemaDescriptor;
use quiver_arrow::array::Array;
use quiver_arrow::datatype::{Field, SchemaRef};
use quiver_arrow::parallel::ThreadPool;
use quiver_arrow::{Error, RecordBatch, Result};
use std::io::Write;

/// The `created_by` quiver writes.
pub const CREATED_BY: &str = concat!("quiver version ", env!("CARGO_PKG_VERSION"));

/// How a file is written.
#[derive(Debug, Clone)]
pub struct WriteOptions {
    /// How every column is written unless overridden.
    pub column: ColumnOptions,
    /// Overrides by column: a leaf's dotted path (`a.b.list.element`) or a top-level name
    /// (all its leaves), with a function applied to the defaults.
    pub column_overrides: Vec<(String, ColumnOverride)>,
    /// Rows after which a row group is closed.
    pub row_group_rows: usize,
    /// Encoded bytes after which a row group is closed.
    pub row_group_bytes: usize,
    /// The threads columns are encoded on (the result does not depend on them).
    pub threads: ThreadPool,
    /// Key-value metadata added to the file's (after `ARROW:schema` and the schema's own).
    pub key_value_metadata: Vec<(String, String)>,
    /// Store the Arrow schema under `ARROW:schema` (so readers restore the exact types).
    pub store_arrow_schema: bool,
    /// Recorded as every row group's `sorting_columns` (the caller sorted the data).
    pub sorting_columns: Vec<SortingColumn>,
    /// How Arrow types map to Parquet's.
    pub schema: SchemaOptions,
}

/// A per-column change to the default [`ColumnOptions`].
#[derive(Debug, Clone, PartialEq)]
pub enum ColumnOverride {
    /// Options replacing the defaults.
    Options(ColumnOptions),
    /// A bloom filter with this many distinct values (fpp from the defaults or 0.05).
    Bloom {
        /// Distinct values expected.
        ndv: u64,
        /// False-positive probability.
        fpp: f64,
    },
    /// Dictionary on or off.
    Dictionary(bool),
    /// A fixed encoding for non-dictionary pages.
    Encoding(crate::format::Encoding),
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            column: ColumnOptions::default(),
            column_overrides: Vec::new(),
            row_group_rows: 1 << 20,
            row_group_bytes: 128 << 20,
            threads: ThreadPool::global(),
            key_value_metadata: Vec::new(),
            store_arrow_schema: true,
            sorting_columns: Vec::new(),
            schema: SchemaOptions::default(),
        }
    }
}

/// What a finished file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteSummary {
    /// Rows written.
    pub rows: u64,
    /// Row groups written.
    pub row_groups: usize,
    /// Bytes of the file.
    pub bytes: u64,
}

/// Writes record batches of one schema as a Parquet file to a [`Write`].
///
/// ```
/// use quiver_arrow::array::{Array, PrimitiveArray};
/// use quiver_arrow::datatype::{DataType, Field, Schema};
/// use quiver_arrow::RecordBatch;
/// use quiver_parquet::file::writer::{FileWriter, WriteOptions};
/// use std::sync::Arc;
/// let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int64, true)]));
/// let col = Array::I64(PrimitiveArray::from_options([Some(1i64), None, Some(3)]));
/// let batch = RecordBatch::try_new(schema.clone(), vec![col])?;
/// let mut w = FileWriter::new(Vec::new(), schema, WriteOptions::default())?;
/// w.write(&batch)?;
/// let (bytes, summary) = w.close()?;
/// assert_eq!(summary.rows, 3);
/// assert_eq!(&bytes[..4], b"PAR1");
/// # Ok::<(), quiver_arrow::Error>(())
/// ```
pub struct FileWriter<W: Write> {
    sink: W,
    pos: u64,
    schema: SchemaRef,
    write_schema: WriteSchema,
    opts: WriteOptions,
    /// Per leaf: its options and shape.
    leaves: Vec<(ColumnOptions, LeafShape)>,
    /// Per top-level field: its first leaf.
    field_leaves: Vec<usize>,
    writers: Vec<ColumnChunkWriter>,
    /// The page blocks of written row groups, for the next row group's pages.
    blocks: BlockPool,
    /// Per leaf, the room the last row group's dictionary took (values, bytes).
    dictionary_room: Vec<(usize, usize)>,
    /// Per leaf, the most entries a dictionary page held (for `ARROW:schema`'s key widths).
    dictionary_entries: Vec<usize>,
    group_rows: u64,
    groups: Vec<GroupRecord>,
    rows: u64,
    failed: bool,
}

impl<W: Write> std::fmt::Debug for FileWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "FileWriter(rows {}, row groups {})",
            self.rows,
            self.groups.len()
        )
    }
}

impl<W: Write> FileWriter<W> {
    /// A writer of batches of `schema` to `sink` (the magic number is written now).
    pub fn new(mut sink: W, schema: SchemaRef, opts: WriteOptions) -> Result<Self> {
        let write_schema = WriteSchema::with_stored_raw(&schema, &opts.schema, &|path| {
            stored_raw(&column_options(&opts, path))
        })?;
        let descr = SchemaDescriptor::new(&write_schema.elements())?;
        let mut leaves = Vec::new();
        for (i, col) in descr.columns().iter().enumerate() {
            let spec = &write_schema.leaves()[i];
            let nodes = col.levels.nodes();
            let element = &write_schema.elements()[*col.nodes.last().unwrap_or(&0)];
            let utf8 = element
                .converted_type
                .is_some_and(|c| c.name() == "UTF8" || c.name() == "JSON" || c.name() == "ENUM");
            let shape = LeafShape {
                max_def: col.max_def(),
                max_rep: col.max_rep(),
                nullable: nodes.last() == Some(&Repetition::Optional),
                utf8,
            };
            leaves.push((column_options(&opts, &spec.path), shape));
        }
        let mut field_leaves = Vec::new();
        for &f in descr.fields() {
            field_leaves.push(descr.column_range(f).start);
        }
        field_leaves.push(leaves.len());
        sink.write_all(b"PAR1").map_err(io_error)?;
        let mut w = FileWriter {
            sink,
            pos: 4,
            schema,
            write_schema,
            opts,
            leaves,
            field_leaves,
            writers: Vec::new(),
            blocks: BlockPool::new(),
            dictionary_room: Vec::new(),
            dictionary_entries: Vec::new(),
            group_rows: 0,
            groups: Vec::new(),
            rows: 0,
            failed: false,
        };
        w.writers = w.new_writers()?;
        Ok(w)
    }

    fn new_writers(&self) -> Result<Vec<ColumnChunkWriter>> {
        let mut writers = Vec::with_capacity(self.leaves.len());
        for (i, ((o, shape), spec)) in self
            .leaves
            .iter()
            .zip(self.write_schema.leaves())
            .enumerate()
        {
            let w = ColumnChunkWriter::new(spec.clone(), *shape, o.clone())?;
            let room = self.dictionary_room.get(i).copied().unwrap_or_default();
            writers.push(
                w.with_block_pool(self.blocks.clone())
                    .with_dictionary_room(room),
            );
        }
        Ok(writers)
    }

    /// Appends a batch (of the writer's schema).
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        if self.failed {
            return Err(Error::invalid(
                "the writer failed earlier; close or drop it",
            ));
        }
        if batch.schema().fields != self.schema.fields {
            return Err(Error::invalid(format!(
                "the batch's schema ({} columns) is not the file's",
                batch.num_columns()
            )));
        }
        let r = self.write_rows(batch);
        self.failed = r.is_err();
        r
    }

    fn write_rows(&mut self, batch: &RecordBatch) -> Result<()> {
        let mut start = 0;
        let n = batch.num_rows();
        let mut bytes = self.buffered_bytes();
        while start < n {
            let room = (self.opts.row_group_rows as u64 - self.group_rows).max(1) as usize;
            let take = room.min(n - start).min(self.rows_fitting(batch, bytes));
            let part = if start == 0 && take == n {
                batch.clone()
            } else {
                batch.slice(start, take)
            };
            self.encode(&part)?;
            self.group_rows += take as u64;
            self.rows += take as u64;
            start += take;
            bytes = self.buffered_bytes();
            if self.group_rows >= self.opts.row_group_rows as u64
                || bytes >= self.opts.row_group_bytes
            {
                self.flush_row_group()?;
                bytes = 0;
            }
        }
        Ok(())
    }

    /// Encoded bytes the row group being built holds.
    fn buffered_bytes(&self) -> usize {
        self.writers
            .iter()
            .map(ColumnChunkWriter::buffered_bytes)
            .sum()
    }

    /// About how many more rows the row group, holding `bytes`, takes before its encoded bytes
    /// reach [`WriteOptions::row_group_bytes`] (unbounded without that limit): the bytes left over the
    /// bytes per row so far (the first rows of a group estimated by `batch`'s size in memory),
    /// at least an eighth of a whole group's rows so that a group is not filled by ever
    /// smaller slices, and at least one.
    fn rows_fitting(&self, batch: &RecordBatch, bytes: usize) -> usize {
        let limit = self.opts.row_group_bytes;
        if limit == usize::MAX || batch.num_rows() == 0 {
            return usize::MAX;
        }
        let per_row = if self.group_rows > 0 && bytes > 0 {
            bytes as f64 / self.group_rows as f64
        } else {
            batch.buffer_bytes().max(1) as f64 / batch.num_rows() as f64
        };
        let left = limit.saturating_sub(bytes) as f64 / per_row;
        let eighth = limit as f64 / per_row / 8.0;
        // Saturating float-to-int conversions: a huge estimate is simply unbounded.
        (left.max(eighth).ceil() as usize).max(1)
    }

    /// Shreds and encodes every column of `batch`, one job per top-level column.
    fn encode(&mut self, batch: &RecordBatch) -> Result<()> {
        let mut jobs = Vec::with_capacity(batch.num_columns());
        let mut rest: &mut [ColumnChunkWriter] = &mut self.writers;
        for (i, (array, field)) in batch
            .columns()
            .iter()
            .zip(self.schema.fields.iter())
            .enumerate()
        {
            let n = self.field_leaves[i + 1] - self.field_leaves[i];
            let (mine, tail) = rest.split_at_mut(n);
            rest = tail;
            jobs.push((array, field, mine));
        }
        self.opts
            .threads
            .run_jobs(jobs, || |(a, f, w)| encode_column(a, f, w), || {})?;
        Ok(())
    }

    /// Writes the row group being built (nothing when it is empty).
    pub fn flush_row_group(&mut self) -> Result<()> {
        if self.group_rows == 0 {
            return Ok(());
        }
        let writers = std::mem::take(&mut self.writers);
        let chunks: Vec<EncodedChunk> =
            self.opts
                .threads
                .run_jobs(writers, || ColumnChunkWriter::finish, || {})?;
        self.dictionary_room = chunks.iter().map(|c| c.dictionary_room).collect();
        self.dictionary_entries.resize(chunks.len(), 0);
        for (most, c) in self.dictionary_entries.iter_mut().zip(&chunks) {
            *most = (*most).max(c.dictionary_entries);
        }
        let r = self.write_group(chunks);
        self.failed |= r.is_err();
        r?;
        // The next row group's writers are made once this one's pages are written (and their
        // blocks are back in the pool), so that one row group's pages are held at a time.
        self.writers = self.new_writers()?;
        Ok(())
    }

    fn write_group(&mut self, chunks: Vec<EncodedChunk>) -> Result<()> {
        let file_offset = self.pos as i64;
        let mut places = Vec::with_capacity(chunks.len());
        let mut total = 0i64;
        for c in &chunks {
            let dictionary = (!c.dictionary_page.is_empty()).then_some(self.pos as i64);
            self.put(&c.dictionary_page)?;
            let data = self.pos as i64;
            for block in c.data_pages.blocks() {
                self.put(block)?;
            }
            places.push(Placement {
                dictionary,
                data,
                bloom: None,
            });
            total += c.total_uncompressed as i64;
        }
        let compressed = self.pos as i64 - file_offset;
        let mut bloom_bytes = Vec::new();
        for (c, place) in chunks.iter().zip(places.iter_mut()) {
            if let Some(b) = &c.bloom {
                bloom_bytes.clear();
                b.write(&mut bloom_bytes);
                place.bloom = Some((self.pos as i64, bloom_bytes.len() as i32));
                self.put(&bloom_bytes)?;
            }
        }
        let mut records = Vec::with_capacity(chunks.len());
        for ((c, place), ((o, _), spec)) in chunks
            .iter()
            .zip(places)
            .zip(self.leaves.iter().zip(self.write_schema.leaves()))
        {
            records.push(chunk_record(spec, o.codec, o.statistics, c, place)?);
        }
        for c in chunks {
            c.data_pages.recycle();
        }
        self.groups.push(GroupRecord {
            chunks: records,
            rows: self.group_rows as i64,
            total_byte_size: total,
            file_offset,
            compressed,
            sorting_columns: (!self.opts.sorting_columns.is_empty())
                .then(|| self.opts.sorting_columns.clone()),
        });
        self.group_rows = 0;
        Ok(())
    }

    fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.sink.write_all(bytes).map_err(io_error)?;
        self.pos += bytes.len() as u64;
        Ok(())
    }

    /// Writes the last row group, the page indexes and the footer; returns the sink.
    pub fn close(mut self) -> Result<(W, WriteSummary)> {
        if self.failed {
            return Err(Error::invalid(
                "the writer failed earlier; the file is incomplete",
            ));
        }
        self.flush_row_group()?;
        self.write_indexes()?;
        let footer = self.footer()?;
        self.put(&footer)?;
        self.put(&(footer.len() as u32).to_le_bytes())?;
        self.put(b"PAR1")?;
        self.sink.flush().map_err(io_error)?;
        let summary = WriteSummary {
            rows: self.rows,
            row_groups: self.groups.len(),
            bytes: self.pos,
        };
        Ok((self.sink, summary))
    }

    /// Writes every chunk's column index, then every offset index.
    fn write_indexes(&mut self) -> Result<()> {
        let mut groups = std::mem::take(&mut self.groups);
        let r = write_indexes(&mut groups, self.pos, |b| self.put(b));
        self.groups = groups;
        r
    }

    fn footer(&self) -> Result<Vec<u8>> {
        let arrow_schema = if self.opts.store_arrow_schema {
            // Batches with dictionaries of their own are written into one dictionary per
            // chunk, which may outgrow int8/int16 keys: those keys are widened to int32.
            let (value, _widened) = self
                .write_schema
                .arrow_schema_value_for(&self.field_leaves, &self.dictionary_entries)?;
            Some(value)
        } else {
            None
        };
        let mut kv: Vec<KeyValue<'_>> = Vec::new();
        if let Some(v) = &arrow_schema {
            kv.push(KeyValue {
                key: b"ARROW:schema",
                value: Some(v.as_bytes()),
            });
        }
        for (k, v) in self.schema.metadata.iter() {
            kv.push(KeyValue {
                key: k.as_bytes(),
                value: Some(v.as_bytes()),
            });
        }
        for (k, v) in &self.opts.key_value_metadata {
            kv.retain(|e| e.key != k.as_bytes());
            kv.push(KeyValue {
                key: k.as_bytes(),
                value: Some(v.as_bytes()),
            });
        }
        let row_groups = row_groups(&self.groups)?;
        let meta = FileMetaData {
            version: 2,
            schema: self.write_schema.elements(),
            num_rows: self.rows as i64,
            row_groups,
            key_value_metadata: (!kv.is_empty()).then_some(kv),
            created_by: Some(CREATED_BY.as_bytes()),
            column_orders: Some(vec![ColumnOrder::TypeDefined; self.leaves.len()]),
            encryption_algorithm: None,
            footer_signing_key_metadata: None,
        };
        Ok(meta.encode())
    }
}

/// Shreds one top-level column and writes its leaves.
fn encode_column(array: &Array, field: &Field, writers: &mut [ColumnChunkWriter]) -> Result<()> {
    let leaves = shred(array, field).map_err(|e| e.context(format!("column {}", field.name())))?;
    if leaves.len() != writers.len() {
        return Err(Error::invalid(format!(
            "column {}: {} leaves shredded, the schema has {}",
            field.name(),
            leaves.len(),
            writers.len()
        )));
    }
    for (leaf, w) in leaves.iter().zip(writers.iter_mut()) {
        w.write(leaf)?;
    }
    Ok(())
}

/// The options of the leaf at `path`: the defaults with the overrides naming it (or a field
/// above it) applied in order.
fn column_options(opts: &WriteOptions, path: &[String]) -> ColumnOptions {
    let mut o = opts.column.clone();
    let dotted = path.join(".");
    for (name, change) in &opts.column_overrides {
        let applies = *name == dotted || dotted.starts_with(&format!("{name}."));
        if !applies {
            continue;
        }
        match change {
            ColumnOverride::Options(c) => o = c.clone(),
            ColumnOverride::Bloom { ndv, fpp } => {
                o.bloom = Some(crate::arrow::column_writer::BloomOptions {
                    ndv: *ndv,
                    fpp: *fpp,
                })
            }
            ColumnOverride::Dictionary(on) => o.dictionary = *on,
            ColumnOverride::Encoding(e) => o.encoding = Some(*e),
        }
    }
    o
}

/// Whether a column with options `o` stores its values as they are: no codec, and no delta
/// encoding asked for or tried (decimals are then smallest as fixed-size byte arrays).
fn stored_raw(o: &ColumnOptions) -> bool {
    use crate::format::Encoding;
    let delta = match o.encoding {
        Some(e) => e == Encoding::DELTA_BINARY_PACKED,
        None => o.choose_encoding,
    };
    o.codec == crate::codec::Codec::Uncompressed && !delta
}

fn io_error(e: std::io::Error) -> Error {
    Error::from(e).context("writing the Parquet file")
}

impl FileWriter<super::AtomicFile> {
    /// A writer of `path`, written under a temporary name beside it and renamed into place by
    /// [`Self::finish`]; dropped without finishing (or failing), it leaves nothing behind.
    pub fn create(path: &std::path::Path, schema: SchemaRef, opts: WriteOptions) -> Result<Self> {
        FileWriter::new(super::AtomicFile::create(path)?, schema, opts)
    }

    /// Closes the file and renames it into place.
    pub fn finish(self) -> Result<WriteSummary> {
        let (file, summary) = self.close()?;
        file.commit()?;
        Ok(summary)
    }
}
