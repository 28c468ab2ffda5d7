//! Record batches: a schema and equal-length columns.

use crate::array::{Array, StructArray};
use crate::datatype::{Schema, SchemaRef};
use crate::error::{Error, Result};
use crate::validate::ValidationLevel;
use std::sync::Arc;

/// Equal-length columns described by a schema.
///
/// ```
/// use quiver_arrow::{Array, PrimitiveArray, RecordBatch, Schema, Field, DataType};
/// let schema = Schema::new(vec![Field::new("x", DataType::Int32, false)]);
/// let x = Array::from(PrimitiveArray::<i32>::new(vec![1, 2, 3]));
/// let b = RecordBatch::try_new(schema.into(), vec![x]).unwrap();
/// assert_eq!(b.slice(1, 2).column(0).len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct RecordBatch {
    schema: SchemaRef,
    columns: Vec<Array>,
    num_rows: usize,
}

impl RecordBatch {
    /// Checks column count, types, lengths, and that non-nullable columns have no nulls in
    /// their validity bitmap (see [`own_null_count`]).
    pub fn try_new(schema: SchemaRef, columns: Vec<Array>) -> Result<Self> {
        let num_rows = columns.first().map_or(0, Array::len);
        Self::try_new_with_rows(schema, columns, num_rows)
    }

    /// Like [`RecordBatch::try_new`] with an explicit row count (needed for zero columns).
    pub fn try_new_with_rows(
        schema: SchemaRef,
        columns: Vec<Array>,
        num_rows: usize,
    ) -> Result<Self> {
        if schema.fields.len() != columns.len() {
            return Err(Error::invalid(format!(
                "schema has {} fields but {} columns were given",
                schema.fields.len(),
                columns.len()
            )));
        }
        for (f, c) in schema.fields.iter().zip(&columns) {
            if f.data_type() != c.data_type() {
                return Err(Error::invalid(format!(
                    "column \"{}\" is declared {} but the array is {}",
                    f.name(),
                    f.data_type(),
                    c.data_type()
                )));
            }
            if c.len() != num_rows {
                return Err(Error::invalid(format!(
                    "column \"{}\" has {} rows, expected {num_rows}",
                    f.name(),
                    c.len()
                )));
            }
            let nulls = own_null_count(c);
            if !f.is_nullable() && nulls > 0 {
                return Err(Error::invalid(format!(
                    "column \"{}\" is declared non-nullable but has {nulls} nulls",
                    f.name()
                )));
            }
        }
        Ok(RecordBatch {
            schema,
            columns,
            num_rows,
        })
    }

    /// The schema.
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }
    /// The columns.
    pub fn columns(&self) -> &[Array] {
        &self.columns
    }
    /// Column `i`.
    pub fn column(&self, i: usize) -> &Array {
        &self.columns[i]
    }
    /// The column named `name`.
    pub fn column_by_name(&self, name: &str) -> Option<&Array> {
        self.schema.fields.index_of(name).map(|i| &self.columns[i])
    }
    /// Number of rows.
    pub fn num_rows(&self) -> usize {
        self.num_rows
    }
    /// Bytes of buffer data the columns refer to ([`Array::buffer_bytes`] summed).
    pub fn buffer_bytes(&self) -> usize {
        self.columns.iter().map(Array::buffer_bytes).sum()
    }
    /// Number of columns.
    pub fn num_columns(&self) -> usize {
        self.columns.len()
    }
    /// Zero-copy slice of rows. Panics when out of bounds.
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        assert!(
            offset.checked_add(len).is_some_and(|e| e <= self.num_rows),
            "slice out of bounds"
        );
        RecordBatch {
            schema: self.schema.clone(),
            columns: self.columns.iter().map(|c| c.slice(offset, len)).collect(),
            num_rows: len,
        }
    }
    /// The batch with only columns `indices`, in that order.
    pub fn project(&self, indices: &[usize]) -> Result<Self> {
        let schema = self.schema.project(indices)?;
        let columns = indices.iter().map(|&i| self.columns[i].clone()).collect();
        Ok(RecordBatch {
            schema: Arc::new(schema),
            columns,
            num_rows: self.num_rows,
        })
    }
    /// Validates every column, naming the column in errors; non-nullable columns must have no
    /// nulls in their validity bitmap (see [`own_null_count`]).
    pub fn validate(&self, level: ValidationLevel) -> Result<()> {
        self.validate_columns(level, false)
    }

    /// Validates like [`RecordBatch::validate`] but takes dictionary values as already
    /// validated (see [`Array::validate_trusting_dictionaries`]).
    pub fn validate_trusting_dictionaries(&self, level: ValidationLevel) -> Result<()> {
        self.validate_columns(level, true)
    }

    fn validate_columns(&self, level: ValidationLevel, trust_dictionaries: bool) -> Result<()> {
        for (f, c) in self.schema.fields.iter().zip(&self.columns) {
            let ctx = || format!("column \"{}\"", f.name());
            let checked = if trust_dictionaries {
                c.validate_trusting_dictionaries(level)
            } else {
                c.validate(level)
            };
            checked.map_err(|e| e.context(ctx()))?;
            let nulls = own_null_count(c);
            if !f.is_nullable() && nulls > 0 {
                return Err(
                    Error::oos(format!("non-nullable column has {nulls} nulls")).context(ctx())
                );
            }
        }
        Ok(())
    }
    /// The batch as one struct array (columns become children).
    pub fn into_struct(self) -> StructArray {
        StructArray::try_new(
            self.schema.fields.clone(),
            self.num_rows,
            self.columns,
            None,
        )
        .expect("a record batch is a valid struct") // ok: a record batch is a valid struct.
    }
    /// A batch from a struct array's children (its validity is dropped).
    pub fn from_struct(s: &StructArray) -> Self {
        RecordBatch {
            schema: Arc::new(Schema::new(s.fields().clone())),
            columns: s.columns().to_vec(),
            num_rows: s.len(),
        }
    }
}

/// The nulls a column declares itself, in its validity bitmap (O(1), cached). Layouts without
/// a bitmap (unions, run-end encoded, Null) report 0: their nulls live in their children (or
/// are the type itself), and the spec gives them no null count of their own. This matches what
/// other implementations accept: generators mark union fields non-nullable while their children
/// hold nulls.
pub fn own_null_count(c: &Array) -> usize {
    match c {
        Array::Union(_) | Array::RunEndEncoded(_) | Array::Null(_) => 0,
        _ => c.validity().map_or(0, |v| v.unset_bits()),
    }
}

impl crate::validate::Validate for RecordBatch {
    fn validate_at(&self, level: ValidationLevel, trust_dictionaries: bool) -> Result<()> {
        if trust_dictionaries {
            self.validate_trusting_dictionaries(level)
        } else {
            self.validate(level)
        }
    }
}
