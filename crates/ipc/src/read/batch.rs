//! Record batch messages → validated record batches (sans-IO).

use super::ReadOptions;
use super::dictionary::DictionaryTable;
use super::roots::{decode_roots, validated};
use super::walk::{Env, Root};
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
