//! Merging Parquet files without decoding their values: column chunks are copied as they are
//! stored and new metadata is written with the offsets they have in the output.
//!
//! Inputs are merged in the order given, their rows kept in order. Their schemas must be the
//! same or compatible (`schema`: top-level fields in another order, optional fields missing
//! from some inputs). Two ways to lay out row groups:
//!
//! - **verbatim** ([`MergeOptions::coalesce`] `None`): every input row group becomes one output
//!   row group, each chunk copied as one range;
//! - **coalescing**: consecutive row groups, across inputs, are joined into output row groups
//!   of up to [`RowGroupTarget`] rows and bytes, the pages of their chunks concatenated into
//!   one chunk per column (`chunk`): dictionaries merged and indices remapped (`dict`),
//!   pages of another codec re-compressed, and only where the merged dictionary would pass
//!   [`MergeOptions::dictionary_limit`] the dictionary-encoded pages written PLAIN.
//!
//! Carried across: statistics (merged, `meta`), the page index (offset index rebuilt,
//! column index entries concatenated), Bloom filters (copied, united when row groups are
//! joined, or rebuilt from the values where they do not unite), key-value metadata (`ARROW:schema` included; the first value of a key wins and
//! conflicts are reported), `sorting_columns` (kept where the joined row groups are still in
//! order), encodings, encoding statistics, size statistics, field ids. The file is written by
//! quiver: `created_by` says so.
//!
//! Bytes are copied through a [`MergeSink`]; [`FileSink`] copies between files inside the
//! kernel. [`merge_files`] writes a file atomically (a temporary name, renamed when complete).

mod chunk;
mod convert;
mod dict;
mod files;
mod meta;
mod pages;
mod schema;
mod sink;
mod sorting;

pub use files::{READ_AHEAD_BUDGET, ReadAhead, merge_files};
pub use schema::MetadataConflict;
pub use sink::{FileSink, MergeSink};

use super::chunk_meta::{
    ChunkRecord, GroupRecord, compression_codec, encoded, row_groups, write_indexes,
};
use super::writer::CREATED_BY;
use crate::format::{
    ColumnMetaData, Encoding, FileMetaData, KeyValue, OffsetIndex, PageLocation, Type,
};
use crate::metadata::{ParquetMetaData, parse_file};
use crate::thrift::{Encoded, ThriftList};
use chunk::{ChunkOut, Part, Piece};
use quiver_arrow::parallel::ThreadPool;
use quiver_arrow::{Error, Result};
use schema::MergedSchema;
use std::fs::File;

/// The largest output row groups coalescing makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowGroupTarget {
    /// At most this many rows.
    pub rows: u64,
    /// At most this many stored bytes (the inputs' row groups' compressed sizes summed).
    pub bytes: u64,
}

impl Default for RowGroupTarget {
    /// 1 Mi rows or 128 MiB, whichever comes first.
    fn default() -> Self {
        RowGroupTarget {
            rows: 1 << 20,
            bytes: 128 << 20,
        }
    }
}

/// How files are merged.
#[derive(Debug, Clone)]
pub struct MergeOptions {
    /// `None`: every input row group is one output row group. Otherwise consecutive row groups
    /// are joined up to the target (a row group already past it stays as it is: row groups
    /// are never split).
    pub coalesce: Option<RowGroupTarget>,
    /// The largest merged dictionary page (PLAIN bytes) before pages fall back to PLAIN.
    pub dictionary_limit: usize,
    /// Check the CRC of every input page that has one (reading every byte).
    pub verify_crc: bool,
    /// The threads output chunks are built on (one more thread, started for the merge,
    /// writes the output while they build).
    pub threads: ThreadPool,
    /// Key-value metadata added to the merged file's (replacing a key's value).
    pub key_value_metadata: Vec<(String, String)>,
    /// Told, after each output row group, the stored bytes of input row groups merged so far
    /// and in all.
    pub progress: Option<Progress>,
}

/// A progress callback: (input bytes merged, input bytes in all).
#[derive(Clone)]
pub struct Progress(pub std::sync::Arc<dyn Fn(u64, u64) + Send + Sync>);

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress(..)")
    }
}

