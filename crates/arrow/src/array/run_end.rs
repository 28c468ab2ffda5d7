//! Run-end encoded arrays.

use super::Array;
use super::assert_slice;
use crate::datatype::{DataType, Field, FieldRef};
use crate::error::{Error, Result};
use std::sync::Arc;

/// Runs of equal values: `run_ends[j]` is the logical end (exclusive) of run `j`, whose value is
/// `values[j]`. A slice keeps the children and records a logical offset and length.
///
/// ```
/// use quiver_arrow::{Array, RunEndArray, PrimitiveArray};
/// let run_ends = Array::from(PrimitiveArray::<i32>::new(vec![4, 6, 7]));
/// let values = Array::from(PrimitiveArray::<f32>::from_options([Some(1.0), None, Some(2.0)]));
/// let a = RunEndArray::try_new(run_ends, values).unwrap();
/// assert_eq!(a.len(), 7);
/// assert_eq!(a.physical_index(5), 1);
/// assert_eq!(a.slice(5, 2).physical_index(1), 2);
/// ```
#[derive(Clone, Debug)]
pub struct RunEndArray {
    data_type: DataType,
    run_ends: Box<Array>,
    values: Arc<Array>,
    offset: usize,
    len: usize,
}

/// Calls `$body` with `$r` bound to the run ends as a slice of their native type.
macro_rules! with_run_ends {
    ($run_ends:expr, $r:ident => $body:expr) => {
        match $run_ends {
            Array::I16(p) => {
                let $r = p.values().as_slice();
                $body
            }
            Array::I32(p) => {
                let $r = p.values().as_slice();
                $body
            }
            Array::I64(p) => {
                let $r = p.values().as_slice();
                $body
            }
            _ => unreachable!("run ends are Int16/32/64 (checked at construction)"),
        }
    };
}

// The run-end macros are generic over i16/i32/i64; the `as i64` casts are no-ops for i64 only.
#[allow(clippy::unnecessary_cast)]
impl RunEndArray {
    /// Builds an array whose length is the last run end; checks run ends are positive and
    /// strictly increasing (O(runs)).
    pub fn try_new(run_ends: Array, values: Array) -> Result<Self> {
        let len = match &run_ends {
            Array::I16(_) | Array::I32(_) | Array::I64(_) => {
                with_run_ends!(&run_ends, r => r.last().map_or(0, |&e| e.max(0) as usize))
            }
            // Not a run-ends array: `try_new_deferred` reports the type.
            _ => 0,
        };
        Self::try_new_sliced(run_ends, values, 0, len)
    }

    /// Builds a logical slice `[offset, offset + len)` of the runs.
    pub fn try_new_sliced(
        run_ends: Array,
        values: Array,
        offset: usize,
        len: usize,
    ) -> Result<Self> {
        let a = Self::try_new_deferred(run_ends, values, offset, len)?;
        a.check_content()?;
        Ok(a)
    }

    /// Builds the array with structural checks only (types, null-free run ends, equal child
    /// lengths); run ends are checked by full validation.
    pub fn try_new_deferred(
        run_ends: Array,
        values: Array,
        offset: usize,
        len: usize,
    ) -> Result<Self> {
        // The logical type must be an integer: `Date32` or `Decimal64` arrays have the same
        // physical variants but are not valid run ends.
        if !matches!(
            run_ends.data_type(),
            DataType::Int16 | DataType::Int32 | DataType::Int64
        ) {
            return Err(Error::oos(format!(
                "run ends must be Int16, Int32 or Int64, not {}",
                run_ends.data_type()
            )));
        }
        if run_ends.null_count() > 0 {
            return Err(Error::oos(format!(
                "run ends contain {} nulls",
                run_ends.null_count()
            )));
        }
        if run_ends.len() != values.len() {
            return Err(Error::oos(format!(
                "{} run ends but {} values; they must be equal",
                run_ends.len(),
                values.len()
            )));
        }
        let data_type = DataType::RunEndEncoded(
            Arc::new(Field::new("run_ends", run_ends.data_type().clone(), false)),
            Arc::new(Field::new("values", values.data_type().clone(), true)),
        );
        Ok(RunEndArray {
            data_type,
            run_ends: Box::new(run_ends),
            values: Arc::new(values),
            offset,
            len,
        })
    }

