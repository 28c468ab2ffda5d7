//! `quiver meta`: the physical layout of an IPC file (footer blocks, each batch's rows,
//! buffers and compression, dictionary ids and delta flags) or stream (the message sequence),
//! as aligned plain text. The layout comes from [`quiver_ipc::inspect`]; this module only
//! renders it.

use anyhow::{Result, anyhow};
use quiver_arrow::display::{cell_width, format_field_type, format_type};
use quiver_arrow::{Field, FieldRef};
use quiver_ipc::inspect::{
    BlockInfo, BufferLabel, FieldLayout, FileLayout, Framing, MessageHeader, MessageInfo,
    StreamEnd, StreamLayout, StreamMessage, inspect_file, inspect_stream, label_buffers,
    metadata_version_name,
};
use quiver_ipc::{Endianness, IpcSchema};
use std::io::Write;

/// Prints the layout of the IPC file `bytes` (`path_label` names it). `verbose` adds, for
/// every block, its field nodes and labelled buffers. Fails, after printing, when the footer
/// cannot be read or some block cannot be inspected.
pub fn print_file_meta(
    bytes: &[u8],
    path_label: &str,
    verbose: bool,
    out: &mut dyn Write,
) -> Result<()> {
    let layout = inspect_file(bytes).map_err(|e| anyhow!("{path_label}: {e}"))?;
    file_header(&layout, path_label, out)?;
    dictionary_table(&layout.dictionaries, out)?;
    batch_table(&layout.record_batches, out)?;
    file_totals(&layout, out)?;
    if verbose {
        file_details(&layout, out)?;
    }
    let blocks = layout.dictionaries.iter().chain(&layout.record_batches);
    match blocks.filter(|b| b.message.is_err()).count() {
        0 => Ok(()),
        n => Err(anyhow!(
            "{path_label}: {} could not be inspected",
            plural(n, "block")
        )),
    }
}

/// Prints the messages of the IPC stream `bytes` in order, then how it ends. `verbose` adds
/// the field nodes and labelled buffers of every batch. A malformed message ends the listing:
/// what came before it is printed, then an error is returned.
pub fn print_stream_meta(
    bytes: &[u8],
    path_label: &str,
    verbose: bool,
    out: &mut dyn Write,
) -> Result<()> {
    let layout = inspect_stream(bytes);
    stream_header(&layout, bytes.len(), path_label, out)?;
    message_table(&layout.messages, out)?;
    stream_totals(&layout, out)?;
    if verbose {
        stream_details(&layout, out)?;
    }
    match &layout.end {
        StreamEnd::Error { offset, message } => Err(anyhow!(
            "{path_label}: malformed stream at offset {offset}: {message}"
        )),
        _ => Ok(()),
    }
}

fn file_header(layout: &FileLayout, label: &str, out: &mut dyn Write) -> Result<()> {
    writeln!(
        out,
        "file: {label}  ({} bytes)  format: Arrow IPC file, metadata {}{}",
        thousands(layout.file_size),
        metadata_version_name(layout.version),
        endianness_note(&layout.schema)
    )?;
    writeln!(
        out,
        "footer: offset {}, length {}; schema: {}; custom metadata: {} keys",
        thousands(layout.footer_offset),
        thousands(layout.footer_length),
        schema_summary(&layout.schema),
        layout.custom_metadata.len()
    )?;
    Ok(())
}

fn endianness_note(schema: &IpcSchema) -> &'static str {
    match schema.endianness {
        Endianness::Little => "",
        Endianness::Big => ", big-endian",
    }
}

fn schema_summary(schema: &IpcSchema) -> String {
    let dicts = schema.dictionaries.iter().count();
    let fields = plural(schema.schema.fields.len(), "field");
    match dicts {
        0 => fields,
        n => format!("{fields} ({})", plural(n, "dictionary-encoded field")),
    }
}

/// The footer, metadata and body cells of a block.
fn block_cells(i: usize, b: &BlockInfo) -> Vec<String> {
    vec![
        i.to_string(),
        thousands(b.offset),
        thousands(b.metadata_length),
        thousands(b.body_length),
    ]
}

