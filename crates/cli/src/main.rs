//! `quiver`: look inside, convert, scan and validate Arrow IPC files and streams, Parquet, CSV
//! and JSON Lines.
//!
//! Exit codes: 0 success, 1 data or I/O error, 2 usage error. Errors are printed as one line
//! on standard error naming the file and the problem.

mod args;
mod cat;
mod compact;
mod convert;
mod describe;
mod format;
mod generate;
mod interrupt;
mod merge;
mod meta;
mod numbers;
mod output;
mod parquet;
mod progress;
mod scan;
mod schema;
mod sink;
mod sort;
mod source;
#[cfg(test)]
mod test_util;
mod validate;

use args::{Cli, Command};
use clap::Parser;
use std::io::{self, Write};
use std::process::ExitCode;

/// An error in how quiver was called (exit code 2), as opposed to bad data or I/O (exit 1).
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Returns early with a [`UsageError`].
#[macro_export]
macro_rules! usage {
    ($($arg:tt)*) => {
        return Err(anyhow::Error::new($crate::UsageError(format!($($arg)*))))
    };
}

fn main() -> ExitCode {
    install_panic_hook();
    ignore_file_size_signal();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => report(&e),
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let quiet = cli.quiet;
    match cli.command {
        Command::Schema(a) => schema::run(&a),
        Command::Head(a) => cat::run_head(&a),
        Command::Cat(a) => cat::run_cat(&a),
        Command::Meta(a) => describe::run(&a),
        Command::Convert(a) => convert::run(&a, quiet),
        Command::Scan(a) => scan::run(&a, quiet),
        Command::Validate(a) => validate::run(&a),
        Command::Merge(a) => merge::run(&a, quiet),
        Command::Compact(a) => compact::run(&a, quiet),
        Command::Generate(a) => convert::run_generate(&a, quiet),
    }
}

/// Help and version go to standard output (exit 0); a usage error is shown as two lines, the
/// problem and the usage of the subcommand (exit 2).
fn usage_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if !e.use_stderr() {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let _ = e.print();
        return ExitCode::from(2);
    }
    let text = e.render().to_string();
    // The `error:` line and the indented lines that complete it (such as missing arguments).
    let mut problem: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("error:"))
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    if problem.is_empty() {
        problem.push("error: invalid arguments");
    }
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "quiver: {}", problem.join(" "));
    if let Some(usage) = text.lines().find(|l| l.trim_start().starts_with("Usage:")) {
        let _ = writeln!(err, "{} (more with --help)", usage.trim());
    }
    ExitCode::from(2)
}

/// Prints an error as `quiver: …` and picks the exit code. A closed standard output (as in
/// `quiver cat f | head`) ends the program quietly and successfully.
fn report(e: &anyhow::Error) -> ExitCode {
    if is_broken_pipe(e) {
        return ExitCode::SUCCESS;
    }
    let code = if e.downcast_ref::<UsageError>().is_some() {
        2
    } else {
        1
    };
    let _ = writeln!(io::stderr(), "quiver: error: {}", one_line(e));
    if code == 2 {
        let _ = writeln!(io::stderr(), "Run 'quiver --help' for usage.");
    }
    ExitCode::from(code)
}

/// The error's chain of causes as one line, `outer: inner: …`, leaving out a cause whose text
/// the previous message already contains (error types that print their source themselves),
/// and a context that the next cause starts with (the library already named the place:
/// `record batch 1` followed by `record batch 1, column "a": …`).
pub fn one_line(e: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in e.chain() {
        let text = cause.to_string();
        let text: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let text = text.join(" ");
        if parts.last().is_some_and(|last| last.contains(&text)) {
            continue;
        }
        let repeated = parts.last().is_some_and(|last| {
            text.strip_prefix(last.as_str())
                .is_some_and(|rest| rest.starts_with(", ") || rest.starts_with(": "))
        });
        if repeated {
            parts.pop();
        }
        parts.push(text);
    }
    parts.join(": ")
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
            || c.downcast_ref::<quiver_arrow::Error>().is_some_and(
                |q| matches!(q, quiver_arrow::Error::Io { source: io, .. } if io.kind() == io::ErrorKind::BrokenPipe),
            )
    })
}

/// A bug must not reach the user as a panic message and backtrace: print one line and exit 1.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        let _ = writeln!(
            io::stderr(),
            "quiver: internal error (please report this bug): {msg}"
        );
        std::process::exit(1);
    }));
}

/// With `SIGXFSZ` ignored, exceeding the file size limit (`ulimit -f`) makes `write` fail with
/// `EFBIG` instead of killing the process, so the temporary output is removed and the error
/// reported like a full disk.
fn ignore_file_size_signal() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to SIG_IGN installs no handler code; it is done
    // once at start-up, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

#[cfg(test)]
mod tests {
    use super::one_line;
    use anyhow::Context;

    #[test]
    fn contexts_the_library_repeats_are_printed_once() {
        let inner = quiver_arrow::Error::oos("offsets decrease at index 4")
            .context("column \"a\"")
            .context("record batch 1");
        let e = Err::<(), _>(inner)
            .context("record batch 1")
            .context("data.arrow")
            .unwrap_err();
        assert_eq!(
            one_line(&e),
            "data.arrow: record batch 1, column \"a\": offsets decrease at index 4"
        );
        // A longer number is not a repetition.
        let e = Err::<(), _>(quiver_arrow::Error::oos("bad").context("record batch 10"))
            .context("record batch 1")
            .unwrap_err();
        assert_eq!(one_line(&e), "record batch 1: record batch 10: bad");
    }
}
