//! Merging IPC files without re-encoding them: [`merge`] copies the record batch messages of
//! every input byte for byte (flatbuffer metadata and body, whatever their compression) into
//! one file, in input order, and writes a new footer listing them.
//!
//! # Inputs
//!
//! Every input is an IPC *file* (`ARROW1`, messages, footer) with the schema of the first:
//! the same fields (names, types, nullability, field metadata, dictionary encodings) and byte
//! order, or the merge fails naming the input and the first differing field by path
//! (`l.item.x`). Schema-level and footer custom metadata may differ: the output keeps the
//! first input's, and [`IpcMergeReport::metadata_conflicts`] lists every key whose value was
//! not kept. Dictionary ids are matched by field path, so inputs may number them differently.
//!
//! Before anything is written, each input's footer is checked (blocks inside the file, none
//! overlapping), its dictionaries decoded and validated in full, and every record batch
//! message verified as a reader verifies it before decoding: framing, the flatbuffer, the
//! metadata version, the node, buffer and variadic counts the schema needs, column lengths,
//! buffer ranges inside the body and a known codec. The buffers themselves are not decoded
//! unless [`MergeOptions::with_full_validation`] says so. A truncated or corrupt input is an
//! error naming it (and the batch), never a panic.
//!
//! # Dictionaries
//!
//! A file may not replace a dictionary, only extend it with deltas, which readers apply in
//! footer order before reading any record batch (the Arrow columnar format, "IPC File
//! Format"). So for each dictionary id the merged dictionary only grows, and each input's
//! dictionary (what its dictionary batches, deltas included, build) is merged into it in
//! input order:
//!
//! - the first input with a dictionary for the id: it is written in full;
//! - equal to the merged dictionary or a prefix of it: nothing is written;
//! - extending it (the merged dictionary is its prefix): the new values are written as a
//!   delta dictionary batch (`isDelta`);
//! - otherwise the dictionaries are *unified*: the input's values not yet in the merged
//!   dictionary are written as a delta, and the input's record batches whose indices change
//!   are re-encoded. Only their index buffers are decoded, remapped and compressed again with
//!   the batch's codec; every other buffer keeps its stored bytes. Values are matched by
//!   their bytes (floats by bit pattern); a null value maps to the merged dictionary's first
//!   null. Unifying fails (`Overflow`) when the merged dictionary would need more indices
//!   than the key type has, and is not supported for dictionaries of nested values.
//!
//! In every case but unification, the record batches stay byte for byte as they were.
//! Dictionary batches are written by quiver's encoder, compressed with the codec of the
//! input's own dictionary batches. An input without record batches adds no dictionary values.
//!
//! **Nested dictionaries** (a dictionary-encoded field inside a dictionary's values) are
//! merged by the same rules as long as no unification is needed at either level: an inner
//! dictionary is written before the outer dictionaries that use it, and equal, prefix and
//! extension relations keep the outer values' indices valid. A nested dictionary that would
//! need unifying, or an outer dictionary whose (nested) values differ, is an
//! [`quiver_arrow::Error::NotSupported`].
//!
//! # Output
//!
//! `ARROW1`, the first input's schema, then input by input the dictionary batches it needs
//! and its record batches, each message starting at a multiple of 8 bytes (messages of
//! conforming writers are multiples of 8 long; zero bytes pad any other), the end-of-stream
//! marker and the footer (with the first input's custom metadata). On error the sink may
//! hold part of a file: write to a temporary file and rename it once the merge succeeds.
//!
//! ```
//! use bytes::Bytes;
//! use quiver_arrow::{Array, DataType, Field, PrimitiveArray, RecordBatch, Schema};
//! use quiver_ipc::merge::{MergeInput, MergeOptions, merge};
//! use quiver_ipc::read::FileReader;
//! use quiver_ipc::write::{FileWriter, WriteOptions};
//! use std::sync::Arc;
//! let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int32, true)]));
//! let file = |values: Vec<i32>| {
//!     let x = Array::from(PrimitiveArray::<i32>::new(values));
//!     let batch = RecordBatch::try_new(schema.clone(), vec![x]).unwrap();
//!     let mut w = FileWriter::try_new(Vec::new(), schema.clone(), WriteOptions::new()).unwrap();
//!     w.write(&batch).unwrap();
//!     Bytes::from(w.finish().unwrap())
//! };
//! let inputs = [
//!     MergeInput::new("a.arrow", file(vec![1, 2])),
//!     MergeInput::new("b.arrow", file(vec![3])),
//! ];
//! let (out, report) = merge(&inputs, Vec::new(), &MergeOptions::new())?;
//! assert_eq!((report.totals.rows, report.totals.batches_verbatim), (3, 2));
//! assert_eq!(report.output_bytes, out.len() as u64);
//! let mut merged = FileReader::from_bytes(Bytes::from(out))?;
//! assert_eq!(merged.batch(1)?.num_rows(), 1);
//! # Ok::<(), quiver_arrow::Error>(())
//! ```

