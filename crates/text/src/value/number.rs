//! Parsing of booleans, integers, floats and exact decimals from text.

use quiver_arrow::I256;
use std::num::IntErrorKind;

/// Why a number did not parse (the caller names the value and the type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NumError {
    /// Not a number of the expected form.
    Invalid,
    /// A number outside the type's range.
    OutOfRange,
    /// A decimal with more digits than the precision allows.
    TooManyDigits,
    /// A decimal with nonzero digits beyond the scale.
    Inexact,
}

impl NumError {
    /// A short explanation appended to "cannot parse ... as ...".
    pub(crate) fn reason(self) -> &'static str {
        match self {
            NumError::Invalid => "",
            NumError::OutOfRange => ": out of range",
            NumError::TooManyDigits => ": more digits than the precision allows",
            NumError::Inexact => ": more fraction digits than the scale allows",
        }
    }
}

/// `true`/`false` in any case, or `1`/`0`.
pub(crate) fn parse_bool(s: &[u8]) -> Option<bool> {
    if s.eq_ignore_ascii_case(b"true") || s == b"1" {
        Some(true)
    } else if s.eq_ignore_ascii_case(b"false") || s == b"0" {
        Some(false)
    } else {
        None
    }
}

/// `true`/`false` in any case (the words inference accepts).
pub(crate) fn is_bool_word(s: &[u8]) -> bool {
    s.eq_ignore_ascii_case(b"true") || s.eq_ignore_ascii_case(b"false")
}

/// An integer of type `T` (decimal digits with an optional sign).
pub(crate) fn parse_int<T: std::str::FromStr<Err = std::num::ParseIntError>>(
    s: &[u8],
) -> Result<T, NumError> {
    let text = std::str::from_utf8(s).map_err(|_| NumError::Invalid)?;
    text.parse::<T>().map_err(|e| match e.kind() {
        IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => NumError::OutOfRange,
        _ => NumError::Invalid,
    })
}

/// A float: decimal or exponent notation, `inf`, `-inf`, `NaN` (any case, as Rust parses).
pub(crate) fn parse_f64(s: &[u8]) -> Option<f64> {
    std::str::from_utf8(s).ok()?.parse().ok()
}

/// An `f32` (rounded once from the text).
pub(crate) fn parse_f32(s: &[u8]) -> Option<f32> {
    std::str::from_utf8(s).ok()?.parse().ok()
}

/// A decimal number split into sign, significant digits and a power of ten.
struct DecimalText<'a> {
    negative: bool,
    /// Digits without the point; may have leading zeros.
    int: &'a [u8],
    frac: &'a [u8],
    exponent: i64,
}

fn split_decimal(s: &[u8]) -> Option<DecimalText<'_>> {
    let (negative, s) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let (mantissa, exponent) = match s.iter().position(|&b| b == b'e' || b == b'E') {
        Some(i) => {
            let e = std::str::from_utf8(&s[i + 1..]).ok()?.parse::<i32>().ok()?;
            (&s[..i], i64::from(e))
        }
        None => (s, 0),
    };
    let (int, frac) = match mantissa.iter().position(|&b| b == b'.') {
        Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
        None => (mantissa, &[][..]),
    };
    let all_digits = int.iter().chain(frac).all(u8::is_ascii_digit);
    if !all_digits || (int.is_empty() && frac.is_empty()) {
        return None;
    }
    Some(DecimalText {
        negative,
        int,
        frac,
        exponent,
    })
}

