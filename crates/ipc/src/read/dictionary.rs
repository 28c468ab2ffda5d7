//! The read side's dictionary table: dictionary batches by id, replacement and delta.
//!
//! A dictionary batch carries a one-column record batch of the dictionary's *value* type,
//! decoded at the path of the first field using the id (so dictionaries nested in the values
//! find their own ids, and must have been read before). A delta batch appends to the current
//! dictionary; a non-delta batch replaces it, which the file format forbids (there, deltas
//! apply in footer order and every batch sees the complete dictionary).
//!
//! # Cost of deltas
//!
//! Record batches hold their dictionary as an immutable, cheaply cloned `Arc<Array>`, so a
//! dictionary that grows must be copied into a new array at some point. Copying it at every
//! delta makes a run of `n` deltas cost O(n²) (a small stream repeating one delta could take
//! seconds and hundreds of MiB). Instead, each id keeps its *base* (the dictionary as last
//! materialised) and the *deltas* read since; the complete dictionaries are materialised
//! lazily, once, when something needs them (a record batch, a nested dictionary, [`get`]), by
//! concatenating base and deltas in one pass. A run of deltas therefore costs one copy of the
//! result, whatever its length; a stream alternating "delta, batch" copies the dictionary once
//! per batch that follows a delta (as other Arrow implementations do), which is bounded by the
//! budget below. [`DictionaryTable::concatenated_bytes`] counts the bytes copied.
//!
//! The dictionaries held at once (bases and deltas, by [`Array::buffer_bytes`]) may not exceed
//! [`ReadOptions::with_max_dictionary_bytes`], nor the bytes of dictionary messages read so
//! far times the maximum decompression ratio (at least 1 MiB): every message may decompress up
//! to its own budget, but their sum stays proportional to the input.
//!
//! [`get`]: DictionaryTable::get

use super::ReadOptions;
use super::roots::{decode_roots, validated};
use super::walk::{Env, Root};
use crate::message::Message;
use crate::schema::{IpcSchema, ipc_children};
use quiver_arrow::compute::concat;
use quiver_arrow::{Array, DataType, Error, Result};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// One id's dictionary: the array last materialised and the deltas read after it.
#[derive(Clone, Debug)]
struct Entry {
    base: Arc<Array>,
    deltas: Vec<Arc<Array>>,
    /// Slots of base and deltas.
    len: usize,
    /// Buffer bytes of base and deltas.
    bytes: usize,
}

impl Entry {
    fn new(values: Array, bytes: usize) -> Self {
        Entry {
            len: values.len(),
            base: Arc::new(values),
            deltas: Vec::new(),
            bytes,
        }
    }

    /// The complete dictionary: the base, or base and deltas concatenated.
    fn materialize(&self) -> Result<Arc<Array>> {
        if self.deltas.is_empty() {
            return Ok(self.base.clone());
        }
        let mut parts: Vec<&Array> = Vec::with_capacity(self.deltas.len() + 1);
        parts.push(&self.base);
        parts.extend(self.deltas.iter().map(|d| &**d));
        concat(&parts).map(Arc::new)
    }
}

/// The complete dictionaries, materialised from the entries on first use after a change.
#[derive(Clone, Debug, Default)]
struct View {
    complete: HashMap<i64, Arc<Array>>,
    /// Ids whose deltas could not be concatenated, with the reason.
    failed: Vec<(i64, String)>,
    /// Bytes copied to build this view.
    concatenated: u64,
}

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
/// assert_eq!((table.held_bytes(), table.concatenated_bytes()), (0, 0));
/// ```
#[derive(Clone, Debug)]
pub struct DictionaryTable {
    schema: IpcSchema,
    /// Value type and the path of the first field, by id.
    types: HashMap<i64, (DataType, Vec<usize>)>,
    entries: HashMap<i64, Entry>,
    /// Built lazily from `entries`; reset (and folded back into them) by the next delta.
    view: OnceLock<View>,
    file: bool,
    /// Bytes of the dictionary messages applied (metadata and body).
    message_bytes: usize,
    /// Sum of the entries' bytes.
    held_bytes: usize,
    /// Bytes copied by views folded back into the entries.
    concatenated: u64,
}

