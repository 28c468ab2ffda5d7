//! The file format: random access to record batches through the footer.
//!
//! Layout: `ARROW1` + 2 padding bytes, the stream (schema, dictionaries, batches, optional
//! end-of-stream marker), the `Footer` flatbuffer (version, schema, dictionary blocks, record
//! batch blocks, custom metadata), its length as a little-endian `i32`, and `ARROW1`. A block
//! is `{offset, metaDataLength, bodyLength}`: the message prefix and metadata take
//! `metaDataLength` bytes from `offset`, the body follows. Every block is checked against the
//! file size before anything is read.

use super::ReadOptions;
use super::batch::decode_record_batch;
use super::dictionary::DictionaryTable;
use crate::fb::org::apache::arrow::flatbuf as fb;
use crate::message::{Message, MessageKind, Prefix, parse_prefix, read_aligned, verifier_options};
use crate::schema::{IpcSchema, check_version, metadata_from_fb, schema_from_fb};
use bytes::Bytes;
use quiver_arrow::{Error, Metadata, RecordBatch, Result, SchemaRef};
use std::io::{Read, Seek, SeekFrom};

/// The magic bytes at both ends of a file.
const MAGIC: &[u8; 6] = b"ARROW1";
/// Magic and padding before the stream.
const HEAD: usize = 8;
/// Footer length and magic after the footer.
const TAIL: usize = 10;

/// Random access to the bytes of a file.
pub trait FileSource {
    /// Size of the file in bytes.
    fn size(&mut self) -> Result<u64>;
    /// `len` bytes from `offset` (which the caller checked against [`FileSource::size`]).
    fn read_range(&mut self, offset: u64, len: usize) -> Result<Bytes>;
}

impl FileSource for Bytes {
    fn size(&mut self) -> Result<u64> {
        Ok(self.len() as u64)
    }
    /// A zero-copy slice.
    fn read_range(&mut self, offset: u64, len: usize) -> Result<Bytes> {
        let start = usize::try_from(offset).map_err(|_| Error::oos("offset beyond memory"))?;
        match start.checked_add(len) {
            Some(end) if end <= self.len() => Ok(self.slice(start..end)),
            _ => Err(Error::oos(format!(
                "bytes [{start}..{start}+{len}) are outside the file of {}",
                self.len()
            ))),
        }
    }
}

/// A [`FileSource`] over `Read + Seek` (reads into fresh 64-byte aligned buffers).
#[derive(Debug)]
pub struct SeekSource<R>(pub R);

impl<R: Read + Seek> FileSource for SeekSource<R> {
    fn size(&mut self) -> Result<u64> {
        Ok(self.0.seek(SeekFrom::End(0))?)
    }
    fn read_range(&mut self, offset: u64, len: usize) -> Result<Bytes> {
        self.0.seek(SeekFrom::Start(offset))?;
        read_aligned(&mut self.0, len)
    }
}

/// Where a message lies in the file.
#[derive(Clone, Copy, Debug)]
struct Block {
    offset: u64,
    meta_len: usize,
    body_len: usize,
}

/// A message of a file as stored: the verified message and the bytes of its whole block
/// (prefix, metadata, padding and body), for copying it as it is.
#[derive(Clone, Debug)]
pub(crate) struct StoredMessage {
    /// The message (its metadata and body are slices of `bytes`).
    pub(crate) message: Message,
    /// The block's bytes.
    pub(crate) bytes: Bytes,
    /// The bytes of the prefix, metadata and padding: the body starts here.
    pub(crate) metadata_len: usize,
}

/// Reads an IPC file: the footer at construction, then batches on demand.
///
/// ```no_run
/// use quiver_ipc::read::FileReader;
/// let file = std::fs::File::open("data.arrow")?;
/// let map = unsafe { memmap2::Mmap::map(&file)? }; // SAFETY: nobody changes the file
/// let mut reader = FileReader::from_bytes(bytes::Bytes::from_owner(map))?; // zero-copy
/// let last = reader.batch(reader.num_batches() - 1)?;
/// println!("{} rows", last.num_rows());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct FileReader<S = Bytes> {
    source: S,
    schema: IpcSchema,
    options: ReadOptions,
    version: fb::MetadataVersion,
    dictionary_blocks: Vec<Block>,
    batch_blocks: Vec<Block>,
    metadata: Metadata,
    /// Read on first use of a batch.
    dictionaries: Option<DictionaryTable>,
    next: usize,
}

