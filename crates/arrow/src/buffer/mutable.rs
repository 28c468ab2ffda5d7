//! Growable, 64-byte aligned byte storage: what builders and decoders write into.
//!
//! [`MutableBuffer`] owns one allocation whose start is 64-byte aligned and whose capacity is a
//! multiple of 64 bytes. Only the bytes below [`MutableBuffer::len`] are initialised: growing,
//! truncating and clearing never write zeros, so a scratch buffer reused for every page or
//! message costs nothing to reset (DESIGN §8: fresh or re-zeroed memory is the expensive part
//! on the project's machines). [`MutableBuffer::freeze`] zeroes only the padding that the frozen
//! [`Bytes`] exposes behind its end, up to the next multiple of 64 bytes.
//!
//! The allocation is managed by `alloc.rs` rather than a `Vec`, so that the spare capacity may
//! stay uninitialised, and large buffers are anonymous memory maps whose fresh pages are known to
//! be zero: zeroing them again ([`MutableBuffer::zeroed`], [`MutableBuffer::extend_zeros`]) costs
//! nothing. The `unsafe` is confined to these two files.

use super::alloc::{ALIGNMENT, AllocError, Allocation};
use crate::error::{Error, Result};
use bytes::Bytes;
use std::mem::MaybeUninit;

/// Smallest capacity whose pages are faulted in ahead of writes (a system call costs about
/// what faulting a few pages does; small buffers mostly reuse resident heap memory).
const PREFAULT_MIN: usize = 64 << 10;

/// Bytes faulted in ahead at least, once writes pass the faulted-in part: small appends then
/// cost one system call per this many bytes, not one page fault per 4 KiB page.
const PREFAULT_STEP: usize = 256 << 10;

/// `bytes` rounded up to whole 64-byte blocks, `None` on overflow.
fn round_up(bytes: usize) -> Option<usize> {
    bytes.checked_next_multiple_of(ALIGNMENT)
}

/// A growable byte buffer whose storage is 64-byte aligned and a multiple of 64 bytes long.
///
/// - Sizes that come from untrusted input go through the fallible [`try_with_capacity`] /
///   [`try_reserve`], which return [`Error::Overflow`] (size overflow) or
///   [`Error::InvalidArgument`] (the allocator refused) instead of panicking or aborting.
/// - Values are appended with the `extend_*` family or written straight into
///   [`spare_capacity_mut`] and committed with the `unsafe` [`set_len`].
/// - [`clear`] and [`truncate`] only move the length; nothing is zeroed until [`freeze`].
///
/// ```
/// use quiver_arrow::buffer::MutableBuffer;
/// let mut b = MutableBuffer::try_with_capacity(1024).unwrap();
/// b.push(1i32);
/// b.extend_from_slice(&[2i32, 3]);
/// assert_eq!(b.len(), 12);
/// b.clear(); // keeps the allocation, writes nothing
/// b.extend_from_slice(&[7i32, 8, 9]);
/// let bytes = b.freeze();
/// assert_eq!(bytes.as_ptr() as usize % 64, 0);
/// assert_eq!(&bytes[..], bytemuck::cast_slice::<i32, u8>(&[7, 8, 9]));
/// assert!(MutableBuffer::try_with_capacity(usize::MAX).is_err());
/// ```
///
/// [`try_with_capacity`]: MutableBuffer::try_with_capacity
/// [`try_reserve`]: MutableBuffer::try_reserve
/// [`spare_capacity_mut`]: MutableBuffer::spare_capacity_mut
/// [`set_len`]: MutableBuffer::set_len
/// [`clear`]: MutableBuffer::clear
/// [`truncate`]: MutableBuffer::truncate
/// [`freeze`]: MutableBuffer::freeze
pub struct MutableBuffer {
    /// The memory: 64-byte aligned, its capacity a multiple of 64 bytes.
    alloc: Allocation,
    /// Bytes `[0, len)` are initialised; `len <= capacity`.
    len: usize,
    /// Bytes from here to the capacity are zero (fresh pages of a memory map); the capacity
    /// when nothing is known. Every write past it moves it up.
    zero_from: usize,
    /// The pages below this byte were faulted in ahead of writes (or written): writes up to
    /// here ask nothing more of the system. 0 when nothing is known.
    prefaulted: usize,
}

