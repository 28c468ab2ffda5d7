//! Output files that appear under their final name only when complete: data goes to a
//! temporary file in the target directory, which is synced and renamed into place on success
//! and removed on any error, or when `SIGINT`, `SIGTERM` or `SIGHUP` ends the process
//! ([`crate::interrupt`]).
//!
//! As `cp` and shell redirections treat their targets: a symbolic link is followed (its
//! target is replaced, the link kept), a file replaced keeps its permissions (not its hard
//! links: the rename puts a new file in its place), and an existing output that is not a
//! regular file (a FIFO, `/dev/stdout`, a `/dev/fd/N` pipe) is written in place, without a
//! temporary file (and so without the guarantee).
//!
//! The temporary file of `DIR/NAME` is `DIR/.NAME.PID.XXXXXX.quiver-tmp` (PID: the writing
//! process). Only `SIGKILL`, a crash of the machine or the like can leave one behind, so
//! before writing `DIR/NAME` quiver removes the stale temporaries of that same target: those
//! whose process no longer runs on this machine and that were not modified for
//! [`STALE_IDLE`], and any not modified for [`STALE_ANY`] (a writer modifies its file as it
//! goes; the idle time spares a live writer on another machine sharing the directory).

use anyhow::{Context, Result};
use quiver_ipc::write::{PreallocatedFile, SyncAhead};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};
use tempfile::NamedTempFile;

/// A temporary file of a process that no longer runs is stale after this long unmodified.
pub const STALE_IDLE: Duration = Duration::from_secs(10);
/// Any temporary file is stale after this long unmodified.
pub const STALE_ANY: Duration = Duration::from_secs(24 * 3600);

/// The suffix of every temporary output file.
const SUFFIX: &str = ".quiver-tmp";

/// Where output goes: standard output, or a temporary file renamed into place by
/// [`Output::commit`].
pub struct Output {
    label: String,
    target: Target,
}

enum Target {
    Stdout,
    /// An existing output that is not a regular file (a FIFO, a character device such as a
    /// terminal or `/dev/stdout`, a pipe named by `/dev/fd/N`): written in place, as a shell
    /// redirection would; no temporary file can stand in for it.
    Direct(File),
    File {
        /// Syncing the file as it is written ([`Output::writer_syncing`]).
        syncer: Option<Arc<SyncAhead>>,
        // Declared before the registration: dropped (the file removed) first.
        tmp: NamedTempFile,
        registration: crate::interrupt::Registration,
        path: PathBuf,
    },
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
        let (path, existing) =
            resolve(path).with_context(|| format!("{label}: cannot create output"))?;
        if let Some(meta) = &existing
            && !meta.is_file()
        {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .with_context(|| format!("{label}: cannot open output"))?;
            return Ok(Output {
                label,
                target: Target::Direct(file),
            });
        }
        let (dir, name) = dir_and_name(&path);
        remove_stale(dir, &name);
        let tmp = temp_beside(dir, &name)
            .map_err(|e| io::Error::new(e.kind(), without_path(&e)))
            .with_context(|| format!("{label}: cannot create output"))?;
        // A file replaced keeps its permissions (as `cp` onto it would).
        if let Some(meta) = &existing {
            tmp.as_file()
                .set_permissions(meta.permissions())
                .with_context(|| format!("{label}: cannot create output"))?;
        }
        let registration = crate::interrupt::register(tmp.path());
        Ok(Output {
            label,
            target: Target::File {
                syncer: None,
                tmp,
                registration,
                path,
            },
        })
    }

    /// The name used in messages.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// A buffered writer for the data, for an output committed with a sync
    /// ([`Output::commit`]).
    pub fn writer(&mut self) -> Result<Box<dyn Write + Send>> {
        self.writer_syncing(true)
    }

    /// A buffered writer for the data. With `sync` (the output will be committed with a
    /// sync), a thread syncs the file to disk as it is written ([`SyncAhead`]), so that the
    /// commit's sync has little left to wait for.
    pub fn writer_syncing(&mut self, sync: bool) -> Result<Box<dyn Write + Send>> {
        Ok(match &mut self.target {
            Target::Stdout => Box::new(BufWriter::with_capacity(1 << 20, io::stdout())),
            Target::Direct(f) => Box::new(BufWriter::with_capacity(1 << 20, f.try_clone()?)),
            Target::File { tmp, syncer, .. } => {
                let f: File = tmp.as_file().try_clone()?;
                // Disk space is reserved ahead of the data (and the rest released on drop).
                let mut file = PreallocatedFile::new(f);
                if sync {
                    let s = Arc::new(SyncAhead::new(tmp.as_file())?);
                    file = file.syncing_ahead(s.clone());
                    *syncer = Some(s);
                }
                Box::new(BufWriter::with_capacity(1 << 20, file))
            }
        })
    }

    /// The temporary file, to write to directly (not for standard output).
    pub fn file(&self) -> Result<File> {
        match &self.target {
            Target::Stdout => {
                anyhow::bail!("{}: a file is needed, not standard output", self.label)
            }
            Target::Direct(f) => Ok(f.try_clone()?),
            Target::File { tmp, .. } => Ok(tmp.as_file().try_clone()?),
        }
    }

    /// Makes the output final: syncs the temporary file and renames it over the target.
    pub fn commit(self) -> Result<()> {
        self.commit_with(true)
    }

    /// Makes the output final: renames the temporary file over the target, after syncing it
    /// when `sync` is true. Without the sync the data may still be only in the page cache
    /// when the rename is: a crash of the machine (not of the process) soon after could leave
    /// the target incomplete. For outputs that can be made again (their inputs are kept).
    pub fn commit_with(self, sync: bool) -> Result<()> {
        match self.target {
            Target::Stdout | Target::Direct(_) => Ok(()),
            Target::File {
                syncer,
                tmp,
                registration,
                path,
            } => {
                let label = self.label;
                if let Some(s) = syncer {
                    // A failed sync along the way is not reported again by the last one.
                    s.finish()
                        .with_context(|| format!("{label}: cannot write output"))?;
                }
                if sync {
                    tmp.as_file()
                        .sync_all()
                        .with_context(|| format!("{label}: cannot write output"))?;
                }
                tmp.persist(&path)
                    .map_err(|e| io::Error::new(e.error.kind(), without_path(&e.error)))
                    .with_context(|| format!("{label}: cannot move the output into place"))?;
                drop(registration);
                Ok(())
            }
        }
    }
}