impl DictionaryTable {
    /// An empty table for a stream with `schema` (replacement dictionaries allowed).
    pub fn new(schema: &IpcSchema) -> Result<Self> {
        Ok(DictionaryTable {
            types: schema.dictionaries.value_types(&schema.schema)?,
            schema: schema.clone(),
            entries: HashMap::new(),
            view: OnceLock::new(),
            file: false,
            message_bytes: 0,
            held_bytes: 0,
            concatenated: 0,
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

    /// The current dictionary (values) with `id`, deltas included. `None` when no dictionary
    /// with `id` was read, or when its deltas could not be joined to it (the next
    /// [`DictionaryTable::apply`] reports why).
    pub fn get(&self, id: i64) -> Option<&Arc<Array>> {
        self.view().complete.get(&id)
    }

    /// Number of dictionaries read.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no dictionary has been read.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Bytes of dictionary values held: the current dictionaries and the deltas not yet joined
    /// to them, by [`Array::buffer_bytes`].
    pub fn held_bytes(&self) -> usize {
        self.held_bytes
    }

    /// Bytes of dictionary values copied so far to join deltas to their dictionaries (see the
    /// module documentation): a run of deltas is copied once, when first needed.
    pub fn concatenated_bytes(&self) -> u64 {
        let pending = self.view.get().map_or(0, |v| v.concatenated);
        self.concatenated.saturating_add(pending)
    }

    /// The complete dictionaries by id (materialised on first use after a delta).
    pub(crate) fn by_id(&self) -> &HashMap<i64, Arc<Array>> {
        &self.view().complete
    }

    fn view(&self) -> &View {
        self.view.get_or_init(|| {
            let mut view = View::default();
            for (&id, entry) in &self.entries {
                match entry.materialize() {
                    Ok(array) => {
                        if !entry.deltas.is_empty() {
                            view.concatenated =
                                view.concatenated.saturating_add(entry.bytes as u64);
                        }
                        view.complete.insert(id, array);
                    }
                    Err(e) => view.failed.push((id, e.to_string())),
                }
            }
            view
        })
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
        self.fold_view()?;
        let size = message
            .metadata_bytes()
            .len()
            .saturating_add(message.body().len());
        self.message_bytes = self.message_bytes.saturating_add(size);
        self.insert(id, delta, values, options)?;
        Ok(id)
    }

    /// Makes the materialised dictionaries the new bases, so that later deltas are joined to
    /// them rather than to the old bases; reports a failed materialisation.
    fn fold_view(&mut self) -> Result<()> {
        let Some(view) = self.view.take() else {
            return Ok(());
        };
        self.concatenated = self.concatenated.saturating_add(view.concatenated);
        for (id, array) in view.complete {
            if let Some(entry) = self.entries.get_mut(&id) {
                if !entry.deltas.is_empty() {
                    entry.base = array;
                    entry.deltas.clear();
                }
            }
        }
        match view.failed.into_iter().next() {
            Some((id, e)) => Err(Error::oos(format!("dictionary id {id}: delta: {e}"))),
            None => Ok(()),
        }
    }

    /// Adds decoded `values` as the dictionary or a delta of `id`, within the budget.
    fn insert(&mut self, id: i64, delta: bool, values: Array, options: &ReadOptions) -> Result<()> {
        let bytes = values.buffer_bytes();
        // The bytes of the dictionary replaced, and the length of the dictionary after a delta.
        let (replaced, len) = match (delta, self.entries.get(&id)) {
            (true, Some(old)) => match old.len.checked_add(values.len()) {
                Some(len) => (0, len),
                None => {
                    return Err(Error::oos(format!(
                        "dictionary id {id}: delta overflows the length"
                    )));
                }
            },
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
            (false, old) => (old.map_or(0, |o| o.bytes), values.len()),
        };
        self.held_bytes = self.check_budget(id, replaced, bytes, options)?;
        match self.entries.get_mut(&id) {
            Some(entry) if delta => {
                entry.len = len;
                entry.bytes = entry.bytes.saturating_add(bytes);
                entry.deltas.push(Arc::new(values));
            }
            _ => {
                self.entries.insert(id, Entry::new(values, bytes));
            }
        }
        Ok(())
    }

    /// The bytes held once `added` bytes replace `removed` ones, if within the budget.
    fn check_budget(
        &self,
        id: i64,
        removed: usize,
        added: usize,
        options: &ReadOptions,
    ) -> Result<usize> {
        let held = self
            .held_bytes
            .saturating_sub(removed)
            .saturating_add(added);
        let budget = options.dictionary_budget(self.message_bytes);
        if held <= budget {
            return Ok(held);
        }
        let why = if budget == options.max_dictionary_bytes() {
            "the maximum dictionary bytes of the read options".to_string()
        } else {
            format!(
                "{} bytes of dictionary messages read times the maximum decompression ratio {}, \
                 at least 1 MiB",
                self.message_bytes,
                options.max_decompression_ratio()
            )
        };
        Err(Error::oos(format!(
            "dictionary id {id}: the dictionaries would hold {held} bytes of values, over the \
             budget of {budget} bytes ({why})"
        )))
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
        // Only values with nested dictionaries need the complete dictionaries: materialising
        // them for every delta would copy each run of deltas once per delta.
        let none = HashMap::new();
        let env = Env {
            ids: &self.schema.dictionaries,
            endianness: self.schema.endianness,
            dictionaries: if has_dictionary(value_type) {
                self.by_id()
            } else {
                &none
            },
            options,
        };
        let (arrays, len) = decode_roots(message, std::slice::from_ref(&root), None, &env)?;
        let values = arrays
            .into_iter()
            .next()
            .flatten()
            .ok_or_else(|| Error::oos("dictionary batch without a column"))?;
        if values.len() != len {
            return Err(Error::oos(format!(
                "dictionary batch has length {len} but its values have {}",
                values.len()
            )));
        }
        validated(values, options, false)
    }
}

/// True when `dt` is or contains a dictionary-encoded type.
fn has_dictionary(dt: &DataType) -> bool {
    matches!(dt, DataType::Dictionary { .. })
        || ipc_children(dt)
            .iter()
            .any(|f| has_dictionary(f.data_type()))
}