fn dictionary_table(blocks: &[BlockInfo], out: &mut dyn Write) -> Result<()> {
    if blocks.is_empty() {
        writeln!(out, "dictionaries: none")?;
        return Ok(());
    }
    writeln!(out, "dictionaries ({}):", plural(blocks.len(), "block"))?;
    let header = [
        "#",
        "offset",
        "metadata",
        "body",
        "id",
        "delta",
        "rows",
        "compression",
    ];
    let rows = blocks.iter().enumerate().map(|(i, b)| {
        let mut row = block_cells(i, b);
        match &b.message {
            Ok(m) => row.extend([
                m.dictionary_id.map_or("-".into(), |id| id.to_string()),
                yes_no(m.is_delta).into(),
                thousands(m.length),
                compression(m),
            ]),
            Err(e) => row.push(format!("error: {e}")),
        }
        row
    });
    table(&header, rows.collect(), out)
}

fn batch_table(blocks: &[BlockInfo], out: &mut dyn Write) -> Result<()> {
    writeln!(out, "record batches ({}):", plural(blocks.len(), "block"))?;
    let header = [
        "#",
        "offset",
        "metadata",
        "body",
        "rows",
        "buffers",
        "compression",
    ];
    let rows = blocks.iter().enumerate().map(|(i, b)| {
        let mut row = block_cells(i, b);
        match &b.message {
            Ok(m) => row.extend([
                thousands(m.length),
                m.buffers.len().to_string(),
                compression(m),
            ]),
            Err(e) => row.push(format!("error: {e}")),
        }
        row
    });
    table(&header, rows.collect(), out)
}

fn file_totals(layout: &FileLayout, out: &mut dyn Write) -> Result<()> {
    let (batches, dicts) = (&layout.record_batches, &layout.dictionaries);
    let infos = |b: &'_ [BlockInfo]| -> Vec<MessageInfo> {
        b.iter().filter_map(|b| b.message.clone().ok()).collect()
    };
    writeln!(
        out,
        "total: {}, {}; {}",
        plural(batches.len(), "record batch"),
        totals(&infos(batches)),
        match dicts.len() {
            0 => "no dictionaries".to_string(),
            n => format!(
                "{}, {}",
                plural(n, "dictionary batch"),
                totals(&infos(dicts))
            ),
        }
    )?;
    Ok(())
}

/// `"N rows, M body bytes"` (and the uncompressed size when compressed) of some messages.
fn totals(infos: &[MessageInfo]) -> String {
    let rows: i64 = infos.iter().map(|m| m.length.max(0)).sum();
    let body: i64 = infos.iter().map(|m| m.body_length.max(0)).sum();
    let mut s = format!("{}, {} body bytes", plural(rows, "row"), thousands(body));
    if infos.iter().any(|m| m.compression.is_some()) {
        let raw = infos.iter().map(|m| match m.compression {
            None => u64::try_from(m.body_length).ok(),
            Some(_) => m.uncompressed_body_length(),
        });
        if let Some(raw) = raw.sum::<Option<u64>>() {
            s.push_str(&format!(" ({} uncompressed)", thousands(raw)));
        }
    }
    s
}

fn file_details(layout: &FileLayout, out: &mut dyn Write) -> Result<()> {
    for (i, b) in layout.dictionaries.iter().enumerate() {
        if let Ok(m) = &b.message {
            let id = m.dictionary_id.unwrap_or_default();
            let title = format!(
                "dictionary block {i} (id {id}, delta {})",
                yes_no(m.is_delta)
            );
            message_details(&title, &layout.schema, m, out)?;
        }
    }
    for (i, b) in layout.record_batches.iter().enumerate() {
        if let Ok(m) = &b.message {
            message_details(&format!("record batch {i}"), &layout.schema, m, out)?;
        }
    }
    Ok(())
}

