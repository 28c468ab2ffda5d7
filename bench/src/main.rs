//! `quiver-bench`: comparative benchmarks of quiver against arrow-rs (and pyarrow, DuckDB and
//! polars, whose side lives in `bench/py/ops.py`).
//!
//! - `quiver-bench op --impl quiver|arrow-rs --op NAME --input F [--output F] [--threads N]
//!   [--columns A,B]` performs one operation in this process, times only the operation and
//!   prints one JSON line ([`OpResult`]).
//! - `quiver-bench drive …` runs every operation for every implementation in fresh processes,
//!   interleaved, and writes `BENCHMARKS.md` (see [`drive`]).
//! - `quiver-bench exec --impl NAME --op OP -- PROGRAM ARGS…` runs a command-line tool as a
//!   whole process (the merges of issue #15) and prints its wall time and peak RSS as the same
//!   JSON line (see [`merge`]).
//!
//! `bench/run.sh` builds everything, generates the data and runs the driver.

mod arrow_ops;
mod drive;
mod machine;
mod memcpy;
mod merge;
mod merge_check;
mod parquet_arrow;
mod parquet_quiver;
mod parquet_write;
mod quiver_ops;
mod report;
mod report_merge;
mod report_parquet;
mod report_parquet_write;
mod rss;

use anyhow::{Result, bail};
use clap::{Parser, Subcommand, ValueEnum};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Command line of `quiver-bench`.
#[derive(Debug, Parser)]
#[command(
    name = "quiver-bench",
    about = "Comparative benchmarks: quiver vs arrow-rs vs pyarrow"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The sub-commands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Perform one operation in this process and print one JSON line.
    Op(OpArgs),
    /// Run every operation for every implementation in fresh processes; write a Markdown report.
    Drive(Box<drive::DriveArgs>),
    /// Run a command as a whole process and print its wall time and peak RSS as one JSON line.
    Exec(merge::ExecArgs),
}

/// Arguments of `quiver-bench op`.
#[derive(Debug, clap::Args)]
pub struct OpArgs {
    /// The implementation.
    #[arg(long = "impl", value_enum)]
    pub implementation: Impl,
    /// The operation.
    #[arg(long, value_enum)]
    pub op: Op,
    /// The input file (an IPC file, or an IPC stream for `read_stream`); unused by `memcpy`.
    #[arg(long)]
    pub input: Option<PathBuf>,
    /// The output file of write operations.
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// Decoding threads of the `*_t1` / `*_t2` reads (overrides the number in the name).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Top-level columns to read (`parquet_project4_*`) or whose metadata to decode
    /// (`parquet_footer_wide3`), comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub columns: Vec<String>,
}

/// An implementation that `quiver-bench op` can run in-process.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Impl {
    /// This repository's crates.
    Quiver,
    /// The crates.io `arrow` crate.
    #[value(name = "arrow-rs")]
    ArrowRs,
}

impl Impl {
    /// The name used on the command line and in the JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Impl::Quiver => "quiver",
            Impl::ArrowRs => "arrow-rs",
        }
    }
}

