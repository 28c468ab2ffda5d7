//! Failure cases: clear one-line errors, the right exit codes, and no partial output.

use crate::common::*;
use std::path::Path;

fn entries(dir: &Path) -> usize {
    std::fs::read_dir(dir).unwrap().count()
}

#[test]
fn missing_file() {
    let e = fails(&["schema", "/no/such/file.arrow"], 1);
    assert!(e.contains("/no/such/file.arrow"), "{e}");
    assert!(e.to_lowercase().contains("no such file"), "{e}");
    fails(&["head", "/no/such/file.csv"], 1);
    fails(
        &["convert", "/no/such/file.csv", "/tmp/never-written.arrow"],
        1,
    );
    assert!(!Path::new("/tmp/never-written.arrow").exists());
}

#[test]
fn unknown_extension_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("data.xyz");
    std::fs::write(&odd, "a,b\n1,2\n").unwrap();
    let e = fails(&["schema", s(&odd)], 2);
    assert!(e.contains("data.xyz") && e.contains("--from"), "{e}");
    let e = fails(
        &["convert", s(&lineitem()), s(&dir.path().join("out.xyz"))],
        2,
    );
    assert!(e.contains("out.xyz") && e.contains("--to"), "{e}");
    assert_eq!(entries(dir.path()), 1);
    // Content decides over a misleading extension for Arrow data.
    let disguised = dir.path().join("really_arrow.xyz");
    std::fs::copy(lineitem(), &disguised).unwrap();
    ok(&["schema", s(&disguised)]);
}

#[test]
fn usage_errors() {
    fails(&["frobnicate"], 2);
    fails(&["head"], 2);
    fails(&["head", s(&lineitem()), "-n", "many"], 2);
    fails(
        &["convert", s(&lineitem()), "x.csv", "--compression", "zstd"],
        2,
    );
    fails(&["convert", s(&lineitem()), "-"], 2);
    fails(&["scan", s(&lineitem()), "--threads", "0"], 2);
    // Read options for another format than the input's do nothing: they are refused.
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("t.csv");
    std::fs::write(&csv, "a\n1\n").unwrap();
    let out = dir.path().join("o.arrow");
    for (input, option, value, applies) in [
        (lineitem(), "--schema", Some("a: int8"), "CSV and JSON"),
        (
            lineitem(),
            "--schema-from",
            Some("missing.arrow"),
            "CSV and JSON",
        ),
        (lineitem(), "--delimiter", Some(";"), "CSV"),
        (lineitem(), "--no-header", None, "CSV"),
        (lineitem(), "--null-value", Some("NA"), "CSV"),
        (csv.clone(), "--skip-crc", None, "Parquet"),
        (csv.clone(), "--int96-unit", Some("ms"), "Parquet"),
    ] {
        let mut args = vec!["convert", s(&input), s(&out), option];
        args.extend(value);
        let e = fails(&args, 2);
        assert!(e.contains(&format!("{option} does not apply to")), "{e}");
        assert!(e.contains(&format!("(it is for {applies})")), "{e}");
        assert!(!out.exists());
    }
    let help = ok(&["convert", "--help"]);
    assert!(help.contains("Examples:"), "{help}");
}

#[test]
fn corrupt_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(lineitem()).unwrap();
    let truncated = dir.path().join("truncated.arrow");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let e = fails(&["head", s(&truncated)], 1);
    assert!(e.contains("truncated.arrow"), "{e}");
    // Garbage in the middle of the data.
    let mid = bytes.len() / 3;
    for b in &mut bytes[mid..mid + 4096] {
        *b = 0xEE;
    }
    let garbage = dir.path().join("garbage.arrows");
    std::fs::write(&garbage, &bytes).unwrap();
    let out = quiver().args(["scan", s(&garbage)]).output().unwrap();
    assert_no_panic(&String::from_utf8_lossy(&out.stderr));
    let out = dir.path().join("never.arrow");
    fails(&["convert", s(&truncated), s(&out)], 1);
    assert!(!out.exists());
    assert_eq!(entries(dir.path()), 2, "no temporary file left");
}

#[test]
fn fuzz_regression_files_never_panic() {
    let Some(root) = quiver_integration::testdata::require_test_data().unwrap() else {
        return;
    };
    let dir = root.join("arrow-testing/data/arrow-ipc-stream");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if !path.is_file() {
            continue;
        }
        let runs: [&[&str]; 3] = [
            &["validate", s(&path), "--from", "arrows"],
            &["scan", s(&path), "--from", "arrows"],
            &["meta", s(&path)],
        ];
        for args in runs {
            let out = quiver().args(args).output().unwrap();
            let cmd = args[0];
            let code = out.status.code();
            assert!(
                matches!(code, Some(0 | 1)),
                "{cmd} {}: {code:?}",
                path.display()
            );
            assert_no_panic(&String::from_utf8_lossy(&out.stderr));
        }
    }
}

#[test]
fn csv_with_a_bad_row_names_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("bad.csv");
    let mut text = String::from("id,price\n");
    for i in 0..2000 {
        text.push_str(&format!("{i},{i}.5\n"));
    }
    text.push_str("2000,abc\n");
    std::fs::write(&csv, text).unwrap();
    let out = dir.path().join("bad.arrow");
    let e = fails(&["convert", s(&csv), s(&out)], 1);
    assert!(e.contains("line 2002"), "{e}");
    assert!(e.contains("price") && e.contains("abc"), "{e}");
    assert!(!out.exists());
    assert_eq!(entries(dir.path()), 1, "no temporary file left");
    let e = fails(
        &[
            "convert",
            s(&csv),
            s(&out),
            "--schema",
            "id:int64, price:int32",
        ],
        1,
    );
    assert!(e.contains("line 2"), "{e}");
}

