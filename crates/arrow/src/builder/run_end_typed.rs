//! Statically typed run-end builders over [`RunEndBuilder`].

use super::{Builder, RunEndBuilder};
use crate::array::{Array, PrimitiveType, RunEndArray};
use crate::buffer::Offset;
use crate::datatype::{DataType, IntegerType};
use crate::error::Result;
use std::marker::PhantomData;

mod sealed {
    pub trait Sealed {}
}

/// A native integer type usable for run ends: `i16`, `i32` or `i64`.
pub trait RunEndIndex: PrimitiveType + sealed::Sealed {
    /// The run-end type.
    const RUN_END_TYPE: IntegerType;
}

macro_rules! run_end_index {
    ($($t:ty => $k:ident),*) => {$(
        impl sealed::Sealed for $t {}
        impl RunEndIndex for $t {
            const RUN_END_TYPE: IntegerType = IntegerType::$k;
        }
    )*};
}
run_end_index!(i16 => Int16, i32 => Int32, i64 => Int64);

/// Methods shared by the typed run builders.
macro_rules! common {
    ($name:ident<$($g:ident: $b:path),*>) => {
        impl<$($g: $b),*> $name<$($g),*> {
            /// Appends a null slot (consecutive nulls form one run).
            pub fn append_null(&mut self) -> Result<()> {
                self.inner.append_null()
            }
            /// Appends `n` null slots.
            pub fn append_nulls(&mut self, n: usize) -> Result<()> {
                self.inner.append_nulls(n)
            }
            /// Logical number of slots appended.
            #[inline]
            pub fn len(&self) -> usize {
                self.inner.len()
            }
            /// True when no slot has been appended.
            #[inline]
            pub fn is_empty(&self) -> bool {
                self.inner.is_empty()
            }
            /// Number of runs.
            pub fn runs(&self) -> usize {
                self.inner.runs()
            }
            /// Builds the array in O(1) per buffer and resets the builder.
            pub fn finish(&mut self) -> RunEndArray {
                self.inner.finish()
            }
            /// The dynamic builder inside.
            pub fn into_inner(self) -> RunEndBuilder {
                self.inner
            }
        }

        impl<$($g: $b),*> Builder for $name<$($g),*> {
            fn len(&self) -> usize {
                self.inner.len()
            }
            fn data_type(&self) -> DataType {
                self.inner.data_type()
            }
            /// Appends a null slot.
            ///
            /// # Panics
            /// When the length would pass the run-end type.
            fn append_null(&mut self) {
                Builder::append_null(&mut self.inner)
            }
            fn check_finish(&self) -> Result<()> {
                Ok(())
            }
            fn finish_array(&mut self) -> Array {
                Array::from(self.inner.finish())
            }
        }
    };
}

/// Builds a [`RunEndArray`] with run ends `R` over primitive values `V`, merging equal
/// consecutive values (compared bitwise) and consecutive nulls into runs. Appends return
/// [`Error::Overflow`](crate::Error::Overflow) when the length would pass `R`.
///
/// ```
/// use quiver_arrow::builder::PrimitiveRunBuilder;
/// let mut b = PrimitiveRunBuilder::<i32, i64>::new();
/// for v in [Some(1), Some(1), None, None, Some(2)] {
///     b.append_option(v).unwrap();
/// }
/// let a = b.finish();
/// assert_eq!(a.run_ends().as_primitive::<i32>().unwrap().values().as_slice(), &[2, 4, 5]);
/// assert_eq!(a.values().as_primitive::<i64>().unwrap().iter().collect::<Vec<_>>(),
///            vec![Some(1), None, Some(2)]);
/// ```
#[derive(Clone, Debug)]
pub struct PrimitiveRunBuilder<R: RunEndIndex, V: PrimitiveType> {
    inner: RunEndBuilder,
    _t: PhantomData<(R, V)>,
}

