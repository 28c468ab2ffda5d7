//! Writer → reader round trips: every type, sliced or not, compressed or not, in files and
//! streams (read with full validation), and dictionaries that grow or are replaced.

use super::write_data::{ROWS, all_types, batch_of, dictionary_batches, prim, words};
use bytes::Bytes;
use quiver_arrow::compute::first_difference;
use quiver_arrow::{
    Array, DataType, DictionaryArray, Field, Metadata, PrimitiveArray, RecordBatch, Schema,
    StringViewArray,
};
use quiver_ipc::read::{FileReader, StreamDecoder, StreamReader};
use quiver_ipc::write::{FileWriter, StreamWriter, WriteOptions};
use quiver_ipc::{Codec, IpcSchema};
use std::sync::Arc;

fn variants() -> Vec<(&'static str, WriteOptions)> {
    let o = WriteOptions::default;
    vec![
        ("plain", o()),
        ("aligned 64", o().with_alignment(64)),
        ("lz4", o().with_compression(Some(Codec::Lz4Frame))),
        (
            "zstd level 3, aligned 64",
            o().with_compression(Some(Codec::Zstd))
                .with_compression_level(Some(3))
                .with_alignment(64),
        ),
        ("no deltas", o().with_dictionary_deltas(false)),
    ]
}

fn write_stream(schema: &IpcSchema, batches: &[RecordBatch], options: WriteOptions) -> Vec<u8> {
    let mut w = StreamWriter::try_new(Vec::new(), schema, options).unwrap();
    batches.iter().for_each(|b| w.write(b).unwrap());
    w.finish().unwrap()
}

fn write_file(schema: &IpcSchema, batches: &[RecordBatch], options: WriteOptions) -> Vec<u8> {
    let mut w = FileWriter::try_new(Vec::new(), schema, options).unwrap();
    batches.iter().for_each(|b| w.write(b).unwrap());
    w.finish().unwrap()
}

/// Asserts that `read` holds `written`, column by column, naming the first difference.
fn assert_same(what: &str, written: &[RecordBatch], read: &[RecordBatch]) {
    assert_eq!(written.len(), read.len(), "{what}: number of batches");
    for (i, (w, r)) in written.iter().zip(read).enumerate() {
        assert_eq!(
            w.schema().fields,
            r.schema().fields,
            "{what}: batch {i} fields"
        );
        assert_eq!(w.num_rows(), r.num_rows(), "{what}: batch {i} rows");
        for (j, (a, b)) in w.columns().iter().zip(r.columns()).enumerate() {
            if let Some(d) = first_difference(a, b) {
                let name = w.schema().fields[j].name();
                panic!("{what}: batch {i}, column {name}: {d}");
            }
        }
    }
}

fn read_stream(bytes: &[u8]) -> (IpcSchema, Vec<RecordBatch>) {
    let mut r = StreamReader::try_new(bytes).unwrap();
    let schema = r.ipc_schema().clone();
    let mut out = Vec::new();
    while let Some(b) = r.next_batch().unwrap() {
        out.push(b);
    }
    (schema, out)
}

fn read_file(bytes: Vec<u8>) -> (IpcSchema, Vec<RecordBatch>) {
    let mut r = FileReader::from_bytes(Bytes::from(bytes)).unwrap();
    let schema = r.ipc_schema().clone();
    let batches = (0..r.num_batches()).map(|i| r.batch(i).unwrap()).collect();
    (schema, batches)
}

fn round_trip(what: &str, schema: &IpcSchema, batches: &[RecordBatch], file: bool) {
    for (name, options) in variants() {
        let what = format!("{what}, {name}");
        let (read_schema, read) = if file {
            read_file(write_file(schema, batches, options))
        } else {
            read_stream(&write_stream(schema, batches, options))
        };
        assert_eq!(&read_schema, schema, "{what}: schema");
        assert_same(&what, batches, &read);
    }
}

fn every_type_batches() -> (IpcSchema, Vec<RecordBatch>) {
    let meta = Metadata::from([("quiver:origin".to_string(), "round trip".to_string())]);
    let batch = batch_of(&all_types(), meta);
    let batches = vec![
        batch.clone(),
        batch.slice(1, 3),
        batch.slice(ROWS, 0),
        batch.slice(0, 1),
        batch.slice(4, 1),
    ];
    (IpcSchema::new(batch.schema().clone()), batches)
}

#[test]
fn every_type_through_a_stream() {
    let (schema, batches) = every_type_batches();
    round_trip("stream", &schema, &batches, false);
}

#[test]
fn every_type_through_a_file() {
    let (schema, batches) = every_type_batches();
    round_trip("file", &schema, &batches, true);
}

