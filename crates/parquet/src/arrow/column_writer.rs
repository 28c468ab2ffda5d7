//! The column chunk writer: one leaf's shredded batches become pages (dictionary-encoded with
//! a fallback to the plain or a chosen encoding once the dictionary passes its limit), with
//! statistics, the page index entries, size statistics and bloom-filter hashes computed in the
//! same pass over the values.
//!
//! A batch is taken in *slices* of at most [`SLICE`] level entries that end on record
//! boundaries; after each slice the page is closed when it reached the page size or the row
//! limit. Pages are kept in memory ([`EncodedChunk`]) until the row group is written; the
//! dictionary page goes first in the chunk but is written last, when the dictionary is known.

use super::column_dict::Dict;
pub use super::column_options::{BloomOptions, ColumnOptions, PageVersion, StatisticsLevel};
use super::column_pages::{PageBuf, PageValues};
use super::column_source::{Present, Source, Walker};
use super::distinct::{DistinctCounter, UsedEntries};
use super::physical::SortOrder;
use super::physical::to_physical;
use super::shred::{LeafLevels, ShreddedLeaf};
use super::write_schema::LeafSpec;
use super::write_stats::{self, LexBounds, MinMax, PageStats};
use crate::bloom::{Sbbf, hash_bytes};
use crate::encoding::{interner, plain};
use crate::format::{Encoding, PageEncodingStats, PageType, Type};
use crate::page::write::{BlockPool, DataPage, PageBlocks, PageWriter, WrittenPage};
use quiver_arrow::array::Array;
use quiver_arrow::{Error, Result};
use std::sync::Arc;

/// Level entries taken at a time (then extended to the next record boundary).
pub const SLICE: usize = 1024;

/// Longest min/max kept whole in a chunk's statistics.
pub const CHUNK_STATS_LIMIT: usize = 4096;

/// A page's place in the chunk, for the offset index.
#[derive(Debug, Clone, Copy)]
pub struct PagePlace {
    /// Offset of the page header from the start of the data pages.
    pub offset: u64,
    /// Stored size, header included.
    pub size: u32,
    /// The page's first row within the chunk.
    pub first_row: u64,
}

/// A finished column chunk: its pages and what its metadata needs.
#[derive(Debug)]
pub struct EncodedChunk {
    /// The dictionary page (empty when none).
    pub dictionary_page: Vec<u8>,
    /// The data pages.
    pub data_pages: PageBlocks,
    /// Level entries.
    pub num_values: u64,
    /// Bytes of all pages uncompressed, headers included.
    pub total_uncompressed: u64,
    /// Encodings used (levels RLE included).
    pub encodings: Vec<Encoding>,
    /// Pages per (type, encoding).
    pub encoding_stats: Vec<PageEncodingStats>,
    /// Min/max (truncated; exactness flags) and null count, when statistics are written.
    pub statistics: Option<(Option<write_stats::Bounds>, u64)>,
    /// Where each data page is.
    pub pages: Vec<PagePlace>,
    /// Each data page's statistics (empty when no page index is written).
    pub page_stats: Vec<PageStats>,
    /// Size statistics: byte-array bytes, level histograms.
    pub unencoded_byte_array_bytes: Option<i64>,
    /// The distinct non-null values, when asked for and known exactly.
    pub distinct_count: Option<u64>,
    /// Definition level histogram (empty when the maximum is 0).
    pub def_histogram: Vec<i64>,
    /// Repetition level histogram (empty when the maximum is 0).
    pub rep_histogram: Vec<i64>,
    /// The bloom filter.
    pub bloom: Option<Sbbf>,
    /// The values the dictionary held and their bytes (byte arrays), fallen back or not: the
    /// room the next chunk of the column reserves ([`ColumnChunkWriter::with_dictionary_room`]).
    pub dictionary_room: (usize, usize),
    /// At least the distinct values a reader's Arrow dictionary of this chunk holds (what
    /// `ARROW:schema`'s key widths must index): the dictionary page's entries (0 when there is
    /// none), plus the values of each input dictionary whose keys were written into pages that
    /// are not dictionary-encoded (a dictionary repeated batch after batch, the same array, is
    /// counted once; equal copies of it are counted again, which only widens).
    pub dictionary_entries: usize,
}

/// Where a leaf sits in the schema tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeafShape {
    /// Maximum definition level.
    pub max_def: i16,
    /// Maximum repetition level.
    pub max_rep: i16,
    /// The leaf node itself is optional.
    pub nullable: bool,
    /// Values are UTF-8 text (statistics are cut on character boundaries).
    pub utf8: bool,
}

