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

/// `values` indexed by `keys` (`None`: a null key), as a one-column batch of [`schema`].
fn keyed(values: &Arc<Array>, keys: &[Option<i32>]) -> RecordBatch {
    let d = DictionaryArray::try_new(
        prim(DataType::Int32, keys.iter().copied()),
        values.clone(),
        false,
    )
    .unwrap();
    RecordBatch::try_new(schema(), vec![Array::from(d)]).unwrap()
}

#[test]
fn files_take_deltas_and_unify_what_a_stream_would_replace() {
    let ab = words(&["a", "b"]);
    let abc = words(&["a", "b", "c"]);
    let ca = words(&["c", "a", "unused"]);
    let with_null = Arc::new(Array::from(StringArray::from_options([
        Some("x"),
        None,
        Some("b"),
    ])));
    let batches = [
        keyed(&ab, &[Some(0), Some(1)]),
        keyed(&abc, &[Some(2), None]),         // grew: a delta of "c"
        keyed(&ca, &[Some(1), Some(0), None]), // neither: unified, nothing new
        keyed(&ca, &[Some(2)]),                // the same dictionary again: "unused" is now used
        keyed(&with_null, &[Some(0), Some(1), Some(2), Some(1)]), // "x" and a null value
        keyed(&ab, &[Some(1), Some(0)]),
    ];
    let mut w = FileWriter::try_new(Vec::new(), schema(), WriteOptions::default()).unwrap();
    for b in &batches {
        w.write(b).unwrap();
    }
    let bytes = w.finish().unwrap();
    assert_eq!(
        summary(&dictionary_messages(&bytes[8..])),
        "dict(2) batch delta(1) batch batch delta(1) batch delta(2) batch batch"
    );
    // Every slot reads its value: keys were mapped onto the one growing dictionary.
    let (_, read) = super::read_common::read_file(bytes.into()).unwrap();
    assert_eq!(read.len(), batches.len());
    for (i, (got, want)) in read.iter().zip(&batches).enumerate() {
        assert!(
            quiver_arrow::compute::logical_eq(&got.columns()[0], &want.columns()[0]),
            "batch {i}: {:?} vs {:?}",
            got.columns()[0],
            want.columns()[0]
        );
    }
    let Array::Dictionary(last) = &read[5].columns()[0] else {
        panic!("a dictionary column")
    };
    let mut with_null_all: Vec<Option<&str>> = vec![Some("a"), Some("b"), Some("c")];
    with_null_all.extend([Some("unused"), Some("x"), None]);
    assert_eq!(
        **last.values(),
        Array::from(StringArray::from_options(with_null_all))
    );

    // Without deltas a file cannot take a grown dictionary, nor unify one.
    let options = WriteOptions::default().with_dictionary_deltas(false);
    let mut w = FileWriter::try_new(Vec::new(), schema(), options).unwrap();
    w.write(&batch(&words(&["a"]))).unwrap();
    let e = w.write(&batch(&words(&["a", "b"]))).unwrap_err();
    assert!(e.to_string().contains("enable dictionary deltas"), "{e}");
    let e = w.write(&keyed(&words(&["z"]), &[Some(0)])).unwrap_err();
    assert!(
        e.to_string()
            .contains("enable dictionary deltas to unify it"),
        "{e}"
    );
    // A unification adding nothing needs no delta.
    w.write(&keyed(&words(&["q", "a"]), &[Some(1)])).unwrap();
    w.finish().unwrap();
}

