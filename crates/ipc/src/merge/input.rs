//! One input, opened and checked: its footer and schema, its dictionaries decoded, and its
//! record batch messages verified (framing, flatbuffer, counts and ranges against the schema)
//! so that they can be copied as they are.

use super::{MergeInput, MergeOptions};
use crate::compression::Codec;
use crate::inspect::inspect_message;
use crate::message::CONTINUATION;
use crate::read::{FileReader, StoredMessage, check_record_batch};
use crate::schema::{Endianness, IpcSchema};
use quiver_arrow::{Array, Error, Metadata, Result};
use std::collections::HashMap;
use std::sync::Arc;

/// An input ready to be merged.
pub(super) struct Input<'a> {
    /// Its name.
    pub(super) name: &'a str,
    /// Its size.
    pub(super) len: u64,
    /// The schema with its dictionary ids and byte order (the footer's).
    pub(super) schema: IpcSchema,
    /// The footer's custom metadata.
    pub(super) footer_metadata: Metadata,
    /// The record batch messages, in footer order.
    pub(super) batches: Vec<StoredMessage>,
    /// Rows of all batches.
    pub(super) rows: u64,
    /// The complete dictionaries by this input's ids: all of them, or none when it has no
    /// record batch.
    pub(super) dictionaries: HashMap<i64, Arc<Array>>,
    /// The codec of the first dictionary batch of each of this input's ids.
    pub(super) dictionary_codecs: HashMap<i64, Option<Codec>>,
    /// This input's id for each id of the output (the first input's), by field path.
    pub(super) ids: HashMap<i64, i64>,
}

impl<'a> Input<'a> {
    /// Reads the footer and dictionaries of `input` and checks its record batch messages.
    pub(super) fn open(input: &'a MergeInput, options: &MergeOptions) -> Result<Self> {
        if input.bytes.starts_with(&CONTINUATION.to_le_bytes()) {
            return Err(Error::invalid(
                "this is an IPC stream, not an IPC file: only files (ARROW1 … footer) can be \
                 merged",
            ));
        }
        let read = options.read_options().clone();
        let mut reader = FileReader::from_bytes_with_options(input.bytes.clone(), read)?;
        let schema = reader.ipc_schema().clone();
        if schema.endianness != Endianness::Little {
            return Err(Error::not_supported("merging big-endian IPC files"));
        }
        let mut batches = Vec::with_capacity(reader.num_batches());
        let mut rows = 0u64;
        for i in 0..reader.num_batches() {
            let stored = reader.stored_batch(i)?;
            let n = check_record_batch(&stored.message, &schema)
                .map_err(|e| e.context(format!("record batch {i}")))?;
            if options.full_validation() {
                reader.batch(i)?;
            }
            rows += n as u64;
            batches.push(stored);
        }
        let dictionary_codecs = dictionary_codecs(&mut reader)?;
        let dictionaries = if batches.is_empty() {
            HashMap::new()
        } else {
            complete_dictionaries(&mut reader, &dictionary_codecs)?
        };
        let ids = schema.dictionaries.iter().map(|(_, id)| (id, id)).collect();
        Ok(Input {
            name: &input.name,
            len: input.bytes.len() as u64,
            footer_metadata: reader.custom_metadata().clone(),
            schema,
            batches,
            rows,
            dictionaries,
            dictionary_codecs,
            ids,
        })
    }
}

/// The codec of the first dictionary batch of each id.
fn dictionary_codecs(reader: &mut FileReader) -> Result<HashMap<i64, Option<Codec>>> {
    let mut out = HashMap::new();
    for i in 0..reader.num_dictionary_batches() {
        let stored = reader.stored_dictionary(i)?;
        let info = inspect_message(stored.message.metadata_bytes())
            .map_err(|e| e.context(format!("dictionary block {i}")))?;
        if let Some(id) = info.dictionary_id {
            out.entry(id).or_insert(info.compression);
        }
    }
    Ok(out)
}

/// The dictionaries the input's dictionary batches build, decoded and validated, by id; every
/// id of the schema must have one (its record batches need it).
fn complete_dictionaries(
    reader: &mut FileReader,
    written: &HashMap<i64, Option<Codec>>,
) -> Result<HashMap<i64, Arc<Array>>> {
    let ids: Vec<i64> = reader
        .ipc_schema()
        .dictionaries
        .iter()
        .map(|(_, id)| id)
        .collect();
    let table = reader.dictionaries()?;
    let mut out = HashMap::new();
    for id in ids {
        let values = table.get(id).ok_or_else(|| {
            Error::oos(if written.contains_key(&id) {
                format!("dictionary id {id}: its delta dictionary batches cannot be joined to it")
            } else {
                format!("the record batches use dictionary id {id} but the file has none")
            })
        })?;
        out.insert(id, values.clone());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::write::{FileWriter, WriteOptions};
    use quiver_arrow::{
        Array, DataType, DictionaryArray, Field, IntegerType, PrimitiveArray, RecordBatch, Schema,
        StringArray,
    };

    #[test]
    fn record_batches_without_their_dictionary_are_an_error() {
        let dt = DataType::dictionary(IntegerType::Int32, DataType::Utf8);
        let schema = IpcSchema::new(Arc::new(Schema::new(vec![Field::new("d", dt, true)])));
        let keys = Array::from(PrimitiveArray::<i32>::new(vec![0, 0]));
        let values = Array::from(StringArray::from_options([Some("a")]));
        let d = Array::from(DictionaryArray::try_new(keys, values, false).unwrap());
        let batch = RecordBatch::try_new(schema.schema.clone(), vec![d]).unwrap();
        let mut w = FileWriter::try_new(Vec::new(), &schema, WriteOptions::new()).unwrap();
        w.write(&batch).unwrap();
        let good = bytes::Bytes::from(w.finish().unwrap());
        // The same record batch message in a file without the dictionary batch.
        let stored = FileReader::from_bytes(good)
            .unwrap()
            .stored_batch(0)
            .unwrap();
        let mut w = FileWriter::try_new(Vec::new(), &schema, WriteOptions::new()).unwrap();
        w.write_framed(false, &stored.bytes, stored.metadata_len)
            .unwrap();
        let input = MergeInput::new("x", w.finish().unwrap());
        let e = Input::open(&input, &MergeOptions::new()).err().unwrap();
        assert_eq!(
            e.to_string(),
            "the record batches use dictionary id 0 but the file has none"
        );
    }
}
