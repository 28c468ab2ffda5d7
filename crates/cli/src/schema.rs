//! `quiver schema`: the fields as an indented tree, each type spelled as pyarrow spells it
//! (`quiver_arrow::display::format_field_type`, as `meta --verbose` does).

use crate::args::SchemaArgs;
use crate::format::Format;
use crate::source::Input;
use anyhow::Context;
use anyhow::Result;
use quiver_arrow::display::format_field_type;
use quiver_arrow::{Field, Metadata, Schema};
use quiver_ipc::IpcSchema;
use quiver_ipc::schema::ipc_children;
use std::fmt::Write as _;
use std::io::Write;
use std::process::ExitCode;

/// Runs `quiver schema`.
pub fn run(args: &SchemaArgs) -> Result<ExitCode> {
    if args.parquet {
        return parquet_tree(args);
    }
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

/// `schema --parquet`: the Parquet schema tree ([`crate::parquet::tree`]).
fn parquet_tree(args: &SchemaArgs) -> Result<ExitCode> {
    let label = crate::source::label_of(&args.file);
    let format = crate::source::input_format(&args.file, &args.read)?;
    if format != Format::Parquet {
        crate::usage!(
            "{label}: --parquet shows the schema of Parquet files, and this is {}",
            format.describe()
        );
    }
    let (bytes, _) = crate::source::read_all(&args.file)?;
    let files = crate::parquet::open_meta(&bytes).with_context(|| label.clone())?;
    let text = crate::parquet::tree::render(files.meta());
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The schema as text: a title line, one line per field with its full type (children again
/// on the lines below it, indented, as pyarrow prints a schema), field metadata under its
/// field, then the schema metadata.
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
    let _ = write!(s, "{indent}{}: {}", f.name(), format_field_type(f));
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
