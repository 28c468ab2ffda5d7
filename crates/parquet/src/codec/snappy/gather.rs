//! Snappy streams of dictionary values in data-page order, made from the dictionary page's
//! stream instead of by compressing again.
//!
//! A writer that builds its dictionary in order of first appearance (pyarrow, Arrow C++,
//! arrow-rs, DuckDB…) and stores a column chunk in one data page writes indices of a known
//! shape: read in order, each is either the next entry not seen yet (0, 1, 2, … in turn) or
//! one seen before (a repeat). The page's PLAIN values are then the dictionary's bytes in order
//! with the repeated values inserted between entries, and the dictionary page's compressed
//! stream already says how to make the dictionary's bytes. [`gather`] walks that stream's
//! elements and writes them again with the repeats inserted: a literal is split where a repeat
//! goes in; a copy keeps its meaning with its offset widened by the bytes inserted since its
//! source, cut in pieces where inserted bytes would break it (a piece is a literal only where
//! its offset would no longer fit in 16 bits); each repeat is a copy of the value's last
//! occurrence (a literal when that is more than 64 KiB back). Elements that need no change —
//! literals, and copies from after the last repeat inserted — are taken as bytes, a run at a
//! time. Only the element kinds the Snappy library's compressor writes are used (literals,
//! and copies with 1- and 2-byte offsets).
//!
//! The time is per element of the dictionary's stream and per repeat, not per byte
//! compressed: a merge that turns small files' dictionary pages into PLAIN pages (their merged
//! dictionary too large) does not compress them again.

/// The value ranges of a dictionary's PLAIN bytes, one per entry, back to back from 0.
pub type Entries<'e> = &'e [(usize, usize)];

/// Values repeating earlier ones at most once in this many: [`gather`]'s stream is then within
/// a few percent of compressing the values again (each repeat costs a copy, and a split of
/// the element it lands in; compressing again also finds matches across values), and a merge
/// makes the page with it. With more repeats, compressing again makes the smaller page.
pub const GATHER_REPEATS: usize = 32;

/// Largest offset of the copies written (a 2-byte offset).
const MAX_OFFSET: usize = u16::MAX as usize;

/// One element of a Snappy stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Element {
    /// So many bytes, given literally.
    Literal(usize),
    /// `len` bytes copied from `offset` bytes back.
    Copy { offset: usize, len: usize },
}

/// The elements of the Snappy stream `elements` (no preamble) with the bytes each takes in
/// the stream, or `None` at the first that is cut short or malformed.
fn next_element(elements: &[u8], at: &mut usize) -> Option<Element> {
    let tag = *elements.get(*at)?;
    let rest = elements.get(*at + 1..)?;
    let le = |n: usize| -> Option<usize> {
        let b = rest.get(..n)?;
        Some(
            b.iter()
                .rev()
                .fold(0usize, |v, &x| (v << 8) | usize::from(x)),
        )
    };
    let word = rest
        .iter()
        .take(4)
        .rev()
        .fold(0usize, |v, &x| (v << 8) | usize::from(x));
    let (len, offset, step, slow) = shape(tag, word);
    let (element, used) = match (slow, tag & 3) {
        (false, 0) => (Element::Literal(len), step),
        (false, _) => (Element::Copy { offset, len }, step),
        (true, 0) => {
            let n = usize::from(tag >> 2) - 59;
            let len = le(n)? + 1;
            (Element::Literal(len), 1 + n + len)
        }
        (true, _) => (
            Element::Copy {
                offset: le(4)?,
                len: usize::from(tag >> 2) + 1,
            },
            5,
        ),
    };
    if elements.len() - *at < used {
        return None;
    }
    *at += used;
    Some(element)
}

