//! `union LogicalType` with its member structs, `union TimeUnit` and `union ColumnOrder`.
//!
//! ```thrift
//! union TimeUnit { 1: MilliSeconds MILLIS  2: MicroSeconds MICROS  3: NanoSeconds NANOS }
//! struct DecimalType { 1: required i32 scale  2: required i32 precision }
//! struct TimestampType { 1: required bool isAdjustedToUTC  2: required TimeUnit unit }
//! struct TimeType { 1: required bool isAdjustedToUTC  2: required TimeUnit unit }
//! struct IntType { 1: required i8 bitWidth  2: required bool isSigned }
//! struct VariantType { 1: optional i8 specification_version }
//! struct GeometryType { 1: optional string crs; }
//! struct GeographyType { 1: optional string crs; 2: optional EdgeInterpolationAlgorithm algorithm; }
//! union LogicalType {
//!   1: StringType STRING  2: MapType MAP  3: ListType LIST  4: EnumType ENUM
//!   5: DecimalType DECIMAL  6: DateType DATE  7: TimeType TIME  8: TimestampType TIMESTAMP
//!   // 9: reserved for INTERVAL
//!   10: IntType INTEGER  11: NullType UNKNOWN  12: JsonType JSON  13: BsonType BSON
//!   14: UUIDType UUID  15: Float16Type FLOAT16  16: VariantType VARIANT
//!   17: GeometryType GEOMETRY  18: GeographyType GEOGRAPHY  19: VectorType VECTOR
//! }
//! union ColumnOrder {
//!   1: TypeDefinedOrder TYPE_ORDER  2: IEEE754TotalOrder IEEE_754_TOTAL_ORDER
//!   3: Int96TimestampOrder INT96_TIMESTAMP_ORDER
//! }
//! ```

use super::EdgeInterpolationAlgorithm;
use super::union::{read_empty_union, read_union, write_union};
use crate::thrift::{CompactReader, CompactWriter, ThriftRead, ThriftWrite, ValueType};
use quiver_arrow::{Error, Result};

/// `union TimeUnit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeUnit {
    /// `1: MilliSeconds MILLIS`.
    Millis,
    /// `2: MicroSeconds MICROS`.
    Micros,
    /// `3: NanoSeconds NANOS`.
    Nanos,
    /// A variant this version does not know: its field id.
    Unknown(i16),
}

impl<'a> ThriftRead<'a> for TimeUnit {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        read_empty_union(r, "TimeUnit", |id| match id {
            1 => TimeUnit::Millis,
            2 => TimeUnit::Micros,
            3 => TimeUnit::Nanos,
            other => TimeUnit::Unknown(other),
        })
    }
}

impl ThriftWrite for TimeUnit {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        let id = match self {
            TimeUnit::Millis => 1,
            TimeUnit::Micros => 2,
            TimeUnit::Nanos => 3,
            TimeUnit::Unknown(id) => *id,
        };
        write_union(w, |w| w.field_empty_struct(id));
    }
}

/// `union ColumnOrder`: the order of a leaf column's statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColumnOrder {
    /// `1: TypeDefinedOrder TYPE_ORDER`.
    TypeDefined,
    /// `2: IEEE754TotalOrder IEEE_754_TOTAL_ORDER`.
    Ieee754TotalOrder,
    /// `3: Int96TimestampOrder INT96_TIMESTAMP_ORDER`.
    Int96TimestampOrder,
    /// An order this version does not know (statistics must then be ignored): its field id.
    Unknown(i16),
}

impl<'a> ThriftRead<'a> for ColumnOrder {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        read_empty_union(r, "ColumnOrder", |id| match id {
            1 => ColumnOrder::TypeDefined,
            2 => ColumnOrder::Ieee754TotalOrder,
            3 => ColumnOrder::Int96TimestampOrder,
            other => ColumnOrder::Unknown(other),
        })
    }
}

impl ThriftWrite for ColumnOrder {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        let id = match self {
            ColumnOrder::TypeDefined => 1,
            ColumnOrder::Ieee754TotalOrder => 2,
            ColumnOrder::Int96TimestampOrder => 3,
            ColumnOrder::Unknown(id) => *id,
        };
        write_union(w, |w| w.field_empty_struct(id));
    }
}

