//! Dictionaries: the `dictionaries` section (decoded with nested dictionaries first), the ids
//! to write, and the dictionaries of a [`JsonFile`] to write.
//!
//! Field paths and the value type of each id are those of [`DictionaryFields`] (the IPC
//! crate's, the one copy of the convention): a dictionary-encoded field's children are those
//! of its value type.

use super::JsonFile;
use super::node::Node;
use super::read::Decoder;
use super::value::{array_member, as_object, int_member};
use quiver_arrow::compute::logical_eq;
use quiver_arrow::{Array, DataType, Error, Result, Schema};
use quiver_ipc::DictionaryFields;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

/// Dictionary ids by field path.
pub(crate) type Ids = BTreeMap<Vec<usize>, i64>;

/// `ids` as the IPC crate holds them.
pub(crate) fn dictionary_fields(ids: &Ids) -> DictionaryFields {
    let mut out = DictionaryFields::default();
    for (path, id) in ids {
        out.insert(path.clone(), *id);
    }
    out
}

/// The value type and the path of the first field of each dictionary id; fields sharing an
/// id must agree on the value type.
fn value_types(schema: &Schema, ids: &Ids) -> Result<HashMap<i64, (DataType, Vec<usize>)>> {
    dictionary_fields(ids).value_types(schema)
}

/// All ids of `ids`, each after the ids of the dictionaries nested in its values.
fn dependency_order(ids: &Ids) -> Result<Vec<i64>> {
    let mut deps: BTreeMap<i64, BTreeSet<i64>> = BTreeMap::new();
    for (path, id) in ids {
        let nested = ids
            .range(path.clone()..)
            .skip(1)
            .take_while(|(q, _)| q.starts_with(path))
            .map(|(_, &d)| d);
        deps.entry(*id).or_default().extend(nested);
    }
    fn visit(
        id: i64,
        deps: &BTreeMap<i64, BTreeSet<i64>>,
        state: &mut BTreeMap<i64, bool>,
        order: &mut Vec<i64>,
    ) -> Result<()> {
        match state.get(&id) {
            Some(true) => return Ok(()),
            Some(false) => return Err(Error::oos(format!("dictionary {id} contains itself"))),
            None => {}
        }
        state.insert(id, false);
        for &d in deps.get(&id).into_iter().flatten() {
            visit(d, deps, state, order)?;
        }
        state.insert(id, true);
        order.push(id);
        Ok(())
    }
    let (mut state, mut order) = (BTreeMap::new(), Vec::new());
    for &id in deps.keys() {
        visit(id, &deps, &mut state, &mut order)?;
    }
    Ok(order)
}

/// Decodes the `dictionaries` section (absent or `null` when there are none).
pub(crate) fn read_dictionaries(
    section: Option<&Value>,
    schema: &Schema,
    ids: &Ids,
) -> Result<BTreeMap<i64, Arc<Array>>> {
    let types = value_types(schema, ids).map_err(|e| e.context("schema"))?;
    let mut raw = BTreeMap::new();
    let entries = match section {
        None | Some(Value::Null) => &[][..],
        Some(v) => v
            .as_array()
            .map(Vec::as_slice)
            .ok_or_else(|| Error::oos("\"dictionaries\" must be an array"))?,
    };
    for (i, entry) in entries.iter().enumerate() {
        let ctx = || format!("dictionaries[{i}]");
        let o = as_object(entry, "a dictionary batch").map_err(|e| e.context(ctx()))?;
        let id: i64 = int_member(o, "id").map_err(|e| e.context(ctx()))?;
        if !types.contains_key(&id) {
            return Err(
                Error::oos(format!("dictionary {id} is not used by any field")).context(ctx()),
            );
        }
        let data = o
            .get("data")
            .ok_or_else(|| Error::oos("missing \"data\"").context(ctx()))?;
        if raw.insert(id, data).is_some() {
            return Err(Error::oos(format!("dictionary {id} is given twice")).context(ctx()));
        }
    }
    let mut done = BTreeMap::new();
    for id in dependency_order(ids)? {
        let (Some(data), Some((dt, path))) = (raw.get(&id), types.get(&id)) else {
            continue;
        };
        let decoder = Decoder {
            ids,
            dictionaries: &done,
        };
        let values = decode_dictionary(&decoder, data, dt, path)
            .map_err(|e| e.context(format!("dictionary {id}")))?;
        done.insert(id, Arc::new(values));
    }
    Ok(done)
}

