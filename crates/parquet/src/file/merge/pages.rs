//! Pages a merge writes anew: an input page re-compressed with the output chunk's codec, its
//! dictionary indices mapped onto a merged dictionary, or its dictionary-encoded values
//! written PLAIN; a dictionary page; a page of nulls for the rows of an input that lacks the
//! column. Levels, counts and page statistics are kept as they were: only the values section
//! changes, and only where the dictionary does.

use super::convert::{Conversion, Layout, Scratch as ConversionScratch, plain_values};
use crate::bloom::Sbbf;
use crate::codec::snappy::{self, gather};
use crate::codec::{Codec, Decompressor};
use crate::encoding::byte_array::{
    ByteArraySink, DeltaByteArrayScratch, delta_byte_array, delta_length,
};
use crate::encoding::dictionary::{for_each_block, indices, remap_runs};
use crate::encoding::rle_encoder::RleEncoder;
use crate::format::{DataPageHeader, DataPageHeaderV2, Encoding, PageType};
use crate::levels::{LevelEncoding, level_width, split_v1};
use crate::page::StoredPage;
use crate::page::write::{PageWriter, WrittenPage};
use quiver_arrow::{Error, Result};

/// How a page's values change.
#[derive(Debug, Clone, Copy)]
pub(super) enum Values<'d> {
    /// They stay as they are.
    Same,
    /// Dictionary indices mapped through the table, written at the width.
    Remap(&'d [u32], u32),
    /// Dictionary indices replaced by the entries they select (PLAIN encoded, each entry a byte
    /// range of the dictionary page).
    Plain(&'d [u8], &'d [(usize, usize)]),
    /// DELTA_LENGTH_BYTE_ARRAY or DELTA_BYTE_ARRAY values (of the page's encoding) decoded
    /// and written PLAIN.
    DeltaToPlain,
    /// Decimal values (of the page's encoding, not dictionary indices) decoded, converted to
    /// the merged file's storage ([`Rewriter::convert`]) and written PLAIN.
    Convert,
}

/// Rewrites pages, reusing its buffers.
#[derive(Debug)]
pub(super) struct Rewriter {
    writer: PageWriter,
    decompressor: Decompressor,
    scratch: Vec<u8>,
    body: Vec<u8>,
    /// The values section of a page whose values change.
    converted: Vec<u8>,
    levels: Vec<i16>,
    /// A block of mapped indices, or a page's indices.
    mapped: Vec<u32>,
    /// The Snappy elements of a page made from its dictionary's ([`snappy::gather::gather`]).
    gathered: Vec<u8>,
    delta: DeltaByteArrayScratch,
    lengths: quiver_arrow::buffer::MutableBuffer,
    /// Write data pages v2 as v1 (a chunk would hold both kinds otherwise).
    pub as_v1: bool,
    rle: RleEncoder,
    /// The decimal conversion of the piece being written: its pages' statistics are
    /// converted, and [`Values::Convert`] converts their values.
    pub convert: Option<Conversion>,
    /// Where the hashes of values go while a Bloom filter is rebuilt: those [`Values::Convert`]
    /// writes, and those [`Rewriter::hash_values`] reads.
    pub bloom: Option<Hashes>,
    conversion: ConversionScratch,
    /// The converted bounds of a page header's statistics.
    stats: [Vec<u8>; 4],
}

/// The hashes of the values a Bloom filter is rebuilt from.
#[derive(Debug)]
pub(super) enum Hashes {
    /// Inserted into a filter of a known size at once.
    Filter(Sbbf),
    /// Kept (distinct, once there are many) for a filter sized once all are known.
    List(Vec<u64>),
}

/// Hashes kept before duplicates are dropped.
const HASHES_KEPT: usize = 1 << 20;

impl Hashes {
    /// Adds the hash of one value.
    pub(super) fn insert(&mut self, hash: u64) {
        match self {
            Hashes::Filter(f) => f.insert(hash),
            Hashes::List(l) => {
                if l.len() == l.capacity() && l.len() >= HASHES_KEPT {
                    l.sort_unstable();
                    l.dedup();
                    // Room for as many again: the next sort comes after as many new ones.
                    l.reserve(l.len().max(HASHES_KEPT));
                }
                l.push(hash);
            }
        }
    }

