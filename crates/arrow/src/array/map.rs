//! Maps: lists of key/value entries.

use super::Array;
use super::assert_slice;
use super::binary::check_offsets_in_values;
use super::struct_::StructArray;
use super::validity::{check_validity, validity_accessors};
use crate::buffer::{Bitmap, OffsetBuffer};
use crate::datatype::{DataType, FieldRef};
use crate::error::{Error, Result};
use std::sync::Arc;

/// A map array: `List<entries: Struct<key, value>>` with `i32` offsets. Keys are non-null.
#[derive(Clone, Debug)]
pub struct MapArray {
    data_type: DataType,
    offsets: OffsetBuffer<i32>,
    entries: Arc<StructArray>,
    validity: Option<Bitmap>,
}

impl MapArray {
    /// Builds a map over `entries` (a two-child struct whose type matches the entries field),
    /// checking that no key referenced by the offsets is null.
    pub fn try_new(
        entries_field: FieldRef,
        keys_sorted: bool,
        offsets: OffsetBuffer<i32>,
        entries: StructArray,
        validity: Option<Bitmap>,
    ) -> Result<Self> {
        let data_type = DataType::Map(entries_field.clone(), keys_sorted);
        data_type.validate()?;
        if entries.data_type() != entries_field.data_type() {
            return Err(Error::oos(format!(
                "map entries are declared {} but the array is {}",
                entries_field.data_type(),
                entries.data_type()
            )));
        }
        check_offsets_in_values(&offsets, entries.len())?;
        check_validity(validity.as_ref(), offsets.len())?;
        let a = MapArray {
            data_type,
            offsets,
            entries: Arc::new(entries),
            validity,
        };
        a.check_content()?;
        Ok(a)
    }

    /// Checks that no referenced key is null (full validation).
    pub(crate) fn check_content(&self) -> Result<()> {
        let keys = self.keys();
        if keys.null_count() == 0 {
            return Ok(());
        }
        let (start, end) = (self.offsets.first() as usize, self.offsets.last() as usize);
        for i in start..end {
            if keys.is_null(i) {
                return Err(Error::oos(format!("map key {i} is null")));
            }
        }
        Ok(())
    }

    validity_accessors!();

    /// Number of maps.
    #[inline]
    pub fn len(&self) -> usize {
        self.offsets.len()
    }
    /// The entries field.
    pub fn entries_field(&self) -> &FieldRef {
        match &self.data_type {
            DataType::Map(f, _) => f,
            _ => unreachable!("map arrays always carry a map type"),
        }
    }
    /// Whether keys are sorted within each map.
    pub fn keys_sorted(&self) -> bool {
        matches!(self.data_type, DataType::Map(_, true))
    }
    /// The offsets.
    pub fn offsets(&self) -> &OffsetBuffer<i32> {
        &self.offsets
    }
    /// The entries struct.
    pub fn entries(&self) -> &StructArray {
        &self.entries
    }
    /// All keys.
    pub fn keys(&self) -> &Array {
        self.entries.column(0)
    }
    /// All values.
    pub fn values(&self) -> &Array {
        self.entries.column(1)
    }
    /// Map `i` as a slice of the entries, regardless of validity.
    pub fn value(&self, i: usize) -> StructArray {
        let r = self.offsets.range(i);
        self.entries.slice(r.start, r.end - r.start)
    }
    /// Zero-copy slice.
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        assert_slice(offset, len, self.len());
        MapArray {
            data_type: self.data_type.clone(),
            offsets: self.offsets.slice(offset, len),
            entries: self.entries.clone(),
            validity: self.validity.as_ref().map(|v| v.slice(offset, len)),
        }
    }
}
