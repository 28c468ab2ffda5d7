//! Decimal values: unscaled integers written as strings of decimal digits.
//!
//! Values are checked against the storage width only, not the declared precision (the
//! official files hold values beyond their precision; validation checks layouts only).

use super::value::{json_int, kind};
use quiver_arrow::{Error, I128, I256, Result};
use serde_json::Value;

/// The digits of a decimal value (a string, or a JSON number for lenience).
fn digits(v: &Value) -> Result<std::borrow::Cow<'_, str>> {
    match v {
        Value::String(s) => Ok(s.as_str().into()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Ok(n.to_string().into()),
        other => Err(Error::oos(format!(
            "expected a decimal string, found {}",
            kind(other)
        ))),
    }
}

/// A Decimal32 value.
pub(crate) fn decimal32(v: &Value) -> Result<i32> {
    let i = json_int(v)?;
    i32::try_from(i).map_err(|_| Error::oos(format!("{i} does not fit in 32 bits")))
}

/// A Decimal64 value.
pub(crate) fn decimal64(v: &Value) -> Result<i64> {
    let i = json_int(v)?;
    i64::try_from(i).map_err(|_| Error::oos(format!("{i} does not fit in 64 bits")))
}

/// A Decimal128 value.
pub(crate) fn decimal128(v: &Value) -> Result<I128> {
    let s = digits(v)?;
    s.parse::<i128>()
        .map(I128::from_i128)
        .map_err(|_| Error::oos(format!("\"{s}\" is not an integer that fits in 128 bits")))
}

/// A Decimal256 value.
pub(crate) fn decimal256(v: &Value) -> Result<I256> {
    let s = digits(v)?;
    parse_i256(&s)
        .ok_or_else(|| Error::oos(format!("\"{s}\" is not an integer that fits in 256 bits")))
}

/// Parses an optionally signed string of decimal digits into a 256-bit two's-complement
/// integer; `None` when it is malformed or out of range.
pub(crate) fn parse_i256(s: &str) -> Option<I256> {
    let (negative, body) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    if body.is_empty() {
        return None;
    }
    // Magnitude in little-endian u64 words; fails on overflow past 256 bits.
    let mut mag = [0u64; 4];
    for c in body.bytes() {
        let d = u64::from(c.checked_sub(b'0').filter(|d| *d < 10)?);
        let mut carry = d as u128;
        for w in mag.iter_mut() {
            let cur = (*w as u128) * 10 + carry;
            *w = cur as u64;
            carry = cur >> 64;
        }
        if carry != 0 {
            return None;
        }
    }
    let top_bit = mag[3] >> 63 == 1;
    let is_min = mag == [0, 0, 0, 1 << 63];
    if top_bit && !(negative && is_min) {
        return None;
    }
    let v = I256(mag);
    Some(if negative { v.wrapping_neg() } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn i256_round_trips_through_text() {
        let max = "57896044618658097711785492504343953926634992332820282019728792003956564819967";
        let min = "-57896044618658097711785492504343953926634992332820282019728792003956564819968";
        for s in ["0", "-1", "12345678901234567890123456789", max, min] {
            assert_eq!(parse_i256(s).unwrap().to_string(), s);
        }
        assert_eq!(parse_i256("+7").unwrap(), I256::from_i128(7));
        // One past the extremes, and malformed text.
        assert!(
            parse_i256(
                "57896044618658097711785492504343953926634992332820282019728792003956564819968"
            )
            .is_none()
        );
        assert!(
            parse_i256(
                "-57896044618658097711785492504343953926634992332820282019728792003956564819969"
            )
            .is_none()
        );
        for bad in ["", "-", "1.5", "1e3", " 1", "0x10"] {
            assert!(parse_i256(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn widths() {
        assert_eq!(decimal32(&json!("-2147483648")).unwrap(), i32::MIN);
        assert!(decimal32(&json!("2147483648")).is_err());
        assert_eq!(decimal64(&json!("9223372036854775807")).unwrap(), i64::MAX);
        assert_eq!(
            decimal128(&json!("-170141183460469231731687303715884105728"))
                .unwrap()
                .to_i128(),
            i128::MIN
        );
        assert!(decimal128(&json!("170141183460469231731687303715884105728")).is_err());
        assert!(decimal128(&json!(true)).is_err());
    }
}
