//! Parquet in the command-line tool: the batch source ([`read`]), the schema tree in
//! parquet-mr's text form ([`tree`]), the footer and page listing of `meta` ([`meta`], typed
//! statistics in [`stats`]), `validate`'s chunk-by-chunk check ([`check`]) and the output
//! options of `convert` and `generate` ([`mod@write`]). The reading and writing themselves are
//! quiver-parquet's.

pub mod check;
pub mod meta;
pub mod read;
pub mod stats;
pub mod tree;
pub mod write;

use quiver_arrow::Result;
use quiver_arrow::parallel::ThreadPool;
use quiver_parquet::arrow::options::ReadOptions;
use quiver_parquet::file::FileReader;
use quiver_parquet::format::{ColumnMetaData, PageHeader};
use quiver_parquet::metadata::{ParquetMetaData, chunk_byte_range, parse_file};
use quiver_parquet::page::PageReader;
use std::ops::Range;

/// A Parquet file in memory, its metadata decoded: what `meta` and `validate` walk.
pub struct Opened<'a> {
    bytes: &'a [u8],
    meta: ParquetMetaData<'a>,
    /// The Arrow reader, when the schema maps to Arrow (it knows where old writers' chunks
    /// really end, PARQUET-816).
    reader: std::result::Result<FileReader<'a>, quiver_arrow::Error>,
}

/// Decodes the footer of `bytes` (the error names what is wrong with it).
pub fn open_meta(bytes: &[u8]) -> Result<Opened<'_>> {
    let meta = parse_file(bytes)?;
    let options = ReadOptions {
        threads: ThreadPool::sequential(),
        ..ReadOptions::default()
    };
    let reader = FileReader::try_new(bytes, options);
    Ok(Opened {
        bytes,
        meta,
        reader,
    })
}

impl<'a> Opened<'a> {
    /// The file's metadata.
    pub fn meta(&self) -> &ParquetMetaData<'a> {
        &self.meta
    }

    /// The Arrow reader, or why the schema does not map to Arrow.
    pub fn reader(&self) -> std::result::Result<&FileReader<'a>, &quiver_arrow::Error> {
        self.reader.as_ref()
    }

    /// The byte range of chunk (`g`, `c`)'s pages in the file.
    fn range(&self, g: usize, c: usize) -> Result<Range<u64>> {
        // Validated first: its errors name the row group and column once.
        let chunk = self.meta.column_chunk(g, c)?;
        if let Ok(r) = &self.reader {
            let plan = r.plan_row_group(g, &[c])?;
            if let Some((_, range)) = plan.into_iter().next() {
                return Ok(range);
            }
        }
        chunk_byte_range(&chunk, self.meta.file_len())
            .map_err(|e| e.context(format!("row group {g}, column {c}")))
    }

    /// Chunk (`g`, `c`): where its pages start in the file, their bytes and its metadata.
    pub fn chunk(&self, g: usize, c: usize) -> Result<(u64, &'a [u8], ColumnMetaData<'a>)> {
        let range = self.range(g, c)?;
        let chunk = self.meta.column_chunk(g, c)?;
        let meta = chunk.meta_data.clone().ok_or_else(|| {
            quiver_arrow::Error::oos(format!("row group {g}, column {c}: no metadata"))
        })?;
        let bytes = usize::try_from(range.start)
            .ok()
            .zip(usize::try_from(range.end).ok())
            .and_then(|(a, b)| self.bytes.get(a..b))
            .ok_or_else(|| {
                quiver_arrow::Error::oos(format!(
                    "row group {g}, column {c}: bytes {range:?} are outside the file"
                ))
            })?;
        Ok((range.start, bytes, meta))
    }
}

/// The page headers of chunk (`g`, `c`) with their offsets in the file, and the error that
/// stopped the listing, if any.
pub fn chunk_pages<'a>(
    files: &Opened<'a>,
    g: usize,
    c: usize,
) -> (Vec<(u64, PageHeader<'a>)>, Option<quiver_arrow::Error>) {
    let mut pages = Vec::new();
    let (start, bytes, meta) = match files.chunk(g, c) {
        Ok(chunk) => chunk,
        Err(e) => return (pages, Some(e)),
    };
    let mut reader = PageReader::new(bytes, meta.num_values, meta.total_uncompressed_size);
    loop {
        match reader.next_page() {
            Ok(Some(p)) => pages.push((start + p.offset as u64, p.header)),
            Ok(None) => return (pages, None),
            Err(e) => return (pages, Some(e)),
        }
    }
}
