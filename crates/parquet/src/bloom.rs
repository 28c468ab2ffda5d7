//! The split-block Bloom filter of apache/parquet-format `BloomFilter.md`.
//!
//! The bitset is a sequence of 32-byte blocks, each eight 32-bit little-endian words. A value
//! is hashed with XXH64 (seed 0) over its PLAIN encoding without the length prefix
//! ([`hash_bytes`]); the hash's upper 32 bits pick a block (`((hash >> 32) * blocks) >> 32`)
//! and its lower 32 bits, multiplied by one salt per word, set one bit in each of the block's
//! eight words (`1 << ((key * SALT[i]) >> 27)`). In a file the bitset follows a
//! `BloomFilterHeader` (thrift compact: `numBytes`, `BLOCK`, `XXHASH`, `UNCOMPRESSED`) at
//! `ColumnMetaData.bloom_filter_offset`.

use crate::format::{BloomFilterHeader, BloomFilterVariant};
use crate::thrift::{CompactWriter, ThriftWrite};
use quiver_arrow::{Error, Result};
use std::fmt;

/// One block: eight 32-bit words, each stored little-endian (as in the file).
type Block = [u32; 8];

/// The bytes of a block.
const BLOCK_BYTES: usize = 32;

/// The smallest bitset [`Sbbf::new`] and [`Sbbf::optimal_num_bytes`] give: one block.
pub const MIN_BYTES: usize = BLOCK_BYTES;

/// The largest bitset [`Sbbf::new`] and [`Sbbf::optimal_num_bytes`] give: 128 MiB (the bound
/// parquet-mr and Arrow C++ use).
pub const MAX_BYTES: usize = 128 * 1024 * 1024;

/// The eight salts of `BloomFilter.md`, one per word of a block.
const SALT: [u32; 8] = [
    0x47b6_137b,
    0x4497_4d91,
    0x8824_ad5b,
    0xa2b7_289d,
    0x7054_95c7,
    0x2df1_424b,
    0x9efc_4947,
    0x5c6b_fb31,
];

/// A split-block Bloom filter: a whole number of 32-byte blocks.
#[derive(Clone, PartialEq, Eq)]
pub struct Sbbf {
    blocks: Vec<Block>,
}

impl fmt::Debug for Sbbf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sbbf")
            .field("num_bytes", &self.as_bytes().len())
            .finish()
    }
}

/// The bit each word of a block sets for `key` (the hash's lower 32 bits), as stored
/// (little-endian).
#[inline]
fn mask(key: u32) -> Block {
    SALT.map(|salt| (1u32 << (key.wrapping_mul(salt) >> 27)).to_le())
}

impl Sbbf {
    /// An empty filter of `num_bytes` rounded up to a power of two and clamped to
    /// [`MIN_BYTES`]`..=`[`MAX_BYTES`].
    pub fn new(num_bytes: usize) -> Self {
        let num_bytes = num_bytes.clamp(MIN_BYTES, MAX_BYTES).next_power_of_two();
        Sbbf {
            blocks: vec![[0; 8]; num_bytes / BLOCK_BYTES],
        }
    }

    /// The bitset size for `ndv` distinct values at false-positive probability `fpp`, as
    /// `BloomFilter.md` gives it and Arrow C++ computes it: `-8 * ndv / ln(1 - fpp^(1/8))`
    /// bits (truncated), rounded up to a power of two, in bytes, clamped to
    /// [`MIN_BYTES`]`..=`[`MAX_BYTES`]. An `fpp` of 1 or more needs the least, one of 0 or
    /// less (or NaN) the most.
    pub fn optimal_num_bytes(ndv: u64, fpp: f64) -> usize {
        if fpp.is_nan() || fpp <= 0.0 {
            return MAX_BYTES;
        }
        let bits = -8.0 * ndv as f64 / (1.0 - fpp.powf(0.125)).ln();
        // `as` truncates and saturates: NaN (an fpp over 1) and negatives become 0, huge
        // values usize::MAX.
        let bits = (bits as usize).clamp(MIN_BYTES * 8, MAX_BYTES * 8);
        bits.next_power_of_two() / 8
    }

