//! Bitmaps with LSB bit numbering: validity bitmaps and boolean values.

use super::mutable::MutableBuffer;
use crate::error::{Error, Result};
use bytes::Bytes;
use std::sync::atomic::{AtomicUsize, Ordering};

const UNKNOWN: usize = usize::MAX;

/// An immutable sequence of bits over shared bytes, bit `i` being `(byte[i / 8] >> (i % 8)) & 1`.
///
/// Slicing is O(1) and zero-copy (a bit offset is kept). The number of unset bits (the null count
/// of a validity bitmap) is counted word-at-a-time on first use and cached.
///
/// ```
/// use quiver_arrow::Bitmap;
/// let b: Bitmap = [true, false, true, true].into_iter().collect();
/// assert_eq!(b.unset_bits(), 1);
/// assert_eq!(b.slice(1, 2).iter().collect::<Vec<_>>(), vec![false, true]);
/// assert_eq!(b.set_indices().collect::<Vec<_>>(), vec![0, 2, 3]);
/// ```
pub struct Bitmap {
    bytes: Bytes,
    offset: usize,
    len: usize,
    unset: AtomicUsize,
}

impl Clone for Bitmap {
    fn clone(&self) -> Self {
        Bitmap {
            bytes: self.bytes.clone(),
            offset: self.offset,
            len: self.len,
            unset: AtomicUsize::new(self.unset.load(Ordering::Relaxed)),
        }
    }
}

impl std::fmt::Debug for Bitmap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bitmap[")?;
        for b in self.iter() {
            write!(f, "{}", b as u8)?;
        }
        write!(f, "]")
    }
}

impl PartialEq for Bitmap {
    /// Bitwise equality of the logical bits (offsets and padding ignored).
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.chunks().zip(other.chunks()).all(|(a, b)| a == b)
    }
}

impl Bitmap {
    /// A bitmap of `len` bits over `bytes`, starting at bit `offset`.
    ///
    /// Fails when the bytes are too short.
    pub fn try_new(bytes: Bytes, offset: usize, len: usize) -> Result<Self> {
        let needed = offset
            .checked_add(len)
            .ok_or_else(|| Error::overflow("bitmap offset + length"))?
            .div_ceil(8);
        if bytes.len() < needed {
            return Err(Error::oos(format!(
                "bitmap of {len} bits at bit offset {offset} needs {needed} bytes but has {}",
                bytes.len()
            )));
        }
        Ok(Bitmap {
            bytes,
            offset,
            len,
            unset: AtomicUsize::new(UNKNOWN),
        })
    }

    /// A bitmap over `bytes` that states its number of unset bits up front (e.g. a null count
    /// read from a file). The count is trusted by [`Bitmap::unset_bits`]; full validation
    /// compares it with [`Bitmap::count_unset`].
    pub fn try_new_with_unset(
        bytes: Bytes,
        offset: usize,
        len: usize,
        unset: usize,
    ) -> Result<Self> {
        let b = Self::try_new(bytes, offset, len)?;
        if unset > len {
            return Err(Error::oos(format!(
                "null count {unset} exceeds length {len}"
            )));
        }
        b.unset.store(unset, Ordering::Relaxed);
        Ok(b)
    }

