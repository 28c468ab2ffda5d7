//! DELTA_BINARY_PACKED (Parquet `Encodings.md`): INT32 and INT64 values as a first value and
//! bit-packed deltas.
//!
//! Layout: a header `<block size> <miniblocks per block> <total values> <first value>` (ULEB128,
//! the first value zigzag), then blocks of `<min delta (zigzag)> <one bit width byte per
//! miniblock> <miniblocks>`; each miniblock holds `block size / miniblocks` deltas minus the min
//! delta, bit-packed at its width. Miniblocks after the last value are absent (their width bytes
//! are present and meaningless). Arithmetic wraps, so decoding in 64 bits and truncating is exact
//! for INT32 too.

use super::bitpack::unpack64;
use super::varint::{uleb128, zigzag};
use quiver_arrow::buffer::MutableBuffer;
use quiver_arrow::{Error, Result};

/// A value type DELTA_BINARY_PACKED decodes to: the low bits of the 64-bit running sum.
pub trait DeltaInt: bytemuck::Pod {
    /// Truncates the wrapped 64-bit sum.
    fn from_wrapped(v: u64) -> Self;
}

impl DeltaInt for i32 {
    #[inline(always)]
    fn from_wrapped(v: u64) -> Self {
        v as u32 as i32
    }
}

impl DeltaInt for i64 {
    #[inline(always)]
    fn from_wrapped(v: u64) -> Self {
        v as i64
    }
}

/// What [`decode`] read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decoded {
    /// Values appended.
    pub values: usize,
    /// Bytes of the input the stream took (the next stream of DELTA_BYTE_ARRAY starts here).
    pub bytes: usize,
}

struct Reader<'a> {
    src: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn varint(&mut self, what: &str) -> Result<u64> {
        let (v, n) = uleb128(&self.src[self.pos.min(self.src.len())..])
            .map_err(|e| e.context(format!("DELTA_BINARY_PACKED {what} at byte {}", self.pos)))?;
        self.pos += n;
        Ok(v)
    }
}

/// Decodes one whole DELTA_BINARY_PACKED stream at the start of `src`, appending its values
/// as `T` to `out`.
///
/// `max_values` bounds the header's value count (the page's value count): more is an error,
/// so a corrupt header cannot ask for memory the page does not justify.
///
/// ```
/// use quiver_arrow::buffer::MutableBuffer;
/// use quiver_parquet::encoding::delta;
/// // Blocks of 128 values (ULEB128 `80 01`) in 4 miniblocks; 3 values, the first 7 (zigzag 14);
/// // deltas -2, -2: min delta -2 (zigzag 3), packed deltas all zero at width 0.
/// let stream = [0x80, 0x01, 4, 3, 14, 3, 0, 0, 0, 0];
/// let mut out = MutableBuffer::new();
/// let d = delta::decode::<i32>(&stream, 3, &mut out).unwrap();
/// assert_eq!((d.values, d.bytes), (3, 10));
/// assert_eq!(out.typed::<i32>(), &[7, 5, 3]);
/// ```
pub fn decode<T: DeltaInt>(
    src: &[u8],
    max_values: usize,
    out: &mut MutableBuffer,
) -> Result<Decoded> {
    let mut r = Reader { src, pos: 0 };
    let block_size = r.varint("block size")?;
    let miniblocks = r.varint("miniblock count")?;
    let total = r.varint("value count")?;
    let first = zigzag(r.varint("first value")?) as u64;
    if block_size == 0 || block_size % 128 != 0 || block_size > 1 << 30 {
        return Err(Error::oos(format!(
            "DELTA_BINARY_PACKED block size {block_size} is not a positive multiple of 128"
        )));
    }
    if miniblocks == 0 || block_size % miniblocks != 0 || (block_size / miniblocks) % 32 != 0 {
        return Err(Error::oos(format!(
            "DELTA_BINARY_PACKED: {miniblocks} miniblocks do not split a block of {block_size} \
             values into multiples of 32"
        )));
    }
    if total > max_values as u64 {
        return Err(Error::oos(format!(
            "DELTA_BINARY_PACKED header declares {total} values, more than the {max_values} expected"
        )));
    }
    let total = total as usize;
    let per_mini = (block_size / miniblocks) as usize;
    let miniblocks = miniblocks as usize;
    if total == 0 {
        return Ok(Decoded {
            values: 0,
            bytes: r.pos,
        });
    }
    out.extend_from_slice(&[T::from_wrapped(first)]);
    let mut last = first;
    let mut left = total - 1;
    let mut scratch = vec![0u64; per_mini.min(left.div_ceil(8) * 8)];
    while left > 0 {
        let min_delta = zigzag(r.varint("min delta")?) as u64;
        let widths_at = r.pos;
        let Some(widths) = src.get(widths_at..widths_at + miniblocks) else {
            return Err(Error::oos(format!(
                "DELTA_BINARY_PACKED block at byte {widths_at} ends inside its {miniblocks} bit widths"
            )));
        };
        r.pos += miniblocks;
        for (m, &width) in widths.iter().enumerate() {
            if left == 0 {
                break;
            }
            if width > 64 {
                return Err(Error::oos(format!(
                    "DELTA_BINARY_PACKED miniblock {m} at byte {} has bit width {width}",
                    r.pos
                )));
            }
            let n = per_mini.min(left);
            let full = per_mini * width as usize / 8;
            // The last miniblock should be padded to full size; accept it cut after its values.
            let need = (n * width as usize).div_ceil(8);
            let have = src.len().saturating_sub(r.pos);
            if have < need {
                return Err(Error::oos(format!(
                    "DELTA_BINARY_PACKED miniblock {m} at byte {} needs {need} bytes, {have} left",
                    r.pos
                )));
            }
            let rounded = n.div_ceil(8) * 8;
            let deltas = &mut scratch[..rounded];
            unpack64(&src[r.pos..r.pos + need], u32::from(width), deltas);
            r.pos += full.min(have);
            out.extend_from_exact_iter(deltas[..n].iter().map(|&d| {
                last = last.wrapping_add(min_delta).wrapping_add(d);
                T::from_wrapped(last)
            }));
            left -= n;
        }
    }
    Ok(Decoded {
        values: total,
        bytes: r.pos,
    })
}

#[cfg(test)]
mod tests;
