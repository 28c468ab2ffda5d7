//! `quiver-bench drive`: runs every operation for every implementation in fresh processes,
//! interleaved (quiver, arrow-rs, pyarrow, duckdb, polars, quiver, …), and writes the report.
//! IPC operations run for quiver, arrow-rs and pyarrow; Parquet reads for all five; Parquet
//! footer decodes for quiver, arrow-rs and pyarrow.
//!
//! Data files in `--data` are named `{dataset}-{rows}[.pa][.lz4|.zstd].arrow` (IPC files),
//! `{dataset}-{rows}[.pa].arrows` (IPC streams) and `{dataset}-{rows}.pa.{snappy,zstd,plain}.parquet`;
//! `.pa` marks the copies written by pyarrow (`bench/py/write_inputs.py`), the others are
//! written by `quiver generate` / `quiver convert`. The data set `wide` (Parquet only, for
//! `parquet_footer_wide3`) is 1,000 int columns in 20 row groups. The merge benchmark (issue
//! #15, `merge_*`) reads the folder `{dataset}-{rows}-small/` and runs in [`crate::merge`].

use crate::report::{Report, Row, ScanRow};
use crate::{Op, OpResult};
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Arguments of `quiver-bench drive`.
#[derive(Debug, clap::Args)]
pub struct DriveArgs {
    /// Folder of the data files.
    #[arg(long)]
    pub data: PathBuf,
    /// A data set and its row count, `NAME:ROWS` (repeatable), e.g. `lineitem:6000000`.
    #[arg(long = "dataset", required = true)]
    pub datasets: Vec<String>,
    /// Runs of each operation for each implementation.
    #[arg(long, default_value_t = 5)]
    pub reps: usize,
    /// The Markdown report to write.
    #[arg(long)]
    pub out: PathBuf,
    /// The `quiver` command line binary (for `quiver scan` and `quiver merge`).
    #[arg(long)]
    pub quiver_cli: PathBuf,
    /// arrow-rs's `parquet-concat` binary (the `parquet` crate's `cli` feature; default:
    /// beside this program).
    #[arg(long)]
    pub parquet_concat: Option<PathBuf>,
    /// The Python interpreter with pyarrow.
    #[arg(long, default_value = "python3")]
    pub python: String,
    /// The pyarrow, DuckDB and polars side of the operations.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/py/ops.py"))]
    pub py_ops: PathBuf,
    /// Implementations to run (comma-separated; each runs the operations it has).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "quiver,arrow-rs,pyarrow,duckdb,polars"
    )]
    pub impls: Vec<String>,
    /// Only these operations (comma-separated names, or prefixes ending in `*` such as
    /// `parquet_write_*`; default: all).
    #[arg(long, value_delimiter = ',')]
    pub ops: Vec<String>,
    /// Folder for the files the write operations produce (deleted after each run).
    #[arg(long)]
    pub scratch: Option<PathBuf>,
    /// The command line to record in the report.
    #[arg(long, default_value = "./bench/run.sh")]
    pub command: String,
    /// Skip the `quiver scan` runs.
    #[arg(long)]
    pub no_scan: bool,
    /// Write the report as the section NAME of `--out`: replace the text between
    /// `<!-- section NAME -->` and `<!-- /section NAME -->` there (appended if absent), keeping
    /// the rest of the file (the figures of other runs).
    #[arg(long)]
    pub section: Option<String>,
}

/// Who wrote an input file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Writer {
    /// `quiver generate` / `quiver convert`.
    Quiver,
    /// `bench/py/write_inputs.py`.
    Pyarrow,
}

impl Writer {
    /// The name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Writer::Quiver => "quiver",
            Writer::Pyarrow => "pyarrow",
        }
    }
}

