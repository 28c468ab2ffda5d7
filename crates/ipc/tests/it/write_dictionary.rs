//! Dictionary messages the writers send (first, unchanged, delta, replacement) and the errors
//! writers report instead of writing something invalid.

use super::write_data::{dict, prim};
use super::write_layout::messages;
use quiver_arrow::{
    Array, DataType, DictionaryArray, Error, Field, IntegerType, Metadata, RecordBatch, Schema,
    StringArray,
};
use quiver_ipc::inspect::{MessageHeader, MessageInfo};
use quiver_ipc::write::{FileWriter, StreamWriter, WriteOptions};
use quiver_ipc::{DictionaryFields, Endianness, IpcSchema};
use std::sync::Arc;

fn words(w: &[&str]) -> Arc<Array> {
    Arc::new(Array::from(StringArray::from_options(
        w.iter().map(|s| Some(*s)),
    )))
}

fn schema() -> Arc<Schema> {
    let dt = DataType::dictionary(IntegerType::Int32, DataType::Utf8);
    Arc::new(Schema::new(vec![Field::new("d", dt, true)]))
}

fn batch(values: &Arc<Array>) -> RecordBatch {
    let keys = prim(
        DataType::Int32,
        [Some(0), None, Some(values.len() as i32 - 1)],
    );
    let d = DictionaryArray::try_new(keys, values.clone(), false).unwrap();
    RecordBatch::try_new(schema(), vec![Array::from(d)]).unwrap()
}

/// The dictionary and record batch messages of a stream, in order.
fn dictionary_messages(bytes: &[u8]) -> Vec<MessageInfo> {
    let (msgs, _) = messages(bytes, 0);
    msgs.into_iter()
        .map(|m| m.info)
        .filter(|i| i.header != MessageHeader::Schema)
        .collect()
}

/// Messages as `dict(n)` (first or replacement, n values), `delta(n)` or `batch`.
fn summary(infos: &[MessageInfo]) -> String {
    let one = |i: &MessageInfo| match i.dictionary_id {
        Some(_) if i.is_delta => format!("delta({})", i.length),
        Some(_) => format!("dict({})", i.length),
        None => "batch".to_string(),
    };
    infos.iter().map(one).collect::<Vec<_>>().join(" ")
}

fn write_stream(values: &[Arc<Array>], options: WriteOptions) -> String {
    let mut w = StreamWriter::try_new(Vec::new(), schema(), options).unwrap();
    for v in values {
        w.write(&batch(v)).unwrap();
    }
    summary(&dictionary_messages(&w.finish().unwrap()))
}

#[test]
fn streams_send_new_delta_and_replacement_dictionaries() {
    let ab = words(&["a", "b"]);
    let ab_again = words(&["a", "b"]); // equal values in another allocation
    let abcd = words(&["a", "b", "c", "d"]);
    let x = words(&["x"]);
    let seq = [ab.clone(), ab.clone(), ab_again, abcd, x];
    let deltas = write_stream(&seq, WriteOptions::default());
    assert_eq!(
        deltas,
        "dict(2) batch batch batch delta(2) batch dict(1) batch"
    );
    let no_deltas = write_stream(&seq, WriteOptions::default().with_dictionary_deltas(false));
    assert_eq!(
        no_deltas,
        "dict(2) batch batch batch dict(4) batch dict(1) batch"
    );
}

