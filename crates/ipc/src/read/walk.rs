//! The walk over one message's field nodes and buffers (sans-IO, format layer).
//!
//! The fields of the schema are walked in pre-order. Which buffers and children each field
//! has comes from the layout table ([`DataType::layout`]); the only IPC addition is the
//! validity slot unions had before metadata V5. A dictionary-encoded field has the node and
//! buffers of its indices only; its values come from the dictionary batch with the field's id.
//!
//! Before walking, the counts the schema needs are compared with the counts the message has
//! ([`check_counts`]), so the walk itself only fails on content.

use super::ReadOptions;
use crate::fb::org::apache::arrow::flatbuf as fb;
use crate::schema::{DictionaryFields, Endianness};
use bytes::Bytes;
use quiver_arrow::datatype::BufferKind;
use quiver_arrow::{Array, DataType, Error, Result};
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

/// True for a union read from metadata before V5, which has a validity slot first.
fn v4_union(dt: &DataType, v4_unions: bool) -> bool {
    v4_unions && matches!(dt, DataType::Union(..))
}

/// The fixed buffers of one field node, by kind, each with its index in the message.
pub(crate) struct NodeBuffers {
    slots: [Option<(usize, Bytes)>; 8],
}

impl NodeBuffers {
    /// The buffer of `kind` (each kind is taken once; the layout table says which exist).
    pub(crate) fn take(&mut self, kind: BufferKind) -> Result<(usize, Bytes)> {
        self.slots[kind as usize]
            .take()
            .ok_or_else(|| Error::oos(format!("the field has no {kind} buffer")))
    }
}

/// The walk over one message's nodes and buffers.
pub(crate) struct Walk<'a> {
    pub(crate) nodes: flatbuffers::Vector<'a, fb::FieldNode>,
    pub(crate) next_node: usize,
    pub(crate) buffers: std::vec::IntoIter<Bytes>,
    pub(crate) next_buffer: usize,
    pub(crate) variadic: std::vec::IntoIter<usize>,
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
        let node = checked_node(&self.nodes, self.next_node)?;
        self.next_node += 1;
        Ok(node)
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

    /// The fixed buffers of a field of type `dt`, in the layout table's order. A union of
    /// metadata before V5 has its validity slot first; it must not mark any slot null.
    pub(crate) fn node_buffers(&mut self, dt: &DataType, node: Node) -> Result<NodeBuffers> {
        if v4_union(dt, self.v4_unions) {
            let (i, _) = self.buffer()?;
            if node.nulls > 0 {
                return Err(Error::not_supported(format!(
                    "a union with {} top-level nulls (buffer {i}, metadata before V5)",
                    node.nulls
                )));
            }
        }
        let mut b = NodeBuffers {
            slots: Default::default(),
        };
        for &kind in dt.layout().buffers {
            b.slots[kind as usize] = Some(self.buffer()?);
        }
        Ok(b)
    }

    /// The next variadic buffer count (for a view field).
    pub(crate) fn variadic_count(&mut self) -> Result<usize> {
        self.variadic
            .next()
            .ok_or_else(|| Error::oos("a view field has no variadic buffer count"))
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
}

/// Field node `i` of a message, checked to exist, be non-negative and have no more nulls
/// than slots.
pub(crate) fn checked_node(
    nodes: &flatbuffers::Vector<'_, fb::FieldNode>,
    i: usize,
) -> Result<Node> {
    if i >= nodes.len() {
        return Err(Error::oos(format!("field node {i} is missing")));
    }
    let n = nodes.get(i);
    let (len, nulls) = (n.length(), n.null_count());
    match (usize::try_from(len), usize::try_from(nulls)) {
        (Ok(len), Ok(nulls)) if nulls <= len => Ok(Node { len, nulls }),
        _ => Err(Error::oos(format!(
            "field node {i} has length {len} and null count {nulls}"
        ))),
    }
}

/// Nodes, buffers and view fields a set of types needs.
#[derive(Default, Debug, PartialEq)]
pub(crate) struct Needs {
    pub(crate) nodes: usize,
    pub(crate) buffers: usize,
    pub(crate) views: usize,
}

/// Adds what a field of type `dt` needs to `n`, from the layout table. A dictionary's values
/// are not part of the batch: its layout has no children.
pub(crate) fn count(dt: &DataType, v4_unions: bool, n: &mut Needs) {
    let layout = dt.layout();
    n.nodes += 1;
    n.buffers += layout.buffers.len() + usize::from(v4_union(dt, v4_unions));
    n.views += usize::from(layout.variadic);
    for c in layout.children.iter() {
        count(c.data_type(), v4_unions, n);
    }
}

/// Compares the nodes, buffers and variadic buffer counts of `rb` with what `types` need;
/// returns the variadic counts.
pub(crate) fn check_counts<'t>(
    rb: &fb::RecordBatch<'_>,
    types: impl Iterator<Item = &'t DataType>,
    v4: bool,
) -> Result<Vec<usize>> {
    let mut needs = Needs::default();
    for t in types {
        count(t, v4, &mut needs);
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

/// Which of the message's buffers belong to the selected types (the counts were checked by
/// `check_counts`, so the ranges add up to the buffer count).
pub(crate) fn buffers_kept(types: &[(&DataType, bool)], variadic: &[usize], v4: bool) -> Vec<bool> {
    let mut keep = Vec::new();
    let mut views = variadic.iter();
    for &(dt, on) in types {
        let mut needs = Needs::default();
        count(dt, v4, &mut needs);
        let extra: usize = views.by_ref().take(needs.views).sum();
        keep.extend(std::iter::repeat_n(on, needs.buffers + extra));
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;
    use quiver_arrow::{Field, UnionFields, UnionMode};

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
