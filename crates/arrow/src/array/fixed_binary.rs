//! Fixed-size binary values.

use super::assert_slice;
use super::validity::{check_validity, validity_accessors};
use crate::buffer::{Bitmap, Buffer};
use crate::datatype::DataType;
use crate::error::{Error, Result};

/// Binary values of `size` bytes each, stored back to back.
#[derive(Clone, Debug)]
pub struct FixedSizeBinaryArray {
    data_type: DataType,
    size: usize,
    len: usize,
    values: Buffer<u8>,
    validity: Option<Bitmap>,
}

impl FixedSizeBinaryArray {
    /// Builds an array of `len` values of `size` bytes; `values` must hold at least
    /// `len * size` bytes (extra bytes are ignored).
    pub fn try_new(
        size: i32,
        len: usize,
        values: Buffer<u8>,
        validity: Option<Bitmap>,
    ) -> Result<Self> {
        let width = usize::try_from(size)
            .map_err(|_| Error::oos(format!("FixedSizeBinary width {size} is negative")))?;
        let needed = width
            .checked_mul(len)
            .ok_or_else(|| Error::overflow("fixed-size binary length"))?;
        if values.len() < needed {
            return Err(Error::oos(format!(
                "{len} values of {width} bytes need {needed} bytes but the values have {}",
                values.len()
            )));
        }
        check_validity(validity.as_ref(), len)?;
        Ok(FixedSizeBinaryArray {
            data_type: DataType::FixedSizeBinary(size),
            size: width,
            len,
            values: values.slice(0, needed),
            validity,
        })
    }

    validity_accessors!();

    /// Number of values.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    /// Width of each value in bytes.
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }
    /// The values buffer (`len * size` bytes).
    pub fn values(&self) -> &Buffer<u8> {
        &self.values
    }
    /// Value `i` regardless of validity.
    #[inline]
    pub fn value(&self, i: usize) -> &[u8] {
        assert!(
            i < self.len,
            "index {i} out of bounds of length {}",
            self.len
        );
        &self.values.as_slice()[i * self.size..(i + 1) * self.size]
    }
    /// Value `i`, `None` when null.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        self.is_valid(i).then(|| self.value(i))
    }
    /// Iterates values as options.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Option<&[u8]>> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }
    /// Zero-copy slice.
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        assert_slice(offset, len, self.len);
        FixedSizeBinaryArray {
            data_type: self.data_type.clone(),
            size: self.size,
            len,
            values: self.values.slice(offset * self.size, len * self.size),
            validity: self.validity.as_ref().map(|v| v.slice(offset, len)),
        }
    }
}
