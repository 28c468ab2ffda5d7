//! Fields, schemas, metadata and extension types.

use super::DataType;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Key/value metadata, ordered for deterministic output.
pub type Metadata = BTreeMap<String, String>;

/// Metadata key naming an extension type.
pub const EXTENSION_NAME_KEY: &str = "ARROW:extension:name";
/// Metadata key holding an extension type's serialized parameters.
pub const EXTENSION_METADATA_KEY: &str = "ARROW:extension:metadata";

/// A shared [`Field`].
pub type FieldRef = Arc<Field>;

/// A named, typed column or child.
///
/// ```
/// use quiver_arrow::{DataType, Field};
/// let f = Field::new("uuid", DataType::FixedSizeBinary(16), false)
///     .with_metadata([("ARROW:extension:name".into(), "arrow.uuid".into())].into());
/// let ext = f.extension_type().unwrap();
/// assert_eq!(ext.name, "arrow.uuid");
/// assert_eq!(f.data_type(), &DataType::FixedSizeBinary(16)); // storage type kept
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    name: String,
    data_type: DataType,
    nullable: bool,
    metadata: Metadata,
}

/// The extension type of a field: its name and serialized parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtensionType<'a> {
    /// Value of `ARROW:extension:name`.
    pub name: &'a str,
    /// Value of `ARROW:extension:metadata` (empty when absent).
    pub metadata: &'a str,
}

impl Field {
    /// A field without metadata.
    pub fn new(name: impl Into<String>, data_type: DataType, nullable: bool) -> Self {
        Field {
            name: name.into(),
            data_type,
            nullable,
            metadata: Metadata::new(),
        }
    }
    /// Replaces the metadata.
    pub fn with_metadata(mut self, metadata: Metadata) -> Self {
        self.metadata = metadata;
        self
    }
    /// Replaces the name.
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }
    /// Replaces the data type.
    pub fn with_data_type(mut self, data_type: DataType) -> Self {
        self.data_type = data_type;
        self
    }
    /// Replaces the nullability.
    pub fn with_nullable(mut self, nullable: bool) -> Self {
        self.nullable = nullable;
        self
    }
    /// Marks the field as an extension type over its current (storage) type.
    pub fn with_extension(mut self, name: &str, metadata: &str) -> Self {
        self.metadata.insert(EXTENSION_NAME_KEY.into(), name.into());
        self.metadata
            .insert(EXTENSION_METADATA_KEY.into(), metadata.into());
        self
    }
    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The (storage) type.
    pub fn data_type(&self) -> &DataType {
        &self.data_type
    }
    /// Whether values may be null.
    pub fn is_nullable(&self) -> bool {
        self.nullable
    }
    /// The metadata.
    pub fn metadata(&self) -> &Metadata {
        &self.metadata
    }
    /// The extension type, when `ARROW:extension:name` is present.
    pub fn extension_type(&self) -> Option<ExtensionType<'_>> {
        let name = self.metadata.get(EXTENSION_NAME_KEY)?;
        let metadata = self
            .metadata
            .get(EXTENSION_METADATA_KEY)
            .map(String::as_str)
            .unwrap_or("");
        Some(ExtensionType { name, metadata })
    }
}

/// An ordered, cheaply cloned list of fields.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Fields(Arc<[FieldRef]>);

impl Fields {
    /// No fields.
    pub fn empty() -> Self {
        Fields(Arc::new([]))
    }
    /// Index of the first field named `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.0.iter().position(|f| f.name() == name)
    }
}

impl std::ops::Deref for Fields {
    type Target = [FieldRef];
    fn deref(&self) -> &[FieldRef] {
        &self.0
    }
}
impl From<Vec<FieldRef>> for Fields {
    fn from(v: Vec<FieldRef>) -> Self {
        Fields(v.into())
    }
}
impl From<Vec<Field>> for Fields {
    fn from(v: Vec<Field>) -> Self {
        Fields(v.into_iter().map(Arc::new).collect())
    }
}
impl FromIterator<FieldRef> for Fields {
    fn from_iter<I: IntoIterator<Item = FieldRef>>(iter: I) -> Self {
        Fields(iter.into_iter().collect())
    }
}
impl FromIterator<Field> for Fields {
    fn from_iter<I: IntoIterator<Item = Field>>(iter: I) -> Self {
        Fields(iter.into_iter().map(Arc::new).collect())
    }
}
impl<'a> IntoIterator for &'a Fields {
    type Item = &'a FieldRef;
    type IntoIter = std::slice::Iter<'a, FieldRef>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// A shared [`Schema`].
pub type SchemaRef = Arc<Schema>;

/// The columns of a record batch, plus schema-level metadata.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Schema {
    /// The columns.
    pub fields: Fields,
    /// Schema-level metadata.
    pub metadata: Metadata,
}

impl Schema {
    /// A schema without metadata.
    pub fn new(fields: impl Into<Fields>) -> Self {
        Schema {
            fields: fields.into(),
            metadata: Metadata::new(),
        }
    }
    /// Replaces the metadata.
    pub fn with_metadata(mut self, metadata: Metadata) -> Self {
        self.metadata = metadata;
        self
    }
    /// The field named `name`.
    pub fn field_with_name(&self, name: &str) -> Option<&FieldRef> {
        self.fields.iter().find(|f| f.name() == name)
    }
    /// The schema of columns `indices`, in that order.
    pub fn project(&self, indices: &[usize]) -> crate::Result<Schema> {
        let fields = indices
            .iter()
            .map(|&i| {
                self.fields.get(i).cloned().ok_or_else(|| {
                    crate::Error::invalid(format!(
                        "column index {i} out of range for {} columns",
                        self.fields.len()
                    ))
                })
            })
            .collect::<crate::Result<Vec<_>>>()?;
        Ok(Schema {
            fields: fields.into(),
            metadata: self.metadata.clone(),
        })
    }
}
