//! The memory behind [`MutableBuffer`](super::MutableBuffer): 64-byte aligned blocks from the
//! global allocator, or — for large buffers on Linux — anonymous memory maps.
//!
//! A fresh anonymous map arrives zeroed from the kernel, page by page as it is first touched,
//! so a buffer in one never has to zero it again: reading a message body into a buffer of zeros
//! (or decompressing into one) writes each byte once instead of twice, and a zero fill that
//! would run through freshly faulted pages (slow on the project's machines, DESIGN §8) does not
//! happen at all. Growing a map uses `mremap`, which moves pages instead of copying bytes.
//! [`Allocation::grow`] reports from where on the new memory is known to be zero.

use crate::error::Error;
use std::alloc::Layout;
use std::ptr::NonNull;

/// Alignment and padding unit of every buffer quiver allocates.
pub const ALIGNMENT: usize = 64;

/// Allocations from this size on are anonymous memory maps (Linux).
#[cfg(target_os = "linux")]
const MAP_MIN: usize = 1 << 20;

/// Allocations from this size on ask the kernel for transparent huge pages.
const HUGE_PAGE_MIN: usize = 4 << 20;

/// Freed maps up to this size are kept for reuse ([`MapCache`]).
#[cfg(target_os = "linux")]
const CACHED_MAP_MAX: usize = 4 << 20;

/// Bytes of freed maps kept for reuse at most.
#[cfg(target_os = "linux")]
const MAP_CACHE_BYTES: usize = 16 << 20;

/// Why an allocation failed: a size that does not fit, or the system's refusal (bytes asked).
pub(super) enum AllocError {
    Size(Error),
    Refused(usize),
}

/// A dangling, 64-byte aligned pointer for buffers without an allocation.
const fn dangling() -> NonNull<u8> {
    #[repr(C, align(64))]
    struct Aligned([u8; ALIGNMENT]);
    NonNull::<Aligned>::dangling().cast()
}

/// One allocation: `cap` bytes at `ptr` (64-byte aligned), owned.
pub(super) struct Allocation {
    /// Start, or [`dangling`] when `cap` is 0.
    ptr: NonNull<u8>,
    /// Bytes: 0, or a multiple of [`ALIGNMENT`] (of the page size when `mapped`).
    cap: usize,
    /// From `mmap` (freed with `munmap`) rather than the global allocator (with `layout(cap)`).
    mapped: bool,
}

// SAFETY: an `Allocation` uniquely owns its memory (like `Vec<u8>`); moving it to another thread
// moves the ownership, and shared references only read.
unsafe impl Send for Allocation {}
// SAFETY: as above.
unsafe impl Sync for Allocation {}

impl Allocation {
    /// No memory.
    pub(super) const EMPTY: Allocation = Allocation {
        ptr: dangling(),
        cap: 0,
        mapped: false,
    };

    /// Start of the memory (aligned and non-null even when empty).
    #[inline]
    pub(super) fn ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// Bytes owned.
    #[inline]
    pub(super) fn cap(&self) -> usize {
        self.cap
    }

    /// Moves to memory of at least `cap` bytes (a multiple of [`ALIGNMENT`], above the
    /// current capacity), keeping the first `keep` bytes. `zero_from` says from where on the
    /// current memory is known to be zero; the result says it for the new memory (the
    /// capacity when nothing is known). Leaves `self` unchanged on failure.
    pub(super) fn grow(
        &mut self,
        cap: usize,
        keep: usize,
        zero_from: usize,
    ) -> Result<usize, AllocError> {
        debug_assert!(cap > self.cap && keep <= self.cap && cap % ALIGNMENT == 0);
        #[cfg(target_os = "linux")]
        if cap >= MAP_MIN {
            match self.grow_mapped(cap, keep, zero_from) {
                // Out of maps (`vm.max_map_count`) or address space: the global allocator may
                // still have room.
                Err(AllocError::Refused(_)) => {}
                done => return done,
            }
        }
        let _ = zero_from;
        let layout = Layout::from_size_align(cap, ALIGNMENT)
            .map_err(|_| AllocError::Size(Error::overflow(format!("a buffer of {cap} bytes"))))?;
        // SAFETY: `layout` has a non-zero size (`cap > self.cap >= 0` and a multiple of 64).
        let ptr =
            NonNull::new(unsafe { std::alloc::alloc(layout) }).ok_or(AllocError::Refused(cap))?;
        if cap >= HUGE_PAGE_MIN {
            advise_huge_pages(ptr.as_ptr(), cap);
        }
        // SAFETY: both allocations hold at least `keep` bytes and are distinct; the first `keep`
        // bytes of the old one are initialised (the caller's length).
        unsafe { std::ptr::copy_nonoverlapping(self.ptr(), ptr.as_ptr(), keep) };
        // The old allocation (heap or map) is freed by its `Drop`.
        *self = Allocation {
            ptr,
            cap,
            mapped: false,
        };
        Ok(cap)
    }

