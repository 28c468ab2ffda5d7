//! Sans-IO decoding: a record batch message and its body → arrays.
//!
//! The fields of the schema are walked in pre-order with a [`Walk`] context that hands out
//! field nodes, body buffers and variadic buffer counts in order. Before walking, the counts
//! the schema needs are compared with the counts the message has, so the walk itself only
//! fails on content. The per-layout decoding lives in `layout.rs`.
//!
//! Buffers per layout (one field node each):
//!
//! | layout | buffers |
//! |---|---|
//! | Null | none |
//! | Boolean, primitives, FixedSizeBinary, dictionary indices | validity, values |
//! | Binary, Utf8 (and Large) | validity, offsets, data |
//! | BinaryView, Utf8View | validity, views, then `variadicBufferCounts[k]` data buffers |
//! | List, LargeList, Map | validity, offsets |
//! | ListView, LargeListView | validity, offsets, sizes |
//! | Struct, FixedSizeList | validity |
//! | Union | type ids (+ offsets when dense); before metadata V5 also a validity slot first |
//! | RunEndEncoded | none (two children: run ends and values) |
//!
//! A dictionary-encoded field has the node and buffers of its indices only; its values come
//! from the dictionary batch with the field's id.

use super::ReadOptions;
use super::body::body_buffers;
use super::dictionary::DictionaryTable;
use crate::convert::{DictionaryFields, Endianness, IpcSchema};
use crate::fb::org::apache::arrow::flatbuf as fb;
use crate::message::Message;
use bytes::Bytes;
use quiver_arrow::{Array, DataType, Error, RecordBatch, Result, UnionMode};
use std::collections::HashMap;
use std::sync::Arc;

/// What decoding a message needs besides the message itself.
pub(crate) struct Env<'a> {
    /// Dictionary ids by field path.
    pub(crate) ids: &'a DictionaryFields,
    /// Byte order of the body.
    pub(crate) endianness: Endianness,
    /// The dictionaries read so far, by id.
    pub(crate) dictionaries: &'a HashMap<i64, Arc<Array>>,
    /// Validation and decompression limits.
    pub(crate) options: &'a ReadOptions,
}

/// One top-level array to decode: its type, its field path and a label for errors.
pub(crate) struct Root<'a> {
    pub(crate) data_type: &'a DataType,
    pub(crate) path: Vec<usize>,
    pub(crate) label: String,
}

/// A field node: length and null count, checked to be non-negative and consistent.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub(crate) len: usize,
    pub(crate) nulls: usize,
}

/// The walk over one message's nodes and buffers.
pub(crate) struct Walk<'a> {
    nodes: flatbuffers::Vector<'a, fb::FieldNode>,
    next_node: usize,
    buffers: std::vec::IntoIter<Bytes>,
    next_buffer: usize,
    variadic: std::vec::IntoIter<usize>,
    pub(crate) big_endian: bool,
    /// Metadata before V5: unions have a validity buffer slot.
    pub(crate) v4_unions: bool,
    pub(crate) dictionaries: &'a HashMap<i64, Arc<Array>>,
    pub(crate) ids: &'a DictionaryFields,
    /// Path of the field being decoded (see [`DictionaryFields`]).
    pub(crate) path: Vec<usize>,
}

