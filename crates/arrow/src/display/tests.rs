use super::*;
use crate::array::*;
use crate::buffer::{Bitmap, OffsetBuffer};
use crate::datatype::UnionMode;
use crate::datatype::{DataType, Field, Fields, IntervalUnit, Schema, TimeUnit, UnionFields};
use crate::native::{DaysMs, I128, I256, MonthDayNano};
use crate::record_batch::RecordBatch;
use std::sync::Arc;

fn show(a: impl Into<Array>) -> Vec<String> {
    let a = a.into();
    (0..a.len()).map(|i| format_value(&a, i)).collect()
}

fn typed_i32(dt: DataType, v: Vec<i32>) -> PrimitiveArray<i32> {
    PrimitiveArray::<i32>::new(v).with_data_type(dt).unwrap()
}

fn typed_i64(dt: DataType, v: Vec<i64>) -> PrimitiveArray<i64> {
    PrimitiveArray::<i64>::new(v).with_data_type(dt).unwrap()
}

fn i32s(v: &[Option<i32>]) -> Array {
    Array::from(PrimitiveArray::<i32>::from_options(v.iter().copied()))
}

fn strs(v: &[Option<&str>]) -> Array {
    Array::from(StringArray::from_options(v.iter().copied()))
}

fn list_of(offsets: Vec<i32>, child: Array, validity: Option<Bitmap>) -> Array {
    let field = Arc::new(Field::new("item", child.data_type().clone(), true));
    let offsets = OffsetBuffer::try_new(offsets.into()).unwrap();
    Array::from(ListArray::try_new(field, offsets, child, validity).unwrap())
}

#[test]
fn nulls_booleans_integers() {
    assert_eq!(show(NullArray::new(2)), ["null", "null"]);
    assert_eq!(
        show(BooleanArray::from_options([Some(true), None, Some(false)])),
        ["true", "null", "false"]
    );
    assert_eq!(
        show(PrimitiveArray::<i8>::new(vec![-5, 127])),
        ["-5", "127"]
    );
    assert_eq!(
        show(PrimitiveArray::<u64>::new(vec![u64::MAX])),
        ["18446744073709551615"]
    );
}

#[test]
fn floats_shortest_round_trip() {
    let f = PrimitiveArray::<f64>::new(vec![
        1.5,
        1.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1e20,
        1e-7,
        -0.0,
    ]);
    assert_eq!(
        show(f),
        ["1.5", "1.0", "NaN", "inf", "-inf", "1e20", "1e-7", "-0.0"]
    );
    assert_eq!(
        show(PrimitiveArray::<f32>::new(vec![0.1, 3.0])),
        ["0.1", "3.0"]
    );
    let h =
        PrimitiveArray::<half::f16>::new(vec![half::f16::from_f32(0.1), half::f16::from_f32(2.5)]);
    assert_eq!(show(h), ["0.1", "2.5"]);
}

#[test]
fn decimals_with_scale() {
    let d32 = typed_i32(
        DataType::Decimal32 {
            precision: 5,
            scale: 2,
        },
        vec![12345, -5, 0],
    );
    assert_eq!(show(d32), ["123.45", "-0.05", "0.00"]);
    let d64 = typed_i64(
        DataType::Decimal64 {
            precision: 10,
            scale: -2,
        },
        vec![5, -31],
    );
    assert_eq!(show(d64), ["500", "-3100"]);
    let d128 = PrimitiveArray::<I128>::new(vec![I128::from_i128(-12345), I128::from_i128(7)])
        .with_data_type(DataType::Decimal128 {
            precision: 5,
            scale: 2,
        })
        .unwrap();
    assert_eq!(show(d128), ["-123.45", "0.07"]);
    // 2^128 with scale 3.
    let d256 = PrimitiveArray::<I256>::new(vec![I256([0, 0, 1, 0]), I256::from_i128(-1500)])
        .with_data_type(DataType::Decimal256 {
            precision: 50,
            scale: 3,
        })
        .unwrap();
    assert_eq!(
        show(d256),
        ["340282366920938463463374607431768211.456", "-1.500"]
    );
}