    /// Number of bits.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when there are no bits.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Bit offset into [`Bitmap::bytes`].
    #[inline]
    pub fn offset(&self) -> usize {
        self.offset
    }
    /// The underlying bytes (bit 0 of the bitmap is bit `offset` of these).
    #[inline]
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The bit at `i`. Panics when out of bounds.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        assert!(
            i < self.len,
            "bit {i} out of bounds of bitmap of length {}",
            self.len
        );
        let pos = self.offset + i;
        (self.bytes[pos / 8] >> (pos % 8)) & 1 == 1
    }

    /// Number of unset bits (the null count of a validity bitmap); counted once, then cached.
    #[inline]
    pub fn unset_bits(&self) -> usize {
        let cached = self.unset.load(Ordering::Relaxed);
        if cached != UNKNOWN {
            return cached;
        }
        let n = self.count_unset();
        self.unset.store(n, Ordering::Relaxed);
        n
    }

    /// Number of set bits.
    #[inline]
    pub fn set_bits(&self) -> usize {
        self.len - self.unset_bits()
    }

    /// Counts the unset bits now, ignoring any cached or declared count.
    pub fn count_unset(&self) -> usize {
        let ones: usize = self.chunks().map(|w| w.count_ones() as usize).sum();
        self.len - ones
    }

    /// A zero-copy slice of `len` bits from `offset`. Panics when out of bounds.
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        assert!(
            offset.checked_add(len).is_some_and(|e| e <= self.len),
            "bitmap slice [{offset}, {offset}+{len}) out of bounds of length {}",
            self.len
        );
        let parent = self.unset.load(Ordering::Relaxed);
        let unset = if parent == 0 {
            0
        } else if parent == self.len {
            len
        } else {
            UNKNOWN
        };
        // Drop whole bytes from the front so that offsets stay below 8.
        let start = (self.offset + offset) / 8;
        let end = (self.offset + offset + len).div_ceil(8);
        Bitmap {
            bytes: self.bytes.slice(start..end),
            offset: (self.offset + offset) % 8,
            len,
            unset: AtomicUsize::new(unset),
        }
    }

    /// The bits as 64-bit words, bit 0 of the bitmap in bit 0 of the first word; the last word
    /// is zero-padded.
    pub fn chunks(&self) -> BitChunks<'_> {
        BitChunks::new(&self.bytes, self.offset, self.len)
    }

    /// Iterates the bits.
    pub fn iter(&self) -> BitIter<'_> {
        BitIter {
            bitmap: self,
            pos: 0,
        }
    }

    /// Iterates the indices of set bits, word at a time.
    pub fn set_indices(&self) -> SetIndices<'_> {
        SetIndices {
            chunks: self.chunks(),
            word: 0,
            base: 0,
            next_base: 0,
        }
    }

    /// The bits, realigned to offset 0 in a fresh 64-byte aligned allocation.
    pub fn to_aligned(&self) -> Bitmap {
        Self::from_words(self.chunks(), self.len)
    }

    fn from_words(words: impl Iterator<Item = u64>, len: usize) -> Bitmap {
        let mut m = MutableBuffer::with_capacity(len.div_ceil(64) * 8);
        for w in words {
            m.push(w);
        }
        m.truncate(len.div_ceil(8));
        Bitmap {
            bytes: m.freeze(),
            offset: 0,
            len,
            unset: AtomicUsize::new(UNKNOWN),
        }
    }

    fn binary(&self, other: &Bitmap, op: impl Fn(u64, u64) -> u64) -> Bitmap {
        assert_eq!(self.len, other.len, "bitmaps of different lengths");
        let words = self.chunks().zip(other.chunks()).map(|(a, b)| op(a, b));
        Self::from_words(words, self.len)
    }

    /// Bitwise AND (lengths must match).
    pub fn and(&self, other: &Bitmap) -> Bitmap {
        self.binary(other, |a, b| a & b)
    }
    /// Bitwise OR (lengths must match).
    pub fn or(&self, other: &Bitmap) -> Bitmap {
        self.binary(other, |a, b| a | b)
    }
    /// Bitwise NOT (padding bits stay zero).
    pub fn not(&self) -> Bitmap {
        let len = self.len;
        let n = len.div_ceil(64);
        let words = self.chunks().enumerate().map(move |(i, w)| {
            if i + 1 == n && len % 64 != 0 {
                !w & ((1u64 << (len % 64)) - 1)
            } else {
                !w
            }
        });
        Self::from_words(words, len)
    }
}

/// Iterator of a bitmap's bits as `u64` words (see [`Bitmap::chunks`]).
pub struct BitChunks<'a> {
    bytes: &'a [u8],
    /// Bit position of the next word, relative to `bytes`.
    pos: usize,
    end: usize,
}

impl<'a> BitChunks<'a> {
    pub(crate) fn new(bytes: &'a [u8], offset: usize, len: usize) -> Self {
        BitChunks {
            bytes,
            pos: offset,
            end: offset + len,
        }
    }

    #[inline]
    fn load(&self, byte: usize) -> u64 {
        match self.bytes.get(byte..byte + 8) {
            Some(s) => u64::from_le_bytes(s.try_into().expect("8 bytes")), // ok: `s` is the 8-byte range byte..byte + 8.
            None => {
                let mut buf = [0u8; 8];
                let tail = self.bytes.get(byte..).unwrap_or(&[]);
                buf[..tail.len()].copy_from_slice(tail);
                u64::from_le_bytes(buf)
            }
        }
    }
}

