//! Logical types, fields and schemas, mirroring `Schema.fbs` of the Arrow format.

mod field;
mod fmt;
mod layout;

pub use field::{
    EXTENSION_METADATA_KEY, EXTENSION_NAME_KEY, ExtensionType, Field, FieldRef, Fields, Metadata,
    Schema, SchemaRef,
};
pub use layout::{BufferKind, Children, Layout};

use std::sync::Arc;

/// Time resolution of temporal types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TimeUnit {
    /// Seconds.
    Second,
    /// Milliseconds.
    Millisecond,
    /// Microseconds.
    Microsecond,
    /// Nanoseconds.
    Nanosecond,
}

/// Kind of interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntervalUnit {
    /// Months as `i32`.
    YearMonth,
    /// Days and milliseconds as two `i32`.
    DayTime,
    /// Months (`i32`), days (`i32`) and nanoseconds (`i64`).
    MonthDayNano,
}

/// Physical layout of a union.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnionMode {
    /// Every child has the union's length; no offsets buffer.
    Sparse,
    /// Children are packed; an `i32` offsets buffer indexes into them.
    Dense,
}

/// Integer types allowed as dictionary indices and run ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntegerType {
    /// `i8`.
    Int8,
    /// `i16`.
    Int16,
    /// `i32`.
    Int32,
    /// `i64`.
    Int64,
    /// `u8`.
    UInt8,
    /// `u16`.
    UInt16,
    /// `u32`.
    UInt32,
    /// `u64`.
    UInt64,
}

impl IntegerType {
    /// The corresponding [`DataType`].
    pub fn data_type(self) -> DataType {
        match self {
            IntegerType::Int8 => DataType::Int8,
            IntegerType::Int16 => DataType::Int16,
            IntegerType::Int32 => DataType::Int32,
            IntegerType::Int64 => DataType::Int64,
            IntegerType::UInt8 => DataType::UInt8,
            IntegerType::UInt16 => DataType::UInt16,
            IntegerType::UInt32 => DataType::UInt32,
            IntegerType::UInt64 => DataType::UInt64,
        }
    }
    /// The integer type of a [`DataType`], if it is one.
    pub fn try_from_data_type(dt: &DataType) -> Option<Self> {
        Some(match dt {
            DataType::Int8 => IntegerType::Int8,
            DataType::Int16 => IntegerType::Int16,
            DataType::Int32 => IntegerType::Int32,
            DataType::Int64 => IntegerType::Int64,
            DataType::UInt8 => IntegerType::UInt8,
            DataType::UInt16 => IntegerType::UInt16,
            DataType::UInt32 => IntegerType::UInt32,
            DataType::UInt64 => IntegerType::UInt64,
            _ => return None,
        })
    }
    /// The integer type of `bits` bits (8, 16, 32 or 64), signed or not (how `Schema.fbs`'s
    /// `Int` and Parquet's `INTEGER` annotation describe one).
    ///
    /// ```
    /// use quiver_arrow::IntegerType;
    /// assert_eq!(IntegerType::from_bit_width(16, false), Some(IntegerType::UInt16));
    /// assert_eq!(IntegerType::from_bit_width(24, true), None);
    /// ```
    pub fn from_bit_width(bits: i64, signed: bool) -> Option<Self> {
        Some(match (bits, signed) {
            (8, true) => IntegerType::Int8,
            (16, true) => IntegerType::Int16,
            (32, true) => IntegerType::Int32,
            (64, true) => IntegerType::Int64,
            (8, false) => IntegerType::UInt8,
            (16, false) => IntegerType::UInt16,
            (32, false) => IntegerType::UInt32,
            (64, false) => IntegerType::UInt64,
            _ => return None,
        })
    }
    /// The largest value the type holds (as a dictionary index: the largest key).
    ///
    /// ```
    /// use quiver_arrow::IntegerType;
    /// assert_eq!(IntegerType::Int8.max_value(), 127);
    /// assert_eq!(IntegerType::UInt8.max_value(), 255);
    /// assert_eq!(IntegerType::UInt64.max_value(), u64::MAX);
    /// ```
    pub fn max_value(self) -> u64 {
        let bits = self.bit_width();
        if self.is_signed() {
            (1u64 << (bits - 1)) - 1
        } else {
            u64::MAX >> (64 - bits)
        }
    }