/// One benchmarked operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ValueEnum)]
#[value(rename_all = "snake_case")]
pub enum Op {
    /// Write an IPC file, uncompressed.
    WriteFileNone,
    /// Write an IPC file with LZ4-frame compressed buffers.
    WriteFileLz4,
    /// Write an IPC file with ZSTD compressed buffers.
    WriteFileZstd,
    /// Write an IPC stream, uncompressed.
    WriteStream,
    /// Read an IPC file through `Read + Seek` (a `File`), validated.
    ReadFileSeek,
    /// Read an IPC stream through a buffered `File`, validated.
    ReadStream,
    /// Read an IPC file from a memory map, zero-copy, with full validation.
    ReadMmapValidated,
    /// Read an IPC file from a memory map, zero-copy, validation skipped.
    ReadMmapUnvalidated,
    /// Read an LZ4 compressed IPC file from a memory map on 1 thread, validated.
    ReadFileLz4T1,
    /// Read an LZ4 compressed IPC file from a memory map on 2 threads, validated.
    ReadFileLz4T2,
    /// Read a ZSTD compressed IPC file from a memory map on 1 thread, validated.
    ReadFileZstdT1,
    /// Read a ZSTD compressed IPC file from a memory map on 2 threads, validated.
    ReadFileZstdT2,
    /// Read a SNAPPY Parquet file (every column) from a memory map on 1 thread.
    ParquetReadSnappyT1,
    /// Read a SNAPPY Parquet file (every column) from a memory map on 2 threads.
    ParquetReadSnappyT2,
    /// Read a ZSTD Parquet file (every column) on 1 thread.
    ParquetReadZstdT1,
    /// Read a ZSTD Parquet file (every column) on 2 threads.
    ParquetReadZstdT2,
    /// Read an uncompressed Parquet file (every column) on 1 thread.
    ParquetReadPlainT1,
    /// Read an uncompressed Parquet file (every column) on 2 threads.
    ParquetReadPlainT2,
    /// Read 4 top-level columns (`--columns`) of a SNAPPY Parquet file on 1 thread.
    ParquetProject4Snappy,
    /// Decode a Parquet footer with every column chunk (repeated; time per decode).
    ParquetFooterLineitem,
    /// Decode a Parquet footer and the column chunks of 3 columns (`--columns`) of every row
    /// group (repeated; time per decode).
    ParquetFooterWide3,
    /// Write a Parquet file, SNAPPY with dictionary encoding, on 1 thread.
    ParquetWriteSnappyT1,
    /// Write a Parquet file, SNAPPY with dictionary encoding, on 2 threads.
    ParquetWriteSnappyT2,
    /// Write a Parquet file, ZSTD level 1 with dictionary encoding, on 1 thread.
    ParquetWriteZstdT1,
    /// Write a Parquet file, ZSTD level 1 with dictionary encoding, on 2 threads.
    ParquetWriteZstdT2,
    /// Write a Parquet file, uncompressed, PLAIN without dictionary, on 1 thread.
    ParquetWritePlainT1,
    /// Write a Parquet file, uncompressed, PLAIN without dictionary, on 2 threads.
    ParquetWritePlainT2,
    /// Merge the small Parquet files of a folder into one, keeping every input row group
    /// (`quiver merge --verbatim`, arrow-rs's `parquet-concat`); a whole process.
    MergeVerbatim,
    /// Merge the small Parquet files of a folder into one with row groups of 1Mi rows
    /// (`quiver merge --row-group-size 1048576`, pyarrow, DuckDB, polars); a whole process.
    MergeCoalesce,
    /// Read a merged Parquet file (or the freshly written one) with quiver on 1 thread.
    MergeReadT1,
    /// Read a merged Parquet file (or the freshly written one) with quiver on 2 threads.
    MergeReadT2,
    /// Copy bandwidth of 1 GiB into pre-faulted memory (best of several).
    Memcpy,
}

impl Op {
    /// Every operation but `memcpy`, in report order.
    pub const ALL: [Op; 31] = [
        Op::WriteFileNone,
        Op::WriteFileLz4,
        Op::WriteFileZstd,
        Op::WriteStream,
        Op::ReadFileSeek,
        Op::ReadStream,
        Op::ReadMmapValidated,
        Op::ReadMmapUnvalidated,
        Op::ReadFileLz4T1,
        Op::ReadFileLz4T2,
        Op::ReadFileZstdT1,
        Op::ReadFileZstdT2,
        Op::ParquetReadSnappyT1,
        Op::ParquetReadSnappyT2,
        Op::ParquetReadZstdT1,
        Op::ParquetReadZstdT2,
        Op::ParquetReadPlainT1,
        Op::ParquetReadPlainT2,
        Op::ParquetProject4Snappy,
        Op::ParquetFooterLineitem,
        Op::ParquetFooterWide3,
        Op::ParquetWriteSnappyT1,
        Op::ParquetWriteSnappyT2,
        Op::ParquetWriteZstdT1,
        Op::ParquetWriteZstdT2,
        Op::ParquetWritePlainT1,
        Op::ParquetWritePlainT2,
        Op::MergeVerbatim,
        Op::MergeCoalesce,
        Op::MergeReadT1,
        Op::MergeReadT2,
    ];

