//! The merge benchmark of issue #15: the small Parquet files of a data set (6,000 rows each,
//! written by pyarrow with its defaults: `bench/py/write_inputs.py DIR lineitem-small ROWS`)
//! merged into one file by command-line tools, each run timed as a whole process by
//! `quiver-bench exec` (start-up included, for every tool), then the outputs read back with
//! quiver's Parquet reader.
//!
//! - `merge_verbatim`: `quiver merge OUT DIR --verbatim` and arrow-rs's `parquet-concat OUT
//!   FILES…` (every input row group kept);
//! - `merge_coalesce`: `quiver merge OUT DIR --row-group-size 1048576`, and pyarrow, DuckDB and
//!   polars through `bench/py/ops.py` (row groups of 1Mi rows);
//! - `merge_read_t1`, `_t2`: quiver reads (in-process, as `parquet_read_snappy_t*`) the freshly
//!   written file of the same data (`{dataset}-{rows}.pa.snappy.parquet`), quiver's coalesced
//!   and verbatim outputs, and for reference parquet-concat's and pyarrow's.
//!
//! Every output is checked with arrow-rs ([`crate::merge_check`]): the rows its footer
//! declares on every run, and on the first run its content against the fresh file. The first
//! run's output is kept for the reads and deleted at the end.

use crate::drive::{Kind, Runner, Writer, check, data_file, parse_output};
use crate::merge_check::{FileShape, inspect, same_content};
use crate::{Op, OpResult};
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Rows per row group of the coalescing merges.
pub const ROW_GROUP_ROWS: u64 = 1 << 20;

/// Arguments of `quiver-bench exec`.
#[derive(Debug, clap::Args)]
pub struct ExecArgs {
    /// The implementation's name (for the JSON line).
    #[arg(long = "impl")]
    pub implementation: String,
    /// The operation's name (for the JSON line).
    #[arg(long)]
    pub op: String,
    /// The program and its arguments, after `--`.
    #[arg(last = true, required = true)]
    pub command: Vec<OsString>,
}

/// `quiver-bench exec`: runs the command (its output captured, its standard error passed on
/// when it ends) and prints one JSON line: `seconds` from spawning it to its exit,
/// `peak_rss_kb` its peak resident size (`getrusage(RUSAGE_CHILDREN)`: this process has no
/// other child), and `inner_seconds` the `seconds` of the last JSON line it printed, if any.
/// A command that fails makes this process exit with status 1 after saying so.
pub fn exec(a: &ExecArgs) -> Result<()> {
    let (program, args) = a.command.split_first().context("no command")?;
    let name = Path::new(program)
        .file_name()
        .unwrap_or(program)
        .to_string_lossy()
        .into_owned();
    let t = Instant::now();
    let child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("starting {name}"))?;
    let out = child.wait_with_output()?;
    let seconds = t.elapsed().as_secs_f64();
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    if !out.status.success() {
        // Not an `Err`: its backtrace (under RUST_BACKTRACE) would bury the tool's message.
        eprintln!("{name} exited with {}", out.status);
        std::process::exit(1);
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let inner_seconds = stdout
        .lines()
        .rev()
        .filter(|l| l.trim_start().starts_with('{'))
        .find_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()?["seconds"].as_f64());
    let r = OpResult {
        implementation: a.implementation.clone(),
        op: a.op.clone(),
        seconds,
        bytes: 0,
        rows: 0,
        batches: 0,
        columns: 0,
        repeats: 1,
        threads: 0,
        peak_rss_kb: children_peak_rss_kb()?,
        start_rss_kb: 0,
        file_bytes: 0,
        inner_seconds,
        user_s: None,
        sys_s: None,
    };
    println!("{}", serde_json::to_string(&r)?);
    Ok(())
}

/// The largest peak resident set size of the waited-for children of this process, KiB.
fn children_peak_rss_kb() -> Result<u64> {
    // SAFETY: `rusage` is a C struct of integers, for which all-zero bytes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid, writable `rusage` for the duration of the call.
    if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) } != 0 {
        return Err(std::io::Error::last_os_error()).context("getrusage");
    }
    // ru_maxrss is in KiB on Linux.
    Ok(u64::try_from(usage.ru_maxrss).unwrap_or(0))
}

/// One merging tool with its settings.
#[derive(Debug, Clone, Copy)]
pub struct Merger {
    /// `merge_verbatim` or `merge_coalesce`.
    pub op: Op,
    /// The implementation (`IMPLS` selects it).
    pub imp: &'static str,
    /// Its name in the report and in its output's file name.
    pub label: &'static str,
    /// Its command as the report shows it.
    pub command: &'static str,
}

/// The label of quiver's runs without the final sync (`--no-sync`): the output is renamed
/// into place before the disk has it, as the other tools leave theirs.
pub const NO_SYNC: &str = "quiver-nosync";