impl Walk<'_> {
    /// The next field node.
    pub(crate) fn node(&mut self) -> Result<Node> {
        let i = self.next_node;
        if i >= self.nodes.len() {
            return Err(Error::oos(format!("field node {i} is missing")));
        }
        self.next_node += 1;
        let n = self.nodes.get(i);
        let (len, nulls) = (n.length(), n.null_count());
        match (usize::try_from(len), usize::try_from(nulls)) {
            (Ok(len), Ok(nulls)) if nulls <= len => Ok(Node { len, nulls }),
            _ => Err(Error::oos(format!(
                "field node {i} has length {len} and null count {nulls}"
            ))),
        }
    }

    /// Steps over the nodes and buffers of a field of type `dt` without decoding them (the
    /// counts were checked against the message by `check_counts`).
    pub(crate) fn skip(&mut self, dt: &DataType) -> Result<()> {
        let mut needs = Needs::default();
        count(dt, self.v4_unions, &mut needs);
        for _ in 0..needs.nodes {
            self.node()?;
        }
        for _ in 0..needs.buffers {
            self.buffer()?;
        }
        for _ in 0..needs.views {
            for _ in 0..self.variadic_count()? {
                self.buffer()?;
            }
        }
        Ok(())
    }

    /// The next buffer and its index in the message.
    pub(crate) fn buffer(&mut self) -> Result<(usize, Bytes)> {
        let i = self.next_buffer;
        let b = self
            .buffers
            .next()
            .ok_or_else(|| Error::oos(format!("buffer {i} is missing")))?;
        self.next_buffer += 1;
        Ok((i, b))
    }

    /// The next variadic buffer count (for a view field).
    pub(crate) fn variadic_count(&mut self) -> Result<usize> {
        self.variadic
            .next()
            .ok_or_else(|| Error::oos("a view field has no variadic buffer count"))
    }
}

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
    let columns = match options.projection() {
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
    let batch =
        RecordBatch::try_new_with_rows(batch_schema, columns, num_rows).map_err(|e| match e {
            Error::InvalidArgument(m) => Error::oos(m),
            other => other,
        })?;
    // Dictionaries were validated in full when their messages were read (`DictionaryTable`);
    // each batch checks its own buffers and its keys against them.
    batch.validate_trusting_dictionaries(options.level())?;
    Ok(batch)
}

/// The schema of projected batches and which top-level columns to decode (`None`: all).
fn projection(
    schema: &IpcSchema,
    projection: Option<&[usize]>,
) -> Result<(quiver_arrow::SchemaRef, Option<Vec<bool>>)> {
    let Some(p) = projection else {
        return Ok((schema.schema.clone(), None));
    };
    let n = schema.schema.fields.len();
    let mut selected = vec![false; n];
    for &i in p {
        if i >= n {
            return Err(Error::InvalidArgument(format!(
                "projection index {i} is out of range: the schema has {n} fields"
            )));
        }
        selected[i] = true;
    }
    Ok((Arc::new(schema.schema.project(p)?), Some(selected)))
}

/// Decodes the arrays of `roots` from a record batch (or dictionary batch) message, returning
/// them with the batch length; roots not `selected` are skipped (`None`). Arrays are built but
/// not validated.
pub(crate) fn decode_roots(
    message: &Message,
    roots: &[Root<'_>],
    selected: Option<&[bool]>,
    env: &Env<'_>,
) -> Result<(Vec<Option<Array>>, usize)> {
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
    let variadic = check_counts(&rb, roots, v4_unions)?;
    let keep = selected.map(|sel| buffers_kept(roots, sel, &variadic, v4_unions));
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
        if selected.is_some_and(|s| !s.get(k).copied().unwrap_or(true)) {
            walk.skip(root.data_type)
                .map_err(|e| e.context(&root.label))?;
            arrays.push(None);
            continue;
        }
        walk.path.clone_from(&root.path);
        let a = walk
            .decode(root.data_type)
            .map_err(|e| e.context(&root.label))?;
        arrays.push(Some(a));
    }
    Ok((arrays, num_rows))
}

