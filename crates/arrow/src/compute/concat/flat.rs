//! Concatenation of the flat layouts: primitives, booleans, binary and strings, views and
//! fixed-size binary.

use crate::array::{
    BinaryViewArray, BooleanArray, FixedSizeBinaryArray, GenericBinaryArray, GenericStringArray,
    PrimitiveArray, PrimitiveType, StringViewArray,
};
use crate::buffer::MutableBitmap;
use crate::buffer::{Bitmap, Buffer, MutableBuffer, Offset, OffsetBuffer};
use crate::compute::bits::concat_validity;
use crate::compute::rebase;
use crate::datatype::DataType;
use crate::error::{Error, Result};
use crate::native::View;
use std::sync::Arc;

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

pub(super) fn boolean(arrays: &[&BooleanArray]) -> Result<BooleanArray> {
    let total = arrays.iter().map(|a| a.len()).sum();
    let mut values = MutableBitmap::with_capacity(total);
    for a in arrays {
        values.extend_from_bitmap(a.values());
    }
    let validity = concat_validity(arrays.iter().map(|a| (a.validity(), a.len())))?;
    BooleanArray::try_new(values.freeze(), validity)
}

/// Offsets, value bytes and validity of concatenated binary-like inputs.
type BinaryParts<O> = (OffsetBuffer<O>, Buffer<u8>, Option<Bitmap>);

fn binary_parts<O: Offset>(arrays: &[&GenericBinaryArray<O>]) -> Result<BinaryParts<O>> {
    let offsets: Vec<_> = arrays.iter().map(|a| a.offsets()).collect();
    let (offsets, ranges) = rebase::offsets(&offsets, "values")?;
    let mut values = MutableBuffer::with_capacity(ranges.iter().map(|r| r.len()).sum());
    for (a, r) in arrays.iter().zip(ranges) {
        values.extend_from_slice(&a.values().as_slice()[r]);
    }
    let validity = concat_validity(arrays.iter().map(|a| (a.validity(), a.len())))?;
    Ok((offsets, Buffer::from(values), validity))
}

pub(super) fn binary<O: Offset>(
    arrays: &[&GenericBinaryArray<O>],
) -> Result<GenericBinaryArray<O>> {
    let (offsets, values, validity) = binary_parts(arrays)?;
    GenericBinaryArray::try_new(offsets, values, validity)
}

pub(super) fn string<O: Offset>(
    arrays: &[&GenericStringArray<O>],
) -> Result<GenericStringArray<O>> {
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
            .map_err(|_| Error::overflow("more than 2^32 view data buffers"))?;
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
                    .ok_or_else(|| Error::overflow("view data buffer index beyond u32"))?;
                View::reference(v.length, v.prefix(), index, v.offset())
            };
            views.push(view);
        }
        buffers.extend(a.data_buffers().iter().cloned());
    }
    let validity = concat_validity(arrays.iter().map(|a| (a.validity(), a.len())))?;
    Ok((Buffer::from(views), buffers.into(), validity))
}

pub(super) fn binary_view(arrays: &[&BinaryViewArray]) -> Result<BinaryViewArray> {
    let (views, buffers, validity) = view_parts(arrays)?;
    BinaryViewArray::try_new(views, buffers, validity)
}

pub(super) fn string_view(arrays: &[&StringViewArray]) -> Result<StringViewArray> {
    let inner: Vec<_> = arrays.iter().map(|a| a.as_binary()).collect();
    let (views, buffers, validity) = view_parts(&inner)?;
    StringViewArray::try_new(views, buffers, validity)
}

pub(super) fn fixed_binary(arrays: &[&FixedSizeBinaryArray]) -> Result<FixedSizeBinaryArray> {
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