impl<S> std::fmt::Debug for FileReader<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileReader")
            .field("schema", &self.schema)
            .field("dictionary_blocks", &self.dictionary_blocks.len())
            .field("batch_blocks", &self.batch_blocks.len())
            .field("metadata", &self.metadata)
            .finish_non_exhaustive()
    }
}

impl FileReader<Bytes> {
    /// A reader over the bytes of a whole file (e.g. `Bytes::from_owner(mmap)`): every buffer
    /// of the batches read points into `bytes` unless it had to be decompressed, byte-swapped
    /// or realigned.
    pub fn from_bytes(bytes: Bytes) -> Result<Self> {
        Self::try_new_from_source(bytes, ReadOptions::new())
    }

    /// [`FileReader::from_bytes`] with options.
    pub fn from_bytes_with_options(bytes: Bytes, options: ReadOptions) -> Result<Self> {
        Self::try_new_from_source(bytes, options)
    }
}

impl<R: Read + Seek> FileReader<SeekSource<R>> {
    /// A reader over `Read + Seek` (a `File`, a `Cursor`…).
    pub fn try_new(reader: R) -> Result<Self> {
        Self::try_new_from_source(SeekSource(reader), ReadOptions::new())
    }

    /// [`FileReader::try_new`] with options.
    pub fn try_new_with_options(reader: R, options: ReadOptions) -> Result<Self> {
        Self::try_new_from_source(SeekSource(reader), options)
    }
}

