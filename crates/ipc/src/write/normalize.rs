//! Slices made self-contained for writing: only the data an array references goes into a
//! message, with offsets starting at 0 and bitmaps at bit 0.
//!
//! Every function returns the input's own bytes (zero copy) when they already have that form,
//! and rewrites only what must change otherwise. The rebasing rules are quiver-arrow's
//! [`rebase`] (the ones `concat` uses), applied to one array; what stays here is the write
//! policy: when to write a buffer as it is, bitmaps realigned, view data compaction.

use bytes::Bytes;
use quiver_arrow::buffer::{MutableBuffer, Offset, OffsetBuffer};
use quiver_arrow::compute::rebase;
use quiver_arrow::{
    Array, Bitmap, Buffer, Error, GenericListViewArray, Result, RunEndArray, UnionArray, View,
};
use std::borrow::Cow;
use std::ops::Range;

/// Largest data buffer written when view data is compacted (other implementations address
/// view data with signed 32-bit offsets).
const MAX_VIEW_DATA: usize = i32::MAX as usize;

/// View data buffers are written as they are unless they hold more than twice the bytes the
/// views reference, plus this much.
const VIEW_SLACK: usize = 4096;

/// The bits of `b` starting at bit 0 of the first byte, with the bits past the end zeroed.
pub(crate) fn bitmap_bytes(b: &Bitmap) -> Bytes {
    let n = b.len().div_ceil(8);
    if n == 0 {
        return Bytes::new();
    }
    if b.offset() % 8 == 0 {
        let start = b.offset() / 8;
        let bytes = b.bytes().slice(start..start + n);
        if b.len() % 8 == 0 || bytes[n - 1] >> (b.len() % 8) == 0 {
            return bytes;
        }
    }
    b.to_aligned().bytes().clone()
}

/// Offsets starting at 0 and the range of the values they reference.
pub(crate) fn rebase_offsets<O: Offset>(
    offsets: &OffsetBuffer<O>,
) -> Result<(Bytes, Range<usize>)> {
    let (rebased, mut ranges) = rebase::offsets(std::slice::from_ref(&offsets), "values")?;
    let range = ranges.pop().unwrap_or_default();
    Ok((rebased.buffer().bytes().clone(), range))
}

/// List views written: offsets, sizes and the child cut to the range they reference. Null and
/// empty views become offset 0, size 0 when the child is cut.
pub(crate) fn list_view<O: Offset>(
    a: &GenericListViewArray<O>,
) -> Result<(Bytes, Bytes, Cow<'_, Array>)> {
    let child = a.values();
    let range = rebase::list_view_range(a);
    if range == (0..child.len()) {
        let (o, s) = (a.offsets().bytes().clone(), a.sizes().bytes().clone());
        return Ok((o, s, Cow::Borrowed(child)));
    }
    let (offsets, sizes) = rebase::list_views(&[a], std::slice::from_ref(&range))?;
    let child = child.slice(range.start, range.len());
    Ok((offsets.into_bytes(), sizes.into_bytes(), Cow::Owned(child)))
}

/// Views and data buffers written for a view array: as they are when the data buffers are
/// mostly referenced, otherwise the referenced values copied into fresh buffers (null views
/// then become empty inline views).
pub(crate) fn views(
    views: &Buffer<View>,
    buffers: &[Buffer<u8>],
    validity: Option<&Bitmap>,
) -> Result<(Bytes, Vec<Bytes>)> {
    let valid = |i: usize| validity.is_none_or(|b| b.get(i));
    let referenced: usize = views
        .iter()
        .enumerate()
        .filter(|(i, v)| !v.is_inline() && valid(*i))
        .map(|(_, v)| v.length as usize)
        .sum();
    let total: usize = buffers.iter().map(|b| b.len()).sum();
    if total <= referenced.saturating_mul(2).saturating_add(VIEW_SLACK) {
        let data = buffers.iter().map(|b| b.bytes().clone()).collect();
        return Ok((views.bytes().clone(), data));
    }
    let mut out = MutableBuffer::with_capacity(std::mem::size_of_val(views.as_slice()));
    let mut data = Vec::new();
    let mut current = MutableBuffer::with_capacity(referenced.min(MAX_VIEW_DATA));
    for (i, v) in views.iter().enumerate() {
        if !valid(i) {
            out.push(View::default());
        } else if v.is_inline() {
            out.push(v);
        } else {
            let value = view_value(&v, buffers).ok_or_else(|| {
                Error::oos(format!("view {i} points outside its data buffer: {v:?}"))
            })?;
            if current.len() + value.len() > MAX_VIEW_DATA {
                data.push(std::mem::take(&mut current).freeze());
            }
            let (index, offset) = (data.len() as u32, current.len() as u32);
            out.push(View::reference(v.length, v.prefix(), index, offset));
            current.extend_from_slice(value);
        }
    }
    if !current.is_empty() {
        data.push(current.freeze());
    }
    Ok((out.freeze(), data))
}

