//! Metadata quiver writes equals pyarrow's for the same data (`tests/meta_source.py`: floats
//! with NaN and ±0.0, strings past the column index's 64-byte truncation, unsigned integers,
//! decimals, dates, timestamps, booleans, all-null columns; 1000-row row groups and 100-row
//! pages in both files): the page index (offset index rows, column index null pages, min/max,
//! null counts, boundary order) compared here, the chunk statistics as pyarrow and DuckDB see
//! them, DuckDB's bloom probes of quiver's filters and DuckDB's filtered queries in
//! `tests/write_meta_check.py`.

use crate::common::{python_writes, writer_available};
use quiver_arrow::RecordBatch;
use quiver_parquet::arrow::write_schema::DecimalLayout;
use quiver_parquet::codec::Codec;
use quiver_parquet::file::writer::{ColumnOverride, FileWriter, WriteOptions};
use quiver_parquet::format::{ColumnIndex, OffsetIndex, Type};
use std::path::Path;

/// Bloom-filtered columns of quiver's file.
const BLOOM: [&str; 4] = ["long", "i32", "u64", "f64"];

/// A chunk's column index: null pages, min and max values, and the rest as Debug text.
#[derive(Debug, PartialEq)]
struct Index {
    null_pages: Vec<bool>,
    min: Vec<Vec<u8>>,
    max: Vec<Vec<u8>>,
    rest: String,
}

/// Every chunk's (row group:path, column index, offset index first rows).
fn page_indexes(path: &Path) -> Vec<(String, Option<Index>, Vec<i64>)> {
    let bytes = std::fs::read(path).unwrap();
    let meta = quiver_parquet::metadata::parse_file(&bytes).unwrap();
    let mut out = Vec::new();
    for g in 0..meta.num_row_groups() {
        for c in 0..meta.num_columns() {
            let chunk = meta.column_chunk(g, c).unwrap();
            let name = chunk.meta_data.as_ref().unwrap().path_in_schema.join(".");
            let range = |o: Option<i64>, l: Option<i32>| {
                let (o, l) = (o? as usize, l? as usize);
                Some(&bytes[o..o + l])
            };
            let ci = range(chunk.column_index_offset, chunk.column_index_length).map(|b| {
                let ci = ColumnIndex::decode(b).unwrap();
                let owned = |v: &[&[u8]]| v.iter().map(|x| x.to_vec()).collect();
                // Histograms are size statistics pyarrow writes only on request.
                Index {
                    min: owned(&ci.min_values),
                    max: owned(&ci.max_values),
                    rest: format!("{:?} {:?}", ci.boundary_order, ci.null_counts),
                    null_pages: ci.null_pages,
                }
            });
            let oi = range(chunk.offset_index_offset, chunk.offset_index_length).unwrap();
            let rows = OffsetIndex::decode(oi).unwrap().page_locations;
            let rows = rows.iter().map(|p| p.first_row_index).collect();
            out.push((format!("{g}:{name}"), ci, rows));
        }
    }
    out
}

#[test]
fn statistics_page_index_and_bloom_filters_agree_with_pyarrow() {
    if !writer_available("pyarrow", "import pyarrow")
        || !writer_available("duckdb", "import duckdb")
    {
        return;
    }
    let (dir, files) = python_writes("meta_source.py");
    // pyarrow with store_decimal_as_integer, then with its default fixed-size decimals.
    let [ints, flba] = &files[..] else {
        panic!("{files:?}")
    };
    agree_with_pyarrow(dir.path(), ints, DecimalLayout::Integer, Type::INT32);
    // Uncompressed PLAIN, quiver's default layout is pyarrow's.
    agree_with_pyarrow(
        dir.path(),
        flba,
        DecimalLayout::Auto,
        Type::FIXED_LEN_BYTE_ARRAY,
    );
}

