//! Builder of fixed-size binary arrays.

use super::{Builder, NullBufferBuilder};
use crate::array::{Array, FixedSizeBinaryArray};
use crate::buffer::{Buffer, MutableBuffer};
use crate::datatype::DataType;
use crate::error::{Error, Result};

/// Builds a [`FixedSizeBinaryArray`] of values of `width` bytes; null slots are zero-filled.
///
/// ```
/// use quiver_arrow::builder::FixedSizeBinaryBuilder;
/// let mut b = FixedSizeBinaryBuilder::new(3);
/// b.append_value(b"abc").unwrap();
/// b.append_null();
/// assert!(b.append_value(b"too long").is_err());
/// let a = b.finish();
/// assert_eq!(a.values().as_slice(), b"abc\0\0\0");
/// ```
#[derive(Clone, Debug)]
pub struct FixedSizeBinaryBuilder {
    width: usize,
    values: MutableBuffer,
    validity: NullBufferBuilder,
}

impl FixedSizeBinaryBuilder {
    /// An empty builder of values of `width` bytes.
    ///
    /// # Panics
    /// When `width` is negative (see [`FixedSizeBinaryBuilder::try_new`]).
    pub fn new(width: i32) -> Self {
        match Self::try_new(width, 0) {
            Ok(b) => b,
            Err(e) => panic!("{e}"),
        }
    }

    /// An empty builder of values of `width` bytes with room for `capacity` values;
    /// [`Error::InvalidArgument`] when `width` is negative.
    pub fn try_new(width: i32, capacity: usize) -> Result<Self> {
        let width = usize::try_from(width)
            .map_err(|_| Error::invalid(format!("FixedSizeBinary width {width} is negative")))?;
        Ok(FixedSizeBinaryBuilder {
            width,
            values: MutableBuffer::with_capacity(width.saturating_mul(capacity)),
            validity: NullBufferBuilder::with_capacity(capacity),
        })
    }

    /// Width of each value in bytes.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Appends a value; [`Error::InvalidArgument`] (builder unchanged) when it is not exactly
    /// `width` bytes long.
    #[inline]
    pub fn append_value(&mut self, value: impl AsRef<[u8]>) -> Result<()> {
        let value = value.as_ref();
        if value.len() != self.width {
            return Err(Error::invalid(format!(
                "value of {} bytes appended to FixedSizeBinary({})",
                value.len(),
                self.width
            )));
        }
        self.values.extend_from_slice(value);
        self.validity.append_non_null();
        Ok(())
    }

    /// Appends a null (`width` zero bytes).
    #[inline]
    pub fn append_null(&mut self) {
        self.values.extend_zeros(self.width);
        self.validity.append_null();
    }

    /// Appends `n` nulls.
    pub fn append_nulls(&mut self, n: usize) {
        self.values.extend_zeros(self.width * n);
        self.validity.append_n_nulls(n);
    }

    /// Appends a value or a null (errors as [`FixedSizeBinaryBuilder::append_value`]).
    pub fn append_option(&mut self, value: Option<impl AsRef<[u8]>>) -> Result<()> {
        match value {
            Some(v) => self.append_value(v),
            None => {
                self.append_null();
                Ok(())
            }
        }
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
    pub fn finish(&mut self) -> FixedSizeBinaryArray {
        let len = self.len();
        let values = Buffer::from(std::mem::take(&mut self.values));
        // The width came from an `i32` in `try_new`.
        FixedSizeBinaryArray::try_new(self.width as i32, len, values, self.validity.finish())
            .expect("the builder holds width bytes per slot") // ok: the builder holds width bytes per slot.
    }
}

impl Builder for FixedSizeBinaryBuilder {
    fn len(&self) -> usize {
        self.len()
    }
    fn data_type(&self) -> DataType {
        DataType::FixedSizeBinary(self.width as i32)
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
    fn zero_filled_nulls_and_width_check() {
        let mut b = FixedSizeBinaryBuilder::try_new(2, 4).unwrap();
        b.append_value([1u8, 2]).unwrap();
        b.append_nulls(1);
        let err = b.append_value([9u8]).unwrap_err();
        assert!(matches!(err, Error::InvalidArgument { .. }));
        b.append_option(Some([3u8, 4])).unwrap();
        let a = b.finish();
        assert_eq!(a.len(), 3);
        assert_eq!(a.values().as_slice(), &[1, 2, 0, 0, 3, 4]);
        assert_eq!(&a.validity().unwrap().bytes()[..], &[0b101]);
        assert_aligned(a.values().bytes());
        assert_valid(&Array::from(a));
        assert!(FixedSizeBinaryBuilder::try_new(-1, 0).is_err());
    }

    #[test]
    fn zero_width() {
        let mut b = FixedSizeBinaryBuilder::new(0);
        b.append_value([0u8; 0]).unwrap();
        b.append_null();
        let a = b.finish();
        assert_eq!(a.len(), 2);
        assert_eq!(a.null_count(), 1);
        assert_valid(&Array::from(a));
    }
}
