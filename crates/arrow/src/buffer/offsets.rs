//! Offset buffers for variable-size layouts.

use super::mutable::MutableBuffer;
use super::typed::Buffer;
use crate::error::{Error, Result};
use crate::native::NativeType;

/// An offset type: `i32` for the 32-bit layouts, `i64` for the `Large` ones.
pub trait Offset: NativeType + Ord + Copy + std::hash::Hash + sealed::Sealed {
    /// Zero.
    const ZERO: Self;
    /// True for `i64`.
    const IS_LARGE: bool;
    /// Widens to `i64`.
    fn to_i64(self) -> i64;
    /// As `usize`; only meaningful for non-negative values.
    fn as_usize(self) -> usize;
    /// Narrows from `usize`, `None` on overflow.
    fn from_usize(v: usize) -> Option<Self>;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for i32 {}
    impl Sealed for i64 {}
}

impl Offset for i32 {
    const ZERO: Self = 0;
    const IS_LARGE: bool = false;
    #[inline]
    fn to_i64(self) -> i64 {
        self as i64
    }
    #[inline]
    fn as_usize(self) -> usize {
        self as usize
    }
    #[inline]
    fn from_usize(v: usize) -> Option<Self> {
        i32::try_from(v).ok()
    }
}

impl Offset for i64 {
    const ZERO: Self = 0;
    const IS_LARGE: bool = true;
    #[inline]
    fn to_i64(self) -> i64 {
        self
    }
    #[inline]
    fn as_usize(self) -> usize {
        self as usize
    }
    #[inline]
    fn from_usize(v: usize) -> Option<Self> {
        i64::try_from(v).ok()
    }
}

/// Offsets of a variable-size layout: at least one value, the first non-negative, and
/// non-decreasing. Value `i` spans `[offsets[i], offsets[i + 1])`.
///
/// ```
/// use quiver_arrow::buffer::OffsetBuffer;
/// let o = OffsetBuffer::<i32>::try_new(vec![0, 3, 3, 7].into()).unwrap();
/// assert_eq!(o.len_of(2), 4);
/// assert!(OffsetBuffer::<i32>::try_new(vec![0, 3, 2].into()).is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct OffsetBuffer<O: Offset>(Buffer<O>);

impl<O: Offset> OffsetBuffer<O> {
    /// Checks the invariants (O(n), vectorisable) and wraps the buffer.
    pub fn try_new(buffer: Buffer<O>) -> Result<Self> {
        check_offsets(buffer.as_slice())?;
        Ok(OffsetBuffer(buffer))
    }

    /// Wraps the buffer without checking monotonicity.
    ///
    /// # Safety
    /// `buffer` must be non-empty, its first value non-negative and its values non-decreasing
    /// by the time any value is sliced by these offsets. Code slicing values relies on it (see
    /// `validate/mod.rs`). A reader may wrap offsets it has not checked yet if the array they
    /// end up in is validated in full ([`ValidationLevel::Full`](crate::ValidationLevel))
    /// before anything reads it; that is how the IPC reader checks each buffer only once.
    pub unsafe fn new_unchecked(buffer: Buffer<O>) -> Self {
        OffsetBuffer(buffer)
    }

    /// Offsets `[0, l0, l0 + l1, …]` from the lengths of the values, in one checked pass: an
    /// [`Error::Overflow`] when the total does not fit `O` (or `usize`), instead of wrapping.
    ///
    /// ```
    /// use quiver_arrow::buffer::OffsetBuffer;
    /// let o = OffsetBuffer::<i32>::from_lengths([3, 0, 4]).unwrap();
    /// assert_eq!(o.as_slice(), &[0, 3, 3, 7]);
    /// assert!(OffsetBuffer::<i32>::from_lengths([i32::MAX as usize, 1]).is_err());
    /// ```
    pub fn from_lengths(lengths: impl IntoIterator<Item = usize>) -> Result<Self> {
        let lengths = lengths.into_iter();
        let mut out = MutableBuffer::new();
        out.try_reserve((lengths.size_hint().0 + 1).saturating_mul(std::mem::size_of::<O>()))?;
        out.push(O::ZERO);
        let mut total = 0usize;
        let mut fits = true;
        for len in lengths {
            let (sum, overflow) = total.overflowing_add(len);
            fits &= !overflow;
            total = sum;
            let o = O::from_usize(total);
            fits &= o.is_some();
            out.push(o.unwrap_or(O::ZERO));
        }
        if !fits {
            return Err(Error::overflow(format!(
                "value lengths add up beyond the range of {} offsets",
                O::NAME
            )));
        }
        Ok(OffsetBuffer(Buffer::from(out)))
    }

    /// Offsets `[0]` for an empty array.
    pub fn new_empty() -> Self {
        OffsetBuffer(Buffer::from(vec![O::ZERO]))
    }

    /// Offsets `[0, 0, …]` for `len` empty values.
    pub fn new_zeroed(len: usize) -> Self {
        OffsetBuffer(Buffer::from(vec![O::ZERO; len + 1]))
    }

    /// Number of values described (one less than the number of offsets).
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len() - 1
    }
    /// True when no values are described.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The offsets.
    #[inline]
    pub fn as_slice(&self) -> &[O] {
        self.0.as_slice()
    }
    /// The underlying buffer.
    #[inline]
    pub fn buffer(&self) -> &Buffer<O> {
        &self.0
    }
    /// First offset.
    #[inline]
    pub fn first(&self) -> O {
        self.0.as_slice()[0]
    }
    /// Last offset.
    #[inline]
    pub fn last(&self) -> O {
        self.0.as_slice()[self.0.len() - 1]
    }
    /// Range `[start, end)` of value `i`.
    #[inline]
    pub fn range(&self, i: usize) -> std::ops::Range<usize> {
        let o = self.0.as_slice();
        o[i].as_usize()..o[i + 1].as_usize()
    }
    /// Length of value `i`.
    #[inline]
    pub fn len_of(&self, i: usize) -> usize {
        let r = self.range(i);
        r.end - r.start
    }
    /// Offsets of values `[offset, offset + len)` (zero-copy; `len + 1` offsets).
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        OffsetBuffer(self.0.slice(offset, len + 1))
    }
}

/// Checks that `offsets` is non-empty, starts non-negative and never decreases, reporting the
/// first violation.
pub fn check_offsets<O: Offset>(offsets: &[O]) -> Result<()> {
    let Some(&first) = offsets.first() else {
        return Err(Error::oos(
            "offsets buffer is empty (it needs length + 1 values)",
        ));
    };
    if first < O::ZERO {
        return Err(Error::oos(format!(
            "first offset is negative ({})",
            first.to_i64()
        )));
    }
    // Branch-free pass over the whole buffer first (vectorises), then locate the culprit.
    let bad = offsets.windows(2).fold(false, |acc, w| acc | (w[1] < w[0]));
    if bad {
        let i = offsets
            .windows(2)
            .position(|w| w[1] < w[0])
            .expect("found above") // ok: found above.
            + 1;
        return Err(Error::oos(format!(
            "offsets decrease at index {i}: {} follows {}",
            offsets[i].to_i64(),
            offsets[i - 1].to_i64()
        )));
    }
    Ok(())
}
