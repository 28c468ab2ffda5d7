//! Concatenation of arrays of one data type into a new array.

mod encoded;
mod flat;
mod nested;
#[cfg(test)]
mod tests;

use crate::array::Array;
use crate::error::{Error, Result};

/// Concatenates `arrays` (all of the same data type) into one new array with their slots in
/// order.
///
/// Buffers are copied in bulk; offsets are rebased (an error when the result no longer fits
/// 32-bit offsets), view data buffers are shared and the views' buffer indices rewritten,
/// dictionaries sharing one dictionary keep it (otherwise the dictionaries are concatenated and
/// the keys shifted, an error when the key type is too small), run-end encoded arrays get
/// rebased run ends. Sliced inputs contribute only their slots. The result has no validity
/// bitmap when no input has nulls, and passes [`Array::validate`] at the full level when the
/// inputs do.
///
/// Fails when `arrays` is empty or the data types differ (naming both).
///
/// ```
/// use quiver_arrow::{Array, PrimitiveArray, StringArray};
/// use quiver_arrow::compute::concat;
/// let a = Array::from(PrimitiveArray::<i32>::from_options([Some(1), None, Some(3)]));
/// let b = Array::from(PrimitiveArray::<i32>::new(vec![4, 5]));
/// let c = concat(&[&a.slice(1, 2), &b]).unwrap();
/// assert_eq!(c, Array::from(PrimitiveArray::<i32>::from_options([None, Some(3), Some(4), Some(5)])));
/// let s = Array::from(StringArray::from_options([Some("x")]));
/// assert_eq!(
///     concat(&[&a, &s]).unwrap_err().to_string(),
///     "invalid argument: cannot concatenate arrays of different types: Int32 and Utf8"
/// );
/// ```
pub fn concat(arrays: &[&Array]) -> Result<Array> {
    let Some(first) = arrays.first() else {
        return Err(Error::invalid("concat needs at least one array"));
    };
    if let Some(other) = arrays.iter().find(|a| a.data_type() != first.data_type()) {
        return Err(Error::invalid(format!(
            "cannot concatenate arrays of different types: {} and {}",
            first.data_type(),
            other.data_type()
        )));
    }
    // Lengths can be declared without memory behind them (Null arrays, children of Null
    // type), so the total is checked once here rather than trusted by every layout below.
    let len = arrays
        .iter()
        .try_fold(0usize, |acc, a| acc.checked_add(a.len()))
        .ok_or_else(|| Error::Overflow("total length of the arrays to concatenate".into()))?;
    if let Array::Null(_) = first {
        return Ok(Array::Null(crate::array::NullArray::new(len)));
    }
    flat::concat_flat(first, arrays)
}

/// The typed arrays of variant `$variant` inside `$arrays` (all of one data type, hence of one
/// layout; anything else is an error rather than a panic).
macro_rules! typed {
    ($arrays:expr, $variant:ident) => {
        $arrays
            .iter()
            .map(|a| match a {
                $crate::Array::$variant(x) => Ok(x),
                other => Err($crate::Error::invalid(format!(
                    "concat: expected a {} array, found {}",
                    stringify!($variant),
                    other.data_type()
                ))),
            })
            .collect::<$crate::Result<Vec<_>>>()?
    };
}
pub(super) use typed;
