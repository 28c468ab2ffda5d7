//! `quiver-bench`: comparative benchmarks of quiver against arrow-rs (and pyarrow, whose side
//! lives in `bench/py/ops.py`).
//!
//! - `quiver-bench op --impl quiver|arrow-rs --op NAME --input F [--output F] [--threads N]`
//!   performs one operation in this process, times only the operation and prints one JSON line
//!   ([`OpResult`]).
//! - `quiver-bench drive …` runs every operation for every implementation in fresh processes,
//!   interleaved, and writes `BENCHMARKS.md` (see [`drive`]).
//!
//! `bench/run.sh` builds everything, generates the data and runs the driver.

mod arrow_ops;
mod drive;
mod memcpy;
mod quiver_ops;
mod report;
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
    Drive(drive::DriveArgs),
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
    /// Copy bandwidth of 1 GiB into pre-faulted memory (best of several).
    Memcpy,
}

impl Op {
    /// Every operation but `memcpy`, in report order.
    pub const ALL: [Op; 12] = [
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
            Op::Memcpy => "memcpy",
        }
    }

    /// Whether the operation writes a file (its input is loaded before the clock starts).
    pub fn is_write(self) -> bool {
        matches!(
            self,
            Op::WriteFileNone | Op::WriteFileLz4 | Op::WriteFileZstd | Op::WriteStream
        )
    }

    /// Decoding threads named by the operation (1 unless it ends in `_t2`).
    pub fn default_threads(self) -> usize {
        match self {
            Op::ReadFileLz4T2 | Op::ReadFileZstdT2 => 2,
            _ => 1,
        }
    }
}

/// Times `f`, which returns every batch materialised, and measures them with `totals`; the
/// batches are dropped after the clock stops.
pub fn timed<B>(
    f: impl FnOnce() -> anyhow::Result<Vec<B>>,
    totals: fn(&[B]) -> Measured,
) -> anyhow::Result<Measured> {
    let t = std::time::Instant::now();
    let batches = f()?;
    let seconds = t.elapsed().as_secs_f64();
    Ok(Measured {
        seconds,
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
}

/// The JSON line `quiver-bench op` (and `bench/py/ops.py`) prints.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OpResult {
    /// `quiver`, `arrow-rs` or `pyarrow`.
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
    /// Decoding threads used.
    #[serde(default)]
    pub threads: usize,
    /// Peak resident set size of the process (VmHWM / ru_maxrss), KiB.
    pub peak_rss_kb: u64,
    /// Resident set size when the process started its work (VmRSS), KiB.
    #[serde(default)]
    pub start_rss_kb: u64,
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Op(a) => run_op(&a),
        Command::Drive(a) => drive::run(&a),
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
        match a.implementation {
            Impl::Quiver => quiver_ops::run(a.op, input, output, threads)?,
            Impl::ArrowRs => arrow_ops::run(a.op, input, output, threads)?,
        }
    };
    let r = OpResult {
        implementation: a.implementation.name().to_string(),
        op: a.op.name().to_string(),
        seconds: m.seconds,
        bytes: m.bytes,
        rows: m.rows,
        batches: m.batches,
        threads,
        peak_rss_kb: rss::status_kb("VmHWM").unwrap_or(0),
        start_rss_kb,
    };
    println!("{}", serde_json::to_string(&r)?);
    Ok(())
}
