//! One output column chunk from its pieces (the same column of one or more input row groups,
//! in order): the pages of every piece, copied as they are stored wherever possible.
//!
//! A page is copied byte for byte unless its bytes must change: it is re-compressed when its
//! input used another codec than the chunk's (the first piece's), its dictionary indices are
//! mapped when its dictionary was merged into another ([`super::dict`]), and it is written
//! PLAIN when the merged dictionary would pass the limit. Consecutive copied pages are one
//! range of the input. An input that lacks the column gets one page of nulls for its rows.
//!
//! The pieces' Bloom filters are united when they are of one size; otherwise (sizes that
//! differ, a piece without a filter) the chunk's filter
//! is rebuilt from its values, sized for their distinct values at 1% false positives (and no
//! smaller than the largest piece's): dictionary entries and the decoded values of the other
//! pages hashed, the pages themselves still copied.

use super::convert::{Conversion, Layout, Storage};
use super::dict::{Mapping, MergedDictionary, entries};
use super::meta::{MetaAcc, PieceMeta};
use super::pages::{
    Hashes, MaxLevels, Rewriter, Values, is_delta_byte_array, is_dictionary_encoded, value_encoding,
};
use super::{Cx, PageCounts};
use crate::bloom::Sbbf;
use crate::codec::Codec;
use crate::format::{
    ColumnChunk, ColumnIndex, ColumnMetaData, Encoding, OffsetIndex, PageEncodingStats, PageType,
};
use crate::metadata::chunk_byte_range;
use crate::page::{PageContext, PageReader, StoredPage, check_crc, codec};
use quiver_arrow::{Error, Result};

/// The most bytes old parquet-mr left out of a chunk's size (PARQUET-816): its dictionary
/// page header.
const MAX_DICTIONARY_HEADER: u64 = 100;

/// One input row group's part of an output chunk.
#[derive(Debug, Clone, Copy)]
pub(super) struct Piece {
    /// The input.
    pub input: usize,
    /// Its row group.
    pub row_group: usize,
    /// The row group's rows.
    pub rows: u64,
    /// The input's leaf for the column (`None`: the input lacks it).
    pub leaf: Option<usize>,
}

/// A part of an output chunk's bytes.
#[derive(Debug)]
pub(super) enum Part {
    /// Bytes `start..start + len` of an input, copied.
    Copy {
        /// The input.
        input: usize,
        /// Where in it.
        start: u64,
        /// How many bytes.
        len: u64,
    },
    /// Bytes written anew.
    Bytes(Vec<u8>),
}

impl Part {
    fn len(&self) -> u64 {
        match self {
            Part::Copy { len, .. } => *len,
            Part::Bytes(b) => b.len() as u64,
        }
    }
}

/// A data page of an output chunk.
#[derive(Debug, Clone, Copy)]
pub(super) struct OutPage {
    /// Where it starts, from the chunk's start.
    pub offset: u64,
    /// Its bytes, header included.
    pub len: u64,
    /// Its first row in the row group, when known.
    pub first_row: Option<i64>,
    /// Its byte-array values' unencoded bytes (from the input's offset index), when known.
    pub unencoded: Option<i64>,
}

/// An output column chunk, ready to be placed.
#[derive(Debug)]
pub(super) struct ChunkOut<'a> {
    /// Its bytes, in order.
    pub parts: Vec<Part>,
    /// Whether it starts with a dictionary page.
    pub dictionary: bool,
    /// Its codec.
    pub codec: Codec,
    /// Level entries of its data pages.
    pub num_values: i64,
    /// Its pages' bytes once decompressed, headers included.
    pub total_uncompressed: i64,
    /// Its data pages.
    pub pages: Vec<OutPage>,
    /// Pages by type and encoding.
    pub encoding_stats: Vec<PageEncodingStats>,
    /// The merged metadata.
    pub acc: MetaAcc<'a>,
    /// The first piece's geospatial statistics, when it is the only piece.
    pub geo: Option<crate::format::GeospatialStatistics>,
    /// What was done to its pages.
    pub counts: PageCounts,
    /// Every piece had an offset index (the chunk gets one).
    pub offset_index: bool,
    /// At least its distinct values where a dictionary column reads them: the entries of its
    /// dictionary page (0 without one) plus the values of its data pages not dictionary-encoded.
    pub dictionary_entries: usize,
    /// Its Bloom filter was rebuilt from its values: its pieces' filters could not be united
    /// (sizes that differ, or a piece without one).
    pub bloom_rebuilt: bool,
}

