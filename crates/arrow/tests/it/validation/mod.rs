//! One test per validation rule of the columnar format.
//!
//! Each test builds a valid array first (and checks that full validation accepts it), then
//! corrupts one thing through raw buffers or an unchecked constructor, and checks that
//! - the safe `try_new` rejects the corruption (where the rule is one `try_new` checks), and
//! - `validate` rejects it at the level the rule belongs to (`Structural` for O(1) rules,
//!   `Full` for content rules, which `Structural` must then still accept),
//!
//! with a message naming the index, child or column involved.
//!
//! Some rules are type invariants that no constructor can break (e.g. [`OffsetBuffer`] is
//! monotone by construction and its unchecked constructor asserts it in debug builds); for those
//! the test exercises the constructor and the checking function that full validation calls.
//! The UTF-8 rules are also preconditions of `unsafe` unchecked constructors: those tests break
//! the precondition on purpose, as a reader deferring the check would, and only ever pass the
//! array to validation (never to the accessors that rely on it).

use bytes::Bytes;
use quiver_arrow::buffer::{Offset, OffsetBuffer, check_offsets};
use quiver_arrow::datatype::{FieldRef, TimeUnit};
use quiver_arrow::*;
use std::sync::Arc;

// ---------------------------------------------------------------------------------------------
// Helpers

/// A bitmap from 0/1 digits, slot 0 first.
fn bits(slots: &[u8]) -> Bitmap {
    slots.iter().map(|&b| b == 1).collect()
}

fn field(name: &str, data_type: DataType, nullable: bool) -> FieldRef {
    Arc::new(Field::new(name, data_type, nullable))
}

fn item(data_type: DataType) -> FieldRef {
    field("item", data_type, true)
}

fn offsets<O: Offset>(v: &[usize]) -> OffsetBuffer<O> {
    let v: Vec<O> = v.iter().map(|&o| O::from_usize(o).unwrap()).collect();
    OffsetBuffer::try_new(v.into()).unwrap()
}

fn int8s(v: &[i8]) -> Array {
    Array::from(PrimitiveArray::<i8>::new(v.to_vec()))
}

/// Both levels accept `a`.
#[track_caller]
fn assert_valid(a: &Array) {
    for level in [ValidationLevel::Structural, ValidationLevel::Full] {
        if let Err(e) = a.validate(level) {
            panic!("{level:?} validation rejected a valid array: {e}");
        }
    }
}

/// `Structural` accepts `a` (the corruption is a content rule) and `Full` rejects it; returns
/// the message.
#[track_caller]
fn full_only_err(a: &Array) -> String {
    if let Err(e) = a.validate(ValidationLevel::Structural) {
        panic!("structural validation rejected a content-only corruption: {e}");
    }
    a.validate(ValidationLevel::Full)
        .expect_err("full validation accepted a corrupt array")
        .to_string()
}

/// `msg` contains every one of `needles`.
#[track_caller]
fn assert_mentions(msg: &str, needles: &[&str]) {
    for n in needles {
        assert!(msg.contains(n), "error {msg:?} does not mention {n:?}");
    }
}

#[track_caller]
fn err_text<T: std::fmt::Debug>(r: Result<T>) -> String {
    r.expect_err("constructor accepted invalid input")
        .to_string()
}

mod bitmaps;
mod dictionaries;
mod fixed_and_struct;
mod list_views;
mod maps;
mod offsets;
mod paths_and_batches;
mod run_ends;
mod types;
mod unions;
mod utf8;
mod views;

// Helpers shared between sections.
use fixed_and_struct::{ages, names};
use run_ends::{run_ends_of, run_values};
