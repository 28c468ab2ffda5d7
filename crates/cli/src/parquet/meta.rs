//! `quiver meta` of a Parquet file: the footer (version, writer, key-value metadata), the row
//! groups, every column chunk (type, codec, encodings, sizes, statistics as typed values, page
//! index and bloom filter locations, its own key-value metadata) and, with `--pages`, every
//! page header. Plain aligned text, as `meta` shows Arrow IPC files (the tables of
//! [`crate::meta`]).

use super::stats::{hex, show};
use super::{chunk_pages, open_meta};
use crate::meta::{plural, table, thousands};
use anyhow::{Result, anyhow};
use quiver_parquet::format::{ColumnChunk, PageHeader, PageType, SortingColumn, Statistics};
use quiver_parquet::metadata::ParquetMetaData;
use std::io::Write;

/// Key-value values longer than this are shown by their length unless `--verbose`.
const LONG_VALUE: usize = 100;

/// What to show.
#[derive(Debug, Clone, Copy, Default)]
pub struct MetaOptions {
    /// Key-value metadata values in full.
    pub verbose: bool,
    /// Every page header of every column chunk.
    pub pages: bool,
}

/// Prints the metadata of the Parquet file `bytes` (`label` names it). Fails, after printing
/// what it could, when some column chunk or page could not be read.
pub fn print(bytes: &[u8], label: &str, o: MetaOptions, out: &mut dyn Write) -> Result<()> {
    let files = open_meta(bytes).map_err(|e| anyhow!("{label}: {e}"))?;
    let meta = files.meta();
    header(bytes, meta, label, out)?;
    key_values(meta, o.verbose, out)?;
    row_group_table(meta, out)?;
    let mut failed = 0;
    for g in 0..meta.num_row_groups() {
        failed += chunk_table(meta, g, o.verbose, out)?;
        if o.pages {
            for c in 0..meta.num_columns() {
                failed += page_table(&files, g, c, out)?;
            }
        }
    }
    match failed {
        0 => Ok(()),
        n => Err(anyhow!("{label}: {} could not be read", plural(n, "part"))),
    }
}

fn header(
    bytes: &[u8],
    meta: &ParquetMetaData<'_>,
    label: &str,
    out: &mut dyn Write,
) -> Result<()> {
    let f = meta.file();
    writeln!(
        out,
        "file: {label}  ({} bytes)  format: Parquet, version {}",
        thousands(bytes.len()),
        f.version
    )?;
    let created_by = f.created_by.map_or("(not recorded)".into(), |b| {
        String::from_utf8_lossy(b).into_owned()
    });
    writeln!(out, "created by: {created_by}")?;
    let footer = bytes.len() as u64 - meta.data_range().end;
    let descr = meta.schema_descr();
    writeln!(
        out,
        "footer: {} bytes; schema: {}, {}; {}, {}",
        thousands(footer),
        plural(descr.fields().len(), "field"),
        plural(meta.num_columns(), "leaf column"),
        plural(meta.num_row_groups(), "row group"),
        plural(meta.num_rows(), "row"),
    )?;
    Ok(())
}

fn key_values(meta: &ParquetMetaData<'_>, verbose: bool, out: &mut dyn Write) -> Result<()> {
    let kv = meta
        .file()
        .key_value_metadata
        .as_deref()
        .unwrap_or_default();
    if kv.is_empty() {
        writeln!(out, "key-value metadata: none")?;
        return Ok(());
    }
    writeln!(out, "key-value metadata ({}):", plural(kv.len(), "key"))?;
    for pair in kv {
        writeln!(out, "  {}", key_value(pair, verbose))?;
    }
    Ok(())
}

/// `"key": "value"`, a long value by its length unless `verbose`.
fn key_value(pair: &quiver_parquet::format::KeyValue<'_>, verbose: bool) -> String {
    let key = String::from_utf8_lossy(pair.key);
    let value = match pair.value {
        None => "(no value)".to_string(),
        Some(v) if v.len() > LONG_VALUE && !verbose => {
            format!("({} bytes; --verbose shows it)", thousands(v.len()))
        }
        Some(v) => format!("{:?}", String::from_utf8_lossy(v)),
    };
    format!("{key:?}: {value}")
}

