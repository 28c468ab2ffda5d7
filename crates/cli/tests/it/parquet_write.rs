//! Parquet output: `convert` from every input format and `generate` write files pyarrow reads
//! equal to the source (`tests/py/parquet_written.py`); each writing option shows in the
//! file's metadata as pyarrow reports it (page types as `quiver meta --pages` lists them);
//! `--sort-by` sorts as pyarrow does; bad options are usage errors; a failed conversion
//! leaves nothing behind.

use crate::common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `parquet_written.py`; returns its standard output (the test fails when it does).
fn py_run(py: &str, args: &[&str]) -> String {
    let out = Command::new(py)
        .arg(script("parquet_written.py"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "parquet_written.py {args:?}:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// pyarrow's view of a file's metadata.
fn meta(py: &str, file: &Path) -> Value {
    serde_json::from_str(&py_run(py, &["meta", s(file)])).unwrap()
}

/// Every column chunk's value of `key`, row group by row group.
fn chunks<'a>(m: &'a Value, key: &str) -> Vec<&'a Value> {
    m["row_groups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["columns"].as_array().unwrap().iter().map(|c| &c[key]))
        .collect()
}

/// `convert IN OUT ARGS…` of the lineitem table to `name` in `dir`.
fn lineitem_to(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let out = dir.join(name);
    let source = lineitem();
    let mut all = vec!["convert", s(&source), s(&out)];
    all.extend_from_slice(args);
    ok(&all);
    out
}

#[test]
fn every_input_format_converts_to_parquet_that_pyarrow_reads_equal() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut pairs: Vec<String> = Vec::new();
    for source in [lineitem(), nested()] {
        let stem = source.file_stem().unwrap().to_string_lossy().into_owned();
        let mut inputs = vec![source.clone()];
        let exts: &[&str] = if stem == "lineitem" {
            &["arrows", "jsonl", "csv"]
        } else {
            &["arrows", "jsonl"]
        };
        for ext in exts {
            let p = d.join(format!("{stem}_src.{ext}"));
            ok(&["convert", s(&source), s(&p)]);
            inputs.push(p);
        }
        // Parquet input, rewritten with other settings.
        let first = d.join(format!("{stem}_first.parquet"));
        ok(&["convert", s(&source), s(&first)]);
        pairs.push(format!("{}={}", source.display(), first.display()));
        inputs.push(first);
        for input in &inputs {
            let from = input
                .file_name()
                .unwrap()
                .to_string_lossy()
                .replace('.', "_");
            let out = d.join(format!("{from}.parquet"));
            let mut args = vec!["convert", s(input), s(&out), "--compression", "zstd"];
            let text = ["jsonl", "csv"].iter().any(|e| s(input).ends_with(e));
            if text {
                args.extend(["--schema-from", s(&source)]);
            }
            if s(input).ends_with("parquet") {
                args.extend(["--profile", "modern", "--row-group-size", "700"]);
            }
            ok(&args);
            pairs.push(format!("{}={}", source.display(), out.display()));
        }
    }
    // Inferred types: JSON Lines and CSV read as quiver reads them into Arrow IPC.
    for ext in ["jsonl", "csv"] {
        let text = d.join(format!("lineitem_src.{ext}"));
        let ipc = d.join(format!("inferred_{ext}.arrow"));
        let parquet = d.join(format!("inferred_{ext}.parquet"));
        ok(&["convert", s(&text), s(&ipc)]);
        ok(&["convert", s(&text), s(&parquet)]);
        pairs.push(format!("{}={}", ipc.display(), parquet.display()));
    }
    // `generate` writes Parquet directly; the same seed gives the same rows.
    for (dataset, source) in [("lineitem", lineitem()), ("nested", nested())] {
        let out = d.join(format!("generated_{dataset}.parquet"));
        let rows = if dataset == "lineitem" {
            "2500"
        } else {
            "1500"
        };
        ok(&["generate", dataset, "--rows", rows, "-o", s(&out)]);
        pairs.push(format!("{}={}", source.display(), out.display()));
    }
    // Standard output.
    let out = quiver()
        .args(["convert", s(&nested()), "-", "--to", "parquet"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let piped = d.join("piped.parquet");
    std::fs::write(&piped, out.stdout).unwrap();
    pairs.push(format!("{}={}", nested().display(), piped.display()));
    let mut args = vec!["same"];
    args.extend(pairs.iter().map(String::as_str));
    py_run(py, &args);
}

#[test]
fn codecs_and_levels_show_in_the_metadata_and_read_back() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut pairs = Vec::new();
    for (codec, stored) in [
        (None, "SNAPPY"),
        (Some("none"), "UNCOMPRESSED"),
        (Some("snappy"), "SNAPPY"),
        (Some("gzip"), "GZIP"),
        (Some("brotli"), "BROTLI"),
        (Some("zstd"), "ZSTD"),
        // pyarrow calls Parquet's LZ4_RAW "LZ4" and has no name for the deprecated LZ4.
        (Some("lz4_raw"), "LZ4"),
        (Some("lz4"), "UNKNOWN"),
    ] {
        let name = format!("{}.parquet", codec.unwrap_or("default"));
        let args: Vec<&str> = codec.map(|c| vec!["--compression", c]).unwrap_or_default();
        let out = lineitem_to(dir.path(), &name, &args);
        let m = meta(py, &out);
        for c in chunks(&m, "compression") {
            assert_eq!(c, stored, "{name}");
        }
        if codec.is_some_and(|c| c.starts_with("lz4")) {
            let listing = ok(&["meta", s(&out)]);
            let named = codec.unwrap().to_uppercase();
            assert!(listing.contains(&format!(" {named} ")), "{listing}");
        }
        pairs.push(format!("{}={}", lineitem().display(), out.display()));
    }
    // Levels: the strongest zstd level makes a smaller file than the fastest.
    let fast = lineitem_to(
        dir.path(),
        "z1.parquet",
        &["--compression", "zstd", "--compression-level", "-5"],
    );
    let best = lineitem_to(
        dir.path(),
        "z19.parquet",
        &["--compression", "zstd", "--compression-level", "19"],
    );
    let size = |p: &Path| std::fs::metadata(p).unwrap().len();
    assert!(
        size(&best) < size(&fast),
        "{} >= {}",
        size(&best),
        size(&fast)
    );
    let gz = lineitem_to(
        dir.path(),
        "gz9.parquet",
        &["--compression", "gzip", "--compression-level", "9"],
    );
    for p in [fast, best, gz] {
        pairs.push(format!("{}={}", lineitem().display(), p.display()));
    }
    let mut args = vec!["same"];
    args.extend(pairs.iter().map(String::as_str));
    py_run(py, &args);
}

#[test]
fn row_group_and_page_sizes() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let rows = |m: &Value| -> Vec<u64> {
        m["row_groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["rows"].as_u64().unwrap())
            .collect()
    };
    let m = meta(py, &lineitem_to(dir.path(), "default.parquet", &[]));
    assert_eq!(rows(&m), [2500]);
    let m = meta(
        py,
        &lineitem_to(dir.path(), "rows.parquet", &["--row-group-size", "1000"]),
    );
    assert_eq!(rows(&m), [1000, 1000, 500]);
    // Bytes: row groups close once their encoded pages pass 40 KB (the table is ~170 KB).
    let m = meta(
        py,
        &lineitem_to(dir.path(), "bytes.parquet", &["--row-group-size", "40KB"]),
    );
    let groups = rows(&m);
    assert!(groups.len() >= 3, "{groups:?}");
    assert_eq!(groups.iter().sum::<u64>(), 2500);
    // Pages: a small page size cuts the comment column (50 KB) into several data pages (pages
    // end on the writer's slices of 1,024 values at the least).
    let pages = |file: &Path| {
        let listing = ok(&["meta", "--pages", s(file)]);
        listing
            .lines()
            .skip_while(|l| !l.contains("column 15 (l_comment): pages"))
            .skip(2)
            .take_while(|l| !l.starts_with("row group"))
            .filter(|l| l.contains("DATA_PAGE"))
            .count()
    };
    let big = lineitem_to(dir.path(), "pages-default.parquet", &["--no-dictionary"]);
    let small = lineitem_to(
        dir.path(),
        "pages-small.parquet",
        &["--no-dictionary", "--page-size", "4KiB"],
    );
    assert_eq!(pages(&big), 1);
    assert!(pages(&small) >= 3, "{}", pages(&small));
}

/// `--decimals`: lineitem's decimal(15, 2) columns are INT64 under a codec and 7-byte
/// fixed-size arrays uncompressed (auto, the default), or as asked; pyarrow reads each equal.
#[test]
fn decimals_flag_chooses_how_decimals_are_stored() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    for (args, want) in [
        (&[][..], "INT64"),
        (&["--compression", "none"][..], "FIXED_LEN_BYTE_ARRAY"),
        (
            &["--compression", "none", "--decimals", "integer"][..],
            "INT64",
        ),
        (&["--decimals", "fixed"][..], "FIXED_LEN_BYTE_ARRAY"),
        (
            &["--decimals", "auto", "--compression", "zstd"][..],
            "INT64",
        ),
    ] {
        let f = lineitem_to(dir.path(), "decimals.parquet", args);
        let m = meta(py, &f);
        let group = &m["row_groups"][0]["columns"];
        let quantity = group
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["path"] == "l_quantity")
            .unwrap();
        assert_eq!(quantity["physical_type"], want, "{args:?}");
        // `same` fails (and py_run with it) unless pyarrow reads the file equal to the source.
        py_run(
            py,
            &["same", &format!("{}={}", lineitem().display(), f.display())],
        );
    }
}

