//! Compute kernels over whole arrays.
//!
//! - [`logical_eq`] / [`first_difference`]: logical equality, ignoring physical layout (also
//!   behind `PartialEq for Array`), with a diagnostic of the first difference.
//! - [`concat()`]: concatenation of arrays of one type into a new array.
//! - [`rebase`]: offsets and run ends of (sliced) arrays recomputed for their referenced data
//!   laid end to end from 0, shared by `concat` and the IPC writer.
//! - [`sort_to_indices`]: the stable permutation that sorts rows by key columns;
//!   [`take()`]: the rows at given indices (together: sorting a batch).

mod bits;
mod concat;
mod eq;
pub mod rebase;
mod sort;
mod take;

pub use concat::{concat, concat_dictionaries};
pub use eq::{Difference, first_difference, logical_eq};
pub use sort::{SortOptions, sort_to_indices};
pub use take::take;
