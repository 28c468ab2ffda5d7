//! `quiver merge` and `quiver compact` as processes: outputs read by pyarrow as the inputs'
//! concatenation, failures that leave nothing behind (a schema clash, a full disk under
//! `ulimit -f`), and compaction that never loses a row, killed at random points.

use crate::common::{fails, ok, s};
use quiver_arrow::RecordBatch;
use quiver_arrow::array::{Array, PrimitiveArray, StringArray};
use quiver_arrow::datatype::{DataType, Field, Schema, SchemaRef};
use quiver_parquet::arrow::options::ReadOptions;
use quiver_parquet::file::FileReader;
use quiver_parquet::file::writer::{FileWriter, WriteOptions};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("tag", DataType::Utf8, true),
    ]))
}

/// Writes rows `first..first + n` (id, and a tag from a small set) to `path` with quiver.
fn write_rows(path: &Path, first: i64, n: i64) {
    let ids = Array::I64(PrimitiveArray::from(
        (first..first + n).collect::<Vec<i64>>(),
    ));
    let tags: Vec<Option<String>> = (first..first + n)
        .map(|i| (i % 7 != 0).then(|| format!("tag-{}", i % 13 + first % 5)))
        .collect();
    let tags = Array::Utf8(StringArray::from_options(tags.iter().map(|t| t.as_deref())));
    let batch = RecordBatch::try_new(schema(), vec![ids, tags]).unwrap();
    let mut w = FileWriter::new(
        std::fs::File::create(path).unwrap(),
        schema(),
        WriteOptions::default(),
    )
    .unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
}

/// The ids in a Parquet file, read by quiver.
fn ids_of(path: &Path) -> Vec<i64> {
    let bytes = std::fs::read(path).unwrap();
    let r = FileReader::try_new(&bytes, ReadOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    for b in r.read_all().unwrap() {
        let Array::I64(a) = b.column(0) else {
            panic!("id is not int64")
        };
        out.extend_from_slice(a.values());
    }
    out
}

/// Every visible data file below `dir` (not hidden, not `_SUCCESS` and the like), sorted.
fn visible_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name.starts_with('_') {
            continue;
        }
        if e.file_type().unwrap().is_dir() {
            out.extend(visible_files(&e.path()));
        } else {
            out.push(e.path());
        }
    }
    out.sort();
    out
}

/// Every file below `dir` whose name marks a temporary.
fn temporaries(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(temporaries(&p));
        } else if p.to_string_lossy().ends_with(".quiver-tmp") {
            out.push(p);
        }
    }
    out
}

/// How many times each id appears in the visible files below `dir`.
fn id_counts(dir: &Path) -> BTreeMap<i64, usize> {
    let mut counts = BTreeMap::new();
    for f in visible_files(dir) {
        for id in ids_of(&f) {
            *counts.entry(id).or_insert(0) += 1;
        }
    }
    counts
}

/// A lake of `parts` partitions (`day=K/`) of `files` files of `rows` rows each; returns the
/// number of rows.
fn lake(dir: &Path, parts: i64, files: i64, rows: i64) -> i64 {
    let mut id = 0;
    for p in 0..parts {
        let d = dir.join(format!("day={p}"));
        std::fs::create_dir_all(&d).unwrap();
        for f in 0..files {
            write_rows(&d.join(format!("part-{f:03}.parquet")), id, rows);
            id += rows;
        }
    }
    std::fs::write(dir.join("_SUCCESS"), b"").unwrap();
    id
}

