//! Text ↔ value conversion for flat types, shared by the CSV and JSON readers and writers.

mod number;
mod temporal;
mod write;

pub(crate) use number::{is_bool_word, parse_f64, parse_int};
pub(crate) use temporal::{parse_date32, parse_timestamp};
pub(crate) use write::{hex_decode, write_field_text, write_text};

use crate::types::format_data_type;
use half::f16;
use number::{NumError, parse_bool, parse_decimal, parse_f32};
use quiver_arrow::builder::{ArrayBuilder, PrimitiveBuilderType};
use quiver_arrow::tz::{LocalTimeError, TimeZone};
use quiver_arrow::{DataType, I128, I256, IntervalUnit, TimeUnit};
use temporal::{
    parse_day_time, parse_duration, parse_month_day_nano, parse_time, parse_year_month,
};

/// How binary values appear in text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinaryText {
    /// The field's bytes are the value (CSV).
    Raw,
    /// Lowercase or uppercase hex digits, two per byte (JSON).
    Hex,
}

/// `"value"` for error messages: lossy UTF-8, escaped, cut after 40 characters.
pub(crate) fn quote(v: &[u8]) -> String {
    let text = String::from_utf8_lossy(v);
    let mut cut: String = text.chars().take(40).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    format!("{cut:?}")
}

fn cannot(v: &[u8], dt: &DataType, reason: &str) -> String {
    format!(
        "cannot parse {} as {}{reason}",
        quote(v),
        format_data_type(dt)
    )
}

/// True when [`append_text`] can convert text to `dt`.
pub(crate) fn is_text_type(dt: &DataType) -> bool {
    match dt {
        DataType::Dictionary { value, .. } => matches!(
            **value,
            DataType::Utf8
                | DataType::LargeUtf8
                | DataType::Utf8View
                | DataType::Binary
                | DataType::LargeBinary
                | DataType::BinaryView
        ),
        DataType::Null => true,
        other => !other.is_nested() && !matches!(other, DataType::RunEndEncoded(..)),
    }
}

fn push<T: PrimitiveBuilderType>(b: &mut ArrayBuilder, v: T) -> Result<(), String> {
    match b.as_primitive_mut::<T>() {
        Some(p) => {
            p.append_value(v);
            Ok(())
        }
        None => Err(format!(
            "internal error: builder of {} is not {}",
            b.data_type(),
            T::NAME
        )),
    }
}

/// Parses `v` as a value of `dt` and appends it to `b` (made by `make_builder(dt)`).
///
/// The error is the reason only (`cannot parse "abc" as int64`); callers add the line and
/// column.
pub(crate) fn append_text(
    b: &mut ArrayBuilder,
    dt: &DataType,
    v: &[u8],
    binary: BinaryText,
) -> Result<(), String> {
    match dt {
        DataType::Int8 => push(
            b,
            parse_int::<i8>(v).map_err(|e| cannot(v, dt, e.reason()))?,
        ),
        DataType::Int16 => push(
            b,
            parse_int::<i16>(v).map_err(|e| cannot(v, dt, e.reason()))?,
        ),
        DataType::Int32 => push(
            b,
            parse_int::<i32>(v).map_err(|e| cannot(v, dt, e.reason()))?,
        ),
        DataType::Int64 => push(
            b,
            parse_int::<i64>(v).map_err(|e| cannot(v, dt, e.reason()))?,
        ),
        DataType::UInt8 => push(
            b,
            parse_int::<u8>(v).map_err(|e| cannot(v, dt, e.reason()))?,
        ),
        DataType::UInt16 => push(
            b,
            parse_int::<u16>(v).map_err(|e| cannot(v, dt, e.reason()))?,
        ),
        DataType::UInt32 => push(
            b,
            parse_int::<u32>(v).map_err(|e| cannot(v, dt, e.reason()))?,
        ),
        DataType::UInt64 => push(
            b,
            parse_int::<u64>(v).map_err(|e| cannot(v, dt, e.reason()))?,
        ),
        DataType::Float16 => {
            let f = parse_f64(v).ok_or_else(|| cannot(v, dt, ""))?;
            push(b, f16::from_f64(f))
        }
        DataType::Float32 => push(b, parse_f32(v).ok_or_else(|| cannot(v, dt, ""))?),
        DataType::Float64 => push(b, parse_f64(v).ok_or_else(|| cannot(v, dt, ""))?),
        DataType::Boolean => {
            let x = parse_bool(v).ok_or_else(|| cannot(v, dt, ""))?;
            let bb = b
                .as_boolean_mut()
                .ok_or("internal error: not a boolean builder")?;
            bb.append_value(x);
            Ok(())
        }
        DataType::Decimal32 { .. }
        | DataType::Decimal64 { .. }
        | DataType::Decimal128 { .. }
        | DataType::Decimal256 { .. } => append_decimal(b, dt, v),
        DataType::Date32
        | DataType::Date64
        | DataType::Time32(_)
        | DataType::Time64(_)
        | DataType::Timestamp(..)
        | DataType::Duration(_)
        | DataType::Interval(_) => append_temporal(b, dt, v),
        _ => append_bytes(b, dt, v, binary),
    }
}