/// The one column of a dictionary batch `{count, columns: [column]}` (writers give `data` as
/// that object; the spec's text shows it inside a one-element array, accepted too).
fn decode_dictionary(d: &Decoder, data: &Value, dt: &DataType, path: &[usize]) -> Result<Array> {
    let data = match data.as_array().map(Vec::as_slice) {
        Some([one]) => one,
        _ => data,
    };
    let o = as_object(data, "\"data\"")?;
    let count: usize = int_member(o, "count")?;
    let columns = array_member(o, "columns")?;
    let [column] = columns else {
        return Err(Error::oos(format!(
            "a dictionary batch has {} columns, expected 1",
            columns.len()
        )));
    };
    let node = Node::new(column, dt)?;
    if node.len != count {
        return Err(Error::oos(format!(
            "column count {} differs from batch count {count}",
            node.len
        )));
    }
    d.array(&node, dt, &mut path.to_vec())
}

/// The ids to write: those given, and fresh ones (above the largest given) for the other
/// dictionary-encoded fields. Given ids must belong to dictionary-encoded fields, and fields
/// sharing an id must have the same value type.
pub(crate) fn assign_ids(schema: &Schema, given: &Ids) -> Result<Ids> {
    let fields = DictionaryFields::assign(schema);
    if let Some(p) = given.keys().find(|p| fields.id_at(p).is_none()) {
        return Err(Error::invalid(format!(
            "a dictionary id is given for field path {p:?}, which is not dictionary-encoded"
        )));
    }
    let mut next = given.values().max().map_or(0, |m| m.saturating_add(1));
    let mut ids = BTreeMap::new();
    for (path, _) in fields.iter() {
        let id = given.get(path).copied().unwrap_or_else(|| {
            next += 1;
            next - 1
        });
        ids.insert(path.to_vec(), id);
    }
    value_types(schema, &ids).map_err(|e| Error::invalid(e.to_string()))?;
    Ok(ids)
}

/// The dictionaries to write, nested ones first: the values given in the file, then those
/// of the batches, which must agree with them (the format holds one dictionary per id).
pub(crate) fn collect(file: &JsonFile, ids: &Ids) -> Result<Vec<(i64, Arc<Array>)>> {
    let mut c = Collector {
        ids,
        found: BTreeMap::new(),
    };
    let types = value_types(&file.schema, ids).map_err(|e| Error::invalid(e.to_string()))?;
    for (id, values) in &file.dictionaries.values {
        let Some((dt, path)) = types.get(id) else {
            return Err(Error::invalid(format!(
                "dictionary {id} is given but no field uses it"
            )));
        };
        if values.data_type() != dt {
            return Err(Error::invalid(format!(
                "dictionary {id} holds {} values but its fields want {dt}",
                values.data_type()
            )));
        }
        c.add(*id, values, &mut path.clone())?;
    }
    for (b, batch) in file.batches.iter().enumerate() {
        for (i, column) in batch.columns().iter().enumerate() {
            c.walk(column, &mut vec![i]).map_err(|e| match e {
                Error::InvalidArgument { message: m, .. } => {
                    Error::invalid(format!("batch {b}, column {i}: {m}"))
                }
                other => other,
            })?;
        }
    }
    let order = dependency_order(ids)?;
    Ok(order
        .into_iter()
        .filter_map(|id| c.found.remove(&id).map(|v| (id, v)))
        .collect())
}

struct Collector<'a> {
    ids: &'a Ids,
    found: BTreeMap<i64, Arc<Array>>,
}

impl Collector<'_> {
    fn add(&mut self, id: i64, values: &Arc<Array>, path: &mut Vec<usize>) -> Result<()> {
        if let Some(existing) = self.found.get(&id) {
            if Arc::ptr_eq(existing, values) || logical_eq(existing, values) {
                return Ok(());
            }
            return Err(Error::invalid(format!(
                "dictionary {id} has different values in different places, but the JSON \
                 format holds one dictionary per id"
            )));
        }
        self.found.insert(id, values.clone());
        self.walk_children(values, path)
    }

    fn walk(&mut self, a: &Array, path: &mut Vec<usize>) -> Result<()> {
        if let Array::Dictionary(d) = a {
            let id = *self.ids.get(path.as_slice()).ok_or_else(|| {
                Error::invalid(format!("no dictionary id for field path {path:?}"))
            })?;
            return self.add(id, d.values(), path);
        }
        self.walk_children(a, path)
    }

    fn walk_children(&mut self, a: &Array, path: &mut Vec<usize>) -> Result<()> {
        for (i, child) in a.children().iter().enumerate() {
            path.push(i);
            let r = self.walk(child, path);
            path.pop();
            r?;
        }
        Ok(())
    }
}
