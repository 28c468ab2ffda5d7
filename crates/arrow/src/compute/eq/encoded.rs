//! Equality of the encoded layouts: unions, dictionaries and run-end encoded arrays, all
//! compared by logical value.

use super::{Found, Span, diff};
use crate::array::{Array, DictionaryArray, RunEndArray, UnionArray};
use std::sync::Arc;

/// Unions, slot by slot: null on both sides is equal; otherwise the child (type id) and the
/// child value must match. Dense offsets are followed, never compared.
pub(super) fn union(a: &UnionArray, b: &UnionArray, s: Span) -> Option<Found> {
    let fields = a.fields().fields();
    (0..s.len).find_map(|k| {
        let (i, j) = (s.a + k, s.b + k);
        let (na, nb) = (a.is_null(i), b.is_null(j));
        if na && nb {
            return None;
        }
        let c = a.child_index(i);
        if na != nb || c != b.child_index(j) {
            return Some(Found::Slot(k));
        }
        let span = Span::new(a.value_offset(i), b.value_offset(j), 1);
        diff(&a.children()[c], &b.children()[c], span).map(|m| {
            let step = format!("child {c} ({:?})", fields[c].name());
            Found::Nested(m.nest(k, step, None))
        })
    })
}

/// The dictionary index of slot `i`, `None` when the slot is null through its key or its
/// value (or its key is outside the dictionary).
fn resolve(d: &DictionaryArray, i: usize) -> Option<usize> {
    let values = d.values();
    d.key(i).filter(|&k| k < values.len() && values.is_valid(k))
}

/// Dictionaries, by resolved value. When both sides use the same dictionary, or logically
/// equal ones (checked only when the span is at least as long as the dictionary, so the check
/// never costs more than the slots it saves), equal keys are equal slots.
pub(super) fn dictionary(a: &DictionaryArray, b: &DictionaryArray, s: Span) -> Option<Found> {
    let (va, vb) = (a.values(), b.values());
    let same_dictionary = Arc::ptr_eq(va, vb)
        || (va.len() == vb.len()
            && s.len >= va.len()
            && diff(va, vb, Span::new(0, 0, va.len())).is_none());
    (0..s.len).find_map(|k| match (resolve(a, s.a + k), resolve(b, s.b + k)) {
        (None, None) => None,
        (Some(ka), Some(kb)) if same_dictionary && ka == kb => None,
        (Some(ka), Some(kb)) => diff(va, vb, Span::new(ka, kb, 1)).map(|mut m| {
            m.detail = format!("{} (keys {ka} vs {kb})", m.detail);
            Found::Nested(m.relocate(k))
        }),
        _ => Some(Found::Slot(k)),
    })
}

/// Logical end (exclusive) of run `j`.
fn end_of_run(a: &RunEndArray, j: usize) -> usize {
    let e: i64 = match a.run_ends() {
        Array::I16(p) => p.value(j).into(),
        Array::I32(p) => p.value(j).into(),
        Array::I64(p) => p.value(j),
        _ => 0,
    };
    usize::try_from(e).unwrap_or(0)
}

/// Run-end encoded arrays: the two run sequences are walked together and each overlapping
/// pair of runs is compared once, so different run boundaries over the same logical sequence
/// are equal. O(runs of a + runs of b).
pub(super) fn run_end(a: &RunEndArray, b: &RunEndArray, s: Span) -> Option<Found> {
    let (mut ja, mut jb) = (a.physical_index(s.a), b.physical_index(s.b));
    let (start_a, start_b) = (a.offset() + s.a, b.offset() + s.b);
    let (na, nb) = (a.values().len(), b.values().len());
    let mut pos = 0;
    while pos < s.len && ja < na && jb < nb {
        let end_a = end_of_run(a, ja).saturating_sub(start_a).min(s.len);
        let end_b = end_of_run(b, jb).saturating_sub(start_b).min(s.len);
        if let Some(m) = diff(a.values(), b.values(), Span::new(ja, jb, 1)) {
            return Some(Found::Nested(m.relocate(pos)));
        }
        let end = end_a.min(end_b).max(pos + 1);
        if end_a <= end {
            ja += 1;
        }
        if end_b <= end {
            jb += 1;
        }
        pos = end;
    }
    None
}
