//! File formats and how they are recognised.

use clap::ValueEnum;
use std::path::Path;

/// A data format quiver reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Arrow IPC file (random access; `.arrow`, `.feather`, `.ipc`).
    #[value(alias = "file", alias = "ipc", alias = "feather")]
    Arrow,
    /// Arrow IPC stream (`.arrows`).
    #[value(alias = "stream")]
    Arrows,
    /// Comma-separated values (`.csv`; `.tsv` is tab-separated).
    Csv,
    /// JSON Lines: one JSON object per line (`.jsonl`, `.ndjson`).
    #[value(alias = "ndjson")]
    Jsonl,
    /// JSON: one array of objects (`.json`; input may also be JSON Lines).
    Json,
    /// Apache Parquet (`.parquet`, `.parq`).
    Parquet,
}

/// What an input's first and last bytes say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Magic {
    /// A format quiver knows.
    Known(Format),
    /// Parquet's magic at the end only (a file whose head is damaged, or text that happens to
    /// end in `PAR1`): weaker evidence than an extension.
    ParquetFooter,
    /// A legacy Feather V1 file (`FEA1`), which predates the Arrow IPC file format.
    FeatherV1,
    /// Nothing recognisable (text, or data without a magic number).
    Unknown,
}

impl Magic {
    /// Recognises an input by its first bytes `head` and, for a file, its last bytes `tail`
    /// (empty when unknown, as for standard input): the Arrow file magic `ARROW1`, an Arrow
    /// stream's continuation marker, Parquet's `PAR1` (`PARE` when encrypted) at either end,
    /// Feather V1's `FEA1`.
    pub fn of(head: &[u8], tail: &[u8]) -> Magic {
        let parquet = |b: &[u8]| b == b"PAR1" || b == b"PARE";
        if head.starts_with(b"ARROW1") {
            Magic::Known(Format::Arrow)
        } else if head.starts_with(&[0xFF, 0xFF, 0xFF, 0xFF]) {
            Magic::Known(Format::Arrows)
        } else if head.get(..4).is_some_and(parquet) {
            Magic::Known(Format::Parquet)
        } else if head.starts_with(b"FEA1") {
            Magic::FeatherV1
        } else if tail.len() >= 4 && parquet(&tail[tail.len() - 4..]) {
            Magic::ParquetFooter
        } else {
            Magic::Unknown
        }
    }

    /// The format the first bytes name, if any.
    pub fn format(self) -> Option<Format> {
        match self {
            Magic::Known(f) => Some(f),
            _ => None,
        }
    }
}

/// Decides the input format: `--from` (`from`) when given, else the magic number at the start,
/// else the extension (`ext`), else Parquet's magic at the end. A Feather V1 file read as
/// Arrow is an error naming it; no answer at all is a usage error listing every `--from`
/// value. (The caller adds the input's name.)
pub fn resolve(from: Option<Format>, magic: Magic, ext: Option<Format>) -> anyhow::Result<Format> {
    if magic == Magic::FeatherV1 && from.is_none_or(Format::is_arrow) {
        anyhow::bail!(
            "Feather V1 (legacy) is not supported; convert it with pyarrow.feather (read_table, \
             then write_feather writes Feather V2, an Arrow IPC file)"
        );
    }
    let footer = (magic == Magic::ParquetFooter).then_some(Format::Parquet);
    match from.or(magic.format()).or(ext).or(footer) {
        Some(f) => Ok(f),
        None => crate::usage!(
            "cannot tell the format from the content or the extension; pass --from {}",
            Format::choices()
        ),
    }
}

impl Format {
    /// The format an extension names, if any.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "arrow" | "feather" | "ipc" => Format::Arrow,
            "arrows" => Format::Arrows,
            "csv" | "tsv" => Format::Csv,
            "jsonl" | "ndjson" => Format::Jsonl,
            "json" => Format::Json,
            "parquet" | "parq" => Format::Parquet,
            _ => return None,
        })
    }

    /// The name shown to users.
    pub fn describe(self) -> &'static str {
        match self {
            Format::Arrow => "Arrow IPC file",
            Format::Arrows => "Arrow IPC stream",
            Format::Csv => "CSV",
            Format::Jsonl => "JSON Lines",
            Format::Json => "JSON",
            Format::Parquet => "Parquet",
        }
    }

    /// Every `--from` / `--to` value, as `arrow|arrows|…`.
    pub fn choices() -> String {
        let names: Vec<String> = Format::value_variants()
            .iter()
            .filter_map(|f| f.to_possible_value())
            .map(|v| v.get_name().to_string())
            .collect();
        names.join("|")
    }

    /// True for the Arrow IPC formats.
    pub fn is_arrow(self) -> bool {
        matches!(self, Format::Arrow | Format::Arrows)
    }
}

/// The default CSV delimiter for a path: tab for `.tsv`, comma otherwise.
pub fn default_delimiter(path: &Path) -> u8 {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("tsv") => b'\t',
        _ => b',',
    }
}

/// Parses a delimiter argument: one ASCII character, or `\t` / `tab`.
pub fn parse_delimiter(s: &str) -> anyhow::Result<u8> {
    match s {
        "\\t" | "tab" | "\t" => Ok(b'\t'),
        _ if s.len() == 1 && s.is_ascii() => Ok(s.as_bytes()[0]),
        _ => crate::usage!("the delimiter must be one ASCII character (or \\t), not {s:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_and_magic() {
        assert_eq!(
            Format::from_path(Path::new("a/b.ARROW")),
            Some(Format::Arrow)
        );
        assert_eq!(
            Format::from_path(Path::new("b.arrows")),
            Some(Format::Arrows)
        );
        assert_eq!(
            Format::from_path(Path::new("b.ndjson")),
            Some(Format::Jsonl)
        );
        assert_eq!(
            Format::from_path(Path::new("b.parquet")),
            Some(Format::Parquet)
        );
        assert_eq!(Format::from_path(Path::new("noext")), None);
        assert_eq!(Magic::of(b"ARROW1\0\0", b""), Magic::Known(Format::Arrow));
        assert_eq!(Magic::of(&[0xFF; 8], b""), Magic::Known(Format::Arrows));
        assert_eq!(Magic::of(b"a,b\n", b"a,b\n"), Magic::Unknown);
        assert_eq!(
            Magic::of(b"PAR1\x15\x04", b""),
            Magic::Known(Format::Parquet)
        );
        // A Parquet file is also recognised by its last bytes (the footer's magic).
        assert_eq!(Magic::of(b"xxxx", b"\0\0PAR1"), Magic::ParquetFooter);
        let footer = Magic::ParquetFooter;
        assert_eq!(resolve(None, footer, None).unwrap(), Format::Parquet);
        let csv = Some(Format::Csv);
        assert_eq!(resolve(None, footer, csv).unwrap(), Format::Csv);
        let feather = Magic::FeatherV1;
        let e = resolve(None, feather, Some(Format::Arrow)).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("Feather V1 (legacy) is not supported")
        );
        assert_eq!(resolve(csv, feather, None).unwrap(), Format::Csv);
        assert_eq!(Magic::of(b"FEA1\0\0\0\0", b"FEA1"), Magic::FeatherV1);
        assert_eq!(Format::choices(), "arrow|arrows|csv|jsonl|json|parquet");
        assert_eq!(default_delimiter(Path::new("x.tsv")), b'\t');
        assert_eq!(parse_delimiter("\\t").unwrap(), b'\t');
        assert_eq!(parse_delimiter(";").unwrap(), b';');
        assert!(parse_delimiter("ab").is_err());
    }
}
