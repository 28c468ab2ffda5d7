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

/// The cells of the table rows (not borders) of `quiver head/cat` output.
fn table_cells(out: &str) -> Vec<Vec<String>> {
    out.lines()
        .filter(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// (name, type) of each column of the first record batch in `quiver meta --verbose`: the
/// cells under the `field` and `type` headers, for the rows that are not indented children.
fn meta_column_types(out: &str) -> Vec<(String, String)> {
    let section = out
        .split("\nrecord batch 0:")
        .nth(1)
        .expect("a record batch");
    let mut lines = section.lines().skip(1);
    let header = lines.next().unwrap();
    let (ty, len) = (header.find("type").unwrap(), header.find("length").unwrap());
    lines
        .take_while(|l| !l.is_empty())
        .filter(|l| !l[2..].starts_with(' '))
        .map(|l| {
            let chars: Vec<char> = l.chars().collect();
            let cell = |a: usize, b: usize| chars[a..b].iter().collect::<String>();
            (
                cell(0, ty).trim().to_string(),
                cell(ty, len).trim().to_string(),
            )
        })
        .collect()
}

#[test]
fn schema_and_meta_spell_types_as_pyarrow_and_tables_show_uuid_and_bool8() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("typed.arrow");
    let out = std::process::Command::new(py)
        .arg(script("typed_file.py"))
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pyarrow: Vec<(String, String)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (name, ty) = l.split_once('\t').unwrap();
            (name.to_string(), ty.to_string())
        })
        .collect();
    assert!(pyarrow.len() > 20, "{pyarrow:?}");

    let schema = ok(&["schema", s(&file)]);
    let ours: Vec<(String, String)> = schema
        .lines()
        .skip(1)
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .map(|l| {
            let (name, rest) = l.trim_start().split_once(": ").unwrap();
            let ty = rest
                .split("  [")
                .next()
                .unwrap()
                .trim_end_matches(" not null");
            (name.to_string(), ty.to_string())
        })
        .collect();
    assert_eq!(ours, pyarrow, "quiver schema:\n{schema}");

    let meta = ok(&["meta", "--verbose", s(&file)]);
    assert_eq!(
        meta_column_types(&meta),
        pyarrow,
        "quiver meta --verbose:\n{meta}"
    );

    let head = ok(&["head", s(&file), "--columns", "u,b8,lu"]);
    let cells = table_cells(&head);
    let rows: Vec<Vec<&str>> = cells
        .iter()
        .map(|r| r.iter().map(String::as_str).collect())
        .collect();
    assert_eq!(
        rows,
        [
            vec!["u", "b8", "lu"],
            vec![
                "12345678-1234-5678-9abc-def012345678",
                "true",
                "[12345678-1234-5678-9abc-def012345678, null]"
            ],
            vec!["null", "false", "[]"],
            vec![
                "ffffffff-ffff-ffff-ffff-ffffffffffff",
                "null",
                "[ffffffff-ffff-ffff-ffff-ffffffffffff]"
            ],
        ],
        "{head}"
    );
}

/// CSV and JSON output write `arrow.uuid` values as UUIDs and `arrow.bool8` values as
/// booleans (not 16 raw bytes, not 1/0), and DuckDB reads them so.
#[test]
fn csv_and_json_write_uuid_and_bool8_as_they_are_shown() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("typed.arrow");
    let out = std::process::Command::new(py)
        .arg(script("typed_file.py"))
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = ok(&["cat", s(&file), "--columns", "u,b8", "--format", "csv"]);
    assert_eq!(
        csv,
        "u,b8\n12345678-1234-5678-9abc-def012345678,true\n,false\nffffffff-ffff-ffff-ffff-ffffffffffff,\n"
    );
    let jsonl = ok(&["cat", s(&file), "--columns", "u,b8,lu", "--format", "jsonl"]);
    assert_eq!(
        jsonl.lines().collect::<Vec<_>>(),
        [
            r#"{"u":"12345678-1234-5678-9abc-def012345678","b8":true,"lu":["12345678-1234-5678-9abc-def012345678",null]}"#,
            r#"{"u":null,"b8":false,"lu":[]}"#,
            r#"{"u":"ffffffff-ffff-ffff-ffff-ffffffffffff","b8":null,"lu":["ffffffff-ffff-ffff-ffff-ffffffffffff"]}"#,
        ]
    );
    // DuckDB reads the bool8 column as booleans, and every UUID casts to its UUID type.
    let csv_path = dir.path().join("t.csv");
    std::fs::write(&csv_path, &csv).unwrap();
    let check = std::process::Command::new(py)
        .args([
            "-c",
            "import duckdb,sys; print(duckdb.sql(f\"select any_value(typeof(b8)), count(try_cast(u as uuid)) from read_csv('{sys.argv[1]}')\").fetchall())",
        ])
        .arg(&csv_path)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&check.stdout).trim(),
        "[('BOOLEAN', 2)]"
    );
}
