//! Merge errors name the input and what is wrong: schemas that differ (by field path),
//! inputs that are not IPC files, truncated or corrupt ones, invalid dictionary indices, and
//! what is not supported. No damaged input makes the merge panic.

use super::write_data::{dict, dictionary_batches, prim, words};
use bytes::Bytes;
use quiver_arrow::datatype::BufferKind;
use quiver_arrow::{DataType, Error, Field, RecordBatch, Schema, SchemaRef};
use quiver_ipc::inspect::{BufferRole, inspect_file, label_buffers};
use quiver_ipc::merge::{MergeInput, MergeOptions, merge};
use quiver_ipc::write::{FileWriter, StreamWriter, WriteOptions};
use quiver_ipc::{Codec, IpcSchema};
use std::sync::Arc;

fn file(schema: &SchemaRef, batches: &[RecordBatch], options: WriteOptions) -> Bytes {
    let mut w = FileWriter::try_new(Vec::new(), IpcSchema::new(schema.clone()), options).unwrap();
    for b in batches {
        w.write(b).unwrap();
    }
    Bytes::from(w.finish().unwrap())
}

fn run(inputs: &[(&str, Bytes)], options: &MergeOptions) -> Result<Vec<u8>, Error> {
    let inputs: Vec<MergeInput> = (inputs.iter())
        .map(|(n, b)| MergeInput::new(*n, b.clone()))
        .collect();
    merge(&inputs, Vec::new(), options).map(|(out, _)| out)
}

fn error(inputs: &[(&str, Bytes)]) -> String {
    run(inputs, &MergeOptions::new()).unwrap_err().to_string()
}

/// A struct column `s` {x, y: utf8} with `x` of type `x`.
fn struct_file(x: DataType) -> Bytes {
    let fields = vec![
        Field::new("x", x.clone(), true),
        Field::new("y", DataType::Utf8, true),
    ];
    let s = DataType::Struct(fields.into());
    let schema = Arc::new(Schema::new(vec![Field::new("s", s, true)]));
    file(&schema, &[], WriteOptions::new())
}

/// `i`, and `d`: Int8 indices `keys` into `values`.
fn dict_file(keys: &[i8], values: &[&str], options: WriteOptions) -> Bytes {
    let d = dict(
        prim(DataType::Int8, keys.iter().map(|&k| Some(k))),
        words(values),
        false,
    );
    let i = prim(DataType::Int64, (0..keys.len() as i64).map(Some));
    let schema = Arc::new(Schema::new(vec![
        Field::new("i", DataType::Int64, true),
        Field::new("d", d.data_type().clone(), true),
    ]));
    file(
        &schema,
        &[RecordBatch::try_new(schema.clone(), vec![i, d]).unwrap()],
        options,
    )
}

#[test]
fn differing_schemas_name_the_input_and_the_field() {
    let a = struct_file(DataType::Int32);
    let e = error(&[
        ("a.arrow", a.clone()),
        ("a2.arrow", a.clone()),
        ("b.arrow", struct_file(DataType::Int64)),
    ]);
    assert_eq!(
        e,
        "input \"b.arrow\": invalid argument: field s.x (column 0) differs from the first \
         input's: type int64 here but int32 there"
    );
    let keys = dict_file(&[0], &["a"], WriteOptions::new());
    let e = error(&[("a.arrow", a), ("d.arrow", keys)]);
    assert_eq!(
        e,
        "input \"d.arrow\": invalid argument: field s (column 0) differs from the first \
         input's: named \"i\" here but \"s\" there"
    );
}

#[test]
fn inputs_that_are_not_ipc_files_are_named() {
    let good = dict_file(&[0], &["a"], WriteOptions::new());
    let csv = Bytes::from_static(b"a,b,c\n1,2,3\n4,5,6\n7,8,9\n");
    assert_eq!(
        error(&[("a.arrow", good.clone()), ("x.csv", csv)]),
        "input \"x.csv\": the file does not start with ARROW1"
    );
    let tiny = Bytes::from_static(b"ARROW1");
    assert_eq!(
        error(&[("t.arrow", tiny)]),
        "input \"t.arrow\": a file of 6 bytes is too small to be an Arrow file"
    );
    let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int8, true)]));
    let w = StreamWriter::try_new(Vec::new(), schema, WriteOptions::new()).unwrap();
    let stream = Bytes::from(w.finish().unwrap());
    let e = error(&[("a.arrow", good), ("s.arrows", stream)]);
    assert!(
        e.starts_with("input \"s.arrows\": invalid argument: this is an IPC stream"),
        "{e}"
    );
    let e = run(&[], &MergeOptions::new()).unwrap_err();
    assert!(matches!(e, Error::InvalidArgument { .. }), "{e}");
}

