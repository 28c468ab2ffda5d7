//! What tables show: piped output never cut, widths in terminal cells, `--width` checked.

use crate::common::*;

/// `rows` as a one-column (`s`) CSV converted to an Arrow file in batches of 1,000 rows.
pub fn strings_file(dir: &std::path::Path, name: &str, rows: &[&str]) -> std::path::PathBuf {
    let csv = dir.join(format!("{name}.csv"));
    std::fs::write(&csv, format!("s\n{}\n", rows.join("\n"))).unwrap();
    let arrow = dir.join(format!("{name}.arrow"));
    ok(&[
        "convert",
        s(&csv),
        s(&arrow),
        "--batch-size",
        "1000",
        "--schema",
        "s: string",
    ]);
    arrow
}

#[test]
fn piped_cat_never_cuts_a_long_value_after_the_first_piece() {
    let dir = tempfile::tempdir().unwrap();
    let long = format!("long {}", "z".repeat(300));
    let mut rows = vec!["a"; 10_000];
    rows.push(&long);
    let file = strings_file(dir.path(), "late_long", &rows);
    let out = ok(&["cat", s(&file)]);
    assert!(!out.contains('…'), "piped output is never cut");
    let last: Vec<&str> = out.lines().rev().take(2).collect();
    assert_eq!(last[1], format!("| {long} |"));
    assert_eq!(last[0], format!("+{}+", "-".repeat(long.len() + 2)));
    // The rows before keep their own (narrow) layout: 10,000 rows under the first header.
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[..3], ["+---+", "| s |", "+---+"]);
    assert_eq!(lines[3 + 10_000], lines[lines.len() - 1]);
}

#[test]
fn width_zero_is_a_usage_error() {
    let e = fails(&["head", s(&lineitem()), "--width", "0"], 2);
    assert!(e.contains("--width"), "{e}");
}
