use super::leaf::decimal_width;
use super::*;
use crate::arrow::physical::{Conversion, SortOrder};
use crate::arrow::restore::{ARROW_SCHEMA_KEY, decode_arrow_schema};
use crate::format::Type;
use base64::Engine;
use quiver_arrow::datatype::{
    Fields, IntegerType, IntervalUnit, TimeUnit as ArrowUnit, UnionFields,
};
use std::io::Write;
use std::path::{Path, PathBuf};

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/write_schema.py")
}

/// Whether python3 with pyarrow is there; outside CI its absence skips the test.
fn have_pyarrow() -> bool {
    let ok = std::process::Command::new("python3")
        .args(["-c", "import pyarrow.parquet"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "pyarrow is missing (CI=true)"
        );
        eprintln!("skipping: python3 -c 'import pyarrow.parquet' fails");
    }
    ok
}

/// The `ARROW:schema` value of a file's footer.
fn arrow_schema_of(md: &crate::metadata::ParquetMetaData<'_>) -> String {
    let kv = md
        .file()
        .key_value_metadata
        .as_ref()
        .expect("key-value metadata");
    let v = kv
        .iter()
        .find(|kv| kv.key == ARROW_SCHEMA_KEY.as_bytes())
        .and_then(|kv| kv.value)
        .expect("ARROW:schema");
    String::from_utf8(v.to_vec()).unwrap()
}