    /// The filter: as filled, or, for a list, one of at least `min_bytes` sized for the
    /// distinct hashes at a 1% false-positive rate ([`Sbbf::optimal_num_bytes`]).
    pub(super) fn into_filter(self, min_bytes: usize) -> Sbbf {
        match self {
            Hashes::Filter(f) => f,
            Hashes::List(mut l) => {
                l.sort_unstable();
                l.dedup();
                let bytes = Sbbf::optimal_num_bytes(l.len() as u64, 0.01).max(min_bytes);
                let mut f = Sbbf::new(bytes);
                for h in l {
                    f.insert(h);
                }
                f
            }
        }
    }
}

/// A column's maximum levels.
#[derive(Debug, Clone, Copy)]
pub(super) struct MaxLevels {
    /// Definition.
    pub def: i16,
    /// Repetition.
    pub rep: i16,
}

/// What [`Rewriter::plain_from_dictionary`] makes a PLAIN page of: the data page's levels, the
/// dictionary page as stored (its Snappy elements after the preamble in `stream`, or its
/// bytes when uncompressed), its decompressed length and the codec.
struct PlainParts<'p> {
    levels: &'p [u8],
    dictionary: &'p StoredPage<'p>,
    stream: &'p [u8],
    dict_len: usize,
    codec: Codec,
}

fn level_encoding(e: Encoding) -> LevelEncoding {
    if e == Encoding::BIT_PACKED {
        LevelEncoding::BitPacked
    } else {
        LevelEncoding::Rle
    }
}

impl Rewriter {
    /// A rewriter writing pages compressed with `codec` (CRCs always written).
    pub(super) fn new(codec: Codec) -> Result<Rewriter> {
        Ok(Rewriter {
            writer: PageWriter::new(codec, None, true)?,
            decompressor: Decompressor::default(),
            scratch: Vec::new(),
            body: Vec::new(),
            converted: Vec::new(),
            levels: Vec::new(),
            mapped: Vec::new(),
            gathered: Vec::new(),
            delta: DeltaByteArrayScratch::default(),
            lengths: quiver_arrow::buffer::MutableBuffer::new(),
            as_v1: false,
            rle: RleEncoder::new(1),
            convert: None,
            bloom: None,
            conversion: ConversionScratch::default(),
            stats: Default::default(),
        })
    }

    /// `data` decompressed with `codec` into the scratch (or itself when stored plain).
    fn inflate<'s>(&'s mut self, data: &'s [u8], codec: Codec, len: usize) -> Result<&'s [u8]> {
        if codec == Codec::Uncompressed || len == 0 {
            if data.len() != len && len != 0 {
                return Err(Error::oos(format!(
                    "an uncompressed page holds {} bytes, its header says {len}",
                    data.len()
                )));
            }
            return Ok(if len == 0 { &[] } else { data });
        }
        let out = crate::codec::scratch_of(&mut self.scratch, len);
        self.decompressor.decompress(codec, data, out)?;
        Ok(out)
    }

