//! Definition and repetition levels: decoding them from a page, turning a flat column's
//! definition levels straight into validity ([`validity`]), and assembling nested structure —
//! validity per optional node and offsets per repeated node — from the levels of one leaf
//! ([`assemble`]).
//!
//! Nothing here knows Arrow arrays; the Arrow layer maps the path's nodes onto list and struct
//! arrays.

pub mod assemble;
pub mod mask;
#[cfg(test)]
pub(crate) mod oracle;
pub mod spread;
pub mod validity;

use crate::encoding::plain::bit_packed_msb;
use crate::encoding::rle::RleDecoder;
use quiver_arrow::{Error, Result};

/// The bit width of levels whose maximum is `max_level` (0 for a maximum of 0).
///
/// ```
/// use quiver_parquet::levels::level_width;
/// assert_eq!([0, 1, 2, 3, 4, 255].map(level_width), [0, 1, 2, 2, 3, 8]);
/// ```
pub fn level_width(max_level: i16) -> u32 {
    16 - (max_level.max(0) as u16).leading_zeros()
}

/// How a page stores one kind of levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LevelEncoding {
    /// The RLE / bit-packed hybrid (data page v1: after a 4-byte little-endian length; v2:
    /// the length is in the page header).
    Rle,
    /// The deprecated BIT_PACKED encoding (v1 only; `ceil(n * width / 8)` bytes, no prefix).
    BitPacked,
}

/// Splits a data page v1 body into its levels and the rest: returns the bytes of the levels
/// (without the length prefix) and the bytes after them.
pub fn split_v1(
    body: &[u8],
    encoding: LevelEncoding,
    max_level: i16,
    num_values: usize,
) -> Result<(&[u8], &[u8])> {
    if max_level == 0 {
        return Ok((&[], body));
    }
    let (start, len) = match encoding {
        LevelEncoding::Rle => {
            let Some(prefix) = body.first_chunk::<4>() else {
                return Err(Error::oos(format!(
                    "page of {} bytes ends inside its levels' length",
                    body.len()
                )));
            };
            (4, u32::from_le_bytes(*prefix) as usize)
        }
        LevelEncoding::BitPacked => {
            let bits = num_values as u128 * level_width(max_level) as u128;
            (0, usize::try_from(bits.div_ceil(8)).unwrap_or(usize::MAX))
        }
    };
    match body.get(start..).and_then(|b| b.get(..len)) {
        Some(levels) => Ok((levels, &body[start + len..])),
        None => Err(Error::oos(format!(
            "levels of {len} bytes run past the page's {} bytes",
            body.len()
        ))),
    }
}

/// Decodes `out.len()` levels (each at most `max_level`) from `levels`, the bytes
/// [`split_v1`] or a v2 header delimits.
pub fn decode(
    levels: &[u8],
    encoding: LevelEncoding,
    max_level: i16,
    out: &mut [i16],
) -> Result<()> {
    if max_level == 0 {
        out.fill(0);
        return Ok(());
    }
    let width = level_width(max_level);
    let mut scratch = [0u32; 256];
    match encoding {
        LevelEncoding::Rle => {
            let mut d = RleDecoder::new(levels, width)?;
            decode_rle(&mut d, max_level, out).map_err(|e| {
                e.context(format!(
                    "{} bytes of levels for {} values",
                    levels.len(),
                    out.len()
                ))
            })?;
        }
        LevelEncoding::BitPacked => {
            let mut at = 0;
            for chunk in out.chunks_mut(scratch.len()) {
                // Chunks of 256 levels start on byte boundaries (256 * width bits).
                let used = bit_packed_msb(
                    &levels[at.min(levels.len())..],
                    width,
                    &mut scratch[..chunk.len()],
                )?;
                at += used;
                narrow(&scratch[..chunk.len()], max_level, chunk)?;
            }
        }
    }
    Ok(())
}

/// Decodes the next `out.len()` levels (each at most `max_level`) from the RLE / bit-packed
/// stream `d`, which may be part-way through (a page decoded a batch at a time); fewer levels
/// left in the stream is an error.
pub fn decode_rle(d: &mut RleDecoder, max_level: i16, out: &mut [i16]) -> Result<()> {
    let mut scratch = [0u32; 256];
    let mut done = 0;
    while done < out.len() {
        let Some((repeated, n)) = d.next_chunk(out.len() - done, &mut scratch)? else {
            return Err(Error::oos(format!(
                "levels end early, after {done} of {}",
                out.len()
            )));
        };
        let chunk = &mut out[done..done + n];
        match repeated {
            // A run of one level is checked once and filled in place.
            Some(level) if level > max_level as u32 => {
                return Err(Error::oos(format!(
                    "level {level} is above the maximum {max_level}"
                )));
            }
            Some(level) => chunk.fill(level as i16),
            None => narrow(&scratch[..n], max_level, chunk)?,
        }
        done += n;
    }
    Ok(())
}

/// Copies levels to `i16`, failing on one above `max_level`.
fn narrow(src: &[u32], max_level: i16, out: &mut [i16]) -> Result<()> {
    let max = src.iter().copied().max().unwrap_or(0);
    if max > max_level as u32 {
        return Err(Error::oos(format!(
            "level {max} is above the maximum {max_level}"
        )));
    }
    for (o, &v) in out.iter_mut().zip(src) {
        *o = v as i16;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
