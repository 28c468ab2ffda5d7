//! The level walk of one leaf's path: list entries one at a time (a list of leaves: each run of
//! valid non-empty entries at once), runs of valid struct slots at once, and the flat tail (the
//! structs and the leaf below the last list) 64 slots at a time.

use super::{Kind, Node, Offsets, Runs, non_nullable};
use quiver_arrow::Result;
use quiver_arrow::buffer::Bitmap;
use std::ops::Range;

/// The levels and leaf ranges of one path, built by [`Walker::run`].
pub(super) struct Walker<'p> {
    nodes: &'p [Node],
    /// Per node: the repetition level of its segment (the number of lists above it).
    seg: Vec<i16>,
    /// The first node of the flat tail (below the last list).
    tail: usize,
    def: Vec<i16>,
    rep: Vec<i16>,
    track_rep: bool,
    ranges: Vec<Range<usize>>,
}

/// The levels of a path: definition levels, repetition levels, the leaf's ranges.
type Levels = (Vec<i16>, Vec<i16>, Vec<Range<usize>>);

impl<'p> Walker<'p> {
    /// Shreds the path `nodes` (top down, the leaf last) over all of the top node's slots;
    /// repetition levels only when `track_rep`, and then `known` when given (the levels of
    /// another leaf below the same last list, which are this one's).
    pub(super) fn run(
        nodes: &'p [Node],
        track_rep: bool,
        known: Option<&Vec<i16>>,
    ) -> Result<Levels> {
        let walk_rep = track_rep && known.is_none();
        let mut seg = Vec::with_capacity(nodes.len());
        let mut lists = 0i16;
        for n in nodes {
            seg.push(lists);
            lists += i16::from(matches!(n.kind, Kind::List(_)));
        }
        let tail = tail_start(nodes);
        let entries = estimate(nodes);
        let mut w = Walker {
            nodes,
            seg,
            tail,
            def: Vec::with_capacity(entries),
            rep: Vec::with_capacity(if walk_rep { entries } else { 0 }),
            track_rep: walk_rep,
            ranges: Vec::new(),
        };
        w.walk(0, 0, nodes[0].len, 0, 0)?;
        let rep = match known {
            Some(rep) if track_rep => rep.clone(),
            _ => w.rep,
        };
        Ok((w.def, rep, w.ranges))
    }

    /// Slots `[s, e)` of node `d`, present down to the node's parent (`def`), the first entry
    /// repeating at level `r`.
    fn walk(&mut self, d: usize, s: usize, e: usize, def: i16, r: i16) -> Result<()> {
        if d >= self.tail {
            return self.flat(d, s, e, def, r);
        }
        let nodes = self.nodes;
        let node = &nodes[d];
        let k = self.seg[d];
        let inner = def + i16::from(node.nullable);
        match &node.kind {
            Kind::Struct => {
                let Some(v) = &node.validity else {
                    return self.walk(d + 1, s, e, inner, r);
                };
                let (mut i, mut r) = (s, r);
                while i < e {
                    let valid = v.get(i);
                    let j = run_end(v, i, e, valid);
                    if valid {
                        self.walk(d + 1, i, j, inner, r)?;
                    } else if node.nullable {
                        self.push(def, r, k, j - i);
                    } else {
                        return Err(non_nullable(&node.name));
                    }
                    (i, r) = (j, k);
                }
            }
            Kind::List(offsets) => self.list(d, offsets, s..e, def, r)?,
            Kind::Leaf(_) => unreachable!("the leaf is in the flat tail"),
        }
        Ok(())
    }

    /// Entries `slots` of the list node `d`.
    fn list(
        &mut self,
        d: usize,
        offsets: &Offsets,
        slots: Range<usize>,
        def: i16,
        r: i16,
    ) -> Result<()> {
        let node = &self.nodes[d];
        let k = self.seg[d];
        let inner = def + i16::from(node.nullable);
        let first = slots.start;
        let contiguous = matches!(offsets, Offsets::Small(_) | Offsets::Large(_));
        if contiguous && d + 1 == self.tail {
            return self.list_of_flat(d, offsets, slots, def, r);
        }
        for i in slots {
            let ri = if i == first { r } else { k };
            if node.validity.as_ref().is_some_and(|v| !v.get(i)) {
                if !node.nullable {
                    return Err(non_nullable(&node.name));
                }
                self.push(def, ri, k, 1);
                continue;
            }
            let (a, b) = offsets.range(i);
            if a == b {
                self.push(inner, ri, k, 1);
            } else {
                self.walk(d + 1, a, b, inner + 1, ri)?;
            }
        }
        Ok(())
    }