impl Iterator for BitChunks<'_> {
    type Item = u64;
    #[inline]
    fn next(&mut self) -> Option<u64> {
        if self.pos >= self.end {
            return None;
        }
        let byte = self.pos / 8;
        let shift = self.pos % 8;
        let mut w = self.load(byte) >> shift;
        if shift != 0 {
            let next = self.bytes.get(byte + 8).copied().unwrap_or(0) as u64;
            w |= next << (64 - shift);
        }
        let remaining = self.end - self.pos;
        if remaining < 64 {
            w &= (1u64 << remaining) - 1;
        }
        self.pos += 64;
        Some(w)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.end.saturating_sub(self.pos).div_ceil(64);
        (n, Some(n))
    }
}

/// Iterator over the bits of a [`Bitmap`].
pub struct BitIter<'a> {
    bitmap: &'a Bitmap,
    pos: usize,
}

impl Iterator for BitIter<'_> {
    type Item = bool;
    #[inline]
    fn next(&mut self) -> Option<bool> {
        if self.pos >= self.bitmap.len {
            return None;
        }
        let v = self.bitmap.get(self.pos);
        self.pos += 1;
        Some(v)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.bitmap.len - self.pos;
        (n, Some(n))
    }
}
impl ExactSizeIterator for BitIter<'_> {}

/// Iterator over the indices of set bits of a [`Bitmap`].
pub struct SetIndices<'a> {
    chunks: BitChunks<'a>,
    word: u64,
    base: usize,
    next_base: usize,
}

impl Iterator for SetIndices<'_> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word == 0 {
            self.word = self.chunks.next()?;
            self.base = self.next_base;
            self.next_base += 64;
        }
        let tz = self.word.trailing_zeros() as usize;
        self.word &= self.word - 1;
        Some(self.base + tz)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::MutableBitmap;

    fn naive(bits: &[bool]) -> Bitmap {
        bits.iter().copied().collect()
    }

    #[test]
    fn counts_and_slices_at_every_offset() {
        let bits: Vec<bool> = (0..300).map(|i| (i * 7 + i / 3) % 5 < 2).collect();
        let b = naive(&bits);
        for off in 0..70 {
            for len in [0, 1, 7, 63, 64, 65, 129, 300 - off] {
                if off + len > 300 {
                    continue;
                }
                let s = b.slice(off, len);
                let expect = bits[off..off + len].iter().filter(|b| !**b).count();
                assert_eq!(s.unset_bits(), expect, "off {off} len {len}");
                assert_eq!(s.iter().collect::<Vec<_>>(), &bits[off..off + len]);
                let idx: Vec<usize> = s.set_indices().collect();
                let exp: Vec<usize> = (0..len).filter(|i| bits[off + i]).collect();
                assert_eq!(idx, exp);
                let not: Vec<bool> = s.not().iter().collect();
                assert!(not.iter().zip(&bits[off..off + len]).all(|(a, b)| *a != *b));
                assert_eq!(s.not().unset_bits(), len - expect);
            }
        }
    }

    #[test]
    fn and_or_with_different_offsets() {
        let a: Vec<bool> = (0..200).map(|i| i % 3 == 0).collect();
        let c: Vec<bool> = (0..200).map(|i| i % 5 == 0).collect();
        let ba = naive(&a).slice(3, 150);
        let bc = naive(&c).slice(17, 150);
        let and: Vec<bool> = ba.and(&bc).iter().collect();
        let or: Vec<bool> = ba.or(&bc).iter().collect();
        for i in 0..150 {
            assert_eq!(and[i], a[i + 3] && c[i + 17]);
            assert_eq!(or[i], a[i + 3] || c[i + 17]);
        }
    }

    #[test]
    fn mutable_extend_constant() {
        let mut m = MutableBitmap::new();
        m.push(false);
        m.append_n(true, 20);
        m.append_n(false, 5);
        m.append_n(true, 3);
        let b = m.freeze();
        let exp: Vec<bool> = std::iter::once(false)
            .chain([true; 20])
            .chain([false; 5])
            .chain([true; 3])
            .collect();
        assert_eq!(b.iter().collect::<Vec<_>>(), exp);
        assert_eq!(b.unset_bits(), 6);
    }

    #[test]
    fn short_bytes_rejected() {
        let e = Bitmap::try_new(Bytes::from_static(&[0u8]), 3, 6).unwrap_err();
        assert!(e.to_string().contains("needs 2 bytes but has 1"), "{e}");
    }
}
