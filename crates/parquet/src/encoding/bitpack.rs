//! Bit unpacking: groups of eight values of `width` bits, least significant bit first, as the
//! RLE / bit-packed hybrid and DELTA_BINARY_PACKED miniblocks store them (eight values of width
//! `w` fill exactly `w` bytes).
//!
//! The width is matched once per call; each width has its own fully unrolled group kernel
//! (a const generic), so the inner loop has no branch and no variable shift.

/// Unpacks `out.len()` values of `width` bits (`width <= 32`) from the start of `src`.
///
/// `out.len()` must be a multiple of 8. Bytes missing at the end of `src` read as zero (the
/// caller decides how many values are real); extra bytes are ignored.
///
/// ```
/// use quiver_parquet::encoding::bitpack::unpack32;
/// // 0..8 in 3 bits each, least significant bit first.
/// let packed = [0b1000_1000, 0b1100_0110, 0b1111_1010];
/// let mut out = [0u32; 8];
/// unpack32(&packed, 3, &mut out);
/// assert_eq!(out, [0, 1, 2, 3, 4, 5, 6, 7]);
/// ```
///
/// # Panics
/// If `width > 32` or `out.len()` is not a multiple of 8 (caller bugs, not input errors).
pub fn unpack32(src: &[u8], width: u32, out: &mut [u32]) {
    assert!(
        out.len() % 8 == 0,
        "unpack32 needs whole groups of 8 values"
    );
    macro_rules! dispatch {
        ($($w:literal)*) => {
            match width {
                0 => out.fill(0),
                $($w => groups32::<$w>(src, out),)*
                _ => panic!("bit width {width} is over 32"),
            }
        };
    }
    dispatch!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
}

/// Unpacks `out.len()` values of `width` bits (`width <= 64`) from the start of `src`; as
/// [`unpack32`] otherwise.
///
/// # Panics
/// If `width > 64` or `out.len()` is not a multiple of 8.
pub fn unpack64(src: &[u8], width: u32, out: &mut [u64]) {
    assert!(
        out.len() % 8 == 0,
        "unpack64 needs whole groups of 8 values"
    );
    macro_rules! dispatch {
        ($($w:literal)*) => {
            match width {
                0 => out.fill(0),
                $($w => groups64::<$w>(src, out),)*
                _ => panic!("bit width {width} is over 64"),
            }
        };
    }
    dispatch!(
        1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
        33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61
        62 63 64
    );
}

/// Bytes a group kernel may read past the start of its group: the last value of a 64-bit group
/// starts at byte 56 and is read as 16 bytes.
const WINDOW: usize = 72;

fn groups32<const W: usize>(src: &[u8], out: &mut [u32]) {
    let mut groups = out.chunks_exact_mut(8);
    let mut start = 0;
    // Groups with a full read window ahead are read in place.
    for o in groups.by_ref() {
        let Some(window) = src.get(start..).and_then(|s| s.first_chunk::<WINDOW>()) else {
            // This group and the rest go through a zero-padded copy.
            unpack_group32::<W>(&padded(src, start, W), o);
            start += W;
            break;
        };
        unpack_group32::<W>(window, o);
        start += W;
    }
    for o in groups {
        unpack_group32::<W>(&padded(src, start, W), o);
        start += W;
    }
}

fn groups64<const W: usize>(src: &[u8], out: &mut [u64]) {
    let mut groups = out.chunks_exact_mut(8);
    let mut start = 0;
    for o in groups.by_ref() {
        let Some(window) = src.get(start..).and_then(|s| s.first_chunk::<WINDOW>()) else {
            unpack_group64::<W>(&padded(src, start, W), o);
            start += W;
            break;
        };
        unpack_group64::<W>(window, o);
        start += W;
    }
    for o in groups {
        unpack_group64::<W>(&padded(src, start, W), o);
        start += W;
    }
}

/// The `len` bytes of `src` from `start` (fewer where `src` ends), zero-padded to a window.
fn padded(src: &[u8], start: usize, len: usize) -> [u8; WINDOW] {
    let mut buf = [0u8; WINDOW];
    let have = src.get(start..).unwrap_or(&[]);
    let n = have.len().min(len);
    buf[..n].copy_from_slice(&have[..n]);
    buf
}