    /// A filter over `bitset` (as stored in a file after the header): a positive whole number
    /// of 32-byte blocks.
    pub fn from_bytes(bitset: &[u8]) -> Result<Sbbf> {
        if bitset.is_empty() || bitset.len() % BLOCK_BYTES != 0 {
            return Err(Error::oos(format!(
                "Bloom filter bitset of {} bytes is not a positive multiple of {BLOCK_BYTES}",
                bitset.len()
            )));
        }
        let mut blocks = vec![[0u32; 8]; bitset.len() / BLOCK_BYTES];
        bytemuck::cast_slice_mut::<Block, u8>(&mut blocks).copy_from_slice(bitset);
        Ok(Sbbf { blocks })
    }

    /// The block `hash` falls in: its upper 32 bits scaled to the number of blocks.
    #[inline]
    fn block_index(&self, hash: u64) -> usize {
        // The product is below 2^32 * blocks, so the result is below the number of blocks.
        (((hash >> 32) * self.blocks.len() as u64) >> 32) as usize
    }

    /// Adds the value whose hash is `hash` ([`hash_bytes`]).
    #[inline]
    pub fn insert(&mut self, hash: u64) {
        let i = self.block_index(hash);
        let block = &mut self.blocks[i];
        for (word, bit) in block.iter_mut().zip(mask(hash as u32)) {
            *word |= bit;
        }
    }

    /// Whether the value whose hash is `hash` may have been inserted (false: it was not).
    #[inline]
    pub fn check(&self, hash: u64) -> bool {
        let block = &self.blocks[self.block_index(hash)];
        // Every word, without an early exit: the eight lanes vectorise where the target has
        // 32-bit vector multiplies and shifts (with AVX2 about 1-2 ns a check in a cached
        // filter, against 7 ns stopping at the first missing bit).
        let mut missing = 0;
        for (word, bit) in block.iter().zip(mask(hash as u32)) {
            missing |= bit & !word;
        }
        missing == 0
    }

    /// The filter folded to `num_bytes`: blocks `2j` and `2j + 1` of a filter twice the size
    /// OR-ed into block `j`, halving until the size is reached. Because a value's block is the
    /// top bits of its hash's upper half (`((hash >> 32) * blocks) >> 32` keeps the top
    /// `log2(blocks)` bits when `blocks` is a power of two) and its bits within the block come
    /// from the lower half, the result is exactly the filter the same values would have built
    /// at `num_bytes`. `None` unless both sizes are powers of two and `num_bytes` is at most the
    /// filter's size (and at least one block).
    pub fn fold_to(&self, num_bytes: usize) -> Option<Sbbf> {
        let from = self.blocks.len();
        let to = num_bytes / BLOCK_BYTES;
        if !from.is_power_of_two()
            || !to.is_power_of_two()
            || to > from
            || num_bytes % BLOCK_BYTES != 0
        {
            return None;
        }
        let factor = from / to;
        let mut blocks = vec![[0u32; 8]; to];
        for (j, out) in blocks.iter_mut().enumerate() {
            for b in &self.blocks[j * factor..(j + 1) * factor] {
                for (o, w) in out.iter_mut().zip(b) {
                    *o |= *w;
                }
            }
        }
        Some(Sbbf { blocks })
    }

    /// The union of `filters` (the filter of every value any of them holds): OR-ed as they are
    /// when all have one size, else each folded to the smallest one's size
    /// ([`Sbbf::fold_to`]), then OR-ed. `None` for no filters, or when sizes differ and one is
    /// not a power of two (folding would not give the same filter).
    pub fn union(filters: &[&Sbbf]) -> Option<Sbbf> {
        let bytes = filters.iter().map(|f| f.as_bytes().len()).min()?;
        let same = filters.iter().all(|f| f.as_bytes().len() == bytes);
        let mut out = match same {
            true => filters[0].clone(),
            false => filters[0].fold_to(bytes)?,
        };
        for f in &filters[1..] {
            let folded;
            let blocks = match same {
                true => &f.blocks,
                false => {
                    folded = f.fold_to(bytes)?;
                    &folded.blocks
                }
            };
            for (o, b) in out.blocks.iter_mut().zip(blocks) {
                for (w, x) in o.iter_mut().zip(b) {
                    *w |= *x;
                }
            }
        }
        Some(out)
    }

    /// The bitset as stored in a file (little-endian words).
    pub fn as_bytes(&self) -> &[u8] {
        bytemuck::cast_slice(&self.blocks)
    }

