//! Record batches and columns (`FieldData`) from JSON into arrays: the dispatch.
//!
//! Layering: `node.rs` reads one `FieldData` object (its buffers by layout kind);
//! `read_flat.rs` and `read_nested.rs` build one array from a node (nested ones from child
//! columns handed to them); this module walks the type tree, choosing between the two and
//! recursing into the children of each type's layout. Nothing below imports this module.
//!
//! Each JSON node is checked where it is parsed: `count`, buffer lengths against it, each
//! value's encoding. Arrays are built with the checking constructors, so what comes out has
//! passed the content checks too; errors name the batch, column path and buffer.

use super::node::Node;
use super::value::{array_member, as_object, int_member};
use super::{read_flat, read_nested};
use quiver_arrow::datatype::Children;
use quiver_arrow::{Array, DataType, Error, Field, RecordBatch, Result, SchemaRef};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Decodes columns given the dictionary ids of the schema and the dictionaries read so far.
pub(crate) struct Decoder<'a> {
    /// Dictionary id of each dictionary-encoded field.
    pub ids: &'a BTreeMap<Vec<usize>, i64>,
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
        RecordBatch::try_new_with_rows(schema.clone(), arrays, count)
            .map_err(Error::into_input_error)
    }

    /// The column of `field` (at `path`), whose `name`, when given, must be the field's.
    pub fn field(&self, v: &Value, field: &Field, path: &mut Vec<usize>) -> Result<Array> {
        let node = Node::new(v, field.data_type())?;
        if let Some(name) = node.name().filter(|n| *n != field.name()) {
            return Err(Error::oos(format!(
                "column data is named \"{name}\" but the field is \"{}\"",
                field.name()
            )));
        }
        self.array(&node, field.data_type(), path)
    }

    /// The array of type `dt` in `node` (read for `dt`); `path` locates the field, for
    /// dictionary ids.
    pub fn array(&self, node: &Node, dt: &DataType, path: &mut Vec<usize>) -> Result<Array> {
        let a = match dt {
            DataType::Dictionary { key, ordered, .. } => {
                let values = self.dictionary(path)?;
                read_nested::dictionary(node, *key, *ordered, values)
            }
            _ if dt.is_nested() || matches!(dt, DataType::RunEndEncoded(..)) => {
                let mut children = || self.children(node, dt.layout().children, path);
                read_nested::nested(node, dt, &mut children)
            }
            _ => read_flat::flat(node, dt),
        }?;
        debug_assert!(
            node.untaken().is_empty(),
            "{dt}: buffers {:?} of the layout were not read",
            node.untaken()
        );
        Ok(a)
    }

    /// The child columns of `fields` (a layout's children) in `node`, each at `path + [i]`.
    fn children(&self, node: &Node, fields: Children, path: &mut Vec<usize>) -> Result<Vec<Array>> {
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
    fn dictionary(&self, path: &[usize]) -> Result<Arc<Array>> {
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
