//! Builders of lists in the list-view layout (`ListView`, `LargeListView`).

use super::list::{check_field_type, child_field, child_offset};
use super::{Builder, NullBufferBuilder, expect_finish};
use crate::array::{Array, GenericListViewArray};
use crate::buffer::{Buffer, MutableBuffer, Offset};
use crate::datatype::{DataType, FieldRef};
use crate::error::{Error, Result};
use std::marker::PhantomData;

/// Builds a [`GenericListViewArray`] with the same API as
/// [`GenericListBuilder`](super::GenericListBuilder): each `append` records the offset where
/// the current list's child values start and their count. Lists are written in order and never
/// overlap; a null list gets the (usually empty) range of values appended since the previous
/// one, so every view, null or not, lies inside the child.
///
/// ```
/// use quiver_arrow::builder::{ListViewBuilder, PrimitiveBuilder};
/// let mut b = ListViewBuilder::new(PrimitiveBuilder::<i8>::new());
/// b.values().append_slice(&[1, 2, 3]);
/// b.append(true);
/// b.append_null();
/// b.values().append_value(4);
/// b.append(true);
/// let a = b.finish();
/// assert_eq!(a.offsets().as_slice(), &[0, 3, 3]);
/// assert_eq!(a.sizes().as_slice(), &[3, 0, 1]);
/// ```
#[derive(Clone, Debug)]
pub struct GenericListViewBuilder<O: Offset, B: Builder> {
    offsets: MutableBuffer,
    sizes: MutableBuffer,
    /// Child length when the previous list was closed.
    start: usize,
    validity: NullBufferBuilder,
    values: B,
    field: Option<FieldRef>,
    _o: PhantomData<O>,
}

/// Builder of `ListView` arrays.
pub type ListViewBuilder<B> = GenericListViewBuilder<i32, B>;
/// Builder of `LargeListView` arrays.
pub type LargeListViewBuilder<B> = GenericListViewBuilder<i64, B>;

impl<O: Offset, B: Builder> GenericListViewBuilder<O, B> {
    /// An empty builder over a child builder.
    pub fn new(values: B) -> Self {
        Self::with_capacity(values, 0)
    }

