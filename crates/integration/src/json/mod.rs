//! The Arrow integration-test JSON format (`docs/source/format/Integration.rst` of Apache
//! Arrow): a schema, dictionaries and record batches written out buffer by buffer, which
//! every Arrow implementation reads and writes to test itself against the others.
//!
//! - [`read_json`] / [`read_json_path`] parse a file (gzip-compressed or not) into a
//!   [`JsonFile`]; malformed input gives [`Error::OutOfSpec`](quiver_arrow::Error) naming the
//!   batch, column path and buffer, never a panic. Arrays are built with checking
//!   constructors, so they pass full validation.
//! - [`write_json`] writes a [`JsonFile`] in the shape the Arrow integration tests produce.
//!
//! Dictionary ids are IPC state, not part of [`Field`](quiver_arrow::Field): a [`JsonFile`]
//! keeps them in [`Dictionaries::ids`], by field path, so that an IPC writer can reuse them.
//!
//! The buffer members a column has (`VALIDITY`, `DATA`, `OFFSET`…) are those of its type's
//! layout ([`DataType::layout`](quiver_arrow::DataType::layout)), named by one mapping that the
//! reader and the writer share; field paths are quiver-ipc's
//! ([`DictionaryFields`](quiver_ipc::DictionaryFields)).
//!
//! Conventions where the spec is silent or implementations differ:
//! - half floats are written as their 16-bit pattern (a JSON integer), as Arrow C++ reads and
//!   writes them; a JSON number with a fraction is read as the value;
//! - non-finite floats are written as `"NaN"`, `"Infinity"`, `"-Infinity"`;
//! - decimals are written `{"name": "decimal", "precision", "scale", "bitWidth"}`; without
//!   `bitWidth` they are 128-bit, and the names `decimal32`/`64`/`128`/`256` (which Arrow C++
//!   writes) are read too;
//! - metadata is kept in an ordered map, so key order is not preserved and for a repeated key
//!   the last value wins;
//! - a pre-1.0 union `VALIDITY` (0.17 files) is accepted when it marks no slot null;
//! - nulls keep whatever their `DATA` holds, except that a null binary/string slot written as
//!   `""` over a non-empty `OFFSET` range becomes empty.
//!
//! ```
//! use quiver_integration::json::{read_json, write_json};
//! let text = r#"{
//!   "schema": {"fields": [{"name": "x", "type": {"name": "int", "isSigned": true, "bitWidth": 64},
//!                          "nullable": true, "children": []}]},
//!   "batches": [{"count": 2, "columns": [
//!     {"name": "x", "count": 2, "VALIDITY": [1, 0], "DATA": ["9007199254740993", "0"]}]}]
//! }"#;
//! let file = read_json(text.as_bytes()).unwrap();
//! let x = file.batches[0].column(0).as_primitive::<i64>().unwrap();
//! assert_eq!(x.iter().collect::<Vec<_>>(), vec![Some(9007199254740993), None]);
//! let again = read_json(write_json(&file).unwrap().as_bytes()).unwrap();
//! assert!(again.batches[0].column(0) == file.batches[0].column(0));
//! ```

mod decimal;
mod dictionary;
mod members;
mod node;
mod read;
mod read_flat;
mod read_nested;
mod schema;
mod types;
mod value;
mod write;
mod write_flat;

use quiver_arrow::{Array, Error, RecordBatch, Result, SchemaRef};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

/// The dictionaries of a file: the id of each dictionary-encoded field and the values of each
/// id. Dictionary arrays in the batches hold their values too; these maps are what an IPC
/// writer needs to reproduce the file's ids.
#[derive(Clone, Debug, Default)]
pub struct Dictionaries {
    /// The dictionary id of each dictionary-encoded field, by field path (the convention of
    /// [`DictionaryFields`](quiver_ipc::DictionaryFields): column `i` is `[i]`, child `j` of
    /// the field at `p` is `p + [j]`, and a dictionary-encoded field's children are those of
    /// its value type). Fields may share an id.
    pub ids: BTreeMap<Vec<usize>, i64>,
    /// The values of each dictionary, by id (as in the `dictionaries` section).
    pub values: BTreeMap<i64, Arc<Array>>,
}

/// The contents of an integration JSON file.
#[derive(Clone, Debug)]
pub struct JsonFile {
    /// The schema.
    pub schema: SchemaRef,
    /// The record batches, in order.
    pub batches: Vec<RecordBatch>,
    /// Dictionary ids and values.
    pub dictionaries: Dictionaries,
}

impl JsonFile {
    /// A file of `batches` of `schema`; dictionary ids are assigned when writing.
    pub fn new(schema: SchemaRef, batches: Vec<RecordBatch>) -> Self {
        JsonFile {
            schema,
            batches,
            dictionaries: Dictionaries::default(),
        }
    }
}

