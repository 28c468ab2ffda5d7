//! Readers and writers give the same results whatever thread pool they split their work on.

use super::read_common::batches_differ;
use super::write_data::dict;
use bytes::Bytes;
use quiver_arrow::parallel::ThreadPool;
use quiver_arrow::{
    Array, DataType, Field, PrimitiveArray, RecordBatch, Schema, SchemaRef, StringArray,
};
use quiver_ipc::Codec;
use quiver_ipc::read::{FileReader, ReadOptions, StreamReader};
use quiver_ipc::write::{FileWriter, StreamWriter, WriteOptions};
use std::sync::Arc;

/// Two batches of several MiB: integers, text and a dictionary column whose dictionary (sent
/// in its own message, compressed together with the batch) grows between them.
fn big_batches() -> (SchemaRef, Vec<RecordBatch>) {
    let n = 200_000;
    let ints = Array::from(PrimitiveArray::<i64>::from_options(
        (0..n as i64).map(|i| (i % 13 != 0).then_some(i * 31 % 1000)),
    ));
    let text: Vec<String> = (0..n)
        .map(|i| format!("row {i}, text {}", i % 97))
        .collect();
    let text = Array::from(StringArray::from_options(
        text.iter().map(|s| Some(s.as_str())),
    ));
    let words: Vec<String> = (0..40_000).map(|i| format!("word number {i}")).collect();
    let dictionary = |values: usize| {
        let keys =
            PrimitiveArray::<i32>::new((0..n).map(|i| (i * 7 % values) as i32).collect::<Vec<_>>());
        let values = StringArray::from_options(words[..values].iter().map(|w| Some(w.as_str())));
        dict(Array::from(keys), Array::from(values), false)
    };
    let fields = vec![
        Field::new("i", DataType::Int64, true),
        Field::new("s", DataType::Utf8, false),
        Field::new("d", dictionary(1).data_type().clone(), false),
    ];
    let schema = Arc::new(Schema::new(fields));
    let batches = [20_000, 40_000].map(|values| {
        let columns = vec![ints.clone(), text.clone(), dictionary(values)];
        RecordBatch::try_new(schema.clone(), columns).unwrap()
    });
    (schema, batches.to_vec())
}

/// No pool, the global pool, and dedicated pools of 1, 2 and 3 threads.
fn pools() -> Vec<ThreadPool> {
    let dedicated = (1..=3).map(|t| ThreadPool::new(t).unwrap());
    [ThreadPool::sequential(), ThreadPool::global()]
        .into_iter()
        .chain(dedicated)
        .collect()
}

fn write(file: bool, schema: &SchemaRef, batches: &[RecordBatch], o: WriteOptions) -> Vec<u8> {
    if file {
        let mut w = FileWriter::try_new(Vec::new(), schema, o).unwrap();
        batches.iter().for_each(|b| w.write(b).unwrap());
        w.finish().unwrap()
    } else {
        let mut w = StreamWriter::try_new(Vec::new(), schema, o).unwrap();
        batches.iter().for_each(|b| w.write(b).unwrap());
        w.finish().unwrap()
    }
}

fn read(file: bool, bytes: &[u8], o: ReadOptions) -> (SchemaRef, Vec<RecordBatch>) {
    if file {
        let mut r = FileReader::from_bytes_with_options(Bytes::copy_from_slice(bytes), o).unwrap();
        let batches = (0..r.num_batches()).map(|i| r.batch(i).unwrap()).collect();
        (r.schema().clone(), batches)
    } else {
        let r = StreamReader::try_new_with_options(bytes, o).unwrap();
        let schema = r.schema().clone();
        (schema, r.collect::<Result<_, _>>().unwrap())
    }
}

#[test]
fn writers_give_the_same_bytes_on_any_pool() {
    let (schema, batches) = big_batches();
    for codec in [Codec::Lz4Frame, Codec::Zstd] {
        for file in [true, false] {
            let what = format!("{codec}, {}", if file { "file" } else { "stream" });
            let options = WriteOptions::default().with_compression(Some(codec));
            let outputs: Vec<Vec<u8>> = (pools().into_iter())
                .map(|p| write(file, &schema, &batches, options.clone().with_thread_pool(p)))
                .collect();
            // Several MiB of input: the pools had work to split.
            assert!(outputs[0].len() > 1 << 20, "{what}: {}", outputs[0].len());
            for (k, o) in outputs.iter().enumerate() {
                assert!(o == &outputs[0], "{what}: pool {k} wrote other bytes");
            }
            let back = read(file, &outputs[0], ReadOptions::new());
            let written = (schema.clone(), batches.clone());
            assert_eq!(batches_differ(&written, &back), None, "{what}");
        }
    }
}

#[test]
fn readers_give_the_same_batches_on_any_pool() {
    let (schema, batches) = big_batches();
    let written = (schema.clone(), batches.clone());
    for codec in [Codec::Lz4Frame, Codec::Zstd] {
        for file in [true, false] {
            let options = WriteOptions::default().with_compression(Some(codec));
            let bytes = write(file, &schema, &batches, options);
            for pool in [ThreadPool::sequential(), ThreadPool::new(3).unwrap()] {
                let what = format!("{codec}, file {file}, {pool:?}");
                let back = read(file, &bytes, ReadOptions::new().with_thread_pool(pool));
                assert_eq!(batches_differ(&written, &back), None, "{what}");
            }
        }
    }
}
