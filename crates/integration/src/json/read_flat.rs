//! Columns without children: null, boolean, fixed-width primitives, binary and strings
//! (offsets, fixed-size, views).

use super::decimal::{decimal32, decimal64, decimal128, decimal256};
use super::members::VARIADIC;
use super::node::Node;
use super::value::{
    as_object, hex_decode, hex_decode_into, int_member, json_bool, json_f64, json_str, native_int,
    str_member,
};
use half::f16;
use quiver_arrow::buffer::{Offset, OffsetBuffer};
use quiver_arrow::datatype::BufferKind as K;
use quiver_arrow::{
    Array, BinaryViewArray, BooleanArray, Buffer, DataType, DaysMs, Error, FixedSizeBinaryArray,
    GenericBinaryArray, GenericStringArray, IntervalUnit, MonthDayNano, NullArray, PrimitiveArray,
    PrimitiveType, Result, StringViewArray, View,
};
use serde_json::Value;
use std::sync::Arc;

/// The array of a type without children.
pub(crate) fn flat(node: &Node, dt: &DataType) -> Result<Array> {
    use DataType as D;
    match dt {
        D::Null => Ok(NullArray::new(node.len).into()),
        D::Boolean => boolean(node),
        D::Int8 => primitive::<i8>(node, dt, native_int),
        D::Int16 => primitive::<i16>(node, dt, native_int),
        D::Int32 | D::Date32 | D::Time32(_) | D::Interval(IntervalUnit::YearMonth) => {
            primitive::<i32>(node, dt, native_int)
        }
        D::Int64 | D::Date64 | D::Time64(_) | D::Timestamp(..) | D::Duration(_) => {
            primitive::<i64>(node, dt, native_int)
        }
        D::UInt8 => primitive::<u8>(node, dt, native_int),
        D::UInt16 => primitive::<u16>(node, dt, native_int),
        D::UInt32 => primitive::<u32>(node, dt, native_int),
        D::UInt64 => primitive::<u64>(node, dt, native_int),
        D::Float16 => primitive::<f16>(node, dt, half_float),
        D::Float32 => primitive::<f32>(node, dt, |v| Ok(json_f64(v)? as f32)),
        D::Float64 => primitive::<f64>(node, dt, json_f64),
        D::Decimal32 { .. } => primitive(node, dt, decimal32),
        D::Decimal64 { .. } => primitive(node, dt, decimal64),
        D::Decimal128 { .. } => primitive(node, dt, decimal128),
        D::Decimal256 { .. } => primitive(node, dt, decimal256),
        D::Interval(IntervalUnit::DayTime) => primitive(node, dt, days_ms),
        D::Interval(IntervalUnit::MonthDayNano) => primitive(node, dt, month_day_nano),
        D::Binary => binary::<i32>(node),
        D::LargeBinary => binary::<i64>(node),
        D::Utf8 => utf8::<i32>(node),
        D::LargeUtf8 => utf8::<i64>(node),
        D::FixedSizeBinary(w) => fixed_size_binary(node, *w),
        D::BinaryView | D::Utf8View => views(node, matches!(dt, D::Utf8View)),
        other => Err(Error::not_supported(format!(
            "{other} is not a flat type (internal dispatch error)"
        ))),
    }
}

fn boolean(node: &Node) -> Result<Array> {
    let values = node.values(K::Values, node.len, json_bool)?;
    let a = BooleanArray::try_new(values.into_iter().collect(), node.validity()?);
    Ok(a.map_err(Error::into_input_error)?.into())
}

fn primitive<T: PrimitiveType>(
    node: &Node,
    dt: &DataType,
    parse: impl Fn(&Value) -> Result<T>,
) -> Result<Array> {
    let values = node.values(K::Values, node.len, parse)?;
    let a = PrimitiveArray::<T>::try_new(dt.clone(), values.into(), node.validity()?);
    Ok(a.map_err(Error::into_input_error)?.into())
}

/// A half float. Arrow C++ writes the 16-bit pattern as a JSON integer; a JSON number with a
/// fraction or exponent (or a special such as `"NaN"`) is read as the value instead.
fn half_float(v: &Value) -> Result<f16> {
    match v {
        Value::Number(n) if n.is_u64() || n.is_i64() => {
            let bits = native_int::<u16>(v)?;
            Ok(f16::from_bits(bits))
        }
        _ => Ok(f16::from_f64(json_f64(v)?)),
    }
}

fn days_ms(v: &Value) -> Result<DaysMs> {
    let o = as_object(v, "a DAY_TIME interval")?;
    Ok(DaysMs {
        days: int_member(o, "days")?,
        milliseconds: int_member(o, "milliseconds")?,
    })
}

fn month_day_nano(v: &Value) -> Result<MonthDayNano> {
    let o = as_object(v, "a MONTH_DAY_NANO interval")?;
    Ok(MonthDayNano {
        months: int_member(o, "months")?,
        days: int_member(o, "days")?,
        nanoseconds: int_member(o, "nanoseconds")?,
    })
}

