//! Leaf columns' Arrow types: the physical type with its logical type (or, in older files, its
//! converted type), mapped as Arrow C++ (pyarrow) maps them. An unknown logical type falls back
//! to the physical type.

use super::options::{ReadOptions, StringLayout};
use crate::format::{ConvertedType, LogicalType, SchemaElement, TimeUnit, Type};
use quiver_arrow::datatype::{DataType, TimeUnit as ArrowUnit};
use quiver_arrow::{Error, Result};
use std::sync::Arc;

/// The time units both formats have (Parquet has no seconds), read and written by this table.
const UNITS: [(TimeUnit, ArrowUnit); 3] = [
    (TimeUnit::Millis, ArrowUnit::Millisecond),
    (TimeUnit::Micros, ArrowUnit::Microsecond),
    (TimeUnit::Nanos, ArrowUnit::Nanosecond),
];

fn unit(u: TimeUnit) -> Option<ArrowUnit> {
    UNITS.iter().find(|(p, _)| *p == u).map(|&(_, a)| a)
}

/// The Parquet unit of an Arrow unit; `None` for seconds.
pub(super) fn parquet_unit(u: ArrowUnit) -> Option<TimeUnit> {
    UNITS.iter().find(|(_, a)| *a == u).map(|&(p, _)| p)
}

/// An integer annotation: `INTEGER(bits, signed)` on its physical type, the legacy converted
/// type meaning the same, and the Arrow type it is.
pub(super) struct IntegerAnnotation {
    pub bit_width: i8,
    pub is_signed: bool,
    pub physical: Type,
    pub converted: ConvertedType,
    pub arrow: DataType,
}

const fn int(
    bit_width: i8,
    is_signed: bool,
    converted: ConvertedType,
    arrow: DataType,
) -> IntegerAnnotation {
    let physical = if bit_width == 64 {
        Type::INT64
    } else {
        Type::INT32
    };
    IntegerAnnotation {
        bit_width,
        is_signed,
        physical,
        converted,
        arrow,
    }
}

/// Every integer annotation, read (logical or converted type → Arrow) and written (Arrow →
/// both annotations) by this one table.
pub(super) static INTEGERS: [IntegerAnnotation; 8] = [
    int(8, true, ConvertedType::INT_8, DataType::Int8),
    int(16, true, ConvertedType::INT_16, DataType::Int16),
    int(32, true, ConvertedType::INT_32, DataType::Int32),
    int(64, true, ConvertedType::INT_64, DataType::Int64),
    int(8, false, ConvertedType::UINT_8, DataType::UInt8),
    int(16, false, ConvertedType::UINT_16, DataType::UInt16),
    int(32, false, ConvertedType::UINT_32, DataType::UInt32),
    int(64, false, ConvertedType::UINT_64, DataType::UInt64),
];

/// The name of the canonical UUID extension type (`FIXED_LEN_BYTE_ARRAY(16)` with `UUID`).
pub(super) const UUID_EXTENSION: &str = "arrow.uuid";
/// The name of the canonical JSON extension type (`BYTE_ARRAY` with `JSON`).
pub(super) const JSON_EXTENSION: &str = "arrow.json";

fn decimal(precision: i32, scale: i32, name: &str) -> Result<DataType> {
    if !(1..=76).contains(&precision) || scale < -128 || scale > precision {
        return Err(Error::oos(format!(
            "column {name:?}: DECIMAL({precision}, {scale}) is not a valid decimal"
        )));
    }
    let (precision, scale) = (precision as u8, scale as i8);
    Ok(if precision <= 38 {
        DataType::Decimal128 { precision, scale }
    } else {
        DataType::Decimal256 { precision, scale }
    })
}

fn utc(adjusted: bool) -> Option<Arc<str>> {
    adjusted.then(|| Arc::from("UTC"))
}

fn mismatch(e: &SchemaElement<'_>, what: &str) -> Error {
    Error::oos(format!(
        "column {:?}: {what} cannot annotate physical type {:?}",
        e.name, e.type_
    ))
}

fn strings(options: &ReadOptions) -> DataType {
    match options.strings {
        StringLayout::Default => DataType::Utf8,
        StringLayout::Large => DataType::LargeUtf8,
        StringLayout::View => DataType::Utf8View,
    }
}

fn binary(options: &ReadOptions) -> DataType {
    match options.strings {
        StringLayout::Default => DataType::Binary,
        StringLayout::Large => DataType::LargeBinary,
        StringLayout::View => DataType::BinaryView,
    }
}

