//! Builder of map arrays.

use super::list::ListOffsets;
use super::{Builder, NullBufferBuilder, expect_finish};
use crate::array::{Array, MapArray, StructArray};
use crate::datatype::{DataType, Field, FieldRef, Fields};
use crate::error::{Error, Result};
use std::sync::Arc;

/// Builds a [`MapArray`]: append a map's keys and values (one each per entry) to
/// [`MapBuilder::keys`] and [`MapBuilder::values`], then close it with [`MapBuilder::append`].
///
/// The entries field defaults to `entries` (non-nullable) holding `keys` (non-nullable) and
/// `values` (nullable); [`MapBuilder::with_entries_field`] sets other names or metadata.
///
/// ```
/// use quiver_arrow::builder::{MapBuilder, PrimitiveBuilder, StringBuilder};
/// let mut b = MapBuilder::new(StringBuilder::new(), PrimitiveBuilder::<i64>::new());
/// b.keys().append_value("a");
/// b.values().append_value(1);
/// b.keys().append_value("b");
/// b.values().append_null();
/// b.append(true);
/// b.append_null();
/// let m = b.finish();
/// assert_eq!(m.offsets().as_slice(), &[0, 2, 2]);
/// assert_eq!(m.keys().len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct MapBuilder<K: Builder, V: Builder> {
    offsets: ListOffsets<i32>,
    validity: NullBufferBuilder,
    keys: K,
    values: V,
    entries_field: Option<FieldRef>,
    keys_sorted: bool,
}

impl<K: Builder, V: Builder> MapBuilder<K, V> {
    /// An empty builder over key and value builders.
    pub fn new(keys: K, values: V) -> Self {
        Self::with_capacity(keys, values, 0)
    }

    /// An empty builder with room for `capacity` maps.
    pub fn with_capacity(keys: K, values: V, capacity: usize) -> Self {
        MapBuilder {
            offsets: ListOffsets::with_capacity(capacity),
            validity: NullBufferBuilder::with_capacity(capacity),
            keys,
            values,
            entries_field: None,
            keys_sorted: false,
        }
    }

    /// Sets the entries field: a non-nullable struct of a non-nullable key field of the key
    /// builder's type and a value field of the value builder's type.
    pub fn with_entries_field(mut self, field: impl Into<FieldRef>) -> Result<Self> {
        let field = field.into();
        DataType::Map(field.clone(), false).validate()?;
        let expected = DataType::Struct(self.entry_fields_with(None));
        let DataType::Struct(given) = field.data_type() else {
            return Err(Error::invalid("map entries must be a struct"));
        };
        let types_match = given[0].data_type() == &self.keys.data_type()
            && given[1].data_type() == &self.values.data_type();
        if !types_match {
            return Err(Error::invalid(format!(
                "map entries field is {} but the builders build {expected}",
                field.data_type()
            )));
        }
        self.entries_field = Some(field);
        Ok(self)
    }

    /// Declares whether keys are sorted within each map (the `keys_sorted` flag of the type).
    pub fn with_keys_sorted(mut self, keys_sorted: bool) -> Self {
        self.keys_sorted = keys_sorted;
        self
    }

    fn entry_fields_with(&self, field: Option<&FieldRef>) -> Fields {
        match field.map(|f| f.data_type()) {
            Some(DataType::Struct(fields)) => fields.clone(),
            _ => vec![
                Field::new("keys", self.keys.data_type(), false),
                Field::new("values", self.values.data_type(), true),
            ]
            .into(),
        }
    }

    /// The entries field of the arrays this builder makes.
    pub fn entries_field(&self) -> FieldRef {
        self.entries_field.clone().unwrap_or_else(|| {
            let fields = self.entry_fields_with(None);
            Arc::new(Field::new("entries", DataType::Struct(fields), false))
        })
    }

    /// The key builder (keys must not be null).
    pub fn keys(&mut self) -> &mut K {
        &mut self.keys
    }

    /// The value builder.
    pub fn values(&mut self) -> &mut V {
        &mut self.values
    }

    /// Closes the current map, valid or null; [`Error::Overflow`] when there are more than
    /// `i32::MAX` entries, [`Error::InvalidArgument`] when the key and value builders have
    /// different lengths or shrank (builder unchanged on error).
    pub fn try_append(&mut self, is_valid: bool) -> Result<()> {
        self.check_entries()?;
        self.offsets.try_push(self.keys.len())?;
        self.validity.append(is_valid);
        Ok(())
    }

    /// Closes the current map, valid or null.
    ///
    /// # Panics
    /// When [`MapBuilder::try_append`] would fail.
    pub fn append(&mut self, is_valid: bool) {
        if let Err(e) = self.try_append(is_valid) {
            panic!("{e}");
        }
    }

    /// Appends a null map.
    ///
    /// # Panics
    /// As [`MapBuilder::append`].
    pub fn append_null(&mut self) {
        self.append(false)
    }

    /// Number of maps appended.
    #[inline]
    pub fn len(&self) -> usize {
        self.validity.len()
    }

