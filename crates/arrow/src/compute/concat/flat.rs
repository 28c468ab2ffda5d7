//! Concatenation of the flat layouts: primitives, booleans, binary and strings, views and
//! fixed-size binary; plus the offset rebasing shared with lists and maps.

use super::typed;
use crate::array::{
    Array, BinaryViewArray, BooleanArray, FixedSizeBinaryArray, GenericBinaryArray,
    GenericStringArray, PrimitiveArray, PrimitiveType, StringViewArray,
};
use crate::buffer::MutableBitmap;
use crate::buffer::{Bitmap, Buffer, MutableBuffer, Offset, OffsetBuffer};
use crate::compute::bits::concat_validity;
use crate::datatype::DataType;
use crate::error::{Error, Result};
use crate::native::View;
use std::ops::Range;
use std::sync::Arc;

/// Dispatches on the layout of `first` (all `arrays` share its data type).
pub(super) fn concat_flat(first: &Array, arrays: &[&Array]) -> Result<Array> {
    Ok(match first {
        Array::Boolean(_) => Array::from(boolean(&typed!(arrays, Boolean))?),
        Array::I8(_) => Array::from(primitive(&typed!(arrays, I8))?),
        Array::I16(_) => Array::from(primitive(&typed!(arrays, I16))?),
        Array::I32(_) => Array::from(primitive(&typed!(arrays, I32))?),
        Array::I64(_) => Array::from(primitive(&typed!(arrays, I64))?),
        Array::U8(_) => Array::from(primitive(&typed!(arrays, U8))?),
        Array::U16(_) => Array::from(primitive(&typed!(arrays, U16))?),
        Array::U32(_) => Array::from(primitive(&typed!(arrays, U32))?),
        Array::U64(_) => Array::from(primitive(&typed!(arrays, U64))?),
        Array::F16(_) => Array::from(primitive(&typed!(arrays, F16))?),
        Array::F32(_) => Array::from(primitive(&typed!(arrays, F32))?),
        Array::F64(_) => Array::from(primitive(&typed!(arrays, F64))?),
        Array::I128(_) => Array::from(primitive(&typed!(arrays, I128))?),
        Array::I256(_) => Array::from(primitive(&typed!(arrays, I256))?),
        Array::DaysMs(_) => Array::from(primitive(&typed!(arrays, DaysMs))?),
        Array::MonthDayNano(_) => Array::from(primitive(&typed!(arrays, MonthDayNano))?),
        Array::Binary(_) => Array::from(binary(&typed!(arrays, Binary))?),
        Array::LargeBinary(_) => Array::from(binary(&typed!(arrays, LargeBinary))?),
        Array::Utf8(_) => Array::from(string(&typed!(arrays, Utf8))?),
        Array::LargeUtf8(_) => Array::from(string(&typed!(arrays, LargeUtf8))?),
        Array::BinaryView(_) => Array::from(binary_view(&typed!(arrays, BinaryView))?),
        Array::Utf8View(_) => Array::from(string_view(&typed!(arrays, Utf8View))?),
        Array::FixedSizeBinary(_) => Array::from(fixed_binary(&typed!(arrays, FixedSizeBinary))?),
        _ => super::nested::concat_nested(first, arrays)?,
    })
}

/// Fixed-width values: one bulk copy per input.
pub(super) fn primitive<T: PrimitiveType>(
    arrays: &[&PrimitiveArray<T>],
) -> Result<PrimitiveArray<T>> {
    let total: usize = arrays.iter().map(|a| a.len()).sum();
    let mut values = MutableBuffer::with_capacity(total * std::mem::size_of::<T>());
    for a in arrays {
        values.extend_from_slice(a.values().as_slice());
    }
    let validity = concat_validity(arrays.iter().map(|a| (a.validity(), a.len())))?;
    let data_type = arrays
        .first()
        .map_or(T::default_data_type(), |a| a.data_type().clone());
    PrimitiveArray::try_new(data_type, Buffer::from(values), validity)
}

fn boolean(arrays: &[&BooleanArray]) -> Result<BooleanArray> {
    let total = arrays.iter().map(|a| a.len()).sum();
    let mut values = MutableBitmap::with_capacity(total);
    for a in arrays {
        values.extend_from_bitmap(a.values());
    }
    let validity = concat_validity(arrays.iter().map(|a| (a.validity(), a.len())))?;
    BooleanArray::try_new(values.freeze(), validity)
}

