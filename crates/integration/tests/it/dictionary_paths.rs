//! Dictionary field paths are one convention (quiver-ipc's `DictionaryFields`) for the JSON
//! reader and writer and for IPC: a dictionary inside a list inside a dictionary's values has
//! the same path and id through JSON and IPC, and a dictionary whose values are themselves
//! dictionary-encoded has one path (its own; a dictionary type has no children) and no form in
//! either format.

use quiver_arrow::buffer::OffsetBuffer;
use quiver_arrow::compute::first_difference;
use quiver_arrow::{
    Array, DataType, DictionaryArray, Error, Field, ListArray, PrimitiveArray, PrimitiveType,
    RecordBatch, Schema, StringArray,
};
use quiver_integration::{JsonFile, read_json, write_json};
use quiver_ipc::read::StreamReader;
use quiver_ipc::schema::field_at;
use quiver_ipc::write::{StreamWriter, WriteOptions};
use quiver_ipc::{DictionaryFields, IpcSchema};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

fn keys<T: PrimitiveType>(k: impl IntoIterator<Item = Option<T>>) -> Array {
    Array::from(PrimitiveArray::from_options(k))
}

fn dict(keys: Array, values: Array) -> Array {
    DictionaryArray::try_new(keys, values, false)
        .unwrap()
        .into()
}

/// A dictionary (Int16 keys) whose values are lists of a dictionary (Int8 keys) of words.
fn dictionary_in_list_in_dictionary() -> Array {
    let words = Array::from(StringArray::from_options([Some("ant"), Some("bee")]));
    let inner = dict(keys([Some(1i8), None, Some(0), Some(1)]), words);
    let item = Field::new("item", inner.data_type().clone(), true);
    let offsets = OffsetBuffer::try_new(vec![0, 2, 2, 4].into()).unwrap();
    let lists = ListArray::try_new(item.into(), offsets, inner, None).unwrap();
    dict(keys([Some(2i16), Some(0), None, Some(1)]), lists.into())
}

fn batch(name: &str, a: Array) -> RecordBatch {
    let schema = Schema::new(vec![Field::new(name, a.data_type().clone(), true)]);
    RecordBatch::try_new(Arc::new(schema), vec![a]).unwrap()
}

fn ids(d: &DictionaryFields) -> BTreeMap<Vec<usize>, i64> {
    d.iter().map(|(p, id)| (p.to_vec(), id)).collect()
}

fn ipc_round_trip(schema: IpcSchema, b: &RecordBatch) -> (IpcSchema, RecordBatch) {
    let mut w = StreamWriter::try_new(Vec::new(), schema, WriteOptions::default()).unwrap();
    w.write(b).unwrap();
    let bytes = w.finish().unwrap();
    let mut r = StreamReader::try_new(bytes.as_slice()).unwrap();
    let schema = r.ipc_schema().clone();
    let back = r.next().unwrap().unwrap();
    assert!(r.next().is_none());
    (schema, back)
}

#[test]
fn a_dictionary_in_a_list_in_dictionary_values_has_one_path_in_json_and_ipc() {
    let b = batch("nd", dictionary_in_list_in_dictionary());
    let schema = b.schema().clone();
    // The outer field is [0]; the list item, a child of the outer field's value type, [0, 0].
    let expected = BTreeMap::from([(vec![0], 0), (vec![0, 0], 1)]);
    assert_eq!(ids(&IpcSchema::new(schema.clone()).dictionaries), expected);
    let item = field_at(&schema, &[0, 0]).unwrap();
    assert_eq!(item.name(), "item");
    assert!(matches!(item.data_type(), DataType::Dictionary { .. }));

    // JSON assigns the same ids, at the same places of the written schema, inner one first.
    let text = write_json(&JsonFile::new(schema.clone(), vec![b.clone()])).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let outer = &v["schema"]["fields"][0];
    assert_eq!(outer["dictionary"]["id"], 0);
    assert_eq!(outer["children"][0]["dictionary"]["id"], 1);
    let order: Vec<&Value> = (v["dictionaries"].as_array().unwrap().iter())
        .map(|d| &d["id"])
        .collect();
    assert_eq!(order, [1, 0]);
    assert_eq!(
        read_json(text.as_bytes()).unwrap().dictionaries.ids,
        expected
    );

    // Ids other than the default ones go JSON → IPC → JSON unchanged.
    let mut file = JsonFile::new(schema.clone(), vec![b.clone()]);
    file.dictionaries.ids = BTreeMap::from([(vec![0], 7), (vec![0, 0], 3)]);
    let text = write_json(&file).unwrap();
    let from_json = read_json(text.as_bytes()).unwrap();
    assert_eq!(from_json.dictionaries.ids, file.dictionaries.ids);
    let (ipc_schema, back) = ipc_round_trip(from_json.ipc_schema(), &from_json.batches[0]);
    assert_eq!(ids(&ipc_schema.dictionaries), file.dictionaries.ids);
    assert_eq!(first_difference(back.column(0), b.column(0)), None);
    let mut again = JsonFile::new(ipc_schema.schema.clone(), vec![back]);
    again.dictionaries.ids = ids(&ipc_schema.dictionaries);
    assert_eq!(write_json(&again).unwrap(), text);
}

#[test]
fn a_dictionary_of_dictionaries_has_one_path_and_no_json_or_ipc_form() {
    let values = dictionary_in_list_in_dictionary();
    let dd = dict(keys([Some(3u8), Some(0), None]), values);
    let b = batch("dd", dd);
    let schema = b.schema().clone();
    // The value type is a dictionary, which has no child fields: nothing below the field has
    // a path, not even the dictionary in the inner dictionary's list.
    let ipc = IpcSchema::new(schema.clone());
    let assigned = ipc.dictionaries.clone();
    assert_eq!(ids(&assigned), BTreeMap::from([(vec![0], 0)]));
    assert!(field_at(&schema, &[0]).is_some());
    assert_eq!(field_at(&schema, &[0, 0]), None);

    // Both writers reject the field as unsupported, with the ids either side assigns.
    let mut file = JsonFile::new(schema.clone(), vec![b.clone()]);
    let e = write_json(&file).unwrap_err();
    assert!(matches!(e, Error::NotSupported { .. }), "{e}");
    file.dictionaries.ids = ids(&assigned);
    let e = write_json(&file).unwrap_err();
    assert!(matches!(e, Error::NotSupported { .. }), "{e}");
    let e = StreamWriter::try_new(Vec::new(), ipc, WriteOptions::default())
        .err()
        .unwrap();
    assert!(matches!(e, Error::NotSupported { .. }), "{e}");

    // A path below the field is not a dictionary-encoded field for either.
    file.dictionaries.ids.insert(vec![0, 0], 1);
    let e = write_json(&file).unwrap_err().to_string();
    assert!(
        e.contains("field path [0, 0], which is not dictionary-encoded"),
        "{e}"
    );
    let mut extra = assigned;
    extra.insert(vec![0, 0], 1);
    let e = extra.value_types(&schema).unwrap_err().to_string();
    assert!(e.contains("missing field path [0, 0]"), "{e}");
}
