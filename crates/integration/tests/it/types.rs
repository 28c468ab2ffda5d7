//! Every type of the format, built in memory (including those the gold files lack: views,
//! list views, run-end encoded, small decimals, month-day-nano intervals, half floats),
//! written and read back; sliced arrays; the JSON shapes of the newer layouts; writer errors.

use half::f16;
use quiver_arrow::buffer::OffsetBuffer;
use quiver_arrow::compute::first_difference;
use quiver_arrow::{
    Array, BinaryViewArray, BooleanArray, DataType, DictionaryArray, Error, Field, FieldRef,
    FixedSizeBinaryArray, FixedSizeListArray, I128, I256, IntegerType, IntervalUnit,
    LargeBinaryArray, LargeListArray, LargeListViewArray, LargeStringArray, ListArray,
    ListViewArray, MapArray, MonthDayNano, NullArray, PrimitiveArray, PrimitiveType, RecordBatch,
    RunEndArray, Schema, StringArray, StringViewArray, StructArray, TimeUnit, UnionArray,
    UnionFields, UnionMode, ValidationLevel,
};
use quiver_integration::{JsonFile, read_json, write_json};
use serde_json::{Value, json};
use std::sync::Arc;

fn prim<T: PrimitiveType>(dt: DataType, v: impl IntoIterator<Item = Option<T>>) -> Array {
    Array::from(PrimitiveArray::from_options(v).with_data_type(dt).unwrap())
}

fn field(name: &str, dt: DataType) -> FieldRef {
    Arc::new(Field::new(name, dt, true))
}

