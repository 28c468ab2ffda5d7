//! Shredding: one top-level Arrow column into the Dremel definition and repetition levels of
//! each Parquet leaf under it (the inverse of [`crate::levels::assemble`]).
//!
//! The Parquet shape follows the writer's one rule: a field is `optional` when it is nullable,
//! else `required`; list-likes (List, LargeList, ListView, LargeListView, FixedSizeList) are a
//! group holding a `repeated` group holding the element; a map is a list of required `key_value`
//! groups (`key` required, `value` by its nullability); a struct is a group of its children;
//! everything else is one leaf (a dictionary or run-end encoded array stands for its values).
//!
//! Each leaf's path from the column's top is turned into a list of `Node`s (validity, offsets
//! and the leaf's logical nulls, all shared with the input, nothing copied) and walked by
//! `walk::Walker`: list entries one at a time (runs of them over a leaf), runs of struct slots
//! at once, and the path below the last list (structs and the leaf) 64 slots at a time from
//! the bitmaps.

mod walk;

use quiver_arrow::buffer::{Bitmap, Buffer, MutableBitmap, OffsetBuffer};
use quiver_arrow::datatype::{DataType, Field};
use quiver_arrow::{Array, Error, Result};
use std::ops::Range;

/// The levels of one leaf column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeafLevels {
    /// A top-level leaf (no struct/list above it): no repetition levels; the definition levels
    /// are the array's validity (max def 1 when the field is nullable, 0 otherwise).
    Flat,
    /// Any nested leaf: one definition and one repetition level per entry (rep empty when max
    /// rep is 0). Also a top-level leaf whose nulls are not its validity bitmap: the Null type,
    /// a dictionary with null values, a run-end encoded array.
    Nested {
        /// One definition level per entry.
        def: Vec<i16>,
        /// One repetition level per entry; empty when `max_rep` is 0.
        rep: Vec<i16>,
    },
}

/// One leaf column of a shredded Arrow column.
#[derive(Debug, Clone)]
pub struct ShreddedLeaf {
    /// The leaf's levels.
    pub levels: LeafLevels,
    /// The leaf array (for a dictionary leaf the DictionaryArray itself; for run-end encoded
    /// its values).
    pub array: Array,
    /// The positions of `array` the level entries reach, in level order (adjacent ranges
    /// merged): every entry whose definition level reaches the leaf's slot
    /// (`def >= max_def - (leaf nullable as i16)`) takes the next position; entries below that
    /// (a null or empty ancestor) take none. Flat: one range, the array's whole length. Run-end
    /// encoded: each entry takes its run's value position, so a run of `n` entries gives `n`
    /// one-position ranges.
    pub ranges: Vec<Range<usize>>,
    /// The maximum definition level.
    pub max_def: i16,
    /// The maximum repetition level.
    pub max_rep: i16,
}

/// Shreds one top-level column (array + its field) into its leaves, depth-first (the order of
/// the Parquet schema's leaves): struct children in order, list/large list/list view/fixed-size
/// list → their element, map → key then value, dictionary and run-end encoded → one leaf.
///
/// A non-nullable field with a null where the levels reach it is an error naming the field
/// (nulls under a null or empty ancestor are never reached); so is a type Parquet cannot hold
/// (unions, dictionaries or run-end encoded arrays of nested values).
pub fn shred(array: &Array, field: &Field) -> Result<Vec<ShreddedLeaf>> {
    let mut leaves = Vec::new();
    let mut path = Vec::new();
    let mut b = Builder {
        leaves: &mut leaves,
        path: &mut path,
        shared_rep: None,
    };
    b.node(array, field, field.is_nullable(), field.name().to_string())?;
    Ok(leaves)
}

/// How a list node finds each entry's child positions.
#[derive(Debug, Clone)]
enum Offsets {
    Small(OffsetBuffer<i32>),
    Large(OffsetBuffer<i64>),
    View(Buffer<i32>, Buffer<i32>),
    LargeView(Buffer<i64>, Buffer<i64>),
    Fixed(usize),
}