impl Clone for MutableBuffer {
    fn clone(&self) -> Self {
        let mut b = Self::with_capacity(self.len);
        b.extend_from_slice(self.as_slice());
        b
    }
}

impl Default for MutableBuffer {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for MutableBuffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MutableBuffer")
            .field("len", &self.len)
            .field("capacity", &self.capacity())
            .finish()
    }
}

impl MutableBuffer {
    /// An empty buffer that has not allocated.
    pub const fn new() -> Self {
        MutableBuffer {
            alloc: Allocation::EMPTY,
            len: 0,
            zero_from: 0,
            prefaulted: 0,
        }
    }

    /// An empty buffer with room for `bytes` bytes. Panics when the size overflows and aborts
    /// when memory is exhausted, like `Vec`; see [`MutableBuffer::try_with_capacity`].
    pub fn with_capacity(bytes: usize) -> Self {
        let mut b = Self::new();
        b.reserve(bytes);
        b
    }

    /// An empty buffer with room for `bytes` bytes, or an error when that cannot be allocated
    /// (for sizes read from untrusted input).
    pub fn try_with_capacity(bytes: usize) -> Result<Self> {
        let mut b = Self::new();
        b.try_reserve(bytes)?;
        Ok(b)
    }

    /// A buffer of `len` zero bytes (a large one costs no writes: its fresh pages are zero).
    pub fn zeroed(len: usize) -> Self {
        let mut b = Self::with_capacity(len);
        b.extend_zeros(len);
        b
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

    /// Capacity in bytes (a multiple of 64).
    #[inline]
    pub fn capacity(&self) -> usize {
        self.alloc.cap()
    }

    /// Ensures room for `additional` more bytes (amortised doubling). Panics when the size
    /// overflows `usize`; aborts when memory is exhausted.
    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        if additional > self.capacity() - self.len {
            if let Err(e) = self.grow(additional) {
                match e {
                    AllocError::Refused(bytes) => std::alloc::handle_alloc_error(
                        std::alloc::Layout::from_size_align(bytes, ALIGNMENT)
                            .unwrap_or(std::alloc::Layout::new::<u8>()),
                    ),
                    AllocError::Size(e) => panic!("{e}"),
                }
            }
        }
    }

    /// Ensures room for `additional` more bytes, or returns an error (size overflow, or the
    /// allocator refused) and leaves the buffer as it was.
    #[inline]
    pub fn try_reserve(&mut self, additional: usize) -> Result<()> {
        if additional > self.capacity() - self.len {
            self.grow(additional).map_err(|e| match e {
                AllocError::Size(e) => e,
                AllocError::Refused(bytes) => {
                    Error::invalid(format!("cannot allocate a buffer of {bytes} bytes"))
                }
            })?;
        }
        Ok(())
    }

    /// [`MutableBuffer::try_reserve`] for `additional` bytes the caller is about to write
    /// (all of them, or all but a little: a bound on what it writes). The pages of that room
    /// are faulted in ahead, one system call for many pages, rather than one fault per 4 KiB
    /// page as they are first written (DESIGN §8: a first touch is the expensive part here,
    /// and the fault's entry and exit a third of it). Only for room that will be written:
    /// faulted-in pages are resident. The `extend_*` methods do this themselves.
    ///
    /// ```
    /// use quiver_arrow::buffer::MutableBuffer;
    /// let mut b = MutableBuffer::new();
    /// b.try_reserve_to_fill(1 << 20).unwrap();
    /// b.extend_from_slice(&[7u8; 1 << 20]);
    /// assert!(b.as_slice().iter().all(|&x| x == 7));
    /// ```
    #[inline]
    pub fn try_reserve_to_fill(&mut self, additional: usize) -> Result<()> {
        self.try_reserve(additional)?;
        self.prefault_to(self.len + additional);
        Ok(())
    }

    /// [`MutableBuffer::reserve`] for bytes written at once (the `extend_*` methods).
    #[inline]
    fn reserve_to_fill(&mut self, additional: usize) {
        self.reserve(additional);
        self.prefault_to(self.len + additional);
    }

