//! Framing: end-of-stream forms, the push decoder, the file footer and blocks.

use super::*;
use crate::message::read_message;
use crate::read::{Decoded, FileReader, ReadOptions, StreamDecoder, StreamReader, StreamState};
use quiver_arrow::{Error, IntegerType, RecordBatch, Result};

const EOS: [u8; 8] = [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0];
const LEGACY_EOS: [u8; 4] = [0, 0, 0, 0];

fn int_schema() -> IpcSchema {
    schema1(DataType::Int32)
}

/// Schema, two batches, then `end`.
fn stream(end: &[u8]) -> Vec<u8> {
    [
        schema_message(&int_schema()),
        int32_batch().framed(),
        int32_batch().framed(),
        end.to_vec(),
    ]
    .concat()
}

fn read_all(bytes: &[u8]) -> Result<Vec<RecordBatch>> {
    StreamReader::try_new(bytes)?.collect()
}

#[test]
fn end_of_stream_in_every_form() {
    for end in [&EOS[..], &LEGACY_EOS[..], &[][..], &EOS[..4]] {
        let batches = read_all(&stream(end)).unwrap();
        assert_eq!(batches.len(), 2, "end {end:?}");
        assert_eq!(batches[1].column(0).null_count(), 1);
    }
    // Bytes after the marker are not read.
    assert_eq!(
        read_all(&[stream(&EOS), vec![1, 2, 3]].concat())
            .unwrap()
            .len(),
        2
    );
}

#[test]
fn legacy_framing_without_continuation_markers() {
    let legacy = |framed: Vec<u8>| framed[4..].to_vec();
    let bytes = [
        legacy(schema_message(&int_schema())),
        legacy(int32_batch().framed()),
        LEGACY_EOS.to_vec(),
    ]
    .concat();
    assert_eq!(read_all(&bytes).unwrap().len(), 1);
}

#[test]
fn stream_errors_name_the_message() {
    // The last 20 bytes: the end-of-stream marker (8) and 12 of the body's 24.
    let e = read_all(&stream(&EOS)[..stream(&EOS).len() - 20]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "message 2, message body: input ends after 12 of 24 bytes"
    );
    let two_schemas = [schema_message(&int_schema()), schema_message(&int_schema())].concat();
    assert_eq!(
        read_all(&two_schemas).unwrap_err().to_string(),
        "message 1: a second schema message"
    );
    let first_is_batch = int32_batch().framed();
    assert!(
        read_all(&first_is_batch)
            .unwrap_err()
            .to_string()
            .contains("expected a schema message")
    );
    let mut bad = int32_batch();
    bad.nodes[0] = (3, 3);
    let bytes = [
        schema_message(&int_schema()),
        int32_batch().framed(),
        bad.framed(),
    ]
    .concat();
    let mut reader = StreamReader::try_new(&bytes[..]).unwrap();
    assert!(reader.next().unwrap().is_ok());
    let e = reader.next().unwrap().unwrap_err();
    assert!(
        e.to_string()
            .starts_with("message 2, record batch 1, column \"a\": declared null count 3"),
        "{e}"
    );
    assert!(reader.next().is_none(), "the reader stops after an error");
}

#[test]
fn push_decoder_in_any_chunking() {
    let bytes = stream(&EOS);
    let expected = read_all(&bytes).unwrap();
    for chunk in [1, 3, 8, 100, bytes.len()] {
        let mut d = StreamDecoder::new();
        let mut got = Vec::new();
        for c in bytes.chunks(chunk) {
            got.extend(d.feed(Bytes::copy_from_slice(c)).unwrap());
        }
        assert!(d.is_finished());
        d.finish().unwrap();
        assert_eq!(got.len(), expected.len(), "chunk {chunk}");
        for (a, b) in got.iter().zip(&expected) {
            assert_eq!(a.column(0), b.column(0));
        }
    }
    let mut d = StreamDecoder::new();
    d.feed(Bytes::from(bytes[..bytes.len() - 30].to_vec()))
        .unwrap();
    assert!(
        d.finish()
            .unwrap_err()
            .to_string()
            .contains("ends inside message 2")
    );
    // One byte of the next message's prefix: counted in the singular.
    let schema_only = schema_message(&int_schema());
    let mut d = StreamDecoder::new();
    d.feed(Bytes::from([&schema_only[..], &[0xFF]].concat()))
        .unwrap();
    assert_eq!(
        d.finish().unwrap_err().to_string(),
        "the stream ends inside message 1 (1 byte pending)"
    );
    let mut d = StreamDecoder::new();
    assert!(d.feed(Bytes::from(int32_batch().framed())).is_err());
    assert!(
        d.feed(Bytes::new())
            .unwrap_err()
            .to_string()
            .contains("failed earlier")
    );
}