/// A column chunk of an input, its pages read.
struct InChunk<'a> {
    chunk: ColumnChunk<'a>,
    meta: ColumnMetaData<'a>,
    /// The file offset of its first page.
    start: u64,
    /// Its bytes, to the end of its last page.
    bytes: &'a [u8],
    pages: Vec<StoredPage<'a>>,
    codec: Codec,
    /// How its decimal values convert to the output's storage, when it stores them another
    /// way ([`super::convert`]).
    convert: Option<Conversion>,
}

/// Where `page` ends in `chunk`.
fn page_end(chunk: &[u8], page: &StoredPage<'_>) -> usize {
    page.data.as_ptr() as usize - chunk.as_ptr() as usize + page.data.len()
}

/// Bytes `offset..offset + len` of an input (`len` `None`: to the end of its data), checked.
fn input_range<'a>(
    cx: &Cx<'_, 'a>,
    input: usize,
    offset: i64,
    len: Option<i32>,
) -> Result<&'a [u8]> {
    let i = &cx.inputs[input];
    let data = i.meta.data_range();
    let start = u64::try_from(offset)
        .ok()
        .filter(|&s| s >= data.start && s <= data.end);
    let end = match len {
        Some(l) => start.and_then(|s| s.checked_add(u64::try_from(l).ok()?)),
        None => Some(data.end),
    };
    match (start, end) {
        (Some(s), Some(e)) if e <= data.end && s <= e => Ok(&i.bytes[s as usize..e as usize]),
        _ => Err(Error::oos(format!(
            "bytes at {offset} of {len:?} are outside the file's data {data:?}"
        ))),
    }
}

fn open<'a>(cx: &Cx<'_, 'a>, p: &Piece, leaf: usize, out_leaf: usize) -> Result<InChunk<'a>> {
    let input = &cx.inputs[p.input];
    let chunk = input.meta.column_chunk(p.row_group, leaf)?.into_owned();
    let meta = chunk
        .meta_data
        .clone()
        .ok_or_else(|| Error::oos("the column chunk has no meta_data"))?;
    let file_len = input.meta.file_len();
    let mut range = chunk_byte_range(&chunk, file_len)?;
    if input.short_dictionary_sizes {
        range.end = (range.end + MAX_DICTIONARY_HEADER).min(file_len);
    }
    let bytes = &input.bytes[range.start as usize..range.end as usize];
    let mut reader = PageReader::new(bytes, meta.num_values, meta.total_uncompressed_size);
    let (max_def, max_rep) = cx.schema.levels[out_leaf];
    let pcx = PageContext {
        codec: codec(meta.codec)?,
        max_def,
        max_rep,
        verify_crc: true,
        v2_always_compressed: false,
    };
    let mut pages = Vec::new();
    let mut values = 0i64;
    while let Some(page) = reader.next_page()? {
        if cx.opts.verify_crc {
            check_crc(&page, &pcx).map_err(|e| e.context(format!("page {}", pages.len())))?;
        }
        if let Some(d) = &page.header.data_page_header_v2
            && input.v2_always_compressed
            && !d.values_compressed()
            && pcx.codec != Codec::Uncompressed
        {
            return Err(Error::not_supported(format!(
                "page {}: a data page v2 of a parquet-cpp before Arrow 3.0 marks its {} values \
                 uncompressed (ARROW-17100); copied, it would be read as stored: rewrite the \
                 file with `quiver convert` before merging",
                pages.len(),
                pcx.codec
            )));
        }
        values += match (
            &page.header.data_page_header,
            &page.header.data_page_header_v2,
        ) {
            (Some(d), _) if page.header.type_ == PageType::DATA_PAGE => i64::from(d.num_values),
            (_, Some(d)) if page.header.type_ == PageType::DATA_PAGE_V2 => i64::from(d.num_values),
            _ => 0,
        };
        pages.push(page);
    }
    if values != meta.num_values {
        return Err(Error::oos(format!(
            "the column chunk's pages hold {values} values, its metadata says {}",
            meta.num_values
        )));
    }
    let end = pages.last().map_or(0, |page| page_end(bytes, page));
    let column = &input.meta.schema_descr().columns()[leaf];
    let storage = |physical, width| Storage::of(physical, width);
    let convert = match (
        storage(column.physical, column.type_length),
        storage(
            cx.schema.physical[out_leaf],
            cx.schema.type_lengths[out_leaf],
        ),
    ) {
        (Some(from), Some(to)) => Conversion::between(from, to),
        _ => None,
    };
    Ok(InChunk {
        chunk,
        meta,
        start: range.start,
        bytes: &bytes[..end],
        pages,
        codec: pcx.codec,
        convert,
    })
}

