//! The rebasing rules against naive oracles: value lengths and logical values recomputed slot
//! by slot, used ranges found by scanning every child slot.

// One-range vectors and slices are the natural argument here (one range per part).
#![allow(clippy::single_range_in_vec_init)]

use super::*;
use crate::array::{LargeListViewArray, ListViewArray, NullArray};
use crate::buffer::Bitmap;
use crate::datatype::{DataType, Field, FieldRef, UnionFields, UnionMode};
use proptest::prelude::*;
use std::sync::Arc;

/// A slice `(offset, len)` of `n` slots picked by two random numbers.
fn cut(n: usize, (a, b): (usize, usize)) -> (usize, usize) {
    let offset = a % (n + 1);
    (offset, b % (n - offset + 1))
}

fn cuts() -> impl Strategy<Value = Vec<(usize, usize)>> {
    prop::collection::vec((any::<usize>(), any::<usize>()), 1..4)
}

// ---- offsets ----

fn offset_buffer(start: i32, lengths: &[i32]) -> OffsetBuffer<i32> {
    let mut o = vec![start];
    for l in lengths {
        o.push(o.last().unwrap() + l);
    }
    OffsetBuffer::try_new(o.into()).unwrap()
}

proptest! {
    /// Rebased offsets are the prefix sums of the parts' value lengths, and each part's range
    /// is its first to last offset.
    #[test]
    fn offsets_are_prefix_sums_of_value_lengths(
        start in 0i32..50,
        lengths in prop::collection::vec(0i32..20, 0..30),
        cuts in cuts(),
    ) {
        let all = offset_buffer(start, &lengths);
        let parts: Vec<OffsetBuffer<i32>> = cuts
            .iter()
            .map(|&c| {
                let (o, l) = cut(lengths.len(), c);
                all.slice(o, l)
            })
            .collect();
        let refs: Vec<&OffsetBuffer<i32>> = parts.iter().collect();
        let (rebased, ranges) = offsets(&refs, "values").unwrap();
        let mut expected = vec![0usize];
        for p in &parts {
            for i in 0..p.len() {
                expected.push(expected.last().unwrap() + p.len_of(i));
            }
        }
        let got: Vec<usize> = rebased.as_slice().iter().map(|&x| x as usize).collect();
        prop_assert_eq!(got, expected);
        for (p, r) in parts.iter().zip(&ranges) {
            prop_assert_eq!(r.clone(), p.first() as usize..p.last() as usize);
        }
    }
}

#[test]
fn one_part_from_zero_is_shared_and_others_copied() {
    let o = offset_buffer(0, &[3, 4, 0, 5]);
    let (same, ranges) = offsets(&[&o], "values").unwrap();
    assert_eq!(same.buffer().as_ptr(), o.buffer().as_ptr());
    assert_eq!(ranges, vec![0..12]);
    let s = o.slice(1, 2);
    let (rebased, ranges) = offsets(&[&s], "values").unwrap();
    assert_eq!((rebased.as_slice(), ranges), (&[0, 4, 4][..], vec![3..7]));
    // Two parts are copied even when the first starts at 0.
    let (two, _) = offsets(&[&o, &o], "values").unwrap();
    assert_ne!(two.buffer().as_ptr(), o.buffer().as_ptr());
    assert_eq!(two.as_slice(), &[0, 3, 7, 7, 12, 15, 19, 19, 24]);
}

