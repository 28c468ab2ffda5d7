//! Access to parsed JSON values with errors that say what was expected and where, and the
//! scalar encodings of the format: integers as numbers or strings, floats, hex.

use quiver_arrow::{Error, NativeType, Result};
use serde_json::{Map, Value};

/// A JSON object.
pub(crate) type Object = Map<String, Value>;

/// What kind of JSON value `v` is, for messages.
pub(crate) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `v` as an object; `what` names it in the error.
pub(crate) fn as_object<'a>(v: &'a Value, what: &str) -> Result<&'a Object> {
    v.as_object()
        .ok_or_else(|| Error::oos(format!("{what} must be an object, not {}", kind(v))))
}

/// Member `key` of `o`, which must be present.
pub(crate) fn member<'a>(o: &'a Object, key: &str) -> Result<&'a Value> {
    o.get(key)
        .ok_or_else(|| Error::oos(format!("missing \"{key}\"")))
}

/// Member `key` as a string.
pub(crate) fn str_member<'a>(o: &'a Object, key: &str) -> Result<&'a str> {
    let v = member(o, key)?;
    v.as_str()
        .ok_or_else(|| Error::oos(format!("\"{key}\" must be a string, not {}", kind(v))))
}

/// Member `key` as a boolean; `default` when absent.
pub(crate) fn bool_member(o: &Object, key: &str, default: Option<bool>) -> Result<bool> {
    match (o.get(key), default) {
        (None, Some(d)) => Ok(d),
        (None, None) => Err(Error::oos(format!("missing \"{key}\""))),
        (Some(v), _) => v
            .as_bool()
            .ok_or_else(|| Error::oos(format!("\"{key}\" must be a boolean, not {}", kind(v)))),
    }
}

/// Member `key` as an array.
pub(crate) fn array_member<'a>(o: &'a Object, key: &str) -> Result<&'a [Value]> {
    let v = member(o, key)?;
    v.as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| Error::oos(format!("\"{key}\" must be an array, not {}", kind(v))))
}

/// Member `key` as an integer of type `T` (a JSON number or a string of digits).
pub(crate) fn int_member<T: TryFrom<i128>>(o: &Object, key: &str) -> Result<T> {
    int_value(member(o, key)?).map_err(|e| e.context(format!("\"{key}\"")))
}

/// An integer written as a JSON number or as a string of decimal digits (the format writes
/// 64-bit integers as strings so that they survive JSON readers that use doubles).
pub(crate) fn json_int(v: &Value) -> Result<i128> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
            .ok_or_else(|| Error::oos(format!("{n} is not an integer"))),
        Value::String(s) => s
            .parse::<i128>()
            .map_err(|_| Error::oos(format!("\"{s}\" is not an integer"))),
        other => Err(Error::oos(format!(
            "expected an integer, found {}",
            kind(other)
        ))),
    }
}

/// An integer that must fit `T`.
pub(crate) fn int_value<T: TryFrom<i128>>(v: &Value) -> Result<T> {
    let i = json_int(v)?;
    T::try_from(i).map_err(|_| {
        Error::oos(format!(
            "{i} is out of range for {}",
            std::any::type_name::<T>()
        ))
    })
}

/// A native integer value (for `DATA`, `OFFSET`, `TYPE_ID`…), named by its Arrow type.
pub(crate) fn native_int<T: NativeType + TryFrom<i128>>(v: &Value) -> Result<T> {
    let i = json_int(v)?;
    T::try_from(i).map_err(|_| Error::oos(format!("{i} is out of range for {}", T::NAME)))
}

/// A floating-point value: a JSON number, or one of the strings `"NaN"`, `"Infinity"`,
/// `"-Infinity"` (which JSON numbers cannot express), or a number written as a string.
pub(crate) fn json_f64(v: &Value) -> Result<f64> {
    match v {
        Value::Number(n) => n
            .as_f64()
            .ok_or_else(|| Error::oos(format!("{n} is not a float"))),
        Value::String(s) => match s.as_str() {
            "NaN" | "nan" => Ok(f64::NAN),
            "Infinity" | "+Infinity" | "inf" => Ok(f64::INFINITY),
            "-Infinity" | "-inf" => Ok(f64::NEG_INFINITY),
            _ => s
                .parse::<f64>()
                .map_err(|_| Error::oos(format!("\"{s}\" is not a number"))),
        },
        other => Err(Error::oos(format!(
            "expected a number, found {}",
            kind(other)
        ))),
    }
}

/// A string value.
pub(crate) fn json_str(v: &Value) -> Result<&str> {
    v.as_str()
        .ok_or_else(|| Error::oos(format!("expected a string, found {}", kind(v))))
}

/// A boolean written as `true`/`false` or `1`/`0`.
pub(crate) fn json_bool(v: &Value) -> Result<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::Number(n) if n.as_u64() == Some(0) => Ok(false),
        Value::Number(n) if n.as_u64() == Some(1) => Ok(true),
        other => Err(Error::oos(format!(
            "expected true, false, 0 or 1, found {other}"
        ))),
    }
}

/// Appends the bytes of the hex string `s` (either case) to `out`.
pub(crate) fn hex_decode_into(s: &str, out: &mut Vec<u8>) -> Result<()> {
    let b = s.as_bytes();
    if b.len() % 2 != 0 {
        return Err(Error::oos(format!(
            "hex string has an odd number of digits ({})",
            b.len()
        )));
    }
    out.reserve(b.len() / 2);
    for (i, pair) in b.chunks_exact(2).enumerate() {
        let digit = |j: usize| {
            let c = pair[j];
            (c as char).to_digit(16).ok_or_else(|| {
                Error::oos(format!(
                    "bad hex digit {:?} at position {}",
                    c as char,
                    2 * i + j
                ))
            })
        };
        out.push((digit(0)? * 16 + digit(1)?) as u8);
    }
    Ok(())
}

/// The bytes of a hex string.
pub(crate) fn hex_decode(s: &str) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    hex_decode_into(s, &mut out)?;
    Ok(out)
}

/// Upper-case hex of `bytes`, as the format writes binary values.
pub(crate) fn hex_encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integers_as_numbers_or_strings() {
        assert_eq!(json_int(&json!(-5)).unwrap(), -5);
        assert_eq!(
            json_int(&json!("18446744073709551615")).unwrap(),
            u64::MAX as i128
        );
        assert!(json_int(&json!(1.5)).is_err());
        assert!(json_int(&json!("1x")).is_err());
        assert_eq!(native_int::<u8>(&json!(255)).unwrap(), 255);
        let e = native_int::<u8>(&json!(256)).unwrap_err().to_string();
        assert!(e.contains("256 is out of range for u8"), "{e}");
    }

    #[test]
    fn floats_and_specials() {
        assert_eq!(json_f64(&json!(1.25)).unwrap(), 1.25);
        assert!(json_f64(&json!("NaN")).unwrap().is_nan());
        assert_eq!(json_f64(&json!("-Infinity")).unwrap(), f64::NEG_INFINITY);
        assert!(json_f64(&json!(true)).is_err());
    }

    #[test]
    fn hex() {
        assert_eq!(hex_decode("00fFa0").unwrap(), vec![0, 255, 160]);
        assert_eq!(hex_encode(&[0, 255, 160]), "00FFA0");
        let e = hex_decode("0G").unwrap_err().to_string();
        assert!(e.contains("bad hex digit 'G' at position 1"), "{e}");
        assert!(hex_decode("ABC").is_err());
    }
}
