//! Pieces shared by the array layouts.

use crate::buffer::Bitmap;
use crate::error::{Error, Result};

/// Checks that an optional validity bitmap has `len` bits.
pub(crate) fn check_validity(validity: Option<&Bitmap>, len: usize) -> Result<()> {
    match validity {
        Some(v) if v.len() != len => Err(Error::oos(format!(
            "validity bitmap has {} bits for {len} values",
            v.len()
        ))),
        _ => Ok(()),
    }
}

/// Drops a validity bitmap without nulls (consumers handle both forms; this keeps `None` the
/// common case for builders that allocated eagerly).
pub(crate) fn normalize_validity(validity: Option<Bitmap>) -> Option<Bitmap> {
    validity.filter(|v| v.unset_bits() > 0)
}

/// Checks `offset + len <= bound` without overflow; panics with a clear message otherwise
/// (slicing past the end is a programming error, not bad data).
#[inline]
pub(crate) fn assert_slice(offset: usize, len: usize, bound: usize) {
    assert!(
        offset.checked_add(len).is_some_and(|e| e <= bound),
        "slice [{offset}, {offset}+{len}) out of bounds of array of length {bound}"
    );
}

/// Implements the accessors every layout with an optional validity bitmap shares.
macro_rules! validity_accessors {
    () => {
        /// The validity bitmap (`None` when there are no nulls).
        #[inline]
        pub fn validity(&self) -> Option<&$crate::buffer::Bitmap> {
            self.validity.as_ref()
        }
        /// Number of null values.
        #[inline]
        pub fn null_count(&self) -> usize {
            self.validity.as_ref().map_or(0, |v| v.unset_bits())
        }
        /// True when value `i` is null.
        #[inline]
        pub fn is_null(&self, i: usize) -> bool {
            self.validity.as_ref().is_some_and(|v| !v.get(i))
        }
        /// True when value `i` is not null.
        #[inline]
        pub fn is_valid(&self, i: usize) -> bool {
            !self.is_null(i)
        }
        /// True when the array has no values.
        #[inline]
        pub fn is_empty(&self) -> bool {
            self.len() == 0
        }
        /// The logical type.
        #[inline]
        pub fn data_type(&self) -> &$crate::DataType {
            &self.data_type
        }
    };
}
pub(crate) use validity_accessors;
