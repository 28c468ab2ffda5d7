//! The write side of the RLE / bit-packed hybrid (Parquet `Encodings.md`, "RLE"): definition and
//! repetition levels, booleans and dictionary indices. [`RleDecoder`](super::rle::RleDecoder)
//! reads what [`RleEncoder`] writes.
//!
//! Values are taken in groups of eight, aligned to the start of the stream or of the last
//! repeated run. A group of eight equal values starts a repeated run, which lasts as long as the
//! value does; every other group joins the current bit-packed run. At the end, leftover values
//! that are all equal (and follow no bit-packed run) become a short repeated run; otherwise they
//! are padded with zeros to a last bit-packed group. A bit-packed run ends after 63 groups (its
//! header stays one byte). This is the run split Arrow C++ (pyarrow) makes, so the streams match
//! pyarrow's byte for byte.

use super::bitpack::{bits_at, pack32};
use super::varint::write_uleb128;

/// The most groups in one bit-packed run: its header `groups << 1 | 1` fits in one byte.
const MAX_GROUPS: usize = 63;

/// An encoder of `width`-bit values (`width <= 32`) into one hybrid stream; reusable after
/// [`finish_into`](RleEncoder::finish_into).
///
/// ```
/// use quiver_parquet::encoding::rle::RleDecoder;
/// use quiver_parquet::encoding::rle_encoder::RleEncoder;
/// let mut e = RleEncoder::new(2);
/// e.put_repeated(3, 10);
/// e.put_u32s(&[0, 1, 2]);
/// let mut out = vec![];
/// e.finish_into(&mut out);
/// // A repeated run of ten 3s, then one bit-packed group (0, 1, 2 and five zeros of padding).
/// assert_eq!(out, [10 << 1, 3, 1 << 1 | 1, 0b10_01_00, 0]);
/// let mut back = [0u32; 13];
/// assert_eq!(RleDecoder::new(&out, 2).unwrap().decode(&mut back).unwrap(), 13);
/// assert_eq!(back[..13], [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 1, 2]);
/// ```
#[derive(Debug, Clone)]
pub struct RleEncoder {
    width: u32,
    /// The closed runs, then the open bit-packed run (its header byte reserved).
    buf: Vec<u8>,
    /// Scratch of `put_groups`: the groups it packs at once.
    scratch: Vec<u32>,
    /// Values since the last group boundary that are in no run yet.
    pending: [u32; 8],
    npending: usize,
    /// The last value put, and how many times it repeats at the end of the values not yet in
    /// `buf`: at most `npending` while under 8; from 8 on the values are the repeated run being
    /// built and `pending` is empty.
    run_value: u32,
    run_len: usize,
    /// The position of the open bit-packed run's reserved header byte, and its groups.
    literal: Option<usize>,
    groups: usize,
    /// Values put since the last finish.
    len: usize,
}

impl RleEncoder {
    /// An empty encoder of `width`-bit values (width 0: every value is 0).
    ///
    /// # Panics
    /// If `width > 32`.
    pub fn new(width: u32) -> Self {
        assert!(width <= 32, "RLE bit width {width} is over 32");
        RleEncoder {
            width,
            buf: Vec::new(),
            scratch: Vec::new(),
            pending: [0; 8],
            npending: 0,
            run_value: 0,
            run_len: 0,
            literal: None,
            groups: 0,
            len: 0,
        }
    }

    /// The bit width.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Changes the bit width of an empty encoder.
    ///
    /// # Panics
    /// If values were put since the last finish, or `width > 32`.
    pub fn set_width(&mut self, width: u32) {
        assert!(
            self.is_empty(),
            "set_width on an RLE encoder holding values"
        );
        assert!(width <= 32, "RLE bit width {width} is over 32");
        self.width = width;
    }

    /// Values put since the last finish.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no value was put since the last finish.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes encoded so far: a lower bound of what [`finish_into`](RleEncoder::finish_into)
    /// writes, short by at most the pending group, the open repeated run's header and value
    /// (at most 15 bytes) and a long bit-packed run's longer header.
    pub fn encoded_len(&self) -> usize {
        self.buf.len()
    }