fn flat_columns() -> Vec<(&'static str, Array)> {
    let long = "a string longer than twelve bytes";
    vec![
        ("null", NullArray::new(4).into()),
        (
            "bool",
            BooleanArray::from_options([Some(true), None, Some(false), Some(true)]).into(),
        ),
        (
            "i8",
            prim::<i8>(DataType::Int8, [Some(-128), None, Some(127), Some(0)]),
        ),
        (
            "u64",
            prim::<u64>(
                DataType::UInt64,
                [Some(u64::MAX), None, Some(0), Some(1 << 53 | 1)],
            ),
        ),
        (
            "f16",
            prim(
                DataType::Float16,
                [
                    Some(f16::from_f32(1.5)),
                    None,
                    Some(f16::MAX),
                    Some(f16::NAN),
                ],
            ),
        ),
        (
            "f32",
            prim(
                DataType::Float32,
                [Some(1.1f32), Some(f32::INFINITY), None, Some(-0.0)],
            ),
        ),
        (
            "f64",
            prim(
                DataType::Float64,
                [Some(0.1), Some(f64::NEG_INFINITY), Some(1e300), None],
            ),
        ),
        (
            "d32",
            prim(
                DataType::Decimal32 {
                    precision: 9,
                    scale: 2,
                },
                [Some(-999_999_999i32), None, Some(1), Some(0)],
            ),
        ),
        (
            "d64",
            prim(
                DataType::Decimal64 {
                    precision: 18,
                    scale: -3,
                },
                [Some(i64::MIN), None, Some(7), Some(0)],
            ),
        ),
        (
            "d128",
            prim(
                DataType::Decimal128 {
                    precision: 38,
                    scale: 10,
                },
                [
                    Some(I128::from_i128(i128::MIN)),
                    None,
                    Some(I128::from_i128(5)),
                    Some(I128::default()),
                ],
            ),
        ),
        (
            "d256",
            prim(
                DataType::Decimal256 {
                    precision: 76,
                    scale: 0,
                },
                [
                    Some(I256([u64::MAX, u64::MAX, u64::MAX, i64::MAX as u64])),
                    Some(I256::from_i128(-3)),
                    None,
                    Some(I256::default()),
                ],
            ),
        ),
        (
            "date32",
            prim::<i32>(DataType::Date32, [Some(-719162), None, Some(0), Some(1)]),
        ),
        (
            "date64",
            prim::<i64>(DataType::Date64, [Some(86_400_001), None, Some(0), Some(1)]),
        ),
        (
            "time32",
            prim::<i32>(
                DataType::Time32(TimeUnit::Millisecond),
                [Some(1), None, Some(0), Some(86_399_999)],
            ),
        ),
        (
            "time64",
            prim::<i64>(
                DataType::Time64(TimeUnit::Nanosecond),
                [Some(1), None, Some(0), Some(2)],
            ),
        ),
        (
            "ts",
            prim::<i64>(
                DataType::Timestamp(TimeUnit::Microsecond, Some("Europe/Paris".into())),
                [Some(i64::MAX), None, Some(0), Some(-1)],
            ),
        ),
        (
            "ts_naive",
            prim::<i64>(
                DataType::Timestamp(TimeUnit::Second, None),
                [Some(1), None, Some(0), Some(-1)],
            ),
        ),
        (
            "dur",
            prim::<i64>(
                DataType::Duration(TimeUnit::Nanosecond),
                [Some(i64::MIN), None, Some(0), Some(3)],
            ),
        ),
        (
            "ym",
            prim::<i32>(
                DataType::Interval(IntervalUnit::YearMonth),
                [Some(-5), None, Some(0), Some(12)],
            ),
        ),
        (
            "mdn",
            prim(
                DataType::Interval(IntervalUnit::MonthDayNano),
                [
                    Some(MonthDayNano {
                        months: 1,
                        days: -2,
                        nanoseconds: i64::MAX,
                    }),
                    None,
                    Some(MonthDayNano::default()),
                    Some(MonthDayNano {
                        months: -1,
                        days: 0,
                        nanoseconds: -1,
                    }),
                ],
            ),
        ),
        (
            "bin",
            Array::from(quiver_arrow::BinaryArray::from_options([
                Some(&b"\x00\xff"[..]),
                None,
                Some(b""),
                Some(b"abc"),
            ])),
        ),
        (
            "lbin",
            Array::from(LargeBinaryArray::from_options([
                Some(&b"x"[..]),
                None,
                Some(b""),
                Some(b"yz"),
            ])),
        ),
        (
            "utf8",
            Array::from(StringArray::from_options([
                Some("héllo"),
                None,
                Some(""),
                Some("\"quoted\"\n"),
            ])),
        ),
        (
            "lutf8",
            Array::from(LargeStringArray::from_options([
                Some("a"),
                None,
                Some("矢"),
                Some(""),
            ])),
        ),
        (
            "fsb",
            Array::from(
                FixedSizeBinaryArray::try_new(
                    3,
                    4,
                    vec![1u8, 2, 3, 0, 0, 0, 7, 8, 9, 10, 11, 12].into(),
                    Some([true, false, true, true].into_iter().collect()),
                )
                .unwrap(),
            ),
        ),
        (
            "binview",
            Array::from(BinaryViewArray::from_options([
                Some(long.as_bytes()),
                None,
                Some(b"short"),
                Some(b"another value over 12"),
            ])),
        ),
        (
            "utf8view",
            Array::from(StringViewArray::from_options([
                Some("tiny"),
                Some(long),
                None,
                Some("€ twelve bytes or more"),
            ])),
        ),
    ]
}

