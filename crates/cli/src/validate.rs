//! `quiver validate`: full validation of every batch, with a report of each problem.

use crate::UsageError;
use crate::args::InputArgs;
use crate::format::Format;
use crate::numbers::count;
use crate::source::Input;
use anyhow::Result;
use quiver_arrow::ValidationLevel;
use std::io::Write;
use std::process::ExitCode;

/// At most this many problems are listed.
const MAX_PROBLEMS: usize = 100;

/// Runs `quiver validate`: exit 0 when valid, 1 with the problems otherwise.
pub fn run(a: &InputArgs) -> Result<ExitCode> {
    let mut problems = Vec::new();
    let (mut batches, mut rows) = (0u64, 0u64);
    let label = crate::source::label_of(&a.file);
    let mut described = String::new();
    if matches!(
        crate::source::input_format(&a.file, &a.read),
        Ok(Format::Parquet)
    ) {
        return run_parquet(a, &label);
    }
    match Input::open(&a.file, &a.read, None) {
        Ok(mut input) => {
            described = format!(
                "{}, {}",
                input.format.describe(),
                count(input.schema().fields.len() as u64, "column", "columns")
            );
            loop {
                match next_checked(&mut input) {
                    Ok(Some(n)) => {
                        batches += 1;
                        rows += n as u64;
                    }
                    Ok(None) => break,
                    Err(e) => {
                        problems.push(problem(&e, &label));
                        if !input.resumes_after_error() || problems.len() >= MAX_PROBLEMS {
                            break;
                        }
                    }
                }
            }
        }
        Err(e) if e.downcast_ref::<UsageError>().is_some() => return Err(e),
        Err(e) => problems.push(problem(&e, &label)),
    }
    let summary = format!(
        "{described}, {}, {}",
        count(batches, "batch", "batches"),
        count(rows, "row", "rows")
    );
    print_report(&label, &summary, &problems)
}

/// Prints "valid (summary)" or the problems; the exit code says which.
fn print_report(label: &str, summary: &str, problems: &[String]) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    if problems.is_empty() {
        writeln!(out, "{label}: valid ({summary})")?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    let n = problems.len();
    writeln!(
        out,
        "{label}: INVALID, {n} problem{}:",
        if n == 1 { "" } else { "s" }
    )?;
    for p in problems {
        writeln!(out, "  {p}")?;
    }
    out.flush()?;
    Ok(ExitCode::from(1))
}

/// `validate` of a Parquet file: chunk by chunk, every problem reported
/// ([`crate::parquet::check`]).
fn run_parquet(a: &InputArgs, label: &str) -> Result<ExitCode> {
    let (bytes, _) = crate::source::read_all(&a.file)?;
    let report = match crate::parquet::check::check(&bytes, MAX_PROBLEMS) {
        Ok(r) => r,
        Err(e) => return print_report(label, "", &[e.to_string()]),
    };
    let summary = format!(
        "Parquet, {}, {}, {}, {}",
        count(report.row_groups as u64, "row group", "row groups"),
        count(report.columns as u64, "leaf column", "leaf columns"),
        count(report.pages, "page", "pages"),
        count(report.rows, "row", "rows")
    );
    let code = print_report(label, &summary, &report.problems)?;
    let mut out = std::io::stdout().lock();
    for n in &report.notes {
        writeln!(out, "  note: {n}")?;
    }
    out.flush()?;
    Ok(code)
}

/// A problem as one line, without the file's name (the report's first line names it).
fn problem(e: &anyhow::Error, label: &str) -> String {
    let line = crate::one_line(e);
    match line.strip_prefix(label).and_then(|l| l.strip_prefix(": ")) {
        Some(rest) => rest.to_string(),
        None => line,
    }
}

/// The next batch's row count, after full validation.
fn next_checked(input: &mut Input) -> Result<Option<usize>> {
    let Some(b) = input.next_batch()? else {
        return Ok(None);
    };
    b.validate(ValidationLevel::Full)?;
    Ok(Some(b.num_rows()))
}
