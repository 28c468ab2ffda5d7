//! Where a merge writes: bytes it made, and ranges it copies from input files.
//!
//! A range of an input is copied with [`std::io::copy`] from the input's `File` (taking the
//! range) to the output `File`: on Linux the standard library does this with
//! `copy_file_range`, which copies inside the kernel, and which file systems that share
//! extents (Btrfs, XFS) turn into reflinks where the ranges line up with their blocks; it
//! falls back to `sendfile`, `splice` or a buffered copy where those are not available. An
//! input without a `File` (bytes in memory) is written from its bytes.

use quiver_arrow::{Error, Result};
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};

/// The output of a merge.
pub trait MergeSink {
    /// Appends `bytes`.
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()>;
    /// Appends `len` bytes of `file` from `offset` (`bytes` are the same bytes, for sinks
    /// that cannot copy between files).
    fn copy_range(&mut self, file: &File, offset: u64, len: u64, bytes: &[u8]) -> Result<()>;
    /// Flushes what is buffered.
    fn flush(&mut self) -> Result<()>;
}

impl MergeSink for Vec<u8> {
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.extend_from_slice(bytes);
        Ok(())
    }

    fn copy_range(&mut self, _file: &File, _offset: u64, _len: u64, bytes: &[u8]) -> Result<()> {
        self.extend_from_slice(bytes);
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        Ok(())
    }
}

/// A sink over a file: small writes buffered, ranges copied between files by the kernel.
#[derive(Debug)]
pub struct FileSink {
    out: BufWriter<File>,
}

impl FileSink {
    /// A sink appending to `file` (positioned where the merge starts writing).
    pub fn new(file: File) -> FileSink {
        FileSink {
            out: BufWriter::with_capacity(1 << 20, file),
        }
    }

    /// The file, once flushed.
    pub fn into_file(self) -> Result<File> {
        self.out.into_inner().map_err(|e| io_error(e.into_error()))
    }
}

fn io_error(e: std::io::Error) -> Error {
    Error::from(e).context("writing the merged file")
}

impl MergeSink for FileSink {
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.out.write_all(bytes).map_err(io_error)
    }

    fn copy_range(&mut self, file: &File, offset: u64, len: u64, _bytes: &[u8]) -> Result<()> {
        // `BufWriter<File>` is a writer the standard library's kernel copy recognises (it
        // flushes the buffer first).
        copy_range_to(file, offset, len, &mut self.out)
    }

    fn flush(&mut self) -> Result<()> {
        self.out.flush().map_err(io_error)
    }
}

/// Copies `len` bytes of `src` from `offset` to `out` with [`std::io::copy`], which copies
/// inside the kernel when both ends are files it recognises (`Take<&File>` into `File`,
/// `&File` or `BufWriter<File>`).
pub(crate) fn copy_range_to<W: Write + ?Sized>(
    src: &File,
    offset: u64,
    len: u64,
    out: &mut W,
) -> Result<()> {
    let mut src = src;
    src.seek(SeekFrom::Start(offset))
        .map_err(|e| Error::from(e).context("reading an input"))?;
    let copied = std::io::copy(&mut src.take(len), out).map_err(io_error)?;
    if copied != len {
        return Err(Error::oos(format!(
            "an input ended after {copied} of the {len} bytes copied from offset {offset}: \
             was it changed during the merge?"
        )));
    }
    Ok(())
}

impl MergeSink for crate::file::AtomicFile {
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.write_all(bytes).map_err(io_error)
    }

    fn copy_range(&mut self, file: &File, offset: u64, len: u64, _bytes: &[u8]) -> Result<()> {
        let mut out = self.flushed_file().map_err(io_error)?;
        copy_range_to(file, offset, len, &mut out)
    }

    fn flush(&mut self) -> Result<()> {
        Write::flush(self).map_err(io_error)
    }
}