#[test]
fn dates_and_times() {
    assert_eq!(
        show(typed_i32(DataType::Date32, vec![18292, 0, -1, 11016])),
        ["2020-01-31", "1970-01-01", "1969-12-31", "2000-02-29"]
    );
    let day_ms = 86_400_000i64;
    let d64 = typed_i64(
        DataType::Date64,
        vec![18292 * day_ms, 18292 * day_ms + 1500, -1],
    );
    assert_eq!(
        show(d64),
        [
            "2020-01-31",
            "2020-01-31 00:00:01.500",
            "1969-12-31 23:59:59.999"
        ]
    );
    assert_eq!(
        show(typed_i32(
            DataType::Time32(TimeUnit::Second),
            vec![45296, 0]
        )),
        ["12:34:56", "00:00:00"]
    );
    assert_eq!(
        show(typed_i32(
            DataType::Time32(TimeUnit::Millisecond),
            vec![45296789, 5]
        )),
        ["12:34:56.789", "00:00:00.005"]
    );
    assert_eq!(
        show(typed_i64(
            DataType::Time64(TimeUnit::Microsecond),
            vec![45296789012]
        )),
        ["12:34:56.789012"]
    );
    assert_eq!(
        show(typed_i64(
            DataType::Time64(TimeUnit::Nanosecond),
            vec![45296789012345]
        )),
        ["12:34:56.789012345"]
    );
}

#[test]
fn timestamps_with_and_without_zones() {
    let ts = |unit, tz: Option<&str>, v: Vec<i64>| {
        typed_i64(DataType::Timestamp(unit, tz.map(Arc::from)), v)
    };
    assert_eq!(
        show(ts(TimeUnit::Millisecond, None, vec![1580473496789])),
        ["2020-01-31 12:24:56.789"]
    );
    assert_eq!(
        show(ts(TimeUnit::Second, None, vec![-1])),
        ["1969-12-31 23:59:59"]
    );
    assert_eq!(
        show(ts(TimeUnit::Nanosecond, None, vec![1580473496789012345])),
        ["2020-01-31 12:24:56.789012345"]
    );
    assert_eq!(
        show(ts(TimeUnit::Microsecond, None, vec![0])),
        ["1970-01-01 00:00:00.000000"]
    );
    assert_eq!(
        show(ts(TimeUnit::Second, Some("UTC"), vec![1580473496])),
        ["2020-01-31 12:24:56+00:00"]
    );
    assert_eq!(
        show(ts(TimeUnit::Second, Some("+02:00"), vec![1580473496])),
        ["2020-01-31 14:24:56+02:00"]
    );
    assert_eq!(
        show(ts(
            TimeUnit::Millisecond,
            Some("-0530"),
            vec![1580473496789]
        )),
        ["2020-01-31 06:54:56.789-05:30"]
    );
    assert_eq!(
        show(ts(TimeUnit::Second, Some("Europe/Paris"), vec![1580473496])),
        ["2020-01-31 13:24:56+01:00"]
    );
    // Named zones: local time with the offset in force (winter and summer), as pyarrow's
    // Python datetimes and DuckDB show them.
    assert_eq!(
        show(ts(
            TimeUnit::Second,
            Some("America/New_York"),
            vec![1704070807, 1719849600]
        )),
        ["2023-12-31 20:00:07-05:00", "2024-07-01 12:00:00-04:00"]
    );
    assert_eq!(
        show(ts(TimeUnit::Second, Some("Mars/Olympus"), vec![1580473496])),
        ["2020-01-31 12:24:56Z[Mars/Olympus]"]
    );
}

