//! The dictionary a column chunk writer builds ([`Dict`]): values interned by their bits
//! (4- and 8-byte numbers) or bytes (byte arrays), its PLAIN page, and the room it took, which
//! the column's next chunk reserves.

use super::column_source::Source;
use super::distinct::UsedEntries;
use crate::encoding::interner::{BytesInterner, FixedInterner};
use crate::format::Type;

/// The dictionary being built.
#[derive(Debug)]
pub(super) enum Dict {
    /// Not dictionary-encoding (booleans, disabled, or fallen back).
    Off,
    /// 4-byte values by their bits.
    W4(FixedInterner<u32>),
    /// 8-byte values by their bits.
    W8(FixedInterner<u64>),
    /// Byte arrays and fixed-length byte arrays.
    Bytes(BytesInterner),
}

impl Dict {
    pub(super) fn new(physical: Type, on: bool) -> Dict {
        match physical {
            _ if !on => Dict::Off,
            Type::INT32 | Type::FLOAT => Dict::W4(FixedInterner::new()),
            Type::INT64 | Type::DOUBLE => Dict::W8(FixedInterner::new()),
            Type::BYTE_ARRAY | Type::FIXED_LEN_BYTE_ARRAY => Dict::Bytes(BytesInterner::new()),
            _ => Dict::Off,
        }
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Dict::Off => 0,
            Dict::W4(d) => d.len(),
            Dict::W8(d) => d.len(),
            Dict::Bytes(d) => d.len(),
        }
    }

    /// The values held and their bytes (byte arrays; 0 for fixed-width values).
    pub(super) fn room(&self) -> (usize, usize) {
        match self {
            Dict::Bytes(d) => (d.len(), d.data_len()),
            d => (d.len(), 0),
        }
    }

    /// Room for `values` values (of `bytes` bytes, for byte arrays) without growing.
    pub(super) fn reserve(&mut self, (values, bytes): (usize, usize)) {
        match self {
            Dict::Off => {}
            Dict::W4(d) => d.reserve(values),
            Dict::W8(d) => d.reserve(values),
            Dict::Bytes(d) => d.reserve(values, bytes),
        }
    }

    /// Interns every value of `source` (a dictionary array's values); their indices.
    pub(super) fn remap(&mut self, source: Source<'_>) -> Vec<u32> {
        match (self, source) {
            (Dict::W4(d), Source::I32(v)) => v.iter().map(|&x| d.intern(x as u32)).collect(),
            (Dict::W4(d), Source::F32(v)) => v.iter().map(|&x| d.intern(x.to_bits())).collect(),
            (Dict::W8(d), Source::I64(v)) => v.iter().map(|&x| d.intern(x as u64)).collect(),
            (Dict::W8(d), Source::F64(v)) => v.iter().map(|&x| d.intern(x.to_bits())).collect(),
            (Dict::Bytes(d), s) => (0..s.count()).map(|i| d.intern(s.bytes(i))).collect(),
            _ => Vec::new(),
        }
    }

    /// PLAIN-encoded size of the values.
    pub(super) fn plain_size(&self, fixed: bool) -> usize {
        match self {
            Dict::Off => 0,
            Dict::W4(d) => 4 * d.len(),
            Dict::W8(d) => 8 * d.len(),
            Dict::Bytes(d) => d.data_len() + if fixed { 0 } else { 4 * d.len() },
        }
    }

    /// Calls `f` with each entry in `used`, PLAIN-encoded (byte arrays without their length).
    pub(super) fn for_each_used(&self, used: &UsedEntries, mut f: impl FnMut(&[u8])) {
        match self {
            Dict::Off => {}
            Dict::W4(d) => (d.values().iter().enumerate())
                .filter(|(i, _)| used.contains(*i))
                .for_each(|(_, v)| f(&v.to_le_bytes())),
            Dict::W8(d) => (d.values().iter().enumerate())
                .filter(|(i, _)| used.contains(*i))
                .for_each(|(_, v)| f(&v.to_le_bytes())),
            Dict::Bytes(d) => (0..d.len() as u32)
                .filter(|&i| used.contains(i as usize))
                .for_each(|i| f(d.get(i))),
        }
    }

    /// The values, PLAIN-encoded.
    pub(super) fn plain(&self, fixed: bool, out: &mut Vec<u8>) {
        match self {
            Dict::Off => {}
            Dict::W4(d) => out.extend_from_slice(bytemuck::cast_slice(d.values())),
            Dict::W8(d) => out.extend_from_slice(bytemuck::cast_slice(d.values())),
            Dict::Bytes(d) => {
                for i in 0..d.len() as u32 {
                    let v = d.get(i);
                    if !fixed {
                        out.extend_from_slice(&(v.len() as u32).to_le_bytes());
                    }
                    out.extend_from_slice(v);
                }
            }
        }
    }
}
