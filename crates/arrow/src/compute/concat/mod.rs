//! Concatenation of arrays of one data type into a new array.
//!
//! [`concat`] checks its inputs and dispatches on the layout in one exhaustive `match` (a new
//! [`Array`] variant fails to compile here). The per-layout functions live in `flat`, `nested`
//! and `encoded`, which do not import each other: they recurse into children through
//! [`concat`] and [`concat_slices`], and rebase offsets with [`crate::compute::rebase`].

mod encoded;
pub use encoded::concat_dictionaries;
mod flat;
mod nested;
#[cfg(test)]
mod tests;

use crate::array::{Array, NullArray};
use crate::error::{Error, Result};
use std::ops::Range;

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
        .ok_or_else(|| Error::overflow("total length of the arrays to concatenate"))?;
    concat_layout(first, arrays, len)
}

/// Concatenates `arrays` (of `len` slots in all), all of the layout of `first`.
fn concat_layout(first: &Array, arrays: &[&Array], len: usize) -> Result<Array> {
    Ok(match first {
        Array::Null(_) => Array::Null(NullArray::new(len)),
        Array::Boolean(_) => Array::from(flat::boolean(&typed!(arrays, Boolean))?),
        Array::I8(_) => Array::from(flat::primitive(&typed!(arrays, I8))?),
        Array::I16(_) => Array::from(flat::primitive(&typed!(arrays, I16))?),
        Array::I32(_) => Array::from(flat::primitive(&typed!(arrays, I32))?),
        Array::I64(_) => Array::from(flat::primitive(&typed!(arrays, I64))?),
        Array::U8(_) => Array::from(flat::primitive(&typed!(arrays, U8))?),
        Array::U16(_) => Array::from(flat::primitive(&typed!(arrays, U16))?),
        Array::U32(_) => Array::from(flat::primitive(&typed!(arrays, U32))?),
        Array::U64(_) => Array::from(flat::primitive(&typed!(arrays, U64))?),
        Array::F16(_) => Array::from(flat::primitive(&typed!(arrays, F16))?),
        Array::F32(_) => Array::from(flat::primitive(&typed!(arrays, F32))?),
        Array::F64(_) => Array::from(flat::primitive(&typed!(arrays, F64))?),
        Array::I128(_) => Array::from(flat::primitive(&typed!(arrays, I128))?),
        Array::I256(_) => Array::from(flat::primitive(&typed!(arrays, I256))?),
        Array::DaysMs(_) => Array::from(flat::primitive(&typed!(arrays, DaysMs))?),
        Array::MonthDayNano(_) => Array::from(flat::primitive(&typed!(arrays, MonthDayNano))?),
        Array::Binary(_) => Array::from(flat::binary(&typed!(arrays, Binary))?),
        Array::LargeBinary(_) => Array::from(flat::binary(&typed!(arrays, LargeBinary))?),
        Array::Utf8(_) => Array::from(flat::string(&typed!(arrays, Utf8))?),
        Array::LargeUtf8(_) => Array::from(flat::string(&typed!(arrays, LargeUtf8))?),
        Array::BinaryView(_) => Array::from(flat::binary_view(&typed!(arrays, BinaryView))?),
        Array::Utf8View(_) => Array::from(flat::string_view(&typed!(arrays, Utf8View))?),
        Array::FixedSizeBinary(_) => {
            Array::from(flat::fixed_binary(&typed!(arrays, FixedSizeBinary))?)
        }
        Array::List(_) => Array::from(nested::list(&typed!(arrays, List))?),
        Array::LargeList(_) => Array::from(nested::list(&typed!(arrays, LargeList))?),
        Array::ListView(_) => Array::from(nested::list_view(&typed!(arrays, ListView))?),
        Array::LargeListView(_) => Array::from(nested::list_view(&typed!(arrays, LargeListView))?),
        Array::FixedSizeList(_) => Array::from(nested::fixed_list(&typed!(arrays, FixedSizeList))?),
        Array::Struct(_) => Array::from(nested::struct_(&typed!(arrays, Struct))?),
        Array::Map(_) => Array::from(nested::map(&typed!(arrays, Map))?),
        Array::Union(_) => Array::from(encoded::union(&typed!(arrays, Union))?),
        Array::Dictionary(_) => Array::from(encoded::dictionary(&typed!(arrays, Dictionary))?),
        Array::RunEndEncoded(_) => Array::from(encoded::run_end(&typed!(arrays, RunEndEncoded))?),
    })
}

/// Concatenates the slices `ranges[i]` of `children[i]` (children of the arrays being
/// concatenated, cut to what those arrays reference).
pub(super) fn concat_slices(children: &[&Array], ranges: &[Range<usize>]) -> Result<Array> {
    let slices: Vec<Array> = children
        .iter()
        .zip(ranges)
        .map(|(c, r)| c.slice(r.start, r.len()))
        .collect();
    concat(&slices.iter().collect::<Vec<_>>())
}
