use super::*;
use crate::encoding::test_util::Rng;
use crate::levels::assemble::{Path, Repetition};
use crate::levels::oracle::{self, V};
use quiver_arrow::array::{
    BooleanArray, DictionaryArray, FixedSizeListArray, LargeListArray, LargeListViewArray,
    ListArray, ListViewArray, MapArray, NullArray, PrimitiveArray, RunEndArray, StringArray,
    StructArray,
};
use quiver_arrow::datatype::{FieldRef, IntegerType};
use std::sync::Arc;

mod generate;
mod hand;

/// The Parquet shape of an Arrow column as the test sees it, from the arrays' public accessors.
enum T {
    Leaf(bool, Array),
    Struct(bool, Array, Vec<T>),
    List(bool, Array, Box<T>),
}

fn tree(array: &Array, field: &Field, nullable: bool) -> T {
    let child = |values: &Array, f: &FieldRef| Box::new(tree(values, f, f.is_nullable()));
    match (array, field.data_type()) {
        (Array::Struct(s), DataType::Struct(fields)) => {
            let children = s
                .columns()
                .iter()
                .zip(fields.iter())
                .map(|(c, f)| tree(c, f, f.is_nullable()))
                .collect();
            T::Struct(nullable, array.clone(), children)
        }
        (Array::List(l), DataType::List(f)) => {
            T::List(nullable, array.clone(), child(l.values(), f))
        }
        (Array::LargeList(l), DataType::LargeList(f)) => {
            T::List(nullable, array.clone(), child(l.values(), f))
        }
        (Array::ListView(l), DataType::ListView(f)) => {
            T::List(nullable, array.clone(), child(l.values(), f))
        }
        (Array::LargeListView(l), DataType::LargeListView(f)) => {
            T::List(nullable, array.clone(), child(l.values(), f))
        }
        (Array::FixedSizeList(l), DataType::FixedSizeList(f, _)) => {
            T::List(nullable, array.clone(), child(l.values(), f))
        }
        (Array::Map(m), DataType::Map(entries, _)) => {
            let DataType::Struct(kv) = entries.data_type() else {
                unreachable!()
            };
            let e = Array::Struct(m.entries().clone());
            let kv = vec![
                tree(m.keys(), &kv[0], false),
                tree(m.values(), &kv[1], kv[1].is_nullable()),
            ];
            T::List(nullable, array.clone(), Box::new(T::Struct(false, e, kv)))
        }
        _ => T::Leaf(nullable, array.clone()),
    }
}

/// The child positions of list entry `i`, per value.
fn elements(list: &Array, i: usize) -> Vec<usize> {
    let r = match list {
        Array::List(l) => l.offsets().range(i),
        Array::LargeList(l) => l.offsets().range(i),
        Array::Map(m) => m.offsets().range(i),
        Array::ListView(l) => {
            let o = l.offsets()[i] as usize;
            o..o + l.sizes()[i] as usize
        }
        Array::LargeListView(l) => {
            let o = l.offsets()[i] as usize;
            o..o + l.sizes()[i] as usize
        }
        Array::FixedSizeList(l) => i * l.size()..(i + 1) * l.size(),
        _ => unreachable!(),
    };
    r.collect()
}

/// A leaf slot's nullness and the position of the leaf array it stands for.
fn leaf_slot(array: &Array, i: usize) -> (bool, usize) {
    match array {
        Array::Null(_) => (true, i),
        Array::Dictionary(d) => (d.is_null_value(i), i),
        Array::RunEndEncoded(r) => (r.is_null(i), r.physical_index(i)),
        _ => (array.is_null(i), i),
    }
}

/// One leaf as the oracle sees it.
struct OracleLeaf {
    path: Vec<Repetition>,
    records: Vec<V>,
    positions: Vec<usize>,
    array: Array,
}

fn rep(nullable: bool) -> Repetition {
    if nullable {
        Repetition::Optional
    } else {
        Repetition::Required
    }
}

/// Every leaf's path and the routes (child indices) to it, depth-first.
fn routes(
    t: &T,
    route: &mut Vec<usize>,
    path: &mut Vec<Repetition>,
    out: &mut Vec<(Vec<usize>, Vec<Repetition>)>,
) {
    match t {
        T::Leaf(n, _) => {
            path.push(rep(*n));
            out.push((route.clone(), path.clone()));
            path.pop();
        }
        T::Struct(n, _, children) => {
            path.push(rep(*n));
            for (i, c) in children.iter().enumerate() {
                route.push(i);
                routes(c, route, path, out);
                route.pop();
            }
            path.pop();
        }
        T::List(n, _, c) => {
            path.extend([rep(*n), Repetition::Repeated]);
            routes(c, route, path, out);
            path.truncate(path.len() - 2);
        }
    }
}

/// Slot `i` of node `t` along `route`, per value; records the leaf positions reached.
fn value(t: &T, i: usize, route: &[usize], pos: &mut Vec<usize>) -> V {
    let one = |v: V| V::One(Box::new(v));
    match t {
        T::Leaf(n, a) => {
            let (null, p) = leaf_slot(a, i);
            pos.push(p);
            if *n && null { V::Null } else { one(V::Leaf) }
        }
        T::Struct(n, a, _) | T::List(n, a, _) if *n && a.is_null(i) => V::Null,
        T::Struct(_, _, c) => one(value(&c[route[0]], i, &route[1..], pos)),
        T::List(_, a, c) => {
            let items = elements(a, i).into_iter().map(|j| value(c, j, route, pos));
            one(V::List(items.collect()))
        }
    }
}