#[test]
fn durations_and_intervals() {
    assert_eq!(
        show(typed_i64(DataType::Duration(TimeUnit::Second), vec![3600])),
        ["3600s"]
    );
    assert_eq!(
        show(typed_i64(
            DataType::Duration(TimeUnit::Millisecond),
            vec![1500]
        )),
        ["1500ms"]
    );
    assert_eq!(
        show(typed_i64(
            DataType::Duration(TimeUnit::Nanosecond),
            vec![-5]
        )),
        ["-5ns"]
    );
    assert_eq!(
        show(typed_i32(
            DataType::Interval(IntervalUnit::YearMonth),
            vec![14, -14, 3]
        )),
        ["1y2m", "-1y-2m", "0y3m"]
    );
    let dt = PrimitiveArray::<DaysMs>::new(vec![DaysMs {
        days: 3,
        milliseconds: 4000,
    }]);
    assert_eq!(show(dt), ["3d 4000ms"]);
    let mdn = PrimitiveArray::<MonthDayNano>::new(vec![MonthDayNano {
        months: 1,
        days: 2,
        nanoseconds: 3,
    }]);
    assert_eq!(show(mdn), ["1m 2d 3ns"]);
}

#[test]
fn binary_as_hex_and_strings_as_is() {
    assert_eq!(
        show(BinaryArray::from_options([
            Some(&b"joe"[..]),
            Some(b""),
            None
        ])),
        ["0x6a6f65", "0x", "null"]
    );
    assert_eq!(
        show(LargeBinaryArray::from_options([Some(&b"\x00\xff"[..])])),
        ["0x00ff"]
    );
    assert_eq!(
        show(BinaryViewArray::from_options([Some(&b"\x01"[..])])),
        ["0x01"]
    );
    let fsb = FixedSizeBinaryArray::try_new(2, 2, vec![0xab, 0xcd, 0, 1].into(), None).unwrap();
    assert_eq!(show(fsb), ["0xabcd", "0x0001"]);
    assert_eq!(
        show(StringArray::from_options([Some("a\"b"), None])),
        ["a\"b", "null"]
    );
    assert_eq!(show(LargeStringArray::from_options([Some("ünï")])), ["ünï"]);
    assert_eq!(
        show(StringViewArray::from_options([Some(
            "a view string over twelve bytes"
        )])),
        ["a view string over twelve bytes"]
    );
}

#[test]
fn lists_quote_nested_strings() {
    let l = list_of(
        vec![0, 3, 3, 4],
        i32s(&[Some(1), Some(2), None, Some(4)]),
        Some([true, true, false].into_iter().collect()),
    );
    assert_eq!(show(l), ["[1, 2, null]", "[]", "null"]);
    let l = list_of(vec![0, 2], strs(&[Some("a\"b"), None]), None);
    assert_eq!(show(l), ["[\"a\\\"b\", null]"]);
    let inner = list_of(vec![0, 1, 3], i32s(&[Some(1), Some(2), Some(3)]), None);
    assert_eq!(show(list_of(vec![0, 2], inner, None)), ["[[1], [2, 3]]"]);
    let field = Arc::new(Field::new("item", DataType::Int32, true));
    let lv = ListViewArray::try_new(
        field.clone(),
        vec![2, 0].into(),
        vec![1, 1].into(),
        i32s(&[Some(7), Some(8), Some(9)]),
        None,
    )
    .unwrap();
    assert_eq!(show(lv), ["[9]", "[7]"]);
    let fsl =
        FixedSizeListArray::try_new(field, 2, 2, i32s(&[Some(1), None, Some(3), Some(4)]), None)
            .unwrap();
    assert_eq!(show(fsl), ["[1, null]", "[3, 4]"]);
}

