//! Builders of variable-size binary and UTF-8 arrays (32- and 64-bit offsets).

use super::{Builder, NullBufferBuilder};
use crate::array::{Array, GenericBinaryArray, GenericStringArray};
use crate::buffer::{Buffer, MutableBuffer, Offset, OffsetBuffer};
use crate::datatype::DataType;
use crate::error::{Error, Result};
use std::marker::PhantomData;

/// Builds a [`GenericBinaryArray`]: offsets plus all values back to back.
///
/// Offsets cannot wrap: [`GenericBinaryBuilder::try_append_value`] returns
/// [`Error::Overflow`] when the values would exceed the offset type (`i32::MAX` bytes for
/// `Binary`), and [`GenericBinaryBuilder::append_value`] panics in that case.
///
/// ```
/// use quiver_arrow::builder::BinaryBuilder;
/// let mut b = BinaryBuilder::new();
/// b.append_value(b"joe");
/// b.append_null();
/// b.append_null();
/// b.append_value(b"mark");
/// let a = b.finish();
/// assert_eq!(a.offsets().as_slice(), &[0, 3, 3, 3, 7]);
/// assert_eq!(a.values().as_slice(), b"joemark");
/// ```
#[derive(Clone, Debug)]
pub struct GenericBinaryBuilder<O: Offset> {
    offsets: MutableBuffer,
    values: MutableBuffer,
    validity: NullBufferBuilder,
    /// The last offset pushed (`values.len()` as `O`).
    last: O,
    _o: PhantomData<O>,
}

/// Builder of `Binary` arrays.
pub type BinaryBuilder = GenericBinaryBuilder<i32>;
/// Builder of `LargeBinary` arrays.
pub type LargeBinaryBuilder = GenericBinaryBuilder<i64>;

impl<O: Offset> Default for GenericBinaryBuilder<O> {
    fn default() -> Self {
        Self::new()
    }
}

/// The offset after appending `added` bytes to `stored` ones, or [`Error::Overflow`] when it
/// does not fit `O`.
#[inline]
pub(crate) fn end_offset<O: Offset>(stored: usize, added: usize) -> Result<O> {
    stored
        .checked_add(added)
        .and_then(O::from_usize)
        .ok_or_else(|| {
            Error::overflow(format!(
                "{stored} + {added} bytes exceed what {} offsets address; use a Large type",
                O::NAME
            ))
        })
}

impl<O: Offset> GenericBinaryBuilder<O> {
    /// An empty builder.
    pub fn new() -> Self {
        Self::with_capacity(0, 0)
    }

    /// An empty builder with room for `items` values totalling `bytes` bytes.
    pub fn with_capacity(items: usize, bytes: usize) -> Self {
        let mut offsets = MutableBuffer::with_capacity((items + 1) * std::mem::size_of::<O>());
        offsets.push(O::ZERO);
        GenericBinaryBuilder {
            offsets,
            values: MutableBuffer::with_capacity(bytes),
            validity: NullBufferBuilder::with_capacity(items),
            last: O::ZERO,
            _o: PhantomData,
        }
    }

    /// Appends a value, or returns [`Error::Overflow`] (leaving the builder unchanged) when the
    /// values would no longer fit the offset type.
    #[inline]
    pub fn try_append_value(&mut self, value: impl AsRef<[u8]>) -> Result<()> {
        let value = value.as_ref();
        let end = end_offset::<O>(self.values.len(), value.len())?;
        self.values.extend_from_slice(value);
        self.offsets.push(end);
        self.last = end;
        self.validity.append_non_null();
        Ok(())
    }

    /// Appends a value.
    ///
    /// # Panics
    /// When the values would exceed the offset type; use
    /// [`GenericBinaryBuilder::try_append_value`] (or the `Large` type) for input of unknown
    /// size.
    #[inline]
    pub fn append_value(&mut self, value: impl AsRef<[u8]>) {
        if let Err(e) = self.try_append_value(value) {
            panic!("{e}");
        }
    }

    /// Appends a null (an empty range in the offsets).
    #[inline]
    pub fn append_null(&mut self) {
        self.offsets.push(self.last);
        self.validity.append_null();
    }

    /// Appends `n` nulls.
    pub fn append_nulls(&mut self, n: usize) {
        self.offsets.reserve(n * std::mem::size_of::<O>());
        for _ in 0..n {
            self.offsets.push(self.last);
        }
        self.validity.append_n_nulls(n);
    }