mod dictionary;
mod input;
mod remap;
mod report;
mod schema;

pub use report::{
    DictionaryAction, DictionaryMerge, InputReport, IpcMergeReport, MergeTotals, MetadataConflict,
    MetadataScope,
};

use crate::read::ReadOptions;
use crate::write::{FileWriter, WriteOptions, encode_arrays};
use bytes::Bytes;
use dictionary::{Emit, InputPlan};
use input::Input;
use quiver_arrow::parallel::ThreadPool;
use quiver_arrow::{Error, Metadata, Result};
use std::io::Write;

/// One file to merge: a name (for errors and the report) and the bytes of the whole file,
/// e.g. a memory map through [`Bytes::from_owner`] (the record batches are copied from it
/// without being read into memory first).
#[derive(Clone, Debug)]
pub struct MergeInput {
    /// The name errors and the report use (a path, typically).
    pub name: String,
    /// The file.
    pub bytes: Bytes,
}

impl MergeInput {
    /// An input named `name` holding `bytes`.
    pub fn new(name: impl Into<String>, bytes: impl Into<Bytes>) -> Self {
        MergeInput {
            name: name.into(),
            bytes: bytes.into(),
        }
    }
}

/// How [`merge`] reads and checks its inputs.
///
/// ```
/// use quiver_ipc::merge::MergeOptions;
/// use quiver_ipc::read::ReadOptions;
/// let o = MergeOptions::new()
///     .with_read_options(ReadOptions::new().with_max_dictionary_bytes(1 << 30))
///     .with_full_validation(true);
/// assert!(o.full_validation());
/// assert_eq!(o.read_options().max_dictionary_bytes(), 1 << 30);
/// ```
#[derive(Clone, Debug, Default)]
pub struct MergeOptions {
    read: ReadOptions,
    full_validation: bool,
}

impl MergeOptions {
    /// The defaults: [`ReadOptions::new`], record batches checked but not decoded.
    pub fn new() -> Self {
        Self::default()
    }

    /// The options dictionaries (and, with full validation, record batches) are read with:
    /// decompression and dictionary limits, validation, the thread pool.
    pub fn with_read_options(mut self, read: ReadOptions) -> Self {
        self.read = read;
        self
    }

    /// See [`MergeOptions::with_read_options`].
    pub fn read_options(&self) -> &ReadOptions {
        &self.read
    }

    /// Also decodes every record batch and validates its arrays (as
    /// [`FileReader::batch`](crate::read::FileReader::batch) does) before copying it: slower
    /// (compressed buffers are decompressed), but no invalid value reaches the output.
    pub fn with_full_validation(mut self, full: bool) -> Self {
        self.full_validation = full;
        self
    }

    /// See [`MergeOptions::with_full_validation`].
    pub fn full_validation(&self) -> bool {
        self.full_validation
    }
}

