//! Rendering of one slot of any array.

use super::number::{write_decimal, write_decimal256, write_f16, write_hex};
use super::temporal::{
    write_date, write_date64, write_day_time, write_duration, write_month_day_nano, write_time,
    write_timestamp, write_year_month,
};
use super::types::KnownExtension;
use crate::array::{Array, DictionaryArray, MapArray, RunEndArray, StructArray, UnionArray};
use crate::datatype::{DataType, Field, IntervalUnit};
use std::fmt::{self, Write};
use std::ops::Range;

/// Writes slot `i` of `array` into `w` without allocating for flat values (see
/// [`format_value`] for the rendering). Panics when `i >= array.len()`.
///
/// ```
/// use quiver_arrow::{Array, PrimitiveArray, DataType};
/// use quiver_arrow::display::write_value;
/// let a = Array::from(PrimitiveArray::<i32>::new(vec![18292, 0]).with_data_type(DataType::Date32).unwrap());
/// let mut out = String::new();
/// for i in 0..a.len() {
///     write_value(&mut out, &a, i).unwrap();
///     out.push(';');
/// }
/// assert_eq!(out, "2020-01-31;1970-01-01;");
/// ```
pub fn write_value(w: &mut impl Write, array: &Array, i: usize) -> fmt::Result {
    check_index(array, i);
    value(w, array, i, false)
}

/// Writes slot `i` of `array`, the values of column `field`: like [`write_value`], except that
/// a field of a [`KnownExtension`] with a display of its own is shown that way: `arrow.uuid`
/// as `2d3a4f5e-0000-4000-8000-00000000abcd`, `arrow.bool8` as `true` / `false`; so are
/// nested children of such fields (a list of UUIDs, a struct with a bool8 child). Panics when
/// `i >= array.len()`.
///
/// ```
/// use quiver_arrow::{Array, DataType, Field, PrimitiveArray};
/// use quiver_arrow::display::write_field_value;
/// let name = ("ARROW:extension:name".to_string(), "arrow.bool8".to_string());
/// let field = Field::new("ok", DataType::Int8, true).with_metadata([name].into());
/// let a = Array::from(PrimitiveArray::<i8>::from_options([Some(0), Some(-3), None]));
/// let mut out = String::new();
/// for i in 0..a.len() {
///     write_field_value(&mut out, &field, &a, i).unwrap();
///     out.push(';');
/// }
/// assert_eq!(out, "false;true;null;");
/// ```
pub fn write_field_value(
    w: &mut impl Write,
    field: &Field,
    array: &Array,
    i: usize,
) -> fmt::Result {
    check_index(array, i);
    slot(w, Some(field), array, i, false)
}

/// Slot `i` of `a` whose field (when known) is `field`.
fn slot(
    w: &mut dyn Write,
    field: Option<&Field>,
    a: &Array,
    i: usize,
    nested: bool,
) -> fmt::Result {
    match (field.and_then(KnownExtension::of), a) {
        _ if a.is_null(i) && !matches!(a, Array::Union(_)) => w.write_str("null"),
        (Some(KnownExtension::Uuid), Array::FixedSizeBinary(x)) => uuid(w, x.value(i)),
        (Some(KnownExtension::Bool8), Array::I8(x)) => write!(w, "{}", x.value(i) != 0),
        _ => value(w, a, i, nested),
    }
}

/// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (lowercase hex, RFC 9562).
fn uuid(w: &mut dyn Write, bytes: &[u8]) -> fmt::Result {
    for (k, b) in bytes.iter().enumerate() {
        if matches!(k, 4 | 6 | 8 | 10) {
            w.write_char('-')?;
        }
        write!(w, "{b:02x}")?;
    }
    Ok(())
}