/// The elements being written: a literal of dictionary bytes that follow the pending one
/// joins it, and a copy from the same offset as the pending one too (a run of one repeated
/// value is one copy).
struct Writer<'d, 'o> {
    dict: &'d [u8],
    out: &'o mut Vec<u8>,
    /// A pending literal: a range of the dictionary.
    literal: (usize, usize),
    /// A pending copy: offset and length (0: none).
    copy: (usize, usize),
}

impl Writer<'_, '_> {
    /// A literal of the dictionary's bytes `[s, e)`.
    #[inline]
    fn literal(&mut self, s: usize, e: usize) {
        if s == e {
            return;
        }
        self.flush_copy();
        if self.literal.1 == s && self.literal.0 < s {
            self.literal.1 = e;
        } else {
            self.flush_literal();
            self.literal = (s, e);
        }
    }

    #[inline]
    fn copy(&mut self, offset: usize, len: usize) {
        debug_assert!((1..=MAX_OFFSET).contains(&offset));
        if len == 0 {
            return;
        }
        self.flush_literal();
        if self.copy.0 == offset {
            self.copy.1 += len;
        } else {
            self.flush_copy();
            self.copy = (offset, len);
        }
    }

    #[inline]
    fn flush_literal(&mut self) {
        let (s, e) = std::mem::take(&mut self.literal);
        if s < e {
            super::push_literal(&self.dict[s..e], self.out);
        }
    }

    /// The pending copy as elements of at most 64 bytes, as the library's compressor splits a
    /// long one: 64 at a time while 68 or more are left, then 60 if more than 64 are, then
    /// the rest (a 1-byte-offset copy when it fits).
    #[inline]
    fn flush_copy(&mut self) {
        let (offset, mut len) = std::mem::take(&mut self.copy);
        if len == 0 {
            return;
        }
        let copy2 = |out: &mut Vec<u8>, len: usize| {
            let [lo, hi] = (offset as u16).to_le_bytes();
            out.extend_from_slice(&[(((len - 1) as u8) << 2) | 2, lo, hi]);
        };
        while len >= 68 {
            copy2(self.out, 64);
            len -= 64;
        }
        if len > 64 {
            copy2(self.out, 60);
            len -= 60;
        }
        if (4..12).contains(&len) && offset < 2048 {
            let tag = (((offset >> 8) as u8) << 5) | (((len - 4) as u8) << 2) | 1;
            self.out.extend_from_slice(&[tag, offset as u8]);
        } else {
            copy2(self.out, len);
        }
    }

    /// Writes the pending element.
    #[inline]
    fn flush(&mut self) {
        self.flush_literal();
        self.flush_copy();
    }
}

/// Where the repeats go in: for each dictionary position that gets some, the bytes inserted
/// at that position and before it in all, in order; and for each 64-byte block of the
/// dictionary the first such position at or after its start, so that a lookup is a step or
/// two whatever the position (copies look up their sources all along the stream).
struct Inserted {
    points: Vec<(usize, usize)>,
    blocks: Vec<u32>,
}

/// Bits of the dictionary positions that [`Inserted`]'s blocks cover.
const BLOCK_BITS: u32 = 6;

impl Inserted {
    /// The points of `repeats` ((position, entry) in order), each entry's bytes `len(entry)`,
    /// over a dictionary of `dict_len` bytes.
    fn new(repeats: &[(usize, usize)], len: impl Fn(usize) -> usize, dict_len: usize) -> Self {
        let mut points: Vec<(usize, usize)> = Vec::new();
        let mut sum = 0;
        for &(x, v) in repeats {
            sum += len(v);
            match points.last_mut() {
                Some(last) if last.0 == x => last.1 = sum,
                _ => points.push((x, sum)),
            }
        }
        let mut blocks = Vec::new();
        if !points.is_empty() {
            let mut i = 0;
            for b in 0..=(dict_len >> BLOCK_BITS) {
                while i < points.len() && points[i].0 < b << BLOCK_BITS {
                    i += 1;
                }
                blocks.push(i as u32);
            }
        }
        Inserted { points, blocks }
    }

