//! A leaf column chunk decoded a batch of records at a time ([`ColumnStream`]): each batch is
//! its non-null values, densely, in the physical type's layout ([`Dense`]), and its levels
//! ([`LeafLevels`]): none for a required flat column, validity bits (decoded run by run) for a
//! flat column with one optional node, full levels otherwise.
//!
//! Nothing is decoded ahead of the batch asked for: pages are read one at a time, and a page's
//! levels and values are decoded as far as the batch needs (the decoders' positions are kept
//! between batches), so memory stays bounded by the batch however many values a page or a
//! chunk declares. A record of a repeated column may span pages; the levels decoded past the
//! batch's last record are carried to the next batch.

pub use super::dense::Dense;
use super::page_state::{At, LevelCursor, span};
use super::values::{Dict, PageValues, Scratch};
use crate::codec::Decompressor;
use crate::encoding::byte_array::{ByteArraySink, FlexOffsets};
use crate::format::{ColumnMetaData, Encoding};
use crate::levels::LevelEncoding;
use crate::page::{ChunkBytes, Page, PageContext, PageCursor, PageReader, StoredPage, decode_page};
use crate::schema::ColumnDescriptor;
use quiver_arrow::buffer::MutableBitmap;
use quiver_arrow::{Error, Result};

/// A leaf column chunk's levels.
#[derive(Debug)]
pub enum LeafLevels {
    /// No levels: a required column outside any list; `len` values.
    None {
        /// Rows (and values).
        len: usize,
    },
    /// One optional node and no repetition: the validity of that node's slots.
    Validity(MutableBitmap),
    /// Full definition and repetition levels (`rep` empty without repetition).
    Full {
        /// Definition levels.
        def: Vec<i16>,
        /// Repetition levels.
        rep: Vec<i16>,
    },
}

/// A run of records of a leaf column, decoded.
#[derive(Debug)]
pub struct LeafChunk {
    /// Non-null values.
    pub dense: Dense,
    /// Levels.
    pub levels: LeafLevels,
    /// Every byte-array value in `dense` is UTF-8, known without a check of its own: each is
    /// a copy of an entry of a dictionary whose entries were checked when it was decoded.
    /// `false` tells nothing (the values are checked where a UTF-8 type needs it).
    pub utf8: bool,
}

impl LeafChunk {
    /// The number of records (rows) it holds.
    pub fn records(&self) -> usize {
        match &self.levels {
            LeafLevels::None { len } => *len,
            LeafLevels::Validity(bits) => bits.len(),
            LeafLevels::Full { def, rep } if rep.is_empty() => def.len(),
            LeafLevels::Full { rep, .. } => rep.iter().filter(|&&r| r == 0).count(),
        }
    }
}

/// Options of chunk decoding.
#[derive(Debug, Clone, Copy)]
pub struct ChunkOptions {
    /// Verify page CRCs.
    pub verify_crc: bool,
    /// Treat the values of data pages v2 as compressed whatever their `is_compressed` says
    /// ([`PageContext::v2_always_compressed`]).
    pub v2_always_compressed: bool,
    /// The column is read as Decimal128: FIXED_LEN_BYTE_ARRAY decimals are widened as they
    /// are decoded ([`Dense::Decimal128`]).
    pub decimal128: bool,
}

/// The data page being decoded.
#[derive(Debug)]
struct DataPage {
    /// Level entries (values and nulls) not decoded yet.
    left: usize,
    rep: LevelCursor,
    def: LevelCursor,
    values_at: At,
    values: PageValues,
}

/// What [`ColumnStream::load`] found.
enum Loaded {
    /// The chunk's pages are all read.
    End,
    /// A page whose values went straight into the batch: this many.
    Bare(usize),
    /// A data page, now the current page.
    Page,
}

/// Entries decoded at least per step of a repeated column (levels decoded past the batch's last
/// record are carried to the next batch: at most this many).
const MIN_STEP: usize = 1024;

