//! quiver-arrow: the Apache Arrow columnar memory model.
//!
//! - [`buffer`]: 64-byte aligned allocation ([`buffer::MutableBuffer`]), shared immutable
//!   [`Buffer`]s that can wrap foreign memory zero-copy, [`Bitmap`]s and offsets.
//! - [`DataType`], [`Field`], [`Schema`]: every logical type of the columnar format v1.5.
//! - [`Array`]: one typed array per physical layout, zero-copy slicing, typed access.
//! - [`validate`]: structural and full validation of untrusted arrays.
//! - [`parallel`]: the thread pool that readers and writers split their work on.
//! - [`tz`]: time zones of zoned timestamps (fixed offsets and IANA names).
//!
//! ```
//! use quiver_arrow::{Array, PrimitiveArray, StringArray, RecordBatch, Schema, Field, DataType};
//! let ids = Array::from(PrimitiveArray::<i32>::from_options([Some(1), None, Some(3)]));
//! let names = Array::from(StringArray::from_options([Some("a"), Some("b"), None]));
//! let schema = Schema::new(vec![Field::new("id", DataType::Int32, true), Field::new("name", DataType::Utf8, true)]);
//! let batch = RecordBatch::try_new(schema.into(), vec![ids, names]).unwrap();
//! assert_eq!(batch.num_rows(), 3);
//! ```

pub mod array;
pub mod buffer;
pub mod builder;
pub mod compute;
pub mod datatype;
pub mod display;
mod error;
pub mod native;
pub mod parallel;
mod record_batch;
pub mod tz;
pub mod validate;

pub use array::*;
pub use buffer::{Bitmap, Buffer};
pub use datatype::{
    DataType, Field, FieldRef, Fields, IntegerType, IntervalUnit, Metadata, Schema, SchemaRef,
    TimeUnit, UnionFields, UnionMode,
};
pub use error::{Error, Result};
pub use native::{DaysMs, I128, I256, MonthDayNano, NativeType, View};
pub use record_batch::{RecordBatch, own_null_count};
pub use validate::ValidationLevel;

/// The README's examples, compiled and run as doctests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
