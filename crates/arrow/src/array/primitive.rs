//! Fixed-width primitive values.

use super::Array;
use super::assert_slice;
use super::validity::{check_validity, normalize_validity, validity_accessors};
use crate::buffer::{Bitmap, Buffer, MutableBitmap};
use crate::datatype::{DataType, IntervalUnit};
use crate::error::{Error, Result};
use crate::native::{DaysMs, I128, I256, MonthDayNano, NativeType};

/// A native type that backs a [`PrimitiveArray`] and has a variant of [`Array`].
pub trait PrimitiveType: NativeType {
    /// The type used when none is given (e.g. `Int32` for `i32`).
    fn default_data_type() -> DataType;
    /// True when `dt` is physically stored as `Self`.
    fn accepts(dt: &DataType) -> bool;
    /// Wraps an array into [`Array`].
    fn into_array(a: PrimitiveArray<Self>) -> Array;
    /// The typed array inside `a`, when `a` stores this native type.
    fn from_array(a: &Array) -> Option<&PrimitiveArray<Self>>;
}

macro_rules! primitive_type {
    ($t:ty, $variant:ident, $default:expr, $pat:pat) => {
        impl PrimitiveType for $t {
            fn default_data_type() -> DataType {
                $default
            }
            fn accepts(dt: &DataType) -> bool {
                matches!(dt, $pat)
            }
            fn into_array(a: PrimitiveArray<Self>) -> Array {
                Array::$variant(a)
            }
            fn from_array(a: &Array) -> Option<&PrimitiveArray<Self>> {
                match a {
                    Array::$variant(p) => Some(p),
                    _ => None,
                }
            }
        }
    };
}
use DataType as D;
primitive_type!(i8, I8, D::Int8, D::Int8);
primitive_type!(i16, I16, D::Int16, D::Int16);
primitive_type!(
    i32,
    I32,
    D::Int32,
    D::Int32
        | D::Date32
        | D::Time32(_)
        | D::Decimal32 { .. }
        | D::Interval(IntervalUnit::YearMonth)
);
primitive_type!(
    i64,
    I64,
    D::Int64,
    D::Int64 | D::Date64 | D::Time64(_) | D::Timestamp(..) | D::Duration(_) | D::Decimal64 { .. }
);
primitive_type!(u8, U8, D::UInt8, D::UInt8);
primitive_type!(u16, U16, D::UInt16, D::UInt16);
primitive_type!(u32, U32, D::UInt32, D::UInt32);
primitive_type!(u64, U64, D::UInt64, D::UInt64);
primitive_type!(half::f16, F16, D::Float16, D::Float16);
primitive_type!(f32, F32, D::Float32, D::Float32);
primitive_type!(f64, F64, D::Float64, D::Float64);
primitive_type!(
    I128,
    I128,
    D::Decimal128 {
        precision: 38,
        scale: 0
    },
    D::Decimal128 { .. }
);
primitive_type!(
    I256,
    I256,
    D::Decimal256 {
        precision: 76,
        scale: 0
    },
    D::Decimal256 { .. }
);
primitive_type!(
    DaysMs,
    DaysMs,
    D::Interval(IntervalUnit::DayTime),
    D::Interval(IntervalUnit::DayTime)
);
primitive_type!(
    MonthDayNano,
    MonthDayNano,
    D::Interval(IntervalUnit::MonthDayNano),
    D::Interval(IntervalUnit::MonthDayNano)
);

/// Fixed-width values with an optional validity bitmap. The logical type (e.g. `Date32` over
/// `i32`) is carried by value.
///
/// ```
/// use quiver_arrow::{PrimitiveArray, DataType};
/// let a = PrimitiveArray::<i32>::from_options([Some(1), None, Some(2), Some(4), Some(8)]);
/// assert_eq!(a.null_count(), 1);
/// assert_eq!(a.slice(2, 3).iter().collect::<Vec<_>>(), vec![Some(2), Some(4), Some(8)]);
/// let d = a.with_data_type(DataType::Date32).unwrap();
/// assert_eq!(d.data_type(), &DataType::Date32);
/// ```
#[derive(Clone, Debug)]
pub struct PrimitiveArray<T: PrimitiveType> {
    data_type: DataType,
    values: Buffer<T>,
    validity: Option<Bitmap>,
}

