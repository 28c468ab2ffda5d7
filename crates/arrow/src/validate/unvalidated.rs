//! [`Unvalidated`]: arrays decoded from untrusted bytes, whose only exit is validation.

use super::ValidationLevel;
use crate::array::Array;
use crate::error::Result;

/// What [`Unvalidated`] can hold: arrays and record batches.
pub trait Validate: Sized {
    /// Validates at `level`; with `trust_dictionaries`, dictionary values are taken as
    /// validated already (their keys are still checked against their length).
    fn validate_at(&self, level: ValidationLevel, trust_dictionaries: bool) -> Result<()>;
}

impl Validate for Array {
    fn validate_at(&self, level: ValidationLevel, trust_dictionaries: bool) -> Result<()> {
        if trust_dictionaries {
            self.validate_trusting_dictionaries(level)
        } else {
            self.validate(level)
        }
    }
}

/// A value a reader built from untrusted bytes with constructors that defer the content checks
/// (offsets, UTF-8, views, keys…) to full validation. Nothing can be read from it: the only ways
/// out validate it, in full, or — behind `unsafe`, for input the caller vouches for — only its
/// structure. Readers return their decoded arrays in it, so that "every decoded array is
/// validated before anything reads it" is a property of the types rather than of comments.
///
/// ```
/// use quiver_arrow::validate::Unvalidated;
/// use quiver_arrow::{Array, StringArray};
/// let a = Array::from(StringArray::from_options([Some("x")]));
/// let checked: Array = Unvalidated::new(a).validate().unwrap();
/// assert_eq!(checked.len(), 1);
/// ```
#[must_use = "an unvalidated value must be validated before use"]
#[derive(Clone, Debug)]
pub struct Unvalidated<T>(T);

impl<T: Validate> Unvalidated<T> {
    /// Wraps a value whose content has not been checked.
    pub fn new(value: T) -> Self {
        Unvalidated(value)
    }

    /// Validates in full ([`ValidationLevel::Full`]) and returns the value.
    pub fn validate(self) -> Result<T> {
        self.0.validate_at(ValidationLevel::Full, false)?;
        Ok(self.0)
    }

    /// Validates in full except the values of dictionaries, which the caller validated when
    /// it read them (a reader holding dictionaries across batches); keys are checked.
    pub fn validate_trusting_dictionaries(self) -> Result<T> {
        self.0.validate_at(ValidationLevel::Full, true)?;
        Ok(self.0)
    }

    /// Checks only the structure ([`ValidationLevel::Structural`]) and returns the value.
    ///
    /// # Safety
    /// The content must be valid: the value would pass [`Unvalidated::validate`] (or, with
    /// `trust_dictionaries`, [`Unvalidated::validate_trusting_dictionaries`]). Code reading
    /// values relies on the content invariants listed in [`crate::validate`].
    pub unsafe fn validate_structure_unchecked(self, trust_dictionaries: bool) -> Result<T> {
        self.0
            .validate_at(ValidationLevel::Structural, trust_dictionaries)?;
        Ok(self.0)
    }

    /// The value without any check, for assembling unvalidated parts into a larger value
    /// that is wrapped again (arrays into a record batch).
    ///
    /// # Safety
    /// Nothing may read values of `T` whose reading relies on content invariants (strings,
    /// views, offsets used for slicing) until the value, or one built from it, has been
    /// validated: only lengths, types and buffers may be looked at.
    pub unsafe fn into_inner_unchecked(self) -> T {
        self.0
    }
}

impl Unvalidated<Array> {
    /// Number of slots (a structural property, safe to read before validation).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when the array has no slots.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::OffsetBuffer;
    use crate::{Buffer, GenericStringArray};

    #[test]
    fn invalid_content_does_not_get_out() {
        let offsets = OffsetBuffer::<i32>::try_new(vec![0, 2].into()).unwrap();
        // SAFETY: (test) the array is only validated, never read.
        let bad = unsafe {
            GenericStringArray::<i32>::new_unchecked_utf8(
                offsets,
                Buffer::from(vec![0xffu8, 0xfe]),
                None,
            )
        }
        .unwrap();
        let u = Unvalidated::new(Array::from(bad));
        assert_eq!(u.len(), 1);
        let e = u.validate().unwrap_err();
        assert!(e.to_string().contains("UTF-8"), "{e}");
    }
}