#[test]
fn growing_and_replaced_dictionaries() {
    let (schema, batches) = dictionary_batches(false);
    let batches: Vec<RecordBatch> = batches.into_iter().map(|(b, _)| b).collect();
    let schema = IpcSchema::new(schema);
    round_trip("deltas, stream", &schema, &batches, false);
    for (name, options) in variants()
        .into_iter()
        .filter(|(_, o)| o.emit_dictionary_deltas())
    {
        let (_, read) = read_file(write_file(&schema, &batches, options));
        assert_same(&format!("deltas, file, {name}"), &batches, &read);
    }
    let (schema, batches) = dictionary_batches(true);
    let batches: Vec<RecordBatch> = batches.into_iter().map(|(b, _)| b).collect();
    round_trip(
        "replacements, stream",
        &IpcSchema::new(schema),
        &batches,
        false,
    );
}

#[test]
fn a_dictionary_batch_can_be_sliced_and_shared() {
    // Slices of one dictionary-encoded batch share its dictionary: one dictionary message.
    let values = Arc::new(words(&["p", "q", "r"]));
    let keys = prim(
        DataType::UInt8,
        (0..100u8).map(|i| (i % 7 != 0).then_some(i % 3)),
    );
    let d = Array::from(DictionaryArray::try_new(keys, values, true).unwrap());
    let schema = Arc::new(Schema::new(vec![Field::new(
        "d",
        d.data_type().clone(),
        true,
    )]));
    let batch = RecordBatch::try_new(schema.clone(), vec![d]).unwrap();
    let slices: Vec<RecordBatch> = (0..10).map(|i| batch.slice(i * 10, 10)).collect();
    let bytes = write_stream(&IpcSchema::new(schema), &slices, WriteOptions::default());
    let (_, read) = read_stream(&bytes);
    assert_same("slices", &slices, &read);
    let dicts = super::write_layout::messages(&bytes, 0).0;
    assert_eq!(
        dicts
            .iter()
            .filter(|m| m.info.dictionary_id.is_some())
            .count(),
        1
    );
}

#[test]
fn big_batches_compressed_on_two_threads() {
    let n = 300_000;
    let ints = Array::from(PrimitiveArray::<i64>::from_options(
        (0..n as i64).map(|i| (i % 11 != 0).then_some(i * 7)),
    ));
    let floats = Array::from(PrimitiveArray::<f64>::new(
        (0..n).map(|i| i as f64 / 3.0).collect::<Vec<_>>(),
    ));
    let text: Vec<String> = (0..n)
        .map(|i| format!("row {i} of a batch big enough to be split"))
        .collect();
    let views = Array::from(StringViewArray::from_options(
        text.iter().map(|s| Some(s.as_str())),
    ));
    let fields = vec![
        Field::new("i", DataType::Int64, true),
        Field::new("f", DataType::Float64, false),
        Field::new("s", DataType::Utf8View, false),
    ];
    let schema = Arc::new(Schema::new(fields));
    let batch = RecordBatch::try_new(schema.clone(), vec![ints, floats, views]).unwrap();
    let batches = vec![batch.clone(), batch.slice(123_456, 100_000)];
    for codec in [Codec::Lz4Frame, Codec::Zstd] {
        let options = WriteOptions::default().with_compression(Some(codec));
        let ipc = IpcSchema::new(schema.clone());
        let bytes = write_stream(&ipc, &batches, options.clone());
        let (_, read) = read_stream(&bytes);
        assert_same(&format!("{codec} stream"), &batches, &read);
        // The file writer writes each batch while compressing the next.
        let (_, read) = read_file(write_file(&ipc, &batches, options));
        assert_same(&format!("{codec} file"), &batches, &read);
    }
}

/// A sink that takes `room` bytes and then fails.
struct Full {
    taken: Vec<u8>,
    room: usize,
}