#[test]
fn offsets_beyond_i32_are_an_overflow_error() {
    let n = (1i32 << 30) + 1;
    let o = OffsetBuffer::<i32>::try_new(vec![0, n].into()).unwrap();
    let e = offsets(&[&o, &o], "list values").unwrap_err();
    assert!(matches!(e, Error::Overflow { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "overflow: concatenated list values need offset 2147483650, beyond the range of i32 offsets"
    );
    let large = OffsetBuffer::<i64>::try_new(vec![0, n as i64].into()).unwrap();
    let (rebased, _) = offsets(&[&large, &large], "values").unwrap();
    assert_eq!(rebased.as_slice(), &[0, n as i64, 2 * n as i64]);
    // A single slice near the top of i32 rebases down to 0.
    let top = OffsetBuffer::<i32>::try_new(vec![0, i32::MAX - 1, i32::MAX].into()).unwrap();
    let (rebased, ranges) = offsets(&[&top.slice(1, 1)], "values").unwrap();
    assert_eq!(
        (rebased.as_slice(), ranges),
        (&[0, 1][..], vec![2147483646..2147483647])
    );
}

#[test]
fn decreasing_offsets_are_an_error_not_a_panic() {
    // SAFETY: these offsets are only rebased (which must reject them), never used to slice.
    let bad = unsafe { OffsetBuffer::<i32>::new_unchecked(vec![5, 9, 7, 8].into()) };
    let e = offsets(&[&bad], "values").unwrap_err();
    assert_eq!(e.to_string(), "offsets decrease at index 2: 7 follows 9");
    // SAFETY: as above.
    let below = unsafe { OffsetBuffer::<i32>::new_unchecked(vec![5, 2, 6].into()) };
    assert!(offsets(&[&below, &below], "values").is_err());
}

// ---- list views ----

/// A list view over a child of `child_len` Int32 values `0, 1, …`.
#[derive(Clone, Debug)]
struct Views {
    child_len: usize,
    views: Vec<(usize, usize)>,
    valid: Vec<bool>,
}

fn views() -> impl Strategy<Value = Views> {
    (0usize..30).prop_flat_map(|child_len| {
        let view = (0..=child_len).prop_flat_map(move |o| (Just(o), 0..=child_len - o));
        prop::collection::vec((view, any::<bool>()), 0..20).prop_map(move |v| Views {
            child_len,
            views: v.iter().map(|(view, _)| *view).collect(),
            valid: v.iter().map(|(_, valid)| *valid).collect(),
        })
    })
}

fn item() -> FieldRef {
    Arc::new(Field::new("item", DataType::Int32, true))
}

fn list_view_of(v: &Views) -> ListViewArray {
    let child = PrimitiveArray::<i32>::new((0..v.child_len as i32).collect::<Vec<_>>());
    let offsets: Vec<i32> = v.views.iter().map(|&(o, _)| o as i32).collect();
    let sizes: Vec<i32> = v.views.iter().map(|&(_, s)| s as i32).collect();
    let validity: Bitmap = v.valid.iter().copied().collect();
    let child = Array::from(child);
    ListViewArray::try_new(item(), offsets.into(), sizes.into(), child, Some(validity)).unwrap()
}

/// Slot `i` of a list view over Int32 values: `None` when null, else its values.
fn slot(a: &ListViewArray, i: usize) -> Option<Vec<i32>> {
    let child = a.values().as_primitive::<i32>().unwrap();
    let (o, s) = (a.offsets()[i] as usize, a.sizes()[i] as usize);
    a.is_valid(i).then(|| child.values()[o..o + s].to_vec())
}

proptest! {
    /// The used range is the span of the child slots some valid, non-empty view covers.
    #[test]
    fn list_view_range_spans_the_covered_child_slots(v in views(), c in (any::<usize>(), any::<usize>())) {
        let all = list_view_of(&v);
        let (o, l) = cut(all.len(), c);
        let a = all.slice(o, l);
        let covered: Vec<usize> = (0..v.child_len)
            .filter(|&j| (0..a.len()).any(|i| {
                let (start, size) = (a.offsets()[i] as usize, a.sizes()[i] as usize);
                a.is_valid(i) && start <= j && j < start + size
            }))
            .collect();
        let expected = match (covered.first(), covered.last()) {
            (Some(&lo), Some(&hi)) => lo..hi + 1,
            _ => 0..0,
        };
        prop_assert_eq!(list_view_range(&a), expected);
    }

    /// Moved views over the used child ranges laid end to end hold the same lists as the
    /// parts, and null or empty views become (0, 0).
    #[test]
    fn moved_list_views_keep_every_list(v in views(), cuts in cuts()) {
        let all = list_view_of(&v);
        let parts: Vec<ListViewArray> = cuts
            .iter()
            .map(|&c| {
                let (o, l) = cut(all.len(), c);
                all.slice(o, l)
            })
            .collect();
        let refs: Vec<&ListViewArray> = parts.iter().collect();
        let ranges: Vec<Range<usize>> = refs.iter().map(|a| list_view_range(a)).collect();
        let (offsets, sizes) = list_views(&refs, &ranges).unwrap();
        let child: Vec<i32> = ranges.iter().flat_map(|r| r.start as i32..r.end as i32).collect();
        let validity: Bitmap = parts.iter().flat_map(|p| (0..p.len()).map(|i| p.is_valid(i))).collect();
        let out = ListViewArray::try_new(
            item(), offsets, sizes, Array::from(PrimitiveArray::<i32>::new(child)), Some(validity),
        ).unwrap();
        let expected: Vec<Option<Vec<i32>>> = parts
            .iter()
            .flat_map(|p| (0..p.len()).map(|i| slot(p, i)))
            .collect();
        let got: Vec<Option<Vec<i32>>> = (0..out.len()).map(|i| slot(&out, i)).collect();
        prop_assert_eq!(got, expected);
        for i in 0..out.len() {
            if out.sizes()[i] == 0 || out.is_null(i) {
                prop_assert_eq!((out.offsets()[i], out.sizes()[i]), (0, 0));
            }
        }
    }
}

#[test]
fn list_view_offsets_beyond_i32_are_an_overflow_error() {
    let n = (1usize << 30) + 1;
    let child = Array::from(NullArray::new(n));
    let field = Arc::new(Field::new("item", DataType::Null, true));
    let a = ListViewArray::try_new(field, vec![0].into(), vec![n as i32].into(), child, None);
    let a = a.unwrap();
    let ranges = vec![0..n; 3];
    let e = list_views(&[&a, &a, &a], &ranges).unwrap_err();
    assert_eq!(
        e.to_string(),
        "overflow: list view offset 2147483650 beyond i32 offsets"
    );
    // Large list views take it.
    let field = Arc::new(Field::new("item", DataType::Null, true));
    let child = Array::from(NullArray::new(n));
    let large =
        LargeListViewArray::try_new(field, vec![0].into(), vec![n as i64].into(), child, None);
    let large = large.unwrap();
    let (offsets, _) = list_views(&[&large, &large, &large], &ranges).unwrap();
    assert_eq!(offsets.as_slice(), &[0, n as i64, 2 * n as i64]);
}

#[test]
fn list_views_outside_their_range_are_an_error() {
    let v = Views {
        child_len: 10,
        views: vec![(2, 3), (6, 2)],
        valid: vec![true, true],
    };
    let a = list_view_of(&v);
    assert_eq!(list_view_range(&a), 2..8);
    assert!(list_views(&[&a], &[3..8]).is_err(), "starts before");
    assert!(list_views(&[&a], &[2..7]).is_err(), "ends after");
    assert!(list_views(&[&a], &[]).is_err(), "one range per part");
    // A wider range is fine: offsets move by its start.
    let (offsets, _) = list_views(&[&a], &[1..9]).unwrap();
    assert_eq!(offsets.as_slice(), &[1, 5]);
}

// ---- dense unions ----

/// A dense union of two Int32 children whose values are `100 * child + index`.
#[derive(Clone, Debug)]
struct Dense {
    child_lens: [usize; 2],
    slots: Vec<(usize, usize)>,
}

fn dense() -> impl Strategy<Value = Dense> {
    (1usize..10, 1usize..10).prop_flat_map(|(l0, l1)| {
        let slot = (0usize..2).prop_flat_map(move |c| (Just(c), 0..[l0, l1][c]));
        prop::collection::vec(slot, 0..20).prop_map(move |slots| Dense {
            child_lens: [l0, l1],
            slots,
        })
    })
}

fn union_fields() -> UnionFields {
    let fields = vec![
        Field::new("a", DataType::Int32, true),
        Field::new("b", DataType::Int32, true),
    ];
    UnionFields::try_new(vec![3i8, 7], fields).unwrap()
}

fn union_of(d: &Dense) -> UnionArray {
    let children = (0..2)
        .map(|c| {
            let values: Vec<i32> = (0..d.child_lens[c] as i32)
                .map(|j| 100 * c as i32 + j)
                .collect();
            Array::from(PrimitiveArray::<i32>::new(values))
        })
        .collect();
    let ids: Vec<i8> = d.slots.iter().map(|&(c, _)| [3, 7][c]).collect();
    let offsets: Vec<i32> = d.slots.iter().map(|&(_, o)| o as i32).collect();
    let mode = UnionMode::Dense;
    UnionArray::try_new(
        union_fields(),
        mode,
        ids.into(),
        Some(offsets.into()),
        children,
    )
    .unwrap()
}

/// The value of each slot of a union of Int32 children.
fn union_values(u: &UnionArray) -> Vec<i32> {
    (0..u.len())
        .map(|i| {
            let child = u.children()[u.child_index(i)]
                .as_primitive::<i32>()
                .unwrap();
            child.value(u.value_offset(i))
        })
        .collect()
}

proptest! {
    /// Each child's range spans the child slots some union slot points at.
    #[test]
    fn dense_union_ranges_span_the_used_child_slots(d in dense(), c in (any::<usize>(), any::<usize>())) {
        let all = union_of(&d);
        let (o, l) = cut(all.len(), c);
        let u = all.slice(o, l);
        let ranges = dense_union_ranges(&u).unwrap();
        for (c, r) in ranges.iter().enumerate() {
            let used: Vec<usize> = (0..d.child_lens[c])
                .filter(|&j| (0..u.len()).any(|i| u.child_index(i) == c && u.value_offset(i) == j))
                .collect();
            let expected = match (used.first(), used.last()) {
                (Some(&lo), Some(&hi)) => lo..hi + 1,
                _ => 0..0,
            };
            prop_assert_eq!(r.clone(), expected);
        }
    }

    /// Moved offsets into the cut children laid end to end select the same values.
    #[test]
    fn moved_union_offsets_select_the_same_values(d in dense(), cuts in cuts()) {
        let all = union_of(&d);
        let parts: Vec<UnionArray> = cuts
            .iter()
            .map(|&c| {
                let (o, l) = cut(all.len(), c);
                all.slice(o, l)
            })
            .collect();
        let refs: Vec<&UnionArray> = parts.iter().collect();
        let ranges: Vec<Vec<Range<usize>>> =
            refs.iter().map(|u| dense_union_ranges(u).unwrap()).collect();
        let offsets = dense_union_offsets(&refs, &ranges).unwrap();
        let children = (0..2)
            .map(|c| {
                let values: Vec<i32> = ranges
                    .iter()
                    .flat_map(|r| r[c].clone().map(|j| 100 * c as i32 + j as i32))
                    .collect();
                Array::from(PrimitiveArray::<i32>::new(values))
            })
            .collect();
        let ids: Vec<i8> = parts.iter().flat_map(|p| p.type_ids().iter()).collect();
        let mode = UnionMode::Dense;
        let out = UnionArray::try_new(union_fields(), mode, ids.into(), Some(offsets), children);
        let expected: Vec<i32> = parts.iter().flat_map(union_values).collect();
        prop_assert_eq!(union_values(&out.unwrap()), expected);
    }
}

#[test]
fn dense_union_offsets_beyond_i32_are_an_overflow_error() {
    let fields = vec![Field::new("n", DataType::Null, true)];
    let fields = UnionFields::try_new(vec![0i8], fields).unwrap();
    let max = i32::MAX as usize;
    let union = |offsets: Vec<i32>| {
        let ids = vec![0i8; offsets.len()];
        let child = vec![Array::from(NullArray::new(max))];
        let mode = UnionMode::Dense;
        UnionArray::try_new(
            fields.clone(),
            mode,
            ids.into(),
            Some(offsets.into()),
            child,
        )
        .unwrap()
    };
    let (a, b) = (union(vec![0, i32::MAX - 1]), union(vec![0, 1]));
    let ranges = [
        dense_union_ranges(&a).unwrap(),
        dense_union_ranges(&b).unwrap(),
    ];
    assert_eq!(ranges, [vec![0..max], vec![0..2]]);
    let e = dense_union_offsets(&[&a, &b], &ranges).unwrap_err();
    assert_eq!(
        e.to_string(),
        "overflow: dense union offset 2147483648 beyond i32"
    );
}

#[test]
fn bad_union_slots_are_errors_not_panics() {
    let child = || Array::from(PrimitiveArray::<i32>::new(vec![1, 2]));
    let bad = |ids: Vec<i8>, offsets: Vec<i32>| {
        let mode = UnionMode::Dense;
        let children = vec![child(), child()];
        UnionArray::try_new_deferred(
            union_fields(),
            mode,
            ids.into(),
            Some(offsets.into()),
            children,
        )
        .unwrap()
    };
    let e = dense_union_ranges(&bad(vec![3, 5], vec![0, 0])).unwrap_err();
    assert!(e.to_string().contains("undeclared type id 5"), "{e}");
    let e = dense_union_ranges(&bad(vec![3, 7], vec![0, -1])).unwrap_err();
    assert!(e.to_string().contains("negative offset -1"), "{e}");
    let e = dense_union_ranges(&bad(vec![3, 7], vec![0, 2])).unwrap_err();
    assert!(e.to_string().contains("beyond child 1 of length 2"), "{e}");
    let sparse = UnionArray::try_new(
        union_fields(),
        UnionMode::Sparse,
        vec![3i8].into(),
        None,
        vec![child(), child()],
    );
    assert!(dense_union_ranges(&sparse.unwrap()).is_err());
    let good = bad(vec![3, 7], vec![1, 0]);
    assert!(
        dense_union_offsets(&[&good], &[vec![0..1, 0..1]]).is_err(),
        "slot outside its range"
    );
    assert!(
        dense_union_offsets(&[&good], &[vec![0..2]]).is_err(),
        "one range per child"
    );
}

// ---- run ends ----

fn runs_of(lengths: &[usize]) -> RunEndArray {
    let mut ends = Vec::with_capacity(lengths.len());
    for l in lengths {
        ends.push(ends.last().copied().unwrap_or(0) + *l as i32);
    }
    let values: Vec<i64> = (0..lengths.len() as i64).map(|j| 10 * j).collect();
    RunEndArray::try_new(
        Array::from(PrimitiveArray::<i32>::new(ends)),
        Array::from(PrimitiveArray::<i64>::new(values)),
    )
    .unwrap()
}

/// The logical values of a run-end encoded array of Int64, slot by slot (linear scan of the
/// run ends).
fn expand(a: &RunEndArray) -> Vec<i64> {
    let ends = a.run_ends().as_primitive::<i32>().unwrap();
    let values = a.values().as_primitive::<i64>().unwrap();
    (a.offset()..a.offset() + a.len())
        .map(|i| {
            let run = (0..ends.len())
                .find(|&j| i < ends.value(j) as usize)
                .unwrap();
            values.value(run)
        })
        .collect()
}

proptest! {
    /// Rebased run ends over the covered runs' values decode to the parts' values, and each
    /// part's range is exactly the runs its slots fall in.
    #[test]
    fn rebased_runs_decode_to_the_same_values(
        lengths in prop::collection::vec(1usize..5, 1..10),
        cuts in cuts(),
    ) {
        let all = runs_of(&lengths);
        let parts: Vec<RunEndArray> = cuts
            .iter()
            .map(|&c| {
                let (o, l) = cut(all.len(), c);
                all.slice(o, l)
            })
            .collect();
        let refs: Vec<&RunEndArray> = parts.iter().collect();
        let (ends, ranges) = run_ends(&refs).unwrap();
        for (p, r) in parts.iter().zip(&ranges) {
            let runs: Vec<usize> = (0..p.len()).map(|i| p.physical_index(i)).collect();
            let expected = match (runs.first(), runs.last()) {
                (Some(&lo), Some(&hi)) => lo..hi + 1,
                _ => 0..0,
            };
            prop_assert_eq!(r.clone(), expected);
        }
        let values: Vec<i64> = ranges.iter().flat_map(|r| r.clone().map(|j| 10 * j as i64)).collect();
        let out = RunEndArray::try_new(ends, Array::from(PrimitiveArray::<i64>::new(values)));
        let out = out.unwrap();
        let expected: Vec<i64> = parts.iter().flat_map(expand).collect();
        prop_assert_eq!(out.len(), expected.len());
        prop_assert_eq!(expand(&out), expected);
    }
}

#[test]
fn whole_runs_are_shared() {
    let r = runs_of(&[2, 3, 1]);
    let (ends, ranges) = run_ends(&[&r]).unwrap();
    let ptr = |a: &Array| a.as_primitive::<i32>().unwrap().values().as_ptr();
    assert_eq!(ptr(&ends), ptr(r.run_ends()));
    assert_eq!(ranges, vec![0..3]);
    // A slice from 0 ending inside the last run is rebased (its last end clipped).
    let (ends, _) = run_ends(&[&r.slice(0, 5)]).unwrap();
    assert_ne!(ptr(&ends), ptr(r.run_ends()));
    assert_eq!(
        ends.as_primitive::<i32>().unwrap().values().as_slice(),
        &[2, 5]
    );
}

#[test]
fn run_ends_beyond_their_type_are_an_overflow_error() {
    let r = RunEndArray::try_new(
        Array::from(PrimitiveArray::<i16>::new(vec![20_000])),
        Array::from(PrimitiveArray::<i64>::new(vec![1])),
    )
    .unwrap();
    let e = run_ends(&[&r, &r]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "overflow: run end 40000 is beyond the range of i16 run ends"
    );
    let wide = runs_of(&[3]);
    assert!(run_ends(&[&r, &wide]).is_err(), "run-end types differ");
    assert!(run_ends(&[]).is_err());
}