/// Writes one leaf column of one row group.
#[derive(Debug)]
pub struct ColumnChunkWriter {
    spec: LeafSpec,
    leaf_nullable: bool,
    utf8: bool,
    max_def: i16,
    max_rep: i16,
    opts: ColumnOptions,
    pages: PageWriter,
    pub(super) dict: Dict,
    /// Some data page is dictionary-encoded (so the chunk has a dictionary page).
    dict_pages: bool,
    /// The dictionary entries the pages use (kept when counting distinct values).
    used: UsedEntries,
    page: PageBuf,
    data: PageBlocks,
    places: Vec<PagePlace>,
    page_stats: Vec<PageStats>,
    chunk_mm: MinMax,
    chunk_nulls: u64,
    values: u64,
    rows: u64,
    uncompressed: u64,
    encodings: Vec<Encoding>,
    enc_stats: Vec<PageEncodingStats>,
    def_hist: Vec<i64>,
    rep_hist: Vec<i64>,
    byte_array_bytes: i64,
    bloom: Option<Sbbf>,
    present: Vec<u32>,
    through_keys: Vec<u32>,
    /// The dictionary entries a batch has taken into its byte-string bounds.
    seen: write_stats::SeenEntries,
    keys: Option<DictKeys>,
    /// The values of input dictionaries written into pages that are not dictionary-encoded
    /// ([`EncodedChunk::dictionary_entries`]), and the last input dictionary counted, with how
    /// many of its values were (all when it went into the chunk's dictionary). The dictionary
    /// itself is held, not its address: a later batch's could be allocated where a freed one was.
    plain_dictionary_values: usize,
    counted_dictionary: Option<(Arc<Array>, usize)>,
    words: Vec<u64>,
}

/// The keys of the dictionary array being written, and its values' indices in the chunk's
/// dictionary (interned once per batch, when dictionary-encoding).
#[derive(Debug)]
struct DictKeys {
    keys: Vec<u32>,
    remap: Option<Vec<u32>>,
}

/// A dictionary array's keys as `u32` (null keys as 0; keys were validated against the
/// dictionary's length when the array was built).
fn keys_u32(keys: &Array) -> Result<Vec<u32>> {
    fn conv<T: Copy>(v: &[T], f: impl Fn(T) -> u32) -> Vec<u32> {
        v.iter().map(|&k| f(k)).collect()
    }
    Ok(match keys {
        Array::I8(a) => conv(a.values(), |k| k as u32),
        Array::I16(a) => conv(a.values(), |k| k as u32),
        Array::I32(a) => conv(a.values(), |k| k as u32),
        Array::I64(a) => conv(a.values(), |k| k as u32),
        Array::U8(a) => conv(a.values(), u32::from),
        Array::U16(a) => conv(a.values(), u32::from),
        Array::U32(a) => conv(a.values(), |k| k),
        Array::U64(a) => conv(a.values(), |k| k as u32),
        other => {
            return Err(Error::invalid(format!(
                "dictionary keys of type {}",
                other.data_type()
            )));
        }
    })
}

impl ColumnChunkWriter {
    /// The writer, its data pages kept in blocks from `pool` ([`PageBlocks::with_pool`]).
    pub fn with_block_pool(mut self, pool: BlockPool) -> Self {
        debug_assert!(self.data.is_empty());
        self.data = PageBlocks::with_pool(pool);
        self
    }

    /// The writer, its dictionary given room for `room` (values, bytes): what the previous
    /// chunk of the column held ([`EncodedChunk::dictionary_room`]), so that a dictionary that
    /// grows to about the same size is not rehashed and copied at each doubling on the way.
    pub fn with_dictionary_room(mut self, room: (usize, usize)) -> Self {
        self.dict.reserve(room);
        self
    }

