//! Writing pages: a page's encoded parts (levels, values) become header + stored bytes,
//! compressed with the chunk's codec and carrying their CRC-32.
//!
//! Data page v1: the repetition levels and the definition levels (each behind a 4-byte length,
//! RLE), then the values, all compressed together. Data page v2: the levels first, never
//! compressed, their lengths in the header, then the values compressed on their own
//! (`is_compressed` false when the values are empty or the codec is UNCOMPRESSED).
//! The CRC covers the page's bytes as stored after the header, as parquet.thrift defines it.
//! An uncompressed v1 page's parts are appended as they are (no copy into one body first).
//!
//! Pages are appended to a [`PageOut`]: a `Vec<u8>`, or [`PageBlocks`] (what the column writer
//! keeps a chunk's pages in until its row group is written).

use crate::codec::{Codec, Compressor};
use crate::format::{
    DataPageHeader, DataPageHeaderV2, DictionaryPageHeader, Encoding, PageHeader, PageType,
    Statistics,
};
use crate::thrift::{CompactWriter, ThriftWrite};
use quiver_arrow::buffer::MutableBuffer;
use quiver_arrow::{Error, Result};

/// Where written pages are appended.
pub trait PageOut {
    /// Appends `bytes`.
    fn append(&mut self, bytes: &[u8]);
}

