//! The growable bitmap: validity and boolean buffers built bit, run or word at a time.

use super::bitmap::{BitChunks, Bitmap};
use super::mutable::MutableBuffer;
use crate::error::Result;

/// Mask selecting the low `n` bits (`n <= 64`).
#[inline]
pub(crate) fn low_bits(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// A growable bitmap (LSB bit numbering) that counts its unset bits as it goes, so that a
/// validity bitmap leaves the builder with its null count known.
///
/// Bits are stored in whole little-endian 64-bit words and appended a word at a time wherever
/// the current length ends: [`append_word`](MutableBitmap::append_word) (the low `n` bits of a
/// word), [`append_n`](MutableBitmap::append_n) (a run of one value),
/// [`extend_from_bitmap`](MutableBitmap::extend_from_bitmap) and
/// [`extend_from_bytes`](MutableBitmap::extend_from_bytes) (bits at any source offset). Bits past
/// the length are always zero.
///
/// ```
/// use quiver_arrow::buffer::MutableBitmap;
/// let mut m = MutableBitmap::new();
/// m.push(true);
/// m.append_n(false, 3);
/// m.append_word(0b101, 3); // true, false, true
/// m.set(1, true);
/// assert_eq!(m.unset_bits(), 3);
/// let b = m.freeze();
/// assert_eq!(b.iter().collect::<Vec<_>>(), [true, true, false, false, true, false, true]);
/// assert_eq!(b.unset_bits(), 3); // known from the builder, not recounted
/// ```
#[derive(Debug, Clone, Default)]
pub struct MutableBitmap {
    /// `len.div_ceil(64)` words, little-endian; bits at and past `len` are zero.
    words: MutableBuffer,
    len: usize,
    unset: usize,
}

impl MutableBitmap {
    /// An empty bitmap.
    pub const fn new() -> Self {
        MutableBitmap {
            words: MutableBuffer::new(),
            len: 0,
            unset: 0,
        }
    }

    /// An empty bitmap with room for `bits` bits.
    pub fn with_capacity(bits: usize) -> Self {
        MutableBitmap {
            words: MutableBuffer::with_capacity(bits.div_ceil(64) * 8),
            ..Self::new()
        }
    }

    /// An empty bitmap with room for `bits` bits, or an error when that cannot be allocated
    /// (for sizes read from untrusted input).
    pub fn try_with_capacity(bits: usize) -> Result<Self> {
        let mut m = Self::new();
        m.try_reserve(bits)?;
        Ok(m)
    }

    /// Ensures room for `additional` more bits, or returns an error.
    pub fn try_reserve(&mut self, additional: usize) -> Result<()> {
        let bits = self.len.checked_add(additional).ok_or_else(|| {
            crate::Error::overflow(format!("bitmap of {} + {additional} bits", self.len))
        })?;
        let bytes = bits.div_ceil(64) * 8;
        self.words.try_reserve(bytes - self.words.len())
    }

    /// Number of bits.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of unset bits (nulls, for a validity bitmap).
    #[inline]
    pub fn unset_bits(&self) -> usize {
        self.unset
    }

    /// Number of set bits.
    #[inline]
    pub fn set_bits(&self) -> usize {
        self.len - self.unset
    }

    /// The bytes holding the bits: `len.div_ceil(8)` of them, bits past the end zero.
    pub fn as_slice(&self) -> &[u8] {
        &self.words.as_slice()[..self.len.div_ceil(8)]
    }

    /// The last (partial or full) word, read-modify-written in little-endian order.
    #[inline]
    fn or_last(&mut self, bits: u64) {
        let n = self.words.len();
        let last: &mut [u8; 8] = (&mut self.words.as_mut_slice()[n - 8..])
            .try_into()
            .expect("8 bytes"); // ok: words are whole 8-byte words and this one exists
        *last = (u64::from_le_bytes(*last) | bits).to_le_bytes();
    }

    /// Appends a bit.
    #[inline]
    pub fn push(&mut self, value: bool) {
        let used = self.len % 64;
        if used == 0 {
            self.words.push(u64::from(value).to_le());
        } else if value {
            self.or_last(1 << used);
        }
        self.unset += usize::from(!value);
        self.len += 1;
    }

    /// Appends the low `n` bits of `bits` (`n <= 64`; higher bits are ignored), bit 0 first.
    #[inline]
    pub fn append_word(&mut self, bits: u64, n: usize) {
        assert!(n <= 64, "append_word takes at most 64 bits, not {n}");
        if n == 0 {
            return;
        }
        let bits = bits & low_bits(n);
        let used = self.len % 64;
        if used == 0 {
            self.words.push(bits.to_le());
        } else {
            self.or_last(bits << used);
            if used + n > 64 {
                self.words.push((bits >> (64 - used)).to_le());
            }
        }
        self.unset += n - bits.count_ones() as usize;
        self.len += n;
    }

    /// Appends `n` copies of `valid`: the partial word, then whole words in bulk.
    pub fn append_n(&mut self, valid: bool, n: usize) {
        let used = self.len % 64;
        let head = if used == 0 { 0 } else { n.min(64 - used) };
        let word = if valid { u64::MAX } else { 0 };
        self.append_word(word, head);
        let rest = n - head;
        let whole = rest / 64;
        self.words.extend_constant(word.to_le(), whole);
        self.len += whole * 64;
        if !valid {
            self.unset += whole * 64;
        }
        self.append_word(word, rest % 64);
    }

    /// Appends the bits of `bitmap` (any bit offset), a word at a time.
    pub fn extend_from_bitmap(&mut self, bitmap: &Bitmap) {
        self.extend_from_chunks(bitmap.chunks(), bitmap.len());
    }

    /// Appends `len` bits of `bytes` starting at bit `offset` (LSB numbering), a word at a
    /// time. Panics when `bytes` holds fewer than `offset + len` bits.
    ///
    /// ```
    /// use quiver_arrow::buffer::MutableBitmap;
    /// let mut m = MutableBitmap::new();
    /// m.extend_from_bytes(&[0b1011_0000, 0b1], 4, 5);
    /// assert_eq!(m.freeze().iter().collect::<Vec<_>>(), [true, true, false, true, true]);
    /// ```
    pub fn extend_from_bytes(&mut self, bytes: &[u8], offset: usize, len: usize) {
        let end = offset.checked_add(len).expect("bit range overflows"); // ok: documented panic, as slicing
        assert!(
            end.div_ceil(8) <= bytes.len(),
            "bits [{offset}, {end}) out of bounds of {} bytes",
            bytes.len()
        );
        self.extend_from_chunks(BitChunks::new(bytes, offset, len), len);
    }

    fn extend_from_chunks(&mut self, chunks: BitChunks<'_>, len: usize) {
        let target = (self.len + len).div_ceil(64) * 8;
        self.words.reserve(target.saturating_sub(self.words.len()));
        let mut left = len;
        for w in chunks {
            let n = left.min(64);
            self.append_word(w, n);
            left -= n;
        }
    }

    /// The bit at `i`. Panics when out of bounds.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        assert!(i < self.len, "bit {i} out of bounds of length {}", self.len);
        (self.words.as_slice()[i / 8] >> (i % 8)) & 1 == 1
    }

    /// Sets the bit at `i`. Panics when out of bounds.
    #[inline]
    pub fn set(&mut self, i: usize, value: bool) {
        assert!(i < self.len, "bit {i} out of bounds of length {}", self.len);
        let b = &mut self.words.as_mut_slice()[i / 8];
        let was = (*b >> (i % 8)) & 1 == 1;
        if value {
            *b |= 1 << (i % 8);
        } else {
            *b &= !(1 << (i % 8));
        }
        self.unset = self.unset + usize::from(was && !value) - usize::from(!was && value);
    }

    /// Removes all bits, keeping the allocation.
    pub fn clear(&mut self) {
        self.words.clear();
        self.len = 0;
        self.unset = 0;
    }

    /// Freezes into a [`Bitmap`] in O(1), its number of unset bits already known.
    pub fn freeze(mut self) -> Bitmap {
        let (len, unset) = (self.len, self.unset);
        self.words.truncate(len.div_ceil(8));
        Bitmap::try_new_with_unset(self.words.freeze(), 0, len, unset)
            .expect("the builder's bytes cover its bits and count its unset bits") // ok: by construction
    }
}

