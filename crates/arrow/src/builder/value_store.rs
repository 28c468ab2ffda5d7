//! Value storage shared by the dictionary and run-end builders.
//!
//! Values of byte-addressable types (primitives, booleans, fixed-size binary, binary and
//! strings in every layout) are stored so that value `i` can be read back as bytes, which is
//! what deduplication (hashing) and run merging (comparing with the previous run) need. Other
//! types (nested, Null) keep a dynamic builder that the caller fills directly.

use super::var_values::VarValues;
use super::{ArrayBuilder, Builder, NullBufferBuilder, make_builder};
use crate::array::{Array, BooleanArray, FixedSizeBinaryArray, PrimitiveArray, PrimitiveType};
use crate::buffer::{Bitmap, Buffer, MutableBitmap, MutableBuffer};
use crate::datatype::DataType;
use crate::error::{Error, Result};
use crate::match_primitive;
use crate::native::{DaysMs, I128, I256, MonthDayNano};
use half::f16;

type PrimitiveFinish = fn(DataType, MutableBuffer, Option<Bitmap>) -> Array;

fn finish_primitive<T: PrimitiveType>(
    dt: DataType,
    data: MutableBuffer,
    validity: Option<Bitmap>,
) -> Array {
    Array::from(
        PrimitiveArray::<T>::try_new(dt, Buffer::from(data), validity)
            .expect("the store's type is stored as T and validated"), // ok: the store's type is stored as T and validated.
    )
}

/// The width and finisher of a primitive type, `None` for other types.
fn primitive_kind(dt: &DataType) -> Option<(usize, PrimitiveFinish)> {
    macro_rules! find {
        ($($t:ty),*) => {$(
            if <$t as PrimitiveType>::accepts(dt) {
                return Some((std::mem::size_of::<$t>(), finish_primitive::<$t> as PrimitiveFinish));
            }
        )*};
    }
    find! { i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64, I128, I256, DaysMs, MonthDayNano }
    None
}

#[derive(Clone, Debug)]
enum FixedKind {
    Primitive(DataType, PrimitiveFinish),
    FixedSizeBinary(i32),
    /// One byte per value, 0 or 1.
    Boolean,
}

/// Values of one width, back to back.
#[derive(Clone, Debug)]
pub(crate) struct FixedValues {
    kind: FixedKind,
    width: usize,
    data: MutableBuffer,
    validity: NullBufferBuilder,
}

/// Dictionary values or run values.
#[derive(Clone, Debug)]
pub(crate) enum ValueStore {
    Fixed(FixedValues),
    Var(VarValues),
    /// Types without a byte form: filled by the caller through a dynamic builder.
    Other(Box<ArrayBuilder>),
}

impl ValueStore {
    /// An empty store for values of `dt`.
    pub(crate) fn try_new(dt: &DataType, capacity: usize) -> Result<Self> {
        dt.validate()?;
        let fixed = |kind, width: usize| {
            ValueStore::Fixed(FixedValues {
                kind,
                width,
                data: MutableBuffer::with_capacity(capacity * width),
                validity: NullBufferBuilder::new(),
            })
        };
        if let Some((width, finish)) = primitive_kind(dt) {
            return Ok(fixed(FixedKind::Primitive(dt.clone(), finish), width));
        }
        Ok(match dt {
            DataType::Boolean => fixed(FixedKind::Boolean, 1),
            // Validated non-negative above.
            DataType::FixedSizeBinary(w) => fixed(FixedKind::FixedSizeBinary(*w), *w as usize),
            _ => match VarValues::try_new(dt, capacity) {
                Some(v) => ValueStore::Var(v),
                None => ValueStore::Other(Box::new(make_builder(dt, capacity)?)),
            },
        })
    }

    /// The type of the values.
    pub(crate) fn data_type(&self) -> DataType {
        match self {
            ValueStore::Fixed(f) => match &f.kind {
                FixedKind::Primitive(dt, _) => dt.clone(),
                FixedKind::FixedSizeBinary(w) => DataType::FixedSizeBinary(*w),
                FixedKind::Boolean => DataType::Boolean,
            },
            ValueStore::Var(v) => v.data_type(),
            ValueStore::Other(b) => b.data_type(),
        }
    }

    /// Number of values.
    pub(crate) fn len(&self) -> usize {
        match self {
            ValueStore::Fixed(f) => f.validity.len(),
            ValueStore::Var(v) => v.len(),
            ValueStore::Other(b) => b.len(),
        }
    }

    /// True for stores that can read values back as bytes (all but `Other`).
    pub(crate) fn is_addressable(&self) -> bool {
        !matches!(self, ValueStore::Other(_))
    }

    /// The dynamic builder of an `Other` store.
    pub(crate) fn other_mut(&mut self) -> Option<&mut ArrayBuilder> {
        match self {
            ValueStore::Other(b) => Some(b),
            _ => None,
        }
    }

