//! The `i32` enums of parquet.thrift. Each keeps values it does not know as `Unknown(i32)`,
//! so a newer writer's enum value is carried, not rejected; the layer that needs the value
//! decides whether it can work with it.

use crate::thrift::{CompactReader, CompactWriter, ThriftRead, ThriftWrite, ValueType};
use quiver_arrow::Result;

macro_rules! thrift_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $var:ident = $val:literal,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vmeta])* $var,)*
            /// A value this version does not know (kept as written).
            Unknown(i32),
        }

        impl From<i32> for $name {
            fn from(v: i32) -> Self {
                match v {
                    $($val => Self::$var,)*
                    other => Self::Unknown(other),
                }
            }
        }

        impl $name {
            /// The value as written in the file.
            pub fn value(self) -> i32 {
                match self {
                    $(Self::$var => $val,)*
                    Self::Unknown(v) => v,
                }
            }

            /// The IDL name (`"UNKNOWN"` for an unknown value).
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$var => stringify!($var),)*
                    Self::Unknown(_) => "UNKNOWN",
                }
            }
        }

        impl<'a> ThriftRead<'a> for $name {
            const TYPE: ValueType = ValueType::I32;
            fn read(r: &mut CompactReader<'a>) -> Result<Self> {
                r.i32().map(Self::from)
            }
            // Every `i32` is a value (unknown ones kept): only the varints are checked.
            #[inline]
            fn check(r: &mut CompactReader<'a>) -> Result<()> {
                r.i32().map(drop)
            }
            #[inline]
            fn check_elements(r: &mut CompactReader<'a>, n: usize) -> Result<()> {
                r.skip_i32s(n)
            }
        }

        impl ThriftWrite for $name {
            const TYPE: ValueType = ValueType::I32;
            fn write(&self, w: &mut CompactWriter) {
                w.i32(self.value());
            }
        }
    };
}

thrift_enum! {
    /// `enum Type`: the physical type of a column.
    #[allow(non_camel_case_types)]
    Type {
        /// `BOOLEAN = 0`.
        BOOLEAN = 0,
        /// `INT32 = 1`.
        INT32 = 1,
        /// `INT64 = 2`.
        INT64 = 2,
        /// `INT96 = 3` (deprecated timestamps).
        INT96 = 3,
        /// `FLOAT = 4`.
        FLOAT = 4,
        /// `DOUBLE = 5`.
        DOUBLE = 5,
        /// `BYTE_ARRAY = 6`.
        BYTE_ARRAY = 6,
        /// `FIXED_LEN_BYTE_ARRAY = 7`.
        FIXED_LEN_BYTE_ARRAY = 7,
    }
}

thrift_enum! {
    /// `enum ConvertedType` (deprecated, superseded by `LogicalType`).
    #[allow(non_camel_case_types)]
    ConvertedType {
        /// `UTF8 = 0`.
        UTF8 = 0,
        /// `MAP = 1`.
        MAP = 1,
        /// `MAP_KEY_VALUE = 2`.
        MAP_KEY_VALUE = 2,
        /// `LIST = 3`.
        LIST = 3,
        /// `ENUM = 4`.
        ENUM = 4,
        /// `DECIMAL = 5`.
        DECIMAL = 5,
        /// `DATE = 6`.
        DATE = 6,
        /// `TIME_MILLIS = 7`.
        TIME_MILLIS = 7,
        /// `TIME_MICROS = 8`.
        TIME_MICROS = 8,
        /// `TIMESTAMP_MILLIS = 9`.
        TIMESTAMP_MILLIS = 9,
        /// `TIMESTAMP_MICROS = 10`.
        TIMESTAMP_MICROS = 10,
        /// `UINT_8 = 11`.
        UINT_8 = 11,
        /// `UINT_16 = 12`.
        UINT_16 = 12,
        /// `UINT_32 = 13`.
        UINT_32 = 13,
        /// `UINT_64 = 14`.
        UINT_64 = 14,
        /// `INT_8 = 15`.
        INT_8 = 15,
        /// `INT_16 = 16`.
        INT_16 = 16,
        /// `INT_32 = 17`.
        INT_32 = 17,
        /// `INT_64 = 18`.
        INT_64 = 18,
        /// `JSON = 19`.
        JSON = 19,
        /// `BSON = 20`.
        BSON = 20,
        /// `INTERVAL = 21`.
        INTERVAL = 21,
    }
}