impl Offsets {
    /// The child positions of entry `i`.
    #[inline]
    fn range(&self, i: usize) -> (usize, usize) {
        match self {
            Offsets::Small(o) => {
                let o = o.as_slice();
                (o[i] as usize, o[i + 1] as usize)
            }
            Offsets::Large(o) => {
                let o = o.as_slice();
                (o[i] as usize, o[i + 1] as usize)
            }
            Offsets::View(o, s) => (o[i] as usize, (o[i] + s[i]) as usize),
            Offsets::LargeView(o, s) => (o[i] as usize, (o[i] + s[i]) as usize),
            Offsets::Fixed(n) => (i * n, (i + 1) * n),
        }
    }
}

/// A node's kind on a leaf's path.
#[derive(Debug, Clone)]
enum Kind {
    Struct,
    List(Offsets),
    /// The leaf; run-end encoded leaves map logical positions to their runs' values.
    Leaf(Option<Runs>),
}

/// The runs of a run-end encoded leaf, relative to its slice.
#[derive(Debug, Clone)]
struct Runs {
    /// The logical end of each run the slice reaches (the last clipped to the length).
    ends: Vec<usize>,
    /// The value position of the first of those runs.
    first: usize,
}

/// One node on a leaf's path, top down.
#[derive(Debug, Clone)]
struct Node {
    /// The dotted field path, for errors.
    name: String,
    nullable: bool,
    /// The slots' nulls; `None` when there are none.
    validity: Option<Bitmap>,
    /// Number of slots.
    len: usize,
    kind: Kind,
}

/// Builds each leaf's path and shreds it.
struct Builder<'b> {
    leaves: &'b mut Vec<ShreddedLeaf>,
    path: &'b mut Vec<Node>,
    /// The repetition levels of the last leaf under a list, and the length of its path's
    /// prefix down to its last list (inclusive), while that prefix is on the path: they depend
    /// on that prefix only, so the leaves below the same last list (a list of structs, a
    /// map's key and value) share them.
    shared_rep: Option<(usize, Vec<i16>)>,
}

