//! The values of the buffers of columns without children (`DATA`, `VIEWS`, the variadic data
//! buffers), in the value encodings of the format: 64-bit integers and decimals as strings,
//! binary as upper-case hex, intervals as objects, floats as numbers (non-finite ones as
//! `"NaN"`, `"Infinity"`, `"-Infinity"`), half floats as their 16-bit pattern (as Arrow C++
//! does).

use super::value::hex_encode;
use half::f16;
use quiver_arrow::{Array, DataType, DaysMs, MonthDayNano, View};
use serde_json::{Number, Value, json};

/// The `DATA` entries of a flat array, one per slot (null slots keep whatever they hold);
/// `None` for layouts without a `DATA` buffer (null, views, nested).
pub(crate) fn data(a: &Array) -> Option<Vec<Value>> {
    fn each<T: Copy>(v: &[T], f: impl Fn(T) -> Value) -> Option<Vec<Value>> {
        Some(v.iter().map(|&x| f(x)).collect())
    }
    let string = |x: &dyn ToString| Value::String(x.to_string());
    match a {
        Array::Boolean(b) => Some(b.values().iter().map(Value::Bool).collect()),
        Array::I8(p) => each(p.values(), |x| x.into()),
        Array::I16(p) => each(p.values(), |x| x.into()),
        Array::I32(p) if matches!(p.data_type(), DataType::Decimal32 { .. }) => {
            each(p.values(), |x| string(&x))
        }
        Array::I32(p) => each(p.values(), |x| x.into()),
        Array::I64(p) => each(p.values(), |x| string(&x)),
        Array::U8(p) => each(p.values(), |x| x.into()),
        Array::U16(p) => each(p.values(), |x| x.into()),
        Array::U32(p) => each(p.values(), |x| x.into()),
        Array::U64(p) => each(p.values(), |x| string(&x)),
        Array::F16(p) => each(p.values(), |x: f16| x.to_bits().into()),
        Array::F32(p) => each(p.values(), f32_json),
        Array::F64(p) => each(p.values(), f64_json),
        Array::I128(p) => each(p.values(), |x| string(&x)),
        Array::I256(p) => each(p.values(), |x| string(&x)),
        Array::DaysMs(p) => each(
            p.values(),
            |x: DaysMs| json!({"days": x.days, "milliseconds": x.milliseconds}),
        ),
        Array::MonthDayNano(p) => each(
            p.values(),
            |x: MonthDayNano| json!({"months": x.months, "days": x.days, "nanoseconds": x.nanoseconds}),
        ),
        Array::Binary(b) => Some(
            (0..b.len())
                .map(|i| hex_encode(b.value(i)).into())
                .collect(),
        ),
        Array::LargeBinary(b) => Some(
            (0..b.len())
                .map(|i| hex_encode(b.value(i)).into())
                .collect(),
        ),
        Array::Utf8(s) => Some((0..s.len()).map(|i| s.value(i).into()).collect()),
        Array::LargeUtf8(s) => Some((0..s.len()).map(|i| s.value(i).into()).collect()),
        Array::FixedSizeBinary(b) => Some(
            (0..b.len())
                .map(|i| hex_encode(b.value(i)).into())
                .collect(),
        ),
        _ => None,
    }
}

/// A double: a JSON number when finite.
pub(crate) fn f64_json(x: f64) -> Value {
    if x.is_finite() {
        Number::from_f64(x).map_or(Value::Null, Value::Number)
    } else if x.is_nan() {
        "NaN".into()
    } else if x > 0.0 {
        "Infinity".into()
    } else {
        "-Infinity".into()
    }
}

/// A single: the shortest decimal that reads back as the same single (so `1.1f32` is written
/// `1.1`, not `1.100000023841858`).
pub(crate) fn f32_json(x: f32) -> Value {
    if !x.is_finite() {
        return f64_json(f64::from(x));
    }
    let short = x.to_string().parse::<f64>().unwrap_or(f64::from(x));
    if (short as f32).to_bits() == x.to_bits() {
        f64_json(short)
    } else {
        f64_json(f64::from(x))
    }
}

/// The views of a view array (inline values of `Utf8View` as strings, as the format wants).
pub(crate) fn views(a: &Array) -> Value {
    let (a, utf8) = match a {
        Array::BinaryView(v) => (v, false),
        Array::Utf8View(v) => (v.as_binary(), true),
        _ => return Value::Array(Vec::new()),
    };
    Value::Array(a.views().iter().map(|v| view_json(&v, utf8)).collect())
}

/// The data buffers of a view array, as hex.
pub(crate) fn variadic_buffers(a: &Array) -> Value {
    let a = match a {
        Array::BinaryView(v) => v,
        Array::Utf8View(v) => v.as_binary(),
        _ => return Value::Array(Vec::new()),
    };
    let buffers = a.data_buffers().iter();
    Value::Array(buffers.map(|b| hex_encode(b.as_slice()).into()).collect())
}

fn view_json(v: &View, utf8: bool) -> Value {
    if v.is_inline() {
        let bytes = &v.data[..v.length as usize];
        let inlined = if utf8 {
            String::from_utf8_lossy(bytes).into_owned()
        } else {
            hex_encode(bytes)
        };
        json!({"SIZE": v.length, "INLINED": inlined})
    } else {
        json!({
            "SIZE": v.length,
            "PREFIX_HEX": hex_encode(&v.prefix()),
            "BUFFER_INDEX": v.buffer_index(),
            "OFFSET": v.offset(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats() {
        assert_eq!(f32_json(1.1).to_string(), "1.1");
        assert_eq!(f32_json(-641.818).to_string(), "-641.818");
        assert_eq!(f32_json(f32::NAN), Value::from("NaN"));
        assert_eq!(f64_json(f64::NEG_INFINITY), Value::from("-Infinity"));
        assert_eq!(f64_json(0.1).to_string(), "0.1");
        for x in [f32::MIN_POSITIVE, f32::MAX, 1.0e-45, 16_777_217.0, -0.0] {
            let back = f32_json(x).as_f64().unwrap() as f32;
            assert_eq!(back.to_bits(), x.to_bits(), "{x}");
        }
    }
}