    /// The first position after `q` where bytes go in (`usize::MAX`: none), and the bytes
    /// inserted before dictionary byte `q` (at positions up to `q`).
    #[inline]
    fn around(&self, q: usize) -> (usize, usize) {
        let Some(&b) = self.blocks.get(q >> BLOCK_BITS) else {
            return (usize::MAX, self.points.last().map_or(0, |p| p.1));
        };
        let mut i = b as usize;
        while i < self.points.len() && self.points[i].0 <= q {
            i += 1;
        }
        let after = self.points.get(i).map_or(usize::MAX, |x| x.0);
        let before = if i == 0 { 0 } else { self.points[i - 1].1 };
        (after, before)
    }
}

/// Appends to `out` the elements (no preamble) of a Snappy stream whose bytes are the values
/// `indices` picks from the dictionary `dict`, made from `elements`, the elements of a stream
/// whose bytes are `dict` (a dictionary page's stream after its preamble). `entries` are the
/// byte ranges of `dict`'s values, back to back from 0 to its end.
///
/// Returns the stream's length in bytes (the sum of the picked values' lengths), or `None`
/// (and `out` as it was) when `indices` are not in order of first appearance over every
/// entry, when `entries` do not cover `dict`, or when `elements` do not make `dict`'s length.
/// That `elements` make `dict`'s very bytes is the caller's to know (it decompressed them).
pub fn gather(
    elements: &[u8],
    dict: &[u8],
    entries: Entries<'_>,
    indices: &[u32],
    out: &mut Vec<u8>,
) -> Option<usize> {
    let n = entries.len();
    let contiguous = entries.first().is_none_or(|e| e.0 == 0)
        && entries.windows(2).all(|w| w[0].1 == w[1].0)
        && entries.iter().all(|e| e.0 <= e.1)
        && entries.last().map_or(0, |e| e.1) == dict.len();
    if !contiguous {
        return None;
    }
    // The repeats, each with the dictionary position before which it goes.
    let mut repeats: Vec<(usize, usize)> = Vec::new();
    let mut seen = 0usize;
    let mut total = 0usize;
    for &i in indices {
        let i = i as usize;
        if i == seen && seen < n {
            seen += 1;
        } else if i < seen {
            let at = if seen == n {
                dict.len()
            } else {
                entries[seen].0
            };
            repeats.push((at, i));
        } else {
            return None;
        }
        total += entries[i].1 - entries[i].0;
    }
    if seen != n {
        return None;
    }
    let start = out.len();
    out.reserve(elements.len() + 3 * repeats.len() + 16);
    let inserted = Inserted::new(&repeats, |v| entries[v].1 - entries[v].0, dict.len());
    let mut g = Gather {
        dict,
        entries,
        last: vec![usize::MAX; if repeats.is_empty() { 0 } else { n }],
        repeats,
        next: 0,
        inserted,
        sum: 0,
        p: 0,
        o: 0,
        w: Writer {
            dict,
            out,
            literal: (0, 0),
            copy: (0, 0),
        },
    };
    let made = g.run(elements);
    g.w.flush();
    match made {
        Some(()) => {
            debug_assert_eq!(g.o, total);
            Some(total)
        }
        None => {
            out.truncate(start);
            None
        }
    }
}

/// The state of one [`gather`].
struct Gather<'d, 'o> {
    dict: &'d [u8],
    entries: Entries<'d>,
    /// (dictionary position, entry): the repeats in order.
    repeats: Vec<(usize, usize)>,
    /// The next repeat to insert.
    next: usize,
    /// Per entry, the output position of its last inserted copy (`usize::MAX`: none yet,
    /// the entry is only where the dictionary's bytes put it). Empty without repeats.
    last: Vec<usize>,
    inserted: Inserted,
    /// Bytes inserted so far.
    sum: usize,
    /// Dictionary bytes written so far.
    p: usize,
    /// Output bytes written so far.
    o: usize,
    w: Writer<'d, 'o>,
}

