//! Arrays → field nodes and body buffers, in the depth-first pre-order of the IPC format.
//!
//! Buffers per layout (the columnar format's "Buffer Layouts"): validity then values for
//! primitives and booleans; validity, offsets, data for binary and UTF-8; validity, views and
//! the variadic data buffers for views; validity and offsets for lists and maps (plus sizes
//! for list views); validity alone for fixed-size lists and structs; type ids (and offsets when
//! dense) for unions, which have no validity; nothing for Null and run-end encoded arrays;
//! dictionary-encoded arrays write their keys (the dictionary goes in its own message).
//!
//! A validity buffer is written empty when there are no nulls.

use super::WriteOptions;
use super::body::{EncodedBatch, FieldNode, RawBatch};
use super::normalize;
use bytes::Bytes;
use quiver_arrow::buffer::{Offset, OffsetBuffer};
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

impl Encoder {
    fn node(&mut self, length: usize, null_count: usize) {
        self.raw.nodes.push(FieldNode { length, null_count });
    }

    fn buffer(&mut self, b: Bytes) {
        self.raw.buffers.push(b);
    }

    fn typed<T: quiver_arrow::NativeType>(&mut self, b: &Buffer<T>) {
        self.buffer(b.bytes().clone());
    }

    /// The node and validity buffer every layout with a validity bitmap starts with.
    fn head(&mut self, length: usize, validity: Option<&Bitmap>) {
        let nulls = validity.map_or(0, Bitmap::unset_bits);
        self.node(length, nulls);
        match validity {
            Some(v) if nulls > 0 => self.buffer(normalize::bitmap_bytes(v)),
            _ => self.buffer(Bytes::new()),
        }
    }

    fn array(&mut self, a: &Array) -> Result<()> {
        quiver_arrow::match_primitive!(a, p => {
            self.head(p.len(), p.validity());
            self.typed(p.values());
            Ok(())
        }, _ => self.non_primitive(a))
    }

    fn non_primitive(&mut self, a: &Array) -> Result<()> {
        match a {
            Array::Null(n) => self.node(n.len(), n.len()),
            Array::Boolean(b) => {
                self.head(b.len(), b.validity());
                self.buffer(normalize::bitmap_bytes(b.values()));
            }
            Array::Binary(b) => self.binary(b.offsets(), b.values(), b.validity())?,
            Array::LargeBinary(b) => self.binary(b.offsets(), b.values(), b.validity())?,
            Array::Utf8(b) => self.binary(b.offsets(), b.values(), b.validity())?,
            Array::LargeUtf8(b) => self.binary(b.offsets(), b.values(), b.validity())?,
            Array::BinaryView(v) => self.views(v.views(), v.data_buffers(), v.validity())?,
            Array::Utf8View(v) => self.views(v.views(), v.data_buffers(), v.validity())?,
            Array::FixedSizeBinary(f) => {
                self.head(f.len(), f.validity());
                self.typed(f.values());
            }
            Array::Dictionary(d) => self.array(d.keys())?,
            _ => self.nested(a)?,
        }
        Ok(())
    }

    fn nested(&mut self, a: &Array) -> Result<()> {
        match a {
            Array::List(l) => self.list(l.offsets(), l.validity(), l.values()),
            Array::LargeList(l) => self.list(l.offsets(), l.validity(), l.values()),
            Array::Map(m) => {
                self.head(m.len(), m.validity());
                let (offsets, range) = normalize::rebase_offsets(m.offsets())?;
                self.buffer(offsets);
                let entries = m.entries().slice(range.start, range.len());
                self.array(&Array::Struct(entries))
            }
            Array::ListView(l) => {
                self.head(l.len(), l.validity());
                let (offsets, sizes, child) = normalize::list_view(l)?;
                self.buffer(offsets);
                self.buffer(sizes);
                self.array(&child)
            }
            Array::LargeListView(l) => {
                self.head(l.len(), l.validity());
                let (offsets, sizes, child) = normalize::list_view(l)?;
                self.buffer(offsets);
                self.buffer(sizes);
                self.array(&child)
            }
            Array::FixedSizeList(l) => {
                self.head(l.len(), l.validity());
                self.array(l.values())
            }
            Array::Struct(s) => {
                self.head(s.len(), s.validity());
                s.columns().iter().try_for_each(|c| self.array(c))
            }
            Array::Union(u) => self.union(u),
            Array::RunEndEncoded(r) => {
                self.node(r.len(), 0);
                let (run_ends, values) = normalize::run_ends(r)?;
                self.array(&run_ends)?;
                self.array(&values)
            }
            other => Err(Error::NotSupported(format!(
                "writing {} arrays to IPC",
                other.data_type()
            ))),
        }
    }

    fn binary<O: Offset>(
        &mut self,
        offsets: &OffsetBuffer<O>,
        values: &Buffer<u8>,
        validity: Option<&Bitmap>,
    ) -> Result<()> {
        self.head(offsets.len(), validity);
        let (offsets, range) = normalize::rebase_offsets(offsets)?;
        self.buffer(offsets);
        self.buffer(values.bytes().slice(range));
        Ok(())
    }

    fn views(
        &mut self,
        views: &Buffer<quiver_arrow::View>,
        data: &[Buffer<u8>],
        validity: Option<&Bitmap>,
    ) -> Result<()> {
        self.head(views.len(), validity);
        let (views, data) = normalize::views(views, data, validity)?;
        self.buffer(views);
        self.raw.variadic_counts.push(data.len() as i64);
        self.raw.buffers.extend(data);
        Ok(())
    }

    fn list<O: Offset>(
        &mut self,
        offsets: &OffsetBuffer<O>,
        validity: Option<&Bitmap>,
        child: &Array,
    ) -> Result<()> {
        self.head(offsets.len(), validity);
        let (offsets, range) = normalize::rebase_offsets(offsets)?;
        self.buffer(offsets);
        let child = if range == (0..child.len()) {
            Cow::Borrowed(child)
        } else {
            Cow::Owned(child.slice(range.start, range.len()))
        };
        self.array(&child)
    }

    fn union(&mut self, u: &quiver_arrow::UnionArray) -> Result<()> {
        self.node(u.len(), 0);
        self.typed(u.type_ids());
        if u.offsets().is_none() {
            return u.children().iter().try_for_each(|c| self.array(c));
        }
        let (offsets, children) = normalize::dense_union(u)?;
        self.buffer(offsets);
        children.iter().try_for_each(|c| self.array(c))
    }
}
