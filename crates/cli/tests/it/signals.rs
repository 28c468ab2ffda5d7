//! An interrupted `convert` / `generate` leaves no temporary file, and a later run removes the
//! stale temporaries of its target (tested on real processes).

use crate::common::*;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// The hidden temporary files in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".quiver-tmp"))
        .collect()
}

/// Waits until `dir` holds a temporary file with data in it.
fn wait_for_temporary(dir: &Path, child: &mut std::process::Child) {
    let start = Instant::now();
    loop {
        let written = std::fs::read_dir(dir).unwrap().any(|e| {
            let e = e.unwrap();
            e.file_name().to_string_lossy().ends_with(".quiver-tmp")
                && e.metadata().unwrap().len() > 0
        });
        if written {
            return;
        }
        assert!(child.try_wait().unwrap().is_none(), "quiver ended early");
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no temporary file"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn each_signal_removes_the_temporary_file_and_sets_the_exit_code() {
    let bin = assert_cmd::cargo::cargo_bin("quiver");
    // Parquet output (written through the same temporary file) with one of the signals.
    let runs = [
        ("INT", 130, "csv"),
        ("TERM", 143, "csv"),
        ("HUP", 129, "csv"),
        ("INT", 130, "parquet"),
    ];
    for (signal, code, ext) in runs {
        for convert in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let out = dir.path().join(format!("big.{ext}"));
            let mut cmd = Command::new(&bin);
            if convert {
                // Standard input that never ends keeps the conversion running.
                cmd.args(["convert", "-", s(&out), "--from", "csv"])
                    .stdin(Stdio::piped());
            } else {
                cmd.args(["generate", "lineitem", "--rows", "200000000", "-o", s(&out)]);
            }
            if ext == "parquet" {
                // Small plain row groups: data reaches the file while the input lasts.
                cmd.args(["--row-group-size", "1000", "--no-dictionary"]);
                cmd.args(["--compression", "none"]);
            }
            let mut child = cmd.stderr(Stdio::piped()).spawn().unwrap();
            // Kept open until the end.
            let _stdin = child.stdin.take().map(|mut stdin| {
                use std::io::Write;
                stdin.write_all(b"a,b\n").unwrap();
                stdin.write_all("1,2\n".repeat(1 << 20).as_bytes()).unwrap();
                stdin
            });
            wait_for_temporary(dir.path(), &mut child);
            let pid = child.id().to_string();
            let st = Command::new("kill")
                .args(["-s", signal, &pid])
                .status()
                .unwrap();
            assert!(st.success());
            let res = child.wait_with_output().unwrap();
            let what = if convert { "convert" } else { "generate" };
            let what = format!("{what} to {ext}");
            assert_eq!(res.status.code(), Some(code), "{what} SIG{signal}");
            assert_eq!(
                String::from_utf8_lossy(&res.stderr),
                "quiver: interrupted; the partial output was removed\n"
            );
            assert!(!out.exists(), "{what} SIG{signal}");
            assert_eq!(temporaries(dir.path()), Vec::<String>::new(), "{what}");
        }
    }
}

/// The id of a process that has ended.
fn dead_pid() -> u32 {
    let mut child = Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

fn plant(dir: &Path, name: &str, age: Duration) {
    let f = std::fs::File::create(dir.join(name)).unwrap();
    f.set_modified(SystemTime::now() - age).unwrap();
}

#[test]
fn a_later_run_removes_stale_temporaries_of_its_target_only() {
    let dir = tempfile::tempdir().unwrap();
    let minute = Duration::from_secs(60);
    let (dead, live) = (dead_pid(), std::process::id());
    let stale = format!(".out.csv.{dead}.aB3xYz.quiver-tmp");
    let ancient = ".out.csv.Q1w2E3.quiver-tmp".to_string(); // no process id, two days old
    let fresh_dead = format!(".out.csv.{dead}.cD4eFg.quiver-tmp"); // still being written?
    let live_one = format!(".out.csv.{live}.hI5jKl.quiver-tmp");
    let other_target = format!(".other.csv.{dead}.mN6oPq.quiver-tmp");
    plant(dir.path(), &stale, minute);
    plant(dir.path(), &ancient, 48 * 60 * minute);
    plant(dir.path(), &fresh_dead, Duration::ZERO);
    plant(dir.path(), &live_one, minute);
    plant(dir.path(), &other_target, minute);
    let (_, e) = run_in(
        dir.path(),
        &["generate", "lineitem", "--rows", "10", "-o", "out.csv"],
        0,
    );
    assert_eq!(e, "");
    let mut left = temporaries(dir.path());
    left.sort();
    let mut expected = vec![fresh_dead, live_one, other_target];
    expected.sort();
    assert_eq!(left, expected);
    assert!(dir.path().join("out.csv").exists());
}