#[test]
fn merge_keeps_rows_in_order_and_reports_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir(&inputs).unwrap();
    for k in 0..5 {
        write_rows(&inputs.join(format!("p{k}.parquet")), k * 100, 100);
    }
    std::fs::write(inputs.join("_SUCCESS"), b"").unwrap();
    let expected: Vec<i64> = (0..500).collect();
    // Row groups of 100 rows joined up to 250 rows: 200, 200, 100.
    for (mode, groups) in [("--verbatim", 5u64), ("--row-group-size=250", 3)] {
        let out = dir.path().join(format!("out{mode}.parquet"));
        let json = ok(&["merge", s(&out), s(&inputs), mode, "--json"]);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["rows"], 500, "{json}");
        assert_eq!(v["row_groups"], groups, "{json}");
        assert_eq!(v["inputs"].as_array().unwrap().len(), 5, "{json}");
        assert_eq!(ids_of(&out), expected);
        // Without the final sync: the same file, and no temporary left beside it.
        let unsynced = dir.path().join(format!("unsynced{mode}.parquet"));
        ok(&["merge", s(&unsynced), s(&inputs), mode, "--no-sync", "-q"]);
        assert_eq!(
            std::fs::read(&unsynced).unwrap(),
            std::fs::read(&out).unwrap()
        );
    }
    assert!(
        temporaries(dir.path()).is_empty(),
        "{:?}",
        temporaries(dir.path())
    );
    // Files and directories mix; the output is never one of its inputs.
    let out = inputs.join("all.parquet");
    ok(&[
        "merge",
        s(&out),
        s(&inputs),
        s(&inputs.join("p0.parquet")),
        "-q",
    ]);
    let mut twice: Vec<i64> = (0..500).collect();
    twice.extend(0..100);
    assert_eq!(ids_of(&out), twice);
}

#[test]
fn failed_merges_leave_no_output_and_the_inputs_intact() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.parquet");
    write_rows(&a, 0, 5000);
    let other = Arc::new(Schema::new(vec![Field::new("id", DataType::Utf8, true)]));
    let b = dir.path().join("b.parquet");
    let batch = RecordBatch::try_new(
        other.clone(),
        vec![Array::Utf8(StringArray::from_options([Some("x")]))],
    )
    .unwrap();
    let mut w = FileWriter::new(
        std::fs::File::create(&b).unwrap(),
        other,
        WriteOptions::default(),
    )
    .unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    let out = dir.path().join("out.parquet");
    let err = fails(&["merge", s(&out), s(&a), s(&b)], 1);
    assert!(err.contains("b.parquet") && err.contains("\"id\""), "{err}");
    let truncated = dir.path().join("t.parquet");
    let bytes = std::fs::read(&a).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let err = fails(&["merge", s(&out), s(&a), s(&truncated)], 1);
    assert!(err.contains("t.parquet"), "{err}");
    // A full disk: the file-size limit (in 512-byte blocks) below what the output needs.
    let quiver = assert_cmd::cargo::cargo_bin("quiver");
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f 40; exec {} merge {} {} {} -q",
            quiver.display(),
            s(&out),
            s(&a),
            s(&a)
        ))
        .status()
        .unwrap();
    assert!(!status.success());
    assert!(!out.exists());
    assert!(
        temporaries(dir.path()).is_empty(),
        "{:?}",
        temporaries(dir.path())
    );
    assert_eq!(std::fs::read(&a).unwrap(), bytes);
    // An output whose extension names another format than the inputs', an IPC stream
    // input, and standard input are usage errors, with no output written.
    let arrow = dir.path().join("out.arrow");
    let err = fails(&["merge", s(&arrow), s(&a), s(&a)], 2);
    assert!(err.contains("its extension names Arrow IPC file"), "{err}");
    assert!(!arrow.exists());
    let stream = dir.path().join("s.arrows");
    ok(&["convert", s(&a), s(&stream)]);
    let err = fails(&["merge", s(&out), s(&a), s(&stream)], 2);
    assert!(err.contains("s.arrows: an Arrow IPC stream"), "{err}");
    let err = fails(&["merge", s(&out), s(&a), "-"], 2);
    assert!(err.contains("not from standard input"), "{err}");
    assert!(!out.exists());
}