/// Writes `dir/source.arrow` as quiver's file with `decimals` (column `dec` then stored as
/// `dec_type`) and compares its metadata with pyarrow's file `theirs`.
fn agree_with_pyarrow(dir: &Path, theirs: &Path, decimals: DecimalLayout, dec_type: Type) {
    let file = std::fs::File::open(dir.join("source.arrow")).unwrap();
    let batches: Vec<RecordBatch> = quiver_ipc::read::StreamReader::try_new(file)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut o = WriteOptions {
        row_group_rows: 1000,
        ..WriteOptions::default()
    };
    o.column.page_rows = 100;
    o.column.dictionary = false;
    o.column.codec = Codec::Uncompressed;
    o.schema.decimals = decimals;
    for c in BLOOM {
        o.column_overrides.push((
            c.to_string(),
            ColumnOverride::Bloom {
                ndv: 1000,
                fpp: 0.01,
            },
        ));
    }
    let ours = dir.join("quiver.out");
    let mut w = FileWriter::create(&ours, batches[0].schema().clone(), o).unwrap();
    for b in &batches {
        w.write(b).unwrap();
    }
    w.finish().unwrap();
    let bytes = std::fs::read(&ours).unwrap();
    let md = quiver_parquet::metadata::parse_file(&bytes).unwrap();
    let dec = md.schema().iter().find(|e| e.name == "dec").unwrap();
    assert_eq!(dec.type_, Some(dec_type), "{decimals:?}");

    let (a, b) = (page_indexes(theirs), page_indexes(&ours));
    assert_eq!(a.len(), b.len());
    let mut problems = Vec::new();
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.0, y.0);
        let (group, column) = x.0.split_once(':').unwrap();
        if let Some(want) = null_pages(column, group.parse().unwrap()) {
            // pyarrow's tiny data_page_size does not close pages of nulls only: quiver's 100-row
            // pages are checked against the data.
            let got = y.1.as_ref().map(|c| &c.null_pages);
            if got != Some(&want) {
                problems.push(format!("{}: null pages {got:?}, not {want:?}", y.0));
            }
        } else if column == "long" || column == "bin" {
            if let Err(e) = truncated_like(&x.1, &y.1) {
                problems.push(format!("{}: {e}", x.0));
            }
        } else if x.2 != y.2 {
            problems.push(format!("{}: page rows {:?} vs {:?}", x.0, x.2, y.2));
        } else if x.1 != y.1 {
            problems.push(format!(
                "{}: column index\npyarrow {:?}\nquiver  {:?}",
                x.0, x.1, y.1
            ));
        }
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/write_meta_check.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg(theirs)
        .arg(&ours)
        .args(BLOOM)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut checked = 0;
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        match v.get("error") {
            Some(e) => problems.push(e.as_str().unwrap().to_string()),
            None => checked = v["checked"].as_u64().unwrap(),
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(checked > 500, "{checked} checks");
}

/// The null pages of the columns whose pages pyarrow cuts differently (it closes no page of
/// nulls only), quiver's pages holding 100 rows each.
fn null_pages(column: &str, group: usize) -> Option<Vec<bool>> {
    match column {
        "all_null" => Some(vec![true; 10]),
        "some_null_pages" => Some((0..10).map(|p| (group * 10 + p) % 3 == 1).collect()),
        _ => None,
    }
}

/// quiver's column index of values longer than 64 bytes against pyarrow's (which keeps them
/// whole): each min a prefix of pyarrow's, each max not below pyarrow's, both at most 64
/// bytes, and equal to pyarrow's where that is short enough.
fn truncated_like(theirs: &Option<Index>, ours: &Option<Index>) -> Result<(), String> {
    let (Some(t), Some(o)) = (theirs, ours) else {
        return Err(format!("column index {theirs:?} vs {ours:?}"));
    };
    // The boundary order is of the values as stored: quiver's (truncated) may be ordered
    // where pyarrow's (whole) are not; it must hold for them.
    let counts = |i: &Index| i.rest.split_once(' ').unwrap().1.to_string();
    let ordered = |v: &[Vec<u8>]| v.windows(2).all(|w| w[0] <= w[1]);
    if o.rest.starts_with("ASCENDING") && !(ordered(&o.min) && ordered(&o.max)) {
        return Err(format!("ASCENDING, but {:?} {:?}", o.min, o.max));
    }
    if t.null_pages != o.null_pages || counts(t) != counts(o) {
        return Err(format!(
            "null pages {:?}, {} vs {:?}, {}",
            t.null_pages, t.rest, o.null_pages, o.rest
        ));
    }
    let pages = t.min.iter().zip(&t.max).zip(o.min.iter().zip(&o.max));
    for (i, ((tmin, tmax), (omin, omax))) in pages.enumerate() {
        let short = |v: &Vec<u8>| v.len() <= 64;
        // A max of bytes 0xFF only cannot be rounded up: it stays whole.
        let ok = short(omin)
            && (short(omax) || omax == tmax)
            && tmin.starts_with(omin)
            && omax >= tmax
            && (!short(tmin) || omin == tmin)
            && (!short(tmax) || omax == tmax);
        if !ok {
            return Err(format!(
                "page {i}: min {omin:?} max {omax:?} for {tmin:?} {tmax:?}"
            ));
        }
    }
    Ok(())
}

