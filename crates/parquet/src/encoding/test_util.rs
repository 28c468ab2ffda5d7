//! Test oracles shared by the encoding tests: a fixed-seed generator and naive encoders written
//! straight from `Encodings.md`, bit by bit.

use super::varint::{to_zigzag, write_uleb128};

/// A xorshift generator with a fixed seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// `n` pseudo-random bytes: the low byte of each of [`Rng::new`]`(seed)`'s numbers.
pub fn noise(seed: u64, n: usize) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| rng.next() as u8).collect()
}

/// Packs `values` at `width` bits each, least significant bit first, padded to whole groups of 8.
pub fn pack_naive(values: &[u64], width: u32) -> Vec<u8> {
    let n = values.len().div_ceil(8) * 8;
    let mut out = vec![0u8; n * width as usize / 8];
    for (i, &v) in values.iter().enumerate() {
        for b in 0..width as usize {
            if v >> b & 1 == 1 {
                let bit = i * width as usize + b;
                out[bit / 8] |= 1 << (bit % 8);
            }
        }
    }
    out
}

/// A DELTA_BINARY_PACKED stream of `values` (as 64-bit wrapping deltas), the minimal width per
/// miniblock, and the last miniblock padded to full size as the spec asks.
pub fn delta_naive(values: &[i64], block: usize, miniblocks: usize) -> Vec<u8> {
    // Widths of absent miniblocks are arbitrary: write garbage to prove they are ignored.
    delta_naive_absent(values, block, miniblocks, 0xEE)
}

/// [`delta_naive`] with `absent` as the bit width of the miniblocks after the last value.
pub fn delta_naive_absent(values: &[i64], block: usize, miniblocks: usize, absent: u8) -> Vec<u8> {
    let mut out = Vec::new();
    write_uleb128(&mut out, block as u64);
    write_uleb128(&mut out, miniblocks as u64);
    write_uleb128(&mut out, values.len() as u64);
    write_uleb128(&mut out, to_zigzag(values.first().copied().unwrap_or(0)));
    let deltas: Vec<i64> = values.windows(2).map(|w| w[1].wrapping_sub(w[0])).collect();
    let per_mini = block / miniblocks;
    for chunk in deltas.chunks(block) {
        let min = *chunk.iter().min().unwrap(); // ok: `chunks` yields no empty chunk (test code)
        write_uleb128(&mut out, to_zigzag(min));
        let rel: Vec<u64> = chunk.iter().map(|&d| d.wrapping_sub(min) as u64).collect();
        let minis: Vec<&[u64]> = rel.chunks(per_mini).collect();
        let widths: Vec<u32> = minis
            .iter()
            .map(|m| 64 - m.iter().fold(0u64, |a, &b| a | b).leading_zeros())
            .collect();
        for m in 0..miniblocks {
            out.push(widths.get(m).map_or(absent, |&w| w as u8));
        }
        for (m, w) in minis.iter().zip(&widths) {
            let mut padded = m.to_vec();
            padded.resize(per_mini, 0);
            out.extend(pack_naive(&padded, *w));
        }
    }
    out
}