/// Renders slot `i` of `array` as text. Panics when `i >= array.len()`.
///
/// - null slots: `null`;
/// - strings as they are at the top level, quoted and escaped (`"a\"b"`) inside nested values;
///   binary and fixed-size binary as hex, `0x6a6f65`;
/// - floats in Rust's shortest round-trip form (`1.5`, `1.0`, `NaN`, `inf`, `1e-7`);
/// - decimals with their scale: `Decimal128(5, 2)` value 12345 is `123.45`; a negative scale
///   appends zeros;
/// - `Date32` `2020-01-31`; `Date64` the date, with `T` and the time when not a whole day;
///   `Time32/64` `12:34:56.789` with as many fraction digits as the unit has;
///   `Timestamp` `2020-01-31 12:24:56.789` with its zone (see below); `Duration` `1500ms`;
/// - intervals: `YearMonth` `1y2m`, `DayTime` `3d 4000ms`, `MonthDayNano` `1m 2d 3ns`;
/// - lists `[1, 2, null]`, structs `{a: 1, b: [2, 3]}`, maps `{"k": 1, "j": null}`, unions
///   the chosen child as `{name=value}`, dictionaries and run-end encoded arrays their value.
///
/// Zoned timestamps (a fixed offset, `UTC` or an IANA name) show the local time in their zone
/// followed by the offset in force: `2023-12-31 20:00:07-05:00` (see `crate::tz`).
///
/// ```
/// use quiver_arrow::{Array, PrimitiveArray, StringArray, DataType, TimeUnit};
/// use quiver_arrow::display::format_value;
/// let ts = PrimitiveArray::<i64>::new(vec![1580473496789])
///     .with_data_type(DataType::Timestamp(TimeUnit::Millisecond, None)).unwrap();
/// assert_eq!(format_value(&Array::from(ts), 0), "2020-01-31 12:24:56.789");
/// let s = Array::from(StringArray::from_options([Some("joe"), None]));
/// assert_eq!(format_value(&s, 0), "joe");
/// assert_eq!(format_value(&s, 1), "null");
/// ```
pub fn format_value(array: &Array, i: usize) -> String {
    let mut s = String::new();
    // Writing into a `String` cannot fail.
    let _ = write_value(&mut s, array, i);
    s
}

/// Like [`write_value`] but renders as inside a nested value (strings quoted); used by
/// equality diagnostics.
pub(crate) fn write_nested_value(w: &mut impl Write, array: &Array, i: usize) -> fmt::Result {
    check_index(array, i);
    value(w, array, i, true)
}

fn check_index(array: &Array, i: usize) {
    assert!(
        i < array.len(),
        "index {i} out of bounds of array of length {}",
        array.len()
    );
}

/// Slot `i` of `a`; `nested` selects the quoted form of strings.
fn value(w: &mut dyn Write, a: &Array, i: usize, nested: bool) -> fmt::Result {
    // Unions check their child's validity themselves (after checking the type id).
    if !matches!(a, Array::Union(_)) && a.is_null(i) {
        return w.write_str("null");
    }
    match a {
        Array::Null(_) => w.write_str("null"),
        Array::Boolean(x) => write!(w, "{}", x.value(i)),
        Array::I8(x) => write!(w, "{}", x.value(i)),
        Array::I16(x) => write!(w, "{}", x.value(i)),
        Array::U8(x) => write!(w, "{}", x.value(i)),
        Array::U16(x) => write!(w, "{}", x.value(i)),
        Array::U32(x) => write!(w, "{}", x.value(i)),
        Array::U64(x) => write!(w, "{}", x.value(i)),
        Array::I32(x) => int32(w, x.data_type(), x.value(i)),
        Array::I64(x) => int64(w, x.data_type(), x.value(i)),
        Array::F16(x) => write_f16(w, x.value(i)),
        Array::F32(x) => write!(w, "{:?}", x.value(i)),
        Array::F64(x) => write!(w, "{:?}", x.value(i)),
        Array::I128(x) => write_decimal(w, x.value(i).to_i128(), scale(x.data_type())),
        Array::I256(x) => write_decimal256(w, x.value(i), scale(x.data_type())),
        Array::DaysMs(x) => write_day_time(w, x.value(i)),
        Array::MonthDayNano(x) => write_month_day_nano(w, x.value(i)),
        Array::Binary(x) => write_hex(w, x.value(i)),
        Array::LargeBinary(x) => write_hex(w, x.value(i)),
        Array::BinaryView(x) => write_hex(w, x.value(i)),
        Array::FixedSizeBinary(x) => write_hex(w, x.value(i)),
        Array::Utf8(x) => string(w, x.value(i), nested),
        Array::LargeUtf8(x) => string(w, x.value(i), nested),
        Array::Utf8View(x) => string(w, x.value(i), nested),
        _ => composite(w, a, i, nested),
    }
}

fn composite(w: &mut dyn Write, a: &Array, i: usize, nested: bool) -> fmt::Result {
    match a {
        Array::List(x) => items(w, x.field(), x.values(), x.offsets().range(i)),
        Array::LargeList(x) => items(w, x.field(), x.values(), x.offsets().range(i)),
        Array::ListView(x) => {
            let start = x.offsets()[i].max(0) as usize;
            let range = start..start + x.sizes()[i].max(0) as usize;
            items(w, x.field(), x.values(), range)
        }
        Array::LargeListView(x) => {
            let start = x.offsets()[i].max(0) as usize;
            let range = start..start + x.sizes()[i].max(0) as usize;
            items(w, x.field(), x.values(), range)
        }
        Array::FixedSizeList(x) => {
            items(w, x.field(), x.values(), i * x.size()..(i + 1) * x.size())
        }
        Array::Struct(x) => struct_row(w, x, i),
        Array::Map(x) => map_entries(w, x, i),
        Array::Union(x) => union_value(w, x, i),
        Array::Dictionary(x) => dictionary_value(w, x, i, nested),
        Array::RunEndEncoded(x) => run_value(w, x, i, nested),
        // Flat layouts are handled by `value`.
        _ => w.write_str("<unsupported>"),
    }
}