/// Every merge run, in the order they alternate.
pub const MERGERS: [Merger; 8] = [
    Merger {
        op: Op::MergeVerbatim,
        imp: "quiver",
        label: "quiver",
        command: "`quiver merge OUT DIR --verbatim`",
    },
    Merger {
        op: Op::MergeVerbatim,
        imp: "quiver",
        label: NO_SYNC,
        command: "`quiver merge OUT DIR --verbatim --no-sync`",
    },
    Merger {
        op: Op::MergeVerbatim,
        imp: "arrow-rs",
        label: "parquet-concat",
        command: "`parquet-concat OUT FILE…` (arrow-rs, every file of DIR in name order)",
    },
    Merger {
        op: Op::MergeCoalesce,
        imp: "quiver",
        label: "quiver",
        command: "`quiver merge OUT DIR --row-group-size 1048576`",
    },
    Merger {
        op: Op::MergeCoalesce,
        imp: "quiver",
        label: NO_SYNC,
        command: "`quiver merge OUT DIR --row-group-size 1048576 --no-sync`",
    },
    Merger {
        op: Op::MergeCoalesce,
        imp: "pyarrow",
        label: "pyarrow",
        command: "`pq.write_table(pq.read_table(files), OUT, row_group_size=1048576, compression=\"snappy\")`",
    },
    Merger {
        op: Op::MergeCoalesce,
        imp: "duckdb",
        label: "DuckDB",
        command: "`SET preserve_insertion_order = true; COPY (SELECT * FROM read_parquet([files])) TO 'OUT' (FORMAT parquet, ROW_GROUP_SIZE 1048576)`",
    },
    Merger {
        op: Op::MergeCoalesce,
        imp: "polars",
        label: "polars",
        command: "`pl.scan_parquet(files).sink_parquet(OUT, compression=\"snappy\", row_group_size=1048576)`",
    },
];

impl Merger {
    /// The name of its output file (kept for the reads).
    fn kept(&self, scratch: &Path, dataset: &str, rows: u64) -> PathBuf {
        let op = self.op.name().trim_start_matches("merge_");
        let label = self.label.to_lowercase();
        scratch.join(format!("merged-{dataset}-{rows}.{label}-{op}.parquet"))
    }

    /// The command line that merges `files` (the Parquet files of `dir`) into `out`.
    fn argv(&self, runner: &Runner, dir: &Path, files: &[PathBuf], out: &Path) -> Vec<OsString> {
        let a = runner.args;
        let mut v: Vec<OsString> = Vec::new();
        match (self.imp, self.op) {
            ("quiver", op) => {
                v.extend([a.quiver_cli.as_os_str().into(), "merge".into()]);
                v.extend([out.as_os_str().into(), dir.as_os_str().into()]);
                if op == Op::MergeVerbatim {
                    v.push("--verbatim".into());
                } else {
                    v.extend(["--row-group-size".into(), ROW_GROUP_ROWS.to_string().into()]);
                }
                if self.label == NO_SYNC {
                    v.push("--no-sync".into());
                }
            }
            ("arrow-rs", _) => {
                let concat = a
                    .parquet_concat
                    .clone()
                    .unwrap_or_else(|| runner.exe.with_file_name("parquet-concat"));
                v.extend([concat.into_os_string(), out.as_os_str().into()]);
                v.extend(files.iter().map(|f| f.as_os_str().to_owned()));
            }
            (imp, op) => {
                v.extend([a.python.clone().into(), a.py_ops.as_os_str().into()]);
                v.extend(["--impl".into(), imp.into(), "--op".into(), op.name().into()]);
                v.extend(["--input".into(), dir.as_os_str().into()]);
                v.extend(["--output".into(), out.as_os_str().into()]);
            }
        }
        v
    }
}

/// One run of a merge: the process's figures and its output's shape.
#[derive(Debug)]
pub struct MergeRun {
    /// `quiver-bench exec`'s JSON line.
    pub result: OpResult,
    /// The output file.
    pub shape: FileShape,
}

/// The runs of one merging tool.
#[derive(Debug)]
pub struct MergeRow {
    /// The tool.
    pub merger: Merger,
    /// Its successful runs (none once a run failed: a failure voids the row).
    pub runs: Vec<MergeRun>,
    /// Its first failure (the process, the output's row count or its content).
    pub error: Option<String>,
}

/// Quiver's reads of one file.
#[derive(Debug)]
pub struct ReadRow {
    /// Which file: `fresh`, or the label of the merge that wrote it.
    pub label: String,
    /// Its shape (`None` when the file is missing).
    pub shape: Option<FileShape>,
    /// Successful runs by thread count.
    pub runs: BTreeMap<usize, Vec<OpResult>>,
    /// The first failure by thread count (or the reason the file is missing, under 0).
    pub errors: BTreeMap<usize, String>,
}

