//! A memory-mapped file is read zero-copy: every buffer of every array decoded from an
//! uncompressed little-endian file points into the mapped region.

use super::read_common::ipc_stream_dir;
use bytes::Bytes;
use quiver_arrow::{Array, Bitmap, Buffer, NativeType};
use quiver_ipc::read::FileReader;
use std::ops::Range;

/// Gold files whose arrays cover every layout the 1.0.0 files have.
const FILES: &[&str] = &[
    "generated_primitive",
    "generated_primitive_large_offsets",
    "generated_nested",
    "generated_nested_large_offsets",
    "generated_recursive_nested",
    "generated_dictionary",
    "generated_nested_dictionary",
    "generated_map",
    "generated_union",
    "generated_datetime",
    "generated_decimal",
    "generated_decimal256",
    "generated_interval",
    "generated_null",
];

/// Collects "where: address range" of every non-empty buffer outside `mapped`.
struct Walker {
    mapped: Range<usize>,
    outside: Vec<String>,
    buffers: usize,
}

impl Walker {
    fn bytes(&mut self, what: &str, b: &[u8]) {
        if b.is_empty() {
            return;
        }
        self.buffers += 1;
        let start = b.as_ptr() as usize;
        if start < self.mapped.start || start + b.len() > self.mapped.end {
            self.outside
                .push(format!("{what}: {} bytes at {start:#x}", b.len()));
        }
    }
    fn buffer<T: NativeType>(&mut self, what: &str, b: &Buffer<T>) {
        self.bytes(what, b.bytes());
    }
    fn validity(&mut self, what: &str, v: Option<&Bitmap>) {
        if let Some(v) = v {
            self.bytes(&format!("{what} validity"), v.bytes());
        }
    }

    fn array(&mut self, what: &str, a: &Array) {
        self.validity(what, a.validity());
        let child = |i: usize| format!("{what}.{i}");
        let primitive = quiver_arrow::match_primitive!(a, p => {
            self.buffer(what, p.values());
            true
        }, _ => false);
        if primitive {
            return;
        }
        match a {
            Array::Null(_) => {}
            Array::Boolean(b) => self.bytes(what, b.values().bytes()),
            Array::Binary(b) => self.var(what, b.offsets().buffer(), b.values(), b.len()),
            Array::LargeBinary(b) => self.var(what, b.offsets().buffer(), b.values(), b.len()),
            Array::Utf8(b) => self.var(what, b.offsets().buffer(), b.values(), b.len()),
            Array::LargeUtf8(b) => self.var(what, b.offsets().buffer(), b.values(), b.len()),
            Array::FixedSizeBinary(b) => self.buffer(what, b.values()),
            Array::BinaryView(v) => {
                self.buffer(what, v.views());
                v.data_buffers().iter().for_each(|d| self.buffer(what, d));
            }
            Array::Utf8View(v) => {
                self.buffer(what, v.views());
                v.data_buffers().iter().for_each(|d| self.buffer(what, d));
            }
            Array::List(l) => {
                self.offsets(what, l.offsets().buffer(), l.len());
                self.array(&child(0), l.values());
            }
            Array::LargeList(l) => {
                self.offsets(what, l.offsets().buffer(), l.len());
                self.array(&child(0), l.values());
            }
            Array::ListView(l) => {
                self.buffer(what, l.offsets());
                self.buffer(what, l.sizes());
                self.array(&child(0), l.values());
            }
            Array::LargeListView(l) => {
                self.buffer(what, l.offsets());
                self.buffer(what, l.sizes());
                self.array(&child(0), l.values());
            }
            Array::FixedSizeList(l) => self.array(&child(0), l.values()),
            Array::Struct(s) => s
                .columns()
                .iter()
                .enumerate()
                .for_each(|(i, c)| self.array(&child(i), c)),
            Array::Map(m) => {
                self.offsets(what, m.offsets().buffer(), m.len());
                self.array(&child(0), &Array::Struct(m.entries().clone()));
            }
            Array::Union(u) => {
                self.buffer(what, u.type_ids());
                if let Some(o) = u.offsets() {
                    self.buffer(what, o);
                }
                u.children()
                    .iter()
                    .enumerate()
                    .for_each(|(i, c)| self.array(&child(i), c));
            }
            Array::Dictionary(d) => {
                self.array(&format!("{what} keys"), d.keys());
                self.array(&format!("{what} values"), d.values());
            }
            Array::RunEndEncoded(r) => {
                self.array(&child(0), r.run_ends());
                self.array(&child(1), r.values());
            }
            other => panic!("{what}: unexpected layout {:?}", other.data_type()),
        }
    }

    /// Offsets of an empty array may be a fresh `[0]` (files may store no offsets for them).
    fn offsets<O: NativeType>(&mut self, what: &str, o: &Buffer<O>, len: usize) {
        if len > 0 {
            self.buffer(&format!("{what} offsets"), o);
        }
    }

    fn var<O: NativeType>(&mut self, what: &str, o: &Buffer<O>, values: &Buffer<u8>, len: usize) {
        self.offsets(what, o, len);
        self.buffer(&format!("{what} values"), values);
    }
}

#[test]
fn memory_mapped_files_are_read_zero_copy() {
    let Some(dir) = ipc_stream_dir() else { return };
    let tmp = std::env::temp_dir().join(format!("quiver-ipc-zero-copy-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let mut problems = Vec::new();
    let mut total = 0;
    let copies = quiver_arrow::buffer::misaligned_copies();
    for name in FILES {
        let src = dir
            .join("integration/1.0.0-littleendian")
            .join(format!("{name}.arrow_file"));
        let path = tmp.join(format!("{name}.arrow"));
        std::fs::write(&path, std::fs::read(&src).expect("gold file")).expect("write");
        let file = std::fs::File::open(&path).expect("open");
        // SAFETY: the file is private to this test and not modified while mapped.
        let map = unsafe { memmap2::Mmap::map(&file) }.expect("mmap");
        let mapped = map.as_ptr() as usize..map.as_ptr() as usize + map.len();
        let mut reader = FileReader::from_bytes(Bytes::from_owner(map)).expect("file");
        let mut w = Walker {
            mapped,
            outside: Vec::new(),
            buffers: 0,
        };
        for i in 0..reader.num_batches() {
            let batch = reader.batch(i).expect("batch");
            for (c, col) in batch.columns().iter().enumerate() {
                w.array(&format!("{name} batch {i} column {c}"), col);
            }
        }
        total += w.buffers;
        problems.extend(w.outside);
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(total > 500, "only {total} buffers checked");
    assert_eq!(
        quiver_arrow::buffer::misaligned_copies(),
        copies,
        "buffers were copied for alignment"
    );
    assert!(
        problems.is_empty(),
        "{} buffers were copied:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
