//! pyarrow reads what `convert` writes, equal to the source; `convert` of a CSV agrees with
//! pyarrow's `csv.read_csv` when the types are given.

use crate::common::*;
use std::process::Command;

fn run_py(py: &str, script_name: &str, args: &[&str]) {
    let out = Command::new(py)
        .arg(script(script_name))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{script_name} {args:?}:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn pyarrow_reads_every_ipc_file_convert_writes() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut pairs: Vec<String> = Vec::new();
    for source in [lineitem(), nested()] {
        let stem = source.file_stem().unwrap().to_string_lossy().into_owned();
        let mut inputs = vec![source.clone()];
        for ext in ["arrows", "jsonl"] {
            let p = dir.path().join(format!("{stem}_src.{ext}"));
            ok(&["convert", s(&source), s(&p)]);
            inputs.push(p);
        }
        if stem == "lineitem" {
            let p = dir.path().join(format!("{stem}_src.csv"));
            ok(&["convert", s(&source), s(&p)]);
            inputs.push(p);
        }
        for input in &inputs {
            let from = input.extension().unwrap().to_string_lossy().into_owned();
            for (ext, codec) in [
                ("arrow", "none"),
                ("arrows", "lz4"),
                ("arrow", "zstd"),
                ("arrows", "none"),
            ] {
                let out = dir.path().join(format!("{stem}_{from}_{codec}.{ext}"));
                let mut args = vec!["convert", s(input), s(&out), "--compression", codec];
                if !input.to_string_lossy().ends_with("arrow")
                    && !input.to_string_lossy().ends_with("arrows")
                {
                    args.extend(["--schema-from", s(&source)]);
                }
                ok(&args);
                pairs.push(format!("{}={}", source.display(), out.display()));
            }
        }
    }
    let args: Vec<&str> = pairs.iter().map(String::as_str).collect();
    run_py(py, "same_tables.py", &args);
}

#[test]
fn csv_agrees_with_pyarrow_read_csv() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("edge.csv");
    std::fs::write(
        &csv,
        "id,price,qty,name,day,ts,flag,ratio\n\
         1,12.50,3,plain,2024-02-29,2024-02-29 12:34:56.789012,true,1e3\n\
         -2,-0.01,,\"comma, inside\",1970-01-01,1970-01-01T00:00:00,false,-2.5E-3\n\
         3,,7,\"quote \"\"q\"\" and\nnewline\",,,,\n\
         4,99999999999.99,-8,ünïcødé ✓,2000-12-31,1999-12-31 23:59:59,TRUE,0.1\n",
    )
    .unwrap();
    let spec = "id:int64, price:decimal128(15,2), qty:int32, name:string, day:date32, \
                ts:timestamp[us], flag:bool, ratio:double";
    let ours = dir.path().join("ours.arrow");
    ok(&["convert", s(&csv), s(&ours), "--schema", spec]);
    run_py(py, "csv_compare.py", &[s(&csv), s(&ours)]);

    // The generated lineitem table written as CSV by quiver, read back by both.
    let li_csv = dir.path().join("lineitem.csv");
    ok(&["convert", s(&lineitem()), s(&li_csv)]);
    let li_ours = dir.path().join("lineitem_ours.arrow");
    ok(&[
        "convert",
        s(&li_csv),
        s(&li_ours),
        "--schema-from",
        s(&lineitem()),
    ]);
    run_py(py, "csv_compare.py", &[s(&li_csv), s(&li_ours)]);
}

/// `{"a": [[…[1]…]]}` with `lists` nested lists.
fn nested_lists_json(lists: usize) -> String {
    format!("{{\"a\": {}1{}}}\n", "[".repeat(lists), "]".repeat(lists))
}

/// pyarrow reads IPC types at most 64 fields deep (63 nested lists of a primitive): writers
/// refuse deeper ones, naming the field, and leave no output; quiver's reader names a too-deep
/// field of a file pyarrow wrote once, by its path.
#[test]
fn types_nested_past_pyarrows_limit_are_refused_naming_the_field() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (ok63, deep64) = (dir.path().join("63.jsonl"), dir.path().join("64.jsonl"));
    std::fs::write(&ok63, nested_lists_json(63)).unwrap();
    std::fs::write(&deep64, nested_lists_json(64)).unwrap();
    let (file, stream) = (dir.path().join("63.arrow"), dir.path().join("63.arrows"));
    ok(&["convert", s(&ok63), s(&file)]);
    ok(&["convert", s(&ok63), s(&stream)]);
    let read = format!(
        "import pyarrow as pa\n\
         for t in [pa.ipc.open_file({:?}).read_all(), pa.ipc.open_stream({:?}).read_all()]:\n    \
             v = t.column(0)[0].as_py()\n    \
             for _ in range(63): v = v[0]\n    \
             assert v == 1, v\n",
        s(&file),
        s(&stream)
    );
    let out = Command::new(py).args(["-c", &read]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The Parquet file quiver writes reads back in quiver (pyarrow stops at 100 Parquet
    // schema levels, which 63 three-level lists pass).
    let parquet = dir.path().join("63.parquet");
    ok(&["convert", s(&ok63), s(&parquet)]);
    let back = dir.path().join("back.jsonl");
    ok(&["convert", s(&parquet), s(&back)]);
    assert_eq!(
        std::fs::read_to_string(&back).unwrap().replace(' ', ""),
        nested_lists_json(63).replace(' ', "")
    );
    for ext in ["arrow", "arrows", "parquet"] {
        let out = dir.path().join(format!("64.{ext}"));
        let e = fails(&["convert", s(&deep64), s(&out)], 1);
        let field = format!("field \"a{}\"", ".item".repeat(64));
        assert!(e.contains(&field), "{ext}: {e}");
        assert!(e.contains("more than 64 fields deep"), "{ext}: {e}");
        assert!(!out.exists(), "{ext}: output left behind");
    }
    // A file pyarrow writes: its schema (pyarrow refuses to write a batch of such a type).
    let deep = dir.path().join("70.arrow");
    let write = format!(
        "import pyarrow as pa\n\
         t = pa.int8()\n\
         for _ in range(70): t = pa.list_(t)\n\
         s = pa.schema([pa.field('a', t)])\n\
         pa.ipc.new_file({:?}, s).close()\n",
        s(&deep)
    );
    let out = Command::new(py).args(["-c", &write]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let e = fails(&["schema", s(&deep)], 1);
    assert!(e.contains("types nested deeper than 64 levels"), "{e}");
    assert_eq!(e.matches("field").count(), 1, "{e}");
    assert!(
        e.contains(&format!("field \"a{}\"", ".item".repeat(65))),
        "{e}"
    );
}
