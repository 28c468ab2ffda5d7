//! `IpcSchema` to and from an encapsulated schema message (what a stream starts with, and what
//! Parquet's `ARROW:schema` key holds in base64): round trips, the stream writer's bytes, the
//! legacy prefix, errors, and the bytes pyarrow writes (needs `python3` with pyarrow; skips
//! without it, except under `CI=true`).

use super::read_common::{EOS, kv};
use super::write_data::{all_types, batch_of};
use super::write_pyarrow::{cleanup, pyarrow_available, python, scratch};
use quiver_arrow::{
    Array, DataType, Field, IntegerType, PrimitiveArray, RecordBatch, Schema, TimeUnit,
};
use quiver_ipc::message::{Message, MessageKind};
use quiver_ipc::write::{StreamWriter, WriteOptions};
use quiver_ipc::{DictionaryFields, Endianness, IpcSchema};
use std::sync::Arc;

/// Every type the writer supports (dictionaries, nested dictionaries, lists, maps, unions…),
/// an extension field with metadata of its own, and schema metadata.
fn rich_schema() -> IpcSchema {
    let all = batch_of(&all_types(), kv(&[("schema-key", "schema-value")]));
    let mut fields: Vec<Field> = all
        .schema()
        .fields
        .iter()
        .map(|f| f.as_ref().clone())
        .collect();
    fields.push(
        Field::new("ext", DataType::FixedSizeBinary(16), false)
            .with_metadata(kv(&[("field-key", "field-value")]))
            .with_extension("arrow.uuid", ""),
    );
    let schema = Schema::new(fields).with_metadata(all.schema().metadata.clone());
    let ipc = IpcSchema::new(Arc::new(schema));
    assert!(
        ipc.dictionaries.iter().count() >= 4,
        "{:?}",
        ipc.dictionaries
    );
    ipc
}

/// The same schema with dictionary ids that are not the default `0, 1, 2…`.
fn with_other_ids(schema: &IpcSchema) -> IpcSchema {
    let mut ids = DictionaryFields::default();
    for (i, (path, _)) in schema.dictionaries.iter().enumerate() {
        ids.insert(path.to_vec(), 1000 - 7 * i as i64);
    }
    IpcSchema {
        dictionaries: ids,
        ..schema.clone()
    }
}

#[test]
fn schema_message_round_trips_and_is_what_the_stream_writer_writes_first() {
    let rich = rich_schema();
    for schema in [rich.clone(), with_other_ids(&rich)] {
        let bytes = schema.to_message_bytes().unwrap();
        // The layout: marker, metadata length, a Message flatbuffer padded to 8, no body.
        assert_eq!(&bytes[..4], &[0xFF; 4]);
        let len = i32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize;
        assert_eq!((8 + len, len % 8), (bytes.len(), 0));
        let message = Message::try_new(bytes[8..].to_vec().into(), Default::default()).unwrap();
        assert_eq!(message.kind(), MessageKind::Schema);

        assert_eq!(IpcSchema::from_message_bytes(&bytes).unwrap(), schema);
        let legacy = &bytes[4..]; // before Arrow 0.15: no continuation marker
        assert_eq!(IpcSchema::from_message_bytes(legacy).unwrap(), schema);

        let stream = StreamWriter::try_new(Vec::new(), &schema, WriteOptions::default())
            .unwrap()
            .finish()
            .unwrap();
        assert_eq!(stream, [bytes, EOS.to_vec()].concat());
    }
    // The byte order is part of the message (the writers only write little-endian data).
    let big = IpcSchema {
        endianness: Endianness::Big,
        ..rich
    };
    let bytes = big.to_message_bytes().unwrap();
    assert_eq!(IpcSchema::from_message_bytes(&bytes).unwrap(), big);
}

#[test]
fn schema_message_errors_say_what_is_wrong() {
    let bytes = rich_schema().to_message_bytes().unwrap();
    let e = |b: &[u8]| IpcSchema::from_message_bytes(b).unwrap_err().to_string();
    assert_eq!(
        e(&[]),
        "no schema message in 0 bytes (empty, or an end-of-stream marker)"
    );
    assert_eq!(
        e(&EOS),
        "no schema message in 8 bytes (empty, or an end-of-stream marker)"
    );
    let n = bytes.len();
    assert_eq!(
        e(&[&bytes[..], &EOS].concat()),
        format!("8 bytes follow the schema message of {n} bytes")
    );
    assert_eq!(
        e(&[&bytes[..], &[1, 2, 3]].concat()),
        format!("3 bytes follow the schema message of {n} bytes")
    );
    let cut = e(&bytes[..n - 8]);
    assert_eq!(
        cut,
        format!(
            "schema message, message metadata: input ends after {} of {} bytes",
            n - 16,
            n - 8
        )
    );
    assert_eq!(
        e(&[&bytes[..], &[1]].concat()),
        format!("1 byte follows the schema message of {n} bytes")
    );
    // A stream's second message is a record batch.
    let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int32, true)]));
    let x = Array::from(PrimitiveArray::<i32>::from_options([Some(1)]));
    let batch = RecordBatch::try_new(schema.clone(), vec![x]).unwrap();
    let mut w = StreamWriter::try_new(Vec::new(), schema.clone(), WriteOptions::default()).unwrap();
    w.write(&batch).unwrap();
    let stream = w.finish().unwrap();
    let first = IpcSchema::new(schema).to_message_bytes().unwrap().len();
    let record_batch = &stream[first..stream.len() - EOS.len()];
    assert_eq!(
        e(record_batch),
        "schema message: expected a schema message, found RecordBatch"
    );
}