fn nested_columns() -> Vec<(&'static str, Array)> {
    let item = field("item", DataType::Int32);
    let ints = prim::<i32>(
        DataType::Int32,
        [
            Some(1),
            None,
            Some(3),
            Some(4),
            Some(5),
            Some(6),
            Some(7),
            Some(8),
        ],
    );
    let list = ListArray::try_new(
        item.clone(),
        OffsetBuffer::try_new(vec![0, 2, 2, 5, 8].into()).unwrap(),
        ints.clone(),
        Some([true, false, true, true].into_iter().collect()),
    )
    .unwrap();
    let large_list = LargeListArray::try_new(
        item.clone(),
        OffsetBuffer::try_new(vec![1i64, 2, 2, 5, 6].into()).unwrap(),
        ints.clone(),
        None,
    )
    .unwrap();
    let list_view = ListViewArray::try_new(
        item.clone(),
        vec![4, 7, 0, 0].into(),
        vec![3, 0, 4, 0].into(),
        ints.clone(),
        Some([true, true, true, false].into_iter().collect()),
    )
    .unwrap();
    let large_list_view = LargeListViewArray::try_new(
        item.clone(),
        vec![0i64, 1, 2, 3].into(),
        vec![5i64, 5, 5, 5].into(),
        ints.clone(),
        None,
    )
    .unwrap();
    let fsl = FixedSizeListArray::try_new(
        item.clone(),
        2,
        4,
        ints.clone(),
        Some([true, true, false, true].into_iter().collect()),
    )
    .unwrap();
    let struct_fields = vec![field("s", DataType::Utf8), field("b", DataType::Boolean)];
    let strukt = StructArray::try_new(
        struct_fields.clone().into(),
        4,
        vec![
            Array::from(StringArray::from_options([
                Some("a"),
                None,
                Some("c"),
                Some("d"),
            ])),
            Array::from(BooleanArray::from_options([
                None,
                Some(true),
                Some(false),
                Some(true),
            ])),
        ],
        Some([true, true, false, true].into_iter().collect()),
    )
    .unwrap();
    vec![
        ("list", list.into()),
        ("large_list", large_list.into()),
        ("list_view", list_view.into()),
        ("large_list_view", large_list_view.into()),
        ("fixed_size_list", fsl.into()),
        ("struct", strukt.into()),
        ("map", map_column()),
        ("sparse_union", union_column(UnionMode::Sparse)),
        ("dense_union", union_column(UnionMode::Dense)),
        (
            "ree16",
            ree(prim::<i16>(DataType::Int16, [Some(1), Some(3), Some(4)])),
        ),
        (
            "ree64",
            ree(prim::<i64>(DataType::Int64, [Some(2), Some(3), Some(4)])),
        ),
    ]
}

fn map_column() -> Array {
    let kv = vec![
        Arc::new(Field::new("key", DataType::Utf8, false)),
        field("value", DataType::Int64),
    ];
    let entries_field = Arc::new(Field::new(
        "entries",
        DataType::Struct(kv.clone().into()),
        false,
    ));
    let entries = StructArray::try_new(
        kv.into(),
        3,
        vec![
            Array::from(StringArray::from_options([Some("a"), Some("b"), Some("a")])),
            prim::<i64>(DataType::Int64, [Some(1), None, Some(3)]),
        ],
        None,
    )
    .unwrap();
    let offsets = OffsetBuffer::try_new(vec![0, 2, 2, 2, 3].into()).unwrap();
    MapArray::try_new(
        entries_field,
        true,
        offsets,
        entries,
        Some([true, false, true, true].into_iter().collect()),
    )
    .unwrap()
    .into()
}

fn union_column(mode: UnionMode) -> Array {
    let fields = UnionFields::try_new(
        vec![3i8, 9],
        vec![field("i", DataType::Int32), field("s", DataType::Utf8)],
    )
    .unwrap();
    let (ints, strs, offsets) = match mode {
        UnionMode::Sparse => (
            prim::<i32>(DataType::Int32, [Some(1), Some(99), None, Some(4)]),
            StringArray::from_options([Some("unused"), Some("b"), Some("c"), None]),
            None,
        ),
        UnionMode::Dense => (
            prim::<i32>(DataType::Int32, [Some(1), None]),
            StringArray::from_options([Some("b"), Some("c")]),
            Some(vec![0, 0, 1, 1].into()),
        ),
    };
    let ids = match mode {
        UnionMode::Sparse => vec![3i8, 9, 3, 9],
        UnionMode::Dense => vec![3, 9, 3, 9],
    };
    UnionArray::try_new(fields, mode, ids.into(), offsets, vec![ints, strs.into()])
        .unwrap()
        .into()
}

