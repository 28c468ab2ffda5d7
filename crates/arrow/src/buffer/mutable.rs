//! Growable, 64-byte aligned byte storage used by builders.

use bytemuck::{Pod, Zeroable};
use bytes::Bytes;

/// Alignment and padding unit of every buffer quiver allocates.
pub const ALIGNMENT: usize = 64;

/// One cache line; allocating in blocks makes alignment and padding a property of the type.
#[derive(Clone, Copy, Pod, Zeroable)]
#[repr(C, align(64))]
struct Block([u8; ALIGNMENT]);

/// Allocations from this size on ask the kernel for transparent huge pages.
const HUGE_PAGE_MIN: usize = 4 << 20;

/// Grows `blocks` to `n` zeroed blocks. Large allocations are advised to use transparent huge
/// pages *before* the zeroing touches them: on the project's machines a first touch of fresh
/// memory costs 4–8 µs per 4 KiB page (DESIGN §8), about 5× less with 2 MiB pages, and the
/// readers' bodies and decompression outputs are written into such fresh memory.
fn grow_blocks(blocks: &mut Vec<Block>, n: usize) {
    if n <= blocks.len() {
        return;
    }
    blocks.reserve_exact(n - blocks.len());
    let bytes = blocks.capacity() * ALIGNMENT;
    if bytes >= HUGE_PAGE_MIN {
        advise_huge_pages(blocks.as_mut_ptr().cast::<u8>(), bytes);
    }
    blocks.resize(n, Block::zeroed());
}

/// `madvise(MADV_HUGEPAGE)` on the whole 2 MiB pages inside `[ptr, ptr + len)`. Advisory: a
/// kernel without transparent huge pages (or any failure) leaves ordinary pages.
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

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _len: usize) {}

/// A growable byte buffer whose storage is 64-byte aligned and a multiple of 64 bytes long,
/// with zeroed padding. [`MutableBuffer::freeze`] turns it into [`Bytes`] without copying.
///
/// ```
/// use quiver_arrow::buffer::MutableBuffer;
/// let mut b = MutableBuffer::new();
/// b.push(1i32);
/// b.extend_from_slice(&[2i32, 3]);
/// assert_eq!(b.len(), 12);
/// let bytes = b.freeze();
/// assert_eq!(bytes.as_ptr() as usize % 64, 0);
/// assert_eq!(&bytes[..], bytemuck::cast_slice::<i32, u8>(&[1, 2, 3]));
/// ```
#[derive(Clone, Default)]
pub struct MutableBuffer {
    /// All blocks are initialised (zeroed when created); `blocks.len()` is the capacity.
    blocks: Vec<Block>,
    len: usize,
}

impl std::fmt::Debug for MutableBuffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MutableBuffer")
            .field("len", &self.len)
            .finish()
    }
}

