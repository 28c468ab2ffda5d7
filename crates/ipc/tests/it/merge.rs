//! `quiver_ipc::merge` on files written by pyarrow (`tests/py/merge_inputs.py`) and by quiver:
//! pyarrow reads each merged file and finds it equal to `pa.concat_tables` of the inputs
//! (`tests/py/merge_check.py`), quiver reads each merged batch equal to the input's, the
//! batches reported verbatim are byte for byte the inputs' messages (the re-encoded ones
//! differ only in dictionary index buffers), and the report says what each input's
//! dictionaries did.

use super::write_data::{dict, dictionary_batches, prim, words};
use super::write_pyarrow::{cleanup, pyarrow_available, python, scratch};
use bytes::Bytes;
use quiver_arrow::datatype::BufferKind;
use quiver_arrow::{DataType, Field, IntegerType, RecordBatch, Schema};
use quiver_ipc::inspect::{BlockInfo, BufferRole, inspect_file, label_buffers};
use quiver_ipc::merge::{IpcMergeReport, MergeInput, MergeOptions, MetadataScope, merge};
use quiver_ipc::read::FileReader;
use quiver_ipc::write::{FileWriter, WriteOptions};
use quiver_ipc::{Codec, IpcSchema};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A merge done: its inputs, its output and its report.
struct Merged {
    name: String,
    inputs: Vec<PathBuf>,
    output: PathBuf,
    report: IpcMergeReport,
}

fn read(path: &Path) -> Bytes {
    Bytes::from(std::fs::read(path).unwrap())
}

/// Merges `inputs` into `dir/<name>.merged.arrow`.
fn merge_files(dir: &Path, name: &str, inputs: Vec<PathBuf>) -> Merged {
    let files: Vec<MergeInput> = (inputs.iter())
        .map(|p| MergeInput::new(p.display().to_string(), read(p)))
        .collect();
    let (out, report) =
        merge(&files, Vec::new(), &MergeOptions::new()).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(report.output_bytes, out.len() as u64, "{name}");
    let output = dir.join(format!("{name}.merged.arrow"));
    std::fs::write(&output, out).unwrap();
    Merged {
        name: name.to_string(),
        inputs,
        output,
        report,
    }
}

fn write_file(path: &Path, schema: &IpcSchema, batches: &[RecordBatch], options: WriteOptions) {
    let mut w = FileWriter::try_new(Vec::new(), schema, options).unwrap();
    for b in batches {
        w.write(b).unwrap();
    }
    std::fs::write(path, w.finish().unwrap()).unwrap();
}

/// Quiver-written inputs: (scenario, files).
fn quiver_inputs(dir: &Path) -> Vec<(String, Vec<PathBuf>)> {
    let o = WriteOptions::new;
    // Column `i`, and `d` whose dictionary grows inside the first file (a delta there).
    let schema = Arc::new(Schema::new(vec![
        Field::new("i", DataType::Int64, true),
        Field::new(
            "d",
            DataType::dictionary(IntegerType::Int32, DataType::Utf8),
            true,
        ),
    ]));
    let batch = |keys: &[Option<i32>], values: &[&str]| {
        let n = keys.len();
        let i = prim(DataType::Int64, (0..n as i64).map(Some));
        let d = dict(
            prim(DataType::Int32, keys.iter().copied()),
            words(values),
            false,
        );
        RecordBatch::try_new(schema.clone(), vec![i, d]).unwrap()
    };
    let grow = [
        (
            vec![
                batch(&[Some(0), Some(1)], &["a", "b"]),
                batch(&[Some(2), None, Some(0)], &["a", "b", "c"]),
            ],
            o().with_compression(Some(Codec::Lz4Frame)),
        ),
        (
            vec![batch(&[Some(2), Some(1), Some(0)], &["c", "a", "z"])],
            o().with_compression(Some(Codec::Zstd)).with_alignment(64),
        ),
        (
            vec![batch(&[Some(4), Some(3)], &["a", "b", "c", "z", "w"])],
            o(),
        ),
    ];
    let mut files = Vec::new();
    for (k, (batches, options)) in grow.into_iter().enumerate() {
        let path = dir.join(format!("q_grow.{k}.arrow"));
        write_file(&path, &IpcSchema::new(schema.clone()), &batches, options);
        files.push(path);
    }
    // Nested dictionaries, extended from the first file to the second.
    let (nested_schema, batches) = dictionary_batches(false);
    let mut nested = Vec::new();
    for (k, (b, _)) in batches.iter().enumerate() {
        let path = dir.join(format!("q_nested.{k}.arrow"));
        write_file(
            &path,
            &IpcSchema::new(nested_schema.clone()),
            std::slice::from_ref(b),
            o(),
        );
        nested.push(path);
    }
    vec![("q_grow".into(), files), ("q_nested".into(), nested)]
}

