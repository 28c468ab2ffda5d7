//! JSON Lines reader behaviour: inference, explicit schemas, errors.

use crate::util::*;
use quiver_arrow::display::format_value;
use quiver_text::json::{JsonReadOptions, JsonReader};
use quiver_text::{format_schema, parse_schema};
use std::sync::Arc;

fn infer(data: &str) -> String {
    let r = JsonReader::try_new(data.as_bytes(), JsonReadOptions::default()).unwrap();
    format_schema(r.schema())
}

fn err(data: &str, schema: Option<&str>) -> String {
    let schema = schema.map(|s| Arc::new(parse_schema(s).unwrap()));
    match read_json(data.as_bytes(), schema) {
        Ok(_) => panic!("expected an error for {data:?}"),
        Err(e) => e.to_string(),
    }
}

fn rows(data: &str, schema: Option<&str>) -> Vec<String> {
    let schema = schema.map(|s| Arc::new(parse_schema(s).unwrap()));
    let mut out = Vec::new();
    for b in read_json(data.as_bytes(), schema).unwrap() {
        for r in 0..b.num_rows() {
            let vals: Vec<String> = b.columns().iter().map(|c| format_value(c, r)).collect();
            out.push(vals.join("|"));
        }
    }
    out
}

#[test]
fn infers_nested_types_with_nulls_everywhere() {
    let data = r#"{"a": 1, "s": {"x": null, "l": []}, "l": null}
{"a": 2.5, "s": null, "l": [[1, null], null, []]}

{"a": null, "s": {"x": "hi", "l": [null, {"k": true}]}, "l": [[]], "z": null}
"#;
    assert_eq!(
        infer(data),
        "a: double, s: struct<x: string, l: list<item: struct<k: bool>>>, \
         l: list<item: list<item: int64>>, z: null"
    );
    let got = rows(data, None);
    assert_eq!(got.len(), 3);
    assert_eq!(got[0], "1.0|{x: null, l: []}|null|null");
    assert_eq!(got[1], "2.5|null|[[1, null], null, []]|null");
    assert_eq!(got[2], "null|{x: \"hi\", l: [null, {k: true}]}|[[]]|null");
}

#[test]
fn scalar_mixes_become_strings() {
    let data = "{\"v\": 1}\n{\"v\": \"x\"}\n{\"v\": true}\n{\"v\": 1.50}\n";
    assert_eq!(infer(data), "v: string");
    assert_eq!(rows(data, None), ["1", "x", "true", "1.50"]);
}

#[test]
fn explicit_schema_converts_values() {
    let schema = "id: int8 not null, price: decimal128(10, 2), ts: timestamp[ms, tz=UTC], \
                  m: map<string, list<int32>>, raw: binary, tags: dictionary<values=string, indices=int32>, \
                  fsl: fixed_size_list<item: double>[2]";
    let data = r#"{"id": 1, "price": 12.5, "ts": "2020-01-02 03:04:05.5Z", "m": {"a": [1]}, "raw": "6869", "tags": "x", "fsl": [1, "NaN"], "extra": [1, 2]}
{"id": -128, "price": "-0.01", "ts": null, "m": [{"key": "b", "value": null}], "tags": "x", "fsl": null}
"#;
    let got = rows(data, Some(schema));
    assert_eq!(
        got[0],
        "1|12.50|2020-01-02 03:04:05.500+00:00|{\"a\": [1]}|0x6869|x|[1.0, NaN]"
    );
    assert_eq!(got[1], "-128|-0.01|null|{\"b\": null}|null|x|null");
}

#[test]
fn errors_name_line_and_path() {
    let schema = Some("a: struct<b: list<int32>>");
    let e = err(
        "{\"a\": {\"b\": [1]}}\n\n{\"a\": {\"b\": [1, 2, \"x\"]}}\n",
        schema,
    );
    assert_eq!(e, "line 3, field \"a.b[2]\": expected number, found string");
    let e = err("{\"a\": 1}\n{\"a\": 1.5}\n", Some("a: int64"));
    assert_eq!(e, "line 2, field \"a\": cannot parse \"1.5\" as int64");
    let e = err("{\"a\": 200}\n", Some("a: int8"));
    assert_eq!(
        e,
        "line 1, field \"a\": cannot parse \"200\" as int8: out of range"
    );
    let e = err("{\"a\": \"1.234\"}\n", Some("a: decimal32(3, 2)"));
    assert!(
        e.starts_with("line 1, field \"a\": cannot parse \"1.234\" as decimal32(3, 2)"),
        "{e}"
    );
    let e = err("{\"b\": 1}\n", Some("a: int8 not null, b: int8"));
    assert_eq!(
        e,
        "line 1, field \"a\": missing value for a non-nullable field"
    );
    let e = err("{\"a\": 1}\n{\"a\" 1}\n", None);
    assert_eq!(e, "line 2: invalid JSON at column 6: expected ':'");
    let e = err("{\"a\": 1}\n[1]\n", None);
    assert_eq!(e, "line 2: expected a JSON object, found array");
    let e = err("{\"a\": [1]}\n{\"a\": {\"b\": 1}}\n", None);
    assert_eq!(
        e,
        "line 2, field \"a\": conflicting types: array in earlier rows, object here"
    );
    let e = read_json(b"{\"a\": \"x\"}\n{\"a\": \"\xff\"}\n", None)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("line 2: invalid JSON at column 10: invalid UTF-8"),
        "{e}"
    );
    let e = err(
        "{\"l\": [1, 2]}\n",
        Some("l: fixed_size_list<item: int8>[3]"),
    );
    assert_eq!(e, "line 1, field \"l\": expected 3 list elements, found 2");
    // A key given twice would lose a value (pyarrow and DuckDB refuse it too), with or
    // without a schema, at any depth.
    let e = err("{\"a\": 1, \"a\": 2}\n", None);
    assert_eq!(e, "line 1, field \"a\": key given twice in one object");
    let e = err("{\"a\": 1, \"b\": 2, \"a\": 3}\n", Some("a: int8"));
    assert_eq!(e, "line 1, field \"a\": key given twice in one object");
    let e = err("{\"s\": {\"x\": 1, \"x\": 1}}\n", None);
    assert_eq!(e, "line 1, field \"s.x\": key given twice in one object");
}

#[test]
fn rows_after_the_sample_must_fit_the_inferred_schema() {
    let data = "{\"a\": 1}\n{\"a\": 2}\n{\"a\": 3, \"b\": 1}\n{\"a\": \"x\"}\n";
    let mut options = JsonReadOptions::default().with_infer_rows(2);
    let e = JsonReader::try_new(data.as_bytes(), options.clone())
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("line 3, field \"b\": key not in the schema"),
        "{e}"
    );
    options.infer_rows = 3;
    let e = JsonReader::try_new(data.as_bytes(), options)
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 4, field \"a\": expected number, found string"
    );
}

#[test]
fn empty_input_gives_no_batches() {
    assert_eq!(infer("\n \n"), "");
    assert!(read_json(b"", None).unwrap().is_empty());
}
