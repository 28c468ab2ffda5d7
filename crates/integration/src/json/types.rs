//! The `type` object of a field: [`DataType`] to JSON and back (children are passed in and
//! out separately, as the format keeps them in the field's `children`).

use super::value::{Object, bool_member, int_member, json_int, kind, str_member};
use quiver_arrow::{
    DataType, Error, FieldRef, Fields, IntegerType, IntervalUnit, Result, TimeUnit, UnionFields,
    UnionMode,
};
use serde_json::{Value, json};
use std::sync::Arc;

/// The data type named by a JSON `type` object, given the field's children.
pub(crate) fn type_from_json(t: &Object, children: Vec<FieldRef>) -> Result<DataType> {
    let name = str_member(t, "name")?;
    let arity = |n: usize| -> Result<()> {
        if children.len() != n {
            return Err(Error::oos(format!(
                "type \"{name}\" needs {n} children, found {}",
                children.len()
            )));
        }
        Ok(())
    };
    let only_child = |children: &[FieldRef]| children[0].clone();
    let dt = match name {
        "list" | "largelist" | "listview" | "largelistview" | "fixedsizelist" | "map" => {
            arity(1)?;
            nested_one(t, name, only_child(&children))?
        }
        "struct" => DataType::Struct(Fields::from(children)),
        "union" => union_from_json(t, children)?,
        "runendencoded" => {
            arity(2)?;
            DataType::RunEndEncoded(children[0].clone(), children[1].clone())
        }
        _ => {
            arity(0)?;
            flat_from_json(t, name)?
        }
    };
    dt.validate()?;
    Ok(dt)
}

fn nested_one(t: &Object, name: &str, child: FieldRef) -> Result<DataType> {
    Ok(match name {
        "list" => DataType::List(child),
        "largelist" => DataType::LargeList(child),
        "listview" => DataType::ListView(child),
        "largelistview" => DataType::LargeListView(child),
        "fixedsizelist" => DataType::FixedSizeList(child, int_member(t, "listSize")?),
        _ => DataType::Map(child, bool_member(t, "keysSorted", Some(false))?),
    })
}

fn union_from_json(t: &Object, children: Vec<FieldRef>) -> Result<DataType> {
    let mode = match str_member(t, "mode")? {
        "SPARSE" | "Sparse" => UnionMode::Sparse,
        "DENSE" | "Dense" => UnionMode::Dense,
        other => return Err(Error::oos(format!("unknown union mode \"{other}\""))),
    };
    let ids: Vec<i8> = match t.get("typeIds") {
        None | Some(Value::Null) => (0..children.len())
            .map(|i| i8::try_from(i).map_err(|_| Error::oos("union has over 127 children")))
            .collect::<Result<_>>()?,
        Some(v) => v
            .as_array()
            .ok_or_else(|| Error::oos("\"typeIds\" must be an array"))?
            .iter()
            .map(|id| {
                let i = json_int(id)?;
                i8::try_from(i)
                    .map_err(|_| Error::oos(format!("union type id {i} is not in 0..=127")))
            })
            .collect::<Result<_>>()?,
    };
    let fields = UnionFields::try_new(ids, children).map_err(|e| Error::oos(e.to_string()))?;
    Ok(DataType::Union(fields, mode))
}

