//! Statistics values (PLAIN-encoded bytes) shown as typed values: integers signed or
//! unsigned as annotated, decimals scaled, dates, times and timestamps as quiver prints them
//! (through `quiver_arrow::display`), strings quoted, other bytes in hex.

use quiver_arrow::datatype::{DataType, TimeUnit as ArrowUnit};
use quiver_arrow::display::format_value;
use quiver_arrow::{Array, PrimitiveArray, PrimitiveType};
use quiver_parquet::format::{ConvertedType, LogicalType, SchemaElement, TimeUnit, Type};

/// Byte values longer than this are cut (their length shown).
const MAX_SHOWN: usize = 40;

/// `bytes`, a statistics value of a `physical` leaf described by `e`, as text.
pub fn show(physical: Type, e: &SchemaElement<'_>, bytes: &[u8]) -> String {
    let shown = match physical {
        Type::BOOLEAN => bytes.first().map(|b| (b & 1 == 1).to_string()),
        Type::INT32 => fixed::<4>(bytes).map(|b| int32(i32::from_le_bytes(b), e)),
        Type::INT64 => fixed::<8>(bytes).map(|b| int64(i64::from_le_bytes(b), e)),
        Type::INT96 => fixed::<12>(bytes).map(int96),
        Type::FLOAT => fixed::<4>(bytes).map(|b| format!("{:?}", f32::from_le_bytes(b))),
        Type::DOUBLE => fixed::<8>(bytes).map(|b| format!("{:?}", f64::from_le_bytes(b))),
        Type::BYTE_ARRAY | Type::FIXED_LEN_BYTE_ARRAY => Some(byte_array(bytes, e)),
        Type::Unknown(_) => None,
    };
    shown.unwrap_or_else(|| format!("0x{} (unexpected length)", hex(bytes)))
}

fn fixed<const N: usize>(bytes: &[u8]) -> Option<[u8; N]> {
    bytes.try_into().ok()
}

/// The decimal scale, when `e` is a decimal.
fn decimal_scale(e: &SchemaElement<'_>) -> Option<i32> {
    match e.logical_type {
        Some(LogicalType::Decimal { scale, .. }) => Some(scale),
        _ if e.converted_type == Some(ConvertedType::DECIMAL) => Some(e.scale.unwrap_or(0)),
        _ => None,
    }
}

/// Whether `e` is annotated as an unsigned integer.
fn unsigned(e: &SchemaElement<'_>) -> bool {
    use ConvertedType as C;
    match e.logical_type {
        Some(LogicalType::Integer { is_signed, .. }) => !is_signed,
        _ => matches!(
            e.converted_type,
            Some(C::UINT_8 | C::UINT_16 | C::UINT_32 | C::UINT_64)
        ),
    }
}

fn int32(v: i32, e: &SchemaElement<'_>) -> String {
    if let Some(scale) = decimal_scale(e) {
        return scaled(i128::from(v), scale);
    }
    if unsigned(e) {
        return (v as u32).to_string();
    }
    match (e.logical_type, e.converted_type) {
        (Some(LogicalType::Date), _) | (None, Some(ConvertedType::DATE)) => {
            through_arrow(v, DataType::Date32)
        }
        (Some(LogicalType::Time { .. }), _) | (None, Some(ConvertedType::TIME_MILLIS)) => {
            through_arrow(v, DataType::Time32(ArrowUnit::Millisecond))
        }
        _ => v.to_string(),
    }
}