/// Offsets and values of a variable-size binary column whose `DATA` holds one entry per
/// slot, decoded by `bytes`. The values buffer is the concatenation of the entries; `OFFSET`
/// must agree with their lengths, except that a null slot written as an empty entry may
/// span bytes (writers that print nulls as `""` over non-empty ranges): it becomes empty.
fn var_size<O: Offset + TryFrom<i128>>(
    node: &Node,
    bytes: impl Fn(&Value, &mut Vec<u8>) -> Result<()>,
) -> Result<(OffsetBuffer<O>, Buffer<u8>, Option<quiver_arrow::Bitmap>)> {
    let validity = node.validity()?;
    let offsets = node.values(K::Offsets, node.len + 1, native_int::<O>)?;
    let data = node.buffer(K::Data, node.len)?;
    if offsets[0] < O::ZERO {
        return Err(Error::oos(format!(
            "OFFSET[0] is {}; offsets must not be negative",
            offsets[0].to_i64()
        )));
    }
    let mut values = Vec::new();
    let mut out = Vec::with_capacity(node.len + 1);
    out.push(O::ZERO);
    for (i, v) in data.iter().enumerate() {
        let start = values.len();
        bytes(v, &mut values).map_err(|e| e.context(format!("DATA[{i}]")))?;
        let len = (values.len() - start) as i128;
        let span = i128::from(offsets[i + 1].to_i64()) - i128::from(offsets[i].to_i64());
        let is_null = validity.as_ref().is_some_and(|b| !b.get(i));
        if span < 0 || (span != len && !(is_null && len == 0)) {
            return Err(Error::oos(format!(
                "OFFSET says value {i} has {span} bytes but DATA[{i}] has {len}"
            )));
        }
        let end = O::from_usize(values.len())
            .ok_or_else(|| Error::oos("values exceed the offset type".to_string()))?;
        out.push(end);
    }
    let offsets = OffsetBuffer::try_new(out.into())?;
    Ok((offsets, values.into(), validity))
}

fn binary<O: Offset + TryFrom<i128>>(node: &Node) -> Result<Array>
where
    Array: From<GenericBinaryArray<O>>,
{
    let (offsets, values, validity) =
        var_size::<O>(node, |v, out| hex_decode_into(json_str(v)?, out))?;
    let a = GenericBinaryArray::<O>::try_new(offsets, values, validity)
        .map_err(Error::into_input_error)?;
    Ok(Array::from(a))
}

fn utf8<O: Offset + TryFrom<i128>>(node: &Node) -> Result<Array>
where
    Array: From<GenericStringArray<O>>,
{
    let (offsets, values, validity) = var_size::<O>(node, |v, out| {
        out.extend_from_slice(json_str(v)?.as_bytes());
        Ok(())
    })?;
    let a = GenericStringArray::<O>::try_new(offsets, values, validity)
        .map_err(Error::into_input_error)?;
    Ok(Array::from(a))
}

fn fixed_size_binary(node: &Node, width: i32) -> Result<Array> {
    let validity = node.validity()?;
    let w =
        usize::try_from(width).map_err(|_| Error::oos(format!("byteWidth {width} is negative")))?;
    let mut values = Vec::new();
    // Every slot, null ones included, holds `byteWidth` bytes (so that what is allocated is
    // bounded by the input, whatever the declared width).
    for (i, v) in node.buffer(K::Values, node.len)?.iter().enumerate() {
        let start = values.len();
        json_str(v)
            .and_then(|s| hex_decode_into(s, &mut values))
            .map_err(|e| e.context(format!("DATA[{i}]")))?;
        let len = values.len() - start;
        if len != w {
            return Err(Error::oos(format!(
                "DATA[{i}] has {len} bytes, expected {w} (byteWidth)"
            )));
        }
    }
    let a = FixedSizeBinaryArray::try_new(width, node.len, values.into(), validity);
    Ok(a.map_err(Error::into_input_error)?.into())
}

/// A `BinaryView` / `Utf8View` column: `VIEWS` and `VARIADIC_DATA_BUFFERS`.
fn views(node: &Node, utf8: bool) -> Result<Array> {
    let validity = node.validity()?;
    let views = node.values(K::Views, node.len, |v| view(v, utf8))?;
    let buffers = node
        .variadic()?
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let bytes =
                hex_decode(json_str(b)?).map_err(|e| e.context(format!("{VARIADIC}[{i}]")))?;
            Ok(Buffer::from(bytes))
        })
        .collect::<Result<Vec<_>>>()?;
    let buffers: Arc<[Buffer<u8>]> = buffers.into();
    let views = Buffer::from(views);
    let a = if utf8 {
        StringViewArray::try_new(views, buffers, validity).map(Array::from)
    } else {
        BinaryViewArray::try_new(views, buffers, validity).map(Array::from)
    };
    a.map_err(Error::into_input_error)
}

/// One view: `{SIZE, INLINED}` or `{SIZE, PREFIX_HEX, BUFFER_INDEX, OFFSET}`.
fn view(v: &Value, utf8: bool) -> Result<View> {
    let o = as_object(v, "a view")?;
    let size: u32 = int_member(o, "SIZE")?;
    if size as usize <= View::MAX_INLINE {
        let inlined = str_member(o, "INLINED")?;
        let bytes = if utf8 {
            inlined.as_bytes().to_vec()
        } else {
            hex_decode(inlined).map_err(|e| e.context("INLINED"))?
        };
        if bytes.len() != size as usize {
            return Err(Error::oos(format!(
                "INLINED has {} bytes but SIZE is {size}",
                bytes.len()
            )));
        }
        return Ok(View::inline(&bytes));
    }
    let prefix = hex_decode(str_member(o, "PREFIX_HEX")?).map_err(|e| e.context("PREFIX_HEX"))?;
    let prefix: [u8; 4] = prefix.try_into().map_err(|p: Vec<u8>| {
        Error::oos(format!("PREFIX_HEX has {} bytes, expected 4", p.len()))
    })?;
    let index: u32 = int_member(o, "BUFFER_INDEX")?;
    let offset: u32 = int_member(o, "OFFSET")?;
    Ok(View::reference(size, prefix, index, offset))
}
