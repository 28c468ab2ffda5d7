//! Big-endian two's-complement integers of 1 to 16 bytes (how FIXED_LEN_BYTE_ARRAY decimals
//! are stored), sign-extended to 128 bits in place: one kernel per width, each value one
//! fixed-size load and a shift.

use quiver_arrow::I128;
use quiver_arrow::buffer::MutableBuffer;
use quiver_arrow::{Error, Result};

/// Sign-extends a big-endian integer of `W` bytes (`1 <= W <= 8`).
#[inline(always)]
fn small<const W: usize>(b: &[u8]) -> i128 {
    let mut a = [0u8; 8];
    a[..W].copy_from_slice(&b[..W]);
    let shift = (64 - 8 * W) as u32;
    (i64::from_be_bytes(a) >> shift) as i128
}

/// Sign-extends a big-endian integer of `W` bytes (`9 <= W <= 16`).
#[inline(always)]
fn large<const W: usize>(b: &[u8]) -> i128 {
    let mut a = [0u8; 16];
    a[..W].copy_from_slice(&b[..W]);
    let shift = (128 - 8 * W) as u32;
    i128::from_be_bytes(a) >> shift
}

fn run<const W: usize>(buf: &mut [u8], f: fn(&[u8]) -> i128) {
    // Back to front: value `i` is read from `[i * W, i * W + W)` and written to
    // `[i * 16, i * 16 + 16)`, which lies at or after every value not yet read (`j < i`).
    for i in (0..buf.len() / 16).rev() {
        let v = f(&buf[i * W..i * W + W]);
        buf[i * 16..i * 16 + 16].copy_from_slice(bytemuck::bytes_of(&I128::from_i128(v)));
    }
}

/// Converts, in place, the big-endian integers of `width` bytes (1 to 16) at the start of `buf`
/// into sign-extended 128-bit integers (as [`I128`]) filling `buf`: `buf` holds `buf.len() / 16`
/// integers, first packed `width` bytes each, then 16 bytes each.
///
/// ```
/// use quiver_arrow::I128;
/// use quiver_parquet::encoding::big_endian::to_i128_in_place;
/// let mut buf = [0u8; 32];
/// buf[..6].copy_from_slice(&[0x00, 0x01, 0x00, 0xFF, 0xFE, 0x00]);
/// to_i128_in_place(&mut buf, 3).unwrap();
/// let out: &[I128] = bytemuck::cast_slice(&buf);
/// assert_eq!([out[0].to_i128(), out[1].to_i128()], [256, -512]);
/// ```
pub fn to_i128_in_place(buf: &mut [u8], width: usize) -> Result<()> {
    if buf.len() % 16 != 0 {
        return Err(Error::invalid(format!(
            "{} bytes are not a whole number of 128-bit integers",
            buf.len()
        )));
    }
    match width {
        1 => run::<1>(buf, small::<1>),
        2 => run::<2>(buf, small::<2>),
        3 => run::<3>(buf, small::<3>),
        4 => run::<4>(buf, small::<4>),
        5 => run::<5>(buf, small::<5>),
        6 => run::<6>(buf, small::<6>),
        7 => run::<7>(buf, small::<7>),
        8 => run::<8>(buf, small::<8>),
        9 => run::<9>(buf, large::<9>),
        10 => run::<10>(buf, large::<10>),
        11 => run::<11>(buf, large::<11>),
        12 => run::<12>(buf, large::<12>),
        13 => run::<13>(buf, large::<13>),
        14 => run::<14>(buf, large::<14>),
        15 => run::<15>(buf, large::<15>),
        16 => run::<16>(buf, large::<16>),
        w => {
            return Err(Error::invalid(format!(
                "big-endian integers of {w} bytes do not fit 128 bits"
            )));
        }
    }
    Ok(())
}

fn append<const W: usize>(src: &[u8], out: &mut MutableBuffer, f: fn(&[u8]) -> i128) {
    out.extend_from_exact_iter(src.chunks_exact(W).map(|b| I128::from_i128(f(b))));
}