/// One leaf column chunk, decoded a batch of records at a time ([`ColumnStream::next`]).
pub struct ColumnStream<'c> {
    descr: &'c ColumnDescriptor<'c>,
    cx: PageContext,
    chunk: ChunkBytes<'c>,
    pages: PageCursor,
    dict: Option<Dict>,
    page: Option<DataPage>,
    /// The current page decompressed (when it is stored compressed).
    buf: Vec<u8>,
    /// Levels of the current page decoded past the last batch's end, and how far they are used.
    carry_def: Vec<i16>,
    carry_rep: Vec<i16>,
    carry_at: usize,
    scratch: Scratch,
    /// [`ChunkOptions::decimal128`].
    decimal128: bool,
    /// The previous batch's records, values, value bytes (byte arrays) and level entries: the
    /// room the next batch reserves where the records alone do not say it (repeated columns,
    /// byte arrays).
    last: (usize, usize, usize, usize),
}

impl<'c> ColumnStream<'c> {
    /// A stream over the column chunk `chunk` (from its first page to its end) of column
    /// `descr`, whose metadata is `meta`.
    pub fn new(
        chunk: ChunkBytes<'c>,
        meta: &ColumnMetaData<'_>,
        descr: &'c ColumnDescriptor,
        options: ChunkOptions,
    ) -> Result<Self> {
        let cx = PageContext {
            codec: crate::page::codec(meta.codec)?,
            max_def: descr.max_def(),
            max_rep: descr.max_rep(),
            verify_crc: options.verify_crc,
            v2_always_compressed: options.v2_always_compressed,
        };
        let pages = PageReader::new(&chunk, meta.num_values, meta.total_uncompressed_size).cursor();
        Ok(ColumnStream {
            descr,
            cx,
            chunk,
            pages,
            dict: None,
            page: None,
            buf: Vec::new(),
            carry_def: Vec::new(),
            carry_rep: Vec::new(),
            carry_at: 0,
            scratch: Scratch::default(),
            decimal128: options.decimal128,
            last: (0, 0, 0, 0),
        })
    }

    /// An empty batch, with room for `records` records of a column without repetition.
    fn empty(&self, records: usize) -> Result<LeafChunk> {
        let mut dense =
            Dense::for_target(self.descr.physical, self.descr.type_length, self.decimal128)?;
        let flat = self.cx.max_rep == 0;
        if flat {
            match &mut dense {
                Dense::Fixed { width, data } => data.try_reserve(records.saturating_mul(*width))?,
                Dense::Decimal128 { data, .. } => data.try_reserve(records.saturating_mul(16))?,
                Dense::Bool(bits) => bits.try_reserve(records)?,
                Dense::Bytes(FlexOffsets::Narrow(s)) => s.offsets.try_reserve(records * 4 + 4)?,
                Dense::Bytes(_) => {}
            }
        }
        // As many values and value bytes per record as the previous batch had, an eighth more:
        // the buffers are not grown (and copied) batch after batch. Only capacity: pages never
        // written are never faulted in.
        let (last_records, last_values, last_bytes, last_entries) = self.last;
        // `n` of the previous batch scaled to `records`, an eighth more (0 before any batch).
        let like_last = |n: usize| {
            let n = n
                .saturating_mul(records)
                .checked_div(last_records)
                .unwrap_or(0);
            n.saturating_add(n / 8)
        };
        if last_records > 0 {
            match &mut dense {
                Dense::Fixed { width, data } if !flat => {
                    data.try_reserve(like_last(last_values).saturating_mul(*width))?
                }
                Dense::Decimal128 { data, .. } if !flat => {
                    data.try_reserve(like_last(last_values).saturating_mul(16))?
                }
                Dense::Bytes(sink) => {
                    // Bounded far below 2 GiB, where the sink would move to 64-bit offsets.
                    let values = if flat { 0 } else { like_last(last_values) };
                    sink.reserve(values, like_last(last_bytes).min(1 << 30))?
                }
                _ => {}
            }
        }
        let levels = match (self.cx.max_rep, self.cx.max_def) {
            (0, 0) => LeafLevels::None { len: 0 },
            (0, 1) => LeafLevels::Validity(MutableBitmap::with_capacity(records)),
            _ => {
                // A repeated column's level entries per record as in the previous batch, so
                // that the levels are not grown and copied as they decode.
                let entries = if flat {
                    records
                } else {
                    like_last(last_entries)
                };
                let refused = |n: usize| {
                    move |_| Error::invalid(format!("cannot allocate {n} level entries"))
                };
                let mut def = Vec::new();
                def.try_reserve(entries).map_err(refused(entries))?;
                let mut rep = Vec::new();
                let reps = if flat { 0 } else { entries };
                rep.try_reserve(reps).map_err(refused(reps))?;
                LeafLevels::Full { def, rep }
            }
        };
        Ok(LeafChunk {
            dense,
            levels,
            utf8: true,
        })
    }