/// What the report says each input did with its dictionaries: `field:action:added`.
fn summary(report: &IpcMergeReport) -> Vec<String> {
    let one = |d: &quiver_ipc::merge::DictionaryMerge| {
        format!("{}:{}:{}", d.field, d.action.name(), d.values_added)
    };
    (report.inputs.iter())
        .map(|i| i.dictionaries.iter().map(one).collect::<Vec<_>>().join(" "))
        .collect()
}

/// The report's dictionary decisions by scenario (every input listed).
const EXPECTED: &[(&str, &[&str])] = &[
    ("plain", &["", "", ""]),
    ("all_empty", &["", ""]),
    ("dict_empty_first", &["", "d:first:2"]),
    ("dict_same", &["d:first:3", "d:same:0"]),
    ("dict_extend", &["d:first:2", "d:delta:2", "d:same:0"]),
    ("dict_overlap", &["d:first:3", "d:unified:1", "d:unified:0"]),
    ("dict_disjoint", &["d:first:2", "d:unified:3"]),
    ("dict_nulls", &["d:first:3", "d:unified:1", "d:unified:1"]),
    ("dict_two", &["d:first:2 e:first:2", "d:same:0 e:unified:1"]),
    ("dict_list", &["l.item:first:2", "l.item:unified:1"]),
    ("dict_zstd", &["d:first:3", "d:unified:2"]),
    ("dict_lz4", &["d:first:2", "d:delta:1", "d:unified:0"]),
    ("q_grow", &["d:first:3", "d:unified:1", "d:delta:1"]),
    (
        "q_nested",
        &[
            "nested.item:first:3 d:first:2 nested:first:3",
            "nested.item:delta:1 d:delta:2 nested:same:0",
        ],
    ),
];

fn check_report(m: &Merged) {
    let r = &m.report;
    assert_eq!(r.inputs.len(), m.inputs.len(), "{}", m.name);
    for (i, p) in r.inputs.iter().zip(&m.inputs) {
        assert_eq!(i.name, p.display().to_string());
        assert_eq!(i.bytes, std::fs::metadata(p).unwrap().len());
        assert_eq!(
            i.batches,
            i.batches_verbatim + i.batches_reencoded,
            "{}",
            m.name
        );
        if i.dictionaries_unified == 0 {
            assert_eq!(
                i.batches_reencoded, 0,
                "{}: only unification re-encodes",
                m.name
            );
        }
    }
    let t = &r.totals;
    assert_eq!(t.inputs, m.inputs.len());
    assert_eq!(t.batches, r.inputs.iter().map(|i| i.batches).sum::<usize>());
    assert_eq!(t.rows, r.inputs.iter().map(|i| i.rows).sum::<u64>());
    if let Some((_, want)) = EXPECTED.iter().find(|(n, _)| *n == m.name) {
        assert_eq!(summary(r), *want, "{}", m.name);
    }
    let unified = r.inputs.iter().any(|i| i.dictionaries_unified > 0);
    let reencoded = r.totals.batches_reencoded > 0;
    if m.name.starts_with("dict_") || m.name.starts_with("q_") {
        // Every unification here changes some index of the batches.
        assert_eq!(unified, reencoded, "{}", m.name);
    }
}