fn row_group_table(meta: &ParquetMetaData<'_>, out: &mut dyn Write) -> Result<()> {
    writeln!(out, "row groups ({}):", meta.num_row_groups())?;
    let header = ["#", "rows", "offset", "bytes", "compressed", "sorted by"];
    let mut rows = Vec::new();
    for g in 0..meta.num_row_groups() {
        let rg = meta.row_group(g)?;
        let sorting = rg.sorting_columns.as_deref().unwrap_or_default();
        rows.push(vec![
            g.to_string(),
            thousands(rg.num_rows),
            opt(rg.file_offset),
            thousands(rg.total_byte_size),
            opt(rg.total_compressed_size),
            sorted_by(meta, sorting),
        ]);
    }
    table(&header, rows, out)
}

fn opt(v: Option<impl std::fmt::Display>) -> String {
    v.map_or("-".into(), thousands)
}

/// `a ASC NULLS LAST, b DESC NULLS FIRST`, or `-`.
fn sorted_by(meta: &ParquetMetaData<'_>, sorting: &[SortingColumn]) -> String {
    if sorting.is_empty() {
        return "-".into();
    }
    let columns = meta.schema_descr().columns();
    let named: Vec<String> = sorting
        .iter()
        .map(|s| {
            let name = usize::try_from(s.column_idx)
                .ok()
                .and_then(|i| columns.get(i))
                .map_or(format!("column {}", s.column_idx), |c| c.dotted_path());
            let order = if s.descending { "DESC" } else { "ASC" };
            let nulls = if s.nulls_first { "FIRST" } else { "LAST" };
            format!("{name} {order} NULLS {nulls}")
        })
        .collect();
    named.join(", ")
}

/// The table of row group `g`'s column chunks; returns the number that could not be read.
fn chunk_table(
    meta: &ParquetMetaData<'_>,
    g: usize,
    verbose: bool,
    out: &mut dyn Write,
) -> Result<usize> {
    writeln!(out, "row group {g}: column chunks")?;
    let header = [
        "#",
        "path",
        "type",
        "codec",
        "encodings",
        "compressed",
        "uncompressed",
        "values",
        "nulls",
        "min",
        "max",
        "column index",
        "offset index",
        "bloom filter",
    ];
    let mut rows = Vec::new();
    let mut failed = 0;
    // The column chunks' own key-value metadata, listed after the table.
    let mut kv_lines = Vec::new();
    for c in 0..meta.num_columns() {
        let path = meta.schema_descr().columns()[c].dotted_path();
        let mut row = vec![c.to_string(), path.clone()];
        match meta.column_chunk(g, c) {
            Ok(chunk) => {
                row.extend(chunk_cells(meta, c, &chunk));
                let kv = chunk
                    .meta_data
                    .as_ref()
                    .and_then(|m| m.key_value_metadata.as_deref());
                for pair in kv.unwrap_or_default() {
                    kv_lines.push(format!("  {c} ({path:?}): {}", key_value(pair, verbose)));
                }
            }
            Err(e) => {
                failed += 1;
                row.push(format!("error: {e}"));
            }
        }
        rows.push(row);
    }
    table(&header, rows, out)?;
    if !kv_lines.is_empty() {
        writeln!(out, "row group {g}: column chunk key-value metadata")?;
        for line in kv_lines {
            writeln!(out, "{line}")?;
        }
    }
    Ok(failed)
}

fn chunk_cells(meta: &ParquetMetaData<'_>, c: usize, chunk: &ColumnChunk<'_>) -> Vec<String> {
    let Some(m) = &chunk.meta_data else {
        return vec!["(no metadata)".into()];
    };
    let encodings: Vec<&str> = m.encodings.iter().map(|e| e.name()).collect();
    let stats = m.statistics.as_ref().map(|s| s.get());
    let (min, max, nulls) = stat_cells(meta, c, stats.as_ref());
    vec![
        m.type_.name().to_string(),
        m.codec.name().to_string(),
        encodings.join(","),
        thousands(m.total_compressed_size),
        thousands(m.total_uncompressed_size),
        thousands(m.num_values),
        nulls,
        min,
        max,
        location(chunk.column_index_offset, chunk.column_index_length),
        location(chunk.offset_index_offset, chunk.offset_index_length),
        location(m.bloom_filter_offset, m.bloom_filter_length),
    ]
}