/// The kind of data file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// IPC file, uncompressed.
    File,
    /// IPC file, LZ4 frame.
    Lz4,
    /// IPC file, ZSTD.
    Zstd,
    /// IPC stream, uncompressed.
    Stream,
    /// Parquet, SNAPPY (written by pyarrow).
    ParquetSnappy,
    /// Parquet, ZSTD (written by pyarrow).
    ParquetZstd,
    /// Parquet, uncompressed (written by pyarrow).
    ParquetPlain,
}

/// Every implementation the driver knows.
pub const IMPLS: [&str; 5] = ["quiver", "arrow-rs", "pyarrow", "duckdb", "polars"];

/// Whether `imp` runs `op`: IPC operations and footer decodes have no DuckDB or polars side,
/// Parquet writes no polars side.
fn runs(imp: &str, op: Op) -> bool {
    match imp {
        "duckdb" => op.is_parquet() && !op.is_footer(),
        "polars" => op.is_parquet() && !op.is_footer() && op.parquet_write().is_none(),
        _ => true,
    }
}

/// Whether the data set `name` exists only as Parquet (no IPC operations, no scans).
fn parquet_only(name: &str) -> bool {
    name == "wide"
}

/// Whether `op` runs on the data set `name`.
fn runs_on(op: Op, name: &str) -> bool {
    match op.only_dataset() {
        Some(only) => only == name,
        None => !parquet_only(name),
    }
}

/// The top-level columns `op` reads of the data set `name` (`--columns`), if it projects.
pub fn projection(op: Op, name: &str) -> Option<&'static [&'static str]> {
    match (op, name) {
        (Op::ParquetProject4Snappy, "lineitem") => {
            Some(&["l_orderkey", "l_extendedprice", "l_shipdate", "l_comment"])
        }
        (Op::ParquetProject4Snappy, "nested") => Some(&["id", "tags", "points", "profile"]),
        (Op::ParquetFooterWide3, _) => Some(&["c0", "c500", "c999"]),
        _ => None,
    }
}

/// The path of a data file.
pub fn data_file(dir: &Path, dataset: &str, rows: u64, writer: Writer, kind: Kind) -> PathBuf {
    let pa = if writer == Writer::Pyarrow { ".pa" } else { "" };
    let tail = match kind {
        Kind::File => ".arrow",
        Kind::Lz4 => ".lz4.arrow",
        Kind::Zstd => ".zstd.arrow",
        Kind::Stream => ".arrows",
        Kind::ParquetSnappy => ".snappy.parquet",
        Kind::ParquetZstd => ".zstd.parquet",
        Kind::ParquetPlain => ".plain.parquet",
    };
    dir.join(format!("{dataset}-{rows}{pa}{tail}"))
}

/// The input kind an operation reads (writes load the uncompressed file).
fn input_kind(op: Op) -> Kind {
    match op {
        Op::ReadStream => Kind::Stream,
        Op::ReadFileLz4T1 | Op::ReadFileLz4T2 => Kind::Lz4,
        Op::ReadFileZstdT1 | Op::ReadFileZstdT2 => Kind::Zstd,
        Op::ParquetReadZstdT1 | Op::ParquetReadZstdT2 => Kind::ParquetZstd,
        Op::ParquetReadPlainT1 | Op::ParquetReadPlainT2 => Kind::ParquetPlain,
        _ if op.is_write() => Kind::File,
        _ if op.is_parquet() => Kind::ParquetSnappy,
        _ => Kind::File,
    }
}

/// How to start one run of one implementation.
pub struct Runner<'a> {
    /// The driver's arguments.
    pub args: &'a DriveArgs,
    /// This program (`quiver-bench`).
    pub exe: PathBuf,
    /// The folder of the files the operations write.
    pub scratch: PathBuf,
}