impl Gather<'_, '_> {
    /// The dictionary position of the last repeats inserted (0: none yet).
    fn since(&self) -> usize {
        self.next.checked_sub(1).map_or(0, |k| self.repeats[k].0)
    }

    /// Where the next repeat goes in (`usize::MAX`: none left).
    fn pending(&self) -> usize {
        self.repeats.get(self.next).map_or(usize::MAX, |r| r.0)
    }

    /// Inserts the repeats that go in at the current dictionary position.
    fn insert_here(&mut self) {
        while let Some(&(x, v)) = self.repeats.get(self.next) {
            if x != self.p {
                break;
            }
            let (s, end) = self.entries[v];
            let len = end - s;
            let src = match self.last[v] {
                usize::MAX => s + self.inserted.around(s).1,
                at => at,
            };
            let offset = self.o - src;
            if len > 0 && offset <= MAX_OFFSET {
                self.w.copy(offset, len);
            } else {
                self.w.literal(s, end);
            }
            self.last[v] = self.o;
            self.o += len;
            self.sum += len;
            self.next += 1;
        }
    }

    /// Writes the dictionary's bytes up to `end` as literals, inserting the repeats that go
    /// in on the way.
    fn literal_to(&mut self, end: usize) {
        loop {
            let x = self.pending().min(end);
            self.w.literal(self.p, x);
            self.o += x - self.p;
            self.p = x;
            if x == end {
                return;
            }
            self.insert_here();
        }
    }

    /// Writes the dictionary's bytes up to `end`, which a copy from `offset` bytes back makes
    /// there, as copies, inserting the repeats that go in on the way. The copy is cut where a
    /// repeat goes in, and where its source would span bytes inserted before: each piece
    /// then copies bytes that lie together in the output, from as far back in the output as
    /// the dictionary's bytes it copies lie there (an overlapping copy, a run, is cut to
    /// pieces no longer than its offset when bytes went in within its reach). A piece whose
    /// source is more than 64 KiB back is a literal. `None` for an offset reaching before the
    /// start.
    fn copy_to(&mut self, offset: usize, end: usize) -> Option<()> {
        self.p.checked_sub(offset).filter(|_| offset > 0)?;
        while self.p < end {
            let a = self.p;
            let q = a - offset;
            let mut b = end.min(self.pending());
            let (y, before) = self.inserted.around(q);
            if y < b - offset {
                b = y + offset;
            }
            let from = self.o - (q + before);
            if from <= MAX_OFFSET {
                self.w.copy(from, b - a);
            } else {
                self.w.literal(a, b);
            }
            self.o += b - a;
            self.p = b;
            if b < end {
                self.insert_here();
            }
        }
        Some(())
    }

