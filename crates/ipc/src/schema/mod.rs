//! The flatbuffer schema codec (`Schema.fbs` ↔ [`Schema`]), and where dictionary ids live.
//!
//! Dictionary ids are IPC state, not part of [`Field`](quiver_arrow::Field): [`DictionaryFields`] maps the *path* of
//! each dictionary-encoded field to its id. A path lists child indices from the schema root:
//! column `i` is `[i]`, child `j` of the field at `p` is `p + [j]`. The children of a
//! dictionary-encoded field are those of its value type (as in the IPC metadata), which is how
//! dictionaries nested inside dictionary values get paths of their own.
//!
//! This is the one copy of the convention: the integration JSON reader and writer use it too.
//! A dictionary whose value type is itself a dictionary (no child fields, as a type) has no
//! children: a `Field` of the metadata carries one dictionary encoding, so such a field has no
//! IPC (nor JSON) form, and the writers reject it. Arrow C++ assigns ids the same way (its
//! `DictionaryFieldMapper` walks the value type's fields, one level).

mod from_fb;
mod to_fb;

pub use from_fb::MAX_NESTING;
pub(crate) use from_fb::{check_version, metadata_from_fb, schema_from_fb};
pub use to_fb::check_nesting;
pub(crate) use to_fb::{metadata_to_fb, schema_to_fb};

use quiver_arrow::{DataType, Error, FieldRef, Result, Schema, SchemaRef};
use std::collections::{BTreeMap, HashMap};

/// Byte order of the buffers in an IPC stream or file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Endianness {
    /// Least significant byte first (every mainstream platform).
    #[default]
    Little,
    /// Most significant byte first; readers byte-swap to native order.
    Big,
}

/// A schema as the IPC metadata describes it: the Arrow schema, the dictionary id of every
/// dictionary-encoded field, and the byte order of the data that follows.
#[derive(Clone, Debug, PartialEq)]
pub struct IpcSchema {
    /// The schema.
    pub schema: SchemaRef,
    /// Dictionary ids by field path.
    pub dictionaries: DictionaryFields,
    /// Byte order of the body buffers.
    pub endianness: Endianness,
}

impl IpcSchema {
    /// A little-endian schema whose dictionaries get ids `0, 1, 2…` in depth-first order.
    pub fn new(schema: SchemaRef) -> Self {
        let dictionaries = DictionaryFields::assign(&schema);
        IpcSchema {
            schema,
            dictionaries,
            endianness: Endianness::Little,
        }
    }
}

/// The names along a field path (column index, then child indices in IPC metadata), joined
/// by `.`; a path past the schema's fields stops at the last field it reaches.
///
/// ```
/// use quiver_arrow::{DataType, Field, Schema};
/// use quiver_ipc::schema::path_name;
/// let inner = Field::new("x", DataType::Int8, true);
/// let s = Schema::new(vec![Field::new("s", DataType::Struct(vec![inner].into()), true)]);
/// assert_eq!(path_name(&s, &[0, 0]), "s.x");
/// ```
pub fn path_name(schema: &Schema, path: &[usize]) -> String {
    let mut names = Vec::with_capacity(path.len());
    let mut children = schema.fields.to_vec();
    for &i in path {
        let Some(f) = children.get(i).cloned() else {
            break;
        };
        names.push(f.name().to_string());
        children = ipc_children(f.data_type());
    }
    names.join(".")
}

/// The children a field has in IPC metadata: a dictionary-encoded field's are its value
/// type's (none when the value type is itself a dictionary; see the [module](self) notes).
///
/// ```
/// use quiver_arrow::{DataType, IntegerType};
/// use quiver_ipc::schema::ipc_children;
/// let list = DataType::list_of(DataType::dictionary(IntegerType::Int8, DataType::Utf8));
/// let dict = DataType::dictionary(IntegerType::Int16, list.clone());
/// assert_eq!(ipc_children(&dict), list.children());
/// assert!(ipc_children(&DataType::dictionary(IntegerType::Int8, dict)).is_empty());
/// ```
pub fn ipc_children(dt: &DataType) -> Vec<FieldRef> {
    match dt {
        DataType::Dictionary { value, .. } => value.children(),
        other => other.children(),
    }
}

/// Dictionary id of every dictionary-encoded field, by field path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DictionaryFields {
    by_path: BTreeMap<Vec<usize>, i64>,
}

impl DictionaryFields {
    /// Ids `0, 1, 2…` for the dictionary-encoded fields of `schema`, in depth-first pre-order.
    pub fn assign(schema: &Schema) -> Self {
        let mut out = DictionaryFields::default();
        let mut next = 0i64;
        let mut path = Vec::new();
        for (i, f) in schema.fields.iter().enumerate() {
            path.push(i);
            out.assign_field(f.data_type(), &mut path, &mut next);
            path.pop();
        }
        out
    }

    fn assign_field(&mut self, dt: &DataType, path: &mut Vec<usize>, next: &mut i64) {
        if matches!(dt, DataType::Dictionary { .. }) {
            self.by_path.insert(path.clone(), *next);
            *next += 1;
        }
        for (j, c) in ipc_children(dt).iter().enumerate() {
            path.push(j);
            self.assign_field(c.data_type(), path, next);
            path.pop();
        }
    }

    /// Records the id of the dictionary field at `path`.
    pub fn insert(&mut self, path: Vec<usize>, id: i64) {
        self.by_path.insert(path, id);
    }

    /// The id of the dictionary field at `path`.
    pub fn id_at(&self, path: &[usize]) -> Option<i64> {
        self.by_path.get(path).copied()
    }

    /// Every (path, id), paths in depth-first order.
    pub fn iter(&self) -> impl Iterator<Item = (&[usize], i64)> {
        self.by_path.iter().map(|(p, id)| (p.as_slice(), *id))
    }

    /// True when no field is dictionary-encoded.
    pub fn is_empty(&self) -> bool {
        self.by_path.is_empty()
    }

    /// For each id, the dictionary *value* type and the path of the first field using it (in
    /// path order). Fails when two fields share an id but not a value type, or when an id
    /// names a path that is missing or not dictionary-encoded.
    pub fn value_types(&self, schema: &Schema) -> Result<HashMap<i64, (DataType, Vec<usize>)>> {
        let mut out: HashMap<i64, (DataType, Vec<usize>)> = HashMap::new();
        for (path, id) in self.iter() {
            let field = field_at(schema, path).ok_or_else(|| {
                Error::oos(format!(
                    "dictionary id {id} names a missing field path {path:?}"
                ))
            })?;
            let DataType::Dictionary { value, .. } = field.data_type() else {
                return Err(Error::oos(format!(
                    "field at {path:?} has dictionary id {id} but is not dictionary-encoded"
                )));
            };
            match out.get(&id) {
                Some((t, first)) if t != value.as_ref() => {
                    return Err(Error::oos(format!(
                        "dictionary {id} is used with value type {t} (field path {first:?}) \
                         and {value} (field path {path:?})"
                    )));
                }
                Some(_) => {}
                None => {
                    out.insert(id, (value.as_ref().clone(), path.to_vec()));
                }
            }
        }
        Ok(out)
    }
}

/// The field at `path` (see [`DictionaryFields`] for the path convention).
pub fn field_at(schema: &Schema, path: &[usize]) -> Option<FieldRef> {
    let (first, rest) = path.split_first()?;
    let mut field = schema.fields.get(*first)?.clone();
    for &j in rest {
        let child = ipc_children(field.data_type()).get(j)?.clone();
        field = child;
    }
    Some(field)
}
