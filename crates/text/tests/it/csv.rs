//! CSV reader behaviour: inference, nulls, quoting, line numbers in errors.

use crate::util::*;
use quiver_arrow::display::format_value;
use quiver_arrow::{DataType, Field, Schema, TimeUnit};
use quiver_text::csv::{CsvReadOptions, CsvReader, CsvWriteOptions, CsvWriter};
use quiver_text::{format_schema, parse_schema};
use std::sync::Arc;

fn err(data: &str, schema: Option<&str>) -> String {
    let options = CsvReadOptions {
        schema: schema.map(|s| Arc::new(parse_schema(s).unwrap())),
        ..Default::default()
    };
    match read_csv(data.as_bytes(), options) {
        Ok(_) => panic!("expected an error for {data:?}"),
        Err(e) => e.to_string(),
    }
}

fn rows(data: &str, options: CsvReadOptions) -> Vec<String> {
    let batches = read_csv(data.as_bytes(), options).unwrap();
    let mut out = Vec::new();
    for b in &batches {
        for r in 0..b.num_rows() {
            let vals: Vec<String> = b.columns().iter().map(|c| format_value(c, r)).collect();
            out.push(vals.join("|"));
        }
    }
    out
}

#[test]
fn infers_pyarrow_like_types() {
    let data = "i,f,b,d,ts,tsf,tsz,s,n\n\
                1,1.5,true,2020-01-02,2020-01-02 03:04:05,2020-01-02 03:04:05.5,2020-01-02 03:04:05Z,x,\n\
                -2,1e3,FALSE,2020-01-03,2020-01-03,2020-01-02 03:04:05,2020-01-02 04:04:05+01:00,,NA\n";
    // `NA` is text unless named a null marker.
    let r = CsvReader::try_new(data.as_bytes(), CsvReadOptions::default()).unwrap();
    assert_eq!(r.schema().fields[8].data_type(), &DataType::Utf8);
    let na = CsvReadOptions::default().with_null_values(vec!["".into(), "NA".into()]);
    let r = CsvReader::try_new(data.as_bytes(), na.clone()).unwrap();
    assert_eq!(
        format_schema(r.schema()),
        "i: int64, f: double, b: bool, d: date32[day], ts: timestamp[s], tsf: timestamp[ns], \
         tsz: timestamp[s, tz=UTC], s: string, n: null"
    );
    let got = rows(data, na);
    assert_eq!(
        got[1],
        "-2|1000.0|false|2020-01-03|2020-01-03 00:00:00|2020-01-02 03:04:05.000000000|2020-01-02 03:04:05+00:00|null|null"
    );
}

#[test]
fn quoting_unicode_and_nulls() {
    let data = "a,b\n\"x,y\",\"say \"\"hi\"\"\"\n\"multi\nline\",é😀\n,NULL\n";
    let got = rows(data, CsvReadOptions::default());
    assert_eq!(got, ["x,y|say \"hi\"", "multi\nline|é😀", "null|NULL"]);
    let markers = CsvReadOptions::default().with_null_values(vec!["".into(), "NULL".into()]);
    assert_eq!(rows(data, markers)[2], "null|null");
    let keep = CsvReadOptions::default().with_strings_can_be_null(false);
    assert_eq!(rows(data, keep)[2], "|NULL");
}

#[test]
fn no_header_names_columns_f0() {
    let options = CsvReadOptions::default()
        .with_header(false)
        .with_delimiter(b';');
    let r = CsvReader::try_new("1;a\n2;b\n".as_bytes(), options.clone()).unwrap();
    assert_eq!(format_schema(r.schema()), "f0: int64, f1: string");
    assert_eq!(rows("1;a\n2;b\n", options).len(), 2);
}

#[test]
fn explicit_schema_parses_every_flat_type() {
    let schema = "i8: int8, u16: uint16, f: float, h: halffloat, d64: date64, t: time32[ms], \
                  ts: timestamp[ns, tz=+01:00], dur: duration[s], dec: decimal256(40, 3), \
                  dict: dictionary<values=string, indices=int8>, bin: binary, v: string_view";
    let data = "a,b,c,d,e,f,g,h,i,j,k,l\n\
                -128,65535,0.25,1.5,2020-01-02 03:04:05.006,12:34:56.789,2020-01-02 03:04:05.123456789+01:00,-5,-1234567890123456789012345678901234567.125,x,raw,long string value here\n";
    let options = CsvReadOptions::default().with_schema(Arc::new(parse_schema(schema).unwrap()));
    let got = rows(data, options);
    assert_eq!(
        got[0],
        "-128|65535|0.25|1.5|2020-01-02 03:04:05.006|12:34:56.789|2020-01-02 03:04:05.123456789+01:00|-5s|\
         -1234567890123456789012345678901234567.125|x|0x726177|long string value here"
    );
}