impl PageOut for Vec<u8> {
    fn append(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// Bytes of each block of [`PageBlocks`] but the first, which grows to this size.
pub const PAGE_BLOCK: usize = 1 << 20;

/// Bytes kept in blocks of [`PAGE_BLOCK`] bytes (the first grows up to that size), each a memory
/// map of its own from the first full block on ([`MutableBuffer`]'s large allocations): growing
/// copies nothing and frees nothing, so a row group's pages leave no holes in the allocator's
/// heap, and only the bytes written are resident (one growing buffer would be advised huge
/// pages past 4 MiB, and the last 2 MiB page of every column chunk would be resident whole).
///
/// With a [`BlockPool`], full blocks are taken from it and go back to it once written
/// ([`PageBlocks::recycle`]): the next row group's pages reuse memory already faulted in rather
/// than mapping (and the kernel zeroing) fresh pages for every row group.
#[derive(Debug, Default)]
pub struct PageBlocks {
    blocks: Vec<MutableBuffer>,
    len: usize,
    pool: Option<BlockPool>,
}

/// Spare blocks of [`PAGE_BLOCK`] bytes for the [`PageBlocks`] of one writer's columns, shared
/// by the threads encoding them (a lock per block taken or returned: once per MiB). It holds
/// no more than the blocks last returned to it, so no more than one row group's pages when the
/// writer returns each row group's before the next one's are written.
#[derive(Debug, Default, Clone)]
pub struct BlockPool(std::sync::Arc<std::sync::Mutex<Vec<MutableBuffer>>>);

impl BlockPool {
    /// An empty pool.
    pub fn new() -> Self {
        Self::default()
    }

    /// A block of [`PAGE_BLOCK`] bytes of capacity, empty: a spare one, or a new one.
    fn take(&self) -> MutableBuffer {
        let spare = self.0.lock().ok().and_then(|mut v| v.pop());
        spare.unwrap_or_else(|| MutableBuffer::with_capacity(PAGE_BLOCK))
    }

    /// Blocks held for reuse.
    pub fn spare(&self) -> usize {
        self.0.lock().map_or(0, |v| v.len())
    }
}

impl PageBlocks {
    /// No bytes.
    pub fn new() -> Self {
        Self::default()
    }

    /// No bytes; full blocks come from `pool`.
    pub fn with_pool(pool: BlockPool) -> Self {
        PageBlocks {
            pool: Some(pool),
            ..Self::default()
        }
    }

    /// Bytes held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no bytes are held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes, block by block.
    pub fn blocks(&self) -> impl Iterator<Item = &[u8]> {
        self.blocks.iter().map(MutableBuffer::as_slice)
    }

    /// Gives the blocks after the first back to the pool, emptied; the first, which grew on
    /// its own (a small chunk takes no whole block), is freed, so the pool holds no more blocks
    /// than were taken from it or mapped for it. Without a pool, frees them all.
    ///
    /// A last block not filled has its unwritten pages given back to the system
    /// ([`MutableBuffer::release_spare`]) and goes under the full ones: the pool is taken from
    /// the top, so the next row group's first blocks are full ones, and the partly resident
    /// ones are taken last, near the end of the row group, where its columns' last, partly
    /// filled blocks are taken. The blocks of a row group then hold about the memory fresh
    /// maps would.
    pub fn recycle(self) {
        let Some(pool) = self.pool else { return };
        let Ok(mut spare) = pool.0.lock() else { return };
        for mut b in self.blocks.into_iter().skip(1) {
            if b.len() < PAGE_BLOCK {
                b.clear();
                b.release_spare();
                spare.insert(0, b);
            } else {
                b.clear();
                spare.push(b);
            }
        }
    }
}

impl PageOut for PageBlocks {
    fn append(&mut self, mut bytes: &[u8]) {
        self.len += bytes.len();
        while !bytes.is_empty() {
            let room = self.blocks.last().map_or(0, |b| PAGE_BLOCK - b.len());
            if room == 0 {
                let b = match &self.pool {
                    _ if self.blocks.is_empty() => MutableBuffer::new(),
                    Some(pool) => pool.take(),
                    None => MutableBuffer::with_capacity(PAGE_BLOCK),
                };
                self.blocks.push(b);
                continue;
            }
            let (now, rest) = bytes.split_at(room.min(bytes.len()));
            if let Some(b) = self.blocks.last_mut() {
                b.extend_from_slice(now);
            }
            bytes = rest;
        }
    }
}

/// One data page's parts, encoded but not compressed.
#[derive(Debug, Clone)]
pub struct DataPage<'p> {
    /// Level entries (values and nulls) in the page.
    pub num_values: usize,
    /// Entries that are null at some level (definition level below the maximum).
    pub num_nulls: usize,
    /// Records (entries with repetition level 0) in the page.
    pub num_rows: usize,
    /// How the values are encoded.
    pub encoding: Encoding,
    /// Repetition levels, RLE, without length prefix (empty when the maximum is 0).
    pub rep: &'p [u8],
    /// Definition levels, RLE, without length prefix (empty when the maximum is 0).
    pub def: &'p [u8],
    /// The encoded values.
    pub values: &'p [u8],
    /// The page's statistics, if written in the header.
    pub statistics: Option<Statistics<'p>>,
}

/// What a written page took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrittenPage {
    /// Header bytes.
    pub header_len: usize,
    /// Bytes after the header, as stored.
    pub compressed_len: usize,
    /// Bytes after the header, uncompressed.
    pub uncompressed_len: usize,
}

impl WrittenPage {
    /// The page's whole size in the file (header included).
    pub fn stored_len(&self) -> usize {
        self.header_len + self.compressed_len
    }
}

/// The CRC32 of a page's stored bytes, given in parts, when CRCs are written (`on`).
fn page_crc(on: bool, parts: &[&[u8]]) -> Option<i32> {
    on.then(|| {
        let mut h = crc32fast::Hasher::new();
        parts.iter().for_each(|p| h.update(p));
        h.finalize() as i32
    })
}

/// Writes pages with one codec, reusing its scratch buffers.
#[derive(Debug)]
pub struct PageWriter {
    compressor: Compressor,
    crc: bool,
    body: Vec<u8>,
    header: CompactWriter,
}

fn page_size(n: usize, what: &str) -> Result<i32> {
    i32::try_from(n).map_err(|_| {
        Error::invalid(format!(
            "a page's {what} would be {n} bytes, more than a page header can hold (2^31 - 1)"
        ))
    })
}

fn count(n: usize, what: &str) -> Result<i32> {
    i32::try_from(n)
        .map_err(|_| Error::invalid(format!("a page would hold {n} {what}, more than 2^31 - 1")))
}

