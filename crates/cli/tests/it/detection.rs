//! Recognising inputs by their content: Parquet is read by every subcommand whatever the name
//! (and a damaged one named by what is wrong with it), legacy Feather V1 is named; `meta`
//! detects the format like the others.

use crate::common::*;
use std::path::{Path, PathBuf};

/// Every subcommand that reads an input file.
const READERS: [&str; 6] = ["schema", "head", "cat", "scan", "meta", "validate"];

/// The one-line error of each reading subcommand on `path` (validate reports its problems
/// on standard output), with `extra` arguments.
fn errors_of(path: &Path, extra: &[&str]) -> Vec<(String, String)> {
    let dir = path.parent().unwrap();
    let name = path.file_name().unwrap().to_str().unwrap();
    READERS
        .iter()
        .map(|cmd| {
            let mut args = vec![*cmd, name];
            args.extend_from_slice(extra);
            let (stdout, stderr) = run_in(dir, &args, 1);
            let text = if *cmd == "validate" { stdout } else { stderr };
            (cmd.to_string(), text)
        })
        .collect()
}

/// A minimal byte sequence with Parquet's magic at both ends and a footer of length 0.
fn parquet_bytes(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, b"PAR1\x15\x04\x15\x00\x00\x00\x00\x00PAR1").unwrap();
    path
}

/// What the Parquet reader says of the footer of [`parquet_bytes`].
const EMPTY_FOOTER: &str =
    "file metadata, FileMetaData: thrift: unexpected end of input reading a byte at byte 0 of 0";

#[test]
fn damaged_parquet_input_is_named_by_every_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    // By content whatever the name, by extension, and by the footer magic alone.
    let by_content = parquet_bytes(dir.path(), "data.bin");
    let by_name = dir.path().join("empty-ish.parquet");
    std::fs::write(&by_name, b"not really").unwrap();
    let by_footer = dir.path().join("cut");
    std::fs::write(&by_footer, b"\x00\x01\x02\x03\x04\x05\x06\x07\x08PAR1").unwrap();
    let problems = [
        (&by_content, EMPTY_FOOTER),
        (&by_name, "not a Parquet file: 10 bytes is too short"),
        (
            &by_footer,
            "not a Parquet file: the first 4 bytes are [00, 01, 02, 03], not \"PAR1\"",
        ),
    ];
    for (path, problem) in problems {
        let name = path.file_name().unwrap().to_str().unwrap();
        for (cmd, text) in errors_of(path, &[]) {
            let expected = if cmd == "validate" {
                format!("{name}: INVALID, 1 problem:\n  {problem}\n")
            } else {
                format!("quiver: error: {name}: {problem}\n")
            };
            assert_eq!(text, expected, "{cmd} {name}");
        }
    }
    let (_, e) = run_in(dir.path(), &["convert", "data.bin", "o.arrow"], 1);
    assert_eq!(e, format!("quiver: error: data.bin: {EMPTY_FOOTER}\n"));
    // `--from parquet` reads an Arrow file as Parquet, and says why it is not one.
    let e = fails(&["head", s(&lineitem()), "--from", "parquet"], 1);
    assert!(
        e.contains(": not a Parquet file: the last 4 bytes are"),
        "{e}"
    );
    // A damaged input converted to Parquet leaves no output (nor temporary file) behind.
    let (_, e) = run_in(dir.path(), &["convert", "data.bin", "out.parquet"], 1);
    assert_eq!(e, format!("quiver: error: data.bin: {EMPTY_FOOTER}\n"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
    // Standard input is recognised by its first bytes.
    let out = quiver()
        .args(["schema", "-"])
        .pipe_stdin(&by_content)
        .unwrap()
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("quiver: error: <stdin>: {EMPTY_FOOTER}\n")
    );
}

#[test]
fn a_parquet_file_written_by_pyarrow_is_recognised() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("table.dat");
    let code = format!(
        "import pyarrow as pa, pyarrow.parquet as pq\n\
         pq.write_table(pa.table({{'a': [1, 2, 3]}}), {:?})",
        s(&path)
    );
    let st = std::process::Command::new(py)
        .args(["-c", &code])
        .status()
        .unwrap();
    assert!(st.success());
    let (out, _) = run_in(dir.path(), &["head", "table.dat"], 0);
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("| ")).collect();
    assert_eq!(rows, ["| a |", "| 1 |", "| 2 |", "| 3 |"], "{out}");
    let (out, _) = run_in(dir.path(), &["schema", "table.dat"], 0);
    assert!(
        out.starts_with("table.dat: Parquet, 1 column\n  a: int64\n"),
        "{out}"
    );
}