    /// The header this filter is stored under: its size, `BLOCK`, `XXHASH`, `UNCOMPRESSED`.
    pub fn header(&self) -> BloomFilterHeader {
        BloomFilterHeader {
            // At most MAX_BYTES (new) or a slice's length that fit the i32 it was read from.
            num_bytes: i32::try_from(self.as_bytes().len()).unwrap_or(i32::MAX),
            algorithm: BloomFilterVariant::Defined,
            hash: BloomFilterVariant::Defined,
            compression: BloomFilterVariant::Defined,
        }
    }

    /// Appends the filter as stored in a file: the `BloomFilterHeader` (thrift compact), then
    /// the bitset.
    pub fn write(&self, out: &mut Vec<u8>) {
        let mut w = CompactWriter::new();
        self.header().write(&mut w);
        out.reserve(w.as_bytes().len() + self.as_bytes().len());
        out.extend_from_slice(w.as_bytes());
        out.extend_from_slice(self.as_bytes());
    }

    /// Reads a filter stored at the start of `bytes` (a header, then the bitset); returns it
    /// and the bytes it took. The header must name the split-block algorithm, xxHash and no
    /// compression, and a bitset of a positive multiple of 32 bytes that `bytes` holds.
    pub fn read(bytes: &[u8]) -> Result<(Sbbf, usize)> {
        let (header, header_len) = BloomFilterHeader::decode(bytes)
            .map_err(|e| e.context("reading a Bloom filter header"))?;
        check_supported(&header)?;
        let len = usize::try_from(header.num_bytes)
            .ok()
            .filter(|&n| n > 0 && n % BLOCK_BYTES == 0)
            .ok_or_else(|| {
                Error::oos(format!(
                    "Bloom filter numBytes {} is not a positive multiple of {BLOCK_BYTES}",
                    header.num_bytes
                ))
            })?;
        let bitset = header_len
            .checked_add(len)
            .and_then(|end| bytes.get(header_len..end));
        let bitset = bitset.ok_or_else(|| {
            Error::oos(format!(
                "Bloom filter bitset of {len} bytes runs past the {} bytes after its {header_len}-byte header",
                bytes.len() - header_len
            ))
        })?;
        Ok((Sbbf::from_bytes(bitset)?, header_len + len))
    }
}

/// Checks that `header` names the one algorithm, hash and compression parquet.thrift defines.
fn check_supported(header: &BloomFilterHeader) -> Result<()> {
    for (what, name, variant) in [
        ("algorithm", "BLOCK", header.algorithm),
        ("hash", "XXHASH", header.hash),
        ("compression", "UNCOMPRESSED", header.compression),
    ] {
        if let BloomFilterVariant::Unknown(id) = variant {
            return Err(Error::not_supported(format!(
                "Bloom filter {what} with union field id {id} (only {name}, field 1, is defined)"
            )));
        }
    }
    Ok(())
}

/// The hash a Bloom filter stores for a value: XXH64 with seed 0 of the value's PLAIN encoding
/// without a length prefix (a byte array's bytes; a number's little-endian bytes).
#[inline]
pub fn hash_bytes(v: &[u8]) -> u64 {
    xxhash_rust::xxh64::xxh64(v, 0)
}

/// [`hash_bytes`] of an INT32 value's PLAIN encoding (4 bytes, little-endian).
#[inline]
pub fn hash_i32(v: i32) -> u64 {
    hash_bytes(&v.to_le_bytes())
}

/// [`hash_bytes`] of an INT64 value's PLAIN encoding (8 bytes, little-endian).
#[inline]
pub fn hash_i64(v: i64) -> u64 {
    hash_bytes(&v.to_le_bytes())
}

/// [`hash_bytes`] of a FLOAT value's PLAIN encoding (its IEEE 754 bits, little-endian: `-0.0`
/// and `0.0`, and NaNs of different payloads, hash differently).
#[inline]
pub fn hash_f32(v: f32) -> u64 {
    hash_bytes(&v.to_le_bytes())
}

/// [`hash_bytes`] of a DOUBLE value's PLAIN encoding (its IEEE 754 bits, little-endian).
#[inline]
pub fn hash_f64(v: f64) -> u64 {
    hash_bytes(&v.to_le_bytes())
}

#[cfg(test)]
mod tests;