impl ReadRow {
    /// Median seconds on `threads` threads.
    pub fn median(&self, threads: usize) -> Option<f64> {
        let runs = self.runs.get(&threads)?;
        let s: Vec<f64> = runs.iter().map(|r| r.seconds).collect();
        (!s.is_empty()).then(|| crate::drive::stats(&s).0)
    }
}

/// Everything the merge benchmark measured on one data set.
#[derive(Debug)]
pub struct Results {
    /// Rows of the data set.
    pub rows: u64,
    /// The small input files.
    pub files: usize,
    /// Their total size.
    pub input_bytes: u64,
    /// The rows of the largest input file.
    pub file_rows: u64,
    /// The row groups of all the input files.
    pub input_row_groups: usize,
    /// The merges, in [`MERGERS`] order (those selected).
    pub merges: Vec<MergeRow>,
    /// The reads: the fresh file first, then quiver's outputs, then the others read.
    pub reads: Vec<ReadRow>,
    /// The thread counts of the reads.
    pub threads: Vec<usize>,
}

/// The folder of the data set's small files.
pub fn small_dir(data: &Path, dataset: &str, rows: u64) -> PathBuf {
    data.join(format!("{dataset}-{rows}-small"))
}

/// The Parquet files of `dir`, in name order.
fn list_parquet(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("{} (run bench/run.sh)", dir.display()))?;
    for e in entries {
        let path = e?.path();
        if path.extension().is_some_and(|x| x == "parquet") {
            files.push(path);
        }
    }
    files.sort();
    if files.is_empty() {
        bail!("no Parquet files in {}", dir.display());
    }
    Ok(files)
}

/// Runs the merge operations `ops` on the data set `name` of `rows` rows: every selected
/// merge `reps` times (alternating), then quiver's reads of the outputs.
pub fn run(runner: &Runner, name: &str, rows: u64, ops: &[Op]) -> Result<Results> {
    let a = runner.args;
    let dir = small_dir(&a.data, name, rows);
    let files = list_parquet(&dir)?;
    let inputs = files
        .iter()
        .map(|f| inspect(f))
        .collect::<Result<Vec<_>>>()?;
    let input_rows: u64 = inputs.iter().map(|f| f.rows).sum();
    if input_rows != rows {
        bail!(
            "the files of {} hold {input_rows} rows, not {rows}",
            dir.display()
        );
    }
    let fresh = data_file(&a.data, name, rows, Writer::Pyarrow, Kind::ParquetSnappy);
    let mut merges: Vec<MergeRow> = MERGERS
        .iter()
        .filter(|m| ops.contains(&m.op) && a.impls.iter().any(|i| i == m.imp))
        .map(|&merger| MergeRow {
            merger,
            runs: Vec::new(),
            error: None,
        })
        .collect();
    let job = Job {
        runner,
        dir: &dir,
        files: &files,
        rows,
        fresh: &fresh,
    };
    job.merges(name, &mut merges);
    let threads: Vec<usize> = ops
        .iter()
        .filter(|o| o.is_merge_read())
        .map(|o| o.default_threads())
        .collect();
    let reads = if a.impls.iter().any(|i| i == "quiver") && !threads.is_empty() {
        job.reads(name, &merges, &threads)?
    } else {
        Vec::new()
    };
    for m in &merges {
        let _ = std::fs::remove_file(m.merger.kept(&runner.scratch, name, rows));
    }
    Ok(Results {
        rows,
        files: files.len(),
        input_bytes: inputs.iter().map(|f| f.bytes).sum(),
        file_rows: inputs.iter().map(|f| f.rows).max().unwrap_or(0),
        input_row_groups: inputs.iter().map(|f| f.row_groups).sum(),
        merges,
        reads,
        threads,
    })
}

/// What every merge and read of one data set shares.
struct Job<'a> {
    runner: &'a Runner<'a>,
    dir: &'a Path,
    files: &'a [PathBuf],
    rows: u64,
    fresh: &'a Path,
}