    /// A writer for the leaf `spec` of this shape.
    pub fn new(spec: LeafSpec, shape: LeafShape, opts: ColumnOptions) -> Result<Self> {
        let pages = PageWriter::new(opts.codec, opts.level, opts.crc)?;
        let dict = Dict::new(spec.physical, opts.dictionary);
        let bloom = opts
            .bloom
            .map(|b| Sbbf::new(Sbbf::optimal_num_bytes(b.ndv, b.fpp)));
        let (max_def, max_rep) = (shape.max_def, shape.max_rep);
        Ok(ColumnChunkWriter {
            page: PageBuf::new(max_def, max_rep),
            leaf_nullable: shape.nullable,
            utf8: shape.utf8,
            max_def,
            max_rep,
            pages,
            dict,
            dict_pages: false,
            used: UsedEntries::default(),
            data: PageBlocks::new(),
            places: Vec::new(),
            page_stats: Vec::new(),
            chunk_mm: MinMax::default(),
            chunk_nulls: 0,
            values: 0,
            rows: 0,
            uncompressed: 0,
            encodings: Vec::new(),
            enc_stats: Vec::new(),
            def_hist: vec![0; if max_def > 0 { max_def as usize + 1 } else { 0 }],
            rep_hist: vec![0; if max_rep > 0 { max_rep as usize + 1 } else { 0 }],
            byte_array_bytes: 0,
            bloom,
            present: Vec::new(),
            through_keys: Vec::new(),
            seen: write_stats::SeenEntries::default(),
            keys: None,
            plain_dictionary_values: 0,
            counted_dictionary: None,
            words: Vec::new(),
            spec,
            opts,
        })
    }

    /// Bytes buffered: pages written plus the page being built.
    pub fn buffered_bytes(&self) -> usize {
        self.data.len() + self.page.estimated_size(self.dict.len()) + self.dict.plain_size(false)
    }

    /// Appends one batch of this leaf.
    pub fn write(&mut self, leaf: &ShreddedLeaf) -> Result<()> {
        if (leaf.max_def, leaf.max_rep) != (self.max_def, self.max_rep) {
            return Err(Error::invalid(format!(
                "column {}: shredded with levels ({}, {}), the schema has ({}, {})",
                self.spec.path.join("."),
                leaf.max_def,
                leaf.max_rep,
                self.max_def,
                self.max_rep
            )));
        }
        let physical = to_physical(&leaf.array, &self.spec)?;
        let mut keys = None;
        let (values, validity) = match &physical {
            Array::Dictionary(d) => {
                // Pages that fall back from the dictionary stay PLAIN: pyarrow reads a byte-array
                // column stored with an Arrow dictionary type into a dictionary and cannot do so
                // from DELTA_BYTE_ARRAY pages ("DecodeArrow of DictAccumulator").
                if self.spec.physical == Type::BYTE_ARRAY {
                    self.opts.choose_encoding = false;
                }
                keys = Some(DictKeys {
                    keys: keys_u32(d.keys())?,
                    remap: None,
                });
                (Some(Source::new(d.values())?), d.validity())
            }
            Array::Null(_) => (None, None),
            a => (Some(Source::new(a)?), a.validity()),
        };
        self.keys = keys;
        let input_dictionary = match &leaf.array {
            Array::Dictionary(d) => Some(d.values()),
            _ => None,
        };
        if let Some(dict) = input_dictionary
            && self.dictionary_encoding()
        {
            // Its values all go into the chunk's dictionary with the first slice.
            self.counted_dictionary = Some((dict.clone(), dict.len()));
        }
        let mut walker = Walker::new(leaf, self.leaf_nullable);
        let entries = walker.entries();
        let mut start = 0;
        while start < entries {
            let end = self.slice_end(leaf, start, entries);
            if self.dictionary_would_overflow(end - start, values) {
                self.flush_page()?;
                self.fall_back();
            }
            self.write_slice(leaf, &mut walker, start..end, values, validity)?;
            start = end;
            if self.page.num_values > 0 && self.page_full() {
                self.flush_page()?;
            }
            if self.dictionary_full() {
                self.flush_page()?;
                self.fall_back();
            }
        }
        if let Some(dict) = input_dictionary
            && !self.dictionary_encoding()
        {
            // Some of this batch's keys may be in plain pages (none when the chunk fell back
            // after its last slice: the bound is only looser). They use at most as many of its
            // values as they are, and at most all of them over the batches sharing it.
            let before = match &self.counted_dictionary {
                Some((a, counted)) if Arc::ptr_eq(a, dict) => *counted,
                _ => 0,
            };
            let now = before.saturating_add(entries).min(dict.len()).max(before);
            self.counted_dictionary = Some((dict.clone(), now));
            self.plain_dictionary_values =
                self.plain_dictionary_values.saturating_add(now - before);
        }
        Ok(())
    }

    /// The end of the slice starting at `start`: at most [`SLICE`] entries and the rows left in
    /// the page, extended to a record boundary.
    fn slice_end(&self, leaf: &ShreddedLeaf, start: usize, entries: usize) -> usize {
        let rows_left = self
            .opts
            .page_rows
            .saturating_sub(self.page.num_rows)
            .max(1);
        let mut end = (start + SLICE.min(rows_left)).min(entries);
        if let LeafLevels::Nested { rep, .. } = &leaf.levels
            && self.max_rep > 0
        {
            while end < entries && rep[end] != 0 {
                end += 1;
            }
        }
        end
    }

