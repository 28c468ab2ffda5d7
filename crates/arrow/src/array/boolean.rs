//! Bit-packed booleans.

use super::assert_slice;
use super::validity::{check_validity, normalize_validity, validity_accessors};
use crate::buffer::{Bitmap, MutableBitmap};
use crate::datatype::DataType;
use crate::error::Result;

/// Booleans packed one bit per value, with an optional validity bitmap.
///
/// ```
/// use quiver_arrow::BooleanArray;
/// let a = BooleanArray::from_options([Some(true), None, Some(false)]);
/// assert_eq!(a.get(0), Some(true));
/// assert_eq!(a.get(1), None);
/// ```
#[derive(Clone, Debug)]
pub struct BooleanArray {
    data_type: DataType,
    values: Bitmap,
    validity: Option<Bitmap>,
}

impl BooleanArray {
    /// Builds the array, checking the validity length.
    pub fn try_new(values: Bitmap, validity: Option<Bitmap>) -> Result<Self> {
        check_validity(validity.as_ref(), values.len())?;
        Ok(BooleanArray {
            data_type: DataType::Boolean,
            values,
            validity,
        })
    }
    /// An array from optional booleans.
    pub fn from_options(iter: impl IntoIterator<Item = Option<bool>>) -> Self {
        let mut values = MutableBitmap::new();
        let mut validity = MutableBitmap::new();
        for v in iter {
            values.push(v.unwrap_or(false));
            validity.push(v.is_some());
        }
        BooleanArray {
            data_type: DataType::Boolean,
            values: values.freeze(),
            validity: normalize_validity(Some(validity.freeze())),
        }
    }

    validity_accessors!();

    /// Number of values.
    #[inline]
    pub fn len(&self) -> usize {
        self.values.len()
    }
    /// The value bits.
    pub fn values(&self) -> &Bitmap {
        &self.values
    }
    /// Value `i` regardless of validity.
    #[inline]
    pub fn value(&self, i: usize) -> bool {
        self.values.get(i)
    }
    /// Value `i`, `None` when null.
    #[inline]
    pub fn get(&self, i: usize) -> Option<bool> {
        self.is_valid(i).then(|| self.value(i))
    }
    /// Iterates values as options.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Option<bool>> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }
    /// Zero-copy slice.
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        assert_slice(offset, len, self.len());
        BooleanArray {
            data_type: DataType::Boolean,
            values: self.values.slice(offset, len),
            validity: self.validity.as_ref().map(|v| v.slice(offset, len)),
        }
    }
}

impl From<Vec<bool>> for BooleanArray {
    fn from(v: Vec<bool>) -> Self {
        BooleanArray {
            data_type: DataType::Boolean,
            values: v.as_slice().into(),
            validity: None,
        }
    }
}

impl FromIterator<Option<bool>> for BooleanArray {
    fn from_iter<I: IntoIterator<Item = Option<bool>>>(iter: I) -> Self {
        Self::from_options(iter)
    }
}
