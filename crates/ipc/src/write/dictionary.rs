//! The write side of dictionaries: which dictionary each id last carried, and what a new batch
//! requires the writer to send.
//!
//! Dictionary-encoded arrays are found by field path (the convention of
//! [`DictionaryFields`](crate::DictionaryFields)): the children of a dictionary-encoded field are
//! its values' children, so dictionaries nested in dictionary values have paths of their own.
//! Nested dictionaries are sent before the dictionaries whose values use them.

use crate::schema::IpcSchema;
use quiver_arrow::compute::logical_eq;
use quiver_arrow::{Array, Error, Result};
use std::collections::HashMap;
use std::sync::Arc;

/// One dictionary message to write.
#[derive(Clone, Debug)]
pub struct DictionaryUpdate {
    /// The dictionary id.
    pub id: i64,
    /// The values to send: the whole dictionary, or only the appended values of a delta.
    pub values: Array,
    /// True for a delta (values appended to what the reader has), false for a first
    /// dictionary or a replacement.
    pub is_delta: bool,
}

/// The dictionary messages a batch needs, not yet recorded as sent.
#[derive(Debug, Default)]
pub(crate) struct Pending {
    updates: Vec<DictionaryUpdate>,
    found: Vec<(i64, Arc<Array>)>,
}

impl Pending {
    /// The messages to write, nested dictionaries first.
    pub(crate) fn updates(&self) -> &[DictionaryUpdate] {
        &self.updates
    }
}

/// How a dictionary compares with the one sent before under its id.
enum Change {
    Same,
    Grew,
    Replaced,
}

/// The dictionaries a reader has received so far, by id.
///
/// ```
/// use quiver_arrow::{Array, DataType, DictionaryArray, Field, IntegerType, PrimitiveArray, Schema, StringArray};
/// use quiver_ipc::{IpcSchema, write::DictionaryTracker};
/// use std::sync::Arc;
/// let dt = DataType::dictionary(IntegerType::Int32, DataType::Utf8);
/// let schema = IpcSchema::new(Arc::new(Schema::new(vec![Field::new("d", dt, true)])));
/// let column = |values: &[&str]| {
///     let values = Array::from(StringArray::from_options(values.iter().map(|v| Some(*v))));
///     let keys = Array::from(PrimitiveArray::<i32>::new(vec![0]));
///     Array::from(DictionaryArray::try_new(keys, values, false).unwrap())
/// };
/// let mut t = DictionaryTracker::new(false, true);
/// let first = t.updates(&schema, &[column(&["a"])]).unwrap();
/// assert!(first.len() == 1 && !first[0].is_delta);
/// assert!(t.updates(&schema, &[column(&["a"])]).unwrap().is_empty()); // unchanged
/// let delta = t.updates(&schema, &[column(&["a", "b"])]).unwrap();
/// assert!(delta[0].is_delta && delta[0].values.len() == 1);
/// let replaced = t.updates(&schema, &[column(&["c"])]).unwrap();
/// assert!(!replaced[0].is_delta);
/// ```
#[derive(Debug, Default)]
pub struct DictionaryTracker {
    written: HashMap<i64, Arc<Array>>,
    file_format: bool,
    emit_deltas: bool,
}

impl DictionaryTracker {
    /// A tracker for the file format (replacements are errors) or the stream format, sending
    /// grown dictionaries as deltas when `emit_deltas` is set.
    pub fn new(file_format: bool, emit_deltas: bool) -> Self {
        DictionaryTracker {
            written: HashMap::new(),
            file_format,
            emit_deltas,
        }
    }

    /// The dictionary messages to write before a batch of `columns` (laid out as `schema`),
    /// nested dictionaries first, and records them as sent. On error nothing is recorded.
    ///
    /// Fails when a dictionary-encoded field has no id, when fields sharing an id carry
    /// different dictionaries, and in the file format when a dictionary would be replaced.
    pub fn updates(
        &mut self,
        schema: &IpcSchema,
        columns: &[Array],
    ) -> Result<Vec<DictionaryUpdate>> {
        let pending = self.plan(schema, columns)?;
        Ok(self.commit(pending))
    }

