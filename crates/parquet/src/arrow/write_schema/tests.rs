use super::leaf::decimal_width;
use super::*;
use crate::arrow::restore::decode_arrow_schema;
use quiver_arrow::datatype::{
    Fields, IntegerType, IntervalUnit, TimeUnit as ArrowUnit, UnionFields,
};
use std::io::Write;
use std::path::{Path, PathBuf};

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/write_schema.py")
}

/// Whether python3 with pyarrow is there; outside CI its absence skips the test.
fn have_pyarrow() -> bool {
    let ok = std::process::Command::new("python3")
        .args(["-c", "import pyarrow.parquet"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "pyarrow is missing (CI=true)"
        );
        eprintln!("skipping: python3 -c 'import pyarrow.parquet' fails");
    }
    ok
}

/// The `ARROW:schema` value of a file's footer.
fn arrow_schema_of(md: &crate::metadata::ParquetMetaData<'_>) -> String {
    let kv = md
        .file()
        .key_value_metadata
        .as_ref()
        .expect("key-value metadata");
    let v = kv
        .iter()
        .find(|kv| kv.key == ARROW_SCHEMA_KEY.as_bytes())
        .and_then(|kv| kv.value)
        .expect("ARROW:schema");
    String::from_utf8(v.to_vec()).unwrap()
}

/// pyarrow's ARROW:schema values and ours, compared by pyarrow: one (equal, ours, theirs) each.
fn pyarrow_compares(cases: &[(String, String)]) -> Vec<serde_json::Value> {
    let mut child = std::process::Command::new("python3")
        .arg(script())
        .arg("compare")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = String::new();
    for (theirs, ours) in cases {
        input += &serde_json::json!({"theirs": theirs, "ours": ours}).to_string();
        input.push('\n');
    }
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// pyarrow writes files covering every Arrow type it can write (once with decimals as
/// integers, once as fixed-size byte arrays); for the Arrow schema each file stores, our
/// schema elements equal the file's (names, physical types, repetitions, logical and converted
/// types, widths, precision and scale, field ids, child counts), and our `ARROW:schema` value
/// decodes — with this crate's reader and with pyarrow — to the schema pyarrow stored.
#[test]
fn elements_and_arrow_schema_equal_pyarrows() {
    if !have_pyarrow() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ok = std::process::Command::new("python3")
        .arg(script())
        .arg("write")
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(ok.success());
    let mut cases = Vec::new();
    for (file, decimal_as_integer) in [("types_int.parquet", true), ("types_flba.parquet", false)] {
        let bytes = std::fs::read(dir.path().join(file)).unwrap();
        let md = crate::metadata::parse_file(&bytes).unwrap();
        let theirs = arrow_schema_of(&md);
        let schema = decode_arrow_schema(theirs.as_bytes()).unwrap();
        let options = SchemaOptions { decimal_as_integer };
        let ws = WriteSchema::new(&schema, &options).unwrap();
        let ours = ws.elements();
        assert_eq!(ours.len(), md.schema().len(), "{file}: element count");
        for (i, (o, t)) in ours.iter().zip(md.schema()).enumerate() {
            assert_eq!(o, t, "{file}: element {i} ({})", t.name);
        }
        // The leaves are the file's columns, in order, with their levels.
        let descr = md.schema_descr();
        assert_eq!(ws.leaves().len(), descr.columns().len());
        for (leaf, col) in ws.leaves().iter().zip(descr.columns()) {
            assert_eq!(leaf.path.join("."), col.dotted_path());
            let levels = (col.max_def(), col.max_rep());
            assert_eq!((leaf.max_def, leaf.max_rep), levels, "{:?}", leaf.path);
        }
        let value = ws.arrow_schema_value().unwrap();
        assert_eq!(decode_arrow_schema(value.as_bytes()).unwrap(), schema);
        cases.push((theirs, value));
    }
    for r in pyarrow_compares(&cases) {
        assert_eq!(
            r["equal"], true,
            "ours:\n{}\ntheirs:\n{}",
            r["ours"], r["theirs"]
        );
    }
}