impl Runner<'_> {
    /// Runs `op` for `imp` in a fresh process (reading the top-level `columns` if given);
    /// returns its JSON line.
    pub fn run(
        &self,
        imp: &str,
        op: Op,
        input: &Path,
        columns: Option<&[&str]>,
    ) -> Result<OpResult> {
        let extension = match op {
            Op::WriteStream => "arrows",
            _ if op.parquet_write().is_some() => "parquet",
            _ => "arrow",
        };
        let output = self.scratch.join(format!("bench-out-{imp}.{extension}"));
        let mut cmd = if ["pyarrow", "duckdb", "polars"].contains(&imp) {
            let mut c = Command::new(&self.args.python);
            c.arg(&self.args.py_ops).args(["--impl", imp]);
            c
        } else {
            let mut c = Command::new(&self.exe);
            c.args(["op", "--impl", imp]);
            c
        };
        cmd.args(["--op", op.name()]);
        if op != Op::Memcpy {
            cmd.arg("--input").arg(input);
        }
        if let Some(columns) = columns {
            cmd.arg("--columns").arg(columns.join(","));
        }
        if op.is_write() {
            cmd.arg("--output").arg(&output);
        }
        if op.is_write() {
            // Writes start with no dirty pages left by earlier runs (or the data set-up),
            // whose writeback would otherwise compete with the measured one.
            let _ = Command::new("sync").status();
        }
        let out = cmd.output().with_context(|| format!("starting {cmd:?}"))?;
        let mut file_bytes = 0;
        if op.is_write() {
            file_bytes = std::fs::metadata(&output).map(|m| m.len()).unwrap_or(0);
            let _ = std::fs::remove_file(&output);
            if out.status.success() && file_bytes == 0 {
                bail!("{imp} {} wrote nothing", op.name());
            }
        }
        let mut r = parse_output(&out, &format!("{imp} {}", op.name()))?;
        r.file_bytes = file_bytes;
        Ok(r)
    }
}

/// The JSON line of a finished run (the last line of its standard output that starts with
/// `{`), or its failure with the last lines of its standard error (backtraces left out).
pub fn parse_output(out: &std::process::Output, what: &str) -> Result<OpResult> {
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let lines = without_backtraces(&err);
        let tail = &lines[lines.len().saturating_sub(5)..];
        bail!("{what} failed ({}): {}", out.status, tail.join(" | "));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with('{'))
        .with_context(|| format!("{what} printed no JSON line"))?;
    serde_json::from_str(line).with_context(|| format!("parsing {line}"))
}

