//! Reading cases built by hand with quiver's writer.
//!
//! Strings that are not UTF-8 are refused whichever way their page stores them: a dictionary
//! entry (whose check stands for every value gathered from it), a PLAIN page, or PLAIN pages
//! after a dictionary fallback. The files are written uncompressed, then one value's bytes are
//! replaced in place by an invalid sequence of the same length.

use quiver_arrow::datatype::{DataType, Field, Schema};
use quiver_arrow::{Array, RecordBatch, StringArray};
use quiver_parquet::arrow::options::ReadOptions;
use quiver_parquet::codec::Codec;
use quiver_parquet::file::FileReader;
use quiver_parquet::file::writer::{FileWriter, WriteOptions};
use std::sync::Arc;

/// The value whose bytes are broken; neither the smallest nor the largest of any page, so that
/// no statistics hold it.
const MARKER: &[u8] = b"mmmMARKER";
/// `MARKER`'s length, with a lead byte of a 2-byte character followed by an ASCII byte.
const BROKEN: &[u8] = b"mmmMARK\xC3(";

/// A file of 4,000 strings: "a…" and "z…" values in every page, and the marker at the rows
/// `marker_rows` picks.
fn file(
    dictionary: bool,
    dictionary_limit: usize,
    marker_rows: impl Fn(usize) -> bool,
) -> (Vec<u8>, Vec<Option<String>>) {
    let values: Vec<Option<String>> = (0..4000)
        .map(|i| match i % 7 {
            _ if marker_rows(i) => Some(String::from_utf8(MARKER.to_vec()).unwrap()),
            0 => Some(format!("a{}", i % 13)),
            1 => Some(format!("z{}", i % 11)),
            2 => None,
            3 => Some(String::new()),
            _ => Some(format!("é{i}")),
        })
        .collect();
    let schema = Arc::new(Schema::new(vec![Field::new("s", DataType::Utf8, true)]));
    let array = Array::from(StringArray::from_options(
        values.iter().map(|v| v.as_deref()),
    ));
    let batch = RecordBatch::try_new(schema.clone(), vec![array]).unwrap();
    let mut opts = WriteOptions::default();
    opts.column.codec = Codec::Uncompressed;
    opts.column.dictionary = dictionary;
    opts.column.dictionary_limit = dictionary_limit;
    opts.column.page_rows = 500;
    let mut w = FileWriter::new(Vec::new(), schema, opts).unwrap();
    w.write(&batch).unwrap();
    (w.close().unwrap().0, values)
}

/// Every occurrence of `MARKER` in `bytes` replaced by `BROKEN`; how many there were.
fn break_marker(bytes: &mut [u8]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i + MARKER.len() <= bytes.len() {
        if &bytes[i..i + MARKER.len()] == MARKER {
            bytes[i..i + MARKER.len()].copy_from_slice(BROKEN);
            n += 1;
            i += MARKER.len();
        } else {
            i += 1;
        }
    }
    n
}

fn read(bytes: &[u8]) -> quiver_arrow::Result<Vec<Option<String>>> {
    let options = ReadOptions {
        verify_crc: false,
        ..ReadOptions::default()
    };
    let batches = FileReader::try_new(bytes, options)?.read_all()?;
    let mut out = Vec::new();
    for b in &batches {
        let Array::Utf8(s) = b.column(0) else {
            panic!("not a string column: {:?}", b.column(0).data_type());
        };
        out.extend((0..s.len()).map(|i| s.is_valid(i).then(|| s.value(i).to_string())));
    }
    Ok(out)
}