/// Quiver reads the merged file (validating it in full) as the inputs' batches in order.
fn check_quiver(m: &Merged) {
    let mut merged = FileReader::from_bytes(read(&m.output)).unwrap();
    let mut j = 0;
    for (k, p) in m.inputs.iter().enumerate() {
        let mut input = FileReader::from_bytes(read(p)).unwrap();
        if k == 0 {
            assert_eq!(merged.schema(), input.schema(), "{}", m.name);
            assert_eq!(merged.custom_metadata(), input.custom_metadata());
        }
        for i in 0..input.num_batches() {
            let (a, b) = (merged.batch(j).unwrap(), input.batch(i).unwrap());
            assert_eq!(a.num_rows(), b.num_rows());
            for c in 0..a.num_columns() {
                assert!(
                    a.column(c) == b.column(c),
                    "{}: input {k} batch {i} column {c}",
                    m.name
                );
            }
            j += 1;
        }
    }
    assert_eq!(merged.num_batches(), j, "{}", m.name);
}

fn block(bytes: &[u8], b: &BlockInfo) -> Vec<u8> {
    let start = b.offset as usize;
    bytes[start..start + b.metadata_length as usize + b.body_length as usize].to_vec()
}

/// Verbatim batches are the inputs' messages byte for byte; a re-encoded batch keeps the
/// input's codec, nodes and every stored buffer except dictionary indices.
fn check_bytes(m: &Merged) {
    let out = std::fs::read(&m.output).unwrap();
    let layout = inspect_file(&out).unwrap();
    let mut blocks = layout.record_batches.iter();
    for (k, p) in m.inputs.iter().enumerate() {
        let bytes = std::fs::read(p).unwrap();
        let input = inspect_file(&bytes).unwrap();
        let mut same = 0;
        for b in &input.record_batches {
            let o = blocks.next().expect("as many batches as the inputs");
            assert_eq!(
                o.offset % 8,
                0,
                "{}: message offsets are 8-byte aligned",
                m.name
            );
            let (x, y) = (block(&bytes, b), block(&out, o));
            if x == y {
                same += 1;
                continue;
            }
            let (mi, mo) = (b.message.as_ref().unwrap(), o.message.as_ref().unwrap());
            assert_eq!(
                (mi.compression, &mi.nodes, mi.length),
                (mo.compression, &mo.nodes, mo.length)
            );
            assert_eq!(mi.custom_metadata, mo.custom_metadata);
            let body = |block: &[u8], meta: i32, (offset, len): (i64, i64)| {
                let s = meta as usize + offset as usize;
                block[s..s + len as usize].to_vec()
            };
            let mut indices = 0;
            for f in label_buffers(&input.schema, mi).unwrap() {
                for buf in f.buffers {
                    let before = body(&x, b.metadata_length, mi.buffers[buf.index]);
                    let after = body(&y, o.metadata_length, mo.buffers[buf.index]);
                    if buf.role == BufferRole::Fixed(BufferKind::Indices) {
                        indices += usize::from(before != after);
                    } else {
                        assert_eq!(
                            before, after,
                            "{}: input {k} {} {}",
                            m.name, f.path, buf.role
                        );
                    }
                }
            }
            assert!(
                indices > 0,
                "{}: a re-encoded batch with the same indices",
                m.name
            );
        }
        let r = &m.report.inputs[k];
        assert_eq!(
            (same, input.record_batches.len() - same),
            (r.batches_verbatim, r.batches_reencoded),
            "{}: input {k}",
            m.name
        );
    }
    assert!(
        blocks.next().is_none(),
        "{}: more batches than the inputs",
        m.name
    );
}

fn check_all(m: &Merged) {
    check_report(m);
    check_quiver(m);
    check_bytes(m);
}

#[test]
fn quiver_written_files_merge() {
    let dir = scratch("merge-quiver");
    for (name, inputs) in quiver_inputs(&dir) {
        check_all(&merge_files(&dir, &name, inputs));
    }
    cleanup(&dir);
}

/// Runs the pyarrow checker on every merge; returns its JSON lines by name.
fn pyarrow_check(dir: &Path, merged: &[Merged]) -> Vec<json_line::Line> {
    let manifest = dir.join("manifest.tsv");
    let mut text = String::new();
    for m in merged {
        let mut cols = vec![m.name.clone(), m.output.display().to_string()];
        cols.extend(m.inputs.iter().map(|p| p.display().to_string()));
        text.push_str(&cols.join("\t"));
        text.push('\n');
    }
    std::fs::write(&manifest, text).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/py/merge_check.py");
    let out = python(
        "merge_check.py",
        &[script.as_os_str(), manifest.as_os_str()],
    );
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(json_line::parse)
        .collect()
}

