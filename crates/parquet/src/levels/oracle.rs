//! Test oracle shared by record assembly and shredding: values along a path, shredded into
//! levels and walked into validity and offsets straight from the Dremel definitions.

use super::assemble::Nested;
use super::assemble::Repetition::{self, *};

/// A value along a path: what each node holds.
#[derive(Debug, Clone)]
pub(crate) enum V {
    /// An optional node that is null.
    Null,
    /// A required or present optional node.
    One(Box<V>),
    /// A repeated node's elements.
    List(Vec<V>),
    /// The leaf value.
    Leaf,
}

/// Dremel shredding of one record, straight from the definition: one `(def, rep)` per entry.
pub(crate) fn shred(path: &[Repetition], v: &V, out: &mut Vec<(i16, i16)>) {
    shred_at(path, 0, v, 0, 0, out)
}

fn shred_at(path: &[Repetition], i: usize, v: &V, d: i16, r: i16, out: &mut Vec<(i16, i16)>) {
    if i == path.len() {
        out.push((d, r));
        return;
    }
    let rep_here = path[..=i].iter().filter(|&&n| n == Repeated).count() as i16;
    match (path[i], v) {
        (Required, V::One(c)) => shred_at(path, i + 1, c, d, r, out),
        (Optional, V::Null) => out.push((d, r)),
        (Optional, V::One(c)) => shred_at(path, i + 1, c, d + 1, r, out),
        (Repeated, V::List(items)) if items.is_empty() => out.push((d, r)),
        (Repeated, V::List(items)) => {
            for (j, c) in items.iter().enumerate() {
                let r = if j == 0 { r } else { rep_here };
                shred_at(path, i + 1, c, d + 1, r, out);
            }
        }
        other => unreachable!("{other:?}"),
    }
}

/// What record assembly must build for a path: validity per optional node, offsets per
/// repeated node, leaf values present.
#[derive(Default, Debug, PartialEq)]
pub(crate) struct Expected {
    pub validity: Vec<Vec<bool>>,
    pub offsets: Vec<Vec<i64>>,
    pub values: usize,
}

/// The structure of `records`, walked slot by slot.
pub(crate) fn expected(path: &[Repetition], records: &[V]) -> Expected {
    let mut e = Expected {
        validity: vec![Vec::new(); path.len()],
        offsets: vec![Vec::new(); path.len()],
        values: 0,
    };
    let mut counts = vec![0i64; path.len()];
    for rec in records {
        walk(path, 0, Some(rec), &mut e, &mut counts);
    }
    for (i, o) in e.offsets.iter_mut().enumerate() {
        if path[i] == Repeated {
            o.push(counts[i]);
        }
    }
    e
}

fn child(v: Option<&V>) -> Option<&V> {
    match v {
        Some(V::One(c)) => Some(&**c),
        _ => None,
    }
}

/// `v` is `None` where an ancestor in the segment is null.
fn walk(path: &[Repetition], i: usize, v: Option<&V>, e: &mut Expected, counts: &mut [i64]) {
    if i == path.len() {
        e.values += usize::from(v.is_some());
        return;
    }
    match path[i] {
        Required => walk(path, i + 1, child(v), e, counts),
        Optional => {
            e.validity[i].push(matches!(v, Some(V::One(_))));
            walk(path, i + 1, child(v), e, counts);
        }
        Repeated => {
            e.offsets[i].push(counts[i]);
            if let Some(V::List(items)) = v {
                for c in items {
                    walk(path, i + 1, Some(c), e, counts);
                }
                counts[i] += items.len() as i64;
            }
        }
    }
}

/// Asserts that `got` (what [`Path::assemble`](super::assemble::Path::assemble) built) has
/// `want`'s leaf values and, per node, its validity and offsets (`ctx` names the case).
pub(crate) fn assert_nested(got: &Nested, want: &Expected, ctx: &str) {
    assert_eq!(got.values, want.values, "{ctx}: values");
    for i in 0..want.validity.len() {
        let v: Vec<bool> = got.validity[i]
            .as_ref()
            .map(|b| (0..b.len()).map(|j| b.get(j)).collect())
            .unwrap_or_default();
        assert_eq!(v, want.validity[i], "{ctx}: node {i} validity");
        let o: Vec<i64> = got.offsets[i]
            .as_ref()
            .map(|b| b.typed::<i64>().to_vec())
            .unwrap_or_default();
        assert_eq!(o, want.offsets[i], "{ctx}: node {i} offsets");
    }
}
