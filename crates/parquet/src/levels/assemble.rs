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

use crate::levels::mask::{BLOCK, ge_mask, padded, split_blocks};
use one_list::OneList;
use quiver_arrow::buffer::{MutableBitmap, MutableBuffer};
use quiver_arrow::{Error, Result};

mod one_list;

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

    /// Checks every level entry against the maxima (an entry repeating at level `r` must also
    /// define the list it repeats: checked while assembling).
    fn check(&self, def: &[i16], rep: &[i16]) -> Result<()> {
        let segments = self.repeated.len() as i16;
        let (lo, hi) = def
            .iter()
            .fold((0i16, 0i16), |(lo, hi), &d| (lo.min(d), hi.max(d)));
        let rep_max = rep.iter().fold(0i16, |m, &r| m.max(r));
        let rep_min = rep.iter().fold(0i16, |m, &r| m.min(r));
        let bad = lo < 0 || hi > self.max_def || rep_min < 0 || rep_max >= segments;
        if !bad {
            return Ok(());
        }
        for (i, &d) in def.iter().enumerate() {
            let r = rep.get(i).copied().unwrap_or(0);
            if d < 0 || d > self.max_def || r < 0 || r >= segments {
                return Err(Error::oos(format!(
                    "level entry {i} (definition {d}, repetition {r}) is outside the maxima \
                     ({}, {})",
                    self.max_def,
                    segments - 1
                )));
            }
        }
        Ok(())
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
        self.check(def, rep)?;
        // Filled in below for exactly the optional nodes.
        let mut validity: Vec<Option<MutableBitmap>> = self.nodes.iter().map(|_| None).collect();
        let mut offsets: Vec<Option<MutableBuffer>> = self.nodes.iter().map(|_| None).collect();
        let values = def.iter().filter(|&&d| d == self.max_def).count();
        if segments == 1 {
            // No repetition: a slot per entry, each optional node valid where the entry's
            // definition level reaches it, 64 entries per word.
            for &(node, level) in &self.optional[0] {
                let mut v = MutableBitmap::with_capacity(def.len());
                let (blocks, tail) = split_blocks(def);
                for block in blocks {
                    v.append_word(ge_mask(block, level), BLOCK);
                }
                v.append_word(ge_mask(&padded(tail), level), tail.len());
                validity[node] = Some(v);
            }
            return Ok(Nested {
                validity,
                offsets,
                slots: vec![def.len()],
                values,
            });
        }
        if segments == 2 && self.optional[0].len() <= 2 && self.optional[1].len() <= 2 {
            // One list level with at most two optional nodes above and below it (the common
            // case): assembled a block of entries at a time.
            let lists = OneList {
                def,
                rep,
                list_level: self.repeated[1].1,
            };
            let (top, inner) = (&self.optional[0], &self.optional[1]);
            let levels = |o: &[(usize, i16)], j: usize| o.get(j).map_or(0, |x| x.1);
            let (t0, t1) = (levels(top, 0), levels(top, 1));
            let (b0, b1) = (levels(inner, 0), levels(inner, 1));
            macro_rules! one_list {
                ($t:expr, $b:expr) => {{
                    let done = lists.run($t, $b)?;
                    for (bits, &(node, _)) in done.top.into_iter().zip(top) {
                        validity[node] = Some(bits);
                    }
                    for (bits, &(node, _)) in done.inner.into_iter().zip(inner) {
                        validity[node] = Some(bits);
                    }
                    offsets[self.repeated[1].0] = Some(done.offsets);
                    vec![done.records, done.elements]
                }};
            }
            let slots = match (top.len(), inner.len()) {
                (0, 0) => one_list!([], []),
                (0, 1) => one_list!([], [b0]),
                (0, 2) => one_list!([], [b0, b1]),
                (1, 0) => one_list!([t0], []),
                (1, 1) => one_list!([t0], [b0]),
                (1, 2) => one_list!([t0], [b0, b1]),
                (2, 0) => one_list!([t0, t1], []),
                (2, 1) => one_list!([t0, t1], [b0]),
                _ => one_list!([t0, t1], [b0, b1]),
            };
            return Ok(Nested {
                validity,
                offsets,
                slots,
                values,
            });
        }
        // Per segment: its optional nodes' bits, gathered a word at a time.
        let mut bits: Vec<Vec<(i16, Bits)>> = self
            .optional
            .iter()
            .map(|o| o.iter().map(|&(_, l)| (l, Bits::new(def.len()))).collect())
            .collect();
        // Per segment `k >= 1`: the offsets of its repeated node.
        let mut offs: Vec<Vec<i64>> = (0..segments)
            .map(|k| Vec::with_capacity(if k == 0 { 0 } else { def.len() + 1 }))
            .collect();
        let mut slots = vec![0usize; segments];
        let levels: Vec<i16> = self.repeated.iter().map(|&(_, l)| l).collect();
        // Any other path: entry by entry.
        for (i, (&d, &r)) in def.iter().zip(rep).enumerate() {
            for k in r as usize..segments {
                if k > 0 && d < levels[k] {
                    if k == r as usize {
                        return Err(undefined_list(i, d, r));
                    }
                    break;
                }
                slots[k] += 1;
                for (level, b) in &mut bits[k] {
                    b.push(d >= *level);
                }
                if k + 1 < segments {
                    offs[k + 1].push(slots[k + 1] as i64);
                }
            }
        }
        for (k, segment) in bits.into_iter().enumerate() {
            for ((node, _), (_, b)) in self.optional[k].iter().zip(segment) {
                let mut v = MutableBitmap::with_capacity(slots[k]);
                b.finish(&mut v);
                validity[*node] = Some(v);
            }
        }
        for k in 1..segments {
            offs[k].push(slots[k] as i64);
            let mut o = MutableBuffer::with_capacity(offs[k].len() * 8);
            o.extend_from_slice(&offs[k]);
            offsets[self.repeated[k].0] = Some(o);
        }
        Ok(Nested {
            validity,
            offsets,
            slots,
            values,
        })
    }
}

/// The error for level entry `i` repeating at level `r` with a definition level `d` that
/// leaves the list undefined.
fn undefined_list(i: usize, d: i16, r: i16) -> Error {
    Error::oos(format!(
        "level entry {i} repeats at level {r} but its definition level {d} leaves that list \
         undefined"
    ))
}

/// Bits gathered a 64-bit word at a time.
struct Bits {
    words: Vec<u64>,
    word: u64,
    n: u32,
}

impl Bits {
    fn new(capacity: usize) -> Bits {
        Bits {
            words: Vec::with_capacity(capacity / 64 + 1),
            word: 0,
            n: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, bit: bool) {
        self.word |= u64::from(bit) << self.n;
        self.n += 1;
        if self.n == 64 {
            self.words.push(self.word);
            self.word = 0;
            self.n = 0;
        }
    }

    fn finish(self, out: &mut MutableBitmap) {
        for &w in &self.words {
            out.append_word(w, 64);
        }
        out.append_word(self.word, self.n as usize);
    }
}

#[cfg(test)]
mod tests;
