//! Structs: named children of equal length.

use super::Array;
use super::assert_slice;
use super::list::check_child_type;
use super::validity::{check_validity, validity_accessors};
use crate::buffer::Bitmap;
use crate::datatype::{DataType, Fields};
use crate::error::{Error, Result};
use std::sync::Arc;

/// A struct array: one child per field, each at least `len` long, plus an optional validity
/// bitmap of its own.
///
/// ```
/// use quiver_arrow::{Array, StructArray, PrimitiveArray, StringArray, Field, DataType};
/// let names = Array::from(StringArray::from_options([Some("joe"), None, None, Some("mark")]));
/// let ages = Array::from(PrimitiveArray::<i32>::from_options([Some(1), Some(2), None, Some(4)]));
/// let fields = vec![Field::new("name", DataType::Utf8, true), Field::new("age", DataType::Int32, true)];
/// let s = StructArray::try_new(fields.into(), 4, vec![names, ages], None).unwrap();
/// assert_eq!(s.column(1).len(), 4);
/// ```
#[derive(Clone, Debug)]
pub struct StructArray {
    data_type: DataType,
    len: usize,
    children: Arc<[Array]>,
    validity: Option<Bitmap>,
}

impl StructArray {
    /// Builds a struct of `len` rows. Children longer than `len` are sliced to it.
    pub fn try_new(
        fields: Fields,
        len: usize,
        children: Vec<Array>,
        validity: Option<Bitmap>,
    ) -> Result<Self> {
        if fields.len() != children.len() {
            return Err(Error::oos(format!(
                "struct has {} fields but {} children",
                fields.len(),
                children.len()
            )));
        }
        let mut children = children;
        for (i, (f, c)) in fields.iter().zip(children.iter_mut()).enumerate() {
            check_child_type(f, c).map_err(|e| e.context(format!("struct child {i}")))?;
            if c.len() < len {
                return Err(Error::oos(format!(
                    "struct child {i} (\"{}\") has {} values but the struct has {len}",
                    f.name(),
                    c.len()
                )));
            }
            if c.len() > len {
                *c = c.slice(0, len);
            }
        }
        check_validity(validity.as_ref(), len)?;
        Ok(StructArray {
            data_type: DataType::Struct(fields),
            len,
            children: children.into(),
            validity,
        })
    }

    validity_accessors!();

    /// Number of rows.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    /// The fields.
    pub fn fields(&self) -> &Fields {
        match &self.data_type {
            DataType::Struct(f) => f,
            _ => unreachable!("struct arrays always carry a struct type"),
        }
    }
    /// The children (each exactly `len` long).
    pub fn columns(&self) -> &[Array] {
        &self.children
    }
    /// Child `i`.
    pub fn column(&self, i: usize) -> &Array {
        &self.children[i]
    }
    /// The child named `name`.
    pub fn column_by_name(&self, name: &str) -> Option<&Array> {
        self.fields().index_of(name).map(|i| &self.children[i])
    }
    /// Slice (each child is sliced, zero-copy).
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        assert_slice(offset, len, self.len);
        StructArray {
            data_type: self.data_type.clone(),
            len,
            children: self.children.iter().map(|c| c.slice(offset, len)).collect(),
            validity: self.validity.as_ref().map(|v| v.slice(offset, len)),
        }
    }
}