fn flat_from_json(t: &Object, name: &str) -> Result<DataType> {
    use DataType as D;
    Ok(match name {
        "null" => D::Null,
        "bool" => D::Boolean,
        "int" => int_from_json(t)?.data_type(),
        "floatingpoint" => match str_member(t, "precision")? {
            "HALF" => D::Float16,
            "SINGLE" => D::Float32,
            "DOUBLE" => D::Float64,
            other => return Err(Error::oos(format!("unknown float precision \"{other}\""))),
        },
        "decimal" => decimal_from_json(t, None)?,
        // Arrow C++ writes these names (without `bitWidth`); its reader and the generator
        // use "decimal" with `bitWidth`, which is what quiver writes.
        "decimal32" => decimal_from_json(t, Some(32))?,
        "decimal64" => decimal_from_json(t, Some(64))?,
        "decimal128" => decimal_from_json(t, Some(128))?,
        "decimal256" => decimal_from_json(t, Some(256))?,
        "date" => match str_member(t, "unit")? {
            "DAY" => D::Date32,
            "MILLISECOND" => D::Date64,
            other => return Err(Error::oos(format!("unknown date unit \"{other}\""))),
        },
        "time" => {
            let unit = time_unit(t)?;
            let default = matches!(unit, TimeUnit::Second | TimeUnit::Millisecond);
            match t.get("bitWidth").map(json_int).transpose()? {
                Some(32) => D::Time32(unit),
                Some(64) => D::Time64(unit),
                None if default => D::Time32(unit),
                None => D::Time64(unit),
                Some(w) => return Err(Error::oos(format!("time bitWidth {w} is not 32 or 64"))),
            }
        }
        "timestamp" => D::Timestamp(time_unit(t)?, timezone(t)?),
        "duration" => D::Duration(time_unit(t)?),
        "interval" => D::Interval(match str_member(t, "unit")? {
            "YEAR_MONTH" => IntervalUnit::YearMonth,
            "DAY_TIME" => IntervalUnit::DayTime,
            "MONTH_DAY_NANO" => IntervalUnit::MonthDayNano,
            other => return Err(Error::oos(format!("unknown interval unit \"{other}\""))),
        }),
        "binary" => D::Binary,
        "largebinary" => D::LargeBinary,
        "utf8" => D::Utf8,
        "largeutf8" => D::LargeUtf8,
        "binaryview" => D::BinaryView,
        "utf8view" => D::Utf8View,
        "fixedsizebinary" => D::FixedSizeBinary(int_member(t, "byteWidth")?),
        other => return Err(Error::oos(format!("unknown type name \"{other}\""))),
    })
}

/// An `int` type object as an integer type.
pub(crate) fn int_from_json(t: &Object) -> Result<IntegerType> {
    let name = str_member(t, "name")?;
    if name != "int" {
        return Err(Error::oos(format!(
            "expected an \"int\" type, found \"{name}\""
        )));
    }
    let signed = bool_member(t, "isSigned", None)?;
    let width: i64 = int_member(t, "bitWidth")?;
    IntegerType::from_bit_width(width, signed)
        .ok_or_else(|| Error::oos(format!("int bitWidth {width} is not 8, 16, 32 or 64")))
}

/// A decimal type; the width is `bitWidth`, else the one the name implies, else 128.
fn decimal_from_json(t: &Object, named_width: Option<i64>) -> Result<DataType> {
    let precision: u8 = int_member(t, "precision")?;
    let scale: i8 = int_member(t, "scale")?;
    let width: i64 = match t.get("bitWidth") {
        None => named_width.unwrap_or(128),
        Some(_) => int_member(t, "bitWidth")?,
    };
    Ok(match width {
        32 => DataType::Decimal32 { precision, scale },
        64 => DataType::Decimal64 { precision, scale },
        128 => DataType::Decimal128 { precision, scale },
        256 => DataType::Decimal256 { precision, scale },
        _ => {
            return Err(Error::oos(format!(
                "decimal bitWidth {width} is not 32, 64, 128 or 256"
            )));
        }
    })
}

fn time_unit(t: &Object) -> Result<TimeUnit> {
    Ok(match str_member(t, "unit")? {
        "SECOND" => TimeUnit::Second,
        "MILLISECOND" => TimeUnit::Millisecond,
        "MICROSECOND" => TimeUnit::Microsecond,
        "NANOSECOND" => TimeUnit::Nanosecond,
        other => return Err(Error::oos(format!("unknown time unit \"{other}\""))),
    })
}

fn timezone(t: &Object) -> Result<Option<Arc<str>>> {
    match t.get("timezone") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str().into())),
        Some(other) => Err(Error::oos(format!(
            "\"timezone\" must be a string, not {}",
            kind(other)
        ))),
    }
}

fn unit_name(u: TimeUnit) -> &'static str {
    match u {
        TimeUnit::Second => "SECOND",
        TimeUnit::Millisecond => "MILLISECOND",
        TimeUnit::Microsecond => "MICROSECOND",
        TimeUnit::Nanosecond => "NANOSECOND",
    }
}