/// The number of values dictionary page `page` says it holds.
fn dictionary_len(page: &StoredPage<'_>) -> usize {
    page.header
        .dictionary_page_header
        .as_ref()
        .map_or(0, |d| d.num_values.max(0) as usize)
}

/// A dictionary page's values, decompressed, and each entry's byte range in them.
type DictionaryEntries = (Vec<u8>, Vec<(usize, usize)>);

/// A piece's dictionary page values, its entries and how its indices map.
type PieceDictionary = (Vec<u8>, Vec<(usize, usize)>, Mapping);

/// Builds one output chunk.
struct Builder<'c, 'a> {
    cx: &'c Cx<'c, 'a>,
    max: MaxLevels,
    type_length: usize,
    codec: Codec,
    rewriter: Rewriter,
    dict: MergedDictionary,
    /// The first dictionary page, while the merged dictionary is still its (input, start,
    /// length, codec).
    first_dictionary: Option<(usize, u64, u64, Codec)>,
    parts: Vec<Part>,
    /// Bytes of the parts so far.
    pos: u64,
    pages: Vec<OutPage>,
    encoding_stats: Vec<PageEncodingStats>,
    num_values: i64,
    uncompressed: i64,
    acc: MetaAcc<'a>,
    counts: PageCounts,
    offset_index: bool,
    rows_before: i64,
    /// A data page not dictionary-encoded was written: later ones may not be.
    plain_written: bool,
    /// Values (nulls included) of the data pages written not dictionary-encoded.
    plain_values: u64,
    /// DELTA byte-array pages are written PLAIN (the chunk would mix them with PLAIN pages).
    delta_to_plain: bool,
    /// The chunk has one piece: copied as it is.
    single: bool,
    /// The one piece has a dictionary page.
    single_dictionary: bool,
    /// The output's physical type.
    physical: crate::format::Type,
    /// How its PLAIN values lie (`None`: booleans).
    layout: Option<Layout>,
    /// The chunk's Bloom filter is built from its values (their hashes kept by the rewriter
    /// while building).
    rebuild: bool,
    /// The least size of a rebuilt filter: the largest piece's.
    rebuilt_min_bytes: usize,
}

impl<'c, 'a> Builder<'c, 'a> {
    fn stat(&mut self, page_type: PageType, encoding: Encoding) {
        match self
            .encoding_stats
            .iter_mut()
            .find(|s| s.page_type == page_type && s.encoding == encoding)
        {
            Some(s) => s.count += 1,
            None => self.encoding_stats.push(PageEncodingStats {
                page_type,
                encoding,
                count: 1,
            }),
        }
    }

    fn push_copy(&mut self, input: usize, start: u64, len: u64) {
        if let Some(Part::Copy {
            input: i,
            start: s,
            len: l,
        }) = self.parts.last_mut()
            && *i == input
            && *s + *l == start
        {
            *l += len;
        } else {
            self.parts.push(Part::Copy { input, start, len });
        }
        self.pos += len;
    }

    fn push_bytes(&mut self, bytes: Vec<u8>) {
        self.pos += bytes.len() as u64;
        self.parts.push(Part::Bytes(bytes));
    }

