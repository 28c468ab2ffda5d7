//! `convert` between every pair of formats, round trips, stdin/stdout, batch sizes.

use crate::common::*;
use std::path::{Path, PathBuf};

/// Converts `from` to `to`, passing the source's schema for text inputs.
fn convert(from: &Path, to: &Path, schema_from: &Path, extra: &[&str]) {
    let mut args = vec!["convert", s(from), s(to)];
    let text_input = matches!(
        from.extension().and_then(|e| e.to_str()),
        Some("csv" | "jsonl" | "json")
    );
    if text_input {
        args.extend(["--schema-from", s(schema_from)]);
    }
    args.extend(extra);
    ok(&args);
}

fn round_trip_all_pairs(source: &Path, formats: &[&str], tag: &str) {
    let dir = tempfile::tempdir().unwrap();
    let expected = read_arrow(source);
    for a in formats {
        let first = dir.path().join(format!("first.{a}"));
        convert(source, &first, source, &[]);
        for b in formats {
            let second = dir.path().join(format!("second_{a}.{b}"));
            convert(&first, &second, source, &[]);
            let back: PathBuf = dir.path().join(format!("back_{a}_{b}.arrow"));
            convert(&second, &back, source, &[]);
            assert_same(
                &expected,
                &read_arrow(&back),
                &format!("{tag}: {a} -> {b} -> arrow"),
            );
        }
    }
}

#[test]
fn every_format_pair_round_trips_lineitem() {
    round_trip_all_pairs(
        &lineitem(),
        &["arrow", "arrows", "csv", "jsonl"],
        "lineitem",
    );
}

#[test]
fn every_nested_capable_format_pair_round_trips_nested() {
    round_trip_all_pairs(&nested(), &["arrow", "arrows", "jsonl"], "nested");
}

#[test]
fn json_array_output_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("n.json");
    ok(&["convert", s(&nested()), s(&json)]);
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 1500);
    // Read back (a JSON array, streamed as lines), also when pretty-printed over many lines.
    let back = dir.path().join("back.arrow");
    ok(&["convert", s(&json), s(&back), "--schema-from", s(&nested())]);
    assert_same(&read_arrow(&nested()), &read_arrow(&back), "json array");
    let pretty = dir.path().join("pretty.json");
    std::fs::write(&pretty, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let back = dir.path().join("back_pretty.arrow");
    ok(&[
        "convert",
        s(&pretty),
        s(&back),
        "--schema-from",
        s(&nested()),
    ]);
    assert_same(
        &read_arrow(&nested()),
        &read_arrow(&back),
        "pretty json array",
    );
}

#[test]
fn nested_to_csv_is_refused_naming_the_column() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("n.csv");
    let e = fails(&["convert", s(&nested()), s(&out)], 1);
    assert!(e.contains("tags"), "{e}");
    assert!(!out.exists());
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no temporary left"
    );
}

#[test]
fn stdin_and_stdout_streaming() {
    let source = lineitem();
    let expected = read_arrow(&source);
    let stream = quiver()
        .args(["convert", s(&source), "-", "--to", "arrows"])
        .output()
        .unwrap();
    assert!(stream.status.success());
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("from_stdin.arrow");
    quiver()
        .args(["convert", "-", s(&out)])
        .write_stdin(stream.stdout.clone())
        .assert()
        .success();
    assert_same(&expected, &read_arrow(&out), "arrows via stdin");

    let file_bytes = std::fs::read(&source).unwrap();
    let csv = quiver()
        .args(["convert", "-", "-", "--to", "csv"])
        .write_stdin(file_bytes)
        .output()
        .unwrap();
    assert!(
        csv.status.success(),
        "{}",
        String::from_utf8_lossy(&csv.stderr)
    );
    let back = dir.path().join("from_csv_stdin.arrow");
    quiver()
        .args([
            "convert",
            "-",
            s(&back),
            "--from",
            "csv",
            "--schema-from",
            s(&source),
        ])
        .write_stdin(csv.stdout)
        .assert()
        .success();
    assert_same(
        &expected,
        &read_arrow(&back),
        "arrow file -> csv on stdout -> stdin",
    );
}

