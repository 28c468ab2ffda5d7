//! A progress bar on standard error for long work: shown only when standard error is a
//! terminal, `--quiet` is not given, and the work has already taken a moment; after long work,
//! a one-line summary in its place.

use crate::source::Position;
use indicatif::{HumanBytes, HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How long work runs before a bar appears.
const DELAY: Duration = Duration::from_millis(400);

/// Work that took at least this long ends with a summary line.
const SUMMARY_AFTER: Duration = Duration::from_millis(1500);

/// A lazily shown progress bar.
pub struct Progress {
    enabled: bool,
    start: Instant,
    message: String,
    bar: Option<ProgressBar>,
    rows: u64,
    /// Bytes of input, when the position does not count them (Arrow IPC files).
    input_bytes: Option<u64>,
    last: Option<Position>,
}

impl Progress {
    /// A bar labelled `message` (`converting`), never shown when `quiet`. Rates count from
    /// now.
    pub fn new(quiet: bool, message: &str) -> Progress {
        Progress {
            enabled: !quiet && std::io::stderr().is_terminal(),
            start: Instant::now(),
            message: message.to_string(),
            bar: None,
            rows: 0,
            input_bytes: None,
            last: None,
        }
    }

    /// The size of the input in bytes, for the summary when positions count batches.
    pub fn set_input_bytes(&mut self, bytes: Option<u64>) {
        self.input_bytes = bytes;
    }

    /// Counts `rows` more rows done (shown in the rate and the summary).
    pub fn add_rows(&mut self, rows: usize) {
        self.rows += rows as u64;
    }

    /// Reports the position; creates the bar once the delay has passed.
    pub fn update(&mut self, position: Position) {
        self.last = Some(position);
        if !self.enabled {
            return;
        }
        let elapsed = self.start.elapsed();
        if self.bar.is_none() {
            if elapsed < DELAY {
                return;
            }
            self.bar = Some(self.make_bar(position));
        }
        if let Some(bar) = &self.bar {
            bar.set_position(done_of(position));
            bar.set_message(status(position, self.rows, elapsed));
        }
    }

    /// A bar for `position`, drawn for the first time with its position and status.
    fn make_bar(&self, position: Position) -> ProgressBar {
        let (len, template) = match position {
            Position::Bytes(_, Some(total))
            | Position::Batches(_, total)
            | Position::Rows(_, total) => (Some(total), "{prefix} [{bar:30}] {msg}"),
            Position::Bytes(_, None) => (None, "{prefix} {msg}"),
        };
        let bar = ProgressBar::with_draw_target(len, ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_prefix(self.message.clone());
        bar.set_position(done_of(position));
        bar.set_message(status(position, self.rows, self.start.elapsed()));
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar
    }

    /// Removes the bar; after long work on a terminal, prints the summary line in its place.
    pub fn finish(&self) {
        self.clear();
        let elapsed = self.start.elapsed();
        if self.enabled && elapsed >= SUMMARY_AFTER {
            let bytes = match self.last {
                Some(Position::Bytes(done, _)) => Some(done),
                _ => self.input_bytes,
            };
            eprintln!("{}", summary(&self.message, self.rows, bytes, elapsed));
        }
    }

    /// Removes the bar (for commands that report for themselves).
    pub fn clear(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The work done of a position.
fn done_of(position: Position) -> u64 {
    let (Position::Bytes(done, _) | Position::Batches(done, _) | Position::Rows(done, _)) =
        position;
    done
}

/// What the bar shows after it: done and total, the rate since the work started (rows per
/// second when rows are counted, else bytes or batches) and the time left at that rate.
fn status(position: Position, rows: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64().max(1e-3);
    let (done, total, amount) = match position {
        Position::Bytes(done, total) => (
            done,
            total,
            match total {
                Some(t) => format!("{}/{}", HumanBytes(done), HumanBytes(t)),
                None => HumanBytes(done).to_string(),
            },
        ),
        Position::Batches(done, total) => (done, Some(total), format!("{done}/{total} batches")),
        Position::Rows(done, total) => (
            done,
            Some(total),
            format!("{}/{} rows", HumanCount(done), HumanCount(total)),
        ),
    };
    let rate = match position {
        _ if rows > 0 => format!("{} rows/s", HumanCount((rows as f64 / secs) as u64)),
        Position::Bytes(..) => format!("{}/s", HumanBytes((done as f64 / secs) as u64)),
        Position::Batches(..) => format!("{:.1} batches/s", done as f64 / secs),
        Position::Rows(..) => format!("{} rows/s", HumanCount((done as f64 / secs) as u64)),
    };
    let mut s = format!("{amount}  {rate}");
    if let Some(total) = total.filter(|_| done > 0) {
        let left = total.saturating_sub(done) as f64 * secs / done as f64;
        s.push_str(&format!("  ETA {}", clock(Duration::from_secs_f64(left))));
    }
    s
}

/// `12s`, `3m 05s`, `1h 02m`.
fn clock(d: Duration) -> String {
    let s = d.as_secs_f64().round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s / 60 % 60),
    }
}

/// `converting: 1,000,000 rows, 120.5 MiB in 3.2 s`.
fn summary(message: &str, rows: u64, bytes: Option<u64>, elapsed: Duration) -> String {
    let s = if rows == 1 { "" } else { "s" };
    let mut line = format!("{message}: {} row{s}", HumanCount(rows));
    if let Some(b) = bytes {
        line.push_str(&format!(", {}", HumanBytes(b)));
    }
    line.push_str(&format!(" in {:.1} s", elapsed.as_secs_f64()));
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_and_eta_count_from_the_start() {
        let mib = 1024 * 1024;
        // A quarter of 40 MiB in 2 s: 5 MiB/s, 6 s left.
        let s = status(
            Position::Bytes(10 * mib, Some(40 * mib)),
            0,
            Duration::from_secs(2),
        );
        assert_eq!(s, "10.00 MiB/40.00 MiB  5.00 MiB/s  ETA 6s");
        let s = status(Position::Batches(3, 12), 30_000, Duration::from_secs(3));
        assert_eq!(s, "3/12 batches  10,000 rows/s  ETA 9s");
        let s = status(Position::Bytes(512, None), 0, Duration::from_millis(500));
        assert_eq!(s, "512 B  1.00 KiB/s");
        // Nothing done yet: no estimate.
        let s = status(Position::Batches(0, 4), 0, Duration::from_millis(400));
        assert_eq!(s, "0/4 batches  0.0 batches/s");
        let s = status(Position::Rows(250, 1000), 0, Duration::from_secs(1));
        assert_eq!(s, "250/1,000 rows  250 rows/s  ETA 3s");
        assert_eq!(clock(Duration::from_secs(185)), "3m 05s");
        assert_eq!(clock(Duration::from_secs(3720)), "1h 02m");
    }

    #[test]
    fn summary_line() {
        let d = Duration::from_millis(3240);
        assert_eq!(
            summary("converting", 1_000_000, Some(3 * 1024 * 1024), d),
            "converting: 1,000,000 rows, 3.00 MiB in 3.2 s"
        );
        assert_eq!(
            summary("generating", 1, None, d),
            "generating: 1 row in 3.2 s"
        );
    }
}
