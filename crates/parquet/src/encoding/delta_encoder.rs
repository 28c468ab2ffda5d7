//! The write side of DELTA_BINARY_PACKED (Parquet `Encodings.md`): INT32 and INT64 values as a
//! first value and bit-packed deltas; [`delta::decode`](super::delta::decode) reads it.
//!
//! Blocks hold 4 miniblocks: 128 deltas (miniblocks of 32) for INT32 and 256 (miniblocks of 64)
//! for INT64, the sizes Arrow C++ (pyarrow) writes (parquet-mr: 128 for both). Each block stores its smallest delta (zigzag ULEB128), one bit width per miniblock (the fewest bits
//! holding every delta minus the smallest in that miniblock), then the miniblocks, the last one
//! padded with zeros to 32 values. Miniblocks after the last value get width 0 and no bytes.
//! Deltas wrap in the values' own width (INT32 deltas in 32 bits), so any values encode, and
//! an INT32 miniblock is never wider than 32 bits; this is what Arrow C++ writes, byte for byte.

use super::bitpack::{pack32, pack64};
use super::varint::{to_zigzag, write_uleb128};

/// Miniblocks per block.
pub const MINIBLOCKS: usize = 4;
/// The largest block (INT64's).
const MAX_BLOCK: usize = 256;

/// Appends the DELTA_BINARY_PACKED stream of `values` to `out`.
///
/// ```
/// use quiver_parquet::encoding::delta_encoder::encode_i32;
/// let mut out = vec![];
/// encode_i32(&[7, 5, 3], &mut out);
/// // Header: block 128 (80 01), 4 miniblocks, 3 values, first 7 (zigzag 14); one block: min
/// // delta -2 (zigzag 3), widths 0 (the deltas minus the min are all 0), no miniblock bytes.
/// assert_eq!(out, [0x80, 0x01, 4, 3, 14, 3, 0, 0, 0, 0]);
/// ```
pub fn encode_i32(values: &[i32], out: &mut Vec<u8>) {
    encode(values, out);
}

/// Appends the DELTA_BINARY_PACKED stream of `values` to `out`; as [`encode_i32`].
pub fn encode_i64(values: &[i64], out: &mut Vec<u8>) {
    encode(values, out);
}

/// An integer DELTA_BINARY_PACKED encodes, with its unsigned twin for wrapping and packing.
trait DeltaValue: Copy + Ord + Default {
    type U: Copy + Default + std::ops::BitOr<Output = Self::U>;
    /// Deltas per block.
    const BLOCK: usize;
    fn wrapping_sub(self, other: Self) -> Self;
    /// `self - min` wrapped, as unsigned (non-negative when `min <= self`).
    fn offset_from(self, min: Self) -> Self::U;
    fn zigzag(self) -> u64;
    /// The fewest bits that hold `u`.
    fn bits(u: Self::U) -> u32;
    fn pack(values: &[Self::U], width: u32, out: &mut Vec<u8>);
}

macro_rules! delta_value {
    ($t:ty, $u:ty, $block:literal, $pack:ident) => {
        impl DeltaValue for $t {
            type U = $u;
            const BLOCK: usize = $block;
            #[inline(always)]
            fn wrapping_sub(self, other: Self) -> Self {
                <$t>::wrapping_sub(self, other)
            }
            #[inline(always)]
            fn offset_from(self, min: Self) -> $u {
                (self as $u).wrapping_sub(min as $u)
            }
            #[inline(always)]
            fn zigzag(self) -> u64 {
                to_zigzag(i64::from(self))
            }
            #[inline(always)]
            fn bits(u: $u) -> u32 {
                <$u>::BITS - u.leading_zeros()
            }
            fn pack(values: &[$u], width: u32, out: &mut Vec<u8>) {
                $pack(values, width, out)
            }
        }
    };
}
delta_value!(i32, u32, 128, pack32);
delta_value!(i64, u64, 256, pack64);

fn encode<T: DeltaValue>(values: &[T], out: &mut Vec<u8>) {
    write_uleb128(out, T::BLOCK as u64);
    write_uleb128(out, MINIBLOCKS as u64);
    write_uleb128(out, values.len() as u64);
    write_uleb128(out, values.first().map_or(0, |v| v.zigzag()));
    let mut deltas = [T::default(); MAX_BLOCK];
    let mut packed = [T::U::default(); MAX_BLOCK];
    let (deltas, packed) = (&mut deltas[..T::BLOCK], &mut packed[..T::BLOCK]);
    // Block k holds the deltas into values[1 + k * BLOCK ..]; its values start one earlier.
    for start in (1..values.len()).step_by(T::BLOCK) {
        let block = &values[start - 1..values.len().min(start + T::BLOCK)];
        let n = block.len() - 1;
        for (d, w) in deltas.iter_mut().zip(block.windows(2)) {
            *d = w[1].wrapping_sub(w[0]);
        }
        write_block(&deltas[..n], packed, out);
    }
}

/// Writes one block of `deltas` (1 to `T::BLOCK` of them); `packed` is `T::BLOCK` of scratch.
fn write_block<T: DeltaValue>(deltas: &[T], packed: &mut [T::U], out: &mut Vec<u8>) {
    let mini = T::BLOCK / MINIBLOCKS;
    let min = deltas.iter().copied().min().unwrap_or_default();
    write_uleb128(out, min.zigzag());
    let used = deltas.len().div_ceil(mini);
    packed.fill(T::U::default());
    for (p, &d) in packed.iter_mut().zip(deltas) {
        *p = d.offset_from(min);
    }
    let mut widths = [0u8; MINIBLOCKS];
    for (w, mini) in widths.iter_mut().zip(packed.chunks_exact(mini)).take(used) {
        let all = mini.iter().fold(T::U::default(), |a, &b| a | b);
        *w = T::bits(all) as u8;
    }
    out.extend_from_slice(&widths);
    for (&w, values) in widths.iter().zip(packed.chunks_exact(mini)).take(used) {
        T::pack(values, u32::from(w), out);
    }
}

#[cfg(test)]
mod tests;
