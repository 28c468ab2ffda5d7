//! How one column is written ([`ColumnOptions`]): codec, page version and size, dictionary
//! and its limit, encodings, statistics, CRCs, bloom filter. Re-exported by
//! [`column_writer`](super::column_writer), whose writer follows them.

use crate::codec::Codec;
use crate::format::Encoding;

/// The data page format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PageVersion {
    /// Data page v1 (what every reader handles).
    #[default]
    V1,
    /// Data page v2 (levels uncompressed, records never span pages).
    V2,
}

/// Which statistics are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StatisticsLevel {
    /// None.
    None,
    /// The column chunk's statistics only.
    Chunk,
    /// The chunk's statistics and the page index (column index and offset index).
    #[default]
    Page,
}

/// A bloom filter's sizing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BloomOptions {
    /// Distinct values expected per column chunk.
    pub ndv: u64,
    /// False-positive probability.
    pub fpp: f64,
}

/// How one column is written.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnOptions {
    /// The codec.
    pub codec: Codec,
    /// The codec's level (`None`: its default).
    pub level: Option<i32>,
    /// Data page v1 or v2.
    pub page_version: PageVersion,
    /// Dictionary-encode while the dictionary stays under `dictionary_limit`.
    pub dictionary: bool,
    /// Bytes of PLAIN-encoded dictionary values after which the chunk falls back.
    pub dictionary_limit: usize,
    /// The encoding of pages not dictionary-encoded: `None` chooses (PLAIN, or in the modern
    /// profile whichever of PLAIN and the type's delta / byte-stream-split encoding is smaller).
    pub encoding: Option<Encoding>,
    /// Try the delta and byte-stream-split encodings for non-dictionary pages (`encoding: None`).
    pub choose_encoding: bool,
    /// Encoded bytes after which a page is closed.
    pub page_size: usize,
    /// Rows after which a page is closed.
    pub page_rows: usize,
    /// Statistics written.
    pub statistics: StatisticsLevel,
    /// Longest min/max kept whole in the column index (and 4 KiB in the chunk statistics).
    pub truncate_length: usize,
    /// Write page CRCs.
    pub crc: bool,
    /// Bloom filter, if any.
    pub bloom: Option<BloomOptions>,
    /// Write the chunk statistics' `distinct_count` when it is known exactly: for chunks whose
    /// every data page is dictionary-encoded (the distinct non-null values as `COUNT(DISTINCT)`
    /// counts them: every NaN one value, `-0.0` and `+0.0` one value; see
    /// [`distinct`](super::distinct)). Needs statistics and dictionary encoding.
    pub distinct_count: bool,
}

impl Default for ColumnOptions {
    fn default() -> Self {
        ColumnOptions {
            codec: Codec::Snappy,
            level: None,
            page_version: PageVersion::V1,
            dictionary: true,
            dictionary_limit: 1 << 20,
            encoding: None,
            choose_encoding: false,
            page_size: 1 << 20,
            page_rows: 20_000,
            statistics: StatisticsLevel::Page,
            truncate_length: 64,
            crc: true,
            bloom: None,
            distinct_count: false,
        }
    }
}
