//! Pages of a column chunk: headers parsed from the chunk's bytes ([`PageReader`], IO-free, a
//! compressed page a slice of the chunk), then a page's bytes checked (CRC) and decompressed
//! into reused scratch and split into repetition levels, definition levels and values
//! ([`decode_page`]).

pub mod write;

use crate::codec::{Codec, Decompressor};
use crate::format::{CompressionCodec, Encoding, PageHeader, PageType};
use crate::levels::{LevelEncoding, split_v1};
use quiver_arrow::{Error, Result};

/// The bytes of a column chunk: borrowed from a file in memory, or a shared slice of a larger
/// read (several nearby chunks fetched at once).
#[derive(Debug, Clone)]
pub enum ChunkBytes<'a> {
    /// Part of a file in memory.
    Borrowed(&'a [u8]),
    /// Part of a buffer read from a file.
    Shared(bytes::Bytes),
}

impl std::ops::Deref for ChunkBytes<'_> {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            ChunkBytes::Borrowed(b) => b,
            ChunkBytes::Shared(b) => b,
        }
    }
}

/// A page as stored: its header and its bytes (compressed, CRC not yet checked).
#[derive(Debug, Clone)]
pub struct StoredPage<'a> {
    /// The page header.
    pub header: PageHeader<'a>,
    /// The page's bytes after the header.
    pub data: &'a [u8],
    /// Where the header starts in the column chunk.
    pub offset: usize,
}

/// Reads the pages of one column chunk from its bytes.
#[derive(Debug)]
pub struct PageReader<'a> {
    chunk: &'a [u8],
    at: PageCursor,
}

/// Where a [`PageReader`] is in its chunk, without the chunk's bytes (to go on later with
/// [`PageReader::resume`]).
#[derive(Debug, Clone, Copy)]
pub struct PageCursor {
    pos: usize,
    /// Values the data pages still owe the chunk.
    values_left: i64,
    /// Uncompressed bytes the pages may still declare (the chunk's total).
    uncompressed_left: i64,
    index: usize,
}

impl PageCursor {
    /// The index of the next page in the chunk.
    pub fn index(&self) -> usize {
        self.index
    }
}

impl<'a> PageReader<'a> {
    /// Pages of `chunk` (the bytes from the dictionary or first data page to the chunk's end)
    /// holding `num_values` values and `total_uncompressed` bytes once decompressed (from the
    /// column metadata, bounding what a page header may declare).
    pub fn new(chunk: &'a [u8], num_values: i64, total_uncompressed: i64) -> Self {
        PageReader {
            chunk,
            at: PageCursor {
                pos: 0,
                values_left: num_values,
                uncompressed_left: total_uncompressed,
                index: 0,
            },
        }
    }

    /// A reader over `chunk` from `cursor`, which [`cursor`](PageReader::cursor) took from a
    /// reader over the same bytes.
    pub fn resume(chunk: &'a [u8], cursor: PageCursor) -> Self {
        PageReader { chunk, at: cursor }
    }

    /// Where the reader is.
    pub fn cursor(&self) -> PageCursor {
        self.at
    }

