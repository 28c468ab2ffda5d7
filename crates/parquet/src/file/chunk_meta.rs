//! The metadata of written column chunks: a finished [`EncodedChunk`] placed at a file offset
//! becomes its `ColumnMetaData` (kept encoded until the footer), its offset index and column
//! index (kept encoded until they are written before the footer) and its bloom filter.

use crate::arrow::column_writer::{EncodedChunk, StatisticsLevel};
use crate::arrow::write_schema::LeafSpec;
use crate::arrow::write_stats::{column_index, statistics};
use crate::codec::Codec;
use crate::format::{
    ColumnChunk, ColumnChunks, ColumnMetaData, CompressionCodec, Encoding, OffsetIndex,
    PageEncodingStats, PageLocation, RowGroup, SizeStatistics, SortingColumn, Statistics,
};
use crate::thrift::{CompactReader, CompactWriter, Encoded, ThriftList, ThriftRead, ThriftWrite};
use quiver_arrow::{Error, Result};

/// A written column chunk, waiting for the footer.
#[derive(Debug)]
pub struct ChunkRecord {
    /// The encoded `ColumnMetaData`.
    pub meta: Vec<u8>,
    /// Where the chunk starts.
    pub file_offset: i64,
    /// Encoded column index, until written.
    pub column_index: Option<Vec<u8>>,
    /// Encoded offset index, until written.
    pub offset_index: Option<Vec<u8>>,
    /// Where the column index was written (offset, length).
    pub column_index_at: Option<(i64, i32)>,
    /// Where the offset index was written (offset, length).
    pub offset_index_at: Option<(i64, i32)>,
}

impl ChunkRecord {
    /// The `ColumnChunk` struct for the footer, borrowing the record.
    pub fn column_chunk(&self) -> Result<ColumnChunk<'_>> {
        let meta = ColumnMetaData::read(&mut CompactReader::new(&self.meta))?;
        Ok(ColumnChunk {
            file_path: None,
            file_offset: self.file_offset,
            meta_data: Some(meta),
            offset_index_offset: self.offset_index_at.map(|a| a.0),
            offset_index_length: self.offset_index_at.map(|a| a.1),
            column_index_offset: self.column_index_at.map(|a| a.0),
            column_index_length: self.column_index_at.map(|a| a.1),
            crypto_metadata: None,
            encrypted_column_metadata: None,
        })
    }
}

/// The thrift value of a codec.
pub fn compression_codec(c: Codec) -> CompressionCodec {
    match c {
        Codec::Uncompressed => CompressionCodec::UNCOMPRESSED,
        Codec::Snappy => CompressionCodec::SNAPPY,
        Codec::Gzip => CompressionCodec::GZIP,
        Codec::Lzo => CompressionCodec::LZO,
        Codec::Brotli => CompressionCodec::BROTLI,
        Codec::Lz4 => CompressionCodec::LZ4,
        Codec::Zstd => CompressionCodec::ZSTD,
        Codec::Lz4Raw => CompressionCodec::LZ4_RAW,
    }
}

/// `v` encoded (thrift compact).
pub(crate) fn encoded<T: ThriftWrite>(v: &T) -> Vec<u8> {
    let mut w = CompactWriter::new();
    v.write(&mut w);
    w.into_bytes()
}

/// Where the parts of a chunk were written.
#[derive(Debug, Clone, Copy)]
pub struct Placement {
    /// The dictionary page's offset (the chunk's start), if any.
    pub dictionary: Option<i64>,
    /// The first data page's offset.
    pub data: i64,
    /// The bloom filter (offset, length), if written.
    pub bloom: Option<(i64, i32)>,
}