    /// Decodes the next `records` records (rows); fewer only when the chunk ends. Returns
    /// them and how many there are.
    pub fn next(
        &mut self,
        records: usize,
        decompressor: &mut Decompressor,
    ) -> Result<(LeafChunk, usize)> {
        let mut out = self.empty(records)?;
        let got = if self.cx.max_rep == 0 {
            self.flat(records, &mut out, decompressor)?
        } else {
            self.repeated(records, &mut out, decompressor)?
        };
        let bytes = match &out.dense {
            Dense::Bytes(s) => s.value_bytes(),
            _ => 0,
        };
        let entries = match &out.levels {
            LeafLevels::Full { def, .. } => def.len(),
            _ => 0,
        };
        self.last = (got, out.dense.len(), bytes, entries);
        Ok((out, got))
    }

    fn at_page(&self) -> impl Fn(Error) -> Error + use<> {
        let index = self.pages.index().saturating_sub(1);
        move |e: Error| e.context(format!("page {index}"))
    }

    /// A column without repetition: a record is a level entry.
    fn flat(&mut self, want: usize, out: &mut LeafChunk, dec: &mut Decompressor) -> Result<usize> {
        let mut got = 0;
        while got < want {
            if self.page.as_ref().is_none_or(|p| p.left == 0) {
                match self.load(want - got, Some(&mut *out), dec)? {
                    Loaded::End => break,
                    Loaded::Bare(n) => got += n,
                    Loaded::Page => {}
                }
                continue;
            }
            let at = self.at_page();
            let ColumnStream {
                chunk,
                buf,
                page,
                dict,
                scratch,
                cx,
                ..
            } = self;
            let page = page
                .as_mut()
                .ok_or_else(|| Error::invalid("no current page"))?;
            let m = (want - got).min(page.left);
            let present = match &mut out.levels {
                LeafLevels::None { len } => {
                    *len += m;
                    m
                }
                LeafLevels::Validity(bits) => page
                    .def
                    .take_validity(m, bits, chunk, buf)
                    .map_err(|e| at(e.context("definition levels")))?,
                LeafLevels::Full { def, .. } => {
                    let start = def.len();
                    def.resize(start + m, 0);
                    page.def
                        .take(cx.max_def, &mut def[start..], chunk, buf)
                        .map_err(|e| at(e.context("definition levels")))?;
                    def[start..].iter().filter(|&&d| d == cx.max_def).count()
                }
            };
            page.left -= m;
            got += m;
            let src = page.values_at.get(chunk, buf);
            out.utf8 &= page
                .values
                .take(src, present, dict.as_ref(), &mut out.dense, scratch)
                .map_err(at)?;
        }
        Ok(got)
    }