    /// The next page, or `None` after the last (when the chunk's values are all read or its
    /// bytes end). Index pages and pages of unknown types are skipped.
    pub fn next_page(&mut self) -> Result<Option<StoredPage<'a>>> {
        loop {
            if self.at.pos >= self.chunk.len() || self.at.values_left <= 0 {
                return Ok(None);
            }
            let at = self.at.pos;
            let index = self.at.index;
            let context = || format!("page {index} at byte {at} of the column chunk");
            let (header, len) = PageHeader::decode(&self.chunk[at..])
                .map_err(|e| e.context(format!("{}: header", context())))?;
            let compressed = header.compressed_page_size;
            let uncompressed = header.uncompressed_page_size;
            let start = at + len;
            let end = usize::try_from(compressed)
                .ok()
                .and_then(|c| start.checked_add(c))
                .filter(|&end| end <= self.chunk.len());
            let Some(end) = end else {
                return Err(Error::oos(format!(
                    "{}: compressed size {compressed} runs past the chunk's {} bytes",
                    context(),
                    self.chunk.len()
                )));
            };
            if uncompressed < 0
                || i64::from(uncompressed)
                    > self.at.uncompressed_left.max(0) + i64::from(compressed)
            {
                return Err(Error::oos(format!(
                    "{}: uncompressed size {uncompressed} exceeds what the column chunk declares \
                     ({} bytes left)",
                    context(),
                    self.at.uncompressed_left
                )));
            }
            self.at.uncompressed_left -= i64::from(uncompressed);
            self.at.pos = end;
            self.at.index += 1;
            let values = match header.type_ {
                PageType::DATA_PAGE => header.data_page_header.as_ref().map(|h| h.num_values),
                PageType::DATA_PAGE_V2 => header.data_page_header_v2.as_ref().map(|h| h.num_values),
                PageType::DICTIONARY_PAGE => Some(0),
                _ => continue,
            };
            let Some(values) = values.filter(|&v| v >= 0) else {
                return Err(Error::oos(format!(
                    "{}: {:?} page without a valid header for its type",
                    context(),
                    header.type_
                )));
            };
            if i64::from(values) > self.at.values_left {
                return Err(Error::oos(format!(
                    "{}: {values} values, more than the {} the column chunk has left",
                    context(),
                    self.at.values_left
                )));
            }
            self.at.values_left -= i64::from(values);
            return Ok(Some(StoredPage {
                header,
                data: &self.chunk[start..end],
                offset: at,
            }));
        }
    }
}

/// The codec of a column chunk, or an error for one this version does not know.
pub fn codec(c: CompressionCodec) -> Result<Codec> {
    Ok(match c {
        CompressionCodec::UNCOMPRESSED => Codec::Uncompressed,
        CompressionCodec::SNAPPY => Codec::Snappy,
        CompressionCodec::GZIP => Codec::Gzip,
        CompressionCodec::LZO => Codec::Lzo,
        CompressionCodec::BROTLI => Codec::Brotli,
        CompressionCodec::LZ4 => Codec::Lz4,
        CompressionCodec::ZSTD => Codec::Zstd,
        CompressionCodec::LZ4_RAW => Codec::Lz4Raw,
        CompressionCodec::Unknown(v) => {
            return Err(Error::not_supported(format!("compression codec {v}")));
        }
    })
}

/// A level stream of a page.
#[derive(Debug, Clone, Copy)]
pub struct Levels<'b> {
    /// The encoded levels (empty when the maximum level is 0).
    pub data: &'b [u8],
    /// How they are encoded.
    pub encoding: LevelEncoding,
}

/// A decompressed page.
#[derive(Debug)]
pub enum Page<'b> {
    /// A dictionary page: `num_values` values in `encoding` (PLAIN).
    Dictionary {
        /// The dictionary values.
        values: &'b [u8],
        /// How many.
        num_values: usize,
        /// Their encoding.
        encoding: Encoding,
    },
    /// A data page (v1 or v2).
    Data {
        /// Values including nulls (level entries).
        num_values: usize,
        /// The non-null values' encoding.
        encoding: Encoding,
        /// Repetition levels.
        rep: Levels<'b>,
        /// Definition levels.
        def: Levels<'b>,
        /// The encoded values.
        values: &'b [u8],
    },
}

/// How [`decode_page`] works.
#[derive(Debug, Clone, Copy)]
pub struct PageContext {
    /// The chunk's codec.
    pub codec: Codec,
    /// The column's maximum definition level.
    pub max_def: i16,
    /// The column's maximum repetition level.
    pub max_rep: i16,
    /// Whether to verify page CRCs where present.
    pub verify_crc: bool,
    /// Whether the values of data pages v2 are compressed even where `is_compressed` says
    /// they are not (files of parquet-cpp before Arrow 3.0: ARROW-17100).
    pub v2_always_compressed: bool,
}

