//! Parquet input: every reading subcommand against pyarrow (`tests/py/parquet_oracle.py`) on
//! official parquet-testing files, read in place, and on files pyarrow writes at test time.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Official files: flat, nested, nulls, decimals, INT96 timestamps, v2 pages, legacy lists.
const OFFICIAL: [&str; 10] = [
    "alltypes_plain.parquet",
    "alltypes_dictionary.parquet",
    "nested_lists.snappy.parquet",
    "nulls.snappy.parquet",
    "int32_decimal.parquet",
    "byte_array_decimal.parquet",
    "fixed_length_decimal.parquet",
    "datapage_v2.snappy.parquet",
    "list_columns.parquet",
    "repeated_no_annotation.parquet",
];

/// An official parquet-testing file, or `None` without the test data (outside CI).
fn official(name: &str) -> Option<PathBuf> {
    let root = quiver_integration::testdata::require_test_data().unwrap()?;
    Some(root.join("parquet-testing/data").join(name))
}

/// Runs the oracle script; returns its standard output (the test fails when it does).
fn oracle(py: &str, args: &[&str]) -> String {
    let out = Command::new(py)
        .arg(script("parquet_oracle.py"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "parquet_oracle.py {args:?}:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The files pyarrow writes (`types`, `tiny_v1`, `tiny_v2`, `stats`), once per test.
fn written(py: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    oracle(py, &["write", s(dir.path())]);
    dir
}

/// Every file the value tests read: the official ones and pyarrow's.
fn value_files(py: &str, dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = OFFICIAL.iter().filter_map(|n| official(n)).collect();
    files.extend(["types", "stats", "tiny_v2"].map(|n| dir.join(format!("{n}.parquet"))));
    let _ = py;
    files
}

#[test]
fn convert_to_ipc_equals_pyarrow_read_table() {
    let Some(py) = python() else { return };
    let dir = written(py);
    let mut pairs = Vec::new();
    for (i, f) in value_files(py, dir.path()).iter().enumerate() {
        for ext in ["arrow", "arrows"] {
            let out = dir.path().join(format!("out{i}.{ext}"));
            ok(&["convert", s(f), s(&out)]);
            pairs.push(format!("{}={}", f.display(), out.display()));
        }
    }
    // Projections, in the order asked for.
    let types = dir.path().join("types.parquet");
    let out = dir.path().join("projected.arrow");
    ok(&["convert", s(&types), s(&out), "--columns", "st,id,m"]);
    pairs.push(format!("{}#st,id,m={}", types.display(), out.display()));
    // A dotted path: the struct with only the child named.
    let out = dir.path().join("projected-path.arrow");
    ok(&["convert", s(&types), s(&out), "--columns", "st.y,id"]);
    pairs.push(format!("{}#st.y,id={}", types.display(), out.display()));
    // Batches spanning 300 row groups, each with a dictionary of its own (u8 keys).
    let groups = dir.path().join("dict_groups.parquet");
    for (name, batch) in [
        ("dict_groups.arrows", "1000"),
        ("dict_groups.arrow", "1000"),
    ] {
        // (The file format cannot replace a dictionary: each row group's is unified into
        // deltas.)
        let out = dir.path().join(name);
        ok(&["convert", s(&groups), s(&out), "--batch-size", batch]);
        pairs.push(format!("{}={}", groups.display(), out.display()));
    }
    let out = dir.path().join("dict_groups_small.arrow");
    ok(&["convert", s(&groups), s(&out), "--batch-size", "7"]);
    pairs.push(format!("{}={}", groups.display(), out.display()));
    let args: Vec<&str> = std::iter::once("same")
        .chain(pairs.iter().map(String::as_str))
        .collect();
    oracle(py, &args);
}

/// `cat` and `convert` to JSON Lines and CSV print a Parquet file exactly as they print
/// pyarrow's reading of it written as an Arrow IPC file.
#[test]
fn text_output_equals_that_of_pyarrows_table() {
    let Some(py) = python() else { return };
    let dir = written(py);
    for (i, f) in value_files(py, dir.path()).iter().enumerate() {
        let ipc = dir.path().join(format!("py{i}.arrow"));
        oracle(py, &["ipc", s(f), s(&ipc)]);
        let ours = ok(&["cat", s(f), "--format", "jsonl"]);
        assert_eq!(ours, ok(&["cat", s(&ipc), "--format", "jsonl"]), "{f:?}");
        assert!(!ours.is_empty());
        let table = ok(&["head", s(f), "-n", "3"]);
        assert_eq!(table, ok(&["head", s(&ipc), "-n", "3"]), "{f:?}");
        let window = ["--offset", "1", "--limit", "2", "--format", "json"];
        let mut a = vec!["cat", s(f)];
        a.extend(window);
        let mut b = vec!["cat", s(&ipc)];
        b.extend(window);
        assert_eq!(ok(&a), ok(&b), "{f:?}");
    }
    // CSV of flat files, through convert.
    for f in [dir.path().join("stats.parquet")]
        .into_iter()
        .chain(official("alltypes_plain.parquet"))
    {
        let ipc = dir.path().join("flat.arrow");
        oracle(py, &["ipc", s(&f), s(&ipc)]);
        let (ours, theirs) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
        ok(&["convert", s(&f), s(&ours)]);
        ok(&["convert", s(&ipc), s(&theirs)]);
        let ours = std::fs::read_to_string(&ours).unwrap();
        assert_eq!(ours, std::fs::read_to_string(&theirs).unwrap(), "{f:?}");
        assert!(ours.lines().count() > 2);
    }
}

#[test]
fn schema_prints_pyarrows_fields() {
    let Some(py) = python() else { return };
    let dir = written(py);
    for f in value_files(py, dir.path()) {
        let ours = ok(&["schema", s(&f)]);
        let expected = oracle(py, &["fields", s(&f)]);
        // The first line of each top-level field (children and metadata follow, indented more).
        let tops: Vec<&str> = ours
            .lines()
            .skip(1)
            .take_while(|l| *l != "schema metadata:")
            .filter(|l| l.starts_with("  ") && !l.starts_with("    "))
            .collect();
        assert_eq!(tops.join("\n"), expected.trim_end(), "{f:?}");
    }
}

#[test]
fn schema_parquet_is_pyarrows_tree_in_parquet_mr_form() {
    let Some(py) = python() else { return };
    let dir = written(py);
    let files = [
        "nested_lists.snappy.parquet",
        "list_columns.parquet",
        "repeated_no_annotation.parquet",
        "byte_array_decimal.parquet",
        "nulls.snappy.parquet",
        "alltypes_plain.parquet",
    ];
    let mut paths: Vec<PathBuf> = files.iter().filter_map(|n| official(n)).collect();
    paths.push(dir.path().join("types.parquet"));
    for f in paths {
        let ours = ok(&["schema", "--parquet", s(&f)]);
        assert_eq!(ours, oracle(py, &["tree", s(&f)]), "{f:?}");
    }
    let ours = ok(&["schema", "--parquet", s(&dir.path().join("types.parquet"))]);
    assert!(ours.contains("  optional int64 id = 7;\n"), "{ours}");
    assert!(ours.contains("  optional group m (MAP) {\n"), "{ours}");
    // Not Parquet: a usage error.
    let e = fails(&["schema", "--parquet", s(&lineitem())], 2);
    assert!(
        e.contains("--parquet shows the schema of Parquet files"),
        "{e}"
    );
}

/// Cells of a `meta` table row (columns are separated by two spaces or more).
fn cells(line: &str) -> Vec<String> {
    line.trim()
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(String::from)
        .collect()
}

/// The chunk table rows of `meta`'s output, by row group.
fn chunk_rows(meta: &str) -> Vec<Vec<Vec<String>>> {
    let mut groups: Vec<Vec<Vec<String>>> = Vec::new();
    let mut in_table = false;
    for line in meta.lines() {
        if line.starts_with("row group ") && line.ends_with(": column chunks") {
            groups.push(Vec::new());
            in_table = true;
        } else if !line.starts_with("  ") {
            in_table = false;
        } else if in_table && !line.trim_start().starts_with("#  ") {
            groups.last_mut().unwrap().push(cells(line));
        }
    }
    groups
}

fn number(cell: &str) -> i64 {
    cell.replace(',', "").parse().unwrap()
}

#[test]
fn meta_agrees_with_pyarrows_metadata() {
    let Some(py) = python() else { return };
    let dir = written(py);
    let mut files = vec![
        dir.path().join("stats.parquet"),
        dir.path().join("tiny_v1.parquet"),
    ];
    files.extend(official("alltypes_tiny_pages_plain.parquet"));
    files.extend(official("data_index_bloom_encoding_stats.parquet"));
    for f in files {
        let text = ok(&["meta", s(&f)]);
        let groups = chunk_rows(&text);
        for line in oracle(py, &["meta", s(&f)]).lines() {
            let m: serde_json::Value = serde_json::from_str(line).unwrap();
            let (g, c) = (
                m["row_group"].as_u64().unwrap(),
                m["column"].as_u64().unwrap(),
            );
            let row = &groups[g as usize][c as usize];
            let what = format!("{f:?} row group {g} column {c}: {row:?}");
            assert_eq!(row[1], m["path"].as_str().unwrap(), "{what}");
            assert_eq!(row[2], m["type"].as_str().unwrap(), "{what}");
            assert_eq!(row[3], m["codec"].as_str().unwrap(), "{what}");
            let mut encodings: Vec<&str> = row[4].split(',').collect();
            encodings.sort_unstable();
            let expected: Vec<&str> = m["encodings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e.as_str().unwrap())
                .collect();
            assert_eq!(encodings, expected, "{what}");
            assert_eq!(number(&row[5]), m["compressed"].as_i64().unwrap(), "{what}");
            assert_eq!(
                number(&row[6]),
                m["uncompressed"].as_i64().unwrap(),
                "{what}"
            );
            assert_eq!(number(&row[7]), m["values"].as_i64().unwrap(), "{what}");
            match m["nulls"].as_i64() {
                Some(n) => assert_eq!(number(&row[8]), n, "{what}"),
                None => assert_eq!(row[8], "-", "{what}"),
            }
            for (cell, key) in [(&row[9], "min"), (&row[10], "max")] {
                match m[key].as_str() {
                    // pyarrow widens FLOAT statistics to Python floats (9.899999618530273);
                    // quiver shows the shortest text of the f32 (9.9).
                    Some(v) if row[2] == "FLOAT" => {
                        let v: f32 = v.parse().unwrap();
                        assert_eq!(cell.parse::<f32>().unwrap(), v, "{what} {key}");
                    }
                    // Dates, integers, strings and doubles are shown as pyarrow shows them.
                    Some(v) => assert_eq!(cell, v, "{what} {key}"),
                    None => assert_eq!(cell, "-", "{what} {key}"),
                }
            }
            assert_eq!(row[11] != "-", m["column_index"] == true, "{what}");
            assert_eq!(row[12] != "-", m["offset_index"] == true, "{what}");
            match m["bloom"].as_i64() {
                Some(at) => assert!(row[13].starts_with(&format!("at {}", group(at))), "{what}"),
                None => assert_eq!(row[13], "-", "{what}"),
            }
        }
    }
    // The header, sorting columns and shortened key-value metadata.
    let text = ok(&["meta", s(&dir.path().join("stats.parquet"))]);
    assert!(text.contains("2 row groups, 1,000 rows"), "{text}");
    assert!(text.contains("  0  600   "), "{text}");
    assert!(text.contains("k ASC NULLS LAST"), "{text}");
    assert!(text.contains("\"ARROW:schema\": ("), "{text}");
    assert!(text.contains("bytes; --verbose shows it)"), "{text}");
    let verbose = ok(&["meta", "-v", s(&dir.path().join("stats.parquet"))]);
    assert!(!verbose.contains("--verbose shows it"), "{verbose}");
    // A column chunk's own key-value metadata (pyarrow's `ColumnChunkMetaData.metadata`:
    // foo=bar and a key without a value, on column1 only).
    if let Some(f) = official("column_chunk_key_value_metadata.parquet") {
        let text = ok(&["meta", s(&f)]);
        let at = text
            .find("row group 0: column chunk key-value metadata\n")
            .unwrap_or_else(|| panic!("{text}"));
        let lines: Vec<&str> = text[at..].lines().skip(1).take(3).collect();
        assert_eq!(
            lines,
            [
                "  0 (\"column1\"): \"foo\": \"bar\"",
                "  0 (\"column1\"): \"thisiskeywithoutvalue\": (no value)",
            ],
            "{text}"
        );
    }
}

/// `1234567` → `1,234,567`.
fn group(n: i64) -> String {
    let text = n.to_string();
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i > 0 && (text.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The page rows of `meta --pages` (type, uncompressed size, values, crc).
fn page_rows(meta: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in meta.lines() {
        if line.ends_with(": pages") {
            in_table = true;
        } else if !line.starts_with("  ") {
            in_table = false;
        } else if in_table && !line.trim_start().starts_with("#  ") {
            rows.push(cells(line));
        }
    }
    rows
}

/// pyarrow wrote 100 required int64 values a write batch of 10 at a time with the smallest
/// page size: ten pages of ten values; PLAIN pages of v1 hold 80 bytes, v2 pages follow a
/// dictionary page of the 100 values (800 bytes) and carry CRCs when asked.
#[test]
fn meta_pages_lists_every_page() {
    let Some(py) = python() else { return };
    let dir = written(py);
    let v1 = page_rows(&ok(&[
        "meta",
        "--pages",
        s(&dir.path().join("tiny_v1.parquet")),
    ]));
    assert_eq!(v1.len(), 10, "{v1:?}");
    for (i, row) in v1.iter().enumerate() {
        assert_eq!(row[0], i.to_string());
        assert_eq!(
            &row[2..7],
            ["DATA_PAGE", "80", "80", "10", "PLAIN"],
            "{row:?}"
        );
        assert_eq!(row.last().unwrap(), "-", "no CRC: {row:?}");
    }
    let v2 = page_rows(&ok(&[
        "meta",
        "--pages",
        s(&dir.path().join("tiny_v2.parquet")),
    ]));
    assert_eq!(v2.len(), 11, "{v2:?}");
    assert_eq!(v2[0][2], "DICTIONARY_PAGE", "{:?}", v2[0]);
    assert_eq!(v2[0][4], "800");
    for row in &v2[1..] {
        assert_eq!(row[2], "DATA_PAGE_V2", "{row:?}");
        assert_eq!(row[5], "10", "{row:?}");
        assert_eq!(row.last().unwrap().len(), 8, "a CRC: {row:?}");
    }
    // --pages is for Parquet only.
    let e = fails(&["meta", "--pages", s(&lineitem())], 2);
    assert!(
        e.contains("--pages lists the pages of Parquet files only"),
        "{e}"
    );
}

#[test]
fn scan_counts_the_rows_pyarrow_counts() {
    let Some(py) = python() else { return };
    let dir = written(py);
    for f in value_files(py, dir.path()) {
        let rows: i64 = oracle(py, &["meta", s(&f)])
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|m| m["column"] == 0)
            .map(|m| m["rows"].as_i64().unwrap())
            .sum();
        for threads in ["1", "2"] {
            let out = ok(&["scan", s(&f), "--threads", threads, "--json"]);
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["rows"].as_i64().unwrap(), rows, "{f:?}");
            assert_eq!(v["threads"], threads.parse::<u64>().unwrap());
            assert_eq!(v["format"], "Parquet");
        }
    }
    let stats = dir.path().join("stats.parquet");
    let out = ok(&["scan", s(&stats), "--columns", "x", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["columns"], 1);
    // 1,000 doubles, and the validity bitmaps of the two row groups (a bit per row, padded).
    let bytes = v["bytes"].as_u64().unwrap();
    assert!((8000 + 125..=8000 + 2 * 128).contains(&bytes), "{bytes}");
}

#[test]
fn head_reads_from_standard_input_and_projects() {
    let Some(py) = python() else { return };
    let dir = written(py);
    let stats = dir.path().join("stats.parquet");
    let piped = quiver()
        .args(["head", "-", "-n", "4", "--columns", "when,k"])
        .pipe_stdin(&stats)
        .unwrap()
        .output()
        .unwrap();
    assert!(piped.status.success());
    let text = String::from_utf8(piped.stdout).unwrap();
    let rows: Vec<Vec<String>> = text
        .lines()
        .filter(|l| l.starts_with("| "))
        .map(|l| {
            l.split('|')
                .map(|c| c.trim().to_string())
                .filter(|c| !c.is_empty())
                .collect()
        })
        .collect();
    assert_eq!(rows[0], ["when", "k"]);
    assert_eq!(rows.len(), 5, "{text}");
    assert_eq!(rows[4], ["2020-01-04", "3"]);
    // An unknown column is a usage error naming the columns there are.
    let e = fails(&["head", s(&stats), "--columns", "nope"], 2);
    assert!(
        e.contains("no column \"nope\" (the columns are k, name, x, when)"),
        "{e}"
    );
    // Rows past the first row group, with the window pushed down.
    let out = ok(&[
        "cat",
        s(&stats),
        "--offset",
        "598",
        "--limit",
        "4",
        "--columns",
        "k",
        "--format",
        "csv",
    ]);
    assert_eq!(out, "k\n598\n599\n600\n601\n");
}

#[test]
fn validate_reports_every_bad_chunk() {
    for name in OFFICIAL.iter().chain(&[
        "alltypes_tiny_pages_plain.parquet",
        "datapage_v1-snappy-compressed-checksum.parquet",
    ]) {
        let Some(f) = official(name) else { return };
        let out = ok(&["validate", s(&f)]);
        assert!(out.contains(": valid (Parquet, "), "{out}");
    }
    for (name, columns) in [
        ("datapage_v1-corrupt-checksum.parquet", ["\"a\"", "\"b\""]),
        (
            "rle-dict-uncompressed-corrupt-checksum.parquet",
            ["\"long_field\"", "\"binary_field\""],
        ),
    ] {
        let Some(f) = official(name) else { return };
        let (dir, file) = (f.parent().unwrap(), f.file_name().unwrap());
        let (out, _) = run_in(dir, &["validate", file.to_str().unwrap()], 1);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], format!("{name}: INVALID, 2 problems:"), "{out}");
        for (line, column) in lines[1..].iter().zip(columns) {
            assert!(line.starts_with("  row group 0, column "), "{out}");
            assert!(line.contains(column), "{out}");
            assert!(line.contains("): page "), "{out}");
            assert!(line.contains("CRC mismatch"), "{out}");
        }
        assert_eq!(lines.len(), 3, "{out}");
    }
}

#[test]
fn truncated_and_damaged_files_are_named_not_panicked_on() {
    let Some(f) = official("alltypes_plain.parquet") else {
        return;
    };
    let bytes = std::fs::read(&f).unwrap();
    let dir = tempfile::tempdir().unwrap();
    // Cut: the footer is gone.
    std::fs::write(dir.path().join("cut.parquet"), &bytes[..bytes.len() / 2]).unwrap();
    let (out, _) = run_in(dir.path(), &["validate", "cut.parquet"], 1);
    assert!(
        out.starts_with(
            "cut.parquet: INVALID, 1 problem:\n  not a Parquet file: the last 4 bytes are"
        ),
        "{out}"
    );
    let (_, e) = run_in(dir.path(), &["cat", "cut.parquet"], 1);
    assert!(
        e.starts_with("quiver: error: cut.parquet: not a Parquet file"),
        "{e}"
    );
    // Column data cut out of the middle: the footer points past what is left.
    let mut holed = bytes[..200].to_vec();
    holed.extend_from_slice(&bytes[bytes.len() - 800..]);
    std::fs::write(dir.path().join("holed.parquet"), &holed).unwrap();
    let (out, _) = run_in(dir.path(), &["validate", "holed.parquet"], 1);
    assert!(out.starts_with("holed.parquet: INVALID"), "{out}");
    // Each column chunk past the hole is a problem of its own, named.
    let past = out
        .lines()
        .filter(|l| l.contains("do not end before the footer"))
        .count();
    assert!(past >= 5, "{out}");
    assert!(
        out.contains("  row group 0, column 10 (\"timestamp_col\"): pages at "),
        "{out}"
    );
    for cmd in ["cat", "scan", "meta"] {
        fails(&[cmd, s(&dir.path().join("holed.parquet"))], 1);
    }
    // The schema is in the footer, which is whole.
    ok(&["schema", s(&dir.path().join("holed.parquet"))]);
    // A Parquet file named .csv is read as Parquet (the magic number decides).
    std::fs::write(dir.path().join("data.csv"), &bytes).unwrap();
    let (out, _) = run_in(
        dir.path(),
        &["head", "data.csv", "-n", "1", "--columns", "id"],
        0,
    );
    assert!(out.contains("| 4  |"), "{out}");
    // The head magic damaged: a .parquet is still Parquet, and the reader says what is wrong.
    let mut damaged = bytes.clone();
    damaged[..4].copy_from_slice(b"PAR0");
    let expected = "not a Parquet file: the first 4 bytes are [50, 41, 52, 30], not \"PAR1\"";
    std::fs::write(dir.path().join("damaged.parquet"), &damaged).unwrap();
    let (_, e) = run_in(dir.path(), &["head", "damaged.parquet"], 1);
    assert_eq!(e, format!("quiver: error: damaged.parquet: {expected}\n"));
    let (_, e) = run_in(
        dir.path(),
        &["head", "damaged.parquet", "--from", "parquet"],
        1,
    );
    assert_eq!(e, format!("quiver: error: damaged.parquet: {expected}\n"));
    // Named .csv, only --from parquet makes it Parquet.
    std::fs::write(dir.path().join("damaged.csv"), &damaged).unwrap();
    let (_, e) = run_in(
        dir.path(),
        &["schema", "damaged.csv", "--from", "parquet"],
        1,
    );
    assert_eq!(e, format!("quiver: error: damaged.csv: {expected}\n"));
    let out = quiver()
        .current_dir(dir.path())
        .args(["schema", "damaged.csv"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr) + String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("Parquet"), "read as CSV: {text}");
    assert_no_panic(&String::from_utf8_lossy(&out.stderr));
}

/// `--int96-unit` reads INT96 timestamps in the unit asked for, to pyarrow's values with
/// `coerce_int96_timestamp_unit`; `--skip-crc` reads a file whose page checksums are wrong
/// (refused by default) to the rows pyarrow reads.
#[test]
fn parquet_read_options_int96_unit_and_skip_crc() {
    let Some(py) = python() else { return };
    let Some(f) = official("alltypes_plain.parquet") else {
        return;
    };
    for unit in ["s", "ms", "us", "ns"] {
        let schema = ok(&["schema", s(&f), "--int96-unit", unit]);
        assert!(
            schema.contains(&format!("timestamp_col: timestamp[{unit}]")),
            "{schema}"
        );
        let ours = ok(&[
            "cat",
            s(&f),
            "--columns",
            "timestamp_col",
            "--format",
            "jsonl",
            "--int96-unit",
            unit,
        ]);
        // pyarrow's strftime writes the fraction of a second in the unit, as quiver does.
        let code = format!(
            "import pyarrow.compute as pc, pyarrow.parquet as pq\n\
             t = pq.read_table({:?}, columns=['timestamp_col'], coerce_int96_timestamp_unit={unit:?})\n\
             assert str(t.schema.field(0).type) == 'timestamp[{unit}]'\n\
             for v in pc.strftime(t.column(0), format='%Y-%m-%d %H:%M:%S').to_pylist(): print(v)",
            s(&f)
        );
        let out = Command::new(py).args(["-c", &code]).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let theirs = String::from_utf8(out.stdout).unwrap();
        let ours: Vec<&str> = ours.lines().map(|l| l.split('"').nth(3).unwrap()).collect();
        assert_eq!(ours, theirs.lines().collect::<Vec<_>>(), "{unit}");
    }
    let Some(bad) = official("datapage_v1-corrupt-checksum.parquet") else {
        return;
    };
    let e = fails(&["scan", s(&bad)], 1);
    assert!(e.contains("CRC mismatch"), "{e}");
    let out = ok(&["scan", s(&bad), "--skip-crc", "--json"]);
    let code = format!(
        "import pyarrow.parquet as pq; print(pq.read_table({:?}).num_rows)",
        s(&bad)
    );
    let rows = Command::new(py).args(["-c", &code]).output().unwrap();
    let rows = String::from_utf8(rows.stdout).unwrap();
    assert!(
        out.contains(&format!("\"rows\":{}", rows.trim())),
        "{out} vs {rows}"
    );
}

/// Definition levels that decode but disagree with the null counts the writer recorded (one
/// level flipped to null, as a corrupt run header can do) are a problem `validate` names: the
/// chunk statistics' count, and a data page v2 header's own count.
#[test]
fn validate_checks_definition_levels_against_the_null_counts() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let script = r#"
import sys, pyarrow as pa, pyarrow.parquet as pq
t = pa.table({"x": pa.array([1, None] * 50, pa.int32())})
for version in ["1.0", "2.0"]:
    path = f"{sys.argv[1]}/v{version[0]}.parquet"
    pq.write_table(t, path, compression="none", use_dictionary=False, data_page_version=version)
    data = bytearray(open(path, "rb").read())
    # The levels: one bit-packed run of 13 groups of 1, 0, 1, 0, ... (0x55 each; the last
    # group holds 4 levels and padding).
    at = data.index(bytes([13 << 1 | 1]) + b"\x55" * 12)
    data[at + 1] = 0x54
    open(path.replace(".parquet", "-flipped.parquet"), "wb").write(data)
# pyarrow's null count of a dictionary column inside a nullable struct leaves the struct's
# nulls out (1 here, of 3).
d = pa.array(["a", None, "b", "a"]).dictionary_encode()
s = pa.StructArray.from_arrays([pa.array([1, 2, 3, 4]), d], ["f0", "f1"],
                               mask=pa.array([True, False, False, True]))
pq.write_table(pa.table({"s": s}), f"{sys.argv[1]}/dict-in-struct.parquet")
"#;
    let st = std::process::Command::new(py)
        .args(["-c", script])
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(st.success());
    for (name, problem) in [
        (
            "v1-flipped.parquet",
            "  row group 0, column 0 (\"x\"): the statistics count 50 nulls, the pages' \
             definition levels hold 51",
        ),
        (
            "v2-flipped.parquet",
            "  row group 0, column 0 (\"x\"): page 0 at byte 0 of the column chunk: its header \
             counts 50 nulls, its definition levels hold 51",
        ),
    ] {
        let (out, _) = run_in(dir.path(), &["validate", name], 1);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], format!("{name}: INVALID, 1 problem:"), "{out}");
        assert_eq!(lines[1], problem, "{out}");
    }
    for name in ["v1.parquet", "v2.parquet"] {
        let (out, _) = run_in(dir.path(), &["validate", name], 0);
        assert!(
            out.starts_with(&format!("{name}: valid (Parquet, ")),
            "{out}"
        );
    }
    // Under-counted by pyarrow: valid, with a note saying the statistics are wrong.
    let (out, _) = run_in(dir.path(), &["validate", "dict-in-struct.parquet"], 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("dict-in-struct.parquet: valid ("),
        "{out}"
    );
    assert!(
        lines[1].starts_with(
            "  note: row group 0, column 1 (\"s.f1\"): the statistics count 1 nulls, the \
             pages' definition levels hold 3; the statistics are wrong"
        ),
        "{out}"
    );
}