    /// The snake_case name.
    pub fn name(self) -> &'static str {
        match self {
            Op::WriteFileNone => "write_file_none",
            Op::WriteFileLz4 => "write_file_lz4",
            Op::WriteFileZstd => "write_file_zstd",
            Op::WriteStream => "write_stream",
            Op::ReadFileSeek => "read_file_seek",
            Op::ReadStream => "read_stream",
            Op::ReadMmapValidated => "read_mmap_validated",
            Op::ReadMmapUnvalidated => "read_mmap_unvalidated",
            Op::ReadFileLz4T1 => "read_file_lz4_t1",
            Op::ReadFileLz4T2 => "read_file_lz4_t2",
            Op::ReadFileZstdT1 => "read_file_zstd_t1",
            Op::ReadFileZstdT2 => "read_file_zstd_t2",
            Op::ParquetReadSnappyT1 => "parquet_read_snappy_t1",
            Op::ParquetReadSnappyT2 => "parquet_read_snappy_t2",
            Op::ParquetReadZstdT1 => "parquet_read_zstd_t1",
            Op::ParquetReadZstdT2 => "parquet_read_zstd_t2",
            Op::ParquetReadPlainT1 => "parquet_read_plain_t1",
            Op::ParquetReadPlainT2 => "parquet_read_plain_t2",
            Op::ParquetProject4Snappy => "parquet_project4_snappy",
            Op::ParquetFooterLineitem => "parquet_footer_lineitem",
            Op::ParquetFooterWide3 => "parquet_footer_wide3",
            Op::ParquetWriteSnappyT1 => "parquet_write_snappy_t1",
            Op::ParquetWriteSnappyT2 => "parquet_write_snappy_t2",
            Op::ParquetWriteZstdT1 => "parquet_write_zstd_t1",
            Op::ParquetWriteZstdT2 => "parquet_write_zstd_t2",
            Op::ParquetWritePlainT1 => "parquet_write_plain_t1",
            Op::ParquetWritePlainT2 => "parquet_write_plain_t2",
            Op::MergeVerbatim => "merge_verbatim",
            Op::MergeCoalesce => "merge_coalesce",
            Op::MergeReadT1 => "merge_read_t1",
            Op::MergeReadT2 => "merge_read_t2",
            Op::Memcpy => "memcpy",
        }
    }

    /// Whether the operation writes a file (its input is loaded before the clock starts).
    pub fn is_write(self) -> bool {
        matches!(
            self,
            Op::WriteFileNone | Op::WriteFileLz4 | Op::WriteFileZstd | Op::WriteStream
        ) || self.parquet_write().is_some()
    }

    /// The settings of a Parquet write (issue #14), `None` for every other operation.
    pub fn parquet_write(self) -> Option<parquet_write::Settings> {
        use parquet_write::Settings;
        match self {
            Op::ParquetWriteSnappyT1 | Op::ParquetWriteSnappyT2 => Some(Settings::Snappy),
            Op::ParquetWriteZstdT1 | Op::ParquetWriteZstdT2 => Some(Settings::Zstd),
            Op::ParquetWritePlainT1 | Op::ParquetWritePlainT2 => Some(Settings::Plain),
            _ => None,
        }
    }

    /// Decoding threads named by the operation (1 unless it ends in `_t2`).
    pub fn default_threads(self) -> usize {
        match self {
            Op::ReadFileLz4T2
            | Op::ReadFileZstdT2
            | Op::ParquetReadSnappyT2
            | Op::ParquetReadZstdT2
            | Op::ParquetReadPlainT2
            | Op::ParquetWriteSnappyT2
            | Op::ParquetWriteZstdT2
            | Op::ParquetWritePlainT2
            | Op::MergeReadT2 => 2,
            _ => 1,
        }
    }

    /// Whether the operation reads (issue #13) or writes (issue #14) Parquet.
    pub fn is_parquet(self) -> bool {
        self.name().starts_with("parquet_")
    }

    /// Whether the operation belongs to the merge benchmark of issue #15 (run by
    /// [`merge::run`], not by the generic loop of the driver).
    pub fn is_merge(self) -> bool {
        self.name().starts_with("merge_")
    }

    /// Whether the operation reads a merged Parquet file (with quiver's Parquet reader).
    pub fn is_merge_read(self) -> bool {
        matches!(self, Op::MergeReadT1 | Op::MergeReadT2)
    }

    /// Whether the operation decodes a Parquet footer only (repeated in one process; the time
    /// reported is per decode).
    pub fn is_footer(self) -> bool {
        matches!(self, Op::ParquetFooterLineitem | Op::ParquetFooterWide3)
    }

    /// The one data set the operation runs on (`None`: every data set but `wide`).
    pub fn only_dataset(self) -> Option<&'static str> {
        match self {
            Op::ParquetFooterLineitem => Some("lineitem"),
            Op::ParquetFooterWide3 => Some("wide"),
            _ if self.is_merge() => Some("lineitem"),
            _ => None,
        }
    }
}

