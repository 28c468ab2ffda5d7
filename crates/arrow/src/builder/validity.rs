//! Lazily allocated validity bitmaps.

use crate::buffer::{Bitmap, MutableBitmap};

/// Builds an optional validity bitmap, allocating it only when the first null arrives.
///
/// Until then it only counts slots; at the first null it materialises a bitmap with every
/// earlier slot set. [`NullBufferBuilder::finish`] returns `None` when no null was appended, and
/// otherwise a bitmap whose null count is already known (no recount).
///
/// ```
/// use quiver_arrow::builder::NullBufferBuilder;
/// let mut v = NullBufferBuilder::new();
/// v.append_n_non_nulls(3);
/// assert!(v.finish().is_none());
/// v.append_non_null();
/// v.append_null();
/// let b = v.finish().unwrap();
/// assert_eq!(b.iter().collect::<Vec<_>>(), vec![true, false]);
/// assert_eq!(b.unset_bits(), 1);
/// ```
#[derive(Clone, Debug, Default)]
pub struct NullBufferBuilder {
    len: usize,
    /// Bits reserved when the bitmap materialises.
    capacity: usize,
    bitmap: Option<MutableBitmap>,
}

impl NullBufferBuilder {
    /// An empty builder.
    pub const fn new() -> Self {
        NullBufferBuilder {
            len: 0,
            capacity: 0,
            bitmap: None,
        }
    }

    /// An empty builder that reserves `capacity` bits if it ever materialises its bitmap.
    pub fn with_capacity(capacity: usize) -> Self {
        NullBufferBuilder {
            capacity,
            ..Self::new()
        }
    }

    /// Number of slots appended.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no slot was appended.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of null slots appended.
    #[inline]
    pub fn null_count(&self) -> usize {
        self.bitmap.as_ref().map_or(0, MutableBitmap::unset_bits)
    }

    /// True when slot `i` is valid. Panics when out of bounds.
    pub fn is_valid(&self, i: usize) -> bool {
        assert!(
            i < self.len,
            "slot {i} out of bounds of length {}",
            self.len
        );
        self.bitmap.as_ref().is_none_or(|b| b.get(i))
    }

    /// Appends a valid slot.
    #[inline]
    pub fn append_non_null(&mut self) {
        if let Some(b) = &mut self.bitmap {
            b.push(true);
        }
        self.len += 1;
    }

    /// Appends `n` valid slots.
    #[inline]
    pub fn append_n_non_nulls(&mut self, n: usize) {
        if let Some(b) = &mut self.bitmap {
            b.append_n(true, n);
        }
        self.len += n;
    }

    /// Appends a null slot (materialising the bitmap on the first one).
    #[inline]
    pub fn append_null(&mut self) {
        self.materialize().push(false);
        self.len += 1;
    }

    /// Appends `n` null slots.
    pub fn append_n_nulls(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        self.materialize().append_n(false, n);
        self.len += n;
    }

    /// Appends a slot that is valid when `valid` is true.
    #[inline]
    pub fn append(&mut self, valid: bool) {
        if valid {
            self.append_non_null()
        } else {
            self.append_null()
        }
    }

    /// Appends the bits of `validity` (or `len` valid slots when it is `None`).
    pub fn append_validity(&mut self, validity: Option<&Bitmap>, len: usize) {
        match validity {
            Some(v) if v.unset_bits() > 0 => {
                self.materialize().extend_from_bitmap(v);
                self.len += v.len();
            }
            _ => self.append_n_non_nulls(len),
        }
    }

    #[cold]
    fn create_bitmap(&mut self) {
        let mut b = MutableBitmap::with_capacity(self.capacity.max(self.len + 1));
        b.append_n(true, self.len);
        self.bitmap = Some(b);
    }

    #[inline]
    fn materialize(&mut self) -> &mut MutableBitmap {
        if self.bitmap.is_none() {
            self.create_bitmap();
        }
        self.bitmap.as_mut().expect("created above") // ok: created above.
    }

    /// Takes the bitmap (`None` when no null was appended) and resets the builder, in O(1).
    pub fn finish(&mut self) -> Option<Bitmap> {
        self.len = 0;
        self.bitmap.take().map(MutableBitmap::freeze)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_nulls_no_bitmap() {
        let mut v = NullBufferBuilder::with_capacity(100);
        v.append_n_non_nulls(70);
        v.append_non_null();
        assert_eq!(v.len(), 71);
        assert!(v.bitmap.is_none());
        assert!(v.finish().is_none());
        assert_eq!(v.len(), 0);
    }

    #[test]
    fn backfills_on_first_null() {
        let mut v = NullBufferBuilder::new();
        v.append_n_non_nulls(9);
        v.append_null();
        v.append(true);
        v.append_n_nulls(3);
        v.append(false);
        assert_eq!(v.null_count(), 5);
        assert!(v.is_valid(8) && !v.is_valid(9) && v.is_valid(10) && !v.is_valid(11));
        let b = v.finish().unwrap();
        // bits 0..9 set, 9 unset, 10 set, 11..15 unset: bytes 0xff, 0b0000_0101.
        assert_eq!(&b.bytes()[..], &[0xff, 0b0000_0101]);
        assert_eq!(b.len(), 15);
        assert_eq!(b.unset_bits(), 5);
        assert_eq!(b.count_unset(), 5);
        assert_eq!(b.bytes().as_ptr() as usize % 64, 0);
    }

    #[test]
    fn append_validity_copies_bits() {
        let mut v = NullBufferBuilder::new();
        v.append_validity(None, 2);
        let src: Bitmap = [false, true, false].into_iter().collect();
        v.append_validity(Some(&src.slice(1, 2)), 2);
        let b = v.finish().unwrap();
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![true, true, true, false]);
        assert_eq!(b.unset_bits(), 1);
    }
}