impl<R: RunEndIndex, V: PrimitiveType> Default for PrimitiveRunBuilder<R, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: RunEndIndex, V: PrimitiveType> PrimitiveRunBuilder<R, V> {
    /// An empty builder of values of `V`'s default type.
    pub fn new() -> Self {
        let inner = RunEndBuilder::try_new(R::RUN_END_TYPE, V::default_data_type())
            .expect("default primitive types are valid"); // ok: default primitive types are valid.
        PrimitiveRunBuilder {
            inner,
            _t: PhantomData,
        }
    }

    /// An empty builder of values of `value_type`, which must be stored as `V`.
    pub fn with_value_type(value_type: DataType) -> Result<Self> {
        if !V::accepts(&value_type) {
            return Err(crate::Error::invalid(format!(
                "{value_type} is not stored as {}",
                V::NAME
            )));
        }
        Ok(PrimitiveRunBuilder {
            inner: RunEndBuilder::try_new(R::RUN_END_TYPE, value_type)?,
            _t: PhantomData,
        })
    }

    /// Appends a value.
    #[inline]
    pub fn append_value(&mut self, value: V) -> Result<()> {
        self.inner
            .append_checked(Some(bytemuck::bytes_of(&value)), 1)
    }

    /// Appends a value or a null.
    #[inline]
    pub fn append_option(&mut self, value: Option<V>) -> Result<()> {
        self.append_run(value, 1)
    }

    /// Appends `n` slots of a value or null.
    pub fn append_run(&mut self, value: Option<V>, n: usize) -> Result<()> {
        let bytes = value.as_ref().map(bytemuck::bytes_of);
        self.inner.append_checked(bytes, n)
    }
}
common!(PrimitiveRunBuilder<R: RunEndIndex, V: PrimitiveType>);

macro_rules! byte_run {
    ($(#[$doc:meta])* $name:ident, $value:ty, $utf8:literal) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name<R: RunEndIndex, O: Offset> {
            inner: RunEndBuilder,
            _t: PhantomData<(R, O)>,
        }

        impl<R: RunEndIndex, O: Offset> Default for $name<R, O> {
            fn default() -> Self {
                Self::new()
            }
        }

        impl<R: RunEndIndex, O: Offset> $name<R, O> {
            /// An empty builder.
            pub fn new() -> Self {
                let value_type = match (O::IS_LARGE, $utf8) {
                    (false, true) => DataType::Utf8,
                    (true, true) => DataType::LargeUtf8,
                    (false, false) => DataType::Binary,
                    (true, false) => DataType::LargeBinary,
                };
                let inner = RunEndBuilder::try_new(R::RUN_END_TYPE, value_type)
                    .expect("binary and string types are valid"); // ok: binary and string types are valid.
                $name { inner, _t: PhantomData }
            }
            /// Appends a value.
            #[inline]
            pub fn append_value(&mut self, value: impl AsRef<$value>) -> Result<()> {
                let bytes: &[u8] = value.as_ref().as_ref();
                self.inner.append_checked(Some(bytes), 1)
            }
            /// Appends a value or a null.
            #[inline]
            pub fn append_option(&mut self, value: Option<impl AsRef<$value>>) -> Result<()> {
                self.append_run(value, 1)
            }
            /// Appends `n` slots of a value or null.
            pub fn append_run(&mut self, value: Option<impl AsRef<$value>>, n: usize) -> Result<()> {
                match &value {
                    Some(v) => self.inner.append_checked(Some(v.as_ref().as_ref()), n),
                    None => self.inner.append_checked(None, n),
                }
            }
        }
        common!($name<R: RunEndIndex, O: Offset>);
    };
}