impl std::io::Write for Full {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.room - self.taken.len());
        if n == 0 && !buf.is_empty() {
            return Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "full"));
        }
        self.taken.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_compressing_file_writer_writes_each_batch_during_the_next_call() {
    let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int64, false)]));
    let batch = |k: i64| {
        let x = PrimitiveArray::<i64>::new((0..100_000).map(|i| i % 1000 * k).collect::<Vec<_>>());
        RecordBatch::try_new(schema.clone(), vec![Array::from(x)]).unwrap()
    };
    let batches: Vec<RecordBatch> = (1..=3).map(batch).collect();
    let options = WriteOptions::default().with_compression(Some(Codec::Zstd));
    let mut w = FileWriter::try_new(Vec::new(), &schema, options.clone()).unwrap();
    let start = w.get_ref().len();
    w.write(&batches[0]).unwrap();
    assert_eq!(w.get_ref().len(), start, "the first batch is held back");
    w.write(&batches[1]).unwrap();
    let after_first = w.get_ref().len();
    assert!(after_first > start);
    w.write(&batches[2]).unwrap();
    assert!(w.get_ref().len() > after_first);
    let bytes = w.finish().unwrap();
    let (_, read) = read_file(bytes.clone());
    assert_same("held back", &batches, &read);

    // Uncompressed file writers and compressing stream writers write each batch at once.
    let mut w = FileWriter::try_new(Vec::new(), &schema, WriteOptions::default()).unwrap();
    w.write(&batches[0]).unwrap();
    assert!(w.get_ref().len() > 800_000, "{}", w.get_ref().len());
    let mut w = StreamWriter::try_new(Vec::new(), &schema, options.clone()).unwrap();
    let stream_start = w.get_ref().len();
    w.write(&batches[0]).unwrap();
    assert!(w.get_ref().len() > stream_start);

    // Writing the held-back batch fails in the next call.
    let sink = Full {
        taken: Vec::new(),
        room: after_first - 1,
    };
    let mut w = FileWriter::try_new(sink, &schema, options.clone()).unwrap();
    w.write(&batches[0]).unwrap();
    let e = w.write(&batches[1]).unwrap_err();
    assert!(e.to_string().contains("full"), "{e}");

    // A failing sink's error is never lost: it comes from the write after the batch, or
    // from `finish`, wherever the sink fills up.
    for room in [
        start + 10,
        after_first - 1,
        after_first + 10,
        bytes.len() - 1,
    ] {
        let sink = Full {
            taken: Vec::new(),
            room,
        };
        let mut w = FileWriter::try_new(sink, &schema, options.clone()).unwrap();
        let mut failed = batches.iter().any(|b| w.write(b).is_err());
        if !failed {
            failed = w.finish().is_err();
        }
        assert!(
            failed,
            "a sink with room for {room} of {} bytes",
            bytes.len()
        );
    }
}

#[test]
fn pushed_in_small_pieces() {
    let (schema, batches) = every_type_batches();
    let bytes = write_stream(
        &schema,
        &batches,
        WriteOptions::default().with_alignment(64),
    );
    let mut decoder = StreamDecoder::new();
    let mut read = Vec::new();
    for chunk in bytes.chunks(37) {
        read.extend(decoder.feed(Bytes::copy_from_slice(chunk)).unwrap());
    }
    decoder.finish().unwrap();
    assert_same("push decoder", &batches, &read);
}

#[test]
fn custom_metadata_round_trips_at_schema_field_and_message_level() {
    use quiver_arrow::{Array, DataType, Field, Metadata, PrimitiveArray, Schema};
    let kv = |k: &str, v: &str| Metadata::from([(k.to_string(), v.to_string())]);
    let field = Field::new("x", DataType::Int32, true)
        .with_metadata(kv("field-key", "field-value"))
        .with_extension("my.ext", "params");
    let schema = Arc::new(Schema::new(vec![field]).with_metadata(kv("schema-key", "schema-value")));
    let x = Array::from(PrimitiveArray::<i32>::from_options([
        Some(1),
        None,
        Some(3),
    ]));
    let batch = RecordBatch::try_new(schema.clone(), vec![x]).unwrap();

    let mut w = StreamWriter::try_new(Vec::new(), schema.clone(), WriteOptions::default()).unwrap();
    w.write_with_metadata(&batch, &kv("batch", "0")).unwrap();
    w.write(&batch).unwrap();
    let bytes = w.finish().unwrap();
    let mut r = StreamReader::try_new(std::io::Cursor::new(bytes)).unwrap();
    assert_eq!(
        r.schema(),
        &schema,
        "schema and field metadata, extension keys included"
    );
    assert_eq!(
        r.schema().fields[0].extension_type().unwrap().name,
        "my.ext"
    );
    r.next_batch().unwrap().unwrap();
    assert_eq!(r.batch_metadata(), &kv("batch", "0"));
    r.next_batch().unwrap().unwrap();
    assert!(r.batch_metadata().is_empty());

    let mut w = FileWriter::try_new(Vec::new(), schema.clone(), WriteOptions::default()).unwrap();
    w.write(&batch).unwrap();
    w.write_with_metadata(&batch, &kv("batch", "1")).unwrap();
    w.set_footer_metadata(kv("footer", "yes"));
    let mut r = FileReader::from_bytes(Bytes::from(w.finish().unwrap())).unwrap();
    assert_eq!(r.schema(), &schema);
    assert_eq!(r.custom_metadata(), &kv("footer", "yes"));
    assert!(r.batch_with_metadata(0).unwrap().1.is_empty());
    assert_eq!(r.batch_with_metadata(1).unwrap().1, kv("batch", "1"));
}
