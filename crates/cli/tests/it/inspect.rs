//! `schema`, `head`, `cat` and `meta`.

use crate::common::*;

/// The depth-1 lines of `quiver schema` as (name, type, nullable).
fn schema_fields(out: &str) -> Vec<(String, String, bool)> {
    out.lines()
        .skip(1)
        .take_while(|l| !l.starts_with("schema metadata"))
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .map(|l| {
            let l = l.trim_start();
            let (name, rest) = l.split_once(": ").unwrap();
            let ty = rest.split("  [").next().unwrap();
            let nullable = !ty.ends_with(" not null");
            let ty = ty.trim_end_matches(" not null").to_string();
            (name.to_string(), ty, nullable)
        })
        .collect()
}

#[test]
fn schema_type_names_match_pyarrow() {
    let Some(py) = python() else { return };
    let names = [
        "generated_primitive",
        "generated_datetime",
        "generated_decimal",
        "generated_interval",
        "generated_dictionary",
        "generated_primitive_large_offsets",
        "generated_duplicate_fieldnames",
        "generated_nested",
        "generated_nested_large_offsets",
        "generated_map",
        "generated_map_non_canonical",
        "generated_nested_dictionary",
        "generated_extension",
        "generated_null",
        "generated_union",
    ];
    for name in names {
        let Some(path) = gold(&format!("1.0.0-littleendian/{name}.arrow_file")) else {
            return;
        };
        let ours = schema_fields(&ok(&["schema", s(&path)]));
        let out = std::process::Command::new(py)
            .arg(script("schema_types.py"))
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let theirs: Vec<(String, String, bool)> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| {
                let p: Vec<&str> = l.split('\t').collect();
                (p[0].to_string(), p[1].to_string(), p[2] == "True")
            })
            .collect();
        assert_eq!(ours.len(), theirs.len(), "{name}");
        for (o, t) in ours.iter().zip(&theirs) {
            assert_eq!(o.0, t.0, "{name}");
            assert_eq!(o.2, t.2, "{name}: nullability of {}", o.0);
            assert_eq!(o.1, t.1, "{name}: type of {}", o.0);
        }
    }
}

#[test]
fn schema_shows_children_dictionary_ids_extensions_and_metadata() {
    let Some(dict) = gold("1.0.0-littleendian/generated_nested_dictionary.arrow_file") else {
        return;
    };
    let out = ok(&["schema", s(&dict)]);
    assert!(out.contains("[dictionary id 0]"), "{out}");
    assert!(out.contains("[dictionary id 1]"), "{out}");
    let Some(ext) = gold("1.0.0-littleendian/generated_extension.arrow_file") else {
        return;
    };
    let out = ok(&["schema", s(&ext)]);
    assert!(out.contains("[extension "), "{out}");
    let Some(meta) = gold("1.0.0-littleendian/generated_custom_metadata.arrow_file") else {
        return;
    };
    let out = ok(&["schema", s(&meta)]);
    assert!(out.contains("schema metadata:"), "{out}");
    assert!(out.contains("metadata:\n"), "{out}");

    let out = ok(&["schema", s(&nested())]);
    assert!(
        out.starts_with(&format!("{}: Arrow IPC file, ", nested().display())),
        "{out}"
    );
    assert!(
        out.contains("  tags: list<item: string>\n    item: string\n"),
        "{out}"
    );
    assert!(
        out.contains(
            "  attributes: map<string, int64>\n    entries: struct<key: string not null, value: int64> not null\n"
        ),
        "{out}"
    );
}

#[test]
fn schema_reads_streams_csv_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("t.csv");
    std::fs::write(&csv, "id,name,day\n1,ann,2024-01-02\n2,bob,\n").unwrap();
    let out = ok(&["schema", s(&csv)]);
    assert!(
        out.contains("  id: int64\n  name: string\n  day: date32[day]\n"),
        "{out}"
    );
    let jsonl = dir.path().join("t.jsonl");
    std::fs::write(&jsonl, "{\"a\": 1, \"b\": {\"c\": [1.5]}}\n").unwrap();
    let out = ok(&["schema", s(&jsonl)]);
    assert!(
        out.contains(
            "  a: int64\n  b: struct<c: list<item: double>>\n    c: list<item: double>\n      item: double\n"
        ),
        "{out}"
    );
    let Some(stream) = gold("1.0.0-littleendian/generated_primitive.stream") else {
        return;
    };
    let out = ok(&["schema", s(&stream)]);
    assert!(out.contains("Arrow IPC stream"), "{out}");
}

