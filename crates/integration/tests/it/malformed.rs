//! Malformed input: every case is an error (never a panic) whose text names the place.
//! One line per case: the field and column JSON of a one-column file, and the expected text.

use quiver_arrow::Error;
use quiver_integration::read_json;

const INT8: &str = r#"{"name": "x", "type": {"name": "int", "isSigned": true, "bitWidth": 8}, "nullable": true, "children": []}"#;
const BINARY: &str =
    r#"{"name": "x", "type": {"name": "binary"}, "nullable": true, "children": []}"#;
const LIST: &str = r#"{"name": "x", "type": {"name": "list"}, "nullable": true, "children": [
    {"name": "item", "type": {"name": "int", "isSigned": true, "bitWidth": 8}, "nullable": true, "children": []}]}"#;
const SPARSE: &str = r#"{"name": "x", "type": {"name": "union", "mode": "SPARSE", "typeIds": [5]}, "nullable": true, "children": [
    {"name": "a", "type": {"name": "int", "isSigned": true, "bitWidth": 8}, "nullable": true, "children": []}]}"#;
const FSB2: &str = r#"{"name": "x", "type": {"name": "fixedsizebinary", "byteWidth": 2}, "nullable": true, "children": []}"#;
const VIEW: &str =
    r#"{"name": "x", "type": {"name": "binaryview"}, "nullable": true, "children": []}"#;
const DICT: &str = r#"{"name": "x", "type": {"name": "utf8"}, "nullable": true, "children": [],
    "dictionary": {"id": 0, "indexType": {"name": "int", "isSigned": true, "bitWidth": 8}, "isOrdered": false}}"#;
const MAP: &str = r#"{"name": "x", "type": {"name": "map", "keysSorted": false}, "nullable": true, "children": [
    {"name": "entries", "type": {"name": "struct"}, "nullable": false, "children": [
      {"name": "key", "type": {"name": "utf8"}, "nullable": false, "children": []},
      {"name": "value", "type": {"name": "int", "isSigned": true, "bitWidth": 8}, "nullable": true, "children": []}]}]}"#;
const REE: &str = r#"{"name": "x", "type": {"name": "runendencoded"}, "nullable": true, "children": [
    {"name": "run_ends", "type": {"name": "int", "isSigned": true, "bitWidth": 16}, "nullable": false, "children": []},
    {"name": "values", "type": {"name": "int", "isSigned": true, "bitWidth": 8}, "nullable": true, "children": []}]}"#;

/// A file with one field, one batch of `count` rows holding `column`, and `extra` top-level
/// members (e.g. a `dictionaries` section).
fn file(field: &str, count: usize, column: &str, extra: &str) -> String {
    format!(
        r#"{{"schema": {{"fields": [{field}]}}, {extra} "batches": [{{"count": {count}, "columns": [{column}]}}]}}"#
    )
}

fn dict_section(values: &str) -> String {
    format!(
        r#""dictionaries": [{{"id": 0, "data": {{"count": 2, "columns": [{{"name": "DICT0", "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 1, 2], "DATA": {values}}}]}}}}],"#
    )
}

