//! `scan`, `validate` and `generate`.

use crate::common::*;

fn scan_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["scan"];
    all.extend(args);
    all.push("--json");
    serde_json::from_str(&ok(&all)).unwrap()
}

#[test]
fn scan_counts_rows_bytes_and_threads() {
    let file = lineitem();
    let one = scan_json(&[s(&file), "--threads", "1"]);
    let two = scan_json(&[s(&file), "--threads", "2"]);
    assert_eq!(one["rows"], 2500);
    assert_eq!(one["batches"], 3);
    assert_eq!(one["threads"], 1);
    assert_eq!(two["threads"], 2);
    assert_eq!(one["rows"], two["rows"]);
    assert_eq!(one["bytes"], two["bytes"]);
    let expected = read_arrow(&file).buffer_bytes() as u64;
    // One batch versus three: only the per-batch validity rounding may differ.
    let bytes = one["bytes"].as_u64().unwrap();
    assert!(bytes.abs_diff(expected) < 64, "{bytes} vs {expected}");
    let some = scan_json(&[s(&file), "--columns", "l_orderkey", "--threads", "2"]);
    assert_eq!(some["bytes"], 2500 * 8);
    assert_eq!(some["columns"], 1);
    let text = ok(&["scan", s(&file)]);
    assert!(text.contains("2,500 rows"), "{text}");
    assert!(text.contains("MB/s"), "{text}");
}

#[test]
fn scan_every_format() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["arrows", "csv", "jsonl"] {
        let path = dir.path().join(format!("l.{ext}"));
        ok(&["convert", s(&lineitem()), s(&path)]);
        let v = scan_json(&[s(&path)]);
        assert_eq!(v["rows"], 2500, "{ext}");
    }
}

#[test]
fn validate_valid_files() {
    let out = ok(&["validate", s(&lineitem())]);
    assert!(out.contains("valid") && out.contains("2,500 rows"), "{out}");
    ok(&["validate", s(&nested())]);
    let Some(dir) = gold("1.0.0-bigendian") else {
        return;
    };
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.to_string_lossy().into_owned();
        if name.ends_with(".arrow_file") || name.ends_with(".stream") {
            ok(&["validate", &name]);
        }
    }
}

/// A file whose second batch holds an invalid UTF-8 string and whose fourth batch has an
/// offset pointing outside the data: both problems are reported.
#[test]
fn validate_reports_each_problem() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("s.csv");
    let mut text = String::from("s\n");
    for i in 0..400 {
        text.push_str(&format!("value-{i:04}\n"));
    }
    std::fs::write(&csv, text).unwrap();
    let file = dir.path().join("s.arrow");
    ok(&["convert", s(&csv), s(&file), "--batch-size", "100"]);
    let mut bytes = std::fs::read(&file).unwrap();
    // Each batch's values are "value-0100".."value-0199" etc.; corrupt one in batch 1 and one
    // in batch 3.
    for needle in [&b"value-0150"[..], &b"value-0333"[..]] {
        let at = bytes.windows(10).position(|w| w == needle).unwrap();
        bytes[at + 2] = 0xFF;
    }
    let bad = dir.path().join("bad.arrow");
    std::fs::write(&bad, &bytes).unwrap();
    let out = quiver().args(["validate", s(&bad)]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(report.contains("INVALID, 2 problems"), "{report}");
    assert!(report.contains("record batch 1"), "{report}");
    assert!(report.contains("record batch 3"), "{report}");
    assert!(report.contains("UTF-8"), "{report}");
}

#[test]
fn validate_reports_bad_csv() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("bad.csv");
    std::fs::write(&csv, "a,b\n1,2\n3\n").unwrap();
    let out = quiver().args(["validate", s(&csv)]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(report.contains("line 3"), "{report}");
}

#[test]
fn generate_is_deterministic_and_sized() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.arrow");
    let b = dir.path().join("b.arrow");
    let c = dir.path().join("c.arrow");
    ok(&["generate", "lineitem", "--rows", "3000", "-o", s(&a)]);
    ok(&["generate", "lineitem", "--rows", "3000", "-o", s(&b)]);
    ok(&[
        "generate",
        "lineitem",
        "--rows",
        "3000",
        "-o",
        s(&c),
        "--seed",
        "7",
    ]);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_ne!(std::fs::read(&a).unwrap(), std::fs::read(&c).unwrap());
    assert_eq!(read_arrow(&a).num_rows(), 3000);
    let n = dir.path().join("n.arrows");
    ok(&[
        "generate",
        "nested",
        "--rows",
        "777",
        "-o",
        s(&n),
        "--batch-size",
        "100",
    ]);
    let batch = read_arrow(&n);
    assert_eq!(batch.num_rows(), 777);
    batch.validate(quiver_arrow::ValidationLevel::Full).unwrap();
}
