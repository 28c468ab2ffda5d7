//! Removing temporary output when quiver is interrupted: the paths of the temporary files
//! being written are kept in a fixed table of C strings, and a handler for `SIGINT`, `SIGTERM`
//! and `SIGHUP` unlinks them and exits with 128 + the signal's number (130, 143, 129), as a
//! shell reports a process the signal ended. The handler only loads atomics and calls
//! `unlink`, `write` and `_exit`, which are async-signal-safe.
//!
//! A signal that was ignored when quiver started (`nohup`, a background job of a
//! non-interactive shell) stays ignored.

use std::path::Path;

/// A temporary file registered for removal on a signal, until this is dropped.
pub struct Registration {
    #[cfg(unix)]
    slot: Option<usize>,
}

/// Registers `path` to be removed if the process is ended by a signal, installing the handler
/// on first use. Best effort: a path that cannot be registered (more than the table holds,
/// or a NUL byte in it) is simply not removed on a signal.
pub fn register(path: &Path) -> Registration {
    #[cfg(unix)]
    {
        imp::install();
        Registration {
            slot: imp::register(path),
        }
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Registration {}
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some(slot) = self.slot {
            imp::unregister(slot);
        }
    }
}

#[cfg(unix)]
mod imp {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::ptr::null_mut;
    use std::sync::Once;
    use std::sync::atomic::{AtomicPtr, Ordering};

    /// Paths of temporary files to unlink on a signal (null: a free slot). A pointer put here
    /// comes from `CString::into_raw` and is never freed (see [`unregister`]).
    static PATHS: [AtomicPtr<libc::c_char>; 16] = [const { AtomicPtr::new(null_mut()) }; 16];

    const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

    pub fn register(path: &Path) -> Option<usize> {
        let c = CString::new(path.as_os_str().as_bytes()).ok()?;
        let p = c.into_raw();
        for (i, slot) in PATHS.iter().enumerate() {
            let free = slot.compare_exchange(null_mut(), p, Ordering::SeqCst, Ordering::SeqCst);
            if free.is_ok() {
                return Some(i);
            }
        }
        // SAFETY: `p` came from `CString::into_raw` just above and was not published.
        drop(unsafe { CString::from_raw(p) });
        None
    }

    /// Empties the slot. The string is leaked on purpose (a path per output file): the
    /// handler may be reading it on another thread at this moment.
    pub fn unregister(slot: usize) {
        PATHS[slot].store(null_mut(), Ordering::SeqCst);
    }

    extern "C" fn on_signal(signal: libc::c_int) {
        let mut removed = false;
        for slot in &PATHS {
            let p = slot.load(Ordering::SeqCst);
            if !p.is_null() {
                // SAFETY: a non-null slot holds a NUL-terminated string from
                // `CString::into_raw` that is never freed; `unlink` is async-signal-safe.
                removed |= unsafe { libc::unlink(p) } == 0;
            }
        }
        if removed {
            let msg = b"quiver: interrupted; the partial output was removed\n";
            // SAFETY: `write` is async-signal-safe; the buffer is a static byte string.
            unsafe { libc::write(2, msg.as_ptr().cast(), msg.len()) };
        }
        // SAFETY: `_exit` is async-signal-safe and ends the process without running
        // destructors or handlers.
        unsafe { libc::_exit(128 + signal) }
    }

    /// Installs the handler for each signal not ignored at start (once).
    pub fn install() {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            for signal in SIGNALS {
                // SAFETY: `sigaction` is called with valid, zero-initialised structures (all
                // zero is a valid `sigaction`: no flags, empty mask); the handler installed
                // does only async-signal-safe work.
                unsafe {
                    let mut old: libc::sigaction = std::mem::zeroed();
                    if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
                        || old.sa_sigaction == libc::SIG_IGN
                    {
                        continue;
                    }
                    let mut new: libc::sigaction = std::mem::zeroed();
                    new.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
                    libc::sigemptyset(&mut new.sa_mask);
                    libc::sigaction(signal, &new, null_mut());
                }
            }
        });
    }
}
