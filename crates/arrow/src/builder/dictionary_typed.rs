//! Statically typed dictionary builders over [`DictionaryBuilder`].

use super::{Builder, DictionaryBuilder};
use crate::array::{Array, DictionaryArray, GenericBinaryArray, GenericStringArray};
use crate::array::{PrimitiveArray, PrimitiveType};
use crate::buffer::Offset;
use crate::datatype::{DataType, IntegerType};
use crate::error::Result;
use std::marker::PhantomData;

mod sealed {
    pub trait Sealed {}
}

/// A native integer type usable as dictionary key.
pub trait DictionaryKey: PrimitiveType + sealed::Sealed {
    /// The key type.
    const KEY_TYPE: IntegerType;
    /// An index the builder checked to fit the key type.
    fn from_index(index: usize) -> Self;
}

macro_rules! key {
    ($($t:ty => $k:ident),*) => {$(
        impl sealed::Sealed for $t {}
        impl DictionaryKey for $t {
            const KEY_TYPE: IntegerType = IntegerType::$k;
            #[inline]
            fn from_index(index: usize) -> Self {
                // In range: the builder checks every index against the key type's maximum.
                index as $t
            }
        }
    )*};
}
key!(i8 => Int8, i16 => Int16, i32 => Int32, i64 => Int64,
     u8 => UInt8, u16 => UInt16, u32 => UInt32, u64 => UInt64);

