//! The arrays of a record batch or dictionary batch message (sans-IO): message + body →
//! unvalidated arrays, and [`validated`], the one way decoded values leave.

use super::ReadOptions;
use super::body::body_buffers;
use super::walk::{Env, Root, Walk, buffers_kept, check_counts};
use crate::fb::org::apache::arrow::flatbuf as fb;
use crate::message::Message;
use crate::schema::Endianness;
use quiver_arrow::validate::{Unvalidated, Validate};
use quiver_arrow::{Array, Error, Result};

/// Decodes the arrays of `roots` from a record batch (or dictionary batch) message, returning
/// them with the batch length; roots not `selected` are skipped (`None`). The arrays are built
/// but not validated: they leave as [`Unvalidated`].
pub(crate) fn decode_roots(
    message: &Message,
    roots: &[Root<'_>],
    selected: Option<&[bool]>,
    env: &Env<'_>,
) -> Result<(Vec<Option<Unvalidated<Array>>>, usize)> {
    let m = message.fb();
    let rb = match m.header_type() {
        fb::MessageHeader::RecordBatch => m.header_as_record_batch(),
        fb::MessageHeader::DictionaryBatch => m.header_as_dictionary_batch().and_then(|d| d.data()),
        _ => None,
    }
    .ok_or_else(|| Error::oos("message has no record batch"))?;
    let num_rows = usize::try_from(rb.length())
        .map_err(|_| Error::oos(format!("record batch length {} is negative", rb.length())))?;
    let v4_unions = m.version() < fb::MetadataVersion::V5;
    let is_selected = |k: usize| selected.is_none_or(|s| s.get(k).copied().unwrap_or(true));
    let variadic = check_counts(&rb, roots.iter().map(|r| r.data_type), v4_unions)?;
    let keep = selected.map(|_| {
        let types: Vec<_> = (roots.iter().enumerate())
            .map(|(k, r)| (r.data_type, is_selected(k)))
            .collect();
        buffers_kept(&types, &variadic, v4_unions)
    });
    let buffers = body_buffers(&rb, message.body(), env.options, keep.as_deref())?;
    let mut walk = Walk {
        nodes: rb.nodes().unwrap_or_default(),
        next_node: 0,
        buffers: buffers.into_iter(),
        next_buffer: 0,
        variadic: variadic.into_iter(),
        big_endian: env.endianness == Endianness::Big,
        v4_unions,
        dictionaries: env.dictionaries,
        ids: env.ids,
        path: Vec::new(),
    };
    let mut arrays = Vec::with_capacity(roots.len());
    for (k, root) in roots.iter().enumerate() {
        if !is_selected(k) {
            walk.skip(root.data_type)
                .map_err(|e| e.context(&root.label))?;
            arrays.push(None);
            continue;
        }
        walk.path.clone_from(&root.path);
        let a = walk
            .decode(root.data_type)
            .map_err(|e| e.context(&root.label))?;
        arrays.push(Some(Unvalidated::new(a)));
    }
    Ok((arrays, num_rows))
}

/// The one exit of decoded values: full validation, or — for callers of the `unsafe`
/// [`ReadOptions::with_trusted_input`] — structural validation only.
pub(crate) fn validated<T: Validate>(
    value: Unvalidated<T>,
    options: &ReadOptions,
    trust_dictionaries: bool,
) -> Result<T> {
    match (options.validates(), trust_dictionaries) {
        (true, true) => value.validate_trusting_dictionaries(),
        (true, false) => value.validate(),
        // SAFETY: `validates()` is false only after the `unsafe` `with_trusted_input`, whose
        // caller promised input that passes full validation.
        (false, trust) => unsafe { value.validate_structure_unchecked(trust) },
    }
}
