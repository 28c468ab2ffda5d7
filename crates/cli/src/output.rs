//! Output files that appear under their final name only when complete: data goes to a
//! temporary file in the target directory, which is synced and renamed into place on success
//! and removed on any error (or when the process is interrupted before the rename).

use anyhow::{Context, Result};
use quiver_ipc::write::PreallocatedFile;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// Where output goes: standard output, or a temporary file renamed into place by
/// [`Output::commit`].
pub struct Output {
    label: String,
    target: Target,
}

enum Target {
    Stdout,
    File { tmp: NamedTempFile, path: PathBuf },
}

impl Output {
    /// Prepares to write `path` (`-` is standard output).
    pub fn create(path: &Path) -> Result<Output> {
        if crate::source::is_stdio(path) {
            return Ok(Output {
                label: "<stdout>".into(),
                target: Target::Stdout,
            });
        }
        let label = path.display().to_string();
        let tmp = temp_beside(path).with_context(|| format!("{label}: cannot create output"))?;
        Ok(Output {
            label,
            target: Target::File {
                tmp,
                path: path.to_path_buf(),
            },
        })
    }

    /// The name used in messages.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// A buffered writer for the data.
    pub fn writer(&self) -> Result<Box<dyn Write + Send>> {
        Ok(match &self.target {
            Target::Stdout => Box::new(BufWriter::with_capacity(1 << 20, io::stdout())),
            Target::File { tmp, .. } => {
                let f: File = tmp.as_file().try_clone()?;
                // Disk space is reserved ahead of the data (and the rest released on drop).
                Box::new(BufWriter::with_capacity(1 << 20, PreallocatedFile::new(f)))
            }
        })
    }

    /// Makes the output final: syncs the temporary file and renames it over the target.
    pub fn commit(self) -> Result<()> {
        match self.target {
            Target::Stdout => Ok(()),
            Target::File { tmp, path } => {
                let label = self.label;
                tmp.as_file()
                    .sync_all()
                    .with_context(|| format!("{label}: cannot write output"))?;
                tmp.persist(&path)
                    .map_err(|e| e.error)
                    .with_context(|| format!("{label}: cannot move the output into place"))?;
                Ok(())
            }
        }
    }
}

/// A hidden temporary file in the directory of `path`, readable like a normal new file.
fn temp_beside(path: &Path) -> io::Result<NamedTempFile> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut b = tempfile::Builder::new();
    b.prefix(&prefix).suffix(".quiver-tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    b.tempfile_in(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commit_renames_and_drop_removes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        let out = Output::create(&path).unwrap();
        out.writer().unwrap().write_all(b"a\n1\n").unwrap();
        assert!(!path.exists());
        out.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"a\n1\n");

        let other = dir.path().join("never.csv");
        let out = Output::create(&other).unwrap();
        out.writer().unwrap().write_all(b"partial").unwrap();
        drop(out);
        assert!(!other.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn missing_directory_is_an_error() {
        let e = Output::create(Path::new("/nonexistent-dir-quiver/x.arrow"))
            .err()
            .unwrap();
        assert!(format!("{e:#}").contains("/nonexistent-dir-quiver/x.arrow"));
    }
}