/// A file: magic, stream messages, footer with the given blocks.
struct FileParts {
    schema: IpcSchema,
    dictionaries: Vec<Batch>,
    batches: Vec<Batch>,
    /// A block appended to the record batch blocks as is.
    extra_block: Option<fb::Block>,
}

impl FileParts {
    fn build(&self) -> Vec<u8> {
        let mut out = b"ARROW1\0\0".to_vec();
        out.extend(schema_message(&self.schema));
        let blocks = |out: &mut Vec<u8>, batches: &[Batch]| -> Vec<fb::Block> {
            batches
                .iter()
                .map(|b| {
                    let offset = out.len() as i64;
                    let framed = b.framed();
                    let body = b.parts().1.len();
                    out.extend(&framed);
                    fb::Block::new(offset, (framed.len() - body) as i32, body as i64)
                })
                .collect()
        };
        let dictionaries = blocks(&mut out, &self.dictionaries);
        let mut batches = blocks(&mut out, &self.batches);
        batches.extend(self.extra_block);
        out.extend(EOS);
        let mut fbb = FlatBufferBuilder::new();
        let schema = schema_to_fb(&mut fbb, &self.schema).unwrap();
        let dictionaries = fbb.create_vector(&dictionaries);
        let batches = fbb.create_vector(&batches);
        let (k, v) = (fbb.create_string("k"), fbb.create_string("v"));
        let kv = fb::KeyValue::create(
            &mut fbb,
            &fb::KeyValueArgs {
                key: Some(k),
                value: Some(v),
            },
        );
        let custom_metadata = Some(fbb.create_vector(&[kv]));
        let args = fb::FooterArgs {
            version: fb::MetadataVersion::V5,
            schema: Some(schema),
            dictionaries: Some(dictionaries),
            recordBatches: Some(batches),
            custom_metadata,
        };
        let footer = fb::Footer::create(&mut fbb, &args);
        fbb.finish(footer, None);
        out.extend(fbb.finished_data());
        out.extend((fbb.finished_data().len() as i32).to_le_bytes());
        out.extend(b"ARROW1");
        out
    }
}

fn dictionary_file(second_dictionary: Option<Batch>) -> FileParts {
    let dt = DataType::dictionary(IntegerType::Int8, DataType::Int32);
    let dict = |delta: bool, values: &[i32]| {
        let mut b = Batch::new(values.len() as i64)
            .node(values.len() as i64, 0)
            .buffer([])
            .buffer(le(values, i32::to_le_bytes));
        b.dictionary = Some((0, delta));
        b
    };
    let keys = |k: &[u8]| {
        Batch::new(k.len() as i64)
            .node(k.len() as i64, 0)
            .buffer([])
            .buffer(k)
    };
    FileParts {
        schema: schema1(dt),
        dictionaries: [
            Some(dict(false, &[10, 20])),
            second_dictionary.or(Some(dict(true, &[30]))),
        ]
        .into_iter()
        .flatten()
        .collect(),
        batches: vec![keys(&[0, 1]), keys(&[2, 2, 0])],
        extra_block: None,
    }
}

fn dictionary_values(b: &RecordBatch) -> Vec<Option<i32>> {
    let d = b.column(0).as_dictionary().unwrap();
    let values = d.values().as_primitive::<i32>().unwrap();
    let keys = d.keys().as_primitive::<i8>().unwrap();
    keys.iter()
        .map(|k| values.get(k.unwrap() as usize))
        .collect()
}