/// The JSON `type` object of an integer type.
pub(crate) fn int_to_json(t: IntegerType) -> Value {
    json!({"name": "int", "isSigned": t.is_signed(), "bitWidth": t.bit_width()})
}

/// The JSON `type` object of `dt` (not a dictionary: the field writer unwraps those).
pub(crate) fn type_to_json(dt: &DataType) -> Value {
    use DataType as D;
    let named = |name: &str| json!({ "name": name });
    let decimal = |p: &u8, s: &i8, w: u32| json!({"name": "decimal", "precision": p, "scale": s, "bitWidth": w});
    match dt {
        D::Null => named("null"),
        D::Boolean => named("bool"),
        D::Int8 => int_to_json(IntegerType::Int8),
        D::Int16 => int_to_json(IntegerType::Int16),
        D::Int32 => int_to_json(IntegerType::Int32),
        D::Int64 => int_to_json(IntegerType::Int64),
        D::UInt8 => int_to_json(IntegerType::UInt8),
        D::UInt16 => int_to_json(IntegerType::UInt16),
        D::UInt32 => int_to_json(IntegerType::UInt32),
        D::UInt64 => int_to_json(IntegerType::UInt64),
        D::Float16 => json!({"name": "floatingpoint", "precision": "HALF"}),
        D::Float32 => json!({"name": "floatingpoint", "precision": "SINGLE"}),
        D::Float64 => json!({"name": "floatingpoint", "precision": "DOUBLE"}),
        D::Decimal32 { precision, scale } => decimal(precision, scale, 32),
        D::Decimal64 { precision, scale } => decimal(precision, scale, 64),
        D::Decimal128 { precision, scale } => decimal(precision, scale, 128),
        D::Decimal256 { precision, scale } => decimal(precision, scale, 256),
        D::Date32 => json!({"name": "date", "unit": "DAY"}),
        D::Date64 => json!({"name": "date", "unit": "MILLISECOND"}),
        D::Time32(u) => json!({"name": "time", "unit": unit_name(*u), "bitWidth": 32}),
        D::Time64(u) => json!({"name": "time", "unit": unit_name(*u), "bitWidth": 64}),
        D::Timestamp(u, None) => json!({"name": "timestamp", "unit": unit_name(*u)}),
        D::Timestamp(u, Some(tz)) => {
            json!({"name": "timestamp", "unit": unit_name(*u), "timezone": tz.as_ref()})
        }
        D::Duration(u) => json!({"name": "duration", "unit": unit_name(*u)}),
        D::Interval(u) => json!({"name": "interval", "unit": match u {
            IntervalUnit::YearMonth => "YEAR_MONTH",
            IntervalUnit::DayTime => "DAY_TIME",
            IntervalUnit::MonthDayNano => "MONTH_DAY_NANO",
        }}),
        D::FixedSizeBinary(w) => json!({"name": "fixedsizebinary", "byteWidth": w}),
        D::Binary => named("binary"),
        D::Utf8 => named("utf8"),
        D::LargeBinary => named("largebinary"),
        D::LargeUtf8 => named("largeutf8"),
        D::BinaryView => named("binaryview"),
        D::Utf8View => named("utf8view"),
        D::FixedSizeList(_, n) => json!({"name": "fixedsizelist", "listSize": n}),
        D::List(_) => named("list"),
        D::LargeList(_) => named("largelist"),
        D::ListView(_) => named("listview"),
        D::LargeListView(_) => named("largelistview"),
        D::Struct(_) => named("struct"),
        D::Map(_, sorted) => json!({"name": "map", "keysSorted": sorted}),
        D::Union(u, mode) => json!({
            "name": "union",
            "mode": match mode { UnionMode::Sparse => "SPARSE", UnionMode::Dense => "DENSE" },
            "typeIds": u.type_ids(),
        }),
        D::RunEndEncoded(..) => named("runendencoded"),
        D::Dictionary { value, .. } => type_to_json(value),
    }
}