#[test]
fn head_snapshot_fits_80_columns() {
    let out = ok(&["head", s(&lineitem()), "--width", "80"]);
    let snapshot = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots/head_lineitem_80.txt");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&snapshot, &out).unwrap();
    }
    let expected = std::fs::read_to_string(&snapshot).unwrap();
    assert_eq!(
        out, expected,
        "set UPDATE_SNAPSHOTS=1 to accept a deliberate change"
    );
    for line in out.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }
    assert_eq!(
        out.lines().count(),
        10 + 4 + 1,
        "10 rows, a header, three borders and the line naming the columns left out"
    );
    assert!(out.ends_with(
        "… 12 more columns: l_extendedprice, l_discount, l_tax, l_returnflag, l_linestat…\n"
    ));
    assert!(out.contains("| … |"), "left-out columns are marked");
}

#[test]
fn head_without_a_terminal_prints_full_values() {
    let out = ok(&[
        "head",
        s(&lineitem()),
        "-n",
        "3",
        "--columns",
        "l_orderkey,l_comment",
    ]);
    assert!(!out.contains('…'), "{out}");
    assert_eq!(out.lines().count(), 3 + 4, "{out}");
    assert!(
        out.lines()
            .nth(1)
            .unwrap()
            .contains("l_orderkey | l_comment"),
        "{out}"
    );
}

#[test]
fn head_shows_nested_values_readably() {
    let out = ok(&[
        "head",
        s(&nested()),
        "-n",
        "20",
        "--columns",
        "id,tags,profile",
    ]);
    assert!(out.contains('['), "lists are shown as [..]: {out}");
    assert!(out.contains('{'), "structs are shown as {{..}}: {out}");
}

#[test]
fn cat_offset_limit_and_columns_across_batches() {
    let file = lineitem();
    let all = ok(&[
        "cat",
        s(&file),
        "--format",
        "csv",
        "--columns",
        "l_orderkey,l_linenumber",
    ]);
    let lines: Vec<&str> = all.lines().collect();
    assert_eq!(lines.len(), 2501);
    assert_eq!(lines[0], "l_orderkey,l_linenumber");
    // Rows 995..1005 straddle the first batch boundary (batches of 1,000 rows).
    let part = ok(&[
        "cat",
        s(&file),
        "--format",
        "csv",
        "--columns",
        "l_orderkey,l_linenumber",
        "--offset",
        "995",
        "--limit",
        "10",
    ]);
    let expected: Vec<&str> = std::iter::once(lines[0])
        .chain(lines[996..1006].iter().copied())
        .collect();
    assert_eq!(part.lines().collect::<Vec<_>>(), expected);
    let beyond = ok(&["cat", s(&file), "--format", "csv", "--offset", "9999"]);
    assert_eq!(beyond.lines().count(), 1, "only the header");
}

#[test]
fn cat_json_formats() {
    let file = lineitem();
    let jsonl = ok(&["cat", s(&file), "--format", "jsonl", "--limit", "5"]);
    assert_eq!(jsonl.lines().count(), 5);
    for line in jsonl.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v.as_object().unwrap().len(), 17, "{line}");
    }
    let json = ok(&["cat", s(&nested()), "--format", "json", "--limit", "7"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 7);
    let empty = ok(&["cat", s(&nested()), "--format", "json", "--limit", "0"]);
    let v: serde_json::Value = serde_json::from_str(&empty).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 0);
}

#[test]
fn cat_unknown_column_is_a_usage_error() {
    let e = fails(&["cat", s(&lineitem()), "--columns", "nope"], 2);
    assert!(e.contains("no column named \"nope\""), "{e}");
    assert!(e.contains("l_orderkey"), "lists the columns: {e}");
}

#[test]
fn meta_of_files_and_streams() {
    let dir = tempfile::tempdir().unwrap();
    let zstd = dir.path().join("z.arrow");
    ok(&["convert", s(&lineitem()), s(&zstd), "--compression", "zstd"]);
    let out = ok(&["meta", s(&zstd)]);
    assert!(out.contains("record batches (3 blocks)"), "{out}");
    assert!(out.to_lowercase().contains("zstd"), "{out}");
    let stream = dir.path().join("s.arrows");
    ok(&["convert", s(&lineitem()), s(&stream)]);
    let out = ok(&["meta", s(&stream)]);
    assert_eq!(out.matches("RecordBatch").count(), 3, "{out}");
    let Some(dict) = gold("1.0.0-littleendian/generated_dictionary.stream") else {
        return;
    };
    let out = ok(&["meta", s(&dict), "--verbose"]);
    assert!(out.contains("DictionaryBatch"), "{out}");
}

#[test]
fn cat_table_streams_large_outputs_in_pieces_with_one_layout() {
    let big = generated("lineitem", 25_000, "lineitem_25k.arrow");
    let out = ok(&[
        "cat",
        s(&big),
        "--columns",
        "l_orderkey,l_shipmode,l_comment",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 25_000 + 4, "one header, one table");
    let width = lines[0].chars().count();
    assert!(
        lines.iter().all(|l| l.chars().count() == width),
        "every line aligned"
    );
    assert_eq!(lines.iter().filter(|l| l.starts_with('+')).count(), 3);
}
