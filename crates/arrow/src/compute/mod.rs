//! Compute kernels over whole arrays.
//!
//! - [`logical_eq`] / [`first_difference`]: logical equality, ignoring physical layout (also
//!   behind `PartialEq for Array`), with a diagnostic of the first difference.
//! - [`concat()`]: concatenation of arrays of one type into a new array.

mod bits;
mod concat;
mod eq;

pub use concat::concat;
pub use eq::{Difference, first_difference, logical_eq};
