//! Validity bitmaps of the array layouts: length check, normalisation and the accessors every
//! layout with a validity bitmap shares.

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