    /// The same runs under other child fields (names, nullability, metadata), e.g. the ones a
    /// schema declares. The fields' types must be the children's types, and the run-ends field
    /// must be non-nullable.
    ///
    /// ```
    /// use quiver_arrow::{Array, DataType, Field, PrimitiveArray, RunEndArray};
    /// let a = RunEndArray::try_new(
    ///     Array::from(PrimitiveArray::<i16>::new(vec![2])),
    ///     Array::from(PrimitiveArray::<i64>::new(vec![7])),
    /// )
    /// .unwrap()
    /// .with_fields(
    ///     Field::new("ends", DataType::Int16, false).into(),
    ///     Field::new("v", DataType::Int64, false).into(),
    /// )
    /// .unwrap();
    /// assert!(matches!(a.data_type(), DataType::RunEndEncoded(r, _) if r.name() == "ends"));
    /// ```
    pub fn with_fields(mut self, run_ends: FieldRef, values: FieldRef) -> Result<Self> {
        let data_type = DataType::RunEndEncoded(run_ends, values);
        data_type.validate()?;
        let DataType::RunEndEncoded(r, v) = &data_type else {
            unreachable!("built just above")
        };
        if r.data_type() != self.run_ends.data_type() || v.data_type() != self.values.data_type() {
            return Err(Error::oos(format!(
                "{data_type} does not match run ends {} and values {}",
                self.run_ends.data_type(),
                self.values.data_type()
            )));
        }
        self.data_type = data_type;
        Ok(self)
    }

    /// Checks run ends are positive, strictly increasing and cover `offset + len`.
    pub(crate) fn check_content(&self) -> Result<()> {
        let needed = self
            .offset
            .checked_add(self.len)
            .ok_or_else(|| Error::overflow("run-end offset + length"))?;
        with_run_ends!(&*self.run_ends, r => {
            if let Some(&first) = r.first() {
                if first <= 0 {
                    return Err(Error::oos(format!("run end 0 is {first}; run ends must be positive")));
                }
            }
            let bad = r.windows(2).fold(false, |acc, w| acc | (w[1] <= w[0]));
            if bad {
                let j = r.windows(2).position(|w| w[1] <= w[0]).expect("found above") + 1; // ok: found above.
                return Err(Error::oos(format!(
                    "run end {j} is {} after {}; run ends must strictly increase",
                    r[j],
                    r[j - 1]
                )));
            }
            let last = r.last().map_or(0, |&e| e as i64);
            if (last as u64) < needed as u64 {
                return Err(Error::oos(format!(
                    "last run end is {last} but the array needs {needed} (offset {} + length {})",
                    self.offset, self.len
                )));
            }
        });
        Ok(())
    }

    /// Logical length.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Logical offset into the runs.
    pub fn offset(&self) -> usize {
        self.offset
    }
    /// The logical type.
    pub fn data_type(&self) -> &DataType {
        &self.data_type
    }
    /// The run ends (Int16/32/64, no nulls).
    pub fn run_ends(&self) -> &Array {
        &self.run_ends
    }
    /// The run values.
    pub fn values(&self) -> &Array {
        &self.values
    }
    /// Index of the run holding logical slot `i` (binary search).
    pub fn physical_index(&self, i: usize) -> usize {
        assert!(
            i < self.len,
            "index {i} out of bounds of length {}",
            self.len
        );
        let target = (self.offset + i) as i64;
        with_run_ends!(&*self.run_ends, r => r.partition_point(|&e| (e as i64) <= target))
    }
    /// True when slot `i`'s run value is null.
    pub fn is_null(&self, i: usize) -> bool {
        self.values.is_null(self.physical_index(i))
    }
    /// Number of null slots (visits every run).
    pub fn null_count(&self) -> usize {
        if self.values.null_count() == 0 || self.len == 0 {
            return 0;
        }
        let first = self.physical_index(0);
        let last = self.physical_index(self.len - 1);
        let start = self.offset as i64;
        let end = (self.offset + self.len) as i64;
        with_run_ends!(&*self.run_ends, r => (first..=last)
            .filter(|&j| self.values.is_null(j))
            .map(|j| {
                let run_start = if j == 0 { 0 } else { r[j - 1] as i64 };
                let run_end = r[j] as i64;
                (run_end.min(end) - run_start.max(start)) as usize
            })
            .sum())
    }
    /// Slot `i` as a one-value slice of the values.
    pub fn value(&self, i: usize) -> Array {
        self.values.slice(self.physical_index(i), 1)
    }
    /// O(1) logical slice (children shared).
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        assert_slice(offset, len, self.len);
        RunEndArray {
            data_type: self.data_type.clone(),
            run_ends: self.run_ends.clone(),
            values: self.values.clone(),
            offset: self.offset + offset,
            len,
        }
    }
}
