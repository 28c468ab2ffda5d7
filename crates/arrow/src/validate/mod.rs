//! Validation of arrays that may come from untrusted input.
//!
//! Two levels, never mixed with parsing:
//! - [`ValidationLevel::Structural`]: O(1) per array node: type parameters, buffer and child
//!   lengths, validity lengths, last offsets against value lengths, child types.
//! - [`ValidationLevel::Full`]: adds the O(n) content checks: offsets monotone, UTF-8 on
//!   character boundaries, views in bounds with consistent prefixes, list views in bounds,
//!   dictionary keys in range, union type ids declared and dense offsets in bounds, run ends
//!   positive and strictly increasing, map keys non-null, and declared null counts equal to the
//!   bitmaps' counts.
//!
//! Safe constructors (`try_new`) already establish these invariants for the array they build;
//! `validate` re-checks a whole tree, which matters for arrays assembled with the unchecked
//! constructors readers use.
//!
//! # Invariants `unsafe` code relies on
//! - `GenericStringArray::value`: every non-null value is UTF-8 (`check_utf8`); null slots
//!   are never handed to `from_utf8_unchecked`.
//! - `StringViewArray::value`: every non-null view is in bounds and UTF-8 (`check_views`).
//! - `Buffer::as_slice`: the bytes are aligned for `T` and hold whole values (checked in
//!   `Buffer::from_bytes`; not input-dependent afterwards).
//!
//! Errors name the path to the failing array (`column "a", child 0 ("item")`) and the index.

mod unvalidated;

pub use unvalidated::{Unvalidated, Validate};

use crate::array::*;
use crate::buffer::{Bitmap, Offset, OffsetBuffer, check_offsets};
use crate::datatype::DataType;
use crate::error::{Error, Result};

/// How much to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ValidationLevel {
    /// Buffer sizes, counts and types: O(number of array nodes).
    Structural,
    /// Everything, including the values of offsets, strings, views, keys, ids and run ends.
    Full,
}

impl Array {
    /// Validates this array and all its children.
    ///
    /// ```
    /// use quiver_arrow::{Array, StringArray, ValidationLevel};
    /// let a = Array::from(StringArray::from_options([Some("ok"), None]));
    /// a.validate(ValidationLevel::Full).unwrap();
    /// ```
    pub fn validate(&self, level: ValidationLevel) -> Result<()> {
        self.validate_tree(level, false)
    }

    /// Validates like [`Array::validate`], except that the values of dictionaries are taken
    /// as already validated (the keys are still checked against their length). For readers
    /// that validate each dictionary once when it is read, instead of with every batch that
    /// uses it.
    ///
    /// ```
    /// use quiver_arrow::{Array, DictionaryArray, PrimitiveArray, StringArray, ValidationLevel};
    /// let values = Array::from(StringArray::from_options([Some("a"), Some("b")]));
    /// let keys = Array::from(PrimitiveArray::<i8>::new(vec![1, 0, 1]));
    /// let dict = Array::from(DictionaryArray::try_new(keys, values, false).unwrap());
    /// dict.validate_trusting_dictionaries(ValidationLevel::Full).unwrap();
    /// ```
    pub fn validate_trusting_dictionaries(&self, level: ValidationLevel) -> Result<()> {
        self.validate_tree(level, true)
    }

    fn validate_tree(&self, level: ValidationLevel, trust_dictionaries: bool) -> Result<()> {
        self.data_type().validate()?;
        self.validate_node(level)?;
        self.validate_children(level, trust_dictionaries)
    }