#[inline(always)]
fn unpack_group32<const W: usize>(g: &[u8; WINDOW], out: &mut [u32]) {
    let mask = if W == 32 { u32::MAX } else { (1u32 << W) - 1 };
    for (j, o) in out.iter_mut().enumerate().take(8) {
        let bit = j * W;
        let byte = bit / 8;
        let word = u64::from_le_bytes(g[byte..byte + 8].try_into().unwrap()); // ok: `byte + 8 <= 28 + 8 < WINDOW` for W <= 32.
        *o = (word >> (bit % 8)) as u32 & mask;
    }
}

#[inline(always)]
fn unpack_group64<const W: usize>(g: &[u8; WINDOW], out: &mut [u64]) {
    let mask = if W == 64 { u64::MAX } else { (1u64 << W) - 1 };
    for (j, o) in out.iter_mut().enumerate().take(8) {
        let bit = j * W;
        let byte = bit / 8;
        *o = if W <= 56 {
            let word = u64::from_le_bytes(g[byte..byte + 8].try_into().unwrap()); // ok: `byte + 8 <= 49 + 8 < WINDOW`; a shift of at most 7 leaves 56 bits.
            (word >> (bit % 8)) & mask
        } else {
            let word = u128::from_le_bytes(g[byte..byte + 16].try_into().unwrap()); // ok: `byte + 16 <= 56 + 16 == WINDOW`.
            (word >> (bit % 8)) as u64 & mask
        };
    }
}

/// Packs `values` at `width` bits each (`width <= 32`), least significant bit first, appending
/// `values.len() * width / 8` bytes to `out`: the inverse of [`unpack32`]. Bits of a value above
/// `width` are ignored.
///
/// ```
/// use quiver_parquet::encoding::bitpack::pack32;
/// let mut out = vec![];
/// pack32(&[0, 1, 2, 3, 4, 5, 6, 7], 3, &mut out);
/// assert_eq!(out, [0b1000_1000, 0b1100_0110, 0b1111_1010]);
/// ```
///
/// # Panics
/// If `width > 32` or `values.len()` is not a multiple of 8 (caller bugs, not input errors).
pub fn pack32(values: &[u32], width: u32, out: &mut Vec<u8>) {
    assert!(
        values.len() % 8 == 0,
        "pack32 needs whole groups of 8 values"
    );
    out.reserve(values.len() / 8 * width as usize);
    macro_rules! dispatch {
        ($($w:literal)*) => {
            match width {
                0 => {}
                $($w => pack_groups32::<$w>(values, out),)*
                _ => panic!("bit width {width} is over 32"),
            }
        };
    }
    dispatch!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
}

/// Packs `values` at `width` bits each (`width <= 64`); as [`pack32`] otherwise, the inverse of
/// [`unpack64`].
///
/// # Panics
/// If `width > 64` or `values.len()` is not a multiple of 8.
pub fn pack64(values: &[u64], width: u32, out: &mut Vec<u8>) {
    assert!(
        values.len() % 8 == 0,
        "pack64 needs whole groups of 8 values"
    );
    out.reserve(values.len() / 8 * width as usize);
    macro_rules! dispatch {
        ($($w:literal)*) => {
            match width {
                0 => {}
                $($w => pack_groups64::<$w>(values, out),)*
                _ => panic!("bit width {width} is over 64"),
            }
        };
    }
    dispatch!(
        1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
        33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61
        62 63 64
    );
}

fn pack_groups32<const W: usize>(values: &[u32], out: &mut Vec<u8>) {
    let mask = if W == 32 { u32::MAX } else { (1u32 << W) - 1 };
    for group in values.chunks_exact(8) {
        // Eight values of W bits fill exactly W bytes; a 64-bit accumulator holds the bits not
        // yet written (fewer than 32 after each flush, plus one value).
        let mut bytes = [0u8; 32];
        let (mut acc, mut bits, mut at) = (0u64, 0usize, 0usize);
        for &v in group {
            acc |= u64::from(v & mask) << bits;
            bits += W;
            if bits >= 32 {
                bytes[at..at + 4].copy_from_slice(&(acc as u32).to_le_bytes());
                (acc, bits, at) = (acc >> 32, bits - 32, at + 4);
            }
        }
        // `bits` is a multiple of 8 here: 8 * W bits in all.
        bytes[at..W].copy_from_slice(&acc.to_le_bytes()[..W - at]);
        out.extend_from_slice(&bytes[..W]);
    }
}

