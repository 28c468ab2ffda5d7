//! Arrays → field nodes and body buffers, in the depth-first pre-order of the IPC format.
//!
//! Each array says what its buffers hold, by kind; the layout table
//! ([`DataType::layout`](quiver_arrow::DataType::layout)) gives their order. A view array's
//! data buffers follow its fixed buffers (their number goes into the variadic buffer counts);
//! a dictionary-encoded array writes its indices (the dictionary goes in its own message). A
//! validity buffer is written empty when there are no nulls.

use super::WriteOptions;
use super::body::{EncodedBatch, FieldNode, RawBatch};
use super::normalize;
use bytes::Bytes;
use quiver_arrow::buffer::{Offset, OffsetBuffer};
use quiver_arrow::datatype::BufferKind as K;
use quiver_arrow::{Array, Bitmap, Buffer, Error, RecordBatch, Result};
use std::borrow::Cow;

/// Encodes the columns of `batch` for a `RecordBatch` message.
///
/// ```
/// use quiver_arrow::{Array, DataType, Field, PrimitiveArray, RecordBatch, Schema};
/// use quiver_ipc::write::{encode_record_batch, FieldNode, WriteOptions};
/// use std::sync::Arc;
/// let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int32, true)]));
/// let x = Array::from(PrimitiveArray::<i32>::from_options([Some(1), None, Some(3)]));
/// let batch = RecordBatch::try_new(schema, vec![x]).unwrap();
/// let e = encode_record_batch(&batch, &WriteOptions::default()).unwrap();
/// assert_eq!(e.nodes(), &[FieldNode { length: 3, null_count: 1 }]);
/// assert_eq!(e.buffers().len(), 2); // validity, values
/// assert_eq!(e.body_len(), 8 + 16);
/// ```
pub fn encode_record_batch(batch: &RecordBatch, options: &WriteOptions) -> Result<EncodedBatch> {
    encode_arrays(batch.columns(), batch.num_rows(), options)
}

/// Encodes `columns` (each `length` long) as the body of one message: a record batch, or with
/// a single column the values of a dictionary batch.
pub fn encode_arrays(
    columns: &[Array],
    length: usize,
    options: &WriteOptions,
) -> Result<EncodedBatch> {
    EncodedBatch::layout(encode_raw(columns, length, options)?, options)
}

/// Nodes and (uncompressed, unpadded) buffers of `columns`, each `length` long.
pub(crate) fn encode_raw(
    columns: &[Array],
    length: usize,
    options: &WriteOptions,
) -> Result<RawBatch> {
    options.check()?;
    let mut e = Encoder {
        raw: RawBatch {
            length,
            ..RawBatch::default()
        },
    };
    for (i, c) in columns.iter().enumerate() {
        if c.len() != length {
            return Err(Error::invalid(format!(
                "column {i} has {} rows but the batch has {length}",
                c.len()
            )));
        }
        e.array(c)?;
    }
    Ok(e.raw)
}

/// Walks arrays, collecting nodes and buffers.
struct Encoder {
    raw: RawBatch,
}

/// The buffers of one node, by kind; [`Encoder::node`] writes them in the order of the layout
/// table ([`DataType::layout`](quiver_arrow::DataType::layout)).
#[derive(Default)]
struct NodeBuffers {
    slots: [Option<Bytes>; 8],
}

impl NodeBuffers {
    /// The validity bitmap of a node with `nulls` nulls: empty when there are none.
    fn with_validity(validity: Option<&Bitmap>, nulls: usize) -> Self {
        let mut b = NodeBuffers::default();
        b.slots[K::Validity as usize] = Some(match validity {
            Some(v) if nulls > 0 => normalize::bitmap_bytes(v),
            _ => Bytes::new(),
        });
        b
    }

    fn with(mut self, kind: K, bytes: Bytes) -> Self {
        self.slots[kind as usize] = Some(bytes);
        self
    }
}

impl Encoder {
    /// Writes the field node of `a` and its buffers in the layout table's order.
    fn node(&mut self, a: &Array, null_count: usize, mut b: NodeBuffers) -> Result<()> {
        self.raw.nodes.push(FieldNode {
            length: a.len(),
            null_count,
        });
        for &kind in a.data_type().layout().buffers {
            let bytes = b.slots[kind as usize].take().ok_or_else(|| {
                Error::invalid(format!(
                    "internal: no {kind} buffer encoded for a {} array",
                    a.data_type()
                ))
            })?;
            self.raw.buffers.push(bytes);
        }
        Ok(())
    }

    /// A node with a validity bitmap and buffers `more`, by kind.
    fn validity_node(
        &mut self,
        a: &Array,
        validity: Option<&Bitmap>,
        more: &[(K, Bytes)],
    ) -> Result<()> {
        let nulls = validity.map_or(0, Bitmap::unset_bits);
        let b = more
            .iter()
            .fold(NodeBuffers::with_validity(validity, nulls), |b, (k, x)| {
                b.with(*k, x.clone())
            });
        self.node(a, nulls, b)
    }

    fn array(&mut self, a: &Array) -> Result<()> {
        quiver_arrow::match_primitive!(a, p => {
            self.validity_node(a, p.validity(), &[(K::Values, p.values().bytes().clone())])
        }, _ => self.non_primitive(a))
    }