#[test]
fn profile_dictionary_statistics_and_bloom_filters() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let listing = |f: &Path| ok(&["meta", "--pages", s(f)]);
    // compatible (the default): v1 pages, dictionary + plain.
    let compat = lineitem_to(dir.path(), "compatible.parquet", &["--no-dictionary"]);
    assert!(!listing(&compat).contains("DATA_PAGE_V2"));
    let m = meta(py, &compat);
    for e in chunks(&m, "encodings") {
        for enc in e.as_array().unwrap() {
            assert!(["PLAIN", "RLE"].contains(&enc.as_str().unwrap()), "{e}");
        }
    }
    // modern: v2 pages and delta encodings where smaller (l_orderkey ascends: deltas win).
    let modern = lineitem_to(
        dir.path(),
        "modern.parquet",
        &["--profile", "modern", "--no-dictionary"],
    );
    let pages = listing(&modern);
    assert!(pages.contains("DATA_PAGE_V2"));
    assert!(!pages.contains(" DATA_PAGE "), "{pages}");
    let m = meta(py, &modern);
    let first = &chunks(&m, "encodings")[0];
    assert!(first.to_string().contains("DELTA_BINARY_PACKED"), "{first}");
    // Dictionary on (default, or --dictionary after --no-dictionary) and off.
    for (args, on) in [
        (&[][..], true),
        (&["--no-dictionary", "--dictionary"][..], true),
        (&["--no-dictionary"][..], false),
    ] {
        let f = lineitem_to(dir.path(), "dict.parquet", args);
        let m = meta(py, &f);
        for (d, e) in chunks(&m, "dictionary").iter().zip(chunks(&m, "encodings")) {
            assert_eq!(d.as_bool(), Some(on), "{args:?}");
            assert_eq!(e.to_string().contains("RLE_DICTIONARY"), on, "{args:?}");
        }
    }
    // Statistics: none, chunk, page (the default: also the page index).
    for (level, stats, index) in [
        (None, true, true),
        (Some("page"), true, true),
        (Some("chunk"), true, false),
        (Some("none"), false, false),
    ] {
        let args: Vec<&str> = level.map(|l| vec!["--statistics", l]).unwrap_or_default();
        let m = meta(py, &lineitem_to(dir.path(), "stats.parquet", &args));
        for key in ["column_index", "offset_index"] {
            let all: Vec<_> = chunks(&m, key).into_iter().cloned().collect();
            // The offset index goes with the column index (both are the page index).
            assert!(
                all.iter().all(|v| v.as_bool() == Some(index)),
                "{level:?} {key}"
            );
        }
        let all: Vec<_> = chunks(&m, "statistics").into_iter().cloned().collect();
        assert!(all.iter().all(|v| v.as_bool() == Some(stats)), "{level:?}");
    }
    // Distinct counts: on request, on the chunks whose pages are all dictionary-encoded
    // (tests/it/write_distinct.rs in quiver-parquet checks which), equal to pyarrow's count of
    // the values.
    for (args, on) in [(&["--distinct-count"][..], true), (&[][..], false)] {
        let m = meta(py, &lineitem_to(dir.path(), "distinct.parquet", args));
        let (counts, values) = (chunks(&m, "distinct_count"), chunks(&m, "distinct_values"));
        let mut counted = 0;
        for (count, values) in counts.iter().zip(values) {
            if !count.is_null() {
                assert_eq!(count, &values, "{args:?}");
                counted += 1;
            }
        }
        // No dictionary of the small lineitem table falls back: every chunk is counted.
        let want = if on { counts.len() } else { 0 };
        assert_eq!(counted, want, "{args:?}");
    }
    // Bloom filters: only on the columns named (a top-level name covers its leaves).
    let f = lineitem_to(
        dir.path(),
        "bloom.parquet",
        &[
            "--bloom-filter",
            "l_orderkey:1000",
            "--bloom-filter",
            "l_comment",
            "--bloom-fpp",
            "0.01",
        ],
    );
    let m = meta(py, &f);
    let on: Vec<bool> = chunks(&m, "bloom")
        .iter()
        .map(|v| v.as_bool().unwrap())
        .collect();
    let want: Vec<bool> = (0..17).map(|i| i == 0 || i == 15).collect();
    assert_eq!(on, want);
    let nested_out = dir.path().join("nested-bloom.parquet");
    ok(&[
        "convert",
        s(&nested()),
        s(&nested_out),
        "--bloom-filter",
        "profile",
        "--bloom-filter",
        "tags.list.element:10",
    ]);
    let m = meta(py, &nested_out);
    let groups = m["row_groups"].as_array().unwrap();
    for c in groups[0]["columns"].as_array().unwrap() {
        let path = c["path"].as_str().unwrap();
        let want = path.starts_with("profile.") || path == "tags.list.element";
        assert_eq!(c["bloom"].as_bool(), Some(want), "{path}");
    }
}

