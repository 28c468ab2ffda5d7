//! Run-end encoded builder with a run-end type chosen at run time.

use super::index_buffer::IndexBuffer;
use super::value_store::ValueStore;
use super::{ArrayBuilder, Builder};
use crate::array::{Array, PrimitiveType, RunEndArray};
use crate::datatype::{DataType, Field, FieldRef, IntegerType};
use crate::error::{Error, Result};
use std::sync::Arc;

/// Builds a [`RunEndArray`], merging equal consecutive values into one run.
///
/// Values of byte-addressable types (primitives, booleans, fixed-size binary, binary and
/// strings in every layout) are compared with the previous run's value (floats bitwise);
/// consecutive nulls form one run. The logical length must fit the run-end type (Int16, Int32
/// or Int64): an append that would pass it is an [`Error::Overflow`] and changes nothing.
///
/// For other value types (nested, Null) runs are not merged: append the value to
/// [`RunEndBuilder::values_builder`], then [`RunEndBuilder::append_run`] with its length.
///
/// ```
/// use quiver_arrow::builder::RunEndBuilder;
/// use quiver_arrow::{DataType, IntegerType};
/// let mut b = RunEndBuilder::try_new(IntegerType::Int32, DataType::Utf8).unwrap();
/// for v in [Some("a"), Some("a"), None, None, Some("b")] {
///     match v {
///         Some(s) => b.append_str(s).unwrap(),
///         None => b.append_null().unwrap(),
///     }
/// }
/// let a = b.finish();
/// assert_eq!(a.len(), 5);
/// assert_eq!(a.values().len(), 3);
/// ```
#[derive(Clone, Debug)]
pub struct RunEndBuilder {
    run_ends: IndexBuffer,
    values: ValueStore,
    /// Logical length (the last run end).
    len: usize,
    /// Child fields to declare instead of the default `run_ends` / `values`.
    fields: Option<(FieldRef, FieldRef)>,
}

impl RunEndBuilder {
    /// An empty builder of runs ending at `run_ends` integers (Int16, Int32 or Int64) over
    /// values of `value_type`.
    pub fn try_new(run_ends: IntegerType, value_type: DataType) -> Result<Self> {
        if !matches!(
            run_ends,
            IntegerType::Int16 | IntegerType::Int32 | IntegerType::Int64
        ) {
            return Err(Error::invalid(format!(
                "run ends must be Int16, Int32 or Int64, not {run_ends:?}"
            )));
        }
        Ok(RunEndBuilder {
            run_ends: IndexBuffer::new(run_ends, 0),
            values: ValueStore::try_new(&value_type, 0)?,
            len: 0,
            fields: None,
        })
    }

    /// Declares other child fields (names, nullability, metadata) for the arrays built, e.g.
    /// the ones a schema gives. Their types must be this builder's run-end and value types.
    pub fn with_fields(mut self, run_ends: FieldRef, values: FieldRef) -> Result<Self> {
        if run_ends.data_type() != &self.run_end_type().data_type()
            || values.data_type() != &self.value_type()
        {
            return Err(Error::invalid(format!(
                "fields {run_ends} and {values} do not match run ends {} and values {}",
                self.run_end_type().data_type(),
                self.value_type()
            )));
        }
        DataType::RunEndEncoded(run_ends.clone(), values.clone()).validate()?;
        self.fields = Some((run_ends, values));
        Ok(self)
    }

    /// The run-end type.
    pub fn run_end_type(&self) -> IntegerType {
        self.run_ends.integer_type()
    }

    /// The value type.
    pub fn value_type(&self) -> DataType {
        self.values.data_type()
    }

    /// The type of the arrays this builder makes (children named `run_ends` and `values`
    /// unless [`RunEndBuilder::with_fields`] said otherwise).
    pub fn data_type(&self) -> DataType {
        if let Some((r, v)) = &self.fields {
            return DataType::RunEndEncoded(r.clone(), v.clone());
        }
        DataType::RunEndEncoded(
            Arc::new(Field::new(
                "run_ends",
                self.run_end_type().data_type(),
                false,
            )),
            Arc::new(Field::new("values", self.value_type(), true)),
        )
    }

    /// Logical number of slots appended.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no slot has been appended.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of runs.
    pub fn runs(&self) -> usize {
        self.run_ends.len()
    }

    /// The length after `n` more slots, or [`Error::Overflow`].
    fn grown(&self, n: usize) -> Result<u64> {
        let len = self
            .len
            .checked_add(n)
            .ok_or_else(|| Error::overflow("run-end encoded length overflows usize".to_string()))?;
        self.run_ends.check(len, "run-end encoded length")
    }