    fn non_primitive(&mut self, a: &Array) -> Result<()> {
        match a {
            Array::Null(n) => self.node(a, n.len(), NodeBuffers::default()),
            Array::Boolean(b) => {
                let values = normalize::bitmap_bytes(b.values());
                self.validity_node(a, b.validity(), &[(K::Values, values)])
            }
            Array::Binary(b) => self.binary(a, b.offsets(), b.values(), b.validity()),
            Array::LargeBinary(b) => self.binary(a, b.offsets(), b.values(), b.validity()),
            Array::Utf8(b) => self.binary(a, b.offsets(), b.values(), b.validity()),
            Array::LargeUtf8(b) => self.binary(a, b.offsets(), b.values(), b.validity()),
            Array::BinaryView(v) => self.views(a, v.views(), v.data_buffers(), v.validity()),
            Array::Utf8View(v) => self.views(a, v.views(), v.data_buffers(), v.validity()),
            Array::FixedSizeBinary(f) => {
                self.validity_node(a, f.validity(), &[(K::Values, f.values().bytes().clone())])
            }
            Array::Dictionary(d) => {
                let keys = d.keys();
                let indices = quiver_arrow::match_primitive!(keys, p => p.values().bytes().clone(),
                _ => return Err(Error::invalid(format!(
                    "dictionary keys must be integers, not {}", keys.data_type()
                ))));
                self.validity_node(a, keys.validity(), &[(K::Indices, indices)])
            }
            _ => self.nested(a),
        }
    }

    fn nested(&mut self, a: &Array) -> Result<()> {
        match a {
            Array::List(l) => self.list(a, l.offsets(), l.validity(), l.values()),
            Array::LargeList(l) => self.list(a, l.offsets(), l.validity(), l.values()),
            Array::Map(m) => {
                let (offsets, range) = normalize::rebase_offsets(m.offsets())?;
                self.validity_node(a, m.validity(), &[(K::Offsets, offsets)])?;
                let entries = m.entries().slice(range.start, range.len());
                self.array(&Array::Struct(entries))
            }
            Array::ListView(l) => {
                let (offsets, sizes, child) = normalize::list_view(l)?;
                let more = [(K::Offsets, offsets), (K::Sizes, sizes)];
                self.validity_node(a, l.validity(), &more)?;
                self.array(&child)
            }
            Array::LargeListView(l) => {
                let (offsets, sizes, child) = normalize::list_view(l)?;
                let more = [(K::Offsets, offsets), (K::Sizes, sizes)];
                self.validity_node(a, l.validity(), &more)?;
                self.array(&child)
            }
            Array::FixedSizeList(l) => {
                self.validity_node(a, l.validity(), &[])?;
                self.array(l.values())
            }
            Array::Struct(s) => {
                self.validity_node(a, s.validity(), &[])?;
                s.columns().iter().try_for_each(|c| self.array(c))
            }
            Array::Union(u) => self.union(a, u),
            Array::RunEndEncoded(r) => {
                self.node(a, 0, NodeBuffers::default())?;
                let (run_ends, values) = normalize::run_ends(r)?;
                self.array(&run_ends)?;
                self.array(&values)
            }
            other => Err(Error::not_supported(format!(
                "writing {} arrays to IPC",
                other.data_type()
            ))),
        }
    }

    fn binary<O: Offset>(
        &mut self,
        a: &Array,
        offsets: &OffsetBuffer<O>,
        values: &Buffer<u8>,
        validity: Option<&Bitmap>,
    ) -> Result<()> {
        let (offsets, range) = normalize::rebase_offsets(offsets)?;
        let data = values.bytes().slice(range);
        self.validity_node(a, validity, &[(K::Offsets, offsets), (K::Data, data)])
    }

    fn views(
        &mut self,
        a: &Array,
        views: &Buffer<quiver_arrow::View>,
        data: &[Buffer<u8>],
        validity: Option<&Bitmap>,
    ) -> Result<()> {
        let (views, data) = normalize::views(views, data, validity)?;
        self.validity_node(a, validity, &[(K::Views, views)])?;
        self.raw.variadic_counts.push(data.len() as i64);
        self.raw.buffers.extend(data);
        Ok(())
    }

    fn list<O: Offset>(
        &mut self,
        a: &Array,
        offsets: &OffsetBuffer<O>,
        validity: Option<&Bitmap>,
        child: &Array,
    ) -> Result<()> {
        let (offsets, range) = normalize::rebase_offsets(offsets)?;
        self.validity_node(a, validity, &[(K::Offsets, offsets)])?;
        let child = if range == (0..child.len()) {
            Cow::Borrowed(child)
        } else {
            Cow::Owned(child.slice(range.start, range.len()))
        };
        self.array(&child)
    }

    fn union(&mut self, a: &Array, u: &quiver_arrow::UnionArray) -> Result<()> {
        let type_ids = NodeBuffers::default().with(K::TypeIds, u.type_ids().bytes().clone());
        if u.offsets().is_none() {
            self.node(a, 0, type_ids)?;
            return u.children().iter().try_for_each(|c| self.array(c));
        }
        let (offsets, children) = normalize::dense_union(u)?;
        self.node(a, 0, type_ids.with(K::Offsets, offsets))?;
        children.iter().try_for_each(|c| self.array(c))
    }
}