fn ree(run_ends: Array) -> Array {
    let values = Array::from(StringArray::from_options([Some("x"), None, Some("z")]));
    RunEndArray::try_new(run_ends, values).unwrap().into()
}

fn dictionary_columns() -> Vec<(&'static str, Array)> {
    let values = Array::from(StringArray::from_options([Some("foo"), None, Some("bar")]));
    let keys = prim::<u16>(DataType::UInt16, [Some(2), None, Some(0), Some(1)]);
    let dict = DictionaryArray::try_new(keys, values, true).unwrap();
    let item = Field::new("item", dict.data_type().clone(), true);
    let list = ListArray::try_new(
        item.into(),
        OffsetBuffer::try_new(vec![0, 1, 1, 3, 4].into()).unwrap(),
        dict.clone().into(),
        None,
    )
    .unwrap();
    vec![("dict", dict.into()), ("list_of_dict", list.into())]
}

fn batch_of(columns: Vec<(&'static str, Array)>) -> RecordBatch {
    let fields: Vec<Field> = columns
        .iter()
        .map(|(n, a)| Field::new(*n, a.data_type().clone(), true))
        .collect();
    let arrays = columns.into_iter().map(|(_, a)| a).collect();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays).unwrap()
}

fn check_round_trip(batches: Vec<RecordBatch>) -> JsonFile {
    let schema = batches[0].schema().clone();
    let file = JsonFile::new(schema.clone(), batches);
    let text = write_json(&file).unwrap();
    let back = read_json(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.schema, schema);
    assert_eq!(back.batches.len(), file.batches.len());
    for (a, b) in file.batches.iter().zip(&back.batches) {
        b.validate(ValidationLevel::Full).unwrap();
        for (f, (x, y)) in schema
            .fields
            .iter()
            .zip(a.columns().iter().zip(b.columns()))
        {
            if let Some(d) = first_difference(x, y) {
                panic!("column {}: {d}", f.name());
            }
        }
    }
    assert_eq!(write_json(&back).unwrap(), text, "writing is stable");
    back
}

#[test]
fn every_flat_type_round_trips() {
    check_round_trip(vec![batch_of(flat_columns())]);
}

#[test]
fn every_nested_type_round_trips() {
    check_round_trip(vec![batch_of(nested_columns())]);
}

#[test]
fn dictionaries_round_trip_with_assigned_ids() {
    let b = batch_of(dictionary_columns());
    let back = check_round_trip(vec![b.clone(), b]);
    let ids: Vec<_> = back
        .dictionaries
        .ids
        .iter()
        .map(|(p, id)| (p.clone(), *id))
        .collect();
    assert_eq!(ids, [(vec![0], 0), (vec![1, 0], 1)]);
    assert_eq!(back.dictionaries.values.len(), 2);
}

#[test]
fn sliced_arrays_round_trip() {
    let mut columns = flat_columns();
    columns.extend(nested_columns());
    columns.extend(dictionary_columns());
    let b = batch_of(columns);
    for (offset, len) in [(1, 3), (2, 1), (3, 1), (4, 0), (0, 4)] {
        check_round_trip(vec![b.slice(offset, len)]);
    }
}

#[test]
fn zero_columns_and_no_batches() {
    let empty =
        RecordBatch::try_new_with_rows(Arc::new(Schema::new(Vec::<Field>::new())), vec![], 5)
            .unwrap();
    let file = JsonFile::new(empty.schema().clone(), vec![empty]);
    let back = read_json(write_json(&file).unwrap().as_bytes()).unwrap();
    assert_eq!(back.batches[0].num_rows(), 5);
    let schema = batch_of(flat_columns()).schema().clone();
    let back = read_json(
        write_json(&JsonFile::new(schema.clone(), vec![]))
            .unwrap()
            .as_bytes(),
    )
    .unwrap();
    assert_eq!(back.schema, schema);
    assert!(back.batches.is_empty());
}