#[test]
fn truncated_and_corrupt_inputs_are_errors_naming_the_input() {
    let good = dict_file(&[0, 1, 1], &["a", "b"], WriteOptions::new());
    for cut in [good.len() - 1, good.len() / 2, 20] {
        let e = error(&[("a.arrow", good.clone()), ("t.arrow", good.slice(..cut))]);
        assert_eq!(
            e, "input \"t.arrow\": the file does not end with ARROW1",
            "cut at {cut}"
        );
    }
    // The record batch's metadata flatbuffer overwritten.
    let layout = inspect_file(&good).unwrap();
    let at = layout.record_batches[0].offset as usize + 8;
    let mut bad = good.to_vec();
    bad[at..at + 16].fill(0xFF);
    let e = error(&[("a.arrow", good.clone()), ("c.arrow", Bytes::from(bad))]);
    assert!(
        e.starts_with("input \"c.arrow\", record batch 0: invalid message metadata flatbuffer"),
        "{e}"
    );
}

/// `bytes` with the first dictionary index of the record batch of `dict_file` set to `to`.
fn patch_first_index(bytes: &Bytes, to: u8) -> Bytes {
    let layout = inspect_file(bytes).unwrap();
    let block = &layout.record_batches[0];
    let info = block.message.as_ref().unwrap();
    let fields = label_buffers(&layout.schema, info).unwrap();
    let d = fields.iter().find(|f| f.path == "d").unwrap();
    let indices = d
        .buffers
        .iter()
        .find(|b| b.role == BufferRole::Fixed(BufferKind::Indices))
        .unwrap();
    let at = block.offset as usize + block.metadata_length as usize + indices.offset as usize;
    let mut out = bytes.to_vec();
    out[at] = to;
    Bytes::from(out)
}

#[test]
fn invalid_indices_are_copied_unless_validated_or_remapped() {
    let good = dict_file(&[0, 1, 1], &["a", "b"], WriteOptions::new());
    let bad = patch_first_index(&good, 9);
    // Checked but not decoded: copied as it is.
    run(
        &[("a.arrow", good.clone()), ("bad.arrow", bad.clone())],
        &MergeOptions::new(),
    )
    .unwrap();
    let full = MergeOptions::new().with_full_validation(true);
    let e = run(&[("a.arrow", good), ("bad.arrow", bad.clone())], &full).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("input \"bad.arrow\", record batch 0"),
        "{e}"
    );
    assert!(e.to_string().contains("9"), "{e}");
    // Remapped after a differing dictionary: the index is looked up and found wanting.
    let other = dict_file(&[0], &["b", "a"], WriteOptions::new());
    let e = error(&[("o.arrow", other), ("bad.arrow", bad)]);
    assert_eq!(
        e,
        "input \"bad.arrow\", record batch 0, field d: index 0 is 9 but the input's \
         dictionary has 2 values"
    );
}

#[test]
fn unifying_nested_dictionaries_is_not_supported() {
    let (schema, batches) = dictionary_batches(true);
    let one = |i: usize| {
        file(
            &schema,
            std::slice::from_ref(&batches[i].0),
            WriteOptions::new(),
        )
    };
    let e = run(
        &[("a.arrow", one(0)), ("b.arrow", one(2))],
        &MergeOptions::new(),
    )
    .unwrap_err();
    assert!(matches!(e, Error::NotSupported { .. }), "{e}");
    assert!(
        e.to_string()
            .starts_with("input \"b.arrow\", dictionary 2 (field nested.item): not supported: "),
        "{e}"
    );
    // Unifying would exceed the Int8 indices.
    let many: Vec<String> = (0..100).map(|i| format!("v{i}")).collect();
    let others: Vec<String> = (0..100).map(|i| format!("w{i}")).collect();
    fn refs(v: &[String]) -> Vec<&str> {
        v.iter().map(String::as_str).collect()
    }
    let a = dict_file(&[0], &refs(&many), WriteOptions::new());
    let b = dict_file(&[99], &refs(&others), WriteOptions::new());
    let e = run(&[("a.arrow", a), ("b.arrow", b)], &MergeOptions::new()).unwrap_err();
    assert!(matches!(e, Error::Overflow { .. }), "{e}");
    assert!(
        e.to_string()
            .starts_with("input \"b.arrow\", dictionary 0 (field d)"),
        "{e}"
    );
}

#[test]
fn no_damaged_input_panics() {
    let good = dict_file(
        &[0, 1, 1, 0],
        &["a", "b"],
        WriteOptions::new().with_compression(Some(Codec::Lz4Frame)),
    );
    let (mut ok, mut failed) = (0, 0);
    let mut check = |bad: Vec<u8>| match run(
        &[("a.arrow", good.clone()), ("bad.arrow", Bytes::from(bad))],
        &MergeOptions::new(),
    ) {
        Ok(_) => ok += 1,
        Err(e) => {
            assert!(e.to_string().starts_with("input \"bad.arrow\""), "{e}");
            failed += 1;
        }
    };
    for i in 0..good.len() {
        let mut bad = good.to_vec();
        bad[i] ^= 0xA5;
        check(bad);
        if i % 5 == 0 {
            check(good[..i].to_vec());
        }
    }
    assert!(ok > 0 && failed > 0, "{ok} merged, {failed} failed");
}