/// The schema the pyarrow script below builds, as quiver spells it.
fn pyarrow_script_schema() -> IpcSchema {
    let utf8_dict = |key, ordered| DataType::Dictionary {
        key,
        value: Arc::new(DataType::Utf8),
        ordered,
    };
    let item = DataType::Struct(
        vec![
            Field::new("a", DataType::Float64, true),
            Field::new("b", utf8_dict(IntegerType::Int8, true), true),
        ]
        .into(),
    );
    let entries = DataType::Struct(
        vec![
            Field::new("key", DataType::Utf8, false),
            Field::new("value", DataType::Int64, true),
        ]
        .into(),
    );
    let fields = vec![
        Field::new("i", DataType::Int32, false).with_metadata(kv(&[("k", "v")])),
        Field::new("s", utf8_dict(IntegerType::Int16, false), true),
        Field::new("l", DataType::list_of(item), true),
        Field::new(
            "m",
            DataType::Map(Arc::new(Field::new("entries", entries, false)), false),
            true,
        ),
        Field::new(
            "t",
            DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())),
            true,
        ),
        Field::new("e", DataType::Binary, true).with_extension("my.ext", "params"),
    ];
    let schema = Schema::new(fields).with_metadata(kv(&[("schema-key", "schema-value")]));
    IpcSchema::new(Arc::new(schema))
}

/// Prints `schema.serialize()` in hex, then the `ARROW:schema` value of a Parquet file of the
/// schema written to `sys.argv[1]`.
const PYARROW_SCRIPT: &str = r#"
import sys, pyarrow as pa, pyarrow.parquet as pq
ext = {"ARROW:extension:name": "my.ext", "ARROW:extension:metadata": "params"}
schema = pa.schema([
    pa.field("i", pa.int32(), nullable=False, metadata={"k": "v"}),
    pa.field("s", pa.dictionary(pa.int16(), pa.string())),
    pa.field("l", pa.list_(pa.struct([
        pa.field("a", pa.float64()),
        pa.field("b", pa.dictionary(pa.int8(), pa.string(), ordered=True)),
    ]))),
    pa.field("m", pa.map_(pa.string(), pa.int64())),
    pa.field("t", pa.timestamp("us", tz="UTC")),
    pa.field("e", pa.binary(), metadata=ext),
], metadata={"schema-key": "schema-value"})
print(schema.serialize().to_pybytes().hex())
pq.write_table(schema.empty_table(), sys.argv[1])
print(pq.read_metadata(sys.argv[1]).metadata[b"ARROW:schema"].decode())
"#;

#[test]
fn pyarrow_schema_bytes_and_parquet_arrow_schema_decode() {
    if !pyarrow_available() {
        return;
    }
    let dir = scratch("schema-message");
    let parquet = dir.join("schema.parquet");
    let out = python(
        "the schema script",
        &["-c".as_ref(), PYARROW_SCRIPT.as_ref(), parquet.as_os_str()],
    );
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    let [serialized, arrow_schema] = lines[..] else {
        panic!("expected two lines, got {out}");
    };
    let expected = pyarrow_script_schema();
    let serialized = from_hex(serialized);
    assert_eq!(
        IpcSchema::from_message_bytes(&serialized).unwrap(),
        expected
    );
    let from_parquet = from_base64(arrow_schema);
    assert_eq!(
        IpcSchema::from_message_bytes(&from_parquet).unwrap(),
        expected
    );
    // pyarrow frames it as quiver does (its flatbuffer may be laid out differently).
    assert_eq!(&serialized[..4], &[0xFF; 4]);
    assert_eq!(serialized.len() % 8, 0);
    cleanup(&dir);
}

fn from_hex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

/// Standard base64 with `=` padding (RFC 4648 §4), as Parquet's `ARROW:schema` holds it.
fn from_base64(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let digits: Vec<u32> = text
        .trim_end_matches('=')
        .bytes()
        .map(|c| {
            ALPHABET
                .iter()
                .position(|&a| a == c)
                .expect("a base64 digit") as u32
        })
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for group in digits.chunks(4) {
        let bits = group.iter().fold(0u32, |acc, d| acc << 6 | d) << (6 * (4 - group.len()));
        out.extend(&bits.to_be_bytes()[1..group.len()]);
    }
    out
}

#[test]
fn base64_helper_decodes_rfc4648_examples() {
    for (text, plain) in [
        ("", ""),
        ("Zg==", "f"),
        ("Zm8=", "fo"),
        ("Zm9v", "foo"),
        ("Zm9vYg==", "foob"),
        ("Zm9vYmFy", "foobar"),
    ] {
        assert_eq!(from_base64(text), plain.as_bytes(), "{text}");
    }
}
