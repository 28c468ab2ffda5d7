//! One Arrow leaf type → its physical type and annotations (logical type and the legacy
//! converted type Arrow C++ derives from it), sort order and value conversion.

use super::super::physical::{Conversion, DecimalStorage, SortOrder};
use super::super::types::{INTEGERS, JSON_EXTENSION, UUID_EXTENSION, parquet_unit};
use crate::format::{ConvertedType, LogicalType, TimeUnit, Type};
use quiver_arrow::datatype::{DataType, Field, TimeUnit as ArrowUnit};
use quiver_arrow::display::{format_field_type, format_type};

/// What a leaf is in Parquet.
pub(super) struct Annotation {
    pub physical: Type,
    pub type_length: Option<i32>,
    pub logical: Option<LogicalType<'static>>,
    pub converted: Option<ConvertedType>,
    pub precision: Option<i32>,
    pub scale: Option<i32>,
    pub sort_order: SortOrder,
    pub conversion: Conversion,
}

impl Annotation {
    fn new(physical: Type, sort_order: SortOrder, conversion: Conversion) -> Self {
        Annotation {
            physical,
            type_length: None,
            logical: None,
            converted: None,
            precision: None,
            scale: None,
            sort_order,
            conversion,
        }
    }

    /// Sets the logical type and the converted type Arrow C++ derives from it.
    fn logical(mut self, l: LogicalType<'static>) -> Self {
        self.converted = converted(&l);
        if let LogicalType::Decimal { scale, precision } = l {
            (self.precision, self.scale) = (Some(precision), Some(scale));
        }
        self.logical = Some(l);
        self
    }

    fn fixed(physical_width: i32, sort_order: SortOrder, conversion: Conversion) -> Self {
        Annotation {
            type_length: Some(physical_width),
            ..Self::new(Type::FIXED_LEN_BYTE_ARRAY, sort_order, conversion)
        }
    }
}

/// The legacy converted type of a logical type, as Arrow C++ sets it (`ToConvertedType`):
/// times only when adjusted to UTC (timestamps: see [`timestamp`]), none for UUID, FLOAT16 and
/// the null type.
fn converted(l: &LogicalType<'_>) -> Option<ConvertedType> {
    use ConvertedType as C;
    Some(match *l {
        LogicalType::String => C::UTF8,
        LogicalType::Map => C::MAP,
        LogicalType::List => C::LIST,
        LogicalType::Enum => C::ENUM,
        LogicalType::Decimal { .. } => C::DECIMAL,
        LogicalType::Date => C::DATE,
        LogicalType::Json => C::JSON,
        LogicalType::Bson => C::BSON,
        LogicalType::Time {
            is_adjusted_to_utc: true,
            unit,
        } => match unit {
            TimeUnit::Millis => C::TIME_MILLIS,
            TimeUnit::Micros => C::TIME_MICROS,
            _ => return None,
        },
        LogicalType::Integer {
            bit_width,
            is_signed,
        } => {
            INTEGERS
                .iter()
                .find(|i| (i.bit_width, i.is_signed) == (bit_width, is_signed))?
                .converted
        }
        _ => return None,
    })
}

/// The fewest bytes holding every unscaled value of `precision` digits in two's complement:
/// the smallest `n` with `10^precision - 1 < 2^(8n - 1)`.
pub(crate) fn decimal_width(precision: u8) -> usize {
    // Never an exact multiple of 8 (10^p is no power of two), so rounding cannot land wrong;
    // the tests check every precision against exact integer arithmetic.
    ((f64::from(precision) * std::f64::consts::LOG2_10 + 1.0) / 8.0).ceil() as usize
}

/// The annotation of field `f` (a leaf: not a struct, list or map), or why Parquet cannot hold
/// it.
pub(super) fn annotate(f: &Field, decimal_as_integer: bool) -> Result<Annotation, String> {
    // Dictionary and run-end encoded columns are written as their values.
    let mut t = f.data_type();
    loop {
        match t {
            DataType::Dictionary { value, .. } => t = value,
            DataType::RunEndEncoded(_, values) => t = values.data_type(),
            _ => break,
        }
    }
    if t.is_nested() {
        return Err(format!(
            "{} cannot be written to Parquet (only flat values can be dictionary or run-end encoded)",
            format_field_type(f)
        ));
    }
    let extension = f.extension_type().map(|e| e.name);
    if let Some(a) = extension.and_then(|name| extension_annotation(name, t)) {
        return Ok(a);
    }
    storage(t, decimal_as_integer)
}

/// The canonical extensions Parquet has a logical type for.
fn extension_annotation(name: &str, t: &DataType) -> Option<Annotation> {
    match (name, t) {
        (UUID_EXTENSION, DataType::FixedSizeBinary(16)) => Some(
            Annotation::fixed(16, SortOrder::Bytes, Conversion::Identity)
                .logical(LogicalType::Uuid),
        ),
        (JSON_EXTENSION, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View) => Some(
            Annotation::new(Type::BYTE_ARRAY, SortOrder::Bytes, Conversion::Identity)
                .logical(LogicalType::Json),
        ),
        _ => None,
    }
}