    /// Entries `slots` of the list node `d` whose element starts the flat tail (the leaf, or
    /// structs above it) and whose entries' child ranges follow each other (List, LargeList,
    /// Map): each run of valid non-empty entries reaches one range of the element's slots,
    /// shredded at once (the repetition levels of the entries' starts set afterwards).
    fn list_of_flat(
        &mut self,
        d: usize,
        offsets: &Offsets,
        slots: Range<usize>,
        def: i16,
        r: i16,
    ) -> Result<()> {
        let node = &self.nodes[d];
        let k = self.seg[d];
        let inner = def + i16::from(node.nullable);
        let valid = |i: usize| node.validity.as_ref().is_none_or(|v| v.get(i));
        let (mut i, mut ri) = (slots.start, r);
        while i < slots.end {
            let (a, b) = offsets.range(i);
            if !valid(i) {
                if !node.nullable {
                    return Err(non_nullable(&node.name));
                }
                self.push(def, ri, k, 1);
            } else if a == b {
                self.push(inner, ri, k, 1);
            } else {
                let mut j = i + 1;
                let mut end = b;
                while j < slots.end && valid(j) {
                    let (a, b) = offsets.range(j);
                    if a == b {
                        break;
                    }
                    (j, end) = (j + 1, b);
                }
                if self.track_rep {
                    let base = self.rep.len();
                    self.rep.resize(base + (end - a), k + 1);
                    self.rep[base] = ri;
                    for x in i + 1..j {
                        self.rep[base + offsets.range(x).0 - a] = k;
                    }
                }
                self.flat_levels(d + 1, a, end, inner + 1)?;
                (i, ri) = (j, k);
                continue;
            }
            (i, ri) = (i + 1, k);
        }
        Ok(())
    }

    /// `n` entries of definition level `def`, the first repeating at `r`, the others at `k`.
    #[inline]
    fn push(&mut self, def: i16, r: i16, k: i16, n: usize) {
        self.def.resize(self.def.len() + n, def);
        if self.track_rep {
            self.rep.push(r);
            self.rep.resize(self.rep.len() + n - 1, k);
        }
    }

    /// Slots `[s, e)` of node `d` in the flat tail: structs and the leaf, 64 slots at a time.
    fn flat(&mut self, d: usize, s: usize, e: usize, def: i16, r: i16) -> Result<()> {
        if s == e {
            return Ok(());
        }
        if self.track_rep {
            self.rep.push(r);
            self.rep.resize(self.rep.len() + (e - s) - 1, self.seg[d]);
        }
        self.flat_levels(d, s, e, def)
    }

    /// The definition levels and leaf ranges of slots `[s, e)` (not empty) of node `d` in the
    /// flat tail; the caller has pushed their repetition levels.
    fn flat_levels(&mut self, d: usize, s: usize, e: usize, def: i16) -> Result<()> {
        let nodes = self.nodes;
        let tail = &nodes[d..];
        let leaf = tail.last().expect("a path ends in its leaf"); // ok: `d` is a node of the path
        if let [leaf] = tail {
            return self.leaf(leaf, s, e, def);
        }
        if tail.iter().all(|n| n.validity.is_none()) {
            let full = def + tail.iter().filter(|n| n.nullable).count() as i16;
            self.def.resize(self.def.len() + (e - s), full);
            self.take(leaf, s, e);
            return Ok(());
        }
        let mut p = s;
        while p < e {
            let m = (e - p).min(64);
            let mut levels = [def; 64];
            let mut acc = mask(m);
            let mut reach = 0;
            for (i, node) in tail.iter().enumerate() {
                if i + 1 == tail.len() {
                    reach = acc;
                }
                let w = node.validity.as_ref().map_or(mask(m), |v| word(v, p, m));
                if !node.nullable {
                    if acc & !w != 0 {
                        return Err(non_nullable(&node.name));
                    }
                    continue;
                }
                acc &= w;
                for (j, l) in levels[..m].iter_mut().enumerate() {
                    *l += ((acc >> j) & 1) as i16;
                }
            }
            self.def.extend_from_slice(&levels[..m]);
            while reach != 0 {
                let a = reach.trailing_zeros() as usize;
                let n = (!(reach >> a)).trailing_zeros() as usize;
                self.take(leaf, p + a, p + a + n);
                reach &= !(mask(n) << a);
            }
            p += m;
        }
        Ok(())
    }

    /// Slots `[s, e)` of the leaf, all reached (definition levels only).
    fn leaf(&mut self, leaf: &Node, s: usize, e: usize, def: i16) -> Result<()> {
        match &leaf.validity {
            Some(v) if leaf.nullable => {
                let mut p = s;
                while p < e {
                    let m = (e - p).min(64);
                    let w = word(v, p, m);
                    self.def.extend((0..m).map(|j| def + ((w >> j) & 1) as i16));
                    p += m;
                }
            }
            Some(v) if run_end(v, s, e, true) < e => return Err(non_nullable(&leaf.name)),
            _ => {
                let full = def + i16::from(leaf.nullable);
                self.def.resize(self.def.len() + (e - s), full);
            }
        }
        self.take(leaf, s, e);
        Ok(())
    }

