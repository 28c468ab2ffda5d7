//! Spreading dense values over their slots. Parquet stores only the non-null values of a page;
//! Arrow keeps a slot for every value, null or not. Values are decoded densely at the front of
//! the output and then moved, back to front and in place, to their slots (null slots zeroed);
//! the moving stops as soon as every slot before is valid.

use crate::levels::mask::low;
use quiver_arrow::{Error, Result};

/// A mixed validity word with at most this many changes between valid and null slots is
/// spread a run at a time (block moves and fills); one with more, a slot at a time.
const RUNS_AS_BLOCKS: u32 = 8;

/// The validity bits of slots `[64 k, 64 k + 64)`, least significant first (bytes past the end
/// of `validity` read as zero).
#[inline(always)]
fn word(validity: &[u8], k: usize) -> u64 {
    let at = k * 8;
    match validity.get(at..at + 8) {
        Some(b) => u64::from_le_bytes(b.try_into().unwrap_or([0; 8])), // ok: 8 bytes
        None => {
            let mut b = [0u8; 8];
            let rest = validity.get(at..).unwrap_or(&[]);
            b[..rest.len()].copy_from_slice(rest);
            u64::from_le_bytes(b)
        }
    }
}

/// Checks that the first `len` bits of `validity` hold exactly `valid` set bits: every valid
/// slot then has a dense value, and no dense value is left over.
fn check_count(validity: &[u8], len: usize, valid: usize) -> Result<()> {
    let whole = len / 64;
    let mut set: usize = (0..whole)
        .map(|k| word(validity, k).count_ones() as usize)
        .sum();
    set += (word(validity, whole) & low(len % 64)).count_ones() as usize;
    if set != valid {
        return Err(Error::oos(format!(
            "{set} valid slots for {valid} decoded values"
        )));
    }
    Ok(())
}

/// Walks the slots `[0, len)` back to front a validity word at a time, while slots remain
/// whose values are not in place (`slot > next`, `next` the values not yet placed): calls
/// `word_fn(start, end, bits, next)` for slots `[start, end)` with their validity `bits` (bit 0:
/// slot `start`), which places them and returns the new `next`.
#[inline(always)]
fn back_to_front(
    validity: &[u8],
    len: usize,
    valid: usize,
    mut word_fn: impl FnMut(usize, usize, u64, usize) -> usize,
) {
    let (mut next, mut slot) = (valid, len);
    while slot > next {
        let start = (slot - 1) / 64 * 64;
        let bits = word(validity, start / 64) & low(slot - start);
        next = word_fn(start, slot, bits, next);
        slot = start;
    }
}

/// Moves the `valid` values of `width` bytes at the start of `values` to the slots whose bit is
/// set among the first `len` bits of `validity` (least significant bit first); null slots become
/// zeros. `values` must hold `len * width` bytes and `validity` exactly `valid` set bits among
/// its first `len`.
///
/// ```
/// use quiver_parquet::levels::spread::spread_fixed;
/// let mut v = [1u8, 2, 3, 0, 0];
/// spread_fixed(&mut v, 1, &[0b10110], 5, 3).unwrap();
/// assert_eq!(v, [0, 1, 2, 0, 3]);
/// ```
pub fn spread_fixed(
    values: &mut [u8],
    width: usize,
    validity: &[u8],
    len: usize,
    valid: usize,
) -> Result<()> {
    if values.len() != len * width || validity.len() * 8 < len || valid > len {
        return Err(Error::invalid(format!(
            "spread_fixed: {} bytes for {len} slots of {width} bytes, {} validity bytes, {valid} valid",
            values.len(),
            validity.len()
        )));
    }
    match width {
        1 => spread::<1>(values, validity, len, valid),
        2 => spread::<2>(values, validity, len, valid),
        4 => spread::<4>(values, validity, len, valid),
        8 => spread::<8>(values, validity, len, valid),
        12 => spread::<12>(values, validity, len, valid),
        16 => spread::<16>(values, validity, len, valid),
        _ => spread_any(values, width, validity, len, valid),
    }
}

/// The value of `W` bytes in slot `i`.
#[inline(always)]
fn load<const W: usize>(values: &[u8], i: usize) -> [u8; W] {
    let mut v = [0u8; W];
    v.copy_from_slice(&values[i * W..i * W + W]);
    v
}

