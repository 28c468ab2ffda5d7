//! Rebasing: the offsets (or run ends) of one or more possibly sliced arrays recomputed for
//! their referenced data laid end to end from 0, with the range of data each one references.
//!
//! A slice keeps its parent's buffers: offsets that do not start at 0, list views pointing
//! anywhere into their child, dense union offsets into whole children, run ends counted from
//! the parent's start. The functions here take the *parts* that go one after the other into a
//! result and compute, for each layout, the range of child values (or runs) each part uses and
//! the offsets moved to where those ranges land when they are concatenated in order.
//! [`concat`](super::concat()) uses them for N inputs; a writer uses them for one input, to
//! write only what a slice references.
//!
//! | Layout | Used range of a part | Moved offsets |
//! |---|---|---|
//! | binary, string, list, map | [`offsets`] | [`offsets`] |
//! | list view | [`list_view_range`] | [`list_views`] |
//! | dense union | [`dense_union_ranges`] | [`dense_union_offsets`] |
//! | run-end encoded | [`run_ends`] | [`run_ends`] |
//!
//! The list-view and dense-union rules come in two steps so that a caller can stop after the
//! first when a part already uses all of its children (e.g. to write it as it is).

use crate::array::{
    Array, GenericListViewArray, PrimitiveArray, PrimitiveType, RunEndArray, UnionArray,
};
use crate::buffer::{Buffer, MutableBuffer, Offset, OffsetBuffer, check_offsets};
use crate::error::{Error, Result};
use std::ops::Range;

#[cfg(test)]
mod tests;

/// The offsets of `parts` rebased into one buffer starting at 0, as if the values they
/// reference were concatenated in order, and the range of values (bytes or child slots) each
/// part references, `first offset..last offset`.
///
/// A single part that already starts at 0 is returned as it is (zero copy). `what` names the
/// values in the error returned when the rebased offsets do not fit `O`.
///
/// ```
/// use quiver_arrow::buffer::OffsetBuffer;
/// use quiver_arrow::compute::rebase;
/// let o = OffsetBuffer::<i32>::try_new(vec![0, 3, 7, 7, 12].into()).unwrap();
/// let (rebased, ranges) = rebase::offsets(&[&o.slice(1, 2), &o.slice(3, 1)], "bytes").unwrap();
/// assert_eq!(rebased.as_slice(), &[0, 4, 4, 9]);
/// assert_eq!(ranges, vec![3..7, 7..12]);
/// ```
pub fn offsets<O: Offset>(
    parts: &[&OffsetBuffer<O>],
    what: &str,
) -> Result<(OffsetBuffer<O>, Vec<Range<usize>>)> {
    let ranges: Vec<Range<usize>> = parts
        .iter()
        .map(|o| o.first().as_usize()..o.last().as_usize())
        .collect();
    if let ([part], [range]) = (parts, ranges.as_slice()) {
        if range.start == 0 {
            return Ok(((*part).clone(), ranges));
        }
    }
    let total: usize = ranges.iter().map(|r| r.len()).sum();
    let overflow = || {
        Error::overflow(format!(
            "concatenated {what} need offset {total}, beyond the range of {} offsets",
            O::NAME
        ))
    };
    O::from_usize(total).ok_or_else(overflow)?;
    let count: usize = parts.iter().map(|o| o.len()).sum();
    let mut out = MutableBuffer::zeroed((count + 1) * std::mem::size_of::<O>());
    let dst = out.typed_mut::<O>();
    let (mut at, mut base) = (1, 0usize);
    for (o, r) in parts.iter().zip(&ranges) {
        let src = &o.as_slice()[1..];
        if !move_offsets(&mut dst[at..at + src.len()], src, r, base) {
            // Only offsets that decrease somewhere leave their first..last range.
            check_offsets(o.as_slice())?;
            return Err(Error::oos("offsets outside their first..last range"));
        }
        at += src.len();
        base += r.len();
    }
    Ok((OffsetBuffer::try_new(Buffer::from(out))?, ranges))
}

/// Writes the offsets `src` moved from their place in `range` to the same place after `base`
/// values into `dst`. Returns false when an offset lies outside `range`, which offsets that
/// never decrease do not. Branch-free, so that the loop vectorises; the caller has checked
/// that `base + range.len()` fits `O`.
#[inline]
fn move_offsets<O: Offset>(dst: &mut [O], src: &[O], range: &Range<usize>, base: usize) -> bool {
    let mut inside = true;
    for (d, &x) in dst.iter_mut().zip(src) {
        let x = x.as_usize();
        inside &= range.start <= x && x <= range.end;
        let moved = x.wrapping_sub(range.start).wrapping_add(base);
        *d = O::from_usize(moved).unwrap_or(O::ZERO);
    }
    inside
}

