//! The Null layout: a length and nothing else.

use crate::datatype::DataType;

/// An array whose values are all null; it has no buffers.
#[derive(Clone, Debug)]
pub struct NullArray {
    data_type: DataType,
    len: usize,
}

impl NullArray {
    /// `len` nulls.
    pub fn new(len: usize) -> Self {
        NullArray {
            data_type: DataType::Null,
            len,
        }
    }
    /// Number of values (all null).
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Always [`DataType::Null`].
    pub fn data_type(&self) -> &DataType {
        &self.data_type
    }
    /// A slice (just a length).
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        super::assert_slice(offset, len, self.len);
        NullArray::new(len)
    }
}
