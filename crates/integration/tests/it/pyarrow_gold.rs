//! quiver's writer output for every gold JSON, uncompressed, LZ4 and ZSTD, read by pyarrow,
//! equals what pyarrow reads from the official gold file.

use quiver_integration::read_json_path;
use quiver_integration::testdata::gold_json_cases;
use quiver_ipc::Codec;
use quiver_ipc::write::{FileWriter, WriteOptions};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

pub(crate) use quiver_integration::testdata::pyarrow_python;

fn write_ours(json: &Path, out: &Path, compression: Option<Codec>) -> Result<(), String> {
    let file = read_json_path(json).map_err(|e| e.to_string())?;
    let schema = file.ipc_schema();
    let options = WriteOptions::default().with_compression(compression);
    let f = std::fs::File::create(out).map_err(|e| e.to_string())?;
    let mut w = FileWriter::try_new(std::io::BufWriter::new(f), schema, options)
        .map_err(|e| e.to_string())?;
    for b in &file.batches {
        w.write(b).map_err(|e| e.to_string())?;
    }
    w.finish()
        .map_err(|e| e.to_string())?
        .flush()
        .map_err(|e| e.to_string())
}

#[test]
fn pyarrow_reads_our_files_equal_to_the_gold_files() {
    let Some(jsons) = gold_json_cases().unwrap_or_else(|e| panic!("{e}")) else {
        return;
    };
    let Some(python) = pyarrow_python() else {
        return;
    };
    let tmp = std::env::temp_dir().join(format!("quiver-pyarrow-gold-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let mut pairs = String::new();
    let mut errors = Vec::new();
    for json in &jsons {
        let stem = json
            .file_name()
            .unwrap()
            .to_string_lossy()
            .trim_end_matches(".json.gz")
            .to_string();
        let version = json
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let gold = json.with_file_name(format!("{stem}.arrow_file"));
        for (tag, codec) in [
            ("none", None),
            ("lz4", Some(Codec::Lz4Frame)),
            ("zstd", Some(Codec::Zstd)),
        ] {
            let out = tmp.join(format!("{version}-{stem}-{tag}.arrow_file"));
            match write_ours(json, &out, codec) {
                Ok(()) => pairs.push_str(&format!("{}\t{}\n", out.display(), gold.display())),
                Err(e) => errors.push(format!("{version}/{stem} ({tag}): {e}")),
            }
        }
    }
    assert!(
        errors.is_empty(),
        "quiver could not write:\n{}",
        errors.join("\n")
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/py/same_as_gold.py");
    let mut child = Command::new(python)
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(pairs.as_bytes())
        .expect("pairs written");
    let output = child.wait_with_output().expect("python3 finishes");
    let text = String::from_utf8_lossy(&output.stdout);
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(output.status.success(), "pyarrow disagrees:\n{text}");
    assert!(
        text.contains(&format!("{} of {} equal", jsons.len() * 3, jsons.len() * 3)),
        "{text}"
    );
}