    /// Takes a piece's pages in.
    fn piece(&mut self, p: &Piece, c: &InChunk<'a>, bloom: Option<Sbbf>) -> Result<()> {
        self.rewriter.convert = c.convert;
        if !self.rebuild {
            // A converted piece's Bloom filter hashed the values as its input stored them:
            // one of the same size is filled with the converted values instead.
            self.rewriter.bloom = match (c.convert, &bloom) {
                (Some(_), Some(b)) => Some(Hashes::Filter(Sbbf::new(b.as_bytes().len()))),
                _ => None,
            };
        }
        if self.rebuild
            && let Some(first) = c.pages.first()
            && first.header.type_ == PageType::DICTIONARY_PAGE
        {
            self.hash_dictionary(first, c)
                .map_err(|e| e.context("dictionary page"))?;
        }
        let mut data_pages = &c.pages[..];
        let mut dictionary: Option<PieceDictionary> = None;
        if let Some(first) = c.pages.first()
            && first.header.type_ == PageType::DICTIONARY_PAGE
        {
            data_pages = &c.pages[1..];
            if self.single {
                // One piece: its dictionary stays as it is, unread.
                let len = page_end(c.bytes, first) - first.offset;
                self.first_dictionary =
                    Some((p.input, c.start + first.offset as u64, len as u64, c.codec));
                self.single_dictionary = true;
                dictionary = Some((Vec::new(), Vec::new(), Mapping::Same));
            }
        }
        // A piece whose pages will all be written PLAIN: its dictionary is read only for a
        // page that cannot be made from the dictionary page as it is stored
        // (`Rewriter::plain_from_dictionary`).
        let mut deferred: Option<&StoredPage<'a>> = None;
        if let Some(first) = c.pages.first()
            && first.header.type_ == PageType::DICTIONARY_PAGE
            && !self.single
        {
            let was_empty = self.dict.is_empty();
            if self.plain_written {
                // Its pages will be written PLAIN: its values need not join the dictionary.
                self.dict.fall_back();
                deferred = Some(first);
            } else {
                let (values, e) = self.dictionary_entries(first, c)?;
                let mapping = self.dict.add(&values, &e, self.cx.opts.dictionary_limit);
                dictionary = Some((values, e, mapping));
            }
            if was_empty && c.convert.is_none() {
                let len = page_end(c.bytes, first) - first.offset;
                self.first_dictionary =
                    Some((p.input, c.start + first.offset as u64, len as u64, c.codec));
            } else {
                self.counts.dictionaries_merged += 1;
            }
        }
        let index = load_index(self.cx, p, c, data_pages.len())?;
        let mut values_before = 0i64;
        for (k, page) in data_pages.iter().enumerate() {
            let h = &page.header;
            let (n, rows, encoding) = match (&h.data_page_header, &h.data_page_header_v2) {
                (Some(d), _) if h.type_ == PageType::DATA_PAGE => (d.num_values, None, d.encoding),
                (_, Some(d)) if h.type_ == PageType::DATA_PAGE_V2 => {
                    (d.num_values, Some(d.num_rows), d.encoding)
                }
                _ => {
                    return Err(Error::oos(format!(
                        "page {k}: a {} page among the data pages",
                        h.type_.name()
                    )));
                }
            };
            let dictionary_encoded = is_dictionary_encoded(page);
            if self.rebuild
                && !dictionary_encoded
                && c.convert.is_none()
                && let Some(layout) = self.layout
            {
                self.rewriter
                    .hash_values(page, c.codec, self.max, self.physical, layout)
                    .map_err(|e| e.context(format!("page {k}")))?;
            }
            let first_row = match &index.offsets {
                Some(o) => Some(self.rows_before + o.page_locations[k].first_row_index),
                None if self.max.rep == 0 => Some(self.rows_before + values_before),
                None => None,
            };
            let unencoded = index
                .offsets
                .as_ref()
                .filter(|_| c.convert.is_none())
                .and_then(|o| o.unencoded_byte_array_data_bytes.as_ref())
                .and_then(|u| u.get(k).copied());
            let offset = self.pos;
            let from_dictionary = match deferred {
                Some(d) if dictionary_encoded && c.convert.is_none() => {
                    self.plain_from_dictionary(page, d, c, k)?
                }
                _ => false,
            };
            let new_encoding = if from_dictionary {
                Some(Encoding::PLAIN)
            } else {
                if let Some(d) = deferred
                    && dictionary_encoded
                    && dictionary.is_none()
                {
                    let (values, e) = self.dictionary_entries(d, c)?;
                    dictionary = Some((values, e, Mapping::Plain));
                }
                let change = match (&dictionary, dictionary_encoded) {
                    (_, false) if c.convert.is_some() => Values::Convert,
                    (_, false) if self.delta_to_plain && is_delta_byte_array(page) => {
                        Values::DeltaToPlain
                    }
                    (_, false) => Values::Same,
                    // No dictionary-encoded page after a PLAIN one: Spark's reader loses the
                    // values of a PLAIN page that a dictionary-encoded page follows in one batch.
                    (Some((v, e, _)), true) if self.plain_written && !self.single => {
                        Values::Plain(v, e)
                    }
                    (Some((_, _, Mapping::Same)), true) => Values::Same,
                    (Some((_, _, Mapping::Table(t))), true) => {
                        Values::Remap(t, self.dict.index_width())
                    }
                    (Some((v, e, Mapping::Plain)), true) => Values::Plain(v, e),
                    (None, true) => {
                        return Err(Error::oos(format!(
                            "page {k} is dictionary-encoded, but the chunk has no dictionary page"
                        )));
                    }
                };
                self.page(p, c, page, change)?
            };
            self.pages.push(OutPage {
                offset,
                len: self.pos - offset,
                first_row,
                unencoded,
            });
            if !dictionary_encoded || new_encoding.is_some() {
                self.plain_written = true;
                self.plain_values += u64::try_from(n).unwrap_or(0);
            }
            self.stat(h.type_, new_encoding.unwrap_or(encoding));
            if let Some(e) = new_encoding {
                self.acc.encoding(e);
            }
            self.num_values += i64::from(n);
            values_before += i64::from(rows.unwrap_or(n));
        }
        self.offset_index &= index.offsets.is_some();
        let order = self.cx.inputs[p.input]
            .meta
            .file()
            .column_orders
            .as_ref()
            .and_then(|o| p.leaf.and_then(|l| o.get(l).copied()));
        self.acc.piece(PieceMeta {
            meta: &c.meta,
            column_order: order,
            index: index.column,
            bloom: match c.convert {
                _ if self.rebuild => None,
                Some(_) => self.rewriter.bloom.take().map(|h| h.into_filter(0)),
                None => bloom,
            },
            convert: c.convert,
        });
        self.rewriter.convert = None;
        self.rows_before += p.rows as i64;
        Ok(())
    }