impl Default for MergeOptions {
    fn default() -> Self {
        MergeOptions {
            coalesce: Some(RowGroupTarget::default()),
            dictionary_limit: 1 << 20,
            verify_crc: false,
            threads: ThreadPool::global(),
            key_value_metadata: Vec::new(),
            progress: None,
        }
    }
}

/// One input file: its bytes (a memory map, typically) and, to copy from inside the kernel,
/// the open file.
#[derive(Debug, Clone, Copy)]
pub struct MergeInput<'a> {
    /// The name in messages and the report.
    pub name: &'a str,
    /// The whole file.
    pub bytes: &'a [u8],
    /// The file the bytes are of, if open.
    pub file: Option<&'a File>,
}

/// What was done to pages, counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PageCounts {
    /// Pages copied as stored.
    pub copied: u64,
    /// Pages decompressed and compressed again with the chunk's codec.
    pub recompressed: u64,
    /// Dictionary-encoded pages whose indices were mapped onto a merged dictionary.
    pub remapped: u64,
    /// Dictionary-encoded pages written PLAIN (the merged dictionary would pass the limit).
    pub reencoded: u64,
    /// Of those, pages made from their dictionary page's stored bytes, nothing compressed
    /// again: the page's values are the dictionary's in its order, every one distinct, or for
    /// Snappy with a few earlier ones repeated ([`crate::codec::snappy::gather`]).
    pub from_dictionary: u64,
    /// Pages of nulls written for inputs that lack a column.
    pub nulls: u64,
    /// Dictionaries merged into another.
    pub dictionaries_merged: u64,
    /// Data pages v2 written as v1 (their chunk would otherwise hold both kinds).
    pub as_v1: u64,
    /// Data pages of decimal columns their input stores another way than the merged file
    /// (`FIXED_LEN_BYTE_ARRAY` against `INT64`, say), written with their values (or, for
    /// dictionary indices, their dictionary and statistics) converted.
    pub converted: u64,
}

impl PageCounts {
    fn add(&mut self, o: &PageCounts) {
        self.copied += o.copied;
        self.recompressed += o.recompressed;
        self.remapped += o.remapped;
        self.reencoded += o.reencoded;
        self.from_dictionary += o.from_dictionary;
        self.nulls += o.nulls;
        self.dictionaries_merged += o.dictionaries_merged;
        self.as_v1 += o.as_v1;
        self.converted += o.converted;
    }
}

/// One input in the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputSummary {
    /// Its name.
    pub name: String,
    /// Its rows.
    pub rows: u64,
    /// Its row groups.
    pub row_groups: usize,
    /// Its bytes.
    pub bytes: u64,
}

/// What a merge did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// The inputs, in order.
    pub inputs: Vec<InputSummary>,
    /// Rows written.
    pub rows: u64,
    /// Row groups written.
    pub row_groups: usize,
    /// Bytes of the output.
    pub bytes: u64,
    /// Column chunks written.
    pub chunks: u64,
    /// Column chunks whose every page was copied as stored.
    pub chunks_verbatim: u64,
    /// Bytes copied from inputs as stored.
    pub bytes_copied: u64,
    /// Pages, by what was done to them.
    pub pages: PageCounts,
    /// Fields taken from inputs after the first (missing from earlier ones).
    pub appended_fields: Vec<String>,
    /// Key-value metadata whose value differed between inputs (the first was kept).
    pub conflicts: Vec<MetadataConflict>,
    /// Other things a user should know (sort orders dropped, Bloom filters dropped...).
    pub notes: Vec<String>,
}

/// An input with its footer decoded.
pub(super) struct Input<'a> {
    name: String,
    bytes: &'a [u8],
    file: Option<&'a File>,
    meta: ParquetMetaData<'a>,
    /// Written by a parquet-mr whose chunk sizes leave out the dictionary page header.
    short_dictionary_sizes: bool,
    /// Written by a parquet-cpp before Arrow 3.0, whose data pages v2 say their compressed
    /// values are not compressed (ARROW-17100).
    v2_always_compressed: bool,
}