    /// Faults in the pages up to byte `end` (within the capacity) that are not yet, and at
    /// least [`PREFAULT_STEP`] bytes past the part faulted in before: called before writing up
    /// to `end`, so that appends of a few bytes at a time cost one system call per step.
    #[inline]
    fn prefault_to(&mut self, end: usize) {
        if end > self.prefaulted {
            self.prefault_ahead(end);
        }
    }

    #[cold]
    fn prefault_ahead(&mut self, end: usize) {
        let cap = self.capacity();
        if cap < PREFAULT_MIN {
            // Left to page faults (see `PREFAULT_MIN`) until the buffer grows.
            self.prefaulted = cap;
            return;
        }
        let from = self.prefaulted.max(self.len);
        let to = end.max(from.saturating_add(PREFAULT_STEP)).min(cap);
        self.alloc.prefault(from, to);
        self.prefaulted = to;
    }

    /// Moves the bytes to an allocation with room for `additional` more: at least double the
    /// current capacity.
    #[cold]
    fn grow(&mut self, additional: usize) -> std::result::Result<(), AllocError> {
        let overflow = || AllocError::Size(Error::overflow("buffer size overflows usize"));
        let needed = self.len.checked_add(additional).ok_or_else(overflow)?;
        let cap = round_up(needed)
            .ok_or_else(overflow)?
            .max(self.capacity().saturating_mul(2))
            .max(ALIGNMENT);
        self.zero_from = self.alloc.grow(cap, self.len, self.zero_from)?;
        // The copied bytes were written; nothing is known about the rest of the new memory.
        self.prefaulted = self.len;
        Ok(())
    }

    /// Notes that bytes below `end` may have been written.
    #[inline]
    fn written(&mut self, end: usize) {
        self.zero_from = self.zero_from.max(end);
    }