/// Which of the message's buffers belong to selected roots (the counts were checked by
/// `check_counts`, so the ranges add up to the buffer count).
fn buffers_kept(roots: &[Root<'_>], selected: &[bool], variadic: &[usize], v4: bool) -> Vec<bool> {
    let mut keep = Vec::new();
    let mut views = variadic.iter();
    for (k, root) in roots.iter().enumerate() {
        let mut needs = Needs::default();
        count(root.data_type, v4, &mut needs);
        let extra: usize = views.by_ref().take(needs.views).sum();
        let on = selected.get(k).copied().unwrap_or(true);
        keep.extend(std::iter::repeat_n(on, needs.buffers + extra));
    }
    keep
}

/// Nodes, buffers and view fields a set of types needs.
#[derive(Default, Debug, PartialEq)]
struct Needs {
    nodes: usize,
    buffers: usize,
    views: usize,
}

fn count(dt: &DataType, v4_unions: bool, n: &mut Needs) {
    n.nodes += 1;
    n.buffers += match dt {
        DataType::Null | DataType::RunEndEncoded(..) => 0,
        DataType::Struct(_) | DataType::FixedSizeList(..) => 1,
        DataType::Binary | DataType::LargeBinary | DataType::Utf8 | DataType::LargeUtf8 => 3,
        DataType::ListView(_) | DataType::LargeListView(_) => 3,
        DataType::Union(_, mode) => {
            usize::from(v4_unions) + if *mode == UnionMode::Dense { 2 } else { 1 }
        }
        _ => 2,
    };
    if matches!(dt, DataType::BinaryView | DataType::Utf8View) {
        n.views += 1;
    }
    // A dictionary's children (its values) are not part of the batch: `children()` is empty.
    for c in dt.children() {
        count(c.data_type(), v4_unions, n);
    }
}

/// Compares the nodes, buffers and variadic buffer counts of `rb` with what `roots` need;
/// returns the variadic counts.
fn check_counts(rb: &fb::RecordBatch<'_>, roots: &[Root<'_>], v4: bool) -> Result<Vec<usize>> {
    let mut needs = Needs::default();
    for r in roots {
        count(r.data_type, v4, &mut needs);
    }
    let nodes = rb.nodes().map_or(0, |v| v.len());
    if nodes != needs.nodes {
        return Err(Error::oos(format!(
            "the schema needs {} field nodes but the message has {nodes}",
            needs.nodes
        )));
    }
    let counts = rb.variadicBufferCounts().map_or(0, |v| v.len());
    if counts != needs.views {
        return Err(Error::oos(format!(
            "the schema has {} view fields but the message has {counts} variadic buffer counts",
            needs.views
        )));
    }
    let mut variadic = Vec::with_capacity(counts);
    let mut total = needs.buffers;
    for c in rb.variadicBufferCounts().iter().flatten() {
        let c = usize::try_from(c)
            .map_err(|_| Error::oos(format!("variadic buffer count {c} is negative")))?;
        total = total
            .checked_add(c)
            .ok_or_else(|| Error::oos("variadic buffer counts overflow"))?;
        variadic.push(c);
    }
    let buffers = rb.buffers().map_or(0, |v| v.len());
    if buffers != total {
        return Err(Error::oos(format!(
            "the schema needs {total} buffers ({} fixed + {} variadic) but the message has {buffers}",
            needs.buffers,
            total - needs.buffers
        )));
    }
    Ok(variadic)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quiver_arrow::{Field, UnionFields};

    #[test]
    fn counts_per_layout() {
        let dt = DataType::Struct(
            vec![
                Field::new("a", DataType::Utf8View, true),
                Field::new("b", DataType::list_of(DataType::Int32), true),
                Field::new(
                    "c",
                    DataType::dictionary(
                        quiver_arrow::IntegerType::Int8,
                        DataType::list_of(DataType::Utf8),
                    ),
                    true,
                ),
                Field::new("n", DataType::Null, true),
            ]
            .into(),
        );
        let mut n = Needs::default();
        count(&dt, false, &mut n);
        assert_eq!(
            n,
            Needs {
                nodes: 6,
                buffers: 1 + 2 + 2 + 2 + 2,
                views: 1
            }
        );
        let u = DataType::Union(
            UnionFields::with_default_ids(vec![Field::new("i", DataType::Int8, true)]),
            UnionMode::Dense,
        );
        let (mut v5, mut v4) = (Needs::default(), Needs::default());
        count(&u, false, &mut v5);
        count(&u, true, &mut v4);
        assert_eq!((v5.buffers, v4.buffers), (4, 5));
    }
}