thrift_enum! {
    /// `enum FieldRepetitionType`.
    #[allow(non_camel_case_types)]
    FieldRepetitionType {
        /// `REQUIRED = 0`: exactly one value.
        REQUIRED = 0,
        /// `OPTIONAL = 1`: zero or one value.
        OPTIONAL = 1,
        /// `REPEATED = 2`: zero or more values.
        REPEATED = 2,
        /// `VECTOR = 3`: a fixed-size vector group.
        VECTOR = 3,
    }
}

thrift_enum! {
    /// `enum Encoding` (of values and of levels).
    #[allow(non_camel_case_types)]
    Encoding {
        /// `PLAIN = 0`.
        PLAIN = 0,
        /// `PLAIN_DICTIONARY = 2` (deprecated).
        PLAIN_DICTIONARY = 2,
        /// `RLE = 3`: the RLE / bit-packed hybrid.
        RLE = 3,
        /// `BIT_PACKED = 4` (deprecated).
        BIT_PACKED = 4,
        /// `DELTA_BINARY_PACKED = 5`.
        DELTA_BINARY_PACKED = 5,
        /// `DELTA_LENGTH_BYTE_ARRAY = 6`.
        DELTA_LENGTH_BYTE_ARRAY = 6,
        /// `DELTA_BYTE_ARRAY = 7`.
        DELTA_BYTE_ARRAY = 7,
        /// `RLE_DICTIONARY = 8`.
        RLE_DICTIONARY = 8,
        /// `BYTE_STREAM_SPLIT = 9`.
        BYTE_STREAM_SPLIT = 9,
    }
}

thrift_enum! {
    /// `enum CompressionCodec`.
    #[allow(non_camel_case_types)]
    CompressionCodec {
        /// `UNCOMPRESSED = 0`.
        UNCOMPRESSED = 0,
        /// `SNAPPY = 1`.
        SNAPPY = 1,
        /// `GZIP = 2`.
        GZIP = 2,
        /// `LZO = 3`.
        LZO = 3,
        /// `BROTLI = 4`.
        BROTLI = 4,
        /// `LZ4 = 5` (deprecated Hadoop framing).
        LZ4 = 5,
        /// `ZSTD = 6`.
        ZSTD = 6,
        /// `LZ4_RAW = 7`.
        LZ4_RAW = 7,
    }
}

thrift_enum! {
    /// `enum PageType`.
    #[allow(non_camel_case_types)]
    PageType {
        /// `DATA_PAGE = 0`.
        DATA_PAGE = 0,
        /// `INDEX_PAGE = 1`.
        INDEX_PAGE = 1,
        /// `DICTIONARY_PAGE = 2`.
        DICTIONARY_PAGE = 2,
        /// `DATA_PAGE_V2 = 3`.
        DATA_PAGE_V2 = 3,
    }
}

thrift_enum! {
    /// `enum BoundaryOrder` (of a column index's min/max lists).
    #[allow(non_camel_case_types)]
    BoundaryOrder {
        /// `UNORDERED = 0`.
        UNORDERED = 0,
        /// `ASCENDING = 1`.
        ASCENDING = 1,
        /// `DESCENDING = 2`.
        DESCENDING = 2,
    }
}

thrift_enum! {
    /// `enum EdgeInterpolationAlgorithm` (of the GEOGRAPHY logical type).
    #[allow(non_camel_case_types)]
    EdgeInterpolationAlgorithm {
        /// `SPHERICAL = 0`.
        SPHERICAL = 0,
        /// `VINCENTY = 1`.
        VINCENTY = 1,
        /// `THOMAS = 2`.
        THOMAS = 2,
        /// `ANDOYER = 3`.
        ANDOYER = 3,
        /// `KARNEY = 4`.
        KARNEY = 4,
    }
}
