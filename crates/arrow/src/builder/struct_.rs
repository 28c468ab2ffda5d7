//! Builder of struct arrays.

use super::{ArrayBuilder, Builder, NullBufferBuilder, expect_finish, make_builder};
use crate::array::{Array, StructArray};
use crate::datatype::{DataType, Fields};
use crate::error::{Error, Result};

/// Builds a [`StructArray`] with one dynamic [`ArrayBuilder`] per field: append one value to
/// every child (through [`StructBuilder::field_builder`]), then
/// [`StructBuilder::append`]; [`StructBuilder::append_null`] appends a null to every child
/// itself.
///
/// ```
/// use quiver_arrow::builder::StructBuilder;
/// use quiver_arrow::{DataType, Field};
/// let fields = vec![Field::new("a", DataType::Int32, true), Field::new("b", DataType::Utf8, true)];
/// let mut b = StructBuilder::try_new(fields.into()).unwrap();
/// b.field_builder(0).as_primitive_mut::<i32>().unwrap().append_value(7);
/// b.field_builder(1).as_string_mut().unwrap().append_value("x");
/// b.append(true);
/// b.append_null();
/// let s = b.finish();
/// assert_eq!(s.len(), 2);
/// assert_eq!(s.null_count(), 1);
/// assert_eq!(s.column(1).null_count(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct StructBuilder {
    fields: Fields,
    children: Vec<ArrayBuilder>,
    validity: NullBufferBuilder,
}

impl StructBuilder {
    /// An empty builder whose children are made from the fields' types by [`make_builder`].
    pub fn try_new(fields: Fields) -> Result<Self> {
        Self::with_capacity(fields, 0)
    }

    /// An empty builder with room for `capacity` rows.
    pub fn with_capacity(fields: Fields, capacity: usize) -> Result<Self> {
        let children = fields
            .iter()
            .map(|f| make_builder(f.data_type(), capacity))
            .collect::<Result<Vec<_>>>()?;
        Ok(StructBuilder {
            fields,
            children,
            validity: NullBufferBuilder::with_capacity(capacity),
        })
    }

    /// A builder over given child builders (empty or not): one per field, of the field's type
    /// and all of the same length.
    pub fn from_builders(fields: Fields, children: Vec<ArrayBuilder>) -> Result<Self> {
        if fields.len() != children.len() {
            return Err(Error::invalid(format!(
                "{} fields but {} child builders",
                fields.len(),
                children.len()
            )));
        }
        let len = children.first().map_or(0, Builder::len);
        for (f, c) in fields.iter().zip(&children) {
            if f.data_type() != &c.data_type() || c.len() != len {
                return Err(Error::invalid(format!(
                    "child builder for \"{}\" builds {} of length {}, expected {} of length {len}",
                    f.name(),
                    c.data_type(),
                    c.len(),
                    f.data_type()
                )));
            }
        }
        let mut validity = NullBufferBuilder::new();
        validity.append_n_non_nulls(len);
        Ok(StructBuilder {
            fields,
            children,
            validity,
        })
    }

    /// The fields.
    pub fn fields(&self) -> &Fields {
        &self.fields
    }

    /// The builder of child `i`.
    ///
    /// # Panics
    /// When `i` is not below the number of fields.
    pub fn field_builder(&mut self, i: usize) -> &mut ArrayBuilder {
        &mut self.children[i]
    }

    /// All child builders, in field order.
    pub fn field_builders(&mut self) -> &mut [ArrayBuilder] {
        &mut self.children
    }

    /// The builder of the child named `name`.
    pub fn field_builder_by_name(&mut self, name: &str) -> Option<&mut ArrayBuilder> {
        let i = self.fields.index_of(name)?;
        self.children.get_mut(i)
    }

    /// Closes the current row, valid or null (every child must have received its value).
    #[inline]
    pub fn append(&mut self, is_valid: bool) {
        self.validity.append(is_valid);
    }

    /// Appends a null row: a null in every child, then the row.
    pub fn append_null(&mut self) {
        for c in &mut self.children {
            c.append_null();
        }
        self.validity.append_null();
    }

    /// Number of rows appended.
    #[inline]
    pub fn len(&self) -> usize {
        self.validity.len()
    }

    /// True when no row has been appended.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Builds the array and resets the builder.
    ///
    /// # Panics
    /// When [`Builder::check_finish`] fails (a child's length differs from the row count).
    pub fn finish(&mut self) -> StructArray {
        expect_finish("StructBuilder", Builder::check_finish(self));
        self.finish_checked()
    }

    /// Builds the array, or returns the [`Builder::check_finish`] error (builder unchanged).
    pub fn try_finish(&mut self) -> Result<StructArray> {
        Builder::check_finish(self)?;
        Ok(self.finish_checked())
    }

