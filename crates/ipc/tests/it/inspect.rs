//! `quiver_ipc::inspect` against the reader: gold files and streams, files our writers made
//! with dictionary deltas, truncated streams, and malformed input (which must never panic).

use super::read_common::ipc_stream_dir;
use super::write_data::dictionary_batches;
use bytes::Bytes;
use quiver_ipc::inspect::{
    BlockInfo, FileLayout, Framing, MessageHeader, StreamEnd, StreamLayout, inspect_file,
    inspect_stream, label_buffers,
};
use quiver_ipc::read::{FileReader, StreamReader};
use quiver_ipc::write::{FileWriter, StreamWriter, WriteOptions};
use quiver_ipc::{Codec, IpcSchema};
use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// Every gold file of the integration folders with extension `ext`, sorted.
fn gold(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for folder in std::fs::read_dir(dir.join("integration")).expect("folder") {
        let folder = folder.expect("entry").path();
        if !folder.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&folder).expect("folder") {
            let f = f.expect("entry").path();
            if f.extension().is_some_and(|e| e == ext) {
                out.push(f);
            }
        }
    }
    out.sort();
    out
}

/// The codec the `2.0.0-compression` gold files use, from their name.
fn expected_codec(path: &Path) -> Option<Codec> {
    let name = path.to_string_lossy();
    if !name.contains("2.0.0-compression") {
        None
    } else if name.contains("zstd") {
        Some(Codec::Zstd)
    } else {
        Some(Codec::Lz4Frame)
    }
}

/// Checks a file's layout against what `FileReader` reads.
fn check_file(path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let layout = inspect_file(&bytes).map_err(|e| format!("inspect: {e}"))?;
    let mut reader = FileReader::from_bytes(Bytes::from(bytes)).map_err(|e| e.to_string())?;
    let counts = (layout.dictionaries.len(), layout.record_batches.len());
    let want = (reader.num_dictionary_batches(), reader.num_batches());
    if counts != want {
        return Err(format!("blocks {counts:?}, reader {want:?}"));
    }
    if layout.schema != *reader.ipc_schema() {
        return Err("schemas differ".into());
    }
    for (i, block) in layout.record_batches.iter().enumerate() {
        let info = block
            .message
            .as_ref()
            .map_err(|e| format!("batch {i}: {e}"))?;
        let rows = reader.batch(i).map_err(|e| e.to_string())?.num_rows();
        if info.length != rows as i64 {
            return Err(format!("batch {i}: {} rows, reader {rows}", info.length));
        }
    }
    check_blocks(&layout, expected_codec(path))
}

/// Every block decodes, is labelled, uses a dictionary id of the schema (never as a delta in
/// the gold files) and has the expected compression.
fn check_blocks(layout: &FileLayout, codec: Option<Codec>) -> Result<(), String> {
    let ids: BTreeSet<i64> = layout
        .schema
        .dictionaries
        .iter()
        .map(|(_, id)| id)
        .collect();
    let blocks = layout.dictionaries.iter().chain(&layout.record_batches);
    for (i, block) in blocks.enumerate() {
        let info = block
            .message
            .as_ref()
            .map_err(|e| format!("block {i}: {e}"))?;
        label_buffers(&layout.schema, info).map_err(|e| format!("block {i} labels: {e}"))?;
        if let Some(id) = info.dictionary_id
            && (!ids.contains(&id) || info.is_delta)
        {
            return Err(format!(
                "block {i}: dictionary {id}, delta {}",
                info.is_delta
            ));
        }
        if info.compression != codec {
            return Err(format!("block {i}: compression {:?}", info.compression));
        }
        let prefixes = info.uncompressed_lengths.len();
        if codec.is_some() && prefixes != info.buffers.len() {
            return Err(format!("block {i}: {prefixes} length prefixes"));
        }
    }
    Ok(())
}

#[test]
fn gold_files_match_the_reader() {
    let Some(dir) = ipc_stream_dir() else { return };
    let files = gold(&dir, "arrow_file");
    assert!(files.len() > 50, "{} gold files", files.len());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| check_file(f).err().map(|e| format!("{}: {e}", f.display())))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn gold_dictionary_files_name_their_ids() {
    let Some(dir) = ipc_stream_dir() else { return };
    let path = dir.join("integration/1.0.0-littleendian/generated_dictionary.arrow_file");
    let layout = inspect_file(&std::fs::read(path).unwrap()).unwrap();
    let ids: Vec<(i64, bool)> = layout
        .dictionaries
        .iter()
        .map(|b| info_of(b).dictionary_id.map(|id| (id, info_of(b).is_delta)))
        .collect::<Option<_>>()
        .unwrap();
    assert_eq!(ids, [(0, false), (1, false), (2, false)]);
}

fn info_of(b: &BlockInfo) -> &quiver_ipc::inspect::MessageInfo {
    b.message.as_ref().expect("block decodes")
}