/// What building chunks needs.
pub(super) struct Cx<'s, 'a> {
    inputs: &'s [Input<'a>],
    schema: &'s MergedSchema<'a>,
    opts: &'s MergeOptions,
    /// Each output leaf's stored bytes in the first input's first row group: the order in
    /// which chunks are built (largest first, so that no thread is left with a large chunk
    /// at the end of a batch while the others wait).
    leaf_bytes: Vec<u64>,
}

impl Cx<'_, '_> {
    /// `e` with where it happened: the input, its row group, the column.
    fn at(&self, p: &Piece, leaf: usize, e: Error) -> Error {
        e.context(format!(
            "{}: row group {}, column {:?}",
            self.inputs[p.input].name, p.row_group, self.schema.paths[leaf]
        ))
    }
}

/// Merges `inputs` (at least one) into `sink`, which receives the whole file.
///
/// ```
/// use quiver_arrow::array::{Array, PrimitiveArray};
/// use quiver_arrow::datatype::{DataType, Field, Schema};
/// use quiver_arrow::RecordBatch;
/// use quiver_parquet::file::merge::{MergeInput, MergeOptions, merge};
/// use quiver_parquet::file::writer::{FileWriter, WriteOptions};
/// use quiver_parquet::file::FileReader;
/// use std::sync::Arc;
/// let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int64, true)]));
/// let file = |values: Vec<Option<i64>>| -> quiver_arrow::Result<Vec<u8>> {
///     let col = Array::I64(PrimitiveArray::from_options(values));
///     let mut w = FileWriter::new(Vec::new(), schema.clone(), WriteOptions::default())?;
///     w.write(&RecordBatch::try_new(schema.clone(), vec![col])?)?;
///     Ok(w.close()?.0)
/// };
/// let (a, b) = (file(vec![Some(1), None])?, file(vec![Some(3)])?);
/// let inputs = [
///     MergeInput { name: "a", bytes: &a, file: None },
///     MergeInput { name: "b", bytes: &b, file: None },
/// ];
/// let mut out = Vec::new();
/// let report = merge(&inputs, &mut out, &MergeOptions::default())?;
/// assert_eq!((report.rows, report.row_groups), (3, 1));
/// let reader = FileReader::try_new(&out, Default::default())?;
/// assert_eq!(reader.read_all()?[0].num_rows(), 3);
/// # Ok::<(), quiver_arrow::Error>(())
/// ```
pub fn merge(
    inputs: &[MergeInput<'_>],
    sink: &mut (dyn MergeSink + Send),
    opts: &MergeOptions,
) -> Result<MergeReport> {
    if inputs.is_empty() {
        return Err(Error::invalid("no input files to merge"));
    }
    let opened = opts
        .threads
        .run_jobs(inputs.iter().collect(), || open_input, || {})?;
    let schema = schema::merge_schema(&opened)?;
    let (mut kv, conflicts) = schema::merge_key_values(&opened, &schema)?;
    for (k, v) in &opts.key_value_metadata {
        kv.retain(|(key, _)| key != k.as_bytes());
        kv.push((k.as_bytes().to_vec(), Some(v.as_bytes().to_vec())));
    }
    let leaf_bytes = (0..schema.paths.len())
        .map(|leaf| {
            let input = &opened[0];
            let size = match schema.maps[0][leaf] {
                Some(l) if input.meta.num_row_groups() > 0 => input
                    .meta
                    .column_chunk(0, l)
                    .ok()
                    .and_then(|c| c.meta_data.as_ref().map(|m| m.total_compressed_size)),
                _ => None,
            };
            size.unwrap_or(0).max(0) as u64
        })
        .collect();
    let cx = Cx {
        inputs: &opened,
        schema: &schema,
        opts,
        leaf_bytes,
    };
    let groups = plan(&opened, opts)?;
    let report = MergeReport {
        inputs: opened
            .iter()
            .map(|i| InputSummary {
                name: i.name.clone(),
                rows: i.meta.num_rows().max(0) as u64,
                row_groups: i.meta.num_row_groups(),
                bytes: i.bytes.len() as u64,
            })
            .collect(),
        appended_fields: schema.appended.clone(),
        conflicts,
        ..MergeReport::default()
    };
    // The sink runs on a thread of its own, so that the kernel copies (or writes) one batch
    // of row groups while the next is built.
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<SinkOp<'_>>>(1);
        let drain = scope.spawn(move || -> Result<()> {
            for ops in rx {
                for op in ops {
                    match op {
                        SinkOp::Bytes(b) => sink.write_bytes(&b)?,
                        SinkOp::Copy {
                            file: Some(f),
                            start,
                            bytes,
                            ..
                        } => sink.copy_range(f, start, bytes.len() as u64, bytes)?,
                        SinkOp::Copy { bytes, .. } => sink.write_bytes(bytes)?,
                        SinkOp::Reserve(n) => sink.reserve(n)?,
                    }
                }
            }
            sink.flush()
        });
        let w = Writer {
            tx,
            ops: Vec::new(),
            pos: 0,
            report,
            groups: Vec::with_capacity(groups.len()),
            dictionaries: vec![(0, false); schema.paths.len()],
            key_capacities: vec![None; inputs.len()],
            blooms_rebuilt: vec![0; schema.paths.len()],
        };
        let made = w.file(&cx, &groups, &kv);
        let drained = drain
            .join()
            .unwrap_or_else(|_| Err(Error::invalid("the thread writing the output panicked")));
        // The sink's error first: the writer's is then only that the sink stopped.
        drained.and(made)
    })
}