    /// Inserts the hash of every entry of dictionary page `first` of chunk `c` (converted to the
    /// output's storage where the piece's values are) into the filter being rebuilt.
    fn hash_dictionary(&mut self, first: &StoredPage<'_>, c: &InChunk<'a>) -> Result<()> {
        let Some(layout) = self.layout else {
            return Ok(());
        };
        let n = dictionary_len(first);
        let stored = self.rewriter.dictionary_values(first, c.codec)?;
        // `stored` is the rewriter's scratch: the values are hashed from a copy.
        let values = match c.convert {
            None => stored.to_vec(),
            Some(conv) => {
                let mut out = Vec::new();
                conv.plain(stored, n, &mut out)?;
                out
            }
        };
        self.rewriter.hash_plain(&values, n, layout)
    }

    /// The values of dictionary page `first` of chunk `c`, decompressed, and its entries.
    fn dictionary_entries(
        &mut self,
        first: &StoredPage<'_>,
        c: &InChunk<'_>,
    ) -> Result<DictionaryEntries> {
        let n = dictionary_len(first);
        let stored = self.rewriter.dictionary_values(first, c.codec)?;
        let values = match c.convert {
            None => stored.to_vec(),
            Some(conv) => {
                let mut out = Vec::new();
                conv.plain(stored, n, &mut out)
                    .map_err(|e| e.context("dictionary page"))?;
                self.rewriter.hash_plain(&out, n, conv.to.layout())?;
                out
            }
        };
        let e = entries(&values, n, self.physical, self.type_length)
            .map_err(|e| e.context("dictionary page"))?;
        Ok((values, e))
    }

    /// Writes data page `k` of chunk `c` PLAIN from the chunk's dictionary page `dictionary`
    /// as stored, when it can be ([`super::pages::Rewriter::plain_from_dictionary`]); whether
    /// it was.
    fn plain_from_dictionary(
        &mut self,
        page: &StoredPage<'_>,
        dictionary: &StoredPage<'_>,
        c: &InChunk<'_>,
        k: usize,
    ) -> Result<bool> {
        let (n, physical, width) = (dictionary_len(dictionary), c.meta.type_, self.type_length);
        // Parsed as the usual way would, and nothing after the values (they become the
        // page's values whole).
        let valid = |v: &[u8]| {
            let e = entries(v, n, physical, width)?;
            match v.len() - e.last().map_or(0, |e| e.1) {
                0 => Ok(e),
                after => Err(Error::oos(format!("{after} bytes follow the values"))),
            }
        };
        let mut out = Vec::with_capacity(dictionary.data.len() + 64);
        let written = self
            .rewriter
            .plain_from_dictionary(page, dictionary, c.codec, self.max, valid, &mut out)
            .map_err(|e| e.context(format!("page {k}")))?;
        let Some(w) = written else {
            return Ok(false);
        };
        self.uncompressed += (w.header_len + w.uncompressed_len) as i64;
        self.push_bytes(out);
        self.counts.reencoded += 1;
        self.counts.from_dictionary += 1;
        Ok(true)
    }

