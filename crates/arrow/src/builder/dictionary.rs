//! Deduplicating dictionary builder with a key type chosen at run time.

use super::index_buffer::IndexBuffer;
use super::value_store::{ValueStore, array_value_bytes};
use super::{ArrayBuilder, Builder, NullBufferBuilder};
use crate::array::{Array, DictionaryArray, PrimitiveType};
use crate::datatype::{DataType, IntegerType};
use crate::error::{Error, Result};
use hashbrown::{DefaultHashBuilder, HashTable};
use std::hash::BuildHasher;

/// Builds a [`DictionaryArray`] of any key and value type, deduplicating values.
///
/// Values of byte-addressable types (primitives, booleans, fixed-size binary, binary and
/// strings in every layout) are deduplicated with a hash table of indices into the values
/// being built (hashing the value bytes, no allocation per value): appending a value already in
/// the dictionary only appends its key. Floats are compared bitwise. Appending a value that
/// would need a key beyond the key type (e.g. a 129th value with `Int8` keys) is an
/// [`Error::Overflow`] and changes nothing.
///
/// For other value types (nested, Null) there is no deduplication: append the value to
/// [`DictionaryBuilder::values_builder`] and reference it with [`DictionaryBuilder::append_key`].
///
/// [`DictionaryBuilder::with_values`] starts from an existing dictionary, so later batches
/// extend it (the values beyond its length are the delta an IPC writer sends).
///
/// ```
/// use quiver_arrow::builder::DictionaryBuilder;
/// use quiver_arrow::{DataType, IntegerType};
/// let mut b = DictionaryBuilder::try_new(IntegerType::Int8, DataType::Utf8).unwrap();
/// assert_eq!(b.append_str("a").unwrap(), 0);
/// assert_eq!(b.append_str("b").unwrap(), 1);
/// assert_eq!(b.append_str("a").unwrap(), 0);
/// b.append_null();
/// let d = b.finish();
/// assert_eq!(d.values().len(), 2);
/// assert_eq!(d.key(2), Some(0));
/// assert_eq!(d.key(3), None);
/// ```
#[derive(Clone, Debug)]
pub struct DictionaryBuilder {
    keys: IndexBuffer,
    validity: NullBufferBuilder,
    values: ValueStore,
    /// Indices of the non-null values, hashed by their bytes.
    table: HashTable<usize>,
    hasher: DefaultHashBuilder,
    ordered: bool,
}

impl DictionaryBuilder {
    /// An empty builder of keys of type `key` into values of type `value_type`.
    pub fn try_new(key: IntegerType, value_type: DataType) -> Result<Self> {
        Self::with_capacity(key, value_type, 0)
    }

    /// An empty builder with room for `capacity` keys.
    pub fn with_capacity(key: IntegerType, value_type: DataType, capacity: usize) -> Result<Self> {
        Ok(DictionaryBuilder {
            keys: IndexBuffer::new(key, capacity),
            validity: NullBufferBuilder::with_capacity(capacity),
            values: ValueStore::try_new(&value_type, 0)?,
            table: HashTable::new(),
            hasher: DefaultHashBuilder::default(),
            ordered: false,
        })
    }

    /// A builder whose dictionary starts as a copy of `values` (O(values)), so keys appended
    /// later index into it and new values extend it. Duplicates in `values` are kept (lookups
    /// find the first); null values are kept but never matched. [`Error::Overflow`] when
    /// `values` is longer than the key type indexes; [`Error::NotSupported`] for value types
    /// without deduplication.
    pub fn with_values(key: IntegerType, values: &Array) -> Result<Self> {
        let mut b = Self::with_capacity(key, values.data_type().clone(), 0)?;
        if !values.is_empty() {
            b.keys.check(values.len() - 1, "dictionary size")?;
        }
        for i in 0..values.len() {
            if values.is_null(i) {
                b.values.push_null();
                continue;
            }
            let bytes = array_value_bytes(values, i).ok_or_else(|| {
                Error::not_supported(format!(
                    "starting a dictionary from existing {} values",
                    values.data_type()
                ))
            })?;
            b.seed(bytes)?;
        }
        Ok(b)
    }

    /// Appends `bytes` to the dictionary even when present (so existing keys keep their
    /// meaning), indexing only its first occurrence.
    fn seed(&mut self, bytes: &[u8]) -> Result<()> {
        let hash = self.hasher.hash_one(bytes);
        let values = &self.values;
        let present = self
            .table
            .find(hash, |&i| values.value(i) == bytes)
            .is_some();
        let i = values.len();
        self.values.push(bytes)?;
        if !present {
            let (values, hasher) = (&self.values, &self.hasher);
            self.table
                .insert_unique(hash, i, |&j| hasher.hash_one(values.value(j)));
        }
        Ok(())
    }

