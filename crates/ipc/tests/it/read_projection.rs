//! `ReadOptions::with_projection`: every gold file and stream, read with a projection, gives
//! the full read's batches projected; skipped columns are not decoded or validated.

use super::read_common::ipc_stream_dir;
use bytes::Bytes;
use quiver_arrow::RecordBatch;
use quiver_ipc::read::{FileReader, ReadOptions, StreamReader};

/// Projections to try for a schema of `n` fields: the last field then the first, and every
/// single field.
fn projections(n: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    if n >= 2 {
        out.push(vec![n - 1, 0]);
    }
    out
}

fn file_batches(bytes: &Bytes, options: ReadOptions) -> Vec<RecordBatch> {
    let mut r = FileReader::from_bytes_with_options(bytes.clone(), options).unwrap();
    (0..r.num_batches()).map(|i| r.batch(i).unwrap()).collect()
}

fn stream_batches(bytes: &[u8], options: ReadOptions) -> Vec<RecordBatch> {
    let r = StreamReader::try_new_with_options(bytes, options).unwrap();
    r.collect::<quiver_arrow::Result<Vec<_>>>().unwrap()
}

fn assert_projected(full: &[RecordBatch], projected: &[RecordBatch], p: &[usize], what: &str) {
    assert_eq!(full.len(), projected.len(), "{what}");
    for (f, q) in full.iter().zip(projected) {
        let expected = f.project(p).unwrap();
        assert_eq!(expected.schema(), q.schema(), "{what} {p:?}");
        assert_eq!(expected.num_rows(), q.num_rows(), "{what} {p:?}");
        for (a, b) in expected.columns().iter().zip(q.columns()) {
            if let Some(d) = quiver_arrow::compute::first_difference(a, b) {
                panic!("{what} {p:?}: {d}");
            }
        }
    }
}

#[test]
fn projected_reads_equal_projected_batches_for_every_gold_file() {
    let Some(dir) = ipc_stream_dir() else { return };
    let mut checked = 0;
    for version in std::fs::read_dir(dir.join("integration")).unwrap() {
        let version = version.unwrap().path();
        if !version.is_dir() || version.ends_with("1.0.0-bigendian") {
            continue;
        }
        for entry in std::fs::read_dir(&version).unwrap() {
            let path = entry.unwrap().path();
            let name = path.to_string_lossy().into_owned();
            let bytes = Bytes::from(std::fs::read(&path).unwrap());
            let (full, n, is_file) = if name.ends_with(".arrow_file") {
                let full = file_batches(&bytes, ReadOptions::new());
                let n = FileReader::from_bytes(bytes.clone())
                    .unwrap()
                    .schema()
                    .fields
                    .len();
                (full, n, true)
            } else if name.ends_with(".stream") {
                let full = stream_batches(&bytes, ReadOptions::new());
                let n = StreamReader::try_new(&bytes[..])
                    .unwrap()
                    .schema()
                    .fields
                    .len();
                (full, n, false)
            } else {
                continue;
            };
            for p in projections(n) {
                let options = ReadOptions::new().with_projection(p.clone());
                let got = if is_file {
                    file_batches(&bytes, options)
                } else {
                    stream_batches(&bytes, options)
                };
                assert_projected(&full, &got, &p, &name);
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} projections checked");
}

#[test]
fn skipped_columns_are_not_validated_and_bad_indices_are_errors() {
    // Column 1 holds invalid UTF-8 (our writer keeps what the array holds); reading only
    // column 0 skips it, reading it reports it.
    use quiver_arrow::buffer::OffsetBuffer;
    use quiver_arrow::{Array, DataType, Field, PrimitiveArray, Schema, StringArray};
    let schema = std::sync::Arc::new(Schema::new(vec![
        Field::new("n", DataType::Int32, false),
        Field::new("s", DataType::Utf8, true),
    ]));
    // SAFETY: the array is only written to bytes, never read as strings here.
    let bad = unsafe {
        StringArray::new_unchecked_utf8(
            OffsetBuffer::try_new(vec![0i32, 2].into()).unwrap(),
            vec![0xFFu8, 0xFE].into(),
            None,
        )
    }
    .unwrap();
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            Array::from(PrimitiveArray::<i32>::new(vec![7])),
            Array::from(bad),
        ],
    )
    .unwrap();
    let mut w =
        quiver_ipc::write::FileWriter::try_new(Vec::new(), &schema, Default::default()).unwrap();
    w.write(&batch).unwrap();
    let bytes = Bytes::from(w.finish().unwrap());
    let only_n = file_batches(&bytes, ReadOptions::new().with_projection(vec![0]));
    assert_eq!(only_n[0].num_columns(), 1);
    let mut r = FileReader::from_bytes(bytes.clone()).unwrap();
    assert!(r.batch(0).unwrap_err().to_string().contains("UTF-8"));
    let mut r =
        FileReader::from_bytes_with_options(bytes, ReadOptions::new().with_projection(vec![2]))
            .unwrap();
    let e = r.batch(0).unwrap_err().to_string();
    assert!(e.contains("projection index 2 is out of range"), "{e}");
}

#[test]
fn projections_of_compressed_batches_with_views() {
    use quiver_arrow::{Array, DataType, Field, PrimitiveArray, Schema, StringViewArray};
    use quiver_ipc::Codec;
    use quiver_ipc::write::{FileWriter, WriteOptions};
    let long: Vec<String> = (0..3000)
        .map(|i| format!("a value longer than twelve {i}"))
        .collect();
    let views = |k: usize| {
        Array::from(StringViewArray::from_options(long.iter().map(|s| {
            if s.len() % (k + 2) == 0 {
                None
            } else {
                Some(s.as_str())
            }
        })))
    };
    let schema = std::sync::Arc::new(Schema::new(vec![
        Field::new("v0", DataType::Utf8View, true),
        Field::new("n", DataType::Int32, false),
        Field::new("v2", DataType::Utf8View, true),
    ]));
    let n = Array::from(PrimitiveArray::<i32>::new((0..3000).collect::<Vec<i32>>()));
    let batch = RecordBatch::try_new(schema.clone(), vec![views(0), n, views(1)]).unwrap();
    for codec in [Codec::Zstd, Codec::Lz4Frame] {
        let options = WriteOptions::new().with_compression(Some(codec));
        let mut w = FileWriter::try_new(Vec::new(), &schema, options).unwrap();
        w.write(&batch).unwrap();
        let bytes = Bytes::from(w.finish().unwrap());
        let full = file_batches(&bytes, ReadOptions::new());
        for p in [vec![0], vec![1], vec![2], vec![2, 0], vec![1, 1]] {
            let got = file_batches(&bytes, ReadOptions::new().with_projection(p.clone()));
            assert_projected(&full, &got, &p, &format!("{codec}"));
        }
    }
}