    /// Like [`DictionaryTracker::updates`], without recording anything yet.
    pub(crate) fn plan(&self, schema: &IpcSchema, columns: &[Array]) -> Result<Pending> {
        if schema.dictionaries.is_empty() {
            return Ok(Pending::default());
        }
        let found = dictionaries_by_id(schema, columns)?;
        let mut updates = Vec::new();
        for (id, values) in &found {
            if let Some(u) = self.update(*id, values)? {
                updates.push(u);
            }
        }
        Ok(Pending { updates, found })
    }

    /// Records the dictionaries of a plan as sent; returns its messages.
    pub(crate) fn commit(&mut self, pending: Pending) -> Vec<DictionaryUpdate> {
        self.written.extend(pending.found);
        pending.updates
    }

    fn update(&self, id: i64, values: &Arc<Array>) -> Result<Option<DictionaryUpdate>> {
        let Some(prev) = self.written.get(&id) else {
            return Ok(Some(full(id, values)));
        };
        match compare(prev, values) {
            Change::Same => Ok(None),
            Change::Grew if self.emit_deltas => {
                let (from, to) = (prev.len(), values.len());
                Ok(Some(DictionaryUpdate {
                    id,
                    values: values.slice(from, to - from),
                    is_delta: true,
                }))
            }
            _ if self.file_format => Err(Error::invalid(format!(
                "dictionary {id} changed between batches in a way only a replacement can \
                 express, and the IPC file format does not allow replacing a dictionary \
                 (a dictionary may only grow, with deltas enabled)"
            ))),
            _ => Ok(Some(full(id, values))),
        }
    }
}

fn full(id: i64, values: &Arc<Array>) -> DictionaryUpdate {
    DictionaryUpdate {
        id,
        values: values.as_ref().clone(),
        is_delta: false,
    }
}

fn compare(prev: &Arc<Array>, new: &Arc<Array>) -> Change {
    if Arc::ptr_eq(prev, new) {
        return Change::Same;
    }
    if new.len() < prev.len() || !logical_eq(prev, &new.slice(0, prev.len())) {
        return Change::Replaced;
    }
    if new.len() == prev.len() {
        Change::Same
    } else {
        Change::Grew
    }
}

/// Every dictionary in `columns` with its id, nested ones first, each id once. Fields sharing
/// an id must carry the same dictionary.
fn dictionaries_by_id(schema: &IpcSchema, columns: &[Array]) -> Result<Vec<(i64, Arc<Array>)>> {
    let mut found = Vec::new();
    for (i, c) in columns.iter().enumerate() {
        walk(c, &mut vec![i], &mut found);
    }
    let mut out: Vec<(i64, Arc<Array>)> = Vec::new();
    let mut first_path: HashMap<i64, (Vec<usize>, Arc<Array>)> = HashMap::new();
    for (path, values) in found {
        let id = schema.dictionaries.id_at(&path).ok_or_else(|| {
            Error::invalid(format!(
                "the dictionary-encoded array at field path {path:?} has no dictionary id"
            ))
        })?;
        match first_path.get(&id) {
            None => {
                out.push((id, values.clone()));
                first_path.insert(id, (path, values));
            }
            Some((p, seen)) => {
                if !Arc::ptr_eq(seen, &values) && !logical_eq(seen, &values) {
                    return Err(Error::invalid(format!(
                        "dictionary {id} is shared by the fields at paths {p:?} and {path:?}, \
                         which carry different dictionaries"
                    )));
                }
            }
        }
    }
    Ok(out)
}

type Found = Vec<(Vec<usize>, Arc<Array>)>;

/// Collects the dictionaries at and below `a` (at `path`), children before parents.
fn walk(a: &Array, path: &mut Vec<usize>, out: &mut Found) {
    if let Array::Dictionary(d) = a {
        // The values' children are the field's children (see `DictionaryFields`).
        walk(d.values(), path, out);
        out.push((path.clone(), d.values().clone()));
        return;
    }
    for (j, c) in a.children().iter().enumerate() {
        path.push(j);
        walk(c, path, out);
        path.pop();
    }
}