    /// Appends `n` slots of `value` (`None` for null, otherwise its byte form, already checked
    /// against the value kind), extending the last run when it holds the same value.
    pub(crate) fn append_checked(&mut self, value: Option<&[u8]>, n: usize) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        let end = self.grown(n)?;
        let runs = self.values.len();
        let same = self.values.is_addressable()
            && runs > 0
            && match value {
                None => self.values.is_null(runs - 1),
                Some(v) => !self.values.is_null(runs - 1) && self.values.value(runs - 1) == v,
            };
        if same {
            self.run_ends.set_last(end);
        } else {
            match value {
                Some(v) => self.values.push(v)?,
                None => self.values.push_null(),
            }
            self.run_ends.push(end);
        }
        self.len = end as usize;
        Ok(())
    }

    /// Appends a null slot (extending a run of nulls).
    pub fn append_null(&mut self) -> Result<()> {
        self.append_checked(None, 1)
    }

    /// Appends `n` null slots.
    pub fn append_nulls(&mut self, n: usize) -> Result<()> {
        self.append_checked(None, n)
    }

    /// Appends a string value (Utf8, LargeUtf8, Utf8View and the binary types).
    pub fn append_str(&mut self, value: &str) -> Result<()> {
        self.values.check_str()?;
        self.append_checked(Some(value.as_bytes()), 1)
    }

    /// Appends a binary value (binary types, fixed-size binary of the right width, string
    /// types when the bytes are UTF-8).
    pub fn append_bytes(&mut self, value: &[u8]) -> Result<()> {
        self.values.check_bytes(value)?;
        self.append_checked(Some(value), 1)
    }

    /// Appends a primitive value (the value type must be stored as `T`).
    pub fn append_primitive<T: PrimitiveType>(&mut self, value: T) -> Result<()> {
        self.values.check_primitive::<T>()?;
        self.append_checked(Some(bytemuck::bytes_of(&value)), 1)
    }

    /// Appends a boolean value.
    pub fn append_bool(&mut self, value: bool) -> Result<()> {
        self.values.check_bool()?;
        self.append_checked(Some(&[value as u8]), 1)
    }

    /// Extends the last run by `n` slots (an error when there is none).
    pub fn repeat_last(&mut self, n: usize) -> Result<()> {
        if self.runs() == 0 {
            return Err(Error::invalid("no run to repeat"));
        }
        let end = self.grown(n)?;
        self.run_ends.set_last(end);
        self.len = end as usize;
        Ok(())
    }

    /// The values builder of a value type without merging (nested types, Null); `None` for
    /// the others.
    pub fn values_builder(&mut self) -> Option<&mut ArrayBuilder> {
        self.values.other_mut()
    }

    /// Closes a run of `n` slots (at least one) over the value just appended to
    /// [`RunEndBuilder::values_builder`].
    pub fn append_run(&mut self, n: usize) -> Result<()> {
        if self.values.is_addressable() {
            return Err(Error::invalid(format!(
                "append {} values with the typed appends",
                self.value_type()
            )));
        }
        if n == 0 || self.values.len() != self.runs() + 1 {
            return Err(Error::invalid(format!(
                "a run needs at least one slot and exactly one new value ({} values for {} runs)",
                self.values.len(),
                self.runs()
            )));
        }
        let end = self.grown(n)?;
        self.run_ends.push(end);
        self.len = end as usize;
        Ok(())
    }

    /// Builds the array (run ends and values frozen in O(1)) and resets the builder.
    ///
    /// # Panics
    /// When [`Builder::check_finish`] fails (only possible through
    /// [`RunEndBuilder::values_builder`]).
    pub fn finish(&mut self) -> RunEndArray {
        super::expect_finish("RunEndBuilder", Builder::check_finish(self));
        let run_ends = self.run_ends.finish(None);
        let values = self.values.finish();
        let len = std::mem::take(&mut self.len);
        // Run ends were pushed strictly increasing from positive lengths, so the O(runs)
        // check of `try_new` is skipped.
        let a = RunEndArray::try_new_deferred(run_ends, values, 0, len)
            .expect("one value per run, run ends of an integer type"); // ok: one value per run, run ends of an integer type.
        match &self.fields {
            Some((r, v)) => a
                .with_fields(r.clone(), v.clone())
                .expect("fields checked by with_fields"), // ok: fields checked by with_fields.
            None => a,
        }
    }
}