    fn finish_checked(&mut self) -> StructArray {
        let len = self.len();
        let children = self.children.iter_mut().map(|c| c.finish_array()).collect();
        StructArray::try_new(self.fields.clone(), len, children, self.validity.finish())
            .expect("checked by check_finish") // ok: checked by check_finish.
    }
}

impl Builder for StructBuilder {
    fn len(&self) -> usize {
        self.len()
    }
    fn data_type(&self) -> DataType {
        DataType::Struct(self.fields.clone())
    }
    fn append_null(&mut self) {
        self.append_null()
    }
    fn check_finish(&self) -> Result<()> {
        for (f, c) in self.fields.iter().zip(&self.children) {
            c.check_finish()?;
            if c.len() != self.len() {
                return Err(Error::invalid(format!(
                    "struct child \"{}\" has {} values but the struct has {} rows",
                    f.name(),
                    c.len(),
                    self.len()
                )));
            }
            if f.data_type() != &c.data_type() {
                return Err(Error::invalid(format!(
                    "struct child \"{}\" is declared {} but its builder builds {}",
                    f.name(),
                    f.data_type(),
                    c.data_type()
                )));
            }
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
    use crate::builder::tests::assert_valid;
    use crate::builder::{PrimitiveBuilder, StringBuilder};
    use crate::datatype::Field;

    fn fields() -> Fields {
        vec![
            Field::new("name", DataType::Utf8, true),
            Field::new("age", DataType::Int32, true),
        ]
        .into()
    }

    #[test]
    fn rows_and_null_rows() {
        // The spec's struct example: {joe, 1}, {null, 2}, null, {mark, 4}.
        let mut b = StructBuilder::try_new(fields()).unwrap();
        let rows = [(Some("joe"), 1), (None, 2)];
        for (name, age) in rows {
            b.field_builder(0)
                .as_string_mut()
                .unwrap()
                .append_option(name);
            b.field_builder(1)
                .as_primitive_mut::<i32>()
                .unwrap()
                .append_value(age);
            b.append(true);
        }
        b.append_null();
        b.field_builder_by_name("name")
            .unwrap()
            .as_string_mut()
            .unwrap()
            .append_value("mark");
        b.field_builder(1)
            .as_primitive_mut::<i32>()
            .unwrap()
            .append_value(4);
        b.append(true);
        let s = b.finish();
        assert_eq!(&s.validity().unwrap().bytes()[..], &[0b1011]);
        let names = s.column(0).as_utf8().unwrap();
        assert_eq!(names.offsets().as_slice(), &[0, 3, 3, 3, 7]);
        assert_eq!(names.values().as_slice(), b"joemark");
        assert_eq!(&names.validity().unwrap().bytes()[..], &[0b1001]);
        let ages = s.column(1).as_primitive::<i32>().unwrap();
        assert_eq!(ages.values().as_slice(), &[1, 2, 0, 4]);
        assert_eq!(&ages.validity().unwrap().bytes()[..], &[0b1011]);
        assert_valid(&Array::from(s));
    }

    #[test]
    fn uneven_children_are_reported() {
        let mut b = StructBuilder::try_new(fields()).unwrap();
        b.field_builder(0)
            .as_string_mut()
            .unwrap()
            .append_value("a");
        b.append(true);
        let err = b.try_finish().unwrap_err();
        assert!(err.to_string().contains("\"age\" has 0 values"), "{err}");
        b.field_builder(1).append_null();
        let s = b.try_finish().unwrap();
        assert_eq!(s.len(), 1);
        assert!(s.validity().is_none());
    }

    #[test]
    fn from_builders_checks_types_and_lengths() {
        let mut name = StringBuilder::new();
        name.append_value("a");
        let mut age = PrimitiveBuilder::<i32>::new();
        age.append_value(1);
        let children = vec![ArrayBuilder::from(name.clone()), ArrayBuilder::from(age)];
        let mut b = StructBuilder::from_builders(fields(), children).unwrap();
        assert_eq!(b.len(), 1);
        assert_eq!(b.finish().len(), 1);
        let wrong = vec![ArrayBuilder::from(name.clone()), ArrayBuilder::from(name)];
        assert!(StructBuilder::from_builders(fields(), wrong).is_err());
    }

    #[test]
    fn empty_struct() {
        let mut b = StructBuilder::try_new(Fields::empty()).unwrap();
        b.append(true);
        b.append_null();
        let s = b.finish();
        assert_eq!(s.len(), 2);
        assert_eq!(s.null_count(), 1);
        assert_valid(&Array::from(s));
    }
}