    fn validate_node(&self, level: ValidationLevel) -> Result<()> {
        let full = level == ValidationLevel::Full;
        if full {
            if let Some(v) = self.validity() {
                check_null_count(v)?;
            }
        }
        match self {
            Array::Binary(a) => check_var(a.offsets(), a.values().len(), full),
            Array::LargeBinary(a) => check_var(a.offsets(), a.values().len(), full),
            Array::Utf8(a) => {
                check_var(a.offsets(), a.values().len(), full)?;
                if full { a.check_content() } else { Ok(()) }
            }
            Array::LargeUtf8(a) => {
                check_var(a.offsets(), a.values().len(), full)?;
                if full { a.check_content() } else { Ok(()) }
            }
            Array::BinaryView(a) if full => {
                check_views(a.views(), a.data_buffers(), a.validity(), false)
            }
            Array::Utf8View(a) if full => a.check_content(),
            Array::List(a) => check_var(a.offsets(), a.values().len(), full),
            Array::LargeList(a) => check_var(a.offsets(), a.values().len(), full),
            Array::ListView(a) if full => {
                check_list_views(a.offsets(), a.sizes(), a.values().len())
            }
            Array::LargeListView(a) if full => {
                check_list_views(a.offsets(), a.sizes(), a.values().len())
            }
            Array::Map(a) => {
                check_var(a.offsets(), a.entries().len(), full)?;
                if full { a.check_content() } else { Ok(()) }
            }
            Array::Union(a) if full => a.check_content(),
            Array::Dictionary(a) if full => a.check_content(),
            Array::RunEndEncoded(a) if full => a.check_content(),
            _ => Ok(()),
        }
    }

    fn validate_children(&self, level: ValidationLevel, trust_dictionaries: bool) -> Result<()> {
        let named = |i: usize, name: &str, child: &Array| {
            child
                .validate_tree(level, trust_dictionaries)
                .map_err(|e| e.context(format!("child {i} (\"{name}\")")))
        };
        match self {
            Array::List(a) => named(0, a.field().name(), a.values()),
            Array::LargeList(a) => named(0, a.field().name(), a.values()),
            Array::ListView(a) => named(0, a.field().name(), a.values()),
            Array::LargeListView(a) => named(0, a.field().name(), a.values()),
            Array::FixedSizeList(a) => named(0, a.field().name(), a.values()),
            Array::Map(a) => named(
                0,
                a.entries_field().name(),
                &Array::Struct(a.entries().clone()),
            ),
            Array::Struct(a) => a
                .fields()
                .iter()
                .zip(a.columns())
                .enumerate()
                .try_for_each(|(i, (f, c))| named(i, f.name(), c)),
            Array::Union(a) => a
                .fields()
                .fields()
                .iter()
                .zip(a.children())
                .enumerate()
                .try_for_each(|(i, (f, c))| named(i, f.name(), c)),
            Array::Dictionary(a) => {
                a.keys()
                    .validate_tree(level, trust_dictionaries)
                    .map_err(|e| e.context("dictionary keys"))?;
                if trust_dictionaries {
                    return Ok(());
                }
                a.values()
                    .validate_tree(level, trust_dictionaries)
                    .map_err(|e| e.context("dictionary values"))
            }
            Array::RunEndEncoded(a) => {
                a.run_ends()
                    .validate_tree(level, trust_dictionaries)
                    .map_err(|e| e.context("run ends"))?;
                a.values()
                    .validate_tree(level, trust_dictionaries)
                    .map_err(|e| e.context("run values"))
            }
            _ => Ok(()),
        }
    }
}

/// Offsets of a variable-size layout: structurally the last offset lies within the values;
/// fully, the offsets are also monotone (they are by type invariant unless built unchecked).
fn check_var<O: Offset>(offsets: &OffsetBuffer<O>, values_len: usize, full: bool) -> Result<()> {
    if full {
        check_offsets(offsets.as_slice())?;
    }
    check_offsets_in_values(offsets, values_len)
}

/// A declared null count (e.g. read from a file) must match the bitmap.
fn check_null_count(v: &Bitmap) -> Result<()> {
    let declared = v.unset_bits();
    let counted = v.count_unset();
    if declared != counted {
        return Err(Error::oos(format!(
            "declared null count {declared} but the validity bitmap has {counted} nulls"
        )));
    }
    Ok(())
}

impl DataType {
    /// True when arrays of this type have a validity bitmap in the physical layout (see
    /// [`DataType::layout`]).
    pub fn has_validity_bitmap(&self) -> bool {
        self.layout().has_validity()
    }
}
