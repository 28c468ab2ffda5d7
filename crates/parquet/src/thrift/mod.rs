//! The Thrift compact protocol, as Parquet uses it: a borrowing, bounded decoder
//! ([`CompactReader`]) and an encoder ([`CompactWriter`]).
//!
//! Wire format (apache/thrift `doc/specs/thrift-compact-protocol.md`):
//! - integers `i16`/`i32`/`i64` are zigzag varints (ULEB128, at most 10 bytes); `i8` is one byte;
//!   `double` is 8 bytes little-endian; `binary`/`string` is a varint length and the bytes;
//! - a struct is a sequence of field headers and values ended by a `0` byte; a field header is
//!   one byte `dddd tttt` (id delta 1..=15 from the previous field, type) or `0000 tttt`
//!   followed by the id as a zigzag `i16`; a `bool` field has no value, its value is the type
//!   (1 = true, 2 = false);
//! - a list or set header is one byte `ssss tttt` (size 0..=14, element type) or `1111 tttt`
//!   followed by the size as a varint; `bool` elements are one byte each;
//! - a map header is the size as a varint and, when non-empty, one byte `kkkk vvvv`.
//!
//! The decoder never trusts a size: every list, set, map and binary length is checked against
//! the bytes left before anything is allocated or looped over (every element takes at least one
//! byte), nesting deeper than [`MAX_DEPTH`] is an error, and so is a varint longer than 10 bytes
//! or one that overflows its type. Fields a struct does not know are skipped, whatever they
//! hold, so files from newer writers read.

mod encoded;
mod list;
mod read;
mod skip;
mod write;

pub use encoded::Encoded;
#[cfg(test)]
pub(crate) use encoded::leaked_value;
#[cfg(test)]
pub(crate) use list::leaked;
pub use list::{Iter, ThriftList};
pub(crate) use read::varint_in_word;
pub use read::{CompactReader, Field, ThriftRead};
pub use write::{CompactWriter, ThriftWrite};

/// How deep structs, lists, sets and maps may nest before decoding fails.
pub const MAX_DEPTH: u32 = 64;

/// The type of a field or of a collection's elements, as the compact protocol writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueType {
    /// `bool`: in a field header the value itself; one byte in a collection.
    Bool,
    /// `i8` (`byte`): one byte.
    I8,
    /// `i16`: a zigzag varint.
    I16,
    /// `i32`: a zigzag varint.
    I32,
    /// `i64`: a zigzag varint.
    I64,
    /// `double`: 8 bytes little-endian.
    Double,
    /// `binary` and `string`: a varint length and the bytes.
    Binary,
    /// `list<T>`.
    List,
    /// `set<T>`.
    Set,
    /// `map<K, V>`.
    Map,
    /// A struct (or union).
    Struct,
}

impl ValueType {
    /// The type of a 4-bit type code (1 and 2 are both `bool`), `None` for an invalid code.
    pub const fn from_code(code: u8) -> Option<Self> {
        Some(match code {
            1 | 2 => Self::Bool,
            3 => Self::I8,
            4 => Self::I16,
            5 => Self::I32,
            6 => Self::I64,
            7 => Self::Double,
            8 => Self::Binary,
            9 => Self::List,
            10 => Self::Set,
            11 => Self::Map,
            12 => Self::Struct,
            _ => return None,
        })
    }

    /// The 4-bit code of this type in a collection header (`bool` is 1).
    pub fn code(self) -> u8 {
        match self {
            Self::Bool => 1,
            Self::I8 => 3,
            Self::I16 => 4,
            Self::I32 => 5,
            Self::I64 => 6,
            Self::Double => 7,
            Self::Binary => 8,
            Self::List => 9,
            Self::Set => 10,
            Self::Map => 11,
            Self::Struct => 12,
        }
    }

    /// The fewest bytes one value of this type takes on the wire.
    pub fn min_size(self) -> usize {
        match self {
            Self::Double => 8,
            _ => 1,
        }
    }

    /// The IDL name of the type, for error messages.
    pub fn name(self) -> &'static str {
        match self {
            Self::Bool => "bool",
            Self::I8 => "i8",
            Self::I16 => "i16",
            Self::I32 => "i32",
            Self::I64 => "i64",
            Self::Double => "double",
            Self::Binary => "binary",
            Self::List => "list",
            Self::Set => "set",
            Self::Map => "map",
            Self::Struct => "struct",
        }
    }
}

#[cfg(test)]
mod tests;
