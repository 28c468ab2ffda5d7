//! PLAIN fixed-width values and booleans, and the deprecated BIT_PACKED level encoding; the
//! write side of PLAIN booleans and byte arrays.
//!
//! PLAIN INT32/INT64/INT96/FLOAT/DOUBLE/FIXED_LEN_BYTE_ARRAY values are stored little-endian
//! back to back, which is already the Arrow layout: decoding is a bounds check and a copy (or a
//! zero-copy slice of the page).

use super::bitpack::bits_at;
use super::byte_array::{copy_block, copy_wide};
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

/// Appends `len` booleans as PLAIN (one bit each, least significant first, `ceil(len / 8)`
/// bytes, the last byte's unused bits zero): the bits of `words` from bit `offset`.
///
/// ```
/// use quiver_parquet::encoding::plain::encode_booleans;
/// let mut out = vec![];
/// encode_booleans(&[0b1_1011_0000], 4, 5, &mut out);
/// assert_eq!(out, [0b1_1011]);
/// ```
///
/// # Panics
/// If `words` holds fewer than `offset + len` bits.
pub fn encode_booleans(words: &[u64], offset: usize, len: usize, out: &mut Vec<u8>) {
    let end = offset + len;
    assert!(
        end <= words.len() * 64,
        "encode_booleans past the end of the words"
    );
    out.reserve(len.div_ceil(8));
    let mut pos = offset;
    while end - pos >= 64 {
        out.extend_from_slice(&bits_at(words, pos).to_le_bytes());
        pos += 64;
    }
    let rest = end - pos;
    if rest > 0 {
        let last = bits_at(words, pos) & (u64::MAX >> (64 - rest));
        out.extend_from_slice(&last.to_le_bytes()[..rest.div_ceil(8)]);
    }
}

/// Appends `values` as PLAIN byte arrays: each one's length (4 bytes, little endian), then its
/// bytes.
///
/// ```
/// use quiver_parquet::encoding::plain::encode_byte_arrays;
/// let mut out = vec![];
/// encode_byte_arrays([&b"hi"[..], b"", b"!"], &mut out);
/// assert_eq!(out, [2, 0, 0, 0, b'h', b'i', 0, 0, 0, 0, 1, 0, 0, 0, b'!']);
/// ```
///
/// # Panics
/// If a value is longer than `u32::MAX` bytes.
pub fn encode_byte_arrays<'v>(values: impl IntoIterator<Item = &'v [u8]>, out: &mut Vec<u8>) {
    for v in values {
        let len = u32::try_from(v.len()).expect("a byte array longer than u32::MAX bytes"); // ok: the writer rejects values past i32::MAX bytes first (documented panic otherwise).
        out.reserve(4 + v.len());
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(v);
    }
}

/// Appends the byte arrays between consecutive `offsets` (an Arrow array's window: one more
/// offset than values) of `data` as PLAIN byte arrays, as [`encode_byte_arrays`] does, calling
/// `see` with each value in order; returns the values' bytes (lengths not counted).
///
/// The output is reserved once, and a value of up to 16 bytes is copied as one 16-byte block
/// (where `data` has 16 bytes from its start; the next value overwrites the rest), so a column
/// of short strings takes no call per value.
///
/// ```
/// use quiver_parquet::encoding::plain::encode_offset_run;
/// let (data, offsets) = (b"hi!", [0, 2, 2, 3]);
/// let mut out = vec![];
/// let mut seen = vec![];
/// assert_eq!(encode_offset_run(data, &offsets, &mut out, |v| seen.push(v)), 3);
/// assert_eq!(out, [2, 0, 0, 0, b'h', b'i', 0, 0, 0, 0, 1, 0, 0, 0, b'!']);
/// assert_eq!(seen, [&b"hi"[..], b"", b"!"]);
/// ```
///
/// # Panics
/// If an offset is negative, past `data`, or below the one before it.
pub fn encode_offset_run<'d>(
    data: &'d [u8],
    offsets: &[i32],
    out: &mut Vec<u8>,
    see: impl FnMut(&'d [u8]),
) -> usize {
    let (Some(&first), Some(&last)) = (offsets.first(), offsets.last()) else {
        return 0;
    };
    let bytes = usize::try_from(i64::from(last) - i64::from(first)).unwrap_or(0);
    let spans = offsets.windows(2).map(|w| (w[0] as usize, w[1] as usize));
    put_spans(data, spans, offsets.len() - 1, bytes, out, see)
}