impl<S: FileSource> FileReader<S> {
    /// Reads and checks the magic bytes and the footer of the file in `source`.
    pub fn try_new_from_source(mut source: S, options: ReadOptions) -> Result<Self> {
        let size = source.size()?;
        let footer_start = footer_start(&mut source, size)?;
        let len = usize::try_from(size - TAIL as u64 - footer_start)
            .map_err(|_| Error::oos("footer larger than memory"))?;
        let footer_bytes = source.read_range(footer_start, len)?;
        let footer = flatbuffers::root_with_opts::<fb::Footer>(&verifier_options(), &footer_bytes)
            .map_err(|e| crate::message::flatbuffer_error("footer", &e))?;
        // The footer's version is informational (some 0.14.1 gold files leave it at its
        // default, V1); the version of every message read is checked by `Message::try_new`.
        // Negative values are rejected too, so that `version()` is always 1 to 5.
        if footer.version() > fb::MetadataVersion::V5 || footer.version().0 < 0 {
            check_version(footer.version())?;
        }
        let schema = footer
            .schema()
            .ok_or_else(|| Error::oos("the footer has no schema"))
            .and_then(schema_from_fb)
            .map_err(|e| e.context("footer"))?;
        let blocks = |v: Option<flatbuffers::Vector<'_, fb::Block>>, what: &str| {
            v.iter()
                .flatten()
                .enumerate()
                .map(|(i, b)| {
                    check_block(b, footer_start).map_err(|e| e.context(format!("{what} block {i}")))
                })
                .collect::<Result<Vec<_>>>()
        };
        let dictionary_blocks = blocks(footer.dictionaries(), "dictionary")?;
        let batch_blocks = blocks(footer.recordBatches(), "record batch")?;
        check_disjoint(&dictionary_blocks, &batch_blocks)?;
        Ok(FileReader {
            dictionary_blocks,
            batch_blocks,
            metadata: metadata_from_fb(footer.custom_metadata()),
            version: footer.version(),
            schema,
            source,
            options,
            dictionaries: None,
            next: 0,
        })
    }

    /// The schema of the batches.
    pub fn schema(&self) -> &SchemaRef {
        &self.schema.schema
    }

    /// The schema with its dictionary ids and byte order.
    pub fn ipc_schema(&self) -> &IpcSchema {
        &self.schema
    }

    /// The footer's custom metadata.
    pub fn custom_metadata(&self) -> &Metadata {
        &self.metadata
    }

    /// The footer's metadata version (1 to 5; files written before Arrow 0.15 may say 1).
    pub fn version(&self) -> u16 {
        self.version.0 as u16 + 1
    }

    /// Number of record batches.
    pub fn num_batches(&self) -> usize {
        self.batch_blocks.len()
    }

    /// Number of dictionary batches.
    pub fn num_dictionary_batches(&self) -> usize {
        self.dictionary_blocks.len()
    }

    /// Record batch `i`, reading only its block (and, on first use, the dictionaries).
    pub fn batch(&mut self, i: usize) -> Result<RecordBatch> {
        self.batch_with_metadata(i).map(|(batch, _)| batch)
    }

    /// Record batch `i` and the custom metadata of its message (empty when it has none).
    pub fn batch_with_metadata(&mut self, i: usize) -> Result<(RecordBatch, Metadata)> {
        let Some(&block) = self.batch_blocks.get(i) else {
            return Err(Error::invalid(format!(
                "record batch {i} requested but the file has {}",
                self.batch_blocks.len()
            )));
        };
        self.load_dictionaries()?;
        let ctx = |e: Error| e.context(format!("record batch {i}"));
        let message = read_block(&mut self.source, block, MessageKind::RecordBatch)
            .map_err(ctx)?
            .message;
        let dictionaries = self.dictionaries.as_ref().expect("loaded above"); // ok: loaded above.
        let batch = decode_record_batch(&message, &self.schema, dictionaries, &self.options);
        Ok((batch.map_err(ctx)?, message.custom_metadata()))
    }

    /// The dictionaries (read on first use).
    pub fn dictionaries(&mut self) -> Result<&DictionaryTable> {
        self.load_dictionaries()?;
        Ok(self.dictionaries.as_ref().expect("loaded above")) // ok: loaded above.
    }

    fn load_dictionaries(&mut self) -> Result<()> {
        if self.dictionaries.is_some() {
            return Ok(());
        }
        let mut table = DictionaryTable::new_for_file(&self.schema)?;
        for (i, &block) in self.dictionary_blocks.iter().enumerate() {
            let ctx = |e: Error| e.context(format!("dictionary block {i}"));
            let stored =
                read_block(&mut self.source, block, MessageKind::DictionaryBatch).map_err(ctx)?;
            table.apply(&stored.message, &self.options).map_err(ctx)?;
        }
        self.dictionaries = Some(table);
        Ok(())
    }

    /// Record batch `i` as stored, verified as a message but not decoded.
    pub(crate) fn stored_batch(&mut self, i: usize) -> Result<StoredMessage> {
        let block = *self.batch_blocks.get(i).ok_or_else(|| {
            Error::invalid(format!(
                "record batch {i} requested but the file has {}",
                self.batch_blocks.len()
            ))
        })?;
        read_block(&mut self.source, block, MessageKind::RecordBatch)
            .map_err(|e| e.context(format!("record batch {i}")))
    }

    /// Dictionary batch `i` (in footer order) as stored, verified as a message but not
    /// decoded.
    pub(crate) fn stored_dictionary(&mut self, i: usize) -> Result<StoredMessage> {
        let block = *self.dictionary_blocks.get(i).ok_or_else(|| {
            Error::invalid(format!(
                "dictionary batch {i} requested but the file has {}",
                self.dictionary_blocks.len()
            ))
        })?;
        read_block(&mut self.source, block, MessageKind::DictionaryBatch)
            .map_err(|e| e.context(format!("dictionary block {i}")))
    }

    /// The source.
    pub fn into_inner(self) -> S {
        self.source
    }
}

impl<S: FileSource> Iterator for FileReader<S> {
    type Item = Result<RecordBatch>;

    /// The batches in order (from the first not yet returned by the iterator).
    fn next(&mut self) -> Option<Self::Item> {
        let i = self.next;
        if i >= self.batch_blocks.len() {
            return None;
        }
        self.next += 1;
        let r = self.batch(i);
        if r.is_err() {
            self.next = self.batch_blocks.len();
        }
        Some(r)
    }
}

/// Checks the magic bytes at both ends; returns where the footer starts.
fn footer_start<S: FileSource>(source: &mut S, size: u64) -> Result<u64> {
    if size < (HEAD + TAIL) as u64 {
        return Err(Error::oos(format!(
            "a file of {size} bytes is too small to be an Arrow file"
        )));
    }
    let head = source.read_range(0, HEAD)?;
    if &head[..6] != MAGIC {
        return Err(Error::oos("the file does not start with ARROW1"));
    }
    let tail = source.read_range(size - TAIL as u64, TAIL)?;
    if &tail[4..] != MAGIC {
        return Err(Error::oos("the file does not end with ARROW1"));
    }
    let len = i32::from_le_bytes(tail[..4].try_into().expect("4 bytes")); // ok: `tail[..4]` is 4 bytes of the TAIL-byte read.
    match u64::try_from(len) {
        Ok(len) if len <= size - (HEAD + TAIL) as u64 => Ok(size - TAIL as u64 - len),
        _ => Err(Error::oos(format!(
            "footer length {len} does not fit in the file of {size} bytes"
        ))),
    }
}

