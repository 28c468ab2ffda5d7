//! Builder of fixed-width primitive arrays.

use super::{Builder, NullBufferBuilder};
use crate::array::{Array, PrimitiveArray, PrimitiveType};
use crate::buffer::{Buffer, MutableBuffer};
use crate::datatype::DataType;
use crate::error::{Error, Result};
use std::marker::PhantomData;

/// Builds a [`PrimitiveArray<T>`]. Null slots hold zero in the values buffer.
///
/// The logical type defaults to `T`'s ([`PrimitiveType::default_data_type`]); any type stored
/// as `T` can be set with [`PrimitiveBuilder::with_data_type`] (`Date32` over `i32`, a
/// `Timestamp` with time zone over `i64`, a decimal over [`I128`](crate::I128)…).
///
/// ```
/// use quiver_arrow::builder::PrimitiveBuilder;
/// use quiver_arrow::{DataType, TimeUnit};
/// let mut b = PrimitiveBuilder::<i64>::new()
///     .with_data_type(DataType::Timestamp(TimeUnit::Second, Some("UTC".into())))
///     .unwrap();
/// b.append_value(1);
/// b.append_null();
/// b.append_slice(&[2, 3]);
/// let a = b.finish();
/// assert_eq!(a.values().as_slice(), &[1, 0, 2, 3]);
/// assert_eq!(a.null_count(), 1);
/// assert_eq!(a.data_type(), &DataType::Timestamp(TimeUnit::Second, Some("UTC".into())));
/// ```
#[derive(Clone, Debug)]
pub struct PrimitiveBuilder<T: PrimitiveType> {
    data_type: DataType,
    values: MutableBuffer,
    validity: NullBufferBuilder,
    _t: PhantomData<T>,
}

impl<T: PrimitiveType> Default for PrimitiveBuilder<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: PrimitiveType> PrimitiveBuilder<T> {
    /// An empty builder of `T`'s default type.
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// An empty builder with room for `capacity` values.
    pub fn with_capacity(capacity: usize) -> Self {
        PrimitiveBuilder {
            data_type: T::default_data_type(),
            values: MutableBuffer::with_capacity(capacity * std::mem::size_of::<T>()),
            validity: NullBufferBuilder::with_capacity(capacity),
            _t: PhantomData,
        }
    }

    /// Sets the logical type, which must be stored as `T` and have valid parameters.
    pub fn with_data_type(mut self, data_type: DataType) -> Result<Self> {
        if !T::accepts(&data_type) {
            return Err(Error::invalid(format!(
                "{data_type} is not stored as {}",
                T::NAME
            )));
        }
        data_type.validate()?;
        self.data_type = data_type;
        Ok(self)
    }

    /// The logical type of the array being built.
    pub fn data_type(&self) -> &DataType {
        &self.data_type
    }

    /// Appends a value.
    #[inline]
    pub fn append_value(&mut self, value: T) {
        self.values.push(value);
        self.validity.append_non_null();
    }

    /// Appends a null (a zero in the values buffer).
    #[inline]
    pub fn append_null(&mut self) {
        self.values.extend_zeros(std::mem::size_of::<T>());
        self.validity.append_null();
    }

    /// Appends `n` nulls.
    pub fn append_nulls(&mut self, n: usize) {
        self.values.extend_zeros(n * std::mem::size_of::<T>());
        self.validity.append_n_nulls(n);
    }

    /// Appends a value or a null.
    #[inline]
    pub fn append_option(&mut self, value: Option<T>) {
        match value {
            Some(v) => self.append_value(v),
            None => self.append_null(),
        }
    }

    /// Appends non-null values.
    pub fn append_slice(&mut self, values: &[T]) {
        self.values.extend_from_slice(values);
        self.validity.append_n_non_nulls(values.len());
    }