#[test]
fn file_random_access_with_deltas_in_footer_order() {
    let bytes = dictionary_file(None).build();
    let mut reader = FileReader::from_bytes(Bytes::from(bytes.clone())).unwrap();
    assert_eq!(reader.num_batches(), 2);
    assert_eq!(
        reader.custom_metadata().get("k").map(String::as_str),
        Some("v")
    );
    assert_eq!(
        dictionary_values(&reader.batch(1).unwrap()),
        vec![Some(30), Some(30), Some(10)]
    );
    assert_eq!(
        dictionary_values(&reader.batch(0).unwrap()),
        vec![Some(10), Some(20)]
    );
    assert!(
        reader
            .batch(2)
            .unwrap_err()
            .to_string()
            .contains("record batch 2 requested but the file has 2")
    );
    let seek = FileReader::try_new(std::io::Cursor::new(bytes)).unwrap();
    let all: Vec<RecordBatch> = seek.collect::<Result<_>>().unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[1].column(0), reader.batch(1).unwrap().column(0));
}

#[test]
fn file_replacing_a_dictionary_is_an_error() {
    let mut replacement = Batch::new(1)
        .node(1, 0)
        .buffer([])
        .buffer(le(&[5i32], i32::to_le_bytes));
    replacement.dictionary = Some((0, false));
    let mut reader =
        FileReader::from_bytes(Bytes::from(dictionary_file(Some(replacement)).build())).unwrap();
    let e = reader.batch(0).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("dictionary block 1: the file replaces dictionary 0"),
        "{e}"
    );
}

#[test]
fn file_structure_errors() {
    let good = dictionary_file(None).build();
    let e = |b: Vec<u8>| {
        FileReader::from_bytes(Bytes::from(b))
            .expect_err("an error")
            .to_string()
    };
    assert!(e(good[..10].to_vec()).contains("too small"));
    assert!(e([b"ARROW2", &good[6..]].concat()).contains("does not start with ARROW1"));
    assert!(e(good[..good.len() - 1].to_vec()).contains("does not end with ARROW1"));
    let mut huge_footer = good.clone();
    let n = huge_footer.len();
    huge_footer[n - 10..n - 6].copy_from_slice(&i32::MAX.to_le_bytes());
    assert!(e(huge_footer).contains("footer length 2147483647 does not fit"));
    // Blocks pointing into the footer, before the stream, or with negative lengths.
    for block in [
        fb::Block::new(8, 64, 1 << 20),
        fb::Block::new(0, 8, 0),
        fb::Block::new(8, -1, 0),
    ] {
        let parts = FileParts {
            extra_block: Some(block),
            ..dictionary_file(None)
        };
        let msg = e(parts.build());
        assert!(msg.starts_with("record batch block 2: block"), "{msg}");
    }
    // A block that is in range but is not a record batch.
    let mut parts = dictionary_file(None);
    parts.extra_block = Some(fb::Block::new(8, 8, 0));
    let mut reader = FileReader::from_bytes(Bytes::from(parts.build())).unwrap();
    assert!(reader.batch(2).is_err());
}

#[test]
fn stream_state_counts_messages_and_stops_after_the_end_or_an_error() {
    let schema = read_message(&mut &schema_message(&int_schema())[..])
        .unwrap()
        .unwrap();
    let mut state = StreamState::new(ReadOptions::new());
    assert!(state.schema().is_none() && state.dictionaries().is_none());
    assert!(matches!(state.decode(&schema).unwrap(), Decoded::Schema));
    assert_eq!(state.ipc_schema(), Some(&int_schema()));
    let Decoded::RecordBatch(batch, metadata) = state.decode(&int32_batch().message()).unwrap()
    else {
        panic!("a record batch message");
    };
    assert_eq!((batch.num_rows(), metadata.len()), (3, 0));
    assert_eq!((state.messages(), state.batches()), (2, 1));
    // A framing error names the next message and fails the state.
    let e = state.fail(Error::oos("cut short"));
    assert_eq!(e.to_string(), "message 2: cut short");
    assert!(state.is_failed() && !state.is_finished());
    let e = state.decode(&int32_batch().message()).unwrap_err();
    assert_eq!(e.to_string(), "the stream failed earlier");
    assert_eq!(state.messages(), 2, "nothing is taken after the error");

    let mut state = StreamState::new(ReadOptions::new());
    assert_eq!(
        state.fail(Error::oos("no prefix")).to_string(),
        "message 0 (schema): no prefix"
    );
    let mut state = StreamState::new(ReadOptions::new());
    state.decode(&schema).unwrap();
    state.end();
    assert!(state.is_finished() && !state.is_failed());
    let e = state.decode(&int32_batch().message()).unwrap_err();
    assert_eq!(e.to_string(), "a message after the end of the stream");
}
