//! ULEB128 variable-length integers and zigzag signs, as the hybrid and delta encodings (and
//! the Thrift compact protocol) store them.

use quiver_arrow::{Error, Result};

/// Decodes a ULEB128 integer at the start of `src`: the value and the bytes it took.
///
/// Bits beyond 64 (so more than ten bytes) or input ending inside the integer are errors.
///
/// ```
/// use quiver_parquet::encoding::varint::uleb128;
/// assert_eq!(uleb128(&[0xE5, 0x8E, 0x26, 0xFF]).unwrap(), (624_485, 3));
/// assert!(uleb128(&[0x80]).is_err());
/// ```
#[inline]
pub fn uleb128(src: &[u8]) -> Result<(u64, usize)> {
    let mut value = 0u64;
    for (i, &b) in src.iter().enumerate().take(10) {
        let bits = u64::from(b & 0x7F);
        if i == 9 && b > 1 {
            return Err(Error::oos("varint overflows 64 bits"));
        }
        value |= bits << (7 * i);
        if b & 0x80 == 0 {
            return Ok((value, i + 1));
        }
    }
    // Ten bytes always end above (the tenth with its continuation bit set overflows).
    Err(Error::oos("input ends inside a varint"))
}

/// The signed value of a zigzag-encoded integer (`0, -1, 1, -2, …` ↔ `0, 1, 2, 3, …`).
///
/// ```
/// use quiver_parquet::encoding::varint::zigzag;
/// assert_eq!([0, 1, 2, 3, u64::MAX].map(zigzag), [0, -1, 1, -2, i64::MIN]);
/// ```
#[inline]
pub fn zigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

/// Appends the ULEB128 encoding of `v` to `out`.
pub fn write_uleb128(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The zigzag encoding of `v`.
#[inline]
pub fn to_zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_bounds() {
        for v in [
            0u64,
            1,
            127,
            128,
            300,
            u32::MAX as u64,
            u64::MAX - 1,
            u64::MAX,
        ] {
            let mut b = Vec::new();
            write_uleb128(&mut b, v);
            assert_eq!(uleb128(&b).unwrap(), (v, b.len()));
            assert!(uleb128(&b[..b.len() - 1]).is_err());
        }
        for v in [0i64, -1, 1, i64::MIN, i64::MAX, -12345] {
            assert_eq!(zigzag(to_zigzag(v)), v);
        }
        // The tenth byte may only carry bit 63.
        let mut over = vec![0xFF; 9];
        over.push(0x02);
        assert!(
            uleb128(&over)
                .unwrap_err()
                .to_string()
                .contains("overflows")
        );
        assert!(
            uleb128(&[0x80; 11])
                .unwrap_err()
                .to_string()
                .contains("overflows")
        );
    }
}
