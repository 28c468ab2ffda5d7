//! Equality of the flat layouts (primitive, boolean, binary, views, fixed-size binary) and
//! the run-by-run driver over validity that the nested layouts share.

use super::{Found, Span};
use crate::array::{BinaryViewArray, BooleanArray, FixedSizeBinaryArray, GenericBinaryArray};
use crate::array::{PrimitiveArray, PrimitiveType};
use crate::buffer::{Bitmap, Offset};
use crate::compute::bits::{Mask, both_valid_runs, first_mismatch, first_set};
use std::ops::Range;

/// Compares two layouts with validity bitmaps over `s`: a slot valid on one side and null on
/// the other differs; slots valid on both sides are handed to `cmp` run by run (ranges relative
/// to `s`, in order), null-on-both slots are skipped. Returns the first difference.
pub(super) fn by_valid_runs(
    va: Option<&Bitmap>,
    vb: Option<&Bitmap>,
    s: Span,
    mut cmp: impl FnMut(Range<usize>) -> Option<Found>,
) -> Option<Found> {
    let ma = Mask::new(va, s.a, s.len);
    let mb = Mask::new(vb, s.b, s.len);
    if ma.all_valid() && mb.all_valid() {
        return cmp(0..s.len);
    }
    let limit = first_mismatch(&ma, &mb).unwrap_or(s.len);
    for r in both_valid_runs(&ma, &mb) {
        if r.start >= limit {
            break;
        }
        if let Some(f) = cmp(r.start..r.end.min(limit)) {
            return Some(f);
        }
    }
    (limit < s.len).then_some(Found::Slot(limit))
}

/// Position of the first element whose bytes differ (bit-pattern equality; floats included).
fn first_diff_pod<T: bytemuck::Pod>(a: &[T], b: &[T]) -> Option<usize> {
    let x: &[u8] = bytemuck::cast_slice(a);
    let y: &[u8] = bytemuck::cast_slice(b);
    if x == y {
        return None;
    }
    let byte = x.iter().zip(y).position(|(p, q)| p != q)?;
    Some(byte / std::mem::size_of::<T>().max(1))
}

/// Fixed-width values: slices of valid runs compared with `memcmp`.
pub(super) fn primitive<T: PrimitiveType>(
    a: &PrimitiveArray<T>,
    b: &PrimitiveArray<T>,
    s: Span,
) -> Option<usize> {
    let av = &a.values().as_slice()[s.a..s.a + s.len];
    let bv = &b.values().as_slice()[s.b..s.b + s.len];
    let found = by_valid_runs(a.validity(), b.validity(), s, |r| {
        first_diff_pod(&av[r.clone()], &bv[r.clone()]).map(|p| Found::Slot(r.start + p))
    });
    found.map(|f| f.at())
}

/// Booleans: one word-at-a-time pass over values and validity together.
pub(super) fn boolean(a: &BooleanArray, b: &BooleanArray, s: Span) -> Option<usize> {
    let ma = Mask::new(a.validity(), s.a, s.len);
    let mb = Mask::new(b.validity(), s.b, s.len);
    let xa = a.values().slice(s.a, s.len);
    let xb = b.values().slice(s.b, s.len);
    let words = xa
        .chunks()
        .zip(xb.chunks())
        .zip(ma.words().zip(mb.words()))
        .map(|((x, y), (p, q))| ((x ^ y) & p & q) | (p ^ q));
    first_set(words)
}

/// Variable-size binary and strings: per run, value lengths from the offsets, then the
/// contiguous value bytes with one `memcmp`.
pub(super) fn binary<O: Offset>(
    a: &GenericBinaryArray<O>,
    b: &GenericBinaryArray<O>,
    s: Span,
) -> Option<usize> {
    let found = by_valid_runs(a.validity(), b.validity(), s, |r| {
        let ao = &a.offsets().as_slice()[s.a + r.start..=s.a + r.end];
        let bo = &b.offsets().as_slice()[s.b + r.start..=s.b + r.end];
        let len_diff = first_length_diff(ao, bo);
        let upto = len_diff.unwrap_or(r.len());
        let ab = &a.values().as_slice()[ao[0].as_usize()..ao[upto].as_usize()];
        let bb = &b.values().as_slice()[bo[0].as_usize()..bo[upto].as_usize()];
        let first = if ab == bb {
            len_diff
        } else {
            (0..upto).find(|&k| a.value(s.a + r.start + k) != b.value(s.b + r.start + k))
        };
        first.map(|k| Found::Slot(r.start + k))
    });
    found.map(|f| f.at())
}

/// First position where the lengths described by two offset windows differ.
pub(super) fn first_length_diff<O: Offset>(ao: &[O], bo: &[O]) -> Option<usize> {
    let len = |w: &[O]| w[1].to_i64() - w[0].to_i64();
    ao.windows(2)
        .zip(bo.windows(2))
        .position(|(x, y)| len(x) != len(y))
}

/// Views: compared by the bytes they denote (inline or referenced, any buffer).
pub(super) fn views(a: &BinaryViewArray, b: &BinaryViewArray, s: Span) -> Option<usize> {
    let found = by_valid_runs(a.validity(), b.validity(), s, |r| {
        r.clone()
            .find(|&k| a.value(s.a + k) != b.value(s.b + k))
            .map(Found::Slot)
    });
    found.map(|f| f.at())
}

/// Fixed-size binary: byte ranges of valid runs compared with `memcmp`.
pub(super) fn fixed_binary(
    a: &FixedSizeBinaryArray,
    b: &FixedSizeBinaryArray,
    s: Span,
) -> Option<usize> {
    let w = a.size();
    if w == 0 {
        return by_valid_runs(a.validity(), b.validity(), s, |_| None).map(|f| f.at());
    }
    let av = a.values().as_slice();
    let bv = b.values().as_slice();
    let found = by_valid_runs(a.validity(), b.validity(), s, |r| {
        let x = &av[(s.a + r.start) * w..(s.a + r.end) * w];
        let y = &bv[(s.b + r.start) * w..(s.b + r.end) * w];
        first_diff_pod(x, y).map(|byte| Found::Slot(r.start + byte / w))
    });
    found.map(|f| f.at())
}