/// Stored bytes of input row groups whose output chunks are built at once (at least one
/// output row group): few hand-offs to the threads when row groups are small, memory bounded
/// when they are large.
const BUILD_BYTES: u64 = 64 << 20;

/// The stored bytes of the input row groups of `pieces`.
fn piece_bytes(inputs: &[Input<'_>], pieces: &[(usize, usize, u64)]) -> Result<u64> {
    pieces
        .iter()
        .try_fold(0u64, |n, &(i, r, _)| Ok(n + stored_bytes(&inputs[i], r)?))
}

/// The stored (compressed) bytes of row group `r` of `input`, as its footer says.
fn stored_bytes(input: &Input<'_>, r: usize) -> Result<u64> {
    let rg = input.meta.row_group(r)?;
    Ok(rg
        .total_compressed_size
        .unwrap_or(rg.total_byte_size)
        .max(0) as u64)
}

/// The output chunks of `groups`, built on the merge's threads: a vector of chunks (one per
/// leaf) per group.
fn build_groups<'a>(
    cx: &Cx<'_, 'a>,
    groups: &[Vec<(usize, usize, u64)>],
) -> Result<Vec<Vec<ChunkOut<'a>>>> {
    let leaves = cx.schema.paths.len();
    let mut jobs: Vec<(usize, usize)> = (0..groups.len())
        .flat_map(|g| (0..leaves).map(move |leaf| (g, leaf)))
        .collect();
    // Largest columns first (stable: ties in group and leaf order).
    jobs.sort_by_key(|&(_, leaf)| std::cmp::Reverse(cx.leaf_bytes[leaf]));
    let order = jobs.clone();
    let chunks = cx.opts.threads.run_jobs(
        jobs,
        || {
            |(g, leaf): (usize, usize)| {
                let ps: Vec<Piece> = groups[g]
                    .iter()
                    .map(|&(input, row_group, rows)| Piece {
                        input,
                        row_group,
                        rows,
                        leaf: cx.schema.maps[input][leaf],
                    })
                    .collect();
                chunk::build(cx, leaf, &ps)
            }
        },
        || {},
    )?;
    let mut placed: Vec<Vec<Option<ChunkOut<'a>>>> = groups
        .iter()
        .map(|_| (0..leaves).map(|_| None).collect())
        .collect();
    for ((g, leaf), c) in order.into_iter().zip(chunks) {
        placed[g][leaf] = Some(c);
    }
    Ok(placed
        .into_iter()
        .map(|g| g.into_iter().flatten().collect())
        .collect())
}

