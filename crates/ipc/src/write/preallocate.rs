//! A file sink that reserves disk space ahead of the data.
//!
//! Writing into the page cache of a file whose blocks are not yet allocated makes the file
//! system reserve space page by page (ext4's delayed allocation). Reserving it in large
//! steps beforehand (`fallocate` with `FALLOC_FL_KEEP_SIZE`, which leaves the file size
//! alone) made writing a 1 GB IPC file on ext4 about 25% faster on the project's machine
//! (0.25 s → 0.19 s for 1 GB from memory). What is reserved and not written is released when
//! the sink is finished or dropped.

use super::SyncAhead;
use std::fs::File;
use std::io::{self, Seek, Write};
use std::sync::Arc;

/// Smallest reservation step.
#[cfg(target_os = "linux")]
const MIN_STEP: u64 = 64 << 20;
/// Largest reservation step.
#[cfg(target_os = "linux")]
const MAX_STEP: u64 = 1 << 30;

/// A [`Write`] over a [`File`] that reserves disk space in steps of 64 MiB to 1 GiB (an
/// eighth of what has been written) before the data reaches it, on Linux. Where the file
/// system (or a pipe) cannot reserve, it writes like the plain file. Unbuffered: wrap it in a
/// [`std::io::BufWriter`] for small writes, as the IPC writers' metadata writes are.
///
/// ```
/// use quiver_ipc::write::PreallocatedFile;
/// use std::io::Write;
/// let path = std::env::temp_dir().join(format!("quiver-prealloc-doc-{}", std::process::id()));
/// let mut sink = PreallocatedFile::new(std::fs::File::create(&path).unwrap());
/// sink.write_all(b"ARROW1").unwrap();
/// let file = sink.finish().unwrap();
/// assert_eq!(file.metadata().unwrap().len(), 6);
/// # std::fs::remove_file(&path).unwrap();
/// ```
#[derive(Debug)]
pub struct PreallocatedFile {
    file: Option<File>,
    /// Offset of the next write.
    pos: u64,
    /// Space is reserved up to here.
    reserved: u64,
    /// False once a reservation failed (or off Linux).
    reserving: bool,
    /// Told how far the file was written ([`PreallocatedFile::syncing_ahead`]).
    syncer: Option<Arc<SyncAhead>>,
}

impl PreallocatedFile {
    /// Wraps `file`, writing from its current position (a file without one, such as a
    /// pipe, is written without reserving).
    pub fn new(mut file: File) -> Self {
        let pos = file.stream_position().ok();
        PreallocatedFile {
            file: Some(file),
            pos: pos.unwrap_or(0),
            reserved: pos.unwrap_or(0),
            reserving: cfg!(target_os = "linux") && pos.is_some(),
            syncer: None,
        }
    }

    /// Tells `syncer` (started on the same file) how far the file was written after each
    /// write, so that it syncs the file while it is being written: for a file that is synced
    /// when complete.
    pub fn syncing_ahead(mut self, syncer: Arc<SyncAhead>) -> Self {
        self.syncer = Some(syncer);
        self
    }

    /// Releases the space reserved beyond what was written and returns the file.
    pub fn finish(mut self) -> io::Result<File> {
        self.release()?;
        Ok(self.file.take().expect("present until finished")) // ok: present until finished.
    }

    fn file(&mut self) -> &mut File {
        self.file.as_mut().expect("present until finished") // ok: present until finished.
    }

    fn release(&mut self) -> io::Result<()> {
        if self.reserved > self.pos {
            release_space(self.file())?;
            self.reserved = self.pos;
        }
        Ok(())
    }

    /// Reserves space for `n` more bytes if the reservation does not cover them.
    fn reserve(&mut self, n: u64) {
        let end = self.pos.saturating_add(n);
        if !self.reserving || end <= self.reserved {
            return;
        }
        let step = (self.pos / 8)
            .clamp(MIN_STEP, MAX_STEP)
            .max(end - self.reserved);
        let at = self.reserved;
        if reserve_space(self.file(), at, step) {
            self.reserved += step;
        } else {
            self.reserving = false;
        }
    }
}

/// Reserves disk blocks for bytes `offset..offset + len` of `file` without changing its size
/// (`fallocate` with `FALLOC_FL_KEEP_SIZE`), so that writes there find their blocks
/// allocated. Returns whether they were reserved: not off Linux, nor where the file system
/// cannot (or a pipe), nor on a full disk, where the writes themselves then say what is
/// wrong. Blocks reserved past what is written stay allocated until [`release_space`].
pub fn reserve_space(file: &File, offset: u64, len: u64) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let (Ok(offset), Ok(len)) = (libc::off_t::try_from(offset), libc::off_t::try_from(len))
        else {
            return false;
        };
        // SAFETY: the descriptor belongs to `file`, open for the call; `fallocate` passes no
        // memory, only reserves blocks without changing the size (KEEP_SIZE).
        unsafe { libc::fallocate(file.as_raw_fd(), libc::FALLOC_FL_KEEP_SIZE, offset, len) == 0 }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (file, offset, len);
        false
    }
}

/// Frees the blocks [`reserve_space`] reserved past the end of `file` and not written:
/// truncating a file to its own size releases them.
pub fn release_space(file: &File) -> io::Result<()> {
    let len = file.metadata()?.len();
    file.set_len(len)
}

impl Write for PreallocatedFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.reserve(buf.len() as u64);
        let n = self.file().write(buf)?;
        self.pos += n as u64;
        if let Some(s) = &self.syncer {
            s.wrote(self.pos);
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}

impl Drop for PreallocatedFile {
    fn drop(&mut self) {
        if self.file.is_some() {
            let _ = self.release();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    #[test]
    fn reserves_ahead_and_releases_what_was_not_written() {
        let path =
            std::env::temp_dir().join(format!("quiver-prealloc-test-{}", std::process::id()));
        let mut sink = PreallocatedFile::new(File::create(&path).unwrap());
        let data = vec![7u8; 3 << 20];
        sink.write_all(&data).unwrap();
        sink.write_all(b"tail").unwrap();
        let f = sink.file().try_clone().unwrap();
        if cfg!(target_os = "linux") && sink.reserving {
            // 64 MiB are reserved while the size stays what was written.
            assert!(f.metadata().unwrap().blocks() * 512 >= 64 << 20);
        }
        assert_eq!(f.metadata().unwrap().len(), data.len() as u64 + 4);
        let file = sink.finish().unwrap();
        let m = file.metadata().unwrap();
        assert_eq!(m.len(), data.len() as u64 + 4);
        assert!(
            m.blocks() * 512 < 8 << 20,
            "{} bytes still allocated",
            m.blocks() * 512
        );
        let back = std::fs::read(&path).unwrap();
        assert_eq!(&back[..data.len()], &data[..]);
        assert_eq!(&back[data.len()..], b"tail");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn pipes_write_without_reserving() {
        let (mut reader, writer) = std::io::pipe().unwrap();
        let mut sink = PreallocatedFile::new(File::from(std::os::fd::OwnedFd::from(writer)));
        sink.write_all(b"through a pipe").unwrap();
        assert!(!sink.reserving);
        drop(sink.finish().unwrap());
        let mut got = String::new();
        std::io::Read::read_to_string(&mut reader, &mut got).unwrap();
        assert_eq!(got, "through a pipe");
    }
}