/// The few fields of the checker's JSON lines, parsed by hand (no JSON crate here).
mod json_line {
    #[derive(Debug)]
    pub(super) struct Line {
        pub name: String,
        pub ok: bool,
        pub text: String,
        pub batches: u64,
        pub rows: u64,
        pub deltas: u64,
    }

    fn number(line: &str, key: &str) -> u64 {
        let at = line
            .find(&format!("\"{key}\": "))
            .map(|i| i + key.len() + 4);
        at.map(|i| {
            line[i..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|s| s.parse().ok())
        .unwrap_or(u64::MAX)
    }

    pub(super) fn parse(line: &str) -> Line {
        let name_at = line.find("\"name\": \"").expect("a name") + 9;
        let name = line[name_at..].split('"').next().unwrap().to_string();
        Line {
            name,
            ok: line.contains("\"ok\": true"),
            text: line.to_string(),
            batches: number(line, "batches"),
            rows: number(line, "rows"),
            deltas: number(line, "dictionary_deltas"),
        }
    }
}

#[test]
fn merged_files_read_in_pyarrow_as_the_inputs_concatenated() {
    if !pyarrow_available() {
        return;
    }
    let dir = scratch("merge-pyarrow");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/py/merge_inputs.py");
    let listing = python("merge_inputs.py", &[script.as_os_str(), dir.as_os_str()]);
    let mut scenarios: Vec<(String, Vec<PathBuf>)> = String::from_utf8(listing)
        .unwrap()
        .lines()
        .map(|l| {
            let mut parts = l.split(' ');
            let name = parts.next().unwrap().to_string();
            (name, parts.map(PathBuf::from).collect())
        })
        .collect();
    assert!(scenarios.len() >= 17, "{scenarios:?}");
    // pyarrow's and quiver's files in one merge (same schema: `i` and the dictionary `d`).
    let quiver = quiver_inputs(&dir);
    let overlap = &scenarios
        .iter()
        .find(|(n, _)| n == "dict_overlap")
        .unwrap()
        .1;
    let mixed = vec![
        overlap[0].clone(),
        quiver[0].1[1].clone(),
        overlap[1].clone(),
        quiver[0].1[0].clone(),
    ];
    scenarios.extend(quiver);
    scenarios.push(("mixed_writers".into(), mixed));

    let merged: Vec<Merged> = (scenarios.into_iter())
        .map(|(name, inputs)| merge_files(&dir, &name, inputs))
        .collect();
    for m in &merged {
        check_all(m);
    }
    let meta = merged.iter().find(|m| m.name == "metadata").unwrap();
    let conflicts: Vec<_> = (meta.report.metadata_conflicts.iter())
        .map(|c| {
            (
                c.scope,
                c.key.as_str(),
                c.kept.as_deref(),
                c.dropped.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        conflicts,
        [
            (MetadataScope::Schema, "k", Some("1"), Some("2")),
            (MetadataScope::Schema, "only_first", Some("x"), None),
            (MetadataScope::Footer, "f", Some("1"), Some("2")),
            (MetadataScope::Footer, "g", None, Some("3")),
        ]
    );
    let lines = pyarrow_check(&dir, &merged);
    assert_eq!(lines.len(), merged.len());
    for (m, line) in merged.iter().zip(&lines) {
        assert_eq!(line.name, m.name);
        assert!(line.ok, "pyarrow: {}", line.text);
        assert_eq!(
            (line.batches, line.rows),
            (m.report.totals.batches as u64, m.report.totals.rows)
        );
        let deltas = (m.report.inputs.iter().flat_map(|i| &i.dictionaries))
            .filter(|d| d.action.name() != "first" && d.values_added > 0)
            .count() as u64;
        assert_eq!(line.deltas, deltas, "{}: delta dictionary batches", m.name);
    }
    cleanup(&dir);
}