impl Builder<'_> {
    /// Pushes the node of `array` (declared by `field`, `nullable` as the shape says) and
    /// descends into its children.
    fn node(&mut self, array: &Array, field: &Field, nullable: bool, name: String) -> Result<()> {
        let depth = self.path.len();
        let node = |kind| Node {
            kind,
            ..plain(array, nullable, name.clone())
        };
        match (array, field.data_type()) {
            (Array::Struct(s), DataType::Struct(fields)) if fields.len() == s.columns().len() => {
                self.path.push(node(Kind::Struct));
                for (c, f) in s.columns().iter().zip(fields.iter()) {
                    self.node(c, f, f.is_nullable(), format!("{name}.{}", f.name()))?;
                }
            }
            (Array::List(l), DataType::List(f)) => {
                self.path
                    .push(node(Kind::List(Offsets::Small(l.offsets().clone()))));
                self.child(l.values(), f, &name)?;
            }
            (Array::LargeList(l), DataType::LargeList(f)) => {
                self.path
                    .push(node(Kind::List(Offsets::Large(l.offsets().clone()))));
                self.child(l.values(), f, &name)?;
            }
            (Array::ListView(l), DataType::ListView(f)) => {
                let o = Offsets::View(l.offsets().clone(), l.sizes().clone());
                self.path.push(node(Kind::List(o)));
                self.child(l.values(), f, &name)?;
            }
            (Array::LargeListView(l), DataType::LargeListView(f)) => {
                let o = Offsets::LargeView(l.offsets().clone(), l.sizes().clone());
                self.path.push(node(Kind::List(o)));
                self.child(l.values(), f, &name)?;
            }
            (Array::FixedSizeList(l), DataType::FixedSizeList(f, _)) => {
                self.path.push(node(Kind::List(Offsets::Fixed(l.size()))));
                self.child(l.values(), f, &name)?;
            }
            (Array::Map(m), DataType::Map(entries, _)) => {
                let kv = match entries.data_type() {
                    DataType::Struct(kv) if kv.len() == 2 => kv,
                    _ => return Err(mismatch(&name, array, field)),
                };
                self.path
                    .push(node(Kind::List(Offsets::Small(m.offsets().clone()))));
                // key_value is a required group and the key is required, whatever the fields say.
                let e = format!("{name}.{}", entries.name());
                self.path.push(Node {
                    kind: Kind::Struct,
                    ..plain(&Array::Struct(m.entries().clone()), false, e.clone())
                });
                let (k, v) = (&kv[0], &kv[1]);
                self.node(m.keys(), k, false, format!("{e}.{}", k.name()))?;
                self.node(m.values(), v, v.is_nullable(), format!("{e}.{}", v.name()))?;
            }
            (Array::Union(_), _) => {
                return Err(Error::not_supported(format!(
                    "field \"{name}\": unions cannot be written to Parquet"
                )));
            }
            (_, t) if array.data_type() != t => return Err(mismatch(&name, array, field)),
            _ => {
                let (leaf, values) = leaf_node(array, nullable, &name)?;
                self.path.push(leaf);
                self.finish_leaf(values, nulls_are_validity(array))?;
            }
        }
        self.path.truncate(depth);
        if self
            .shared_rep
            .as_ref()
            .is_some_and(|(prefix, _)| depth < *prefix)
        {
            self.shared_rep = None;
        }
        Ok(())
    }

    /// A list's element node.
    fn child(&mut self, values: &Array, f: &Field, name: &str) -> Result<()> {
        self.node(values, f, f.is_nullable(), format!("{name}.{}", f.name()))
    }

    /// Shreds the complete path (the leaf last) into one [`ShreddedLeaf`].
    /// `flat`: the leaf's nulls are its array's validity, so a top-level leaf needs no levels.
    fn finish_leaf(&mut self, array: Array, flat: bool) -> Result<()> {
        let max_rep = self
            .path
            .iter()
            .filter(|n| matches!(n.kind, Kind::List(_)))
            .count() as i16;
        let max_def = max_rep + self.path.iter().filter(|n| n.nullable).count() as i16;
        let leaf = self.path.last().expect("the leaf was pushed"); // ok: the leaf was pushed.
        if self.path.len() == 1 && flat {
            if !leaf.nullable && leaf.validity.is_some() {
                return Err(non_nullable(&leaf.name));
            }
            let mut ranges = Vec::with_capacity(1);
            if !array.is_empty() {
                ranges.push(0..array.len());
            }
            self.leaves.push(ShreddedLeaf {
                levels: LeafLevels::Flat,
                array,
                ranges,
                max_def,
                max_rep,
            });
            return Ok(());
        }
        let prefix = walk::tail_start(self.path);
        let known = match &self.shared_rep {
            Some((p, rep)) if *p == prefix => Some(rep),
            _ => None,
        };
        let (def, rep, ranges) = walk::Walker::run(self.path, max_rep > 0, known)?;
        #[cfg(debug_assertions)]
        if known.is_some() {
            let (_, fresh, _) = walk::Walker::run(self.path, true, None)?;
            assert_eq!(
                fresh, rep,
                "shared repetition levels differ from the leaf's own"
            );
        }
        if max_rep > 0 && known.is_none() {
            self.shared_rep = Some((prefix, rep.clone()));
        }
        self.leaves.push(ShreddedLeaf {
            levels: LeafLevels::Nested { def, rep },
            array,
            ranges,
            max_def,
            max_rep,
        });
        Ok(())
    }
}

/// A node whose nulls are `array`'s validity (its kind set by the caller).
fn plain(array: &Array, nullable: bool, name: String) -> Node {
    Node {
        name,
        nullable,
        validity: array.validity().filter(|v| v.unset_bits() > 0).cloned(),
        len: array.len(),
        kind: Kind::Leaf(None),
    }
}

/// True when a leaf's nulls are its array's validity bitmap (not so for the Null type, a
/// dictionary with null values, or run-end encoded arrays).
fn nulls_are_validity(array: &Array) -> bool {
    match array {
        Array::Null(_) | Array::RunEndEncoded(_) => false,
        Array::Dictionary(d) => d.values().null_count() == 0,
        _ => true,
    }
}