/// `quiver-bench drive`.
pub fn run(a: &DriveArgs) -> Result<()> {
    if a.reps == 0 {
        bail!("--reps must be at least 1");
    }
    let datasets = a
        .datasets
        .iter()
        .map(|d| {
            let (name, rows) = d.split_once(':').context("--dataset is NAME:ROWS")?;
            Ok((name.to_string(), rows.parse::<u64>().context("ROWS")?))
        })
        .collect::<Result<Vec<_>>>()?;
    let ops: Vec<Op> = Op::ALL
        .into_iter()
        .filter(|o| a.ops.is_empty() || a.ops.iter().any(|n| selects(n, *o)))
        .collect();
    if ops.is_empty() {
        bail!("--ops {} selects no operation", a.ops.join(","));
    }
    for imp in &a.impls {
        if !IMPLS.contains(&imp.as_str()) {
            bail!("unknown implementation {imp}");
        }
    }
    let runner = Runner {
        args: a,
        exe: std::env::current_exe()?,
        scratch: a.scratch.clone().unwrap_or_else(|| a.data.clone()),
    };
    let mut report = Report::new(a, crate::machine::load_average());

    eprintln!("== memcpy bandwidth ({} runs)", a.reps);
    for _ in 0..a.reps {
        let r = runner.run("quiver", Op::Memcpy, Path::new(""), None)?;
        report.memcpy_mb_s.push(r.bytes as f64 / r.seconds / 1e6);
    }

    for (name, rows) in &datasets {
        let mut rows_out = Vec::new();
        let generic = ops.iter().filter(|o| !o.is_merge() && runs_on(**o, name));
        for &op in generic {
            let writers: &[Writer] = if op.is_write() {
                &[Writer::Quiver]
            } else if op.is_parquet() {
                &[Writer::Pyarrow]
            } else {
                &[Writer::Quiver, Writer::Pyarrow]
            };
            for &writer in writers {
                let input = data_file(&a.data, name, *rows, writer, input_kind(op));
                if !input.exists() {
                    bail!("missing input {} (run bench/run.sh)", input.display());
                }
                let mut row = Row::new(op, if op.is_write() { None } else { Some(writer) });
                let columns = projection(op, name);
                let mut first: Option<OpResult> = None;
                for rep in 0..a.reps {
                    for imp in a.impls.iter().filter(|i| runs(i, op)) {
                        let res = runner
                            .run(imp, op, &input, columns)
                            .and_then(|r| check(r, *rows, &mut first));
                        match &res {
                            Ok(r) => eprintln!(
                                "[{name} {} {} rep {}/{}] {imp}: {:.3} s",
                                op.name(),
                                writer.name(),
                                rep + 1,
                                a.reps,
                                r.seconds
                            ),
                            Err(e) => eprintln!("[{name} {}] {imp}: ERROR {e:#}", op.name()),
                        }
                        row.push(imp, res);
                    }
                }
                rows_out.push(row);
            }
        }
        let mut scans = Vec::new();
        // The scans read IPC files: not run when only Parquet operations are selected.
        let ipc_selected = ops.iter().any(|o| !o.is_parquet() && !o.is_merge());
        if !a.no_scan && ipc_selected && !parquet_only(name) {
            for kind in [Kind::File, Kind::Lz4, Kind::Zstd] {
                for threads in [1usize, 2] {
                    let input = data_file(&a.data, name, *rows, Writer::Quiver, kind);
                    scans.push(scan(a, &input, threads)?);
                }
            }
        }
        let merge_ops: Vec<Op> = ops
            .iter()
            .copied()
            .filter(|o| o.is_merge() && runs_on(*o, name))
            .collect();
        let merge = if merge_ops.is_empty() {
            None
        } else {
            Some(crate::merge::run(&runner, name, *rows, &merge_ops)?)
        };
        if rows_out.is_empty() && scans.is_empty() && merge.is_none() {
            continue;
        }
        report.add_dataset(name, *rows, rows_out, scans, merge);
    }
    report.load_end = crate::machine::load_average();
    let mut text = report.render();
    if let Some(name) = &a.section {
        let old = match std::fs::read_to_string(&a.out) {
            Ok(old) => old,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e).with_context(|| a.out.display().to_string()),
        };
        text = splice_section(&old, name, &text);
    }
    std::fs::write(&a.out, text).with_context(|| a.out.display().to_string())?;
    eprintln!("wrote {}", a.out.display());
    Ok(())
}

/// Whether the `--ops` entry `name` (an operation's name, or a prefix ending in `*`) selects
/// `op`.
fn selects(name: &str, op: Op) -> bool {
    match name.strip_suffix('*') {
        Some(prefix) => op.name().starts_with(prefix),
        None => name == op.name(),
    }
}

/// The non-empty lines of `text` but Rust backtraces (a `Stack backtrace:` line and the
/// indented lines after it, as anyhow prints them under `RUST_BACKTRACE=1`).
fn without_backtraces(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut in_trace = false;
    for line in text.lines() {
        if line.trim() == "Stack backtrace:" {
            in_trace = true;
            continue;
        }
        if in_trace && (line.starts_with(char::is_whitespace) || line.is_empty()) {
            continue;
        }
        in_trace = false;
        if !line.trim().is_empty() {
            lines.push(line.trim_end());
        }
    }
    lines
}

