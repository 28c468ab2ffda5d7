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
    /// Bytes handed to the sink.
    written: u64,
    /// Start disk writes of what is written as the merge goes ([`Self::writing_back`]).
    write_back: bool,
    /// Bytes whose disk writes were started.
    started: u64,
}

/// How many bytes written [`FileSink::writing_back`] lets gather before starting their disk
/// writes.
const WRITE_BACK_STEP: u64 = 16 << 20;

impl FileSink {
    /// A sink appending to `file` (positioned where the merge starts writing).
    pub fn new(file: File) -> FileSink {
        FileSink {
            out: BufWriter::with_capacity(1 << 20, file),
            written: 0,
            write_back: false,
            started: 0,
        }
    }

    /// With `on`, the sink starts the disk writes of every 16 MiB it has written (Linux's
    /// `sync_file_range(SYNC_FILE_RANGE_WRITE)`, which does not wait for them), for a file
    /// that will be synced when complete: the disk then writes while the merge goes on, and
    /// the final sync waits only for the last part. Without a sync to come it would only
    /// spend the merge's time on work the kernel does later anyway.
    pub fn writing_back(mut self, on: bool) -> FileSink {
        self.write_back = on;
        self
    }

    /// Starts the disk writes of what reached the file since the last start, once it is
    /// [`WRITE_BACK_STEP`] bytes or more.
    fn write_back(&mut self) {
        if !self.write_back {
            return;
        }
        let in_file = self.written - self.out.buffer().len() as u64;
        if in_file < self.started + WRITE_BACK_STEP {
            return;
        }
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            let (Ok(from), Ok(len)) = (
                i64::try_from(self.started),
                i64::try_from(in_file - self.started),
            ) else {
                return;
            };
            // SAFETY: the call reads no memory of this process; the descriptor is the
            // output's, open for as long as `self.out`. Its result is advice only: an error
            // (a file system without the call) changes nothing, and the final sync reports
            // any failure to write.
            unsafe {
                libc::sync_file_range(
                    self.out.get_ref().as_raw_fd(),
                    from,
                    len,
                    libc::SYNC_FILE_RANGE_WRITE,
                );
            }
        }
        self.started = in_file;
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
        self.out.write_all(bytes).map_err(io_error)?;
        self.written += bytes.len() as u64;
        self.write_back();
        Ok(())
    }

    fn copy_range(&mut self, file: &File, offset: u64, len: u64, _bytes: &[u8]) -> Result<()> {
        // `BufWriter<File>` is a writer the standard library's kernel copy recognises (it
        // flushes the buffer first).
        copy_range_to(file, offset, len, &mut self.out)?;
        self.written += len;
        self.write_back();
        Ok(())
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
