//! Builders of variable-size lists (`List`, `LargeList`) and fixed-size lists.

use super::{Builder, NullBufferBuilder, expect_finish};
use crate::array::{Array, FixedSizeListArray, GenericListArray};
use crate::buffer::{Buffer, MutableBuffer, Offset, OffsetBuffer};
use crate::datatype::{DataType, Field, FieldRef};
use crate::error::{Error, Result};
use std::marker::PhantomData;
use std::sync::Arc;

/// The child field: the one set, or `item` (nullable) of the child builder's type.
pub(crate) fn child_field<B: Builder>(field: &Option<FieldRef>, values: &B) -> FieldRef {
    field
        .clone()
        .unwrap_or_else(|| Arc::new(Field::new("item", values.data_type(), true)))
}

/// Checks that a child field set with `with_field` has the child builder's type.
pub(crate) fn check_field_type<B: Builder>(field: &Field, values: &B) -> Result<()> {
    let dt = values.data_type();
    if field.data_type() != &dt {
        return Err(Error::invalid(format!(
            "child field \"{}\" is declared {} but the child builder builds {dt}",
            field.name(),
            field.data_type()
        )));
    }
    Ok(())
}

/// Builds a [`GenericListArray`]: append a list's values to [`GenericListBuilder::values`],
/// then close it with [`GenericListBuilder::append`].
///
/// The child field is `item` (nullable) unless set with [`GenericListBuilder::with_field`].
/// Values appended to the child after the last `append` belong to no list. Offsets cannot
/// wrap: [`GenericListBuilder::try_append`] returns [`Error::Overflow`] when the child is longer
/// than the offset type addresses, [`GenericListBuilder::append`] panics.
///
/// ```
/// use quiver_arrow::builder::{ListBuilder, StringBuilder};
/// let mut b = ListBuilder::new(StringBuilder::new());
/// b.values().append_value("a");
/// b.values().append_value("b");
/// b.append(true);
/// b.append(true); // an empty list
/// b.append_null();
/// let a = b.finish();
/// assert_eq!(a.offsets().as_slice(), &[0, 2, 2, 2]);
/// assert_eq!(a.field().name(), "item");
/// ```
#[derive(Clone, Debug)]
pub struct GenericListBuilder<O: Offset, B: Builder> {
    offsets: ListOffsets<O>,
    validity: NullBufferBuilder,
    values: B,
    field: Option<FieldRef>,
}

/// Builder of `List` arrays.
pub type ListBuilder<B> = GenericListBuilder<i32, B>;
/// Builder of `LargeList` arrays.
pub type LargeListBuilder<B> = GenericListBuilder<i64, B>;

/// A child length as an offset, or [`Error::Overflow`].
pub(crate) fn child_offset<O: Offset>(child_len: usize) -> Result<O> {
    O::from_usize(child_len).ok_or_else(|| {
        Error::overflow(format!(
            "the child has {child_len} values, more than {} offsets address; use a Large type",
            O::NAME
        ))
    })
}

/// Offsets of a list-like builder: zero, then the child's length at each `append`.
///
/// Invariant: the offsets are non-decreasing (a push below the previous one is refused), so
/// they always form a valid [`OffsetBuffer`].
#[derive(Clone, Debug)]
pub(crate) struct ListOffsets<O: Offset> {
    buffer: MutableBuffer,
    last: usize,
    _o: PhantomData<O>,
}

impl<O: Offset> ListOffsets<O> {
    /// Offsets `[0]` with room for `capacity` more.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        let mut buffer = MutableBuffer::with_capacity((capacity + 1) * std::mem::size_of::<O>());
        buffer.push(O::ZERO);
        ListOffsets {
            buffer,
            last: 0,
            _o: PhantomData,
        }
    }

    /// The last offset.
    pub(crate) fn last(&self) -> usize {
        self.last
    }

    /// Appends the child's current length; [`Error::InvalidArgument`] when the child shrank
    /// (it was finished on its own), [`Error::Overflow`] when it does not fit `O`. Unchanged
    /// on error.
    #[inline]
    pub(crate) fn try_push(&mut self, child_len: usize) -> Result<()> {
        if child_len < self.last {
            return Err(Error::invalid(format!(
                "the child shrank from {} to {child_len} values (was it finished on its own?)",
                self.last
            )));
        }
        self.buffer.push(child_offset::<O>(child_len)?);
        self.last = child_len;
        Ok(())
    }

    /// Freezes the offsets (O(1)) and resets them to `[0]`.
    pub(crate) fn finish(&mut self) -> OffsetBuffer<O> {
        let buffer = std::mem::replace(self, Self::with_capacity(0)).buffer;
        // SAFETY: the buffer starts with a zero and `try_push` only appends values at least
        // the previous one, so it is non-empty, non-negative and non-decreasing.
        unsafe { OffsetBuffer::new_unchecked(Buffer::<O>::from(buffer)) }
    }
}

