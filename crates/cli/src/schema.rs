//! `quiver schema`: the fields as an indented tree with pyarrow-style type names.

use crate::args::InputArgs;
use crate::source::Input;
use anyhow::Result;
use quiver_arrow::{DataType, Field, IntervalUnit, Metadata, Schema, UnionMode};
use quiver_ipc::IpcSchema;
use quiver_ipc::schema::ipc_children;
use std::fmt::Write as _;
use std::io::Write;
use std::process::ExitCode;

/// Runs `quiver schema`.
pub fn run(args: &InputArgs) -> Result<ExitCode> {
    let input = Input::open(&args.file, &args.read, None)?;
    let text = render(
        &input.label,
        input.format.describe(),
        input.schema(),
        input.ipc_schema(),
    );
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The schema as text: a title line, one line per field (children indented under their
/// parent), field metadata under its field, then the schema metadata.
pub fn render(label: &str, format: &str, schema: &Schema, ipc: Option<&IpcSchema>) -> String {
    let n = schema.fields.len();
    let mut s = format!("{label}: {format}, {n} column{}\n", plural(n));
    let mut path = Vec::new();
    for (i, f) in schema.fields.iter().enumerate() {
        path.push(i);
        field_lines(&mut s, f, 1, &mut path, ipc);
        path.pop();
    }
    if !schema.metadata.is_empty() {
        s.push_str("schema metadata:\n");
        metadata_lines(&mut s, &schema.metadata, 1);
    }
    s
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn field_lines(
    s: &mut String,
    f: &Field,
    depth: usize,
    path: &mut Vec<usize>,
    ipc: Option<&IpcSchema>,
) {
    let indent = "  ".repeat(depth);
    let _ = write!(s, "{indent}{}: {}", f.name(), type_name(f.data_type()));
    if !f.is_nullable() {
        s.push_str(" not null");
    }
    if let Some(id) = ipc.and_then(|i| i.dictionaries.id_at(path)) {
        let _ = write!(s, "  [dictionary id {id}]");
    }
    if let Some(ext) = f.extension_type() {
        let _ = write!(s, "  [extension {}", ext.name);
        if !ext.metadata.is_empty() {
            let _ = write!(s, ", metadata {:?}", ext.metadata);
        }
        s.push(']');
    }
    s.push('\n');
    let other: Metadata = f
        .metadata()
        .iter()
        .filter(|(k, _)| !k.starts_with("ARROW:extension:"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if !other.is_empty() {
        let _ = writeln!(s, "{indent}  metadata:");
        metadata_lines(s, &other, depth + 2);
    }
    for (j, c) in ipc_children(f.data_type()).iter().enumerate() {
        path.push(j);
        field_lines(s, c, depth + 1, path, ipc);
        path.pop();
    }
}

fn metadata_lines(s: &mut String, m: &Metadata, depth: usize) {
    let indent = "  ".repeat(depth);
    for (k, v) in m {
        let _ = writeln!(s, "{indent}{k:?}: {v:?}");
    }
}

/// A type's name as pyarrow prints it; nested types give their kind only (their children are
/// listed on the lines below).
pub fn type_name(dt: &DataType) -> String {
    use DataType::*;
    match dt {
        Null => "null".into(),
        Boolean => "bool".into(),
        Int8 => "int8".into(),
        Int16 => "int16".into(),
        Int32 => "int32".into(),
        Int64 => "int64".into(),
        UInt8 => "uint8".into(),
        UInt16 => "uint16".into(),
        UInt32 => "uint32".into(),
        UInt64 => "uint64".into(),
        Float16 => "halffloat".into(),
        Float32 => "float".into(),
        Float64 => "double".into(),
        Utf8 => "string".into(),
        LargeUtf8 => "large_string".into(),
        Utf8View => "string_view".into(),
        Binary => "binary".into(),
        LargeBinary => "large_binary".into(),
        BinaryView => "binary_view".into(),
        _ => temporal_or_nested(dt),
    }
}

fn temporal_or_nested(dt: &DataType) -> String {
    use DataType::*;
    match dt {
        Decimal32 { precision, scale } => format!("decimal32({precision}, {scale})"),
        Decimal64 { precision, scale } => format!("decimal64({precision}, {scale})"),
        Decimal128 { precision, scale } => format!("decimal128({precision}, {scale})"),
        Decimal256 { precision, scale } => format!("decimal256({precision}, {scale})"),
        Date32 => "date32[day]".into(),
        Date64 => "date64[ms]".into(),
        Time32(u) => format!("time32[{u}]"),
        Time64(u) => format!("time64[{u}]"),
        Timestamp(u, None) => format!("timestamp[{u}]"),
        Timestamp(u, Some(tz)) => format!("timestamp[{u}, tz={tz}]"),
        Duration(u) => format!("duration[{u}]"),
        Interval(IntervalUnit::YearMonth) => "month_interval".into(),
        Interval(IntervalUnit::DayTime) => "day_time_interval".into(),
        Interval(IntervalUnit::MonthDayNano) => "month_day_nano_interval".into(),
        FixedSizeBinary(n) => format!("fixed_size_binary[{n}]"),
        _ => nested_name(dt),
    }
}

fn nested_name(dt: &DataType) -> String {
    use DataType::*;
    match dt {
        List(_) => "list".into(),
        LargeList(_) => "large_list".into(),
        ListView(_) => "list_view".into(),
        LargeListView(_) => "large_list_view".into(),
        FixedSizeList(_, n) => format!("fixed_size_list[{n}]"),
        Struct(_) => "struct".into(),
        Map(_, false) => "map".into(),
        Map(_, true) => "map (keys sorted)".into(),
        Union(u, mode) => {
            let m = if *mode == UnionMode::Sparse {
                "sparse"
            } else {
                "dense"
            };
            let ids: Vec<String> = u.type_ids().iter().map(|i| i.to_string()).collect();
            format!("{m}_union[type ids {}]", ids.join(","))
        }
        Dictionary {
            key,
            value,
            ordered,
        } => format!(
            "dictionary<values={}, indices={}, ordered={}>",
            type_name(value),
            type_name(&key.data_type()),
            u8::from(*ordered)
        ),
        RunEndEncoded(r, _) => format!("run_end_encoded<run_ends={}>", type_name(r.data_type())),
        other => format!("{other}"),
    }
}
