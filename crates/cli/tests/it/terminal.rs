//! Sessions typed as a new user would, in a pseudo-terminal (`script`): the table fits the
//! terminal without `--width`, and lines up whatever the characters.

use crate::common::*;
use std::process::Command;

/// Runs `quiver ARGS` in a pseudo-terminal set up by `stty SETUP`; its output (standard output
/// and standard error together, as a terminal shows them), or `None` without `script`.
fn in_terminal(stty: &str, args: &str) -> Option<String> {
    let bin = assert_cmd::cargo::cargo_bin("quiver");
    in_terminal_shell(&format!("stty {stty}; {} {args}", bin.display()))
}

/// Runs the shell command `session` in a pseudo-terminal (see [`in_terminal`]).
fn in_terminal_shell(session: &str) -> Option<String> {
    if Command::new("script").arg("--version").output().is_err() {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "`script` (util-linux) is required when CI=true"
        );
        eprintln!("warning: `script` not found; skipping");
        return None;
    }
    let out = Command::new("script")
        .args(["-q", "-e", "-c", session, "/dev/null"])
        .env("TERM", "xterm")
        .env_remove("COLUMNS")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
    assert!(out.status.success(), "{text}");
    Some(text)
}

/// The width of `line` in terminal cells (kana, CJK ideographs and the emoji used here are
/// two cells, combining marks none).
fn cells(line: &str) -> usize {
    line.chars()
        .map(|c| match c {
            '\u{0300}'..='\u{036F}' => 0,
            '\u{3040}'..='\u{30FF}' | '\u{4E00}'..='\u{9FFF}' | '\u{1F300}'..='\u{1FAFF}' => 2,
            _ => 1,
        })
        .sum()
}

#[test]
fn head_in_an_80_column_terminal() {
    let args = format!("head {}", lineitem().display());
    let Some(text) = in_terminal("cols 80 rows 40", &args) else {
        return;
    };
    let table: Vec<&str> = text.lines().filter(|l| l.starts_with(['+', '|'])).collect();
    assert_eq!(table.len(), 14, "{text}");
    assert!(text.contains("… 12 more columns: "), "{text}");
    for line in &table {
        assert!(
            line.chars().count() <= 80,
            "wider than the terminal: {line}"
        );
    }
    assert!(
        table[0].chars().count() >= 70,
        "uses the width it has: {}",
        table[0]
    );
    assert!(text.contains('…'), "{text}");
    // The same table as the 80-column snapshot.
    let expected = ok(&["head", s(&lineitem()), "--width", "80"]);
    let expected: Vec<&str> = expected
        .lines()
        .filter(|l| l.starts_with(['+', '|']))
        .collect();
    assert_eq!(table, expected);
}

#[test]
fn a_terminal_reporting_zero_rows_keeps_its_columns() {
    let args = format!("head {}", lineitem().display());
    let Some(text) = in_terminal("cols 80 rows 0", &args) else {
        return;
    };
    let table: Vec<&str> = text.lines().filter(|l| l.starts_with(['+', '|'])).collect();
    let expected = ok(&["head", s(&lineitem()), "--width", "80"]);
    let expected: Vec<&str> = expected
        .lines()
        .filter(|l| l.starts_with(['+', '|']))
        .collect();
    assert_eq!(table, expected);
}

#[test]
fn head_of_chinese_and_emoji_is_aligned_in_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("wide.csv");
    std::fs::write(
        &csv,
        "id,name,note\n\
         1,中文名字,ok\n\
         2,emoji 😀🎉,e\u{301}t\u{e9}\n\
         3,plain,混合 text 文字\n\
         4,長い名前の列です長い名前の列です長い名前の列です長い名前の列です,x\n",
    )
    .unwrap();
    for cols in [80, 41] {
        let args = format!("head {}", csv.display());
        let Some(text) = in_terminal(&format!("cols {cols} rows 40"), &args) else {
            return;
        };
        let table: Vec<&str> = text.lines().filter(|l| l.starts_with(['+', '|'])).collect();
        assert_eq!(table.len(), 4 + 4, "{text}");
        let width = cells(table[0]);
        for line in &table {
            assert_eq!(cells(line), width, "not aligned at {cols} columns:\n{text}");
        }
        assert!(width <= cols, "{text}");
        assert!(text.contains("| 中文名字 "), "{text}");
        assert!(text.contains("| emoji 😀🎉 "), "{text}");
        assert!(text.contains("| e\u{301}t\u{e9} "), "{text}");
    }
}

#[test]
fn long_work_ends_with_a_summary_line_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("quiver");
    let convert = |out: &str, pause: &str| {
        let (name, options) = out.split_once(' ').unwrap_or((out, ""));
        let out = dir.path().join(name);
        in_terminal_shell(&format!(
            "stty cols 80 rows 24; (printf 'a\\n1\\n'; sleep {pause}; printf '2\\n') | {} convert - '{}' --from csv {options}",
            bin.display(),
            out.display()
        ))
    };
    // Parquet output, sorted or not, reports the same way.
    for out in ["slow.arrow", "slow.parquet --sort-by a"] {
        let Some(slow) = convert(out, "2") else {
            return;
        };
        let line = slow
            .lines()
            .find(|l| l.contains("converting: "))
            .unwrap_or_else(|| panic!("{out}: no summary line: {slow:?}"));
        // After the bar's last drawing and the escape sequence that cleared it.
        let summary = line.rsplit(['\r']).next().unwrap();
        let summary = summary.rsplit("\u{1b}[2K").next().unwrap().trim();
        let (head, secs) = summary.split_once(" in ").unwrap();
        assert_eq!(head, "converting: 2 rows, 6 B", "{out}");
        let secs: f64 = secs.trim_end_matches(" s").parse().unwrap();
        assert!((2.0..10.0).contains(&secs), "{out}: {summary:?}");
    }
    let Some(quick) = convert("quick.arrow", "0") else {
        return;
    };
    assert!(
        !quick.contains("converting"),
        "short work: no summary: {quick:?}"
    );
}