    /// Writes one data page, copied or rewritten; returns its new encoding if it changed.
    fn page(
        &mut self,
        p: &Piece,
        c: &InChunk<'a>,
        page: &StoredPage<'a>,
        change: Values<'_>,
    ) -> Result<Option<Encoding>> {
        let stored = (page_end(c.bytes, page) - page.offset) as u64;
        let header_len = stored - page.data.len() as u64;
        let v2 = page.header.type_ == PageType::DATA_PAGE_V2;
        if matches!(change, Values::Same)
            && c.codec == self.codec
            && !(v2 && self.rewriter.as_v1)
            && c.convert.is_none()
        {
            self.push_copy(p.input, c.start + page.offset as u64, stored);
            self.uncompressed += header_len as i64 + i64::from(page.header.uncompressed_page_size);
            self.counts.copied += 1;
            return Ok(None);
        }
        let mut out = Vec::with_capacity(page.data.len() + 64);
        let w = self
            .rewriter
            .data_page(page, c.codec, self.max, change, &mut out)?;
        self.uncompressed += (w.header_len + w.uncompressed_len) as i64;
        self.push_bytes(out);
        if v2 && self.rewriter.as_v1 {
            self.counts.as_v1 += 1;
        }
        if c.convert.is_some() {
            self.counts.converted += 1;
        }
        Ok(match change {
            Values::Convert => Some(Encoding::PLAIN),
            Values::Same if (v2 && self.rewriter.as_v1) || c.convert.is_some() => None,
            Values::Same => {
                self.counts.recompressed += 1;
                None
            }
            Values::Remap(..) => {
                self.counts.remapped += 1;
                None
            }
            Values::Plain(..) | Values::DeltaToPlain => {
                self.counts.reencoded += 1;
                Some(Encoding::PLAIN)
            }
        })
    }

    /// A page of nulls for the rows of an input that lacks the column.
    fn nulls(&mut self, rows: u64) -> Result<()> {
        let rows_usize =
            usize::try_from(rows).map_err(|_| Error::invalid(format!("{rows} rows")))?;
        let mut out = Vec::new();
        let w = self.rewriter.nulls(rows_usize, self.max, &mut out)?;
        let offset = self.pos;
        self.uncompressed += (w.header_len + w.uncompressed_len) as i64;
        self.push_bytes(out);
        self.pages.push(OutPage {
            offset,
            len: self.pos - offset,
            first_row: Some(self.rows_before),
            unencoded: Some(0),
        });
        self.stat(PageType::DATA_PAGE, Encoding::PLAIN);
        self.num_values += rows as i64;
        self.acc.nulls(rows as i64);
        self.counts.nulls += 1;
        self.rows_before += rows as i64;
        Ok(())
    }