/// `value` moved from its place in `range` to the same place after `base` values.
#[inline]
fn moved(value: usize, range: &Range<usize>, base: usize) -> Option<usize> {
    value.checked_sub(range.start)?.checked_add(base)
}

/// The range of child slots the list views of `a` use: from the smallest offset to the
/// largest end over the views that are neither null nor empty; `0..0` when there are none.
///
/// ```
/// use quiver_arrow::{Array, DataType, Field, ListViewArray, PrimitiveArray};
/// use quiver_arrow::compute::rebase;
/// let item = Field::new("item", DataType::Int32, true);
/// let child = Array::from(PrimitiveArray::<i32>::new((0..10).collect::<Vec<_>>()));
/// let views = ListViewArray::try_new(
///     item.into(), vec![6, 0, 2].into(), vec![2, 0, 3].into(), child, None,
/// ).unwrap();
/// assert_eq!(rebase::list_view_range(&views), 2..8); // the empty view at 0 does not count
/// assert_eq!(rebase::list_view_range(&views.slice(1, 1)), 0..0);
/// ```
pub fn list_view_range<O: Offset>(a: &GenericListViewArray<O>) -> Range<usize> {
    let (mut lo, mut hi) = (usize::MAX, 0);
    for (i, (o, s)) in a.offsets().iter().zip(a.sizes().iter()).enumerate() {
        let size = s.as_usize();
        if size == 0 || a.is_null(i) {
            continue;
        }
        let start = o.as_usize();
        lo = lo.min(start);
        hi = hi.max(start.saturating_add(size));
    }
    if lo > hi { 0..0 } else { lo..hi }
}

/// The offsets and sizes of the list views `parts`, moved for their children cut to
/// `ranges[i]` (each containing [`list_view_range`] of its part) and concatenated in order.
/// Null and empty views become offset 0, size 0.
///
/// Fails when a view lies outside its range, when a moved offset does not fit `O`, or when
/// there are not as many ranges as parts.
///
/// ```
/// use quiver_arrow::{Array, DataType, Field, ListViewArray, PrimitiveArray};
/// use quiver_arrow::compute::rebase;
/// let item = Field::new("item", DataType::Int32, true);
/// let child = Array::from(PrimitiveArray::<i32>::new((0..10).collect::<Vec<_>>()));
/// let views = ListViewArray::try_new(
///     item.into(), vec![6, 0, 2].into(), vec![2, 0, 3].into(), child, None,
/// ).unwrap();
/// let ranges = [rebase::list_view_range(&views), 0..10];
/// let (offsets, sizes) = rebase::list_views(&[&views, &views], &ranges).unwrap();
/// assert_eq!(offsets.as_slice(), &[4, 0, 0, 12, 0, 8]);
/// assert_eq!(sizes.as_slice(), &[2, 0, 3, 2, 0, 3]);
/// ```
pub fn list_views<O: Offset>(
    parts: &[&GenericListViewArray<O>],
    ranges: &[Range<usize>],
) -> Result<(Buffer<O>, Buffer<O>)> {
    check_ranges(parts.len(), ranges.len())?;
    let total: usize = parts.iter().map(|a| a.len()).sum();
    let mut offsets = MutableBuffer::with_capacity(total * std::mem::size_of::<O>());
    let mut sizes = MutableBuffer::with_capacity(total * std::mem::size_of::<O>());
    let mut base = 0usize;
    for (a, r) in parts.iter().zip(ranges) {
        for (i, (o, s)) in a.offsets().iter().zip(a.sizes().iter()).enumerate() {
            if s.as_usize() == 0 || a.is_null(i) {
                offsets.push(O::ZERO);
                sizes.push(O::ZERO);
                continue;
            }
            let (start, size) = (o.as_usize(), s.as_usize());
            if start.saturating_add(size) > r.end {
                return Err(Error::invalid(format!(
                    "list view {i} ({start}, {size}) ends past its range {r:?}"
                )));
            }
            let moved = moved(start, r, base).ok_or_else(|| {
                Error::invalid(format!(
                    "list view {i} starts at {start}, before its range {r:?}"
                ))
            })?;
            offsets.push(O::from_usize(moved).ok_or_else(|| {
                Error::overflow(format!(
                    "list view offset {moved} beyond {} offsets",
                    O::NAME
                ))
            })?);
            sizes.push(s);
        }
        base += r.len();
    }
    Ok((Buffer::from(offsets), Buffer::from(sizes)))
}

fn check_ranges(parts: usize, ranges: usize) -> Result<()> {
    if parts == ranges {
        return Ok(());
    }
    Err(Error::invalid(format!(
        "{parts} parts to rebase but {ranges} ranges"
    )))
}