#[test]
fn compact_packs_small_files_per_partition_and_a_second_run_has_nothing_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("lake");
    let n = lake(&root, 3, 12, 200);
    let before = visible_files(&root);
    // The plan changes nothing.
    let plan = ok(&[
        "compact",
        s(&root),
        "--dry-run",
        "--json",
        "--target-file-size",
        "20KiB",
    ]);
    let v: serde_json::Value = serde_json::from_str(&plan).unwrap();
    assert_eq!(v["partitions"].as_array().unwrap().len(), 3, "{plan}");
    assert_eq!(visible_files(&root), before);
    let report = ok(&["compact", s(&root), "--json", "--target-file-size", "1MiB"]);
    let v: serde_json::Value = serde_json::from_str(&report).unwrap();
    let outputs: usize = v["partitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["outputs"].as_array().unwrap().len())
        .sum();
    assert_eq!(outputs, 3, "{report}");
    let after = visible_files(&root);
    assert!(after.len() < before.len(), "{after:?}");
    // Every row once; in each partition, the rows of a compacted file in input order.
    let counts = id_counts(&root);
    assert_eq!(counts.len() as i64, n);
    assert!(counts.values().all(|&c| c == 1));
    for f in &after {
        if f.to_string_lossy().contains("compacted-") {
            let ids = ids_of(f);
            assert!(ids.windows(2).all(|w| w[0] < w[1]), "{}", f.display());
        }
    }
    assert!(root.join("_SUCCESS").exists());
    let again = ok(&["compact", s(&root), "--target-file-size", "1MiB"]);
    assert!(again.contains("nothing to compact"), "{again}");
    assert_eq!(visible_files(&root), after);
}

#[test]
fn compact_keep_inputs_and_an_interrupted_run_finished_by_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("lake");
    let n = lake(&root, 1, 6, 100);
    let part = root.join("day=0");
    // The state a crash between the outputs' rename and the inputs' removal leaves: run a
    // compaction, then put the inputs back.
    let saved = tempfile::tempdir().unwrap();
    for f in visible_files(&part) {
        std::fs::copy(&f, saved.path().join(f.file_name().unwrap())).unwrap();
    }
    ok(&["compact", s(&root), "-q"]);
    for f in visible_files(saved.path()) {
        std::fs::copy(&f, part.join(f.file_name().unwrap())).unwrap();
    }
    // One put-back input is changed: not the file the compaction read, so it must stay.
    write_rows(&part.join("part-005.parquet"), 10_000, 3);
    assert!(id_counts(&root).values().any(|&c| c == 2));
    let report = ok(&["compact", s(&root), "--dry-run"]);
    assert!(report.contains("interrupted compaction"), "{report}");
    ok(&["compact", s(&root), "-q"]);
    let counts = id_counts(&root);
    assert!(counts.values().all(|&c| c == 1), "{counts:?}");
    assert_eq!(counts.len() as i64, n + 3);
    // --keep-inputs: outputs written, inputs stay.
    let root2 = dir.path().join("lake2");
    lake(&root2, 1, 4, 50);
    let before = visible_files(&root2);
    ok(&["compact", s(&root2), "--keep-inputs", "-q"]);
    let after = visible_files(&root2);
    assert_eq!(after.len(), before.len() + 1);
    assert!(before.iter().all(|f| after.contains(f)));
}