/// Builds the record of `chunk` written at `at`.
pub fn chunk_record(
    spec: &LeafSpec,
    codec: Codec,
    level: StatisticsLevel,
    chunk: &EncodedChunk,
    at: Placement,
) -> Result<ChunkRecord> {
    let too_big =
        |what: &str| Error::invalid(format!("column {}: {what} overflows", spec.path.join(".")));
    let stored = (chunk.dictionary_page.len() + chunk.data_pages.len()) as i64;
    let encodings_bytes = ThriftList::<Encoding>::encode(&chunk.encodings);
    let paths: Vec<&str> = spec.path.iter().map(String::as_str).collect();
    let path_bytes = ThriftList::<&str>::encode(&paths);
    let stats_bytes = chunk.statistics.as_ref().map(|(b, nulls)| {
        encoded(&Statistics {
            distinct_count: chunk.distinct_count.map(|n| n as i64),
            ..statistics(b.as_ref(), *nulls)
        })
    });
    let enc_stats_bytes = ThriftList::<PageEncodingStats>::encode(&chunk.encoding_stats);
    let size = SizeStatistics {
        unencoded_byte_array_data_bytes: chunk.unencoded_byte_array_bytes,
        repetition_level_histogram: (!chunk.rep_histogram.is_empty())
            .then(|| chunk.rep_histogram.clone()),
        definition_level_histogram: (!chunk.def_histogram.is_empty())
            .then(|| chunk.def_histogram.clone()),
    };
    let size_bytes = encoded(&size);
    let meta = ColumnMetaData {
        type_: spec.physical,
        encodings: ThriftList::from_encoded(&encodings_bytes, chunk.encodings.len())?,
        path_in_schema: ThriftList::from_encoded(&path_bytes, paths.len())?,
        codec: compression_codec(codec),
        num_values: i64::try_from(chunk.num_values).map_err(|_| too_big("num_values"))?,
        total_uncompressed_size: i64::try_from(chunk.total_uncompressed)
            .map_err(|_| too_big("size"))?,
        total_compressed_size: stored,
        key_value_metadata: None,
        data_page_offset: at.data,
        index_page_offset: None,
        dictionary_page_offset: at.dictionary,
        statistics: match &stats_bytes {
            Some(b) => Some(Encoded::<Statistics>::from_encoded(b)?),
            None => None,
        },
        encoding_stats: Some(ThriftList::from_encoded(
            &enc_stats_bytes,
            chunk.encoding_stats.len(),
        )?),
        bloom_filter_offset: at.bloom.map(|b| b.0),
        bloom_filter_length: at.bloom.map(|b| b.1),
        size_statistics: Some(Encoded::from_encoded(&size_bytes)?),
        geospatial_statistics: None,
    };
    let (column_index, offset_index) = if level == StatisticsLevel::Page {
        page_index(spec, chunk, at.data)
    } else {
        (None, None)
    };
    Ok(ChunkRecord {
        meta: encoded(&meta),
        file_offset: at.dictionary.unwrap_or(at.data),
        column_index,
        offset_index,
        column_index_at: None,
        offset_index_at: None,
    })
}

/// The encoded column index and offset index of a chunk whose data pages start at `data`.
fn page_index(
    spec: &LeafSpec,
    chunk: &EncodedChunk,
    data: i64,
) -> (Option<Vec<u8>>, Option<Vec<u8>>) {
    let offset = OffsetIndex {
        page_locations: chunk
            .pages
            .iter()
            .map(|p| PageLocation {
                offset: data + p.offset as i64,
                compressed_page_size: p.size as i32,
                first_row_index: p.first_row as i64,
            })
            .collect(),
        unencoded_byte_array_data_bytes: None,
    };
    let column =
        column_index(spec.sort_order, spec.physical, &chunk.page_stats).map(|c| encoded(&c));
    (column, Some(encoded(&offset)))
}

/// A written row group, waiting for the footer.
#[derive(Debug)]
pub struct GroupRecord {
    /// Its chunks, in column order.
    pub chunks: Vec<ChunkRecord>,
    /// Its rows.
    pub rows: i64,
    /// Its uncompressed bytes.
    pub total_byte_size: i64,
    /// Where its first chunk starts.
    pub file_offset: i64,
    /// Its stored bytes.
    pub compressed: i64,
    /// How its rows are sorted.
    pub sorting_columns: Option<Vec<SortingColumn>>,
}

/// Writes every chunk's column index, then every offset index, through `put`, from file
/// position `pos`, recording where each went.
pub fn write_indexes(
    groups: &mut [GroupRecord],
    mut pos: u64,
    mut put: impl FnMut(&[u8]) -> Result<()>,
) -> Result<()> {
    for g in groups.iter_mut() {
        for c in &mut g.chunks {
            if let Some(b) = c.column_index.take() {
                c.column_index_at = Some((pos as i64, index_len(&b)?));
                put(&b)?;
                pos += b.len() as u64;
            }
        }
    }
    for g in groups.iter_mut() {
        for c in &mut g.chunks {
            if let Some(b) = c.offset_index.take() {
                c.offset_index_at = Some((pos as i64, index_len(&b)?));
                put(&b)?;
                pos += b.len() as u64;
            }
        }
    }
    Ok(())
}

fn index_len(b: &[u8]) -> Result<i32> {
    i32::try_from(b.len()).map_err(|_| Error::invalid(format!("a page index of {} bytes", b.len())))
}

/// The footer's row groups, borrowing the records.
pub fn row_groups(groups: &[GroupRecord]) -> Result<Vec<RowGroup<'_>>> {
    let mut out = Vec::with_capacity(groups.len());
    for (i, g) in groups.iter().enumerate() {
        let chunks = g
            .chunks
            .iter()
            .map(ChunkRecord::column_chunk)
            .collect::<Result<Vec<_>>>()?;
        out.push(RowGroup {
            columns: ColumnChunks::from_decoded(chunks),
            total_byte_size: g.total_byte_size,
            num_rows: g.rows,
            sorting_columns: g.sorting_columns.clone(),
            file_offset: Some(g.file_offset),
            total_compressed_size: Some(g.compressed),
            ordinal: i16::try_from(i).ok(),
        });
    }
    Ok(out)
}