    fn page_full(&self) -> bool {
        self.page.num_rows >= self.opts.page_rows
            || self.page.estimated_size(self.dict.len()) >= self.opts.page_size
    }

    /// The dictionary reached its limit (checked after each slice, as Arrow C++ checks after
    /// each batch of 1,024 values: the same dictionary sizes fall back).
    fn dictionary_full(&self) -> bool {
        self.dictionary_encoding()
            && self
                .dict
                .plain_size(self.spec.physical == Type::FIXED_LEN_BYTE_ARRAY)
                >= self.opts.dictionary_limit
    }

    /// Whether a slice of `entries` level entries over `values` could take the dictionary
    /// past [`interner::MAX_ENTRIES`] (an Arrow dictionary's values are interned all at once,
    /// the first time): then the chunk falls back before the slice, whatever its byte limit.
    fn dictionary_would_overflow(&self, entries: usize, values: Option<Source<'_>>) -> bool {
        if !self.dictionary_encoding() || self.page.fallen_back {
            return false;
        }
        let incoming = match (&self.keys, values) {
            (Some(k), Some(v)) if k.remap.is_none() => v.count(),
            (Some(_), _) => 0,
            (None, _) => entries,
        };
        self.dict.len().saturating_add(incoming) > interner::MAX_ENTRIES
    }

    /// Stops dictionary-encoding: later pages are plain (or the chosen encoding). The
    /// dictionary stays for the pages already written.
    fn fall_back(&mut self) {
        self.page.fallen_back = true;
    }

    fn write_slice(
        &mut self,
        leaf: &ShreddedLeaf,
        walker: &mut Walker<'_>,
        entries: std::ops::Range<usize>,
        values: Option<Source<'_>>,
        validity: Option<&quiver_arrow::buffer::Bitmap>,
    ) -> Result<()> {
        let n = entries.len();
        let (nulls, rows) = self.put_levels(leaf, entries.clone(), validity);
        self.page.num_values += n;
        self.page.num_nulls += nulls;
        self.page.num_rows += rows;
        self.values += n as u64;
        self.rows += rows as u64;
        let Some(source) = values else {
            return Ok(());
        };
        let mut present = std::mem::take(&mut self.present);
        let mut p = walker.present(entries, validity, &mut present);
        let mut through = std::mem::take(&mut self.through_keys);
        let mut keys = self.keys.take();
        let mut remap = None;
        if let Some(k) = &mut keys {
            // Positions of the dictionary's values; the dictionary's values interned once.
            through.clear();
            p.for_each(|i| through.push(k.keys[i]));
            p = Present::List(&through);
            if self.dictionary_encoding() {
                remap = Some(
                    k.remap
                        .get_or_insert_with(|| self.dict.remap(source))
                        .as_slice(),
                );
            }
        }
        let r = self.put_values(source, &p, remap);
        self.keys = keys;
        self.through_keys = through;
        self.present = present;
        r
    }

    /// Encodes the levels of `entries`; returns (null entries, records).
    fn put_levels(
        &mut self,
        leaf: &ShreddedLeaf,
        entries: std::ops::Range<usize>,
        validity: Option<&quiver_arrow::buffer::Bitmap>,
    ) -> (usize, usize) {
        let n = entries.len();
        match &leaf.levels {
            LeafLevels::Flat => {
                if self.max_def == 0 {
                    return (0, n);
                }
                let nulls = match validity {
                    Some(v) => {
                        let part = v.slice(entries.start, n);
                        self.words.clear();
                        self.words.extend(part.chunks());
                        self.page.def.put_bits(&self.words, 0, n);
                        part.unset_bits()
                    }
                    None => {
                        self.page.def.put_repeated(1, n);
                        0
                    }
                };
                self.page.def_hist[0] += nulls as i64;
                self.page.def_hist[1] += (n - nulls) as i64;
                (nulls, n)
            }
            LeafLevels::Nested { def, rep } => {
                // One pass per kind of level: the histogram gives the nulls and the records.
                let mut nulls = 0;
                if self.max_def > 0 {
                    let d = &def[entries.clone()];
                    self.page.def.put_levels(d);
                    let top = self.page.def_hist[self.max_def as usize];
                    add_histogram(d, &mut self.page.def_hist);
                    nulls = n - (self.page.def_hist[self.max_def as usize] - top) as usize;
                }
                let mut rows = n;
                if self.max_rep > 0 {
                    let r = &rep[entries];
                    self.page.rep.put_levels(r);
                    let starts = self.page.rep_hist[0];
                    add_histogram(r, &mut self.page.rep_hist);
                    rows = (self.page.rep_hist[0] - starts) as usize;
                }
                (nulls, rows)
            }
        }
    }