/// Dictionary-encoded string columns (plain strings, and Arrow dictionaries written through
/// their keys) in several batches, a slice among them, with nulls: each page's column index
/// bounds are the least and greatest of the page's values (naive, from the data), and the
/// chunk statistics those of the whole chunk. The writer takes each distinct value of a batch
/// into the bounds once; values repeat across batches and pages here.
#[test]
fn dictionary_string_bounds_are_each_pages_least_and_greatest() {
    use quiver_arrow::array::{Array, DictionaryArray, PrimitiveArray, StringArray};
    use quiver_arrow::datatype::{DataType, Field, Schema};
    use std::sync::Arc;
    let words = [
        "",
        "b",
        "ab",
        "abc",
        "zz",
        "a\u{0}",
        "b",
        "zebra crossing",
        "é",
        "ab",
    ];
    let pick = |i: usize| {
        let x = (i * 7 + i / 13) % 23;
        (x < 20).then(|| words[x % words.len()])
    };
    let rows = 1000;
    let all: Vec<Option<&str>> = (0..rows).map(pick).collect();
    let dict_type = DataType::Dictionary {
        key: quiver_arrow::datatype::IntegerType::Int32,
        value: Arc::new(DataType::Utf8),
        ordered: false,
    };
    let schema = Arc::new(Schema::new(vec![
        Field::new("s", DataType::Utf8, true),
        Field::new("d", dict_type, true),
    ]));
    let values = Array::from(StringArray::from_options(words.map(Some)));
    let keys_of = |part: &[Option<&str>]| {
        let keys = part
            .iter()
            .map(|v| v.map(|v| words.iter().position(|w| *w == v).unwrap() as i32));
        Array::from(PrimitiveArray::<i32>::from_options(keys))
    };
    let mut opts = WriteOptions::default();
    opts.column.page_rows = 70;
    let mut w = FileWriter::new(Vec::new(), schema.clone(), opts).unwrap();
    // Batches of 300, 1 and 299 rows, then 400 rows taken as a slice of a longer array.
    for (start, len) in [(0, 300), (300, 1), (301, 299)] {
        let part = &all[start..start + len];
        let s = Array::from(StringArray::from_options(part.iter().copied()));
        let d = DictionaryArray::try_new(keys_of(part), values.clone(), false).unwrap();
        let b = quiver_arrow::RecordBatch::try_new(schema.clone(), vec![s, Array::from(d)]);
        w.write(&b.unwrap()).unwrap();
    }
    let padded: Vec<Option<&str>> = [Some("~~"), Some("")]
        .into_iter()
        .chain(all[600..].iter().copied())
        .chain([Some("~~")])
        .collect();
    let s = Array::from(StringArray::from_options(padded.iter().copied())).slice(2, 400);
    let d = DictionaryArray::try_new(keys_of(&all[600..]), values.clone(), false).unwrap();
    let b = quiver_arrow::RecordBatch::try_new(schema.clone(), vec![s, Array::from(d)]);
    w.write(&b.unwrap()).unwrap();
    let (bytes, _) = w.close().unwrap();

    let meta = quiver_parquet::metadata::parse_file(&bytes).unwrap();
    let bounds = |part: &[Option<&str>]| {
        let present = part.iter().flatten();
        let lo = present.clone().min().map(|v| v.as_bytes().to_vec());
        (lo, present.max().map(|v| v.as_bytes().to_vec()))
    };
    for c in 0..2 {
        let chunk = meta.column_chunk(0, c).unwrap().into_owned();
        let md = chunk.meta_data.as_ref().unwrap();
        let dictionary = quiver_parquet::format::Encoding::RLE_DICTIONARY;
        assert!(md.encodings.iter().any(|e| e == dictionary), "column {c}");
        let at = |o: Option<i64>, l: Option<i32>| {
            let (o, l) = (o.unwrap() as usize, l.unwrap() as usize);
            &bytes[o..o + l]
        };
        let ci = ColumnIndex::decode(at(chunk.column_index_offset, chunk.column_index_length));
        let oi = OffsetIndex::decode(at(chunk.offset_index_offset, chunk.offset_index_length));
        let (ci, oi) = (ci.unwrap(), oi.unwrap());
        let firsts: Vec<usize> = oi
            .page_locations
            .iter()
            .map(|p| p.first_row_index as usize)
            .chain([rows])
            .collect();
        assert!(firsts.len() > 10, "{firsts:?}");
        for (p, w) in firsts.windows(2).enumerate() {
            let (lo, hi) = bounds(&all[w[0]..w[1]]);
            let got = (ci.min_values[p].to_vec(), ci.max_values[p].to_vec());
            assert_eq!(got, (lo.unwrap(), hi.unwrap()), "column {c}, page {p}");
        }
        let stats = md.statistics.as_ref().unwrap().get();
        let (lo, hi) = bounds(&all);
        assert_eq!(stats.min_value.map(<[u8]>::to_vec), lo, "column {c}");
        assert_eq!(stats.max_value.map(<[u8]>::to_vec), hi, "column {c}");
    }
}