fn level_encoding(e: Encoding) -> Result<LevelEncoding> {
    match e {
        Encoding::RLE => Ok(LevelEncoding::Rle),
        Encoding::BIT_PACKED => Ok(LevelEncoding::BitPacked),
        other => Err(Error::oos(format!("levels encoded as {}", other.name()))),
    }
}

fn size(v: i32, what: &str) -> Result<usize> {
    usize::try_from(v).map_err(|_| Error::oos(format!("{what} is {v}")))
}

/// A data page whose decompressed body is nothing but its values: a v1 page of a column
/// without levels, or a v2 page whose level sections are empty.
#[derive(Debug, Clone, Copy)]
pub struct BareValues<'b> {
    /// Values in the page.
    pub num_values: usize,
    /// Their encoding.
    pub encoding: Encoding,
    /// The stored values (compressed unless `compressed` is false).
    pub data: &'b [u8],
    /// Whether `data` is compressed with the chunk's codec.
    pub compressed: bool,
    /// Their size once decompressed.
    pub uncompressed: usize,
}

impl BareValues<'_> {
    /// Decompresses the values into `out`, which must be exactly
    /// [`uncompressed`](BareValues::uncompressed) bytes long.
    pub fn decompress_into(
        &self,
        cx: &PageContext,
        decompressor: &mut Decompressor,
        out: &mut [u8],
    ) -> Result<()> {
        let codec = if self.compressed {
            cx.codec
        } else {
            Codec::Uncompressed
        };
        decompressor.decompress(codec, self.data, out)
    }
}

/// Checks the CRC of `page` if it has one and `cx` asks for it.
pub fn check_crc(page: &StoredPage<'_>, cx: &PageContext) -> Result<()> {
    if cx.verify_crc
        && let Some(crc) = page.header.crc
    {
        let actual = crc32fast::hash(page.data);
        if actual != crc as u32 {
            return Err(Error::oos(format!(
                "CRC mismatch: the header says {:08x}, the page's bytes give {actual:08x}",
                crc as u32
            )));
        }
    }
    Ok(())
}

/// The values of `page` when its body is nothing but values ([`BareValues`]; the CRC is not
/// checked yet: [`check_crc`]), so that they can be decompressed straight to where they go;
/// `None` for any other page (decode it with [`decode_page`]).
pub fn bare_values<'b>(page: &StoredPage<'b>, cx: &PageContext) -> Option<BareValues<'b>> {
    let h = &page.header;
    let bare = match (h.type_, &h.data_page_header, &h.data_page_header_v2) {
        (PageType::DATA_PAGE, Some(d), _) if cx.max_def == 0 && cx.max_rep == 0 => {
            (d.num_values, d.encoding, page.data, true)
        }
        (PageType::DATA_PAGE_V2, _, Some(d))
            if d.repetition_levels_byte_length == 0 && d.definition_levels_byte_length == 0 =>
        {
            let compressed = d.values_compressed() || cx.v2_always_compressed;
            (d.num_values, d.encoding, page.data, compressed)
        }
        _ => return None,
    };
    let num_values = usize::try_from(bare.0).ok()?;
    let uncompressed = usize::try_from(h.uncompressed_page_size).ok()?;
    Some(BareValues {
        num_values,
        encoding: bare.1,
        data: bare.2,
        compressed: bare.3,
        uncompressed,
    })
}