/// A file to break: dictionary-encoded, the dictionary's limit, the marker's rows, a name.
type Case = (bool, usize, fn(usize) -> bool, &'static str);

#[test]
fn strings_that_are_not_utf8_are_refused_from_every_kind_of_page() {
    // (dictionary, its limit, the marker's rows): entries of a dictionary used throughout;
    // PLAIN pages only; the marker only in the PLAIN pages after a fallback; only in the
    // dictionary-encoded pages before it.
    let cases: [Case; 4] = [
        (true, 1 << 20, |i| i % 7 == 5 && i % 3 == 0, "dictionary"),
        (false, 1 << 20, |i| i == 3001, "plain"),
        (true, 2000, |i| i == 3501, "after the fallback"),
        (true, 2000, |i| i == 12, "before the fallback"),
    ];
    for (dictionary, limit, rows, what) in cases {
        let (mut bytes, values) = file(dictionary, limit, rows);
        assert_eq!(read(&bytes).unwrap(), values, "{what}: the intact file");
        assert!(break_marker(&mut bytes) > 0, "{what}");
        match read(&bytes) {
            Ok(v) => panic!("{what}: {} values read, the broken one among them", v.len()),
            Err(e) => assert!(e.to_string().contains("not valid UTF-8"), "{what}: {e}"),
        }
    }
}

/// A fixed-size list of dictionary-encoded strings with null lists (stored as empty lists,
/// padded with nulls on reading) reads back as written: the dictionary is kept once, not once
/// per stretch between null lists, which would overflow the 8-bit keys here.
#[test]
fn fixed_size_lists_of_dictionaries_with_null_lists_read_back() {
    use quiver_arrow::array::{DictionaryArray, FixedSizeListArray, PrimitiveArray};
    use quiver_arrow::buffer::MutableBitmap;
    let rows = 300;
    let keys = Array::from(PrimitiveArray::<i8>::new(
        (0..rows).map(|i| (i % 2) as i8).collect::<Vec<_>>(),
    ));
    let values = Arc::new(Array::from(StringArray::from_options([
        Some("a"),
        Some("b"),
    ])));
    let dict = Array::from(DictionaryArray::try_new(keys, values, false).unwrap());
    let item = Arc::new(Field::new("element", dict.data_type().clone(), true));
    let mut valid = MutableBitmap::with_capacity(rows);
    for i in 0..rows {
        valid.push(i % 3 != 1);
    }
    let lists = FixedSizeListArray::try_new(item, 1, rows, dict, Some(valid.freeze())).unwrap();
    assert_round_trip(&[("c".to_string(), Array::from(lists))]);
}

/// List views (and large list views) written with `ARROW:schema` read back as list views of
/// their original element types (durations, zoned timestamps), as pyarrow restores them;
/// null and empty lists kept apart.
#[test]
fn list_views_read_back_as_list_views() {
    use quiver_arrow::array::{GenericListViewArray, PrimitiveArray};
    use quiver_arrow::buffer::{Buffer, MutableBitmap};
    use quiver_arrow::datatype::TimeUnit;
    let mut columns = Vec::new();
    for large in [false, true] {
        let values = Array::from(
            PrimitiveArray::<i64>::from_options([Some(5), None, Some(-7), Some(9), Some(1)])
                .with_data_type(DataType::Duration(TimeUnit::Second))
                .unwrap(),
        );
        let item = Arc::new(Field::new("element", values.data_type().clone(), true));
        // Lists [5, null], null, [], [9, 1], [-7] (views out of order and overlapping the nulls'
        // bytes; only the logical lists count).
        let (starts, sizes) = ([0i64, 0, 0, 3, 2], [2i64, 0, 0, 2, 1]);
        let mut valid = MutableBitmap::with_capacity(5);
        for v in [true, false, true, true, true] {
            valid.push(v);
        }
        let lists = if large {
            Array::from(
                GenericListViewArray::<i64>::try_new(
                    item,
                    Buffer::from(starts.to_vec()),
                    Buffer::from(sizes.to_vec()),
                    values,
                    Some(valid.freeze()),
                )
                .unwrap(),
            )
        } else {
            let narrow = |v: &[i64]| Buffer::from(v.iter().map(|&x| x as i32).collect::<Vec<_>>());
            Array::from(
                GenericListViewArray::<i32>::try_new(
                    item,
                    narrow(&starts),
                    narrow(&sizes),
                    values,
                    Some(valid.freeze()),
                )
                .unwrap(),
            )
        };
        columns.push((format!("lv{large}"), lists));
    }
    assert_round_trip(&columns);
}

/// Writes `columns` (name, array) with quiver's default options, reads the file back, and
/// asserts each column comes back with its type and values.
fn assert_round_trip(columns: &[(String, Array)]) {
    let fields: Vec<Field> = columns
        .iter()
        .map(|(name, a)| Field::new(name.clone(), a.data_type().clone(), true))
        .collect();
    let schema = Arc::new(Schema::new(fields));
    let arrays: Vec<Array> = columns.iter().map(|(_, a)| a.clone()).collect();
    let batch = RecordBatch::try_new(schema.clone(), arrays).unwrap();
    let mut w = FileWriter::new(Vec::new(), schema, WriteOptions::default()).unwrap();
    w.write(&batch).unwrap();
    let bytes = w.close().unwrap().0;
    let read = FileReader::try_new(&bytes, ReadOptions::default())
        .unwrap()
        .read_all()
        .unwrap();
    assert_eq!(read.len(), 1);
    for (i, (name, want)) in columns.iter().enumerate() {
        let got = read[0].column(i);
        assert_eq!(got.data_type(), want.data_type(), "{name}");
        if let Some(d) = quiver_arrow::compute::first_difference(got, want) {
            panic!("{name} read back differs: {d}");
        }
    }
}

/// Dictionary-encoded strings whose values all have one length (flags, codes; gathered as
/// fixed-width values, their offsets computed) read back equal, with nulls, at lengths 1 to 16
/// and past them (17: the general gather), as 32- and 64-bit offsets, next to a column whose
/// dictionary mixes lengths.
#[test]
fn dictionary_strings_of_one_length_read_back() {
    let mut columns = Vec::new();
    for len in [1usize, 3, 8, 16, 17] {
        let words: Vec<String> = (0..7u8)
            .map(|k| {
                (0..len)
                    .map(|j| (b'a' + (k + j as u8) % 26) as char)
                    .collect()
            })
            .collect();
        let values: Vec<Option<&str>> = (0..5000usize)
            .map(|i| (i % 13 != 5).then(|| words[(i * 7 + i / 3) % words.len()].as_str()))
            .collect();
        let utf8 = StringArray::from_options(values.iter().copied());
        let large = quiver_arrow::array::LargeStringArray::from_options(values.iter().copied());
        columns.push((format!("s{len}"), Array::from(utf8)));
        columns.push((format!("l{len}"), Array::from(large)));
    }
    let mixed: Vec<Option<&str>> = (0..5000usize)
        .map(|i| Some(["", "ab", "abcd"][i % 3]))
        .collect();
    columns.push((
        "mixed".into(),
        Array::from(StringArray::from_options(mixed.iter().copied())),
    ));
    assert_round_trip(&columns);
}
