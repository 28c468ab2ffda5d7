//! Delta dictionaries cost time and memory linear in the input: runs of deltas are joined once
//! (counted by `DictionaryTable::concatenated_bytes`), the dictionaries held stay within a
//! budget proportional to the dictionary messages read, and file footers may not list a block
//! twice.

use bytes::Bytes;
use quiver_arrow::{
    Array, DataType, DictionaryArray, Error, Field, IntegerType, PrimitiveArray, RecordBatch,
    Schema, StringArray,
};
use quiver_ipc::Codec;
use quiver_ipc::inspect::{BlockInfo, inspect_file};
use quiver_ipc::message::{Message, MessageKind};
use quiver_ipc::read::{FileReader, ReadOptions, StreamDecoder, StreamReader};
use quiver_ipc::write::{FileWriter, StreamWriter, WriteOptions};
use std::sync::Arc;

/// Deltas in the long streams, and values each adds.
const DELTAS: usize = 2000;
const STEP: usize = 3;

fn schema() -> Arc<Schema> {
    let dt = DataType::dictionary(IntegerType::Int32, DataType::Utf8);
    Arc::new(Schema::new(vec![Field::new("d", dt, true)]))
}

/// `n` distinct words.
fn words(n: usize) -> Array {
    let words: Vec<String> = (0..n).map(|i| format!("w{i}")).collect();
    Array::from(StringArray::from_options(
        words.iter().map(|w| Some(w.as_str())),
    ))
}

/// A batch with the first `len` values of `all` as dictionary, keys picking its last values.
fn batch(all: &Array, len: usize) -> RecordBatch {
    let keys: Vec<i32> = (len.saturating_sub(STEP)..len).map(|k| k as i32).collect();
    let keys = Array::from(PrimitiveArray::<i32>::new(keys));
    let d = DictionaryArray::try_new(keys, Arc::new(all.slice(0, len)), false).unwrap();
    RecordBatch::try_new(schema(), vec![Array::from(d)]).unwrap()
}

/// The batches of the long streams: dictionary growing by `STEP` values each time.
fn growing_batches(all: &Array) -> Vec<RecordBatch> {
    (1..=DELTAS + 1).map(|i| batch(all, i * STEP)).collect()
}

fn deltas() -> WriteOptions {
    WriteOptions::default().with_dictionary_deltas(true)
}

fn write_stream(batches: &[RecordBatch], options: WriteOptions) -> Vec<u8> {
    let mut w = StreamWriter::try_new(Vec::new(), schema(), options).unwrap();
    batches.iter().for_each(|b| w.write(b).unwrap());
    w.finish().unwrap()
}

fn write_file(batches: &[RecordBatch]) -> Vec<u8> {
    let mut w = FileWriter::try_new(Vec::new(), schema(), deltas()).unwrap();
    batches.iter().for_each(|b| w.write(b).unwrap());
    w.finish().unwrap()
}

/// The messages of a stream, each as its bytes (prefix, metadata, body) and kind; the
/// end-of-stream marker is left out.
fn frames(stream: &[u8]) -> Vec<(Vec<u8>, MessageKind)> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos + 8 <= stream.len() {
        let len = u32::from_le_bytes(stream[pos + 4..pos + 8].try_into().unwrap()) as usize;
        if len == 0 {
            break;
        }
        let metadata = Bytes::copy_from_slice(&stream[pos + 8..pos + 8 + len]);
        let body_len = Message::declared_body_length(&metadata).unwrap();
        let end = pos + 8 + len + body_len;
        let body = Bytes::copy_from_slice(&stream[pos + 8 + len..end]);
        let kind = Message::try_new(metadata, body).unwrap().kind();
        out.push((stream[pos..end].to_vec(), kind));
        pos = end;
    }
    out
}

fn join<'a>(frames: impl IntoIterator<Item = &'a Vec<u8>>) -> Vec<u8> {
    let mut out: Vec<u8> = frames.into_iter().flatten().copied().collect();
    out.extend_from_slice(&[0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]);
    out
}

