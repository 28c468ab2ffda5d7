//! A session typed as a new user would, in a pseudo-terminal of 80 columns (`script`): the
//! table fits the terminal without `--width`.

use crate::common::*;
use std::process::Command;

#[test]
fn head_in_an_80_column_terminal() {
    if Command::new("script").arg("--version").output().is_err() {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "`script` (util-linux) is required when CI=true"
        );
        eprintln!("warning: `script` not found; skipping");
        return;
    }
    let bin = assert_cmd::cargo::cargo_bin("quiver");
    let session = format!(
        "stty cols 80 rows 40; {} head {}",
        bin.display(),
        lineitem().display()
    );
    let out = Command::new("script")
        .args(["-q", "-e", "-c", &session, "/dev/null"])
        .env("TERM", "xterm")
        .env_remove("COLUMNS")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
    assert!(out.status.success(), "{text}");
    let table: Vec<&str> = text.lines().filter(|l| l.starts_with(['+', '|'])).collect();
    assert_eq!(table.len(), 14, "{text}");
    assert!(text.contains("… 11 more columns: "), "{text}");
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
