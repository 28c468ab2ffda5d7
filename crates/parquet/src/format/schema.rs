//! `struct SchemaElement`, `struct KeyValue` and `struct SortingColumn`.
//!
//! ```thrift
//! struct SchemaElement {
//!   1: optional Type type;  2: optional i32 type_length;
//!   3: optional FieldRepetitionType repetition_type;  4: required string name;
//!   5: optional i32 num_children;  6: optional ConvertedType converted_type;
//!   7: optional i32 scale  8: optional i32 precision  9: optional i32 field_id;
//!   10: optional LogicalType logicalType  11: optional i32 vector_length;
//! }
//! struct KeyValue { 1: required string key  2: optional string value }
//! struct SortingColumn { 1: required i32 column_idx  2: required bool descending  3: required bool nulls_first }
//! ```

use super::{ConvertedType, FieldRepetitionType, LogicalType, Type};
use crate::thrift::{CompactReader, CompactWriter, ThriftRead, ThriftWrite, ValueType};
use quiver_arrow::{Error, Result};

/// `struct SchemaElement`: one node of the schema tree, listed depth-first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SchemaElement<'a> {
    /// `1: optional Type type` (set on leaves).
    pub type_: Option<Type>,
    /// `2: optional i32 type_length` (the width of FIXED_LEN_BYTE_ARRAY).
    pub type_length: Option<i32>,
    /// `3: optional FieldRepetitionType repetition_type` (absent on the root).
    pub repetition_type: Option<FieldRepetitionType>,
    /// `4: required string name`.
    pub name: &'a str,
    /// `5: optional i32 num_children` (set on groups).
    pub num_children: Option<i32>,
    /// `6: optional ConvertedType converted_type`.
    pub converted_type: Option<ConvertedType>,
    /// `7: optional i32 scale`.
    pub scale: Option<i32>,
    /// `8: optional i32 precision`.
    pub precision: Option<i32>,
    /// `9: optional i32 field_id`.
    pub field_id: Option<i32>,
    /// `10: optional LogicalType logicalType`.
    pub logical_type: Option<LogicalType<'a>>,
    /// `11: optional i32 vector_length`.
    pub vector_length: Option<i32>,
}

impl SchemaElement<'_> {
    /// Whether this element is a leaf (a column): no children, or a physical type with
    /// `num_children` 0 (as some writers put on leaves).
    pub fn is_leaf(&self) -> bool {
        match self.num_children {
            None => true,
            Some(0) => self.type_.is_some(),
            Some(_) => false,
        }
    }
}

impl<'a> ThriftRead<'a> for SchemaElement<'a> {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let mut e = SchemaElement::default();
        let mut name = None;
        r.read_struct("SchemaElement", |r, f| {
            match f.id {
                1 => e.type_ = r.value(f)?,
                2 => e.type_length = r.value(f)?,
                3 => e.repetition_type = r.value(f)?,
                4 => name = r.value(f)?,
                5 => e.num_children = r.value(f)?,
                6 => e.converted_type = r.value(f)?,
                7 => e.scale = r.value(f)?,
                8 => e.precision = r.value(f)?,
                9 => e.field_id = r.value(f)?,
                10 => e.logical_type = r.value(f)?,
                11 => e.vector_length = r.value(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        e.name = name.ok_or_else(|| Error::oos("SchemaElement lacks required field name"))?;
        Ok(e)
    }
}

impl ThriftWrite for SchemaElement<'_> {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field_opt(1, &self.type_);
        w.field_opt(2, &self.type_length);
        w.field_opt(3, &self.repetition_type);
        w.field(4, &self.name);
        w.field_opt(5, &self.num_children);
        w.field_opt(6, &self.converted_type);
        w.field_opt(7, &self.scale);
        w.field_opt(8, &self.precision);
        w.field_opt(9, &self.field_id);
        w.field_opt(10, &self.logical_type);
        w.field_opt(11, &self.vector_length);
        w.struct_end();
    }
}

/// `struct KeyValue`: one entry of key-value metadata. Kept as bytes: writers put arbitrary
/// bytes there, and readers such as pyarrow hand them out as bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KeyValue<'a> {
    /// `1: required string key`.
    pub key: &'a [u8],
    /// `2: optional string value`.
    pub value: Option<&'a [u8]>,
}

impl<'a> ThriftRead<'a> for KeyValue<'a> {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let (mut key, mut value) = (None, None);
        r.read_struct("KeyValue", |r, f| {
            match f.id {
                1 => key = r.value(f)?,
                2 => value = r.value(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        let key = key.ok_or_else(|| Error::oos("KeyValue lacks required field key"))?;
        Ok(KeyValue { key, value })
    }
}

impl ThriftWrite for KeyValue<'_> {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field(1, &self.key);
        w.field_opt(2, &self.value);
        w.struct_end();
    }
}

/// `struct SortingColumn`: the sort order of a row group on one leaf column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SortingColumn {
    /// `1: required i32 column_idx`.
    pub column_idx: i32,
    /// `2: required bool descending`.
    pub descending: bool,
    /// `3: required bool nulls_first`.
    pub nulls_first: bool,
}

impl<'a> ThriftRead<'a> for SortingColumn {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let (mut column_idx, mut descending, mut nulls_first) = (None, None, None);
        r.read_struct("SortingColumn", |r, f| {
            match f.id {
                1 => column_idx = r.value(f)?,
                2 => descending = r.bool_field(f)?,
                3 => nulls_first = r.bool_field(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        match (column_idx, descending, nulls_first) {
            (Some(column_idx), Some(descending), Some(nulls_first)) => Ok(SortingColumn {
                column_idx,
                descending,
                nulls_first,
            }),
            _ => Err(Error::oos(
                "SortingColumn lacks one of column_idx, descending, nulls_first",
            )),
        }
    }
}

impl ThriftWrite for SortingColumn {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field(1, &self.column_idx);
        w.field_bool(2, self.descending);
        w.field_bool(3, self.nulls_first);
        w.struct_end();
    }
}