    /// The bytes of value `i` (empty for `Other` stores and nulls of variable size).
    #[inline]
    pub(crate) fn value(&self, i: usize) -> &[u8] {
        match self {
            ValueStore::Fixed(f) => &f.data.as_slice()[i * f.width..(i + 1) * f.width],
            ValueStore::Var(v) => v.value(i),
            ValueStore::Other(_) => &[],
        }
    }

    /// True when value `i` is null (false for `Other` stores, which do not track it).
    #[inline]
    pub(crate) fn is_null(&self, i: usize) -> bool {
        match self {
            ValueStore::Fixed(f) => !f.validity.is_valid(i),
            ValueStore::Var(v) => v.is_null(i),
            ValueStore::Other(_) => false,
        }
    }

    /// Appends a value already checked against the store's kind; [`Error::Overflow`] (store
    /// unchanged) when 32-bit offsets would overflow.
    #[inline]
    pub(crate) fn push(&mut self, bytes: &[u8]) -> Result<()> {
        match self {
            ValueStore::Fixed(f) => {
                debug_assert_eq!(bytes.len(), f.width);
                f.data.extend_from_slice(bytes);
                f.validity.append_non_null();
            }
            ValueStore::Var(v) => v.push(bytes)?,
            ValueStore::Other(_) => {
                return Err(Error::invalid(
                    "values of this type are appended through the values builder",
                ));
            }
        }
        Ok(())
    }

    /// Appends a null value.
    pub(crate) fn push_null(&mut self) {
        match self {
            ValueStore::Fixed(f) => {
                f.data.extend_zeros(f.width);
                f.validity.append_null();
            }
            ValueStore::Var(v) => v.push_null(),
            ValueStore::Other(b) => b.append_null(),
        }
    }

    fn kind_error(&self, what: &str) -> Error {
        Error::invalid(format!(
            "cannot append {what} to values of type {}",
            self.data_type()
        ))
    }

    /// Checks that a string can be appended (any variable-size kind).
    pub(crate) fn check_str(&self) -> Result<()> {
        match self {
            ValueStore::Var(_) => Ok(()),
            _ => Err(self.kind_error("a string")),
        }
    }

    /// Checks that `bytes` can be appended: binary, UTF-8 for string kinds, or exactly the
    /// width of a fixed-size binary.
    pub(crate) fn check_bytes(&self, bytes: &[u8]) -> Result<()> {
        match self {
            ValueStore::Var(v) if v.is_utf8() => simdutf8::basic::from_utf8(bytes)
                .map(|_| ())
                .map_err(|_| Error::invalid("string value is not valid UTF-8")),
            ValueStore::Var(_) => Ok(()),
            ValueStore::Fixed(FixedValues {
                kind: FixedKind::FixedSizeBinary(_),
                width,
                ..
            }) if *width == bytes.len() => Ok(()),
            _ => Err(self.kind_error(&format!("{} bytes", bytes.len()))),
        }
    }

    /// Checks that values of native type `T` can be appended.
    pub(crate) fn check_primitive<T: PrimitiveType>(&self) -> Result<()> {
        match self {
            ValueStore::Fixed(FixedValues {
                kind: FixedKind::Primitive(dt, _),
                ..
            }) if T::accepts(dt) => Ok(()),
            _ => Err(self.kind_error(T::NAME)),
        }
    }

    /// Checks that booleans can be appended.
    pub(crate) fn check_bool(&self) -> Result<()> {
        match self {
            ValueStore::Fixed(FixedValues {
                kind: FixedKind::Boolean,
                ..
            }) => Ok(()),
            _ => Err(self.kind_error("a boolean")),
        }
    }

    /// Checks a nested `Other` store's builder.
    pub(crate) fn check_finish(&self) -> Result<()> {
        match self {
            ValueStore::Other(b) => b.check_finish(),
            _ => Ok(()),
        }
    }

    /// Builds the values array and resets the store.
    pub(crate) fn finish(&mut self) -> Array {
        match self {
            ValueStore::Fixed(f) => f.finish(),
            ValueStore::Var(v) => v.finish(),
            ValueStore::Other(b) => b.finish_array(),
        }
    }
}

/// The byte form of value `i` of an array the store can hold (`None` for other layouts).
pub(crate) fn array_value_bytes(array: &Array, i: usize) -> Option<&[u8]> {
    Some(match array {
        Array::Boolean(a) => {
            if a.value(i) {
                &[1]
            } else {
                &[0]
            }
        }
        Array::Binary(a) => a.value(i),
        Array::LargeBinary(a) => a.value(i),
        Array::Utf8(a) => a.value(i).as_bytes(),
        Array::LargeUtf8(a) => a.value(i).as_bytes(),
        Array::BinaryView(a) => a.value(i),
        Array::Utf8View(a) => a.value(i).as_bytes(),
        Array::FixedSizeBinary(a) => a.value(i),
        _ => {
            return match_primitive!(
                array,
                p => Some(bytemuck::bytes_of(&p.values().as_slice()[i])),
                _ => None
            );
        }
    })
}