/// `v` when `b` is 1, zeros when it is 0: 64-bit ands (the compiler folds them for each `W`).
#[inline(always)]
fn masked<const W: usize>(mut v: [u8; W], b: u64) -> [u8; W] {
    let keep = 0u64.wrapping_sub(b);
    for lane in v.chunks_mut(8) {
        let mut w = [0u8; 8];
        w[..lane.len()].copy_from_slice(lane);
        let x = (u64::from_le_bytes(w) & keep).to_le_bytes();
        lane.copy_from_slice(&x[..lane.len()]);
    }
    v
}

fn spread<const W: usize>(
    values: &mut [u8],
    validity: &[u8],
    len: usize,
    valid: usize,
) -> Result<()> {
    check_count(validity, len, valid)?;
    back_to_front(validity, len, valid, |start, end, bits, mut next| {
        let n = end - start;
        if bits == low(n) {
            // All valid: the `n` values before `next` move up as one block.
            values.copy_within((next - n) * W..next * W, start * W);
            next - n
        } else if bits == 0 {
            values[start * W..end * W].fill(0);
            next
        } else if (bits ^ (bits >> 1)).count_ones() <= RUNS_AS_BLOCKS {
            // Few runs (a null here and there): each run of valid slots moves as one block,
            // each run of nulls is one fill, top run first.
            let mut hi = n;
            while hi > 0 {
                // The slots below `hi`, the top one at bit 63 (the bits shifted in below slot
                // 0 are cut off by `min(hi)`).
                let top = bits << (64 - hi);
                let valid = top >> 63 == 1;
                let run = ((if valid { !top } else { top }).leading_zeros() as usize).min(hi);
                let lo = hi - run;
                if valid {
                    values.copy_within((next - run) * W..next * W, (start + lo) * W);
                    next -= run;
                } else {
                    values[(start + lo) * W..(start + hi) * W].fill(0);
                }
                hi = lo;
            }
            next
        } else {
            // Many runs: every slot takes the next value, kept or zeroed by its bit (no branch
            // on it). Writes go to slots at or above `next`, reads below it: nothing unread is
            // overwritten.
            for s in (start..end).rev() {
                let b = (bits >> (s - start)) & 1;
                let v = masked::<W>(load::<W>(values, next.saturating_sub(1)), b);
                values[s * W..s * W + W].copy_from_slice(&v);
                next -= b as usize;
            }
            next
        }
    });
    Ok(())
}

fn spread_any(
    values: &mut [u8],
    w: usize,
    validity: &[u8],
    len: usize,
    valid: usize,
) -> Result<()> {
    check_count(validity, len, valid)?;
    back_to_front(validity, len, valid, |start, end, bits, mut next| {
        for s in (start..end).rev() {
            if (bits >> (s - start)) & 1 == 1 {
                next -= 1;
                values.copy_within(next * w..next * w + w, s * w);
            } else {
                values[s * w..s * w + w].fill(0);
            }
        }
        next
    });
    Ok(())
}

