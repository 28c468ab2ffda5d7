//! The footer of an IPC file and the message found at each of its blocks.

use super::{MessageHeader, MessageInfo, message_with_body};
use crate::fb::org::apache::arrow::flatbuf as fb;
use crate::message::{Prefix, parse_prefix, verifier_options};
use crate::schema::{IpcSchema, metadata_from_fb, schema_from_fb};
use quiver_arrow::{Error, Metadata, Result};
use std::ops::Range;

/// The magic bytes at both ends of a file.
const MAGIC: &[u8; 6] = b"ARROW1";
/// Magic and padding before the stream.
const HEAD: usize = 8;
/// Footer length and magic after the footer.
const TAIL: usize = 10;

/// One footer block and the message found at its offset.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockInfo {
    /// Offset of the message prefix in the file.
    pub offset: i64,
    /// Bytes of prefix and metadata flatbuffer (with padding), as the block says.
    pub metadata_length: i32,
    /// Bytes of body after the metadata, as the block says.
    pub body_length: i64,
    /// The message at `offset`, or why it could not be inspected (the block lies outside the
    /// file, the message is malformed, of the wrong kind or disagrees with the block).
    pub message: std::result::Result<MessageInfo, String>,
}

/// The physical layout of an IPC file.
#[derive(Clone, Debug, PartialEq)]
pub struct FileLayout {
    /// Size of the file in bytes.
    pub file_size: u64,
    /// Where the footer flatbuffer starts.
    pub footer_offset: u64,
    /// Length of the footer flatbuffer.
    pub footer_length: u32,
    /// The footer's metadata version as stored (`4` is V5; see
    /// [`metadata_version_name`](super::metadata_version_name)).
    pub version: i16,
    /// The footer's schema.
    pub schema: IpcSchema,
    /// Dictionary batch blocks, in footer order.
    pub dictionaries: Vec<BlockInfo>,
    /// Record batch blocks, in footer order.
    pub record_batches: Vec<BlockInfo>,
    /// The footer's custom metadata.
    pub custom_metadata: Metadata,
}

/// Inspects a whole IPC file: checks both magic strings, parses the footer, then inspects the
/// message at every block. Fails only when the footer cannot be read (a missing magic, a
/// footer length outside the file, an invalid footer flatbuffer or schema); a bad block is
/// reported in its [`BlockInfo::message`].
pub fn inspect_file(bytes: &[u8]) -> Result<FileLayout> {
    let range = footer_range(bytes)?;
    let footer =
        flatbuffers::root_with_opts::<fb::Footer>(&verifier_options(), &bytes[range.clone()])
            .map_err(|e| crate::message::flatbuffer_error("footer", &e))?;
    let schema = footer
        .schema()
        .ok_or_else(|| Error::oos("the footer has no schema"))
        .and_then(schema_from_fb)
        .map_err(|e| e.context("footer"))?;
    let mut budget = bytes.len();
    let mut blocks = |v: Option<flatbuffers::Vector<'_, fb::Block>>, kind| {
        (v.into_iter().flatten())
            .map(|b| inspect_block(bytes, b, range.start, kind, &mut budget))
            .collect()
    };
    Ok(FileLayout {
        file_size: bytes.len() as u64,
        footer_offset: range.start as u64,
        footer_length: (range.end - range.start) as u32,
        version: footer.version().0,
        dictionaries: blocks(footer.dictionaries(), MessageHeader::DictionaryBatch),
        record_batches: blocks(footer.recordBatches(), MessageHeader::RecordBatch),
        custom_metadata: metadata_from_fb(footer.custom_metadata()),
        schema,
    })
}