#[test]
fn sort_by_sorts_like_pyarrow_and_records_sorting_columns() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Keys with nulls, NaN, infinities, negative zero, ties and strings.
    let csv = d.join("keys.csv");
    let mut text = String::from("grp,x,name,day,n\n");
    for i in 0..3000u32 {
        let r = i.wrapping_mul(2654435761) >> 7;
        let grp = if r % 11 == 0 {
            String::new()
        } else {
            format!("g{}", r % 5)
        };
        let x = match r % 13 {
            0 => "".to_string(),
            1 => "NaN".to_string(),
            2 => "-inf".to_string(),
            3 => "-0.0".to_string(),
            _ => format!("{}.5", (r % 40) as i64 - 20),
        };
        text.push_str(&format!(
            "{grp},{x},n{},2024-01-{:02},{i}\n",
            r % 97,
            r % 28 + 1
        ));
    }
    std::fs::write(&csv, text).unwrap();
    let schema = "grp: string, x: double, name: string, day: date32, n: int64";
    let ipc = d.join("keys.arrow");
    ok(&["convert", s(&csv), s(&ipc), "--schema", schema]);
    for keys in ["x", "grp,x", "day,name", "name,grp,n"] {
        let out = d.join(format!("sorted-{}.parquet", keys.replace(',', "-")));
        ok(&[
            "convert",
            s(&ipc),
            s(&out),
            "--sort-by",
            keys,
            "--row-group-size",
            "1000",
            "--batch-size",
            "777",
        ]);
        py_run(py, &["sorted", s(&ipc), s(&out), keys]);
        let m = meta(py, &out);
        let names = ["grp", "x", "name", "day", "n"];
        let want: Vec<Value> = keys
            .split(',')
            .map(|k| {
                let i = names.iter().position(|n| *n == k).unwrap();
                serde_json::json!([i, false, false])
            })
            .collect();
        for g in m["row_groups"].as_array().unwrap() {
            assert_eq!(g["sorting"].as_array().unwrap(), &want, "{keys}");
        }
    }
    // Other outputs sort too (nothing to record there).
    let out = d.join("sorted.arrows");
    ok(&[
        "convert",
        s(&csv),
        s(&out),
        "--schema",
        schema,
        "--sort-by",
        "grp,x",
    ]);
    let pq_out = d.join("sorted-grp-x.parquet");
    py_run(
        py,
        &["same", &format!("{}={}", out.display(), pq_out.display())],
    );
    // `generate` too; a nested table sorted by its flat key keeps its nested columns whole.
    let gen_out = d.join("gen-sorted.parquet");
    ok(&[
        "generate",
        "nested",
        "--rows",
        "1500",
        "-o",
        s(&gen_out),
        "--sort-by",
        "id",
    ]);
    py_run(py, &["sorted", s(&nested()), s(&gen_out), "id"]);
}