#[test]
fn compact_killed_at_random_points_never_loses_a_row() {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("template");
    let n = lake(&template, 3, 40, 50);
    let quiver = assert_cmd::cargo::cargo_bin("quiver");
    let copy = |to: &Path| {
        std::fs::create_dir_all(to).unwrap();
        for p in 0..3 {
            let d = to.join(format!("day={p}"));
            std::fs::create_dir_all(&d).unwrap();
            for f in visible_files(&template.join(format!("day={p}"))) {
                std::fs::copy(&f, d.join(f.file_name().unwrap())).unwrap();
            }
        }
    };
    // How long a whole run takes, to spread the kills over it.
    // The shortest of three whole runs (the first pays for cold caches; other tests may
    // load the machine): the kills must land inside a run.
    let full = (0..3)
        .map(|k| {
            let timing = dir.path().join(format!("timing{k}"));
            copy(&timing);
            let start = std::time::Instant::now();
            ok(&["compact", s(&timing), "-q", "--target-file-size", "40KiB"]);
            start.elapsed()
        })
        .min()
        .unwrap();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    // Rounds killed while running, and rounds left part-way (some partitions compacted).
    let (mut killed, mut partly) = (0, 0);
    for round in 0..16 {
        let lake = dir.path().join(format!("round{round}"));
        copy(&lake);
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let delay = full.mul_f64((seed % 1000) as f64 / 1000.0 * 1.2);
        let mut child = std::process::Command::new(&quiver)
            .args(["compact", s(&lake), "-q", "--target-file-size", "40KiB"])
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        if child.try_wait().unwrap().is_none() {
            killed += 1;
        }
        let _ = child.kill();
        let _ = child.wait();
        // Every visible file is whole, and every row is there at least once.
        let counts = id_counts(&lake);
        assert_eq!(
            counts.len() as i64,
            n,
            "round {round} ({delay:?}): rows lost"
        );
        let compacted = visible_files(&lake)
            .iter()
            .any(|f| f.to_string_lossy().contains("compacted-"));
        partly += usize::from(compacted && visible_files(&lake).len() > 3);
        // The next run finishes the work: every row exactly once, no temporaries left.
        ok(&["compact", s(&lake), "-q", "--target-file-size", "40KiB"]);
        let counts = id_counts(&lake);
        assert_eq!(counts.len() as i64, n, "round {round}");
        assert!(
            counts.values().all(|&c| c == 1),
            "round {round} ({delay:?}): rows twice"
        );
        let tmp = temporaries(&lake);
        assert!(
            tmp.iter()
                .all(|t| t.file_name().unwrap().to_string_lossy().starts_with('.')),
            "{tmp:?}"
        );
    }
    assert!(
        killed >= 6 && partly >= 2,
        "killed {killed} rounds, {partly} part-way"
    );
}

#[test]
fn ipc_files_merge_with_their_record_batches_copied() {
    use quiver_ipc::read::FileReader as IpcReader;
    use quiver_ipc::write::{FileWriter as IpcWriter, WriteOptions as IpcOptions};
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for k in 0..3i64 {
        let ids = Array::I64(PrimitiveArray::from(
            (k * 10..k * 10 + 10).collect::<Vec<i64>>(),
        ));
        let tags = Array::Utf8(StringArray::from_options(
            (0..10).map(|i| (i % 3 != 0).then_some("t")),
        ));
        let batch = RecordBatch::try_new(schema(), vec![ids, tags]).unwrap();
        let path = dir.path().join(format!("p{k}.arrow"));
        let mut w = IpcWriter::try_new(
            std::fs::File::create(&path).unwrap(),
            schema(),
            IpcOptions::default(),
        )
        .unwrap();
        w.write(&batch).unwrap();
        w.finish().unwrap();
        paths.push(path);
    }
    let out = dir.path().join("all.arrow");
    let json = ok(&[
        "merge",
        s(&out),
        s(&paths[0]),
        s(&paths[1]),
        s(&paths[2]),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        (v["rows"].as_u64(), v["batches_verbatim"].as_u64()),
        (Some(30), Some(3)),
        "{json}"
    );
    let mut r = IpcReader::try_new(std::fs::File::open(&out).unwrap()).unwrap();
    let mut ids = Vec::new();
    for i in 0..r.num_batches() {
        let b = r.batch(i).unwrap();
        let Array::I64(a) = b.column(0) else { panic!() };
        ids.extend_from_slice(a.values());
    }
    assert_eq!(ids, (0..30).collect::<Vec<i64>>());
    // Formats are not mixed; Parquet options are refused.
    let pq = dir.path().join("x.parquet");
    write_rows(&pq, 0, 3);
    let err = fails(&["merge", s(&out), s(&paths[0]), s(&pq)], 1);
    assert!(
        err.contains("x.parquet") && err.contains("not an Arrow IPC file"),
        "{err}"
    );
    fails(&["merge", s(&out), s(&paths[0]), "--verbatim"], 2);
}
