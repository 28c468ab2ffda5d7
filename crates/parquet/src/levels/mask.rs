//! Level entries 64 at a time as bit masks, and the bit operations record assembly needs on
//! them: comparing a block of levels against a level in a few vector instructions (no branch
//! or shift per entry), and compressing the bits of selected entries together (`pext`).

/// Entries per block: one bit of a `u64` each.
pub const BLOCK: usize = 64;

/// Bit `j` set where `levels[j] >= level`.
///
/// Written so that the compiler vectorizes it on the baseline target (compare 16-bit lanes,
/// pack to bytes, then eight multiplies gather the eight byte-bits of a word), not as a shift
/// and an or per entry.
///
/// ```
/// use quiver_parquet::levels::mask::ge_mask;
/// let mut levels = [0i16; 64];
/// levels[3] = 2;
/// levels[63] = 1;
/// assert_eq!(ge_mask(&levels, 1), 1 << 3 | 1 << 63);
/// assert_eq!(ge_mask(&levels, 2), 1 << 3);
/// ```
#[inline(always)]
pub fn ge_mask(levels: &[i16; BLOCK], level: i16) -> u64 {
    let mut bytes = [0u8; BLOCK];
    for (b, &l) in bytes.iter_mut().zip(levels) {
        *b = u8::from(l >= level);
    }
    let mut mask = 0u64;
    for (k, eight) in bytes.chunks_exact(8).enumerate() {
        let mut w = [0u8; 8];
        w.copy_from_slice(eight);
        // The multiplier's bit `56 - 7 i` moves byte `i`'s bit (at `8 i`) to bit `56 + i`;
        // every partial product lands on a bit of its own (no carries), and no other reaches
        // the top byte, which so holds the eight bits in order.
        let bits = u64::from_le_bytes(w).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        mask |= bits << (8 * k);
    }
    mask
}

/// The tail of fewer than [`BLOCK`] levels as a whole block, padded with zeros (callers mask
/// the padding off by the tail's length).
#[inline(always)]
pub fn padded(tail: &[i16]) -> [i16; BLOCK] {
    let mut block = [0i16; BLOCK];
    block[..tail.len()].copy_from_slice(tail);
    block
}

/// `levels` as whole blocks and the shorter tail after them.
#[inline(always)]
pub fn split_blocks(levels: &[i16]) -> (impl Iterator<Item = &[i16; BLOCK]>, &[i16]) {
    let chunks = levels.chunks_exact(BLOCK);
    let tail = chunks.remainder();
    // Every chunk has BLOCK entries, so the conversion always succeeds.
    (chunks.filter_map(|c| c.try_into().ok()), tail)
}

/// The low `n` bits set (`n <= 64`).
#[inline(always)]
pub fn low(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// How the bits of `x` selected by `m` are packed together at the bottom (BMI2's `pext`):
/// a portable loop, or the instruction where the processor has it.
pub trait Compress: Copy {
    /// The bits of `x` at the set positions of `m`, in order, at the bottom of the result.
    fn compress(self, x: u64, m: u64) -> u64;
}

/// [`Compress`] without special instructions: a loop over whichever of `m`'s set or clear bits
/// are fewer (a block of level entries is usually nearly all one or the other).
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

impl Compress for Portable {
    #[inline(always)]
    fn compress(self, x: u64, m: u64) -> u64 {
        if m == u64::MAX {
            return x;
        }
        let ones = m.count_ones();
        if ones <= 32 {
            // Gather the selected bits one by one.
            let (mut out, mut k, mut rest) = (0u64, 0u32, m);
            while rest != 0 {
                let p = rest.trailing_zeros();
                out |= ((x >> p) & 1) << k;
                k += 1;
                rest &= rest - 1;
            }
            out
        } else {
            // Squeeze out the unselected bits, the highest first so that lower positions stay
            // where they are.
            let (mut out, mut holes) = (x & m, !m);
            while holes != 0 {
                let p = 63 - holes.leading_zeros();
                let below = out & low(p as usize);
                out = below | ((out >> p >> 1) << p);
                holes &= !(1u64 << p);
            }
            out
        }
    }
}

/// [`Compress`] by the `pext` instruction: a value exists only where the processor has BMI2
/// ([`Bmi2::detect`]).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Bmi2(());

#[cfg(target_arch = "x86_64")]
impl Bmi2 {
    /// The token, if this processor has BMI1, BMI2 and POPCNT.
    pub fn detect() -> Option<Bmi2> {
        (std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt"))
        .then_some(Bmi2(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Compress for Bmi2 {
    #[inline(always)]
    fn compress(self, x: u64, m: u64) -> u64 {
        // SAFETY: a `Bmi2` is made only by `Bmi2::detect`, after the processor was found to
        // have BMI2, so the instruction exists.
        unsafe { std::arch::x86_64::_pext_u64(x, m) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::test_util::Rng;

    fn naive_compress(x: u64, m: u64) -> u64 {
        let mut out = 0;
        let mut k = 0;
        for p in 0..64 {
            if m >> p & 1 == 1 {
                out |= (x >> p & 1) << k;
                k += 1;
            }
        }
        out
    }

    #[test]
    fn ge_mask_matches_a_loop() {
        let mut rng = Rng::new(3);
        for _ in 0..500 {
            let levels: [i16; BLOCK] = std::array::from_fn(|_| rng.below(5) as i16);
            for level in 0..6 {
                let want = (0..BLOCK).fold(0u64, |m, j| m | u64::from(levels[j] >= level) << j);
                assert_eq!(ge_mask(&levels, level), want);
            }
        }
    }

    #[test]
    fn compress_matches_a_loop_at_every_density() {
        let mut rng = Rng::new(4);
        let bmi2 = detect_bmi2();
        for density in 0..=64u64 {
            for _ in 0..50 {
                let x = rng.next();
                let m = (0..64).fold(0u64, |m, p| m | u64::from(rng.below(64) < density) << p);
                let want = naive_compress(x, m);
                assert_eq!(Portable.compress(x, m), want, "{x:#x} {m:#x}");
                if let Some(b) = bmi2 {
                    assert_eq!(b.compress(x, m), want, "{x:#x} {m:#x}");
                }
            }
        }
        assert_eq!(Portable.compress(0b1011, u64::MAX), 0b1011);
        assert_eq!(Portable.compress(u64::MAX, 0), 0);
    }

    #[cfg(target_arch = "x86_64")]
    fn detect_bmi2() -> Option<Bmi2> {
        Bmi2::detect()
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn detect_bmi2() -> Option<Portable> {
        None
    }
}
