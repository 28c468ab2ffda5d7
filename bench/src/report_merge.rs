//! The merge tables of issue #15 in the report: every merging tool's whole-process time,
//! output and peak RSS; the targets (verbatim merge ≥ 2× faster than arrow-rs's
//! `parquet-concat`, coalescing merge ≥ 5× faster than pyarrow and DuckDB, a read of the
//! coalesced output within 10% of a read of one freshly written file); quiver's reads of the
//! outputs.

use crate::Op;
use crate::drive::stats;
use crate::merge::{MergeRow, NO_SYNC, ROW_GROUP_ROWS, ReadRow, Results};
use crate::merge_check::FileShape;
use std::fmt::Write as _;

/// Writes the merge tables of `r` under a heading of `marks`.
pub fn write(s: &mut String, r: &Results, marks: &str) -> std::fmt::Result {
    writeln!(s, "{marks} Merging small Parquet files (issue #15)\n")?;
    writeln!(
        s,
        "{} files of up to {} rows ({} row groups, {:.1} MB in all), written by pyarrow with \
         its defaults (SNAPPY, dictionary encoding), merged into one file of {} rows. \
         **Each run is timed as a whole process** (`quiver-bench exec`: from spawning the \
         command to its exit; start-up, and for pyarrow, DuckDB and polars the Python \
         interpreter and the imports, are included for every tool; *in-process s* is the \
         time the Python script measured around the merge alone). Every tool runs with its \
         default threads (all cores). Peak RSS is the largest over the runs \
         (`getrusage(RUSAGE_CHILDREN)` of the process). Every output is read back by arrow-rs: \
         its row groups must hold {} rows, and the first run's output must hold the same \
         values in the same order as the fresh file below (columns read as other types are \
         cast to the fresh file's), or the tool's row shows an error instead of times.\n",
        r.files,
        r.file_rows,
        r.input_row_groups,
        r.input_bytes as f64 / 1e6,
        r.rows,
        r.rows
    )?;
    if r.merges.is_empty() {
        writeln!(
            s,
            "No merge ran (`merge_verbatim` and `merge_coalesce` were not selected, or no tool \
             of theirs was in `IMPLS`): only the fresh file is read.\n"
        )?;
    } else {
        writeln!(
            s,
            "| operation | tool | command | median s | min s | max s | in-process s | output MB | row groups (largest) | ARROW:schema | peak RSS MiB | runs |"
        )?;
        writeln!(s, "|---|---|---|--:|--:|--:|--:|--:|--:|---|--:|--:|")?;
        for m in &r.merges {
            write_merge(s, m)?;
        }
        writeln!(s)?;
    }
    write_targets(s, r)?;
    write_reads(s, r)?;
    write_failures(s, r)
}

/// One tool's line.
fn write_merge(s: &mut String, m: &MergeRow) -> std::fmt::Result {
    let g = m.merger;
    write!(s, "| {} | {} | {} |", g.op.name(), g.label, g.command)?;
    if m.runs.is_empty() {
        let what = if m.error.is_some() { "error" } else { "–" };
        return writeln!(s, " {what} | | | | | | | | |");
    }
    let secs: Vec<f64> = m.runs.iter().map(|r| r.result.seconds).collect();
    let (med, min, max) = stats(&secs);
    let inner: Vec<f64> = m
        .runs
        .iter()
        .filter_map(|r| r.result.inner_seconds)
        .collect();
    let inner = if inner.is_empty() {
        "–".to_string()
    } else {
        format!("{:.3}", stats(&inner).0)
    };
    let sizes: Vec<f64> = m.runs.iter().map(|r| r.shape.bytes as f64).collect();
    let shape = m.runs[0].shape;
    let rss = m
        .runs
        .iter()
        .map(|r| r.result.peak_rss_kb)
        .max()
        .unwrap_or(0);
    writeln!(
        s,
        " {med:.3} | {min:.3} | {max:.3} | {inner} | {:.1} | {} ({}) | {} | {:.0} | {} |",
        stats(&sizes).0 / 1e6,
        shape.row_groups,
        shape.max_group_rows,
        if shape.arrow_schema { "yes" } else { "no" },
        rss as f64 / 1024.0,
        m.runs.len()
    )
}

/// The median seconds of the merge by `imp` of `op`.
fn merge_median(r: &Results, op: Op, label: &str) -> Option<f64> {
    let m = r
        .merges
        .iter()
        .find(|m| m.merger.op == op && m.merger.label == label)?;
    let secs: Vec<f64> = m.runs.iter().map(|r| r.result.seconds).collect();
    (!secs.is_empty()).then(|| stats(&secs).0)
}

/// The label of the read of quiver's coalesced output (see `merge::Job::read_files`).
const COALESCED: &str = "quiver merge_coalesce";
/// The label of the read of quiver's verbatim output.
const VERBATIM: &str = "quiver merge_verbatim";