    /// Declares the dictionary ordered (the `ordered` flag of the type).
    pub fn with_ordered(mut self, ordered: bool) -> Self {
        self.ordered = ordered;
        self
    }

    /// The key type.
    pub fn key_type(&self) -> IntegerType {
        self.keys.integer_type()
    }

    /// The value type.
    pub fn value_type(&self) -> DataType {
        self.values.data_type()
    }

    /// The dictionary type of the arrays this builder makes.
    pub fn data_type(&self) -> DataType {
        DataType::Dictionary {
            key: self.key_type(),
            value: self.value_type().into(),
            ordered: self.ordered,
        }
    }

    /// Number of slots (keys) appended.
    #[inline]
    pub fn len(&self) -> usize {
        self.validity.len()
    }

    /// True when no slot has been appended.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of values in the dictionary.
    pub fn values_len(&self) -> usize {
        self.values.len()
    }

    /// The index of `bytes` in the dictionary, adding it if new.
    fn intern(&mut self, bytes: &[u8]) -> Result<usize> {
        let hash = self.hasher.hash_one(bytes);
        let values = &self.values;
        if let Some(&i) = self.table.find(hash, |&i| values.value(i) == bytes) {
            return Ok(i);
        }
        let i = values.len();
        self.keys.check(i, "dictionary index")?;
        self.values.push(bytes)?;
        let (values, hasher) = (&self.values, &self.hasher);
        self.table
            .insert_unique(hash, i, |&j| hasher.hash_one(values.value(j)));
        Ok(i)
    }

    /// The index of non-null value `i` of `values` (an array of the dictionary's value type)
    /// in the dictionary, `None` when absent; changes nothing. [`Error::NotSupported`] for
    /// value types without deduplication.
    ///
    /// ```
    /// use quiver_arrow::builder::DictionaryBuilder;
    /// use quiver_arrow::{Array, IntegerType, StringArray};
    /// let values = Array::from(StringArray::from_options([Some("a"), Some("b")]));
    /// let b = DictionaryBuilder::with_values(IntegerType::Int8, &values).unwrap();
    /// let other = Array::from(StringArray::from_options([Some("b"), Some("c")]));
    /// assert_eq!(b.find_value(&other, 0).unwrap(), Some(1));
    /// assert_eq!(b.find_value(&other, 1).unwrap(), None);
    /// ```
    pub fn find_value(&self, values: &Array, i: usize) -> Result<Option<usize>> {
        let bytes = array_value_bytes(values, i).ok_or_else(|| {
            Error::not_supported(format!(
                "looking up {} values in a dictionary",
                values.data_type()
            ))
        })?;
        let hash = self.hasher.hash_one(bytes);
        let store = &self.values;
        Ok(self.table.find(hash, |&j| store.value(j) == bytes).copied())
    }

    /// The index of value `i` of `values` (an array of the dictionary's value type) in the
    /// dictionary, added when new, without appending a key: how dictionaries are unified by
    /// value (`concat`, the IPC merge). A null value is the null entry `null_at` names, added
    /// (and named there) the first time. [`Error::NotSupported`] for value types without
    /// deduplication (nested ones), [`Error::Overflow`] past the key type.
    ///
    /// ```
    /// use quiver_arrow::builder::DictionaryBuilder;
    /// use quiver_arrow::{Array, IntegerType, StringArray};
    /// let values = Array::from(StringArray::from_options([Some("a"), None, Some("a")]));
    /// let mut b = DictionaryBuilder::with_values(IntegerType::Int8, &values).unwrap();
    /// let mut null_at = Some(1);
    /// let other = Array::from(StringArray::from_options([Some("b"), Some("a"), None]));
    /// let mapped: Vec<usize> =
    ///     (0..3).map(|i| b.intern_value(&other, i, &mut null_at).unwrap()).collect();
    /// assert_eq!(mapped, [3, 0, 1]);
    /// ```
    pub fn intern_value(
        &mut self,
        values: &Array,
        i: usize,
        null_at: &mut Option<usize>,
    ) -> Result<usize> {
        if values.is_null(i) {
            if let Some(z) = *null_at {
                return Ok(z);
            }
            let z = self.values.len();
            self.keys.check(z, "dictionary index")?;
            self.values.push_null();
            *null_at = Some(z);
            return Ok(z);
        }
        let bytes = array_value_bytes(values, i).ok_or_else(|| {
            Error::not_supported(format!(
                "unifying dictionaries of {} values",
                values.data_type()
            ))
        })?;
        self.intern(bytes)
    }