#[test]
fn batch_size_rechunks_and_compression_applies() {
    let dir = tempfile::tempdir().unwrap();
    let source = lineitem();
    let expected = read_arrow(&source);
    for (codec, size) in [("none", "700"), ("lz4", "2500"), ("zstd", "64")] {
        let out = dir.path().join(format!("{codec}.arrow"));
        ok(&[
            "convert",
            s(&source),
            s(&out),
            "--compression",
            codec,
            "--batch-size",
            size,
        ]);
        let bytes = std::fs::read(&out).unwrap();
        let r = quiver_ipc::read::FileReader::from_bytes(bytes.into()).unwrap();
        let size: usize = size.parse().unwrap();
        assert_eq!(r.num_batches(), 2500usize.div_ceil(size), "{codec}");
        assert_same(&expected, &read_arrow(&out), codec);
    }
    let zstd = std::fs::metadata(dir.path().join("zstd.arrow"))
        .unwrap()
        .len();
    let none = std::fs::metadata(dir.path().join("none.arrow"))
        .unwrap()
        .len();
    assert!(zstd < none, "zstd {zstd} vs none {none}");
}

#[test]
fn csv_inference_tsv_and_delimiters() {
    let dir = tempfile::tempdir().unwrap();
    let tsv = dir.path().join("t.tsv");
    std::fs::write(&tsv, "a\tb\n1\tx y\n2\t\"q\tz\"\n").unwrap();
    let out = ok(&["cat", s(&tsv), "--format", "jsonl"]);
    assert_eq!(out, "{\"a\":1,\"b\":\"x y\"}\n{\"a\":2,\"b\":\"q\\tz\"}\n");
    let semi = dir.path().join("t.txt");
    std::fs::write(&semi, "1;2.5\n3;4\n").unwrap();
    let out = ok(&[
        "convert",
        s(&semi),
        "-",
        "--from",
        "csv",
        "--delimiter",
        ";",
        "--no-header",
        "--to",
        "csv",
        "--out-delimiter",
        "|",
    ]);
    let header = out.lines().next().unwrap().to_string();
    assert!(header.contains('|'), "{out}");
    assert!(out.contains("3|4"), "{out}");
}

/// An output that is a symbolic link replaces the link's target (the link stays), one that is
/// a FIFO is written into (a reader gets the data; the FIFO stays a FIFO), and a file replaced
/// keeps its permissions: as `cp` and shell redirections treat them.
#[cfg(unix)]
#[test]
fn outputs_through_links_and_fifos_and_kept_permissions() {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("t.csv");
    std::fs::write(&csv, "a,b\n1,x\n2,y\n").unwrap();
    let want = "a,b\n1,x\n2,y\n";
    // A link, relative, to an existing file; and a dangling one.
    let real = dir.path().join("real.csv");
    std::fs::write(&real, "old\n").unwrap();
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink("real.csv", &link).unwrap();
    ok(&["convert", "-q", s(&csv), s(&link)]);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&real).unwrap(), want);
    let dangling = dir.path().join("dangling.csv");
    std::os::unix::fs::symlink("made.csv", &dangling).unwrap();
    ok(&["convert", "-q", s(&csv), s(&dangling)]);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("made.csv")).unwrap(),
        want
    );
    // Permissions of a file replaced.
    let kept = dir.path().join("kept.csv");
    std::fs::write(&kept, "old\n").unwrap();
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o600)).unwrap();
    ok(&["convert", "-q", s(&csv), s(&kept)]);
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), want);
    let mode = std::fs::metadata(&kept).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    // A FIFO, read on another thread.
    let fifo = dir.path().join("out.fifo");
    let st = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(st.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    ok(&["convert", "-q", s(&csv), s(&fifo), "--to", "csv"]);
    assert_eq!(reader.join().unwrap(), want);
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".quiver-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}