fn open_input<'a>(i: &MergeInput<'a>) -> Result<Input<'a>> {
    let meta = parse_file(i.bytes).map_err(|e| e.context(i.name))?;
    let created_by = meta.created_by();
    Ok(Input {
        name: i.name.to_string(),
        bytes: i.bytes,
        file: i.file,
        short_dictionary_sizes: super::parquet_816(created_by),
        v2_always_compressed: super::v2_always_compressed(created_by),
        meta,
    })
}

/// The output row groups: the pieces (input, row group, rows) of each.
fn plan(inputs: &[Input<'_>], opts: &MergeOptions) -> Result<Vec<Vec<(usize, usize, u64)>>> {
    let mut groups: Vec<Vec<(usize, usize, u64)>> = Vec::new();
    let (mut rows, mut bytes) = (0u64, 0u64);
    for (i, input) in inputs.iter().enumerate() {
        for g in 0..input.meta.num_row_groups() {
            let n = input.meta.row_group(g)?.num_rows.max(0) as u64;
            let size = stored_bytes(input, g)?;
            let Some(target) = opts.coalesce else {
                groups.push(vec![(i, g, n)]);
                continue;
            };
            if n == 0 {
                continue;
            }
            let fits = !groups.is_empty()
                && rows + n <= target.rows
                && bytes.saturating_add(size) <= target.bytes;
            if fits {
                rows += n;
                bytes += size;
                if let Some(l) = groups.last_mut() {
                    l.push((i, g, n));
                }
            } else {
                (rows, bytes) = (n, size);
                groups.push(vec![(i, g, n)]);
            }
        }
    }
    Ok(groups)
}

/// Writes the output and keeps the records its footer needs.
/// What the thread writing the output is handed, in file order.
enum SinkOp<'a> {
    /// Bytes made by the merge.
    Bytes(Vec<u8>),
    /// Bytes of an input, copied from its file when it has one.
    Copy {
        /// The input (to join adjacent copies).
        input: usize,
        file: Option<&'a File>,
        start: u64,
        bytes: &'a [u8],
    },
    /// About this many bytes are coming ([`MergeSink::reserve`]).
    Reserve(u64),
}

struct Writer<'a> {
    /// To the thread writing the output: one batch of operations at a time.
    tx: std::sync::mpsc::SyncSender<Vec<SinkOp<'a>>>,
    /// The batch being gathered.
    ops: Vec<SinkOp<'a>>,
    pos: u64,
    report: MergeReport,
    groups: Vec<GroupRecord>,
    /// Per leaf: the most distinct values a chunk written can hold ([`ChunkOut`]'s
    /// `dictionary_entries`: its dictionary page's entries and the values of its pages not
    /// dictionary-encoded), and `false` (every bound is known).
    dictionaries: Vec<(usize, bool)>,
    /// Per input, once needed: per input leaf, the dictionary entries its own `ARROW:schema`'s
    /// keys index there (`None`: no dictionary, or no such schema).
    key_capacities: Vec<Option<Vec<Option<usize>>>>,
    /// Per leaf: output row groups whose Bloom filter was rebuilt from the values.
    blooms_rebuilt: Vec<usize>,
}

