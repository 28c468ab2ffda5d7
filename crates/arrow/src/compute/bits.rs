//! Word-at-a-time helpers over validity bitmaps shared by equality and concatenation.

use crate::buffer::{BitChunks, Bitmap, MutableBitmap};
use crate::error::Result;
use std::ops::Range;

use crate::buffer::low_bits;

/// The validity of `len` slots of an array starting at some offset; `None` when all of them are
/// valid (no bitmap, or a bitmap without nulls in the range).
pub(crate) struct Mask {
    bits: Option<Bitmap>,
    len: usize,
}

impl Mask {
    /// The validity of slots `[offset, offset + len)` of an array whose bitmap is `validity`.
    pub(crate) fn new(validity: Option<&Bitmap>, offset: usize, len: usize) -> Self {
        let bits = validity
            .map(|v| v.slice(offset, len))
            .filter(|v| v.unset_bits() > 0);
        Mask { bits, len }
    }

    /// True when every slot in the range is valid.
    #[inline]
    pub(crate) fn all_valid(&self) -> bool {
        self.bits.is_none()
    }

    /// The validity as 64-bit words (bit 0 = first slot), zero beyond the range.
    pub(crate) fn words(&self) -> Words<'_> {
        match &self.bits {
            Some(b) => Words::Bits(b.chunks()),
            None => Words::Ones {
                remaining: self.len,
            },
        }
    }
}

/// Words of a [`Mask`]: the bitmap's chunks, or all ones when there is no bitmap.
pub(crate) enum Words<'a> {
    /// Words of a bitmap.
    Bits(BitChunks<'a>),
    /// All-valid slots still to produce.
    Ones { remaining: usize },
}

impl Iterator for Words<'_> {
    type Item = u64;
    #[inline]
    fn next(&mut self) -> Option<u64> {
        match self {
            Words::Bits(c) => c.next(),
            Words::Ones { remaining } => {
                if *remaining == 0 {
                    return None;
                }
                let n = (*remaining).min(64);
                *remaining -= n;
                Some(low_bits(n))
            }
        }
    }
}

/// Index of the first set bit of a word stream.
pub(crate) fn first_set(words: impl Iterator<Item = u64>) -> Option<usize> {
    words
        .enumerate()
        .find(|(_, w)| *w != 0)
        .map(|(k, w)| k * 64 + w.trailing_zeros() as usize)
}

/// First slot where one mask is valid and the other is not.
pub(crate) fn first_mismatch(a: &Mask, b: &Mask) -> Option<usize> {
    if a.all_valid() && b.all_valid() {
        return None;
    }
    first_set(a.words().zip(b.words()).map(|(x, y)| x ^ y))
}

/// Maximal runs of slots valid in both masks, in order.
pub(crate) fn both_valid_runs<'a>(
    a: &'a Mask,
    b: &'a Mask,
) -> OnesRuns<impl Iterator<Item = u64> + 'a> {
    OnesRuns::new(a.words().zip(b.words()).map(|(x, y)| x & y))
}

/// Iterator over the maximal runs of set bits of a word stream (bits past the end must be zero).
pub(crate) struct OnesRuns<I> {
    words: I,
    /// Unconsumed bits of the current word.
    word: u64,
    /// Index of bit 0 of the current word.
    base: usize,
    /// Index of bit 0 of the next word.
    next_base: usize,
}

impl<I: Iterator<Item = u64>> OnesRuns<I> {
    fn new(words: I) -> Self {
        OnesRuns {
            words,
            word: 0,
            base: 0,
            next_base: 0,
        }
    }

    fn advance(&mut self) -> bool {
        match self.words.next() {
            Some(w) => {
                self.word = w;
                self.base = self.next_base;
                self.next_base += 64;
                true
            }
            None => false,
        }
    }
}