/// The dense union offsets of `u` with the child index of each slot, checked: every type id
/// declared, every offset non-negative.
fn dense_slots(u: &UnionArray) -> Result<impl Iterator<Item = Result<(usize, usize)>> + '_> {
    let offsets = u
        .offsets()
        .ok_or_else(|| Error::oos("dense union without offsets"))?;
    let table = u.fields().id_table();
    let slots = u.type_ids().iter().zip(offsets.iter()).enumerate();
    Ok(slots.map(move |(i, (id, offset))| {
        let c = usize::try_from(id)
            .ok()
            .and_then(|id| table.get(id))
            .filter(|&&c| c != u8::MAX)
            .ok_or_else(|| Error::oos(format!("union slot {i} has undeclared type id {id}")))?;
        let offset = usize::try_from(offset)
            .map_err(|_| Error::oos(format!("union slot {i} has negative offset {offset}")))?;
        Ok((*c as usize, offset))
    }))
}

/// The range of each child of the dense union `u` that its slots use, from the smallest to
/// the largest offset into that child; `0..0` for a child no slot uses.
///
/// Fails for a sparse union, an undeclared type id, or an offset outside its child.
///
/// ```
/// use quiver_arrow::{Array, DataType, Field, PrimitiveArray, UnionArray, UnionFields, UnionMode};
/// use quiver_arrow::compute::rebase;
/// let fields = UnionFields::try_new(
///     vec![0, 1],
///     vec![Field::new("a", DataType::Int32, true), Field::new("b", DataType::Int32, true)],
/// ).unwrap();
/// let child = || Array::from(PrimitiveArray::<i32>::new(vec![0; 8]));
/// let u = UnionArray::try_new(
///     fields, UnionMode::Dense, vec![0, 0, 0].into(), Some(vec![5, 2, 3].into()),
///     vec![child(), child()],
/// ).unwrap();
/// assert_eq!(rebase::dense_union_ranges(&u).unwrap(), vec![2..6, 0..0]);
/// ```
pub fn dense_union_ranges(u: &UnionArray) -> Result<Vec<Range<usize>>> {
    let children = u.children();
    let mut used = vec![(usize::MAX, 0usize); children.len()];
    for slot in dense_slots(u)? {
        let (c, o) = slot?;
        used[c] = (used[c].0.min(o), used[c].1.max(o + 1));
    }
    used.iter()
        .zip(children)
        .enumerate()
        .map(|(c, (&(lo, hi), child))| {
            if lo > hi {
                Ok(0..0)
            } else if hi > child.len() {
                Err(Error::oos(format!(
                    "dense union offset {} is beyond child {c} of length {}",
                    hi - 1,
                    child.len()
                )))
            } else {
                Ok(lo..hi)
            }
        })
        .collect()
}

/// The offsets of the dense unions `parts`, moved for each child `c` of part `i` cut to
/// `ranges[i][c]` (containing [`dense_union_ranges`] of the part) and the cut children
/// concatenated in order, child by child.
///
/// Fails when an offset lies outside its range, when a moved offset does not fit `i32`, or
/// when the ranges do not match the parts and their children.
///
/// ```
/// use quiver_arrow::{Array, DataType, Field, PrimitiveArray, UnionArray, UnionFields, UnionMode};
/// use quiver_arrow::compute::rebase;
/// let fields = UnionFields::try_new(
///     vec![0, 1],
///     vec![Field::new("a", DataType::Int32, true), Field::new("b", DataType::Int32, true)],
/// ).unwrap();
/// let child = || Array::from(PrimitiveArray::<i32>::new(vec![0; 8]));
/// let u = UnionArray::try_new(
///     fields, UnionMode::Dense, vec![0, 1, 0].into(), Some(vec![5, 7, 3].into()),
///     vec![child(), child()],
/// ).unwrap();
/// let ranges = rebase::dense_union_ranges(&u).unwrap(); // [3..6, 7..8]
/// let offsets = rebase::dense_union_offsets(&[&u, &u], &[ranges.clone(), ranges]).unwrap();
/// assert_eq!(offsets.as_slice(), &[2, 0, 0, 5, 1, 3]);
/// ```
pub fn dense_union_offsets(
    parts: &[&UnionArray],
    ranges: &[Vec<Range<usize>>],
) -> Result<Buffer<i32>> {
    check_ranges(parts.len(), ranges.len())?;
    let n_children = parts.first().map_or(0, |u| u.children().len());
    let mut base = vec![0usize; n_children];
    let total: usize = parts.iter().map(|u| u.len()).sum();
    let mut out = MutableBuffer::with_capacity(total * std::mem::size_of::<i32>());
    for (u, ranges) in parts.iter().zip(ranges) {
        check_ranges(n_children, ranges.len())?;
        for (i, slot) in dense_slots(u)?.enumerate() {
            let (c, o) = slot?;
            let r = ranges
                .get(c)
                .ok_or_else(|| Error::invalid("union children differ"))?;
            let moved = moved(o, r, base[c]).filter(|_| o < r.end).ok_or_else(|| {
                Error::invalid(format!(
                    "union slot {i} offset {o} is outside its range {r:?}"
                ))
            })?;
            let moved = i32::try_from(moved)
                .map_err(|_| Error::overflow(format!("dense union offset {moved} beyond i32")))?;
            out.push(moved);
        }
        for (b, r) in base.iter_mut().zip(ranges) {
            *b += r.len();
        }
    }
    Ok(Buffer::from(out))
}