impl<O: Offset, B: Builder> GenericListBuilder<O, B> {
    /// An empty builder over a child builder.
    pub fn new(values: B) -> Self {
        Self::with_capacity(values, 0)
    }

    /// An empty builder with room for `capacity` lists.
    pub fn with_capacity(values: B, capacity: usize) -> Self {
        GenericListBuilder {
            offsets: ListOffsets::with_capacity(capacity),
            validity: NullBufferBuilder::with_capacity(capacity),
            values,
            field: None,
        }
    }

    /// Sets the child field (name, nullability, metadata); its type must be the child builder's.
    pub fn with_field(mut self, field: impl Into<FieldRef>) -> Result<Self> {
        let field = field.into();
        check_field_type(&field, &self.values)?;
        self.field = Some(field);
        Ok(self)
    }

    /// The child field of the arrays this builder makes.
    pub fn field(&self) -> FieldRef {
        child_field(&self.field, &self.values)
    }

    /// The child builder, to append the current list's values to.
    pub fn values(&mut self) -> &mut B {
        &mut self.values
    }

    /// The child builder, read-only.
    pub fn values_ref(&self) -> &B {
        &self.values
    }

    /// Closes the current list (the child values appended since the previous one), valid or
    /// null; [`Error::Overflow`] when the child is too long for `O`,
    /// [`Error::InvalidArgument`] when the child shrank (builder unchanged on error).
    #[inline]
    pub fn try_append(&mut self, is_valid: bool) -> Result<()> {
        self.offsets.try_push(self.values.len())?;
        self.validity.append(is_valid);
        Ok(())
    }

    /// Closes the current list, valid or null.
    ///
    /// # Panics
    /// When [`GenericListBuilder::try_append`] would fail.
    #[inline]
    pub fn append(&mut self, is_valid: bool) {
        if let Err(e) = self.try_append(is_valid) {
            panic!("{e}");
        }
    }

    /// Appends a null list (closing any values appended since the previous list into it).
    ///
    /// # Panics
    /// As [`GenericListBuilder::append`].
    #[inline]
    pub fn append_null(&mut self) {
        self.append(false)
    }

    /// Number of lists appended.
    #[inline]
    pub fn len(&self) -> usize {
        self.validity.len()
    }

    /// True when no list has been appended.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Builds the array (child included) and resets the builder.
    ///
    /// # Panics
    /// When [`Builder::check_finish`] fails (e.g. the child builder was finished on its own).
    pub fn finish(&mut self) -> GenericListArray<O> {
        expect_finish("ListBuilder", self.check());
        self.finish_checked()
    }

    /// Builds the array, or returns the [`Builder::check_finish`] error (builder unchanged).
    pub fn try_finish(&mut self) -> Result<GenericListArray<O>> {
        self.check()?;
        Ok(self.finish_checked())
    }

    /// See [`Builder::check_finish`].
    fn check(&self) -> Result<()> {
        self.values.check_finish()?;
        if let Some(f) = &self.field {
            check_field_type(f, &self.values)?;
        }
        let last = self.offsets.last();
        if last > self.values.len() {
            return Err(Error::invalid(format!(
                "list offsets reach {last} but the child has {} values",
                self.values.len()
            )));
        }
        Ok(())
    }

    fn finish_checked(&mut self) -> GenericListArray<O> {
        let field = self.field();
        let values = self.values.finish_array();
        let offsets = self.offsets.finish();
        GenericListArray::try_new(field, offsets, values, self.validity.finish())
            .expect("checked by check_finish") // ok: checked by check_finish.
    }
}

impl<O: Offset, B: Builder> Builder for GenericListBuilder<O, B>
where
    Array: From<GenericListArray<O>>,
{
    fn len(&self) -> usize {
        self.len()
    }
    fn data_type(&self) -> DataType {
        if O::IS_LARGE {
            DataType::LargeList(self.field())
        } else {
            DataType::List(self.field())
        }
    }
    fn append_null(&mut self) {
        self.append_null()
    }
    fn check_finish(&self) -> Result<()> {
        self.check()
    }
    fn finish_array(&mut self) -> Array {
        Array::from(self.finish())
    }
}

/// Builds a [`FixedSizeListArray`] of lists of `size` values: append exactly `size` values to
/// [`FixedSizeListBuilder::values`] per list, then [`FixedSizeListBuilder::append`]. For a null
/// list, either append `size` placeholder values and `append(false)`, or call
/// [`FixedSizeListBuilder::append_null`], which appends `size` nulls to the child itself.
///
/// ```
/// use quiver_arrow::builder::{FixedSizeListBuilder, PrimitiveBuilder};
/// let mut b = FixedSizeListBuilder::new(PrimitiveBuilder::<i16>::new(), 2);
/// b.values().append_slice(&[1, 2]);
/// b.append(true);
/// b.append_null();
/// let a = b.finish();
/// assert_eq!(a.len(), 2);
/// assert_eq!(a.values().len(), 4);
/// ```
#[derive(Clone, Debug)]
pub struct FixedSizeListBuilder<B: Builder> {
    size: i32,
    validity: NullBufferBuilder,
    values: B,
    field: Option<FieldRef>,
}

