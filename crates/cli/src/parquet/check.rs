//! `quiver validate` of a Parquet file, chunk by chunk so that one bad chunk hides nothing
//! else: every page of every column chunk is read and decompressed (its CRC checked, its
//! levels split), then every top-level column of every row group is decoded on its own and
//! validated in full. Each problem names the row group, the column and, for pages, the page.

use super::{Opened, open_meta};
use quiver_arrow::{Error, ValidationLevel};
use quiver_parquet::codec::Decompressor;
use quiver_parquet::file::{Selection, v2_always_compressed};
use quiver_parquet::metadata::locations;
use quiver_parquet::page::{Page, PageContext, PageReader, codec, decode_page};
use std::collections::BTreeSet;

/// What a check found.
#[derive(Debug, Default)]
pub struct Report {
    /// One line per problem.
    pub problems: Vec<String>,
    /// One line per finding that leaves the file readable as it is (wrong statistics a
    /// known writer makes).
    pub notes: Vec<String>,
    /// Rows of the columns that decoded.
    pub rows: u64,
    /// Pages read.
    pub pages: u64,
    /// Row groups.
    pub row_groups: usize,
    /// Leaf columns.
    pub columns: usize,
}

/// Checks the Parquet file `bytes`, listing at most `max` problems. An error when not even
/// its footer can be read.
pub fn check(bytes: &[u8], max: usize) -> quiver_arrow::Result<Report> {
    let files = open_meta(bytes)?;
    let meta = files.meta();
    let mut report = Report {
        row_groups: meta.num_row_groups(),
        columns: meta.num_columns(),
        ..Report::default()
    };
    let mut bad = BTreeSet::new();
    for g in 0..meta.num_row_groups() {
        for c in 0..meta.num_columns() {
            if let Err(e) = check_pages(&files, g, c, &mut report) {
                bad.insert((g, c));
                report.problems.push(named(&e, g, c, &files));
            }
        }
    }
    match files.reader() {
        Ok(_) => check_values(&files, &bad, &mut report),
        Err(e) => report
            .problems
            .push(format!("the schema does not map to Arrow: {e}")),
    }
    report.problems.truncate(max);
    report.notes.truncate(max);
    Ok(report)
}

/// Reads every page of chunk (`g`, `c`): headers, CRC, decompression, levels; the data pages'
/// values must add up to the chunk's.
fn check_pages(files: &Opened<'_>, g: usize, c: usize, report: &mut Report) -> Result<(), Error> {
    let chunk = files.meta().column_chunk(g, c)?;
    locations(&chunk, &files.meta().data_range())?;
    let (_, bytes, meta) = files.chunk(g, c)?;
    let descr = &files.meta().schema_descr().columns()[c];
    let cx = PageContext {
        codec: codec(meta.codec)?,
        max_def: descr.max_def(),
        max_rep: descr.max_rep(),
        verify_crc: true,
        v2_always_compressed: v2_always_compressed(files.meta().created_by()),
    };
    let mut pages = PageReader::new(bytes, meta.num_values, meta.total_uncompressed_size);
    let (mut decompressor, mut scratch) = (Decompressor::default(), Vec::new());
    let (mut index, mut values) = (0usize, 0i64);
    // Null entries (a definition level below the maximum) of a column that is not repeated,
    // whose null counts every writer counts so: checked against the pages' and the chunk's
    // own counts, which catches corrupt levels that still decode.
    let mut nulls = (descr.max_rep() == 0).then_some(0i64);
    let mut levels = Vec::new();
    while let Some(page) = pages.next_page()? {
        report.pages += 1;
        let here = |e: Error| {
            e.context(format!(
                "page {index} at byte {} of the column chunk",
                page.offset
            ))
        };
        let decoded = decode_page(&page, &cx, &mut decompressor, &mut scratch).map_err(here)?;
        let h = &page.header;
        let n = h.data_page_header.as_ref().map(|d| d.num_values);
        let n = n.or(h.data_page_header_v2.as_ref().map(|d| d.num_values));
        values += i64::from(n.unwrap_or(0));
        if let (
            Some(total),
            Page::Data {
                num_values, def, ..
            },
        ) = (&mut nulls, &decoded)
        {
            let page_nulls = null_entries(def, cx.max_def, *num_values, &mut levels)
                .map_err(|e| here(e.context("definition levels")))?;
            if let Some(v2) = &h.data_page_header_v2
                && i64::from(v2.num_nulls) != page_nulls
            {
                return Err(here(Error::oos(format!(
                    "its header counts {} nulls, its definition levels hold {page_nulls}",
                    v2.num_nulls
                ))));
            }
            *total += page_nulls;
        }
        index += 1;
    }
    if values != meta.num_values {
        return Err(Error::oos(format!(
            "the pages hold {values} values, the column chunk declares {}",
            meta.num_values
        )));
    }
    let declared = meta.statistics.as_ref().and_then(|s| s.get().null_count);
    if let (Some(nulls), Some(declared)) = (nulls, declared)
        && nulls != declared
    {
        let counted = format!(
            "the statistics count {declared} nulls, the pages' definition levels hold {nulls}"
        );
        // pyarrow counts only the values' own nulls for a dictionary column inside a nullable
        // struct, leaving out the rows where the struct is null: the statistics under-count,
        // the data reads as written.
        if cx.max_def > 1 && declared < nulls {
            let path = descr.dotted_path();
            report.notes.push(format!(
                "row group {g}, column {c} ({path:?}): {counted}; the statistics are wrong \
                 (pyarrow writes such counts for dictionary columns inside nullable structs), \
                 the data is readable"
            ));
            return Ok(());
        }
        return Err(Error::oos(counted));
    }
    Ok(())
}