impl PageWriter {
    /// A writer compressing with `codec` at `level`, writing CRCs when `crc`.
    pub fn new(codec: Codec, level: Option<i32>, crc: bool) -> Result<PageWriter> {
        Ok(PageWriter {
            compressor: Compressor::new(codec, level)?,
            crc,
            body: Vec::new(),
            header: CompactWriter::new(),
        })
    }

    /// The codec.
    pub fn codec(&self) -> Codec {
        self.compressor.codec()
    }

    /// Appends a dictionary page of `num_values` PLAIN-encoded `values` to `out`.
    pub fn dictionary(
        &mut self,
        num_values: usize,
        values: &[u8],
        out: &mut impl PageOut,
    ) -> Result<WrittenPage> {
        let stored = self.compressor.compress(values)?;
        let header = PageHeader {
            type_: PageType::DICTIONARY_PAGE,
            uncompressed_page_size: page_size(values.len(), "values")?,
            compressed_page_size: page_size(stored.len(), "stored bytes")?,
            crc: page_crc(self.crc, &[stored]),
            data_page_header: None,
            index_page_header: false,
            dictionary_page_header: Some(DictionaryPageHeader {
                num_values: count(num_values, "dictionary values")?,
                encoding: Encoding::PLAIN,
                is_sorted: None,
            }),
            data_page_header_v2: None,
        };
        Ok(emit(
            &mut self.header,
            &header,
            &[stored],
            values.len(),
            out,
        ))
    }

    /// Appends a data page v1 to `out`.
    pub fn data_v1(&mut self, page: &DataPage<'_>, out: &mut impl PageOut) -> Result<WrittenPage> {
        let header = DataPageHeader {
            num_values: count(page.num_values, "values")?,
            encoding: page.encoding,
            definition_level_encoding: Encoding::RLE,
            repetition_level_encoding: Encoding::RLE,
            statistics: page.statistics.clone(),
        };
        // Each level stream behind its 4-byte length (none for a stream that is absent).
        let prefix = |levels: &[u8]| -> Result<[u8; 4]> {
            Ok(page_size(levels.len(), "levels")?.to_le_bytes())
        };
        let (rep_len, def_len) = (prefix(page.rep)?, prefix(page.def)?);
        let len_of = |levels: &[u8]| if levels.is_empty() { 0 } else { 4 };
        let parts = [
            &rep_len[..len_of(page.rep)],
            page.rep,
            &def_len[..len_of(page.def)],
            page.def,
            page.values,
        ];
        if self.codec() == Codec::Uncompressed {
            return self.data_v1_stored(&header, &parts, out);
        }
        let mut body = std::mem::take(&mut self.body);
        body.clear();
        for p in parts {
            body.extend_from_slice(p);
        }
        let r = self.data_v1_body(&header, &body, out);
        self.body = body;
        r
    }

    /// Appends an uncompressed data page v1 whose body is `parts` one after the other.
    fn data_v1_stored(
        &mut self,
        header: &DataPageHeader<'_>,
        parts: &[&[u8]],
        out: &mut impl PageOut,
    ) -> Result<WrittenPage> {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        self.data_v1_compressed(header, parts, len, out)
    }

    /// Appends a data page v1 whose stored body is `parts` one after the other, already in
    /// the writer's codec, decompressing to `uncompressed` bytes (the caller vouches for
    /// both: the page's CRC is computed over the parts as given).
    pub fn data_v1_compressed(
        &mut self,
        header: &DataPageHeader<'_>,
        parts: &[&[u8]],
        uncompressed: usize,
        out: &mut impl PageOut,
    ) -> Result<WrittenPage> {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        let crc = page_crc(self.crc, parts);
        let header = PageHeader {
            type_: PageType::DATA_PAGE,
            uncompressed_page_size: page_size(uncompressed, "bytes")?,
            compressed_page_size: page_size(len, "stored bytes")?,
            crc,
            data_page_header: Some(header.clone()),
            index_page_header: false,
            dictionary_page_header: None,
            data_page_header_v2: None,
        };
        Ok(emit(&mut self.header, &header, parts, uncompressed, out))
    }