/// `union LogicalType`: the annotation of a schema element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogicalType<'a> {
    /// `1: StringType STRING`.
    String,
    /// `2: MapType MAP`.
    Map,
    /// `3: ListType LIST`.
    List,
    /// `4: EnumType ENUM`.
    Enum,
    /// `5: DecimalType DECIMAL`.
    Decimal {
        /// `1: required i32 scale`.
        scale: i32,
        /// `2: required i32 precision`.
        precision: i32,
    },
    /// `6: DateType DATE`.
    Date,
    /// `7: TimeType TIME`.
    Time {
        /// `1: required bool isAdjustedToUTC`.
        is_adjusted_to_utc: bool,
        /// `2: required TimeUnit unit`.
        unit: TimeUnit,
    },
    /// `8: TimestampType TIMESTAMP`.
    Timestamp {
        /// `1: required bool isAdjustedToUTC`.
        is_adjusted_to_utc: bool,
        /// `2: required TimeUnit unit`.
        unit: TimeUnit,
    },
    /// `10: IntType INTEGER`.
    Integer {
        /// `1: required i8 bitWidth` (8, 16, 32 or 64).
        bit_width: i8,
        /// `2: required bool isSigned`.
        is_signed: bool,
    },
    /// `11: NullType UNKNOWN`: a column that is always null.
    Null,
    /// `12: JsonType JSON`.
    Json,
    /// `13: BsonType BSON`.
    Bson,
    /// `14: UUIDType UUID`.
    Uuid,
    /// `15: Float16Type FLOAT16`.
    Float16,
    /// `16: VariantType VARIANT`.
    Variant {
        /// `1: optional i8 specification_version`.
        specification_version: Option<i8>,
    },
    /// `17: GeometryType GEOMETRY`.
    Geometry {
        /// `1: optional string crs`.
        crs: Option<&'a str>,
    },
    /// `18: GeographyType GEOGRAPHY`.
    Geography {
        /// `1: optional string crs`.
        crs: Option<&'a str>,
        /// `2: optional EdgeInterpolationAlgorithm algorithm`.
        algorithm: Option<EdgeInterpolationAlgorithm>,
    },
    /// `19: VectorType VECTOR`.
    Vector,
    /// A variant this version does not know (readers fall back to the physical type): its
    /// field id.
    Unknown(i16),
}

fn time_like(r: &mut CompactReader<'_>, name: &str) -> Result<(bool, TimeUnit)> {
    let (mut utc, mut unit) = (None, None);
    r.read_struct(name, |r, f| {
        match f.id {
            1 => utc = r.bool_field(f)?,
            2 => unit = r.value(f)?,
            _ => r.skip_field(f)?,
        }
        Ok(())
    })?;
    let missing = |field| Error::oos(format!("{name} lacks required field {field}"));
    Ok((
        utc.ok_or_else(|| missing("isAdjustedToUTC"))?,
        unit.ok_or_else(|| missing("unit"))?,
    ))
}