impl<'a> Writer<'a> {
    /// Writes the whole file: magic, row groups, page indexes, footer.
    fn file(
        mut self,
        cx: &Cx<'_, 'a>,
        groups: &[Vec<(usize, usize, u64)>],
        kv: &[(Vec<u8>, Option<Vec<u8>>)],
    ) -> Result<MergeReport> {
        self.put(crate::metadata::MAGIC.to_vec());
        let sizes = groups
            .iter()
            .map(|g| piece_bytes(cx.inputs, g))
            .collect::<Result<Vec<u64>>>()?;
        let total: u64 = sizes.iter().sum();
        // The row groups' stored bytes: what a verbatim merge copies, about what coalescing
        // writes (the footer and page indexes come on top).
        self.ops.push(SinkOp::Reserve(total));
        let (mut next, mut done) = (0, 0);
        while next < groups.len() {
            let mut end = next + 1;
            let mut bytes = sizes[next];
            while end < groups.len() && bytes + sizes[end] <= BUILD_BYTES {
                bytes += sizes[end];
                end += 1;
            }
            let built = build_groups(cx, &groups[next..end])?;
            for (k, chunks) in built.into_iter().enumerate() {
                self.group(cx, &groups[next + k], chunks)?;
                if let Some(p) = &cx.opts.progress {
                    done += sizes[next + k];
                    (p.0)(done, total);
                }
            }
            self.send()?;
            next = end;
        }
        for (leaf, &n) in self.blooms_rebuilt.iter().enumerate() {
            if n > 0 {
                self.report.notes.push(format!(
                    "column {:?}: the Bloom filter of {n} output row group{} rebuilt from the \
                     values (the joined row groups' filters do not unite: sizes that differ, \
                     or a row group without one)",
                    cx.schema.paths[leaf],
                    if n == 1 { "" } else { "s" }
                ));
            }
        }
        let mut records = std::mem::take(&mut self.groups);
        let pos = self.pos;
        write_indexes(&mut records, pos, |b| {
            self.put(b.to_vec());
            Ok(())
        })?;
        let widened = schema::widen_dictionary_keys(kv, cx.schema, &self.dictionaries)?;
        if let Some((_, fields)) = &widened {
            self.report.notes.push(format!(
                "ARROW:schema: the dictionary keys of {} widened to int32 (a row group holds \
                 more values than the inputs' key type indexes, or values not known to fit)",
                fields.join(", ")
            ));
        }
        let kv = widened.as_ref().map_or(kv, |(kv, _)| kv.as_slice());
        let footer = footer(cx.inputs, cx.schema, &records, kv)?;
        let len = footer.len() as u32;
        self.put(footer);
        self.put(len.to_le_bytes().to_vec());
        self.put(crate::metadata::MAGIC.to_vec());
        self.send()?;
        self.report.bytes = self.pos;
        self.report.row_groups = records.len();
        Ok(self.report)
    }

    /// Hands the gathered operations to the thread writing the output (waiting while it is
    /// still busy with the batch before).
    fn send(&mut self) -> Result<()> {
        if self.ops.is_empty() {
            return Ok(());
        }
        self.tx
            .send(std::mem::take(&mut self.ops))
            // Its own error is the one returned.
            .map_err(|_| Error::invalid("the output stopped taking bytes"))
    }

    /// Appends `bytes`.
    fn put(&mut self, bytes: Vec<u8>) {
        self.pos += bytes.len() as u64;
        self.ops.push(SinkOp::Bytes(bytes));
    }

    /// Appends `len` bytes of input `input` from `start`. Ranges of one input that follow
    /// each other (the chunks of a row group, the row groups of a file, as a verbatim merge
    /// copies them) become one copy: one system call per file instead of one per chunk.
    fn copy(&mut self, cx: &Cx<'_, 'a>, input: usize, start: u64, len: u64) {
        let i = &cx.inputs[input];
        self.pos += len;
        self.report.bytes_copied += len;
        // In bounds: every copied range lies in a chunk checked against its input's length
        // when the chunk was built, and joined ranges are adjacent ranges of one input.
        let (start, end) = match self.ops.last() {
            Some(SinkOp::Copy {
                input: last,
                start: s,
                bytes,
                ..
            }) if *last == input && *s + bytes.len() as u64 == start => {
                let s = *s;
                self.ops.pop();
                (s, start + len)
            }
            _ => (start, start + len),
        };
        self.ops.push(SinkOp::Copy {
            input,
            file: i.file,
            start,
            bytes: &i.bytes[start as usize..end as usize],
        });
    }

    /// [`Writer::key_capacities`] of `input`, decoded the first time (empty without a
    /// readable `ARROW:schema` that matches its leaves).
    fn own_capacities(&mut self, cx: &Cx<'_, 'a>, input: usize) -> &[Option<usize>] {
        self.key_capacities[input].get_or_insert_with(|| {
            let meta = &cx.inputs[input].meta;
            let kv = meta
                .file()
                .key_value_metadata
                .as_deref()
                .unwrap_or_default();
            kv.iter()
                .find(|p| p.key == crate::arrow::restore::ARROW_SCHEMA_KEY.as_bytes())
                .and_then(|p| p.value)
                .and_then(|v| crate::arrow::restore::decode_arrow_schema(v).ok())
                .map(|s| crate::arrow::restore::leaf_key_capacities(&s))
                .filter(|c| c.len() == meta.num_columns())
                .unwrap_or_default()
        })
    }