/// The JSON written for a one-column batch holding `a`: (field, column).
fn written(a: Array) -> (Value, Value) {
    let b = batch_of(vec![("c", a)]);
    let text = write_json(&JsonFile::new(b.schema().clone(), vec![b])).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    (
        v["schema"]["fields"][0].clone(),
        v["batches"][0]["columns"][0].clone(),
    )
}

#[test]
fn view_json_shape() {
    let long = "a string longer than twelve bytes";
    let (field, column) =
        written(StringViewArray::from_options([Some("tiny"), None, Some(long)]).into());
    assert_eq!(
        field,
        json!({"name": "c", "type": {"name": "utf8view"}, "nullable": true, "children": []})
    );
    let hex: String = long.bytes().map(|b| format!("{b:02X}")).collect();
    assert_eq!(
        column,
        json!({"name": "c", "count": 3, "VALIDITY": [1, 0, 1], "VIEWS": [
            {"SIZE": 4, "INLINED": "tiny"},
            {"SIZE": 0, "INLINED": ""},
            {"SIZE": 33, "PREFIX_HEX": "61207374", "BUFFER_INDEX": 0, "OFFSET": 0}],
            "VARIADIC_DATA_BUFFERS": [hex]})
    );
    let (_, column) = written(BinaryViewArray::from_options([Some(&b"\x01\xab"[..])]).into());
    assert_eq!(column["VIEWS"], json!([{"SIZE": 2, "INLINED": "01AB"}]));
}

#[test]
fn list_view_and_run_end_json_shape() {
    let item = field("item", DataType::Int8);
    let values = prim::<i8>(DataType::Int8, [Some(1), Some(2)]);
    let lv = LargeListViewArray::try_new(
        item,
        vec![1i64, 0].into(),
        vec![1i64, 2].into(),
        values,
        None,
    )
    .unwrap();
    let (field, column) = written(lv.into());
    assert_eq!(field["type"], json!({"name": "largelistview"}));
    assert_eq!(column["OFFSET"], json!(["1", "0"]));
    assert_eq!(column["SIZE"], json!(["1", "2"]));
    assert_eq!(column["children"][0]["DATA"], json!([1, 2]));

    // Runs [x, null, null, z] sliced to its middle two slots: one run of two nulls.
    let r = ree(prim::<i32>(DataType::Int32, [Some(1), Some(3), Some(4)]));
    let (field, column) = written(r.slice(1, 2));
    assert_eq!(field["type"], json!({"name": "runendencoded"}));
    assert_eq!(
        field["children"][0],
        json!({"name": "run_ends", "type": {"name": "int", "isSigned": true, "bitWidth": 32}, "nullable": false, "children": []})
    );
    assert_eq!(
        column,
        json!({"name": "c", "count": 2, "children": [
            {"name": "run_ends", "count": 1, "VALIDITY": [1], "DATA": [2]},
            {"name": "values", "count": 1, "VALIDITY": [0], "OFFSET": [0, 0], "DATA": [""]}]})
    );
}