#[test]
fn errors_name_line_column_and_value() {
    let e = err("qty\n1\n2\nabc\n", Some("qty: int64"));
    assert_eq!(e, "line 4, column \"qty\": cannot parse \"abc\" as int64");
    // A quoted field spanning lines shifts the physical line numbers.
    let e = err("s,qty\n\"a\nb\",1\nx,1.5\n", Some("s: string, qty: int32"));
    assert_eq!(e, "line 4, column \"qty\": cannot parse \"1.5\" as int32");
    let e = err("a,b\n1,2\n3\n", None);
    assert_eq!(e, "line 3: expected 2 fields, found 1");
    let e = err("a,b\n1,2\n3,4,5\n", Some("a: int8, b: int8"));
    assert_eq!(e, "line 3: expected 2 fields, found 3");
    let e = err("a\n300\n", Some("a: int8"));
    assert_eq!(
        e,
        "line 2, column \"a\": cannot parse \"300\" as int8: out of range"
    );
    let e = err("a\n123.456\n", Some("a: decimal128(5, 2)"));
    assert!(e.contains("more fraction digits than the scale"), "{e}");
    let e = err("a\n12345.6\n", Some("a: decimal128(5, 2)"));
    assert_eq!(
        e,
        "line 2, column \"a\": cannot parse \"12345.6\" as decimal128(5, 2): more digits than the precision allows"
    );
    let e = err("a,b\n1,\n", Some("a: int8, b: int8 not null"));
    assert_eq!(
        e,
        "line 2, column \"b\": null value in a non-nullable column"
    );
    let e = err("a,b,c\n1,2\n", Some("a: int8, b: int8"));
    assert!(
        e.contains("header has 3 fields but the schema has 2"),
        "{e}"
    );
    let long = "x".repeat(200);
    let e = err(&format!("a\n{long}\n"), Some("a: int32"));
    assert!(e.len() < 120, "{e}");
    let e = err("", None);
    assert!(e.contains("empty"), "{e}");
}

#[test]
fn invalid_utf8_is_an_error() {
    let data = b"a,b\n1,ok\n2,\xff\xfe\n";
    let e = read_csv(data, CsvReadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("line 3, column \"b\": invalid UTF-8"), "{e}");
    let options = CsvReadOptions::default()
        .with_schema(Arc::new(parse_schema("a: int8, b: binary").unwrap()));
    assert_eq!(read_csv(data, options).unwrap()[0].num_rows(), 2);
}

#[test]
fn values_after_the_sample_must_fit() {
    let mut data = String::from("n\n");
    for i in 0..10 {
        data.push_str(&format!("{i}\n"));
    }
    data.push_str("1.5\n");
    let options = CsvReadOptions::default().with_infer_rows(5);
    let e = read_csv(data.as_bytes(), options).unwrap_err().to_string();
    assert_eq!(e, "line 12, column \"n\": cannot parse \"1.5\" as int64");
}

#[test]
fn nested_types_are_not_supported() {
    let schema = Arc::new(parse_schema("a: int8, tags: list<string>").unwrap());
    let options = CsvReadOptions::default().with_schema(schema.clone());
    let Err(e) = CsvReader::try_new("a,tags\n".as_bytes(), options) else {
        panic!("expected an error");
    };
    assert!(e.to_string().contains("column \"tags\""), "{e}");
    let Err(e) = CsvWriter::try_new(Vec::new(), &schema, CsvWriteOptions::default()) else {
        panic!("expected an error");
    };
    assert!(matches!(e, quiver_arrow::Error::NotSupported { .. }), "{e}");
}

#[test]
fn writer_quotes_only_when_needed() {
    let schema = Schema::new(vec![
        Field::new("s", DataType::Utf8, true),
        Field::new(
            "t",
            DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into())),
            true,
        ),
    ]);
    let batch = batch_of(vec![
        ("s", built(&DataType::Utf8, &["plain", "a;b", "null"])),
        (
            "t",
            prim::<i64>(
                schema.fields[1].data_type().clone(),
                [Some(1), None, Some(0)],
            ),
        ),
    ]);
    let mut w = CsvWriter::try_new(
        Vec::new(),
        &schema,
        CsvWriteOptions::default().with_delimiter(b';'),
    )
    .unwrap();
    w.write(&batch).unwrap();
    let text = String::from_utf8(w.finish().unwrap()).unwrap();
    assert_eq!(
        text,
        "s;t\nplain;1970-01-01 00:00:00.001+00:00\n\"a;b\";\n;1970-01-01 00:00:00.000+00:00\n"
    );
}
