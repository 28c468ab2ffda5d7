//! Selections (columns, row groups, row ranges, offset, limit, batch size) and the `Read + Seek`
//! reader give exactly the rows of the whole file that they select: checked against the whole
//! file read in memory (itself checked against pyarrow in `read_values.rs`).

use quiver_arrow::compute::{concat, logical_eq};
use quiver_arrow::datatype::DataType;
use quiver_arrow::{Array, RecordBatch};
use quiver_parquet::arrow::options::ReadOptions;
use quiver_parquet::file::{FileReader, Selection, read_footer};
use std::collections::BTreeMap;
use std::path::Path;

/// A pyarrow-written file of 1,000 rows in row groups of 128 (the last one short).
fn file(dir: &Path) -> Vec<u8> {
    let path = dir.join("rg.parquet");
    let script = "import pyarrow as pa, pyarrow.parquet as pq, sys\n\
        n = 1000\n\
        t = pa.table({'i': pa.array(range(n), pa.int64()),\n\
                      's': pa.array([None if i % 7 == 0 else f'v{i}' for i in range(n)]),\n\
                      'l': pa.array([[i] * (i % 3) for i in range(n)], pa.list_(pa.int32()))})\n\
        pq.write_table(t, sys.argv[1], row_group_size=128)";
    let ok = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(&path)
        .status()
        .unwrap();
    assert!(ok.success());
    std::fs::read(path).unwrap()
}

/// Column `c` of every batch, concatenated.
fn column(batches: &[RecordBatch], c: usize) -> Array {
    let parts: Vec<&Array> = batches.iter().map(|b| &b.columns()[c]).collect();
    concat(&parts).unwrap()
}

fn read(r: &FileReader, s: &Selection) -> Vec<RecordBatch> {
    r.batches(s)
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}

#[test]
fn selections_give_the_rows_they_select() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = file(dir.path());
    let r = FileReader::try_new(&bytes, ReadOptions::default()).unwrap();
    assert_eq!(r.num_row_groups(), 8);
    let whole = read(&r, &Selection::default());
    let all: Vec<Array> = (0..3).map(|c| column(&whole, c)).collect();
    assert_eq!(all[0].len(), 1000);

    // Offset and limit across row groups, small batches; projection reorders.
    let s = Selection {
        columns: Some(vec!["l".into(), "i".into()]),
        offset: 300,
        limit: Some(333),
        batch_size: 50,
        ..Selection::default()
    };
    let got = read(&r, &s);
    assert!(
        got.iter()
            .all(|b| b.num_rows() <= 50 && b.num_columns() == 2)
    );
    assert_eq!(got[0].schema().fields[0].name(), "l");
    assert!(logical_eq(&column(&got, 0), &all[2].slice(300, 333)));
    assert!(logical_eq(&column(&got, 1), &all[0].slice(300, 333)));

    // Row groups in a chosen order, and row ranges inside one of them.
    let s = Selection {
        row_groups: Some(vec![5, 1]),
        rows: BTreeMap::from([(5, vec![3..10, 100..128])]),
        ..Selection::default()
    };
    let got = read(&r, &s);
    let want = concat(&[
        &all[0].slice(640 + 3, 7),
        &all[0].slice(640 + 100, 28),
        &all[0].slice(128, 128),
    ])
    .unwrap();
    assert!(logical_eq(&column(&got, 0), &want));

    // A row-number column: each row's position in the file, which column `i` also holds.
    let s = Selection {
        columns: Some(vec!["s".into(), "i".into()]),
        row_groups: Some(vec![6, 2]),
        rows: BTreeMap::from([(6, vec![0..5, 60..128])]),
        offset: 2,
        batch_size: 16,
        row_number: Some("row".into()),
        ..Selection::default()
    };
    let got = read(&r, &s);
    assert_eq!(got[0].schema().fields[2].name(), "row");
    assert!(got.iter().all(|b| b.num_columns() == 3));
    assert!(logical_eq(&column(&got, 2), &column(&got, 1)));
    assert_eq!(column(&got, 2).len(), 3 + 68 + 128);

    // Errors name what is wrong.
    let e = |s: Selection| r.batches(&s).err().unwrap().to_string();
    assert!(
        e(Selection {
            columns: Some(vec!["i".into()]),
            row_number: Some("i".into()),
            ..Selection::default()
        })
        .contains("row-number column \"i\"")
    );
    assert!(
        e(Selection {
            columns: Some(vec!["x".into()]),
            ..Selection::default()
        })
        .contains("no column \"x\"")
    );
    assert!(
        e(Selection {
            row_groups: Some(vec![8]),
            ..Selection::default()
        })
        .contains("row group 8 requested")
    );
    assert!(
        e(Selection {
            batch_size: 0,
            ..Selection::default()
        })
        .contains("batch size")
    );
    let bad = Selection {
        rows: BTreeMap::from([(0, vec![5..10, 7..12])]),
        ..Selection::default()
    };
    let err = r
        .batches(&bad)
        .unwrap()
        .next()
        .unwrap()
        .unwrap_err()
        .to_string();
    assert!(err.contains("row ranges must be sorted"), "{err}");
}