/// Checks a stream's layout against what `StreamReader` reads.
fn check_stream(path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let layout = inspect_stream(&bytes);
    if !matches!(layout.end, StreamEnd::Marker(_)) || layout.trailing_bytes != 0 {
        return Err(format!(
            "end {:?}, {} trailing",
            layout.end, layout.trailing_bytes
        ));
    }
    let headers: Vec<MessageHeader> = layout.messages.iter().map(|m| m.info.header).collect();
    if headers.first() != Some(&MessageHeader::Schema) {
        return Err(format!("messages {headers:?}"));
    }
    let reader = StreamReader::try_new(&bytes[..]).map_err(|e| e.to_string())?;
    let rows: Vec<i64> = reader
        .map(|b| b.map(|b| b.num_rows() as i64))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let batches = layout
        .messages
        .iter()
        .filter(|m| m.info.header == MessageHeader::RecordBatch);
    let inspected: Vec<i64> = batches.map(|m| m.info.length).collect();
    if rows != inspected {
        return Err(format!("rows {inspected:?}, reader {rows:?}"));
    }
    check_messages(&layout, expected_codec(path))
}

/// Every batch of a stream is labelled, with offsets increasing and the expected compression.
fn check_messages(layout: &StreamLayout, codec: Option<Codec>) -> Result<(), String> {
    let schema = layout.schema.as_ref().ok_or("no schema")?;
    let mut next = 0;
    for (i, m) in layout.messages.iter().enumerate() {
        if m.offset < next {
            return Err(format!("message {i} at {} overlaps", m.offset));
        }
        next = m.offset + (m.prefix.prefix_len() + m.metadata_length + m.body_length) as u64;
        label_buffers(schema, &m.info).map_err(|e| format!("message {i} labels: {e}"))?;
        if i > 0 && m.info.compression != codec {
            return Err(format!("message {i}: compression {:?}", m.info.compression));
        }
    }
    match layout.end {
        StreamEnd::Marker(at) if at == next => Ok(()),
        ref end => Err(format!("end {end:?}, last message ends at {next}")),
    }
}

