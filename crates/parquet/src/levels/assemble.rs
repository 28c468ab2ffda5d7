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
        let mut validity: Vec<Option<MutableBitmap>> = self
            .nodes
            .iter()
            .map(|&n| (n == Repetition::Optional).then(|| MutableBitmap::with_capacity(def.len())))
            .collect();
        let mut offsets: Vec<Option<MutableBuffer>> = self.nodes.iter().map(|_| None).collect();
        let values = def.iter().filter(|&&d| d == self.max_def).count();
        if segments == 1 {
            // No repetition: a slot per entry, each optional node valid where the entry's
            // definition level reaches it, 64 entries per word.
            for &(node, level) in &self.optional[0] {
                if let Some(v) = &mut validity[node] {
                    for chunk in def.chunks(64) {
                        let mut word = 0u64;
                        for (j, &d) in chunk.iter().enumerate() {
                            word |= u64::from(d >= level) << j;
                        }
                        v.append_word(word, chunk.len());
                    }
                }
            }
            return Ok(Nested {
                validity,
                offsets,
                slots: vec![def.len()],
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
        if segments == 2 && bits[0].len() <= 2 && bits[1].len() <= 2 {
            // One list level with at most two optional nodes above and below it (the common
            // case): a loop specialised to those counts.
            let lists = OneList {
                def,
                rep,
                list_level: levels[1],
            };
            let (top, inner) = bits.split_at_mut(1);
            let counts = match (top[0].len(), inner[0].len()) {
                (0, 0) => lists.run::<0, 0>(&mut top[0], &mut inner[0], &mut offs[1]),
                (0, 1) => lists.run::<0, 1>(&mut top[0], &mut inner[0], &mut offs[1]),
                (0, 2) => lists.run::<0, 2>(&mut top[0], &mut inner[0], &mut offs[1]),
                (1, 0) => lists.run::<1, 0>(&mut top[0], &mut inner[0], &mut offs[1]),
                (1, 1) => lists.run::<1, 1>(&mut top[0], &mut inner[0], &mut offs[1]),
                (1, 2) => lists.run::<1, 2>(&mut top[0], &mut inner[0], &mut offs[1]),
                (2, 0) => lists.run::<2, 0>(&mut top[0], &mut inner[0], &mut offs[1]),
                (2, 1) => lists.run::<2, 1>(&mut top[0], &mut inner[0], &mut offs[1]),
                _ => lists.run::<2, 2>(&mut top[0], &mut inner[0], &mut offs[1]),
            }?;
            slots = vec![counts.0, counts.1];
        } else {
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
        }
        for (k, segment) in bits.into_iter().enumerate() {
            for ((node, _), (_, b)) in self.optional[k].iter().zip(segment) {
                if let Some(v) = &mut validity[*node] {
                    b.finish(v);
                }
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

/// The levels of a path with one repeated node, assembled by [`OneList::run`].
struct OneList<'l> {
    def: &'l [i16],
    rep: &'l [i16],
    list_level: i16,
}

impl OneList<'_> {
    /// Assembles with exactly `A` optional nodes above the repeated node (`top`) and `B` below
    /// it (`inner`), the repeated node's offsets into `offs`; returns the records and elements.
    #[inline(never)]
    fn run<const A: usize, const B: usize>(
        &self,
        top: &mut [(i16, Bits)],
        inner: &mut [(i16, Bits)],
        offs: &mut Vec<i64>,
    ) -> Result<(usize, usize)> {
        let mut t: [Bits; A] = std::array::from_fn(|j| std::mem::take(&mut top[j].1));
        let tl: [i16; A] = std::array::from_fn(|j| top[j].0);
        let mut b: [Bits; B] = std::array::from_fn(|j| std::mem::take(&mut inner[j].1));
        let bl: [i16; B] = std::array::from_fn(|j| inner[j].0);
        let (mut records, mut elements) = (0usize, 0usize);
        let list = self.list_level;
        // No branch on the levels (list lengths vary at random, and mispredicted branches
        // were most of this loop's time): every entry writes an offset slot and offers a bit
        // to every node, and whether it counts is added, not branched on.
        let start = offs.len();
        offs.resize(start + self.def.len() + 1, 0);
        let slots = &mut offs[start..];
        let mut undefined = false;
        // The nodes of one side take a bit from the same entries, so their words fill in step:
        // one count per side, the words in registers.
        let (mut tw, mut tn): ([u64; A], u32) = (std::array::from_fn(|j| t[j].word), 0);
        let (mut bw, mut bn): ([u64; B], u32) = (std::array::from_fn(|j| b[j].word), 0);
        if let Some(x) = t.first() {
            tn = x.n;
        }
        if let Some(x) = b.first() {
            bn = x.n;
        }
        debug_assert!(t.iter().all(|x| x.n == tn) && b.iter().all(|x| x.n == bn));
        for (&d, &r) in self.def.iter().zip(self.rep) {
            let record = r == 0;
            let element = d >= list;
            undefined |= !record & !element;
            // `records` counts the entries before this one at most: inside `slots`.
            slots[records] = elements as i64;
            records += usize::from(record);
            elements += usize::from(element);
            for j in 0..A {
                tw[j] |= u64::from(record & (d >= tl[j])) << tn;
            }
            tn += u32::from(record);
            if tn == 64 {
                for j in 0..A {
                    t[j].words.push(std::mem::take(&mut tw[j]));
                }
                tn = 0;
            }
            for j in 0..B {
                bw[j] |= u64::from(element & (d >= bl[j])) << bn;
            }
            bn += u32::from(element);
            if bn == 64 {
                for j in 0..B {
                    b[j].words.push(std::mem::take(&mut bw[j]));
                }
                bn = 0;
            }
        }
        for (x, w) in t.iter_mut().zip(tw) {
            (x.word, x.n) = (w, tn);
        }
        for (x, w) in b.iter_mut().zip(bw) {
            (x.word, x.n) = (w, bn);
        }
        offs.truncate(start + records);
        if undefined {
            let (i, (&d, &r)) = self
                .def
                .iter()
                .zip(self.rep)
                .enumerate()
                .find(|&(_, (&d, &r))| r != 0 && d < list)
                .unwrap_or((0, (&0, &0))); // ok: `undefined` says there is one
            return Err(undefined_list(i, d, r));
        }
        for (j, bits) in t.into_iter().enumerate() {
            top[j].1 = bits;
        }
        for (j, bits) in b.into_iter().enumerate() {
            inner[j].1 = bits;
        }
        Ok((records, elements))
    }
}

/// Bits gathered a 64-bit word at a time.
#[derive(Default)]
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
