//! One function per physical layout: field node + buffers (+ children) → array.
//!
//! Arrays are built with constructors that do only O(1) structural checks (the `unchecked`
//! ones for dictionary keys, union ids, run ends and views); their content is checked by full
//! validation afterwards. The constructors that are `unsafe` because other code relies on their
//! content (UTF-8 strings and views, monotone offsets) are only used when the caller promised
//! valid input with the `unsafe` [`ReadOptions::with_trusted_input`](super::ReadOptions);
//! otherwise the checking constructors are used.

use super::decode::{Node, Walk};
use super::endian::{fields_of, swap_fields, swap_views};
use bytes::Bytes;
use quiver_arrow::buffer::{Offset, OffsetBuffer};
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
    /// Decodes the field of type `dt` at the current path (and its children).
    pub(crate) fn decode(&mut self, dt: &DataType) -> Result<Array> {
        let node = self.node()?;
        if let Some(a) = self.fixed_width(dt, node) {
            return a;
        }
        Ok(match dt {
            DataType::Null => Array::Null(NullArray::new(node.len)),
            DataType::Boolean => self.boolean(node)?,
            DataType::Binary => Array::Binary(self.binary(node)?),
            DataType::LargeBinary => Array::LargeBinary(self.binary(node)?),
            DataType::Utf8 => Array::Utf8(self.utf8(node)?),
            DataType::LargeUtf8 => Array::LargeUtf8(self.utf8(node)?),
            DataType::BinaryView | DataType::Utf8View => self.view(dt, node)?,
            DataType::FixedSizeBinary(w) => self.fixed_size_binary(*w, node)?,
            DataType::List(f) => Array::List(self.list(f, node)?),
            DataType::LargeList(f) => Array::LargeList(self.list(f, node)?),
            DataType::ListView(f) => Array::ListView(self.list_view(f, node)?),
            DataType::LargeListView(f) => Array::LargeListView(self.list_view(f, node)?),
            DataType::FixedSizeList(f, size) => self.fixed_size_list(f, *size, node)?,
            DataType::Struct(fields) => Array::Struct(self.struct_(fields, node)?),
            DataType::Map(f, sorted) => self.map(f, *sorted, node)?,
            DataType::Union(fields, mode) => self.union(fields, *mode, node)?,
            DataType::Dictionary { key, ordered, .. } => self.dictionary(*key, *ordered, node)?,
            DataType::RunEndEncoded(r, v) => self.run_end(r, v, node)?,
            other => return Err(Error::NotSupported(format!("reading {other} from IPC"))),
        })
    }

    /// Fixed-width layouts (validity + values), `None` for the others.
    fn fixed_width(&mut self, dt: &DataType, node: Node) -> Option<Result<Array>> {
        use DataType as D;
        Some(match dt {
            D::Int8 => self.primitive(dt, node).map(Array::I8),
            D::Int16 => self.primitive(dt, node).map(Array::I16),
            D::Int32 | D::Date32 | D::Time32(_) | D::Decimal32 { .. } => {
                self.primitive(dt, node).map(Array::I32)
            }
            D::Interval(IntervalUnit::YearMonth) => self.primitive(dt, node).map(Array::I32),
            D::Int64 | D::Date64 | D::Time64(_) | D::Timestamp(..) | D::Duration(_) => {
                self.primitive(dt, node).map(Array::I64)
            }
            D::Decimal64 { .. } => self.primitive(dt, node).map(Array::I64),
            D::UInt8 => self.primitive(dt, node).map(Array::U8),
            D::UInt16 => self.primitive(dt, node).map(Array::U16),
            D::UInt32 => self.primitive(dt, node).map(Array::U32),
            D::UInt64 => self.primitive(dt, node).map(Array::U64),
            D::Float16 => self.primitive(dt, node).map(Array::F16),
            D::Float32 => self.primitive(dt, node).map(Array::F32),
            D::Float64 => self.primitive(dt, node).map(Array::F64),
            D::Decimal128 { .. } => self.primitive(dt, node).map(Array::I128),
            D::Decimal256 { .. } => self.primitive(dt, node).map(Array::I256),
            D::Interval(IntervalUnit::DayTime) => self.primitive(dt, node).map(Array::DaysMs),
            D::Interval(IntervalUnit::MonthDayNano) => {
                self.primitive(dt, node).map(Array::MonthDayNano)
            }
            _ => return None,
        })
    }

    /// The validity bitmap: `None` when the node has no nulls (the buffer may then be empty,
    /// and is ignored otherwise, as other readers do); else a bitmap stating the node's null
    /// count, which full validation compares with the bits.
    fn validity(&mut self, node: Node) -> Result<Option<Bitmap>> {
        let (i, raw) = self.buffer()?;
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

    /// `count` values of `T` from the next buffer (native byte order, aligned).
    fn values<T: quiver_arrow::NativeType>(
        &mut self,
        count: usize,
        what: &str,
    ) -> Result<Buffer<T>> {
        let (i, raw) = self.buffer()?;
        let raw = sized::<T>(i, raw, count, what)?;
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
        dt: &DataType,
        node: Node,
    ) -> Result<PrimitiveArray<T>> {
        let validity = self.validity(node)?;
        let values = self.values::<T>(node.len, "values")?;
        PrimitiveArray::try_new(dt.clone(), values, validity)
    }

    fn boolean(&mut self, node: Node) -> Result<Array> {
        let validity = self.validity(node)?;
        let (i, raw) = self.buffer()?;
        let values = Bitmap::try_new(raw, 0, node.len)
            .map_err(|e| e.context(format!("buffer {i} (values)")))?;
        Ok(Array::Boolean(BooleanArray::try_new(values, validity)?))
    }

    /// `len + 1` offsets (an empty buffer stands for `[0]` when `len` is 0).
    fn offsets<O: Offset>(&mut self, len: usize) -> Result<OffsetBuffer<O>> {
        let count = len
            .checked_add(1)
            .ok_or_else(|| Error::oos("length overflows"))?;
        let (i, raw) = self.buffer()?;
        if len == 0 && raw.len() < std::mem::size_of::<O>() {
            return Ok(OffsetBuffer::new_empty());
        }
        let raw = sized::<O>(i, raw, count, "offsets")?;
        let buffer = Buffer::from_bytes(if self.big_endian {
            swap_fields(&raw, fields_of(O::NAME, std::mem::size_of::<O>()))
        } else {
            raw
        });
        // SAFETY: monotone offsets are a content invariant that `validate(Full)` checks
        // (`check_var`): every array this walk builds is validated in full by its caller
        // (`decode_record_batch`, `DictionaryTable`'s decoding) before it is returned or any
        // value is read, unless the caller used the `unsafe` `ReadOptions::with_trusted_input`
        // and so promised valid input. Checking here as well would read every offset twice.
        Ok(unsafe { OffsetBuffer::new_unchecked(buffer) })
    }

    fn binary<O: Offset>(&mut self, node: Node) -> Result<GenericBinaryArray<O>> {
        let validity = self.validity(node)?;
        let offsets = self.offsets::<O>(node.len)?;
        let (_, data) = self.buffer()?;
        GenericBinaryArray::try_new(offsets, Buffer::from_bytes(data), validity)
    }

    fn utf8<O: Offset>(&mut self, node: Node) -> Result<GenericStringArray<O>> {
        let validity = self.validity(node)?;
        let offsets = self.offsets::<O>(node.len)?;
        let (_, data) = self.buffer()?;
        let data = Buffer::from_bytes(data);
        // SAFETY: UTF-8 is checked once, by the full validation every decoded array gets before
        // it is returned (see `offsets`), or promised by a `with_trusted_input` caller.
        unsafe { GenericStringArray::new_unchecked_utf8(offsets, data, validity) }
    }

    fn view(&mut self, dt: &DataType, node: Node) -> Result<Array> {
        let validity = self.validity(node)?;
        let (i, raw) = self.buffer()?;
        let raw = sized::<View>(i, raw, node.len, "views")?;
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
            return Ok(Array::BinaryView(BinaryViewArray::new_unchecked_views(
                views, data, validity,
            )?));
        }
        // SAFETY: views in bounds and UTF-8 values are checked once, by the full validation
        // every decoded array gets before it is returned (see `offsets`), or promised by a
        // `with_trusted_input` caller.
        Ok(Array::Utf8View(unsafe {
            StringViewArray::new_unchecked(views, data, validity)?
        }))
    }

    fn fixed_size_binary(&mut self, width: i32, node: Node) -> Result<Array> {
        let validity = self.validity(node)?;
        let w = usize::try_from(width)
            .map_err(|_| Error::oos(format!("FixedSizeBinary width {width}")))?;
        let count = w
            .checked_mul(node.len)
            .ok_or_else(|| Error::oos("FixedSizeBinary length overflows"))?;
        let (i, raw) = self.buffer()?;
        let raw = sized::<u8>(i, raw, count, "values")?;
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

    fn list<O: Offset>(&mut self, f: &FieldRef, node: Node) -> Result<GenericListArray<O>> {
        let validity = self.validity(node)?;
        let offsets = self.offsets::<O>(node.len)?;
        let values = self.child(0, f)?;
        GenericListArray::try_new(f.clone(), offsets, values, validity)
    }

    fn list_view<O: Offset>(
        &mut self,
        f: &FieldRef,
        node: Node,
    ) -> Result<GenericListViewArray<O>> {
        let validity = self.validity(node)?;
        let offsets = self.values::<O>(node.len, "offsets")?;
        let sizes = self.values::<O>(node.len, "sizes")?;
        let values = self.child(0, f)?;
        GenericListViewArray::new_unchecked_views(f.clone(), offsets, sizes, values, validity)
    }

    fn fixed_size_list(&mut self, f: &FieldRef, size: i32, node: Node) -> Result<Array> {
        let validity = self.validity(node)?;
        let values = self.child(0, f)?;
        Ok(Array::FixedSizeList(FixedSizeListArray::try_new(
            f.clone(),
            size,
            node.len,
            values,
            validity,
        )?))
    }

    fn struct_(&mut self, fields: &Fields, node: Node) -> Result<StructArray> {
        let validity = self.validity(node)?;
        let children = fields
            .iter()
            .enumerate()
            .map(|(j, f)| self.child(j, f))
            .collect::<Result<Vec<_>>>()?;
        StructArray::try_new(fields.clone(), node.len, children, validity)
    }

    fn map(&mut self, f: &FieldRef, sorted: bool, node: Node) -> Result<Array> {
        let validity = self.validity(node)?;
        let offsets = self.offsets::<i32>(node.len)?;
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

    fn union(&mut self, fields: &UnionFields, mode: UnionMode, node: Node) -> Result<Array> {
        if self.v4_unions {
            // Before metadata V5 unions had a validity bitmap; the slot is still there.
            let (i, _) = self.buffer()?;
            if node.nulls > 0 {
                return Err(Error::NotSupported(format!(
                    "a union with {} top-level nulls (buffer {i}, metadata before V5)",
                    node.nulls
                )));
            }
        }
        let type_ids = self.values::<i8>(node.len, "type ids")?;
        let offsets = match mode {
            UnionMode::Dense => Some(self.values::<i32>(node.len, "offsets")?),
            UnionMode::Sparse => None,
        };
        let children = fields
            .fields()
            .iter()
            .enumerate()
            .map(|(j, f)| self.child(j, f))
            .collect::<Result<Vec<_>>>()?;
        Ok(Array::Union(UnionArray::new_unchecked_ids(
            fields.clone(),
            mode,
            type_ids,
            offsets,
            children,
        )?))
    }

    fn dictionary(&mut self, key: IntegerType, ordered: bool, node: Node) -> Result<Array> {
        let key_type = key.data_type();
        let keys = self
            .fixed_width(&key_type, node)
            .unwrap_or_else(|| Err(Error::oos(format!("dictionary key type {key_type}"))))?;
        let id = self.ids.id_at(&self.path).ok_or_else(|| {
            Error::oos(format!("no dictionary id for the field at {:?}", self.path))
        })?;
        let values = self.dictionaries.get(&id).ok_or_else(|| {
            Error::oos(format!(
                "no dictionary with id {id} has been read before this batch"
            ))
        })?;
        Ok(Array::Dictionary(DictionaryArray::new_unchecked_keys(
            keys,
            values.clone(),
            ordered,
        )?))
    }

    fn run_end(&mut self, r: &FieldRef, v: &FieldRef, node: Node) -> Result<Array> {
        let run_ends = self.child(0, r)?;
        let values = self.child(1, v)?;
        let a = RunEndArray::new_unchecked_runs(run_ends, values, 0, node.len)?;
        Ok(Array::RunEndEncoded(a.with_fields(r.clone(), v.clone())?))
    }
}

/// The first `count` values of `T` in buffer `index`, an error when it is too short.
fn sized<T: quiver_arrow::NativeType>(
    index: usize,
    raw: Bytes,
    count: usize,
    what: &str,
) -> Result<Bytes> {
    let size = std::mem::size_of::<T>();
    let need = count.checked_mul(size).ok_or_else(|| {
        Error::oos(format!(
            "buffer {index} ({what}): {count} values of {size} bytes overflow"
        ))
    })?;
    if raw.len() < need {
        return Err(Error::oos(format!(
            "buffer {index} ({what}) has {} bytes but {count} values of {} need {need}",
            raw.len(),
            T::NAME
        )));
    }
    Ok(raw.slice(..need))
}