/// `report` with the section `name` replaced by `section` (appended when `report` has none).
fn splice_section(report: &str, name: &str, section: &str) -> String {
    let begin = format!("<!-- section {name} -->");
    let end = format!("<!-- /section {name} -->");
    let block = format!("{begin}\n{section}{end}\n");
    if let Some(b) = report.find(&begin)
        && let Some(e) = report[b..].find(&end)
    {
        let tail = &report[b + e + end.len()..];
        let tail = tail.strip_prefix('\n').unwrap_or(tail);
        return format!("{}{block}{tail}", &report[..b]);
    }
    let sep = if report.is_empty() || report.ends_with("\n\n") {
        ""
    } else if report.ends_with('\n') {
        "\n"
    } else {
        "\n\n"
    };
    format!("{report}{sep}{block}")
}

/// Checks a run against the data set (`rows` rows) and the first run of the same row (the
/// same number of columns): a reader that drops rows or columns cannot look fast.
pub fn check(r: OpResult, rows: u64, first: &mut Option<OpResult>) -> Result<OpResult> {
    if r.rows != rows {
        bail!(
            "{} {} counted {} rows, not {rows}",
            r.implementation,
            r.op,
            r.rows
        );
    }
    let f = first.get_or_insert_with(|| r.clone());
    if r.columns != f.columns {
        bail!(
            "{} {} gave {} columns, {} gave {}",
            r.implementation,
            r.op,
            r.columns,
            f.implementation,
            f.columns
        );
    }
    Ok(r)
}

/// Runs `quiver scan FILE --threads N --json` `reps` times as whole processes.
fn scan(a: &DriveArgs, input: &Path, threads: usize) -> Result<ScanRow> {
    let mut row = ScanRow {
        file: input
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        threads,
        wall: Vec::new(),
        inner: Vec::new(),
        bytes: 0,
        error: None,
    };
    for _ in 0..a.reps {
        let t = Instant::now();
        let out = Command::new(&a.quiver_cli)
            .arg("scan")
            .arg(input)
            .args(["--quiet", "--json", "--threads", &threads.to_string()])
            .output()
            .with_context(|| format!("starting {}", a.quiver_cli.display()))?;
        let wall = t.elapsed().as_secs_f64();
        if !out.status.success() {
            row.error = Some(String::from_utf8_lossy(&out.stderr).trim().to_string());
            break;
        }
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .with_context(|| format!("quiver scan printed {:?}", out.stdout))?;
        row.wall.push(wall);
        row.inner.push(v["seconds"].as_f64().unwrap_or(f64::NAN));
        row.bytes = v["bytes"].as_u64().unwrap_or(0);
        eprintln!("[scan {} t{threads}] {wall:.3} s", row.file);
    }
    Ok(row)
}

/// Median, minimum and maximum of `xs` (which is not empty).
pub fn stats(xs: &[f64]) -> (f64, f64, f64) {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let median = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    (median, v[0], v[n - 1])
}

/// Results of one implementation for one row, by name.
pub type ByImpl = BTreeMap<String, Vec<OpResult>>;

#[cfg(test)]
mod tests {
    use super::{splice_section, without_backtraces};

    #[test]
    fn backtraces_are_left_out_of_error_messages() {
        let err = "quiver: error: unrecognized subcommand 'merge'\n\nStack backtrace:\n   0: \
                   main\n             at src/main.rs:3:5\n\n   1: _start\nquiver exited with 2\n";
        assert_eq!(
            without_backtraces(err),
            [
                "quiver: error: unrecognized subcommand 'merge'",
                "quiver exited with 2"
            ]
        );
    }

    #[test]
    fn a_section_is_appended_then_replaced_in_place() {
        let first = splice_section("# B\n\nbody\n", "w", "one\n");
        assert_eq!(
            first,
            "# B\n\nbody\n\n<!-- section w -->\none\n<!-- /section w -->\n"
        );
        let again = splice_section(&format!("{first}after\n"), "w", "two\n");
        assert_eq!(
            again,
            "# B\n\nbody\n\n<!-- section w -->\ntwo\n<!-- /section w -->\nafter\n"
        );
    }
}