    /// Whether the type holds `value` (a dictionary of `value + 1` values can be indexed).
    pub fn holds(self, value: usize) -> bool {
        value as u64 <= self.max_value()
    }

    /// Width in bits.
    pub fn bit_width(self) -> u32 {
        match self {
            IntegerType::Int8 | IntegerType::UInt8 => 8,
            IntegerType::Int16 | IntegerType::UInt16 => 16,
            IntegerType::Int32 | IntegerType::UInt32 => 32,
            IntegerType::Int64 | IntegerType::UInt64 => 64,
        }
    }
    /// True for the signed types.
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            IntegerType::Int8 | IntegerType::Int16 | IntegerType::Int32 | IntegerType::Int64
        )
    }
}

/// Children of a union and the type id of each.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UnionFields {
    type_ids: Arc<[i8]>,
    fields: Fields,
}

impl UnionFields {
    /// Pairs each field with its type id. Ids must be unique and in `0..=127`.
    pub fn try_new(
        type_ids: impl Into<Arc<[i8]>>,
        fields: impl Into<Fields>,
    ) -> crate::Result<Self> {
        let type_ids: Arc<[i8]> = type_ids.into();
        let fields: Fields = fields.into();
        if type_ids.len() != fields.len() {
            return Err(crate::Error::invalid(format!(
                "union has {} type ids for {} fields",
                type_ids.len(),
                fields.len()
            )));
        }
        let mut seen = [false; 128];
        for &id in type_ids.iter() {
            if id < 0 {
                return Err(crate::Error::invalid(format!(
                    "union type id {id} is negative"
                )));
            }
            if std::mem::replace(&mut seen[id as usize], true) {
                return Err(crate::Error::invalid(format!(
                    "union type id {id} is repeated"
                )));
            }
        }
        Ok(UnionFields { type_ids, fields })
    }
    /// Fields with ids `0, 1, 2…`.
    pub fn with_default_ids(fields: impl Into<Fields>) -> Self {
        let fields: Fields = fields.into();
        let ids: Vec<i8> = (0..fields.len() as i8).collect();
        Self::try_new(ids, fields).expect("default ids are valid") // ok: default ids are valid.
    }
    /// The type ids, parallel to [`UnionFields::fields`].
    pub fn type_ids(&self) -> &[i8] {
        &self.type_ids
    }
    /// The fields.
    pub fn fields(&self) -> &Fields {
        &self.fields
    }
    /// Number of children.
    pub fn len(&self) -> usize {
        self.fields.len()
    }
    /// True when there are no children.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }
    /// Child index of a type id.
    pub fn index_of(&self, type_id: i8) -> Option<usize> {
        self.type_ids.iter().position(|&t| t == type_id)
    }
    /// A table from type id (0..=127) to child index, `u8::MAX` where undeclared.
    pub fn id_table(&self) -> [u8; 128] {
        let mut t = [u8::MAX; 128];
        for (i, &id) in self.type_ids.iter().enumerate() {
            t[id as usize] = i as u8;
        }
        t
    }
}

