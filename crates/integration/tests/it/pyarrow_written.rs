//! pyarrow writes IPC files and streams with the types the gold set lacks or covers thinly
//! (views, list views, run-end encoded, decimal32/64, large types, unions with non-default
//! type codes, nested, delta and replacement dictionaries, LZ4/ZSTD, slices of big arrays,
//! extension types…), and quiver reads them equal to the values pyarrow holds.
//!
//! `tests/py/write_cases.py` writes each case as an IPC file and stream plus a manifest of the
//! schema and values in a canonical JSON form (its docstring has the rules); [`canon_value`]
//! and [`canon_field`] render quiver's reading with the same rules. Every batch is also fully
//! validated, and quiver's reading of the stream must be logically equal to that of the file.

use crate::pyarrow_gold::pyarrow_python;
use quiver_arrow::compute::first_difference;
use quiver_arrow::{
    Array, DataType, Field, IntervalUnit, RecordBatch, Schema, TimeUnit, UnionMode, ValidationLevel,
};
use quiver_ipc::read::{FileReader, StreamReader};
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Cases the script writes; fewer means the script silently dropped some.
const MIN_CASES: usize = 29;

/// Cases quiver is known to get wrong, with text their mismatches must contain. They are
/// checked like the others but reported apart; one that no longer fails fails the test, so
/// that its entry gets removed.
const KNOWN_ISSUES: &[(&str, &str)] = &[];

fn unit(u: &TimeUnit) -> &'static str {
    match u {
        TimeUnit::Second => "s",
        TimeUnit::Millisecond => "ms",
        TimeUnit::Microsecond => "us",
        TimeUnit::Nanosecond => "ns",
    }
}

/// A type as `write_cases.py`'s `canon_type` renders it.
fn canon_type(t: &DataType) -> String {
    use DataType as D;
    let list = |name: &str, f: &Field| format!("{name}<{}>", canon_field(f));
    match t {
        D::Null => "null".into(),
        D::Boolean => "bool".into(),
        D::Int8 => "int8".into(),
        D::Int16 => "int16".into(),
        D::Int32 => "int32".into(),
        D::Int64 => "int64".into(),
        D::UInt8 => "uint8".into(),
        D::UInt16 => "uint16".into(),
        D::UInt32 => "uint32".into(),
        D::UInt64 => "uint64".into(),
        D::Float16 => "float16".into(),
        D::Float32 => "float32".into(),
        D::Float64 => "float64".into(),
        D::Decimal32 { precision, scale } => format!("decimal32({precision},{scale})"),
        D::Decimal64 { precision, scale } => format!("decimal64({precision},{scale})"),
        D::Decimal128 { precision, scale } => format!("decimal128({precision},{scale})"),
        D::Decimal256 { precision, scale } => format!("decimal256({precision},{scale})"),
        D::Date32 => "date32".into(),
        D::Date64 => "date64".into(),
        D::Time32(u) => format!("time32({})", unit(u)),
        D::Time64(u) => format!("time64({})", unit(u)),
        D::Timestamp(u, None) => format!("timestamp({})", unit(u)),
        D::Timestamp(u, Some(tz)) => format!("timestamp({},{tz})", unit(u)),
        D::Duration(u) => format!("duration({})", unit(u)),
        D::Interval(IntervalUnit::YearMonth) => "interval(year_month)".into(),
        D::Interval(IntervalUnit::DayTime) => "interval(day_time)".into(),
        D::Interval(IntervalUnit::MonthDayNano) => "interval(month_day_nano)".into(),
        D::FixedSizeBinary(n) => format!("fixed_size_binary({n})"),
        D::Binary => "binary".into(),
        D::Utf8 => "utf8".into(),
        D::LargeBinary => "large_binary".into(),
        D::LargeUtf8 => "large_utf8".into(),
        D::BinaryView => "binary_view".into(),
        D::Utf8View => "utf8_view".into(),
        D::FixedSizeList(f, n) => format!("fixed_size_list({n})<{}>", canon_field(f)),
        D::List(f) => list("list", f),
        D::LargeList(f) => list("large_list", f),
        D::ListView(f) => list("list_view", f),
        D::LargeListView(f) => list("large_list_view", f),
        D::Struct(fs) => {
            let parts: Vec<String> = fs.iter().map(|f| canon_field(f)).collect();
            format!("struct<{}>", parts.join(","))
        }
        D::Map(f, sorted) => {
            let order = if *sorted { "sorted" } else { "unsorted" };
            format!("map({order})<{}>", canon_field(f))
        }
        D::Union(u, mode) => {
            let mode = match mode {
                UnionMode::Sparse => "sparse",
                UnionMode::Dense => "dense",
            };
            let parts: Vec<String> = u
                .type_ids()
                .iter()
                .zip(u.fields().iter())
                .map(|(id, f)| format!("{id}={}", canon_field(f)))
                .collect();
            format!("{mode}_union<{}>", parts.join(","))
        }
        D::Dictionary {
            key,
            value,
            ordered,
        } => {
            let order = if *ordered { "ordered" } else { "unordered" };
            format!(
                "dictionary({},{order})<{}>",
                canon_type(&key.data_type()),
                canon_type(value)
            )
        }
        D::RunEndEncoded(r, v) => {
            format!("run_end_encoded<{},{}>", canon_field(r), canon_field(v))
        }
    }
}

