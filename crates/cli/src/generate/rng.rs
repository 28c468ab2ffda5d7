//! Random numbers: SplitMix64.

/// The SplitMix64 increment (2^64 / golden ratio, odd).
pub(super) const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// The SplitMix64 / MurmurHash3 finaliser: a bijective, well-mixing function of 64 bits.
#[inline]
pub(super) fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// SplitMix64 (Steele, Lea and Flood, 2014): tiny, fast, and good enough for test data.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rng(pub(super) u64);

impl Rng {
    /// The stream of row `row` under `key`; distinct rows get distinct starting states.
    #[inline]
    pub(super) fn for_row(key: u64, row: u64) -> Self {
        Rng(mix64(key ^ row.wrapping_mul(GAMMA)))
    }

    #[inline]
    pub(super) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        mix64(self.0)
    }

    /// Uniform in `0..n` (multiply-high; the bias is below 2^-40 for our ranges).
    #[inline]
    pub(super) fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// Uniform in `lo..=hi`.
    #[inline]
    pub(super) fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    /// True with probability `1 / n`.
    #[inline]
    pub(super) fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }

    /// Uniform in `[0, 1)` with 53 random bits.
    #[inline]
    pub(super) fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniformly chosen entry of a non-empty table.
    #[inline]
    pub(super) fn pick(&mut self, table: &[&'static str]) -> &'static str {
        let i = self.below(table.len() as u64) as usize;
        table.get(i).copied().unwrap_or_default()
    }
}
