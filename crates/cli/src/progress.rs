//! A progress bar on standard error for long work: shown only when standard error is a
//! terminal, `--quiet` is not given, and the work has already taken a moment.

use crate::source::Position;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How long work runs before a bar appears.
const DELAY: Duration = Duration::from_millis(400);

/// A lazily shown progress bar.
pub struct Progress {
    enabled: bool,
    start: Instant,
    message: String,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar labelled `message`, never shown when `quiet`.
    pub fn new(quiet: bool, message: &str) -> Progress {
        Progress {
            enabled: !quiet && std::io::stderr().is_terminal(),
            start: Instant::now(),
            message: message.to_string(),
            bar: None,
        }
    }

    /// Reports the position; creates the bar once the delay has passed.
    pub fn update(&mut self, position: Position) {
        if !self.enabled {
            return;
        }
        if self.bar.is_none() {
            if self.start.elapsed() < DELAY {
                return;
            }
            self.bar = Some(self.make_bar(position));
        }
        if let Some(bar) = &self.bar {
            match position {
                Position::Bytes(done, _) | Position::Batches(done, _) => bar.set_position(done),
            }
        }
    }

    fn make_bar(&self, position: Position) -> ProgressBar {
        let (len, template) = match position {
            Position::Bytes(_, Some(total)) => (
                Some(total),
                "{msg} [{bar:30}] {bytes}/{total_bytes} ({bytes_per_sec}, {eta})",
            ),
            Position::Bytes(_, None) => (None, "{msg} {bytes} ({bytes_per_sec})"),
            Position::Batches(_, total) => {
                (Some(total), "{msg} [{bar:30}] {pos}/{len} batches ({eta})")
            }
        };
        let bar = match len {
            Some(n) => ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr()),
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(self.message.clone());
        bar
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