    /// The leaf positions `[a, b)` are reached, in this order.
    fn take(&mut self, leaf: &Node, a: usize, b: usize) {
        match &leaf.kind {
            Kind::Leaf(Some(runs)) => self.take_runs(runs, a, b),
            _ => self.take_range(a, b),
        }
    }

    #[inline]
    fn take_range(&mut self, a: usize, b: usize) {
        match self.ranges.last_mut() {
            Some(last) if last.end == a => last.end = b,
            _ => self.ranges.push(a..b),
        }
    }

    /// Logical positions `[a, b)` of a run-end encoded leaf: each takes its run's value.
    fn take_runs(&mut self, runs: &Runs, a: usize, b: usize) {
        let mut j = runs.ends.partition_point(|&end| end <= a);
        let mut pos = a;
        while pos < b {
            let end = runs.ends[j].min(b);
            let v = runs.first + j;
            for _ in pos..end {
                self.take_range(v, v + 1);
            }
            (pos, j) = (end, j + 1);
        }
    }
}

/// The first node of the path's flat tail: the one after its last list (0 without lists).
/// The repetition levels depend on the nodes before it only.
pub(super) fn tail_start(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .rposition(|n| matches!(n.kind, Kind::List(_)))
        .map_or(0, |i| i + 1)
}

/// At most how many level entries the path gives: the slots of each segment, following the
/// reached child range down (exact for lists and fixed-size lists; list views reach their
/// sizes' sum somewhere in their child).
fn estimate(nodes: &[Node]) -> usize {
    let (mut lo, mut hi) = (0, nodes[0].len);
    let mut total = hi;
    for (i, n) in nodes.iter().enumerate() {
        let Kind::List(o) = &n.kind else { continue };
        let child = nodes.get(i + 1).map_or(0, |c| c.len);
        let reached = match o {
            _ if hi <= lo => 0..0,
            Offsets::Small(o) => o.range(lo).start..o.range(hi - 1).end,
            Offsets::Large(o) => o.range(lo).start..o.range(hi - 1).end,
            Offsets::Fixed(size) => lo * size..hi * size,
            Offsets::View(_, s) => {
                total += s.as_slice()[lo..hi]
                    .iter()
                    .map(|&s| s as usize)
                    .sum::<usize>();
                0..child
            }
            Offsets::LargeView(_, s) => {
                total += s.as_slice()[lo..hi]
                    .iter()
                    .map(|&s| s as usize)
                    .sum::<usize>();
                0..child
            }
        };
        if matches!(o, Offsets::Small(_) | Offsets::Large(_) | Offsets::Fixed(_)) {
            total += reached.len();
        }
        (lo, hi) = (reached.start, reached.end);
    }
    total
}

/// The low `m` bits set (`m <= 64`).
#[inline]
fn mask(m: usize) -> u64 {
    if m >= 64 { u64::MAX } else { (1u64 << m) - 1 }
}

/// Bits `[pos, pos + m)` of `b` (`m <= 64`), bit `pos` in bit 0.
#[inline]
fn word(b: &Bitmap, pos: usize, m: usize) -> u64 {
    let bit = b.offset() + pos;
    let bytes = b.bytes();
    let (start, shift) = (bit / 8, bit % 8);
    let w = match bytes.get(start..start + 8) {
        Some(eight) => {
            let lo = u64::from_le_bytes(eight.try_into().expect("8 bytes")); // ok: `eight` is an 8-byte range of the bytes.
            match bytes.get(start + 8) {
                Some(&hi) if shift > 0 => (lo >> shift) | (u64::from(hi) << (64 - shift)),
                _ => lo >> shift,
            }
        }
        // The last bytes: fewer than 8 left.
        None => {
            let tail = bytes.get(start..).unwrap_or_default();
            let lo = tail
                .iter()
                .enumerate()
                .fold(0u64, |w, (i, &x)| w | u64::from(x) << (8 * i));
            lo >> shift
        }
    };
    w & mask(m)
}

/// The end of the run of bits equal to `bit` starting at `i` (at most `e`).
fn run_end(b: &Bitmap, i: usize, e: usize, bit: bool) -> usize {
    let mut p = i;
    while p < e {
        let m = (e - p).min(64);
        let w = word(b, p, m);
        let same = if bit { w } else { !w & mask(m) };
        let n = (!same).trailing_zeros() as usize;
        if n < m {
            return p + n;
        }
        p += m;
    }
    e
}