    /// Appends the value whose byte form is `bytes` (already checked against the value
    /// kind) and returns its index.
    #[inline]
    pub(crate) fn append_checked(&mut self, bytes: &[u8]) -> Result<usize> {
        let i = self.intern(bytes)?;
        self.keys.push(i as u64);
        self.validity.append_non_null();
        Ok(i)
    }

    /// Appends a string value (for Utf8, LargeUtf8, Utf8View and the binary types) and
    /// returns its index.
    pub fn append_str(&mut self, value: &str) -> Result<usize> {
        self.values.check_str()?;
        self.append_checked(value.as_bytes())
    }

    /// Appends a binary value (binary types, fixed-size binary of the right width, and
    /// string types when the bytes are UTF-8) and returns its index.
    pub fn append_bytes(&mut self, value: &[u8]) -> Result<usize> {
        self.values.check_bytes(value)?;
        self.append_checked(value)
    }

    /// Appends a primitive value (the value type must be stored as `T`) and returns its index.
    pub fn append_primitive<T: PrimitiveType>(&mut self, value: T) -> Result<usize> {
        self.values.check_primitive::<T>()?;
        self.append_checked(bytemuck::bytes_of(&value))
    }

    /// Appends a boolean value and returns its index.
    pub fn append_bool(&mut self, value: bool) -> Result<usize> {
        self.values.check_bool()?;
        self.append_checked(&[value as u8])
    }

    /// Appends a slot referencing existing dictionary value `index`.
    pub fn append_key(&mut self, index: usize) -> Result<()> {
        if index >= self.values.len() {
            return Err(Error::invalid(format!(
                "key {index} is beyond the dictionary's {} values",
                self.values.len()
            )));
        }
        let key = self.keys.check(index, "dictionary index")?;
        self.keys.push(key);
        self.validity.append_non_null();
        Ok(())
    }

    /// Appends a null slot (a null key).
    #[inline]
    pub fn append_null(&mut self) {
        self.keys.push_zeros(1);
        self.validity.append_null();
    }

    /// Appends `n` null slots.
    pub fn append_nulls(&mut self, n: usize) {
        self.keys.push_zeros(n);
        self.validity.append_n_nulls(n);
    }

    /// The values builder of a dictionary whose value type has no deduplication (nested
    /// types, Null); `None` for the others.
    pub fn values_builder(&mut self) -> Option<&mut ArrayBuilder> {
        self.values.other_mut()
    }

    /// Builds the array (keys and dictionary) in O(1) per buffer and resets the builder,
    /// dictionary included.
    ///
    /// # Panics
    /// When [`Builder::check_finish`] fails (only possible through
    /// [`DictionaryBuilder::values_builder`]).
    pub fn finish(&mut self) -> DictionaryArray {
        super::expect_finish("DictionaryBuilder", Builder::check_finish(self));
        let values = self.values.finish();
        self.table.clear();
        self.finish_keys(values)
    }

    /// Builds the array but keeps the dictionary (copying it, O(values)), so the next batch
    /// reuses its keys; the values beyond the previous batch's dictionary length are the delta.
    ///
    /// # Panics
    /// As [`DictionaryBuilder::finish`].
    pub fn finish_preserve_values(&mut self) -> DictionaryArray {
        super::expect_finish("DictionaryBuilder", Builder::check_finish(self));
        let values = self.values.clone().finish();
        self.finish_keys(values)
    }

    fn finish_keys(&mut self, values: Array) -> DictionaryArray {
        let keys = self.keys.finish(self.validity.finish());
        // Keys were checked against the dictionary length when appended, so the O(n) key
        // check of `try_new` is skipped.
        DictionaryArray::try_new_deferred(keys, values, self.ordered)
            .expect("the keys are an integer array") // ok: the keys are an integer array.
    }
}