/// Checks the magic bytes at both ends; returns the byte range of the footer flatbuffer.
fn footer_range(bytes: &[u8]) -> Result<Range<usize>> {
    let n = bytes.len();
    if n < HEAD + TAIL {
        return Err(Error::oos(format!(
            "a file of {n} bytes is too small to be an Arrow file"
        )));
    }
    if &bytes[..MAGIC.len()] != MAGIC {
        return Err(Error::oos("the file does not start with ARROW1"));
    }
    if &bytes[n - MAGIC.len()..] != MAGIC {
        return Err(Error::oos("the file does not end with ARROW1"));
    }
    let tail = &bytes[n - TAIL..n - MAGIC.len()];
    let len = i32::from_le_bytes(tail.try_into().expect("4 bytes")); // ok: the range is TAIL - MAGIC.len() = 4 bytes.
    match usize::try_from(len) {
        Ok(len) if len <= n - HEAD - TAIL => Ok(n - TAIL - len..n - TAIL),
        _ => Err(Error::oos(format!(
            "footer length {len} does not fit in the file of {n} bytes"
        ))),
    }
}

/// The message of one block, checked to lie between the leading magic and the footer.
/// `budget` is the metadata bytes still allowed to be parsed: blocks of a valid file do not
/// overlap, so all their metadata fits in the file; overlapping blocks cannot make the
/// inspection parse (and allocate for) the same large message over and over.
fn inspect_block(
    bytes: &[u8],
    b: &fb::Block,
    footer_start: usize,
    kind: MessageHeader,
    budget: &mut usize,
) -> BlockInfo {
    let message = block_ranges(b, footer_start).and_then(|(meta, body)| {
        *budget = budget.checked_sub(meta.len()).ok_or_else(|| {
            "not inspected: the blocks overlap (their metadata exceeds the file size)".to_string()
        })?;
        block_message(&bytes[meta], &bytes[body], b.bodyLength(), kind)
    });
    BlockInfo {
        offset: b.offset(),
        metadata_length: b.metaDataLength(),
        body_length: b.bodyLength(),
        message,
    }
}

/// The metadata and body ranges of a block, checked against `[HEAD, footer_start)`.
fn block_ranges(
    b: &fb::Block,
    footer_start: usize,
) -> std::result::Result<(Range<usize>, Range<usize>), String> {
    let (offset, meta, body) = (b.offset(), b.metaDataLength(), b.bodyLength());
    let outside = || {
        format!(
            "block at offset {offset} with metadata length {meta} and body length {body} is \
             outside bytes [{HEAD}..{footer_start}) of the file"
        )
    };
    let start = usize::try_from(offset).map_err(|_| outside())?;
    let meta_len = usize::try_from(meta).map_err(|_| outside())?;
    let body_len = usize::try_from(body).map_err(|_| outside())?;
    let meta_end = start.checked_add(meta_len).ok_or_else(outside)?;
    let end = meta_end.checked_add(body_len).ok_or_else(outside)?;
    if start < HEAD || end > footer_start || meta_len == 0 {
        return Err(outside());
    }
    Ok((start..meta_end, meta_end..end))
}

/// Inspects the framed message in `meta` (prefix + flatbuffer) with body `body`.
fn block_message(
    meta: &[u8],
    body: &[u8],
    body_length: i64,
    kind: MessageHeader,
) -> std::result::Result<MessageInfo, String> {
    let (prefix_len, metadata_len) = match parse_prefix(meta).map_err(|e| e.to_string())? {
        Some(Prefix::Message {
            prefix_len,
            metadata_len,
        }) => (prefix_len, metadata_len),
        Some(Prefix::EndOfStream { .. }) => {
            return Err("the block points at an end-of-stream marker".into());
        }
        None => return Err(format!("block metadata length {} is too short", meta.len())),
    };
    let flatbuffer = prefix_len
        .checked_add(metadata_len)
        .and_then(|end| meta.get(prefix_len..end))
        .ok_or_else(|| {
            format!(
                "message metadata of {metadata_len} bytes does not fit in the block's {}",
                meta.len()
            )
        })?;
    let info = message_with_body(flatbuffer, body).map_err(|e| e.to_string())?;
    if info.header != kind {
        return Err(format!("expected a {kind} message, found {}", info.header));
    }
    if info.body_length != body_length {
        return Err(format!(
            "the message declares a body of {} bytes but the block says {body_length}",
            info.body_length
        ));
    }
    Ok(info)
}