fn leaf_array(t: &T, route: &[usize]) -> Array {
    match t {
        T::Leaf(_, Array::RunEndEncoded(r)) => r.values().clone(),
        T::Leaf(_, a) => a.clone(),
        T::Struct(_, _, c) => leaf_array(&c[route[0]], &route[1..]),
        T::List(_, _, c) => leaf_array(c, route),
    }
}

fn oracle_leaves(array: &Array, field: &Field) -> Vec<OracleLeaf> {
    let t = tree(array, field, field.is_nullable());
    let mut all = Vec::new();
    routes(&t, &mut vec![], &mut vec![], &mut all);
    all.into_iter()
        .map(|(route, path)| {
            let mut positions = Vec::new();
            let records = (0..array.len())
                .map(|i| value(&t, i, &route, &mut positions))
                .collect();
            OracleLeaf {
                path,
                records,
                positions,
                array: leaf_array(&t, &route),
            }
        })
        .collect()
}

/// The definition and repetition levels of a shredded leaf, Flat spelled out.
fn levels_of(leaf: &ShreddedLeaf) -> (Vec<i16>, Vec<i16>) {
    match &leaf.levels {
        LeafLevels::Flat => {
            let n = leaf.array.len();
            let def = (0..n)
                .map(|i| {
                    if leaf.max_def == 0 {
                        0
                    } else {
                        i16::from(leaf.array.is_valid(i))
                    }
                })
                .collect();
            (def, vec![])
        }
        LeafLevels::Nested { def, rep } => (def.clone(), rep.clone()),
    }
}

/// Shreds `array` and checks every leaf against the oracle: levels equal the naive Dremel
/// shred, the ranges the positions it reaches, and assembling the levels gives the structure.
fn check(array: &Array, field: &Field) {
    let got = shred(array, field).unwrap_or_else(|e| panic!("{field:?}: {e}"));
    let want = oracle_leaves(array, field);
    assert_eq!(got.len(), want.len(), "{field:?}: leaves");
    for (g, w) in got.iter().zip(&want) {
        let ctx = format!("{field:?} leaf {:?}", w.path);
        let p = Path::new(&w.path).unwrap();
        assert_eq!((g.max_def, g.max_rep), (p.max_def(), p.max_rep()), "{ctx}");
        assert_eq!(g.array.data_type(), w.array.data_type(), "{ctx}");
        assert_eq!(g.array.len(), w.array.len(), "{ctx}");
        let mut levels = Vec::new();
        for r in &w.records {
            oracle::shred(&w.path, r, &mut levels);
        }
        let (def, rep) = levels_of(g);
        let want_def: Vec<i16> = levels.iter().map(|l| l.0).collect();
        assert_eq!(def, want_def, "{ctx}: definition levels");
        if g.max_rep > 0 {
            let want_rep: Vec<i16> = levels.iter().map(|l| l.1).collect();
            assert_eq!(rep, want_rep, "{ctx}: repetition levels");
        } else {
            assert!(rep.is_empty(), "{ctx}");
        }
        if matches!(g.levels, LeafLevels::Flat) {
            assert_eq!(w.path.len(), 1, "{ctx}: Flat only at the top");
        }
        let positions: Vec<usize> = g.ranges.iter().flat_map(|r| r.clone()).collect();
        assert_eq!(positions, w.positions, "{ctx}: positions");
        for pair in g.ranges.windows(2) {
            assert_ne!(pair[0].end, pair[1].start, "{ctx}: ranges not merged");
        }
        assert!(g.ranges.iter().all(|r| !r.is_empty()), "{ctx}: empty range");
        round_trip(&p, &def, &rep, w, array, field);
    }
}

/// Assembles the levels with the reader's record assembly and compares the structure with the
/// oracle's and, at the top, with the array's own validity and (normalized) offsets.
fn round_trip(p: &Path, def: &[i16], rep: &[i16], w: &OracleLeaf, array: &Array, field: &Field) {
    let ctx = format!("{field:?} leaf {:?}", w.path);
    let got = p
        .assemble(def, if p.max_rep() > 0 { rep } else { &[] })
        .unwrap();
    let want = oracle::expected(&w.path, &w.records);
    assert_eq!(got.slots[0], array.len(), "{ctx}: records");
    oracle::assert_nested(&got, &want, &ctx);
    if field.is_nullable() {
        let top = got.validity[0].as_ref().unwrap();
        let own: Vec<bool> = (0..array.len()).map(|i| !leaf_slot(array, i).0).collect();
        assert_eq!(
            (0..top.len()).map(|j| top.get(j)).collect::<Vec<_>>(),
            own,
            "{ctx}: top validity"
        );
    }
    if w.path.get(1) == Some(&Repetition::Repeated) {
        let mut normalized = vec![0i64];
        for i in 0..array.len() {
            let n = if array.is_null(i) {
                0
            } else {
                elements(array, i).len()
            };
            normalized.push(normalized.last().unwrap() + n as i64);
        }
        assert_eq!(
            got.offsets[1].as_ref().unwrap().typed::<i64>(),
            &normalized[..],
            "{ctx}: top offsets"
        );
    }
}

#[test]
fn random_nested_columns_match_the_oracle_and_assemble_back() {
    let mut rng = Rng::new(7);
    for _ in 0..3000 {
        let field = generate::field(&mut rng, "c", 0);
        // Mostly short columns; some long enough for several 64-slot words per level.
        let len = if rng.below(8) == 0 {
            rng.below(300)
        } else {
            rng.below(12)
        } as usize;
        let array = generate::array(&mut rng, &field, len);
        check(&array, &field);
    }
}