    /// Encodes the present values; updates statistics and the bloom filter.
    fn put_values(
        &mut self,
        source: Source<'_>,
        p: &Present<'_>,
        remap: Option<&[u32]>,
    ) -> Result<()> {
        let order = self.spec.sort_order;
        let physical = self.spec.physical;
        let stats = self.opts.statistics != StatisticsLevel::None && !p.is_empty();
        let mm = &mut self.page.mm;
        let dict = if self.page.fallen_back {
            &mut Dict::Off
        } else {
            &mut self.dict
        };
        let page = &mut self.page.values;
        match source {
            Source::Bool(bits) => {
                let vals = page.bools();
                p.for_each(|i| vals.push(bits.get(i)));
                if stats && !vals.is_empty() {
                    let tail = &vals[vals.len() - p.len()..];
                    let (lo, hi) = (tail.iter().all(|&b| b), tail.iter().any(|&b| b));
                    mm.merge(order, physical, &[u8::from(lo)], &[u8::from(hi)]);
                }
                self.bloom_fixed(p, |i, out| out.push(u8::from(bits.get(i))));
            }
            Source::I32(v) => put_fixed(v, p, dict, remap, page, mm, (order, physical, stats)),
            Source::I64(v) => put_fixed(v, p, dict, remap, page, mm, (order, physical, stats)),
            Source::F32(v) => put_fixed(v, p, dict, remap, page, mm, (order, physical, stats)),
            Source::F64(v) => put_fixed(v, p, dict, remap, page, mm, (order, physical, stats)),
            _ => {
                let fixed = physical == Type::FIXED_LEN_BYTE_ARRAY;
                let mut total = 0usize;
                // Unsigned lexicographic bounds are kept in the encoding pass itself.
                let lex = stats && order == SortOrder::Bytes;
                let mut bounds = LexBounds::default();
                let seen = &mut self.seen;
                match dict {
                    Dict::Bytes(d) if remap.is_some() => {
                        let (idx, r) = (page.indices(), remap.unwrap_or_default());
                        seen.start(d.len());
                        p.for_each(|i| {
                            let v = source.bytes(i);
                            total += v.len();
                            if lex && seen.first(r[i]) {
                                bounds.see(v);
                            }
                            idx.push(r[i]);
                        });
                    }
                    // The bounds take each distinct value of the batch once.
                    Dict::Bytes(d) => {
                        let idx = page.indices();
                        seen.start(d.len() + p.len());
                        match (source, p) {
                            // Contiguous values with 32-bit offsets, read straight from them.
                            (Source::Bytes32 { offsets, data }, Present::Range(r)) => {
                                let o = &offsets[r.start..=r.end];
                                idx.reserve(r.len());
                                d.intern_offsets(data, o, |k, v| {
                                    if lex && seen.first(k) {
                                        bounds.see(v);
                                    }
                                    idx.push(k);
                                });
                                total += (o[o.len() - 1] - o[0]) as usize;
                            }
                            // Listed positions (nested leaves, nulls) of 32-bit offsets.
                            (Source::Bytes32 { offsets, data }, Present::List(l)) => {
                                idx.reserve(l.len());
                                d.intern_positions(data, offsets, l, |k, v| {
                                    total += v.len();
                                    if lex && seen.first(k) {
                                        bounds.see(v);
                                    }
                                    idx.push(k);
                                });
                            }
                            _ => p.for_each(|i| {
                                let v = source.bytes(i);
                                total += v.len();
                                let k = d.intern(v);
                                if lex && seen.first(k) {
                                    bounds.see(v);
                                }
                                idx.push(k);
                            }),
                        }
                    }
                    _ => {
                        let out = page.plain();
                        match (source, p) {
                            // Contiguous fixed-size values: their bytes are the PLAIN page's.
                            (Source::Fixed { data, width }, Present::Range(r)) => {
                                let values = &data[r.start * width..r.end * width];
                                out.extend_from_slice(values);
                                if lex {
                                    values.chunks_exact(width).for_each(|v| bounds.see(v));
                                }
                            }
                            // The common cases: values with 32-bit offsets, read straight from
                            // the offsets, contiguous or listed (nested leaves, nulls).
                            (Source::Bytes32 { offsets, data }, Present::Range(r)) if !fixed => {
                                let o = &offsets[r.start..=r.end];
                                total += if lex {
                                    plain::encode_offset_run(data, o, out, |v| bounds.see(v))
                                } else {
                                    plain::encode_offset_run(data, o, out, |_| {})
                                };
                            }
                            (Source::Bytes32 { offsets, data }, Present::List(l)) if !fixed => {
                                total += if lex {
                                    plain::encode_offset_list(data, offsets, l, out, |v| {
                                        bounds.see(v)
                                    })
                                } else {
                                    plain::encode_offset_list(data, offsets, l, out, |_| {})
                                };
                            }
                            _ => p.for_each(|i| {
                                let v = source.bytes(i);
                                total += v.len();
                                if lex {
                                    bounds.see(v);
                                }
                                if !fixed {
                                    out.extend_from_slice(&(v.len() as u32).to_le_bytes());
                                }
                                out.extend_from_slice(v);
                            }),
                        }
                    }
                }
                if !fixed {
                    self.byte_array_bytes += total as i64;
                }
                if let Some((lo, hi)) = bounds.get() {
                    mm.merge(order, physical, lo, hi);
                } else if let (
                    true,
                    SortOrder::Decimal,
                    Source::Fixed { data, width },
                    Present::Range(r),
                ) = (stats, order, source, p)
                {
                    let values = &data[r.start * width..r.end * width];
                    write_stats::fold_fixed_decimals(mm, physical, values, width);
                } else if stats && order == SortOrder::Decimal {
                    write_stats::fold_decimals(mm, physical, |see| {
                        p.for_each(|i| see(source.bytes(i)))
                    });
                } else if stats && !lex {
                    let mut vals = Vec::with_capacity(p.len());
                    p.for_each(|i| vals.push(source.bytes(i)));
                    write_stats::fold_bytes(mm, order, physical, vals);
                }
                if let Some(b) = &mut self.bloom {
                    p.for_each(|i| b.insert(hash_bytes(source.bytes(i))));
                }
                return Ok(());
            }
        }
        match source {
            Source::I32(v) => {
                self.bloom_fixed(p, |i, out| out.extend_from_slice(&v[i].to_le_bytes()))
            }
            Source::I64(v) => {
                self.bloom_fixed(p, |i, out| out.extend_from_slice(&v[i].to_le_bytes()))
            }
            Source::F32(v) => {
                self.bloom_fixed(p, |i, out| out.extend_from_slice(&v[i].to_le_bytes()))
            }
            Source::F64(v) => {
                self.bloom_fixed(p, |i, out| out.extend_from_slice(&v[i].to_le_bytes()))
            }
            _ => {}
        }
        Ok(())
    }

