//! Record assembly: from one leaf column's definition and repetition levels to the validity of
//! every optional node and the offsets of every repeated node on its path (Dremel's algorithm,
//! as the Parquet format applies it).
//!
//! The path from the root (excluded) to the leaf is a list of nodes, each required, optional
//! or repeated. A node's definition level is the number of optional and repeated nodes down to
//! it; the `k`-th repeated node has repetition level `k`. The nodes between two repeated nodes
//! form a *segment*: they have one slot per element of the repeated node above them (segment 0:
//! one per record). A level entry `(d, r)` opens a new slot in each segment `k >= r` whose
//! repeated node is defined (`d` at least its definition level); an optional node's slot is
//! valid when `d` reaches the node's level; a repeated node's offsets count, per slot of the
//! segment above it, the slots opened in its own segment.

use quiver_arrow::buffer::{MutableBitmap, MutableBuffer};
use quiver_arrow::{Error, Result};

/// How a node repeats (`FieldRepetitionType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// Exactly one.
    Required,
    /// Zero or one: the node is nullable.
    Optional,
    /// Zero or more: the node is a list element.
    Repeated,
}

/// The precomputed levels of a leaf's path.
#[derive(Debug, Clone)]
pub struct Path {
    nodes: Vec<Repetition>,
    /// Per segment: its optional nodes with their definition levels.
    optional: Vec<Vec<(usize, i16)>>,
    /// Per segment `k >= 1`: the node index and definition level of the repeated node opening it.
    repeated: Vec<(usize, i16)>,
    max_def: i16,
}

/// What [`Path::assemble`] builds: per node on the path, validity (optional nodes) and offsets
/// (repeated nodes, `i64`, one more than the slots of the segment above).
#[derive(Debug)]
pub struct Nested {
    /// Validity per node; `Some` exactly for optional nodes.
    pub validity: Vec<Option<MutableBitmap>>,
    /// Offsets per node; `Some` exactly for repeated nodes.
    pub offsets: Vec<Option<MutableBuffer>>,
    /// Slots per segment (segment 0 counts records).
    pub slots: Vec<usize>,
    /// Entries whose definition level is the maximum: the leaf values present.
    pub values: usize,
}

impl Path {
    /// The path of `nodes`, top down, the leaf last. At most 32,767 levels of either kind.
    pub fn new(nodes: &[Repetition]) -> Result<Path> {
        let mut optional = vec![Vec::new()];
        let mut repeated = vec![(usize::MAX, 0)];
        let mut def = 0i16;
        for (i, &node) in nodes.iter().enumerate() {
            if node != Repetition::Required {
                def = def
                    .checked_add(1)
                    .ok_or_else(|| Error::oos("schema nests more than 32767 levels"))?;
            }
            match node {
                Repetition::Required => {}
                Repetition::Optional => optional.last_mut().map_or((), |s| s.push((i, def))),
                Repetition::Repeated => {
                    optional.push(Vec::new());
                    repeated.push((i, def));
                }
            }
        }
        Ok(Path {
            nodes: nodes.to_vec(),
            optional,
            repeated,
            max_def: def,
        })
    }

    /// The nodes, top down.
    pub fn nodes(&self) -> &[Repetition] {
        &self.nodes
    }

    /// The maximum definition level.
    pub fn max_def(&self) -> i16 {
        self.max_def
    }

    /// The maximum repetition level.
    pub fn max_rep(&self) -> i16 {
        (self.repeated.len() - 1) as i16
    }

    /// Assembles whole records from their levels (`rep` empty when the path has no repeated
    /// node; otherwise as long as `def`, and starting a record, `rep[0] == 0`).
    pub fn assemble(&self, def: &[i16], rep: &[i16]) -> Result<Nested> {
        let segments = self.repeated.len();
        if segments > 1 && rep.len() != def.len() {
            return Err(Error::oos(format!(
                "{} definition levels but {} repetition levels",
                def.len(),
                rep.len()
            )));
        }
        if rep.first().is_some_and(|&r| r != 0) {
            return Err(Error::oos("levels do not start at a record boundary"));
        }
        let mut validity: Vec<Option<MutableBitmap>> = self
            .nodes
            .iter()
            .map(|&n| (n == Repetition::Optional).then(|| MutableBitmap::with_capacity(def.len())))
            .collect();
        let mut offsets: Vec<Option<MutableBuffer>> = self
            .nodes
            .iter()
            .map(|&n| {
                (n == Repetition::Repeated)
                    .then(|| MutableBuffer::with_capacity((def.len() + 1) * 8))
            })
            .collect();
        let mut slots = vec![0usize; segments];
        let mut values = 0;
        for (i, &d) in def.iter().enumerate() {
            let r = if segments > 1 { rep[i] } else { 0 };
            if d < 0 || d > self.max_def || r < 0 || r as usize >= segments {
                return Err(Error::oos(format!(
                    "level entry {i} (definition {d}, repetition {r}) is outside the maxima \
                     ({}, {})",
                    self.max_def,
                    segments - 1
                )));
            }
            if r > 0 && d < self.repeated[r as usize].1 {
                return Err(Error::oos(format!(
                    "level entry {i} repeats at level {r} but its definition level {d} leaves                      that list undefined"
                )));
            }
            values += usize::from(d == self.max_def);
            for k in r as usize..segments {
                if k > 0 && d < self.repeated[k].1 {
                    break;
                }
                slots[k] += 1;
                for &(node, level) in &self.optional[k] {
                    if let Some(v) = &mut validity[node] {
                        v.push(d >= level);
                    }
                }
                if let Some(&(node, _)) = self.repeated.get(k + 1)
                    && let Some(o) = &mut offsets[node]
                {
                    o.push(slots[k + 1] as i64);
                }
            }
        }
        for k in 1..segments {
            if let Some(o) = &mut offsets[self.repeated[k].0] {
                o.push(slots[k] as i64);
            }
        }
        Ok(Nested {
            validity,
            offsets,
            slots,
            values,
        })
    }
}

#[cfg(test)]
mod tests;