/// Merges the IPC files `inputs` (at least one) into one IPC file written to `sink`; returns
/// the sink and what was done. See the [module](self) documentation.
pub fn merge<W: Write>(
    inputs: &[MergeInput],
    sink: W,
    options: &MergeOptions,
) -> Result<(W, IpcMergeReport)> {
    if inputs.is_empty() {
        return Err(Error::invalid("merging IPC files needs at least one input"));
    }
    let name = |n: &str| format!("input \"{n}\"");
    let mut opened = Vec::with_capacity(inputs.len());
    for input in inputs {
        opened.push(Input::open(input, options).map_err(|e| e.context(name(&input.name)))?);
    }
    let mut report = IpcMergeReport::default();
    let (first, rest) = opened.split_first_mut().expect("at least one input"); // ok: `inputs` is not empty (checked above), and each opened input was pushed
    for input in rest {
        input.ids = schema::check_same(&first.schema, &input.schema)
            .map_err(|e| e.context(name(input.name)))?;
        let conflicts = &mut report.metadata_conflicts;
        let (a, b) = (&first.schema.schema.metadata, &input.schema.schema.metadata);
        schema::metadata_conflicts(input.name, MetadataScope::Schema, a, b, conflicts);
        let (a, b) = (&first.footer_metadata, &input.footer_metadata);
        schema::metadata_conflicts(input.name, MetadataScope::Footer, a, b, conflicts);
    }
    let plans = dictionary::plan(&opened[0].schema, &opened)?;
    let (sink, output_bytes) = write(sink, &opened, plans, options, &mut report)?;
    report.output_bytes = output_bytes;
    report.sum();
    Ok((sink, report))
}

/// Writes the merged file: schema, dictionaries and record batches input by input, footer.
fn write<W: Write>(
    sink: W,
    inputs: &[Input<'_>],
    plans: Vec<InputPlan>,
    options: &MergeOptions,
    report: &mut IpcMergeReport,
) -> Result<(W, u64)> {
    let first = &inputs[0];
    let sequential = WriteOptions::new().with_thread_pool(ThreadPool::sequential());
    let mut w = FileWriter::try_new(sink, &first.schema, sequential)?;
    w.set_footer_metadata(first.footer_metadata.clone());
    for (input, p) in inputs.iter().zip(plans) {
        let r = write_input(&mut w, input, &p, &first.schema, options)
            .map_err(|e| e.context(format!("input \"{}\"", input.name)))?;
        report.totals.dictionary_batches += p.emits.len();
        report.inputs.push(r);
    }
    w.finish_with_len()
}

/// Writes one input's dictionary batches and record batches.
fn write_input<W: Write>(
    w: &mut FileWriter<W>,
    input: &Input<'_>,
    plan: &InputPlan,
    schema: &crate::IpcSchema,
    options: &MergeOptions,
) -> Result<InputReport> {
    write_dictionaries(w, &plan.emits)?;
    let mut r = InputReport {
        name: input.name.to_string(),
        bytes: input.len,
        batches: input.batches.len(),
        rows: input.rows,
        dictionaries: plan.events.clone(),
        ..InputReport::default()
    };
    for e in &plan.events {
        match e.action {
            DictionaryAction::Delta => r.dictionaries_delta += 1,
            DictionaryAction::Unified => r.dictionaries_unified += 1,
            DictionaryAction::First | DictionaryAction::Same => {}
        }
    }
    for (i, stored) in input.batches.iter().enumerate() {
        let rewritten = if plan.remaps.is_empty() {
            None
        } else {
            remap::rewrite(
                &stored.message,
                schema,
                &plan.remaps,
                options.read_options(),
            )
            .map_err(|e| e.context(format!("record batch {i}")))?
        };
        match rewritten {
            None => {
                w.write_framed(false, &stored.bytes, stored.metadata_len)?;
                r.batches_verbatim += 1;
            }
            Some((metadata, body)) => {
                w.write_encoded_message(false, metadata, &body)?;
                r.batches_reencoded += 1;
            }
        }
    }
    Ok(r)
}

/// Encodes and writes dictionary batches.
fn write_dictionaries<W: Write>(w: &mut FileWriter<W>, emits: &[Emit]) -> Result<()> {
    for e in emits {
        let options = WriteOptions::new()
            .with_compression(e.codec)
            .with_thread_pool(ThreadPool::sequential());
        let encoded = encode_arrays(std::slice::from_ref(&e.values), e.values.len(), &options)?;
        let metadata = encoded.dictionary_batch_message(e.id, e.is_delta, &Metadata::new())?;
        w.write_encoded_message(true, metadata, encoded.body_parts())?;
    }
    Ok(())
}