    /// [`Allocation::grow`] into an anonymous map: `mremap` of a map, or a fresh map and a copy.
    #[cfg(target_os = "linux")]
    fn grow_mapped(
        &mut self,
        cap: usize,
        keep: usize,
        zero_from: usize,
    ) -> Result<usize, AllocError> {
        let cap = cap
            .checked_next_multiple_of(page_size())
            .ok_or_else(|| AllocError::Size(Error::overflow(format!("a buffer of {cap} bytes"))))?;
        let (ptr, cap, zero_from) = if self.mapped {
            // SAFETY: `ptr` and `cap` describe a map this allocation owns; MREMAP_MAYMOVE keeps
            // its contents (the new pages are zero) and may move it, which nothing observes
            // since the caller holds no pointer into it across this call.
            let p = unsafe { libc::mremap(self.ptr().cast(), self.cap, cap, libc::MREMAP_MAYMOVE) };
            (p, cap, zero_from)
        } else if let Some((p, cached)) = MAP_CACHE.take(cap) {
            // Memory written before: nothing in it is known to be zero.
            (p.as_ptr().cast(), cached, cached)
        } else {
            // SAFETY: an anonymous private map of `cap` bytes, no address hint: no memory of
            // this process is affected.
            let p = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    cap,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            (p, cap, keep)
        };
        if ptr == libc::MAP_FAILED {
            return Err(AllocError::Refused(cap));
        }
        let ptr = ptr.cast::<u8>();
        if cap >= HUGE_PAGE_MIN {
            advise_huge_map(ptr, cap);
        }
        if !self.mapped {
            // SAFETY: the new map holds `cap >= keep` bytes and is distinct from the old
            // allocation, whose first `keep` bytes are initialised.
            unsafe { std::ptr::copy_nonoverlapping(self.ptr(), ptr, keep) };
        }
        let old = std::mem::replace(
            self,
            Allocation {
                // ok: `mmap`/`mremap` never return null on success (MAP_FAILED was checked).
                ptr: NonNull::new(ptr).expect("a successful map is not null"), // ok: see above
                cap,
                mapped: true,
            },
        );
        if old.mapped {
            // The map was moved or resized in place by `mremap`: nothing to free.
            std::mem::forget(old);
        }
        Ok(zero_from)
    }
}

impl Allocation {
    /// Gives the whole pages of `[from, cap)` back to the system when the memory is a map
    /// (`MADV_DONTNEED`: they stay mapped, read as zero and are faulted in again when written);
    /// does nothing for heap memory. Returns where the memory is now known to be zero from
    /// (`cap` when nothing was released).
    pub(super) fn release(&mut self, from: usize) -> usize {
        #[cfg(target_os = "linux")]
        if self.mapped {
            let start = from.next_multiple_of(page_size());
            if start < self.cap {
                // SAFETY: `[start, cap)` lies inside the map this allocation owns (`start` is
                // below `cap` and page-aligned, as the map's start is); the caller holds no
                // initialised bytes there (`from` is at least its length), and MADV_DONTNEED on
                // private anonymous memory only makes those pages zero-filled on next touch.
                let r = unsafe {
                    libc::madvise(
                        self.ptr().add(start).cast(),
                        self.cap - start,
                        libc::MADV_DONTNEED,
                    )
                };
                if r == 0 {
                    return start;
                }
            }
        }
        let _ = from;
        self.cap
    }
}

impl Allocation {
    /// Faults in the pages of `[from, to)` (clipped to the capacity) ahead of writing them:
    /// one system call instead of a page fault per 4 KiB page (the fault's entry and exit are
    /// about a third of a fresh page's cost here). Pages already present cost only a look.
    /// Contents are unchanged; advisory (ignored by kernels before 5.14).
    pub(super) fn prefault(&self, from: usize, to: usize) {
        #[cfg(target_os = "linux")]
        {
            let to = to.min(self.cap);
            if from >= to {
                return;
            }
            // Whole pages from the one holding `from`: the bytes before `from` in it (this
            // allocation's or, on the heap, a neighbour's) are left as they are.
            let page = page_size();
            let start = (self.ptr() as usize + from) & !(page - 1);
            let end = self.ptr() as usize + to;
            // SAFETY: `[start, end)` lies in pages of this process's private anonymous memory
            // that hold part of this allocation (`start` is the page holding byte `from`,
            // `end` is within the capacity); MADV_POPULATE_WRITE only makes those pages
            // present and writable, as a write to each would, without changing any byte.
            unsafe {
                libc::madvise(
                    start as *mut libc::c_void,
                    end - start,
                    libc::MADV_POPULATE_WRITE,
                );
            }
        }
        let _ = (from, to);
    }
}

impl Drop for Allocation {
    fn drop(&mut self) {
        if self.cap == 0 {
            return;
        }
        if self.mapped {
            #[cfg(target_os = "linux")]
            if let Err(ptr) = MAP_CACHE.put(self.ptr, self.cap) {
                // SAFETY: `ptr` and `cap` describe a map this allocation owns, and nothing
                // refers to it once its owner drops (nor does the cache, which refused it). A
                // failure (impossible for a valid map) would only leak.
                unsafe {
                    libc::munmap(ptr.as_ptr().cast(), self.cap);
                }
            }
        } else {
            // SAFETY: `ptr` was allocated by the global allocator with this layout (`grow`).
            unsafe {
                std::alloc::dealloc(
                    self.ptr(),
                    Layout::from_size_align_unchecked(self.cap, ALIGNMENT),
                )
            }
        }
    }
}