/// A footer block, checked to lie between the leading magic and the footer.
fn check_block(b: &fb::Block, footer_start: u64) -> Result<Block> {
    let (offset, meta, body) = (b.offset(), b.metaDataLength(), b.bodyLength());
    let parts = (
        u64::try_from(offset),
        usize::try_from(meta),
        usize::try_from(body),
    );
    let (Ok(start), Ok(meta_len), Ok(body_len)) = parts else {
        return Err(Error::oos(format!(
            "block has offset {offset}, metadata length {meta} and body length {body}"
        )));
    };
    let end = start
        .checked_add(meta_len as u64)
        .and_then(|e| e.checked_add(body_len as u64));
    match end {
        Some(end) if start >= HEAD as u64 && end <= footer_start && meta_len > 0 => Ok(Block {
            offset: start,
            meta_len,
            body_len,
        }),
        _ => Err(Error::oos(format!(
            "block at offset {offset} with metadata length {meta} and body length {body} is \
             outside bytes [{HEAD}..{footer_start}) of the file"
        ))),
    }
}

/// Checks that no two footer blocks share bytes (a footer listing one block many times would
/// make the reader decode it again and again, e.g. apply one delta dictionary repeatedly).
fn check_disjoint(dictionaries: &[Block], batches: &[Block]) -> Result<()> {
    // (start, end, kind, index): ends cannot overflow (checked by `check_block`).
    let span = |kind: &'static str| {
        move |(i, b): (usize, &Block)| {
            let end = b.offset + b.meta_len as u64 + b.body_len as u64;
            (b.offset, end, kind, i)
        }
    };
    let mut spans: Vec<_> = dictionaries
        .iter()
        .enumerate()
        .map(span("dictionary"))
        .collect();
    spans.extend(batches.iter().enumerate().map(span("record batch")));
    spans.sort_unstable();
    // Sorted by start, some two blocks overlap exactly when two neighbours do.
    match spans.windows(2).find(|w| w[1].0 < w[0].1) {
        Some([(s0, e0, k0, i0), (s1, e1, k1, i1)]) => Err(Error::oos(format!(
            "footer {k0} block {i0} (bytes [{s0}..{e0})) and {k1} block {i1} (bytes \
             [{s1}..{e1})) overlap; blocks may not repeat or overlap"
        ))),
        _ => Ok(()),
    }
}

/// Reads the message of `block`, which must be of `kind`.
fn read_block<S: FileSource>(
    source: &mut S,
    block: Block,
    kind: MessageKind,
) -> Result<StoredMessage> {
    let total = block.meta_len + block.body_len; // both within the file: no overflow
    let bytes = source.read_range(block.offset, total)?;
    let (prefix_len, metadata_len) = match parse_prefix(&bytes[..block.meta_len])? {
        Some(Prefix::Message {
            prefix_len,
            metadata_len,
        }) => (prefix_len, metadata_len),
        Some(Prefix::EndOfStream { .. }) => {
            return Err(Error::oos("block points at an end-of-stream marker"));
        }
        None => {
            return Err(Error::oos(format!(
                "block metadata length {} is too short",
                block.meta_len
            )));
        }
    };
    let metadata_end = prefix_len
        .checked_add(metadata_len)
        .filter(|&e| e <= block.meta_len)
        .ok_or_else(|| {
            Error::oos(format!(
                "message metadata of {metadata_len} bytes does not fit in the block's {}",
                block.meta_len
            ))
        })?;
    let message = Message::try_new(
        bytes.slice(prefix_len..metadata_end),
        bytes.slice(block.meta_len..),
    )?;
    if message.kind() != kind {
        return Err(Error::oos(format!(
            "expected a {kind:?} message, found {:?}",
            message.kind()
        )));
    }
    Ok(StoredMessage {
        message,
        bytes,
        metadata_len: block.meta_len,
    })
}