/// A footer decode runs at least this long (and at least [`FOOTER_MIN_REPEATS`] times) in one
/// process, so that the time per decode is measurable.
pub const FOOTER_MIN_SECONDS: f64 = 0.3;
/// The fewest decodes of one footer run.
pub const FOOTER_MIN_REPEATS: u64 = 3;

/// Repeats `decode` (which returns the rows and columns it saw) until it has run for
/// [`FOOTER_MIN_SECONDS`] and [`FOOTER_MIN_REPEATS`] times; the seconds are per decode, and
/// every decode must see the same rows and columns.
pub fn timed_repeated(mut decode: impl FnMut() -> Result<(u64, u64)>) -> Result<Measured> {
    let t = std::time::Instant::now();
    let first = decode()?;
    let mut repeats = 1;
    while repeats < FOOTER_MIN_REPEATS || t.elapsed().as_secs_f64() < FOOTER_MIN_SECONDS {
        let again = decode()?;
        if again != first {
            bail!("decode {repeats} saw {again:?} (rows, columns), the first {first:?}");
        }
        repeats += 1;
    }
    Ok(Measured {
        seconds: t.elapsed().as_secs_f64() / repeats as f64,
        bytes: 0,
        rows: first.0,
        columns: first.1,
        batches: 0,
        repeats,
        loaded_rss_kb: 0,
        cpu: None,
    })
}

/// Times `f`, which returns every batch materialised, and measures them with `totals`; the
/// batches are dropped after the clock stops.
pub fn timed<B>(
    f: impl FnOnce() -> anyhow::Result<Vec<B>>,
    totals: fn(&[B]) -> Measured,
) -> anyhow::Result<Measured> {
    let cpu = rss::cpu_seconds();
    let t = std::time::Instant::now();
    let batches = f()?;
    let seconds = t.elapsed().as_secs_f64();
    let cpu = rss::cpu_since(cpu);
    Ok(Measured {
        seconds,
        cpu: Some(cpu),
        ..totals(&batches)
    })
}

/// What an operation measured, without the process figures.
#[derive(Debug, Clone, Copy, Default)]
pub struct Measured {
    /// Seconds the timed part took.
    pub seconds: f64,
    /// Arrow in-memory size of the data (buffer bytes the arrays refer to).
    pub bytes: u64,
    /// Rows of the data.
    pub rows: u64,
    /// Record batches of the data.
    pub batches: u64,
    /// Top-level columns of the data (for footer operations: leaf columns decoded).
    pub columns: u64,
    /// Times the operation ran inside the timing (footer decodes; 1 otherwise).
    pub repeats: u64,
    /// Parquet writes: VmRSS once the input was loaded, KiB (the peak is reset to it before
    /// the clock starts); 0 otherwise.
    pub loaded_rss_kb: u64,
    /// CPU seconds (user, system) of the whole process during the timed part, where measured.
    pub cpu: Option<(f64, f64)>,
}

