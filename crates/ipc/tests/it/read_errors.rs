//! Errors of every kind name where they happened: a corrupt compressed buffer reports the
//! message, record batch and buffer along with the codec's complaint.

use bytes::Bytes;
use quiver_arrow::{Array, DataType, Error, Field, PrimitiveArray, RecordBatch, Schema};
use quiver_ipc::Codec;
use quiver_ipc::read::{FileReader, StreamReader};
use quiver_ipc::write::{FileWriter, StreamWriter, WriteOptions};
use std::sync::Arc;

fn batch() -> RecordBatch {
    let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int64, true)]));
    let values: Vec<i64> = (0..10_000).map(|i| i % 7).collect();
    let x = Array::from(PrimitiveArray::<i64>::new(values));
    RecordBatch::try_new(schema, vec![x]).unwrap()
}

/// `bytes` with the ZSTD frame after its first magic number made unreadable.
fn corrupt_first_zstd_frame(mut bytes: Vec<u8>) -> Vec<u8> {
    let magic = [0x28, 0xB5, 0x2F, 0xFD];
    let at = bytes
        .windows(4)
        .position(|w| w == magic)
        .expect("a ZSTD frame");
    bytes[at + 4..at + 12].fill(0xFF);
    bytes
}

#[test]
fn corrupt_zstd_buffers_name_the_message_batch_and_buffer() {
    let b = batch();
    let options = || WriteOptions::default().with_compression(Some(Codec::Zstd));
    let mut w = FileWriter::try_new(Vec::new(), b.schema().clone(), options()).unwrap();
    w.write(&b).unwrap();
    let file = corrupt_first_zstd_frame(w.finish().unwrap());
    let mut r = FileReader::from_bytes(Bytes::from(file)).unwrap();
    let e = r.batch(0).unwrap_err();
    assert!(matches!(e, Error::Codec { .. }), "{e:?}");
    let text = e.to_string();
    assert!(
        text.starts_with("record batch 0, buffer 1: codec error: zstd"),
        "{text}"
    );

    let mut w = StreamWriter::try_new(Vec::new(), b.schema().clone(), options()).unwrap();
    w.write(&b).unwrap();
    let stream = corrupt_first_zstd_frame(w.finish().unwrap());
    let e = StreamReader::try_new(&stream[..])
        .unwrap()
        .next()
        .unwrap()
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("message 1, record batch 0, buffer 1: codec error: zstd"),
        "{e}"
    );
}