    /// Inserts the hash of each present value's PLAIN encoding (`enc` appends it).
    fn bloom_fixed(&mut self, p: &Present<'_>, enc: impl Fn(usize, &mut Vec<u8>)) {
        let Some(b) = &mut self.bloom else { return };
        let mut buf = Vec::with_capacity(8);
        p.for_each(|i| {
            buf.clear();
            enc(i, &mut buf);
            b.insert(hash_bytes(&buf));
        });
    }

    /// Writes the page being built.
    fn flush_page(&mut self) -> Result<()> {
        if self.page.num_values == 0 {
            return Ok(());
        }
        let dict_len = self.dictionary_encoding().then(|| self.dict.len());
        self.dict_pages |= dict_len.is_some();
        if dict_len.is_some() && self.opts.distinct_count {
            self.used.mark(self.page.values.indices());
        }
        let fixed_width = self.spec.type_length.unwrap_or(0) as usize;
        let (num_values, num_nulls, num_rows) = (
            self.page.num_values,
            self.page.num_nulls,
            self.page.num_rows,
        );
        let encoded = self.page.encode(
            self.spec.physical,
            fixed_width,
            dict_len,
            self.opts.encoding,
            self.opts.choose_encoding,
        )?;
        let PageValues {
            encoding,
            rep,
            def,
            values,
        } = encoded;
        let page = DataPage {
            num_values,
            num_nulls,
            num_rows,
            encoding,
            rep,
            def,
            values,
            statistics: None,
        };
        let offset = self.data.len() as u64;
        let written = match self.opts.page_version {
            PageVersion::V1 => self.pages.data_v1(&page, &mut self.data)?,
            PageVersion::V2 => self.pages.data_v2(&page, &mut self.data)?,
        };
        let page_type = match self.opts.page_version {
            PageVersion::V1 => PageType::DATA_PAGE,
            PageVersion::V2 => PageType::DATA_PAGE_V2,
        };
        self.record_page(page_type, encoding, written);
        self.places.push(PagePlace {
            offset,
            size: written.stored_len() as u32,
            first_row: self.rows - self.page.num_rows as u64,
        });
        self.finish_page_stats();
        self.page.reset();
        Ok(())
    }

