//! CSV keeps empty strings apart from nulls: `""` is the empty string, an unquoted empty field
//! is null; quiver's output reads back equal in quiver, pyarrow and DuckDB.

use crate::oracle::{have_oracles, read_back, type_of, values};
use crate::util::*;
use quiver_arrow::display::format_value;
use quiver_arrow::{Array, DataType, StringArray};
use quiver_text::csv::CsvReadOptions;
use serde_json::json;

fn shown(a: &Array) -> Vec<String> {
    (0..a.len()).map(|i| format_value(a, i)).collect()
}

#[test]
fn quoted_empty_is_a_string_unquoted_empty_is_null() {
    let data = "s,i,d\n\"\",1,\"\"\n,2,\nx,\"\",2024-01-01\n";
    let batches = read_csv(data.as_bytes(), CsvReadOptions::default()).unwrap();
    let b = &batches[0];
    assert_eq!(b.column(0).data_type(), &DataType::Utf8);
    let Array::Utf8(s) = b.column(0) else {
        panic!()
    };
    assert!(s.is_valid(0) && s.value(0).is_empty());
    assert!(s.is_null(1));
    // Non-string columns: empty is null, quoted or not.
    assert_eq!(shown(b.column(1)), ["1", "2", "null"]);
    assert_eq!(shown(b.column(2)), ["null", "null", "2024-01-01"]);
    // Null markers apply to unquoted string fields only.
    let options = CsvReadOptions::default().with_null_values(vec!["".into(), "NA".into()]);
    let data = "s,i\nNA,NA\n\"NA\",1\n";
    let b = read_csv(data.as_bytes(), options).unwrap().remove(0);
    assert_eq!(shown(b.column(0)), ["null", "NA"]);
    assert_eq!(shown(b.column(1)), ["null", "1"]);
}

#[test]
fn a_column_of_only_quoted_empties_is_a_string_column() {
    let b = read_csv(b"s,n\n\"\",\n\"\",\n", CsvReadOptions::default())
        .unwrap()
        .remove(0);
    assert_eq!(b.column(0).data_type(), &DataType::Utf8);
    assert_eq!(b.column(0).null_count(), 0);
    assert_eq!(b.column(1).data_type(), &DataType::Null);
}

#[test]
fn written_empty_strings_and_nulls_read_back_equal_everywhere() {
    let strings = [
        Some(""),
        None,
        Some("a,b"),
        Some("NA"),
        Some(" "),
        Some("\""),
    ];
    let ints = [Some(1i64), None, Some(3), Some(4), None, Some(6)];
    let batch = batch_of(vec![
        ("s", Array::from(StringArray::from_options(strings))),
        ("i", prim::<i64>(DataType::Int64, ints)),
    ]);
    let csv = write_csv(std::slice::from_ref(&batch));
    assert_eq!(
        String::from_utf8(csv.clone()).unwrap(),
        "s,i\n\"\",1\n,\n\"a,b\",3\nNA,4\n ,\n\"\"\"\",6\n"
    );
    let options = CsvReadOptions::default().with_schema(batch.schema().clone());
    assert_same(&batch, &read_csv(&csv, options).unwrap());
    // Inferred types too.
    assert_same(&batch, &read_csv(&csv, CsvReadOptions::default()).unwrap());
    if !have_oracles() {
        return;
    }
    let found = read_back("csv", &csv);
    for library in ["pyarrow", "duckdb"] {
        assert_eq!(
            values(&found, library, "s"),
            &json!(["", null, "a,b", "NA", " ", "\""]),
            "{library}"
        );
        assert_eq!(
            values(&found, library, "i"),
            &json!([1, null, 3, 4, null, 6]),
            "{library}"
        );
    }
    assert_eq!(type_of(&found, "pyarrow", "s"), "string");
}

#[test]
fn a_lone_null_field_keeps_its_row() {
    let batch = batch_of(vec![(
        "i",
        prim::<i64>(DataType::Int64, [Some(1), None, Some(3)]),
    )]);
    let csv = write_csv(std::slice::from_ref(&batch));
    assert_eq!(csv, b"i\n1\n\"\"\n3\n");
    assert_same(&batch, &read_csv(&csv, CsvReadOptions::default()).unwrap());
}