/// The field nodes and buffers of one batch message, labelled by field.
fn message_details(
    title: &str,
    schema: &IpcSchema,
    m: &MessageInfo,
    out: &mut dyn Write,
) -> Result<()> {
    writeln!(
        out,
        "\n{title}: {} rows, {} body bytes, compression {}",
        thousands(m.length),
        thousands(m.body_length),
        compression(m)
    )?;
    let fields = match label_buffers(schema, m) {
        Ok(f) => f,
        Err(e) => return unlabelled(m, &e.to_string(), out),
    };
    let header = ["field", "type", "length", "nulls", "buffers"];
    let mut known = Vec::new();
    if m.dictionary_id.is_none() {
        preorder_fields(&schema.schema.fields, &mut known);
    }
    let rows = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let field = known.get(i).filter(|k| k.data_type() == &f.data_type);
            field_row(f, field.map(|k| &**k))
        })
        .collect();
    table(&header, rows, out)
}

/// The fields under `fields`, in the order a record batch's field nodes are labelled: each
/// field followed by the children of its type's layout.
fn preorder_fields(fields: &[FieldRef], out: &mut Vec<FieldRef>) {
    for f in fields {
        out.push(f.clone());
        let children: Vec<FieldRef> = f.data_type().layout().children.iter().cloned().collect();
        preorder_fields(&children, out);
    }
}

/// A node's row; its type spelled from `field` (extension types included) when known.
fn field_row(f: &FieldLayout, field: Option<&Field>) -> Vec<String> {
    let name = format!(
        "{}{}",
        "  ".repeat(f.depth),
        f.path.rsplit('.').next().unwrap_or("")
    );
    let buffers: Vec<String> = f.buffers.iter().map(buffer_cell).collect();
    vec![
        name,
        field.map_or_else(|| format_type(&f.data_type), format_field_type),
        thousands(f.length),
        thousands(f.null_count),
        if buffers.is_empty() {
            "-".into()
        } else {
            buffers.join("  ")
        },
    ]
}

/// `values [8, 28)`, with `→ n` (declared uncompressed length) or `raw` when compressed.
fn buffer_cell(b: &BufferLabel) -> String {
    let end = b.offset.saturating_add(b.length);
    let range = format!("{} [{}, {end})", b.role, b.offset);
    match b.uncompressed_length {
        Some(-1) => format!("{range} raw"),
        Some(n) => format!("{range} → {}", thousands(n)),
        None => range,
    }
}

/// The raw buffers of a message whose buffers could not be labelled.
fn unlabelled(m: &MessageInfo, why: &str, out: &mut dyn Write) -> Result<()> {
    writeln!(out, "  buffers not labelled: {why}")?;
    let nodes: Vec<String> = m.nodes.iter().map(|(l, n)| format!("({l}, {n})")).collect();
    writeln!(out, "  nodes (length, nulls): {}", nodes.join(" "))?;
    let buffers: Vec<String> = m
        .buffers
        .iter()
        .map(|(o, l)| format!("[{o}, +{l})"))
        .collect();
    writeln!(out, "  buffers: {}", buffers.join(" "))?;
    Ok(())
}

fn stream_header(
    layout: &StreamLayout,
    size: usize,
    label: &str,
    out: &mut dyn Write,
) -> Result<()> {
    let version = layout.messages.first().map(|m| m.info.version);
    let legacy = layout.messages.iter().any(|m| m.prefix == Framing::Legacy);
    writeln!(
        out,
        "stream: {label}  ({} bytes)  format: Arrow IPC stream, metadata {}{}{}",
        thousands(size),
        version.map_or("?".into(), metadata_version_name),
        layout.schema.as_ref().map_or("", endianness_note),
        if legacy {
            ", legacy framing (no continuation markers)"
        } else {
            ""
        }
    )?;
    match &layout.schema {
        Some(s) => writeln!(out, "schema: {}", schema_summary(s))?,
        None => writeln!(
            out,
            "schema: none (the stream does not start with a schema)"
        )?,
    }
    Ok(())
}

fn message_table(messages: &[StreamMessage], out: &mut dyn Write) -> Result<()> {
    writeln!(out, "messages ({}):", messages.len())?;
    let header = [
        "#",
        "offset",
        "kind",
        "metadata",
        "body",
        "rows",
        "buffers",
        "dict id",
        "delta",
        "compression",
        "notes",
    ];
    let rows = messages.iter().enumerate().map(|(i, m)| message_row(i, m));
    table(&header, rows.collect(), out)
}