#[test]
fn bad_parquet_options_are_usage_errors_naming_the_option() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.parquet");
    let li = lineitem();
    let cases: [(&[&str], &str); 16] = [
        (
            &["--compression", "zstd", "--compression-level", "99"],
            "--compression-level: invalid argument: ZSTD compression level 99 is outside -7..=22",
        ),
        (
            &["--compression-level", "3"],
            "--compression-level: invalid argument: SNAPPY has no compression levels",
        ),
        (
            &["--compression", "gzip", "--compression-level", "-1"],
            "GZIP compression level -1 is outside 0..=9",
        ),
        (
            &["--compression", "bzip2"],
            "invalid value 'bzip2' for '--compression <CODEC>'",
        ),
        (
            &["--row-group-size", "0"],
            "--row-group-size <ROWS|BYTES>': a row group needs at least 1 row or byte",
        ),
        (
            &["--row-group-size", "12 parsecs"],
            "\"12 parsecs\" is not a size",
        ),
        (&["--page-size", "0"], "a page needs at least 1 byte"),
        (
            &["--profile", "fast"],
            "invalid value 'fast' for '--profile <PROFILE>'",
        ),
        (
            &["--statistics", "all"],
            "invalid value 'all' for '--statistics <LEVEL>'",
        ),
        (
            &["--bloom-filter", "nope"],
            "--bloom-filter nope: no column \"nope\" (columns: l_orderkey, ",
        ),
        (
            &["--bloom-filter", "l_orderkey:0"],
            "--bloom-filter l_orderkey:0: the distinct value count must be a number from 1",
        ),
        (
            &["--bloom-fpp", "1"],
            "--bloom-fpp 1: the probability must be above 0 and below 1",
        ),
        (
            &["--sort-by", "l_orderkey,zz"],
            "--sort-by zz: no such column (columns: l_orderkey, ",
        ),
        (&["--sort-by", "l_orderkey,"], "--sort-by : no such column"),
        (
            &["--distinct-count", "--statistics", "none"],
            "--distinct-count: the count is a statistic; not with --statistics none",
        ),
        (
            &["--distinct-count", "--no-dictionary"],
            "--distinct-count: the counts come from the dictionaries; not with --no-dictionary",
        ),
    ];
    for (args, message) in cases {
        let mut all = vec!["convert", s(&li), s(&out)];
        all.extend_from_slice(args);
        let e = fails(&all, 2);
        assert!(e.contains(message), "{args:?}: {e}");
    }
    let e = fails(&["convert", s(&nested()), s(&out), "--sort-by", "tags"], 2);
    assert!(
        e.contains("--sort-by tags: not supported: sorting by a column of type"),
        "{e}"
    );
    // Options of Parquet output given for another format.
    for (args, message) in [
        (
            &["--profile", "modern"][..],
            "--profile applies to Parquet output only",
        ),
        (
            &["--no-dictionary"][..],
            "--no-dictionary applies to Parquet output only",
        ),
        (
            &["--bloom-filter", "x"][..],
            "--bloom-filter applies to Parquet output only",
        ),
        (
            &["--row-group-size", "10"][..],
            "--row-group-size applies to Parquet output only",
        ),
        (
            &["--distinct-count"][..],
            "--distinct-count applies to Parquet output only",
        ),
        (
            &["--compression", "snappy"][..],
            "--compression snappy applies to Parquet output, not Arrow IPC file",
        ),
    ] {
        let arrow = dir.path().join("out.arrow");
        let mut all = vec!["convert", s(&li), s(&arrow)];
        all.extend_from_slice(args);
        let e = fails(&all, 2);
        assert!(e.contains(message), "{args:?}: {e}");
    }
    let e = fails(
        &[
            "convert",
            s(&li),
            s(&dir.path().join("o.csv")),
            "--compression",
            "zstd",
        ],
        2,
    );
    assert!(
        e.contains("--compression zstd applies to Arrow IPC and Parquet output, not CSV"),
        "{e}"
    );
    let e = fails(
        &[
            "generate",
            "nested",
            "--rows",
            "5",
            "-o",
            s(&dir.path().join("o.jsonl")),
            "--statistics",
            "none",
        ],
        2,
    );
    assert!(
        e.contains("--statistics applies to Parquet output only"),
        "{e}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn an_input_error_midway_leaves_no_parquet_output() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("bad.csv");
    let mut text = String::from("a,b\n");
    for i in 0..5000 {
        text.push_str(&format!("{i},x{i}\n"));
    }
    text.push_str("oops,y\n");
    std::fs::write(&csv, text).unwrap();
    for extra in [&[][..], &["--sort-by", "b"][..]] {
        // Row groups of 1,000 rows: several are in the file when the bad row comes.
        let mut args = vec![
            "convert",
            "bad.csv",
            "out.parquet",
            "--row-group-size",
            "1000",
            "--batch-size",
            "500",
        ];
        args.extend_from_slice(extra);
        let (_, e) = run_in(dir.path(), &args, 1);
        assert_eq!(
            e,
            "quiver: error: bad.csv: line 5002, column \"a\": cannot parse \"oops\" as int64 \
             (types were inferred from the first 1,000 rows; pass a larger --infer-rows, or \
             --schema)\n"
        );
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["bad.csv"], "{extra:?}");
    }
}