#[test]
fn value_encodings() {
    let (_, c) = written(prim(
        DataType::Float16,
        [Some(f16::from_f32(1.5)), Some(f16::INFINITY)],
    ));
    assert_eq!(
        c["DATA"],
        json!([0x3E00, 0x7C00]),
        "half floats as their bits, as Arrow C++ writes"
    );
    let (_, c) = written(prim(
        DataType::Float32,
        [Some(641.818f32), Some(f32::NAN), Some(f32::NEG_INFINITY)],
    ));
    assert_eq!(c["DATA"], json!([641.818, "NaN", "-Infinity"]));
    let (f, c) = written(prim(
        DataType::Decimal32 {
            precision: 5,
            scale: 1,
        },
        [Some(-12345i32)],
    ));
    assert_eq!(
        f["type"],
        json!({"name": "decimal", "precision": 5, "scale": 1, "bitWidth": 32})
    );
    assert_eq!(c["DATA"], json!(["-12345"]));
    let mdn = MonthDayNano {
        months: 1,
        days: 2,
        nanoseconds: -3,
    };
    let (f, c) = written(prim(
        DataType::Interval(IntervalUnit::MonthDayNano),
        [Some(mdn)],
    ));
    assert_eq!(
        f["type"],
        json!({"name": "interval", "unit": "MONTH_DAY_NANO"})
    );
    assert_eq!(
        c["DATA"],
        json!([{"months": 1, "days": 2, "nanoseconds": -3}])
    );
    let (f, c) = written(prim::<i64>(
        DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into())),
        [Some(-1)],
    ));
    assert_eq!(
        f["type"],
        json!({"name": "timestamp", "unit": "NANOSECOND", "timezone": "UTC"})
    );
    assert_eq!(c["DATA"], json!(["-1"]));
    let (f, c) = written(dictionary_columns().swap_remove(0).1);
    assert_eq!(
        f,
        json!({"name": "c", "type": {"name": "utf8"}, "nullable": true, "children": [],
        "dictionary": {"id": 0, "indexType": {"name": "int", "isSigned": false, "bitWidth": 16}, "isOrdered": true}})
    );
    assert_eq!(
        c,
        json!({"name": "c", "count": 4, "VALIDITY": [1, 0, 1, 1], "DATA": [2, 0, 0, 1]})
    );
}

/// A file of the newer layouts written by hand from the spec, not by quiver's writer.
pub(crate) const NEWER_LAYOUTS: &str = r#"{"schema": {"fields": [
  {"name": "v", "type": {"name": "binaryview"}, "nullable": true, "children": []},
  {"name": "lv", "type": {"name": "largelistview"}, "nullable": true, "children": [
    {"name": "item", "type": {"name": "int", "isSigned": true, "bitWidth": 8}, "nullable": true, "children": []}]},
  {"name": "r", "type": {"name": "runendencoded"}, "nullable": true, "children": [
    {"name": "run_ends", "type": {"name": "int", "isSigned": true, "bitWidth": 32}, "nullable": false, "children": []},
    {"name": "values", "type": {"name": "utf8"}, "nullable": true, "children": []}]},
  {"name": "h", "type": {"name": "floatingpoint", "precision": "HALF"}, "nullable": true, "children": []}]},
 "batches": [{"count": 3, "columns": [
  {"name": "v", "count": 3, "VALIDITY": [1, 0, 1], "VIEWS": [
    {"SIZE": 3, "INLINED": "414243"}, {"SIZE": 0, "INLINED": ""},
    {"SIZE": 14, "PREFIX_HEX": "30313233", "BUFFER_INDEX": 1, "OFFSET": 2}],
   "VARIADIC_DATA_BUFFERS": ["", "FFFF3031323334353637383930313233"]},
  {"name": "lv", "count": 3, "VALIDITY": [1, 1, 0], "OFFSET": ["2", "0", "0"], "SIZE": ["2", "1", "0"],
   "children": [{"name": "item", "count": 4, "VALIDITY": [1, 1, 1, 1], "DATA": [1, 2, 3, 4]}]},
  {"name": "r", "count": 3, "children": [
    {"name": "run_ends", "count": 2, "VALIDITY": [1, 1], "DATA": [1, 3]},
    {"name": "values", "count": 2, "VALIDITY": [1, 0], "OFFSET": [0, 1, 1], "DATA": ["a", ""]}]},
  {"name": "h", "count": 3, "VALIDITY": [1, 1, 1], "DATA": [15872, 1.5, "-Infinity"]}]}]}"#;

