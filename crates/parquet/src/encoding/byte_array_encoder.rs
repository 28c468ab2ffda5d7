//! The write side of DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY (Parquet `Encodings.md`);
//! [`byte_array::delta_length`](super::byte_array::delta_length) and
//! [`byte_array::delta_byte_array`](super::byte_array::delta_byte_array) read them. PLAIN byte
//! arrays are [`plain::encode_byte_arrays`](super::plain::encode_byte_arrays).

use super::delta_encoder::encode_i32;

/// Appends the DELTA_LENGTH_BYTE_ARRAY encoding of `values` to `out`: their lengths as one
/// DELTA_BINARY_PACKED stream, then their bytes back to back.
///
/// ```
/// use quiver_parquet::encoding::byte_array_encoder::encode_delta_length;
/// let mut out = vec![];
/// encode_delta_length(&[&b"ab"[..], b"", b"cde"], &mut out);
/// // Lengths 2, 0, 3: first 2 (zigzag 4), deltas -2 and 3, min -2 (zigzag 3), offsets 0 and 5
/// // at width 3 in a miniblock of 32 (12 bytes); then "abcde".
/// assert_eq!(out[..10], [0x80, 0x01, 4, 3, 4, 3, 3, 0, 0, 0]);
/// assert_eq!(out[10..], *b"\x28\0\0\0\0\0\0\0\0\0\0\0abcde");
/// ```
///
/// # Panics
/// If a value is longer than `i32::MAX` bytes (no Parquet page holds it).
pub fn encode_delta_length(values: &[&[u8]], out: &mut Vec<u8>) {
    let lengths: Vec<i32> = values.iter().map(|v| length(v)).collect();
    encode_i32(&lengths, out);
    out.reserve(values.iter().map(|v| v.len()).sum());
    for v in values {
        out.extend_from_slice(v);
    }
}

/// Appends the DELTA_BYTE_ARRAY encoding of `values` to `out`: the length of the prefix each
/// value shares with the one before it (DELTA_BINARY_PACKED), then the rest of each value as
/// DELTA_LENGTH_BYTE_ARRAY.
///
/// ```
/// use quiver_parquet::encoding::byte_array_encoder::{encode_delta_byte_array, encode_delta_length};
/// use quiver_parquet::encoding::delta_encoder::encode_i32;
/// let mut out = vec![];
/// encode_delta_byte_array(&[&b"apple"[..], b"applied", b"banana"], &mut out);
/// let mut want = vec![];
/// encode_i32(&[0, 4, 0], &mut want);
/// encode_delta_length(&[&b"apple"[..], b"ied", b"banana"], &mut want);
/// assert_eq!(out, want);
/// ```
///
/// # Panics
/// If a value is longer than `i32::MAX` bytes.
pub fn encode_delta_byte_array(values: &[&[u8]], out: &mut Vec<u8>) {
    let mut prefixes = Vec::with_capacity(values.len());
    let mut suffixes = Vec::with_capacity(values.len());
    let mut previous: &[u8] = &[];
    for &v in values {
        let p = common_prefix(previous, v);
        prefixes.push(p as i32);
        suffixes.push(length(&v[p..]));
        previous = v;
    }
    encode_i32(&prefixes, out);
    encode_i32(&suffixes, out);
    out.reserve(suffixes.iter().map(|&s| s as usize).sum());
    for (v, &p) in values.iter().zip(&prefixes) {
        out.extend_from_slice(&v[p as usize..]);
    }
}

fn length(v: &[u8]) -> i32 {
    i32::try_from(v.len()).expect("a byte array longer than i32::MAX bytes") // ok: the writer rejects longer values first (`arrow::physical::check_byte_array_lengths`).
}

/// The length of the longest common prefix of `a` and `b`, eight bytes at a time.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut i = 0;
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        let x = u64::from_le_bytes(x.try_into().unwrap()); // ok: chunks_exact(8) yields 8-byte slices (x and y).
        let y = u64::from_le_bytes(y.try_into().unwrap()); // ok: as x.
        if x != y {
            // The first differing byte is the lowest set byte of the difference.
            return i + ((x ^ y).trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i + a[i..]
        .iter()
        .zip(&b[i..])
        .take_while(|(x, y)| x == y)
        .count()
}

#[cfg(test)]
mod tests;
