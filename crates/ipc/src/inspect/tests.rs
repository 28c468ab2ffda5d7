use super::*;
use crate::write::{FileWriter, StreamWriter, WriteOptions};
use quiver_arrow::{Array, DataType, Field, PrimitiveArray, RecordBatch, Schema, StringArray};
use std::sync::Arc;

fn batch() -> RecordBatch {
    let schema = Schema::new(vec![
        Field::new("i", DataType::Int32, true),
        Field::new("s", DataType::Utf8, true),
    ]);
    let i = Array::from(PrimitiveArray::<i32>::from_options([
        Some(1),
        None,
        Some(3),
    ]));
    let s = Array::from(StringArray::from_options([Some("a"), Some("bc"), None]));
    RecordBatch::try_new(Arc::new(schema), vec![i, s]).unwrap()
}

fn stream(options: WriteOptions) -> Vec<u8> {
    let b = batch();
    let mut w = StreamWriter::try_new(Vec::new(), b.schema().clone(), options).unwrap();
    w.write(&b).unwrap();
    w.finish().unwrap()
}

#[test]
fn stream_messages_and_labels() {
    let bytes = stream(WriteOptions::default());
    let layout = inspect_stream(&bytes);
    assert_eq!(layout.end, StreamEnd::Marker(bytes.len() as u64 - 8));
    assert_eq!(layout.messages.len(), 2);
    assert_eq!(layout.messages[0].info.schema_fields, Some(2));
    let rb = &layout.messages[1];
    assert_eq!((rb.prefix, rb.info.length), (Framing::Continuation, 3));
    let fields = label_buffers(layout.schema.as_ref().unwrap(), &rb.info).unwrap();
    let roles: Vec<Vec<BufferRole>> = fields
        .iter()
        .map(|f| f.buffers.iter().map(|b| b.role).collect())
        .collect();
    use quiver_arrow::datatype::BufferKind::*;
    let fixed = |kinds: &[quiver_arrow::datatype::BufferKind]| {
        kinds
            .iter()
            .map(|&k| BufferRole::Fixed(k))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        roles,
        [
            fixed(&[Validity, Values]),
            fixed(&[Validity, Offsets, Data])
        ]
    );
    assert_eq!((fields[1].path.as_str(), fields[1].null_count), ("s", 1));
}

#[test]
fn truncated_stream_keeps_the_good_part() {
    let bytes = stream(WriteOptions::default());
    let schema_end = inspect_stream(&bytes).messages[1].offset as usize;
    let layout = inspect_stream(&bytes[..bytes.len() - 20]);
    assert_eq!(layout.messages.len(), 1);
    let StreamEnd::Error { offset, message } = &layout.end else {
        panic!("{:?}", layout.end)
    };
    assert_eq!(*offset as usize, schema_end);
    assert!(
        message.contains("input ends inside the message body"),
        "{message}"
    );
    for n in 0..bytes.len() {
        let _ = inspect_stream(&bytes[..n]);
        let _ = inspect_file(&bytes[..n]);
    }
}

#[test]
fn compressed_buffers_report_their_lengths() {
    let bytes = stream(WriteOptions::default().with_compression(Some(Codec::Zstd)));
    let layout = inspect_stream(&bytes);
    let info = &layout.messages[1].info;
    assert_eq!(info.compression, Some(Codec::Zstd));
    assert_eq!(info.uncompressed_lengths.len(), info.buffers.len());
    let total = info.uncompressed_body_length().unwrap();
    assert!(total >= 12 + 16, "{total}");
    // An empty body: every prefix is out of range.
    assert!(
        buffer_uncompressed_lengths(info, &[])
            .iter()
            .all(Option::is_none)
    );
}

#[test]
fn file_blocks_and_a_corrupt_block() {
    let b = batch();
    let mut w =
        FileWriter::try_new(Vec::new(), b.schema().clone(), WriteOptions::default()).unwrap();
    w.write(&b).unwrap();
    w.write(&b.slice(0, 1)).unwrap();
    let mut bytes = w.finish().unwrap();
    let layout = inspect_file(&bytes).unwrap();
    assert_eq!(metadata_version_name(layout.version), "V5");
    let rows: Vec<i64> = layout
        .record_batches
        .iter()
        .map(|b| b.message.as_ref().unwrap().length)
        .collect();
    assert_eq!(rows, [3, 1]);
    // Corrupt the second batch's metadata: the first stays readable.
    let second = layout.record_batches[1].offset as usize;
    bytes[second + 8..second + 24].fill(0xAB);
    let layout = inspect_file(&bytes).unwrap();
    assert!(layout.record_batches[0].message.is_ok());
    assert!(layout.record_batches[1].message.is_err());
}