/// A logical type of the Arrow columnar format v1.5.
///
/// ```
/// use quiver_arrow::{DataType, Field};
/// let t = DataType::List(Field::new("item", DataType::Utf8, true).into());
/// assert_eq!(t.to_string(), "List<item: Utf8>");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DataType {
    /// All values null; no buffers.
    Null,
    /// Bit-packed booleans.
    Boolean,
    /// `i8`.
    Int8,
    /// `i16`.
    Int16,
    /// `i32`.
    Int32,
    /// `i64`.
    Int64,
    /// `u8`.
    UInt8,
    /// `u16`.
    UInt16,
    /// `u32`.
    UInt32,
    /// `u64`.
    UInt64,
    /// IEEE half precision.
    Float16,
    /// IEEE single precision.
    Float32,
    /// IEEE double precision.
    Float64,
    /// 32-bit decimal (precision ≤ 9).
    Decimal32 {
        /// Total number of decimal digits.
        precision: u8,
        /// Digits after the decimal point (may be negative).
        scale: i8,
    },
    /// 64-bit decimal (precision ≤ 18).
    Decimal64 {
        /// Total number of decimal digits.
        precision: u8,
        /// Digits after the decimal point.
        scale: i8,
    },
    /// 128-bit decimal (precision ≤ 38).
    Decimal128 {
        /// Total number of decimal digits.
        precision: u8,
        /// Digits after the decimal point.
        scale: i8,
    },
    /// 256-bit decimal (precision ≤ 76).
    Decimal256 {
        /// Total number of decimal digits.
        precision: u8,
        /// Digits after the decimal point.
        scale: i8,
    },
    /// Days since the UNIX epoch, `i32`.
    Date32,
    /// Milliseconds since the UNIX epoch, `i64`.
    Date64,
    /// Time of day in seconds or milliseconds, `i32`.
    Time32(TimeUnit),
    /// Time of day in microseconds or nanoseconds, `i64`.
    Time64(TimeUnit),
    /// Instant since the epoch, `i64`, with an optional IANA time zone or offset.
    Timestamp(TimeUnit, Option<Arc<str>>),
    /// Calendar interval.
    Interval(IntervalUnit),
    /// Elapsed time, `i64`.
    Duration(TimeUnit),
    /// Binary values of a fixed width in bytes.
    FixedSizeBinary(i32),
    /// Variable-size binary, `i32` offsets.
    Binary,
    /// UTF-8 string, `i32` offsets.
    Utf8,
    /// Variable-size binary, `i64` offsets.
    LargeBinary,
    /// UTF-8 string, `i64` offsets.
    LargeUtf8,
    /// Binary in the view layout.
    BinaryView,
    /// UTF-8 string in the view layout.
    Utf8View,
    /// Lists of a fixed number of values.
    FixedSizeList(FieldRef, i32),
    /// Variable-size lists, `i32` offsets.
    List(FieldRef),
    /// Variable-size lists, `i64` offsets.
    LargeList(FieldRef),
    /// Lists in the list-view layout, `i32` offsets and sizes.
    ListView(FieldRef),
    /// Lists in the list-view layout, `i64` offsets and sizes.
    LargeListView(FieldRef),
    /// Named children of equal length.
    Struct(Fields),
    /// A list of key/value entries; the field is the non-nullable `entries` struct of two
    /// children, the key non-nullable. The flag says whether keys are sorted within each map.
    Map(FieldRef, bool),
    /// Values of one of several types.
    Union(UnionFields, UnionMode),
    /// Integer indices into a dictionary of values.
    Dictionary {
        /// Type of the indices.
        key: IntegerType,
        /// Type of the dictionary values.
        value: Arc<DataType>,
        /// Whether the dictionary order is meaningful.
        ordered: bool,
    },
    /// Runs of equal values: a run-ends child (Int16/32/64, non-nullable) and a values child.
    RunEndEncoded(FieldRef, FieldRef),
}

impl DataType {
    /// A dictionary type (unordered).
    pub fn dictionary(key: IntegerType, value: DataType) -> Self {
        DataType::Dictionary {
            key,
            value: Arc::new(value),
            ordered: false,
        }
    }

    /// `List<item: T>` with a nullable item field.
    pub fn list_of(item: DataType) -> Self {
        DataType::List(Arc::new(Field::new("item", item, true)))
    }

    /// True for the signed and unsigned integer types.
    pub fn is_integer(&self) -> bool {
        IntegerType::try_from_data_type(self).is_some()
    }

    /// True for types whose values are nested children.
    pub fn is_nested(&self) -> bool {
        matches!(
            self,
            DataType::FixedSizeList(..)
                | DataType::List(_)
                | DataType::LargeList(_)
                | DataType::ListView(_)
                | DataType::LargeListView(_)
                | DataType::Struct(_)
                | DataType::Map(..)
                | DataType::Union(..)
        )
    }

