//! Where a reader's bytes come from: a file in memory (a slice or a memory map, whose column
//! chunks are sliced without a copy) or a `Read + Seek` (whose column chunks are read into
//! buffers, in file order, before they are decoded). The footer of a `Read + Seek` is read by
//! [`read_footer`]; the caller keeps it, since the metadata borrows from it.

use crate::metadata::{FOOTER_TAIL_LEN, MAGIC, footer_len};
use crate::page::ChunkBytes;
use quiver_arrow::{Error, Result};
use std::borrow::Cow;
use std::io::{Read, Seek, SeekFrom};
use std::ops::Range;
use std::sync::Mutex;

/// A byte source that can be read at any offset.
pub trait ReadAt: Read + Seek + Send {}

impl<T: Read + Seek + Send> ReadAt for T {}

/// A reader's bytes.
pub(super) enum Source<'a> {
    /// The whole file in memory.
    Bytes(&'a [u8]),
    /// A seekable reader and the file's length.
    Reader(Mutex<Box<dyn ReadAt + 'a>>, u64),
}

impl Source<'_> {
    /// The file's length in bytes.
    pub(super) fn len(&self) -> u64 {
        match self {
            Source::Bytes(b) => b.len() as u64,
            Source::Reader(_, len) => *len,
        }
    }

    /// The bytes of `range` (checked to lie inside the file).
    pub(super) fn fetch(&self, range: Range<u64>) -> Result<Cow<'_, [u8]>> {
        if range.start > range.end || range.end > self.len() {
            return Err(Error::oos(format!(
                "bytes {range:?} are outside the file of {} bytes",
                self.len()
            )));
        }
        match self {
            Source::Bytes(b) => Ok(Cow::Borrowed(&b[range.start as usize..range.end as usize])),
            Source::Reader(r, _) => {
                let mut r = r.lock().unwrap_or_else(|p| p.into_inner());
                let mut buf = Vec::new();
                let len = (range.end - range.start) as usize;
                buf.try_reserve_exact(len)
                    .map_err(|_| Error::overflow(format!("{len} bytes do not fit in memory")))?;
                r.seek(SeekFrom::Start(range.start))?;
                r.by_ref().take(len as u64).read_to_end(&mut buf)?;
                if buf.len() != len {
                    return Err(Error::oos(format!(
                        "the file ended after {} of the {len} bytes at {}",
                        buf.len(),
                        range.start
                    )));
                }
                Ok(Cow::Owned(buf))
            }
        }
    }
}

/// Ranges closer than this are read as one (the bytes between them are read and dropped:
/// fewer, larger reads serve disks and object stores better).
const COALESCE_GAP: u64 = 1 << 20;

impl<'a> Source<'a> {
    /// The bytes of each of `ranges` (sorted by start, not overlapping): slices of the file in
    /// memory, or of reads that each cover ranges less than [`COALESCE_GAP`] apart.
    pub(super) fn fetch_many(&self, ranges: &[Range<u64>]) -> Result<Vec<ChunkBytes<'_>>> {
        if let Source::Bytes(_) = self {
            return ranges
                .iter()
                .map(|r| match self.fetch(r.clone())? {
                    Cow::Borrowed(b) => Ok(ChunkBytes::Borrowed(b)),
                    Cow::Owned(v) => Ok(ChunkBytes::Shared(bytes::Bytes::from(v))),
                })
                .collect();
        }
        let mut out = Vec::with_capacity(ranges.len());
        let mut i = 0;
        while i < ranges.len() {
            let start = ranges[i].start;
            let mut end = ranges[i].end;
            let mut j = i + 1;
            while j < ranges.len() && ranges[j].start >= end && ranges[j].start - end < COALESCE_GAP
            {
                end = end.max(ranges[j].end);
                j += 1;
            }
            let read = bytes::Bytes::from(self.fetch(start..end)?.into_owned());
            for r in &ranges[i..j] {
                let (a, b) = ((r.start - start) as usize, (r.end - start) as usize);
                out.push(ChunkBytes::Shared(read.slice(a..b)));
            }
            i = j;
        }
        Ok(out)
    }
}

/// Reads the footer of a Parquet file from `r`: returns the metadata bytes (the caller keeps
/// them: the reader's metadata borrows from them) and the file's length.
///
/// ```no_run
/// use quiver_parquet::file::{FileReader, read_footer};
/// let mut f = std::fs::File::open("data.parquet")?;
/// let (footer, len) = read_footer(&mut f)?;
/// let reader = FileReader::from_reader(&footer, len, f, Default::default())?;
/// for batch in reader.batches(&Default::default())? {
///     println!("{} rows", batch?.num_rows());
/// }
/// # Ok::<(), quiver_arrow::Error>(())
/// ```
pub fn read_footer(r: &mut (impl Read + Seek)) -> Result<(Vec<u8>, u64)> {
    let len = r.seek(SeekFrom::End(0))?;
    let tail_len = FOOTER_TAIL_LEN as u64;
    if len < tail_len + MAGIC.len() as u64 {
        return Err(Error::oos(format!(
            "not a Parquet file: {len} bytes is too short"
        )));
    }
    r.seek(SeekFrom::Start(len - tail_len))?;
    let mut tail = [0u8; FOOTER_TAIL_LEN];
    r.read_exact(&mut tail)?;
    let needed = footer_len(&tail)? as u64;
    if needed + MAGIC.len() as u64 > len {
        return Err(Error::oos(format!(
            "metadata length {} does not fit in a file of {len} bytes",
            needed - tail_len
        )));
    }
    let meta_len = (needed - tail_len) as usize;
    r.seek(SeekFrom::Start(len - needed))?;
    let mut meta = Vec::new();
    meta.try_reserve_exact(meta_len).map_err(|_| {
        Error::overflow(format!("{meta_len} bytes of metadata do not fit in memory"))
    })?;
    r.by_ref().take(meta_len as u64).read_to_end(&mut meta)?;
    Ok((meta, len))
}