impl Job<'_> {
    /// Every merge of `merges` `reps` times, alternating; a merge that fails once runs no more
    /// (its row keeps the error and no runs). The first run's outputs are kept.
    fn merges(&self, name: &str, merges: &mut [MergeRow]) {
        let reps = self.runner.args.reps;
        let scratch = &self.runner.scratch;
        for rep in 0..reps {
            for row in merges.iter_mut().filter(|r| r.error.is_none()) {
                let m = row.merger;
                let out = if rep == 0 {
                    m.kept(scratch, name, self.rows)
                } else {
                    scratch.join(format!("bench-out-merge-{}.parquet", m.imp))
                };
                let res = self.merge(&m, &out, rep == 0);
                if rep > 0 {
                    let _ = std::fs::remove_file(&out);
                }
                let what = format!(
                    "[{name} {} rep {}/{reps}] {}",
                    m.op.name(),
                    rep + 1,
                    m.label
                );
                match res {
                    Ok(r) => {
                        eprintln!("{what}: {:.3} s", r.result.seconds);
                        row.runs.push(r);
                    }
                    Err(e) => {
                        eprintln!("{what}: ERROR {e:#}");
                        row.error = Some(format!("{e:#}"));
                        row.runs.clear();
                        let _ = std::fs::remove_file(&out);
                    }
                }
            }
        }
    }

    /// One run of `m` into `out` (deleted first), in a fresh `quiver-bench exec` after a
    /// `sync`; the output must hold the data set's rows and, on the `first` run, the fresh
    /// file's content.
    fn merge(&self, m: &Merger, out: &Path, first: bool) -> Result<MergeRun> {
        let _ = std::fs::remove_file(out);
        let _ = Command::new("sync").status();
        let mut cmd = Command::new(&self.runner.exe);
        cmd.args(["exec", "--impl", m.imp, "--op", m.op.name(), "--"]);
        cmd.args(m.argv(self.runner, self.dir, self.files, out));
        let what = format!("{} {}", m.label, m.op.name());
        let proc = cmd
            .output()
            .with_context(|| format!("starting {}", self.runner.exe.display()))?;
        let result = parse_output(&proc, &what)?;
        let shape = inspect(out).with_context(|| format!("{what}: its output"))?;
        if shape.rows != self.rows {
            bail!("{what} wrote {} rows, not {}", shape.rows, self.rows);
        }
        if first {
            same_content(out, self.fresh).with_context(|| {
                format!(
                    "{what}: its output against {} (arrow-rs)",
                    self.fresh.display()
                )
            })?;
        }
        Ok(MergeRun { result, shape })
    }

    /// Quiver's reads, `reps` times alternating, of the fresh file and the kept outputs
    /// (quiver's, parquet-concat's, pyarrow's) on each of `threads`.
    fn reads(&self, name: &str, merges: &[MergeRow], threads: &[usize]) -> Result<Vec<ReadRow>> {
        let mut files = self.read_files(name, merges)?;
        let mut first: BTreeMap<(usize, usize), OpResult> = BTreeMap::new();
        for rep in 0..self.runner.args.reps {
            for (i, (row, path)) in files.iter_mut().enumerate() {
                if row.shape.is_none() {
                    continue;
                }
                for &t in threads {
                    let op = if t == 1 {
                        Op::MergeReadT1
                    } else {
                        Op::MergeReadT2
                    };
                    let mut f = first.remove(&(i, t));
                    let res = self
                        .runner
                        .run("quiver", op, path, None)
                        .and_then(|r| check(r, self.rows, &mut f));
                    if let Some(f) = f {
                        first.insert((i, t), f);
                    }
                    let what = format!("[{name} {} {} rep {}]", op.name(), row.label, rep + 1);
                    match res {
                        Ok(r) => {
                            eprintln!("{what} quiver: {:.3} s", r.seconds);
                            row.runs.entry(t).or_default().push(r);
                        }
                        Err(e) => {
                            eprintln!("{what} ERROR {e:#}");
                            row.errors.entry(t).or_insert_with(|| format!("{e:#}"));
                        }
                    }
                }
            }
        }
        Ok(files.into_iter().map(|(row, _)| row).collect())
    }

    /// The files read, with their rows of the report: the fresh file, then the kept outputs
    /// of quiver's merges, parquet-concat's and pyarrow's (a failed merge's row says why).
    fn read_files(&self, name: &str, merges: &[MergeRow]) -> Result<Vec<(ReadRow, PathBuf)>> {
        let mut files = vec![(read_row("fresh"), self.fresh.to_owned())];
        for (imp, op) in [
            ("quiver", Op::MergeCoalesce),
            ("quiver", Op::MergeVerbatim),
            ("arrow-rs", Op::MergeVerbatim),
            ("pyarrow", Op::MergeCoalesce),
        ] {
            let Some(m) = merges
                .iter()
                .find(|m| m.merger.imp == imp && m.merger.op == op)
            else {
                continue;
            };
            let mut row = read_row(&format!("{} {}", m.merger.label, op.name()));
            if let Some(e) = &m.error {
                row.errors.insert(0, format!("no output: {e}"));
            }
            files.push((row, m.merger.kept(&self.runner.scratch, name, self.rows)));
        }
        for (row, path) in &mut files {
            if row.errors.is_empty() {
                row.shape = Some(inspect(path)?);
            }
        }
        Ok(files)
    }
}

/// An empty read row.
fn read_row(label: &str) -> ReadRow {
    ReadRow {
        label: label.to_string(),
        shape: None,
        runs: BTreeMap::new(),
        errors: BTreeMap::new(),
    }
}