/// Checks and decompresses `page` (into `scratch` unless it is stored uncompressed) and splits
/// it into levels and values.
pub fn decode_page<'b>(
    page: &StoredPage<'b>,
    cx: &PageContext,
    decompressor: &mut Decompressor,
    scratch: &'b mut Vec<u8>,
) -> Result<Page<'b>> {
    let h = &page.header;
    check_crc(page, cx)?;
    let uncompressed = size(h.uncompressed_page_size, "uncompressed_page_size")?;
    match h.type_ {
        PageType::DICTIONARY_PAGE => {
            let d = h
                .dictionary_page_header
                .as_ref()
                .ok_or_else(|| Error::oos("dictionary page without its header"))?;
            Ok(Page::Dictionary {
                values: inflate(
                    page.data,
                    uncompressed,
                    true,
                    cx.codec,
                    decompressor,
                    scratch,
                )?,
                num_values: size(d.num_values, "dictionary num_values")?,
                encoding: d.encoding,
            })
        }
        PageType::DATA_PAGE => {
            let d = h
                .data_page_header
                .as_ref()
                .ok_or_else(|| Error::oos("data page without its header"))?;
            let n = size(d.num_values, "num_values")?;
            let body = inflate(
                page.data,
                uncompressed,
                true,
                cx.codec,
                decompressor,
                scratch,
            )?;
            let rep_enc = level_encoding(d.repetition_level_encoding).unwrap_or(LevelEncoding::Rle);
            let def_enc = level_encoding(d.definition_level_encoding).unwrap_or(LevelEncoding::Rle);
            let (rep, rest) = split_v1(body, rep_enc, cx.max_rep, n)
                .map_err(|e| e.context("repetition levels"))?;
            let (def, values) = split_v1(rest, def_enc, cx.max_def, n)
                .map_err(|e| e.context("definition levels"))?;
            Ok(Page::Data {
                num_values: n,
                encoding: d.encoding,
                rep: Levels {
                    data: rep,
                    encoding: rep_enc,
                },
                def: Levels {
                    data: def,
                    encoding: def_enc,
                },
                values,
            })
        }
        PageType::DATA_PAGE_V2 => {
            let d = h
                .data_page_header_v2
                .as_ref()
                .ok_or_else(|| Error::oos("data page v2 without its header"))?;
            let n = size(d.num_values, "num_values")?;
            let rep_len = size(
                d.repetition_levels_byte_length,
                "repetition_levels_byte_length",
            )?;
            let def_len = size(
                d.definition_levels_byte_length,
                "definition_levels_byte_length",
            )?;
            let levels = rep_len
                .checked_add(def_len)
                .filter(|&l| l <= page.data.len() && l <= uncompressed);
            let Some(levels) = levels else {
                return Err(Error::oos(format!(
                    "levels of {rep_len} + {def_len} bytes do not fit the page's {} bytes",
                    page.data.len()
                )));
            };
            // v2 levels are never compressed; the values are unless `is_compressed` is false.
            let (rep, rest) = page.data.split_at(rep_len);
            let (def, stored) = rest.split_at(def_len);
            let values = inflate(
                stored,
                uncompressed - levels,
                d.values_compressed() || cx.v2_always_compressed,
                cx.codec,
                decompressor,
                scratch,
            )?;
            Ok(Page::Data {
                num_values: n,
                encoding: d.encoding,
                rep: Levels {
                    data: rep,
                    encoding: LevelEncoding::Rle,
                },
                def: Levels {
                    data: def,
                    encoding: LevelEncoding::Rle,
                },
                values,
            })
        }
        other => Err(Error::not_supported(format!("page type {}", other.name()))),
    }
}

/// `data` decompressed to `len` bytes into `scratch`, or `data` itself when stored uncompressed.
fn inflate<'b>(
    data: &'b [u8],
    len: usize,
    compressed: bool,
    codec: Codec,
    decompressor: &mut Decompressor,
    scratch: &'b mut Vec<u8>,
) -> Result<&'b [u8]> {
    if len == 0 {
        // An empty page: some writers store no bytes at all, not even the codec's empty frame.
        return Ok(&[]);
    }
    if !compressed || codec == Codec::Uncompressed {
        if data.len() != len {
            return Err(Error::oos(format!(
                "uncompressed page holds {} bytes, its header says {len}",
                data.len()
            )));
        }
        return Ok(data);
    }
    let out = crate::codec::scratch_of(scratch, len);
    decompressor.decompress(codec, data, out)?;
    Ok(out)
}