    /// An empty builder with room for `capacity` lists.
    pub fn with_capacity(values: B, capacity: usize) -> Self {
        let bytes = capacity * std::mem::size_of::<O>();
        GenericListViewBuilder {
            offsets: MutableBuffer::with_capacity(bytes),
            sizes: MutableBuffer::with_capacity(bytes),
            start: 0,
            validity: NullBufferBuilder::with_capacity(capacity),
            values,
            field: None,
            _o: PhantomData,
        }
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

    /// The child builder, to append the current list's values to.
    pub fn values(&mut self) -> &mut B {
        &mut self.values
    }

    /// The child builder, read-only.
    pub fn values_ref(&self) -> &B {
        &self.values
    }

    /// Closes the current list, valid or null; [`Error::Overflow`] (builder unchanged) when
    /// the child is too long for `O`, [`Error::InvalidArgument`] when the child shrank.
    pub fn try_append(&mut self, is_valid: bool) -> Result<()> {
        let end = self.values.len();
        let size = end.checked_sub(self.start).ok_or_else(|| {
            Error::invalid(format!(
                "the child shrank from {} to {end} values (was it finished on its own?)",
                self.start
            ))
        })?;
        // `end` fitting `O` implies `start` and `size` (both <= end) do.
        child_offset::<O>(end)?;
        let (offset, size) = (child_offset::<O>(self.start)?, child_offset::<O>(size)?);
        self.offsets.push(offset);
        self.sizes.push(size);
        self.start = end;
        self.validity.append(is_valid);
        Ok(())
    }

    /// Closes the current list, valid or null.
    ///
    /// # Panics
    /// When [`GenericListViewBuilder::try_append`] would fail.
    #[inline]
    pub fn append(&mut self, is_valid: bool) {
        if let Err(e) = self.try_append(is_valid) {
            panic!("{e}");
        }
    }

    /// Appends a null list.
    ///
    /// # Panics
    /// As [`GenericListViewBuilder::append`].
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

    /// Builds the array and resets the builder.
    ///
    /// # Panics
    /// When [`Builder::check_finish`] fails.
    pub fn finish(&mut self) -> GenericListViewArray<O> {
        expect_finish("ListViewBuilder", self.check());
        self.finish_checked()
    }

    /// Builds the array, or returns the [`Builder::check_finish`] error (builder unchanged).
    pub fn try_finish(&mut self) -> Result<GenericListViewArray<O>> {
        self.check()?;
        Ok(self.finish_checked())
    }

    /// See [`Builder::check_finish`].
    fn check(&self) -> Result<()> {
        self.values.check_finish()?;
        if let Some(f) = &self.field {
            check_field_type(f, &self.values)?;
        }
        if self.start > self.values.len() {
            return Err(Error::invalid(format!(
                "list views reach {} but the child has {} values",
                self.start,
                self.values.len()
            )));
        }
        Ok(())
    }

    fn finish_checked(&mut self) -> GenericListViewArray<O> {
        let field = self.field();
        let values = self.values.finish_array();
        let offsets = Buffer::from(std::mem::take(&mut self.offsets));
        let sizes = Buffer::from(std::mem::take(&mut self.sizes));
        self.start = 0;
        // The views were recorded from the child's own lengths (checked by check_finish), so
        // the O(n) view check of `try_new` is skipped.
        GenericListViewArray::try_new_deferred(
            field,
            offsets,
            sizes,
            values,
            self.validity.finish(),
        )
        .expect("checked by check_finish") // ok: checked by check_finish.
    }
}

impl<O: Offset, B: Builder> Builder for GenericListViewBuilder<O, B>
where
    Array: From<GenericListViewArray<O>>,
{
    fn len(&self) -> usize {
        self.len()
    }
    fn data_type(&self) -> DataType {
        if O::IS_LARGE {
            DataType::LargeListView(self.field())
        } else {
            DataType::ListView(self.field())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::tests::{assert_aligned, assert_valid};
    use crate::builder::{LargeListViewBuilder, PrimitiveBuilder, StringBuilder};

    #[test]
    fn offsets_and_sizes() {
        // [[12, -7, 25], null, [0, -127, 127, 50], []]
        let mut b = ListViewBuilder::with_capacity(PrimitiveBuilder::<i8>::new(), 4);
        b.values().append_slice(&[12, -7, 25]);
        b.append(true);
        b.append_null();
        b.values().append_slice(&[0, -127, 127, 50]);
        b.append(true);
        b.append(true);
        let a = b.finish();
        assert_eq!(a.offsets().as_slice(), &[0, 3, 3, 7]);
        assert_eq!(a.sizes().as_slice(), &[3, 0, 4, 0]);
        assert_eq!(&a.validity().unwrap().bytes()[..], &[0b1101]);
        assert_aligned(a.offsets().bytes());
        assert_aligned(a.sizes().bytes());
        assert_valid(&Array::from(a));
        // Reset: offsets start from zero again.
        b.values().append_value(1);
        b.append(true);
        let a = b.finish();
        assert_eq!(a.offsets().as_slice(), &[0]);
        assert_eq!(a.sizes().as_slice(), &[1]);
    }

    #[test]
    fn large_list_view_of_strings() {
        let mut b = LargeListViewBuilder::new(StringBuilder::new());
        b.values().append_value("a");
        b.values().append_null();
        b.append(true);
        let a = b.finish();
        assert_eq!(a.offsets().as_slice(), &[0i64]);
        assert_eq!(a.sizes().as_slice(), &[2i64]);
        assert!(a.validity().is_none());
        assert_valid(&Array::from(a));
    }

    #[test]
    fn shrunk_child_is_an_error() {
        let mut b = ListViewBuilder::new(PrimitiveBuilder::<i32>::new());
        b.values().append_value(1);
        b.append(true);
        b.values().finish();
        assert!(b.try_append(true).is_err());
        assert!(b.try_finish().is_err());
    }
}