    /// Appends a dictionary page of `num_values` PLAIN `values`.
    pub(super) fn dictionary(
        &mut self,
        num_values: usize,
        values: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<WrittenPage> {
        self.writer.dictionary(num_values, values, out)
    }

    /// The values of a dictionary page stored with `codec`, decompressed (into the rewriter's
    /// scratch, valid until its next use).
    pub(super) fn dictionary_values<'s>(
        &'s mut self,
        page: &'s StoredPage<'_>,
        codec: Codec,
    ) -> Result<&'s [u8]> {
        let len = size(page.header.uncompressed_page_size)?;
        self.inflate(page.data, codec, len)
    }

    /// Appends `page` (stored with `codec`) compressed with the rewriter's codec, its values
    /// changed as `values` says.
    pub(super) fn data_page(
        &mut self,
        page: &StoredPage<'_>,
        codec: Codec,
        max: MaxLevels,
        values: Values<'_>,
        out: &mut Vec<u8>,
    ) -> Result<WrittenPage> {
        let h = &page.header;
        let uncompressed = size(h.uncompressed_page_size)?;
        // A converted piece's page statistics are converted with its values.
        let mut stats = std::mem::take(&mut self.stats);
        let convert = self.convert;
        let converted = |s: &Option<crate::format::Statistics<'_>>, bufs| {
            convert.zip(s.as_ref()).map(|(c, s)| c.statistics(s, bufs))
        };
        let r = match (h.type_, &h.data_page_header, &h.data_page_header_v2) {
            (PageType::DATA_PAGE, Some(d), _) => {
                let d = match converted(&d.statistics, &mut stats) {
                    Some(s) => &DataPageHeader {
                        statistics: Some(s),
                        ..d.clone()
                    },
                    None => d,
                };
                let mut scratch = std::mem::take(&mut self.scratch);
                let r = self.v1(page, d, codec, uncompressed, max, values, &mut scratch, out);
                if self.scratch.capacity() < scratch.capacity() {
                    self.scratch = scratch;
                }
                r
            }
            (PageType::DATA_PAGE_V2, _, Some(d)) => {
                let d = match converted(&d.statistics, &mut stats) {
                    Some(s) => &DataPageHeaderV2 {
                        statistics: Some(s),
                        ..d.clone()
                    },
                    None => d,
                };
                self.v2(page, d, codec, uncompressed, max, values, out)
            }
            (PageType::DICTIONARY_PAGE, ..) => {
                let n = h
                    .dictionary_page_header
                    .as_ref()
                    .map_or(0, |d| d.num_values.max(0) as usize);
                let dict = self.dictionary_values(page, codec)?.to_vec();
                self.writer.dictionary(n, &dict, out)
            }
            (t, ..) => Err(Error::oos(format!(
                "a {} page without its header",
                t.name()
            ))),
        };
        self.stats = stats;
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn v1(
        &mut self,
        page: &StoredPage<'_>,
        d: &DataPageHeader<'_>,
        codec: Codec,
        uncompressed: usize,
        max: MaxLevels,
        values: Values<'_>,
        scratch: &mut Vec<u8>,
        out: &mut Vec<u8>,
    ) -> Result<WrittenPage> {
        let body = self.v1_body(page.data, codec, uncompressed, scratch)?;
        if let Values::Same = values {
            return self.writer.data_v1_body(d, body, out);
        }
        let (levels, vals, present) = self.v1_sections(body, d, max)?;
        let mut new_body = std::mem::take(&mut self.body);
        new_body.clear();
        new_body.extend_from_slice(levels);
        let encoding = self.values(vals, present, values, d.encoding, &mut new_body)?;
        let header = DataPageHeader {
            encoding: encoding.unwrap_or(d.encoding),
            ..d.clone()
        };
        let r = self.writer.data_v1_body(&header, &new_body, out);
        self.body = new_body;
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn v2(
        &mut self,
        page: &StoredPage<'_>,
        d: &DataPageHeaderV2<'_>,
        codec: Codec,
        uncompressed: usize,
        max: MaxLevels,
        values: Values<'_>,
        out: &mut Vec<u8>,
    ) -> Result<WrittenPage> {
        let [rep, def, stored] = v2_sections(page.data, d, uncompressed)?;
        let levels = rep.len() + def.len();
        let from = if d.values_compressed() {
            codec
        } else {
            Codec::Uncompressed
        };
        let n = size(d.num_values)?;
        let present = match values {
            Values::Same => 0,
            _ => self.present(def, LevelEncoding::Rle, max.def, n)?,
        };
        let mut scratch = std::mem::take(&mut self.scratch);
        let vals: &[u8] = if from == Codec::Uncompressed {
            stored
        } else {
            let out = crate::codec::scratch_of(&mut scratch, uncompressed - levels);
            self.decompressor.decompress(from, stored, out)?;
            out
        };
        let r = match values {
            Values::Same => self.emit_v2(d, max, [rep, def, vals], out),
            _ => {
                let mut new_vals = std::mem::take(&mut self.converted);
                new_vals.clear();
                let r = self
                    .values(vals, present, values, d.encoding, &mut new_vals)
                    .and_then(|enc| {
                        let header = DataPageHeaderV2 {
                            encoding: enc.unwrap_or(d.encoding),
                            ..d.clone()
                        };
                        self.emit_v2(&header, max, [rep, def, &new_vals], out)
                    });
                self.converted = new_vals;
                r
            }
        };
        self.scratch = scratch;
        r
    }

    /// Appends a data page v2 of `header` and its parts (repetition levels, definition levels,
    /// uncompressed values), or, when the rewriter writes v1 pages, the same page as v1 (the
    /// levels behind their lengths, compressed with the values).
    fn emit_v2(
        &mut self,
        header: &DataPageHeaderV2<'_>,
        max: MaxLevels,
        [rep, def, values]: [&[u8]; 3],
        out: &mut Vec<u8>,
    ) -> Result<WrittenPage> {
        if !self.as_v1 {
            return self.writer.data_v2_parts(header, rep, def, values, out);
        }
        let mut body = std::mem::take(&mut self.body);
        body.clear();
        // A v1 page holds each kind of level the column has behind its length, even when
        // empty (a page of no values): readers take the length by the column's levels.
        for (levels, max) in [(rep, max.rep), (def, max.def)] {
            if max > 0 {
                body.extend_from_slice(&(levels.len() as u32).to_le_bytes());
                body.extend_from_slice(levels);
            }
        }
        body.extend_from_slice(values);
        let v1 = DataPageHeader {
            num_values: header.num_values,
            encoding: header.encoding,
            definition_level_encoding: Encoding::RLE,
            repetition_level_encoding: Encoding::RLE,
            statistics: header.statistics.clone(),
        };
        let r = self.writer.data_v1_body(&v1, &body, out);
        self.body = body;
        r
    }

    /// The number of values present (definition level at its maximum) among `n` levels.
    fn present(&mut self, def: &[u8], enc: LevelEncoding, max_def: i16, n: usize) -> Result<usize> {
        if max_def == 0 {
            return Ok(n);
        }
        self.levels.clear();
        self.levels.resize(n, 0);
        crate::levels::decode(def, enc, max_def, &mut self.levels)
            .map_err(|e| e.context("definition levels"))?;
        Ok(self.levels.iter().filter(|&&l| l == max_def).count())
    }

    /// Appends the new values section for the `present` dictionary indices of `vals` to `out`;
    /// returns the new encoding when it changes.
    fn values(
        &mut self,
        vals: &[u8],
        present: usize,
        change: Values<'_>,
        encoding: Encoding,
        out: &mut Vec<u8>,
    ) -> Result<Option<Encoding>> {
        if let Values::Convert = change {
            let Some(c) = self.convert else {
                return Err(Error::invalid("values to convert without a conversion"));
            };
            let start = out.len();
            if present > 0 {
                c.values(vals, present, encoding, &mut self.conversion, out)?;
            }
            self.hash_plain(&out[start..], present, c.to.layout())?;
            return Ok(Some(Encoding::PLAIN));
        }
        if let Values::DeltaToPlain = change {
            let mut sink = PlainSink(out);
            match encoding {
                Encoding::DELTA_BYTE_ARRAY => {
                    delta_byte_array(vals, present, &mut sink, &mut self.delta)?;
                }
                Encoding::DELTA_LENGTH_BYTE_ARRAY => {
                    delta_length(vals, present, &mut sink, &mut self.lengths)?;
                }
                other => {
                    return Err(Error::invalid(format!(
                        "{} values are not DELTA byte arrays",
                        other.name()
                    )));
                }
            }
            return Ok(Some(Encoding::PLAIN));
        }
        if present == 0 {
            // No indices (a page of nulls): a width byte, or nothing.
            if let Values::Remap(_, width) = change {
                out.push(width as u8);
            }
            return Ok(matches!(change, Values::Plain(..)).then_some(Encoding::PLAIN));
        }
        let mut decoder = indices(vals)?;
        match change {
            Values::Same | Values::DeltaToPlain | Values::Convert => {
                out.extend_from_slice(vals);
                Ok(None)
            }
            Values::Remap(table, width) => {
                // The merged dictionary's width is the page's: its runs are kept, each mapped.
                if remap_runs(vals, present, table, width, out, &mut self.mapped)? {
                    return Ok(None);
                }
                self.rle.set_width(width);
                let (rle, mapped) = (&mut self.rle, &mut self.mapped);
                for_each_block(&mut decoder, present, table.len(), |block| {
                    // Mapped a block at a time (the indices are checked against the table's
                    // length), then encoded at once: runs are found a group at a time.
                    mapped.clear();
                    mapped.extend(block.iter().map(|&i| table[i as usize]));
                    rle.put_u32s(mapped);
                    Ok(())
                })
                .map_err(|e| e.context("dictionary indices"))?;
                out.push(width as u8);
                rle.finish_into(out);
                Ok(None)
            }
            Values::Plain(page, entries) => {
                for_each_block(&mut decoder, present, entries.len(), |block| {
                    for &i in block {
                        let (s, e) = entries[i as usize];
                        out.extend_from_slice(&page[s..e]);
                    }
                    Ok(())
                })
                .map_err(|e| e.context("dictionary indices"))?;
                Ok(Some(Encoding::PLAIN))
            }
        }
    }

    /// Appends data page `page` (v1, stored with `codec`, its values dictionary indices)
    /// written PLAIN straight from its piece's dictionary page `dictionary`, without
    /// compressing again, when that is possible; `None` when not (the caller then rewrites
    /// the page through the dictionary's values).
    ///
    /// It is possible when the page's indices are in order of first appearance over the
    /// whole dictionary — each the next entry not seen yet (0, 1, 2, … in turn) or one seen
    /// before — as writers that build dictionaries in order of first appearance store a
    /// column chunk in one page. The page's PLAIN values are then the dictionary page's bytes
    /// with the repeated values inserted, and the new page is its levels followed by them:
    /// - no repeats (every value distinct: comments, identifiers): for an uncompressed chunk
    ///   the levels and the dictionary page side by side; for Snappy a new preamble and a
    ///   literal of the levels before the dictionary stream's elements as stored
    ///   ([`snappy::start_with_literal`]);
    /// - a few repeats (at most one value in [`gather::GATHER_REPEATS`]), Snappy: the
    ///   dictionary stream's elements rewritten with the repeats inserted ([`gather::gather`]).
    ///
    /// The levels and indices are decompressed to check this, and the dictionary page is
    /// decompressed and its values handed to `entries` (which checks them as the usual way
    /// would parse them and returns each value's byte range), so that a merge that succeeds
    /// still writes only pages that read; nothing is compressed.
    pub(super) fn plain_from_dictionary(
        &mut self,
        page: &StoredPage<'_>,
        dictionary: &StoredPage<'_>,
        codec: Codec,
        max: MaxLevels,
        entries: impl Fn(&[u8]) -> Result<Vec<(usize, usize)>>,
        out: &mut Vec<u8>,
    ) -> Result<Option<WrittenPage>> {
        let h = &page.header;
        let (Some(d), Some(dh)) = (
            &h.data_page_header,
            &dictionary.header.dictionary_page_header,
        ) else {
            return Ok(None);
        };
        let stored_plain = matches!(dh.encoding, Encoding::PLAIN | Encoding::PLAIN_DICTIONARY);
        if h.type_ != PageType::DATA_PAGE
            || !stored_plain
            || !matches!(codec, Codec::Snappy | Codec::Uncompressed)
            || self.writer.codec() != codec
        {
            return Ok(None);
        }
        let n = size(dh.num_values)?;
        let dict_len = size(dictionary.header.uncompressed_page_size)?;
        let stream = match codec {
            Codec::Snappy => match snappy::split_preamble(dictionary.data) {
                Some((len, elements)) if len == dict_len as u64 => elements,
                _ => return Ok(None),
            },
            _ if dictionary.data.len() == dict_len => dictionary.data,
            _ => return Ok(None),
        };
        let uncompressed = size(h.uncompressed_page_size)?;
        let mut scratch = std::mem::take(&mut self.scratch);
        let mut indices = std::mem::take(&mut self.mapped);
        let found = self.first_appearance(
            page,
            d,
            codec,
            uncompressed,
            max,
            n,
            &mut indices,
            &mut scratch,
        );
        let few = |repeats: usize| {
            repeats == 0
                || (codec == Codec::Snappy && repeats <= indices.len() / gather::GATHER_REPEATS)
        };
        let r = found.and_then(|found| match found {
            Some((levels, repeats)) if few(repeats) => {
                let header = DataPageHeader {
                    encoding: Encoding::PLAIN,
                    ..d.clone()
                };
                let repeated = (repeats > 0).then_some(indices.as_slice());
                let parts = PlainParts {
                    levels,
                    dictionary,
                    stream,
                    dict_len,
                    codec,
                };
                self.plain_page(&header, parts, &entries, repeated, out)
            }
            _ => Ok(None),
        });
        self.mapped = indices;
        self.scratch = scratch;
        r
    }

    /// The page [`Rewriter::plain_from_dictionary`] makes from `parts` once the page's indices
    /// are known to be in order of first appearance: `repeated` holds them when some repeat.
    /// `None` when the dictionary's stream cannot be rewritten ([`gather::gather`]).
    fn plain_page(
        &mut self,
        header: &DataPageHeader<'_>,
        parts: PlainParts<'_>,
        entries: &impl Fn(&[u8]) -> Result<Vec<(usize, usize)>>,
        repeated: Option<&[u32]>,
        out: &mut Vec<u8>,
    ) -> Result<Option<WrittenPage>> {
        let PlainParts {
            levels,
            dictionary,
            stream,
            dict_len,
            codec,
        } = parts;
        let mut values = std::mem::take(&mut self.converted);
        let dict = if codec == Codec::Uncompressed {
            dictionary.data
        } else {
            values.clear();
            values.resize(dict_len, 0);
            let done = self
                .decompressor
                .decompress(codec, dictionary.data, &mut values);
            if let Err(e) = done {
                self.converted = values;
                return Err(e.context("dictionary page"));
            }
            &values
        };
        let r = entries(dict).map_err(|e| e.context("dictionary page"));
        let r = r.and_then(|ranges| {
            let mut elements = std::mem::take(&mut self.gathered);
            elements.clear();
            let values_len = match repeated {
                None => Some(dict_len),
                Some(indices) => gather::gather(stream, dict, &ranges, indices, &mut elements),
            };
            let rest: &[u8] = if repeated.is_some() {
                &elements
            } else {
                stream
            };
            let w = match values_len {
                None => Ok(None),
                Some(n) => self
                    .plain_bytes(header, levels, n, rest, codec, out)
                    .map(Some),
            };
            self.gathered = elements;
            w
        });
        self.converted = values;
        r
    }

    /// Appends a PLAIN data page v1 of `header`: `levels`, then `values_len` bytes of values
    /// that `rest` holds as stored — the bytes themselves when uncompressed, else the
    /// elements of a Snappy stream of them (behind a new preamble and a literal of the levels).
    fn plain_bytes(
        &mut self,
        header: &DataPageHeader<'_>,
        levels: &[u8],
        values_len: usize,
        rest: &[u8],
        codec: Codec,
        out: &mut Vec<u8>,
    ) -> Result<WrittenPage> {
        let total = levels
            .len()
            .checked_add(values_len)
            .filter(|&t| u32::try_from(t).is_ok())
            .ok_or_else(|| Error::oos("a page of more than 4 GiB"))?;
        if codec == Codec::Uncompressed {
            return self
                .writer
                .data_v1_compressed(header, &[levels, rest], total, out);
        }
        let mut head = std::mem::take(&mut self.body);
        head.clear();
        snappy::start_with_literal(total, levels, &mut head);
        let w = self
            .writer
            .data_v1_compressed(header, &[&head, rest], total, out);
        self.body = head;
        w
    }

    /// The levels section of v1 data page `page` (decompressed into `scratch`) and how many
    /// of its values repeat an earlier one, when its values are dictionary indices in order of
    /// first appearance over all `entries` of the dictionary (see
    /// [`Rewriter::plain_from_dictionary`]), the indices left in `picked`; `None` otherwise.
    #[allow(clippy::too_many_arguments)]
    fn first_appearance<'s>(
        &mut self,
        page: &StoredPage<'s>,
        d: &DataPageHeader<'_>,
        codec: Codec,
        uncompressed: usize,
        max: MaxLevels,
        entries: usize,
        picked: &mut Vec<u32>,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Option<(&'s [u8], usize)>> {
        if !matches!(
            d.encoding,
            Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY
        ) || entries == 0
        {
            return Ok(None);
        }
        let body = self.v1_body(page.data, codec, uncompressed, scratch)?;
        let (levels, vals, present) = self.v1_sections(body, d, max)?;
        if present < entries {
            return Ok(None);
        }
        let mut decoder = indices(vals)?;
        picked.clear();
        let (mut seen, mut repeats, mut in_order) = (0u32, 0usize, true);
        for_each_block(&mut decoder, present, entries, |block| {
            for &i in block {
                // The next new entry, or one seen before.
                in_order &= i <= seen;
                let new = u32::from(i == seen);
                seen += new;
                repeats += 1 - new as usize;
            }
            picked.extend_from_slice(block);
            Ok(())
        })
        .map_err(|e| e.context("dictionary indices"))?;
        Ok((in_order && seen as usize == entries).then_some((levels, repeats)))
    }

    /// A v1 page's body: `data` itself when stored uncompressed, else decompressed with
    /// `codec` into `scratch` (`uncompressed` bytes).
    fn v1_body<'s>(
        &mut self,
        data: &'s [u8],
        codec: Codec,
        uncompressed: usize,
        scratch: &'s mut Vec<u8>,
    ) -> Result<&'s [u8]> {
        if codec == Codec::Uncompressed {
            return Ok(data);
        }
        let out = crate::codec::scratch_of(scratch, uncompressed);
        self.decompressor.decompress(codec, data, out)?;
        Ok(out)
    }

    /// Inserts the hash of each of the `n` PLAIN values `values` (laid out as `layout`) into
    /// the rewriter's Bloom filter, when it has one.
    pub(super) fn hash_plain(&mut self, values: &[u8], n: usize, layout: Layout) -> Result<()> {
        match &mut self.bloom {
            Some(bloom) => layout.for_each(values, n, |v| {
                bloom.insert(crate::bloom::hash_bytes(v));
                Ok(())
            }),
            None => Ok(()),
        }
    }

    /// Inserts the hash of every value of data page `page` (stored with `codec`, its values
    /// not dictionary indices, of a column of `physical` type laid out as `layout`) into the
    /// rewriter's Bloom filter, when it has one.
    pub(super) fn hash_values(
        &mut self,
        page: &StoredPage<'_>,
        codec: Codec,
        max: MaxLevels,
        physical: crate::format::Type,
        layout: Layout,
    ) -> Result<()> {
        let Some(mut bloom) = self.bloom.take() else {
            return Ok(());
        };
        let mut scratch = std::mem::take(&mut self.scratch);
        let r = self.hash_into(
            page,
            codec,
            max,
            (physical, layout),
            &mut scratch,
            &mut bloom,
        );
        self.scratch = scratch;
        self.bloom = Some(bloom);
        r
    }

    fn hash_into(
        &mut self,
        page: &StoredPage<'_>,
        codec: Codec,
        max: MaxLevels,
        (physical, layout): (crate::format::Type, Layout),
        scratch: &mut Vec<u8>,
        bloom: &mut Hashes,
    ) -> Result<()> {
        let h = &page.header;
        let uncompressed = size(h.uncompressed_page_size)?;
        let (vals, present, encoding) = match (h.type_, &h.data_page_header, &h.data_page_header_v2)
        {
            (PageType::DATA_PAGE, Some(d), _) => {
                let body = self.v1_body(page.data, codec, uncompressed, scratch)?;
                let (_, vals, present) = self.v1_sections(body, d, max)?;
                (vals, present, d.encoding)
            }
            (PageType::DATA_PAGE_V2, _, Some(d)) => {
                let [rep, def, stored] = v2_sections(page.data, d, uncompressed)?;
                let levels = rep.len() + def.len();
                let present =
                    self.present(def, LevelEncoding::Rle, max.def, size(d.num_values)?)?;
                let vals: &[u8] = if d.values_compressed() && codec != Codec::Uncompressed {
                    let out = crate::codec::scratch_of(scratch, uncompressed - levels);
                    self.decompressor.decompress(codec, stored, out)?;
                    out
                } else {
                    stored
                };
                (vals, present, d.encoding)
            }
            _ => return Ok(()),
        };
        if present == 0 {
            return Ok(());
        }
        let plain = plain_values(
            vals,
            present,
            encoding,
            physical,
            layout,
            &mut self.conversion,
        )?;
        layout.for_each(plain, present, |v| {
            bloom.insert(crate::bloom::hash_bytes(v));
            Ok(())
        })
    }

    /// A v1 body's levels section (repetition then definition levels, as stored), its values
    /// section, and how many values are present (definition level at its maximum).
    fn v1_sections<'b>(
        &mut self,
        body: &'b [u8],
        d: &DataPageHeader<'_>,
        max: MaxLevels,
    ) -> Result<(&'b [u8], &'b [u8], usize)> {
        let n = size(d.num_values)?;
        let (_, rest) = split_v1(
            body,
            level_encoding(d.repetition_level_encoding),
            max.rep,
            n,
        )?;
        let def_enc = level_encoding(d.definition_level_encoding);
        let (def, vals) = split_v1(rest, def_enc, max.def, n)?;
        let present = self.present(def, def_enc, max.def, n)?;
        Ok((&body[..body.len() - vals.len()], vals, present))
    }

    /// Appends a data page v1 of `rows` null entries (definition and repetition levels 0: the
    /// top-level field absent, or an empty list) and no values.
    pub(super) fn nulls(
        &mut self,
        rows: usize,
        max: MaxLevels,
        out: &mut Vec<u8>,
    ) -> Result<WrittenPage> {
        let mut body = std::mem::take(&mut self.body);
        body.clear();
        for level in [max.rep, max.def] {
            if level > 0 {
                let at = body.len();
                body.extend_from_slice(&[0; 4]);
                self.rle.set_width(level_width(level));
                self.rle.put_repeated(0, rows);
                self.rle.finish_into(&mut body);
                let len = (body.len() - at - 4) as u32;
                body[at..at + 4].copy_from_slice(&len.to_le_bytes());
            }
        }
        let header = DataPageHeader {
            num_values: i32::try_from(rows)
                .map_err(|_| Error::invalid(format!("a page of {rows} nulls")))?,
            encoding: Encoding::PLAIN,
            definition_level_encoding: Encoding::RLE,
            repetition_level_encoding: Encoding::RLE,
            statistics: None,
        };
        let r = self.writer.data_v1_body(&header, &body, out);
        self.body = body;
        r
    }
}