/// Appends to `out` the big-endian integers of `width` bytes (1 to 16) packed in `src`,
/// sign-extended to 128-bit integers (as [`I128`]): one pass, each value written once. `src`
/// must hold a whole number of integers.
///
/// ```
/// use quiver_arrow::I128;
/// use quiver_arrow::buffer::MutableBuffer;
/// use quiver_parquet::encoding::big_endian::extend_i128;
/// let mut out = MutableBuffer::new();
/// extend_i128(&[0x00, 0x01, 0x00, 0xFF, 0xFE, 0x00], 3, &mut out).unwrap();
/// let v: Vec<i128> = out.typed::<I128>().iter().map(|v| v.to_i128()).collect();
/// assert_eq!(v, [256, -512]);
/// ```
pub fn extend_i128(src: &[u8], width: usize, out: &mut MutableBuffer) -> Result<()> {
    if width == 0 || src.len() % width != 0 {
        return Err(Error::invalid(format!(
            "{} bytes are not a whole number of {width}-byte integers",
            src.len()
        )));
    }
    out.try_reserve_to_fill((src.len() / width).saturating_mul(16))?;
    match width {
        1 => append::<1>(src, out, small::<1>),
        2 => append::<2>(src, out, small::<2>),
        3 => append::<3>(src, out, small::<3>),
        4 => append::<4>(src, out, small::<4>),
        5 => append::<5>(src, out, small::<5>),
        6 => append::<6>(src, out, small::<6>),
        7 => append::<7>(src, out, small::<7>),
        8 => append::<8>(src, out, small::<8>),
        9 => append::<9>(src, out, large::<9>),
        10 => append::<10>(src, out, large::<10>),
        11 => append::<11>(src, out, large::<11>),
        12 => append::<12>(src, out, large::<12>),
        13 => append::<13>(src, out, large::<13>),
        14 => append::<14>(src, out, large::<14>),
        15 => append::<15>(src, out, large::<15>),
        16 => append::<16>(src, out, large::<16>),
        w => {
            return Err(Error::invalid(format!(
                "big-endian integers of {w} bytes do not fit 128 bits"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::test_util::Rng;

    /// The oracle: byte by byte, most significant first, starting from the sign.
    fn naive(b: &[u8]) -> i128 {
        let mut v: i128 = if b[0] & 0x80 != 0 { -1 } else { 0 };
        for &x in b {
            v = (v << 8) | i128::from(x);
        }
        v
    }

    #[test]
    fn every_width_matches_the_oracle() {
        let mut rng = Rng::new(17);
        for width in 1..=16usize {
            let n = 100;
            let mut src: Vec<u8> = (0..n * width).map(|_| rng.next() as u8).collect();
            // Extremes: all zeros, all ones, the sign bit alone, the largest positive.
            let extremes = [
                (0, 0x00, 0x00),
                (1, 0xFF, 0xFF),
                (2, 0x80, 0),
                (3, 0x7F, 0xFF),
            ];
            for (i, first, rest) in extremes {
                src[i * width] = first;
                src[i * width + 1..(i + 1) * width].fill(rest);
            }
            let mut buf = src.clone();
            buf.resize(n * 16, 0xEE);
            to_i128_in_place(&mut buf, width).unwrap();
            let want: Vec<i128> = src.chunks_exact(width).map(naive).collect();
            let got: Vec<i128> = bytemuck::cast_slice::<u8, I128>(&buf)
                .iter()
                .map(|v| v.to_i128())
                .collect();
            assert_eq!(got, want, "width {width}");
            // Appended after a value already there, and in two parts (a page boundary).
            let mut out = MutableBuffer::new();
            out.push(I128::from_i128(42));
            let cut = 37 * width;
            extend_i128(&src[..cut], width, &mut out).unwrap();
            extend_i128(&src[cut..], width, &mut out).unwrap();
            let got: Vec<i128> = out.typed::<I128>().iter().map(|v| v.to_i128()).collect();
            assert_eq!(got[0], 42);
            assert_eq!(&got[1..], &want[..], "width {width}, appended");
        }
        let mut out = MutableBuffer::new();
        assert!(extend_i128(&[0; 10], 4, &mut out).is_err());
        assert!(extend_i128(&[0; 17], 17, &mut out).is_err());
        assert!(extend_i128(&[], 0, &mut out).is_err());
        assert!(out.is_empty());
        assert!(to_i128_in_place(&mut [0; 32], 17).is_err());
        assert!(to_i128_in_place(&mut [0; 20], 4).is_err());
    }
}
