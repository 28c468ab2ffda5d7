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
