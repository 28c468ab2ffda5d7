//! Text rendering of values and record batches.
//!
//! - [`format_value`] / [`write_value`]: one slot of any array as text (`null`, `1.5`,
//!   `2020-01-31`, `123.45`, `[1, 2, null]`, `{a: 1, b: "x"}`, …; the full list is on
//!   [`format_value`]).
//! - [`pretty_format_batches`], [`pretty_format_batches_with`] ([`TableOptions`]: width and row
//!   limits), [`TableWriter`] (piece by piece) and [`pretty_format_columns`]: ASCII tables,
//!   measured in terminal cells ([`cell_width`]).
//! - [`format_type`] / [`format_field_type`]: a type as pyarrow spells it
//!   (`timestamp[ms, tz=UTC]`, `list<item: int32>`, `extension<arrow.uuid>`).
//!
//! Dates are computed from days since the epoch with the proleptic Gregorian calendar; no time
//! zone database is used (fixed offsets are applied, named zones are annotated).
//!
//! ```
//! use quiver_arrow::{Array, ListArray, PrimitiveArray, Field, DataType, buffer::OffsetBuffer};
//! use quiver_arrow::display::format_value;
//! let values = Array::from(PrimitiveArray::<i32>::from_options([Some(1), Some(2), None]));
//! let offsets = OffsetBuffer::try_new(vec![0, 3, 3].into()).unwrap();
//! let field = Field::new("item", DataType::Int32, true).into();
//! let list = Array::from(ListArray::try_new(field, offsets, values, None).unwrap());
//! assert_eq!(format_value(&list, 0), "[1, 2, null]");
//! assert_eq!(format_value(&list, 1), "[]");
//! ```

mod number;
mod table;
mod temporal;
#[cfg(test)]
mod tests;
mod types;
mod value;

pub use table::{
    TableOptions, TableWriter, cell_width, pretty_format_batches, pretty_format_batches_with,
    pretty_format_columns,
};
pub use types::{KnownExtension, format_field_type, format_type};
pub(crate) use value::write_nested_value;
pub use value::{format_value, write_field_value, write_value};
