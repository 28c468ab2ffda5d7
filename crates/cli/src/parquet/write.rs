//! Parquet output: the options of `convert` and `generate` as quiver-parquet's
//! [`WriteOptions`], checked against the schema being written (bad values and unknown columns
//! are usage errors naming the option).

use crate::args::{Compression, Decimals, Profile, RowGroupSize, Statistics, WriteArgs};
use anyhow::Result;
use quiver_arrow::SchemaRef;
use quiver_parquet::arrow::column_writer::{PageVersion, StatisticsLevel};
use quiver_parquet::arrow::write_schema::{DecimalLayout, WriteSchema};
use quiver_parquet::codec::{Codec, Compressor};
use quiver_parquet::file::writer::{ColumnOverride, WriteOptions};
use quiver_parquet::format::SortingColumn;

/// Distinct values a bloom filter is sized for when `--bloom-filter COL` gives none.
pub const DEFAULT_BLOOM_NDV: u64 = 100_000;
/// The bloom filters' false-positive probability unless `--bloom-fpp` says.
pub const DEFAULT_BLOOM_FPP: f64 = 0.05;

/// The Parquet codec of `--compression` (snappy when not given).
fn codec(c: Option<Compression>) -> Codec {
    match c {
        None | Some(Compression::Snappy) => Codec::Snappy,
        Some(Compression::None) => Codec::Uncompressed,
        Some(Compression::Gzip) => Codec::Gzip,
        Some(Compression::Brotli) => Codec::Brotli,
        Some(Compression::Zstd) => Codec::Zstd,
        Some(Compression::Lz4Raw) => Codec::Lz4Raw,
        Some(Compression::Lz4) => Codec::Lz4,
    }
}

/// How `schema` is written as Parquet under `args`.
pub fn write_options(schema: &SchemaRef, args: &WriteArgs) -> Result<WriteOptions> {
    let p = &args.parquet;
    let mut o = WriteOptions::default();
    let c = &mut o.column;
    c.codec = codec(args.compression);
    c.level = p.compression_level;
    if let Err(e) = Compressor::new(c.codec, c.level) {
        crate::usage!("--compression-level: {e}");
    }
    match p.row_group_size {
        Some(RowGroupSize::Rows(n)) => (o.row_group_rows, o.row_group_bytes) = (n, usize::MAX),
        Some(RowGroupSize::Bytes(n)) => (o.row_group_rows, o.row_group_bytes) = (usize::MAX, n),
        None => {}
    }
    if let Some(bytes) = p.page_size {
        c.page_size = bytes;
    }
    if p.profile == Some(Profile::Modern) {
        c.page_version = PageVersion::V2;
        c.choose_encoding = true;
    }
    if p.no_dictionary {
        c.dictionary = false;
    }
    o.schema.decimals = match p.decimals {
        None | Some(Decimals::Auto) => DecimalLayout::Auto,
        Some(Decimals::Integer) => DecimalLayout::Integer,
        Some(Decimals::Fixed) => DecimalLayout::FixedLenByteArray,
    };
    c.statistics = match p.statistics {
        Some(Statistics::None) => StatisticsLevel::None,
        Some(Statistics::Chunk) => StatisticsLevel::Chunk,
        Some(Statistics::Page) | None => StatisticsLevel::Page,
    };
    if p.distinct_count {
        if c.statistics == StatisticsLevel::None {
            crate::usage!("--distinct-count: the count is a statistic; not with --statistics none");
        }
        if !c.dictionary {
            crate::usage!(
                "--distinct-count: the counts come from the dictionaries; not with --no-dictionary"
            );
        }
        c.distinct_count = true;
    }
    let fpp = p.bloom_fpp.unwrap_or(DEFAULT_BLOOM_FPP);
    if !(fpp > 0.0 && fpp < 1.0) {
        crate::usage!("--bloom-fpp {fpp}: the probability must be above 0 and below 1");
    }
    let paths = leaf_paths(schema, &o)?;
    for spec in &p.bloom_filters {
        let (column, ndv) = bloom_spec(spec)?;
        let known = paths
            .iter()
            .any(|path| path == &column || path.starts_with(&format!("{column}.")));
        if !known {
            crate::usage!(
                "--bloom-filter {spec}: no column {column:?} (columns: {})",
                column_list(&paths)
            );
        }
        o.column_overrides
            .push((column, ColumnOverride::Bloom { ndv, fpp }));
    }
    for name in &args.sort_by {
        let Some(i) = paths.iter().position(|path| path == name) else {
            crate::usage!("--sort-by {name}: not a column that Parquet stores as one leaf column");
        };
        o.sorting_columns.push(SortingColumn {
            column_idx: i32::try_from(i)?,
            descending: false,
            nulls_first: false,
        });
    }
    Ok(o)
}

/// Every leaf column's dotted path, in column order.
fn leaf_paths(schema: &SchemaRef, o: &WriteOptions) -> Result<Vec<String>> {
    let ws = WriteSchema::new(schema, &o.schema)?;
    Ok(ws.leaves().iter().map(|l| l.path.join(".")).collect())
}

/// The leaf paths, for messages (the first 20).
fn column_list(paths: &[String]) -> String {
    let mut names: Vec<&str> = paths.iter().map(String::as_str).collect();
    names.truncate(20);
    let more = if paths.len() > names.len() {
        ", …"
    } else {
        ""
    };
    format!("{}{more}", names.join(", "))
}

/// `COL` or `COL:NDV`.
fn bloom_spec(spec: &str) -> Result<(String, u64)> {
    match spec.rsplit_once(':') {
        Some((column, ndv)) if !ndv.is_empty() && ndv.bytes().all(|b| b.is_ascii_digit()) => {
            match ndv.parse::<u64>() {
                Ok(n) if n > 0 => Ok((column.to_string(), n)),
                _ => crate::usage!(
                    "--bloom-filter {spec}: the distinct value count must be a number from 1"
                ),
            }
        }
        _ => Ok((spec.to_string(), DEFAULT_BLOOM_NDV)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bloom_specs() {
        assert_eq!(bloom_spec("id").unwrap(), ("id".into(), DEFAULT_BLOOM_NDV));
        assert_eq!(bloom_spec("a.b:500").unwrap(), ("a.b".into(), 500));
        assert_eq!(
            bloom_spec("x:y").unwrap(),
            ("x:y".into(), DEFAULT_BLOOM_NDV)
        );
        assert!(bloom_spec("id:0").is_err());
        assert!(bloom_spec("id:99999999999999999999999").is_err());
    }
}