impl<B: Builder> FixedSizeListBuilder<B> {
    /// An empty builder of lists of `size` values.
    ///
    /// # Panics
    /// When `size` is negative (see [`FixedSizeListBuilder::try_new`]).
    pub fn new(values: B, size: i32) -> Self {
        match Self::try_new(values, size, 0) {
            Ok(b) => b,
            Err(e) => panic!("{e}"),
        }
    }

    /// An empty builder with room for `capacity` lists; [`Error::InvalidArgument`] when `size`
    /// is negative.
    pub fn try_new(values: B, size: i32, capacity: usize) -> Result<Self> {
        if size < 0 {
            return Err(Error::invalid(format!(
                "FixedSizeList size {size} is negative"
            )));
        }
        Ok(FixedSizeListBuilder {
            size,
            validity: NullBufferBuilder::with_capacity(capacity),
            values,
            field: None,
        })
    }

    /// Sets the child field; its type must be the child builder's.
    pub fn with_field(mut self, field: impl Into<FieldRef>) -> Result<Self> {
        let field = field.into();
        check_field_type(&field, &self.values)?;
        self.field = Some(field);
        Ok(self)
    }

    /// The child field of the arrays this builder makes.
    pub fn field(&self) -> FieldRef {
        child_field(&self.field, &self.values)
    }

    /// Values per list.
    pub fn size(&self) -> i32 {
        self.size
    }

    /// The child builder.
    pub fn values(&mut self) -> &mut B {
        &mut self.values
    }

    /// The child builder, read-only.
    pub fn values_ref(&self) -> &B {
        &self.values
    }

    fn expected_child_len(&self, lists: usize) -> usize {
        lists.saturating_mul(self.size as usize)
    }

    /// Closes the current list (valid or null), checking that the child holds exactly `size`
    /// values per list; on error the builder is unchanged.
    pub fn try_append(&mut self, is_valid: bool) -> Result<()> {
        let expected = self.expected_child_len(self.len() + 1);
        if self.values.len() != expected {
            return Err(Error::invalid(format!(
                "list {} of size {} needs the child to hold {expected} values, not {}",
                self.len(),
                self.size,
                self.values.len()
            )));
        }
        self.validity.append(is_valid);
        Ok(())
    }

    /// Closes the current list without checking the child (checked by `finish`).
    #[inline]
    pub fn append(&mut self, is_valid: bool) {
        self.validity.append(is_valid);
    }

    /// Appends a null list, appending `size` nulls to the child.
    pub fn append_null(&mut self) {
        for _ in 0..self.size {
            self.values.append_null();
        }
        self.validity.append_null();
    }

    /// Number of lists appended.
    #[inline]
    pub fn len(&self) -> usize {
        self.validity.len()
    }

    /// True when no list has been appended.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Builds the array and resets the builder.
    ///
    /// # Panics
    /// When [`Builder::check_finish`] fails (the child does not hold `size` values per list).
    pub fn finish(&mut self) -> FixedSizeListArray {
        expect_finish("FixedSizeListBuilder", Builder::check_finish(self));
        self.finish_checked()
    }

    /// Builds the array, or returns the [`Builder::check_finish`] error (builder unchanged).
    pub fn try_finish(&mut self) -> Result<FixedSizeListArray> {
        Builder::check_finish(self)?;
        Ok(self.finish_checked())
    }

    fn finish_checked(&mut self) -> FixedSizeListArray {
        let field = self.field();
        let len = self.len();
        let values = self.values.finish_array();
        FixedSizeListArray::try_new(field, self.size, len, values, self.validity.finish())
            .expect("checked by check_finish") // ok: checked by check_finish.
    }
}