/// [`encode_offset_run`] for the values at `positions` (indices into the values `offsets`
/// delimits), in that order.
///
/// ```
/// use quiver_parquet::encoding::plain::encode_offset_list;
/// let (data, offsets) = (b"hi!", [0, 2, 2, 3]);
/// let mut out = vec![];
/// assert_eq!(encode_offset_list(data, &offsets, &[2, 0], &mut out, |_| {}), 3);
/// assert_eq!(out, [1, 0, 0, 0, b'!', 2, 0, 0, 0, b'h', b'i']);
/// ```
///
/// # Panics
/// As [`encode_offset_run`], and if a position has no value in `offsets`.
pub fn encode_offset_list<'d>(
    data: &'d [u8],
    offsets: &[i32],
    positions: &[u32],
    out: &mut Vec<u8>,
    see: impl FnMut(&'d [u8]),
) -> usize {
    let span = |&i: &u32| {
        let i = i as usize;
        (offsets[i] as usize, offsets[i + 1] as usize)
    };
    let bytes = positions
        .iter()
        .map(|i| {
            let (s, e) = span(i);
            e.wrapping_sub(s)
        })
        .fold(0usize, usize::wrapping_add);
    put_spans(
        data,
        positions.iter().map(span),
        positions.len(),
        bytes,
        out,
        see,
    )
}

/// Slack reserved past the output's end, for the last value's block (16 or 64 bytes).
const BLOCK_SLACK: usize = 64;

/// Appends the PLAIN byte arrays of `data[s..e]` for each `(s, e)` of `spans`: `count` values of
/// `bytes` bytes in all, as their caller computed (the output's reservation; a wrong sum costs
/// a second reservation, never a write out of bounds).
///
/// Values long enough on average ([`copy_wide`]) are copied as 64-byte blocks, shorter ones
/// as 16-byte blocks ([`copy_block`]).
#[inline]
fn put_spans<'d>(
    data: &'d [u8],
    spans: impl Iterator<Item = (usize, usize)>,
    count: usize,
    bytes: usize,
    out: &mut Vec<u8>,
    see: impl FnMut(&'d [u8]),
) -> usize {
    if copy_wide(count, bytes) {
        put_spans_by::<64, _>(data, spans, count, bytes, out, see)
    } else {
        put_spans_by::<16, _>(data, spans, count, bytes, out, see)
    }
}

