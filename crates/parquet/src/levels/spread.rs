//! Spreading dense values over their slots. Parquet stores only the non-null values of a page;
//! Arrow keeps a slot for every value, null or not. Values are decoded densely at the front of
//! the output and then moved, back to front and in place, to their slots (null slots zeroed);
//! the moving stops as soon as every slot before is valid.

use quiver_arrow::{Error, Result};

#[inline(always)]
fn bit(bits: &[u8], i: usize) -> bool {
    bits[i / 8] >> (i % 8) & 1 == 1
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

fn spread<const W: usize>(
    values: &mut [u8],
    validity: &[u8],
    len: usize,
    valid: usize,
) -> Result<()> {
    let mut next = valid; // values not yet placed: [0, next)
    let mut slot = len;
    while slot > next {
        slot -= 1;
        if bit(validity, slot) {
            if next == 0 {
                return Err(count_error());
            }
            next -= 1;
            let (head, tail) = values.split_at_mut(slot * W);
            tail[..W].copy_from_slice(&head[next * W..next * W + W]);
        } else {
            values[slot * W..slot * W + W].fill(0);
        }
    }
    Ok(())
}

fn spread_any(
    values: &mut [u8],
    w: usize,
    validity: &[u8],
    len: usize,
    valid: usize,
) -> Result<()> {
    let mut next = valid;
    let mut slot = len;
    while slot > next {
        slot -= 1;
        if bit(validity, slot) {
            if next == 0 {
                return Err(count_error());
            }
            next -= 1;
            values.copy_within(next * w..next * w + w, slot * w);
        } else {
            values[slot * w..slot * w + w].fill(0);
        }
    }
    Ok(())
}

fn count_error() -> Error {
    Error::oos("more valid slots than decoded values")
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
    // Slot `i` ends at offsets[i + 1]; walk back, each valid slot taking the next dense end.
    let mut next = valid; // dense ends not yet placed: offsets[1..=next]
    let mut slot = len;
    while slot > next {
        slot -= 1;
        if bit(validity, slot) {
            if next == 0 {
                return Err(count_error());
            }
            offsets[slot + 1] = offsets[next];
            next -= 1;
        } else {
            offsets[slot + 1] = offsets[next];
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::test_util::Rng;

    #[test]
    fn spreads_match_the_oracle() {
        let mut rng = Rng::new(41);
        for width in [1usize, 2, 3, 4, 8, 12, 16] {
            for _ in 0..40 {
                let len = rng.below(300) as usize;
                let density = rng.below(11);
                let bits: Vec<bool> = (0..len).map(|_| rng.below(10) < density).collect();
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
                assert_eq!(got, want, "width {width}");

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
        // Validity promising more values than there are.
        assert!(spread_fixed(&mut [1, 0], 1, &[0b11], 2, 1).is_err());
        assert!(spread_offsets(&mut [0i32, 1, 0], &[0b11], 2, 1).is_err());
    }
}