/// The leaf node of `array` and the array the leaf hands out.
fn leaf_node(array: &Array, nullable: bool, name: &str) -> Result<(Node, Array)> {
    let len = array.len();
    let node = |validity: Option<Bitmap>, kind| Node {
        name: name.to_string(),
        nullable,
        validity: validity.filter(|v| v.unset_bits() > 0),
        len,
        kind,
    };
    Ok(match array {
        Array::Null(_) => {
            let nulls = Bitmap::new_constant(false, len);
            (node(Some(nulls), Kind::Leaf(None)), array.clone())
        }
        Array::Dictionary(d) => {
            check_leaf_values(d.values(), name)?;
            let validity = if d.values().null_count() == 0 {
                d.validity().cloned()
            } else {
                let mut m = MutableBitmap::with_capacity(len);
                for i in 0..len {
                    m.push(!d.is_null_value(i));
                }
                Some(m.freeze())
            };
            (node(validity, Kind::Leaf(None)), array.clone())
        }
        Array::RunEndEncoded(r) => {
            let values = r.values();
            check_leaf_values(values, name)?;
            let runs = runs(r.run_ends(), r.offset(), len);
            let validity = (values.null_count() > 0).then(|| {
                let mut m = MutableBitmap::with_capacity(len);
                let mut start = 0;
                for (j, &end) in runs.ends.iter().enumerate() {
                    m.append_n(!value_is_null(values, runs.first + j), end - start);
                    start = end;
                }
                m.freeze()
            });
            (node(validity, Kind::Leaf(Some(runs))), values.clone())
        }
        _ => (
            node(array.validity().cloned(), Kind::Leaf(None)),
            array.clone(),
        ),
    })
}

/// Whether value `j` is null, a dictionary's null values included.
fn value_is_null(values: &Array, j: usize) -> bool {
    match values {
        Array::Dictionary(d) => d.is_null_value(j),
        _ => values.is_null(j),
    }
}

/// The runs a run-end encoded slice `[offset, offset + len)` reaches.
fn runs(run_ends: &Array, offset: usize, len: usize) -> Runs {
    let ends: Vec<usize> = match run_ends {
        Array::I16(p) => p.values().iter().map(|e| e as usize).collect(),
        Array::I32(p) => p.values().iter().map(|e| e as usize).collect(),
        Array::I64(p) => p.values().iter().map(|e| e as usize).collect(),
        _ => unreachable!("run ends are Int16/32/64 (checked at construction)"),
    };
    let first = ends.partition_point(|&e| e <= offset);
    let mut out = Vec::new();
    if len > 0 {
        for &e in &ends[first..] {
            let e = e - offset;
            out.push(e.min(len));
            if e >= len {
                break;
            }
        }
    }
    Runs { ends: out, first }
}

/// Dictionary and run-end encoded values must be leaves themselves.
fn check_leaf_values(values: &Array, name: &str) -> Result<()> {
    let nested = matches!(
        values,
        Array::Struct(_)
            | Array::List(_)
            | Array::LargeList(_)
            | Array::ListView(_)
            | Array::LargeListView(_)
            | Array::FixedSizeList(_)
            | Array::Map(_)
            | Array::Union(_)
            | Array::RunEndEncoded(_)
    );
    if nested {
        return Err(Error::not_supported(format!(
            "field \"{name}\": encoded arrays of {} values cannot be written to Parquet",
            values.data_type()
        )));
    }
    Ok(())
}

/// The error for an array that does not have its field's type.
fn mismatch(name: &str, array: &Array, field: &Field) -> Error {
    Error::invalid(format!(
        "field \"{name}\" is declared {} but the array is {}",
        field.data_type(),
        array.data_type()
    ))
}

/// The error for a null in a non-nullable field.
fn non_nullable(name: &str) -> Error {
    Error::invalid(format!(
        "field \"{name}\" is non-nullable but its array has nulls"
    ))
}

#[cfg(test)]
mod tests;