    /// Appends `values` with validity `valid` (equal lengths; a false entry appends a null and
    /// the value is replaced by zero).
    pub fn append_values(&mut self, values: &[T], valid: &[bool]) -> Result<()> {
        if values.len() != valid.len() {
            return Err(Error::invalid(format!(
                "{} values but {} validity flags",
                values.len(),
                valid.len()
            )));
        }
        for (&v, &ok) in values.iter().zip(valid) {
            self.append_option(ok.then_some(v));
        }
        Ok(())
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

    /// The values appended so far (zero in null slots).
    pub fn values_slice(&self) -> &[T] {
        self.values.typed()
    }

    /// Builds the array in O(1) and resets the builder (the logical type is kept).
    pub fn finish(&mut self) -> PrimitiveArray<T> {
        let values = Buffer::from(std::mem::take(&mut self.values));
        let validity = self.validity.finish();
        PrimitiveArray::try_new(self.data_type.clone(), values, validity)
            .expect("the builder's type is stored as T and its validity covers its values") // ok: the builder's type is stored as T and its validity covers its values.
    }
}

impl<T: PrimitiveType> Extend<Option<T>> for PrimitiveBuilder<T> {
    fn extend<I: IntoIterator<Item = Option<T>>>(&mut self, iter: I) {
        for v in iter {
            self.append_option(v);
        }
    }
}

impl<T: PrimitiveType> Builder for PrimitiveBuilder<T> {
    fn len(&self) -> usize {
        self.len()
    }
    fn data_type(&self) -> DataType {
        self.data_type.clone()
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
    use crate::datatype::{IntervalUnit, TimeUnit};
    use crate::native::{I128, MonthDayNano};

    #[test]
    fn int32_with_nulls_matches_spec() {
        // Spec example: Int32 [1, null, 2, 4, 8].
        let mut b = PrimitiveBuilder::<i32>::with_capacity(5);
        b.append_value(1);
        b.append_null();
        b.extend([Some(2), Some(4), Some(8)]);
        let a = b.finish();
        assert_eq!(a.values().as_slice(), &[1, 0, 2, 4, 8]);
        let v = a.validity().unwrap();
        assert_eq!(&v.bytes()[..], &[0b0001_1101]);
        assert_eq!(a.null_count(), 1);
        assert_aligned(a.values().bytes());
        assert_aligned(v.bytes());
        assert_valid(&Array::from(a));
        assert!(b.is_empty());
    }

    #[test]
    fn no_nulls_no_bitmap_and_reuse() {
        let mut b = PrimitiveBuilder::<u16>::new();
        b.append_slice(&[1, 2, 3]);
        let a = b.finish();
        assert!(a.validity().is_none());
        assert_eq!(a.values().as_slice(), &[1, 2, 3]);
        b.append_nulls(2);
        b.append_value(9);
        let a = b.finish();
        assert_eq!(a.values().as_slice(), &[0, 0, 9]);
        assert_eq!(
            a.validity().unwrap().iter().collect::<Vec<_>>(),
            vec![false, false, true]
        );
        assert_eq!(b.finish().len(), 0);
    }

    #[test]
    fn logical_types() {
        let b = PrimitiveBuilder::<i32>::new().with_data_type(DataType::Int64);
        assert!(b.is_err());
        let b =
            PrimitiveBuilder::<i32>::new().with_data_type(DataType::Time32(TimeUnit::Nanosecond));
        assert!(b.is_err());
        let dt = DataType::Decimal128 {
            precision: 10,
            scale: 2,
        };
        let mut b = PrimitiveBuilder::<I128>::new()
            .with_data_type(dt.clone())
            .unwrap();
        b.append_value(I128::from_i128(-12345));
        b.append_null();
        let a = b.finish();
        assert_eq!(a.data_type(), &dt);
        // Two little-endian words per value, zero for the null.
        assert_eq!(
            a.values().bytes().as_ref(),
            bytemuck::cast_slice::<i128, u8>(&[-12345, 0])
        );
        assert_valid(&Array::from(a));

        let mut b = PrimitiveBuilder::<MonthDayNano>::new();
        assert_eq!(
            b.data_type(),
            &DataType::Interval(IntervalUnit::MonthDayNano)
        );
        b.append_value(MonthDayNano {
            months: 1,
            days: -2,
            nanoseconds: 3,
        });
        assert_eq!(b.finish().value(0).days, -2);
    }

    #[test]
    fn append_values_with_flags() {
        let mut b = PrimitiveBuilder::<f64>::new();
        b.append_values(&[1.5, 2.5, 3.5], &[true, false, true])
            .unwrap();
        assert!(b.append_values(&[1.0], &[]).is_err());
        let a = b.finish();
        assert_eq!(a.values().as_slice(), &[1.5, 0.0, 3.5]);
        assert_eq!(
            a.iter().collect::<Vec<_>>(),
            vec![Some(1.5), None, Some(3.5)]
        );
    }
}