/// Freed maps of up to [`CACHED_MAP_MAX`] bytes, [`MAP_CACHE_BYTES`] in all, kept for the next
/// allocations of about their size.
///
/// A reader whose consumer drops each batch (a scan, a conversion) frees maps of the same sizes
/// batch after batch; without the cache each batch's maps would be fresh pages to fault in again
/// (2.8–8 µs per 4 KiB page here, DESIGN §8). Maps held beyond the budget are unmapped, so at
/// most [`MAP_CACHE_BYTES`] stay resident after their buffers are gone. Reused maps are not
/// known to be zero.
#[cfg(target_os = "linux")]
struct MapCache(std::sync::Mutex<Vec<(usize, usize)>>);

#[cfg(target_os = "linux")]
static MAP_CACHE: MapCache = MapCache(std::sync::Mutex::new(Vec::new()));

#[cfg(target_os = "linux")]
impl MapCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(usize, usize)>> {
        // Nothing panics while the lock is held; a poisoned list is still a valid list.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A cached map of at least `cap` bytes and at most twice that (the smallest such one),
    /// with its size; it is no longer in the cache.
    fn take(&self, cap: usize) -> Option<(NonNull<u8>, usize)> {
        if cap > CACHED_MAP_MAX {
            return None;
        }
        let mut maps = self.lock();
        let (i, _) = maps
            .iter()
            .enumerate()
            .filter(|&(_, &(_, c))| c >= cap && c / 2 <= cap)
            .min_by_key(|&(_, &(_, c))| c)?;
        let (ptr, c) = maps.swap_remove(i);
        Some((NonNull::new(ptr as *mut u8)?, c))
    }

    /// Keeps the map at `ptr` of `cap` bytes for reuse, or gives `ptr` back when it is too
    /// large or the cache is full (the caller then unmaps it).
    fn put(&self, ptr: NonNull<u8>, cap: usize) -> Result<(), NonNull<u8>> {
        if cap > CACHED_MAP_MAX {
            return Err(ptr);
        }
        let mut maps = self.lock();
        if held(&maps) + cap > MAP_CACHE_BYTES {
            return Err(ptr);
        }
        maps.push((ptr.as_ptr() as usize, cap));
        Ok(())
    }
}

/// Bytes of the cached maps `maps` (start, size).
#[cfg(target_os = "linux")]
fn held(maps: &[(usize, usize)]) -> usize {
    maps.iter().map(|&(_, c)| c).sum()
}

/// The system's page size (4 KiB unless the system says otherwise).
#[cfg(target_os = "linux")]
fn page_size() -> usize {
    static PAGE: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *PAGE.get_or_init(|| {
        // SAFETY: `sysconf` only reads a system constant.
        let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        usize::try_from(p)
            .ok()
            .filter(|p| p.is_power_of_two() && *p >= ALIGNMENT)
            .unwrap_or(4096)
    })
}

/// `madvise(MADV_HUGEPAGE)` on the whole 2 MiB pages inside `[ptr, ptr + len)`, before the
/// pages are first touched: a first touch costs 4–8 µs per 4 KiB page here (DESIGN §8), about
/// 5× less with 2 MiB pages. Advisory: without transparent huge pages (or on any failure) the
/// kernel keeps ordinary pages.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    const HUGE: usize = 2 << 20;
    let start = (ptr as usize).next_multiple_of(HUGE);
    let end = (ptr as usize + len) & !(HUGE - 1);
    if end > start {
        // SAFETY: `[start, end)` lies inside an allocation this buffer owns (`ptr`, `len` are
        // its capacity); MADV_HUGEPAGE only changes how the kernel backs those pages, not
        // their contents or validity, and its result is deliberately ignored.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

/// `madvise(MADV_HUGEPAGE)` on the whole of a map this allocation owns (`ptr`, `len`: its
/// start and capacity, page-aligned). The whole map, not only the 2 MiB pages inside it: a
/// range covering part of the map splits it into maps of different flags, which `mremap` then
/// refuses to grow (EFAULT), and every later growth would fall back to a heap copy.
#[cfg(target_os = "linux")]
fn advise_huge_map(ptr: *mut u8, len: usize) {
    // SAFETY: `[ptr, ptr + len)` is exactly a map this buffer owns; MADV_HUGEPAGE only changes
    // how the kernel backs those pages, not their contents or validity, and its result is
    // deliberately ignored.
    unsafe {
        libc::madvise(ptr.cast(), len, libc::MADV_HUGEPAGE);
    }
}

/// Bytes of freed maps held for reuse (tests).
#[cfg(all(test, target_os = "linux"))]
pub(super) fn map_cache_bytes() -> usize {
    held(&MAP_CACHE.lock())
}

#[cfg(test)]
impl Allocation {
    /// Whether the memory is a map (tests).
    pub(super) fn is_mapped(&self) -> bool {
        self.mapped
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _len: usize) {}