/// Minimum, maximum and null count as typed values (`-` when absent). The `min_value` and
/// `max_value` fields are preferred; the deprecated `min` and `max` are shown when they are
/// the only ones (old writers, signed order).
fn stat_cells(
    meta: &ParquetMetaData<'_>,
    c: usize,
    stats: Option<&Statistics<'_>>,
) -> (String, String, String) {
    let Some(s) = stats else {
        return ("-".into(), "-".into(), "-".into());
    };
    let descr = &meta.schema_descr().columns()[c];
    let element = &meta.schema()[meta.leaf_indices()[c]];
    let value = |v: Option<&[u8]>| v.map_or("-".into(), |b| show(descr.physical, element, b));
    (
        value(s.min_value.or(s.min)),
        value(s.max_value.or(s.max)),
        opt(s.null_count),
    )
}

/// `at 1,234 (56 bytes)`, `at 1,234`, or `-`.
fn location(offset: Option<i64>, length: Option<i32>) -> String {
    match (offset, length) {
        (Some(o), Some(l)) => format!("at {} ({} bytes)", thousands(o), thousands(l)),
        (Some(o), None) => format!("at {}", thousands(o)),
        _ => "-".into(),
    }
}

/// The page headers of chunk (`g`, `c`); returns 1 when they could not all be read.
fn page_table(files: &super::Opened<'_>, g: usize, c: usize, out: &mut dyn Write) -> Result<usize> {
    let meta = files.meta();
    let path = meta.schema_descr().columns()[c].dotted_path();
    writeln!(out, "row group {g}, column {c} ({path}): pages")?;
    let header = [
        "#",
        "offset",
        "type",
        "compressed",
        "uncompressed",
        "values",
        "encoding",
        "def/rep levels",
        "nulls",
        "min",
        "max",
        "crc",
    ];
    let mut rows = Vec::new();
    let (pages, error) = chunk_pages(files, g, c);
    for (i, (offset, h)) in pages.iter().enumerate() {
        let mut row = vec![i.to_string(), thousands(offset)];
        row.extend(page_cells(meta, c, h));
        rows.push(row);
    }
    let failed = usize::from(error.is_some());
    if let Some(e) = error {
        rows.push(vec![pages.len().to_string(), format!("error: {e}")]);
    }
    table(&header, rows, out)?;
    Ok(failed)
}

fn page_cells(meta: &ParquetMetaData<'_>, c: usize, h: &PageHeader<'_>) -> Vec<String> {
    let (values, encoding, levels, stats) = match h.type_ {
        PageType::DATA_PAGE => match &h.data_page_header {
            Some(d) => (
                thousands(d.num_values),
                d.encoding.name().to_string(),
                format!(
                    "{}/{}",
                    d.definition_level_encoding.name(),
                    d.repetition_level_encoding.name()
                ),
                d.statistics.as_ref(),
            ),
            None => ("-".into(), "-".into(), "-".into(), None),
        },
        PageType::DATA_PAGE_V2 => match &h.data_page_header_v2 {
            Some(d) => (
                thousands(d.num_values),
                d.encoding.name().to_string(),
                format!(
                    "{}+{} bytes",
                    thousands(d.definition_levels_byte_length),
                    thousands(d.repetition_levels_byte_length)
                ),
                d.statistics.as_ref(),
            ),
            None => ("-".into(), "-".into(), "-".into(), None),
        },
        PageType::DICTIONARY_PAGE => match &h.dictionary_page_header {
            Some(d) => (
                thousands(d.num_values),
                d.encoding.name().to_string(),
                "-".into(),
                None,
            ),
            None => ("-".into(), "-".into(), "-".into(), None),
        },
        _ => ("-".into(), "-".into(), "-".into(), None),
    };
    let (min, max, nulls) = stat_cells(meta, c, stats);
    let crc = h.crc.map_or("-".into(), |v| hex(&(v as u32).to_be_bytes()));
    vec![
        h.type_.name().to_string(),
        thousands(h.compressed_page_size),
        thousands(h.uncompressed_page_size),
        values,
        encoding,
        levels,
        nulls,
        min,
        max,
        crc,
    ]
}