fn scale(dt: &DataType) -> i8 {
    match dt {
        DataType::Decimal32 { scale, .. }
        | DataType::Decimal64 { scale, .. }
        | DataType::Decimal128 { scale, .. }
        | DataType::Decimal256 { scale, .. } => *scale,
        _ => 0,
    }
}

fn int32(w: &mut dyn Write, dt: &DataType, v: i32) -> fmt::Result {
    match dt {
        DataType::Date32 => write_date(w, v.into()),
        DataType::Time32(unit) => write_time(w, v.into(), *unit),
        DataType::Decimal32 { scale, .. } => write_decimal(w, v.into(), *scale),
        DataType::Interval(IntervalUnit::YearMonth) => write_year_month(w, v),
        _ => write!(w, "{v}"),
    }
}

fn int64(w: &mut dyn Write, dt: &DataType, v: i64) -> fmt::Result {
    match dt {
        DataType::Date64 => write_date64(w, v),
        DataType::Time64(unit) => write_time(w, v, *unit),
        DataType::Timestamp(unit, tz) => write_timestamp(w, v, *unit, tz.as_deref()),
        DataType::Duration(unit) => write_duration(w, v, *unit),
        DataType::Decimal64 { scale, .. } => write_decimal(w, v.into(), *scale),
        _ => write!(w, "{v}"),
    }
}

fn string(w: &mut dyn Write, s: &str, nested: bool) -> fmt::Result {
    if nested {
        write!(w, "{s:?}")
    } else {
        w.write_str(s)
    }
}

/// `[a, b, c]` from slots `range` of `child`, the values of `field`.
fn items(w: &mut dyn Write, field: &Field, child: &Array, range: Range<usize>) -> fmt::Result {
    if range.end > child.len() {
        return w.write_str("<invalid list range>");
    }
    w.write_char('[')?;
    for (n, k) in range.enumerate() {
        if n > 0 {
            w.write_str(", ")?;
        }
        slot(w, Some(field), child, k, true)?;
    }
    w.write_char(']')
}

fn struct_row(w: &mut dyn Write, s: &StructArray, i: usize) -> fmt::Result {
    w.write_char('{')?;
    for (n, (f, c)) in s.fields().iter().zip(s.columns()).enumerate() {
        if n > 0 {
            w.write_str(", ")?;
        }
        write!(w, "{}: ", f.name())?;
        slot(w, Some(f), c, i, true)?;
    }
    w.write_char('}')
}

fn map_entries(w: &mut dyn Write, m: &MapArray, i: usize) -> fmt::Result {
    let range = m.offsets().range(i);
    if range.end > m.entries().len() {
        return w.write_str("<invalid map range>");
    }
    let (keys, values) = (m.keys(), m.values());
    w.write_char('{')?;
    for (n, k) in range.enumerate() {
        if n > 0 {
            w.write_str(", ")?;
        }
        value(w, keys, k, true)?;
        w.write_str(": ")?;
        value(w, values, k, true)?;
    }
    w.write_char('}')
}

fn union_value(w: &mut dyn Write, u: &UnionArray, i: usize) -> fmt::Result {
    let id = u.type_ids()[i];
    let Some(c) = u.fields().index_of(id) else {
        return write!(w, "<invalid type id {id}>");
    };
    let (child, offset) = (&u.children()[c], u.value_offset(i));
    if offset >= child.len() {
        return w.write_str("<invalid union offset>");
    }
    if child.is_null(offset) {
        return w.write_str("null");
    }
    write!(w, "{{{}=", u.fields().fields()[c].name())?;
    value(w, child, offset, true)?;
    w.write_char('}')
}

fn dictionary_value(w: &mut dyn Write, d: &DictionaryArray, i: usize, nested: bool) -> fmt::Result {
    match d.key(i) {
        Some(k) if k < d.values().len() => value(w, d.values(), k, nested),
        Some(k) => write!(w, "<invalid key {k}>"),
        None => w.write_str("null"),
    }
}

fn run_value(w: &mut dyn Write, r: &RunEndArray, i: usize, nested: bool) -> fmt::Result {
    let j = r.physical_index(i);
    if j >= r.values().len() {
        return w.write_str("<invalid run>");
    }
    value(w, r.values(), j, nested)
}