/// Turns the offsets of `valid` dense values (`valid + 1` entries at the start of `offsets`)
/// into offsets of `len` slots in place, a null slot repeating the offset before it. `offsets`
/// must hold `len + 1` entries.
///
/// ```
/// use quiver_parquet::levels::spread::spread_offsets;
/// let mut o = [0i32, 2, 5, 0, 0];
/// spread_offsets(&mut o, &[0b1010], 4, 2).unwrap();
/// assert_eq!(o, [0, 0, 2, 2, 5]);
/// ```
pub fn spread_offsets<O: Copy>(
    offsets: &mut [O],
    validity: &[u8],
    len: usize,
    valid: usize,
) -> Result<()> {
    if offsets.len() != len + 1 || validity.len() * 8 < len || valid > len {
        return Err(Error::invalid(format!(
            "spread_offsets: {} offsets for {len} slots, {} validity bytes, {valid} valid",
            offsets.len(),
            validity.len()
        )));
    }
    check_count(validity, len, valid)?;
    // Slot `i` ends at offsets[i + 1]; walking back, each slot ends where the next dense value
    // not yet placed ends, and a valid slot consumes it.
    back_to_front(validity, len, valid, |start, end, bits, mut next| {
        let n = end - start;
        if bits == low(n) {
            offsets.copy_within(next - n + 1..next + 1, start + 1);
            next - n
        } else if bits == 0 {
            let o = offsets[next];
            offsets[start + 1..end + 1].fill(o);
            next
        } else {
            for s in (start..end).rev() {
                offsets[s + 1] = offsets[next];
                next -= ((bits >> (s - start)) & 1) as usize;
            }
            next
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::test_util::Rng;

    /// Spreads random dense values of `width` bytes over the slots whose `bits` are set and
    /// asserts the result is the oracle's (each valid slot its value in order, null slots
    /// zero); returns the validity bitmap and the valid count.
    fn assert_spreads_fixed(bits: &[bool], width: usize, rng: &mut Rng) -> (Vec<u8>, usize) {
        let len = bits.len();
        let mut validity = vec![0u8; len.div_ceil(8)];
        for (i, &b) in bits.iter().enumerate() {
            validity[i / 8] |= u8::from(b) << (i % 8);
        }
        let valid = bits.iter().filter(|&&b| b).count();
        let dense: Vec<u8> = (0..valid * width).map(|_| rng.next() as u8 | 1).collect();
        let mut want = vec![0u8; len * width];
        let mut j = 0;
        for (i, &b) in bits.iter().enumerate() {
            if b {
                want[i * width..(i + 1) * width]
                    .copy_from_slice(&dense[j * width..(j + 1) * width]);
                j += 1;
            }
        }
        let mut got = vec![0xEEu8; len * width];
        got[..dense.len()].copy_from_slice(&dense);
        spread_fixed(&mut got, width, &validity, len, valid).unwrap();
        let share = valid * 1000 / len.max(1);
        assert_eq!(got, want, "width {width}, {share}‰ of {len} slots valid");
        (validity, valid)
    }

    #[test]
    fn spreads_match_the_oracle() {
        let mut rng = Rng::new(41);
        for width in [1usize, 2, 3, 4, 8, 12, 16] {
            for _ in 0..40 {
                let len = rng.below(700) as usize;
                let density = rng.below(11);
                let bits: Vec<bool> = (0..len).map(|_| rng.below(10) < density).collect();
                let (validity, valid) = assert_spreads_fixed(&bits, width, &mut rng);

                // Offsets: dense lengths 0..=3.
                let lens: Vec<i64> = (0..valid).map(|_| rng.below(4) as i64).collect();
                let mut offsets = vec![-1i64; len + 1];
                offsets[0] = 0;
                for (k, l) in lens.iter().enumerate() {
                    offsets[k + 1] = offsets[k] + l;
                }
                let mut want = vec![0i64];
                let mut k = 0;
                for &b in &bits {
                    let last = *want.last().unwrap();
                    want.push(if b {
                        k += 1;
                        last + lens[k - 1]
                    } else {
                        last
                    });
                }
                spread_offsets(&mut offsets, &validity, len, valid).unwrap();
                assert_eq!(offsets, want);
            }
        }
        // Sparse nulls and sparse values (words of a few runs, spread a run at a time), and
        // dense alternation, at widths with and without their own kernel.
        for width in [1usize, 8, 12] {
            for per_mille in [0u64, 10, 30, 500, 970, 990, 1000] {
                let len = 64 * 9 + rng.below(64) as usize;
                let bits: Vec<bool> = (0..len).map(|_| rng.below(1000) < per_mille).collect();
                assert_spreads_fixed(&bits, width, &mut rng);
            }
        }
        // Validity promising more values than there are.
        assert!(spread_fixed(&mut [1, 0], 1, &[0b11], 2, 1).is_err());
        assert!(spread_offsets(&mut [0i32, 1, 0], &[0b11], 2, 1).is_err());
        // Fewer valid slots than values (one would be dropped).
        assert!(spread_fixed(&mut [1, 2], 1, &[0b01], 2, 2).is_err());
        assert!(spread_offsets(&mut [0i32, 1, 2], &[0b01], 2, 2).is_err());
        // Bits past `len` do not count.
        assert!(spread_fixed(&mut [1, 0], 1, &[0b101], 2, 1).is_ok());
    }
}