fn message_row(i: usize, m: &StreamMessage) -> Vec<String> {
    let info = &m.info;
    let batch = matches!(
        info.header,
        MessageHeader::RecordBatch | MessageHeader::DictionaryBatch
    );
    let dash = || "-".to_string();
    let mut row = vec![
        i.to_string(),
        thousands(m.offset),
        info.header.to_string(),
        thousands(m.metadata_length),
        thousands(m.body_length),
    ];
    if batch {
        row.extend([
            thousands(info.length),
            info.buffers.len().to_string(),
            info.dictionary_id.map_or_else(dash, |id| id.to_string()),
            (info.dictionary_id).map_or_else(dash, |_| yes_no(info.is_delta).into()),
            compression(info),
        ]);
    } else {
        row.extend([dash(), dash(), dash(), dash(), dash()]);
    }
    row.push(notes(info));
    row
}

/// The field count of a schema and the custom metadata keys of any message.
fn notes(info: &MessageInfo) -> String {
    let fields = info.schema_fields.map(|n| plural(n, "field"));
    let keys = info.custom_metadata.len();
    let keys = (keys > 0).then(|| plural(keys, "metadata key"));
    let notes: Vec<String> = fields.into_iter().chain(keys).collect();
    notes.join(", ")
}

fn stream_totals(layout: &StreamLayout, out: &mut dyn Write) -> Result<()> {
    match &layout.end {
        StreamEnd::Marker(at) if layout.trailing_bytes > 0 => writeln!(
            out,
            "end: end-of-stream marker at offset {}, then {} trailing bytes",
            thousands(*at),
            thousands(layout.trailing_bytes)
        )?,
        StreamEnd::Marker(at) => writeln!(
            out,
            "end: end-of-stream marker at offset {}",
            thousands(*at)
        )?,
        StreamEnd::Eof => writeln!(out, "end: end of input (no end-of-stream marker)")?,
        StreamEnd::Error { offset, message } => writeln!(
            out,
            "end: error at offset {}: {message}",
            thousands(*offset)
        )?,
    }
    let of = |h: MessageHeader| -> Vec<MessageInfo> {
        let m = layout.messages.iter().filter(|m| m.info.header == h);
        m.map(|m| m.info.clone()).collect()
    };
    let (batches, dicts) = (
        of(MessageHeader::RecordBatch),
        of(MessageHeader::DictionaryBatch),
    );
    writeln!(
        out,
        "total: {}, {}; {}",
        plural(batches.len(), "record batch"),
        totals(&batches),
        plural(dicts.len(), "dictionary batch")
    )?;
    Ok(())
}

fn stream_details(layout: &StreamLayout, out: &mut dyn Write) -> Result<()> {
    let Some(schema) = &layout.schema else {
        writeln!(out, "\n(no schema: buffers not labelled)")?;
        return Ok(());
    };
    for (i, m) in layout.messages.iter().enumerate() {
        let title = match m.info.header {
            MessageHeader::RecordBatch => format!("message {i} (record batch)"),
            MessageHeader::DictionaryBatch => format!(
                "message {i} (dictionary id {}, delta {})",
                m.info.dictionary_id.unwrap_or_default(),
                yes_no(m.info.is_delta)
            ),
            _ => continue,
        };
        message_details(&title, schema, &m.info, out)?;
    }
    Ok(())
}

/// `none`, or the codec with the uncompressed body size when every prefix was readable.
fn compression(m: &MessageInfo) -> String {
    match (m.compression, m.uncompressed_body_length()) {
        (None, _) => "none".into(),
        (Some(c), Some(raw)) => format!("{c} → {}", thousands(raw)),
        (Some(c), None) => c.to_string(),
    }
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// `1 block`, `2 blocks`, `1 record batch`, `3 record batches` (any integer).
pub fn plural(n: impl std::fmt::Display, what: &str) -> String {
    let n = thousands(n);
    match (n.as_str(), what.ends_with("ch")) {
        ("1", _) => format!("1 {what}"),
        (_, true) => format!("{n} {what}es"),
        (_, false) => format!("{n} {what}s"),
    }
}

/// `1234567` → `1,234,567` (any integer).
pub fn thousands(n: impl std::fmt::Display) -> String {
    let text = n.to_string();
    let (sign, digits) = text.split_at(usize::from(text.starts_with('-')));
    let mut s = String::with_capacity(text.len() + digits.len() / 3);
    s.push_str(sign);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            s.push(',');
        }
        s.push(c);
    }
    s
}