/// `name[?]:type[{k=v,...}]`, metadata sorted by key.
fn canon_field(f: &Field) -> String {
    let mut s = format!(
        "{}{}:{}",
        f.name(),
        if f.is_nullable() { "?" } else { "" },
        canon_type(f.data_type())
    );
    if !f.metadata().is_empty() {
        let kv: Vec<String> = f
            .metadata()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        s.push_str(&format!("{{{}}}", kv.join(",")));
    }
    s
}

fn hex(bytes: &[u8]) -> Value {
    Value::String(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn canon_list(a: &Array) -> Value {
    Value::Array((0..a.len()).map(|i| canon_value(a, i)).collect())
}

/// Slot `i` of `a` in the canonical JSON form (see `write_cases.py`).
fn canon_value(a: &Array, i: usize) -> Value {
    match a {
        // Layouts whose nulls live in a child: resolve before looking at nulls.
        Array::Union(u) => {
            let child = &u.children()[u.child_index(i)];
            return json!([u.type_ids()[i], canon_value(child, u.value_offset(i))]);
        }
        Array::Dictionary(d) => {
            return d.key(i).map_or(Value::Null, |k| canon_value(d.values(), k));
        }
        Array::RunEndEncoded(r) => return canon_value(r.values(), r.physical_index(i)),
        _ if a.is_null(i) => return Value::Null,
        _ => {}
    }
    match a {
        Array::Null(_) | Array::Union(_) | Array::Dictionary(_) | Array::RunEndEncoded(_) => {
            Value::Null
        }
        Array::Boolean(b) => b.value(i).into(),
        Array::I8(p) => p.value(i).into(),
        Array::I16(p) => p.value(i).into(),
        Array::I32(p) => match p.data_type() {
            DataType::Decimal32 { .. } => p.value(i).to_string().into(),
            _ => p.value(i).into(),
        },
        Array::I64(p) => match p.data_type() {
            DataType::Decimal64 { .. } => p.value(i).to_string().into(),
            _ => p.value(i).into(),
        },
        Array::U8(p) => p.value(i).into(),
        Array::U16(p) => p.value(i).into(),
        Array::U32(p) => p.value(i).into(),
        Array::U64(p) => p.value(i).into(),
        Array::F16(p) => format!("0x{:04x}", p.value(i).to_bits()).into(),
        Array::F32(p) => format!("0x{:08x}", p.value(i).to_bits()).into(),
        Array::F64(p) => format!("0x{:016x}", p.value(i).to_bits()).into(),
        Array::I128(p) => p.value(i).to_i128().to_string().into(),
        Array::I256(p) => p.value(i).to_string().into(),
        Array::DaysMs(p) => json!([p.value(i).days, p.value(i).milliseconds]),
        Array::MonthDayNano(p) => {
            let v = p.value(i);
            json!([v.months, v.days, v.nanoseconds])
        }
        Array::Binary(b) => hex(b.value(i)),
        Array::LargeBinary(b) => hex(b.value(i)),
        Array::BinaryView(b) => hex(b.value(i)),
        Array::FixedSizeBinary(b) => hex(b.value(i)),
        Array::Utf8(s) => s.value(i).into(),
        Array::LargeUtf8(s) => s.value(i).into(),
        Array::Utf8View(s) => s.value(i).into(),
        Array::List(l) => canon_list(&l.value(i)),
        Array::LargeList(l) => canon_list(&l.value(i)),
        Array::ListView(l) => canon_list(&l.value(i)),
        Array::LargeListView(l) => canon_list(&l.value(i)),
        Array::FixedSizeList(l) => canon_list(&l.value(i)),
        Array::Struct(s) => {
            let mut m = Map::new();
            for (f, c) in s.fields().iter().zip(s.columns()) {
                m.insert(f.name().to_string(), canon_value(c, i));
            }
            Value::Object(m)
        }
        Array::Map(m) => {
            let e = m.value(i);
            let (k, v) = (e.column(0), e.column(1));
            Value::Array(
                (0..e.len())
                    .map(|j| json!([canon_value(k, j), canon_value(v, j)]))
                    .collect(),
            )
        }
    }
}

/// A column rendered slot by slot.
fn canon_column(a: &Array) -> Vec<Value> {
    (0..a.len()).map(|i| canon_value(a, i)).collect()
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 200 {
        format!("{}…", s.chars().take(200).collect::<String>())
    } else {
        s
    }
}

/// Compares one reading (file or stream) with the manifest; pushes one line per mismatch.
fn check_reading(
    what: &str,
    case: &Value,
    schema: &Schema,
    batches: &[RecordBatch],
    failures: &mut Vec<String>,
) {
    let expected_fields: Vec<&str> = case["schema"]
        .as_array()
        .expect("schema")
        .iter()
        .map(|f| f.as_str().expect("field string"))
        .collect();
    let actual_fields: Vec<String> = schema.fields.iter().map(|f| canon_field(f)).collect();
    if expected_fields.len() != actual_fields.len() {
        failures.push(format!(
            "{what}: {} fields, pyarrow wrote {}",
            actual_fields.len(),
            expected_fields.len()
        ));
    }
    for (e, a) in expected_fields.iter().zip(&actual_fields) {
        if e != a {
            failures.push(format!("{what}: field\n    quiver  {a}\n    pyarrow {e}"));
        }
    }
    let expected_meta = case["schema_metadata"]
        .as_object()
        .expect("schema_metadata");
    let actual_meta: Map<String, Value> = schema
        .metadata
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    if &actual_meta != expected_meta {
        failures.push(format!(
            "{what}: schema metadata {actual_meta:?}, pyarrow wrote {expected_meta:?}"
        ));
    }
    let expected_batches = case["batches"].as_array().expect("batches");
    if expected_batches.len() != batches.len() {
        failures.push(format!(
            "{what}: {} batches, pyarrow wrote {}",
            batches.len(),
            expected_batches.len()
        ));
    }
    for (b, (expected, batch)) in expected_batches.iter().zip(batches).enumerate() {
        if let Err(e) = batch.validate(ValidationLevel::Full) {
            failures.push(format!("{what}: batch {b} fails full validation: {e}"));
            continue;
        }
        if batch.schema().as_ref() != schema {
            failures.push(format!(
                "{what}: batch {b} has another schema than the reader"
            ));
        }
        let rows = expected["rows"].as_u64().expect("rows") as usize;
        if batch.num_rows() != rows {
            failures.push(format!(
                "{what}: batch {b} has {} rows, pyarrow wrote {rows}",
                batch.num_rows()
            ));
            continue;
        }
        let columns = expected["columns"].as_array().expect("columns");
        if columns.len() != batch.num_columns() {
            failures.push(format!(
                "{what}: batch {b} has {} columns, pyarrow wrote {}",
                batch.num_columns(),
                columns.len()
            ));
        }
        for (c, (want, column)) in columns.iter().zip(batch.columns()).enumerate() {
            let want = want.as_array().expect("column values");
            let got = canon_column(column);
            let name = schema.fields[c].name();
            let differing: Vec<usize> = (0..want.len().max(got.len()))
                .filter(|&r| want.get(r) != got.get(r))
                .collect();
            if let Some(&r) = differing.first() {
                failures.push(format!(
                    "{what}: batch {b} column {name:?}: {} of {rows} rows differ; first, row {r}:\n    quiver  {}\n    pyarrow {}",
                    differing.len(),
                    got.get(r).map_or("<missing>".into(), short),
                    want.get(r).map_or("<missing>".into(), short),
                ));
            }
        }
    }
}

fn read_file(path: &Path) -> Result<(Schema, Vec<RecordBatch>), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let reader = FileReader::from_bytes(bytes.into()).map_err(|e| e.to_string())?;
    let schema = reader.schema().as_ref().clone();
    let batches = reader
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    Ok((schema, batches))
}

fn read_stream(path: &Path) -> Result<(Schema, Vec<RecordBatch>), String> {
    let f = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let reader = StreamReader::try_new(std::io::BufReader::new(f)).map_err(|e| e.to_string())?;
    let schema = reader.schema().as_ref().clone();
    let batches = reader
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    Ok((schema, batches))
}

/// Checks one case of the manifest: its file and stream against pyarrow's values, and quiver's
/// readings of the two against each other.
fn check_case(dir: &Path, case: &Value, failures: &mut Vec<String>) {
    let name = case["name"].as_str().expect("case name");
    let mut readings = Vec::new();
    for (kind, read) in [
        ("file", read_file as fn(&Path) -> Result<_, String>),
        ("stream", read_stream),
    ] {
        let Some(file) = case[kind].as_str() else {
            continue;
        };
        let what = format!("{name} ({kind})");
        match read(&dir.join(file)) {
            Ok((schema, batches)) => {
                check_reading(&what, case, &schema, &batches, failures);
                readings.push((what, batches));
            }
            Err(e) => failures.push(format!("{what}: quiver cannot read it: {e}")),
        }
    }
    if let [(file_what, file), (stream_what, stream)] = &readings[..] {
        for (b, (x, y)) in file.iter().zip(stream).enumerate() {
            for (c, (p, q)) in x.columns().iter().zip(y.columns()).enumerate() {
                if let Some(d) = first_difference(p, q) {
                    failures.push(format!(
                        "{file_what} vs {stream_what}: batch {b} column {c} differs: {d}"
                    ));
                }
            }
        }
    }
}

/// Runs `write_cases.py` into a fresh temporary directory.
fn write_cases(python: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quiver-pyarrow-written-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/py/write_cases.py");
    let output = Command::new(python)
        .arg(&script)
        .arg(&dir)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "write_cases.py failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    dir
}

#[test]
fn quiver_reads_what_pyarrow_writes_as_pyarrow_holds_it() {
    let Some(python) = pyarrow_python() else {
        return;
    };
    let dir = write_cases(python);
    let manifest: Value = serde_json::from_slice(
        &std::fs::read(dir.join("manifest.json")).expect("manifest written"),
    )
    .expect("manifest is JSON");
    let cases = manifest["cases"].as_array().expect("cases");
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().expect("case name");
        let Some((_, symptom)) = KNOWN_ISSUES.iter().find(|(n, _)| *n == name) else {
            check_case(&dir, case, &mut failures);
            continue;
        };
        let mut known = Vec::new();
        check_case(&dir, case, &mut known);
        if known.iter().any(|f| f.contains(symptom)) {
            eprintln!("known issue, still present:\n{}", known.join("\n"));
        } else {
            failures.push(format!(
                "{name}: the known issue ({symptom:?}) is gone; remove it from KNOWN_ISSUES{}",
                known.iter().map(|f| format!("\n  {f}")).collect::<String>()
            ));
        }
    }
    for (name, _) in KNOWN_ISSUES {
        if !cases.iter().any(|c| c["name"] == *name) {
            failures.push(format!("known issue {name:?} names no case"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        cases.len() >= MIN_CASES,
        "write_cases.py wrote {} cases, expected at least {MIN_CASES}",
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} mismatches with pyarrow {}:\n{}",
        failures.len(),
        manifest["pyarrow"],
        failures.join("\n")
    );
}
