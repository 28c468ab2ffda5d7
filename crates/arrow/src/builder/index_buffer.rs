//! Integer buffers of a type chosen at run time: dictionary keys and run ends.

use crate::array::{Array, PrimitiveArray, PrimitiveType};
use crate::buffer::{Bitmap, Buffer, MutableBuffer};
use crate::datatype::IntegerType;
use crate::error::{Error, Result};

/// Freezes a buffer of `T` into an array of `T`'s default type.
fn finish_as<T: PrimitiveType>(data: MutableBuffer, validity: Option<Bitmap>) -> Array {
    Array::from(
        PrimitiveArray::<T>::try_new(T::default_data_type(), Buffer::from(data), validity)
            .expect("the validity covers the values"), // ok: the validity covers the values.
    )
}

/// Non-negative integers stored in the width of an [`IntegerType`] chosen at run time.
///
/// Values are written as the low `width` bytes of their little-endian `u64`, which is the
/// two's-complement encoding of every non-negative value the type holds (callers keep values
/// at most [`IndexBuffer::max`]), so no per-value dispatch on the type is needed.
#[derive(Clone, Debug)]
pub(crate) struct IndexBuffer {
    ty: IntegerType,
    width: usize,
    max: u64,
    data: MutableBuffer,
    finish: fn(MutableBuffer, Option<Bitmap>) -> Array,
}

impl IndexBuffer {
    /// An empty buffer of `ty` with room for `capacity` values.
    pub(crate) fn new(ty: IntegerType, capacity: usize) -> Self {
        let bits = ty.bit_width();
        let max = ty.max_value();
        let finish: fn(MutableBuffer, Option<Bitmap>) -> Array = match ty {
            IntegerType::Int8 => finish_as::<i8>,
            IntegerType::Int16 => finish_as::<i16>,
            IntegerType::Int32 => finish_as::<i32>,
            IntegerType::Int64 => finish_as::<i64>,
            IntegerType::UInt8 => finish_as::<u8>,
            IntegerType::UInt16 => finish_as::<u16>,
            IntegerType::UInt32 => finish_as::<u32>,
            IntegerType::UInt64 => finish_as::<u64>,
        };
        let width = bits as usize / 8;
        IndexBuffer {
            ty,
            width,
            max: max.min(usize::MAX as u64),
            data: MutableBuffer::with_capacity(capacity * width),
            finish,
        }
    }

    /// The integer type.
    pub(crate) fn integer_type(&self) -> IntegerType {
        self.ty
    }

    /// Largest value the type holds (capped at `usize::MAX`).
    #[cfg(test)]
    pub(crate) fn max(&self) -> u64 {
        self.max
    }

    /// Number of values.
    pub(crate) fn len(&self) -> usize {
        self.data.len() / self.width
    }

    /// `value` as a count/index of this type, or [`Error::Overflow`] naming `what`.
    pub(crate) fn check(&self, value: usize, what: &str) -> Result<u64> {
        let v = value as u64;
        if v > self.max {
            return Err(Error::overflow(format!(
                "{what} {value} does not fit {:?} (at most {})",
                self.ty, self.max
            )));
        }
        Ok(v)
    }

    /// Appends `value` (at most [`IndexBuffer::max`]).
    #[inline]
    pub(crate) fn push(&mut self, value: u64) {
        debug_assert!(value <= self.max);
        self.data
            .extend_from_slice(&value.to_le_bytes()[..self.width]);
    }

    /// Appends `n` zeros.
    #[inline]
    pub(crate) fn push_zeros(&mut self, n: usize) {
        self.data.extend_zeros(n * self.width);
    }

    /// The last value, if any.
    #[cfg(test)]
    pub(crate) fn last(&self) -> Option<u64> {
        let bytes = self.data.as_slice();
        let start = bytes.len().checked_sub(self.width)?;
        let mut word = [0u8; 8];
        word[..self.width].copy_from_slice(&bytes[start..]);
        Some(u64::from_le_bytes(word))
    }

    /// Replaces the last value (at most [`IndexBuffer::max`]); no-op when empty.
    #[inline]
    pub(crate) fn set_last(&mut self, value: u64) {
        debug_assert!(value <= self.max);
        let width = self.width;
        let bytes = self.data.as_mut_slice();
        if let Some(start) = bytes.len().checked_sub(width) {
            bytes[start..].copy_from_slice(&value.to_le_bytes()[..width]);
        }
    }

    /// Freezes the values into an integer array (O(1)) and resets the buffer.
    pub(crate) fn finish(&mut self, validity: Option<Bitmap>) -> Array {
        (self.finish)(std::mem::take(&mut self.data), validity)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_limits_and_encoding() {
        let cases = [
            (IntegerType::Int8, 127u64),
            (IntegerType::UInt8, 255),
            (IntegerType::Int16, 32767),
            (IntegerType::UInt16, 65535),
            (IntegerType::Int32, i32::MAX as u64),
            (IntegerType::UInt32, u32::MAX as u64),
            (IntegerType::Int64, i64::MAX as u64),
            (IntegerType::UInt64, u64::MAX),
        ];
        for (ty, max) in cases {
            let mut b = IndexBuffer::new(ty, 0);
            assert_eq!(b.max(), max, "{ty:?}");
            assert!(b.check(max as usize, "key").is_ok());
            if max < u64::MAX {
                assert!(matches!(
                    b.check(max as usize + 1, "key"),
                    Err(Error::Overflow { .. })
                ));
            }
            b.push(1);
            b.push(max);
            b.push_zeros(1);
            assert_eq!(b.last(), Some(0));
            b.set_last(5);
            assert_eq!(b.len(), 3);
            let a = b.finish(None);
            assert_eq!(a.data_type(), &ty.data_type());
            let as_u64: Vec<u64> = (0..3)
                .map(|i| match &a {
                    Array::I8(p) => p.value(i) as u64,
                    Array::U8(p) => p.value(i) as u64,
                    Array::I16(p) => p.value(i) as u64,
                    Array::U16(p) => p.value(i) as u64,
                    Array::I32(p) => p.value(i) as u64,
                    Array::U32(p) => p.value(i) as u64,
                    Array::I64(p) => p.value(i) as u64,
                    Array::U64(p) => p.value(i),
                    _ => unreachable!(),
                })
                .collect();
            assert_eq!(as_u64, vec![1, max, 5]);
            assert_eq!(b.len(), 0);
        }
    }
}
