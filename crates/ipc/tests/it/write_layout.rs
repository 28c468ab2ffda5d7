//! What the writer puts on the wire, byte by byte: bodies, field nodes and buffer entries,
//! padding, message framing, file structure, and slices written without their parents.

use super::write_data::{all_types, batch_of, prim};
use quiver_arrow::buffer::OffsetBuffer;
use quiver_arrow::{
    Array, DataType, Field, ListArray, ListViewArray, Metadata, NullArray, PrimitiveArray,
    RecordBatch, RunEndArray, Schema, StringArray, StringViewArray, UnionArray, UnionFields,
    UnionMode,
};
use quiver_ipc::inspect::{MessageHeader, MessageInfo, inspect_file, inspect_message};
use quiver_ipc::message::{CONTINUATION, Prefix, parse_prefix};
use quiver_ipc::write::{FileWriter, StreamWriter, WriteOptions, encode_record_batch};
use quiver_ipc::{Codec, IpcSchema};
use std::sync::Arc;

/// One message of a stream: where it starts, its metadata and its body.
pub struct Framed {
    pub offset: usize,
    pub metadata_len: usize,
    pub info: MessageInfo,
    pub body: Vec<u8>,
}

/// Splits `bytes` (a stream, from `start`) into messages up to the end-of-stream marker, whose
/// offset is returned too.
pub fn messages(bytes: &[u8], start: usize) -> (Vec<Framed>, usize) {
    let mut out = Vec::new();
    let mut pos = start;
    loop {
        match parse_prefix(&bytes[pos..]).unwrap().unwrap() {
            Prefix::EndOfStream { prefix_len } => {
                assert_eq!(prefix_len, 8, "the writer uses continuation markers");
                return (out, pos);
            }
            Prefix::Message {
                prefix_len,
                metadata_len,
            } => {
                assert_eq!(prefix_len, 8);
                let meta = &bytes[pos + 8..pos + 8 + metadata_len];
                let info = inspect_message(meta).unwrap();
                let body_start = pos + 8 + metadata_len;
                let body_end = body_start + info.body_length as usize;
                out.push(Framed {
                    offset: pos,
                    metadata_len: 8 + metadata_len,
                    body: bytes[body_start..body_end].to_vec(),
                    info,
                });
                pos = body_end;
            }
        }
    }
}

fn one_column(name: &str, a: Array) -> RecordBatch {
    let schema = Schema::new(vec![Field::new(name, a.data_type().clone(), true)]);
    RecordBatch::try_new(Arc::new(schema), vec![a]).unwrap()
}

fn stream(batches: &[RecordBatch], options: WriteOptions) -> Vec<u8> {
    let mut w = StreamWriter::try_new(Vec::new(), batches[0].schema(), options).unwrap();
    for b in batches {
        w.write(b).unwrap();
    }
    w.finish().unwrap()
}

fn int32_example() -> Array {
    Array::from(PrimitiveArray::<i32>::from_options([
        Some(1),
        None,
        Some(2),
        Some(4),
        Some(8),
    ]))
}

fn utf8_example() -> Array {
    Array::from(StringArray::from_options([
        Some("joe"),
        None,
        None,
        Some("mark"),
    ]))
}