impl FixedValues {
    fn finish(&mut self) -> Array {
        let data = std::mem::take(&mut self.data);
        let len = self.validity.len();
        let validity = self.validity.finish();
        match &self.kind {
            FixedKind::Primitive(dt, finish) => finish(dt.clone(), data, validity),
            FixedKind::FixedSizeBinary(w) => Array::from(
                FixedSizeBinaryArray::try_new(*w, len, Buffer::from(data), validity)
                    .expect("the store holds width bytes per value"), // ok: the store holds width bytes per value.
            ),
            FixedKind::Boolean => {
                let mut bits = MutableBitmap::with_capacity(len);
                bits.extend(data.as_slice().iter().map(|&b| b != 0));
                Array::from(
                    BooleanArray::try_new(bits.freeze(), validity).expect("one bit per value"), // ok: one bit per value.
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::tests::{assert_aligned, assert_valid};
    use crate::builder::{DictionaryBuilder, RunEndBuilder};
    use crate::datatype::{IntegerType, IntervalUnit};
    use crate::native::MonthDayNano;

    #[test]
    fn boolean_values() {
        let mut b = DictionaryBuilder::try_new(IntegerType::Int8, DataType::Boolean).unwrap();
        for v in [true, false, true] {
            b.append_bool(v).unwrap();
        }
        b.append_null();
        assert!(b.append_str("true").is_err());
        let d = b.finish();
        let keys = d.keys().as_primitive::<i8>().unwrap();
        assert_eq!(keys.values().as_slice(), &[0, 1, 0, 0]);
        let values = d.values().as_boolean().unwrap();
        assert_eq!(values.len(), 2);
        assert_eq!(&values.values().bytes()[..], &[0b01]);
        assert_valid(&Array::from(d));
    }

    #[test]
    fn fixed_size_binary_values() {
        let dt = DataType::FixedSizeBinary(2);
        let mut b = DictionaryBuilder::try_new(IntegerType::UInt32, dt).unwrap();
        assert_eq!(b.append_bytes(b"ab").unwrap(), 0);
        assert_eq!(b.append_bytes(b"cd").unwrap(), 1);
        assert_eq!(b.append_bytes(b"ab").unwrap(), 0);
        assert!(b.append_bytes(b"abc").is_err(), "wrong width");
        let d = b.finish();
        let values = d.values().as_fixed_size_binary().unwrap();
        assert_eq!(values.values().as_slice(), b"abcd");
        assert_aligned(values.values().bytes());
        assert_valid(&Array::from(d));
    }

    #[test]
    fn sixteen_byte_runs() {
        let dt = DataType::Interval(IntervalUnit::MonthDayNano);
        let mut b = RunEndBuilder::try_new(IntegerType::Int32, dt).unwrap();
        let v = |months| MonthDayNano {
            months,
            days: 0,
            nanoseconds: 7,
        };
        for m in [1, 1, 2] {
            b.append_primitive(v(m)).unwrap();
        }
        assert!(b.append_primitive(1i64).is_err(), "not stored as i64");
        let a = b.finish();
        let values = a.values().as_primitive::<MonthDayNano>().unwrap();
        assert_eq!(values.values().as_slice(), &[v(1), v(2)]);
        let ends = a.run_ends().as_primitive::<i32>().unwrap();
        assert_eq!(ends.values().as_slice(), &[2, 3]);
        assert_valid(&Array::from(a));
    }

    #[test]
    fn seeds_from_every_addressable_layout() {
        use crate::{BooleanArray, FixedSizeBinaryArray, StringViewArray};
        let arrays = [
            Array::from(BooleanArray::from_options([Some(false), None, Some(true)])),
            Array::from(StringViewArray::from_options([
                Some("a string of 20 bytes"),
                None,
            ])),
            Array::from(
                FixedSizeBinaryArray::try_new(1, 2, Buffer::from(vec![7u8, 8]), None).unwrap(),
            ),
            Array::from(PrimitiveArray::<f64>::from_options([Some(1.5), None])),
        ];
        for values in arrays {
            let mut b = DictionaryBuilder::with_values(IntegerType::Int16, &values).unwrap();
            b.append_key(0).unwrap();
            let d = b.finish();
            assert_eq!(d.values().len(), values.len());
            assert_eq!(d.values().null_count(), values.null_count());
            assert_eq!(d.values().data_type(), values.data_type());
            assert_valid(&Array::from(d));
        }
    }
}
