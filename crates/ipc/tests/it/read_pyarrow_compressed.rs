//! Compressed files and streams written by pyarrow (Arrow C++'s LZ4 frame and ZSTD
//! libraries), large enough that buffers span many 64 KiB LZ4 blocks, read back and compared
//! with pyarrow's uncompressed copy of the same table.

use super::write_pyarrow::{cleanup, pyarrow_available, python, scratch};
use bytes::Bytes;
use quiver_arrow::RecordBatch;
use quiver_ipc::read::{FileReader, StreamReader};
use std::path::Path;

const WRITE: &str = r#"
import sys, pyarrow as pa, pyarrow.ipc as ipc
d = sys.argv[1]
n = 300_000
words = ["alpha", "beta", "gamma", "delta", "epsilon"]
t = pa.table({
    "i": pa.array(range(n), pa.int64()),
    "f": pa.array([i * 0.25 if i % 17 else None for i in range(n)], pa.float64()),
    "s": pa.array([f"{words[i % 5]}-{i * 7919 % 100003}" for i in range(n)]),
    "l": pa.array([[i, i + 1][: i % 3] for i in range(n)], pa.list_(pa.int32())),
    "d": pa.array([words[i % 5] for i in range(n)]).dictionary_encode(),
})
for name, codec in [("plain", None), ("lz4", "lz4"), ("zstd", "zstd")]:
    opts = ipc.IpcWriteOptions(compression=codec)
    with ipc.new_file(f"{d}/{name}.arrow", t.schema, options=opts) as w:
        w.write_table(t, max_chunksize=100_000)
    with ipc.new_stream(f"{d}/{name}.arrows", t.schema, options=opts) as w:
        w.write_table(t, max_chunksize=100_000)
"#;

fn file_batches(path: &Path) -> Vec<RecordBatch> {
    let bytes = Bytes::from(std::fs::read(path).unwrap());
    let mut r = FileReader::from_bytes(bytes).unwrap();
    (0..r.num_batches())
        .map(|i| {
            r.batch(i)
                .unwrap_or_else(|e| panic!("{}: batch {i}: {e}", path.display()))
        })
        .collect()
}

fn stream_batches(path: &Path) -> Vec<RecordBatch> {
    let mut r = StreamReader::try_new(std::fs::File::open(path).unwrap()).unwrap();
    let mut out = Vec::new();
    while let Some(b) = r.next_batch().unwrap() {
        out.push(b);
    }
    out
}

/// Same schema, same batch lengths and equal columns.
fn assert_same(actual: &[RecordBatch], expected: &[RecordBatch], what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}: batches");
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert_eq!(a.schema(), e.schema(), "{what}: schema");
        assert_eq!(a.num_rows(), e.num_rows(), "{what}: batch {i} rows");
        for c in 0..e.num_columns() {
            assert!(a.column(c) == e.column(c), "{what}: batch {i} column {c}");
        }
    }
}

#[test]
fn pyarrow_compressed_files_and_streams_read_as_written() {
    if !pyarrow_available() {
        return;
    }
    let dir = scratch("pyarrow-compressed");
    python(
        "the pyarrow writing script",
        &["-c".as_ref(), WRITE.as_ref(), dir.as_os_str()],
    );
    // pyarrow's LZ4 frames use linked blocks (FLG 0x40), the case where a block may refer to
    // the one before it.
    let lz4 = std::fs::read(dir.join("lz4.arrow")).unwrap();
    assert!(
        lz4.windows(5).any(|w| w == [0x04, 0x22, 0x4d, 0x18, 0x40]),
        "no linked-block LZ4 frame in pyarrow's file"
    );
    let plain = file_batches(&dir.join("plain.arrow"));
    assert_eq!(plain.len(), 3);
    assert_same(
        &stream_batches(&dir.join("plain.arrows")),
        &plain,
        "plain stream",
    );
    for codec in ["lz4", "zstd"] {
        let file = file_batches(&dir.join(format!("{codec}.arrow")));
        assert_same(&file, &plain, &format!("{codec} file"));
        let stream = stream_batches(&dir.join(format!("{codec}.arrows")));
        assert_same(&stream, &plain, &format!("{codec} stream"));
        // Decompressed buffers are 64-byte aligned.
        for b in &file {
            let quiver_arrow::Array::Utf8(s) = b.column(2) else {
                panic!("column s is not utf8")
            };
            assert_eq!(s.values().as_ptr() as usize % 64, 0, "{codec}");
            assert_eq!(s.offsets().as_slice().as_ptr() as usize % 64, 0, "{codec}");
        }
    }
    cleanup(&dir);
}