#[test]
fn structs_maps_unions() {
    let fields: Fields = vec![
        Field::new("a", DataType::Int32, true),
        Field::new("b", DataType::list_of(DataType::Int32), true),
    ]
    .into();
    let b = list_of(vec![0, 2, 2], i32s(&[Some(2), Some(3)]), None);
    let s = StructArray::try_new(
        fields,
        2,
        vec![i32s(&[Some(1), None]), b],
        Some([true, false].into_iter().collect()),
    )
    .unwrap();
    assert_eq!(show(s), ["{a: 1, b: [2, 3]}", "null"]);

    let kv: Fields = vec![
        Field::new("key", DataType::Utf8, false),
        Field::new("value", DataType::Int32, true),
    ]
    .into();
    let entries = StructArray::try_new(
        kv,
        2,
        vec![strs(&[Some("k"), Some("j")]), i32s(&[Some(1), None])],
        None,
    )
    .unwrap();
    let field = Arc::new(Field::new("entries", entries.data_type().clone(), false));
    let offsets = OffsetBuffer::try_new(vec![0, 2, 2].into()).unwrap();
    let m = MapArray::try_new(field, false, offsets, entries, None).unwrap();
    assert_eq!(show(m), ["{\"k\": 1, \"j\": null}", "{}"]);

    let uf = UnionFields::try_new(
        vec![0i8, 4],
        vec![
            Field::new("int", DataType::Int32, true),
            Field::new("str", DataType::Utf8, true),
        ],
    )
    .unwrap();
    let u = UnionArray::try_new(
        uf,
        UnionMode::Dense,
        vec![0i8, 4, 0].into(),
        Some(vec![0, 0, 1].into()),
        vec![i32s(&[Some(5), None]), strs(&[Some("a")])],
    )
    .unwrap();
    assert_eq!(show(u), ["{int=5}", "{str=\"a\"}", "null"]);
}

#[test]
fn dictionaries_and_run_ends_show_values() {
    let keys = Array::from(PrimitiveArray::<i16>::from_options([
        Some(1),
        None,
        Some(0),
    ]));
    let d = DictionaryArray::try_new(keys, strs(&[Some("foo"), Some("bar")]), false).unwrap();
    let d = Array::from(d);
    assert_eq!(show(d.clone()), ["bar", "null", "foo"]);
    // Inside a list the resolved strings are quoted.
    let field = Arc::new(Field::new("item", d.data_type().clone(), true));
    let l = ListArray::try_new(
        field,
        OffsetBuffer::try_new(vec![0, 3].into()).unwrap(),
        d,
        None,
    )
    .unwrap();
    assert_eq!(show(l), ["[\"bar\", null, \"foo\"]"]);
    let runs = RunEndArray::try_new(
        Array::from(PrimitiveArray::<i32>::new(vec![2, 3])),
        strs(&[Some("x"), None]),
    )
    .unwrap();
    assert_eq!(show(runs.clone()), ["x", "x", "null"]);
    assert_eq!(show(runs.slice(1, 2)), ["x", "null"]);
}

#[test]
fn write_value_appends() {
    let a = i32s(&[Some(1), None]);
    let mut out = String::from(">");
    write_value(&mut out, &a, 0).unwrap();
    write_value(&mut out, &a, 1).unwrap();
    assert_eq!(out, ">1null");
}

fn sample_batches() -> Vec<RecordBatch> {
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int32, false),
        Field::new("name", DataType::Utf8, true),
        Field::new("score", DataType::Float64, true),
        Field::new("tags", DataType::list_of(DataType::Utf8), true),
    ]));
    let b1 = RecordBatch::try_new(
        schema.clone(),
        vec![
            i32s(&[Some(1), Some(22)]),
            strs(&[Some("joe"), None]),
            Array::from(PrimitiveArray::<f64>::new(vec![1.5, f64::NAN])),
            list_of(vec![0, 2, 2], strs(&[Some("a"), Some("b")]), None),
        ],
    )
    .unwrap();
    let b2 = RecordBatch::try_new(
        schema,
        vec![
            i32s(&[Some(333)]),
            strs(&[Some("ünï")]),
            Array::from(PrimitiveArray::<f64>::new(vec![-0.0])),
            list_of(vec![0, 0], strs(&[]), Some([false].into_iter().collect())),
        ],
    )
    .unwrap();
    vec![b1, b2]
}