    /// The chunk: the dictionary page (the first piece's as stored when the merged dictionary
    /// is still its, else written anew) placed before the data pages.
    fn finish(mut self, geo: Option<crate::format::GeospatialStatistics>) -> Result<ChunkOut<'a>> {
        if self.rebuild {
            let min = self.rebuilt_min_bytes;
            self.acc
                .rebuilt_bloom(self.rewriter.bloom.take().map(|h| h.into_filter(min)));
        }
        let mut dictionary = false;
        let mut dictionary_entries = self.dict.len();
        if self.single_dictionary || !self.dict.is_empty() {
            dictionary = true;
            let (part, uncompressed, encoding) = match self.first_dictionary {
                Some((input, start, len, codec))
                    if self.dict.is_first_pieces() && codec == self.codec =>
                {
                    let page = &self.cx.inputs[input].bytes[start as usize..(start + len) as usize];
                    let (h, header_len) = crate::format::PageHeader::decode(page)?;
                    let u = header_len as i64 + i64::from(h.uncompressed_page_size);
                    if let Some(d) = &h.dictionary_page_header {
                        dictionary_entries = dictionary_entries.max(d.num_values.max(0) as usize);
                    }
                    let e = h
                        .dictionary_page_header
                        .map_or(Encoding::PLAIN, |d| d.encoding);
                    (Part::Copy { input, start, len }, u, e)
                }
                _ => {
                    let mut out = Vec::new();
                    let w =
                        self.rewriter
                            .dictionary(self.dict.len(), self.dict.page(), &mut out)?;
                    (
                        (Part::Bytes(out)),
                        (w.header_len + w.uncompressed_len) as i64,
                        Encoding::PLAIN,
                    )
                }
            };
            let shift = part.len();
            for page in &mut self.pages {
                page.offset += shift;
            }
            self.uncompressed += uncompressed;
            self.stat(PageType::DICTIONARY_PAGE, encoding);
            self.acc.encoding(encoding);
            self.encoding_stats.rotate_right(1);
            let mut parts = vec![part];
            parts.append(&mut self.parts);
            // Join the dictionary with the data pages after it when they were one range.
            self.parts = Vec::with_capacity(parts.len());
            self.pos = 0;
            for part in parts {
                match part {
                    Part::Copy { input, start, len } => self.push_copy(input, start, len),
                    bytes => self.parts.push(bytes),
                }
            }
        }
        Ok(ChunkOut {
            parts: self.parts,
            dictionary,
            codec: self.codec,
            num_values: self.num_values,
            total_uncompressed: self.uncompressed,
            pages: self.pages,
            encoding_stats: self.encoding_stats,
            acc: self.acc,
            geo,
            counts: self.counts,
            offset_index: self.offset_index,
            dictionary_entries: dictionary_entries
                .saturating_add(usize::try_from(self.plain_values).unwrap_or(usize::MAX)),
            bloom_rebuilt: self.rebuild,
        })
    }
}

/// A piece's page index, when it has one whose entries match its `pages` data pages.
struct PieceIndex<'a> {
    offsets: Option<OffsetIndex>,
    column: Option<ColumnIndex<'a>>,
}

fn load_index<'a>(
    cx: &Cx<'_, 'a>,
    p: &Piece,
    c: &InChunk<'a>,
    pages: usize,
) -> Result<PieceIndex<'a>> {
    let ch = &c.chunk;
    // A page index outside the file's data is left out, as the reader ignores it (pyarrow
    // reads such files); `quiver validate` reports it.
    let located = |o: Option<i64>, l: Option<i32>| match (o, l) {
        (Some(o), Some(l)) => input_range(cx, p.input, o, Some(l)).ok(),
        _ => None,
    };
    let offsets = match located(ch.offset_index_offset, ch.offset_index_length) {
        Some(bytes) => {
            let oi = OffsetIndex::decode(bytes).map_err(|e| e.context("offset index"))?;
            (oi.page_locations.len() == pages).then_some(oi)
        }
        _ => None,
    };
    let column = match located(ch.column_index_offset, ch.column_index_length) {
        Some(bytes) => {
            let ci = ColumnIndex::decode(bytes).map_err(|e| e.context("column index"))?;
            (ci.null_pages.len() == pages).then_some(ci)
        }
        _ => None,
    };
    Ok(PieceIndex { offsets, column })
}

fn load_bloom(cx: &Cx<'_, '_>, input: usize, meta: &ColumnMetaData<'_>) -> Result<Option<Sbbf>> {
    let Some(offset) = meta.bloom_filter_offset else {
        return Ok(None);
    };
    let bytes = input_range(cx, input, offset, meta.bloom_filter_length)?;
    let (bloom, _) = Sbbf::read(bytes).map_err(|e| e.context("Bloom filter"))?;
    Ok(Some(bloom))
}

