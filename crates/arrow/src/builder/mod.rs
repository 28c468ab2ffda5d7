//! Builders for every array layout.
//!
//! Each layout has a typed builder that appends values in amortised O(1) and freezes its
//! buffers in O(1) on `finish` (which also resets the builder, so one builder can produce batch
//! after batch). Validity bitmaps are allocated only when the first null arrives, so arrays
//! without nulls have no bitmap. Every buffer a builder allocates is 64-byte aligned.
//!
//! - Leaves: [`PrimitiveBuilder`], [`BooleanBuilder`], [`GenericBinaryBuilder`],
//!   [`GenericStringBuilder`], [`BinaryViewBuilder`], [`StringViewBuilder`],
//!   [`FixedSizeBinaryBuilder`], [`NullBuilder`].
//! - Nested builders are generic over their child builders (any [`Builder`]):
//!   [`GenericListBuilder`], [`GenericListViewBuilder`], [`FixedSizeListBuilder`],
//!   [`MapBuilder`]; [`StructBuilder`] and [`UnionBuilder`] hold dynamic children.
//! - Encodings: [`DictionaryBuilder`] (deduplicating, any key type) with the typed
//!   [`PrimitiveDictionaryBuilder`] and [`StringDictionaryBuilder`] / [`BinaryDictionaryBuilder`];
//!   [`RunEndBuilder`] (merging equal consecutive values) with the typed
//!   [`PrimitiveRunBuilder`] and [`StringRunBuilder`] / [`BinaryRunBuilder`].
//! - Schema-driven code uses [`make_builder`], which returns an [`ArrayBuilder`] for any
//!   [`DataType`] (nested types included), filled through its typed accessors.
//!
//! # Errors and panics
//! Appends that can overflow an offset or index type have a `try_` form returning
//! [`Error::Overflow`](crate::Error::Overflow); the plain form panics with a message naming the
//! limit. Nested builders can be misused (a struct whose children were appended unevenly, a union
//! slot whose child value was never appended): [`Builder::check_finish`] reports it, `try_finish`
//! returns it as an error and `finish` panics with it.
//!
//! ```
//! use quiver_arrow::builder::{ListBuilder, PrimitiveBuilder};
//! let mut b = ListBuilder::new(PrimitiveBuilder::<i32>::new());
//! b.values().append_slice(&[1, 2, 3]);
//! b.append(true);
//! b.append_null();
//! b.values().append_value(4);
//! b.append(true);
//! let list = b.finish();
//! assert_eq!(list.offsets().as_slice(), &[0, 3, 3, 4]);
//! assert_eq!(list.null_count(), 1);
//! ```

mod binary;
mod boolean;
mod dictionary;
mod dictionary_typed;
mod dynamic;
mod fixed;
mod index_buffer;
mod list;
mod list_view;
mod make;
mod map;
mod null;
mod primitive;
mod run_end;
mod run_end_typed;
mod struct_;
mod union;
mod validity;
mod value_store;
mod var_values;
mod view;

#[cfg(test)]
mod tests;

pub use binary::{
    BinaryBuilder, GenericBinaryBuilder, GenericStringBuilder, LargeBinaryBuilder,
    LargeStringBuilder, StringBuilder,
};
pub use boolean::BooleanBuilder;
pub use dictionary::DictionaryBuilder;
pub use dictionary_typed::{
    BinaryDictionaryBuilder, DictionaryKey, GenericBinaryDictionaryBuilder,
    GenericStringDictionaryBuilder, LargeBinaryDictionaryBuilder, LargeStringDictionaryBuilder,
    PrimitiveDictionaryBuilder, StringDictionaryBuilder,
};
pub use dynamic::{ArrayBuilder, PrimitiveBuilderType};
pub use fixed::FixedSizeBinaryBuilder;
pub use list::{FixedSizeListBuilder, GenericListBuilder, LargeListBuilder, ListBuilder};
pub use list_view::{GenericListViewBuilder, LargeListViewBuilder, ListViewBuilder};
pub use make::make_builder;
pub use map::MapBuilder;
pub use null::NullBuilder;
pub use primitive::PrimitiveBuilder;
pub use run_end::RunEndBuilder;
pub use run_end_typed::{
    BinaryRunBuilder, GenericBinaryRunBuilder, GenericStringRunBuilder, LargeBinaryRunBuilder,
    LargeStringRunBuilder, PrimitiveRunBuilder, RunEndIndex, StringRunBuilder,
};
pub use struct_::StructBuilder;
pub use union::UnionBuilder;
pub use validity::NullBufferBuilder;
pub use view::{BinaryViewBuilder, StringViewBuilder};

use crate::array::Array;
use crate::datatype::DataType;
use crate::error::Result;

/// What every builder can do. Nested builders ([`GenericListBuilder`], [`MapBuilder`], …) are
/// generic over it, so their children can be typed builders or dynamic [`ArrayBuilder`]s.
pub trait Builder {
    /// Number of slots appended so far.
    fn len(&self) -> usize;
    /// True when nothing has been appended.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The logical type of the array [`Builder::finish_array`] returns.
    fn data_type(&self) -> DataType;
    /// Appends a null slot (nested layouts append the child slots their layout needs: a null
    /// in every struct child, `size` nulls in a fixed-size list's child).
    ///
    /// # Panics
    /// When the slot would overflow the builder's offset or run-end type.
    fn append_null(&mut self);
    /// Checks that [`Builder::finish_array`] will succeed: the children of nested builders have
    /// the lengths and types the parent expects. O(number of builders).
    fn check_finish(&self) -> Result<()>;
    /// Builds the array in O(1) per buffer and resets the builder (keeping its type).
    ///
    /// # Panics
    /// When [`Builder::check_finish`] fails.
    fn finish_array(&mut self) -> Array;
    /// [`Builder::check_finish`], then [`Builder::finish_array`]; on error the builder is left
    /// unchanged.
    fn try_finish_array(&mut self) -> Result<Array> {
        self.check_finish()?;
        Ok(self.finish_array())
    }
}

impl<B: Builder + ?Sized> Builder for Box<B> {
    fn len(&self) -> usize {
        (**self).len()
    }
    fn data_type(&self) -> DataType {
        (**self).data_type()
    }
    fn append_null(&mut self) {
        (**self).append_null()
    }
    fn check_finish(&self) -> Result<()> {
        (**self).check_finish()
    }
    fn finish_array(&mut self) -> Array {
        (**self).finish_array()
    }
}

/// Panics with the message of a failed [`Builder::check_finish`] (the `finish` of nested
/// builders documents this panic).
#[track_caller]
fn expect_finish(builder: &'static str, check: Result<()>) {
    if let Err(e) = check {
        panic!("{builder}::finish: {e}");
    }
}