/// `(case, JSON, expected error text)`.
fn cases() -> Vec<(&'static str, String, &'static str)> {
    let ok_dict = dict_section(r#"["a", "b"]"#);
    vec![
        (
            "not JSON",
            "{\"schema\": ".into(),
            "invalid JSON: EOF while parsing",
        ),
        (
            "not an object",
            "[1]".into(),
            "the file must be an object, not an array",
        ),
        (
            "no batches",
            r#"{"schema": {"fields": []}}"#.into(),
            "missing \"batches\"",
        ),
        (
            "unknown type",
            file(
                r#"{"name": "x", "type": {"name": "int128"}, "nullable": true, "children": []}"#,
                0,
                "",
                "",
            ),
            "schema, field 0 (\"x\"): unknown type name \"int128\"",
        ),
        (
            "type without name",
            file(r#"{"name": "x", "type": {}, "nullable": true}"#, 0, "", ""),
            "schema, field 0 (\"x\"): missing \"name\"",
        ),
        (
            "bad int width",
            file(
                r#"{"name": "x", "type": {"name": "int", "isSigned": true, "bitWidth": 12}, "nullable": true}"#,
                0,
                "",
                "",
            ),
            "int bitWidth 12 is not 8, 16, 32 or 64",
        ),
        (
            "bad decimal width",
            file(
                r#"{"name": "x", "type": {"name": "decimal", "precision": 5, "scale": 0, "bitWidth": 100}, "nullable": true}"#,
                0,
                "",
                "",
            ),
            "decimal bitWidth 100 is not 32, 64, 128 or 256",
        ),
        (
            "bad time unit",
            file(
                r#"{"name": "x", "type": {"name": "time", "unit": "NANOSECOND", "bitWidth": 32}, "nullable": true}"#,
                0,
                "",
                "",
            ),
            "schema, field 0 (\"x\"): Time32 cannot have unit Nanosecond",
        ),
        (
            "list without child",
            file(
                r#"{"name": "x", "type": {"name": "list"}, "nullable": true, "children": []}"#,
                0,
                "",
                "",
            ),
            "type \"list\" needs 1 children, found 0",
        ),
        (
            "nested schema error",
            file(
                r#"{"name": "x", "type": {"name": "struct"}, "nullable": true, "children": [{"name": "y", "type": {"name": "floatingpoint", "precision": "QUAD"}, "nullable": true}]}"#,
                0,
                "",
                "",
            ),
            "schema, field 0 (\"x\"), child 0 (\"y\"): unknown float precision \"QUAD\"",
        ),
        (
            "missing count",
            file(
                INT8,
                1,
                r#"{"name": "x", "VALIDITY": [1], "DATA": [1]}"#,
                "",
            ),
            "batch 0, column 0 (\"x\"): missing \"count\"",
        ),
        (
            "negative count",
            file(INT8, 1, r#"{"name": "x", "count": -1, "DATA": []}"#, ""),
            "batch 0, column 0 (\"x\"): \"count\" -1 is negative or too large",
        ),
        (
            "huge count",
            file(
                INT8,
                1,
                r#"{"name": "x", "count": 9223372036854775807, "DATA": []}"#,
                "",
            ),
            "DATA has 0 entries, expected 9223372036854775807",
        ),
        (
            "short VALIDITY",
            file(
                INT8,
                2,
                r#"{"name": "x", "count": 2, "VALIDITY": [1], "DATA": [1, 2]}"#,
                "",
            ),
            "batch 0, column 0 (\"x\"): VALIDITY has 1 entries, expected 2 (count is 2)",
        ),
        (
            "bad VALIDITY entry",
            file(
                INT8,
                1,
                r#"{"name": "x", "count": 1, "VALIDITY": [2], "DATA": [1]}"#,
                "",
            ),
            "VALIDITY[0]: expected true, false, 0 or 1, found 2",
        ),
        (
            "long DATA",
            file(
                INT8,
                1,
                r#"{"name": "x", "count": 1, "VALIDITY": [1], "DATA": [1, 2]}"#,
                "",
            ),
            "DATA has 2 entries, expected 1",
        ),
        (
            "missing DATA",
            file(INT8, 1, r#"{"name": "x", "count": 1, "VALIDITY": [1]}"#, ""),
            "batch 0, column 0 (\"x\"): missing \"DATA\"",
        ),
        (
            "out of range",
            file(INT8, 1, r#"{"name": "x", "count": 1, "DATA": [300]}"#, ""),
            "batch 0, column 0 (\"x\"), DATA[0]: 300 is out of range for i8",
        ),
        (
            "float for int",
            file(INT8, 1, r#"{"name": "x", "count": 1, "DATA": [1.5]}"#, ""),
            "DATA[0]: 1.5 is not an integer",
        ),
        (
            "count differs from batch",
            file(INT8, 2, r#"{"name": "x", "count": 1, "DATA": [1]}"#, ""),
            "batch 0: column \"x\" has 1 rows, expected 2",
        ),
        (
            "wrong column name",
            file(INT8, 1, r#"{"name": "y", "count": 1, "DATA": [1]}"#, ""),
            "column data is named \"y\" but the field is \"x\"",
        ),
        (
            "bad hex",
            file(
                BINARY,
                1,
                r#"{"name": "x", "count": 1, "VALIDITY": [1], "OFFSET": [0, 1], "DATA": ["0G"]}"#,
                "",
            ),
            "batch 0, column 0 (\"x\"), DATA[0]: bad hex digit 'G' at position 1",
        ),
        (
            "odd hex",
            file(
                BINARY,
                1,
                r#"{"name": "x", "count": 1, "VALIDITY": [1], "OFFSET": [0, 1], "DATA": ["ABC"]}"#,
                "",
            ),
            "DATA[0]: hex string has an odd number of digits (3)",
        ),
        (
            "short OFFSET",
            file(
                BINARY,
                2,
                r#"{"name": "x", "count": 2, "OFFSET": [0, 1], "DATA": ["AA", "BB"]}"#,
                "",
            ),
            "OFFSET has 2 entries, expected 3",
        ),
        (
            "OFFSET disagrees with DATA",
            file(
                BINARY,
                2,
                r#"{"name": "x", "count": 2, "OFFSET": [0, 1, 3], "DATA": ["AA", "BB"]}"#,
                "",
            ),
            "OFFSET says value 1 has 2 bytes but DATA[1] has 1",
        ),
        (
            "decreasing list offsets",
            file(
                LIST,
                2,
                r#"{"name": "x", "count": 2, "OFFSET": [0, 2, 1], "children": [{"name": "item", "count": 2, "DATA": [1, 2]}]}"#,
                "",
            ),
            "batch 0, column 0 (\"x\"), OFFSET:",
        ),
        (
            "list offsets past child",
            file(
                LIST,
                1,
                r#"{"name": "x", "count": 1, "OFFSET": [0, 3], "children": [{"name": "item", "count": 2, "DATA": [1, 2]}]}"#,
                "",
            ),
            "last offset 3 is beyond the end of the values (2 long)",
        ),
        (
            "missing list child",
            file(
                LIST,
                1,
                r#"{"name": "x", "count": 1, "OFFSET": [0, 0]}"#,
                "",
            ),
            "batch 0, column 0 (\"x\"): 0 children, expected 1",
        ),
        (
            "bad nested DATA",
            file(
                LIST,
                1,
                r#"{"name": "x", "count": 1, "OFFSET": [0, 2], "children": [{"name": "item", "count": 2, "DATA": [1, "x"]}]}"#,
                "",
            ),
            "batch 0, column 0 (\"x\"), child 0 (\"item\"), DATA[1]: \"x\" is not an integer",
        ),
        (
            "undeclared union id",
            file(
                SPARSE,
                1,
                r#"{"name": "x", "count": 1, "TYPE_ID": [6], "children": [{"name": "a", "count": 1, "DATA": [1]}]}"#,
                "",
            ),
            "batch 0, column 0 (\"x\"): slot 0 has type id 6, which the union does not declare",
        ),
        (
            "pre-1.0 union null",
            file(
                SPARSE,
                1,
                r#"{"name": "x", "count": 1, "VALIDITY": [0], "TYPE_ID": [5], "children": [{"name": "a", "count": 1, "DATA": [1]}]}"#,
                "",
            ),
            "not supported: a union with nulls in its own VALIDITY",
        ),
        (
            "fixed size binary width",
            file(
                FSB2,
                1,
                r#"{"name": "x", "count": 1, "VALIDITY": [0], "DATA": [""]}"#,
                "",
            ),
            "DATA[0] has 0 bytes, expected 2 (byteWidth)",
        ),
        (
            "view INLINED size",
            file(
                VIEW,
                1,
                r#"{"name": "x", "count": 1, "VIEWS": [{"SIZE": 2, "INLINED": "AA"}], "VARIADIC_DATA_BUFFERS": []}"#,
                "",
            ),
            "VIEWS[0]: INLINED has 1 bytes but SIZE is 2",
        ),
        (
            "view buffer index",
            file(
                VIEW,
                1,
                r#"{"name": "x", "count": 1, "VIEWS": [{"SIZE": 13, "PREFIX_HEX": "00000000", "BUFFER_INDEX": 1, "OFFSET": 0}], "VARIADIC_DATA_BUFFERS": []}"#,
                "",
            ),
            "view 0 references data buffer 1 but there are 0",
        ),
        (
            "view prefix",
            file(
                VIEW,
                1,
                r#"{"name": "x", "count": 1, "VIEWS": [{"SIZE": 13, "PREFIX_HEX": "0000", "BUFFER_INDEX": 0, "OFFSET": 0}], "VARIADIC_DATA_BUFFERS": []}"#,
                "",
            ),
            "VIEWS[0]: PREFIX_HEX has 2 bytes, expected 4",
        ),
        (
            "null map key",
            file(
                MAP,
                1,
                r#"{"name": "x", "count": 1, "OFFSET": [0, 1], "children": [{"name": "entries", "count": 1, "children": [{"name": "key", "count": 1, "VALIDITY": [0], "OFFSET": [0, 0], "DATA": [""]}, {"name": "value", "count": 1, "DATA": [1]}]}]}"#,
                "",
            ),
            "map key 0 is null",
        ),
        (
            "run ends not increasing",
            file(
                REE,
                2,
                r#"{"name": "x", "count": 2, "children": [{"name": "run_ends", "count": 2, "DATA": [2, 2]}, {"name": "values", "count": 2, "DATA": [1, 2]}]}"#,
                "",
            ),
            "run end 1 is 2 after 2; run ends must strictly increase",
        ),
        (
            "run ends too short",
            file(
                REE,
                3,
                r#"{"name": "x", "count": 3, "children": [{"name": "run_ends", "count": 1, "DATA": [2]}, {"name": "values", "count": 1, "DATA": [1]}]}"#,
                "",
            ),
            "last run end is 2 but the array needs 3",
        ),
        (
            "missing dictionary",
            file(DICT, 1, r#"{"name": "x", "count": 1, "DATA": [0]}"#, ""),
            "batch 0, column 0 (\"x\"): dictionary 0 is missing from the \"dictionaries\" section",
        ),
        (
            "key out of range",
            file(
                DICT,
                1,
                r#"{"name": "x", "count": 1, "DATA": [2]}"#,
                &ok_dict,
            ),
            "dictionary key 0 is 2 but the dictionary has 2 values",
        ),
        (
            "unknown dictionary id",
            file(
                INT8,
                0,
                r#"{"name": "x", "count": 0, "DATA": []}"#,
                &ok_dict,
            ),
            "dictionaries[0]: dictionary 0 is not used by any field",
        ),
        (
            "bad dictionary data",
            file(
                DICT,
                1,
                r#"{"name": "x", "count": 1, "DATA": [0]}"#,
                &dict_section(r#"["a", 7]"#),
            ),
            "dictionary 0, DATA[1]: expected a string, found a number",
        ),
        (
            "shared id, two types",
            format!(
                r#"{{"schema": {{"fields": [{DICT}, {}]}}, "batches": []}}"#,
                DICT.replace("\"utf8\"", "\"binary\"")
                    .replace("\"x\"", "\"y\"")
            ),
            "schema: dictionary 0 is used with value type Utf8 (field path [0]) and Binary (field path [1])",
        ),
    ]
}

#[test]
fn malformed_inputs_are_errors_naming_the_place() {
    let mut failures = Vec::new();
    for (case, json, expected) in cases() {
        match std::panic::catch_unwind(|| read_json(json.as_bytes())) {
            Err(_) => failures.push(format!("{case}: panicked")),
            Ok(Ok(_)) => failures.push(format!("{case}: read without error")),
            Ok(Err(e)) => {
                let text = e.to_string();
                if !text.contains(expected) {
                    failures.push(format!("{case}: {text:?} lacks {expected:?}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn input_errors_are_out_of_spec() {
    for (case, json, _) in cases() {
        let e = read_json(json.as_bytes()).unwrap_err();
        let expected = matches!(e, Error::OutOfSpec { .. })
            || (case == "pre-1.0 union null" && matches!(e, Error::NotSupported { .. }));
        assert!(expected, "{case}: {e:?}");
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let e = read_json(deep.as_bytes()).unwrap_err().to_string();
    assert!(e.contains("recursion limit exceeded"), "{e}");
}

#[test]
fn corrupt_gzip_is_a_codec_error() {
    let path = std::env::temp_dir().join(format!("quiver-corrupt-{}.json.gz", std::process::id()));
    std::fs::write(&path, [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 1, 2, 3]).unwrap();
    let e = quiver_integration::read_json_path(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(e, Error::Codec { .. }), "{e:?}");
}

#[test]
fn missing_file_is_an_io_error_naming_it() {
    let e = quiver_integration::read_json_path("/nonexistent/x.json.gz").unwrap_err();
    assert!(matches!(e, Error::Io { .. }), "{e:?}");
    assert!(e.to_string().contains("/nonexistent/x.json.gz"), "{e}");
}
