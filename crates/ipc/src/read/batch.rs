//! Record batch messages → validated record batches (sans-IO), and the checks a record
//! batch message passes when it is copied without being decoded.

use super::ReadOptions;
use super::body::{buffer_range, codec};
use super::dictionary::DictionaryTable;
use super::roots::{decode_roots, validated};
use super::walk::{Env, Needs, Root, check_counts, checked_node, count};
use crate::fb::org::apache::arrow::flatbuf as fb;
use crate::message::Message;
use crate::schema::IpcSchema;
use quiver_arrow::validate::Unvalidated;
use quiver_arrow::{Array, Error, RecordBatch, Result, SchemaRef};
use std::sync::Arc;

/// Decodes a record batch message (sans-IO) against `schema`, with the dictionaries read so
/// far. The arrays are validated as `options` say.
pub fn decode_record_batch(
    message: &Message,
    schema: &IpcSchema,
    dictionaries: &DictionaryTable,
    options: &ReadOptions,
) -> Result<RecordBatch> {
    let roots: Vec<Root<'_>> = schema
        .schema
        .fields
        .iter()
        .enumerate()
        .map(|(i, f)| Root {
            data_type: f.data_type(),
            path: vec![i],
            label: format!("column \"{}\"", f.name()),
        })
        .collect();
    let env = Env {
        ids: &schema.dictionaries,
        endianness: schema.endianness,
        dictionaries: dictionaries.by_id(),
        options,
    };
    let (batch_schema, selected) = projection(schema, options.projection())?;
    let (decoded, num_rows) = decode_roots(message, &roots, selected.as_deref(), &env)?;
    let columns: Vec<Unvalidated<Array>> = match options.projection() {
        None => decoded.into_iter().flatten().collect(),
        Some(p) => p
            .iter()
            .map(|&i| {
                decoded[i]
                    .clone()
                    .ok_or_else(|| Error::oos("projected column missing"))
            })
            .collect::<Result<Vec<_>>>()?,
    };
    // SAFETY: `try_new_with_rows` checks counts, lengths and types only, reading no values;
    // the batch is wrapped again at once and leaves through `validated`.
    let columns = columns
        .into_iter()
        .map(|c| unsafe { c.into_inner_unchecked() })
        .collect();
    let batch = RecordBatch::try_new_with_rows(batch_schema, columns, num_rows)
        .map_err(Error::into_input_error)?;
    // Dictionaries were validated in full when their messages were read (`DictionaryTable`);
    // each batch checks its own buffers and its keys against them.
    validated(Unvalidated::new(batch), options, true)
}

/// Checks a record batch message against `schema` without decoding its buffers: its length,
/// the node, buffer and variadic counts the schema needs, every node (non-negative, no more
/// nulls than slots; a column's node as long as the batch), every buffer range within the
/// body, and a known compression codec. Returns the number of rows.
///
/// These are the format checks a reader makes before it looks at the values; what the
/// buffers hold (offsets, UTF-8, dictionary keys, compressed frames) is left unchecked.
pub(crate) fn check_record_batch(message: &Message, schema: &IpcSchema) -> Result<usize> {
    let m = message.fb();
    let rb = m
        .header_as_record_batch()
        .ok_or_else(|| Error::oos("message has no record batch"))?;
    let rows = usize::try_from(rb.length())
        .map_err(|_| Error::oos(format!("record batch length {} is negative", rb.length())))?;
    let v4 = m.version() < fb::MetadataVersion::V5;
    let types = || schema.schema.fields.iter().map(|f| f.data_type());
    check_counts(&rb, types(), v4)?;
    codec(&rb)?;
    let nodes = rb.nodes().unwrap_or_default();
    for i in 0..nodes.len() {
        checked_node(&nodes, i)?;
    }
    let mut at = 0;
    for (f, dt) in schema.schema.fields.iter().zip(types()) {
        let node = checked_node(&nodes, at)?;
        if node.len != rows {
            return Err(Error::oos(format!(
                "column \"{}\" has {} rows but the batch has {rows}",
                f.name(),
                node.len
            )));
        }
        let mut needs = Needs::default();
        count(dt, v4, &mut needs);
        at += needs.nodes;
    }
    let body = message.body().len();
    for (i, b) in rb.buffers().iter().flatten().enumerate() {
        buffer_range(i, b.offset(), b.length(), body)?;
    }
    Ok(rows)
}

/// The schema of projected batches and which top-level columns to decode (`None`: all).
fn projection(
    schema: &IpcSchema,
    projection: Option<&[usize]>,
) -> Result<(SchemaRef, Option<Vec<bool>>)> {
    let Some(p) = projection else {
        return Ok((schema.schema.clone(), None));
    };
    let n = schema.schema.fields.len();
    let mut selected = vec![false; n];
    for &i in p {
        if i >= n {
            return Err(Error::invalid(format!(
                "projection index {i} is out of range: the schema has {n} fields"
            )));
        }
        selected[i] = true;
    }
    Ok((Arc::new(schema.schema.project(p)?), Some(selected)))
}