#[test]
fn feather_v1_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.feather");
    std::fs::write(&path, b"FEA1\x00\x00\x00\x00\x00\x00\x00\x00FEA1").unwrap();
    let message = "old.feather: Feather V1 (legacy) is not supported; convert it with \
                   pyarrow.feather (read_table, then write_feather writes Feather V2, an \
                   Arrow IPC file)";
    for (cmd, text) in errors_of(&path, &[]) {
        if cmd == "validate" {
            assert!(
                text.contains("Feather V1 (legacy) is not supported"),
                "{text}"
            );
        } else {
            assert_eq!(text, format!("quiver: error: {message}\n"), "{cmd}");
        }
    }
    // Also when told it is Arrow.
    let (_, e) = run_in(dir.path(), &["schema", "old.feather", "--from", "arrow"], 1);
    assert_eq!(e, format!("quiver: error: {message}\n"));
}

#[test]
fn a_feather_v1_file_written_by_pyarrow_is_named() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1.feather");
    let code = format!(
        "import pyarrow as pa, pyarrow.feather as f\n\
         f.write_feather(pa.table({{'a': [1, 2, 3]}}), {:?}, version=1)",
        s(&path)
    );
    let st = std::process::Command::new(py)
        .args(["-c", &code])
        .status()
        .unwrap();
    assert!(st.success());
    let (_, e) = run_in(dir.path(), &["head", "v1.feather"], 1);
    assert!(
        e.contains("v1.feather: Feather V1 (legacy) is not supported"),
        "{e}"
    );
}

#[test]
fn the_from_hint_lists_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("data.xyz");
    std::fs::write(&odd, "a,b\n1,2\n").unwrap();
    let (_, e) = run_in(dir.path(), &["head", "data.xyz"], 2);
    assert_eq!(
        e.lines().next().unwrap(),
        "quiver: error: data.xyz: cannot tell the format from the content or the extension; \
         pass --from arrow|arrows|csv|jsonl|json|parquet"
    );
    let e = fails(&["convert", s(&lineitem()), "-"], 2);
    assert_eq!(
        e.lines().next().unwrap(),
        "quiver: error: writing to standard output needs --to arrow|arrows|csv|jsonl|json|parquet"
    );
}

#[test]
fn meta_summarises_csv_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("d.csv");
    std::fs::write(&csv, "id;name\r\n1;\"x\"\r\n2;y\r\n").unwrap();
    assert_eq!(
        run_in(dir.path(), &["meta", "d.csv", "--delimiter", ";"], 0).0,
        "file: d.csv  (21 bytes)  format: CSV\n\
         dialect: delimiter ';', quote '\"', header: the first line, line endings: CRLF\n\
         rows: 2\n\
         schema (2 columns, inferred from the first 2 rows):\n  id: int64\n  name: string\n"
    );
    // Without a header, with an explicit schema; from standard input with --from.
    let out = quiver()
        .args([
            "meta",
            "-",
            "--from",
            "csv",
            "--no-header",
            "--schema",
            "a: int32",
        ])
        .write_stdin("1\n2\n3\n")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "file: <stdin>  (6 bytes)  format: CSV\n\
         dialect: delimiter ',', quote '\"', header: none (--no-header), line endings: LF\n\
         rows: 3\n\
         schema (1 column, given by --schema):\n  a: int32\n"
    );
    let jsonl = dir.path().join("d.jsonl");
    std::fs::write(
        &jsonl,
        "{\"a\": 1, \"b\": \"x\"}\n{\"a\": 2, \"b\": null}\n",
    )
    .unwrap();
    assert_eq!(
        run_in(dir.path(), &["meta", "d.jsonl"], 0).0,
        "file: d.jsonl  (39 bytes)  format: JSON Lines\n\
         line endings: LF\n\
         rows: 2\n\
         schema (2 columns, inferred from the first 2 rows):\n  a: int64\n  b: string\n"
    );
}

#[test]
fn meta_refuses_what_it_cannot_describe() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.arrow");
    std::fs::write(&empty, b"").unwrap();
    let (_, e) = run_in(dir.path(), &["meta", "empty.arrow"], 1);
    assert_eq!(
        e,
        "quiver: error: empty.arrow: the input is empty (0 bytes)\n"
    );
    parquet_bytes(dir.path(), "p.parquet");
    let (_, e) = run_in(dir.path(), &["meta", "p.parquet"], 1);
    assert_eq!(e, format!("quiver: error: p.parquet: {EMPTY_FOOTER}\n"));
    // Bytes with no magic number that do not start an Arrow stream either.
    let noise = dir.path().join("noise.bin");
    std::fs::write(&noise, b"hello, this is text\n").unwrap();
    let (_, e) = run_in(dir.path(), &["meta", "noise.bin"], 1);
    assert_eq!(
        e,
        "quiver: error: noise.bin: not an Arrow or Parquet file (no magic number, and no Arrow \
         stream message at the start); for CSV or JSON pass --from csv|jsonl|json\n"
    );
    // A CSV file is described as CSV, not read as an Arrow stream.
    let csv = dir.path().join("x.csv");
    std::fs::write(&csv, "a,b\n1,2\n").unwrap();
    let (out, _) = run_in(dir.path(), &["meta", "x.csv"], 0);
    assert!(out.starts_with("file: x.csv  (8 bytes)  format: CSV\n"));
}