/// The unscaled value of decimal text at `scale` with at most `precision` digits, as a
/// 256-bit integer. Digits beyond the scale must be zeros.
pub(crate) fn parse_decimal(s: &[u8], precision: u8, scale: i8) -> Result<I256, NumError> {
    let d = split_decimal(s).ok_or(NumError::Invalid)?;
    // value = digits * 10^(exponent - frac.len()); unscaled = value * 10^scale.
    let shift = d.exponent - d.frac.len() as i64 + i64::from(scale);
    let digits = d.int.iter().chain(d.frac).copied();
    let significant: Vec<u8> = digits.skip_while(|&b| b == b'0').collect();
    let kept = if shift < 0 {
        let drop = shift.unsigned_abs() as usize;
        let cut = significant.len().saturating_sub(drop);
        if significant[cut..].iter().any(|&b| b != b'0') {
            return Err(NumError::Inexact);
        }
        &significant[..cut]
    } else {
        &significant[..]
    };
    if kept.is_empty() {
        return Ok(I256::default());
    }
    let zeros = if shift > 0 { shift as u64 } else { 0 };
    if kept.len() as u64 + zeros > u64::from(precision) {
        return Err(NumError::TooManyDigits);
    }
    let mut words = [0u64; 4];
    let tail = std::iter::repeat_n(b'0', zeros as usize);
    for b in kept.iter().copied().chain(tail) {
        mul10_add(&mut words, u64::from(b - b'0'));
    }
    let v = I256(words);
    Ok(if d.negative { v.wrapping_neg() } else { v })
}

/// `words = words * 10 + digit` on little-endian 64-bit words (no overflow below 10^76).
fn mul10_add(words: &mut [u64; 4], digit: u64) {
    let mut carry = u128::from(digit);
    for w in words.iter_mut() {
        let v = u128::from(*w) * 10 + carry;
        *w = v as u64;
        carry = v >> 64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str, p: u8, scale: i8) -> Result<String, NumError> {
        parse_decimal(s.as_bytes(), p, scale).map(|v| v.to_string())
    }

    #[test]
    fn decimals_are_exact() {
        assert_eq!(dec("-123.45", 5, 2), Ok("-12345".into()));
        assert_eq!(dec("123.4", 5, 2), Ok("12340".into()));
        assert_eq!(dec("123", 5, 2), Ok("12300".into()));
        assert_eq!(dec("1234", 5, 2), Err(NumError::TooManyDigits));
        assert_eq!(dec("1.234", 5, 2), Err(NumError::Inexact));
        assert_eq!(dec("1.230", 5, 2), Ok("123".into()));
        assert_eq!(dec("0.00", 5, 2), Ok("0".into()));
        assert_eq!(dec("-0", 5, 2), Ok("0".into()));
        assert_eq!(dec("1.5e2", 5, 0), Ok("150".into()));
        assert_eq!(dec("12300", 3, -2), Ok("123".into()));
        assert_eq!(dec(".5", 3, 1), Ok("5".into()));
        assert_eq!(dec("abc", 3, 1), Err(NumError::Invalid));
        assert_eq!(dec("1.2.3", 3, 1), Err(NumError::Invalid));
        assert_eq!(dec("", 3, 1), Err(NumError::Invalid));
        assert_eq!(dec("1e999999999999", 3, 1), Err(NumError::Invalid));
        let big = "9".repeat(76);
        assert_eq!(dec(&big, 76, 0), Ok(big.clone()));
        assert_eq!(dec(&format!("-{big}"), 76, 0), Ok(format!("-{big}")));
        assert_eq!(dec(&format!("{big}9"), 76, 0), Err(NumError::TooManyDigits));
    }

    #[test]
    fn ints_and_bools() {
        assert_eq!(parse_int::<i8>(b"-128"), Ok(-128));
        assert_eq!(parse_int::<i8>(b"128"), Err(NumError::OutOfRange));
        assert_eq!(parse_int::<u8>(b"-1"), Err(NumError::Invalid));
        assert_eq!(parse_int::<i64>(b"1.0"), Err(NumError::Invalid));
        assert_eq!(parse_bool(b"TRUE"), Some(true));
        assert_eq!(parse_bool(b"0"), Some(false));
        assert_eq!(parse_bool(b"yes"), None);
        assert_eq!(parse_f64(b"1e3"), Some(1000.0));
        assert!(parse_f64(b"NaN").unwrap().is_nan());
    }
}