    /// Appends a value or a null.
    ///
    /// # Panics
    /// As [`GenericBinaryBuilder::append_value`].
    #[inline]
    pub fn append_option(&mut self, value: Option<impl AsRef<[u8]>>) {
        match value {
            Some(v) => self.append_value(v),
            None => self.append_null(),
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

    /// The value bytes appended so far.
    pub fn values_slice(&self) -> &[u8] {
        self.values.as_slice()
    }

    /// The offsets appended so far (one more than [`GenericBinaryBuilder::len`]).
    pub fn offsets_slice(&self) -> &[O] {
        self.offsets.typed()
    }

    /// Freezes offsets, values and validity in O(1) and resets the builder.
    fn finish_parts(&mut self) -> (OffsetBuffer<O>, Buffer<u8>, Option<crate::Bitmap>) {
        let mut fresh = MutableBuffer::new();
        fresh.push(O::ZERO);
        let offsets = Buffer::<O>::from(std::mem::replace(&mut self.offsets, fresh));
        // SAFETY: offsets start at zero and each pushed offset is the values length at that
        // time (checked to fit `O`), so they are non-empty, non-negative and non-decreasing.
        let offsets = unsafe { OffsetBuffer::new_unchecked(offsets) };
        let values = Buffer::from(std::mem::take(&mut self.values));
        self.last = O::ZERO;
        (offsets, values, self.validity.finish())
    }

    /// Builds the array in O(1) and resets the builder.
    pub fn finish(&mut self) -> GenericBinaryArray<O> {
        let (offsets, values, validity) = self.finish_parts();
        GenericBinaryArray::try_new(offsets, values, validity)
            .expect("the builder's offsets end at its values length") // ok: the builder's offsets end at its values length.
    }
}

impl<O: Offset> Builder for GenericBinaryBuilder<O>
where
    Array: From<GenericBinaryArray<O>>,
{
    fn len(&self) -> usize {
        self.len()
    }
    fn data_type(&self) -> DataType {
        if O::IS_LARGE {
            DataType::LargeBinary
        } else {
            DataType::Binary
        }
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

/// Builds a [`GenericStringArray`] from `&str` values (so no UTF-8 check is needed on finish).
///
/// Offset overflow is handled as in [`GenericBinaryBuilder`].
///
/// ```
/// use quiver_arrow::builder::StringBuilder;
/// let mut b = StringBuilder::new();
/// b.append_value("héllo");
/// b.append_option(None::<&str>);
/// b.append_value(String::from("!"));
/// let a = b.finish();
/// assert_eq!(a.iter().collect::<Vec<_>>(), vec![Some("héllo"), None, Some("!")]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct GenericStringBuilder<O: Offset> {
    inner: GenericBinaryBuilder<O>,
}

/// Builder of `Utf8` arrays.
pub type StringBuilder = GenericStringBuilder<i32>;
/// Builder of `LargeUtf8` arrays.
pub type LargeStringBuilder = GenericStringBuilder<i64>;

impl<O: Offset> GenericStringBuilder<O> {
    /// An empty builder.
    pub fn new() -> Self {
        Self::with_capacity(0, 0)
    }

    /// An empty builder with room for `items` strings totalling `bytes` bytes.
    pub fn with_capacity(items: usize, bytes: usize) -> Self {
        GenericStringBuilder {
            inner: GenericBinaryBuilder::with_capacity(items, bytes),
        }
    }

    /// Appends a string, or returns [`Error::Overflow`] (leaving the builder unchanged) when
    /// the values would no longer fit the offset type.
    #[inline]
    pub fn try_append_value(&mut self, value: impl AsRef<str>) -> Result<()> {
        self.inner.try_append_value(value.as_ref().as_bytes())
    }

    /// Appends a string.
    ///
    /// # Panics
    /// When the values would exceed the offset type (see
    /// [`GenericStringBuilder::try_append_value`]).
    #[inline]
    pub fn append_value(&mut self, value: impl AsRef<str>) {
        self.inner.append_value(value.as_ref().as_bytes())
    }

    /// Appends a null.
    #[inline]
    pub fn append_null(&mut self) {
        self.inner.append_null()
    }

    /// Appends `n` nulls.
    pub fn append_nulls(&mut self, n: usize) {
        self.inner.append_nulls(n)
    }

    /// Appends a string or a null.
    ///
    /// # Panics
    /// As [`GenericStringBuilder::append_value`].
    #[inline]
    pub fn append_option(&mut self, value: Option<impl AsRef<str>>) {
        match value {
            Some(v) => self.append_value(v),
            None => self.append_null(),
        }
    }

    /// Number of slots appended.
    #[inline]
    pub fn len(&self) -> usize {
        self.inner.len()
    }

    /// True when nothing has been appended.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// The bytes of the strings appended so far.
    pub fn values_slice(&self) -> &[u8] {
        self.inner.values_slice()
    }

    /// The offsets appended so far.
    pub fn offsets_slice(&self) -> &[O] {
        self.inner.offsets_slice()
    }

    /// Builds the array in O(1) and resets the builder.
    pub fn finish(&mut self) -> GenericStringArray<O> {
        let (offsets, values, validity) = self.inner.finish_parts();
        // SAFETY: every value was appended as a `&str`, so the values are a concatenation of
        // UTF-8 strings and every offset falls between two of them (a character boundary).
        unsafe { GenericStringArray::new_unchecked_utf8(offsets, values, validity) }
            .expect("the builder's offsets end at its values length") // ok: the builder's offsets end at its values length.
    }
}

impl<'a, O: Offset> Extend<Option<&'a str>> for GenericStringBuilder<O> {
    fn extend<I: IntoIterator<Item = Option<&'a str>>>(&mut self, iter: I) {
        for v in iter {
            self.append_option(v);
        }
    }
}

impl<O: Offset> Builder for GenericStringBuilder<O>
where
    Array: From<GenericStringArray<O>>,
{
    fn len(&self) -> usize {
        self.len()
    }
    fn data_type(&self) -> DataType {
        if O::IS_LARGE {
            DataType::LargeUtf8
        } else {
            DataType::Utf8
        }
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
    fn varbinary_matches_spec() {
        // Spec example: VarBinary ['joe', null, null, 'mark'].
        let mut b = BinaryBuilder::with_capacity(4, 7);
        b.append_value(b"joe");
        b.append_nulls(2);
        b.append_option(Some(b"mark"));
        let a = b.finish();
        assert_eq!(a.offsets().as_slice(), &[0, 3, 3, 3, 7]);
        assert_eq!(a.values().as_slice(), b"joemark");
        assert_eq!(&a.validity().unwrap().bytes()[..], &[0b0000_1001]);
        assert_aligned(a.offsets().buffer().bytes());
        assert_aligned(a.values().bytes());
        assert_valid(&Array::from(a));
        // Reset: the next batch starts from offset zero again.
        b.append_value(b"x");
        let a = b.finish();
        assert_eq!(a.offsets().as_slice(), &[0, 1]);
        assert!(a.validity().is_none());
    }

    #[test]
    fn large_string_offsets() {
        let mut b = LargeStringBuilder::new();
        b.extend([Some("ab"), None, Some("ç")]);
        b.append_value("");
        let a = b.finish();
        assert_eq!(a.offsets().as_slice(), &[0i64, 2, 2, 4, 4]);
        assert_eq!(a.values().as_slice(), "abç".as_bytes());
        assert_eq!(a.data_type(), &DataType::LargeUtf8);
        assert_valid(&Array::from(a));
    }

    #[test]
    fn empty_finish() {
        let a = StringBuilder::new().finish();
        assert_eq!(a.len(), 0);
        assert_eq!(a.offsets().as_slice(), &[0]);
        assert_valid(&Array::from(a));
    }

    #[test]
    fn offset_overflow_is_an_error_not_a_wrap() {
        // The check `try_append_value` makes (simulating stored lengths without allocating).
        let max = i32::MAX as usize;
        assert_eq!(end_offset::<i32>(max - 2, 2).unwrap(), i32::MAX);
        let err = end_offset::<i32>(max - 2, 3).unwrap_err();
        assert!(matches!(err, Error::Overflow { .. }), "{err}");
        assert_eq!(end_offset::<i64>(max - 2, 3).unwrap(), i32::MAX as i64 + 1);
        assert!(end_offset::<i64>(usize::MAX, 1).is_err());
    }
}