fn size(v: i32) -> Result<usize> {
    usize::try_from(v).map_err(|_| Error::oos(format!("a page size of {v}")))
}

/// Whether a data page's values are dictionary indices.
pub(super) fn is_dictionary_encoded(page: &StoredPage<'_>) -> bool {
    matches!(
        value_encoding(page),
        Some(Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY)
    )
}

/// Byte arrays appended PLAIN (a 4-byte little-endian length, then the bytes).
struct PlainSink<'o>(&'o mut Vec<u8>);

impl ByteArraySink for PlainSink<'_> {
    fn reserve(&mut self, values: usize, bytes: usize) -> Result<()> {
        self.0
            .try_reserve(values.saturating_mul(4).saturating_add(bytes))
            .map_err(|e| Error::invalid(format!("{e}")))
    }

    fn push(&mut self, value: &[u8]) -> Result<()> {
        let len = u32::try_from(value.len())
            .map_err(|_| Error::oos(format!("a byte array of {} bytes", value.len())))?;
        self.0.extend_from_slice(&len.to_le_bytes());
        self.0.extend_from_slice(value);
        Ok(())
    }
}

/// A data page v2's stored bytes `data` split into its repetition levels, definition levels
/// and stored values, the level lengths of header `d` checked against the page (its stored
/// and `uncompressed` sizes).
fn v2_sections<'p>(
    data: &'p [u8],
    d: &DataPageHeaderV2<'_>,
    uncompressed: usize,
) -> Result<[&'p [u8]; 3]> {
    let rep_len = size(d.repetition_levels_byte_length)?;
    let def_len = size(d.definition_levels_byte_length)?;
    rep_len
        .checked_add(def_len)
        .filter(|&l| l <= data.len() && l <= uncompressed)
        .ok_or_else(|| {
            Error::oos(format!(
                "levels of {rep_len} + {def_len} bytes do not fit the page's {} bytes",
                data.len()
            ))
        })?;
    let (rep, rest) = data.split_at(rep_len);
    let (def, stored) = rest.split_at(def_len);
    Ok([rep, def, stored])
}

/// Whether a data page's values are DELTA_LENGTH_BYTE_ARRAY or DELTA_BYTE_ARRAY.
pub(super) fn is_delta_byte_array(page: &StoredPage<'_>) -> bool {
    matches!(
        value_encoding(page),
        Some(Encoding::DELTA_BYTE_ARRAY | Encoding::DELTA_LENGTH_BYTE_ARRAY)
    )
}

/// A data page's value encoding.
pub(super) fn value_encoding(page: &StoredPage<'_>) -> Option<Encoding> {
    let h = &page.header;
    match (&h.data_page_header, &h.data_page_header_v2) {
        (Some(d), _) if h.type_ == PageType::DATA_PAGE => Some(d.encoding),
        (_, Some(d)) if h.type_ == PageType::DATA_PAGE_V2 => Some(d.encoding),
        _ => None,
    }
}