fn append_decimal(b: &mut ArrayBuilder, dt: &DataType, v: &[u8]) -> Result<(), String> {
    let (precision, scale) = match dt {
        DataType::Decimal32 { precision, scale }
        | DataType::Decimal64 { precision, scale }
        | DataType::Decimal128 { precision, scale }
        | DataType::Decimal256 { precision, scale } => (*precision, *scale),
        _ => return Err(cannot(v, dt, "")),
    };
    let x = parse_decimal(v, precision, scale).map_err(|e: NumError| cannot(v, dt, e.reason()))?;
    // The precision bounds the digits, so the narrow conversions cannot fail.
    let small = x.to_i128().ok_or_else(|| cannot(v, dt, ": out of range"));
    match dt {
        DataType::Decimal32 { .. } => push(b, small? as i32),
        DataType::Decimal64 { .. } => push(b, small? as i64),
        DataType::Decimal128 { .. } => push(b, I128::from_i128(small?)),
        _ => push::<I256>(b, x),
    }
}

fn append_temporal(b: &mut ArrayBuilder, dt: &DataType, v: &[u8]) -> Result<(), String> {
    let bad = || cannot(v, dt, "");
    let narrow = |x: i64| i32::try_from(x).map_err(|_| cannot(v, dt, ": out of range"));
    match dt {
        DataType::Date32 => push(b, parse_date32(v).ok_or_else(bad)?),
        DataType::Date64 => {
            let t = parse_timestamp(v, TimeUnit::Millisecond).ok_or_else(bad)?;
            push(b, t.value)
        }
        DataType::Time32(u) => push(b, narrow(parse_time(v, *u).ok_or_else(bad)?)?),
        DataType::Time64(u) => push(b, parse_time(v, *u).ok_or_else(bad)?),
        DataType::Timestamp(u, tz) => {
            let t = parse_timestamp(v, *u).ok_or_else(bad)?;
            match tz {
                None if t.has_zone => {
                    let why = ": it has a time zone but the column type has none";
                    Err(cannot(v, dt, why))
                }
                Some(zone) if !t.has_zone => {
                    let utc = local_to_utc(t.value, *u, zone).map_err(|why| cannot(v, dt, &why))?;
                    push(b, utc)
                }
                _ => push(b, t.value),
            }
        }
        DataType::Duration(u) => push(b, parse_duration(v, *u).ok_or_else(bad)?),
        DataType::Interval(IntervalUnit::YearMonth) => {
            push(b, parse_year_month(v).ok_or_else(bad)?)
        }
        DataType::Interval(IntervalUnit::DayTime) => push(b, parse_day_time(v).ok_or_else(bad)?),
        DataType::Interval(IntervalUnit::MonthDayNano) => {
            push(b, parse_month_day_nano(v).ok_or_else(bad)?)
        }
        _ => Err(bad()),
    }
}

/// The UTC instant of `local` (ticks of `unit` of a wall-clock time in `zone`): text without
/// an offset in a zoned column is local time there; times in a daylight-saving gap or fold are
/// errors, as with pyarrow's `assume_timezone` defaults. The error is the reason, `: …`.
fn local_to_utc(local: i64, unit: TimeUnit, zone: &str) -> Result<i64, String> {
    let tz = TimeZone::parse(zone).map_err(|e| format!(": {e}"))?;
    let per = temporal::per_second(unit);
    let (secs, frac) = (local.div_euclid(per), local.rem_euclid(per));
    let utc = tz.to_utc(secs).map_err(|e| match e {
        LocalTimeError::Nonexistent => {
            format!(": this local time does not exist in {zone} (clocks skipped it)")
        }
        LocalTimeError::Ambiguous => format!(
            ": this local time happened twice in {zone} (clocks were set back); \
             write it with an offset"
        ),
    })?;
    utc.checked_mul(per)
        .and_then(|t| t.checked_add(frac))
        .ok_or_else(|| ": out of range".to_string())
}

