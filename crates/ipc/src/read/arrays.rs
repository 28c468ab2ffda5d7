//! One function per physical layout: field node + buffers (+ children) → array.
//!
//! The buffers of a node arrive by kind ([`NodeBuffers`], in the layout table's order), so the
//! functions here only say what each kind becomes. Arrays are built with constructors that do
//! only O(1) structural checks (the deferring ones for dictionary keys, union ids, run ends and
//! views, and the `unsafe` ones for UTF-8 strings, string views and monotone offsets, whose
//! content other code relies on). Nothing here is returned to a caller before validation: the
//! arrays leave the walk wrapped in [`Unvalidated`](quiver_arrow::validate::Unvalidated)
//! (see `roots.rs`), whose only exits validate them in full, or — behind the `unsafe`
//! [`ReadOptions::with_trusted_input`](super::ReadOptions) — their structure.

use super::endian::{fields_of, swap_fields, swap_views};
use super::walk::{Node, NodeBuffers, Walk};
use bytes::Bytes;
use quiver_arrow::buffer::{Offset, OffsetBuffer};
use quiver_arrow::datatype::BufferKind as K;
use quiver_arrow::{
    Array, Bitmap, Buffer, DataType, DictionaryArray, Error, Field, FieldRef, Fields,
    FixedSizeBinaryArray, FixedSizeListArray, GenericBinaryArray, GenericListArray,
    GenericListViewArray, GenericStringArray, IntegerType, MapArray, NullArray, PrimitiveArray,
    PrimitiveType, Result, RunEndArray, StringViewArray, StructArray, UnionArray, UnionFields,
    UnionMode, View,
};
use quiver_arrow::{BinaryViewArray, BooleanArray, IntervalUnit};
use std::sync::Arc;