impl Builder for RunEndBuilder {
    fn len(&self) -> usize {
        self.len
    }
    fn data_type(&self) -> DataType {
        self.data_type()
    }
    /// Appends a null slot.
    ///
    /// # Panics
    /// When the length would pass the run-end type.
    fn append_null(&mut self) {
        if let Err(e) = self.append_null() {
            panic!("{e}");
        }
    }
    fn check_finish(&self) -> Result<()> {
        self.values.check_finish()?;
        if self.values.len() != self.runs() {
            return Err(Error::invalid(format!(
                "{} run values for {} runs",
                self.values.len(),
                self.runs()
            )));
        }
        Ok(())
    }
    fn finish_array(&mut self) -> Array {
        Array::from(self.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::tests::{assert_aligned, assert_valid};

    #[test]
    fn merges_values_and_nulls() {
        // [1, 1, null, null, 2] → run ends [2, 4, 5], values [1, null, 2].
        let mut b = RunEndBuilder::try_new(IntegerType::Int32, DataType::Int64).unwrap();
        for v in [Some(1i64), Some(1), None, None, Some(2)] {
            match v {
                Some(v) => b.append_primitive(v).unwrap(),
                None => b.append_null().unwrap(),
            }
        }
        let a = b.finish();
        let ends = a.run_ends().as_primitive::<i32>().unwrap();
        assert_eq!(ends.values().as_slice(), &[2, 4, 5]);
        let values = a.values().as_primitive::<i64>().unwrap();
        assert_eq!(values.values().as_slice(), &[1, 0, 2]);
        assert_eq!(&values.validity().unwrap().bytes()[..], &[0b101]);
        assert_aligned(ends.values().bytes());
        assert_eq!(a.null_count(), 2);
        assert_valid(&Array::from(a));
        assert!(b.is_empty());
    }

    #[test]
    fn run_end_overflow() {
        let mut b = RunEndBuilder::try_new(IntegerType::Int16, DataType::Boolean).unwrap();
        b.append_bool(true).unwrap();
        b.repeat_last(32766).unwrap();
        assert_eq!(b.len(), 32767);
        let err = b.append_bool(true).unwrap_err();
        assert!(matches!(err, Error::Overflow { .. }), "{err}");
        assert!(b.append_null().is_err());
        assert_eq!(
            (b.len(), b.runs()),
            (32767, 1),
            "a failed append changes nothing"
        );
        let a = b.finish();
        assert_eq!(
            a.run_ends()
                .as_primitive::<i16>()
                .unwrap()
                .values()
                .as_slice(),
            &[32767]
        );
        assert_valid(&Array::from(a));
        assert!(RunEndBuilder::try_new(IntegerType::UInt32, DataType::Int8).is_err());
    }

    #[test]
    fn data_type_matches_array() {
        let mut b = RunEndBuilder::try_new(IntegerType::Int64, DataType::Utf8View).unwrap();
        b.append_str("a long value that is not inlined").unwrap();
        b.append_str("a long value that is not inlined").unwrap();
        b.append_bytes(b"short").unwrap();
        assert!(b.append_bytes(&[0xc3]).is_err());
        let dt = b.data_type();
        let a = b.finish();
        assert_eq!(a.data_type(), &dt);
        assert_eq!(
            a.run_ends()
                .as_primitive::<i64>()
                .unwrap()
                .values()
                .as_slice(),
            &[2, 3]
        );
        let values = a.values().as_utf8_view().unwrap();
        assert_eq!(values.get(0), Some("a long value that is not inlined"));
        assert_valid(&Array::from(a));
    }

    #[test]
    fn nested_values_by_hand() {
        let st = DataType::Struct(vec![Field::new("x", DataType::Int8, true)].into());
        let mut b = RunEndBuilder::try_new(IntegerType::Int32, st).unwrap();
        assert!(b.append_run(1).is_err(), "no value appended yet");
        let s = b.values_builder().unwrap().as_struct_mut().unwrap();
        s.field_builder(0)
            .as_primitive_mut::<i8>()
            .unwrap()
            .append_value(3);
        s.append(true);
        b.append_run(4).unwrap();
        b.append_null().unwrap();
        let a = b.finish();
        assert_eq!(a.len(), 5);
        assert_eq!(
            a.run_ends()
                .as_primitive::<i32>()
                .unwrap()
                .values()
                .as_slice(),
            &[4, 5]
        );
        assert_eq!(a.values().null_count(), 1);
        assert_valid(&Array::from(a));
    }
}