#[test]
fn a_seekable_reader_reads_what_memory_reads() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = file(dir.path());
    let mut f = std::fs::File::open(dir.path().join("rg.parquet")).unwrap();
    let (footer, len) = read_footer(&mut f).unwrap();
    let seek = FileReader::from_reader(&footer, len, f, ReadOptions::default()).unwrap();
    let mem = FileReader::try_new(&bytes, ReadOptions::default()).unwrap();
    let s = Selection {
        offset: 77,
        limit: Some(500),
        ..Selection::default()
    };
    let (a, b) = (read(&seek, &s), read(&mem, &s));
    for c in 0..3 {
        assert!(logical_eq(&column(&a, c), &column(&b, c)));
    }
    // A file cut short: the footer is there, a column chunk is not.
    let cut = std::io::Cursor::new(bytes[..bytes.len() / 2].to_vec());
    let r = FileReader::from_reader(&footer, len, cut, ReadOptions::default()).unwrap();
    let err = r
        .batches(&Selection::default())
        .unwrap()
        .find_map(|b| b.err())
        .unwrap()
        .to_string();
    assert!(err.contains("row group"), "{err}");
}

/// Runs the Python `body` (pyarrow imported as `pa`, `pq`), which writes a Parquet file to
/// `sys.argv[1]` and sets `want` to pyarrow's reading of it; returns the file and `want`'s
/// batches (sent as an IPC stream: a stream may hold dictionaries that change between row
/// groups, which a file cannot).
fn pyarrow_oracle(body: &str) -> (Vec<u8>, Vec<RecordBatch>) {
    let dir = tempfile::tempdir().unwrap();
    let (path, want_path) = (dir.path().join("f.parquet"), dir.path().join("want.arrows"));
    let script = format!(
        "import pyarrow as pa, pyarrow.parquet as pq, pyarrow.ipc as ipc, sys\n{body}\n\
         w = ipc.new_stream(sys.argv[2], want.schema)\nw.write_table(want)\nw.close()"
    );
    let ok = std::process::Command::new("python3")
        .args(["-c", &script])
        .arg(&path)
        .arg(&want_path)
        .status()
        .unwrap();
    assert!(ok.success());
    let want = quiver_ipc::read::StreamReader::try_new(std::fs::File::open(&want_path).unwrap())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    (std::fs::read(&path).unwrap(), want)
}

/// Dotted paths select fields inside structs (through lists to their elements' structs), as
/// pyarrow's `ParquetFile.read(columns=…)` selects them by column path: the same values, the
/// struct keeping only the children named.
#[test]
fn dotted_paths_select_inside_structs_as_pyarrow_does() {
    let (bytes, want) = pyarrow_oracle(
        "n = 300\n\
        s = pa.array([None if i % 11 == 0 else {'a': i, 'b': {'c': f'c{i}', 'd': i * 2}, 'e': i % 3 == 0}\n\
                      for i in range(n)])\n\
        l = pa.array([None if i % 5 == 0 else [{'x': i, 'y': f'y{j}'} for j in range(i % 4)]\n\
                      for i in range(n)])\n\
        t = pa.table({'k': pa.array(range(n)), 's': s, 'l': l})\n\
        pq.write_table(t, sys.argv[1], row_group_size=100)\n\
        want = pq.ParquetFile(sys.argv[1]).read(columns=['s.b.c', 's.a', 'l.list.element.y', 'k'])",
    );
    let r = FileReader::try_new(&bytes, ReadOptions::default()).unwrap();
    let s = Selection {
        columns: Some(vec!["s.b.c".into(), "s.a".into(), "l.y".into(), "k".into()]),
        batch_size: 64,
        ..Selection::default()
    };
    let got = read(&r, &s);
    // Both order top-level fields as first named, children as in the file.
    assert_eq!(got[0].num_columns(), 3);
    for (g, w) in [(0, 0), (1, 1), (2, 2)] {
        let (gf, wf) = (&got[0].schema().fields[g], &want[0].schema().fields[w]);
        assert_eq!(gf.name(), wf.name());
        // pyarrow names a pruned list's element "item"; quiver keeps the file's name.
        match (gf.data_type(), wf.data_type()) {
            (DataType::List(a), DataType::List(b)) => {
                assert_eq!((a.name(), b.name()), ("element", "item"));
                assert_eq!(a.data_type(), b.data_type());
            }
            (a, b) => assert_eq!(a, b, "{}", gf.name()),
        }
        let (a, b) = (column(&got, g), column(&want, w));
        if let (Some(la), Some(lb)) = (a.as_list(), b.as_list()) {
            // Element names differ (above): offsets, validity and elements compared apart.
            assert_eq!(la.offsets().as_slice(), lb.offsets().as_slice());
            assert!((0..a.len()).all(|i| a.is_null(i) == b.is_null(i)));
            assert!(logical_eq(la.values(), lb.values()));
        } else {
            assert!(logical_eq(&a, &b), "{}", gf.name());
        }
    }
    let e = |c: &str| {
        let s = Selection {
            columns: Some(vec![c.into()]),
            ..Selection::default()
        };
        r.batches(&s).err().unwrap().to_string()
    };
    assert!(e("s.z").contains("no field \"z\" in \"s\""), "{}", e("s.z"));
    assert!(e("k.z").contains("\"k\" is of type int64,"), "{}", e("k.z"));
    // A path through the list names its elements' fields: an "element" step, or a field of
    // a field that is not a struct, is refused naming the list's own type.
    assert!(
        e("l.element").contains("no field \"element\" in \"l\""),
        "{}",
        e("l.element")
    );
    let deep = e("l.y.z");
    assert!(deep.contains("\"l.y\" is of type string,"), "{deep}");
    assert!(e("q.z").contains("no column \"q.z\""), "{}", e("q.z"));
}