impl JsonFile {
    /// The schema as an IPC writer needs it: the file's dictionary ids by field path (fresh
    /// ids `0, 1, 2…` when the file names none), little-endian.
    pub fn ipc_schema(&self) -> quiver_ipc::IpcSchema {
        let mut schema = quiver_ipc::IpcSchema::new(self.schema.clone());
        if !self.dictionaries.ids.is_empty() {
            schema.dictionaries = dictionary::dictionary_fields(&self.dictionaries.ids);
        }
        schema
    }
}

/// Parses an integration JSON file.
///
/// Errors: [`Error::OutOfSpec`] for malformed JSON or data, with the place in its context
/// (`batch 1, column 2 ("x"), child 0 ("item"), DATA[3]: …`); [`Error::NotSupported`] for
/// pre-1.0 unions with nulls in their own validity.
pub fn read_json(bytes: &[u8]) -> Result<JsonFile> {
    let root: Value =
        serde_json::from_slice(bytes).map_err(|e| Error::oos(format!("invalid JSON: {e}")))?;
    let o = value::as_object(&root, "the file")?;
    let schema::ReadSchema { schema, ids } =
        schema::read_schema(value::member(o, "schema")?).map_err(|e| e.context("schema"))?;
    let schema = Arc::new(schema);
    let values = dictionary::read_dictionaries(o.get("dictionaries"), &schema, &ids)?;
    let decoder = read::Decoder {
        ids: &ids,
        dictionaries: &values,
    };
    let batches = value::array_member(o, "batches")?
        .iter()
        .enumerate()
        .map(|(i, b)| {
            decoder
                .batch(&schema, b)
                .map_err(|e| e.context(format!("batch {i}")))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(JsonFile {
        schema,
        batches,
        dictionaries: Dictionaries { ids, values },
    })
}

/// Reads and parses an integration JSON file, gunzipping it first when it is gzip-compressed
/// (the official files are `.json.gz`).
pub fn read_json_path(path: impl AsRef<Path>) -> Result<JsonFile> {
    let path = path.as_ref();
    let io = |e: std::io::Error| {
        Error::from(std::io::Error::new(
            e.kind(),
            format!("{}: {e}", path.display()),
        ))
    };
    let raw = std::fs::read(path).map_err(io)?;
    let bytes = if raw.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(raw.as_slice())
            .read_to_end(&mut out)
            .map_err(|e| Error::codec(format!("{}: gzip: {e}", path.display())))?;
        out
    } else {
        raw
    };
    read_json(&bytes).map_err(|e| e.context(path.display().to_string()))
}

/// Writes `file` as integration JSON (compact, members in the order the Arrow integration
/// tests write them).
///
/// Dictionary ids come from [`Dictionaries::ids`]; dictionary-encoded fields without one get
/// fresh ids. The `dictionaries` section holds [`Dictionaries::values`] and the dictionaries
/// of the batches, nested ones first.
///
/// Errors: [`Error::InvalidArgument`] when the format cannot hold the file as given: one id
/// whose dictionary differs between batches or fields, ids for fields that are not
/// dictionary-encoded, batches whose fields are not the schema's; [`Error::NotSupported`] for a
/// dictionary of dictionaries.
pub fn write_json(file: &JsonFile) -> Result<String> {
    if let Some(i) = file
        .batches
        .iter()
        .position(|b| b.schema().fields != file.schema.fields)
    {
        return Err(Error::invalid(format!(
            "batch {i} has other fields than the file's schema"
        )));
    }
    let ids = dictionary::assign_ids(&file.schema, &file.dictionaries.ids)?;
    let dictionaries = dictionary::collect(file, &ids)?;
    let mut root = Map::new();
    root.insert("schema".into(), schema::write_schema(&file.schema, &ids)?);
    if !dictionaries.is_empty() {
        let entries = dictionaries
            .iter()
            .map(|(id, values)| {
                let column = write::column(&format!("DICT{id}"), values);
                json!({"id": id, "data": {"count": values.len(), "columns": [column]}})
            })
            .collect();
        root.insert("dictionaries".into(), Value::Array(entries));
    }
    let batches = file
        .batches
        .iter()
        .map(|b| {
            let columns = b
                .schema()
                .fields
                .iter()
                .zip(b.columns())
                .map(|(f, c)| write::column(f.name(), c))
                .collect::<Vec<_>>();
            json!({"count": b.num_rows(), "columns": columns})
        })
        .collect();
    root.insert("batches".into(), Value::Array(batches));
    serde_json::to_string(&Value::Object(root))
        .map_err(|e| Error::invalid(format!("cannot serialise JSON: {e}")))
}