/// The bytes a non-inline view references, `None` when outside the data buffers.
fn view_value<'a>(v: &View, buffers: &'a [Buffer<u8>]) -> Option<&'a [u8]> {
    let start = v.offset() as usize;
    let end = start.checked_add(v.length as usize)?;
    buffers
        .get(v.buffer_index() as usize)?
        .as_slice()
        .get(start..end)
}

/// A dense union's offsets and children, each child cut to the range its slots use (offsets
/// rebased accordingly) unless every child is already used from 0 to its end.
pub(crate) fn dense_union(u: &UnionArray) -> Result<(Bytes, Vec<Cow<'_, Array>>)> {
    let children = u.children();
    let ranges = rebase::dense_union_ranges(u)?;
    let tight = children
        .iter()
        .zip(&ranges)
        .all(|(c, r)| *r == (0..c.len()));
    let offsets = u
        .offsets()
        .ok_or_else(|| Error::oos("dense union without offsets"))?;
    if tight {
        return Ok((
            offsets.bytes().clone(),
            children.iter().map(Cow::Borrowed).collect(),
        ));
    }
    let moved = rebase::dense_union_offsets(&[u], std::slice::from_ref(&ranges))?;
    let cut = children
        .iter()
        .zip(ranges)
        .map(|(c, r)| Cow::Owned(c.slice(r.start, r.len())))
        .collect();
    Ok((moved.into_bytes(), cut))
}

/// Run ends and values of the runs a (possibly sliced) run-end encoded array covers, with run
/// ends relative to its start and the last one equal to its length.
pub(crate) fn run_ends(r: &RunEndArray) -> Result<(Array, Array)> {
    let (ends, mut ranges) = rebase::run_ends(&[r])?;
    let runs = ranges.pop().unwrap_or_default();
    Ok((ends, r.values().slice(runs.start, runs.len())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quiver_arrow::StringViewArray;

    #[test]
    fn bitmaps_realigned_and_tails_zeroed() {
        let b: Bitmap = (0..20).map(|i| i % 3 != 0).collect();
        let s = b.slice(3, 9);
        let bytes = bitmap_bytes(&s);
        assert_eq!(bytes.len(), 2);
        let back = Bitmap::try_new(bytes.clone(), 0, 9).unwrap();
        assert_eq!(back, s);
        assert_eq!(bytes[1] >> 1, 0, "bits past the end are zero");
        // Whole bytes from offset 0: zero copy.
        let whole = b.slice(0, 16);
        assert_eq!(bitmap_bytes(&whole).as_ptr(), b.bytes().as_ptr());
    }

    #[test]
    fn offsets_rebased() {
        let o = OffsetBuffer::<i32>::try_new(vec![0, 3, 7, 7, 12].into()).unwrap();
        let (bytes, range) = rebase_offsets(&o.slice(1, 2)).unwrap();
        assert_eq!(range, 3..7);
        assert_eq!(Buffer::<i32>::from_bytes(bytes).as_slice(), &[0, 4, 4]);
        let (bytes, range) = rebase_offsets(&o).unwrap();
        assert_eq!(
            (bytes.as_ptr(), range),
            (o.buffer().bytes().as_ptr(), 0..12)
        );
    }

    #[test]
    fn views_compacted_when_mostly_unreferenced() {
        let long: Vec<String> = (0..1000).map(|i| format!("value number {i:06}")).collect();
        let a = StringViewArray::from_options(long.iter().map(|s| Some(s.as_str())));
        let s = a.slice(10, 3);
        let (views, data) = views(s.views(), s.data_buffers(), s.validity()).unwrap();
        assert_eq!(data.len(), 1);
        assert_eq!(data[0].len(), 3 * long[0].len());
        let views = Buffer::<View>::from_bytes(views);
        let back = StringViewArray::try_new(
            views,
            vec![Buffer::from_bytes(data[0].clone())].into(),
            None,
        );
        assert_eq!(back.unwrap().get(1), Some(long[11].as_str()));
        // The whole array is written as it is.
        let (v, d) = super::views(a.views(), a.data_buffers(), None).unwrap();
        assert_eq!(v.as_ptr(), a.views().bytes().as_ptr().cast());
        assert_eq!(d[0].as_ptr(), a.data_buffers()[0].as_ptr());
    }
}