/// `ReadOptions::dictionary` reads the string and binary leaves it names as dictionaries, as
/// pyarrow's `read_dictionary` does: the same types and values (other leaves as usual).
#[test]
fn dictionary_option_reads_as_pyarrows_read_dictionary() {
    let (bytes, want) = pyarrow_oracle(
        "n = 500\n\
        t = pa.table({'s': pa.array([None if i % 9 == 0 else f'v{i % 13}' for i in range(n)]),\n\
                      'b': pa.array([bytes([i % 5]) for i in range(n)]),\n\
                      'l': pa.array([[f'e{j}' for j in range(i % 3)] for i in range(n)]),\n\
                      'i': pa.array(range(n))})\n\
        pq.write_table(t, sys.argv[1], row_group_size=200, store_schema=False)\n\
        want = pq.read_table(sys.argv[1], read_dictionary=['s', 'b', 'l.list.element', 'i'])",
    );
    let options = ReadOptions {
        dictionary: ["s", "b", "l.list.element", "i"].map(String::from).to_vec(),
        ..ReadOptions::default()
    };
    let r = FileReader::try_new(&bytes, options).unwrap();
    let got = read(&r, &Selection::default());
    for c in 0..4 {
        let (gf, wf) = (&got[0].schema().fields[c], &want[0].schema().fields[c]);
        assert_eq!(gf.data_type(), wf.data_type(), "{}", gf.name());
        assert!(
            logical_eq(&column(&got, c), &column(&want, c)),
            "{}",
            gf.name()
        );
    }
    assert!(matches!(
        got[0].schema().fields[0].data_type(),
        DataType::Dictionary { .. }
    ));
}

/// A path below a list of primitives (`ll.item`, `ll.element`) is refused naming the list's
/// type, not its element's under the list's name.
#[test]
fn a_path_below_a_list_of_primitives_names_the_list() {
    use quiver_arrow::array::{ListArray, PrimitiveArray};
    use quiver_arrow::buffer::OffsetBuffer;
    use quiver_arrow::datatype::{Field, Schema};
    use quiver_parquet::file::writer::{FileWriter, WriteOptions};
    use std::sync::Arc;
    let item = Arc::new(Field::new("item", DataType::Int16, true));
    let values = Array::from(PrimitiveArray::<i16>::new(vec![1i16, 2, 3]));
    let offsets = OffsetBuffer::try_new(vec![0i32, 2, 3].into()).unwrap();
    let ll = ListArray::try_new(item.clone(), offsets, values, None).unwrap();
    let schema = Arc::new(Schema::new(vec![Field::new(
        "ll",
        DataType::List(item),
        true,
    )]));
    let batch = RecordBatch::try_new(schema.clone(), vec![ll.into()]).unwrap();
    let mut w = FileWriter::new(Vec::new(), schema, WriteOptions::default()).unwrap();
    w.write(&batch).unwrap();
    let (bytes, _) = w.close().unwrap();
    let r = FileReader::try_new(&bytes, ReadOptions::default()).unwrap();
    for path in ["ll.item", "ll.element"] {
        let s = Selection {
            columns: Some(vec![path.into()]),
            ..Selection::default()
        };
        let e = r.batches(&s).err().unwrap().to_string();
        assert!(e.contains("\"ll\" is of type list<"), "{path}: {e}");
        assert!(e.contains("whose elements have no fields"), "{path}: {e}");
    }
}