fn two_i32(r: &mut CompactReader<'_>) -> Result<LogicalType<'static>> {
    let (mut scale, mut precision) = (None, None);
    r.read_struct("DecimalType", |r, f| {
        match f.id {
            1 => scale = r.value(f)?,
            2 => precision = r.value(f)?,
            _ => r.skip_field(f)?,
        }
        Ok(())
    })?;
    let missing = |field| Error::oos(format!("DecimalType lacks required field {field}"));
    Ok(LogicalType::Decimal {
        scale: scale.ok_or_else(|| missing("scale"))?,
        precision: precision.ok_or_else(|| missing("precision"))?,
    })
}

fn int_type(r: &mut CompactReader<'_>) -> Result<LogicalType<'static>> {
    let (mut bit_width, mut is_signed) = (None, None);
    r.read_struct("IntType", |r, f| {
        match f.id {
            1 => bit_width = r.value(f)?,
            2 => is_signed = r.bool_field(f)?,
            _ => r.skip_field(f)?,
        }
        Ok(())
    })?;
    let missing = |field| Error::oos(format!("IntType lacks required field {field}"));
    Ok(LogicalType::Integer {
        bit_width: bit_width.ok_or_else(|| missing("bitWidth"))?,
        is_signed: is_signed.ok_or_else(|| missing("isSigned"))?,
    })
}

fn variant_type(r: &mut CompactReader<'_>) -> Result<LogicalType<'static>> {
    let mut specification_version = None;
    r.read_struct("VariantType", |r, f| {
        match f.id {
            1 => specification_version = r.value(f)?,
            _ => r.skip_field(f)?,
        }
        Ok(())
    })?;
    Ok(LogicalType::Variant {
        specification_version,
    })
}

fn geo_type<'a>(r: &mut CompactReader<'a>, geography: bool) -> Result<LogicalType<'a>> {
    let (mut crs, mut algorithm) = (None, None);
    let name = if geography {
        "GeographyType"
    } else {
        "GeometryType"
    };
    r.read_struct(name, |r, f| {
        match f.id {
            1 => crs = r.value(f)?,
            2 if geography => algorithm = r.value(f)?,
            _ => r.skip_field(f)?,
        }
        Ok(())
    })?;
    Ok(if geography {
        LogicalType::Geography { crs, algorithm }
    } else {
        LogicalType::Geometry { crs }
    })
}

impl<'a> ThriftRead<'a> for LogicalType<'a> {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        read_union(r, "LogicalType", LogicalType::Unknown, |r, id| {
            Ok(match id {
                1 | 2 | 3 | 4 | 6 | 11..=15 | 19 => {
                    r.skip_struct()?;
                    empty_variant(id)
                }
                5 => two_i32(r)?,
                7 | 8 => {
                    let name = if id == 7 { "TimeType" } else { "TimestampType" };
                    let (is_adjusted_to_utc, unit) = time_like(r, name)?;
                    if id == 7 {
                        LogicalType::Time {
                            is_adjusted_to_utc,
                            unit,
                        }
                    } else {
                        LogicalType::Timestamp {
                            is_adjusted_to_utc,
                            unit,
                        }
                    }
                }
                10 => int_type(r)?,
                16 => variant_type(r)?,
                17 | 18 => geo_type(r, id == 18)?,
                other => {
                    r.skip_struct()?;
                    LogicalType::Unknown(other)
                }
            })
        })
    }
}

fn empty_variant(id: i16) -> LogicalType<'static> {
    match id {
        1 => LogicalType::String,
        2 => LogicalType::Map,
        3 => LogicalType::List,
        4 => LogicalType::Enum,
        6 => LogicalType::Date,
        11 => LogicalType::Null,
        12 => LogicalType::Json,
        13 => LogicalType::Bson,
        14 => LogicalType::Uuid,
        15 => LogicalType::Float16,
        19 => LogicalType::Vector,
        other => LogicalType::Unknown(other),
    }
}

impl LogicalType<'_> {
    /// The union's field id of this variant.
    pub fn field_id(&self) -> i16 {
        match self {
            LogicalType::String => 1,
            LogicalType::Map => 2,
            LogicalType::List => 3,
            LogicalType::Enum => 4,
            LogicalType::Decimal { .. } => 5,
            LogicalType::Date => 6,
            LogicalType::Time { .. } => 7,
            LogicalType::Timestamp { .. } => 8,
            LogicalType::Integer { .. } => 10,
            LogicalType::Null => 11,
            LogicalType::Json => 12,
            LogicalType::Bson => 13,
            LogicalType::Uuid => 14,
            LogicalType::Float16 => 15,
            LogicalType::Variant { .. } => 16,
            LogicalType::Geometry { .. } => 17,
            LogicalType::Geography { .. } => 18,
            LogicalType::Vector => 19,
            LogicalType::Unknown(id) => *id,
        }
    }

    fn write_body(&self, w: &mut CompactWriter) {
        w.struct_begin();
        match *self {
            LogicalType::Decimal { scale, precision } => {
                w.field(1, &scale);
                w.field(2, &precision);
            }
            LogicalType::Time {
                is_adjusted_to_utc,
                unit,
            }
            | LogicalType::Timestamp {
                is_adjusted_to_utc,
                unit,
            } => {
                w.field_bool(1, is_adjusted_to_utc);
                w.field(2, &unit);
            }
            LogicalType::Integer {
                bit_width,
                is_signed,
            } => {
                w.field(1, &bit_width);
                w.field_bool(2, is_signed);
            }
            LogicalType::Variant {
                specification_version,
            } => w.field_opt(1, &specification_version),
            LogicalType::Geometry { crs } => w.field_opt(1, &crs),
            LogicalType::Geography { crs, algorithm } => {
                w.field_opt(1, &crs);
                w.field_opt(2, &algorithm);
            }
            _ => {}
        }
        w.struct_end();
    }
}

impl ThriftWrite for LogicalType<'_> {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        write_union(w, |w| {
            w.field_header(self.field_id(), ValueType::Struct.code());
            self.write_body(w);
        });
    }
}
