//! The pull reader (`StreamReader`) and the push decoder (`StreamDecoder`) share one stream
//! state: on the same bytes they give the same batches with the same message-level custom
//! metadata, and the same errors naming the same message, however the bytes are chunked.

use super::read_common::{EOS, kv};
use super::write_data::dictionary_batches;
use bytes::Bytes;
use quiver_arrow::compute::first_difference;
use quiver_arrow::{Metadata, RecordBatch, Result};
use quiver_ipc::Codec;
use quiver_ipc::message::{MessageKind, read_message};
use quiver_ipc::read::{FileReader, StreamDecoder, StreamReader};
use quiver_ipc::write::{FileWriter, StreamWriter, WriteOptions};

/// Dictionary batches (deltas, replacements, nested dictionaries), each with its own message
/// metadata: several keys, none, one.
fn batches() -> Vec<(RecordBatch, Metadata)> {
    let (_, batches) = dictionary_batches(true);
    let metadata = [
        kv(&[("batch", "0"), ("note", "first, with two keys")]),
        Metadata::new(),
        kv(&[("batch", "2"), ("unicode", "é ✓")]),
    ];
    assert_eq!(batches.len(), metadata.len());
    batches
        .into_iter()
        .zip(metadata)
        .map(|((b, _), m)| (b, m))
        .collect()
}

fn write_stream(batches: &[(RecordBatch, Metadata)], options: WriteOptions) -> Vec<u8> {
    let schema = batches[0].0.schema().clone();
    let mut w = StreamWriter::try_new(Vec::new(), schema, options).unwrap();
    for (b, m) in batches {
        w.write_with_metadata(b, m).unwrap();
    }
    w.finish().unwrap()
}

/// Every batch and its metadata through `StreamReader`.
fn pulled(bytes: &[u8]) -> Result<Vec<(RecordBatch, Metadata)>> {
    let mut reader = StreamReader::try_new(bytes)?;
    let mut out = Vec::new();
    while let Some(batch) = reader.next_batch()? {
        out.push((batch, reader.batch_metadata().clone()));
    }
    Ok(out)
}

/// Every batch and its metadata through `StreamDecoder::feed_with_metadata`, fed in chunks of
/// `chunk` bytes; the first error returned.
fn pushed(bytes: &[u8], chunk: usize) -> Result<Vec<(RecordBatch, Metadata)>> {
    let mut decoder = StreamDecoder::new();
    let mut out = Vec::new();
    for c in bytes.chunks(chunk) {
        out.extend(decoder.feed_with_metadata(Bytes::copy_from_slice(c))?);
    }
    decoder.finish()?;
    Ok(out)
}

fn assert_same(what: &str, expected: &[(RecordBatch, Metadata)], got: &[(RecordBatch, Metadata)]) {
    assert_eq!(expected.len(), got.len(), "{what}: number of batches");
    for (i, ((eb, em), (gb, gm))) in expected.iter().zip(got).enumerate() {
        assert_eq!(em, gm, "{what}: metadata of batch {i}");
        assert_eq!(eb.num_rows(), gb.num_rows(), "{what}: rows of batch {i}");
        for (j, (a, b)) in eb.columns().iter().zip(gb.columns()).enumerate() {
            if let Some(d) = first_difference(a, b) {
                panic!("{what}: batch {i}, column {j}: {d}");
            }
        }
    }
}

#[test]
fn push_decoder_gives_each_batch_its_message_metadata() {
    let written = batches();
    let options = [
        WriteOptions::default(),
        WriteOptions::default()
            .with_alignment(64)
            .with_compression(Some(Codec::Lz4Frame)),
    ];
    for options in options {
        let bytes = write_stream(&written, options.clone());
        let from_reader = pulled(&bytes).unwrap();
        assert_same("StreamReader", &written, &from_reader);
        for chunk in [1, 7, 64, bytes.len()] {
            let from_decoder = pushed(&bytes, chunk).unwrap();
            assert_same(&format!("chunks of {chunk}"), &from_reader, &from_decoder);
        }
        // `feed` gives the same batches, without their metadata.
        let plain = StreamDecoder::new().feed(Bytes::from(bytes)).unwrap();
        let plain: Vec<_> = plain.into_iter().map(|b| (b, Metadata::new())).collect();
        let unlabelled: Vec<_> = written
            .iter()
            .map(|(b, _)| (b.clone(), Metadata::new()))
            .collect();
        assert_same("feed", &unlabelled, &plain);
    }
    // The file writer records the same message metadata, read back by index (the first two
    // batches: a file cannot replace a dictionary as the third does).
    let written = &written[..2];
    let schema = written[0].0.schema().clone();
    let mut w = FileWriter::try_new(Vec::new(), schema, WriteOptions::default()).unwrap();
    for (b, m) in written {
        w.write_with_metadata(b, m).unwrap();
    }
    let mut file = FileReader::from_bytes(Bytes::from(w.finish().unwrap())).unwrap();
    let read: Vec<_> = (0..file.num_batches())
        .map(|i| file.batch_with_metadata(i).unwrap())
        .collect();
    assert_same("FileReader", written, &read);
}

