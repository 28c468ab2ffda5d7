//! Immutable typed buffers over shared bytes.

use super::mutable::{MutableBuffer, aligned_copy};
use crate::error::{Error, Result};
use crate::native::NativeType;
use bytes::Bytes;
use std::cell::Cell;
use std::marker::PhantomData;

thread_local! {
    /// Copies [`Buffer::from_bytes`] made of misaligned input on this thread.
    static COPIES: Cell<u64> = const { Cell::new(0) };
}

/// How many times [`Buffer::from_bytes`] has copied misaligned input on the calling thread
/// since it started (a counter, for tests and diagnostics that check a path is zero-copy).
pub fn misaligned_copies() -> u64 {
    COPIES.with(Cell::get)
}

/// The whole values of `T` at the start of `bytes`.
fn whole_values<T>(bytes: Bytes) -> Bytes {
    let whole = bytes.len() - bytes.len() % std::mem::size_of::<T>();
    bytes.slice(..whole)
}

/// An immutable, cheaply cloned, zero-copy sliceable sequence of `T` over shared [`Bytes`].
///
/// The bytes may be owned by anything [`Bytes`] can hold: a quiver allocation, a memory map or a
/// received message (see [`Bytes::from_owner`]); slicing and cloning never copy. Construction
/// checks alignment once; misaligned input is copied into an aligned allocation.
///
/// ```
/// use quiver_arrow::Buffer;
/// let b = Buffer::from(vec![1i32, 2, 3, 4]);
/// let s = b.slice(1, 2);
/// assert_eq!(s.as_slice(), &[2, 3]);
/// assert_eq!(s.as_ptr(), b.as_slice()[1..].as_ptr()); // zero copy
/// ```
pub struct Buffer<T> {
    /// Exactly the bytes of the `len` values; `bytes.as_ptr()` is aligned for `T`.
    bytes: Bytes,
    _t: PhantomData<T>,
}

impl<T> Clone for Buffer<T> {
    fn clone(&self) -> Self {
        Buffer {
            bytes: self.bytes.clone(),
            _t: PhantomData,
        }
    }
}

impl<T: NativeType> Default for Buffer<T> {
    fn default() -> Self {
        Self::empty()
    }
}

impl<T: NativeType> std::fmt::Debug for Buffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<T: NativeType> PartialEq for Buffer<T> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: NativeType> Buffer<T> {
    /// An empty buffer.
    pub fn empty() -> Self {
        Buffer {
            bytes: Bytes::new(),
            _t: PhantomData,
        }
    }

    /// Views `bytes` as values of `T` without copying when `bytes` is aligned for `T`, copying
    /// into a 64-byte aligned allocation otherwise. Trailing bytes that do not make a whole value
    /// are ignored.
    ///
    /// The copy of misaligned input (e.g. 16-byte decimals in a file whose writer aligned
    /// buffers to 8) is counted: [`misaligned_copies`] tells how many this thread made, so that
    /// a test can assert that a read path is zero-copy. [`Buffer::try_from_aligned`] never
    /// copies.
    ///
    /// ```
    /// use quiver_arrow::Buffer;
    /// use quiver_arrow::buffer::misaligned_copies;
    /// let raw = bytes::Bytes::from(vec![0u8; 17]);
    /// let before = misaligned_copies();
    /// let b = Buffer::<u64>::from_bytes(raw.slice(1..17)); // one byte off: copied
    /// assert_eq!((b.len(), misaligned_copies() - before), (2, 1));
    /// ```
    pub fn from_bytes(bytes: Bytes) -> Self {
        let bytes = whole_values::<T>(bytes);
        let bytes = if Self::is_aligned(&bytes) {
            bytes
        } else {
            COPIES.with(|c| c.set(c.get() + 1));
            aligned_copy(&bytes)
        };
        Buffer {
            bytes,
            _t: PhantomData,
        }
    }

    /// Views `bytes` as values of `T` without copying, or fails when `bytes` is not aligned for
    /// `T`. Trailing bytes that do not make a whole value are ignored.
    ///
    /// ```
    /// use quiver_arrow::Buffer;
    /// let raw = bytes::Bytes::from(vec![0u8; 17]);
    /// assert!(Buffer::<u64>::try_from_aligned(raw.slice(1..17)).is_err());
    /// let b = Buffer::<u8>::try_from_aligned(raw.slice(1..17)).unwrap();
    /// assert_eq!(b.as_ptr(), raw[1..].as_ptr());
    /// ```
    pub fn try_from_aligned(bytes: Bytes) -> Result<Self> {
        let bytes = whole_values::<T>(bytes);
        if !Self::is_aligned(&bytes) {
            return Err(Error::invalid(format!(
                "buffer at address {:#x} is not aligned to {} bytes for {}",
                bytes.as_ptr() as usize,
                std::mem::align_of::<T>(),
                T::NAME
            )));
        }
        Ok(Buffer {
            bytes,
            _t: PhantomData,
        })
    }