    /// True when no map has been appended.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn check_entries(&self) -> Result<()> {
        if self.keys.len() != self.values.len() {
            return Err(Error::invalid(format!(
                "map has {} keys but {} values",
                self.keys.len(),
                self.values.len()
            )));
        }
        Ok(())
    }

    /// Builds the array and resets the builder.
    ///
    /// # Panics
    /// When [`Builder::check_finish`] fails, or a key referenced by a map is null.
    pub fn finish(&mut self) -> MapArray {
        expect_finish("MapBuilder", Builder::check_finish(self));
        match self.finish_checked() {
            Ok(m) => m,
            Err(e) => panic!("MapBuilder::finish: {e}"),
        }
    }

    /// Builds the array, or returns the [`Builder::check_finish`] error (builder unchanged).
    /// A null key referenced by a map is reported too, but only after the builder was reset.
    pub fn try_finish(&mut self) -> Result<MapArray> {
        Builder::check_finish(self)?;
        self.finish_checked()
    }

    fn finish_checked(&mut self) -> Result<MapArray> {
        let field = self.entries_field();
        let fields = self.entry_fields_with(Some(&field));
        let len = self.keys.len();
        let children = vec![self.keys.finish_array(), self.values.finish_array()];
        let entries = StructArray::try_new(fields, len, children, None)?;
        let offsets = self.offsets.finish();
        MapArray::try_new(
            field,
            self.keys_sorted,
            offsets,
            entries,
            self.validity.finish(),
        )
    }
}

impl<K: Builder, V: Builder> Builder for MapBuilder<K, V> {
    fn len(&self) -> usize {
        self.len()
    }
    fn data_type(&self) -> DataType {
        DataType::Map(self.entries_field(), self.keys_sorted)
    }
    fn append_null(&mut self) {
        self.append_null()
    }
    fn check_finish(&self) -> Result<()> {
        self.keys.check_finish()?;
        self.values.check_finish()?;
        self.check_entries()?;
        let fields = self.entry_fields_with(self.entries_field.as_ref());
        if fields[0].data_type() != &self.keys.data_type()
            || fields[1].data_type() != &self.values.data_type()
        {
            return Err(Error::invalid(
                "map key or value builder no longer builds the entries field's types",
            ));
        }
        let last = self.offsets.last();
        if last > self.keys.len() {
            return Err(Error::invalid(format!(
                "map offsets reach {last} but there are {} entries",
                self.keys.len()
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
    use crate::builder::{PrimitiveBuilder, StringBuilder};

    #[test]
    fn maps_and_default_fields() {
        // [{a: 1, b: null}, null, {}, {c: 3}]
        let mut b = MapBuilder::new(StringBuilder::new(), PrimitiveBuilder::<i32>::new());
        b.keys().append_value("a");
        b.values().append_value(1);
        b.keys().append_value("b");
        b.values().append_null();
        b.append(true);
        b.append_null();
        b.append(true);
        b.keys().append_value("c");
        b.values().append_value(3);
        b.append(true);
        let m = b.finish();
        assert_eq!(m.offsets().as_slice(), &[0, 2, 2, 2, 3]);
        assert_eq!(&m.validity().unwrap().bytes()[..], &[0b1101]);
        let keys = m.keys().as_utf8().unwrap();
        assert_eq!(keys.values().as_slice(), b"abc");
        assert!(keys.validity().is_none());
        let values = m.values().as_primitive::<i32>().unwrap();
        assert_eq!(values.values().as_slice(), &[1, 0, 3]);
        let entries = m.entries_field();
        assert_eq!(entries.name(), "entries");
        assert!(!entries.is_nullable());
        let DataType::Struct(kv) = entries.data_type() else {
            panic!("entries is a struct")
        };
        assert_eq!((kv[0].name(), kv[0].is_nullable()), ("keys", false));
        assert_eq!((kv[1].name(), kv[1].is_nullable()), ("values", true));
        assert_aligned(m.offsets().buffer().bytes());
        assert_valid(&Array::from(m));
    }

    #[test]
    fn custom_entries_field_and_sorted_flag() {
        let kv = vec![
            Field::new("key", DataType::Utf8, false),
            Field::new("value", DataType::Int32, false),
        ];
        let field = Arc::new(Field::new("kv", DataType::Struct(kv.into()), false));
        let mut b = MapBuilder::new(StringBuilder::new(), PrimitiveBuilder::<i32>::new())
            .with_entries_field(field.clone())
            .unwrap()
            .with_keys_sorted(true);
        b.keys().append_value("k");
        b.values().append_value(5);
        b.append(true);
        let m = b.finish();
        assert_eq!(m.data_type(), &DataType::Map(field, true));
        assert_valid(&Array::from(m));

        let wrong_types = vec![
            Field::new("key", DataType::Int64, false),
            Field::new("value", DataType::Int32, true),
        ];
        let wrong = Field::new("kv", DataType::Struct(wrong_types.into()), false);
        let b = MapBuilder::new(StringBuilder::new(), PrimitiveBuilder::<i32>::new());
        assert!(b.with_entries_field(wrong).is_err());
    }

    #[test]
    fn uneven_entries_are_errors() {
        let mut b = MapBuilder::new(StringBuilder::new(), PrimitiveBuilder::<i32>::new());
        b.keys().append_value("a");
        assert!(b.try_append(true).is_err());
        assert!(b.try_finish().is_err());
        b.values().append_value(1);
        b.try_append(true).unwrap();
        assert_eq!(b.try_finish().unwrap().len(), 1);
    }

    #[test]
    fn null_key_is_reported() {
        let mut b = MapBuilder::new(StringBuilder::new(), PrimitiveBuilder::<i32>::new());
        b.keys().append_null();
        b.values().append_value(1);
        b.append(true);
        assert!(b.try_finish().is_err());
    }
}