#[test]
fn unwritable_directory() {
    let e = fails(
        &["convert", s(&lineitem()), "/proc/quiver-test/out.arrow"],
        1,
    );
    assert!(e.contains("/proc/quiver-test/out.arrow"), "{e}");
    let e = fails(
        &[
            "generate",
            "lineitem",
            "--rows",
            "10",
            "-o",
            "/proc/out.csv",
        ],
        1,
    );
    assert!(e.contains("/proc/out.csv"), "{e}");
}

#[test]
fn disk_full_leaves_no_partial_output() {
    // A file size limit of 64 KiB (ulimit -f counts 1 KiB blocks) makes writes fail with EFBIG
    // part way through, like a full disk.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("big.arrow");
    let bin = assert_cmd::cargo::cargo_bin("quiver");
    let cmd = format!(
        "ulimit -f 64; exec {} generate lineitem --rows 20000 -o {}",
        bin.display(),
        out.display()
    );
    let res = std::process::Command::new("sh")
        .args(["-c", &cmd])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert_eq!(res.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("big.arrow"), "{stderr}");
    assert_no_panic(&stderr);
    assert!(!out.exists());
    assert_eq!(entries(dir.path()), 0, "no temporary file left");
}

#[test]
fn truncated_json_and_jsonl_name_the_problem_once() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("t.json");
    std::fs::write(&json, "[{\"a\": 1}, {\"a\": ").unwrap();
    let e = fails(&["cat", s(&json)], 1);
    assert_eq!(e.matches("before the closing ']'").count(), 1, "{e}");
    let jsonl = dir.path().join("t.jsonl");
    std::fs::write(&jsonl, "{\"a\": 1}\n{\"a\": [1, {\n").unwrap();
    let e = fails(&["cat", s(&jsonl)], 1);
    assert!(e.contains("t.jsonl: line 2"), "{e}");
}

/// Messages read once: no repeated prefix, no temporary path, the right number, real numbers
/// in place of circular wording, a hint after a type error past the inference sample.
#[test]
fn error_messages_read_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A repeated file name and batch number in validate's report.
    let mut bytes = std::fs::read(lineitem()).unwrap();
    let mid = bytes.len() / 3;
    bytes[mid..mid + 4096].fill(0xEE);
    std::fs::write(d.join("g.arrow"), &bytes).unwrap();
    assert_eq!(
        run_in(d, &["validate", "g.arrow"], 1).0,
        "g.arrow: INVALID, 1 problem:\n  record batch 0, column \"l_comment\": last offset \
         -286331154 is negative\n"
    );
    // The target named, never the temporary file.
    let e = fails(
        &["convert", s(&lineitem()), "/proc/quiver-test/out.arrow"],
        1,
    );
    assert_eq!(
        e,
        "quiver: error: /proc/quiver-test/out.arrow: cannot create output: No such file or \
         directory (os error 2)\n"
    );
    // One of each.
    std::fs::write(d.join("one.csv"), "a\n1\n").unwrap();
    assert_eq!(
        run_in(d, &["validate", "one.csv"], 0).0,
        "one.csv: valid (CSV, 1 column, 1 batch, 1 row)\n"
    );
    run_in(d, &["convert", "one.csv", "one.arrows"], 0);
    let stream = std::fs::read(d.join("one.arrows")).unwrap();
    std::fs::write(d.join("cut1.arrows"), &stream[..1]).unwrap();
    assert_eq!(
        run_in(d, &["meta", "cut1.arrows"], 1).1,
        "quiver: error: cut1.arrows: malformed stream at offset 0: input ends inside a message \
         prefix (1 byte left)\n"
    );
    std::fs::write(d.join("wide.csv"), "a\n1\n2,3\n").unwrap();
    assert_eq!(
        run_in(d, &["cat", "wide.csv", "--infer-rows", "1"], 1).1,
        "quiver: error: wide.csv: line 3: expected 1 field, found 2\n"
    );
    // A block cut short says how much of it arrived.
    std::fs::write(d.join("cut.arrows"), &stream[..100]).unwrap();
    assert_eq!(
        run_in(d, &["cat", "cut.arrows"], 1).1,
        "quiver: error: cut.arrows: message 0 (schema), message metadata: input ends after 92 \
         of 120 bytes\n"
    );
    // A value past the inference sample that does not parse as the inferred type.
    std::fs::write(d.join("late.csv"), "id\n1\n2\nx\n").unwrap();
    assert_eq!(
        run_in(d, &["cat", "late.csv", "--infer-rows", "2"], 1).1,
        "quiver: error: late.csv: line 4, column \"id\": cannot parse \"x\" as int64 (types \
         were inferred from the first 2 rows; pass a larger --infer-rows, or --schema)\n"
    );
    std::fs::write(d.join("late.jsonl"), "{\"a\": 1}\n{\"a\": \"x\"}\n").unwrap();
    assert_eq!(
        run_in(d, &["cat", "late.jsonl", "--infer-rows", "1"], 1).1,
        "quiver: error: late.jsonl: line 2, field \"a\": expected number, found string (types \
         were inferred from the first 1 row; pass a larger --infer-rows, or --schema)\n"
    );
    // With an explicit schema there is nothing to suggest.
    assert_eq!(
        run_in(d, &["cat", "late.csv", "--schema", "id: int64"], 1).1,
        "quiver: error: late.csv: line 4, column \"id\": cannot parse \"x\" as int64\n"
    );
}