/// The entries of a page's `n` definition levels below `max_def` (none when it is 0),
/// decoded into `scratch` a few thousand at a time (a short run can stand for billions).
fn null_entries(
    def: &quiver_parquet::page::Levels<'_>,
    max_def: i16,
    n: usize,
    scratch: &mut Vec<i16>,
) -> Result<i64, Error> {
    use quiver_parquet::encoding::rle::RleDecoder;
    use quiver_parquet::levels::{LevelEncoding, decode, decode_rle, level_width};
    if max_def == 0 {
        return Ok(0);
    }
    let below = |levels: &[i16]| levels.iter().filter(|&&d| d < max_def).count() as i64;
    match def.encoding {
        LevelEncoding::Rle => {
            let mut d = RleDecoder::new(def.data, level_width(max_def))?;
            let (mut left, mut nulls) = (n, 0);
            scratch.resize(4096, 0);
            while left > 0 {
                let k = left.min(scratch.len());
                decode_rle(&mut d, max_def, &mut scratch[..k])?;
                nulls += below(&scratch[..k]);
                left -= k;
            }
            Ok(nulls)
        }
        // Packed bits for every level: as many as the bytes hold at most.
        LevelEncoding::BitPacked => {
            let most = def.data.len() * 8 / level_width(max_def) as usize;
            if n > most {
                return Err(Error::oos(format!(
                    "{} bytes of bit-packed levels for {n} values",
                    def.data.len()
                )));
            }
            scratch.clear();
            scratch.resize(n, 0);
            decode(def.data, def.encoding, max_def, scratch)?;
            Ok(below(scratch))
        }
    }
}

/// A problem of chunk (`g`, `c`) as one line starting `row group G, column C ("path"): `
/// (the place the error may already start with is not repeated).
fn named(e: &Error, g: usize, c: usize, files: &Opened<'_>) -> String {
    let path = files.meta().schema_descr().columns()[c].dotted_path();
    let text = e.to_string();
    let own = format!("row group {g}, column {c}");
    let rest = text
        .strip_prefix(&own)
        .and_then(|r| r.strip_prefix(": ").or_else(|| r.strip_prefix(", ")))
        .unwrap_or(&text);
    format!("{own} ({path:?}): {rest}")
}

/// Decodes each top-level column of each row group on its own (skipping those with a leaf
/// whose pages already failed) and validates the arrays in full.
fn check_values(files: &Opened<'_>, bad: &BTreeSet<(usize, usize)>, report: &mut Report) {
    let Ok(reader) = files.reader() else { return };
    let meta = files.meta();
    let descr = meta.schema_descr();
    let fields = &reader.schema().fields;
    let mut rows = vec![0u64; meta.num_row_groups()];
    for (g, rows_g) in rows.iter_mut().enumerate() {
        for (f, &node) in descr.fields().iter().enumerate() {
            if descr.column_range(node).any(|c| bad.contains(&(g, c))) {
                continue;
            }
            let Some(field) = fields.get(f) else { continue };
            let selection = Selection {
                columns: Some(vec![field.name().to_string()]),
                row_groups: Some(vec![g]),
                ..Selection::default()
            };
            let mut n = 0u64;
            let result = reader.batches(&selection).and_then(|batches| {
                for b in batches {
                    let b = b?;
                    b.validate(ValidationLevel::Full)?;
                    n += b.num_rows() as u64;
                }
                Ok(())
            });
            if let Err(e) = result {
                let text = e.to_string();
                let problem = if text.starts_with(&format!("row group {g}")) {
                    text
                } else {
                    format!("row group {g}, column {:?}: {text}", field.name())
                };
                report.problems.push(problem);
            } else {
                *rows_g = (*rows_g).max(n);
            }
        }
    }
    report.rows = rows.iter().sum();
}