/// The strings a batch's dictionary column decodes to.
fn decoded(batch: &RecordBatch) -> Vec<String> {
    let Array::Dictionary(d) = batch.column(0) else {
        panic!("not a dictionary column: {batch:?}");
    };
    let Array::Utf8(values) = d.values().as_ref() else {
        panic!("not a Utf8 dictionary");
    };
    let Array::I32(keys) = d.keys() else {
        panic!("not Int32 keys");
    };
    let keys = keys.values().iter().map(|k| k as usize);
    keys.map(|k| values.value(k).to_string()).collect()
}

fn dictionary_len(batch: &RecordBatch) -> usize {
    match batch.column(0) {
        Array::Dictionary(d) => d.values().len(),
        other => panic!("not a dictionary column: {other:?}"),
    }
}

#[test]
fn a_run_of_deltas_is_joined_once() {
    let all = words((DELTAS + 1) * STEP);
    let batches = growing_batches(&all);
    let stream = write_stream(&batches, deltas());
    let frames = frames(&stream);
    // Schema, the first dictionary, every delta, then every batch.
    let (mut dicts, batch_frames): (Vec<_>, Vec<_>) = frames[1..]
        .iter()
        .partition(|(_, k)| *k == MessageKind::DictionaryBatch);
    assert_eq!((dicts.len(), batch_frames.len()), (DELTAS + 1, DELTAS + 1));
    dicts.insert(0, &frames[0]);
    let reordered = join(dicts.iter().chain(&batch_frames).map(|(f, _)| f));
    let mut reader = StreamReader::try_new(&reordered[..]).unwrap();
    for expected in &batches {
        let got = reader.next_batch().unwrap().unwrap();
        assert_eq!(decoded(&got), decoded(expected));
        assert_eq!(dictionary_len(&got), all.len()); // every delta came first
    }
    assert!(reader.next_batch().unwrap().is_none());
    let table = reader.dictionaries();
    assert_eq!(table.get(0).unwrap().as_ref(), &all);
    // Linear: the dictionary was copied exactly once (it was O(n²) bytes before). The pieces
    // held each have one offset more than their share of the whole.
    assert_eq!(table.held_bytes(), all.buffer_bytes() + 4 * DELTAS);
    assert_eq!(table.concatenated_bytes(), table.held_bytes() as u64);
}

#[test]
fn a_file_with_many_deltas_joins_them_once() {
    let all = words((DELTAS + 1) * STEP);
    let batches = growing_batches(&all);
    let file = write_file(&batches);
    let mut reader = FileReader::from_bytes(Bytes::from(file)).unwrap();
    assert_eq!(reader.num_dictionary_batches(), DELTAS + 1);
    for (i, expected) in batches.iter().enumerate() {
        assert_eq!(decoded(&reader.batch(i).unwrap()), decoded(expected));
    }
    let table = reader.dictionaries().unwrap();
    assert_eq!(table.get(0).unwrap().as_ref(), &all);
    assert_eq!(table.held_bytes(), all.buffer_bytes() + 4 * DELTAS);
    assert_eq!(table.concatenated_bytes(), table.held_bytes() as u64);
}

#[test]
fn alternating_deltas_and_batches_copy_once_per_batch() {
    let all = words((DELTAS + 1) * STEP);
    let batches = growing_batches(&all);
    let stream = write_stream(&batches, deltas());
    let mut reader = StreamReader::try_new(&stream[..]).unwrap();
    let mut decoder = StreamDecoder::new();
    let pushed = decoder.feed(Bytes::from(stream.clone())).unwrap();
    assert_eq!(pushed.len(), batches.len());
    for (expected, pushed) in batches.iter().zip(&pushed) {
        let got = reader.next_batch().unwrap().unwrap();
        assert_eq!(decoded(&got), decoded(expected));
        assert_eq!(decoded(pushed), decoded(expected));
        assert_eq!(dictionary_len(&got), dictionary_len(expected));
    }
    // Each batch needs the dictionary as it is then: one copy per batch after a delta, never
    // one per delta and batch pair more.
    let table = reader.dictionaries();
    let bound = (DELTAS * all.buffer_bytes()) as u64;
    assert!(
        table.concatenated_bytes() <= bound,
        "{}",
        table.concatenated_bytes()
    );
}