/// Builds output chunk `leaf` from `pieces`.
pub(super) fn build<'a>(cx: &Cx<'_, 'a>, leaf: usize, pieces: &[Piece]) -> Result<ChunkOut<'a>> {
    let mut chunks = Vec::with_capacity(pieces.len());
    for p in pieces {
        let c = match p.leaf {
            Some(l) => Some(open(cx, p, l, leaf).map_err(|e| cx.at(p, leaf, e))?),
            None => None,
        };
        chunks.push(c);
    }
    let blooms = pieces
        .iter()
        .zip(&chunks)
        .map(|(p, c)| match c {
            Some(c) => load_bloom(cx, p.input, &c.meta).map_err(|e| cx.at(p, leaf, e)),
            None => Ok(None),
        })
        .collect::<Result<Vec<_>>>()?;
    let codec = chunks
        .iter()
        .flatten()
        .next()
        .map_or(Codec::Uncompressed, |c| c.codec);
    let (max_def, max_rep) = cx.schema.levels[leaf];
    let order = cx.schema.orders[leaf];
    let physical = cx.schema.physical[leaf];
    let mut b = Builder {
        cx,
        max: MaxLevels {
            def: max_def,
            rep: max_rep,
        },
        type_length: cx.schema.type_lengths[leaf],
        codec,
        rewriter: Rewriter::new(codec)?,
        dict: MergedDictionary::new(physical),
        first_dictionary: None,
        parts: Vec::new(),
        pos: 0,
        pages: Vec::new(),
        encoding_stats: Vec::new(),
        num_values: 0,
        uncompressed: 0,
        acc: MetaAcc::new(order, physical, (max_def, max_rep)),
        counts: PageCounts::default(),
        offset_index: true,
        rows_before: 0,
        plain_written: false,
        plain_values: 0,
        delta_to_plain: false,
        // A piece converted is never copied whole.
        single: pieces.len() == 1 && chunks.iter().flatten().all(|c| c.convert.is_none()),
        single_dictionary: false,
        physical,
        layout: Layout::of(physical, cx.schema.type_lengths[leaf]),
        rebuild: false,
        rebuilt_min_bytes: 0,
    };
    // The pieces' filters unite when every piece with data has one and all are of one size
    // (OR-ed). Otherwise a filter some piece had is rebuilt from the chunk's values rather
    // than lost: sized for their distinct values at 1% false positives, and at least as large
    // as the largest piece's. (Filters of two power-of-two sizes could be folded to the
    // smaller one exactly, but that filter holds the larger one's values in fewer bits: a
    // small row group's filter would saturate with a large one's values.)
    let sizes: Vec<Option<usize>> = chunks
        .iter()
        .zip(&blooms)
        .filter_map(|(c, b)| {
            let c = c.as_ref()?;
            Some(b.as_ref().map(|b| match c.convert {
                // Rebuilt as `Sbbf::new` sizes filters.
                Some(_) => Sbbf::new(b.as_bytes().len()).as_bytes().len(),
                None => b.as_bytes().len(),
            }))
        })
        .collect();
    let known: Vec<usize> = sizes.iter().flatten().copied().collect();
    let unite = known.len() == sizes.len() && known.windows(2).all(|w| w[0] == w[1]);
    if !known.is_empty() && !unite && b.layout.is_some() {
        b.rebuild = true;
        b.single = false;
        b.rebuilt_min_bytes = known.iter().copied().max().unwrap_or(0);
        b.rewriter.bloom = Some(Hashes::List(Vec::new()));
    }
    // Data pages v1 and v2 in one chunk: polars (2.1) misreads nested byte arrays across the
    // change, so a chunk that would hold both gets v1 pages only.
    let kinds = |t: PageType| {
        chunks
            .iter()
            .flatten()
            .any(|c| c.pages.iter().any(|p| p.header.type_ == t))
    };
    b.rewriter.as_v1 = kinds(PageType::DATA_PAGE) && kinds(PageType::DATA_PAGE_V2);
    // Byte arrays PLAIN in some pages and DELTA in others: polars (2.1) misreads nested ones
    // across the change, so the DELTA pages of such a chunk are written PLAIN.
    let encodings: Vec<Encoding> = chunks
        .iter()
        .flatten()
        .flat_map(|c| c.pages.iter().filter_map(value_encoding))
        .collect();
    let delta = |e: &Encoding| {
        matches!(
            e,
            Encoding::DELTA_BYTE_ARRAY | Encoding::DELTA_LENGTH_BYTE_ARRAY
        )
    };
    b.delta_to_plain =
        pieces.len() > 1 && encodings.iter().any(delta) && encodings.iter().any(|e| !delta(e));
    for ((p, c), bloom) in pieces.iter().zip(&chunks).zip(blooms) {
        match c {
            Some(c) => b.piece(p, c, bloom).map_err(|e| cx.at(p, leaf, e))?,
            None => b.nulls(p.rows)?,
        }
    }
    let geo = match (pieces, chunks.first()) {
        ([_], Some(Some(c))) => c.meta.geospatial_statistics.as_deref().cloned(),
        _ => None,
    };
    b.finish(geo)
}
