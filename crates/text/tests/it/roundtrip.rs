//! Writer → reader round trips with the batch's own schema.

use crate::util::*;
use proptest::prelude::*;
use quiver_arrow::{Array, DataType, IntegerType, PrimitiveArray, RecordBatch};
use quiver_text::csv::CsvReadOptions;
use quiver_text::json::JsonFormat;
use quiver_text::parse_data_type;
use std::sync::Arc;

fn nested_columns() -> Vec<(&'static str, Array)> {
    let t = |s: &str| parse_data_type(s).unwrap();
    vec![
        (
            "list",
            built_json(
                &t("list<int32>"),
                &["[1,null,3]", "[]", "null", "[-1]", "[]"],
            ),
        ),
        (
            "large_list",
            built_json(
                &t("large_list<item: string not null>"),
                &[
                    "[\"a\",\"\"]",
                    "[]",
                    "null",
                    "[\"\\n\\t\\u0001\"]",
                    "[\"x\"]",
                ],
            ),
        ),
        (
            "fsl",
            built_json(
                &t("fixed_size_list<item: int16>[2]"),
                &["[1,2]", "[null,3]", "null", "[0,0]", "[5,6]"],
            ),
        ),
        (
            "struct",
            built_json(
                &t("struct<a: int32, b: list<item: string>, c: struct<d: bool>>"),
                &[
                    r#"{"a":1,"b":["x",null],"c":{"d":true}}"#,
                    r#"{"a":null,"b":null,"c":null}"#,
                    "null",
                    r#"{"a":2,"b":[],"c":{"d":null}}"#,
                    r#"{}"#,
                ],
            ),
        ),
        (
            "map_s",
            built_json(
                &t("map<string, int64>"),
                &[
                    r#"{"k":1,"j":null}"#,
                    "{}",
                    "null",
                    r#"{"é\"":-5}"#,
                    r#"{"k":2}"#,
                ],
            ),
        ),
        (
            "map_i",
            built_json(
                &t("map<int32, string>"),
                &[
                    r#"[{"key":1,"value":"a"},{"key":2,"value":null}]"#,
                    "[]",
                    "null",
                    r#"{"7":"x"}"#,
                    "[]",
                ],
            ),
        ),
        (
            "list_dec",
            built_json(
                &t("list<decimal128(10, 3)>"),
                &["[\"1.5\", 2.25, null]", "[]", "null", "[\"-0.001\"]", "[]"],
            ),
        ),
        (
            "empty_str",
            built_json(
                &DataType::Utf8,
                &[
                    "\"\"",
                    "\"\\\"\"",
                    "null",
                    "\"\\u0000\"",
                    "\"\\ud83d\\ude00\"",
                ],
            ),
        ),
        (
            "null",
            built_json(&DataType::Null, &["null", "null", "null", "null", "null"]),
        ),
        (
            "dict_bin",
            built_json(
                &DataType::dictionary(IntegerType::Int16, DataType::Binary),
                &["\"00ff\"", "\"\"", "null", "\"00ff\"", "\"01\""],
            ),
        ),
    ]
}

fn all_columns_batch() -> RecordBatch {
    let mut cols = flat_columns();
    cols.extend(nested_columns());
    batch_of(cols)
}

#[test]
fn json_lines_round_trip_every_type() {
    let batch = all_columns_batch();
    for b in [
        batch.clone(),
        batch.slice(1, 3),
        batch.slice(4, 1),
        batch.slice(2, 0),
    ] {
        let text = write_json(std::slice::from_ref(&b), JsonFormat::Lines);
        let back = read_json(&text, Some(b.schema().clone())).unwrap();
        assert_same(&b, &back);
        for line in text.split(|&c| c == b'\n').filter(|l| !l.is_empty()) {
            serde_json::from_slice::<serde_json::Value>(line).expect("valid JSON");
        }
    }
}

#[test]
fn json_array_format_is_valid_json() {
    let batch = all_columns_batch();
    let text = write_json(&[batch.clone(), batch.slice(1, 2)], JsonFormat::Array);
    let v: serde_json::Value = serde_json::from_slice(&text).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 7);
    let empty = write_json(&[batch.slice(0, 0)], JsonFormat::Array);
    assert_eq!(empty, b"[]\n");
    let one = write_json(
        &[batch_of(vec![(
            "a",
            prim::<i32>(DataType::Int32, [Some(1)]),
        )])],
        JsonFormat::Array,
    );
    assert_eq!(String::from_utf8(one).unwrap(), "[{\"a\":1}]\n");
}

#[test]
fn json_writes_documented_forms() {
    let batch = batch_of(flat_columns()).slice(0, 1);
    let text = String::from_utf8(write_json(&[batch], JsonFormat::Lines)).unwrap();
    for want in [
        "\"i64\":-9223372036854775808",
        "\"f16\":0.1",
        "\"f64\":0.1",
        "\"bin\":\"00ff\"",
        "\"date32\":\"2020-01-31\"",
        "\"ts_us_utc\":\"1970-01-01 00:00:00.000000+00:00\"",
        "\"ts_ms_paris\":\"1970-01-01 01:00:00.000+01:00\"",
        "\"ts_ns_off\":\"1970-01-01 02:00:00.000000000+02:00\"",
        "\"dur\":0",
        "\"dec32\":\"-123.45\"",
        "\"dec64\":\"-1234500\"",
        "\"ym\":\"1y2m\"",
        "\"dict\":\"a\"",
    ] {
        assert!(text.contains(want), "{want} not in {text}");
    }
    let nan = batch_of(flat_columns()).slice(3, 1);
    let text =
        String::from_utf8(write_json(std::slice::from_ref(&nan), JsonFormat::Lines)).unwrap();
    assert!(
        text.contains("\"f64\":\"inf\"") && text.contains("\"f32\":\"NaN\""),
        "{text}"
    );
    let mut w = quiver_text::json::JsonWriter::try_new(Vec::new(), nan.schema(), JsonFormat::Lines)
        .unwrap();
    w.write(&nan).unwrap();
    let text = String::from_utf8(w.finish().unwrap()).unwrap();
    assert!(
        text.contains("\"f64\":null") && text.contains("\"f32\":null"),
        "{text}"
    );
}

