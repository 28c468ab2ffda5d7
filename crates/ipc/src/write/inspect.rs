//! Test support: what a written message or file footer says, read back from the flatbuffers.
//! Not a reader (see [`crate::read`]); hidden from the documentation.

use crate::compression::Codec;
use crate::convert::{IpcSchema, metadata_from_fb, schema_from_fb};
use crate::fb::org::apache::arrow::flatbuf as fb;
use crate::message::verifier_options;
use quiver_arrow::{Error, Metadata, Result};

/// The fields of one `Message` flatbuffer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MessageInfo {
    /// Metadata version (`4` is V5).
    pub version: i16,
    /// `Schema`, `RecordBatch` or `DictionaryBatch`.
    pub header: String,
    /// Declared body length.
    pub body_length: i64,
    /// Message-level custom metadata.
    pub custom_metadata: Metadata,
    /// Record batch length (rows).
    pub length: i64,
    /// (length, null count) of every field node.
    pub nodes: Vec<(i64, i64)>,
    /// (offset, length) of every buffer.
    pub buffers: Vec<(i64, i64)>,
    /// `variadicBufferCounts`.
    pub variadic_counts: Vec<i64>,
    /// The body compression codec.
    pub compression: Option<Codec>,
    /// Dictionary batches: the id.
    pub dictionary_id: Option<i64>,
    /// Dictionary batches: the delta flag.
    pub is_delta: bool,
}

/// Parses a `Message` flatbuffer (padding after it allowed).
pub fn inspect_message(metadata: &[u8]) -> Result<MessageInfo> {
    let m = flatbuffers::root_with_opts::<fb::Message>(&verifier_options(), metadata)
        .map_err(|e| Error::oos(format!("invalid message flatbuffer: {e}")))?;
    let mut info = MessageInfo {
        version: m.version().0,
        body_length: m.bodyLength(),
        custom_metadata: metadata_from_fb(m.custom_metadata()),
        ..MessageInfo::default()
    };
    let batch = if let Some(d) = m.header_as_dictionary_batch() {
        info.header = "DictionaryBatch".into();
        info.dictionary_id = Some(d.id());
        info.is_delta = d.isDelta();
        d.data()
    } else if m.header_as_schema().is_some() {
        info.header = "Schema".into();
        None
    } else {
        info.header = "RecordBatch".into();
        m.header_as_record_batch()
    };
    if let Some(b) = batch {
        info.length = b.length();
        info.nodes = (b.nodes().into_iter().flatten())
            .map(|n| (n.length(), n.null_count()))
            .collect();
        info.buffers = (b.buffers().into_iter().flatten())
            .map(|x| (x.offset(), x.length()))
            .collect();
        info.variadic_counts = b.variadicBufferCounts().into_iter().flatten().collect();
        info.compression = b.compression().map(|c| match c.codec() {
            fb::CompressionType::ZSTD => Codec::Zstd,
            _ => Codec::Lz4Frame,
        });
    }
    Ok(info)
}

/// The fields of a file footer.
#[derive(Clone, Debug, PartialEq)]
pub struct FooterInfo {
    /// Metadata version (`4` is V5).
    pub version: i16,
    /// The schema.
    pub schema: IpcSchema,
    /// (offset, metadata length, body length) of every dictionary block.
    pub dictionaries: Vec<(i64, i32, i64)>,
    /// (offset, metadata length, body length) of every record batch block.
    pub record_batches: Vec<(i64, i32, i64)>,
    /// Footer custom metadata.
    pub custom_metadata: Metadata,
}

/// Parses the footer at the end of a whole IPC file.
pub fn inspect_footer(file: &[u8]) -> Result<FooterInfo> {
    let n = file.len();
    if n < 10 || &file[n - 6..] != b"ARROW1" {
        return Err(Error::oos("not an IPC file: no closing ARROW1"));
    }
    let len = i32::from_le_bytes(file[n - 10..n - 6].try_into().expect("4 bytes"));
    let start = usize::try_from(len)
        .ok()
        .and_then(|l| (n - 10).checked_sub(l))
        .ok_or_else(|| Error::oos(format!("footer length {len} does not fit the file")))?;
    let f = flatbuffers::root_with_opts::<fb::Footer>(&verifier_options(), &file[start..n - 10])
        .map_err(|e| Error::oos(format!("invalid footer flatbuffer: {e}")))?;
    let blocks = |b: Option<flatbuffers::Vector<'_, fb::Block>>| {
        (b.into_iter().flatten())
            .map(|b| (b.offset(), b.metaDataLength(), b.bodyLength()))
            .collect()
    };
    let schema = f
        .schema()
        .ok_or_else(|| Error::oos("footer has no schema"))?;
    Ok(FooterInfo {
        version: f.version().0,
        schema: schema_from_fb(schema)?,
        dictionaries: blocks(f.dictionaries()),
        record_batches: blocks(f.recordBatches()),
        custom_metadata: metadata_from_fb(f.custom_metadata()),
    })
}