    /// Writes one output row group of `pieces`, its chunks built.
    fn group(
        &mut self,
        cx: &Cx<'_, 'a>,
        pieces: &[(usize, usize, u64)],
        chunks: Vec<ChunkOut<'a>>,
    ) -> Result<()> {
        let file_offset = self.pos as i64;
        let rows: u64 = pieces.iter().map(|p| p.2).sum();
        let mut places = Vec::with_capacity(chunks.len());
        let mut total = 0i64;
        let mut chunks = chunks;
        // A row group copied whole from one input holds what that input's own keys index
        // (its file reads as it is): its bound is at most theirs.
        let caps: Vec<usize> = match pieces {
            [(input, _, _)] => {
                let own = self.own_capacities(cx, *input);
                let map = &cx.schema.maps[*input];
                (0..chunks.len())
                    .map(|leaf| {
                        map[leaf]
                            .and_then(|l| own.get(l).copied()?)
                            .unwrap_or(usize::MAX)
                    })
                    .collect()
            }
            _ => vec![usize::MAX; chunks.len()],
        };
        for ((d, c), cap) in self.dictionaries.iter_mut().zip(&chunks).zip(caps) {
            d.0 = d.0.max(c.dictionary_entries.min(cap));
        }
        for c in &mut chunks {
            // Every byte copied: nothing rewritten, no page written anew.
            if !c.parts.is_empty() && c.parts.iter().all(|p| matches!(p, Part::Copy { .. })) {
                self.report.chunks_verbatim += 1;
            }
            let at = self.pos;
            self.parts(cx, c);
            places.push((at, self.pos - at));
            total += c.total_uncompressed;
            self.report.chunks += 1;
            self.report.pages.add(&c.counts);
        }
        let compressed = self.pos as i64 - file_offset;
        let mut records = Vec::with_capacity(chunks.len());
        for (leaf, (mut c, (at, len))) in chunks.into_iter().zip(places).enumerate() {
            if c.bloom_rebuilt {
                self.blooms_rebuilt[leaf] += 1;
            }
            let bloom = match c.acc.bloom() {
                Some(b) => {
                    let mut bytes = Vec::new();
                    b.write(&mut bytes);
                    let place = (self.pos as i64, bytes.len() as i32);
                    self.put(bytes);
                    Some(place)
                }
                None => {
                    if c.acc.bloom_seen {
                        self.report.notes.push(format!(
                            "column {:?}: no Bloom filter in output row group {}: the joined \
                             row groups' filters do not unite, and a boolean column's is not \
                             rebuilt",
                            cx.schema.paths[leaf],
                            self.groups.len()
                        ));
                    }
                    None
                }
            };
            records.push(record(cx, leaf, &mut c, at, len, bloom)?);
        }
        let sorting_columns = sorting::sorting_columns(cx, pieces, &mut self.report.notes)?;
        self.report.rows += rows;
        self.groups.push(GroupRecord {
            chunks: records,
            rows: rows as i64,
            total_byte_size: total,
            file_offset,
            compressed,
            sorting_columns,
        });
        Ok(())
    }

    /// Appends the chunk's bytes (moving those made anew out of it).
    fn parts(&mut self, cx: &Cx<'_, 'a>, c: &mut ChunkOut<'a>) {
        for part in std::mem::take(&mut c.parts) {
            match part {
                Part::Copy { input, start, len } => self.copy(cx, input, start, len),
                Part::Bytes(b) => self.put(b),
            }
        }
    }
}

