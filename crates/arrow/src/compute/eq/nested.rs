//! Equality of the nested layouts: lists, list views, fixed-size lists, structs and maps.

use super::flat::{by_valid_runs, first_length_diff};
use super::{Found, Mismatch, Span, diff};
use crate::array::{
    Array, FixedSizeListArray, GenericListArray, GenericListViewArray, MapArray, StructArray,
};
use crate::buffer::{Bitmap, Offset};
use crate::datatype::FieldRef;

/// The step naming a child in a difference's path: `child 0 ("item")`.
fn child_step(i: usize, field: &FieldRef) -> String {
    format!("child {i} ({:?})", field.name())
}

/// One side of a variable-size list comparison.
struct ListSide<'x, O> {
    offsets: &'x [O],
    child: &'x Array,
    validity: Option<&'x Bitmap>,
}

impl<'x, O: Offset> ListSide<'x, O> {
    fn of_list(l: &'x GenericListArray<O>) -> Self {
        ListSide {
            offsets: l.offsets().as_slice(),
            child: l.values(),
            validity: l.validity(),
        }
    }
}

impl<'x> ListSide<'x, i32> {
    fn of_map(m: &'x MapArray, entries: &'x Array) -> Self {
        ListSide {
            offsets: m.offsets().as_slice(),
            child: entries,
            validity: m.validity(),
        }
    }
}

/// Lists delimited by offsets (lists, maps): per run of slots valid on both sides, the list
/// lengths, then the children's contiguous ranges as one span.
fn offset_lists<O: Offset>(
    a: ListSide<'_, O>,
    b: ListSide<'_, O>,
    step: &str,
    s: Span,
) -> Option<Found> {
    by_valid_runs(a.validity, b.validity, s, |r| {
        let ao = &a.offsets[s.a + r.start..=s.a + r.end];
        let bo = &b.offsets[s.b + r.start..=s.b + r.end];
        let len_diff = first_length_diff(ao, bo);
        let upto = len_diff.unwrap_or(r.len());
        let base = ao[0].as_usize();
        let child_len = ao[upto].as_usize() - base;
        let span = Span::new(base, bo[0].as_usize(), child_len);
        if let Some(m) = diff(a.child, b.child, span) {
            // Which list holds child position `m.at`, and where inside it.
            let k = ao[1..=upto].partition_point(|o| o.as_usize() - base <= m.at);
            let elem = m.at - (ao[k].as_usize() - base);
            return Some(Found::Nested(m.nest(
                r.start + k,
                step.to_string(),
                Some(elem),
            )));
        }
        len_diff.map(|k| Found::Slot(r.start + k))
    })
}

/// `List` and `LargeList`.
pub(super) fn list<O: Offset>(
    a: &GenericListArray<O>,
    b: &GenericListArray<O>,
    s: Span,
) -> Option<Found> {
    let step = child_step(0, a.field());
    offset_lists(ListSide::of_list(a), ListSide::of_list(b), &step, s)
}

/// Maps: lists of entries structs, compared in order.
pub(super) fn map(a: &MapArray, b: &MapArray, s: Span) -> Option<Found> {
    let ea = Array::Struct(a.entries().clone());
    let eb = Array::Struct(b.entries().clone());
    let step = child_step(0, a.entries_field());
    offset_lists(ListSide::of_map(a, &ea), ListSide::of_map(b, &eb), &step, s)
}

/// `ListView` and `LargeListView`: each valid slot's size, then its child range.
pub(super) fn list_view<O: Offset>(
    a: &GenericListViewArray<O>,
    b: &GenericListViewArray<O>,
    s: Span,
) -> Option<Found> {
    let step = child_step(0, a.field());
    by_valid_runs(a.validity(), b.validity(), s, |r| {
        r.clone().find_map(|k| {
            let (i, j) = (s.a + k, s.b + k);
            let size = a.sizes()[i].as_usize();
            if size != b.sizes()[j].as_usize() {
                return Some(Found::Slot(k));
            }
            let span = Span::new(a.offsets()[i].as_usize(), b.offsets()[j].as_usize(), size);
            diff(a.values(), b.values(), span).map(|m| {
                let elem = m.at;
                Found::Nested(m.nest(k, step.clone(), Some(elem)))
            })
        })
    })
}

/// Fixed-size lists: runs map to contiguous child ranges of `size` values per slot.
pub(super) fn fixed_list(a: &FixedSizeListArray, b: &FixedSizeListArray, s: Span) -> Option<Found> {
    let w = a.size();
    let step = child_step(0, a.field());
    by_valid_runs(a.validity(), b.validity(), s, |r| {
        if w == 0 {
            return None;
        }
        let span = Span::new((s.a + r.start) * w, (s.b + r.start) * w, r.len() * w);
        diff(a.values(), b.values(), span).map(|m| {
            let (k, elem) = (m.at / w, m.at % w);
            Found::Nested(m.nest(r.start + k, step.clone(), Some(elem)))
        })
    })
}

/// Structs: per run of slots valid on both sides, every child over the run; the earliest
/// child difference wins.
pub(super) fn struct_(a: &StructArray, b: &StructArray, s: Span) -> Option<Found> {
    by_valid_runs(a.validity(), b.validity(), s, |r| {
        let mut span = s.sub(r.clone());
        let mut best: Option<Mismatch> = None;
        for (i, (ca, cb)) in a.columns().iter().zip(b.columns()).enumerate() {
            // Later children only matter before the earliest difference found so far.
            let Some(m) = diff(ca, cb, span) else {
                continue;
            };
            let at = m.at;
            span.len = at;
            best = Some(m.nest(at, child_step(i, &a.fields()[i]), None));
        }
        best.map(|m| Found::Nested(m).shifted(r.start))
    })
}