fn int64(v: i64, e: &SchemaElement<'_>) -> String {
    if let Some(scale) = decimal_scale(e) {
        return scaled(i128::from(v), scale);
    }
    if unsigned(e) {
        return (v as u64).to_string();
    }
    use ConvertedType as C;
    let (unit, utc, time) = match (e.logical_type, e.converted_type) {
        (
            Some(LogicalType::Timestamp {
                unit,
                is_adjusted_to_utc,
            }),
            _,
        ) => (unit, is_adjusted_to_utc, false),
        (Some(LogicalType::Time { unit, .. }), _) => (unit, false, true),
        (None, Some(C::TIMESTAMP_MILLIS)) => (TimeUnit::Millis, true, false),
        (None, Some(C::TIMESTAMP_MICROS)) => (TimeUnit::Micros, true, false),
        (None, Some(C::TIME_MICROS)) => (TimeUnit::Micros, false, true),
        _ => return v.to_string(),
    };
    let unit = match unit {
        TimeUnit::Millis => ArrowUnit::Millisecond,
        TimeUnit::Micros => ArrowUnit::Microsecond,
        TimeUnit::Nanos => ArrowUnit::Nanosecond,
        TimeUnit::Unknown(_) => return v.to_string(),
    };
    if time {
        return through_arrow(v, DataType::Time64(unit));
    }
    let zone = utc.then(|| "UTC".into());
    through_arrow(v, DataType::Timestamp(unit, zone))
}

/// An INT96 timestamp in nanoseconds as the reader reads it by default, else (past the years
/// 1677 to 2262) in microseconds; bytes no unit holds as hex.
fn int96(b: [u8; 12]) -> String {
    for unit in [ArrowUnit::Nanosecond, ArrowUnit::Microsecond] {
        if let Some(v) = quiver_parquet::arrow::build::int96_value(unit, &b) {
            return through_arrow(v, DataType::Timestamp(unit, None));
        }
    }
    format!("0x{}", hex(&b))
}

fn byte_array(bytes: &[u8], e: &SchemaElement<'_>) -> String {
    if let Some(scale) = decimal_scale(e)
        && let Some(v) = big_endian(bytes)
    {
        return scaled(v, scale);
    }
    if matches!(e.logical_type, Some(LogicalType::Float16))
        && let Ok(b) = <[u8; 2]>::try_from(bytes)
    {
        return f16_to_f32(u16::from_le_bytes(b)).to_string();
    }
    let text = matches!(
        e.logical_type,
        Some(LogicalType::String | LogicalType::Enum | LogicalType::Json)
    ) || matches!(
        e.converted_type,
        Some(ConvertedType::UTF8 | ConvertedType::ENUM | ConvertedType::JSON)
    );
    if text && let Ok(s) = std::str::from_utf8(bytes) {
        return cut_text(s);
    }
    if !text && bytes.is_ascii() && bytes.iter().all(|b| !b.is_ascii_control()) {
        // Unannotated bytes that read as text (old writers leave strings unannotated).
        return cut_text(&String::from_utf8_lossy(bytes));
    }
    if bytes.len() > MAX_SHOWN {
        return format!("0x{}… ({} bytes)", hex(&bytes[..MAX_SHOWN]), bytes.len());
    }
    format!("0x{}", hex(bytes))
}

/// `s` quoted, cut after [`MAX_SHOWN`] characters.
fn cut_text(s: &str) -> String {
    let n = s.chars().count();
    if n <= MAX_SHOWN {
        return format!("{s:?}");
    }
    let head: String = s.chars().take(MAX_SHOWN).collect();
    format!("{head:?}… ({n} characters)")
}

/// A big-endian two's complement integer of at most 16 bytes.
fn big_endian(bytes: &[u8]) -> Option<i128> {
    if bytes.is_empty() || bytes.len() > 16 {
        return None;
    }
    let fill = if bytes[0] & 0x80 != 0 { 0xFF } else { 0 };
    let mut b = [fill; 16];
    b[16 - bytes.len()..].copy_from_slice(bytes);
    Some(i128::from_be_bytes(b))
}