    /// The written bytes.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: bytes `[0, len)` of the allocation are initialised (struct invariant); with
        // no allocation `len` is 0 and the pointer is non-null and aligned, as required.
        unsafe { std::slice::from_raw_parts(self.alloc.ptr(), self.len) }
    }

    /// The written bytes, mutably.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        self.written(self.len);
        // SAFETY: as in `as_slice`, and `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.alloc.ptr(), self.len) }
    }

    /// The capacity past the written bytes, uninitialised. Write values there, then commit
    /// them with [`MutableBuffer::set_len`].
    ///
    /// ```
    /// use quiver_arrow::buffer::MutableBuffer;
    /// let mut b = MutableBuffer::with_capacity(4);
    /// for (slot, v) in b.spare_capacity_mut().iter_mut().zip([1u8, 2, 3]) {
    ///     slot.write(v);
    /// }
    /// // SAFETY: the first 3 spare bytes were written above.
    /// unsafe { b.set_len(3) };
    /// assert_eq!(b.as_slice(), &[1, 2, 3]);
    /// ```
    #[inline]
    pub fn spare_capacity_mut(&mut self) -> &mut [MaybeUninit<u8>] {
        let cap = self.capacity();
        // Any of it may be written.
        self.written(cap);
        // SAFETY: `[len, cap)` lies inside the allocation (or is empty, at an aligned non-null
        // pointer); `MaybeUninit` makes no claim about its contents, and `&mut self` makes the
        // borrow unique.
        unsafe {
            std::slice::from_raw_parts_mut(
                self.alloc.ptr().add(self.len).cast::<MaybeUninit<u8>>(),
                cap - self.len,
            )
        }
    }

    /// The `n` bytes of capacity after the written ones (the caller reserved them), without
    /// marking any as written: the caller marks what it writes.
    #[inline]
    fn spare(&mut self, n: usize) -> &mut [MaybeUninit<u8>] {
        debug_assert!(n <= self.capacity() - self.len);
        // SAFETY: as in `spare_capacity_mut`; `[len, len + n)` lies inside the capacity.
        unsafe {
            std::slice::from_raw_parts_mut(
                self.alloc.ptr().add(self.len).cast::<MaybeUninit<u8>>(),
                n,
            )
        }
    }

    /// Sets the length to `len` bytes.
    ///
    /// # Safety
    /// `len` must be at most [`MutableBuffer::capacity`], and bytes `[0, len)` must be
    /// initialised (those past the old length written through
    /// [`MutableBuffer::spare_capacity_mut`]).
    #[inline]
    pub unsafe fn set_len(&mut self, len: usize) {
        debug_assert!(len <= self.capacity());
        self.len = len;
    }

    /// The written bytes viewed as `T` (the length must be a multiple of `size_of::<T>()`).
    #[inline]
    pub fn typed<T: bytemuck::Pod>(&self) -> &[T] {
        bytemuck::cast_slice(self.as_slice())
    }

    /// The written bytes viewed mutably as `T`.
    #[inline]
    pub fn typed_mut<T: bytemuck::Pod>(&mut self) -> &mut [T] {
        bytemuck::cast_slice_mut(self.as_mut_slice())
    }

    /// Appends one value.
    #[inline]
    pub fn push<T: bytemuck::Pod>(&mut self, value: T) {
        self.extend_from_slice(std::slice::from_ref(&value));
    }

    /// Appends values.
    #[inline]
    pub fn extend_from_slice<T: bytemuck::Pod>(&mut self, values: &[T]) {
        let bytes: &[u8] = bytemuck::cast_slice(values);
        self.reserve_to_fill(bytes.len());
        // SAFETY: `reserve` made room for `bytes.len()` bytes past `len`; the source is a
        // distinct borrow, so the ranges do not overlap; the copied bytes are initialised.
        unsafe {
            std::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                self.alloc.ptr().add(self.len),
                bytes.len(),
            );
        }
        self.len += bytes.len();
        self.written(self.len);
    }

    /// Appends `n` copies of `value`.
    ///
    /// ```
    /// use quiver_arrow::buffer::MutableBuffer;
    /// let mut b = MutableBuffer::new();
    /// b.extend_constant(7u16, 3);
    /// assert_eq!(b.typed::<u16>(), &[7, 7, 7]);
    /// ```
    pub fn extend_constant<T: bytemuck::Pod>(&mut self, value: T, n: usize) {
        let size = std::mem::size_of::<T>();
        let bytes = n.checked_mul(size).expect("buffer size overflows usize"); // ok: like Vec
        self.reserve_to_fill(bytes);
        let spare = self.spare(bytes);
        for chunk in spare.chunks_exact_mut(size) {
            for (slot, b) in chunk.iter_mut().zip(bytemuck::bytes_of(&value)) {
                slot.write(*b);
            }
        }
        self.len += bytes;
        self.written(self.len);
    }

    /// Appends the values of an iterator whose length is exact (one reservation, then each
    /// value written in place).
    ///
    /// ```
    /// use quiver_arrow::buffer::MutableBuffer;
    /// let mut b = MutableBuffer::new();
    /// b.extend_from_exact_iter((0..4u32).map(|i| i * i));
    /// assert_eq!(b.typed::<u32>(), &[0, 1, 4, 9]);
    /// ```
    #[inline]
    pub fn extend_from_exact_iter<T, I>(&mut self, iter: I)
    where
        T: bytemuck::Pod,
        I: IntoIterator<Item = T>,
        I::IntoIter: ExactSizeIterator,
    {
        let iter = iter.into_iter();
        let size = std::mem::size_of::<T>();
        let n = iter.len();
        let bytes = n.checked_mul(size).expect("buffer size overflows usize"); // ok: like Vec
        self.reserve_to_fill(bytes);
        let dst = self.spare(bytes).as_mut_ptr().cast::<T>();
        let mut written = 0;
        // Whole values stored through a pointer (unaligned: the length need not be a multiple
        // of the value's alignment), at most `n` of them. Stored byte by byte into the spare
        // slice, values kept the compiler from holding a caller's running state (`map`'s
        // closure capturing an accumulator) in a register across the stores, which could
        // alias it: a load and a store per value instead of a vectorised loop.
        for v in iter.take(n) {
            // SAFETY: `written < n` (at most `n` values are taken), so the value's bytes
            // `[written * size, (written + 1) * size)` lie in the `n * size` spare bytes
            // reserved above; `T` is `Pod`, so any bytes are a valid `T` and storing one
            // unaligned is sound.
            unsafe { dst.add(written).write_unaligned(v) };
            written += 1;
        }
        // A lying `ExactSizeIterator` that yields fewer items leaves only what was written.
        self.len += written * size;
        self.written(self.len);
    }

    /// Appends `n` zero bytes.
    #[inline]
    pub fn extend_zeros(&mut self, n: usize) {
        self.reserve(n);
        self.zero(self.len, self.len + n);
        self.len += n;
    }

    /// Makes bytes `[start, end)` of the capacity zero, writing only those below `zero_from`
    /// (the others are zero already).
    #[inline]
    fn zero(&mut self, start: usize, end: usize) {
        let dirty_end = end.min(self.zero_from);
        if start < dirty_end {
            // SAFETY: `[start, dirty_end)` lies inside the capacity (`end <= capacity`);
            // zeroing initialises it.
            unsafe { std::ptr::write_bytes(self.alloc.ptr().add(start), 0, dirty_end - start) };
        }
    }

    /// Sets the length to `len` bytes, zero-extending or truncating.
    pub fn resize(&mut self, len: usize) {
        if len > self.len {
            self.extend_zeros(len - self.len);
        } else {
            self.truncate(len);
        }
    }

    /// Shortens to `len` bytes (no effect when already shorter). Writes nothing.
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Removes all bytes, keeping the allocation. Writes nothing.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Gives the whole pages of the spare capacity (past the length) back to the system, for a
    /// large buffer (a memory map of its own): the capacity stays, and those pages cost
    /// memory again only when written. A small buffer (heap memory) is left as it is. For
    /// buffers kept for reuse, so that their unwritten tail is not resident.
    ///
    /// ```
    /// use quiver_arrow::buffer::MutableBuffer;
    /// let mut b = MutableBuffer::with_capacity(4 << 20);
    /// b.extend_from_slice(&[7u8; 10_000]);
    /// b.release_spare();
    /// assert_eq!((b.len(), b.capacity()), (10_000, 4 << 20));
    /// b.extend_zeros(100);
    /// assert_eq!(b.as_slice()[9_999..10_001], [7, 0]);
    /// ```
    pub fn release_spare(&mut self) {
        let zero = self.alloc.release(self.len);
        self.zero_from = self.zero_from.min(zero);
        self.prefaulted = self.prefaulted.min(self.len);
    }

    /// Freezes into immutable [`Bytes`] in O(1). The bytes start on a 64-byte boundary and the
    /// allocation behind them extends, zero-filled, to the next multiple of 64 bytes.
    pub fn freeze(mut self) -> Bytes {
        let cap = self.capacity();
        if cap == 0 {
            return Bytes::new();
        }
        // The padding that readers of 64-byte blocks may look at is zero.
        let padded = round_up(self.len).unwrap_or(cap).min(cap);
        self.zero(self.len, padded);
        Bytes::from_owner(Frozen {
            alloc: self.alloc,
            len: self.len,
        })
    }
}