impl<B: Builder> Builder for FixedSizeListBuilder<B> {
    fn len(&self) -> usize {
        self.len()
    }
    fn data_type(&self) -> DataType {
        DataType::FixedSizeList(self.field(), self.size)
    }
    fn append_null(&mut self) {
        self.append_null()
    }
    fn check_finish(&self) -> Result<()> {
        self.values.check_finish()?;
        if let Some(f) = &self.field {
            check_field_type(f, &self.values)?;
        }
        let expected = self.expected_child_len(self.len());
        if self.values.len() != expected {
            return Err(Error::invalid(format!(
                "{} lists of size {} need {expected} child values but the child has {}",
                self.len(),
                self.size,
                self.values.len()
            )));
        }
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
    use crate::builder::{PrimitiveBuilder, StringBuilder};

    #[test]
    fn list_of_int8_matches_spec() {
        // Spec example: List<Int8> [[12, -7, 25], null, [0, -127, 127, 50], []].
        let mut b = ListBuilder::with_capacity(PrimitiveBuilder::<i8>::new(), 4);
        b.values().append_slice(&[12, -7, 25]);
        b.append(true);
        b.append_null();
        b.values().append_slice(&[0, -127, 127, 50]);
        b.append(true);
        b.append(true);
        let a = b.finish();
        assert_eq!(a.offsets().as_slice(), &[0, 3, 3, 7, 7]);
        assert_eq!(&a.validity().unwrap().bytes()[..], &[0b1101]);
        let child = a.values().as_primitive::<i8>().unwrap();
        assert_eq!(child.values().as_slice(), &[12, -7, 25, 0, -127, 127, 50]);
        assert!(child.validity().is_none());
        assert_aligned(a.offsets().buffer().bytes());
        assert_valid(&Array::from(a));
    }

    #[test]
    fn large_list_with_field() {
        let field = Field::new("element", DataType::Utf8, false);
        let wrong = Field::new("element", DataType::Int32, false);
        assert!(
            LargeListBuilder::new(StringBuilder::new())
                .with_field(wrong)
                .is_err()
        );
        let mut b = LargeListBuilder::new(StringBuilder::new())
            .with_field(field.clone())
            .unwrap();
        b.values().append_value("x");
        b.append(true);
        let a = b.finish();
        assert_eq!(a.offsets().as_slice(), &[0i64, 1]);
        assert_eq!(a.data_type(), &DataType::LargeList(Arc::new(field)));
        assert!(a.validity().is_none());
        assert_valid(&Array::from(a));
    }

    #[test]
    fn nested_lists() {
        let mut b = ListBuilder::new(ListBuilder::new(PrimitiveBuilder::<i64>::new()));
        // [[[1, 2], []], null, [[3]]]
        b.values().values().append_slice(&[1, 2]);
        b.values().append(true);
        b.values().append(true);
        b.append(true);
        b.append_null();
        b.values().values().append_value(3);
        b.values().append(true);
        b.append(true);
        let a = b.finish();
        assert_eq!(a.offsets().as_slice(), &[0, 2, 2, 3]);
        let inner = a.values().as_list().unwrap();
        assert_eq!(inner.offsets().as_slice(), &[0, 2, 2, 3]);
        assert_valid(&Array::from(a));
    }

    #[test]
    fn detached_child_is_reported() {
        let mut b = ListBuilder::new(PrimitiveBuilder::<i32>::new());
        b.values().append_slice(&[1, 2]);
        b.append(true);
        b.values().finish();
        let err = b.try_finish().unwrap_err();
        assert!(err.to_string().contains("offsets reach 2"), "{err}");
        assert_eq!(
            b.len(),
            1,
            "a failed try_finish leaves the builder as it was"
        );
        // Growing the detached child again must not produce decreasing offsets [0, 2, 1].
        b.values().append_value(3);
        let err = b.try_append(true).unwrap_err();
        assert!(err.to_string().contains("shrank from 2 to 1"), "{err}");
        assert_eq!(b.len(), 1);
    }

    #[test]
    fn offset_overflow_is_an_error() {
        assert!(matches!(
            child_offset::<i32>(i32::MAX as usize + 1),
            Err(Error::Overflow { .. })
        ));
        assert_eq!(
            child_offset::<i64>(i32::MAX as usize + 1).unwrap(),
            1i64 << 31
        );
    }

    #[test]
    fn fixed_size_list() {
        let mut b = FixedSizeListBuilder::new(PrimitiveBuilder::<i32>::new(), 3);
        b.values().append_slice(&[1, 2, 3]);
        b.try_append(true).unwrap();
        b.append_null();
        b.values().append_slice(&[4, 5]);
        assert!(b.try_append(true).is_err());
        assert!(b.try_finish().is_err());
        b.values().append_value(6);
        b.try_append(true).unwrap();
        let a = b.finish();
        assert_eq!(a.len(), 3);
        assert_eq!(&a.validity().unwrap().bytes()[..], &[0b101]);
        let child = a.values().as_primitive::<i32>().unwrap();
        assert_eq!(child.values().as_slice(), &[1, 2, 3, 0, 0, 0, 4, 5, 6]);
        assert_eq!(&child.validity().unwrap().bytes()[..], &[0b1100_0111, 0b1]);
        assert_valid(&Array::from(a));
        let negative = FixedSizeListBuilder::try_new(crate::builder::NullBuilder::new(), -1, 0);
        assert!(negative.is_err());
    }
}