/// A stream: schema, a first dictionary `["a"]`, a batch, `copies` times one ZSTD delta adding
/// a 1,000,000-byte string (about 1 MiB decompressed from a few hundred bytes), a batch.
fn attack_stream(copies: usize, source: &[u8]) -> Vec<u8> {
    let f = frames(source);
    let kinds: Vec<_> = f.iter().map(|(_, k)| *k).collect();
    use MessageKind::{DictionaryBatch as D, RecordBatch as B, Schema as S};
    assert_eq!(kinds, [S, D, B, D, B]);
    let delta = &f[3].0;
    assert!(delta.len() < 1024, "the delta has {} bytes", delta.len());
    let deltas = std::iter::repeat_n(delta, copies);
    join(
        [&f[0].0, &f[1].0, &f[2].0]
            .into_iter()
            .chain(deltas)
            .chain([&f[4].0]),
    )
}

/// The two batches of the attack stream, written by quiver.
fn quiver_attack_source() -> Vec<u8> {
    let big = "x".repeat(1_000_000);
    let all = Array::from(StringArray::from_options([Some("a"), Some(big.as_str())]));
    let dict = |len: usize| {
        let keys = Array::from(PrimitiveArray::<i32>::new(
            (0..len as i32).collect::<Vec<_>>(),
        ));
        let d = DictionaryArray::try_new(keys, Arc::new(all.slice(0, len)), false).unwrap();
        RecordBatch::try_new(schema(), vec![Array::from(d)]).unwrap()
    };
    let options = deltas().with_compression(Some(Codec::Zstd));
    write_stream(&[dict(1), dict(2)], options)
}