#[test]
fn gold_streams_match_the_reader() {
    let Some(dir) = ipc_stream_dir() else { return };
    let streams = gold(&dir, "stream");
    assert!(streams.len() > 50, "{} gold streams", streams.len());
    let failures: Vec<String> = streams
        .iter()
        .filter_map(|f| {
            check_stream(f)
                .err()
                .map(|e| format!("{}: {e}", f.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn truncated_streams_keep_their_good_part() {
    let Some(dir) = ipc_stream_dir() else { return };
    let path = dir.join("integration/1.0.0-littleendian/generated_dictionary.stream");
    let bytes = std::fs::read(path).unwrap();
    let full = inspect_stream(&bytes);
    let StreamEnd::Marker(eos) = full.end else {
        panic!("{:?}", full.end)
    };
    for cut in 0..eos as usize {
        let part = inspect_stream(&bytes[..cut]);
        let whole = full.messages.iter().filter(|m| {
            m.offset as usize + m.prefix.prefix_len() + m.metadata_length + m.body_length <= cut
        });
        assert_eq!(
            part.messages,
            whole.cloned().collect::<Vec<_>>(),
            "cut at {cut}"
        );
        let at_boundary =
            full.messages.iter().any(|m| m.offset as usize == cut) || cut == eos as usize;
        match &part.end {
            StreamEnd::Eof => assert!(at_boundary || cut == 0, "cut at {cut}"),
            StreamEnd::Error { offset, message } => {
                assert!(!at_boundary, "cut at {cut}: {message}");
                assert!(
                    *offset as usize <= cut && message.contains("input ends"),
                    "{message}"
                );
            }
            StreamEnd::Marker(_) => panic!("cut at {cut}: marker"),
        }
    }
}

/// Dictionary messages as `id:dict` / `id:delta`, record batches as `batch`.
fn dictionary_summary<'a>(
    infos: impl Iterator<Item = &'a quiver_ipc::inspect::MessageInfo>,
) -> String {
    let one = |i: &quiver_ipc::inspect::MessageInfo| match i.dictionary_id {
        Some(id) if i.is_delta => format!("{id}:delta"),
        Some(id) => format!("{id}:dict"),
        None => "batch".into(),
    };
    infos.map(one).collect::<Vec<_>>().join(" ")
}

#[test]
fn written_deltas_are_reported() {
    let (schema, batches) = dictionary_batches(false);
    let options = WriteOptions::default().with_dictionary_deltas(true);
    let mut f = FileWriter::try_new(Vec::new(), schema.clone(), options.clone()).unwrap();
    let mut s = StreamWriter::try_new(Vec::new(), schema.clone(), options).unwrap();
    for (b, _) in &batches {
        f.write(b).unwrap();
        s.write(b).unwrap();
    }
    let file = inspect_file(&f.finish().unwrap()).unwrap();
    let dicts = dictionary_summary(file.dictionaries.iter().map(info_of));
    assert_eq!(dicts, "0:dict 2:dict 1:dict 0:delta 2:delta");
    assert_eq!(file.schema, IpcSchema::new(schema));
    let stream = inspect_stream(&s.finish().unwrap());
    let messages = dictionary_summary(stream.messages[1..].iter().map(|m| &m.info));
    assert_eq!(messages, "0:dict 2:dict 1:dict batch 0:delta 2:delta batch");
    check_messages(&stream, None).unwrap();
    check_blocks_allowing_deltas(&file);
}

/// Every block of `layout` is labelled against the schema.
fn check_blocks_allowing_deltas(layout: &FileLayout) {
    for b in layout.dictionaries.iter().chain(&layout.record_batches) {
        let fields = label_buffers(&layout.schema, info_of(b)).unwrap();
        assert!(!fields.is_empty());
    }
}

#[test]
fn legacy_streams_say_so() {
    let Some(dir) = ipc_stream_dir() else { return };
    let path = dir.join("integration/0.14.1/generated_primitive.stream");
    let layout = inspect_stream(&std::fs::read(path).unwrap());
    assert!(layout.messages.iter().all(|m| m.prefix == Framing::Legacy));
}

/// Runs every inspection on `bytes`; `Err` when one panicked.
fn inspect_every_way(bytes: &[u8]) -> Result<(), String> {
    catch_unwind(AssertUnwindSafe(|| {
        let stream = inspect_stream(bytes);
        if let Some(schema) = &stream.schema {
            stream
                .messages
                .iter()
                .for_each(|m| drop(label_buffers(schema, &m.info)));
        }
        if let Ok(file) = inspect_file(bytes) {
            let blocks = file.dictionaries.iter().chain(&file.record_batches);
            for info in blocks.filter_map(|b| b.message.as_ref().ok()) {
                let _ = label_buffers(&file.schema, info);
            }
        }
    }))
    .map_err(|_| "panicked".to_string())
}

#[test]
fn malformed_input_never_panics() {
    let Some(dir) = ipc_stream_dir() else { return };
    let mut inputs: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .expect("folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_file() && p.extension().is_none_or(|e| e != "md"))
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    assert!(inputs.len() > 40, "{} fuzz files", inputs.len());
    for name in [
        "1.0.0-littleendian/generated_nested_dictionary",
        "2.0.0-compression/generated_zstd",
    ] {
        for ext in ["stream", "arrow_file"] {
            let path = dir.join("integration").join(format!("{name}.{ext}"));
            let bytes = std::fs::read(&path).unwrap();
            inputs.extend(
                mutants(&bytes, 300).map(|(k, m)| (format!("{} mutant {k}", path.display()), m)),
            );
        }
    }
    let failures: Vec<String> = inputs
        .iter()
        .filter_map(|(n, b)| inspect_every_way(b).err().map(|e| format!("{n}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `count` copies of `bytes`, each with a few bytes overwritten (fixed-seed xorshift), every
/// tenth also truncated.
fn mutants(bytes: &[u8], count: usize) -> impl Iterator<Item = (usize, Vec<u8>)> {
    let mut state = 0x2545_F491_4F6C_DD1Du64 ^ bytes.len() as u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let bytes = bytes.to_vec();
    (0..count).map(move |k| {
        let mut m = bytes.clone();
        for _ in 0..1 + next() % 4 {
            let i = (next() % m.len() as u64) as usize;
            m[i] = next() as u8;
        }
        if k % 10 == 0 {
            m.truncate((next() % m.len() as u64) as usize);
        }
        (k, m)
    })
}

/// Record batch rows of each file as pyarrow reads them (one line per file: the row counts),
/// or `None` (skip, with a message) when `python3` cannot import pyarrow outside CI.
fn pyarrow_rows(paths: &[PathBuf]) -> Option<Vec<String>> {
    const SCRIPT: &str = "import sys, pyarrow.ipc as ipc\n\
        for p in sys.argv[1:]:\n    \
            f = ipc.open_file(p)\n    \
            print(' '.join(str(f.get_batch(i).num_rows) for i in range(f.num_record_batches)))";
    if !super::write_pyarrow::pyarrow_available() {
        return None;
    }
    let mut args = vec!["-c".as_ref(), SCRIPT.as_ref()];
    args.extend(paths.iter().map(|p| p.as_os_str()));
    let out = super::write_pyarrow::python("the row-count script", &args);
    Some(
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(String::from)
            .collect(),
    )
}

#[test]
fn block_rows_agree_with_pyarrow() {
    let Some(dir) = ipc_stream_dir() else { return };
    let files = gold(&dir, "arrow_file");
    let Some(expected) = pyarrow_rows(&files) else {
        return;
    };
    assert_eq!(expected.len(), files.len());
    for (path, want) in files.iter().zip(expected) {
        let layout = inspect_file(&std::fs::read(path).unwrap()).unwrap();
        let rows: Vec<String> = (layout.record_batches.iter())
            .map(|b| info_of(b).length.to_string())
            .collect();
        assert_eq!(rows.join(" "), want, "{}", path.display());
    }
}