/// The messages of a stream, each as its bytes and kind (the end-of-stream marker left out).
fn frames(stream: &[u8]) -> Vec<(Vec<u8>, MessageKind)> {
    let mut rest = stream;
    let mut out = Vec::new();
    loop {
        let start = stream.len() - rest.len();
        let Some(message) = read_message(&mut rest).unwrap() else {
            return out;
        };
        out.push((
            stream[start..stream.len() - rest.len()].to_vec(),
            message.kind(),
        ));
    }
}

/// The messages of the test stream: schema, the three dictionaries of batch 0 (`d`, and the
/// nested column's outer and inner), batch 0, then deltas and batches.
fn test_frames() -> Vec<Vec<u8>> {
    let f = frames(&write_stream(&batches(), WriteOptions::default()));
    use MessageKind::{DictionaryBatch as D, RecordBatch as B, Schema as S};
    let kinds: Vec<_> = f.iter().take(5).map(|(_, k)| *k).collect();
    assert_eq!(kinds, [S, D, D, D, B]);
    f.into_iter().map(|(bytes, _)| bytes).collect()
}

fn join(frames: &[&Vec<u8>]) -> Vec<u8> {
    let mut out: Vec<u8> = frames.iter().flat_map(|f| f.iter().copied()).collect();
    out.extend(EOS);
    out
}

#[test]
fn both_readers_name_the_failing_message_alike() {
    let f = test_frames();
    let mut negative_length = f[2].clone();
    negative_length[4..8].copy_from_slice(&(-16i32).to_le_bytes());
    let mut garbage_metadata = f[3].clone();
    garbage_metadata[8..24].fill(0xEE);
    let schema_twice = join(&[&f[0], &f[1], &f[0]]);
    let cases: [(&str, Vec<u8>, &str); 5] = [
        (
            "a dictionary first",
            join(&f[1..].iter().collect::<Vec<_>>()),
            "message 0 (schema): expected a schema message, found DictionaryBatch",
        ),
        (
            "a second schema",
            schema_twice,
            "message 2: a second schema message",
        ),
        (
            "a negative metadata length",
            join(&[&f[0], &f[1], &negative_length]),
            "message 2: message metadata length is negative (-16)",
        ),
        (
            "garbage metadata",
            join(&[&f[0], &f[1], &f[2], &garbage_metadata]),
            "message 3: invalid message metadata flatbuffer",
        ),
        (
            "a batch without its dictionaries",
            join(&[&f[0], &f[4]]),
            "message 1, record batch 0, ",
        ),
    ];
    for (what, bytes, expected) in cases {
        let from_reader = pulled(&bytes).map(|_| ()).unwrap_err().to_string();
        assert!(from_reader.starts_with(expected), "{what}: {from_reader}");
        for chunk in [1, 5, bytes.len()] {
            let from_decoder = pushed(&bytes, chunk).map(|_| ()).unwrap_err().to_string();
            assert_eq!(from_decoder, from_reader, "{what}, chunks of {chunk}");
        }
    }
}

#[test]
fn after_an_error_the_reader_ends_and_the_decoder_refuses() {
    let f = test_frames();
    let bytes = join(&[&f[0], &f[4], &f[0]]);
    let mut reader = StreamReader::try_new(&bytes[..]).unwrap();
    assert!(reader.next_batch().is_err());
    assert!(reader.next_batch().unwrap().is_none());

    let mut decoder = StreamDecoder::new();
    assert!(decoder.feed_with_metadata(Bytes::from(bytes)).is_err());
    let again = decoder.feed_with_metadata(Bytes::new()).unwrap_err();
    assert_eq!(again.to_string(), "the decoder failed earlier");
    assert_eq!(
        decoder.finish().unwrap_err().to_string(),
        "the decoder failed earlier"
    );
}
