//! The `schema` section: fields with their types, children, dictionary encodings and metadata.

use super::dictionary::Ids;
use super::types::{int_from_json, int_to_json, type_from_json, type_to_json};
use super::value::{Object, array_member, as_object, bool_member, int_member, kind, str_member};
use quiver_arrow::{DataType, Error, Field, FieldRef, Metadata, Result, Schema};
use quiver_ipc::schema::ipc_children;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A schema read from JSON, with the dictionary id of each dictionary-encoded field.
pub(crate) struct ReadSchema {
    pub schema: Schema,
    pub ids: Ids,
}

/// Reads the `schema` object.
pub(crate) fn read_schema(v: &Value) -> Result<ReadSchema> {
    let o = as_object(v, "the schema")?;
    let mut ids = BTreeMap::new();
    let mut path = Vec::new();
    let fields = array_member(o, "fields")?
        .iter()
        .enumerate()
        .map(|(i, f)| {
            path.push(i);
            let field =
                read_field(f, &mut path, &mut ids).map_err(|e| e.context(named("field", i, f)));
            path.pop();
            field.map(Arc::new)
        })
        .collect::<Result<Vec<_>>>()?;
    let metadata = read_metadata(o.get("metadata")).map_err(|e| e.context("metadata"))?;
    Ok(ReadSchema {
        schema: Schema::new(fields).with_metadata(metadata),
        ids,
    })
}

/// `field 3 ("name")`, or `field 3` when the name is unreadable.
fn named(what: &str, i: usize, f: &Value) -> String {
    match f.get("name").and_then(Value::as_str) {
        Some(name) => format!("{what} {i} (\"{name}\")"),
        None => format!("{what} {i}"),
    }
}

fn read_field(v: &Value, path: &mut Vec<usize>, ids: &mut Ids) -> Result<Field> {
    let o = as_object(v, "a field")?;
    let name = str_member(o, "name")?;
    let nullable = bool_member(o, "nullable", None)?;
    let children = match o.get("children") {
        None | Some(Value::Null) => Vec::new(),
        Some(_) => array_member(o, "children")?
            .iter()
            .enumerate()
            .map(|(i, c)| {
                path.push(i);
                let child = read_field(c, path, ids).map_err(|e| e.context(named("child", i, c)));
                path.pop();
                child.map(Arc::new)
            })
            .collect::<Result<Vec<FieldRef>>>()?,
    };
    let t = as_object(
        o.get("type")
            .ok_or_else(|| Error::oos("missing \"type\""))?,
        "\"type\"",
    )?;
    let mut data_type = type_from_json(t, children)?;
    if let Some(d) = o.get("dictionary").filter(|d| !d.is_null()) {
        let (id, dict_type) = read_dictionary(d, data_type).map_err(|e| e.context("dictionary"))?;
        ids.insert(path.clone(), id);
        data_type = dict_type;
    }
    let metadata = read_metadata(o.get("metadata")).map_err(|e| e.context("metadata"))?;
    Ok(Field::new(name, data_type, nullable).with_metadata(metadata))
}

/// The `dictionary` object of a field: its id and the dictionary type over `value`.
fn read_dictionary(v: &Value, value: DataType) -> Result<(i64, DataType)> {
    let d = as_object(v, "\"dictionary\"")?;
    let id = int_member(d, "id")?;
    let index = d
        .get("indexType")
        .ok_or_else(|| Error::oos("missing \"indexType\""))?;
    let key =
        int_from_json(as_object(index, "\"indexType\"")?).map_err(|e| e.context("indexType"))?;
    let ordered = bool_member(d, "isOrdered", Some(false))?;
    let dt = DataType::Dictionary {
        key,
        value: Arc::new(value),
        ordered,
    };
    Ok((id, dt))
}

/// Metadata: absent, `null`, a list of `{key, value}` or (leniently) an object of strings.
fn read_metadata(v: Option<&Value>) -> Result<Metadata> {
    let mut out = Metadata::new();
    match v {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                let o = as_object(item, "a metadata entry")
                    .and_then(|o| Ok((str_member(o, "key")?, str_member(o, "value")?)))
                    .map_err(|e| e.context(format!("entry {i}")))?;
                out.insert(o.0.to_string(), o.1.to_string());
            }
        }
        Some(Value::Object(o)) => {
            for (k, val) in o {
                let s = val.as_str().ok_or_else(|| {
                    Error::oos(format!(
                        "value of \"{k}\" must be a string, not {}",
                        kind(val)
                    ))
                })?;
                out.insert(k.clone(), s.to_string());
            }
        }
        Some(other) => {
            return Err(Error::oos(format!(
                "metadata must be a list of {{key, value}}, not {}",
                kind(other)
            )));
        }
    }
    Ok(out)
}

fn metadata_to_json(m: &Metadata) -> Value {
    Value::Array(
        m.iter()
            .map(|(k, v)| json!({"key": k, "value": v}))
            .collect(),
    )
}

/// The JSON of `schema`; `ids` must hold the id of every dictionary-encoded field.
pub(crate) fn write_schema(schema: &Schema, ids: &Ids) -> Result<Value> {
    let mut path = Vec::new();
    let fields = write_fields(schema.fields.iter(), &mut path, ids)?;
    let mut o = Map::new();
    o.insert("fields".into(), Value::Array(fields));
    if !schema.metadata.is_empty() {
        o.insert("metadata".into(), metadata_to_json(&schema.metadata));
    }
    Ok(Value::Object(o))
}

fn write_fields<'a>(
    fields: impl Iterator<Item = &'a FieldRef>,
    path: &mut Vec<usize>,
    ids: &Ids,
) -> Result<Vec<Value>> {
    fields
        .enumerate()
        .map(|(i, f)| {
            path.push(i);
            let v = write_field(f, path, ids);
            path.pop();
            v
        })
        .collect()
}

fn write_field(f: &Field, path: &mut Vec<usize>, ids: &Ids) -> Result<Value> {
    let (value_type, dictionary) = match f.data_type() {
        DataType::Dictionary {
            key,
            value,
            ordered,
        } => {
            let id = ids.get(path.as_slice()).ok_or_else(|| {
                Error::invalid(format!("no dictionary id for field path {path:?}"))
            })?;
            let d = json!({"id": id, "indexType": int_to_json(*key), "isOrdered": ordered});
            (value.as_ref(), Some(d))
        }
        other => (other, None),
    };
    if matches!(value_type, DataType::Dictionary { .. }) {
        return Err(Error::not_supported(format!(
            "field \"{}\" is a dictionary of dictionaries, which the format cannot express",
            f.name()
        )));
    }
    let children = write_fields(ipc_children(f.data_type()).iter(), path, ids)?;
    let mut o: Object = Map::new();
    o.insert("name".into(), f.name().into());
    o.insert("type".into(), type_to_json(value_type));
    o.insert("nullable".into(), f.is_nullable().into());
    o.insert("children".into(), Value::Array(children));
    if let Some(d) = dictionary {
        o.insert("dictionary".into(), d);
    }
    if !f.metadata().is_empty() {
        o.insert("metadata".into(), metadata_to_json(f.metadata()));
    }
    Ok(Value::Object(o))
}