impl Bitmap {
    /// `len` bits all set to `value`.
    pub fn new_constant(value: bool, len: usize) -> Self {
        let mut m = MutableBitmap::with_capacity(len);
        m.append_n(value, len);
        m.freeze()
    }
}

impl FromIterator<bool> for Bitmap {
    fn from_iter<I: IntoIterator<Item = bool>>(iter: I) -> Self {
        let mut m = MutableBitmap::new();
        for b in iter {
            m.push(b);
        }
        m.freeze()
    }
}

impl From<&[bool]> for Bitmap {
    fn from(v: &[bool]) -> Self {
        v.iter().copied().collect()
    }
}

impl Extend<bool> for MutableBitmap {
    fn extend<I: IntoIterator<Item = bool>>(&mut self, iter: I) {
        for b in iter {
            self.push(b);
        }
    }
}

impl FromIterator<bool> for MutableBitmap {
    fn from_iter<I: IntoIterator<Item = bool>>(iter: I) -> Self {
        let mut m = MutableBitmap::new();
        m.extend(iter);
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bits of `m` after freezing, and the model's.
    fn check(m: MutableBitmap, model: &[bool]) {
        assert_eq!(m.len(), model.len());
        assert_eq!(m.unset_bits(), model.iter().filter(|b| !**b).count());
        for (i, &b) in model.iter().enumerate() {
            assert_eq!(m.get(i), b, "bit {i}");
        }
        let frozen = m.freeze();
        assert_eq!(frozen.iter().collect::<Vec<_>>(), model);
        assert_eq!(frozen.unset_bits(), frozen.count_unset());
        assert_eq!(frozen.bytes().len(), model.len().div_ceil(8));
        if model.len() % 8 != 0 {
            let last = frozen.bytes()[frozen.bytes().len() - 1];
            assert_eq!(last >> (model.len() % 8), 0, "bits past the end are zero");
        }
    }

    #[test]
    fn runs_words_and_bits_at_every_position() {
        for start in 0..130 {
            let mut m = MutableBitmap::new();
            let mut model = Vec::new();
            m.append_n(false, start);
            model.extend(std::iter::repeat_n(false, start));
            m.append_n(true, 70);
            model.extend([true; 70]);
            m.append_word(0xF0F0_0000_0000_0F0F | (1 << 63), 64);
            model.extend((0..64).map(|i| (0xF0F0_0000_0000_0F0Fu64 | (1 << 63)) >> i & 1 == 1));
            m.append_word(u64::MAX, 5);
            model.extend([true; 5]);
            m.push(false);
            model.push(false);
            m.append_n(false, 200);
            model.extend([false; 200]);
            check(m, &model);
        }
    }

    #[test]
    fn set_keeps_the_count() {
        let mut m = MutableBitmap::new();
        m.append_n(true, 10);
        m.set(3, false);
        m.set(3, false);
        m.set(4, true);
        assert_eq!(m.unset_bits(), 1);
        m.set(3, true);
        assert_eq!(m.unset_bits(), 0);
    }

    #[test]
    fn extend_from_bytes_at_offsets() {
        let bytes: Vec<u8> = (0..40u8).map(|i| i.wrapping_mul(37) ^ 0x5a).collect();
        let bit = |i: usize| (bytes[i / 8] >> (i % 8)) & 1 == 1;
        for dst in [0usize, 1, 63, 64, 65] {
            for (off, len) in [(0, 0), (3, 5), (7, 64), (13, 200), (0, 320)] {
                let mut m = MutableBitmap::new();
                m.append_n(true, dst);
                m.extend_from_bytes(&bytes, off, len);
                let mut model = vec![true; dst];
                model.extend((off..off + len).map(bit));
                check(m, &model);
            }
        }
    }

    #[test]
    fn clear_resets_count() {
        let mut m = MutableBitmap::new();
        m.append_n(false, 100);
        m.clear();
        m.append_n(true, 3);
        check(m, &[true; 3]);
    }

    #[test]
    fn fallible_capacity() {
        assert!(MutableBitmap::try_with_capacity(usize::MAX).is_err());
        let mut m = MutableBitmap::try_with_capacity(1000).unwrap();
        m.push(true);
        assert!(m.try_reserve(usize::MAX).is_err());
    }
}