/// Offsets of inputs `parts` rebased into one buffer starting at 0, and the range of values
/// (bytes or child slots) each input references. `what` names the values in the overflow
/// error.
pub(super) fn rebase_offsets<O: Offset>(
    parts: &[&OffsetBuffer<O>],
    what: &str,
) -> Result<(OffsetBuffer<O>, Vec<Range<usize>>)> {
    let ranges: Vec<Range<usize>> = parts
        .iter()
        .map(|o| o.first().as_usize()..o.last().as_usize())
        .collect();
    let total: usize = ranges.iter().map(|r| r.len()).sum();
    let overflow = || {
        Error::Overflow(format!(
            "concatenated {what} need offset {total}, beyond the range of {} offsets",
            O::NAME
        ))
    };
    O::from_usize(total).ok_or_else(overflow)?;
    let count: usize = parts.iter().map(|o| o.len()).sum();
    let mut out = MutableBuffer::with_capacity((count + 1) * std::mem::size_of::<O>());
    out.push(O::ZERO);
    let mut base = 0usize;
    for (o, r) in parts.iter().zip(&ranges) {
        for &x in &o.as_slice()[1..] {
            out.push(O::from_usize(x.as_usize() - r.start + base).ok_or_else(overflow)?);
        }
        base += r.len();
    }
    Ok((OffsetBuffer::try_new(Buffer::from(out))?, ranges))
}

/// Offsets, value bytes and validity of concatenated binary-like inputs.
type BinaryParts<O> = (OffsetBuffer<O>, Buffer<u8>, Option<Bitmap>);

fn binary_parts<O: Offset>(arrays: &[&GenericBinaryArray<O>]) -> Result<BinaryParts<O>> {
    let offsets: Vec<_> = arrays.iter().map(|a| a.offsets()).collect();
    let (offsets, ranges) = rebase_offsets(&offsets, "values")?;
    let mut values = MutableBuffer::with_capacity(ranges.iter().map(|r| r.len()).sum());
    for (a, r) in arrays.iter().zip(ranges) {
        values.extend_from_slice(&a.values().as_slice()[r]);
    }
    let validity = concat_validity(arrays.iter().map(|a| (a.validity(), a.len())))?;
    Ok((offsets, Buffer::from(values), validity))
}

fn binary<O: Offset>(arrays: &[&GenericBinaryArray<O>]) -> Result<GenericBinaryArray<O>> {
    let (offsets, values, validity) = binary_parts(arrays)?;
    GenericBinaryArray::try_new(offsets, values, validity)
}

fn string<O: Offset>(arrays: &[&GenericStringArray<O>]) -> Result<GenericStringArray<O>> {
    let inner: Vec<_> = arrays.iter().map(|a| a.as_binary()).collect();
    let (offsets, values, validity) = binary_parts(&inner)?;
    // Re-checks UTF-8 (SIMD) rather than trusting the inputs with `unsafe`.
    GenericStringArray::try_new(offsets, values, validity)
}

/// Views, data buffers and validity of concatenated view inputs.
type ViewParts = (Buffer<View>, Arc<[Buffer<u8>]>, Option<Bitmap>);

/// Views of every input with their buffer indices moved past the data buffers of the inputs
/// before it; data buffers are shared, not copied. Null slots get an empty inline view.
fn view_parts(arrays: &[&BinaryViewArray]) -> Result<ViewParts> {
    let total: usize = arrays.iter().map(|a| a.len()).sum();
    let mut views = MutableBuffer::with_capacity(total * std::mem::size_of::<View>());
    let mut buffers: Vec<Buffer<u8>> = Vec::new();
    for a in arrays {
        let base = u32::try_from(buffers.len())
            .map_err(|_| Error::Overflow("more than 2^32 view data buffers".into()))?;
        let no_nulls = a.null_count() == 0;
        for (i, v) in a.views().iter().enumerate() {
            let view = if !no_nulls && a.is_null(i) {
                View::default()
            } else if v.is_inline() {
                v
            } else {
                let index = v
                    .buffer_index()
                    .checked_add(base)
                    .ok_or_else(|| Error::Overflow("view data buffer index beyond u32".into()))?;
                View::reference(v.length, v.prefix(), index, v.offset())
            };
            views.push(view);
        }
        buffers.extend(a.data_buffers().iter().cloned());
    }
    let validity = concat_validity(arrays.iter().map(|a| (a.validity(), a.len())))?;
    Ok((Buffer::from(views), buffers.into(), validity))
}

fn binary_view(arrays: &[&BinaryViewArray]) -> Result<BinaryViewArray> {
    let (views, buffers, validity) = view_parts(arrays)?;
    BinaryViewArray::try_new(views, buffers, validity)
}

fn string_view(arrays: &[&StringViewArray]) -> Result<StringViewArray> {
    let inner: Vec<_> = arrays.iter().map(|a| a.as_binary()).collect();
    let (views, buffers, validity) = view_parts(&inner)?;
    StringViewArray::try_new(views, buffers, validity)
}

fn fixed_binary(arrays: &[&FixedSizeBinaryArray]) -> Result<FixedSizeBinaryArray> {
    let size = match arrays.first().map(|a| a.data_type()) {
        Some(DataType::FixedSizeBinary(n)) => *n,
        _ => return Err(Error::invalid("concat: fixed-size binary without its type")),
    };
    let total = arrays.iter().map(|a| a.len()).sum();
    let mut values = MutableBuffer::with_capacity(arrays.iter().map(|a| a.values().len()).sum());
    for a in arrays {
        values.extend_from_slice(a.values().as_slice());
    }
    let validity = concat_validity(arrays.iter().map(|a| (a.validity(), a.len())))?;
    FixedSizeBinaryArray::try_new(size, total, Buffer::from(values), validity)
}
