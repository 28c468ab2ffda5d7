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
            _ => return None,
        })
    }

    /// Recognises Arrow data by its first bytes: the file magic `ARROW1`, or a stream's
    /// continuation marker (or a pre-0.15 stream's positive metadata length).
    pub fn sniff(head: &[u8]) -> Option<Format> {
        if head.starts_with(b"ARROW1") {
            return Some(Format::Arrow);
        }
        if head.starts_with(&[0xFF, 0xFF, 0xFF, 0xFF]) {
            return Some(Format::Arrows);
        }
        None
    }

    /// The name shown to users.
    pub fn describe(self) -> &'static str {
        match self {
            Format::Arrow => "Arrow IPC file",
            Format::Arrows => "Arrow IPC stream",
            Format::Csv => "CSV",
            Format::Jsonl => "JSON Lines",
            Format::Json => "JSON",
        }
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
        assert_eq!(Format::from_path(Path::new("b.parquet")), None);
        assert_eq!(Format::from_path(Path::new("noext")), None);
        assert_eq!(Format::sniff(b"ARROW1\0\0"), Some(Format::Arrow));
        assert_eq!(Format::sniff(&[0xFF; 8]), Some(Format::Arrows));
        assert_eq!(Format::sniff(b"a,b\n"), None);
        assert_eq!(default_delimiter(Path::new("x.tsv")), b'\t');
        assert_eq!(parse_delimiter("\\t").unwrap(), b'\t');
        assert_eq!(parse_delimiter(";").unwrap(), b';');
        assert!(parse_delimiter("ab").is_err());
    }
}