#[test]
fn table_snapshot() {
    let expected = "\
+-----+------+-------+------------+
| id  | name | score | tags       |
+-----+------+-------+------------+
| 1   | joe  | 1.5   | [\"a\", \"b\"] |
| 22  | null | NaN   | []         |
| 333 | ünï  | -0.0  | null       |
+-----+------+-------+------------+
";
    assert_eq!(pretty_format_batches(&sample_batches()), expected);
    assert_eq!(pretty_format_batches(&[]), "");
}

#[test]
fn table_row_limit() {
    let opts = TableOptions {
        max_width: None,
        max_rows: Some(2),
    };
    let expected = "\
+----+------+-------+------------+
| id | name | score | tags       |
+----+------+-------+------------+
| 1  | joe  | 1.5   | [\"a\", \"b\"] |
| 22 | null | NaN   | []         |
+----+------+-------+------------+
… 1 more row
";
    assert_eq!(
        pretty_format_batches_with(&sample_batches(), &opts),
        expected
    );
}

#[test]
fn table_width_limit_truncates_widest_columns() {
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int32, false),
        Field::new("name", DataType::Utf8, true),
    ]));
    let batch = RecordBatch::try_new(
        schema,
        vec![
            i32s(&[Some(1), Some(22)]),
            strs(&[Some("a very long name indeed"), None]),
        ],
    )
    .unwrap();
    let opts = TableOptions {
        max_width: Some(22),
        max_rows: None,
    };
    let expected = "\
+----+---------------+
| id | name          |
+----+---------------+
| 1  | a very long … |
| 22 | null          |
+----+---------------+
";
    let out = pretty_format_batches_with(std::slice::from_ref(&batch), &opts);
    assert_eq!(out, expected);
    assert!(out.lines().all(|l| l.chars().count() <= 22));
    // Too narrow for both columns: the first is shown, then a marker and the names of the
    // columns left out.
    let opts = TableOptions {
        max_width: Some(12),
        max_rows: None,
    };
    let expected = "\
+----+---+
| id | … |
+----+---+
| 1  | … |
| 22 | … |
+----+---+
… 1 more co…
";
    assert_eq!(pretty_format_batches_with(&[batch], &opts), expected);
}

#[test]
fn columns_table_escapes_control_characters() {
    let a = strs(&[Some("line\nbreak"), None]);
    let b = strs(&[Some("tab\there")]);
    let expected = "\
+-------------+
| text        |
+-------------+
| line\\nbreak |
| null        |
| tab\\there   |
+-------------+
";
    assert_eq!(pretty_format_columns("text", &[a, b]), expected);
}

#[test]
fn table_writer_matches_the_one_shot_table() {
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int32, false),
        Field::new("name", DataType::Utf8, true),
        Field::new("a_long_column_name", DataType::Utf8, true),
    ]));
    let batch = |ids: &[Option<i32>], names: &[Option<&str>]| {
        RecordBatch::try_new(schema.clone(), vec![i32s(ids), strs(names), strs(names)]).unwrap()
    };
    let first = batch(
        &[Some(1), Some(22)],
        &[Some("a very long name indeed"), None],
    );
    for max_width in [None, Some(30), Some(14)] {
        let options = TableOptions {
            max_width,
            max_rows: None,
        };
        let mut w = TableWriter::new(&schema, options.clone());
        let streamed = w.write(std::slice::from_ref(&first)) + &w.finish();
        assert_eq!(
            streamed,
            pretty_format_batches_with(std::slice::from_ref(&first), &options),
            "{max_width:?}"
        );
    }
    // A later piece with wider cells widens the columns: the header is drawn again above
    // it and nothing is cut.
    let mut w = TableWriter::new(&schema, TableOptions::default());
    let mut text = w.write(&[batch(&[Some(1)], &[Some("ab")])]);
    text += &w.write(&[batch(&[Some(12345)], &[Some("abcdef")])]);
    text += &w.write(&[batch(&[Some(2)], &[Some("a")])]);
    text += &w.finish();
    assert_eq!(
        text,
        "\
+----+------+--------------------+
| id | name | a_long_column_name |
+----+------+--------------------+
| 1  | ab   | ab                 |
+-------+--------+--------------------+
| id    | name   | a_long_column_name |
+-------+--------+--------------------+
| 12345 | abcdef | abcdef             |
| 2     | a      | a                  |
+-------+--------+--------------------+
"
    );
    // No rows: the header alone.
    let w = TableWriter::new(&schema, TableOptions::default());
    assert_eq!(w.finish().lines().count(), 4);
}