#[test]
fn unification_is_bounded_by_the_key_type_and_leaves_failed_batches_out() {
    let dt = DataType::dictionary(IntegerType::Int8, DataType::Utf8);
    let schema = Arc::new(Schema::new(vec![Field::new("d", dt, true)]));
    let group = |from: usize| {
        let names: Vec<String> = (from..from + 100).map(|i| format!("v{i}")).collect();
        let values = Array::from(StringArray::from_options(
            names.iter().map(|n| Some(n.as_str())),
        ));
        let keys = prim(DataType::Int8, (0..100).map(|k| Some(k as i8)));
        RecordBatch::try_new(schema.clone(), vec![dict(keys, values, false)]).unwrap()
    };
    let mut w = FileWriter::try_new(Vec::new(), schema.clone(), WriteOptions::default()).unwrap();
    w.write(&group(0)).unwrap();
    // 100 more values cannot have int8 keys: the batch is refused, and leaves nothing.
    let e = w.write(&group(100)).unwrap_err();
    assert!(matches!(e, Error::Overflow { .. }), "{e:?}");
    let text = e.to_string();
    assert!(text.contains("field d (dictionary 0)"), "{text}");
    assert!(text.contains("an IPC stream"), "{text}");
    // 28 new values still fit.
    w.write(&group(28)).unwrap();
    let bytes = w.finish().unwrap();
    assert_eq!(
        summary(&dictionary_messages(&bytes[8..])),
        "dict(100) batch delta(28) batch"
    );
    let (_, read) = super::read_common::read_file(bytes.into()).unwrap();
    assert!(quiver_arrow::compute::logical_eq(
        &read[1].columns()[0],
        &group(28).columns()[0]
    ));
}

#[test]
fn unification_reaches_dictionaries_in_structs_and_lists() {
    use quiver_arrow::buffer::OffsetBuffer;
    use quiver_arrow::{ListArray, StructArray};
    let dt = DataType::dictionary(IntegerType::Int32, DataType::Utf8);
    let field = Arc::new(Field::new("d", dt.clone(), true));
    let item = Arc::new(Field::new("item", dt, true));
    let column = |values: &[&str], keys: &[i32]| {
        let d = dict(
            prim(DataType::Int32, keys.iter().map(|&k| Some(k))),
            words(values).as_ref().clone(),
            false,
        );
        let n = keys.len();
        let s = StructArray::try_new(vec![field.clone()].into(), n, vec![d.clone()], None).unwrap();
        let offsets = OffsetBuffer::try_new(vec![0i32, 0, n as i32].into()).unwrap();
        let l = ListArray::try_new(item.clone(), offsets, d, None).unwrap();
        (Array::from(s), Array::from(l))
    };
    let (s0, l0) = column(&["a", "b"], &[0, 1]);
    let schema = Arc::new(Schema::new(vec![
        Field::new("s", s0.data_type().clone(), true),
        Field::new("l", l0.data_type().clone(), true),
    ]));
    let (s1, l1) = column(&["c", "b"], &[1, 0, 0]);
    let (s2, l2) = column(&["b", "a"], &[0, 1, 1]);
    let batches = [
        RecordBatch::try_new(schema.clone(), vec![s0.slice(0, 2), l0.slice(0, 2)]).unwrap(),
        RecordBatch::try_new(schema.clone(), vec![s1.slice(0, 2), l1.slice(0, 2)]).unwrap(),
        RecordBatch::try_new(schema.clone(), vec![s2.slice(1, 1), l2.slice(1, 1)]).unwrap(),
    ];
    let mut w = FileWriter::try_new(Vec::new(), schema, WriteOptions::default()).unwrap();
    for b in &batches {
        w.write(b).unwrap();
    }
    let (_, read) = super::read_common::read_file(w.finish().unwrap().into()).unwrap();
    for (got, want) in read.iter().zip(&batches) {
        for c in 0..2 {
            assert!(
                quiver_arrow::compute::logical_eq(&got.columns()[c], &want.columns()[c]),
                "{:?} vs {:?}",
                got.columns()[c],
                want.columns()[c]
            );
        }
    }
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

/// `Array::with_children` (through which unification re-keys nested dictionaries) rebuilds
/// every nested layout, sliced ones too, from its own children, and refuses other children.
#[test]
fn with_children_rebuilds_every_layout() {
    for c in super::write_data::all_types() {
        for a in [
            c.array.clone(),
            c.array.slice(1, c.array.len().saturating_sub(2)),
        ] {
            let children = a.children();
            let back = a.with_children(children.clone()).unwrap();
            assert!(
                quiver_arrow::compute::logical_eq(&a, &back),
                "{}: {:?}",
                c.field.name(),
                a.data_type()
            );
            if let Some(first) = children.first() {
                let mut shorter = children.clone();
                shorter[0] = first.slice(0, first.len().saturating_sub(1));
                if !first.is_empty() {
                    assert!(a.with_children(shorter).is_err(), "{}", c.field.name());
                }
            }
        }
    }
}
