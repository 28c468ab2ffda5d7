//! `quiver-bench drive`: runs every operation for every implementation in fresh processes,
//! interleaved (quiver, arrow-rs, pyarrow, quiver, arrow-rs, pyarrow, …), and writes the report.
//!
//! Data files in `--data` are named `{dataset}-{rows}[.pa][.lz4|.zstd].arrow` (IPC files) and
//! `{dataset}-{rows}[.pa].arrows` (IPC streams); `.pa` marks the copies written by pyarrow
//! (`bench/py/write_inputs.py`), the others are written by `quiver generate` / `quiver convert`.

use crate::report::{self, Report, Row, ScanRow};
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
    /// The `quiver` command line binary (for `quiver scan`).
    #[arg(long)]
    pub quiver_cli: PathBuf,
    /// The Python interpreter with pyarrow.
    #[arg(long, default_value = "python3")]
    pub python: String,
    /// The pyarrow side of the operations.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/py/ops.py"))]
    pub py_ops: PathBuf,
    /// Implementations to run (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "quiver,arrow-rs,pyarrow")]
    pub impls: Vec<String>,
    /// Only these operations (comma-separated names; default: all).
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
}

/// The path of a data file.
pub fn data_file(dir: &Path, dataset: &str, rows: u64, writer: Writer, kind: Kind) -> PathBuf {
    let pa = if writer == Writer::Pyarrow { ".pa" } else { "" };
    let tail = match kind {
        Kind::File => ".arrow",
        Kind::Lz4 => ".lz4.arrow",
        Kind::Zstd => ".zstd.arrow",
        Kind::Stream => ".arrows",
    };
    dir.join(format!("{dataset}-{rows}{pa}{tail}"))
}

/// The input kind an operation reads (writes load the uncompressed file).
fn input_kind(op: Op) -> Kind {
    match op {
        Op::ReadStream => Kind::Stream,
        Op::ReadFileLz4T1 | Op::ReadFileLz4T2 => Kind::Lz4,
        Op::ReadFileZstdT1 | Op::ReadFileZstdT2 => Kind::Zstd,
        _ => Kind::File,
    }
}

/// How to start one run of one implementation.
struct Runner<'a> {
    args: &'a DriveArgs,
    exe: PathBuf,
    scratch: PathBuf,
}

impl Runner<'_> {
    /// Runs `op` for `imp` in a fresh process; returns its JSON line.
    fn run(&self, imp: &str, op: Op, input: &Path) -> Result<OpResult> {
        let output = self.scratch.join(format!(
            "bench-out-{imp}.{}",
            if op == Op::WriteStream {
                "arrows"
            } else {
                "arrow"
            }
        ));
        let mut cmd = if imp == "pyarrow" {
            let mut c = Command::new(&self.args.python);
            c.arg(&self.args.py_ops);
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
        if op.is_write() {
            cmd.arg("--output").arg(&output);
        }
        if op.is_write() {
            // Writes start with no dirty pages left by earlier runs (or the data set-up),
            // whose writeback would otherwise compete with the measured one.
            let _ = Command::new("sync").status();
        }
        let out = cmd.output().with_context(|| format!("starting {cmd:?}"))?;
        if op.is_write() {
            let len = std::fs::metadata(&output).map(|m| m.len()).unwrap_or(0);
            let _ = std::fs::remove_file(&output);
            if out.status.success() && len == 0 {
                bail!("{imp} {} wrote nothing", op.name());
            }
        }
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            let tail: Vec<&str> = err.lines().rev().take(5).collect();
            bail!(
                "{imp} {} failed ({}): {}",
                op.name(),
                out.status,
                tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
            );
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        let line = stdout
            .lines()
            .rev()
            .find(|l| l.trim_start().starts_with('{'))
            .with_context(|| format!("{imp} {} printed no JSON line", op.name()))?;
        serde_json::from_str(line).with_context(|| format!("parsing {line}"))
    }
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
        .filter(|o| a.ops.is_empty() || a.ops.iter().any(|n| n == o.name()))
        .collect();
    for imp in &a.impls {
        if !["quiver", "arrow-rs", "pyarrow"].contains(&imp.as_str()) {
            bail!("unknown implementation {imp}");
        }
    }
    let runner = Runner {
        args: a,
        exe: std::env::current_exe()?,
        scratch: a.scratch.clone().unwrap_or_else(|| a.data.clone()),
    };
    let mut report = Report::new(a, report::load_average());

    eprintln!("== memcpy bandwidth ({} runs)", a.reps);
    for _ in 0..a.reps {
        let r = runner.run("quiver", Op::Memcpy, Path::new(""))?;
        report.memcpy_mb_s.push(r.bytes as f64 / r.seconds / 1e6);
    }

    for (name, rows) in &datasets {
        let mut rows_out = Vec::new();
        for &op in &ops {
            let writers: &[Writer] = if op.is_write() {
                &[Writer::Quiver]
            } else {
                &[Writer::Quiver, Writer::Pyarrow]
            };
            for &writer in writers {
                let input = data_file(&a.data, name, *rows, writer, input_kind(op));
                if !input.exists() {
                    bail!("missing input {} (run bench/run.sh)", input.display());
                }
                let mut row = Row::new(op, if op.is_write() { None } else { Some(writer) });
                for rep in 0..a.reps {
                    for imp in &a.impls {
                        let res = runner.run(imp, op, &input);
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
        if !a.no_scan {
            for kind in [Kind::File, Kind::Lz4, Kind::Zstd] {
                for threads in [1usize, 2] {
                    let input = data_file(&a.data, name, *rows, Writer::Quiver, kind);
                    scans.push(scan(a, &input, threads)?);
                }
            }
        }
        report.add_dataset(name, *rows, rows_out, scans);
    }
    report.load_end = report::load_average();
    let text = report.render();
    std::fs::write(&a.out, text).with_context(|| a.out.display().to_string())?;
    eprintln!("wrote {}", a.out.display());
    Ok(())
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