fn utf8<'a>(v: &'a [u8], dt: &DataType) -> Result<&'a str, String> {
    std::str::from_utf8(v).map_err(|e| {
        format!(
            "invalid UTF-8 in a {} value at byte {}",
            format_data_type(dt),
            e.valid_up_to()
        )
    })
}

fn is_binary(dt: &DataType) -> bool {
    match dt {
        DataType::Dictionary { value, .. } => is_binary(value),
        other => matches!(
            other,
            DataType::Binary
                | DataType::LargeBinary
                | DataType::BinaryView
                | DataType::FixedSizeBinary(_)
        ),
    }
}

fn append_bytes(
    b: &mut ArrayBuilder,
    dt: &DataType,
    v: &[u8],
    binary: BinaryText,
) -> Result<(), String> {
    let decoded;
    let raw = if binary == BinaryText::Hex && is_binary(dt) {
        decoded = hex_decode(v).ok_or_else(|| cannot(v, dt, ": expected hex digits"))?;
        &decoded[..]
    } else {
        v
    };
    let overflow = |e: quiver_arrow::Error| e.to_string();
    match b {
        ArrayBuilder::Utf8(s) => s.try_append_value(utf8(raw, dt)?).map_err(overflow),
        ArrayBuilder::LargeUtf8(s) => s.try_append_value(utf8(raw, dt)?).map_err(overflow),
        ArrayBuilder::Utf8View(s) => s.try_append_value(utf8(raw, dt)?).map_err(overflow),
        ArrayBuilder::Binary(s) => s.try_append_value(raw).map_err(overflow),
        ArrayBuilder::LargeBinary(s) => s.try_append_value(raw).map_err(overflow),
        ArrayBuilder::BinaryView(s) => s.try_append_value(raw).map_err(overflow),
        ArrayBuilder::FixedSizeBinary(s) => s.append_value(raw).map_err(|_| {
            cannot(
                v,
                dt,
                &format!(": expected {} bytes, found {}", s.width(), raw.len()),
            )
        }),
        ArrayBuilder::Dictionary(d) => {
            if let DataType::Dictionary { value, .. } = dt {
                if matches!(
                    **value,
                    DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
                ) {
                    utf8(raw, value)?;
                }
            }
            d.append_bytes(raw).map(|_| ()).map_err(overflow)
        }
        ArrayBuilder::Null(_) => Err(format!("expected null, found {}", quote(v))),
        _ => Err(format!(
            "reading {} from text is not supported",
            format_data_type(dt)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quiver_arrow::builder::make_builder;
    use quiver_arrow::display::format_value;

    fn one(dt: &DataType, v: &str) -> Result<String, String> {
        let mut b = make_builder(dt, 1).unwrap();
        append_text(&mut b, dt, v.as_bytes(), BinaryText::Hex)?;
        Ok(format_value(&b.finish(), 0))
    }

    #[test]
    fn flat_values() {
        let dec = DataType::Decimal128 {
            precision: 5,
            scale: 2,
        };
        assert_eq!(one(&dec, "-123.45"), Ok("-123.45".into()));
        assert_eq!(
            one(&dec, "1234.5"),
            Err("cannot parse \"1234.5\" as decimal128(5, 2): more digits than the precision allows".into())
        );
        assert_eq!(
            one(&DataType::Int8, "300"),
            Err("cannot parse \"300\" as int8: out of range".into())
        );
        assert_eq!(one(&DataType::Binary, "6a6f65"), Ok("0x6a6f65".into()));
        assert_eq!(
            one(&DataType::Date64, "2020-01-31"),
            Ok("2020-01-31".into())
        );
        assert_eq!(
            one(&DataType::Time32(TimeUnit::Second), "01:02:03"),
            Ok("01:02:03".into())
        );
        let ts = DataType::Timestamp(TimeUnit::Millisecond, None);
        assert!(
            one(&ts, "2020-01-01T00:00:00Z")
                .unwrap_err()
                .contains("has a time zone")
        );
        assert_eq!(one(&DataType::Float16, "0.1"), Ok("0.1".into()));
        assert_eq!(
            one(&DataType::Null, "x"),
            Err("expected null, found \"x\"".into())
        );
        let long = "x".repeat(100);
        assert!(
            one(&DataType::Int32, &long)
                .unwrap_err()
                .contains("xxxx…\"")
        );
    }
}