    /// A column with repetition: a record starts at each repetition level 0; the batch ends
    /// before the record after its last, or where the chunk ends.
    fn repeated(
        &mut self,
        want: usize,
        out: &mut LeafChunk,
        dec: &mut Decompressor,
    ) -> Result<usize> {
        let LeafLevels::Full { def, rep } = &mut out.levels else {
            return Err(Error::invalid("a repeated column without full levels"));
        };
        let mut started = 0;
        loop {
            let from = def.len();
            let cut;
            if self.carry_at < self.carry_def.len() {
                let (take, stop) = scan(&self.carry_rep[self.carry_at..], &mut started, want);
                let range = self.carry_at..self.carry_at + take;
                def.extend_from_slice(&self.carry_def[range.clone()]);
                rep.extend_from_slice(&self.carry_rep[range]);
                self.carry_at += take;
                cut = stop;
            } else {
                if self.page.as_ref().is_none_or(|p| p.left == 0) {
                    match self.load(0, None, dec)? {
                        Loaded::End => return Ok(started),
                        _ => continue,
                    }
                }
                let at = self.at_page();
                let ColumnStream {
                    chunk,
                    buf,
                    page,
                    cx,
                    ..
                } = self;
                let page = page
                    .as_mut()
                    .ok_or_else(|| Error::invalid("no current page"))?;
                let step = want.saturating_sub(started).max(MIN_STEP).min(page.left);
                def.resize(from + step, 0);
                rep.resize(from + step, 0);
                page.rep
                    .take(cx.max_rep, &mut rep[from..], chunk, buf)
                    .map_err(|e| at(e.context("repetition levels")))?;
                page.def
                    .take(cx.max_def, &mut def[from..], chunk, buf)
                    .map_err(|e| at(e.context("definition levels")))?;
                page.left -= step;
                let (take, stop) = scan(&rep[from..], &mut started, want);
                self.carry_def.clear();
                self.carry_rep.clear();
                self.carry_def.extend_from_slice(&def[from + take..]);
                self.carry_rep.extend_from_slice(&rep[from + take..]);
                self.carry_at = 0;
                def.truncate(from + take);
                rep.truncate(from + take);
                cut = stop;
            }
            let max_def = self.cx.max_def;
            let present = def[from..].iter().filter(|&&d| d == max_def).count();
            let at = self.at_page();
            let ColumnStream {
                chunk,
                buf,
                page,
                dict,
                scratch,
                ..
            } = self;
            if present > 0 {
                let page = page
                    .as_mut()
                    .ok_or_else(|| Error::invalid("no current page"))?;
                let src = page.values_at.get(chunk, buf);
                out.utf8 &= page
                    .values
                    .take(src, present, dict.as_ref(), &mut out.dense, scratch)
                    .map_err(at)?;
            }
            if cut {
                return Ok(started);
            }
        }
    }

    /// Reads pages up to the next data page: a dictionary page is decoded and kept; a page of
    /// at most `room` PLAIN values of a column without levels is decompressed straight into
    /// `bare`'s values; any other data page becomes the current page.
    fn load(
        &mut self,
        room: usize,
        bare: Option<&mut LeafChunk>,
        dec: &mut Decompressor,
    ) -> Result<Loaded> {
        self.page = None;
        let mut bare = bare;
        loop {
            let mut reader = PageReader::resume(&self.chunk, self.pages);
            let stored = reader.next_page()?;
            self.pages = reader.cursor();
            let Some(stored) = stored else {
                return Ok(Loaded::End);
            };
            let at = self.at_page();
            if let Some(out) = bare.as_deref_mut()
                && let Some(n) = straight(&stored, &self.cx, room, out, dec).map_err(&at)?
            {
                return Ok(Loaded::Bare(n));
            }
            let page = decode_page(&stored, &self.cx, dec, &mut self.buf).map_err(&at)?;
            let (n, encoding, parts) = match page {
                Page::Dictionary {
                    values,
                    num_values,
                    encoding,
                } => {
                    let dict =
                        Dict::decode(self.descr, values, num_values, encoding, self.decimal128)
                            .map_err(|e| at(e.context("dictionary")))?;
                    self.dict = Some(dict);
                    continue;
                }
                Page::Data {
                    num_values,
                    encoding,
                    rep,
                    def,
                    values,
                } => (
                    num_values,
                    encoding,
                    [
                        (span(rep.data), rep.encoding),
                        (span(def.data), def.encoding),
                        (span(values), LevelEncoding::Rle),
                    ],
                ),
            };
            let (chunk, buf) = (&self.chunk[..], &self.buf[..]);
            let place = |i: usize| At::of(parts[i].0, chunk, buf);
            let (rep_at, def_at, values_at) = (place(0)?, place(1)?, place(2)?);
            let cursor = |at: At, i: usize, max: i16| {
                let bytes = at.get(chunk, buf);
                LevelCursor::new(at.clone(), parts[i].1, max, n, bytes)
            };
            let rep = cursor(rep_at, 0, self.cx.max_rep)
                .map_err(|e| at(e.context("repetition levels")))?;
            let def = cursor(def_at, 1, self.cx.max_def)
                .map_err(|e| at(e.context("definition levels")))?;
            let mut values = PageValues::new(encoding);
            if values.needs_whole() {
                let present = def
                    .count(self.cx.max_def, n, chunk, buf)
                    .map_err(|e| at(e.context("definition levels")))?;
                values
                    .decode_whole(
                        self.descr,
                        values_at.get(chunk, buf),
                        present,
                        &mut self.scratch,
                    )
                    .map_err(&at)?;
            }
            self.page = Some(DataPage {
                left: n,
                rep,
                def,
                values_at,
                values,
            });
            return Ok(Loaded::Page);
        }
    }
}