fn storage(t: &DataType, decimal_as_integer: bool) -> Result<Annotation, String> {
    use Conversion as C;
    use DataType as D;
    use SortOrder as S;
    let plain = |physical, order| Annotation::new(physical, order, C::Identity);
    Ok(match t {
        D::Null => Annotation::new(Type::INT32, S::Signed, C::Null).logical(LogicalType::Null),
        D::Boolean => plain(Type::BOOLEAN, S::Unsigned),
        D::Int32 => plain(Type::INT32, S::Signed),
        D::Int64 => plain(Type::INT64, S::Signed),
        D::Int8 | D::Int16 | D::UInt8 | D::UInt16 | D::UInt32 | D::UInt64 => integer(t),
        D::Float16 => Annotation::fixed(2, S::Float16, C::Float16).logical(LogicalType::Float16),
        D::Float32 => plain(Type::FLOAT, S::Float),
        D::Float64 => plain(Type::DOUBLE, S::Float),
        D::Decimal32 { precision, scale }
        | D::Decimal64 { precision, scale }
        | D::Decimal128 { precision, scale }
        | D::Decimal256 { precision, scale } => decimal(*precision, *scale, decimal_as_integer)?,
        D::Date32 => plain(Type::INT32, S::Signed).logical(LogicalType::Date),
        D::Date64 => {
            Annotation::new(Type::INT32, S::Signed, C::MillisToDays).logical(LogicalType::Date)
        }
        D::Time32(u) | D::Time64(u) => time(*u, matches!(t, D::Time32(_))),
        D::Timestamp(u, tz) => timestamp(*u, tz.is_some()),
        // Durations are plain INT64, restored through `ARROW:schema`.
        D::Duration(_) => plain(Type::INT64, S::Signed),
        D::Binary | D::LargeBinary | D::BinaryView => plain(Type::BYTE_ARRAY, S::Bytes),
        D::Utf8 | D::LargeUtf8 | D::Utf8View => {
            plain(Type::BYTE_ARRAY, S::Bytes).logical(LogicalType::String)
        }
        D::FixedSizeBinary(w) => Annotation::fixed(*w, S::Bytes, C::Identity),
        // As Arrow C++: Parquet's INTERVAL (months, days, millis) is none of Arrow's intervals.
        other => {
            return Err(format!(
                "{} cannot be written to Parquet",
                format_type(other)
            ));
        }
    })
}

fn integer(t: &DataType) -> Annotation {
    let i = INTEGERS
        .iter()
        .find(|i| &i.arrow == t)
        .expect("called for integer types only"); // ok: called for integer types only.
    let order = if i.is_signed {
        SortOrder::Signed
    } else {
        SortOrder::Unsigned
    };
    Annotation::new(i.physical, order, Conversion::Widen).logical(LogicalType::Integer {
        bit_width: i.bit_width,
        is_signed: i.is_signed,
    })
}

fn decimal(precision: u8, scale: i8, as_integer: bool) -> Result<Annotation, String> {
    if scale < 0 || scale as u8 > precision {
        // As Arrow C++: the format's DECIMAL needs 0 <= scale <= precision.
        return Err(format!(
            "decimal({precision}, {scale}) cannot be written to Parquet: \
             its scale must be between 0 and the precision"
        ));
    }
    let logical = LogicalType::Decimal {
        scale: i32::from(scale),
        precision: i32::from(precision),
    };
    let a = match precision {
        ..=9 if as_integer => Annotation::new(
            Type::INT32,
            SortOrder::Signed,
            Conversion::Decimal(DecimalStorage::Int32),
        ),
        ..=18 if as_integer => Annotation::new(
            Type::INT64,
            SortOrder::Signed,
            Conversion::Decimal(DecimalStorage::Int64),
        ),
        _ => {
            let w = decimal_width(precision);
            Annotation::fixed(
                w as i32,
                SortOrder::Decimal,
                Conversion::Decimal(DecimalStorage::Fixed(w)),
            )
        }
    };
    Ok(a.logical(logical))
}

fn time(u: ArrowUnit, time32: bool) -> Annotation {
    // Parquet has no seconds: time32[s] is stored in milliseconds (as Arrow C++ does).
    let (unit, conversion) = match parquet_unit(u) {
        Some(unit) => (unit, Conversion::Identity),
        None => (TimeUnit::Millis, Conversion::SecondsToMillis),
    };
    let physical = if time32 { Type::INT32 } else { Type::INT64 };
    Annotation::new(physical, SortOrder::Signed, conversion).logical(LogicalType::Time {
        is_adjusted_to_utc: false,
        unit,
    })
}

fn timestamp(u: ArrowUnit, zoned: bool) -> Annotation {
    // Parquet has no seconds: timestamp[s] is stored in milliseconds (as Arrow C++ does).
    let (unit, conversion) = match parquet_unit(u) {
        Some(unit) => (unit, Conversion::Identity),
        None => (TimeUnit::Millis, Conversion::SecondsToMillis),
    };
    let mut a = Annotation::new(Type::INT64, SortOrder::Signed, conversion).logical(
        LogicalType::Timestamp {
            is_adjusted_to_utc: zoned,
            unit,
        },
    );
    // Arrow C++ sets the converted type of millisecond and microsecond timestamps whether or
    // not they are adjusted to UTC (ARROW-5878: old readers know timestamps only by it).
    a.converted = match unit {
        TimeUnit::Millis => Some(ConvertedType::TIMESTAMP_MILLIS),
        TimeUnit::Micros => Some(ConvertedType::TIMESTAMP_MICROS),
        _ => None,
    };
    a
}