impl<T: PrimitiveType> PrimitiveArray<T> {
    /// Checks that `data_type` is stored as `T` and its parameters are valid (decimal precision
    /// and scale, time units; see [`DataType::validate`]) and the validity length, then builds
    /// the array.
    pub fn try_new(
        data_type: DataType,
        values: Buffer<T>,
        validity: Option<Bitmap>,
    ) -> Result<Self> {
        if !T::accepts(&data_type) {
            return Err(Error::invalid(format!(
                "{data_type} is not stored as {}",
                T::NAME
            )));
        }
        data_type.validate()?;
        check_validity(validity.as_ref(), values.len())?;
        Ok(PrimitiveArray {
            data_type,
            values,
            validity,
        })
    }

    /// An array of the default type for `T` without nulls.
    pub fn new(values: impl Into<Buffer<T>>) -> Self {
        PrimitiveArray {
            data_type: T::default_data_type(),
            values: values.into(),
            validity: None,
        }
    }

    /// An array of the default type from optional values.
    pub fn from_options(iter: impl IntoIterator<Item = Option<T>>) -> Self {
        let iter = iter.into_iter();
        let mut values = Vec::with_capacity(iter.size_hint().0);
        let mut validity = MutableBitmap::with_capacity(iter.size_hint().0);
        for v in iter {
            validity.push(v.is_some());
            values.push(v.unwrap_or_default());
        }
        PrimitiveArray {
            data_type: T::default_data_type(),
            values: values.into(),
            validity: normalize_validity(Some(validity.freeze())),
        }
    }

    /// The same values under another logical type stored as `T`.
    pub fn with_data_type(self, data_type: DataType) -> Result<Self> {
        Self::try_new(data_type, self.values, self.validity)
    }

    /// Replaces the validity bitmap (its length must match).
    pub fn with_validity(self, validity: Option<Bitmap>) -> Result<Self> {
        Self::try_new(self.data_type, self.values, validity)
    }

    validity_accessors!();

    /// Number of values.
    #[inline]
    pub fn len(&self) -> usize {
        self.values.len()
    }
    /// The values buffer (null slots hold unspecified values).
    #[inline]
    pub fn values(&self) -> &Buffer<T> {
        &self.values
    }
    /// Value `i` regardless of validity. Panics when out of bounds.
    #[inline]
    pub fn value(&self, i: usize) -> T {
        self.values.as_slice()[i]
    }
    /// Value `i`, `None` when null.
    #[inline]
    pub fn get(&self, i: usize) -> Option<T> {
        self.is_valid(i).then(|| self.value(i))
    }
    /// Iterates values as options.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Option<T>> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }
    /// Zero-copy slice.
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        assert_slice(offset, len, self.len());
        PrimitiveArray {
            data_type: self.data_type.clone(),
            values: self.values.slice(offset, len),
            validity: self.validity.as_ref().map(|v| v.slice(offset, len)),
        }
    }
    /// The parts: type, values, validity.
    pub fn into_parts(self) -> (DataType, Buffer<T>, Option<Bitmap>) {
        (self.data_type, self.values, self.validity)
    }
}

impl<T: PrimitiveType> From<Vec<T>> for PrimitiveArray<T> {
    fn from(v: Vec<T>) -> Self {
        Self::new(v)
    }
}

impl<T: PrimitiveType> FromIterator<Option<T>> for PrimitiveArray<T> {
    fn from_iter<I: IntoIterator<Item = Option<T>>>(iter: I) -> Self {
        Self::from_options(iter)
    }
}
