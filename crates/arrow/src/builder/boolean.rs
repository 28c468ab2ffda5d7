//! Builder of boolean arrays.

use super::{Builder, NullBufferBuilder};
use crate::array::{Array, BooleanArray};
use crate::buffer::MutableBitmap;
use crate::datatype::DataType;
use crate::error::Result;

/// Builds a [`BooleanArray`]: values bit-packed, null slots hold a zero bit.
///
/// ```
/// use quiver_arrow::builder::BooleanBuilder;
/// let mut b = BooleanBuilder::new();
/// b.append_value(true);
/// b.append_null();
/// b.append_slice(&[false, true]);
/// let a = b.finish();
/// assert_eq!(a.iter().collect::<Vec<_>>(), vec![Some(true), None, Some(false), Some(true)]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct BooleanBuilder {
    values: MutableBitmap,
    validity: NullBufferBuilder,
}

impl BooleanBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty builder with room for `capacity` values.
    pub fn with_capacity(capacity: usize) -> Self {
        BooleanBuilder {
            values: MutableBitmap::with_capacity(capacity),
            validity: NullBufferBuilder::with_capacity(capacity),
        }
    }

    /// Appends a value.
    #[inline]
    pub fn append_value(&mut self, value: bool) {
        self.values.push(value);
        self.validity.append_non_null();
    }

    /// Appends a null.
    #[inline]
    pub fn append_null(&mut self) {
        self.values.push(false);
        self.validity.append_null();
    }

    /// Appends `n` nulls.
    pub fn append_nulls(&mut self, n: usize) {
        self.values.append_n(false, n);
        self.validity.append_n_nulls(n);
    }

    /// Appends a value or a null.
    #[inline]
    pub fn append_option(&mut self, value: Option<bool>) {
        match value {
            Some(v) => self.append_value(v),
            None => self.append_null(),
        }
    }

    /// Appends `n` copies of `value`.
    pub fn append_n(&mut self, n: usize, value: bool) {
        self.values.append_n(value, n);
        self.validity.append_n_non_nulls(n);
    }

    /// Appends non-null values.
    pub fn append_slice(&mut self, values: &[bool]) {
        self.values.extend(values.iter().copied());
        self.validity.append_n_non_nulls(values.len());
    }

    /// Number of slots appended.
    #[inline]
    pub fn len(&self) -> usize {
        self.validity.len()
    }

    /// True when nothing has been appended.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Builds the array in O(1) and resets the builder.
    pub fn finish(&mut self) -> BooleanArray {
        let values = std::mem::take(&mut self.values).freeze();
        BooleanArray::try_new(values, self.validity.finish())
            .expect("the builder's validity covers its values") // ok: the builder's validity covers its values.
    }
}

impl Extend<Option<bool>> for BooleanBuilder {
    fn extend<I: IntoIterator<Item = Option<bool>>>(&mut self, iter: I) {
        for v in iter {
            self.append_option(v);
        }
    }
}

impl Builder for BooleanBuilder {
    fn len(&self) -> usize {
        self.len()
    }
    fn data_type(&self) -> DataType {
        DataType::Boolean
    }
    fn append_null(&mut self) {
        self.append_null()
    }
    fn check_finish(&self) -> Result<()> {
        Ok(())
    }
    fn finish_array(&mut self) -> Array {
        Array::from(self.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::tests::{assert_aligned, assert_valid};

    #[test]
    fn bits_and_validity() {
        let mut b = BooleanBuilder::with_capacity(4);
        b.extend([Some(true), None, Some(false), Some(true)]);
        b.append_n(6, true);
        let a = b.finish();
        assert_eq!(a.len(), 10);
        // values: 1,0,0,1,1,1,1,1 | 1,1 → 0b1111_1001, 0b11
        assert_eq!(&a.values().bytes()[..], &[0b1111_1001, 0b0000_0011]);
        assert_eq!(
            &a.validity().unwrap().bytes()[..],
            &[0b1111_1101, 0b0000_0011]
        );
        assert_aligned(a.values().bytes());
        assert_valid(&Array::from(a));
    }

    #[test]
    fn no_nulls_no_bitmap() {
        let mut b = BooleanBuilder::new();
        b.append_slice(&[true, false]);
        let a = b.finish();
        assert!(a.validity().is_none());
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![Some(true), Some(false)]);
        b.append_nulls(3);
        let a = b.finish();
        assert_eq!(a.null_count(), 3);
        assert_eq!(&a.values().bytes()[..], &[0]);
    }
}