    /// True when `bytes` would be used without copying by [`Buffer::from_bytes`].
    pub fn is_aligned(bytes: &[u8]) -> bool {
        (bytes.as_ptr() as usize) % std::mem::align_of::<T>() == 0
    }

    /// Number of values.
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len() / std::mem::size_of::<T>()
    }

    /// True when there are no values.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The values.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        if self.bytes.is_empty() {
            // An empty `Bytes` may carry a dangling pointer that is not aligned for `T`
            // (`Bytes::new()` uses address 1), which `from_raw_parts` does not allow.
            return &[];
        }
        // SAFETY: `bytes` is aligned for `T` (checked in `from_bytes`, or produced by a 64-byte
        // aligned allocation; slicing in `slice` moves by whole values, preserving alignment),
        // its length is a multiple of `size_of::<T>()` (`from_bytes` and `slice` keep whole
        // values), and `T: Pod` accepts any bit pattern. `Bytes` is immutable, so the shared
        // borrow cannot alias a mutation.
        unsafe { std::slice::from_raw_parts(self.bytes.as_ptr().cast::<T>(), self.len()) }
    }

    /// Pointer to the first value (for zero-copy checks).
    pub fn as_ptr(&self) -> *const T {
        self.bytes.as_ptr().cast()
    }

    /// The value at `i`. Panics when out of bounds.
    #[inline]
    pub fn get(&self, i: usize) -> T {
        self.as_slice()[i]
    }

    /// A zero-copy slice of `len` values starting at `offset`. Panics when out of bounds.
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        let size = std::mem::size_of::<T>();
        assert!(
            offset.checked_add(len).is_some_and(|end| end <= self.len()),
            "slice [{offset}, {offset}+{len}) out of bounds of buffer of length {}",
            self.len()
        );
        Buffer {
            bytes: self.bytes.slice(offset * size..(offset + len) * size),
            _t: PhantomData,
        }
    }

    /// The underlying bytes (exactly the values, no padding).
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// Consumes the buffer, returning its bytes.
    pub fn into_bytes(self) -> Bytes {
        self.bytes
    }

    /// Iterates the values.
    pub fn iter(&self) -> std::iter::Copied<std::slice::Iter<'_, T>> {
        self.as_slice().iter().copied()
    }
}

impl<T: NativeType> std::ops::Deref for Buffer<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: NativeType> From<Vec<T>> for Buffer<T> {
    fn from(v: Vec<T>) -> Self {
        Self::from(v.as_slice())
    }
}

impl<T: NativeType> From<&[T]> for Buffer<T> {
    fn from(v: &[T]) -> Self {
        let mut m = MutableBuffer::with_capacity(std::mem::size_of_val(v));
        m.extend_from_slice(v);
        Self::from(m)
    }
}

impl<T: NativeType> From<MutableBuffer> for Buffer<T> {
    /// Freezes a mutable buffer (O(1)). Its length must be a multiple of `size_of::<T>()`.
    fn from(m: MutableBuffer) -> Self {
        debug_assert_eq!(m.len() % std::mem::size_of::<T>(), 0);
        Self::from_bytes(m.freeze())
    }
}

impl<T: NativeType> FromIterator<T> for Buffer<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Self::from(iter.into_iter().collect::<MutableBuffer>())
    }
}

impl<'a, T: NativeType> IntoIterator for &'a Buffer<T> {
    type Item = T;
    type IntoIter = std::iter::Copied<std::slice::Iter<'a, T>>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misaligned_input_is_copied_aligned() {
        let raw = Bytes::from(vec![0u8; 41]);
        let before = misaligned_copies();
        let b = Buffer::<i64>::from_bytes(raw.slice(1..41));
        assert_eq!(b.len(), 5);
        assert_eq!(b.as_ptr() as usize % 8, 0);
        assert_eq!(misaligned_copies(), before + 1);
        // Aligned input is used in place and not counted.
        let b = Buffer::<i64>::from_bytes(raw.slice(0..40));
        assert_eq!(b.as_ptr().cast::<u8>(), raw.as_ptr());
        assert_eq!(misaligned_copies(), before + 1);
        let e = Buffer::<i64>::try_from_aligned(raw.slice(1..41)).unwrap_err();
        assert!(
            e.to_string().contains("not aligned to 8 bytes for i64"),
            "{e}"
        );
    }

    #[test]
    fn foreign_owner_zero_copy() {
        struct Owner(Vec<u64>);
        impl AsRef<[u8]> for Owner {
            fn as_ref(&self) -> &[u8] {
                bytemuck::cast_slice(&self.0)
            }
        }
        let owner = Owner(vec![5, 6, 7]);
        let ptr = owner.0.as_ptr();
        let b = Buffer::<u64>::from_bytes(Bytes::from_owner(owner));
        assert_eq!(b.as_ptr(), ptr);
        assert_eq!(b.slice(1, 2).as_slice(), &[6, 7]);
    }
}
