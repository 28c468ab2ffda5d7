//! Variable-size lists (`List`, `LargeList`) and fixed-size lists.

use super::Array;
use super::assert_slice;
use super::binary::check_offsets_in_values;
use super::validity::{check_validity, validity_accessors};
use crate::buffer::{Bitmap, Offset, OffsetBuffer};
use crate::datatype::{DataType, FieldRef};
use crate::error::{Error, Result};
use std::sync::Arc;

/// Checks that a child array has the type its field declares.
pub(crate) fn check_child_type(field: &FieldRef, child: &Array) -> Result<()> {
    if child.data_type() != field.data_type() {
        return Err(Error::oos(format!(
            "child \"{}\" is declared {} but the array is {}",
            field.name(),
            field.data_type(),
            child.data_type()
        )));
    }
    Ok(())
}

/// Lists of values of one child array, delimited by offsets.
///
/// ```
/// use quiver_arrow::{Array, ListArray, PrimitiveArray, buffer::OffsetBuffer, Field, DataType};
/// let values = Array::from(PrimitiveArray::<i8>::new(vec![12, -7, 25, 0, -127, 127, 50]));
/// let offsets = OffsetBuffer::try_new(vec![0, 3, 3, 7, 7].into()).unwrap();
/// let field = Field::new("item", DataType::Int8, true).into();
/// let list = ListArray::try_new(field, offsets, values, None).unwrap();
/// assert_eq!(list.value(2).len(), 4);
/// ```
#[derive(Clone, Debug)]
pub struct GenericListArray<O: Offset> {
    data_type: DataType,
    offsets: OffsetBuffer<O>,
    values: Arc<Array>,
    validity: Option<Bitmap>,
}

/// List with `i32` offsets.
pub type ListArray = GenericListArray<i32>;
/// List with `i64` offsets.
pub type LargeListArray = GenericListArray<i64>;

impl<O: Offset> GenericListArray<O> {
    /// Builds the list, checking the child's type, that the offsets fit in it, and the validity
    /// length.
    pub fn try_new(
        field: FieldRef,
        offsets: OffsetBuffer<O>,
        values: Array,
        validity: Option<Bitmap>,
    ) -> Result<Self> {
        check_child_type(&field, &values)?;
        check_offsets_in_values(&offsets, values.len())?;
        check_validity(validity.as_ref(), offsets.len())?;
        let data_type = if O::IS_LARGE {
            DataType::LargeList(field)
        } else {
            DataType::List(field)
        };
        Ok(GenericListArray {
            data_type,
            offsets,
            values: Arc::new(values),
            validity,
        })
    }

    validity_accessors!();

    /// Number of lists.
    #[inline]
    pub fn len(&self) -> usize {
        self.offsets.len()
    }
    /// The child field.
    pub fn field(&self) -> &FieldRef {
        match &self.data_type {
            DataType::List(f) | DataType::LargeList(f) => f,
            _ => unreachable!("list arrays always carry a list type"),
        }
    }
    /// The offsets.
    pub fn offsets(&self) -> &OffsetBuffer<O> {
        &self.offsets
    }
    /// The child array (all lists' values, possibly more than the offsets reference).
    pub fn values(&self) -> &Array {
        &self.values
    }
    /// List `i` as a slice of the child, regardless of validity.
    pub fn value(&self, i: usize) -> Array {
        let r = self.offsets.range(i);
        self.values.slice(r.start, r.end - r.start)
    }
    /// List `i`, `None` when null.
    pub fn get(&self, i: usize) -> Option<Array> {
        self.is_valid(i).then(|| self.value(i))
    }
    /// Zero-copy slice (offsets sliced, child shared).
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        assert_slice(offset, len, self.len());
        GenericListArray {
            data_type: self.data_type.clone(),
            offsets: self.offsets.slice(offset, len),
            values: self.values.clone(),
            validity: self.validity.as_ref().map(|v| v.slice(offset, len)),
        }
    }
}

/// Lists of exactly `size` values each; list `i` is child values `[i * size, (i + 1) * size)`.
#[derive(Clone, Debug)]
pub struct FixedSizeListArray {
    data_type: DataType,
    size: usize,
    len: usize,
    values: Arc<Array>,
    validity: Option<Bitmap>,
}

impl FixedSizeListArray {
    /// Builds `len` lists of `size` values; the child must have at least `len * size` values.
    pub fn try_new(
        field: FieldRef,
        size: i32,
        len: usize,
        values: Array,
        validity: Option<Bitmap>,
    ) -> Result<Self> {
        check_child_type(&field, &values)?;
        let width = usize::try_from(size)
            .map_err(|_| Error::oos(format!("FixedSizeList size {size} is negative")))?;
        let needed = width
            .checked_mul(len)
            .ok_or_else(|| Error::overflow("fixed-size list length"))?;
        if values.len() < needed {
            return Err(Error::oos(format!(
                "{len} lists of {width} values need {needed} child values but the child has {}",
                values.len()
            )));
        }
        check_validity(validity.as_ref(), len)?;
        let values = if values.len() == needed {
            values
        } else {
            values.slice(0, needed)
        };
        Ok(FixedSizeListArray {
            data_type: DataType::FixedSizeList(field, size),
            size: width,
            len,
            values: Arc::new(values),
            validity,
        })
    }

    validity_accessors!();

    /// Number of lists.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    /// Values per list.
    pub fn size(&self) -> usize {
        self.size
    }
    /// The child field.
    pub fn field(&self) -> &FieldRef {
        match &self.data_type {
            DataType::FixedSizeList(f, _) => f,
            _ => unreachable!("fixed-size list arrays always carry their type"),
        }
    }
    /// The child array (`len * size` values).
    pub fn values(&self) -> &Array {
        &self.values
    }
    /// List `i` regardless of validity.
    pub fn value(&self, i: usize) -> Array {
        assert!(
            i < self.len,
            "index {i} out of bounds of length {}",
            self.len
        );
        self.values.slice(i * self.size, self.size)
    }
    /// List `i`, `None` when null.
    pub fn get(&self, i: usize) -> Option<Array> {
        self.is_valid(i).then(|| self.value(i))
    }
    /// Slice (the child is sliced too).
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        assert_slice(offset, len, self.len);
        FixedSizeListArray {
            data_type: self.data_type.clone(),
            size: self.size,
            len,
            values: Arc::new(self.values.slice(offset * self.size, len * self.size)),
            validity: self.validity.as_ref().map(|v| v.slice(offset, len)),
        }
    }
}