/// The canonical extension type a logical type reads as (pyarrow's default): `arrow.uuid` over
/// `fixed_size_binary[16]`, `arrow.json` over strings. Without a logical type, the converted
/// type `JSON` stands for it (as Arrow C++ derives one from the other; fastparquet writes only
/// the converted type).
pub fn extension(e: &SchemaElement<'_>) -> Option<&'static str> {
    let logical = match (e.logical_type, e.converted_type) {
        (None, Some(ConvertedType::JSON)) => Some(LogicalType::Json),
        (l, _) => l,
    };
    match (logical, e.type_) {
        (Some(LogicalType::Uuid), Some(Type::FIXED_LEN_BYTE_ARRAY))
            if e.type_length == Some(16) =>
        {
            Some(UUID_EXTENSION)
        }
        (Some(LogicalType::Json), Some(Type::BYTE_ARRAY)) => Some(JSON_EXTENSION),
        _ => None,
    }
}

/// The Arrow type of leaf element `e` (the storage type, for an [`extension`]).
pub fn leaf_type(e: &SchemaElement<'_>, options: &ReadOptions) -> Result<DataType> {
    let physical = e.type_.unwrap_or(Type::Unknown(-1));
    if let Some(logical) = e
        .logical_type
        .filter(|l| !matches!(l, LogicalType::Unknown(_)))
    {
        return from_logical(e, physical, logical, options);
    }
    match e.converted_type {
        Some(c) if !matches!(c, ConvertedType::Unknown(_)) => {
            from_converted(e, physical, c, options)
        }
        _ => Ok(plain(physical, e, options)),
    }
}

fn plain(physical: Type, e: &SchemaElement<'_>, options: &ReadOptions) -> DataType {
    match physical {
        Type::BOOLEAN => DataType::Boolean,
        Type::INT32 => DataType::Int32,
        Type::INT64 => DataType::Int64,
        Type::INT96 => DataType::Timestamp(options.int96_unit, None),
        Type::FLOAT => DataType::Float32,
        Type::DOUBLE => DataType::Float64,
        Type::BYTE_ARRAY => binary(options),
        Type::FIXED_LEN_BYTE_ARRAY => DataType::FixedSizeBinary(e.type_length.unwrap_or(0)),
        Type::Unknown(_) => DataType::Null,
    }
}

fn from_logical(
    e: &SchemaElement<'_>,
    physical: Type,
    logical: LogicalType<'_>,
    options: &ReadOptions,
) -> Result<DataType> {
    use LogicalType as L;
    use Type as T;
    Ok(match (logical, physical) {
        (L::String | L::Json | L::Enum, T::BYTE_ARRAY) => {
            if logical == L::Enum {
                binary(options)
            } else {
                strings(options)
            }
        }
        (L::Bson, T::BYTE_ARRAY) => binary(options),
        (
            L::Decimal { scale, precision },
            T::INT32 | T::INT64 | T::BYTE_ARRAY | T::FIXED_LEN_BYTE_ARRAY,
        ) => decimal(precision, scale, e.name)?,
        (L::Date, T::INT32) => DataType::Date32,
        (
            L::Time {
                unit: TimeUnit::Millis,
                ..
            },
            T::INT32,
        ) => DataType::Time32(ArrowUnit::Millisecond),
        (
            L::Time {
                unit: u @ (TimeUnit::Micros | TimeUnit::Nanos),
                ..
            },
            T::INT64,
        ) => DataType::Time64(unit(u).unwrap_or(ArrowUnit::Microsecond)),
        (
            L::Timestamp {
                is_adjusted_to_utc,
                unit: u,
            },
            T::INT64,
        ) => match unit(u) {
            Some(u) => DataType::Timestamp(u, utc(is_adjusted_to_utc)),
            None => DataType::Int64,
        },
        (
            L::Integer {
                bit_width,
                is_signed,
            },
            T::INT32 | T::INT64,
        ) => match INTEGERS
            .iter()
            .find(|i| (i.bit_width, i.is_signed, i.physical) == (bit_width, is_signed, physical))
        {
            Some(i) => i.arrow.clone(),
            None => return Err(mismatch(e, &format!("INTEGER({bit_width}, {is_signed})"))),
        },
        (L::Null, _) => DataType::Null,
        (L::Float16, T::FIXED_LEN_BYTE_ARRAY) if e.type_length == Some(2) => DataType::Float16,
        (L::Uuid, T::FIXED_LEN_BYTE_ARRAY) if e.type_length == Some(16) => {
            DataType::FixedSizeBinary(16)
        }
        // Geometry and geography are WKB bytes; variants and vectors are groups or bytes.
        (L::Geometry { .. } | L::Geography { .. }, T::BYTE_ARRAY) => binary(options),
        (L::Variant { .. } | L::Vector | L::Unknown(_), _) => plain(physical, e, options),
        (l, _) => return Err(mismatch(e, &format!("{l:?}"))),
    })
}

fn from_converted(
    e: &SchemaElement<'_>,
    physical: Type,
    converted: ConvertedType,
    options: &ReadOptions,
) -> Result<DataType> {
    use ConvertedType as C;
    use Type as T;
    if let Some(i) = INTEGERS
        .iter()
        .find(|i| (i.converted, i.physical) == (converted, physical))
    {
        return Ok(i.arrow.clone());
    }
    Ok(match (converted, physical) {
        (C::UTF8 | C::JSON, T::BYTE_ARRAY) => strings(options),
        (C::ENUM | C::BSON, T::BYTE_ARRAY) => binary(options),
        (C::DECIMAL, T::INT32 | T::INT64 | T::BYTE_ARRAY | T::FIXED_LEN_BYTE_ARRAY) => {
            decimal(e.precision.unwrap_or(0), e.scale.unwrap_or(0), e.name)?
        }
        (C::DATE, T::INT32) => DataType::Date32,
        (C::TIME_MILLIS, T::INT32) => DataType::Time32(ArrowUnit::Millisecond),
        (C::TIME_MICROS, T::INT64) => DataType::Time64(ArrowUnit::Microsecond),
        (C::TIMESTAMP_MILLIS, T::INT64) => DataType::Timestamp(ArrowUnit::Millisecond, utc(true)),
        (C::TIMESTAMP_MICROS, T::INT64) => DataType::Timestamp(ArrowUnit::Microsecond, utc(true)),
        (C::INTERVAL, T::FIXED_LEN_BYTE_ARRAY) => {
            DataType::FixedSizeBinary(e.type_length.unwrap_or(12))
        }
        // LIST, MAP and MAP_KEY_VALUE annotate groups; on a leaf they mean nothing.
        (C::LIST | C::MAP | C::MAP_KEY_VALUE, _) => plain(physical, e, options),
        (c, _) => return Err(mismatch(e, c.name())),
    })
}
