//! Output that appears under its final name only when complete: bytes go to a temporary file
//! beside the target (`.NAME.XXXXXX.quiver-tmp`, so the rename stays on one file system),
//! which [`AtomicFile::commit`] syncs and renames into place. Dropping an uncommitted file
//! (an error, a panic unwinding) removes the temporary; nothing is left under the final name.

use quiver_arrow::{Error, Result};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// A file written under a temporary name and renamed into place on [`Self::commit`].
///
/// ```
/// use quiver_parquet::file::AtomicFile;
/// use std::io::Write;
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("out.bin");
/// let mut f = AtomicFile::create(&path)?;
/// f.write_all(b"data")?;
/// assert!(!path.exists());
/// f.commit()?;
/// assert_eq!(std::fs::read(&path)?, b"data");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct AtomicFile {
    file: BufWriter<NamedTempFile>,
    target: PathBuf,
}

impl AtomicFile {
    /// Opens a temporary file beside `path`.
    pub fn create(path: &Path) -> Result<AtomicFile> {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| Error::invalid(format!("{}: not a file name", path.display())))?;
        let tmp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".quiver-tmp")
            .tempfile_in(dir)
            .map_err(|e| {
                Error::from(e).context(format!("{}: cannot create output", path.display()))
            })?;
        Ok(AtomicFile {
            file: BufWriter::with_capacity(1 << 20, tmp),
            target: path.to_path_buf(),
        })
    }

    /// The temporary file with everything written so far flushed to it, to write to directly
    /// (at its end, where buffered writes go on).
    pub fn flushed_file(&mut self) -> std::io::Result<&std::fs::File> {
        self.file.flush()?;
        Ok(self.file.get_ref().as_file())
    }

    /// The temporary file's path (while uncommitted).
    pub fn temp_path(&self) -> &Path {
        self.file.get_ref().path()
    }

    /// Flushes, syncs and renames the file into place.
    pub fn commit(self) -> Result<()> {
        let label = self.target.display().to_string();
        let tmp = self
            .file
            .into_inner()
            .map_err(|e| Error::from(e.into_error()).context(label.clone()))?;
        tmp.as_file()
            .sync_all()
            .map_err(|e| Error::from(e).context(label.clone()))?;
        tmp.persist(&self.target)
            .map_err(|e| Error::from(e.error).context(label))?;
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.file.write_all(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}