fn one_string_column(name: &str) -> (Arc<Schema>, impl Fn(&[&str]) -> RecordBatch) {
    let schema = Arc::new(Schema::new(vec![Field::new(name, DataType::Utf8, true)]));
    let s2 = schema.clone();
    let batch = move |v: &[&str]| {
        let cells: Vec<Option<&str>> = v.iter().map(|s| Some(*s)).collect();
        RecordBatch::try_new(s2.clone(), vec![strs(&cells)]).unwrap()
    };
    (schema, batch)
}

#[test]
fn table_writer_never_cuts_without_a_width_limit() {
    let (schema, batch) = one_string_column("s");
    let long = "x".repeat(20_000);
    let mut w = TableWriter::new(&schema, TableOptions::default());
    let mut text = String::new();
    for _ in 0..10 {
        text += &w.write(&[batch(&["a"; 1000])]);
    }
    text += &w.write(&[batch(&[&long])]);
    text += &w.finish();
    assert!(!text.contains('…'), "nothing is cut");
    let last: Vec<&str> = text.lines().rev().take(2).collect();
    assert_eq!(last[1], format!("| {long} |"));
    assert_eq!(last[0], format!("+-{}-+", "-".repeat(20_000)));
}

#[test]
fn table_writer_in_a_width_widens_up_to_the_limit_then_marks_the_cut() {
    let (schema, batch) = one_string_column("s");
    let options = TableOptions {
        max_width: Some(16),
        max_rows: None,
    };
    let mut w = TableWriter::new(&schema, options);
    let mut text = w.write(&[batch(&["a"])]);
    text += &w.write(&[batch(&["abcdefgh"])]);
    text += &w.write(&[batch(&["abcdefghijklmnopqrstuvwxyz"])]);
    text += &w.finish();
    assert_eq!(
        text,
        "\
+---+
| s |
+---+
| a |
+----------+
| s        |
+----------+
| abcdefgh |
+--------------+
| s            |
+--------------+
| abcdefghijk… |
+--------------+
"
    );
}

/// The width of `line` in terminal cells, counted by an oracle written here: CJK ideographs,
/// fullwidth forms and the emoji used in the tests are 2 cells, combining marks 0.
fn cells(line: &str) -> usize {
    line.chars()
        .map(|c| match c {
            '\u{0300}'..='\u{036F}' => 0,
            '\u{4E00}'..='\u{9FFF}' | '\u{FF01}'..='\u{FF60}' | '\u{1F300}'..='\u{1FAFF}' => 2,
            _ => 1,
        })
        .sum()
}

