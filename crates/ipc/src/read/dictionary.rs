//! The read side's dictionary table: dictionary batches by id, replacement and delta.
//!
//! A dictionary batch carries a one-column record batch of the dictionary's *value* type,
//! decoded at the path of the first field using the id (so dictionaries nested in the values
//! find their own ids, and must have been read before). A delta batch appends to the current
//! dictionary; a non-delta batch replaces it, which the file format forbids (there, deltas
//! apply in footer order and every batch sees the complete dictionary).

use super::ReadOptions;
use super::decode::{Env, Root, decode_roots};
use crate::convert::IpcSchema;
use crate::message::Message;
use quiver_arrow::compute::concat;
use quiver_arrow::{Array, DataType, Error, Result};
use std::collections::HashMap;
use std::sync::Arc;

/// The dictionaries read so far, by id.
///
/// ```
/// use quiver_ipc::read::DictionaryTable;
/// use quiver_ipc::IpcSchema;
/// use quiver_arrow::{DataType, Field, IntegerType, Schema};
/// let field = Field::new("d", DataType::dictionary(IntegerType::Int8, DataType::Utf8), true);
/// let schema = IpcSchema::new(Schema::new(vec![field]).into());
/// let table = DictionaryTable::new(&schema).unwrap();
/// assert!(table.get(0).is_none()); // id 0 is declared but not read yet
/// ```
#[derive(Clone, Debug)]
pub struct DictionaryTable {
    schema: IpcSchema,
    /// Value type and the path of the first field, by id.
    types: HashMap<i64, (DataType, Vec<usize>)>,
    by_id: HashMap<i64, Arc<Array>>,
    file: bool,
}

impl DictionaryTable {
    /// An empty table for a stream with `schema` (replacement dictionaries allowed).
    pub fn new(schema: &IpcSchema) -> Result<Self> {
        Ok(DictionaryTable {
            types: schema.dictionaries.value_types(&schema.schema)?,
            schema: schema.clone(),
            by_id: HashMap::new(),
            file: false,
        })
    }

    /// An empty table for a file with `schema`: a second non-delta batch for an id is an
    /// error.
    pub fn new_for_file(schema: &IpcSchema) -> Result<Self> {
        Ok(DictionaryTable {
            file: true,
            ..Self::new(schema)?
        })
    }

    /// The current dictionary (values) with `id`.
    pub fn get(&self, id: i64) -> Option<&Arc<Array>> {
        self.by_id.get(&id)
    }

    /// Number of dictionaries read.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    /// True when no dictionary has been read.
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    pub(crate) fn by_id(&self) -> &HashMap<i64, Arc<Array>> {
        &self.by_id
    }

    /// Decodes a dictionary batch message and applies it (replacement or delta); returns the
    /// dictionary id.
    pub fn apply(&mut self, message: &Message, options: &ReadOptions) -> Result<i64> {
        let d = message
            .fb()
            .header_as_dictionary_batch()
            .ok_or_else(|| Error::oos("message is not a dictionary batch"))?;
        let (id, delta) = (d.id(), d.isDelta());
        let values = self
            .decode(message, id, options)
            .map_err(|e| e.context(format!("dictionary id {id}")))?;
        let values = match (delta, self.by_id.get(&id)) {
            (true, Some(old)) if old.len().checked_add(values.len()).is_none() => {
                return Err(Error::oos(format!(
                    "dictionary id {id}: delta overflows the length"
                )));
            }
            (true, Some(old)) => concat(&[old, &values])
                .map_err(|e| Error::oos(format!("dictionary id {id}: delta: {e}")))?,
            (true, None) => {
                return Err(Error::oos(format!(
                    "delta dictionary batch for id {id} before any dictionary with that id"
                )));
            }
            (false, Some(_)) if self.file => {
                return Err(Error::oos(format!(
                    "the file replaces dictionary {id}; after the first, a file may only \
                     have delta dictionary batches"
                )));
            }
            (false, _) => values,
        };
        self.by_id.insert(id, Arc::new(values));
        Ok(id)
    }

    fn decode(&self, message: &Message, id: i64, options: &ReadOptions) -> Result<Array> {
        let (value_type, path) = self.types.get(&id).ok_or_else(|| {
            Error::oos(format!(
                "dictionary batch with id {id}, which no field of the schema uses"
            ))
        })?;
        let root = Root {
            data_type: value_type,
            path: path.clone(),
            label: "values".into(),
        };
        let env = Env {
            ids: &self.schema.dictionaries,
            endianness: self.schema.endianness,
            dictionaries: &self.by_id,
            options,
        };
        let (arrays, len) = decode_roots(message, std::slice::from_ref(&root), &env)?;
        let values = arrays
            .into_iter()
            .next()
            .ok_or_else(|| Error::oos("dictionary batch without a column"))?;
        if values.len() != len {
            return Err(Error::oos(format!(
                "dictionary batch has length {len} but its values have {}",
                values.len()
            )));
        }
        values.validate(options.level())?;
        Ok(values)
    }
}