/// The footer record of output chunk `leaf`, written at `at`.
fn record(
    cx: &Cx<'_, '_>,
    leaf: usize,
    c: &mut ChunkOut<'_>,
    at: u64,
    len: u64,
    bloom: Option<(i64, i32)>,
) -> Result<ChunkRecord> {
    let at = at as i64;
    let data = at + c.pages.first().map_or(0, |p| p.offset as i64);
    let encodings: Vec<Encoding> = c.acc.encodings.clone();
    let encodings_bytes = ThriftList::<Encoding>::encode(&encodings);
    let path: Vec<&str> = cx.schema.paths_in_schema[leaf]
        .iter()
        .map(String::as_str)
        .collect();
    let path_bytes = ThriftList::<&str>::encode(&path);
    let stats_bytes = c.acc.statistics().map(|s| encoded(&s));
    let enc_stats_bytes = ThriftList::encode(&c.encoding_stats);
    let size_bytes = c.acc.size_statistics().map(|s| encoded(&s));
    let meta = ColumnMetaData {
        type_: cx.schema.physical[leaf],
        encodings: ThriftList::from_encoded(&encodings_bytes, encodings.len())?,
        path_in_schema: ThriftList::from_encoded(&path_bytes, path.len())?,
        codec: compression_codec(c.codec),
        num_values: c.num_values,
        total_uncompressed_size: c.total_uncompressed,
        total_compressed_size: len as i64,
        key_value_metadata: c.acc.key_value_metadata.clone(),
        data_page_offset: data,
        index_page_offset: None,
        dictionary_page_offset: c.dictionary.then_some(at),
        statistics: stats_bytes
            .as_deref()
            .map(Encoded::from_encoded)
            .transpose()?,
        encoding_stats: Some(ThriftList::from_encoded(
            &enc_stats_bytes,
            c.encoding_stats.len(),
        )?),
        bloom_filter_offset: bloom.map(|b| b.0),
        bloom_filter_length: bloom.map(|b| b.1),
        size_statistics: size_bytes
            .as_deref()
            .map(Encoded::from_encoded)
            .transpose()?,
        geospatial_statistics: c.geo.clone().map(Box::new),
    };
    let first_rows: Option<Vec<i64>> = c.pages.iter().map(|p| p.first_row).collect();
    let offset_index = match first_rows {
        Some(rows) if c.offset_index => {
            let unencoded: Option<Vec<i64>> = c.pages.iter().map(|p| p.unencoded).collect();
            Some(encoded(&OffsetIndex {
                page_locations: c
                    .pages
                    .iter()
                    .zip(rows)
                    .map(|(p, first_row_index)| PageLocation {
                        offset: at + p.offset as i64,
                        compressed_page_size: p.len as i32,
                        first_row_index,
                    })
                    .collect(),
                unencoded_byte_array_data_bytes: unencoded
                    .filter(|_| cx.schema.physical[leaf] == Type::BYTE_ARRAY),
            }))
        }
        _ => None,
    };
    let column_index = offset_index
        .as_ref()
        .and_then(|_| c.acc.column_index(c.pages.len()))
        .map(|ci| encoded(&ci));
    Ok(ChunkRecord {
        meta: encoded(&meta),
        file_offset: at,
        column_index,
        offset_index,
        column_index_at: None,
        offset_index_at: None,
    })
}

/// The merged file's footer.
fn footer(
    inputs: &[Input<'_>],
    schema: &MergedSchema<'_>,
    groups: &[GroupRecord],
    kv: &[(Vec<u8>, Option<Vec<u8>>)],
) -> Result<Vec<u8>> {
    let version = inputs
        .iter()
        .map(|i| i.meta.file().version)
        .max()
        .unwrap_or(2);
    let num_rows = groups.iter().map(|g| g.rows).sum();
    let meta = FileMetaData {
        version,
        schema: schema.elements.clone(),
        num_rows,
        row_groups: row_groups(groups)?,
        key_value_metadata: (!kv.is_empty()).then(|| {
            kv.iter()
                .map(|(k, v)| KeyValue {
                    key: k,
                    value: v.as_deref(),
                })
                .collect()
        }),
        created_by: Some(CREATED_BY.as_bytes()),
        column_orders: Some(schema.column_orders.clone()),
        encryption_algorithm: None,
        footer_signing_key_metadata: None,
    };
    Ok(meta.encode())
}