/// `v` with `scale` digits after the decimal point.
fn scaled(v: i128, scale: i32) -> String {
    let digits = v.unsigned_abs().to_string();
    let sign = if v < 0 { "-" } else { "" };
    if scale <= 0 {
        let zeros = "0".repeat(usize::try_from(-scale).unwrap_or(0));
        return format!("{sign}{digits}{zeros}");
    }
    let scale = scale as usize;
    let padded = format!("{digits:0>width$}", width = scale + 1);
    let (int, frac) = padded.split_at(padded.len() - scale);
    format!("{sign}{int}.{frac}")
}

/// One value of an Arrow type, as quiver's tables print it.
fn through_arrow<T: PrimitiveType>(v: T, data_type: DataType) -> String {
    match PrimitiveArray::<T>::new(vec![v]).with_data_type(data_type) {
        Ok(a) => format_value(&Array::from(a), 0),
        Err(e) => format!("(cannot show: {e})"),
    }
}

/// An IEEE half-precision float.
fn f16_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1F);
    let frac = f32::from(h & 0x3FF);
    match exp {
        0 => sign * frac * 2f32.powi(-24),
        31 if frac == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        _ => sign * (1.0 + frac / 1024.0) * 2f32.powi(exp - 15),
    }
}

/// Lower-case hex digits.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_by_type() {
        let plain = SchemaElement::default();
        assert_eq!(show(Type::INT32, &plain, &(-5i32).to_le_bytes()), "-5");
        let u8_ = SchemaElement {
            converted_type: Some(ConvertedType::UINT_32),
            ..SchemaElement::default()
        };
        assert_eq!(
            show(Type::INT32, &u8_, &(-1i32).to_le_bytes()),
            "4294967295"
        );
        let dec = SchemaElement {
            logical_type: Some(LogicalType::Decimal {
                scale: 2,
                precision: 9,
            }),
            ..SchemaElement::default()
        };
        assert_eq!(show(Type::INT32, &dec, &(-5i32).to_le_bytes()), "-0.05");
        assert_eq!(
            show(Type::FIXED_LEN_BYTE_ARRAY, &dec, &[0x30, 0x39]),
            "123.45"
        );
        assert_eq!(
            show(Type::FIXED_LEN_BYTE_ARRAY, &dec, &[0xFF, 0xFE]),
            "-0.02"
        );
        let date = SchemaElement {
            logical_type: Some(LogicalType::Date),
            ..SchemaElement::default()
        };
        assert_eq!(
            show(Type::INT32, &date, &19_000i32.to_le_bytes()),
            "2022-01-08"
        );
        let ts = SchemaElement {
            logical_type: Some(LogicalType::Timestamp {
                is_adjusted_to_utc: false,
                unit: TimeUnit::Millis,
            }),
            ..SchemaElement::default()
        };
        let v = 1_700_000_000_123i64.to_le_bytes();
        assert_eq!(show(Type::INT64, &ts, &v), "2023-11-14 22:13:20.123");
        // 2 Jan 1970, one second past midnight.
        let mut int96 = (1_000_000_000i64).to_le_bytes().to_vec();
        int96.extend((2_440_588i32 + 1).to_le_bytes());
        assert_eq!(
            show(Type::INT96, &plain, &int96),
            "1970-01-02 00:00:01.000000000"
        );
        // The year 9999 (Julian day 5373484) is past nanoseconds: shown in microseconds.
        int96.truncate(8);
        int96.extend(5_373_484i32.to_le_bytes());
        assert_eq!(
            show(Type::INT96, &plain, &int96),
            "9999-12-31 00:00:01.000000"
        );
        assert_eq!(show(Type::BYTE_ARRAY, &plain, b"abc"), "\"abc\"");
        assert_eq!(show(Type::BYTE_ARRAY, &plain, &[0, 1, 0xFF]), "0x0001ff");
        assert_eq!(
            show(Type::INT64, &plain, &[1, 2]),
            "0x0102 (unexpected length)"
        );
        assert_eq!(f16_to_f32(0x3C00), 1.0);
        assert_eq!(f16_to_f32(0xC000), -2.0);
        assert_eq!(scaled(5, -2), "500");
    }
}