    /// Puts one value (`v` must fit in the width).
    #[inline]
    pub fn put(&mut self, v: u32) {
        debug_assert!(
            u64::from(v) >> self.width == 0,
            "{v} does not fit in {} bits",
            self.width
        );
        self.len += 1;
        if v == self.run_value {
            self.run_len += 1;
            if self.run_len > 8 {
                return;
            }
        } else {
            if self.run_len >= 8 {
                self.flush_repeat();
            }
            self.run_value = v;
            self.run_len = 1;
        }
        self.pending[self.npending] = v;
        self.npending += 1;
        if self.npending == 8 {
            self.flush_pending();
        }
    }

    /// Puts `n` copies of `v`, in O(1) once a repeated run of `v` is under way.
    pub fn put_repeated(&mut self, v: u32, n: usize) {
        let mut n = n;
        // At most 16 single puts: a group boundary, then eight equal values, start the run.
        while n > 0 {
            if self.run_len >= 8 && v == self.run_value {
                self.run_len += n;
                self.len += n;
                return;
            }
            self.put(v);
            n -= 1;
        }
    }

    /// Puts every value of `values`.
    pub fn put_u32s(&mut self, values: &[u32]) {
        self.put_slice(values, |v| v);
    }

    /// Puts levels (each `0 <= level < 2^width`).
    pub fn put_levels(&mut self, levels: &[i16]) {
        self.put_slice(levels, |l| l as u16 as u32);
    }

    /// Puts `len` one-bit values: the bits of `words` (least significant first) from bit `offset`
    /// (validity as definition levels, booleans). Long stretches of equal bits take one step per
    /// word, and whole words without a uniform byte go to the bit-packed run as they are.
    ///
    /// # Panics
    /// If the width is not 1, or `words` holds fewer than `offset + len` bits.
    pub fn put_bits(&mut self, words: &[u64], offset: usize, len: usize) {
        assert_eq!(self.width, 1, "put_bits needs bit width 1");
        let end = offset + len;
        assert!(
            end <= words.len() * 64,
            "put_bits past the end of the words"
        );
        let mut pos = offset;
        while pos < end {
            let left = end - pos;
            let w = bits_at(words, pos);
            if self.run_len >= 8 {
                // Bits equal to the run's value read as zeros.
                let differ = if self.run_value == 1 { !w } else { w };
                let k = (differ.trailing_zeros() as usize).min(left);
                self.run_len += k;
                self.len += k;
                pos += k;
                if k < 64 && pos < end {
                    self.put((w >> k) as u32 & 1);
                    pos += 1;
                }
            } else if self.npending == 0
                && left >= 64
                && self.groups + 8 <= MAX_GROUPS
                && !has_uniform_byte(w)
            {
                // Eight groups, none of them a run: their bytes are their bit-packed form.
                self.open_literal();
                self.buf.extend_from_slice(&w.to_le_bytes());
                self.add_groups(8);
                (self.run_value, self.run_len) = ((w >> 63) as u32, 0);
                self.len += 64;
                pos += 64;
            } else if self.npending == 0 && left >= 8 {
                let byte = w as u8;
                self.len += 8;
                if byte == 0 || byte == 0xFF {
                    self.close_literal();
                    (self.run_value, self.run_len) = (u32::from(byte & 1), 8);
                } else {
                    self.open_literal();
                    self.buf.push(byte);
                    self.end_group();
                    (self.run_value, self.run_len) = (u32::from(byte >> 7), 0);
                }
                pos += 8;
            } else {
                self.put(w as u32 & 1);
                pos += 1;
            }
        }
    }

    /// Appends the stream (no length prefix, no bit-width byte) to `out` and empties the encoder
    /// for reuse at the same width. Nothing is appended when no value was put.
    pub fn finish_into(&mut self, out: &mut Vec<u8>) {
        if self.run_len >= 8 {
            self.flush_repeat();
        } else if self.npending > 0 {
            if self.literal.is_none() && self.run_len == self.npending {
                // All the leftover values are equal: a short repeated run.
                self.flush_repeat();
            } else {
                let mut group = self.pending;
                group[self.npending..].fill(0);
                self.push_group(&group);
            }
        }
        self.close_literal();
        out.extend_from_slice(&self.buf);
        self.buf.clear();
        (self.npending, self.run_value, self.run_len, self.len) = (0, 0, 0, 0);
    }