/// Where the output `path` goes, and what is there now: a symbolic link is followed (its
/// target is replaced, not the link, as `cp` and shell redirections do; a dangling link's
/// target is created), and anything already at the end of it is described (a non-regular
/// file is then written in place by [`Output::create`]).
fn resolve(path: &Path) -> io::Result<(PathBuf, Option<std::fs::Metadata>)> {
    let mut at = path.to_path_buf();
    // Links to links are followed a bounded number of times (a loop is an error).
    for _ in 0..40 {
        let link = match std::fs::symlink_metadata(&at) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((at, None)),
            Err(e) => return Err(e),
        };
        if !link.file_type().is_symlink() {
            return Ok((at, Some(link)));
        }
        // What the link names, followed by the kernel: a pipe or device (`/dev/stdout`,
        // `/dev/fd/N`, whose links name no path) is written through the link itself.
        if let Ok(m) = std::fs::metadata(&at)
            && !m.is_file()
        {
            return Ok((at, Some(m)));
        }
        let next = std::fs::read_link(&at)?;
        at = match at.parent() {
            Some(dir) if next.is_relative() => dir.join(next),
            _ => next,
        };
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// The directory of `path` (`.` for a bare name) and its file name.
fn dir_and_name(path: &Path) -> (&Path, String) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    (dir, name)
}

/// An I/O error's text without the `at path "…"` that `tempfile` appends: messages name the
/// target, never the temporary file.
fn without_path(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" at path ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// A hidden temporary file for `name` in `dir`, readable like a normal new file, named after
/// this process (see the module docs).
fn temp_beside(dir: &Path, name: &str) -> io::Result<NamedTempFile> {
    let prefix = format!(".{name}.{}.", std::process::id());
    let mut b = tempfile::Builder::new();
    b.prefix(&prefix).suffix(SUFFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    b.tempfile_in(dir)
}

/// Removes the stale temporary files of the target `name` in `dir` (see the module docs).
/// Best effort: what cannot be read or removed is left alone.
fn remove_stale(dir: &Path, name: &str) {
    remove_stale_where(dir, Some(name));
}

/// Removes the stale temporaries of every target in `dir` (see [`remove_stale`]).
pub fn remove_stale_temporaries(dir: &Path) {
    remove_stale_where(dir, None);
}

fn remove_stale_where(dir: &Path, name: Option<&str>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        // `.NAME.PID.XXXXXX.quiver-tmp` (older ones: `.NAME.XXXXXX.quiver-tmp`).
        let Some(rest) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix('.'))
            .and_then(|n| n.strip_suffix(SUFFIX))
        else {
            continue;
        };
        let pid = match name {
            // Of one target: what follows its name.
            Some(n) => match rest.strip_prefix(n).and_then(|r| r.strip_prefix('.')) {
                Some(middle) => middle.split('.').next(),
                None => continue,
            },
            // Of any target: the field before the random one, when it is a number.
            None => rest.rsplit('.').nth(1),
        };
        let idle = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .unwrap_or_default();
        let pid = pid.and_then(|p| p.parse::<u32>().ok());
        let dead = pid.is_some_and(|p| !process_runs(p));
        if idle >= STALE_ANY || (dead && idle >= STALE_IDLE) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether process `pid` runs on this machine (true when unsure).
fn process_runs(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false; // larger than any process id
        };
        if pid <= 0 {
            return true; // 0 and negative ids name process groups: never asked
        }
        // SAFETY: signal 0 only checks that the process exists and may be signalled.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commit_renames_and_drop_removes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        let mut out = Output::create(&path).unwrap();
        out.writer().unwrap().write_all(b"a\n1\n").unwrap();
        assert!(!path.exists());
        out.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"a\n1\n");

        let other = dir.path().join("never.csv");
        let mut out = Output::create(&other).unwrap();
        out.writer().unwrap().write_all(b"partial").unwrap();
        drop(out);
        assert!(!other.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn an_output_synced_while_written_commits_every_byte() {
        // More than one sync step (16 MiB), so the syncing thread syncs along the way.
        let data: Vec<u8> = (0..20u32 << 20).map(|i| (i % 253) as u8).collect();
        for sync in [true, false] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("big.bin");
            let mut out = Output::create(&path).unwrap();
            let mut w = out.writer_syncing(sync).unwrap();
            for part in data.chunks(3 << 20) {
                w.write_all(part).unwrap();
            }
            w.flush().unwrap();
            drop(w);
            out.commit_with(sync).unwrap();
            assert!(std::fs::read(&path).unwrap() == data, "sync {sync}");
            assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        }
    }

    #[test]
    fn missing_directory_is_an_error() {
        let e = Output::create(Path::new("/nonexistent-dir-quiver/x.arrow"))
            .err()
            .unwrap();
        assert!(format!("{e:#}").contains("/nonexistent-dir-quiver/x.arrow"));
    }
}