#[test]
fn tables_count_terminal_cells() {
    let (schema, batch) = one_string_column("name");
    let rows = ["中文字符", "emoji 😀😀", "cafe\u{301}", "ＡＢ", "plain"];
    let table = pretty_format_batches(&[batch(&rows)]);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines[3], "| 中文字符   |");
    assert_eq!(lines[5], "| cafe\u{301}       |");
    assert!(
        lines.iter().all(|l| cells(l) == cells(lines[0])),
        "aligned:\n{table}"
    );
    // Cut at a cell boundary: a wide character that does not fit whole is left out and the
    // cell padded; a combining mark stays with its letter.
    for max_width in 6..14 {
        let options = TableOptions {
            max_width: Some(max_width),
            max_rows: None,
        };
        let mut w = TableWriter::new(&schema, options);
        let marks = "e\u{301}".repeat(12);
        let text = w.write(&[batch(&rows)]) + &w.write(&[batch(&["中文字符中文字符", &marks])]);
        let text = text + &w.finish();
        for l in text.lines().filter(|l| l.starts_with(['|', '+'])) {
            assert!(cells(l) <= max_width, "{max_width}: {l}");
        }
        for l in text.lines().filter(|l| l.starts_with('|')) {
            assert!(!l.contains("e…\u{301}"), "{l}");
            assert!(!l.starts_with("| \u{301}"), "{l}");
        }
        // Lines of one section (between header redraws) are equally wide.
        for section in text.split("\n+").filter(|s| s.contains('|')) {
            let widths: Vec<usize> = section
                .lines()
                .filter(|l| l.starts_with('|'))
                .map(cells)
                .collect();
            assert!(
                widths.windows(2).all(|p| p[0] == p[1]),
                "{max_width}:\n{text}"
            );
        }
    }
}

#[test]
fn narrow_tables_drop_columns_before_cutting_short_values() {
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int32, false),
        Field::new("day", DataType::Date32, true),
        Field::new("other", DataType::Date32, true),
    ]));
    let batch = RecordBatch::try_new(
        schema,
        vec![
            i32s(&[Some(1)]),
            Array::from(typed_i32(DataType::Date32, vec![19783])),
            Array::from(typed_i32(DataType::Date32, vec![19783])),
        ],
    )
    .unwrap();
    let options = TableOptions {
        max_width: Some(30),
        max_rows: None,
    };
    let text = pretty_format_batches_with(&[batch], &options);
    assert!(text.contains("| 2024-03-01 |"), "{text}");
    assert!(!text.contains("2024-03-…"), "{text}");
    assert!(text.contains("… 1 more column: other"), "{text}");
}

fn extension_field(name: &str, extension: &str, dt: DataType) -> Field {
    let m = [("ARROW:extension:name".to_string(), extension.to_string())].into();
    Field::new(name, dt, true).with_metadata(m)
}

#[test]
fn uuid_and_bool8_columns_show_their_values() {
    let bytes: Vec<u8> = (0u8..16).chain([0xff; 16]).collect();
    let uuids = Array::from(FixedSizeBinaryArray::try_new(16, 2, bytes.into(), None).unwrap());
    let flags = Array::from(PrimitiveArray::<i8>::from_options([Some(1), None]));
    let uuid = Arc::new(extension_field(
        "id",
        "arrow.uuid",
        DataType::FixedSizeBinary(16),
    ));
    let list = list_of(vec![0, 2, 2], uuids.clone(), None);
    let list = match list {
        Array::List(l) => Array::from(
            ListArray::try_new(uuid.clone(), l.offsets().clone(), uuids.clone(), None).unwrap(),
        ),
        _ => unreachable!(),
    };
    let schema = Arc::new(Schema::new(vec![
        (*uuid).clone(),
        extension_field("ok", "arrow.bool8", DataType::Int8),
        Field::new("ids", list.data_type().clone(), true),
        Field::new("raw", DataType::FixedSizeBinary(16), true),
    ]));
    let batch = RecordBatch::try_new(schema, vec![uuids.clone(), flags, list, uuids]).unwrap();
    let text = pretty_format_batches(&[batch]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[3],
        "| 00010203-0405-0607-0809-0a0b0c0d0e0f | true | [00010203-0405-0607-0809-0a0b0c0d0e0f, ffffffff-ffff-ffff-ffff-ffffffffffff] | 0x000102030405060708090a0b0c0d0e0f |"
    );
    assert!(lines[4].starts_with("| ffffffff-ffff-ffff-ffff-ffffffffffff | null | []"));
}