/// Checks that reading `stream` fails on the dictionary budget, in the stream reader and the
/// push decoder alike, before holding more than a few MiB.
fn assert_over_budget(stream: &[u8]) {
    let mut reader = StreamReader::try_new(stream).unwrap();
    assert_eq!(decoded(&reader.next_batch().unwrap().unwrap()), ["a"]);
    let err = reader.next_batch().unwrap_err();
    assert!(matches!(err, Error::OutOfSpec { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("dictionary id 0: the dictionaries would hold"),
        "{text}"
    );
    assert!(text.contains("over the budget of 1048576 bytes"), "{text}");
    assert!(reader.dictionaries().held_bytes() < 2 << 20);
    let pushed = StreamDecoder::new().feed(Bytes::copy_from_slice(stream));
    let (_, reason) = text.split_once(": ").unwrap(); // after "message N"
    assert!(pushed.unwrap_err().to_string().ends_with(reason), "{text}");
}

#[test]
fn repeated_compressed_deltas_exceed_the_budget() {
    let stream = attack_stream(200, &quiver_attack_source());
    assert!(stream.len() < 100 << 10, "{} bytes", stream.len());
    assert_over_budget(&stream);
}

#[test]
fn repeated_compressed_deltas_within_a_raised_budget_are_joined_once() {
    let copies = 20;
    let stream = attack_stream(copies, &quiver_attack_source());
    let options = ReadOptions::new().with_max_decompression_ratio(1 << 20);
    let mut reader = StreamReader::try_new_with_options(&stream[..], options).unwrap();
    reader.next_batch().unwrap().unwrap();
    let last = reader.next_batch().unwrap().unwrap();
    assert_eq!(dictionary_len(&last), 1 + copies);
    let table = reader.dictionaries();
    assert!(table.held_bytes() > copies * 1_000_000);
    assert_eq!(table.concatenated_bytes(), table.held_bytes() as u64);
    // The absolute bound applies whatever the ratio.
    let options = ReadOptions::new()
        .with_max_decompression_ratio(1 << 20)
        .with_max_dictionary_bytes(5 << 20);
    let mut reader = StreamReader::try_new_with_options(&stream[..], options).unwrap();
    reader.next_batch().unwrap().unwrap();
    let err = reader.next_batch().unwrap_err().to_string();
    assert!(err.contains("over the budget of 5242880 bytes"), "{err}");
}

/// The two batches of the attack stream, written by pyarrow (`None` without pyarrow, unless
/// `CI=true`).
fn pyarrow_attack_source() -> Option<Vec<u8>> {
    const SCRIPT: &str = r#"
import sys
import pyarrow as pa
import pyarrow.ipc as ipc
values = pa.array(["a", "x" * 1_000_000])
def batch(n):
    keys = pa.array(range(n), pa.int32())
    return pa.record_batch([pa.DictionaryArray.from_arrays(keys, values[:n])], names=["d"])
sink = pa.BufferOutputStream()
options = ipc.IpcWriteOptions(emit_dictionary_deltas=True, compression="zstd")
with ipc.new_stream(sink, batch(1).schema, options=options) as w:
    w.write_batch(batch(1))
    w.write_batch(batch(2))
sys.stdout.buffer.write(sink.getvalue().to_pybytes())
"#;
    if !super::write_pyarrow::pyarrow_available() {
        return None;
    }
    let args = ["-c".as_ref(), SCRIPT.as_ref()];
    Some(super::write_pyarrow::python(
        "the delta-writing script",
        &args,
    ))
}

#[test]
fn pyarrow_repeated_compressed_deltas_exceed_the_budget() {
    let Some(source) = pyarrow_attack_source() else {
        return;
    };
    let stream = attack_stream(200, &source);
    assert!(stream.len() < 100 << 10, "{} bytes", stream.len());
    assert_over_budget(&stream);
}

/// The 24 bytes of a footer `Block` struct.
fn block_bytes(b: &BlockInfo) -> Vec<u8> {
    let mut out = b.offset.to_le_bytes().to_vec();
    out.extend_from_slice(&b.metadata_length.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&b.body_length.to_le_bytes());
    out
}

/// `file` with the footer entry of block `from` overwritten by that of block `to`.
fn copy_block(file: &[u8], from: &BlockInfo, to: &BlockInfo) -> Vec<u8> {
    let (old, new) = (block_bytes(from), block_bytes(to));
    let at = file.windows(24).rposition(|w| w == old).unwrap();
    let mut out = file.to_vec();
    out[at..at + 24].copy_from_slice(&new);
    out
}

fn open_error(file: Vec<u8>) -> String {
    let err = FileReader::from_bytes(Bytes::from(file)).unwrap_err();
    assert!(matches!(err, Error::OutOfSpec { .. }), "{err}");
    err.to_string()
}

#[test]
fn footers_may_not_repeat_or_overlap_blocks() {
    let all = words(4 * STEP);
    let batches: Vec<_> = (1..=4).map(|i| batch(&all, i * STEP)).collect();
    let file = write_file(&batches);
    let footer = inspect_file(&file).unwrap();
    let (d, b) = (&footer.dictionaries, &footer.record_batches);
    assert_eq!((d.len(), b.len()), (4, 4));
    assert!(FileReader::from_bytes(Bytes::from(file.clone())).is_ok());
    // One delta listed three times.
    let repeated = copy_block(&copy_block(&file, &d[3], &d[1]), &d[2], &d[1]);
    let (s, e) = (
        d[1].offset,
        d[1].offset + d[1].metadata_length as i64 + d[1].body_length,
    );
    assert_eq!(
        open_error(repeated),
        format!(
            "footer dictionary block 1 (bytes [{s}..{e})) and dictionary block 2 (bytes \
             [{s}..{e})) overlap; blocks may not repeat or overlap"
        )
    );
    // A record batch block pointing at a dictionary message.
    let err = open_error(copy_block(&file, &b[2], &d[0]));
    assert!(
        err.contains("dictionary block 0") && err.contains("record batch block 2"),
        "{err}"
    );
    // A record batch block starting inside the previous block.
    let mut inside = BlockInfo { ..b[1].clone() };
    inside.offset += 8;
    let err = open_error(copy_block(&file, &b[1], &inside));
    assert!(
        err.contains("record batch block 1") && err.contains("overlap"),
        "{err}"
    );
}