/// The JSON line `quiver-bench op` (and `bench/py/ops.py`) prints.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OpResult {
    /// `quiver`, `arrow-rs`, `pyarrow`, `duckdb` or `polars`.
    #[serde(rename = "impl")]
    pub implementation: String,
    /// The operation's name.
    pub op: String,
    /// Seconds the timed part took.
    pub seconds: f64,
    /// Arrow in-memory size of the data.
    pub bytes: u64,
    /// Rows of the data.
    pub rows: u64,
    /// Record batches of the data.
    #[serde(default)]
    pub batches: u64,
    /// Top-level columns of the data (for footer operations: leaf columns decoded).
    #[serde(default)]
    pub columns: u64,
    /// Times the operation ran inside the timing (footer decodes; the seconds are per run).
    #[serde(default = "one")]
    pub repeats: u64,
    /// Decoding threads used.
    #[serde(default)]
    pub threads: usize,
    /// Peak resident set size of the process (VmHWM / ru_maxrss), KiB.
    pub peak_rss_kb: u64,
    /// Resident set size when the process started its work (VmRSS), KiB; for Parquet writes,
    /// once the input was loaded (the peak was reset to it before the clock started).
    #[serde(default)]
    pub start_rss_kb: u64,
    /// Bytes of the file a write produced (measured by the driver before it deletes the file).
    #[serde(default)]
    pub file_bytes: u64,
    /// Whole-process runs (`quiver-bench exec`): the seconds the program measured itself
    /// around its work, if it printed a JSON line with `seconds` (the Python merges do).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inner_seconds: Option<f64>,
    /// CPU seconds the process spent in user mode during the timed part (every thread), where
    /// measured: with `sys_s`, where the time went (computing, or the kernel's system calls and
    /// page faults).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_s: Option<f64>,
    /// CPU seconds the process spent in the kernel during the timed part, where measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sys_s: Option<f64>,
}

/// The default of [`OpResult::repeats`].
fn one() -> u64 {
    1
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Op(a) => run_op(&a),
        Command::Drive(a) => drive::run(&a),
        Command::Exec(a) => merge::exec(&a),
    }
}

/// `quiver-bench op`.
fn run_op(a: &OpArgs) -> Result<()> {
    let start_rss_kb = rss::status_kb("VmRSS").unwrap_or(0);
    let threads = a.threads.unwrap_or_else(|| a.op.default_threads());
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    let m = if a.op == Op::Memcpy {
        memcpy::run()?
    } else {
        let Some(input) = a.input.as_deref() else {
            bail!("--input is required for {}", a.op.name());
        };
        if a.op.is_write() && a.output.is_none() {
            bail!("--output is required for {}", a.op.name());
        }
        let output = a.output.as_deref();
        let columns = (!a.columns.is_empty()).then_some(a.columns.as_slice());
        match a.implementation {
            Impl::Quiver if a.op.parquet_write().is_some() => {
                parquet_write::quiver(a.op, input, output, threads)?
            }
            Impl::ArrowRs if a.op.parquet_write().is_some() => {
                parquet_write::arrow_rs(a.op, input, output)?
            }
            Impl::Quiver if a.op.is_parquet() || a.op.is_merge_read() => {
                parquet_quiver::run(a.op, input, columns, threads)?
            }
            Impl::ArrowRs if a.op.is_parquet() => {
                parquet_arrow::run(a.op, input, columns, threads)?
            }
            Impl::Quiver => quiver_ops::run(a.op, input, output, threads)?,
            Impl::ArrowRs => arrow_ops::run(a.op, input, output, threads)?,
        }
    };
    // arrow-rs's synchronous Parquet reader and its ArrowWriter work on the calling thread only.
    let threads = if a.implementation == Impl::ArrowRs && a.op.is_parquet() {
        1
    } else {
        threads
    };
    let r = OpResult {
        implementation: a.implementation.name().to_string(),
        op: a.op.name().to_string(),
        seconds: m.seconds,
        bytes: m.bytes,
        rows: m.rows,
        batches: m.batches,
        columns: m.columns,
        repeats: m.repeats.max(1),
        threads,
        peak_rss_kb: rss::status_kb("VmHWM").unwrap_or(0),
        start_rss_kb: if m.loaded_rss_kb > 0 {
            m.loaded_rss_kb
        } else {
            start_rss_kb
        },
        file_bytes: 0,
        inner_seconds: None,
        user_s: m.cpu.map(|c| c.0),
        sys_s: m.cpu.map(|c| c.1),
    };
    println!("{}", serde_json::to_string(&r)?);
    Ok(())
}