#[test]
fn files_take_deltas_but_refuse_replacements() {
    let mut w = FileWriter::try_new(Vec::new(), schema(), WriteOptions::default()).unwrap();
    w.write(&batch(&words(&["a", "b"]))).unwrap();
    w.write(&batch(&words(&["a", "b", "c"]))).unwrap();
    let e = w.write(&batch(&words(&["z"]))).unwrap_err();
    assert!(matches!(e, Error::InvalidArgument { .. }), "{e:?}");
    assert!(
        e.to_string()
            .contains("does not allow replacing a dictionary"),
        "{e}"
    );
    // The failed write changed nothing: the file goes on and stays valid.
    w.write(&batch(&words(&["a", "b", "c", "d"]))).unwrap();
    let bytes = w.finish().unwrap();
    let footer = quiver_ipc::inspect::inspect_file(&bytes).unwrap();
    assert_eq!(
        (footer.dictionaries.len(), footer.record_batches.len()),
        (3, 3)
    );
    let infos = dictionary_messages(&bytes[8..]);
    assert_eq!(
        summary(&infos),
        "dict(2) batch delta(1) batch delta(1) batch"
    );
    // Without deltas, a file cannot take a grown dictionary either.
    let options = WriteOptions::default().with_dictionary_deltas(false);
    let mut w = FileWriter::try_new(Vec::new(), schema(), options).unwrap();
    w.write(&batch(&words(&["a"]))).unwrap();
    assert!(w.write(&batch(&words(&["a", "b"]))).is_err());
}

#[test]
fn fields_sharing_an_id_must_share_the_dictionary() {
    let dt = DataType::dictionary(IntegerType::Int32, DataType::Utf8);
    let fields = vec![Field::new("a", dt.clone(), true), Field::new("b", dt, true)];
    let schema = Arc::new(Schema::new(fields));
    let mut dictionaries = DictionaryFields::default();
    dictionaries.insert(vec![0], 0);
    dictionaries.insert(vec![1], 0);
    let ipc = IpcSchema {
        schema: schema.clone(),
        dictionaries,
        endianness: Endianness::Little,
    };
    let keys = || prim(DataType::Int32, [Some(0)]);
    let column = |w: &[&str]| dict(keys(), words(w).as_ref().clone(), false);
    let same = RecordBatch::try_new(schema.clone(), vec![column(&["p"]), column(&["p"])]).unwrap();
    let differ = RecordBatch::try_new(schema, vec![column(&["p"]), column(&["q"])]).unwrap();
    let mut w = StreamWriter::try_new(Vec::new(), &ipc, WriteOptions::default()).unwrap();
    w.write(&same).unwrap();
    let e = w.write(&differ).unwrap_err().to_string();
    assert!(
        e.contains("dictionary 0 is shared by the fields at paths [0] and [1]"),
        "{e}"
    );
    let infos = dictionary_messages(&w.finish().unwrap());
    assert_eq!(
        summary(&infos),
        "dict(1) batch",
        "one dictionary message for both fields"
    );
}

#[test]
fn writers_refuse_what_they_cannot_write() {
    let options = WriteOptions::default().with_alignment(16);
    let e = StreamWriter::try_new(Vec::new(), schema(), options).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid argument: IPC buffer alignment must be 8 or 64 bytes, not 16"
    );
    let mut big = IpcSchema::new(schema());
    big.endianness = Endianness::Big;
    let e = FileWriter::try_new(Vec::new(), big, WriteOptions::default()).unwrap_err();
    assert!(matches!(e, Error::NotSupported { .. }), "{e:?}");
    // A dictionary-encoded field without an id.
    let no_ids = IpcSchema {
        dictionaries: DictionaryFields::default(),
        ..IpcSchema::new(schema())
    };
    let e = StreamWriter::try_new(Vec::new(), no_ids, WriteOptions::default()).unwrap_err();
    assert!(e.to_string().contains("no dictionary id"), "{e}");
    // A batch of another schema.
    let mut w = StreamWriter::try_new(Vec::new(), schema(), WriteOptions::default()).unwrap();
    let other = Arc::new(Schema::new(vec![Field::new("d", DataType::Int64, true)]));
    let b = RecordBatch::try_new(other, vec![prim(DataType::Int64, [Some(1i64)])]).unwrap();
    let e = w.write(&b).unwrap_err().to_string();
    assert!(e.contains("record batch field 0 is"), "{e}");
    // Schema-level metadata may differ: the writer's schema is the one written.
    let tagged = Arc::new(
        schema()
            .as_ref()
            .clone()
            .with_metadata(Metadata::from([("k".into(), "v".into())])),
    );
    let b = batch(&words(&["a"]));
    let b = RecordBatch::try_new(tagged, b.columns().to_vec()).unwrap();
    w.write(&b).unwrap();
}