impl Builder for DictionaryBuilder {
    fn len(&self) -> usize {
        self.len()
    }
    fn data_type(&self) -> DataType {
        self.data_type()
    }
    fn append_null(&mut self) {
        self.append_null()
    }
    fn check_finish(&self) -> Result<()> {
        self.values.check_finish()
    }
    fn finish_array(&mut self) -> Array {
        Array::from(self.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::tests::{assert_aligned, assert_valid};
    use crate::datatype::{Field, TimeUnit};
    use crate::{PrimitiveArray, StringArray};

    #[test]
    fn strings_dedup() {
        let mut b = DictionaryBuilder::try_new(IntegerType::Int32, DataType::Utf8).unwrap();
        for s in ["a", "b", "a"] {
            b.append_str(s).unwrap();
        }
        b.append_null();
        let d = b.finish();
        let keys = d.keys().as_primitive::<i32>().unwrap();
        assert_eq!(keys.values().as_slice(), &[0, 1, 0, 0]);
        assert_eq!(&keys.validity().unwrap().bytes()[..], &[0b0111]);
        let values = d.values().as_utf8().unwrap();
        assert_eq!(values.offsets().as_slice(), &[0, 1, 2]);
        assert_eq!(values.values().as_slice(), b"ab");
        assert!(values.validity().is_none());
        assert_aligned(keys.values().bytes());
        assert_valid(&Array::from(d));
        // The dictionary was reset with the keys.
        assert_eq!(b.append_str("z").unwrap(), 0);
    }

    #[test]
    fn key_overflow() {
        let mut b = DictionaryBuilder::try_new(IntegerType::Int8, DataType::Int32).unwrap();
        for v in 0..128 {
            assert_eq!(b.append_primitive(v).unwrap(), v as usize);
        }
        assert_eq!(b.append_primitive(127i32).unwrap(), 127);
        let err = b.append_primitive(128i32).unwrap_err();
        assert!(matches!(err, Error::Overflow { .. }), "{err}");
        assert_eq!(b.values_len(), 128, "a failed append adds no value");
        assert_eq!(b.len(), 129);
        let d = b.finish();
        assert_eq!(d.values().len(), 128);
        assert_valid(&Array::from(d));

        let mut b = DictionaryBuilder::try_new(IntegerType::UInt8, DataType::Int32).unwrap();
        for v in 0..256 {
            b.append_primitive(v).unwrap();
        }
        assert!(b.append_primitive(256i32).is_err());
    }

    #[test]
    fn kind_checks() {
        let mut b = DictionaryBuilder::try_new(IntegerType::Int16, DataType::Utf8).unwrap();
        assert!(b.append_primitive(1i32).is_err());
        assert!(b.append_bytes(&[0xff]).is_err(), "not UTF-8");
        assert_eq!(b.append_bytes(b"ok").unwrap(), 0);
        assert!(b.append_key(1).is_err());
        b.append_key(0).unwrap();
        let ts = DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into()));
        let mut b = DictionaryBuilder::try_new(IntegerType::Int16, ts.clone()).unwrap();
        assert!(b.append_primitive(1i32).is_err());
        b.append_primitive(5i64).unwrap();
        let d = b.finish();
        assert_eq!(d.values().data_type(), &ts);
        assert_eq!(d.data_type(), &DataType::dictionary(IntegerType::Int16, ts));
    }

    #[test]
    fn with_values_extends_existing() {
        let existing = [Some("x"), None, Some("y"), Some("x")];
        let existing = Array::from(StringArray::from_options(existing));
        let mut b = DictionaryBuilder::with_values(IntegerType::UInt16, &existing).unwrap();
        assert_eq!(
            b.values_len(),
            4,
            "duplicates are kept so old keys stay valid"
        );
        assert_eq!(b.append_str("y").unwrap(), 2);
        assert_eq!(
            b.append_str("x").unwrap(),
            0,
            "the first occurrence is found"
        );
        assert_eq!(b.append_str("z").unwrap(), 4);
        let d = b.finish_preserve_values();
        let values = d.values().as_utf8().unwrap();
        assert_eq!(values.offsets().as_slice(), &[0, 1, 1, 2, 3, 4]);
        assert_eq!(values.values().as_slice(), b"xyxz");
        assert_eq!(d.values().null_count(), 1);
        assert_eq!(
            d.keys().as_primitive::<u16>().unwrap().values().as_slice(),
            &[2, 0, 4]
        );
        assert_valid(&Array::from(d));
        // Preserved: the next batch reuses the indices.
        assert_eq!(b.append_str("z").unwrap(), 4);
        assert_eq!(b.append_str("w").unwrap(), 5);
        let d = b.finish();
        assert_eq!(d.values().len(), 6);

        let too_many = Array::from(PrimitiveArray::<i64>::new((0..200).collect::<Vec<_>>()));
        assert!(DictionaryBuilder::with_values(IntegerType::Int8, &too_many).is_err());
    }

    #[test]
    fn nested_values_without_dedup() {
        let list = DataType::List(Field::new("item", DataType::Int32, true).into());
        let mut b = DictionaryBuilder::try_new(IntegerType::Int32, list.clone()).unwrap();
        assert!(b.append_str("x").is_err());
        let values = b.values_builder().unwrap().as_list_mut().unwrap();
        values
            .values()
            .as_primitive_mut::<i32>()
            .unwrap()
            .append_value(1);
        values.append(true);
        b.append_key(0).unwrap();
        b.append_key(0).unwrap();
        b.append_null();
        let d = b.finish();
        assert_eq!(d.values().data_type(), &list);
        assert_eq!(
            d.keys().as_primitive::<i32>().unwrap().values().as_slice(),
            &[0, 0, 0]
        );
        assert_valid(&Array::from(d));
    }
}
