//! PLAIN fixed-width values and booleans, and the deprecated BIT_PACKED level encoding.
//!
//! PLAIN INT32/INT64/INT96/FLOAT/DOUBLE/FIXED_LEN_BYTE_ARRAY values are stored little-endian
//! back to back, which is already the Arrow layout: decoding is a bounds check and a copy (or a
//! zero-copy slice of the page).

use quiver_arrow::buffer::MutableBitmap;
use quiver_arrow::{Error, Result};

/// The `n * width` bytes of `n` PLAIN values of `width` bytes at the start of `src`.
///
/// ```
/// use quiver_parquet::encoding::plain::fixed;
/// let page = [1, 0, 0, 0, 2, 0, 0, 0, 9];
/// assert_eq!(fixed(&page, 4, 2).unwrap(), &page[..8]);
/// assert!(fixed(&page, 4, 3).is_err());
/// ```
pub fn fixed(src: &[u8], width: usize, n: usize) -> Result<&[u8]> {
    n.checked_mul(width)
        .and_then(|bytes| src.get(..bytes))
        .ok_or_else(|| {
            Error::oos(format!(
                "{n} PLAIN values of {width} bytes need {} bytes, the page has {}",
                n as u128 * width as u128,
                src.len()
            ))
        })
}

/// Appends `n` PLAIN booleans (one bit each, least significant first) from the start of `src`
/// to `out`; returns the bytes they took.
///
/// ```
/// use quiver_arrow::buffer::MutableBitmap;
/// use quiver_parquet::encoding::plain::booleans;
/// let mut bits = MutableBitmap::with_capacity(3);
/// assert_eq!(booleans(&[0b101], 3, &mut bits).unwrap(), 1);
/// assert_eq!((bits.get(0), bits.get(1), bits.get(2)), (true, false, true));
/// ```
pub fn booleans(src: &[u8], n: usize, out: &mut MutableBitmap) -> Result<usize> {
    let bytes = n.div_ceil(8);
    if src.len() < bytes {
        return Err(Error::oos(format!(
            "{n} PLAIN booleans need {bytes} bytes, the page has {}",
            src.len()
        )));
    }
    out.try_reserve(n)?;
    out.extend_from_bytes(src, 0, n);
    Ok(bytes)
}

/// Decodes `out.len()` values of `width` bits (`width <= 32`) in the deprecated BIT_PACKED
/// encoding (most significant bit first) from the start of `src`; returns the bytes they took.
///
/// ```
/// use quiver_parquet::encoding::plain::bit_packed_msb;
/// // 0..8 in 3 bits each, most significant bit first: 000 001 010 011 100 101 110 111.
/// let mut out = [0u32; 8];
/// assert_eq!(bit_packed_msb(&[0b0000_0101, 0b0011_1001, 0b0111_0111], 3, &mut out).unwrap(), 3);
/// assert_eq!(out, [0, 1, 2, 3, 4, 5, 6, 7]);
/// ```
pub fn bit_packed_msb(src: &[u8], width: u32, out: &mut [u32]) -> Result<usize> {
    if width > 32 {
        return Err(Error::oos(format!(
            "BIT_PACKED bit width {width} is over 32"
        )));
    }
    let w = width as usize;
    let bytes = (out.len() as u128 * w as u128).div_ceil(8);
    if (src.len() as u128) < bytes {
        return Err(Error::oos(format!(
            "{} BIT_PACKED values of {width} bits need {bytes} bytes, {} left",
            out.len(),
            src.len()
        )));
    }
    if w == 0 {
        out.fill(0);
        return Ok(0);
    }
    for (i, o) in out.iter_mut().enumerate() {
        let bit = i * w;
        let mut window = [0u8; 8];
        let have = &src[bit / 8..(bit / 8 + 8).min(src.len())];
        window[..have.len()].copy_from_slice(have);
        *o = ((u64::from_be_bytes(window) << (bit % 8)) >> (64 - w)) as u32;
    }
    Ok(bytes as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::test_util::Rng;

    #[test]
    fn bit_packed_msb_matches_the_oracle() {
        let mut rng = Rng::new(9);
        for width in 0..=32u32 {
            let n = rng.below(300) as usize;
            let values: Vec<u32> = (0..n)
                .map(|_| (rng.next() & ((1u64 << width) - 1)) as u32)
                .collect();
            // The oracle: each value's bits, most significant first, into a bit stream.
            let mut src = vec![0u8; (n * width as usize).div_ceil(8)];
            for (i, v) in values.iter().enumerate() {
                for b in 0..width as usize {
                    if v >> (width as usize - 1 - b) & 1 == 1 {
                        let bit = i * width as usize + b;
                        src[bit / 8] |= 0x80 >> (bit % 8);
                    }
                }
            }
            let mut out = vec![u32::MAX; n];
            assert_eq!(bit_packed_msb(&src, width, &mut out).unwrap(), src.len());
            assert_eq!(out, values, "width {width}");
            if !src.is_empty() {
                assert!(bit_packed_msb(&src[..src.len() - 1], width, &mut out).is_err());
            }
        }
    }

    #[test]
    fn booleans_at_any_length() {
        let src = [0b1010_1010u8, 0b0000_0001];
        let mut bits = MutableBitmap::with_capacity(9);
        booleans(&src, 9, &mut bits).unwrap();
        let got: Vec<bool> = (0..9).map(|i| bits.get(i)).collect();
        let want: Vec<bool> = (0..9).map(|i| src[i / 8] >> (i % 8) & 1 == 1).collect();
        assert_eq!(got, want);
        assert!(booleans(&src, 17, &mut bits).is_err());
    }
}
