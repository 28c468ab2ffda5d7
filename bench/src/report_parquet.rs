//! The Parquet table of a data set in the report: the five implementations side by side and
//! the targets of issue #13 (each read ≤ 0.7× the best other implementation's median; footer
//! decode ≤ 0.5× arrow-rs; peak RSS ≤ pyarrow's).

use crate::report::{Row, fmt_secs};
use std::fmt::Write as _;

/// The implementations the table compares quiver with, and their column headers.
const OTHERS: [(&str, &str); 4] = [
    ("arrow-rs", "arrow-rs"),
    ("pyarrow", "pyarrow"),
    ("duckdb", "DuckDB"),
    ("polars", "polars"),
];

/// Writes the table of the Parquet operations in `rows` (nothing when there are none).
pub fn write_table(s: &mut String, rows: &[&Row]) -> std::fmt::Result {
    if rows.is_empty() {
        return Ok(());
    }
    writeln!(
        s,
        "Parquet (issue #13; files written by pyarrow). Median seconds per run; footer rows \
         are the time of one decode (each run repeats it for ≥ {} s). arrow-rs's synchronous \
         reader decodes on one thread: its `_t2` figures are single-threaded. Peak RSS is the \
         largest over the runs (pyarrow's includes the interpreter).\n",
        crate::FOOTER_MIN_SECONDS
    )?;
    write!(s, "| operation | quiver |")?;
    for (_, header) in OTHERS {
        write!(s, " {header} |")?;
    }
    writeln!(
        s,
        " quiver MB/s | quiver / best other | target | status | peak RSS MiB quiver / pyarrow | RSS ≤ pyarrow |"
    )?;
    writeln!(s, "|---|--:|--:|--:|--:|--:|--:|--:|---|---|--:|---|")?;
    for row in rows {
        write_row(s, row)?;
    }
    writeln!(s)
}

/// One operation's line.
fn write_row(s: &mut String, row: &Row) -> std::fmt::Result {
    let q = row.median("quiver");
    let cell = |imp: &str| match (row.median(imp), row.errors.get(imp)) {
        (Some(m), _) => fmt_secs(row.op, m),
        (None, Some(_)) => "error".into(),
        _ => "–".into(),
    };
    write!(s, "| {} | {} |", row.op.name(), cell("quiver"))?;
    for (imp, _) in OTHERS {
        write!(s, " {} |", cell(imp))?;
    }
    let best = OTHERS
        .iter()
        .filter_map(|(imp, _)| Some((*imp, row.median(imp)?)))
        .min_by(|a, b| a.1.total_cmp(&b.1));
    let bytes = row.bytes();
    let mb_s = match q {
        Some(q) if bytes > 0 => format!("{:.0}", bytes as f64 / q / 1e6),
        _ => "–".into(),
    };
    let vs_best = match (q, best) {
        (Some(q), Some((imp, b))) => format!("{:.2} ({imp})", q / b),
        _ => "–".into(),
    };
    let (target, status) = speed_target(row, q, best.map(|b| b.1));
    let (rss, rss_status) = rss_target(row);
    writeln!(
        s,
        " {mb_s} | {vs_best} | {target} | {status} | {rss} | {rss_status} |"
    )
}

/// The speed target of `row` and whether quiver meets it.
fn speed_target(row: &Row, q: Option<f64>, best: Option<f64>) -> (String, String) {
    let (limit, other, what) = if row.op.is_footer() {
        (0.5, row.median("arrow-rs"), "arrow-rs")
    } else {
        (0.7, best, "best other")
    };
    let status = match (q, other) {
        (Some(q), Some(o)) => format!("{} ({:.2}×)", verdict(q / o <= limit), q / o),
        _ => "n/a".into(),
    };
    (format!("≤ {limit}× {what}"), status)
}

/// Peak RSS of quiver and pyarrow for reads (footer decodes: not a target) and the verdict.
fn rss_target(row: &Row) -> (String, String) {
    let peak = |imp: &str| {
        row.runs
            .get(imp)
            .and_then(|runs| runs.iter().map(|r| r.peak_rss_kb).max())
    };
    let mib = |kb: Option<u64>| kb.map_or("–".into(), |kb| format!("{:.0}", kb as f64 / 1024.0));
    let (q, pa) = (peak("quiver"), peak("pyarrow"));
    let shown = format!("{} / {}", mib(q), mib(pa));
    if row.op.is_footer() {
        return (shown, "–".into());
    }
    let status = match (q, pa) {
        (Some(q), Some(pa)) => verdict(q <= pa).to_string(),
        _ => "n/a".into(),
    };
    (shown, status)
}

fn verdict(ok: bool) -> &'static str {
    if ok { "PASS" } else { "MISS" }
}
