//! Builder of Null arrays.

use super::Builder;
use crate::array::{Array, NullArray};
use crate::datatype::DataType;
use crate::error::Result;

/// Builds a [`NullArray`]: it only counts slots.
///
/// ```
/// use quiver_arrow::builder::NullBuilder;
/// let mut b = NullBuilder::new();
/// b.append_null();
/// b.append_nulls(2);
/// assert_eq!(b.finish().len(), 3);
/// assert!(b.is_empty());
/// ```
#[derive(Clone, Debug, Default)]
pub struct NullBuilder {
    len: usize,
}

impl NullBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }
    /// Appends a null.
    #[inline]
    pub fn append_null(&mut self) {
        self.len += 1;
    }
    /// Appends `n` nulls.
    #[inline]
    pub fn append_nulls(&mut self, n: usize) {
        self.len += n;
    }
    /// Number of slots appended.
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when nothing has been appended.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Builds the array and resets the builder.
    pub fn finish(&mut self) -> NullArray {
        NullArray::new(std::mem::take(&mut self.len))
    }
}

impl Builder for NullBuilder {
    fn len(&self) -> usize {
        self.len
    }
    fn data_type(&self) -> DataType {
        DataType::Null
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