/// [`put_spans`] copying values of up to `BLOCK` bytes as one `BLOCK`-byte block (at most
/// [`BLOCK_SLACK`]).
#[inline(always)]
fn put_spans_by<'d, const BLOCK: usize, S: FnMut(&'d [u8])>(
    data: &'d [u8],
    spans: impl Iterator<Item = (usize, usize)>,
    count: usize,
    bytes: usize,
    out: &mut Vec<u8>,
    mut see: S,
) -> usize {
    const { assert!(BLOCK <= BLOCK_SLACK) };
    let mut room = bytes
        .saturating_add(count.saturating_mul(4))
        .saturating_add(BLOCK_SLACK);
    out.reserve(room);
    let mut at = out.len();
    let mut total = 0;
    for (s, e) in spans {
        let v = &data[s..e];
        see(v);
        let len = v.len();
        // ok: a slice of a buffer indexed by 32-bit offsets is shorter than 4 GiB.
        let len32 = u32::try_from(len).expect("a byte array longer than u32::MAX bytes"); // ok: above
        if 4 + len + BLOCK_SLACK > room {
            // Cold: the caller's sum was short. Reserve for this value and a block again.
            // SAFETY: the bytes before `at` are initialised (written below, or the caller's).
            unsafe { out.set_len(at) };
            room = 4 + len + BLOCK_SLACK;
            out.reserve(room);
        }
        let dst = out.as_mut_ptr();
        // SAFETY: `out`'s capacity holds `at + room` bytes (reserved above for every value's
        // 4 + len bytes and BLOCK_SLACK more, `room` counting down what is left), and
        // `4 + len + BLOCK_SLACK <= room`, so the 4-byte length at `at` and the value's bytes
        // (a block of `BLOCK <= BLOCK_SLACK` bytes, or `len` bytes) at `at + 4` are inside it:
        // what `copy_block` needs. `data[s..]` holds the value's `len` bytes (`data[s..e]`,
        // checked by the indexing above). Source and destination are distinct allocations
        // (`out` is borrowed mutably).
        unsafe {
            dst.add(at)
                .cast::<[u8; 4]>()
                .write_unaligned(len32.to_le_bytes());
            copy_block::<BLOCK>(&data[s..], len, dst.add(at + 4));
        }
        at += 4 + len;
        room -= 4 + len;
        total += len;
    }
    // SAFETY: every byte before `at` was written above (or was the caller's).
    unsafe { out.set_len(at) };
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::test_util::Rng;

    /// The offset kernels write what the one-value-at-a-time encoder writes, after bytes already
    /// in the output, for values of every length around the 16-byte block (the last ones
    /// ending at the data's end, where no block may be read), runs and listed positions
    /// (repeated, out of order), and see every value in order.
    #[test]
    fn offset_kernels_match_the_plain_encoder() {
        let mut rng = Rng::new(21);
        for case in 0..300 {
            let n = rng.below(60) as usize;
            // Short values (16-byte blocks), a mix averaging past 12 bytes (64-byte blocks),
            // and values around 64 bytes (a block, or an exact copy past it).
            let arms = [3, 4, 4][case % 3];
            let lens: Vec<usize> = (0..n)
                .map(|_| match (case % 3 == 2, rng.below(arms)) {
                    (true, _) => 50 + rng.below(30) as usize,
                    (_, 0) => rng.below(3) as usize,
                    (_, 1) => 14 + rng.below(5) as usize,
                    (_, 2) => rng.below(17) as usize,
                    _ => rng.below(80) as usize,
                })
                .collect();
            let mut offsets = vec![0i32];
            for l in &lens {
                offsets.push(offsets.last().unwrap() + *l as i32);
            }
            let data: Vec<u8> = (0..*offsets.last().unwrap() as usize)
                .map(|_| rng.next() as u8)
                .collect();
            let value = |i: usize| &data[offsets[i] as usize..offsets[i + 1] as usize];
            let prefix = vec![7u8; rng.below(5) as usize];
            // A window of the offsets (an Arrow slice), then positions within it.
            let from = if n == 0 {
                0
            } else {
                rng.below(n as u64) as usize
            };
            let to = from + rng.below((n - from + 1) as u64) as usize;
            let want_values: Vec<&[u8]> = (from..to).map(value).collect();
            let mut want = prefix.clone();
            encode_byte_arrays(want_values.iter().copied(), &mut want);
            let mut got = prefix.clone();
            let mut seen = vec![];
            let bytes = encode_offset_run(&data, &offsets[from..=to], &mut got, |v| seen.push(v));
            assert_eq!(got, want, "case {case}: run {from}..{to}");
            assert_eq!(seen, want_values, "case {case}");
            assert_eq!(bytes, want_values.iter().map(|v| v.len()).sum::<usize>());

            let positions: Vec<u32> = (0..rng.below(40))
                .filter(|_| n > 0)
                .map(|_| rng.below(n as u64) as u32)
                .collect();
            let want_values: Vec<&[u8]> = positions.iter().map(|&i| value(i as usize)).collect();
            let mut want = prefix.clone();
            encode_byte_arrays(want_values.iter().copied(), &mut want);
            let mut got = prefix;
            let mut seen = vec![];
            let bytes = encode_offset_list(&data, &offsets, &positions, &mut got, |v| seen.push(v));
            assert_eq!(got, want, "case {case}: positions {positions:?}");
            assert_eq!(seen, want_values, "case {case}");
            assert_eq!(bytes, want_values.iter().map(|v| v.len()).sum::<usize>());
        }
    }

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
    fn encoded_booleans_match_the_bits_and_decode_back() {
        let mut rng = Rng::new(61);
        for _ in 0..200 {
            let words: Vec<u64> = (0..rng.below(6) + 1).map(|_| rng.next()).collect();
            let bits = words.len() * 64;
            let offset = rng.below(bits as u64) as usize;
            let len = rng.below((bits - offset) as u64 + 1) as usize;
            let mut out = vec![0xAB];
            encode_booleans(&words, offset, len, &mut out);
            let mut want = vec![0u8; len.div_ceil(8)];
            for i in 0..len {
                let bit = words[(offset + i) / 64] >> ((offset + i) % 64) & 1;
                want[i / 8] |= (bit as u8) << (i % 8);
            }
            assert_eq!(out[1..], want[..], "offset {offset}, len {len}");
            let mut back = MutableBitmap::with_capacity(len);
            assert_eq!(booleans(&out[1..], len, &mut back).unwrap(), want.len());
            assert!((0..len).all(|i| back.get(i) == (want[i / 8] >> (i % 8) & 1 == 1)));
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
