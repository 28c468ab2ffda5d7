//! Record batches and columns (`FieldData`) from JSON into arrays.
//!
//! Each JSON node is checked where it is parsed: `count`, buffer lengths against it, each
//! value's encoding. Arrays are built with the checking constructors, so what comes out has
//! passed the content checks too; errors name the batch, column path and buffer.

use super::FieldPath;
use super::value::{Object, array_member, as_object, int_member, json_bool, kind};
use super::{read_flat, read_nested};
use quiver_arrow::{Array, Bitmap, DataType, Error, Field, RecordBatch, Result, SchemaRef};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One `FieldData` object: its members and its `count`.
pub(crate) struct Node<'a> {
    obj: &'a Object,
    /// The `count` member: the array's length.
    pub len: usize,
}

impl<'a> Node<'a> {
    /// Reads the object and its `count`.
    pub fn new(v: &'a Value) -> Result<Self> {
        let obj = as_object(v, "column data")?;
        // Lengths are 64-bit signed in the format; bounding them keeps `len + 1` exact.
        let count: i64 = int_member(obj, "count")?;
        let len = usize::try_from(count)
            .map_err(|_| Error::oos(format!("\"count\" {count} is negative or too large")))?;
        Ok(Node { obj, len })
    }

    /// The `name` member, when present.
    pub fn name(&self) -> Option<&'a str> {
        self.obj.get("name").and_then(Value::as_str)
    }

    /// True when member `key` is present.
    pub fn has(&self, key: &str) -> bool {
        self.obj.get(key).is_some_and(|v| !v.is_null())
    }

    /// Member `key`, which must be an array (of any length).
    pub fn array(&self, key: &str) -> Result<&'a [Value]> {
        array_member(self.obj, key)
    }

    /// Buffer `key`, which must be an array of `expected` entries.
    pub fn buffer(&self, key: &str, expected: usize) -> Result<&'a [Value]> {
        let b = array_member(self.obj, key)?;
        if b.len() != expected {
            return Err(Error::oos(format!(
                "{key} has {} entries, expected {expected} (count is {})",
                b.len(),
                self.len
            )));
        }
        Ok(b)
    }

    /// Buffer `key` of `expected` entries, each decoded by `parse` (errors name the entry).
    pub fn values<T>(
        &self,
        key: &str,
        expected: usize,
        parse: impl Fn(&Value) -> Result<T>,
    ) -> Result<Vec<T>> {
        self.buffer(key, expected)?
            .iter()
            .enumerate()
            .map(|(i, v)| parse(v).map_err(|e| e.context(format!("{key}[{i}]"))))
            .collect()
    }

    /// The `VALIDITY` bitmap: `None` when absent or when every slot is valid.
    pub fn validity(&self) -> Result<Option<Bitmap>> {
        if !self.has("VALIDITY") {
            return Ok(None);
        }
        let bits = self.values("VALIDITY", self.len, json_bool)?;
        Ok(bits.iter().any(|b| !b).then(|| bits.into_iter().collect()))
    }

    /// The `children` array, which must have `n` entries (absent counts as empty).
    pub fn children(&self, n: usize) -> Result<&'a [Value]> {
        let children = match self.obj.get("children") {
            None | Some(Value::Null) => &[][..],
            Some(Value::Array(c)) => c.as_slice(),
            Some(other) => {
                return Err(Error::oos(format!(
                    "\"children\" must be an array, not {}",
                    kind(other)
                )));
            }
        };
        if children.len() != n {
            return Err(Error::oos(format!(
                "{} children, expected {n}",
                children.len()
            )));
        }
        Ok(children)
    }
}

/// Errors of constructors called on input data are the input's fault: report them as
/// out of spec so that context is added.
pub(crate) fn input_error(e: Error) -> Error {
    e.into_input_error()
}

/// Decodes columns given the dictionary ids of the schema and the dictionaries read so far.
pub(crate) struct Decoder<'a> {
    /// Dictionary id of each dictionary-encoded field.
    pub ids: &'a BTreeMap<FieldPath, i64>,
    /// Dictionary values by id.
    pub dictionaries: &'a BTreeMap<i64, Arc<Array>>,
}

impl Decoder<'_> {
    /// A record batch `{count, columns}` of `schema`.
    pub fn batch(&self, schema: &SchemaRef, v: &Value) -> Result<RecordBatch> {
        let o = as_object(v, "a record batch")?;
        let count: usize = int_member(o, "count")?;
        let columns = array_member(o, "columns")?;
        if columns.len() != schema.fields.len() {
            return Err(Error::oos(format!(
                "{} columns but the schema has {} fields",
                columns.len(),
                schema.fields.len()
            )));
        }
        let mut path = vec![0];
        let arrays = schema
            .fields
            .iter()
            .zip(columns)
            .enumerate()
            .map(|(i, (f, c))| {
                path[0] = i;
                self.field(c, f, &mut path)
                    .map_err(|e| e.context(format!("column {i} (\"{}\")", f.name())))
            })
            .collect::<Result<Vec<_>>>()?;
        RecordBatch::try_new_with_rows(schema.clone(), arrays, count).map_err(input_error)
    }

    /// The column of `field` (at `path`), whose `name`, when given, must be the field's.
    pub fn field(&self, v: &Value, field: &Field, path: &mut FieldPath) -> Result<Array> {
        let node = Node::new(v)?;
        if let Some(name) = node.name().filter(|n| *n != field.name()) {
            return Err(Error::oos(format!(
                "column data is named \"{name}\" but the field is \"{}\"",
                field.name()
            )));
        }
        self.array(&node, field.data_type(), path)
    }

    /// The array of type `dt` in `node`; `path` locates the field, for dictionary ids.
    pub fn array(&self, node: &Node, dt: &DataType, path: &mut FieldPath) -> Result<Array> {
        if dt.is_nested()
            || matches!(
                dt,
                DataType::Dictionary { .. } | DataType::RunEndEncoded(..)
            )
        {
            read_nested::nested(self, node, dt, path)
        } else {
            read_flat::flat(node, dt)
        }
    }

    /// The child columns of `fields` in `node`, each at `path + [i]`.
    pub fn children(
        &self,
        node: &Node,
        fields: &[quiver_arrow::FieldRef],
        path: &mut FieldPath,
    ) -> Result<Vec<Array>> {
        let json = node.children(fields.len())?;
        fields
            .iter()
            .zip(json)
            .enumerate()
            .map(|(i, (f, c))| {
                path.push(i);
                let a = self.field(c, f, path);
                path.pop();
                a.map_err(|e| e.context(format!("child {i} (\"{}\")", f.name())))
            })
            .collect()
    }

    /// The values of the dictionary of the field at `path`.
    pub fn dictionary(&self, path: &FieldPath) -> Result<Arc<Array>> {
        let id = self
            .ids
            .get(path)
            .ok_or_else(|| Error::oos(format!("no dictionary id for field path {path:?}")))?;
        self.dictionaries.get(id).cloned().ok_or_else(|| {
            Error::oos(format!(
                "dictionary {id} is missing from the \"dictionaries\" section"
            ))
        })
    }
}
