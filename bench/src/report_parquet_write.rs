//! The Parquet write table of a data set in the report: quiver, arrow-rs, pyarrow and DuckDB
//! side by side and the targets of issue #14: time ≤ 0.6× the best other writer's median; file
//! size ≤ pyarrow's with the same settings; peak RSS ≤ one row group + the input.

use crate::drive::stats;
use crate::report::Row;
use std::fmt::Write as _;

/// The writers the table compares, and their column headers.
const WRITERS: [(&str, &str); 4] = [
    ("quiver", "quiver"),
    ("arrow-rs", "arrow-rs"),
    ("pyarrow", "pyarrow"),
    ("duckdb", "DuckDB"),
];

/// Rows per row group of every writer (each library's default, set for DuckDB).
pub const ROW_GROUP_ROWS: u64 = 1 << 20;

/// Writes the table of the Parquet writes in `rows` (nothing when there are none).
pub fn write_table(s: &mut String, rows: &[&Row]) -> std::fmt::Result {
    if rows.is_empty() {
        return Ok(());
    }
    writeln!(
        s,
        "Parquet writes (issue #14; input: the quiver-written IPC file, loaded into memory before \
         the clock). Median seconds per run. `snappy` and `zstd` (level 1 everywhere) are \
         dictionary-encoded, `plain` is uncompressed PLAIN without dictionary; row groups of \
         {ROW_GROUP_ROWS} rows. `_t1` / `_t2`: quiver's `ThreadPool` and DuckDB's `threads`; \
         arrow-rs's `ArrowWriter` and pyarrow's `write_table` encode on one thread either way. \
         File MB is the size of the file written (10^6 bytes). RSS beyond input is the peak \
         resident size during the write minus the size once the input was loaded (the peak is \
         reset after loading); the target allows one row group of the input (its Arrow \
         in-memory size).\n"
    )?;
    write!(s, "| operation |")?;
    for (_, header) in WRITERS {
        write!(s, " {header} |")?;
    }
    writeln!(
        s,
        " quiver MB/s | quiver / best other | time ≤ 0.6× best other | file MB {} | size ≤ pyarrow | RSS beyond input MiB {} | row group MiB | RSS ≤ row group + input |",
        headers(),
        headers()
    )?;
    writeln!(s, "|---|--:|--:|--:|--:|--:|--:|---|--:|---|--:|--:|---|")?;
    for row in rows {
        write_row(s, row)?;
    }
    writeln!(s)
}

/// `quiver / arrow-rs / pyarrow / DuckDB`.
fn headers() -> String {
    WRITERS.map(|(_, h)| h).join(" / ")
}

/// One operation's line.
fn write_row(s: &mut String, row: &Row) -> std::fmt::Result {
    let q = row.median("quiver");
    let cell = |imp: &str| match (row.median(imp), row.errors.get(imp)) {
        (Some(m), _) => format!("{m:.3}"),
        (None, Some(_)) => "error".into(),
        _ => "–".into(),
    };
    write!(s, "| {} |", row.op.name())?;
    for (imp, _) in WRITERS {
        write!(s, " {} |", cell(imp))?;
    }
    let best = WRITERS[1..]
        .iter()
        .filter_map(|(imp, _)| Some((*imp, row.median(imp)?)))
        .min_by(|a, b| a.1.total_cmp(&b.1));
    let bytes = row.bytes();
    let mb_s = match q {
        Some(q) if bytes > 0 => format!("{:.0}", bytes as f64 / q / 1e6),
        _ => "–".into(),
    };
    let (vs_best, time) = match (q, best) {
        (Some(q), Some((imp, b))) => (
            format!("{:.2} ({imp})", q / b),
            format!("{} ({:.2}×)", verdict(q / b <= 0.6), q / b),
        ),
        _ => ("–".into(), "n/a".into()),
    };
    let sizes = WRITERS.map(|(imp, _)| file_bytes(row, imp));
    let size = match (sizes[0], sizes[2]) {
        (Some(q), Some(pa)) => format!("{} ({:.2}×)", verdict(q <= pa), q / pa),
        _ => "n/a".into(),
    };
    let beyond = WRITERS.map(|(imp, _)| beyond_input(row, imp));
    let group = row_group_bytes(row);
    let rss = match (beyond[0], group) {
        (Some(b), Some(g)) => format!("{} ({:.2}×)", verdict(b <= g), b / g),
        _ => "n/a".into(),
    };
    writeln!(
        s,
        " {mb_s} | {vs_best} | {time} | {} | {size} | {} | {} | {rss} |",
        joined(&sizes, 1e6, 1),
        joined(&beyond, 1024.0 * 1024.0, 0),
        group.map_or("–".into(), |g| format!("{:.0}", g / 1024.0 / 1024.0)),
    )
}

/// `a / b / c / d` of `values` divided by `unit`, `–` for a missing one.
fn joined(values: &[Option<f64>], unit: f64, decimals: usize) -> String {
    values
        .iter()
        .map(|v| v.map_or("–".into(), |v| format!("{:.*}", decimals, v / unit)))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// The median size of the files `imp` wrote, in bytes.
fn file_bytes(row: &Row, imp: &str) -> Option<f64> {
    let runs = row.runs.get(imp)?;
    let sizes: Vec<f64> = runs.iter().map(|r| r.file_bytes as f64).collect();
    (!sizes.is_empty()).then(|| stats(&sizes).0)
}

/// The largest peak RSS of `imp`'s runs beyond its RSS once the input was loaded, in bytes.
fn beyond_input(row: &Row, imp: &str) -> Option<f64> {
    let runs = row.runs.get(imp)?;
    runs.iter()
        .map(|r| (r.peak_rss_kb.saturating_sub(r.start_rss_kb) * 1024) as f64)
        .reduce(f64::max)
}

/// The Arrow in-memory size of one row group's rows of quiver's input, in bytes.
fn row_group_bytes(row: &Row) -> Option<f64> {
    let r = row.runs.get("quiver")?.first()?;
    let rows = r.rows.max(1);
    Some(r.bytes as f64 * rows.min(ROW_GROUP_ROWS) as f64 / rows as f64)
}

fn verdict(ok: bool) -> &'static str {
    if ok { "PASS" } else { "MISS" }
}