    /// Appends a data page v1 with `header` whose decompressed body (levels as the header's
    /// level encodings store them, then the values) is `body`, compressed here.
    pub fn data_v1_body(
        &mut self,
        header: &DataPageHeader<'_>,
        body: &[u8],
        out: &mut impl PageOut,
    ) -> Result<WrittenPage> {
        let stored = self.compressor.compress(body)?;
        let header = PageHeader {
            type_: PageType::DATA_PAGE,
            uncompressed_page_size: page_size(body.len(), "bytes")?,
            compressed_page_size: page_size(stored.len(), "stored bytes")?,
            crc: page_crc(self.crc, &[stored]),
            data_page_header: Some(header.clone()),
            index_page_header: false,
            dictionary_page_header: None,
            data_page_header_v2: None,
        };
        Ok(emit(&mut self.header, &header, &[stored], body.len(), out))
    }

    /// Appends a data page v2 to `out`.
    pub fn data_v2(&mut self, page: &DataPage<'_>, out: &mut impl PageOut) -> Result<WrittenPage> {
        let header = DataPageHeaderV2 {
            num_values: count(page.num_values, "values")?,
            num_nulls: count(page.num_nulls, "nulls")?,
            num_rows: count(page.num_rows, "rows")?,
            encoding: page.encoding,
            definition_levels_byte_length: 0,
            repetition_levels_byte_length: 0,
            is_compressed: None,
            statistics: page.statistics.clone(),
        };
        self.data_v2_parts(&header, page.rep, page.def, page.values, out)
    }

    /// Appends a data page v2 with `header`'s counts, encoding and statistics (the level
    /// lengths and `is_compressed` are set here) of levels `rep` and `def` (stored as they
    /// are) and uncompressed `values` (compressed here unless empty or the codec is
    /// UNCOMPRESSED).
    pub fn data_v2_parts(
        &mut self,
        header: &DataPageHeaderV2<'_>,
        rep: &[u8],
        def: &[u8],
        values: &[u8],
        out: &mut impl PageOut,
    ) -> Result<WrittenPage> {
        let compress = self.codec() != Codec::Uncompressed && !values.is_empty();
        let stored = if compress {
            self.compressor.compress(values)?
        } else {
            values
        };
        let levels = rep.len() + def.len();
        let uncompressed = levels + values.len();
        let stored_len = levels + stored.len();
        let crc = page_crc(self.crc, &[rep, def, stored]);
        let header = PageHeader {
            type_: PageType::DATA_PAGE_V2,
            uncompressed_page_size: page_size(uncompressed, "bytes")?,
            compressed_page_size: page_size(stored_len, "stored bytes")?,
            crc,
            data_page_header: None,
            index_page_header: false,
            dictionary_page_header: None,
            data_page_header_v2: Some(DataPageHeaderV2 {
                definition_levels_byte_length: page_size(def.len(), "definition levels")?,
                repetition_levels_byte_length: page_size(rep.len(), "repetition levels")?,
                is_compressed: Some(compress),
                ..header.clone()
            }),
        };
        let parts = [rep, def, stored];
        Ok(emit(&mut self.header, &header, &parts, uncompressed, out))
    }
}

/// Appends the encoded header and the stored parts to `out`.
fn emit(
    w: &mut CompactWriter,
    header: &PageHeader<'_>,
    parts: &[&[u8]],
    uncompressed_len: usize,
    out: &mut impl PageOut,
) -> WrittenPage {
    w.clear();
    header.write(w);
    out.append(w.as_bytes());
    let mut compressed_len = 0;
    for p in parts {
        out.append(p);
        compressed_len += p.len();
    }
    WrittenPage {
        header_len: w.as_bytes().len(),
        compressed_len,
        uncompressed_len,
    }
}

#[cfg(test)]
mod tests;