    /// Whether the page being built is dictionary-encoded.
    fn dictionary_encoding(&self) -> bool {
        !matches!(self.dict, Dict::Off) && !self.page.fallen_back
    }

    fn record_page(&mut self, page_type: PageType, encoding: Encoding, w: WrittenPage) {
        self.uncompressed += (w.header_len + w.uncompressed_len) as u64;
        if !self.encodings.contains(&encoding) {
            self.encodings.push(encoding);
        }
        match self
            .enc_stats
            .iter_mut()
            .find(|s| s.page_type == page_type && s.encoding == encoding)
        {
            Some(s) => s.count += 1,
            None => self.enc_stats.push(PageEncodingStats {
                page_type,
                encoding,
                count: 1,
            }),
        }
    }

    fn finish_page_stats(&mut self) {
        let order = self.spec.sort_order;
        let physical = self.spec.physical;
        self.chunk_mm.merge_from(order, physical, &self.page.mm);
        self.chunk_nulls += self.page.num_nulls as u64;
        for (c, p) in self.def_hist.iter_mut().zip(&self.page.def_hist) {
            *c += p;
        }
        for (c, p) in self.rep_hist.iter_mut().zip(&self.page.rep_hist) {
            *c += p;
        }
        if self.opts.statistics != StatisticsLevel::Page {
            return;
        }
        let utf8 = self.utf8;
        let limit = self.opts.truncate_length;
        let bounds = self.page.mm.bounds.as_ref().map(|(lo, hi)| {
            let (lo, hi, _, _) = write_stats::truncate(lo, hi, limit, utf8);
            (lo, hi)
        });
        let only_nan = bounds.is_none() && self.page.num_nulls < self.page.num_values;
        self.page_stats.push(PageStats {
            bounds,
            null_count: self.page.num_nulls as u64,
            only_nan,
            def_histogram: self.page.def_hist.clone(),
            rep_histogram: self.page.rep_hist.clone(),
        });
    }

    /// Writes the last page and the dictionary page; the chunk is done.
    pub fn finish(mut self) -> Result<EncodedChunk> {
        self.flush_page()?;
        let mut dictionary_page = Vec::new();
        if self.dict_pages {
            let fixed = self.spec.physical == Type::FIXED_LEN_BYTE_ARRAY;
            let mut plain = Vec::with_capacity(self.dict.plain_size(fixed));
            self.dict.plain(fixed, &mut plain);
            let w = self
                .pages
                .dictionary(self.dict.len(), &plain, &mut dictionary_page)?;
            self.record_page(PageType::DICTIONARY_PAGE, Encoding::PLAIN, w);
        }
        let mut encodings = vec![Encoding::RLE];
        encodings.extend(
            self.encodings
                .iter()
                .copied()
                .filter(|e| *e != Encoding::RLE),
        );
        // The dictionary page's entry first, as other writers list it.
        self.enc_stats
            .sort_by_key(|s| s.page_type != PageType::DICTIONARY_PAGE);
        let statistics = (self.opts.statistics != StatisticsLevel::None).then(|| {
            let bounds = self
                .chunk_mm
                .bounds
                .as_ref()
                .map(|(lo, hi)| write_stats::truncate(lo, hi, CHUNK_STATS_LIMIT, self.utf8));
            (bounds, self.chunk_nulls)
        });
        let distinct_count = self.distinct_count();
        Ok(EncodedChunk {
            dictionary_room: self.dict.room(),
            dictionary_entries: if self.dict_pages { self.dict.len() } else { 0 }
                .saturating_add(self.plain_dictionary_values),
            distinct_count,
            dictionary_page,
            data_pages: self.data,
            num_values: self.values,
            total_uncompressed: self.uncompressed,
            encodings,
            encoding_stats: self.enc_stats,
            statistics,
            pages: self.places,
            page_stats: self.page_stats,
            unencoded_byte_array_bytes: (self.spec.physical == Type::BYTE_ARRAY)
                .then_some(self.byte_array_bytes),
            def_histogram: self.def_hist,
            rep_histogram: self.rep_hist,
            bloom: self.bloom,
        })
    }

