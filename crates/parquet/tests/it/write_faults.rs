//! No partial output: a sink failing after N bytes (in the magic number, the pages, the page
//! indexes, the footer) makes the writer fail with an error, never a panic; through
//! `FileWriter::create` + `finish` a failure (of the sink, of a batch the writer refuses, of
//! the file-size limit `ulimit -f` in a child process) leaves nothing in the directory: no file
//! under the final name, no temporary.

use quiver_arrow::RecordBatch;
use quiver_arrow::array::{Array, PrimitiveArray, StringArray, StructArray};
use quiver_arrow::datatype::{DataType, Field, Fields, Schema, SchemaRef, TimeUnit};
use quiver_parquet::codec::Codec;
use quiver_parquet::file::writer::{FileWriter, WriteOptions};
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// A sink that takes `left` bytes, then fails every write.
struct FailAfter {
    left: usize,
    taken: Vec<u8>,
}

impl Write for FailAfter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            return Err(std::io::Error::other("injected failure"));
        }
        let n = buf.len().min(self.left);
        self.left -= n;
        self.taken.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("i", DataType::Int64, true),
        Field::new("s", DataType::Utf8, true),
        Field::new("ts", DataType::Timestamp(TimeUnit::Second, None), true),
    ]))
}

/// `rows` rows from `start`; `bad`: one timestamp too large for milliseconds.
fn batch(start: i64, rows: i64, bad: bool) -> RecordBatch {
    let i = PrimitiveArray::from_options((start..start + rows).map(|v| (v % 7 != 3).then_some(v)));
    let text: Vec<String> = (start..start + rows).map(|v| format!("row {v}")).collect();
    let s = StringArray::from_options(text.iter().map(|t| Some(t.as_str())));
    let ts = (start..start + rows).map(|v| {
        Some(if bad && v == start + rows / 2 {
            i64::MAX / 10
        } else {
            v
        })
    });
    let ts = PrimitiveArray::from_options(ts)
        .with_data_type(DataType::Timestamp(TimeUnit::Second, None))
        .unwrap();
    RecordBatch::try_new(
        schema(),
        vec![Array::I64(i), Array::Utf8(s), Array::I64(ts)],
    )
    .unwrap()
}

fn options() -> WriteOptions {
    let mut o = WriteOptions {
        row_group_rows: 1000,
        ..WriteOptions::default()
    };
    o.column.page_rows = 100;
    o
}

/// Writes 3 batches to `sink`; the first error.
fn write_all<W: Write>(sink: W) -> quiver_arrow::Result<W> {
    let mut w = FileWriter::new(sink, schema(), options())?;
    for k in 0..3 {
        w.write(&batch(k * 1500, 1500, false))?;
    }
    Ok(w.close()?.0)
}

#[test]
fn a_sink_failing_after_any_number_of_bytes_gives_an_error() {
    let whole = write_all(Vec::new()).unwrap();
    let footer = u32::from_le_bytes(whole[whole.len() - 8..whole.len() - 4].try_into().unwrap());
    let footer_start = whole.len() - 8 - footer as usize;
    let mut cuts = vec![0, 1, 4, 5, 100, whole.len() / 3, whole.len() / 2];
    // The page indexes (before the footer), the footer, its length and the closing magic.
    cuts.extend([
        footer_start - 200,
        footer_start - 1,
        footer_start,
        footer_start + 10,
    ]);
    cuts.extend([whole.len() - 8, whole.len() - 5, whole.len() - 1]);
    for n in cuts {
        let sink = FailAfter {
            left: n,
            taken: Vec::new(),
        };
        let e = match write_all(sink) {
            Ok(s) => panic!("{n} bytes: no error ({} bytes taken)", s.taken.len()),
            Err(e) => e.to_string(),
        };
        assert!(e.contains("injected failure"), "{n} bytes: {e}");
    }
    // Given room for all of it, the same sink takes the whole file.
    let sink = FailAfter {
        left: whole.len(),
        taken: Vec::new(),
    };
    assert_eq!(write_all(sink).unwrap().taken, whole);
}

/// The names in `dir`.
fn listing(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn a_refused_batch_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.parquet");
    // A timestamp[s] too large for milliseconds, in the second batch.
    let mut w = FileWriter::create(&path, schema(), options()).unwrap();
    w.write(&batch(0, 1500, false)).unwrap();
    let e = w.write(&batch(1500, 1500, true)).unwrap_err().to_string();
    assert!(e.contains("ts"), "{e}");
    // Writing on, or finishing, is refused; nothing is left.
    assert!(w.write(&batch(3000, 10, false)).is_err());
    assert!(w.finish().is_err());
    assert_eq!(listing(dir.path()), Vec::<String>::new());

    // A nullable struct whose non-nullable child holds a null under a valid parent.
    let child = Field::new("x", DataType::Int32, false);
    let fields = Fields::from(vec![Arc::new(child)]);
    let x = Array::I32(PrimitiveArray::from_options([Some(1), None, Some(3)]));
    let st = StructArray::try_new(fields.clone(), 3, vec![x], None).unwrap();
    let schema = Arc::new(Schema::new(vec![Field::new(
        "st",
        DataType::Struct(fields),
        true,
    )]));
    let b = RecordBatch::try_new(schema.clone(), vec![Array::Struct(st)]).unwrap();
    let mut w = FileWriter::create(&path, schema, options()).unwrap();
    let e = w.write(&b).unwrap_err().to_string();
    assert!(e.contains("st"), "{e}");
    assert!(w.finish().is_err());
    assert_eq!(listing(dir.path()), Vec::<String>::new());
}

#[test]
fn dropping_an_unfinished_writer_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.parquet");
    let mut w = FileWriter::create(&path, schema(), options()).unwrap();
    w.write(&batch(0, 5000, false)).unwrap();
    assert_eq!(listing(dir.path()).len(), 1, "the temporary");
    drop(w);
    assert_eq!(listing(dir.path()), Vec::<String>::new());
}

/// The environment variable naming the file the child writes.
const CHILD: &str = "QUIVER_WRITE_FAULTS_CHILD";

/// In the child (run under `ulimit -f`): writes a file larger than the limit; exits 3 when the
/// writer reports the error, 4 when it does not.
#[test]
fn child_writes_past_the_file_size_limit() {
    let Ok(path) = std::env::var(CHILD) else {
        return;
    };
    let mut o = options();
    o.column.codec = Codec::Uncompressed;
    o.column.dictionary = false;
    let r = (|| {
        let mut w = FileWriter::create(Path::new(&path), schema(), o)?;
        for k in 0..40 {
            w.write(&batch(k * 10_000, 10_000, false))?;
        }
        w.finish()
    })();
    match r {
        Err(e) => {
            eprintln!("child: {e}");
            std::process::exit(3)
        }
        Ok(_) => std::process::exit(4),
    }
}

#[test]
fn the_file_size_limit_gives_an_error_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.parquet");
    let exe = std::env::current_exe().unwrap();
    // SIGXFSZ ignored (an ignored signal stays ignored across exec): writes fail with EFBIG.
    // 4096 blocks of 512 bytes (2 MiB) and a file of about 12 MB.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 4096; exec \"$0\" \"$@\"")
        .arg(exe)
        .args([
            "write_faults::child_writes_past_the_file_size_limit",
            "--exact",
        ])
        .args(["--nocapture", "--test-threads=1"])
        .env(CHILD, &path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("child: "), "{stderr}");
    assert_eq!(listing(dir.path()), Vec::<String>::new());
}