/// Prints `rows` under `header` in columns two spaces apart, indented by two. The last cell
/// of a row is not padded and does not widen its column (error messages end short rows).
pub fn table(header: &[&str], rows: Vec<Vec<String>>, out: &mut dyn Write) -> Result<()> {
    let mut widths: Vec<usize> = header.iter().map(|h| cell_width(h)).collect();
    for row in &rows {
        for (w, cell) in widths
            .iter_mut()
            .zip(row.iter().take(row.len().saturating_sub(1)))
        {
            *w = (*w).max(cell_width(cell));
        }
    }
    let header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    for row in std::iter::once(&header).chain(&rows) {
        let mut line = String::from(" ");
        for (i, cell) in row.iter().enumerate() {
            let pad = if i + 1 < row.len() {
                widths.get(i).copied().unwrap_or(0)
            } else {
                0
            };
            let fill = pad.saturating_sub(cell_width(cell));
            line.push_str(&format!(" {cell}{} ", " ".repeat(fill)));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use quiver_arrow::{
        Array, DataType, DictionaryArray, Field, PrimitiveArray, RecordBatch, Schema, StringArray,
    };
    use quiver_ipc::Codec;
    use quiver_ipc::write::{FileWriter, StreamWriter, WriteOptions};
    use std::sync::Arc;

    /// Two batches: `i` (Int32) and `d` (dictionary of strings that grows: a delta).
    fn batches() -> Vec<RecordBatch> {
        let dt = DataType::dictionary(quiver_arrow::IntegerType::Int32, DataType::Utf8);
        let schema = Arc::new(Schema::new(vec![
            Field::new("i", DataType::Int32, true),
            Field::new("d", dt, true),
        ]));
        let words = |w: &[&str]| {
            Arc::new(Array::from(StringArray::from_options(
                w.iter().map(|s| Some(*s)),
            )))
        };
        let batch = |n: i32, w: &[&str]| {
            let i = Array::from(PrimitiveArray::<i32>::from_options((0..n).map(Some)));
            let keys = Array::from(PrimitiveArray::<i32>::from_options(
                (0..n).map(|k| Some(k % 2)),
            ));
            let d = DictionaryArray::try_new(keys, words(w), false).unwrap();
            RecordBatch::try_new(schema.clone(), vec![i, Array::from(d)]).unwrap()
        };
        vec![batch(3, &["a", "b"]), batch(1000, &["a", "b", "c"])]
    }

    fn options() -> WriteOptions {
        WriteOptions::default().with_compression(Some(Codec::Zstd))
    }

    fn file() -> Vec<u8> {
        let b = batches();
        let mut w = FileWriter::try_new(Vec::new(), b[0].schema().clone(), options()).unwrap();
        b.iter().for_each(|b| w.write(b).unwrap());
        w.finish().unwrap()
    }

    fn stream() -> Vec<u8> {
        let b = batches();
        let mut w = StreamWriter::try_new(Vec::new(), b[0].schema().clone(), options()).unwrap();
        b.iter().for_each(|b| w.write(b).unwrap());
        w.finish().unwrap()
    }

    fn render(
        f: fn(&[u8], &str, bool, &mut dyn Write) -> Result<()>,
        bytes: &[u8],
        verbose: bool,
    ) -> (String, Result<()>) {
        let mut out = Vec::new();
        let r = f(bytes, "t.arrow", verbose, &mut out);
        (String::from_utf8(out).unwrap(), r)
    }

    fn line_with<'a>(text: &'a str, start: &str) -> &'a str {
        text.lines()
            .find(|l| l.trim_start().starts_with(start))
            .unwrap_or_else(|| panic!("no line {start:?} in\n{text}"))
    }

    #[test]
    fn file_summary() {
        let (text, r) = render(print_file_meta, &file(), false);
        r.unwrap();
        assert!(text.starts_with("file: t.arrow  ("), "{text}");
        assert!(
            text.contains("format: Arrow IPC file, metadata V5"),
            "{text}"
        );
        assert!(
            text.contains("schema: 2 fields (1 dictionary-encoded field)"),
            "{text}"
        );
        assert!(text.contains("dictionaries (2 blocks):"), "{text}");
        assert!(text.contains("record batches (2 blocks):"), "{text}");
        let delta: Vec<&str> = line_with(&text, "1 ").split_whitespace().collect();
        assert_eq!(&delta[4..7], ["0", "yes", "1"], "{text}");
        let batch: Vec<&str> = text.lines().filter(|l| l.contains("ZSTD")).collect();
        assert_eq!(batch.len(), 4, "{text}");
        let last = line_with(&text, "total:");
        assert!(
            last.starts_with("total: 2 record batches, 1,003 rows,"),
            "{last}"
        );
        assert!(last.contains("2 dictionary batches, 3 rows"), "{last}");
    }

    #[test]
    fn file_details_label_buffers() {
        let (text, r) = render(print_file_meta, &file(), true);
        r.unwrap();
        assert!(text.contains("record batch 1: 1,000 rows"), "{text}");
        let i = text
            .lines()
            .rfind(|l| l.trim_start().starts_with("i "))
            .unwrap();
        assert!(
            i.contains("  int32  ") && i.contains("1,000") && i.contains("validity [0, 0)"),
            "{i}"
        );
        assert!(i.contains("values [") && i.contains("→ 4,000"), "{i}");
        assert!(
            text.contains("dictionary block 1 (id 0, delta yes)"),
            "{text}"
        );
    }

    #[test]
    fn stream_sequence_and_truncation() {
        let bytes = stream();
        let (text, r) = render(print_stream_meta, &bytes, false);
        r.unwrap();
        let kinds: Vec<&str> = text
            .lines()
            .filter_map(|l| l.split_whitespace().nth(2))
            .filter(|k| k.ends_with("Batch") || *k == "Schema")
            .collect();
        assert_eq!(
            kinds,
            [
                "Schema",
                "DictionaryBatch",
                "RecordBatch",
                "DictionaryBatch",
                "RecordBatch"
            ]
        );
        assert!(
            text.contains("end: end-of-stream marker at offset"),
            "{text}"
        );
        let (text, r) = render(print_stream_meta, &bytes[..bytes.len() - 30], true);
        let e = r.unwrap_err().to_string();
        assert!(e.contains("malformed stream at offset"), "{e}");
        assert!(
            text.contains("messages (4):") && text.contains("end: error at offset"),
            "{text}"
        );
    }

    #[test]
    fn corrupt_input_is_an_error_after_printing() {
        let mut bytes = file();
        let layout = inspect_file(&bytes).unwrap();
        let at = layout.record_batches[1].offset as usize;
        bytes[at + 8..at + 24].fill(0xAB);
        let (text, r) = render(print_file_meta, &bytes, true);
        assert!(
            r.unwrap_err()
                .to_string()
                .contains("1 block could not be inspected")
        );
        let bad = |l: &&str| l.trim_start().starts_with("1 ") && l.contains("error: ");
        assert_eq!(text.lines().filter(bad).count(), 1, "{text}");
        assert!(render(print_file_meta, b"ARROW1", false).1.is_err());
    }

    #[test]
    fn damaged_input_renders_without_panicking() {
        for bytes in [file(), stream()] {
            for i in (0..bytes.len()).step_by(3) {
                let mut damaged = bytes.clone();
                damaged[i] ^= 0xA5;
                let _ = render(print_file_meta, &damaged, true);
                let _ = render(print_stream_meta, &damaged, true);
                let _ = render(print_stream_meta, &bytes[..i], true);
            }
        }
    }

    #[test]
    fn numbers_and_words() {
        assert_eq!(thousands(1_234_567u32), "1,234,567");
        assert_eq!(thousands(-1000i64), "-1,000");
        assert_eq!(thousands(999u16), "999");
        assert_eq!(plural(2, "record batch"), "2 record batches");
        assert_eq!(plural(1, "block"), "1 block");
    }
}