impl<T: bytemuck::Pod> Extend<T> for MutableBuffer {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        self.reserve(iter.size_hint().0 * std::mem::size_of::<T>());
        for v in iter {
            self.push(v);
        }
    }
}

impl<T: bytemuck::Pod> FromIterator<T> for MutableBuffer {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut b = MutableBuffer::new();
        b.extend(iter);
        b
    }
}

/// Owner of a frozen allocation, kept alive by the [`Bytes`] that view it.
struct Frozen {
    alloc: Allocation,
    len: usize,
}

impl AsRef<[u8]> for Frozen {
    fn as_ref(&self) -> &[u8] {
        // SAFETY: bytes `[0, len)` were initialised when the buffer was frozen (the
        // `MutableBuffer` invariant) and are never written again.
        unsafe { std::slice::from_raw_parts(self.alloc.ptr(), self.len) }
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

    /// A buffer kept for reuse: its written bytes cleared and its spare pages released read as
    /// zero afterwards, and zero-extension past them (which writes nothing where the memory is
    /// known to be zero) gives zeros, not the old bytes.
    #[test]
    fn released_spare_pages_read_as_zero() {
        let mut b = MutableBuffer::with_capacity(4 << 20);
        b.extend_from_slice(&vec![0xFFu8; 3 << 20]);
        b.truncate(5000);
        b.release_spare();
        b.extend_zeros((4 << 20) - 5000);
        assert!(b.as_slice()[..5000].iter().all(|&x| x == 0xFF));
        assert!(b.as_slice()[5000..].iter().all(|&x| x == 0));
        b.clear();
        b.release_spare();
        b.extend_zeros(4 << 20);
        assert!(b.as_slice().iter().all(|&x| x == 0));
        // Heap memory (small buffers) is left alone, and reads the same.
        let mut small = MutableBuffer::with_capacity(4096);
        small.extend_from_slice(&[1u8; 4096]);
        small.clear();
        small.release_spare();
        small.extend_zeros(4096);
        assert!(small.as_slice().iter().all(|&x| x == 0));
    }

    #[test]
    fn aligned_and_padded() {
        for n in [1usize, 3, 63, 64, 65, 1000] {
            let mut b = MutableBuffer::new();
            b.extend_from_slice(&vec![7u8; n]);
            assert_eq!(b.capacity() % ALIGNMENT, 0);
            let f = b.freeze();
            assert_eq!(f.as_ptr() as usize % ALIGNMENT, 0);
            assert_eq!(f.len(), n);
            // The padding up to the next 64 bytes reads as zeros.
            let padded = n.next_multiple_of(ALIGNMENT);
            // SAFETY: (test) the frozen allocation is at least `padded` bytes long and its
            // padding was zeroed by `freeze`.
            let tail = unsafe { std::slice::from_raw_parts(f.as_ptr().add(n), padded - n) };
            assert!(tail.iter().all(|&x| x == 0));
        }
    }

    #[test]
    fn truncate_then_extend_zeros_writes_zeros() {
        let mut b = MutableBuffer::new();
        b.extend_from_slice(&[1u8, 2, 3, 4]);
        b.truncate(1);
        b.extend_zeros(3);
        assert_eq!(b.as_slice(), &[1, 0, 0, 0]);
    }

    #[test]
    fn freeze_zeroes_padding_after_reuse() {
        let mut b = MutableBuffer::new();
        b.extend_from_slice(&[0xAAu8; 200]);
        b.clear();
        b.extend_from_slice(&[1u8, 2, 3]);
        let f = b.freeze();
        // SAFETY: (test) as in `aligned_and_padded`.
        let tail = unsafe { std::slice::from_raw_parts(f.as_ptr().add(3), 61) };
        assert!(tail.iter().all(|&x| x == 0), "stale bytes behind the end");
    }

    #[test]
    fn clear_keeps_the_allocation() {
        let mut b = MutableBuffer::with_capacity(1000);
        let ptr = b.as_slice().as_ptr();
        b.extend_zeros(1000);
        b.clear();
        assert!(b.is_empty());
        b.extend_from_slice(&[9u8; 500]);
        assert_eq!(b.as_slice().as_ptr(), ptr);
    }

    #[test]
    fn fallible_sizes() {
        let e = MutableBuffer::try_with_capacity(usize::MAX).unwrap_err();
        assert!(matches!(e, Error::Overflow { .. }), "{e}");
        let mut b = MutableBuffer::new();
        b.push(1u8);
        assert!(b.try_reserve(usize::MAX).is_err());
        assert!(b.try_reserve(isize::MAX as usize).is_err());
        assert_eq!(
            b.as_slice(),
            &[1],
            "a failed reserve leaves the buffer as it was"
        );
        b.try_reserve(100).unwrap();
        assert!(b.capacity() >= 101);
    }

    #[test]
    fn growth_keeps_bytes() {
        let mut b = MutableBuffer::new();
        let mut model = Vec::new();
        for i in 0..5000u32 {
            b.push(i);
            model.push(i);
        }
        assert_eq!(b.typed::<u32>(), &model[..]);
        assert_eq!(b.clone().typed::<u32>(), &model[..]);
    }

    #[test]
    fn heap_to_map_to_bigger_map_keeps_bytes_and_zeros() {
        let pattern = |i: usize| (i * 31 % 251) as u8;
        let mut b = MutableBuffer::new();
        let mut model = Vec::new();
        // Through the heap, into a fresh map (copy), then grown maps (mremap).
        for step in [600_000usize, 900_000, 2_000_000, 3_500_000] {
            let bytes: Vec<u8> = (model.len()..model.len() + step).map(pattern).collect();
            b.extend_from_slice(&bytes);
            model.extend_from_slice(&bytes);
            b.extend_zeros(1000);
            model.extend(std::iter::repeat_n(0, 1000));
            assert_eq!(b.as_slice(), &model[..], "after {step}");
        }
        // Written bytes are zeroed again when a cleared buffer is zero-extended.
        b.clear();
        b.extend_zeros(model.len());
        assert!(b.as_slice().iter().all(|&x| x == 0));
        let big = MutableBuffer::zeroed(3 << 20);
        assert!(big.as_slice().iter().all(|&x| x == 0));
        let frozen = big.freeze();
        assert_eq!(frozen.len(), 3 << 20);
        assert_eq!(frozen.as_ptr() as usize % ALIGNMENT, 0);
    }

    /// Maps freed by dropped buffers are reused: a buffer that asks for zeros gets zeros, not
    /// the bytes of the buffer before it, and zero-extension past written bytes writes zeros.
    #[test]
    fn reused_maps_read_as_zero_when_zeros_are_asked() {
        for round in 0..20usize {
            let len = (1 << 20) + round * 40_000;
            let mut dirty = MutableBuffer::with_capacity(len);
            dirty.extend_from_slice(&vec![0xFFu8; len]);
            drop(dirty);
            let z = MutableBuffer::zeroed(len);
            assert!(z.as_slice().iter().all(|&x| x == 0), "round {round}");
            drop(z);
            let mut dirty = MutableBuffer::with_capacity(len);
            dirty.extend_from_slice(&vec![0xEEu8; len]);
            drop(dirty);
            let mut b = MutableBuffer::with_capacity(len);
            b.extend_from_slice(&[7u8; 1000]);
            b.extend_zeros(len - 1000);
            assert!(b.as_slice()[..1000].iter().all(|&x| x == 7));
            assert!(
                b.as_slice()[1000..].iter().all(|&x| x == 0),
                "round {round}"
            );
        }
        #[cfg(target_os = "linux")]
        assert!(super::super::alloc::map_cache_bytes() <= 16 << 20);
    }

    /// Faulting in room ahead keeps the bytes written before it (the first page it touches
    /// may hold some) and the zeros after them.
    #[test]
    fn room_faulted_in_ahead_keeps_bytes_and_zeros() {
        for written in [0usize, 1, 5000, 4096, 300_000] {
            let pattern: Vec<u8> = (0..written).map(|i| (i % 249 + 1) as u8).collect();
            let mut b = MutableBuffer::with_capacity(1 << 20);
            b.extend_from_slice(&pattern);
            b.try_reserve_to_fill(600_000).unwrap();
            assert_eq!(b.as_slice(), &pattern[..]);
            b.extend_zeros(600_000);
            assert!(b.as_slice()[written..].iter().all(|&x| x == 0));
            // Past the capacity: the buffer grows first.
            b.try_reserve_to_fill(3 << 20).unwrap();
            b.extend_from_slice(&vec![9u8; 3 << 20]);
            assert_eq!(&b.as_slice()[..written], &pattern[..]);
            assert!(b.as_slice()[written + 600_000..].iter().all(|&x| x == 9));
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn maps_past_the_huge_page_size_keep_growing_in_place() {
        // Past 4 MiB a map is advised to use huge pages; it must stay one map that `mremap`
        // grows (a split map is refused and growth would fall back to heap copies). Capacities
        // that are no multiple of 2 MiB: advising only the huge pages inside would split them.
        let pattern = |i: usize| (i * 7 % 253) as u8;
        let mut b = MutableBuffer::with_capacity(1_100_000);
        let mut model = Vec::new();
        while model.len() < 40 << 20 {
            let bytes: Vec<u8> = (model.len()..model.len() + 700_000).map(pattern).collect();
            b.extend_from_slice(&bytes);
            model.extend_from_slice(&bytes);
            assert!(b.alloc.is_mapped(), "a heap copy at {} bytes", b.len());
        }
        assert!(b.capacity() >= 40 << 20);
        assert_eq!(b.as_slice(), &model[..]);
    }
}