#[test]
fn newer_layouts_from_hand_written_json() {
    let f = read_json(NEWER_LAYOUTS.as_bytes()).unwrap();
    let b = &f.batches[0];
    b.validate(ValidationLevel::Full).unwrap();
    let v = b.column(0).as_binary_view().unwrap();
    assert_eq!(
        v.iter().collect::<Vec<_>>(),
        [Some(&b"ABC"[..]), None, Some(b"01234567890123")]
    );
    let lv = b.column(1).as_large_list_view().unwrap();
    let firsts: Vec<_> = (0..3).map(|i| lv.get(i).map(|l| l.len())).collect();
    assert_eq!(firsts, [Some(2), Some(1), None]);
    assert_eq!(
        lv.value(0).as_primitive::<i8>().unwrap().values()[..],
        [3, 4]
    );
    let r = b.column(2).as_run_end_encoded().unwrap();
    let strs: Vec<_> = (0..3)
        .map(|i| r.value(i).as_utf8().unwrap().get(0).map(str::to_string))
        .collect();
    assert_eq!(strs, [Some("a".to_string()), None, None]);
    let h = b.column(3).as_primitive::<f16>().unwrap();
    assert_eq!(
        h.values()[..],
        [f16::from_f32(1.5), f16::from_f32(1.5), f16::NEG_INFINITY]
    );
}

/// Forms other writers produce (or the spec's text shows) that quiver reads but does not write.
pub(crate) const LENIENT_FORMS: &str = r#"{"schema": {"fields": [
  {"name": "d", "type": {"name": "decimal256", "precision": 5, "scale": 1}, "nullable": true, "children": [], "metadata": {"k": "v"}},
  {"name": "b", "type": {"name": "bool"}, "nullable": true, "children": []},
  {"name": "i", "type": {"name": "int", "isSigned": true, "bitWidth": 64}, "nullable": true, "children": []},
  {"name": "s", "type": {"name": "utf8"}, "nullable": true, "children": [],
   "dictionary": {"id": 3, "indexType": {"name": "int", "isSigned": true, "bitWidth": 8}}},
  {"name": "u", "type": {"name": "union", "mode": "DENSE"}, "nullable": true, "children": [
    {"name": "a", "type": {"name": "null"}, "nullable": true, "children": []}]},
  {"name": "bin", "type": {"name": "binary"}, "nullable": true, "children": []}]},
 "dictionaries": [{"id": 3, "data": [{"count": 1, "columns": [
    {"name": "anything", "count": 1, "VALIDITY": [1], "OFFSET": [0, 2], "DATA": ["hi"]}]}]}],
 "batches": [{"count": 2, "columns": [
  {"name": "d", "count": 2, "VALIDITY": [1, 0], "DATA": ["-12345", 7]},
  {"name": "b", "count": 2, "DATA": [1, false]},
  {"name": "i", "count": 2, "VALIDITY": [true, true], "DATA": [-5, "6"]},
  {"name": "s", "count": 2, "VALIDITY": [1, 0], "DATA": [0, 0]},
  {"name": "u", "count": 2, "TYPE_ID": [0, 0], "OFFSET": [0, 1], "children": [{"name": "a", "count": 2}]},
  {"name": "bin", "count": 2, "VALIDITY": [0, 1], "OFFSET": [0, 3, 4], "DATA": ["", "FF"]}]}]}"#;

#[test]
fn lenient_forms_are_read() {
    let f = read_json(LENIENT_FORMS.as_bytes()).unwrap();
    let b = &f.batches[0];
    b.validate(ValidationLevel::Full).unwrap();
    assert_eq!(
        b.column(0).data_type(),
        &DataType::Decimal256 {
            precision: 5,
            scale: 1
        }
    );
    assert_eq!(
        f.schema.fields[0].metadata().get("k").map(String::as_str),
        Some("v")
    );
    let d = b.column(0).as_primitive::<I256>().unwrap();
    assert_eq!(
        (d.get(0), d.value(1)),
        (Some(I256::from_i128(-12345)), I256::from_i128(7))
    );
    let bools = b.column(1).as_boolean().unwrap();
    assert_eq!(bools.iter().collect::<Vec<_>>(), [Some(true), Some(false)]);
    assert_eq!(
        b.column(2).as_primitive::<i64>().unwrap().values()[..],
        [-5, 6]
    );
    assert_eq!(f.dictionaries.ids, [(vec![3], 3)].into());
    let s = b.column(3).as_dictionary().unwrap();
    assert_eq!(s.value(0).unwrap().as_utf8().unwrap().value(0), "hi");
    let DataType::Union(u, UnionMode::Dense) = b.column(4).data_type() else {
        panic!("not a dense union")
    };
    assert_eq!(u.type_ids(), [0]);
    // A null written as "" over a non-empty OFFSET range becomes an empty null slot.
    let bin = b.column(5).as_binary().unwrap();
    assert_eq!(bin.offsets().as_slice(), [0, 0, 1]);
    assert_eq!(bin.get(1), Some(&[0xFF][..]));
}

