//! A leaf's non-null values, densely, in the physical type's layout: what a column stream
//! decodes into and the arrays are built from.

use crate::encoding::byte_array::FlexOffsets;
use crate::format::Type;
use quiver_arrow::buffer::{MutableBitmap, MutableBuffer};
use quiver_arrow::{Error, Result};

/// Dense values in their physical layout.
#[derive(Debug)]
pub enum Dense {
    /// BOOLEAN: one bit each.
    Bool(MutableBitmap),
    /// INT32, INT64, INT96, FLOAT, DOUBLE, FIXED_LEN_BYTE_ARRAY: `width` bytes each.
    Fixed {
        /// Bytes per value.
        width: usize,
        /// The values.
        data: MutableBuffer,
    },
    /// BYTE_ARRAY: offsets (32-bit while the bytes fit them) and bytes.
    Bytes(FlexOffsets),
    /// FIXED_LEN_BYTE_ARRAY decimals read as Decimal128: big-endian integers of `from` bytes
    /// (1 to 16) sign-extended as they are decoded to 16-byte little-endian ones, the layout of
    /// the Arrow array (no packed copy to widen afterwards).
    Decimal128 {
        /// Bytes per value in the file.
        from: usize,
        /// The values, 16 bytes each.
        data: MutableBuffer,
    },
}

impl Dense {
    pub(super) fn new(physical: Type, type_length: usize) -> Result<Dense> {
        Ok(match physical {
            Type::BOOLEAN => Dense::Bool(MutableBitmap::with_capacity(0)),
            Type::BYTE_ARRAY => Dense::Bytes(FlexOffsets::default()),
            other => Dense::Fixed {
                width: fixed_width(other, type_length)?,
                data: MutableBuffer::new(),
            },
        })
    }

    /// Values of physical type `physical` read as the Arrow type the `decimal128` flag says:
    /// [`Dense::Decimal128`] for FIXED_LEN_BYTE_ARRAY decimals of at most 16 bytes read as
    /// Decimal128, otherwise as [`Dense::new`].
    pub(super) fn for_target(
        physical: Type,
        type_length: usize,
        decimal128: bool,
    ) -> Result<Dense> {
        if decimal128 && physical == Type::FIXED_LEN_BYTE_ARRAY && (1..=16).contains(&type_length) {
            return Ok(Dense::Decimal128 {
                from: type_length,
                data: MutableBuffer::new(),
            });
        }
        Dense::new(physical, type_length)
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        match self {
            Dense::Bool(b) => b.len(),
            Dense::Fixed { width, data } => data.len() / width,
            Dense::Bytes(s) => s.len(),
            Dense::Decimal128 { data, .. } => data.len() / 16,
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

pub(super) fn fixed_width(t: Type, type_length: usize) -> Result<usize> {
    Ok(match t {
        Type::INT32 | Type::FLOAT => 4,
        Type::INT64 | Type::DOUBLE => 8,
        Type::INT96 => 12,
        Type::FIXED_LEN_BYTE_ARRAY => type_length,
        other => return Err(Error::not_supported(format!("physical type {other:?}"))),
    })
}