    fn put_slice<T: Copy>(&mut self, values: &[T], to_u32: impl Fn(T) -> u32) {
        let mut i = 0;
        while i < values.len() {
            if self.run_len >= 8 {
                let v = self.run_value;
                let k = equal_prefix(&values[i..], |x| to_u32(x) == v);
                self.run_len += k;
                self.len += k;
                i += k;
                if let Some(&x) = values.get(i) {
                    self.put(to_u32(x));
                    i += 1;
                }
            } else if self.npending == 0 && values.len() - i >= 8 {
                i += self.put_groups(&values[i..], &to_u32);
            } else {
                self.put(to_u32(values[i]));
                i += 1;
            }
        }
    }

    /// Puts whole groups from the start of `values` at a group boundary (`npending == 0`, so
    /// no run of 8 under way): one group of equal values, which starts a repeated run, or as
    /// many groups that are not (up to the bit-packed run's limit), packed at once. Returns the
    /// values taken.
    fn put_groups<T: Copy>(&mut self, values: &[T], to_u32: impl Fn(T) -> u32) -> usize {
        let room = MAX_GROUPS - self.groups;
        let scratch = &mut self.scratch;
        scratch.clear();
        for chunk in values.chunks_exact(8).take(room) {
            let group: [u32; 8] = std::array::from_fn(|j| to_u32(chunk[j]));
            if group.iter().all(|&x| x == group[0]) {
                if scratch.is_empty() {
                    self.len += 8;
                    self.close_literal();
                    (self.run_value, self.run_len) = (group[0], 8);
                    return 8;
                }
                break;
            }
            scratch.extend_from_slice(&group);
        }
        let n = scratch.len();
        self.open_literal();
        pack32(&self.scratch, self.width, &mut self.buf);
        (self.run_value, self.run_len) = (self.scratch[n - 1], 0);
        self.len += n;
        self.add_groups(n / 8);
        n
    }

    /// The pending group is full: it starts a repeated run or joins the bit-packed run.
    fn flush_pending(&mut self) {
        self.npending = 0;
        if self.run_len >= 8 {
            self.close_literal();
        } else {
            let group = self.pending;
            self.push_group(&group);
            self.run_len = 0;
        }
    }

    fn push_group(&mut self, group: &[u32; 8]) {
        self.open_literal();
        pack32(group, self.width, &mut self.buf);
        self.end_group();
    }

    /// Counts a group just added to the bit-packed run, closing the run when it is full.
    fn end_group(&mut self) {
        self.add_groups(1);
    }

    /// Counts `k` groups just added to the bit-packed run (never past [`MAX_GROUPS`]: the
    /// callers take at most the room left), closing the run when it is full.
    fn add_groups(&mut self, k: usize) {
        self.groups += k;
        debug_assert!(self.groups <= MAX_GROUPS);
        if self.groups == MAX_GROUPS {
            self.close_literal();
        }
    }

    fn open_literal(&mut self) {
        if self.literal.is_none() {
            self.literal = Some(self.buf.len());
            self.buf.push(0);
        }
    }

    /// Writes the open bit-packed run's header into its reserved byte.
    fn close_literal(&mut self) {
        if let Some(at) = self.literal.take() {
            self.buf[at] = (self.groups << 1 | 1) as u8;
            self.groups = 0;
        }
    }

    /// Writes the repeated run of `run_len` copies of `run_value`.
    fn flush_repeat(&mut self) {
        write_uleb128(&mut self.buf, (self.run_len as u64) << 1);
        let bytes = self.width.div_ceil(8) as usize;
        self.buf
            .extend_from_slice(&self.run_value.to_le_bytes()[..bytes]);
    }
}

/// How many values at the start of `values` satisfy `same`, eight at a time where it can.
#[inline]
fn equal_prefix<T: Copy>(values: &[T], same: impl Fn(T) -> bool) -> usize {
    let mut k = 0;
    for chunk in values.chunks_exact(8) {
        if !chunk.iter().all(|&x| same(x)) {
            break;
        }
        k += 8;
    }
    k + values[k..].iter().take_while(|&&x| same(x)).count()
}

/// Whether one of the eight bytes of `w` is 0x00 or 0xFF.
#[inline]
fn has_uniform_byte(w: u64) -> bool {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(LOW) & !x & HIGH != 0;
    has_zero(w) || has_zero(!w)
}

#[cfg(test)]
mod tests;