/// The targets of the issue (and the verbatim output's read, which has none).
fn write_targets(s: &mut String, r: &Results) -> std::fmt::Result {
    writeln!(
        s,
        "| target of issue #15 | quiver s | other s | ratio | status |"
    )?;
    writeln!(s, "|---|--:|--:|--:|---|")?;
    let speed = [
        (Op::MergeVerbatim, "parquet-concat", 2.0),
        (Op::MergeCoalesce, "pyarrow", 5.0),
        (Op::MergeCoalesce, "DuckDB", 5.0),
    ];
    // The targets are judged on quiver's default run (output synced to disk before it is
    // renamed into place); the run without that sync, as the other tools write, is shown
    // beside each, without a verdict.
    for (quiver, what) in [("quiver", ""), (NO_SYNC, " — with `--no-sync` (no target)")] {
        for (op, label, factor) in speed {
            let q = merge_median(r, op, quiver);
            let o = merge_median(r, op, label);
            let (ratio, status) = match (q, o) {
                (Some(q), Some(o)) if quiver == "quiver" => {
                    (format!("{:.2}", o / q), verdict(o / q >= factor))
                }
                (Some(q), Some(o)) => (format!("{:.2}", o / q), "–"),
                _ => ("–".into(), "n/a"),
            };
            writeln!(
                s,
                "| `{}` ≥ {factor}× faster than {label}{what} (ratio: {label} ÷ quiver) | {} | {} | {ratio} | {status} |",
                op.name(),
                secs(q),
                secs(o)
            )?;
        }
    }
    let read = |label: &str, t: usize| {
        r.reads
            .iter()
            .find(|x| x.label == label)
            .and_then(|x| x.median(t))
    };
    for &t in &r.threads {
        let f = read("fresh", t);
        let plural = if t == 1 { "" } else { "s" };
        for (label, what, limit) in [
            (COALESCED, "coalesced output ≤ 1.10×", Some(1.10)),
            (VERBATIM, "verbatim output (no target) vs", None),
        ] {
            let q = read(label, t);
            let ratio = match (q, f) {
                (Some(q), Some(f)) => Some(q / f),
                _ => None,
            };
            let status = match (ratio, limit) {
                (Some(x), Some(l)) => verdict(x <= l),
                (None, Some(_)) => "n/a",
                (_, None) => "–",
            };
            writeln!(
                s,
                "| quiver's full read of the {what} its read of the fresh file, {t} thread{plural} (ratio: output ÷ fresh) | {} | {} | {} | {status} |",
                secs(q),
                secs(f),
                ratio.map_or("–".into(), |x| format!("{x:.2}"))
            )?;
        }
    }
    writeln!(s)
}

/// Quiver's reads of the fresh file and the outputs.
fn write_reads(s: &mut String, r: &Results) -> std::fmt::Result {
    if r.reads.is_empty() {
        return Ok(());
    }
    writeln!(
        s,
        "Quiver's reads (in-process, as `parquet_read_snappy_t*`: every column from a memory \
         map, batches of 65,536 rows, start-up excluded; median seconds). *fresh* is \
         `lineitem-{}.pa.snappy.parquet`: `pq.write_table` of the whole data set at once with \
         pyarrow's defaults (SNAPPY, dictionary encoding, row groups of {ROW_GROUP_ROWS} rows); \
         the others are the first run's output of each merge. A read's row count must be {}.\n",
        r.rows, r.rows
    )?;
    write!(s, "| file | row groups (largest) | file MB |")?;
    for t in &r.threads {
        write!(
            s,
            " {t} thread{} s | ÷ fresh |",
            if *t == 1 { "" } else { "s" }
        )?;
    }
    writeln!(s)?;
    write!(s, "|---|--:|--:|")?;
    for _ in &r.threads {
        write!(s, "--:|--:|")?;
    }
    writeln!(s)?;
    let fresh = r.reads.iter().find(|x| x.label == "fresh");
    for row in &r.reads {
        write_read(s, r, row, fresh)?;
    }
    writeln!(s)
}

/// One file's line of the read table.
fn write_read(
    s: &mut String,
    r: &Results,
    row: &ReadRow,
    fresh: Option<&ReadRow>,
) -> std::fmt::Result {
    let shape = |f: FileShape| {
        format!(
            "{} ({}) | {:.1}",
            f.row_groups,
            f.max_group_rows,
            f.bytes as f64 / 1e6
        )
    };
    write!(
        s,
        "| {} | {} |",
        row.label,
        row.shape.map_or("– | –".into(), shape)
    )?;
    for &t in &r.threads {
        let m = row.median(t);
        let vs = match (m, fresh.and_then(|f| f.median(t))) {
            (Some(m), Some(f)) => format!("{:.2}", m / f),
            _ => "–".into(),
        };
        let cell = match m {
            Some(m) => format!("{m:.3}"),
            None if row.errors.contains_key(&t) || row.errors.contains_key(&0) => "error".into(),
            None => "–".into(),
        };
        write!(s, " {cell} | {vs} |")?;
    }
    writeln!(s)
}

/// Every failure, with its message.
fn write_failures(s: &mut String, r: &Results) -> std::fmt::Result {
    let mut lines = Vec::new();
    for m in &r.merges {
        if let Some(e) = &m.error {
            lines.push(format!(
                "- {} ({}): `{}`",
                m.merger.op.name(),
                m.merger.label,
                clean(e)
            ));
        }
    }
    for row in &r.reads {
        for (t, e) in &row.errors {
            let on = if *t == 0 {
                String::new()
            } else {
                format!(", {t} thread(s)")
            };
            lines.push(format!("- read of {}{on}: `{}`", row.label, clean(e)));
        }
    }
    if lines.is_empty() {
        return Ok(());
    }
    writeln!(s, "Merge failures:\n")?;
    for l in lines {
        writeln!(s, "{l}")?;
    }
    writeln!(s)
}

/// An error message on one Markdown line.
fn clean(e: &str) -> String {
    e.replace('`', "'").replace('\n', " ")
}

/// Seconds with 3 decimals, or `–`.
fn secs(x: Option<f64>) -> String {
    x.map_or("–".into(), |x| format!("{x:.3}"))
}

fn verdict(ok: bool) -> &'static str {
    if ok { "PASS" } else { "MISS" }
}