fn pack_groups64<const W: usize>(values: &[u64], out: &mut Vec<u8>) {
    let mask = if W == 64 { u64::MAX } else { (1u64 << W) - 1 };
    for group in values.chunks_exact(8) {
        let mut bytes = [0u8; 64];
        let (mut acc, mut bits, mut at) = (0u128, 0usize, 0usize);
        for &v in group {
            acc |= u128::from(v & mask) << bits;
            bits += W;
            if bits >= 64 {
                bytes[at..at + 8].copy_from_slice(&(acc as u64).to_le_bytes());
                (acc, bits, at) = (acc >> 64, bits - 64, at + 8);
            }
        }
        bytes[at..W].copy_from_slice(&acc.to_le_bytes()[..W - at]);
        out.extend_from_slice(&bytes[..W]);
    }
}

/// The 64 bits of `words` (least significant bit first) from bit `bit`; bits past the end of
/// `words` read as zero.
#[inline]
pub(crate) fn bits_at(words: &[u64], bit: usize) -> u64 {
    let (i, shift) = (bit / 64, bit % 64);
    let lo = words.get(i).copied().unwrap_or(0);
    if shift == 0 {
        return lo;
    }
    let hi = words.get(i + 1).copied().unwrap_or(0);
    lo >> shift | hi << (64 - shift)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::test_util::{Rng, noise, pack_naive};

    /// The oracle: bit by bit, least significant first.
    fn naive(src: &[u8], width: u32, n: usize) -> Vec<u64> {
        (0..n)
            .map(|i| {
                let mut v = 0u64;
                for b in 0..width as usize {
                    let bit = i * width as usize + b;
                    let set = src
                        .get(bit / 8)
                        .is_some_and(|byte| byte >> (bit % 8) & 1 == 1);
                    v |= (set as u64) << b;
                }
                v
            })
            .collect()
    }

    #[test]
    fn every_width_matches_the_bitwise_oracle() {
        for width in 0..=64u32 {
            for groups in [1usize, 2, 3, 17, 40] {
                let n = groups * 8;
                // Exact length, and one byte short (the tail reads as zero).
                let full = noise(width as u64 * 100 + groups as u64, n * width as usize / 8);
                for src in [&full[..], &full[..full.len().saturating_sub(1)]] {
                    let want = naive(src, width, n);
                    let mut got64 = vec![u64::MAX; n];
                    unpack64(src, width, &mut got64);
                    assert_eq!(got64, want, "width {width}, {groups} groups");
                    if width <= 32 {
                        let mut got32 = vec![u32::MAX; n];
                        unpack32(src, width, &mut got32);
                        let want32: Vec<u32> = want.iter().map(|&v| v as u32).collect();
                        assert_eq!(got32, want32, "width {width}, {groups} groups");
                    }
                }
            }
        }
    }

    #[test]
    fn pack_matches_the_oracle_and_unpacks_back() {
        let mut rng = Rng::new(21);
        for width in 0..=64u32 {
            let mask = if width == 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            for groups in [0usize, 1, 2, 5, 33] {
                let n = groups * 8;
                let values: Vec<u64> = (0..n).map(|_| rng.next() & mask).collect();
                let want = pack_naive(&values, width);
                // Appended after what `out` already holds; bits above the width are ignored.
                let mut got = vec![0xAB];
                let noisy: Vec<u64> = values.iter().map(|&v| v | !mask).collect();
                pack64(&noisy, width, &mut got);
                assert_eq!(got[1..], want[..], "pack64 width {width}, {groups} groups");
                let mut back = vec![0u64; n];
                unpack64(&got[1..], width, &mut back);
                assert_eq!(back, values);
                if width <= 32 {
                    let noisy: Vec<u32> = noisy.iter().map(|&v| v as u32).collect();
                    let mut got = vec![0xAB];
                    pack32(&noisy, width, &mut got);
                    assert_eq!(got[1..], want[..], "pack32 width {width}, {groups} groups");
                }
            }
        }
    }

    #[test]
    fn bits_at_reads_across_words_and_past_the_end() {
        let words = [0x0123_4567_89AB_CDEFu64, 0xFEDC_BA98_7654_3210];
        assert_eq!(bits_at(&words, 0), words[0]);
        assert_eq!(bits_at(&words, 64), words[1]);
        assert_eq!(bits_at(&words, 4), 0x0012_3456_789A_BCDE);
        assert_eq!(bits_at(&words, 68), 0x0FED_CBA9_8765_4321);
        assert_eq!(bits_at(&words, 124), 0xF);
        assert_eq!(bits_at(&words, 128), 0);
        assert_eq!(bits_at(&words, 1000), 0);
    }

    #[test]
    fn empty_output_reads_nothing() {
        unpack32(&[], 7, &mut []);
        unpack64(&[], 64, &mut []);
    }
}
