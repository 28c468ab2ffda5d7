//! The `quiver-integration` binary, run as the Arrow integration harness runs it: every mode on
//! every gold case, a mismatch report naming batch, column and index, and the exit codes.

use quiver_integration::testdata::gold_json_cases;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_quiver-integration");

fn run(args: &[&str], stdin: Option<&Path>, stdout: Option<&Path>) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(args);
    if let Some(p) = stdin {
        cmd.stdin(std::fs::File::open(p).expect("stdin file"));
    }
    if let Some(p) = stdout {
        cmd.stdout(Stdio::from(std::fs::File::create(p).expect("stdout file")));
    }
    cmd.output().expect("the binary runs")
}

fn ok(out: &Output, what: &str) -> Result<(), String> {
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

fn gold_cases() -> Option<Vec<PathBuf>> {
    gold_json_cases().unwrap_or_else(|e| panic!("{e}"))
}

fn check_case(json: &Path, tmp: &Path) -> Result<(), String> {
    let stem = json
        .to_string_lossy()
        .trim_end_matches(".json.gz")
        .to_string();
    let (file, stream) = (format!("{stem}.arrow_file"), format!("{stem}.stream"));
    let j = json.to_str().expect("utf-8 path");
    let tag = Path::new(&stem)
        .iter()
        .rev()
        .take(2)
        .map(|s| s.to_string_lossy())
        .collect::<Vec<_>>()
        .join("-");
    let ours = tmp.join(format!("{tag}.arrow_file"));
    let ours_json = tmp.join(format!("{tag}.json"));
    let (to_stream, to_file) = (
        tmp.join(format!("{tag}.stream")),
        tmp.join(format!("{tag}.from_stream")),
    );
    let s = |p: &Path| p.to_str().expect("utf-8 path").to_string();
    ok(
        &run(
            &["--mode", "VALIDATE", "--json", j, "--arrow", &file],
            None,
            None,
        ),
        "validate file",
    )?;
    ok(
        &run(
            &["--mode", "VALIDATE", "--json", j, "--arrow", &stream],
            None,
            None,
        ),
        "validate stream",
    )?;
    ok(
        &run(
            &["--mode", "JSON_TO_ARROW", "--json", j, "--arrow", &s(&ours)],
            None,
            None,
        ),
        "json to arrow",
    )?;
    ok(
        &run(
            &["--mode", "VALIDATE", "--json", j, "--arrow", &s(&ours)],
            None,
            None,
        ),
        "validate ours",
    )?;
    ok(
        &run(
            &["--mode", "FILE_TO_STREAM"],
            Some(Path::new(&file)),
            Some(&to_stream),
        ),
        "file to stream",
    )?;
    ok(
        &run(
            &["--mode", "VALIDATE", "--json", j, "--arrow", &s(&to_stream)],
            None,
            None,
        ),
        "validate to_stream",
    )?;
    ok(
        &run(
            &["--mode", "STREAM_TO_FILE"],
            Some(Path::new(&stream)),
            Some(&to_file),
        ),
        "stream to file",
    )?;
    ok(
        &run(
            &["--mode", "VALIDATE", "--json", j, "--arrow", &s(&to_file)],
            None,
            None,
        ),
        "validate to_file",
    )?;
    ok(
        &run(
            &[
                "--mode",
                "ARROW_TO_JSON",
                "--arrow",
                &file,
                "--json",
                &s(&ours_json),
            ],
            None,
            None,
        ),
        "arrow to json",
    )?;
    ok(
        &run(
            &[
                "--mode",
                "VALIDATE",
                "--json",
                &s(&ours_json),
                "--arrow",
                &file,
            ],
            None,
            None,
        ),
        "validate our json",
    )
}

#[test]
fn every_mode_on_every_gold_case() {
    let Some(jsons) = gold_cases() else { return };
    let tmp = std::env::temp_dir().join(format!("quiver-integration-bin-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let failures: Vec<String> = jsons
        .iter()
        .filter_map(|j| {
            check_case(j, &tmp)
                .err()
                .map(|e| format!("{}: {e}", j.display()))
        })
        .collect();
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n{}",
        failures.len(),
        jsons.len(),
        failures.join("\n")
    );
}

#[test]
fn a_mismatch_exits_1_naming_batch_column_and_index() {
    let Some(jsons) = gold_cases() else { return };
    let json = jsons
        .iter()
        .find(|p| {
            p.to_string_lossy()
                .ends_with("1.0.0-littleendian/generated_primitive.json.gz")
        })
        .expect("case");
    // The gold data with rows 0 and 1 of batch 0 swapped in every column.
    let mut file = quiver_integration::read_json_path(json).expect("gold json");
    let b = &file.batches[0];
    let swapped = b
        .columns()
        .iter()
        .map(|c| {
            let parts = [&c.slice(1, 1), &c.slice(0, 1), &c.slice(2, c.len() - 2)];
            quiver_arrow::compute::concat(&parts).expect("concat")
        })
        .collect();
    file.batches[0] =
        quiver_arrow::RecordBatch::try_new(b.schema().clone(), swapped).expect("batch");
    let tmp = std::env::temp_dir().join(format!(
        "quiver-integration-mismatch-{}.json",
        std::process::id()
    ));
    std::fs::write(&tmp, quiver_integration::write_json(&file).expect("json")).expect("write");
    let gold = json.to_string_lossy().replace(".json.gz", ".arrow_file");
    let out = run(
        &[
            "--mode",
            "VALIDATE",
            "--json",
            tmp.to_str().unwrap(),
            "--arrow",
            &gold,
        ],
        None,
        None,
    );
    let _ = std::fs::remove_file(&tmp);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("batch 0, column "), "{err}");
    assert!(err.contains("index 0"), "{err}");
    assert!(err.lines().count() <= 2, "one or two lines: {err}");
}

#[test]
fn usage_and_input_errors_have_their_exit_codes() {
    let out = run(&["--mode", "VALIDATE", "--json", "x.json"], None, None);
    assert_eq!(
        out.status.code(),
        Some(2),
        "missing --arrow is a usage error"
    );
    let out = run(&["--mode", "NO_SUCH_MODE"], None, None);
    assert_eq!(out.status.code(), Some(2));
    let out = run(
        &[
            "--mode",
            "VALIDATE",
            "--json",
            "/nonexistent.json",
            "--arrow",
            "/nonexistent.arrow",
        ],
        None,
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent.json"), "names the file: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_failed_conversion_leaves_no_output_file() {
    let tmp =
        std::env::temp_dir().join(format!("quiver-integration-atomic-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let bad = tmp.join("bad.json");
    std::fs::write(&bad, br#"{"schema": {"fields": [{"name": "x", "type": {"name": "int", "bitWidth": 32, "isSigned": true}, "nullable": true, "children": []}]}, "batches": [{"count": 2, "columns": [{"name": "x", "count": 2, "VALIDITY": [1], "DATA": [1]}]}]}"#).unwrap();
    let target = tmp.join("out.arrow_file");
    let out = run(
        &[
            "--mode",
            "JSON_TO_ARROW",
            "--json",
            bad.to_str().unwrap(),
            "--arrow",
            target.to_str().unwrap(),
        ],
        None,
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        left,
        vec![std::ffi::OsString::from("bad.json")],
        "no output or temporary file is left"
    );
    let _ = std::fs::remove_dir_all(&tmp);
}