#[test]
fn json_writes_unions_run_ends_and_list_views() {
    use quiver_arrow::builder::make_builder;
    let dt = parse_data_type("run_end_encoded<run_ends: int32 not null, values: string>").unwrap();
    let mut b = make_builder(&dt, 4).unwrap();
    let r = b.as_run_end_mut().unwrap();
    r.append_str("x").unwrap();
    r.append_str("x").unwrap();
    r.append_null().unwrap();
    let ree = b.finish();
    let batch = batch_of(vec![("r", ree)]);
    let text =
        String::from_utf8(write_json(std::slice::from_ref(&batch), JsonFormat::Lines)).unwrap();
    assert_eq!(text, "{\"r\":\"x\"}\n{\"r\":\"x\"}\n{\"r\":null}\n");
    let e = read_json(text.as_bytes(), Some(batch.schema().clone())).unwrap_err();
    assert!(e.to_string().contains("not supported"), "{e}");
}

#[test]
fn csv_round_trip_flat_types() {
    let batch = batch_of(flat_columns());
    for b in [batch.clone(), batch.slice(1, 4), batch.slice(3, 1)] {
        let text = write_csv(std::slice::from_ref(&b));
        let options = CsvReadOptions::default().with_schema(b.schema().clone());
        let back = read_csv(&text, options).unwrap();
        assert_same(&b, &back);
    }
}

#[test]
fn csv_batches_are_bounded() {
    let values: Vec<Option<i64>> = (0..1000).map(Some).collect();
    let batch = batch_of(vec![("n", prim::<i64>(DataType::Int64, values))]);
    let text = write_csv(std::slice::from_ref(&batch));
    let options = CsvReadOptions::default()
        .with_batch_size(300)
        .with_infer_rows(10);
    let back = read_csv(&text, options).unwrap();
    assert_eq!(
        back.iter().map(|b| b.num_rows()).collect::<Vec<_>>(),
        [300, 300, 300, 100]
    );
    assert_same(&batch, &back);
}

#[test]
fn json_batches_are_bounded() {
    let batch = all_columns_batch();
    let many: Vec<RecordBatch> = (0..7).map(|_| batch.clone()).collect();
    let text = write_json(&many, JsonFormat::Lines);
    let mut options = quiver_text::json::JsonReadOptions::default().with_batch_size(4);
    options.schema = Some(batch.schema().clone());
    let back: Vec<RecordBatch> = quiver_text::json::JsonReader::try_new(&text[..], options)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(back.len(), 9);
    assert!(back.iter().all(|b| b.num_rows() <= 4));
}

type Columns = (
    Vec<Option<i64>>,
    Vec<Option<f64>>,
    Vec<Option<String>>,
    Vec<Option<i32>>,
);

fn flat_strategy() -> impl Strategy<Value = Columns> {
    (1usize..40).prop_flat_map(|n| {
        (
            proptest::collection::vec(proptest::option::of(any::<i64>()), n),
            proptest::collection::vec(proptest::option::of(any::<f64>()), n),
            proptest::collection::vec(proptest::option::of("[^\u{0}]{0,12}"), n),
            proptest::collection::vec(proptest::option::of(-1_000_000i32..1_000_000), n),
        )
    })
}

fn random_batch(
    ints: Vec<Option<i64>>,
    floats: Vec<Option<f64>>,
    strings: Vec<Option<String>>,
    dates: Vec<Option<i32>>,
) -> RecordBatch {
    // NaN payloads other than the canonical one do not survive text; normalise them.
    let floats = floats
        .into_iter()
        .map(|f| f.map(|x| if x.is_nan() { f64::NAN } else { x }));
    let strings: Vec<Option<&str>> = strings.iter().map(|s| s.as_deref()).collect();
    batch_of(vec![
        ("i", prim::<i64>(DataType::Int64, ints)),
        ("f", prim::<f64>(DataType::Float64, floats)),
        (
            "s",
            Array::from(quiver_arrow::StringArray::from_options(strings)),
        ),
        (
            "d",
            Array::from(
                PrimitiveArray::<i32>::from_options(dates)
                    .with_data_type(DataType::Date32)
                    .unwrap(),
            ),
        ),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_flat_batches_round_trip((i, f, s, d) in flat_strategy()) {
        let batch = random_batch(i, f, s, d);
        let schema = Arc::clone(batch.schema());
        let json = write_json(std::slice::from_ref(&batch), JsonFormat::Lines);
        assert_same(&batch, &read_json(&json, Some(schema.clone())).unwrap());
        // CSV: empty strings are written `""` and read back as empty strings.
        let csv = write_csv(std::slice::from_ref(&batch));
        let options = CsvReadOptions::default().with_schema(schema);
        assert_same(&batch, &read_csv(&csv, options).unwrap());
    }
}