byte_run!(
    /// Builds a [`RunEndArray`] with run ends `R` over strings (`Utf8` or `LargeUtf8` by `O`),
    /// merging equal consecutive values and nulls into runs.
    ///
    /// ```
    /// use quiver_arrow::builder::StringRunBuilder;
    /// let mut b = StringRunBuilder::<i32>::new();
    /// b.append_value("a").unwrap();
    /// b.append_value("a").unwrap();
    /// b.append_null().unwrap();
    /// b.append_run(Some("b"), 3).unwrap();
    /// let a = b.finish();
    /// assert_eq!(a.len(), 6);
    /// assert_eq!(a.run_ends().as_primitive::<i32>().unwrap().values().as_slice(), &[2, 3, 6]);
    /// ```
    GenericStringRunBuilder,
    str,
    true
);

byte_run!(
    /// Builds a [`RunEndArray`] with run ends `R` over binary values (`Binary` or
    /// `LargeBinary` by `O`), merging equal consecutive values and nulls into runs.
    GenericBinaryRunBuilder,
    [u8],
    false
);

/// Runs of `Utf8` values with run ends `R`.
pub type StringRunBuilder<R> = GenericStringRunBuilder<R, i32>;
/// Runs of `LargeUtf8` values with run ends `R`.
pub type LargeStringRunBuilder<R> = GenericStringRunBuilder<R, i64>;
/// Runs of `Binary` values with run ends `R`.
pub type BinaryRunBuilder<R> = GenericBinaryRunBuilder<R, i32>;
/// Runs of `LargeBinary` values with run ends `R`.
pub type LargeBinaryRunBuilder<R> = GenericBinaryRunBuilder<R, i64>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;
    use crate::builder::tests::{assert_aligned, assert_valid};

    #[test]
    fn primitive_runs_with_nulls() {
        let mut b = PrimitiveRunBuilder::<i16, f32>::new();
        for v in [Some(1.0), Some(1.0), None, None, Some(2.0)] {
            b.append_option(v).unwrap();
        }
        b.append_run(Some(2.0), 2).unwrap();
        b.append_run(Some(-0.0), 1).unwrap();
        b.append_run(Some(0.0), 1).unwrap(); // bitwise different from -0.0
        assert_eq!((b.len(), b.runs()), (9, 5));
        let a = b.finish();
        let ends = a.run_ends().as_primitive::<i16>().unwrap();
        assert_eq!(ends.values().as_slice(), &[2, 4, 7, 8, 9]);
        let values = a.values().as_primitive::<f32>().unwrap();
        assert_eq!(values.values().as_slice(), &[1.0, 0.0, 2.0, -0.0, 0.0]);
        assert_eq!(&values.validity().unwrap().bytes()[..], &[0b11101]);
        assert_aligned(ends.values().bytes());
        assert_valid(&Array::from(a));
    }

    #[test]
    fn string_runs_ree_int32_utf8() {
        let mut b = StringRunBuilder::<i32>::new();
        for v in [Some("x"), Some("x"), Some("y"), None, Some("x")] {
            b.append_option(v).unwrap();
        }
        let a = b.finish();
        let ends = a.run_ends().as_primitive::<i32>().unwrap();
        assert_eq!(ends.values().as_slice(), &[2, 3, 4, 5]);
        let values = a.values().as_utf8().unwrap();
        assert_eq!(values.offsets().as_slice(), &[0, 1, 2, 2, 3]);
        assert_eq!(values.values().as_slice(), b"xyx");
        assert_eq!(
            values.iter().collect::<Vec<_>>(),
            vec![Some("x"), Some("y"), None, Some("x")]
        );
        assert_valid(&Array::from(a));
    }

    #[test]
    fn overflow_and_empty_runs() {
        let mut b = LargeBinaryRunBuilder::<i16>::new();
        b.append_run(Some(b"ab"), 0).unwrap();
        assert!(b.is_empty());
        b.append_run(Some(b"ab"), i16::MAX as usize).unwrap();
        assert!(matches!(b.append_value(b"ab"), Err(Error::Overflow { .. })));
        let a = b.finish();
        assert_eq!(a.len(), i16::MAX as usize);
        assert_eq!(a.values().len(), 1);
        assert_valid(&Array::from(a));
    }
}