/// Runs the oracle script in `mode` with JSON lines on standard input; returns its lines.
fn python(mode: &str, lines: &[serde_json::Value]) -> Vec<serde_json::Value> {
    let mut child = std::process::Command::new("python3")
        .arg(script())
        .arg(mode)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// pyarrow writes files covering every Arrow type it can write (once with decimals as
/// integers, once as fixed-size byte arrays); for the Arrow schema each file stores, our
/// schema elements equal the file's (names, physical types, repetitions, logical and converted
/// types, widths, precision and scale, field ids, child counts), and our `ARROW:schema` value
/// decodes — with this crate's reader and with pyarrow — to the schema pyarrow stored.
#[test]
fn elements_and_arrow_schema_equal_pyarrows() {
    if !have_pyarrow() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ok = std::process::Command::new("python3")
        .arg(script())
        .arg("write")
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(ok.success());
    let mut cases = Vec::new();
    for (file, decimals) in [
        ("types_int.parquet", DecimalLayout::Integer),
        ("types_flba.parquet", DecimalLayout::FixedLenByteArray),
    ] {
        let bytes = std::fs::read(dir.path().join(file)).unwrap();
        let md = crate::metadata::parse_file(&bytes).unwrap();
        let theirs = arrow_schema_of(&md);
        let schema = decode_arrow_schema(theirs.as_bytes()).unwrap();
        let options = SchemaOptions { decimals };
        let ws = WriteSchema::new(&schema, &options).unwrap();
        let ours = ws.elements();
        assert_eq!(ours.len(), md.schema().len(), "{file}: element count");
        for (i, (o, t)) in ours.iter().zip(md.schema()).enumerate() {
            assert_eq!(o, t, "{file}: element {i} ({})", t.name);
        }
        // The leaves are the file's columns, in order, with their levels.
        let descr = md.schema_descr();
        assert_eq!(ws.leaves().len(), descr.columns().len());
        for (leaf, col) in ws.leaves().iter().zip(descr.columns()) {
            assert_eq!(leaf.path.join("."), col.dotted_path());
            let levels = (col.max_def(), col.max_rep());
            assert_eq!((leaf.max_def, leaf.max_rep), levels, "{:?}", leaf.path);
        }
        let value = ws.arrow_schema_value().unwrap();
        assert_eq!(decode_arrow_schema(value.as_bytes()).unwrap(), schema);
        cases.push(serde_json::json!({"theirs": theirs, "ours": value}));
    }
    for r in python("compare", &cases) {
        assert_eq!(
            r["equal"], true,
            "ours:\n{}\ntheirs:\n{}",
            r["ours"], r["theirs"]
        );
    }
}

fn schema_of(fields: Vec<Field>) -> Schema {
    Schema::new(fields)
}

fn error_of(f: Field) -> String {
    WriteSchema::new(&schema_of(vec![f]), &SchemaOptions::default())
        .unwrap_err()
        .to_string()
}

/// Types Parquet cannot hold are errors naming the field's Arrow path — and pyarrow refuses
/// each of them too (the last when writing its arrays).
#[test]
fn types_parquet_cannot_hold_are_errors_naming_the_field() {
    let union = DataType::Union(
        UnionFields::with_default_ids(vec![Field::new("a", DataType::Int32, true)]),
        quiver_arrow::datatype::UnionMode::Dense,
    );
    let nested = |name: &str, t: DataType| {
        DataType::Struct(Fields::from(vec![
            Field::new("ok", DataType::Int8, true),
            Field::new(name, t, true),
        ]))
    };
    let cases = [
        (
            Field::new("ym", DataType::Interval(IntervalUnit::YearMonth), true),
            "ym",
            "interval",
        ),
        (
            Field::new("dt", DataType::Interval(IntervalUnit::DayTime), true),
            "dt",
            "interval",
        ),
        (
            Field::new("mdn", DataType::Interval(IntervalUnit::MonthDayNano), true),
            "mdn",
            "interval",
        ),
        (Field::new("s", nested("u", union), true), "s.u", "union"),
        (
            Field::new(
                "l",
                DataType::list_of(DataType::Struct(Fields::empty())),
                true,
            ),
            "l.item",
            "no fields",
        ),
        (
            Field::new(
                "neg",
                DataType::Decimal128 {
                    precision: 20,
                    scale: -2,
                },
                true,
            ),
            "neg",
            "scale",
        ),
        (
            Field::new(
                "big",
                DataType::Decimal128 {
                    precision: 5,
                    scale: 7,
                },
                true,
            ),
            "big",
            "scale",
        ),
        (
            Field::new(
                "dl",
                DataType::dictionary(IntegerType::Int32, DataType::list_of(DataType::Int32)),
                true,
            ),
            "dl",
            "dictionary or run-end encoded",
        ),
    ];
    let mut lines = Vec::new();
    for (i, (f, path, what)) in cases.iter().enumerate() {
        let e = error_of(f.clone());
        assert!(e.contains(&format!("field \"{path}\"")), "{path}: {e}");
        assert!(e.contains(what), "{path}: {e}");
        let value = quiver_ipc::IpcSchema::new(Arc::new(schema_of(vec![f.clone()])))
            .to_message_bytes()
            .unwrap();
        let value = base64::engine::general_purpose::STANDARD.encode(value);
        // pyarrow takes a dictionary of lists in the schema but refuses its arrays ("Writing
        // DictionaryArray with nested dictionary type not yet supported"); we refuse the type.
        if i + 1 < cases.len() {
            lines.push(serde_json::json!({ "schema": value }));
        }
    }
    if !have_pyarrow() {
        return;
    }
    for r in python("refuses", &lines) {
        assert!(r["error"].is_string(), "pyarrow writes {}", r["schema"]);
    }
}

fn one_leaf(f: Field) -> (SchemaElement<'static>, LeafSpec) {
    let ws = WriteSchema::new(&schema_of(vec![f]), &SchemaOptions::default()).unwrap();
    // The leaf's element, without its name.
    (ws.nodes[1].1.clone(), ws.leaves()[0].clone())
}

/// Dictionary and run-end encoded fields are leaves of their value type (pyarrow refuses
/// run-end encoded columns; we write their values).
#[test]
fn dictionaries_and_run_end_encoded_are_their_values() {
    let ree = |v: DataType| {
        DataType::RunEndEncoded(
            Arc::new(Field::new("run_ends", DataType::Int32, false)),
            Arc::new(Field::new("values", v, true)),
        )
    };
    let dict = |v: DataType| DataType::dictionary(IntegerType::UInt8, v);
    for value in [
        DataType::Utf8,
        DataType::Date64,
        DataType::Decimal128 {
            precision: 25,
            scale: 3,
        },
        DataType::Timestamp(ArrowUnit::Second, Some("UTC".into())),
        DataType::UInt16,
    ] {
        let plain = one_leaf(Field::new("x", value.clone(), false));
        for t in [
            dict(value.clone()),
            ree(value.clone()),
            dict(ree(value.clone())),
        ] {
            assert_eq!(one_leaf(Field::new("x", t.clone(), false)), plain, "{t}");
        }
    }
    // The extension of a dictionary-encoded field is its values'.
    let uuid =
        Field::new("u", dict(DataType::FixedSizeBinary(16)), true).with_extension("arrow.uuid", "");
    let (e, leaf) = one_leaf(uuid);
    assert_eq!(e.logical_type, Some(LogicalType::Uuid));
    assert_eq!(
        (leaf.physical, leaf.type_length),
        (Type::FIXED_LEN_BYTE_ARRAY, Some(16))
    );
}

/// Each leaf's physical type, width, sort order and conversion (the ones pyarrow's files
/// cannot show).
#[test]
fn leaf_specs() {
    use super::super::physical::DecimalStorage as Ds;
    use Conversion as C;
    use SortOrder as S;
    use Type as T;
    let d = |precision, scale| DataType::Decimal128 { precision, scale };
    let cases = [
        (
            DataType::Boolean,
            T::BOOLEAN,
            None,
            S::Unsigned,
            C::Identity,
        ),
        (DataType::Int8, T::INT32, None, S::Signed, C::Widen),
        (DataType::UInt8, T::INT32, None, S::Unsigned, C::Widen),
        (DataType::UInt32, T::INT32, None, S::Unsigned, C::Widen),
        (DataType::UInt64, T::INT64, None, S::Unsigned, C::Widen),
        (DataType::Int64, T::INT64, None, S::Signed, C::Identity),
        (
            DataType::Float16,
            T::FIXED_LEN_BYTE_ARRAY,
            Some(2),
            S::Float16,
            C::Float16,
        ),
        (DataType::Float32, T::FLOAT, None, S::Float, C::Identity),
        (DataType::Float64, T::DOUBLE, None, S::Float, C::Identity),
        (d(9, 2), T::INT32, None, S::Signed, C::Decimal(Ds::Int32)),
        (d(10, 2), T::INT64, None, S::Signed, C::Decimal(Ds::Int64)),
        (
            d(19, 2),
            T::FIXED_LEN_BYTE_ARRAY,
            Some(9),
            S::Decimal,
            C::Decimal(Ds::Fixed(9)),
        ),
        (
            DataType::Decimal256 {
                precision: 76,
                scale: 0,
            },
            T::FIXED_LEN_BYTE_ARRAY,
            Some(32),
            S::Decimal,
            C::Decimal(Ds::Fixed(32)),
        ),
        (DataType::Date64, T::INT32, None, S::Signed, C::MillisToDays),
        (
            DataType::Time32(ArrowUnit::Second),
            T::INT32,
            None,
            S::Signed,
            C::SecondsToMillis,
        ),
        (
            DataType::Timestamp(ArrowUnit::Second, None),
            T::INT64,
            None,
            S::Signed,
            C::SecondsToMillis,
        ),
        (
            DataType::Timestamp(ArrowUnit::Nanosecond, None),
            T::INT64,
            None,
            S::Signed,
            C::Identity,
        ),
        (
            DataType::Duration(ArrowUnit::Second),
            T::INT64,
            None,
            S::Signed,
            C::Identity,
        ),
        (
            DataType::Utf8View,
            T::BYTE_ARRAY,
            None,
            S::Bytes,
            C::Identity,
        ),
        (
            DataType::LargeBinary,
            T::BYTE_ARRAY,
            None,
            S::Bytes,
            C::Identity,
        ),
        (
            DataType::FixedSizeBinary(3),
            T::FIXED_LEN_BYTE_ARRAY,
            Some(3),
            S::Bytes,
            C::Identity,
        ),
        (DataType::Null, T::INT32, None, S::Signed, C::Null),
    ];
    for (t, physical, width, order, conversion) in cases {
        let (_, leaf) = one_leaf(Field::new("x", t.clone(), true));
        assert_eq!(
            (
                leaf.physical,
                leaf.type_length,
                leaf.sort_order,
                leaf.conversion
            ),
            (physical, width, order, conversion),
            "{t}"
        );
    }
    // Without decimals as integers, every decimal is a fixed-size byte array.
    let options = SchemaOptions {
        decimals: DecimalLayout::FixedLenByteArray,
    };
    let ws = WriteSchema::new(&schema_of(vec![Field::new("x", d(3, 1), true)]), &options).unwrap();
    let leaf = &ws.leaves()[0];
    assert_eq!((leaf.type_length, leaf.sort_order), (Some(2), S::Decimal));
}

/// A `null` field is optional even when declared non-nullable (its values are all null).
#[test]
fn null_fields_are_optional() {
    let (e, leaf) = one_leaf(Field::new("n", DataType::Null, false));
    assert_eq!(e.repetition_type, Some(FieldRepetitionType::OPTIONAL));
    assert_eq!(e.logical_type, Some(LogicalType::Null));
    assert_eq!((leaf.max_def, leaf.max_rep), (1, 0));
}

/// The width of each precision against exact arithmetic: the bytes of 10^p − 1 in base 256,
/// plus a sign bit.
#[test]
fn decimal_widths_are_minimal() {
    let mut n = vec![1u32]; // 10^p, little-endian base-256 digits
    for p in 1..=76u8 {
        let mut carry = 0;
        for d in n.iter_mut() {
            let v = *d * 10 + carry;
            *d = v & 0xFF;
            carry = v >> 8;
        }
        if carry > 0 {
            n.push(carry);
        }
        // 10^p − 1 has the bit length of 10^p (10^p is no power of two).
        let top = *n.last().unwrap();
        let bits = (n.len() - 1) * 8 + (32 - top.leading_zeros()) as usize;
        assert_eq!(decimal_width(p), (bits + 1).div_ceil(8), "precision {p}");
    }
}

/// `ARROW:schema` keeps what Parquet cannot say, and leaves out a stale `ARROW:schema` key of
/// the schema's own metadata.
#[test]
fn arrow_schema_value_round_trips() {
    let fields = vec![
        Field::new("d", DataType::Duration(ArrowUnit::Millisecond), true),
        Field::new(
            "z",
            DataType::Timestamp(ArrowUnit::Microsecond, Some("Asia/Tokyo".into())),
            true,
        ),
        Field::new("l", DataType::LargeUtf8, false),
        Field::new(
            "dict",
            DataType::dictionary(IntegerType::Int16, DataType::Utf8),
            true,
        ),
        Field::new("e", DataType::Int32, true).with_extension("my.ext", "params"),
    ];
    let mut metadata = quiver_arrow::datatype::Metadata::new();
    metadata.insert("k".into(), "v".into());
    let schema = schema_of(fields).with_metadata(metadata.clone());
    let mut stale = metadata;
    stale.insert(ARROW_SCHEMA_KEY.into(), "stale".into());
    let ws = WriteSchema::new(
        &schema.clone().with_metadata(stale),
        &SchemaOptions::default(),
    )
    .unwrap();
    let value = ws.arrow_schema_value().unwrap();
    assert_eq!(decode_arrow_schema(value.as_bytes()).unwrap(), schema);
    // Padded base64 of an 8-byte-aligned message starting with the continuation marker.
    let raw = base64::engine::general_purpose::STANDARD
        .decode(&value)
        .unwrap();
    assert_eq!((&raw[..4], raw.len() % 8), (&[0xFF; 4][..], 0));
}

/// The reader's view of a written schema: our elements and `ARROW:schema` value through the
/// reader's `arrow_schema` (schema tree, leaf types, restore) give back the original Arrow
/// types — except where Parquet and Arrow C++ themselves lose them, listed here as pyarrow 26
/// reads the same file.
#[test]
fn the_reader_restores_the_written_types() {
    let ts = |u, tz: Option<&str>| DataType::Timestamp(u, tz.map(Into::into));
    let item = |t: DataType| Arc::new(Field::new("element", t, true));
    let same = [
        DataType::Int8,
        DataType::UInt64,
        DataType::Float16,
        DataType::Decimal128 {
            precision: 7,
            scale: 2,
        },
        DataType::Decimal256 {
            precision: 50,
            scale: 2,
        },
        ts(ArrowUnit::Millisecond, None),
        ts(ArrowUnit::Nanosecond, Some("America/New_York")),
        DataType::Duration(ArrowUnit::Microsecond),
        DataType::Time64(ArrowUnit::Nanosecond),
        DataType::LargeUtf8,
        DataType::BinaryView,
        DataType::FixedSizeBinary(3),
        DataType::dictionary(IntegerType::Int16, DataType::Utf8),
        DataType::LargeList(item(DataType::Utf8)),
        DataType::FixedSizeList(item(DataType::Int32), 2),
        DataType::Null,
    ];
    // (written, read back by this crate and by pyarrow 26)
    let lossy = [
        (
            ts(ArrowUnit::Second, None),
            ts(ArrowUnit::Millisecond, None),
        ),
        (
            DataType::Time32(ArrowUnit::Second),
            DataType::Time32(ArrowUnit::Millisecond),
        ),
        (DataType::Date64, DataType::Date32),
        (
            DataType::dictionary(IntegerType::Int8, DataType::Int32),
            DataType::Int32,
        ),
    ];
    let mut fields: Vec<Field> = Vec::new();
    let mut want: Vec<Field> = Vec::new();
    for (i, t) in same.iter().enumerate() {
        fields.push(Field::new(format!("s{i}"), t.clone(), true));
        want.push(Field::new(format!("s{i}"), t.clone(), true));
    }
    for (i, (t, read)) in lossy.iter().enumerate() {
        fields.push(Field::new(format!("l{i}"), t.clone(), true));
        want.push(Field::new(format!("l{i}"), read.clone(), true));
    }
    let uuid =
        Field::new("u", DataType::FixedSizeBinary(16), false).with_extension("arrow.uuid", "");
    fields.push(uuid.clone());
    want.push(uuid);
    let ws = WriteSchema::new(&Schema::new(fields), &SchemaOptions::default()).unwrap();
    let elements = ws.elements();
    let descr = crate::schema::SchemaDescriptor::new(&elements).unwrap();
    let value = ws.arrow_schema_value().unwrap();
    let kv = [(ARROW_SCHEMA_KEY.as_bytes(), Some(value.as_bytes()))];
    let read = crate::arrow::arrow_schema(&descr, &elements, &kv, &Default::default()).unwrap();
    assert_eq!(read.schema.fields.len(), want.len());
    for (r, w) in read.schema.fields.iter().zip(&want) {
        assert_eq!(&**r, w, "{}", w.name());
    }
}