/// Of the level entries whose repetition levels are `rep`, how many belong to the batch, which
/// has `started` of its `want` records so far: stops before the start of a record past the
/// last. Returns the entries taken and whether it stopped.
fn scan(rep: &[i16], started: &mut usize, want: usize) -> (usize, bool) {
    let mut at = 0;
    // Whole blocks whose record starts all belong to the batch, counted without a branch per
    // entry; the block where the batch ends is walked entry by entry.
    for block in rep.chunks(64) {
        let starts = block.iter().filter(|&&r| r == 0).count();
        if *started + starts <= want {
            // No start in the block is past the batch's last record.
            *started += starts;
            at += block.len();
            continue;
        }
        for (i, &r) in block.iter().enumerate() {
            if r == 0 {
                if *started == want {
                    return (at + i, true);
                }
                *started += 1;
            }
        }
        at += block.len();
    }
    (rep.len(), false)
}

/// Decompresses a page of at most `room` PLAIN fixed-width values of a column without levels
/// straight into `out`'s values (no scratch, no copy); `None` (nothing done) for any other page.
fn straight(
    stored: &StoredPage<'_>,
    cx: &PageContext,
    room: usize,
    out: &mut LeafChunk,
    dec: &mut Decompressor,
) -> Result<Option<usize>> {
    let (LeafLevels::None { len }, Dense::Fixed { width, data }) =
        (&mut out.levels, &mut out.dense)
    else {
        return Ok(None);
    };
    let Some(b) = crate::page::bare_values(stored, cx) else {
        return Ok(None);
    };
    if b.encoding != Encoding::PLAIN
        || b.uncompressed == 0
        || b.num_values > room
        || b.num_values.checked_mul(*width) != Some(b.uncompressed)
    {
        return Ok(None);
    }
    crate::page::check_crc(stored, cx)?;
    let start = data.len();
    data.try_reserve_to_fill(b.uncompressed)?;
    // Zeros in fresh capacity cost no writes; the codec overwrites them.
    data.resize(start + b.uncompressed);
    if let Err(e) = b.decompress_into(cx, dec, &mut data.as_mut_slice()[start..]) {
        data.truncate(start);
        return Err(e.context("PLAIN values"));
    }
    *len += b.num_values;
    Ok(Some(b.num_values))
}

#[cfg(test)]
mod tests {
    use super::scan;
    use crate::encoding::test_util::Rng;

    /// `scan` against a walk entry by entry, for random levels, batch sizes and starting counts.
    #[test]
    fn scan_stops_before_the_record_past_the_batch() {
        let mut rng = Rng::new(7);
        for _ in 0..2000 {
            let len = rng.below(300) as usize;
            let zeros = 1 + rng.below(4);
            let rep: Vec<i16> = (0..len)
                .map(|_| if rng.below(zeros) == 0 { 0 } else { 1 })
                .collect();
            let want = rng.below(80) as usize;
            let before = rng.below(want as u64 + 1) as usize;
            let (mut naive_started, mut naive) = (before, (rep.len(), false));
            for (i, &r) in rep.iter().enumerate() {
                if r == 0 {
                    if naive_started == want {
                        naive = (i, true);
                        break;
                    }
                    naive_started += 1;
                }
            }
            let mut started = before;
            assert_eq!(scan(&rep, &mut started, want), naive);
            assert_eq!(started, naive_started);
        }
    }
}