    /// The distinct non-null values of a chunk whose every data page is dictionary-encoded,
    /// when asked for (and statistics are written).
    fn distinct_count(&self) -> Option<u64> {
        let exact = self.dict_pages
            && (self.enc_stats.iter()).all(|s| {
                s.page_type == PageType::DICTIONARY_PAGE || s.encoding == Encoding::RLE_DICTIONARY
            });
        if !self.opts.distinct_count || !exact || self.opts.statistics == StatisticsLevel::None {
            return None;
        }
        let mut c = DistinctCounter::default();
        let (physical, order) = (self.spec.physical, self.spec.sort_order);
        self.dict
            .for_each_used(&self.used, |v| c.see(physical, order, v));
        Some(c.count())
    }

    /// The leaf this writes.
    pub fn spec(&self) -> &LeafSpec {
        &self.spec
    }
}

/// Puts dense fixed-width values: dictionary indices (through `remap` when the positions are
/// a dictionary array's values) or PLAIN bytes, and the page's bounds.
/// Adds to `hist[k]` the number of levels equal to `k` (every level is below `hist.len()`, as
/// the shredder makes them). Incrementing a counter per level would chain each increment on
/// the last store of the same counter (runs of equal levels are the rule); instead each level
/// value but the greatest is counted in a pass of its own that compiles to vector compares,
/// and the greatest takes what remains.
fn add_histogram(levels: &[i16], hist: &mut [i64]) {
    let Some((top, lower)) = hist.split_last_mut() else {
        return;
    };
    if lower.len() > 8 {
        for &l in levels {
            hist[l as usize] += 1;
        }
        return;
    }
    let mut rest = levels.len() as i64;
    for (k, h) in lower.iter_mut().enumerate() {
        let k = k as i16;
        let count: u64 = levels
            .chunks(1 << 16)
            .map(|c| u64::from(c.iter().map(|&l| u32::from(l == k)).sum::<u32>()))
            .sum();
        *h += count as i64;
        rest -= count as i64;
    }
    *top += rest;
}

fn put_fixed<T: write_stats::StatNative + Copy>(
    v: &[T],
    p: &Present<'_>,
    dict: &mut Dict,
    remap: Option<&[u32]>,
    page: &mut super::column_pages::ValueBuf,
    mm: &mut MinMax,
    (order, physical, stats): (SortOrder, Type, bool),
) {
    let mut gathered = Vec::new();
    let dense: &[T] = match p {
        Present::Range(r) => &v[r.clone()],
        Present::List(l) => {
            gathered.reserve(l.len());
            gathered.extend(l.iter().map(|&i| v[i as usize]));
            &gathered
        }
    };
    if stats {
        write_stats::fold_fixed(mm, order, physical, dense);
    }
    if let (Some(r), Dict::W4(_) | Dict::W8(_)) = (remap, &dict) {
        let idx = page.indices();
        p.for_each(|i| idx.push(r[i]));
        return;
    }
    match dict {
        Dict::W4(d) => d.intern_all(bytemuck::cast_slice(dense), page.indices()),
        Dict::W8(d) => d.intern_all(bytemuck::cast_slice(dense), page.indices()),
        _ => page.plain().extend_from_slice(bytemuck::cast_slice(dense)),
    }
}

#[cfg(test)]
mod histogram_tests {
    use super::add_histogram;

    /// The counting passes give the naive per-level counts, added to what the histogram held,
    /// for every maximum level from 0 to 12 (past 8 the plain loop) and runs or noise.
    #[test]
    fn level_histograms_are_the_naive_counts() {
        let noise = crate::encoding::test_util::noise(3, 70_000);
        for max in 0..=12usize {
            for runs in [false, true] {
                let levels: Vec<i16> = noise
                    .iter()
                    .enumerate()
                    .map(|(i, &b)| {
                        let b = if runs { noise[i / 37 * 37] } else { b };
                        (b as usize % (max + 1)) as i16
                    })
                    .collect();
                let mut want = vec![5i64; max + 1];
                for &l in &levels {
                    want[l as usize] += 1;
                }
                let mut got = vec![5i64; max + 1];
                add_histogram(&levels, &mut got);
                assert_eq!(got, want, "max {max}, runs {runs}");
            }
        }
        add_histogram(&[], &mut []);
    }
}
