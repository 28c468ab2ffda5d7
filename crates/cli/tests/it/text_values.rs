//! The values `cat` and `convert` read from and write to CSV and JSON are exactly the data:
//! time zones in `--schema` (issue #12 item 2), non-finite floats in JSON (item 3), empty
//! strings and null markers in CSV (item 4).

use crate::common::*;

/// Runs quiver with `stdin`, asserting success; returns stdout.
fn piped(args: &[&str], stdin: &str) -> String {
    let out = quiver().args(args).write_stdin(stdin).output().unwrap();
    assert!(
        out.status.success(),
        "quiver {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_zone_in_the_schema_does_not_shift_naive_times() {
    let csv = "ts\n2024-07-01 12:00:00\n2024-07-01 12:00:00Z\n";
    for (zone, want) in [
        (
            "+02:00",
            ["2024-07-01 12:00:00+02:00", "2024-07-01 14:00:00+02:00"],
        ),
        (
            "America/New_York",
            ["2024-07-01 12:00:00-04:00", "2024-07-01 08:00:00-04:00"],
        ),
    ] {
        let schema = format!("ts: timestamp[s, tz={zone}]");
        let args = ["cat", "-", "--from", "csv", "--schema", &schema];
        let table = piped(&args, csv);
        assert!(
            table.contains(want[0]) && table.contains(want[1]),
            "{table}"
        );
        let out = piped(&[&args[..], &["--format", "csv"]].concat(), csv);
        assert_eq!(out, format!("ts\n{}\n{}\n", want[0], want[1]));
    }
}

#[test]
fn unknown_zones_and_skipped_local_times_are_clear_errors() {
    let csv = "ts\n2024-03-10 02:30:00\n";
    let e = quiver()
        .args([
            "cat",
            "-",
            "--from",
            "csv",
            "--schema",
            "ts: timestamp[s, tz=Europe/Pariss]",
        ])
        .write_stdin(csv)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&e.stderr);
    assert_eq!(e.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("unknown time zone \"Europe/Pariss\""),
        "{stderr}"
    );
    let e = quiver()
        .args([
            "cat",
            "-",
            "--from",
            "csv",
            "--schema",
            "ts: timestamp[s, tz=America/New_York]",
        ])
        .write_stdin(csv)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&e.stderr);
    assert_eq!(e.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("line 2")
            && stderr.contains("\"2024-03-10 02:30:00\"")
            && stderr.contains("does not exist in America/New_York"),
        "{stderr}"
    );
    assert_no_panic(&stderr);
}

#[test]
fn json_output_writes_non_finite_floats_as_null_unless_asked() {
    let csv = "f\n1.5\nNaN\ninf\n-inf\n";
    let out = piped(
        &["convert", "-", "-", "--from", "csv", "--to", "jsonl"],
        csv,
    );
    assert_eq!(
        out,
        "{\"f\":1.5}\n{\"f\":null}\n{\"f\":null}\n{\"f\":null}\n"
    );
    let exact = piped(
        &[
            "convert",
            "-",
            "-",
            "--from",
            "csv",
            "--to",
            "jsonl",
            "--json-nonfinite",
            "string",
        ],
        csv,
    );
    assert_eq!(
        exact,
        "{\"f\":1.5}\n{\"f\":\"NaN\"}\n{\"f\":\"inf\"}\n{\"f\":\"-inf\"}\n"
    );
    // quiver reads its exact output back into a float column.
    let back = piped(
        &["convert", "-", "-", "--from", "jsonl", "--to", "csv"],
        &exact,
    );
    assert_eq!(back, "f\n1.5\nNaN\ninf\n-inf\n");
    let e = fails(
        &["convert", "x.csv", "y.csv", "--json-nonfinite", "string"],
        2,
    );
    assert!(
        e.contains("--json-nonfinite applies to JSON output only"),
        "{e}"
    );
}

#[test]
fn csv_keeps_empty_strings_apart_from_nulls() {
    let csv = "s,n\n\"\",1\n,2\nNA,NA\n";
    let out = piped(&["cat", "-", "--from", "csv", "--format", "jsonl"], csv);
    assert_eq!(
        out,
        "{\"s\":\"\",\"n\":\"1\"}\n{\"s\":null,\"n\":\"2\"}\n{\"s\":\"NA\",\"n\":\"NA\"}\n"
    );
    let marked = piped(
        &[
            "cat",
            "-",
            "--from",
            "csv",
            "--format",
            "jsonl",
            "--null-value",
            "NA,NULL",
        ],
        csv,
    );
    assert_eq!(
        marked,
        "{\"s\":\"\",\"n\":1}\n{\"s\":null,\"n\":2}\n{\"s\":null,\"n\":null}\n"
    );
    // CSV to CSV keeps both.
    let again = piped(&["convert", "-", "-", "--from", "csv", "--to", "csv"], csv);
    assert_eq!(again, csv);
}