impl<I: Iterator<Item = u64>> Iterator for OnesRuns<I> {
    type Item = Range<usize>;
    fn next(&mut self) -> Option<Range<usize>> {
        while self.word == 0 {
            if !self.advance() {
                return None;
            }
        }
        let start = self.base + self.word.trailing_zeros() as usize;
        loop {
            // Fill the bits below the run so the first zero above it marks its end.
            let filled = self.word | low_bits(self.word.trailing_zeros() as usize);
            let end_bit = (!filled).trailing_zeros() as usize;
            if end_bit < 64 {
                self.word &= u64::MAX << end_bit;
                return Some(start..self.base + end_bit);
            }
            // The run reaches the end of this word: continue if the next word starts with a one.
            let end = self.base + 64;
            if !self.advance() {
                self.word = 0;
                return Some(start..end);
            }
            if self.word & 1 == 0 {
                return Some(start..end);
            }
        }
    }
}

/// The validity of concatenated parts (`(validity, len)` each): `None` when no part has a null.
pub(crate) fn concat_validity<'a, I>(parts: I) -> Result<Option<Bitmap>>
where
    I: Iterator<Item = (Option<&'a Bitmap>, usize)> + Clone,
{
    let has_nulls = parts
        .clone()
        .any(|(v, _)| v.is_some_and(|b| b.unset_bits() > 0));
    if !has_nulls {
        return Ok(None);
    }
    let total = parts.clone().map(|(_, n)| n).sum();
    let mut out = MutableBitmap::with_capacity(total);
    for (v, n) in parts {
        match v {
            Some(b) => out.extend_from_bitmap(b),
            None => out.append_n(true, n),
        }
    }
    Ok(Some(out.freeze()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(pattern: &[bool]) -> Bitmap {
        pattern.iter().copied().collect()
    }

    /// Slow oracle: runs of `true` in a bool slice.
    fn naive_runs(v: &[bool]) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < v.len() {
            if v[i] {
                let s = i;
                while i < v.len() && v[i] {
                    i += 1;
                }
                out.push(s..i);
            } else {
                i += 1;
            }
        }
        out
    }

    #[test]
    fn runs_match_oracle_across_word_boundaries() {
        let patterns: Vec<Vec<bool>> = vec![
            vec![true; 200],
            vec![false; 70],
            (0..300).map(|i| (i / 7) % 3 != 0).collect(),
            (0..130).map(|i| !(64..127).contains(&i)).collect(),
            (0..128).map(|i| i >= 60).collect(),
            (0..65).map(|i| i % 2 == 0).collect(),
        ];
        for p in &patterns {
            for off in [0, 3, 13] {
                if off >= p.len() {
                    continue;
                }
                let len = p.len() - off;
                let m = Mask::new(Some(&bits(p)), off, len);
                let all = Mask::new(None, 0, len);
                let got: Vec<_> = both_valid_runs(&m, &all).collect();
                assert_eq!(got, naive_runs(&p[off..]), "offset {off}");
            }
        }
    }

    #[test]
    fn mismatch_finds_first_differing_validity() {
        let a = bits(&[true, true, false, true, true]);
        let b = bits(&[true, true, false, false, true]);
        let ma = Mask::new(Some(&a), 0, 5);
        let mb = Mask::new(Some(&b), 0, 5);
        assert_eq!(first_mismatch(&ma, &mb), Some(3));
        let none = Mask::new(None, 0, 5);
        assert_eq!(first_mismatch(&ma, &none), Some(2));
        // A bitmap without nulls in the range counts as all valid.
        let ma = Mask::new(Some(&a), 3, 2);
        assert!(ma.all_valid());
        assert_eq!(first_mismatch(&ma, &Mask::new(None, 0, 2)), None);
    }

    #[test]
    fn concat_validity_is_none_without_nulls() {
        let all = Bitmap::new_constant(true, 10);
        let parts = [(Some(&all), 10), (None, 5)];
        assert!(concat_validity(parts.iter().copied()).unwrap().is_none());
        let some = bits(&[true, false]);
        let parts = [(None, 3), (Some(&some), 2)];
        let v = concat_validity(parts.iter().copied()).unwrap().unwrap();
        assert_eq!(
            v.iter().collect::<Vec<_>>(),
            [true, true, true, true, false]
        );
    }
}