    /// Writes every element of `elements` again, the repeats inserted; `None` when they are
    /// malformed or do not make the dictionary's length.
    ///
    /// Elements that need no change — literals, and copies whose source lies after the last
    /// repeat inserted, neither reaching the next one — are taken as they are, a run of them
    /// at a time; the others one by one.
    fn run(&mut self, elements: &[u8]) -> Option<()> {
        let mut at = 0;
        while at < elements.len() {
            let limit = self.pending().min(self.dict.len());
            let since = self.since();
            let mut p = self.p;
            self.w.flush();
            // Bytes from `start` on are taken as they are.
            let mut start = at;
            // The next tag's position hangs on this one's alone (a literal's length is in
            // its tag): the loop's chain is a load and an add per element.
            while at + 5 <= elements.len() {
                let tag = elements[at];
                let w = &elements[at + 1..at + 5];
                let word = u32::from_le_bytes([w[0], w[1], w[2], w[3]]) as usize;
                let (len, offset, step, slow_kind) = shape(tag, word);
                // Long literals and 4-byte offsets, a copy from offset 0 or from before the
                // start, one reaching past the next repeat; a literal cut short (one test).
                let slow = slow_kind
                    | ((tag & 3 != 0) & (offset == 0))
                    | (p < offset)
                    | (p + len > limit)
                    | (at + step > elements.len());
                if slow {
                    break;
                }
                if p - offset < since {
                    // A copy from before the last repeats: from further back by the bytes
                    // inserted since its source, unless they went in inside it (or it is a
                    // run, or too far back).
                    let q = p - offset;
                    let (y, before) = self.inserted.around(q);
                    let from = offset + self.sum - before;
                    if offset < len || y < q + len || from > MAX_OFFSET {
                        break;
                    }
                    let out = &mut *self.w.out;
                    out.extend_from_slice(&elements[start..at]);
                    if (4..12).contains(&len) && from < 2048 {
                        let tag = (((from >> 8) as u8) << 5) | (((len - 4) as u8) << 2) | 1;
                        out.extend_from_slice(&[tag, from as u8]);
                    } else {
                        let [lo, hi] = (from as u16).to_le_bytes();
                        out.extend_from_slice(&[(((len - 1) as u8) << 2) | 2, lo, hi]);
                    }
                    start = at + step;
                }
                p += len;
                at += step;
            }
            if p > self.p {
                self.w.out.extend_from_slice(&elements[start..at]);
                self.o += p - self.p;
                self.p = p;
                continue;
            }
            let element = next_element(elements, &mut at)?;
            self.insert_here();
            let p = self.p;
            let len = match element {
                Element::Literal(len) | Element::Copy { len, .. } => len,
            };
            let end = p.checked_add(len).filter(|&e| e <= self.dict.len())?;
            match element {
                Element::Copy { offset, .. } => self.copy_to(offset, end)?,
                Element::Literal(_) => self.literal_to(end),
            }
        }
        if self.p != self.dict.len() {
            return None;
        }
        self.insert_here();
        (self.next == self.repeats.len()).then_some(())
    }
}

/// The element of `tag`, `word` being the (up to) 4 bytes after the tag: its length, its
/// offset (0 for a literal), the bytes from the tag to the next element, and whether it is of
/// the kinds the fast loop leaves to [`next_element`] (long literals, 4-byte offsets), for
/// which the first three mean nothing. The next tag's position hangs on the tag alone: a
/// literal's step is in its tag, a copy's in its kind.
#[inline(always)]
fn shape(tag: u8, word: usize) -> (usize, usize, usize, bool) {
    let kind = usize::from(tag & 3);
    let code = usize::from(tag >> 2);
    let step = if kind == 0 { code + 2 } else { kind + 1 };
    let t = SHAPE[usize::from(tag)] as usize;
    let offset = (t & 0x700) | (word & OFFSET_MASK[kind]);
    (t & 0xFF, offset, step, t & SLOW != 0)
}

/// Set in [`SHAPE`] for the elements taken one by one: long literals (60 bytes or more) and
/// copies with 4-byte offsets.
const SLOW: usize = 1 << 15;

/// For each tag: the element's length (bits 0-7), and for a copy with a 1-byte offset the
/// offset bits its tag holds, in place (bits 8-10); [`SLOW`].
static SHAPE: [u16; 256] = shape_table();

const fn shape_table() -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut tag = 0;
    while tag < 256 {
        t[tag] = match tag & 3 {
            0 if tag >> 2 < 60 => (tag >> 2) + 1,
            1 => (4 + ((tag >> 2) & 7)) | ((tag >> 5) << 8),
            2 => (tag >> 2) + 1,
            _ => SLOW,
        } as u16;
        tag += 1;
    }
    t
}

/// The offset bytes after a tag of each kind, as a mask of the word after the tag.
const OFFSET_MASK: [usize; 4] = [0, 0xFF, 0xFFFF, 0];

#[cfg(test)]
mod tests;