/// Methods shared by the typed dictionary builders.
macro_rules! common {
    ($name:ident<$($g:ident: $b:path),*>) => {
        impl<$($g: $b),*> $name<$($g),*> {
            /// Declares the dictionary ordered.
            pub fn with_ordered(mut self, ordered: bool) -> Self {
                self.inner = self.inner.with_ordered(ordered);
                self
            }
            /// Appends a null slot.
            #[inline]
            pub fn append_null(&mut self) {
                self.inner.append_null()
            }
            /// Appends `n` null slots.
            pub fn append_nulls(&mut self, n: usize) {
                self.inner.append_nulls(n)
            }
            /// Number of slots appended.
            #[inline]
            pub fn len(&self) -> usize {
                self.inner.len()
            }
            /// True when no slot has been appended.
            #[inline]
            pub fn is_empty(&self) -> bool {
                self.inner.is_empty()
            }
            /// Number of values in the dictionary.
            pub fn values_len(&self) -> usize {
                self.inner.values_len()
            }
            /// Builds the array in O(1) per buffer and resets the builder, dictionary included.
            pub fn finish(&mut self) -> DictionaryArray {
                self.inner.finish()
            }
            /// Builds the array keeping (and copying) the dictionary for the next batch; see
            /// [`DictionaryBuilder::finish_preserve_values`].
            pub fn finish_preserve_values(&mut self) -> DictionaryArray {
                self.inner.finish_preserve_values()
            }
            /// The dynamic builder inside.
            pub fn into_inner(self) -> DictionaryBuilder {
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
            fn append_null(&mut self) {
                self.inner.append_null()
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

/// Builds a [`DictionaryArray`] with keys `K` over primitive values `V`, deduplicating values.
///
/// ```
/// use quiver_arrow::builder::PrimitiveDictionaryBuilder;
/// let mut b = PrimitiveDictionaryBuilder::<u8, i64>::new();
/// assert_eq!(b.append(10).unwrap(), 0);
/// assert_eq!(b.append(20).unwrap(), 1);
/// assert_eq!(b.append(10).unwrap(), 0);
/// let d = b.finish();
/// assert_eq!(d.values().len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct PrimitiveDictionaryBuilder<K: DictionaryKey, V: PrimitiveType> {
    inner: DictionaryBuilder,
    _t: PhantomData<(K, V)>,
}

impl<K: DictionaryKey, V: PrimitiveType> Default for PrimitiveDictionaryBuilder<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: DictionaryKey, V: PrimitiveType> PrimitiveDictionaryBuilder<K, V> {
    fn wrap(inner: DictionaryBuilder) -> Self {
        PrimitiveDictionaryBuilder {
            inner,
            _t: PhantomData,
        }
    }

    /// An empty builder of values of `V`'s default type.
    pub fn new() -> Self {
        let inner = DictionaryBuilder::try_new(K::KEY_TYPE, V::default_data_type())
            .expect("default primitive types are valid"); // ok: default primitive types are valid.
        Self::wrap(inner)
    }

    /// An empty builder of values of `value_type`, which must be stored as `V`.
    pub fn with_value_type(value_type: DataType) -> Result<Self> {
        if !V::accepts(&value_type) {
            return Err(crate::Error::invalid(format!(
                "{value_type} is not stored as {}",
                V::NAME
            )));
        }
        Ok(Self::wrap(DictionaryBuilder::try_new(
            K::KEY_TYPE,
            value_type,
        )?))
    }

    /// A builder whose dictionary starts as a copy of `values` (see
    /// [`DictionaryBuilder::with_values`]).
    pub fn with_values(values: &PrimitiveArray<V>) -> Result<Self> {
        let values = Array::from(values.clone());
        Ok(Self::wrap(DictionaryBuilder::with_values(
            K::KEY_TYPE,
            &values,
        )?))
    }

    /// Appends a value and returns its key; [`Error::Overflow`](crate::Error::Overflow) when a
    /// new value would need a key beyond `K`.
    #[inline]
    pub fn append(&mut self, value: V) -> Result<K> {
        let i = self.inner.append_checked(bytemuck::bytes_of(&value))?;
        Ok(K::from_index(i))
    }

    /// Appends a value or a null; the key, `None` for a null.
    pub fn append_option(&mut self, value: Option<V>) -> Result<Option<K>> {
        match value {
            Some(v) => self.append(v).map(Some),
            None => {
                self.append_null();
                Ok(None)
            }
        }
    }
}
common!(PrimitiveDictionaryBuilder<K: DictionaryKey, V: PrimitiveType>);

macro_rules! byte_dictionary {
    ($(#[$doc:meta])* $name:ident, $value:ty, $array:ident, $utf8:literal) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name<K: DictionaryKey, O: Offset> {
            inner: DictionaryBuilder,
            _t: PhantomData<(K, O)>,
        }

        impl<K: DictionaryKey, O: Offset> Default for $name<K, O> {
            fn default() -> Self {
                Self::new()
            }
        }

        impl<K: DictionaryKey, O: Offset> $name<K, O> {
            fn value_type() -> DataType {
                match (O::IS_LARGE, $utf8) {
                    (false, true) => DataType::Utf8,
                    (true, true) => DataType::LargeUtf8,
                    (false, false) => DataType::Binary,
                    (true, false) => DataType::LargeBinary,
                }
            }
            /// An empty builder.
            pub fn new() -> Self {
                let inner = DictionaryBuilder::try_new(K::KEY_TYPE, Self::value_type())
                    .expect("binary and string types are valid"); // ok: binary and string types are valid.
                $name { inner, _t: PhantomData }
            }
            /// A builder whose dictionary starts as a copy of `values` (see
            /// [`DictionaryBuilder::with_values`]).
            pub fn with_values(values: &$array<O>) -> Result<Self>
            where
                Array: From<$array<O>>,
            {
                let values = Array::from(values.clone());
                let inner = DictionaryBuilder::with_values(K::KEY_TYPE, &values)?;
                Ok($name { inner, _t: PhantomData })
            }
            /// Appends a value and returns its key;
            /// [`Error::Overflow`](crate::Error::Overflow) when a new value would need a key
            /// beyond `K` or the values would exceed the offset type.
            #[inline]
            pub fn append(&mut self, value: impl AsRef<$value>) -> Result<K> {
                let bytes: &[u8] = value.as_ref().as_ref();
                let i = self.inner.append_checked(bytes)?;
                Ok(K::from_index(i))
            }
            /// Appends a value or a null; the key, `None` for a null.
            pub fn append_option(&mut self, value: Option<impl AsRef<$value>>) -> Result<Option<K>> {
                match value {
                    Some(v) => self.append(v).map(Some),
                    None => {
                        self.append_null();
                        Ok(None)
                    }
                }
            }
        }
        common!($name<K: DictionaryKey, O: Offset>);
    };
}

byte_dictionary!(
    /// Builds a [`DictionaryArray`] with keys `K` over strings (`Utf8` or `LargeUtf8` by `O`),
    /// deduplicating values.
    ///
    /// ```
    /// use quiver_arrow::builder::StringDictionaryBuilder;
    /// let mut b = StringDictionaryBuilder::<i32>::new();
    /// for s in ["a", "b", "a"] {
    ///     b.append(s).unwrap();
    /// }
    /// let d = b.finish();
    /// let keys = d.keys().as_primitive::<i32>().unwrap();
    /// assert_eq!(keys.values().as_slice(), &[0, 1, 0]);
    /// assert_eq!(d.values().as_utf8().unwrap().values().as_slice(), b"ab");
    /// ```
    GenericStringDictionaryBuilder,
    str,
    GenericStringArray,
    true
);

byte_dictionary!(
    /// Builds a [`DictionaryArray`] with keys `K` over binary values (`Binary` or
    /// `LargeBinary` by `O`), deduplicating values.
    GenericBinaryDictionaryBuilder,
    [u8],
    GenericBinaryArray,
    false
);

/// Dictionary of `Utf8` values with keys `K`.
pub type StringDictionaryBuilder<K> = GenericStringDictionaryBuilder<K, i32>;
/// Dictionary of `LargeUtf8` values with keys `K`.
pub type LargeStringDictionaryBuilder<K> = GenericStringDictionaryBuilder<K, i64>;
/// Dictionary of `Binary` values with keys `K`.
pub type BinaryDictionaryBuilder<K> = GenericBinaryDictionaryBuilder<K, i32>;
/// Dictionary of `LargeBinary` values with keys `K`.
pub type LargeBinaryDictionaryBuilder<K> = GenericBinaryDictionaryBuilder<K, i64>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::tests::assert_valid;
    use crate::datatype::TimeUnit;
    use crate::{Error, StringArray};

    #[test]
    fn string_dictionary_dedup() {
        let mut b = StringDictionaryBuilder::<i16>::new();
        let keys: Vec<i16> = ["a", "b", "a"]
            .iter()
            .map(|s| b.append(s).unwrap())
            .collect();
        assert_eq!(keys, vec![0, 1, 0]);
        assert_eq!(b.append_option(None::<&str>).unwrap(), None);
        let d = b.finish();
        assert_eq!(
            d.data_type(),
            &DataType::dictionary(IntegerType::Int16, DataType::Utf8)
        );
        let k = d.keys().as_primitive::<i16>().unwrap();
        assert_eq!(k.values().as_slice(), &[0, 1, 0, 0]);
        assert_eq!(k.null_count(), 1);
        let v = d.values().as_utf8().unwrap();
        assert_eq!(v.iter().collect::<Vec<_>>(), vec![Some("a"), Some("b")]);
        assert_valid(&Array::from(d));
    }

    #[test]
    fn primitive_key_overflow() {
        let mut b = PrimitiveDictionaryBuilder::<i8, f64>::new();
        for i in 0..128 {
            assert_eq!(b.append(i as f64).unwrap(), i as i8);
        }
        assert!(matches!(b.append(-1.0), Err(Error::Overflow { .. })));
        assert_eq!(b.append(5.0).unwrap(), 5, "existing values still resolve");
        let d = b.finish();
        assert_eq!(d.len(), 129);
        assert_valid(&Array::from(d));
    }

    #[test]
    fn logical_value_types_and_seed() {
        let dt = DataType::Duration(TimeUnit::Second);
        assert!(PrimitiveDictionaryBuilder::<u32, i32>::with_value_type(dt.clone()).is_err());
        let mut b = PrimitiveDictionaryBuilder::<u32, i64>::with_value_type(dt.clone())
            .unwrap()
            .with_ordered(true);
        b.append(3).unwrap();
        let d = b.finish();
        assert!(d.is_ordered());
        assert_eq!(d.values().data_type(), &dt);

        let seed = PrimitiveArray::<i32>::new(vec![7, 8]);
        let mut b = PrimitiveDictionaryBuilder::<u64, i32>::with_values(&seed).unwrap();
        assert_eq!(b.append(8).unwrap(), 1);
        assert_eq!(b.append(9).unwrap(), 2);
        let d = b.finish();
        let values = d.values().as_primitive::<i32>().unwrap();
        assert_eq!(values.values().as_slice(), &[7, 8, 9]);

        let seed = StringArray::from_options([Some("q")]);
        let mut b = StringDictionaryBuilder::<u8>::with_values(&seed).unwrap();
        assert_eq!(b.append("q").unwrap(), 0);
    }

    #[test]
    fn large_binary_dictionary() {
        let mut b = LargeBinaryDictionaryBuilder::<u16>::new();
        b.append([1u8, 2]).unwrap();
        b.append(b"").unwrap();
        b.append([1u8, 2]).unwrap();
        let d = b.finish();
        let v = d.values().as_large_binary().unwrap();
        assert_eq!(v.offsets().as_slice(), &[0i64, 2, 2]);
        assert_valid(&Array::from(d));
    }
}
