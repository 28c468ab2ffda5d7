//! `quiver meta`: finds the input's format like the other subcommands, then shows the layout of
//! Arrow data ([`crate::meta`]), the metadata of Parquet ([`crate::parquet::meta`]) or a summary
//! of CSV and JSON (dialect, schema, rows).

use crate::args::MetaArgs;
use crate::format::{self, Format, Magic};
use crate::numbers::{count, group};
use crate::parquet::meta::MetaOptions;
use crate::source::{self, Input};
use anyhow::{Context, Result, bail};
use bytes::Bytes;
use quiver_ipc::inspect::inspect_stream;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

/// Runs `quiver meta`.
pub fn run(a: &MetaArgs) -> Result<ExitCode> {
    let (bytes, label) = source::read_all(&a.file)?;
    if bytes.is_empty() {
        bail!("{label}: the input is empty (0 bytes)");
    }
    let format = meta_format(&bytes, &a.file, a).with_context(|| label.clone())?;
    if a.pages && format != Some(Format::Parquet) {
        crate::usage!("{label}: --pages lists the pages of Parquet files only");
    }
    let mut out = io::stdout().lock();
    match format {
        Some(Format::Arrow) => crate::meta::print_file_meta(&bytes, &label, a.verbose, &mut out)?,
        Some(Format::Arrows) | None => {
            crate::meta::print_stream_meta(&bytes, &label, a.verbose, &mut out)?
        }
        Some(Format::Parquet) => {
            let options = MetaOptions {
                verbose: a.verbose,
                pages: a.pages,
            };
            crate::parquet::meta::print(&bytes, &label, options, &mut out)?
        }
        Some(f) => {
            let text = text_summary(bytes, f, a, &label)?;
            out.write_all(text.as_bytes())?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The format as the other subcommands decide it, except that data with no magic number
/// and no text extension is listed as an Arrow stream (`None`; a pre-0.15 stream has no
/// marker, and streams are often named `.arrow`). Without any extension, data in which not
/// even a first stream message is found is an error saying it is neither Arrow nor Parquet.
fn meta_format(bytes: &[u8], path: &Path, a: &MetaArgs) -> Result<Option<Format>> {
    let tail = &bytes[bytes.len().saturating_sub(8)..];
    let magic = Magic::of(bytes, tail);
    let ext = Format::from_path(path);
    let text_ext = ext.filter(|f| !f.is_arrow());
    if a.read.from.is_some() || magic != Magic::Unknown || text_ext.is_some() {
        return format::resolve(a.read.from, magic, ext).map(Some);
    }
    if ext.is_none() && inspect_stream(bytes).messages.is_empty() {
        bail!(
            "not an Arrow or Parquet file (no magic number, and no Arrow stream message at the \
             start); for CSV or JSON pass --from csv|jsonl|json"
        );
    }
    Ok(None)
}

/// What `meta` shows of CSV and JSON: the format and its dialect, the row count and the schema.
fn text_summary(bytes: Bytes, format: Format, a: &MetaArgs, label: &str) -> Result<String> {
    let size = bytes.len() as u64;
    let endings = line_endings(&bytes);
    let mut input = source::open_bytes(bytes, format, &a.file, &a.read, label)?;
    let mut rows = 0u64;
    while let Some(b) = input.next_batch()? {
        rows += b.num_rows() as u64;
    }
    let mut s = format!(
        "file: {label}  ({})  format: {}\n",
        count(size, "byte", "bytes"),
        format.describe()
    );
    if format == Format::Csv {
        let o = source::csv_options(&a.read, &a.file)?;
        let header = if o.has_header {
            "the first line"
        } else {
            "none (--no-header)"
        };
        s.push_str(&format!(
            "dialect: delimiter {}, quote {}, header: {header}, line endings: {endings}\n",
            show_char(o.delimiter),
            show_char(o.quote),
        ));
    } else {
        s.push_str(&format!("line endings: {endings}\n"));
    }
    s.push_str(&format!("rows: {}\n", group(rows)));
    s.push_str(&schema_lines(&input, a, rows));
    Ok(s)
}

/// The schema, indented as `quiver schema` prints it, under a line saying where it came from
/// (of `rows` rows, how many inference looked at).
fn schema_lines(input: &Input, a: &MetaArgs, rows: u64) -> String {
    let origin = if a.read.schema.is_some() {
        "given by --schema".to_string()
    } else if a.read.schema_from.is_some() {
        "from --schema-from".to_string()
    } else {
        format!(
            "inferred from the first {}",
            count(rows.min(a.read.infer_rows.max(1) as u64), "row", "rows")
        )
    };
    let fields = crate::schema::render("", "", input.schema(), None);
    let body: Vec<&str> = fields.lines().skip(1).collect();
    format!(
        "schema ({}, {origin}):\n{}\n",
        count(input.schema().fields.len() as u64, "column", "columns"),
        body.join("\n")
    )
}

/// A delimiter or quote byte as shown to users: `","`, `"\t"`.
fn show_char(b: u8) -> String {
    format!("{:?}", char::from(b))
}

/// The line endings of text: `LF`, `CRLF`, `CR`, mixed (with the counts), or none.
fn line_endings(bytes: &[u8]) -> String {
    let (mut lf, mut crlf, mut cr) = (0u64, 0u64, 0u64);
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                crlf += 1;
                i += 1;
            }
            b'\r' => cr += 1,
            b'\n' => lf += 1,
            _ => {}
        }
        i += 1;
    }
    let kinds = [("LF", lf), ("CRLF", crlf), ("CR", cr)];
    let used: Vec<String> = kinds
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| format!("{} {k}", group(*n)))
        .collect();
    match used.len() {
        0 => "none (a single line)".into(),
        1 => kinds.iter().find(|(_, n)| *n > 0).unwrap().0.to_string(), // ok: `used` holds exactly the kinds with n > 0
        _ => format!("mixed ({})", used.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::line_endings;

    #[test]
    fn line_endings_are_named() {
        assert_eq!(line_endings(b"a\nb\n"), "LF");
        assert_eq!(line_endings(b"a\r\nb\r\n"), "CRLF");
        assert_eq!(line_endings(b"a\rb"), "CR");
        assert_eq!(line_endings(b"a\r\nb\nc\n"), "mixed (2 LF, 1 CRLF)");
        assert_eq!(line_endings(b"abc"), "none (a single line)");
    }
}