/// The run ends of the run-end encoded `parts` laid end to end: each part contributes the
/// runs covering its logical slice, with ends relative to its start, clipped to its length and
/// moved by the lengths of the parts before it. Also returns the range of runs (indices into
/// the run ends and values) each part covers, `0..0` for an empty part.
///
/// A single part covering all its runs from its start is returned as it is (zero copy).
/// Fails when a rebased run end does not fit the run-end type of the first part, or when the
/// parts' run-end types differ.
///
/// ```
/// use quiver_arrow::{Array, PrimitiveArray, RunEndArray};
/// use quiver_arrow::compute::rebase;
/// let runs = RunEndArray::try_new(
///     Array::from(PrimitiveArray::<i32>::new(vec![2, 5, 6])),
///     Array::from(PrimitiveArray::<i64>::new(vec![10, 20, 30])),
/// ).unwrap();
/// let (ends, ranges) = rebase::run_ends(&[&runs.slice(1, 2), &runs.slice(4, 2)]).unwrap();
/// assert_eq!(ends.as_primitive::<i32>().unwrap().values().as_slice(), &[1, 2, 3, 4]);
/// assert_eq!(ranges, vec![0..2, 1..3]);
/// ```
pub fn run_ends(parts: &[&RunEndArray]) -> Result<(Array, Vec<Range<usize>>)> {
    let Some(first) = parts.first() else {
        return Err(Error::invalid("rebasing run ends needs at least one array"));
    };
    match first.run_ends() {
        Array::I16(_) => runs::<i16>(parts),
        Array::I32(_) => runs::<i32>(parts),
        Array::I64(_) => runs::<i64>(parts),
        other => Err(Error::oos(format!(
            "run ends must be Int16, Int32 or Int64, not {}",
            other.data_type()
        ))),
    }
}

fn runs<T>(parts: &[&RunEndArray]) -> Result<(Array, Vec<Range<usize>>)>
where
    T: PrimitiveType + Into<i64> + TryFrom<usize>,
{
    let ends = parts
        .iter()
        .map(|a| {
            a.run_ends().as_primitive::<T>().ok_or_else(|| {
                Error::invalid(format!(
                    "run ends of {} among run ends of {}",
                    a.run_ends().data_type(),
                    T::NAME
                ))
            })
        })
        .collect::<Result<Vec<&PrimitiveArray<T>>>>()?;
    let ranges: Vec<Range<usize>> = parts.iter().map(|a| covered_runs(a)).collect();
    if let ([a], [e], [r]) = (parts, ends.as_slice(), ranges.as_slice()) {
        let last = e.values().last().map(|&v| v.into());
        if a.offset() == 0 && *r == (0..e.len()) && last == Some(a.len() as i64) {
            return Ok((Array::from((*e).clone()), ranges));
        }
    }
    let mut out = Vec::with_capacity(ranges.iter().map(|r| r.len()).sum());
    let mut base = 0usize;
    for ((a, e), r) in parts.iter().zip(&ends).zip(&ranges) {
        let stop = a.offset() + a.len();
        for &end in &e.values()[r.clone()] {
            let end = usize::try_from(end.into()).unwrap_or(0);
            let v = end.min(stop).saturating_sub(a.offset()) + base;
            out.push(T::try_from(v).map_err(|_| {
                Error::overflow(format!(
                    "run end {v} is beyond the range of {} run ends",
                    T::NAME
                ))
            })?);
        }
        base += a.len();
    }
    Ok((Array::from(PrimitiveArray::<T>::new(out)), ranges))
}

/// The runs covering the logical slots of `a`: from the run of its first slot to the run of
/// its last, inclusive; `0..0` when `a` is empty.
fn covered_runs(a: &RunEndArray) -> Range<usize> {
    if a.is_empty() {
        return 0..0;
    }
    a.physical_index(0)..a.physical_index(a.len() - 1) + 1
}
