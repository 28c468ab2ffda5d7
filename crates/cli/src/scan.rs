//! `quiver scan`: read and decode every selected value with full validation, and report rows,
//! bytes, time and throughput. The record batches of Arrow IPC files are decoded on a thread
//! pool, each thread reading the batches it takes from the same memory map; Parquet's reader
//! decodes the column chunks of each row group on the threads.

use crate::args::ScanArgs;
use crate::format::Format;
use crate::numbers::count;
use crate::progress::Progress;
use crate::source::{Input, Position};
use anyhow::{Context, Result};
use bytes::Bytes;
use quiver_arrow::parallel::ThreadPool;
use quiver_arrow::{RecordBatch, ValidationLevel};
use quiver_ipc::read::{FileReader, ReadOptions};
use std::io::Write;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a scan counted.
#[derive(Debug, Default, Clone, Copy)]
struct Totals {
    batches: u64,
    rows: u64,
    bytes: u64,
}

impl Totals {
    fn add(&mut self, b: &RecordBatch) {
        self.batches += 1;
        self.rows += b.num_rows() as u64;
        self.bytes += b.buffer_bytes() as u64;
    }
    fn merge(&mut self, o: Totals) {
        self.batches += o.batches;
        self.rows += o.rows;
        self.bytes += o.bytes;
    }
}

/// Runs `quiver scan`.
pub fn run(a: &ScanArgs, quiet: bool) -> Result<ExitCode> {
    let threads = match a.threads {
        Some(0) => crate::usage!("--threads must be at least 1"),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let start = Instant::now();
    let mut read = a.read.clone();
    read.threads = Some(threads);
    let mut input = Input::open(&a.file, &read, a.columns.as_deref())?;
    let mut progress = Progress::new(quiet, "scanning");
    let (totals, used) = match input.ipc_file_parts() {
        Some(parts) if threads > 1 && parts.2 > 1 => {
            let used = threads.min(parts.2);
            (parallel(parts, used, &mut progress, &input.label)?, used)
        }
        // Parquet decodes the column chunks of each row group on the threads.
        _ if input.format == Format::Parquet => (sequential(&mut input, &mut progress)?, threads),
        _ => (sequential(&mut input, &mut progress)?, 1),
    };
    let elapsed = start.elapsed();
    // The report below says what a summary line would.
    progress.clear();
    let report = Report {
        input: &input,
        totals,
        threads: used,
        elapsed,
    };
    let mut out = std::io::stdout().lock();
    if a.json {
        writeln!(out, "{}", report.json())?;
    } else {
        write!(out, "{}", report.text())?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn sequential(input: &mut Input, progress: &mut Progress) -> Result<Totals> {
    let mut t = Totals::default();
    // Arrow readers validate every batch in full as they decode it; batches built from text
    // are validated here so that every input gets the same check.
    let check = !input.format.is_arrow();
    while let Some(b) = input.next_batch()? {
        if check {
            b.validate(ValidationLevel::Full)
                .with_context(|| input.label.clone())?;
        }
        t.add(&b);
        progress.update(input.position());
    }
    Ok(t)
}

/// Decodes the batches of an IPC file on a pool of `threads` threads (this one included),
/// each thread with its own reader over the shared bytes, batches handed out in order to
/// whichever thread is free. The thread that finishes a batch moves the progress bar.
fn parallel(
    (bytes, projection, n): (Bytes, Option<Vec<usize>>, usize),
    threads: usize,
    progress: &mut Progress,
    label: &str,
) -> Result<Totals> {
    let pool = ThreadPool::new(threads)?;
    // Batches are spread over threads here, so each decompresses on its own thread.
    let mut options = ReadOptions::new().with_parallel_decompression(false);
    if let Some(p) = projection {
        options = options.with_projection(p);
    }
    let done = Mutex::new((0, progress));
    let worker = || {
        let mut reader = None;
        let (bytes, options, done) = (&bytes, &options, &done);
        move |i: usize| -> Result<Totals> {
            let r = match &mut reader {
                Some(r) => r,
                None => reader.insert(FileReader::from_bytes_with_options(
                    bytes.clone(),
                    options.clone(),
                )?),
            };
            let b = r.batch(i).with_context(|| format!("record batch {i}"))?;
            let mut t = Totals::default();
            t.add(&b);
            if let Ok(mut d) = done.lock() {
                d.0 += 1;
                let position = Position::Batches(d.0, n as u64);
                d.1.update(position);
            }
            Ok(t)
        }
    };
    let per_batch = pool
        .run_jobs((0..n).collect(), worker, || ())
        .with_context(|| label.to_string())?;
    let mut total = Totals::default();
    per_batch.into_iter().for_each(|t| total.merge(t));
    Ok(total)
}

/// The scan result, as text or JSON.
struct Report<'a> {
    input: &'a Input,
    totals: Totals,
    threads: usize,
    elapsed: Duration,
}

impl Report<'_> {
    fn seconds(&self) -> f64 {
        self.elapsed.as_secs_f64().max(1e-9)
    }

    fn text(&self) -> String {
        let t = &self.totals;
        let secs = self.seconds();
        format!(
            "{}: {}, {}, {}, {}\n\
             decoded {} in {:.3} s: {:.1} MB/s, {:.2} M rows/s ({} thread{}, full validation)\n",
            self.input.label,
            self.input.format.describe(),
            count(t.batches, "batch", "batches"),
            count(t.rows, "row", "rows"),
            count(self.input.schema().fields.len() as u64, "column", "columns"),
            human_bytes(t.bytes),
            secs,
            t.bytes as f64 / 1e6 / secs,
            t.rows as f64 / 1e6 / secs,
            self.threads,
            if self.threads == 1 { "" } else { "s" },
        )
    }

    fn json(&self) -> String {
        let t = &self.totals;
        let secs = self.seconds();
        format!(
            "{{\"file\":{},\"format\":\"{}\",\"batches\":{},\"rows\":{},\"columns\":{},\
             \"bytes\":{},\"seconds\":{:.6},\"mb_per_s\":{:.3},\"threads\":{}}}",
            json_string(&self.input.label),
            self.input.format.describe(),
            t.batches,
            t.rows,
            self.input.schema().fields.len(),
            t.bytes,
            secs,
            t.bytes as f64 / 1e6 / secs,
            self.threads
        )
    }
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Bytes in decimal units (`905.3 MB`).
pub fn human_bytes(n: u64) -> String {
    let units = ["bytes", "kB", "MB", "GB", "TB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1000.0 && u + 1 < units.len() {
        v /= 1000.0;
        u += 1;
    }
    if n == 1 {
        "1 byte".into()
    } else if u == 0 {
        format!("{n} bytes")
    } else {
        format!("{v:.1} {}", units[u])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_formatting() {
        assert_eq!(human_bytes(999), "999 bytes");
        assert_eq!(human_bytes(1), "1 byte");
        assert_eq!(human_bytes(905_300_000), "905.3 MB");
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }
}
