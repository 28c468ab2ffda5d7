//! BYTE_STREAM_SPLIT (Parquet `Encodings.md`): `n` values of `width` bytes stored as `width`
//! streams of `n` bytes, stream `k` holding byte `k` of every value. Used for FLOAT, DOUBLE,
//! INT32, INT64, FIXED_LEN_BYTE_ARRAY and FLOAT16 (width 2). [`encode`] writes it.

use quiver_arrow::buffer::MutableBuffer;
use quiver_arrow::{Error, Result};
use std::mem::MaybeUninit;

/// Appends the `n` values of `width` bytes stored split in `src` to `out`, bytes interleaved
/// back into little-endian values. `src` must hold exactly `n * width` bytes.
///
/// ```
/// use quiver_arrow::buffer::MutableBuffer;
/// use quiver_parquet::encoding::byte_stream_split::decode;
/// // Two u16 values, 0x0201 and 0x0403: low bytes first, then high bytes.
/// let mut out = MutableBuffer::new();
/// decode(&[0x01, 0x03, 0x02, 0x04], 2, 2, &mut out).unwrap();
/// assert_eq!(out.typed::<u16>(), &[0x0201, 0x0403]);
/// ```
pub fn decode(src: &[u8], width: usize, n: usize, out: &mut MutableBuffer) -> Result<()> {
    let bytes = n.checked_mul(width).filter(|&b| b == src.len());
    let Some(bytes) = bytes else {
        return Err(Error::oos(format!(
            "BYTE_STREAM_SPLIT: {n} values of {width} bytes need {} bytes, the page has {}",
            n as u128 * width as u128,
            src.len()
        )));
    };
    if width == 0 {
        return Err(Error::oos("BYTE_STREAM_SPLIT of 0-byte values"));
    }
    out.try_reserve(bytes)?;
    let start = out.len();
    let spare = &mut out.spare_capacity_mut()[..bytes];
    match width {
        2 => interleave::<2>(src, n, spare),
        4 => interleave::<4>(src, n, spare),
        8 => interleave::<8>(src, n, spare),
        _ => interleave_any(src, width, n, spare),
    }
    // SAFETY: `interleave*` wrote every one of the `bytes` spare bytes (each output value's
    // `width` bytes, for all `n` values); `try_reserve` made the capacity.
    unsafe { out.set_len(start + bytes) };
    Ok(())
}

fn interleave<const W: usize>(src: &[u8], n: usize, out: &mut [MaybeUninit<u8>]) {
    let streams: [&[u8]; W] = std::array::from_fn(|k| &src[k * n..(k + 1) * n]);
    for (i, value) in out.chunks_exact_mut(W).enumerate() {
        for k in 0..W {
            value[k].write(streams[k][i]);
        }
    }
}

fn interleave_any(src: &[u8], width: usize, n: usize, out: &mut [MaybeUninit<u8>]) {
    for (k, stream) in src.chunks_exact(n.max(1)).enumerate().take(width) {
        for (i, &b) in stream.iter().enumerate() {
            out[i * width + k].write(b);
        }
    }
}

/// Appends the BYTE_STREAM_SPLIT form of the values of `width` bytes in `src` to `out`: byte `k`
/// of every value, for `k` in `0..width`.
///
/// ```
/// use quiver_parquet::encoding::byte_stream_split::encode;
/// let mut out = vec![];
/// encode(&[0x01, 0x02, 0x03, 0x04], 2, &mut out);
/// assert_eq!(out, [0x01, 0x03, 0x02, 0x04]);
/// ```
///
/// # Panics
/// If `width` is 0 or does not divide `src.len()`.
pub fn encode(src: &[u8], width: usize, out: &mut Vec<u8>) {
    assert!(
        width > 0 && src.len() % width == 0,
        "BYTE_STREAM_SPLIT of {} bytes in values of {width}",
        src.len()
    );
    let start = out.len();
    out.resize(start + src.len(), 0);
    let dst = &mut out[start..];
    // Each arm inlines `split` with a constant width.
    match width {
        2 => split(src, 2, dst),
        4 => split(src, 4, dst),
        8 => split(src, 8, dst),
        _ => split(src, width, dst),
    }
}

#[inline(always)]
fn split(src: &[u8], width: usize, dst: &mut [u8]) {
    let n = src.len() / width;
    for (k, stream) in dst.chunks_exact_mut(n.max(1)).enumerate().take(width) {
        for (o, value) in stream.iter_mut().zip(src.chunks_exact(width)) {
            *o = value[k];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::test_util::Rng;

    #[test]
    fn every_width_matches_the_oracle() {
        let mut rng = Rng::new(11);
        for width in [1usize, 2, 3, 4, 5, 8, 12, 16] {
            for n in [0usize, 1, 7, 100, 1001] {
                let values: Vec<u8> = (0..n * width).map(|_| rng.next() as u8).collect();
                let mut split = vec![0u8; n * width];
                for i in 0..n {
                    for k in 0..width {
                        split[k * n + i] = values[i * width + k];
                    }
                }
                let mut encoded = b"kept".to_vec();
                encode(&values, width, &mut encoded);
                assert_eq!(&encoded[4..], &split[..], "width {width}, n {n}");
                let mut out = MutableBuffer::new();
                out.extend_from_slice(b"kept");
                decode(&split, width, n, &mut out).unwrap();
                assert_eq!(&out.as_slice()[..4], b"kept");
                assert_eq!(&out.as_slice()[4..], &values[..], "width {width}, n {n}");
            }
        }
    }

    #[test]
    fn size_mismatch_is_an_error() {
        let mut out = MutableBuffer::new();
        let e = decode(&[0; 7], 4, 2, &mut out).unwrap_err().to_string();
        assert!(e.contains("need 8 bytes, the page has 7"), "{e}");
        assert!(decode(&[0; 8], 4, usize::MAX, &mut out).is_err());
        assert!(decode(&[], 0, 5, &mut out).is_err());
    }
}