#[test]
fn given_dictionary_values_are_written_without_batches() {
    let b = dict_batch(&["foo", "bar"]);
    let mut file = JsonFile::new(b.schema().clone(), vec![]);
    let values = b.column(0).as_dictionary().unwrap().values().clone();
    file.dictionaries.values.insert(0, values.clone());
    let back = read_json(write_json(&file).unwrap().as_bytes()).unwrap();
    assert!(*back.dictionaries.values[&0] == *values);
    // Values of another type than the fields' are refused.
    let wrong = Arc::new(prim::<i8>(DataType::Int8, [Some(1)]));
    file.dictionaries.values.insert(0, wrong);
    let e = write_json(&file).unwrap_err();
    assert!(
        e.to_string()
            .contains("dictionary 0 holds Int8 values but its fields want Utf8"),
        "{e}"
    );
}

fn dict_batch(values: &[&str]) -> RecordBatch {
    let values = Array::from(StringArray::from_options(values.iter().map(|s| Some(*s))));
    let keys = prim::<i8>(DataType::Int8, [Some(0)]);
    batch_of(vec![(
        "d",
        DictionaryArray::try_new(keys, values, false)
            .unwrap()
            .into(),
    )])
}

#[test]
fn writer_errors() {
    // One id, two dictionaries: the format cannot say which batch uses which.
    let (a, b) = (dict_batch(&["foo", "bar"]), dict_batch(&["baz"]));
    let e = write_json(&JsonFile::new(a.schema().clone(), vec![a.clone(), b])).unwrap_err();
    assert!(matches!(e, Error::InvalidArgument { .. }), "{e}");
    assert!(
        e.to_string()
            .contains("batch 1, column 0: dictionary 0 has different values"),
        "{e}"
    );
    // Equal dictionaries in separate arrays are fine.
    write_json(&JsonFile::new(
        a.schema().clone(),
        vec![a.clone(), dict_batch(&["foo", "bar"])],
    ))
    .unwrap();
    // An id for a field that is not dictionary-encoded.
    let mut file = JsonFile::new(a.schema().clone(), vec![a.clone()]);
    file.dictionaries.ids.insert(vec![3], 0);
    let e = write_json(&file).unwrap_err();
    assert!(
        e.to_string()
            .contains("field path [3], which is not dictionary-encoded"),
        "{e}"
    );
    // Given ids are kept.
    file.dictionaries.ids = [(vec![0], 42)].into();
    let back = read_json(write_json(&file).unwrap().as_bytes()).unwrap();
    assert_eq!(back.dictionaries.ids, [(vec![0], 42)].into());
    // A dictionary of dictionaries has no JSON (nor IPC) form.
    let inner = DataType::dictionary(IntegerType::Int8, DataType::Utf8);
    let nested = DataType::dictionary(IntegerType::Int8, inner);
    let schema = Arc::new(Schema::new(vec![Field::new("dd", nested, true)]));
    let e = write_json(&JsonFile::new(schema, vec![])).unwrap_err();
    assert!(matches!(e, Error::NotSupported { .. }), "{e}");
    // Batches must have the file's fields.
    let other = batch_of(vec![("x", prim::<i8>(DataType::Int8, [Some(1)]))]);
    let e = write_json(&JsonFile::new(a.schema().clone(), vec![other])).unwrap_err();
    assert!(e.to_string().contains("batch 0 has other fields"), "{e}");
}