impl MutableBuffer {
    /// An empty buffer that has not allocated.
    pub const fn new() -> Self {
        MutableBuffer {
            blocks: Vec::new(),
            len: 0,
        }
    }
    /// An empty buffer with room for `bytes` bytes.
    pub fn with_capacity(bytes: usize) -> Self {
        let mut b = Self::new();
        b.reserve(bytes);
        b
    }
    /// A buffer of `len` zero bytes.
    pub fn zeroed(len: usize) -> Self {
        let mut blocks = Vec::new();
        grow_blocks(&mut blocks, len.div_ceil(ALIGNMENT));
        MutableBuffer { blocks, len }
    }
    /// Length in bytes.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Capacity in bytes.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.blocks.len() * ALIGNMENT
    }
    /// Ensures room for `additional` more bytes (amortised doubling).
    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        let needed = self
            .len
            .checked_add(additional)
            .expect("buffer size overflows usize");
        if needed > self.capacity() {
            self.grow(needed);
        }
    }
    #[cold]
    fn grow(&mut self, needed: usize) {
        let blocks = needed.div_ceil(ALIGNMENT).max(self.blocks.len() * 2).max(1);
        grow_blocks(&mut self.blocks, blocks);
    }
    /// All storage as bytes (including the zeroed spare capacity).
    #[inline]
    fn storage_mut(&mut self) -> &mut [u8] {
        bytemuck::cast_slice_mut(&mut self.blocks)
    }
    /// The written bytes.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &bytemuck::cast_slice(&self.blocks)[..self.len]
    }
    /// The written bytes, mutably.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        let len = self.len;
        &mut self.storage_mut()[..len]
    }
    /// The written bytes viewed as `T` (the length must be a multiple of `size_of::<T>()`).
    #[inline]
    pub fn typed<T: Pod>(&self) -> &[T] {
        bytemuck::cast_slice(self.as_slice())
    }
    /// The written bytes viewed mutably as `T`.
    #[inline]
    pub fn typed_mut<T: Pod>(&mut self) -> &mut [T] {
        bytemuck::cast_slice_mut(self.as_mut_slice())
    }
    /// Appends one value.
    #[inline]
    pub fn push<T: Pod>(&mut self, value: T) {
        self.extend_from_slice(std::slice::from_ref(&value));
    }
    /// Appends values.
    #[inline]
    pub fn extend_from_slice<T: Pod>(&mut self, values: &[T]) {
        let bytes: &[u8] = bytemuck::cast_slice(values);
        self.reserve(bytes.len());
        let start = self.len;
        self.storage_mut()[start..start + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }
    /// Appends `n` zero bytes.
    #[inline]
    pub fn extend_zeros(&mut self, n: usize) {
        self.reserve(n);
        // Spare capacity is kept zeroed (see `truncate`), so only the length moves.
        self.len += n;
    }
    /// Sets the length to `len` bytes, zero-extending or truncating.
    pub fn resize(&mut self, len: usize) {
        if len > self.len {
            self.extend_zeros(len - self.len);
        } else {
            self.truncate(len);
        }
    }
    /// Shortens to `len` bytes, re-zeroing the bytes dropped so that spare capacity stays zero.
    pub fn truncate(&mut self, len: usize) {
        if len < self.len {
            let old = self.len;
            self.storage_mut()[len..old].fill(0);
            self.len = len;
        }
    }
    /// Removes all bytes, keeping the allocation.
    pub fn clear(&mut self) {
        self.truncate(0);
    }
    /// Freezes into immutable [`Bytes`] in O(1). The bytes start on a 64-byte boundary and the
    /// allocation behind them extends, zero-filled, to the next multiple of 64 bytes.
    pub fn freeze(mut self) -> Bytes {
        if self.blocks.is_empty() {
            return Bytes::new();
        }
        self.blocks.truncate(self.len.div_ceil(ALIGNMENT).max(1));
        Bytes::from_owner(Frozen {
            blocks: self.blocks,
            len: self.len,
        })
    }
}

impl<T: Pod> Extend<T> for MutableBuffer {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        self.reserve(iter.size_hint().0 * std::mem::size_of::<T>());
        for v in iter {
            self.push(v);
        }
    }
}

impl<T: Pod> FromIterator<T> for MutableBuffer {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut b = MutableBuffer::new();
        b.extend(iter);
        b
    }
}

/// Owner of a frozen allocation, kept alive by the [`Bytes`] that views it.
struct Frozen {
    blocks: Vec<Block>,
    len: usize,
}

impl AsRef<[u8]> for Frozen {
    fn as_ref(&self) -> &[u8] {
        &bytemuck::cast_slice(&self.blocks)[..self.len]
    }
}

/// Copies `bytes` into a fresh 64-byte aligned allocation.
pub fn aligned_copy(bytes: &[u8]) -> Bytes {
    let mut b = MutableBuffer::with_capacity(bytes.len());
    b.extend_from_slice(bytes);
    b.freeze()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_and_padded() {
        for n in [1usize, 3, 63, 64, 65, 1000] {
            let mut b = MutableBuffer::new();
            b.extend_from_slice(&vec![7u8; n]);
            assert_eq!(b.capacity() % ALIGNMENT, 0);
            let f = b.freeze();
            assert_eq!(f.as_ptr() as usize % ALIGNMENT, 0);
            assert_eq!(f.len(), n);
        }
    }

    #[test]
    fn truncate_rezeroes() {
        let mut b = MutableBuffer::new();
        b.extend_from_slice(&[1u8, 2, 3, 4]);
        b.truncate(1);
        b.extend_zeros(3);
        assert_eq!(b.as_slice(), &[1, 0, 0, 0]);
    }
}