    /// Byte width of one value for fixed-width primitive types.
    pub fn primitive_width(&self) -> Option<usize> {
        use DataType::*;
        Some(match self {
            Int8 | UInt8 => 1,
            Int16 | UInt16 | Float16 => 2,
            Int32 | UInt32 | Float32 | Date32 | Time32(_) | Decimal32 { .. } => 4,
            Interval(IntervalUnit::YearMonth) => 4,
            Int64 | UInt64 | Float64 | Date64 | Time64(_) | Timestamp(..) | Duration(_) => 8,
            Decimal64 { .. } | Interval(IntervalUnit::DayTime) => 8,
            Decimal128 { .. } | Interval(IntervalUnit::MonthDayNano) => 16,
            Decimal256 { .. } => 32,
            _ => return None,
        })
    }

    /// Child fields of nested types, in the order of the physical children.
    pub fn children(&self) -> Vec<FieldRef> {
        self.layout().children.iter().cloned().collect()
    }

    /// Checks the parameters the format constrains: decimal precision, time units of
    /// Time32/Time64, a positive fixed size, Map entries shape and run-end type.
    pub fn validate(&self) -> crate::Result<()> {
        use crate::Error;
        // Only the precision range is a format rule; the scale may be negative or exceed it.
        let check_decimal = |p: u8, _scale: i8, max: u8, name: &str| {
            if p == 0 || p > max {
                return Err(Error::oos(format!(
                    "{name} precision {p} is outside 1..={max}"
                )));
            }
            Ok(())
        };
        match self {
            DataType::Decimal32 { precision, scale } => {
                check_decimal(*precision, *scale, 9, "Decimal32")
            }
            DataType::Decimal64 { precision, scale } => {
                check_decimal(*precision, *scale, 18, "Decimal64")
            }
            DataType::Decimal128 { precision, scale } => {
                check_decimal(*precision, *scale, 38, "Decimal128")
            }
            DataType::Decimal256 { precision, scale } => {
                check_decimal(*precision, *scale, 76, "Decimal256")
            }
            DataType::Time32(u) if !matches!(u, TimeUnit::Second | TimeUnit::Millisecond) => {
                Err(Error::oos(format!("Time32 cannot have unit {u:?}")))
            }
            DataType::Time64(u) if !matches!(u, TimeUnit::Microsecond | TimeUnit::Nanosecond) => {
                Err(Error::oos(format!("Time64 cannot have unit {u:?}")))
            }
            DataType::FixedSizeBinary(n) if *n < 0 => {
                Err(Error::oos(format!("FixedSizeBinary width {n} is negative")))
            }
            DataType::FixedSizeList(f, n) => {
                if *n < 0 {
                    return Err(Error::oos(format!("FixedSizeList size {n} is negative")));
                }
                f.data_type().validate()
            }
            DataType::Map(entries, _) => {
                let DataType::Struct(kv) = entries.data_type() else {
                    return Err(Error::oos("Map entries must be a Struct"));
                };
                if kv.len() != 2 {
                    return Err(Error::oos(format!(
                        "Map entries struct has {} fields, expected 2",
                        kv.len()
                    )));
                }
                if kv[0].is_nullable() {
                    return Err(Error::oos("Map keys must not be nullable"));
                }
                kv[0].data_type().validate()?;
                kv[1].data_type().validate()
            }
            DataType::Dictionary { value, .. } => value.validate(),
            DataType::RunEndEncoded(r, v) => {
                if !matches!(
                    r.data_type(),
                    DataType::Int16 | DataType::Int32 | DataType::Int64
                ) {
                    return Err(Error::oos(format!(
                        "run ends must be Int16, Int32 or Int64, not {}",
                        r.data_type()
                    )));
                }
                if r.is_nullable() {
                    return Err(Error::oos("run ends must not be nullable"));
                }
                v.data_type().validate()
            }
            other => other
                .children()
                .iter()
                .try_for_each(|f| f.data_type().validate()),
        }
    }
}
