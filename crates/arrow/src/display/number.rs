//! Rendering of numbers that need more than `Display`: decimals, half floats and bytes.

use crate::native::I256;
use half::f16;
use std::fmt::{self, Write};

/// Writes the decimal digits of `v` into the end of `buf`, returning them.
fn digits(mut v: u128, buf: &mut [u8; 40]) -> &str {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    std::str::from_utf8(&buf[i..]).unwrap_or("?")
}

/// Writes a decimal given its sign, the digits of its magnitude and its scale: `12345` with
/// scale 2 is `123.45`, with scale 7 `0.0012345`, with scale -2 `1234500`.
fn write_scaled(w: &mut dyn Write, negative: bool, digits: &str, scale: i8) -> fmt::Result {
    let zero = digits.bytes().all(|b| b == b'0');
    if negative && !zero {
        w.write_char('-')?;
    }
    if scale <= 0 {
        w.write_str(digits)?;
        if !zero {
            for _ in 0..scale.unsigned_abs() {
                w.write_char('0')?;
            }
        }
        return Ok(());
    }
    let s = scale as usize;
    if digits.len() <= s {
        w.write_str("0.")?;
        for _ in digits.len()..s {
            w.write_char('0')?;
        }
        w.write_str(digits)
    } else {
        let (int, frac) = digits.split_at(digits.len() - s);
        write!(w, "{int}.{frac}")
    }
}

/// A `Decimal32/64/128` value (given as `i128`) with `scale`.
pub(super) fn write_decimal(w: &mut dyn Write, v: i128, scale: i8) -> fmt::Result {
    let mut buf = [0u8; 40];
    write_scaled(w, v < 0, digits(v.unsigned_abs(), &mut buf), scale)
}

/// A `Decimal256` value with `scale`.
pub(super) fn write_decimal256(w: &mut dyn Write, v: I256, scale: i8) -> fmt::Result {
    if let Some(small) = v.to_i128() {
        return write_decimal(w, small, scale);
    }
    let text = v.to_string();
    let (negative, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text.as_str()),
    };
    write_scaled(w, negative, digits, scale)
}

/// A half float in its shortest round-trip form (`0.1`, not the `0.099975586` of its `f32`
/// widening), in the style of `f32`'s `Debug` (`1.0`, `NaN`, `inf`, `1e-7`).
pub(super) fn write_f16(w: &mut dyn Write, v: f16) -> fmt::Result {
    let f = v.to_f32();
    if f.is_finite() {
        // An f16 needs at most 5 significant digits; take the fewest that read back as `v`.
        for precision in 0..5 {
            let text = format!("{f:.precision$e}");
            let Ok(back) = text.parse::<f32>() else {
                continue;
            };
            if f16::from_f32(back).to_bits() == v.to_bits() {
                return write!(w, "{back:?}");
            }
        }
    }
    write!(w, "{f:?}")
}

/// Bytes as `0x` followed by two lowercase hex digits each (`0x6a6f65`).
pub(super) fn write_hex(w: &mut dyn Write, bytes: &[u8]) -> fmt::Result {
    w.write_str("0x")?;
    for b in bytes {
        write!(w, "{b:02x}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(v: i128, scale: i8) -> String {
        let mut s = String::new();
        write_decimal(&mut s, v, scale).unwrap();
        s
    }

    #[test]
    fn decimals_place_the_point() {
        assert_eq!(dec(12345, 2), "123.45");
        assert_eq!(dec(-12345, 2), "-123.45");
        assert_eq!(dec(5, 3), "0.005");
        assert_eq!(dec(-5, 3), "-0.005");
        assert_eq!(dec(0, 2), "0.00");
        assert_eq!(dec(123, 0), "123");
        assert_eq!(dec(123, -2), "12300");
        assert_eq!(dec(0, -2), "0");
        assert_eq!(dec(i128::MIN, 0), i128::MIN.to_string());
        assert_eq!(dec(100, 2), "1.00");
    }

    #[test]
    fn decimal256_beyond_i128() {
        // 2^128 = 340282366920938463463374607431768211456
        let v = I256([0, 0, 1, 0]);
        let mut s = String::new();
        write_decimal256(&mut s, v, 10).unwrap();
        assert_eq!(s, "34028236692093846346337460743.1768211456");
        let mut s = String::new();
        write_decimal256(&mut s, v.wrapping_neg(), -1).unwrap();
        assert_eq!(s, "-3402823669209384634633746074317682114560");
    }

    #[test]
    fn half_floats_shortest() {
        let show = |v: f32| {
            let mut s = String::new();
            write_f16(&mut s, f16::from_f32(v)).unwrap();
            s
        };
        assert_eq!(show(0.1), "0.1");
        assert_eq!(show(1.0), "1.0");
        assert_eq!(show(-2.5), "-2.5");
        // The largest f16 is 65504; f16 steps are 32 there, so "65500" already reads back as it.
        assert_eq!(show(65504.0), "65500.0");
        assert_eq!(show(1000.5), "1000.5");
        assert_eq!(show(f32::NAN), "NaN");
        assert_eq!(show(f32::NEG_INFINITY), "-inf");
        assert_eq!(show(-0.0), "-0.0");
    }
}
