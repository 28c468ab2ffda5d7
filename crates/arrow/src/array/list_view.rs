//! Lists in the list-view layout (`ListView`, `LargeListView`).

use super::Array;
use super::assert_slice;
use super::list::check_child_type;
use super::validity::{check_validity, validity_accessors};
use crate::buffer::{Bitmap, Buffer, Offset};
use crate::datatype::{DataType, FieldRef};
use crate::error::{Error, Result};
use std::sync::Arc;

/// Lists given by an offset and a size each; lists may overlap and appear in any order.
///
/// ```
/// use quiver_arrow::{Array, ListViewArray, PrimitiveArray, Field, DataType};
/// let values = Array::from(PrimitiveArray::<i8>::new(vec![0, -127, 127, 50, 12, -7, 25]));
/// let field = Field::new("item", DataType::Int8, true).into();
/// let a = ListViewArray::try_new(field, vec![4, 7, 0, 0].into(), vec![3, 0, 4, 0].into(), values, None).unwrap();
/// assert_eq!(a.value(0).len(), 3);
/// ```
#[derive(Clone, Debug)]
pub struct GenericListViewArray<O: Offset> {
    data_type: DataType,
    offsets: Buffer<O>,
    sizes: Buffer<O>,
    values: Arc<Array>,
    validity: Option<Bitmap>,
}

/// List view with `i32` offsets and sizes.
pub type ListViewArray = GenericListViewArray<i32>;
/// List view with `i64` offsets and sizes.
pub type LargeListViewArray = GenericListViewArray<i64>;

/// Checks each list view, null slots included (the columnar format requires
/// `0 <= offsets[i]` and `offsets[i] + sizes[i] <= child length` for "every list-view value,
/// including null values"): offset and size non-negative, `offset + size` within the child.
pub(crate) fn check_list_views<O: Offset>(
    offsets: &[O],
    sizes: &[O],
    values_len: usize,
) -> Result<()> {
    for (i, (&o, &s)) in offsets.iter().zip(sizes).enumerate() {
        let (o, s) = (o.to_i64(), s.to_i64());
        if o < 0 || s < 0 {
            return Err(Error::oos(format!(
                "list view {i} has offset {o} and size {s}; both must be non-negative"
            )));
        }
        // Malformed input rather than an overflow of ours: reported as out of spec so that
        // validation can add the path to it.
        let end = o.checked_add(s).ok_or_else(|| {
            Error::oos(format!(
                "list view {i} has offset {o} and size {s}, whose sum overflows"
            ))
        })?;
        if end as u64 > values_len as u64 {
            return Err(Error::oos(format!(
                "list view {i} spans [{o}, {end}) but the child has {values_len} values"
            )));
        }
    }
    Ok(())
}

impl<O: Offset> GenericListViewArray<O> {
    /// Builds the array, checking the child type, buffer lengths and every view, null slots
    /// included (O(n)).
    pub fn try_new(
        field: FieldRef,
        offsets: Buffer<O>,
        sizes: Buffer<O>,
        values: Array,
        validity: Option<Bitmap>,
    ) -> Result<Self> {
        let a = Self::try_new_deferred(field, offsets, sizes, values, validity)?;
        a.check_content()?;
        Ok(a)
    }

    /// Builds the array with structural checks only; the views are checked by full validation
    /// (an unchecked bad view makes [`Self::value`] panic, nothing worse).
    pub fn try_new_deferred(
        field: FieldRef,
        offsets: Buffer<O>,
        sizes: Buffer<O>,
        values: Array,
        validity: Option<Bitmap>,
    ) -> Result<Self> {
        check_child_type(&field, &values)?;
        if offsets.len() != sizes.len() {
            return Err(Error::oos(format!(
                "{} offsets but {} sizes",
                offsets.len(),
                sizes.len()
            )));
        }
        check_validity(validity.as_ref(), offsets.len())?;
        let data_type = if O::IS_LARGE {
            DataType::LargeListView(field)
        } else {
            DataType::ListView(field)
        };
        Ok(GenericListViewArray {
            data_type,
            offsets,
            sizes,
            values: Arc::new(values),
            validity,
        })
    }

    pub(crate) fn check_content(&self) -> Result<()> {
        check_list_views(&self.offsets, &self.sizes, self.values.len())
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
            DataType::ListView(f) | DataType::LargeListView(f) => f,
            _ => unreachable!("list view arrays always carry a list view type"),
        }
    }
    /// The offsets.
    pub fn offsets(&self) -> &Buffer<O> {
        &self.offsets
    }
    /// The sizes.
    pub fn sizes(&self) -> &Buffer<O> {
        &self.sizes
    }
    /// The child array.
    pub fn values(&self) -> &Array {
        &self.values
    }
    /// List `i` as a slice of the child, regardless of validity (null slots read as empty).
    pub fn value(&self, i: usize) -> Array {
        if self.is_null(i) {
            return self.values.slice(0, 0);
        }
        let o = self.offsets[i].as_usize();
        let s = self.sizes[i].as_usize();
        self.values.slice(o, s)
    }
    /// List `i`, `None` when null.
    pub fn get(&self, i: usize) -> Option<Array> {
        self.is_valid(i).then(|| self.value(i))
    }
    /// Zero-copy slice.
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        assert_slice(offset, len, self.len());
        GenericListViewArray {
            data_type: self.data_type.clone(),
            offsets: self.offsets.slice(offset, len),
            sizes: self.sizes.slice(offset, len),
            values: self.values.clone(),
            validity: self.validity.as_ref().map(|v| v.slice(offset, len)),
        }
    }
}