impl Walk<'_> {
    /// Decodes the field of type `dt` at the current path (and its children). The array is
    /// not validated: see the module documentation.
    pub(crate) fn decode(&mut self, dt: &DataType) -> Result<Array> {
        let node = self.node()?;
        let mut b = self.node_buffers(dt, node)?;
        if let Some(a) = self.fixed_width(dt, node, &mut b, K::Values) {
            return a;
        }
        let b = &mut b;
        Ok(match dt {
            DataType::Null => Array::Null(NullArray::new(node.len)),
            DataType::Boolean => self.boolean(node, b)?,
            DataType::Binary => Array::Binary(self.binary(node, b)?),
            DataType::LargeBinary => Array::LargeBinary(self.binary(node, b)?),
            DataType::Utf8 => Array::Utf8(self.utf8(node, b)?),
            DataType::LargeUtf8 => Array::LargeUtf8(self.utf8(node, b)?),
            DataType::BinaryView | DataType::Utf8View => self.view(dt, node, b)?,
            DataType::FixedSizeBinary(w) => self.fixed_size_binary(*w, node, b)?,
            DataType::List(f) => Array::List(self.list(f, node, b)?),
            DataType::LargeList(f) => Array::LargeList(self.list(f, node, b)?),
            DataType::ListView(f) => Array::ListView(self.list_view(f, node, b)?),
            DataType::LargeListView(f) => Array::LargeListView(self.list_view(f, node, b)?),
            DataType::FixedSizeList(f, size) => self.fixed_size_list(f, *size, node, b)?,
            DataType::Struct(fields) => Array::Struct(self.struct_(fields, node, b)?),
            DataType::Map(f, sorted) => self.map(f, *sorted, node, b)?,
            DataType::Union(fields, mode) => self.union(fields, *mode, node, b)?,
            DataType::Dictionary { key, ordered, .. } => {
                self.dictionary(*key, *ordered, node, b)?
            }
            DataType::RunEndEncoded(r, v) => self.run_end(r, v, node)?,
            other => return Err(Error::not_supported(format!("reading {other} from IPC"))),
        })
    }

    /// Fixed-width layouts (validity + the values in the buffer of `kind`), `None` for the
    /// others.
    fn fixed_width(
        &mut self,
        dt: &DataType,
        node: Node,
        b: &mut NodeBuffers,
        kind: K,
    ) -> Option<Result<Array>> {
        use DataType as D;
        let p = |dt| Primitive { dt, node, kind };
        Some(match dt {
            D::Int8 => self.primitive(p(dt), b).map(Array::I8),
            D::Int16 => self.primitive(p(dt), b).map(Array::I16),
            D::Int32 | D::Date32 | D::Time32(_) | D::Decimal32 { .. } => {
                self.primitive(p(dt), b).map(Array::I32)
            }
            D::Interval(IntervalUnit::YearMonth) => self.primitive(p(dt), b).map(Array::I32),
            D::Int64 | D::Date64 | D::Time64(_) | D::Timestamp(..) | D::Duration(_) => {
                self.primitive(p(dt), b).map(Array::I64)
            }
            D::Decimal64 { .. } => self.primitive(p(dt), b).map(Array::I64),
            D::UInt8 => self.primitive(p(dt), b).map(Array::U8),
            D::UInt16 => self.primitive(p(dt), b).map(Array::U16),
            D::UInt32 => self.primitive(p(dt), b).map(Array::U32),
            D::UInt64 => self.primitive(p(dt), b).map(Array::U64),
            D::Float16 => self.primitive(p(dt), b).map(Array::F16),
            D::Float32 => self.primitive(p(dt), b).map(Array::F32),
            D::Float64 => self.primitive(p(dt), b).map(Array::F64),
            D::Decimal128 { .. } => self.primitive(p(dt), b).map(Array::I128),
            D::Decimal256 { .. } => self.primitive(p(dt), b).map(Array::I256),
            D::Interval(IntervalUnit::DayTime) => self.primitive(p(dt), b).map(Array::DaysMs),
            D::Interval(IntervalUnit::MonthDayNano) => {
                self.primitive(p(dt), b).map(Array::MonthDayNano)
            }
            _ => return None,
        })
    }

    /// The validity bitmap: `None` when the node has no nulls (the buffer may then be empty,
    /// and is ignored otherwise, as other readers do); else a bitmap stating the node's null
    /// count, which full validation compares with the bits.
    fn validity(&mut self, node: Node, b: &mut NodeBuffers) -> Result<Option<Bitmap>> {
        let (i, raw) = b.take(K::Validity)?;
        if node.nulls == 0 {
            return Ok(None);
        }
        if raw.is_empty() {
            return Err(Error::oos(format!(
                "buffer {i} (validity) is empty but the node has {} nulls",
                node.nulls
            )));
        }
        Bitmap::try_new_with_unset(raw, 0, node.len, node.nulls)
            .map(Some)
            .map_err(|e| e.context(format!("buffer {i} (validity)")))
    }

    /// `count` values of `T` from the buffer of `kind` (native byte order, aligned).
    fn values<T: quiver_arrow::NativeType>(
        &mut self,
        b: &mut NodeBuffers,
        kind: K,
        count: usize,
    ) -> Result<Buffer<T>> {
        let (i, raw) = b.take(kind)?;
        let raw = sized::<T>(i, raw, count, kind)?;
        Ok(Buffer::from_bytes(
            if self.big_endian && std::mem::size_of::<T>() > 1 {
                swap_fields(&raw, fields_of(T::NAME, std::mem::size_of::<T>()))
            } else {
                raw
            },
        ))
    }

    fn primitive<T: PrimitiveType>(
        &mut self,
        p: Primitive<'_>,
        b: &mut NodeBuffers,
    ) -> Result<PrimitiveArray<T>> {
        let validity = self.validity(p.node, b)?;
        let values = self.values::<T>(b, p.kind, p.node.len)?;
        PrimitiveArray::try_new(p.dt.clone(), values, validity)
    }

    fn boolean(&mut self, node: Node, b: &mut NodeBuffers) -> Result<Array> {
        let validity = self.validity(node, b)?;
        let (i, raw) = b.take(K::Values)?;
        let values = Bitmap::try_new(raw, 0, node.len)
            .map_err(|e| e.context(format!("buffer {i} (values)")))?;
        Ok(Array::Boolean(BooleanArray::try_new(values, validity)?))
    }

    /// `len + 1` offsets (an empty buffer stands for `[0]` when `len` is 0).
    fn offsets<O: Offset>(&mut self, b: &mut NodeBuffers, len: usize) -> Result<OffsetBuffer<O>> {
        let count = len
            .checked_add(1)
            .ok_or_else(|| Error::oos("length overflows"))?;
        let (i, raw) = b.take(K::Offsets)?;
        if len == 0 && raw.len() < std::mem::size_of::<O>() {
            return Ok(OffsetBuffer::new_empty());
        }
        let raw = sized::<O>(i, raw, count, K::Offsets)?;
        let buffer = Buffer::from_bytes(if self.big_endian {
            swap_fields(&raw, fields_of(O::NAME, std::mem::size_of::<O>()))
        } else {
            raw
        });
        // SAFETY: monotone offsets are a content invariant that `validate(Full)` checks
        // (`check_var`): every array this walk builds leaves it as `Unvalidated`, whose only
        // safe exit validates in full (see the module documentation); the structural exit is
        // for callers of the `unsafe` `ReadOptions::with_trusted_input`, who promised valid
        // input. Checking here as well would read every offset twice.
        Ok(unsafe { OffsetBuffer::new_unchecked(buffer) })
    }

    fn binary<O: Offset>(
        &mut self,
        node: Node,
        b: &mut NodeBuffers,
    ) -> Result<GenericBinaryArray<O>> {
        let validity = self.validity(node, b)?;
        let offsets = self.offsets::<O>(b, node.len)?;
        let (_, data) = b.take(K::Data)?;
        GenericBinaryArray::try_new(offsets, Buffer::from_bytes(data), validity)
    }

    fn utf8<O: Offset>(
        &mut self,
        node: Node,
        b: &mut NodeBuffers,
    ) -> Result<GenericStringArray<O>> {
        let validity = self.validity(node, b)?;
        let offsets = self.offsets::<O>(b, node.len)?;
        let (_, data) = b.take(K::Data)?;
        let data = Buffer::from_bytes(data);
        // SAFETY: UTF-8 is checked once, by the full validation every decoded array gets on
        // its way out of `Unvalidated` (see `offsets`), or promised by a `with_trusted_input`
        // caller.
        unsafe { GenericStringArray::new_unchecked_utf8(offsets, data, validity) }
    }

    fn view(&mut self, dt: &DataType, node: Node, b: &mut NodeBuffers) -> Result<Array> {
        let validity = self.validity(node, b)?;
        let (i, raw) = b.take(K::Views)?;
        let raw = sized::<View>(i, raw, node.len, K::Views)?;
        let views = Buffer::from_bytes(if self.big_endian {
            swap_views(&raw)
        } else {
            raw
        });
        let n = self.variadic_count()?;
        let data = (0..n)
            .map(|_| self.buffer().map(|(_, b)| Buffer::from_bytes(b)))
            .collect::<Result<Arc<[Buffer<u8>]>>>()?;
        if *dt == DataType::BinaryView {
            return Ok(Array::BinaryView(BinaryViewArray::try_new_deferred(
                views, data, validity,
            )?));
        }
        // SAFETY: views in bounds and UTF-8 values are checked once, by the full validation
        // every decoded array gets on its way out of `Unvalidated` (see `offsets`), or promised
        // by a `with_trusted_input` caller.
        Ok(Array::Utf8View(unsafe {
            StringViewArray::new_unchecked(views, data, validity)?
        }))
    }

    fn fixed_size_binary(&mut self, width: i32, node: Node, b: &mut NodeBuffers) -> Result<Array> {
        let validity = self.validity(node, b)?;
        let w = usize::try_from(width)
            .map_err(|_| Error::oos(format!("FixedSizeBinary width {width}")))?;
        let count = w
            .checked_mul(node.len)
            .ok_or_else(|| Error::oos("FixedSizeBinary length overflows"))?;
        let (i, raw) = b.take(K::Values)?;
        let raw = sized::<u8>(i, raw, count, K::Values)?;
        Ok(Array::FixedSizeBinary(FixedSizeBinaryArray::try_new(
            width,
            node.len,
            Buffer::from_bytes(raw),
            validity,
        )?))
    }

    /// Child `j` (of field `f`) at path `path + [j]`, errors naming it.
    fn child(&mut self, j: usize, f: &Field) -> Result<Array> {
        self.path.push(j);
        let r = self.decode(f.data_type());
        self.path.pop();
        r.map_err(|e| e.context(format!("child {j} (\"{}\")", f.name())))
    }

    fn list<O: Offset>(
        &mut self,
        f: &FieldRef,
        node: Node,
        b: &mut NodeBuffers,
    ) -> Result<GenericListArray<O>> {
        let validity = self.validity(node, b)?;
        let offsets = self.offsets::<O>(b, node.len)?;
        let values = self.child(0, f)?;
        GenericListArray::try_new(f.clone(), offsets, values, validity)
    }

    fn list_view<O: Offset>(
        &mut self,
        f: &FieldRef,
        node: Node,
        b: &mut NodeBuffers,
    ) -> Result<GenericListViewArray<O>> {
        let validity = self.validity(node, b)?;
        let offsets = self.values::<O>(b, K::Offsets, node.len)?;
        let sizes = self.values::<O>(b, K::Sizes, node.len)?;
        let values = self.child(0, f)?;
        GenericListViewArray::try_new_deferred(f.clone(), offsets, sizes, values, validity)
    }

    fn fixed_size_list(
        &mut self,
        f: &FieldRef,
        size: i32,
        node: Node,
        b: &mut NodeBuffers,
    ) -> Result<Array> {
        let validity = self.validity(node, b)?;
        let values = self.child(0, f)?;
        Ok(Array::FixedSizeList(FixedSizeListArray::try_new(
            f.clone(),
            size,
            node.len,
            values,
            validity,
        )?))
    }

    fn struct_(&mut self, fields: &Fields, node: Node, b: &mut NodeBuffers) -> Result<StructArray> {
        let validity = self.validity(node, b)?;
        let children = fields
            .iter()
            .enumerate()
            .map(|(j, f)| self.child(j, f))
            .collect::<Result<Vec<_>>>()?;
        StructArray::try_new(fields.clone(), node.len, children, validity)
    }

    fn map(
        &mut self,
        f: &FieldRef,
        sorted: bool,
        node: Node,
        b: &mut NodeBuffers,
    ) -> Result<Array> {
        let validity = self.validity(node, b)?;
        let offsets = self.offsets::<i32>(b, node.len)?;
        let Array::Struct(entries) = self.child(0, f)? else {
            return Err(Error::oos(format!(
                "map entries are {}, not a struct",
                f.data_type()
            )));
        };
        Ok(Array::Map(MapArray::try_new(
            f.clone(),
            sorted,
            offsets,
            entries,
            validity,
        )?))
    }

    fn union(
        &mut self,
        fields: &UnionFields,
        mode: UnionMode,
        node: Node,
        b: &mut NodeBuffers,
    ) -> Result<Array> {
        let type_ids = self.values::<i8>(b, K::TypeIds, node.len)?;
        let offsets = match mode {
            UnionMode::Dense => Some(self.values::<i32>(b, K::Offsets, node.len)?),
            UnionMode::Sparse => None,
        };
        let children = fields
            .fields()
            .iter()
            .enumerate()
            .map(|(j, f)| self.child(j, f))
            .collect::<Result<Vec<_>>>()?;
        Ok(Array::Union(UnionArray::try_new_deferred(
            fields.clone(),
            mode,
            type_ids,
            offsets,
            children,
        )?))
    }

    fn dictionary(
        &mut self,
        key: IntegerType,
        ordered: bool,
        node: Node,
        b: &mut NodeBuffers,
    ) -> Result<Array> {
        let key_type = key.data_type();
        let keys = self
            .fixed_width(&key_type, node, b, K::Indices)
            .unwrap_or_else(|| Err(Error::oos(format!("dictionary key type {key_type}"))))?;
        let id = self.ids.id_at(&self.path).ok_or_else(|| {
            Error::oos(format!("no dictionary id for the field at {:?}", self.path))
        })?;
        let values = self.dictionaries.get(&id).ok_or_else(|| {
            Error::oos(format!(
                "no dictionary with id {id} has been read before this batch"
            ))
        })?;
        Ok(Array::Dictionary(DictionaryArray::try_new_deferred(
            keys,
            values.clone(),
            ordered,
        )?))
    }

    fn run_end(&mut self, r: &FieldRef, v: &FieldRef, node: Node) -> Result<Array> {
        let run_ends = self.child(0, r)?;
        let values = self.child(1, v)?;
        let a = RunEndArray::try_new_deferred(run_ends, values, 0, node.len)?;
        Ok(Array::RunEndEncoded(a.with_fields(r.clone(), v.clone())?))
    }
}

/// A fixed-width field to decode: its type, node, and the kind of its values buffer
/// (`Indices` for the keys of a dictionary).
struct Primitive<'a> {
    dt: &'a DataType,
    node: Node,
    kind: K,
}

/// The first `count` values of `T` in buffer `index` (of `kind`), an error when it is too
/// short.
fn sized<T: quiver_arrow::NativeType>(
    index: usize,
    raw: Bytes,
    count: usize,
    kind: K,
) -> Result<Bytes> {
    let size = std::mem::size_of::<T>();
    let need = count.checked_mul(size).ok_or_else(|| {
        Error::oos(format!(
            "buffer {index} ({kind}): {count} values of {size} bytes overflow"
        ))
    })?;
    if raw.len() < need {
        return Err(Error::oos(format!(
            "buffer {index} ({kind}) has {} bytes but {count} values of {} need {need}",
            raw.len(),
            T::NAME
        )));
    }
    Ok(raw.slice(..need))
}