#[test]
fn int32_body_byte_for_byte() {
    let bytes = stream(&[one_column("i", int32_example())], WriteOptions::default());
    let (msgs, eos) = messages(&bytes, 0);
    assert_eq!(&bytes[eos..], &[0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
    assert_eq!(msgs[0].info.header, MessageHeader::Schema);
    assert_eq!(msgs[0].info.version, 4, "metadata version V5");
    let m = &msgs[1];
    assert_eq!(
        (m.info.header, m.info.length),
        (MessageHeader::RecordBatch, 5)
    );
    assert_eq!(m.info.nodes, vec![(5, 1)]);
    assert_eq!(m.info.buffers, vec![(0, 1), (8, 20)]);
    assert_eq!(m.info.compression, None);
    let mut expected = vec![0b0001_1101, 0, 0, 0, 0, 0, 0, 0];
    for v in [1i32, 0, 2, 4, 8] {
        expected.extend_from_slice(&v.to_le_bytes());
    }
    expected.extend_from_slice(&[0; 4]);
    assert_eq!(m.body, expected);
    assert_eq!(m.metadata_len % 8, 0);
    assert_eq!(m.offset % 8, 0);
}

#[test]
fn utf8_body_byte_for_byte() {
    let bytes = stream(&[one_column("s", utf8_example())], WriteOptions::default());
    let m = &messages(&bytes, 0).0[1];
    assert_eq!(m.info.nodes, vec![(4, 2)]);
    assert_eq!(m.info.buffers, vec![(0, 1), (8, 20), (32, 7)]);
    let mut expected = vec![0b0000_1001, 0, 0, 0, 0, 0, 0, 0];
    for v in [0i32, 3, 3, 3, 7] {
        expected.extend_from_slice(&v.to_le_bytes());
    }
    expected.extend_from_slice(&[0; 4]);
    expected.extend_from_slice(b"joemark\0");
    assert_eq!(m.body, expected);
}

#[test]
fn alignment_64_pads_buffers_and_bodies() {
    let options = WriteOptions::default().with_alignment(64);
    let bytes = stream(&[one_column("s", utf8_example())], options);
    let m = &messages(&bytes, 0).0[1];
    assert_eq!(m.info.buffers, vec![(0, 1), (64, 20), (128, 7)]);
    assert_eq!(m.body.len(), 192);
    assert!(
        m.body[1..64]
            .iter()
            .chain(&m.body[84..128])
            .chain(&m.body[135..])
            .all(|&b| b == 0)
    );
    assert_eq!(
        (m.offset + m.metadata_len) % 64,
        0,
        "the body starts 64-byte aligned"
    );
}

#[test]
fn sliced_bitmaps_realigned_with_zeroed_tails() {
    let values: Vec<Option<i32>> = (0..20).map(|i| (i % 3 != 0).then_some(i)).collect();
    let a = Array::from(PrimitiveArray::<i32>::from_options(values)).slice(4, 5);
    let e = encode_record_batch(&one_column("i", a), &WriteOptions::default()).unwrap();
    // Rows 4..9 are valid except 6: bits 1, 1, 0, 1, 1 and nothing after.
    assert_eq!(&e.body()[..8], &[0b0001_1011, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(e.nodes()[0].null_count, 1);
}

#[test]
fn no_nulls_means_an_empty_validity_buffer() {
    let a = Array::from(PrimitiveArray::<i64>::new(vec![1, 2, 3]));
    let e = encode_record_batch(&one_column("i", a), &WriteOptions::default()).unwrap();
    let b: Vec<(usize, usize)> = e.buffers().iter().map(|b| (b.offset, b.length)).collect();
    assert_eq!(b, vec![(0, 0), (0, 24)]);
}

/// (nodes, buffer lengths) of a one-column batch.
fn layout_of(a: Array) -> (Vec<(usize, usize)>, Vec<usize>, Vec<i64>) {
    let e = encode_record_batch(&one_column("c", a), &WriteOptions::default()).unwrap();
    let nodes = e.nodes().iter().map(|n| (n.length, n.null_count)).collect();
    let buffers = e.buffers().iter().map(|b| b.length).collect();
    (nodes, buffers, e.variadic_buffer_counts().to_vec())
}

#[test]
fn nodes_and_buffers_of_layouts_without_validity() {
    // Null: a node whose null count is its length, no buffers.
    assert_eq!(
        layout_of(Array::from(NullArray::new(3))),
        (vec![(3, 3)], vec![], vec![])
    );
    // Sparse union: type ids only, then the children; the union's null count is 0.
    let fields = UnionFields::try_new(
        vec![0i8, 3],
        vec![
            Field::new("a", DataType::Int8, true),
            Field::new("b", DataType::Null, true),
        ],
    )
    .unwrap();
    let ids = vec![0i8, 3, 0].into();
    let a = prim(DataType::Int8, [Some(1i8), None, None]);
    let u = UnionArray::try_new(
        fields.clone(),
        UnionMode::Sparse,
        ids,
        None,
        vec![a, Array::from(NullArray::new(3))],
    )
    .unwrap();
    assert_eq!(
        layout_of(Array::from(u)),
        (vec![(3, 0), (3, 2), (3, 3)], vec![3, 1, 3], vec![])
    );
    // Dense union: type ids and offsets.
    let a = prim(DataType::Int8, [Some(1i8), None]);
    let u = UnionArray::try_new(
        fields,
        UnionMode::Dense,
        vec![0i8, 3, 0].into(),
        Some(vec![0, 0, 1].into()),
        vec![a, Array::from(NullArray::new(1))],
    )
    .unwrap();
    assert_eq!(
        layout_of(Array::from(u)),
        (vec![(3, 0), (2, 1), (1, 1)], vec![3, 12, 1, 2], vec![])
    );
    // Run-end encoded: no buffers of its own; run ends and values as children.
    let r = RunEndArray::try_new(
        prim(DataType::Int16, [Some(2i16), Some(5)]),
        prim(DataType::Int64, [None, Some(9i64)]),
    )
    .unwrap();
    assert_eq!(
        layout_of(Array::from(r)),
        (vec![(5, 0), (2, 0), (2, 1)], vec![0, 4, 1, 16], vec![])
    );
}

#[test]
fn views_dictionaries_and_list_views() {
    let v = StringViewArray::from_options([Some("short"), None, Some("a value longer than 12")]);
    assert_eq!(
        layout_of(Array::from(v)),
        (vec![(3, 1)], vec![1, 48, 22], vec![1])
    );
    let v = StringViewArray::from_options([Some("short")]);
    assert_eq!(
        layout_of(Array::from(v)),
        (vec![(1, 0)], vec![0, 16], vec![0])
    );
    // A dictionary-encoded column writes its keys; the values go in a dictionary batch.
    let d = super::write_data::dict(
        prim(DataType::Int16, [Some(1i16), None]),
        utf8_example(),
        false,
    );
    assert_eq!(layout_of(d), (vec![(2, 1)], vec![1, 4], vec![]));
    let item = Arc::new(Field::new("item", DataType::Int8, true));
    let l = quiver_arrow::ListViewArray::try_new(
        item,
        vec![1, 0].into(),
        vec![2, 0].into(),
        prim(DataType::Int8, [Some(1i8), Some(2), Some(3)]),
        None,
    )
    .unwrap();
    assert_eq!(
        layout_of(Array::from(l)),
        (vec![(2, 0), (2, 0)], vec![0, 8, 8, 0, 2], vec![])
    );
}

#[test]
fn every_layout_has_the_buffers_the_spec_lists() {
    // Buffers per node kind, checked over the whole test batch.
    let batch = batch_of(&all_types(), Metadata::new());
    let e = encode_record_batch(&batch, &WriteOptions::default()).unwrap();
    let views = e.variadic_buffer_counts().iter().sum::<i64>() as usize;
    assert_eq!(
        e.variadic_buffer_counts().len(),
        2,
        "binary_view and utf8_view"
    );
    let mut expected = 0;
    for c in batch.columns() {
        expected += buffers_of(c);
    }
    assert_eq!(e.buffers().len(), expected + views);
    let body = e.body();
    for b in e.buffers() {
        assert_eq!(b.offset % 8, 0);
        assert!(b.offset + b.length <= body.len());
    }
}

/// Buffers the spec lists for `a` and its children (view data buffers not counted).
fn buffers_of(a: &Array) -> usize {
    let children = |cs: &[Array]| cs.iter().map(buffers_of).sum::<usize>();
    match a {
        Array::Null(_) => 0,
        Array::Binary(_) | Array::LargeBinary(_) | Array::Utf8(_) | Array::LargeUtf8(_) => 3,
        Array::List(l) => 2 + buffers_of(l.values()),
        Array::LargeList(l) => 2 + buffers_of(l.values()),
        Array::ListView(l) => 3 + buffers_of(l.values()),
        Array::LargeListView(l) => 3 + buffers_of(l.values()),
        Array::FixedSizeList(l) => 1 + buffers_of(l.values()),
        Array::Map(m) => 2 + 1 + children(m.entries().columns()),
        Array::Struct(s) => 1 + children(s.columns()),
        Array::Union(u) => (1 + u.offsets().is_some() as usize) + children(u.children()),
        Array::Dictionary(_) => 2,
        Array::RunEndEncoded(r) => buffers_of(r.run_ends()) + buffers_of(r.values()),
        _ => 2, // validity + values (views: validity + views)
    }
}

/// Writes `big.slice(offset, 10)`, checks the body is at most `bound` bytes and that the
/// reader gets the slice back; returns the batch message.
fn write_slice(big: &Array, offset: usize, bound: usize) -> Framed {
    let slice = big.slice(offset, 10);
    let bytes = stream(&[one_column("c", slice.clone())], WriteOptions::default());
    let m = messages(&bytes, 0).0.pop().unwrap();
    let what = big.data_type();
    assert!(
        m.body.len() <= bound,
        "{what}: body of {} bytes",
        m.body.len()
    );
    let mut r = quiver_ipc::read::StreamReader::try_new(&bytes[..]).unwrap();
    let read = r.next_batch().unwrap().unwrap();
    assert!(read.column(0) == &slice, "{what}: read back differs");
    m
}

#[test]
fn a_slice_of_a_big_array_is_written_small() {
    let n = 1_000_000usize;
    let strings: Vec<String> = (0..n).map(|i| format!("value number {i}")).collect();
    let big = Array::from(StringArray::from_options(
        strings.iter().map(|s| Some(s.as_str())),
    ));
    assert!(matches!(&big, Array::Utf8(s) if s.values().len() > 10_000_000));
    // Offsets rebased to 0, only the referenced values: 44 + 170 bytes, padded.
    let m = write_slice(&big, 1000, 48 + 176);
    let offsets_at = m.info.buffers[1].0 as usize;
    let offsets = &m.body[offsets_at..offsets_at + 8];
    assert_eq!(offsets, [0, 0, 0, 0, 17, 0, 0, 0], "offsets start at 0");
    let data_at = m.info.buffers[2].0 as usize;
    let expected: String = strings[1000..1010].concat();
    let data = &m.body[data_at..data_at + expected.len()];
    assert_eq!(data, expected.as_bytes());
    // Views: only the referenced long values are copied.
    let strs = strings.iter().map(|s| Some(s.as_str()));
    let views = Array::from(StringViewArray::from_options(strs));
    write_slice(&views, 500_000, 160 + 192);
    // Lists: only the referenced part of the child; list views likewise.
    let offsets: Vec<i32> = (0..=n as i32).collect();
    let item = Arc::new(Field::new("item", DataType::Utf8, true));
    let offsets = OffsetBuffer::try_new(offsets.into()).unwrap();
    let list = ListArray::try_new(item.clone(), offsets, big.clone(), None).unwrap();
    write_slice(&Array::from(list), 999_990, 48 + 48 + 192);
    let starts: Vec<i32> = (0..n as i32).rev().collect();
    let sizes = vec![1; n];
    let view = ListViewArray::try_new(item, starts.into(), sizes.into(), big, None).unwrap();
    write_slice(&Array::from(view), 10, 48 + 48 + 48 + 192);
}

#[test]
fn slices_of_unions_and_runs_are_written_small() {
    let n = 1_000_000usize;
    // A dense union alternating between its two children.
    let fields = vec![
        Field::new("i", DataType::Int64, true),
        Field::new("f", DataType::Float64, true),
    ];
    let fields = UnionFields::try_new(vec![0i8, 1], fields).unwrap();
    let ids: Vec<i8> = (0..n).map(|i| (i % 2) as i8).collect();
    let offsets: Vec<i32> = (0..n as i32).map(|i| i / 2).collect();
    let ints = Array::from(PrimitiveArray::<i64>::new(vec![3; n / 2]));
    let floats = Array::from(PrimitiveArray::<f64>::new(vec![0.5; n / 2]));
    let children = vec![ints, floats];
    let mode = UnionMode::Dense;
    let u = UnionArray::try_new(fields, mode, ids.into(), Some(offsets.into()), children);
    let m = write_slice(&Array::from(u.unwrap()), 400_001, 16 + 40 + 40 + 40);
    assert_eq!(m.info.nodes, vec![(10, 0), (5, 0), (5, 0)]);
    // Run-end encoded: only the runs the slice covers, run ends relative to it.
    let ends: Vec<i32> = (1..=n as i32).map(|i| i * 3).collect();
    let values = Array::from(PrimitiveArray::<i64>::new(
        (0..n as i64).collect::<Vec<_>>(),
    ));
    let ends = Array::from(PrimitiveArray::<i32>::new(ends));
    let r = RunEndArray::try_new(ends, values).unwrap();
    let m = write_slice(&Array::from(r), 1_000_001, 24 + 32);
    assert_eq!(m.info.nodes, vec![(10, 0), (4, 0), (4, 0)]);
    let ends_at = m.info.buffers[1].0 as usize;
    let ends: Vec<i32> = (m.body[ends_at..ends_at + 16].chunks(4))
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(ends, vec![1, 4, 7, 10]);
}

#[test]
fn compressed_buffers_carry_their_length() {
    let a = Array::from(PrimitiveArray::<i64>::new(vec![7; 1000]));
    for codec in [Codec::Lz4Frame, Codec::Zstd] {
        let options = WriteOptions::default().with_compression(Some(codec));
        let bytes = stream(&[one_column("x", a.clone())], options);
        let m = &messages(&bytes, 0).0[1];
        assert_eq!(m.info.compression, Some(codec));
        assert_eq!(
            m.info.buffers[0].1, 0,
            "an empty validity buffer stays empty"
        );
        let (offset, len) = m.info.buffers[1];
        let prefix = i64::from_le_bytes(
            m.body[offset as usize..offset as usize + 8]
                .try_into()
                .unwrap(),
        );
        assert_eq!(prefix, 8000);
        assert!(
            len < 800,
            "{codec}: 8000 bytes of one repeated value compressed to {len}"
        );
    }
    // Incompressible: stored with prefix -1.
    let noise: Vec<u8> = (0..64u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let a = Array::from(PrimitiveArray::<u8>::new(noise.clone()));
    let options = WriteOptions::default().with_compression(Some(Codec::Zstd));
    let m = &messages(&stream(&[one_column("x", a)], options), 0).0[1];
    assert_eq!(&m.body[..8], &(-1i64).to_le_bytes());
    assert_eq!(&m.body[8..72], &noise[..]);
}

#[test]
fn file_footer_points_at_every_message() {
    let batch = batch_of(&all_types(), Metadata::new());
    let mut w = FileWriter::try_new(Vec::new(), batch.schema(), WriteOptions::default()).unwrap();
    w.write(&batch).unwrap();
    w.write_with_metadata(
        &batch.slice(1, 2),
        &Metadata::from([("k".into(), "v".into())]),
    )
    .unwrap();
    w.set_footer_metadata(Metadata::from([("footer".into(), "yes".into())]));
    let bytes = w.finish().unwrap();
    assert_eq!(&bytes[..8], b"ARROW1\0\0");
    let footer = inspect_file(&bytes).unwrap();
    assert_eq!(footer.version, 4);
    assert_eq!(footer.schema, IpcSchema::new(batch.schema().clone()));
    assert_eq!(footer.custom_metadata["footer"], "yes");
    let (msgs, eos) = messages(&bytes, 8);
    assert_eq!(&bytes[eos..eos + 4], &CONTINUATION.to_le_bytes());
    let blocks = |kind: MessageHeader| -> Vec<(i64, i32, i64)> {
        let m = msgs.iter().filter(|m| m.info.header == kind);
        m.map(|m| (m.offset as i64, m.metadata_len as i32, m.body.len() as i64))
            .collect()
    };
    // dict32, dict8_ordered, the items of list_of_dict, and nested_dict's outer and inner.
    let footer_blocks = |b: &[quiver_ipc::inspect::BlockInfo]| -> Vec<(i64, i32, i64)> {
        let ok = |b: &quiver_ipc::inspect::BlockInfo| b.message.is_ok();
        assert!(b.iter().all(ok), "{b:?}");
        b.iter()
            .map(|b| (b.offset, b.metadata_length, b.body_length))
            .collect()
    };
    assert_eq!(
        footer_blocks(&footer.dictionaries),
        blocks(MessageHeader::DictionaryBatch)
    );
    assert_eq!(footer.dictionaries.len(), 5);
    assert_eq!(
        footer_blocks(&footer.record_batches),
        blocks(MessageHeader::RecordBatch)
    );
    assert_eq!(footer.record_batches.len(), 2);
    assert_eq!(msgs.last().unwrap().info.custom_metadata["k"], "v");
}

#[test]
fn nested_dictionaries_are_written_inner_first() {
    let batch = batch_of(&all_types(), Metadata::new());
    let bytes = stream(std::slice::from_ref(&batch), WriteOptions::default());
    let ids: Vec<i64> = messages(&bytes, 0)
        .0
        .iter()
        .filter_map(|m| m.info.dictionary_id)
        .collect();
    let ipc = IpcSchema::new(batch.schema().clone());
    let nested = batch.schema().fields.index_of("nested_dict").unwrap();
    let (outer, inner) = (
        ipc.dictionaries.id_at(&[nested]).unwrap(),
        ipc.dictionaries.id_at(&[nested, 0]).unwrap(),
    );
    let pos = |id| ids.iter().position(|&i| i == id).unwrap();
    assert!(pos(inner) < pos(outer), "ids in order {ids:?}");
    assert_eq!(ids.len(), 5);
}
