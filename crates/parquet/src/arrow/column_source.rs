//! The values of one leaf, as the column writer reads them: the physical array
//! ([`super::physical::to_physical`]'s output) seen as a typed slice or byte-array accessor,
//! and the positions of the present values of a run of level entries.

use super::shred::{LeafLevels, ShreddedLeaf};
use quiver_arrow::array::Array;
use quiver_arrow::buffer::Bitmap;
use quiver_arrow::{Error, Result};
use std::ops::Range;

/// A physical array's values.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// BOOLEAN.
    Bool(&'a Bitmap),
    /// INT32.
    I32(&'a [i32]),
    /// INT64.
    I64(&'a [i64]),
    /// FLOAT.
    F32(&'a [f32]),
    /// DOUBLE.
    F64(&'a [f64]),
    /// FIXED_LEN_BYTE_ARRAY.
    Fixed {
        /// The values back to back.
        data: &'a [u8],
        /// Bytes per value.
        width: usize,
    },
    /// BYTE_ARRAY from 32-bit offsets.
    Bytes32 {
        /// Offsets (one more than values).
        offsets: &'a [i32],
        /// The bytes.
        data: &'a [u8],
    },
    /// BYTE_ARRAY from 64-bit offsets.
    Bytes64 {
        /// Offsets (one more than values).
        offsets: &'a [i64],
        /// The bytes.
        data: &'a [u8],
    },
    /// BYTE_ARRAY from views.
    Views(&'a quiver_arrow::array::BinaryViewArray),
}

impl<'a> Source<'a> {
    /// The values of a physical array (not a dictionary).
    pub fn new(array: &'a Array) -> Result<Source<'a>> {
        Ok(match array {
            Array::Boolean(a) => Source::Bool(a.values()),
            Array::I32(a) => Source::I32(a.values()),
            Array::I64(a) => Source::I64(a.values()),
            Array::F32(a) => Source::F32(a.values()),
            Array::F64(a) => Source::F64(a.values()),
            Array::FixedSizeBinary(a) => Source::Fixed {
                data: a.values(),
                width: a.size(),
            },
            Array::Binary(a) => Source::Bytes32 {
                offsets: a.offsets().as_slice(),
                data: a.values(),
            },
            Array::Utf8(a) => Source::Bytes32 {
                offsets: a.offsets().as_slice(),
                data: a.values(),
            },
            Array::LargeBinary(a) => Source::Bytes64 {
                offsets: a.offsets().as_slice(),
                data: a.values(),
            },
            Array::LargeUtf8(a) => Source::Bytes64 {
                offsets: a.offsets().as_slice(),
                data: a.values(),
            },
            Array::BinaryView(a) => Source::Views(a),
            Array::Utf8View(a) => Source::Views(a.as_binary()),
            other => {
                return Err(Error::invalid(format!(
                    "a {} array is not a Parquet physical layout",
                    other.data_type()
                )));
            }
        })
    }

    /// How many values.
    pub fn count(&self) -> usize {
        match *self {
            Source::Bool(b) => b.len(),
            Source::I32(v) => v.len(),
            Source::I64(v) => v.len(),
            Source::F32(v) => v.len(),
            Source::F64(v) => v.len(),
            Source::Fixed { data, width } => data.len().checked_div(width).unwrap_or(0),
            Source::Bytes32 { offsets, .. } => offsets.len().saturating_sub(1),
            Source::Bytes64 { offsets, .. } => offsets.len().saturating_sub(1),
            Source::Views(a) => a.len(),
        }
    }

    /// Byte-array value `i` (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY sources).
    #[inline]
    pub fn bytes(&self, i: usize) -> &'a [u8] {
        match *self {
            Source::Fixed { data, width } => &data[i * width..(i + 1) * width],
            Source::Bytes32 { offsets, data } => {
                &data[offsets[i] as usize..offsets[i + 1] as usize]
            }
            Source::Bytes64 { offsets, data } => {
                &data[offsets[i] as usize..offsets[i + 1] as usize]
            }
            Source::Views(a) => a.value(i),
            _ => &[],
        }
    }
}

/// The positions of the present values of some level entries.
#[derive(Debug, Clone)]
pub enum Present<'s> {
    /// Contiguous positions.
    Range(Range<usize>),
    /// Listed positions.
    List(&'s [u32]),
}

impl Present<'_> {
    /// How many.
    pub fn len(&self) -> usize {
        match self {
            Present::Range(r) => r.len(),
            Present::List(l) => l.len(),
        }
    }

    /// Whether none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `f` with each position.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(usize)) {
        match self {
            Present::Range(r) => r.clone().for_each(f),
            Present::List(l) => l.iter().for_each(|&i| f(i as usize)),
        }
    }
}

/// Walks a shredded leaf's entries in order, keeping where its positions are.
#[derive(Debug)]
pub struct Walker<'l> {
    leaf: &'l ShreddedLeaf,
    /// Definition level from which an entry takes a position.
    slot_def: i16,
    /// Next range and offset in it.
    range: usize,
    offset: usize,
}

impl<'l> Walker<'l> {
    /// A walker over `leaf`, whose leaf node is nullable when `leaf_nullable`.
    pub fn new(leaf: &'l ShreddedLeaf, leaf_nullable: bool) -> Self {
        Walker {
            leaf,
            slot_def: leaf.max_def - i16::from(leaf_nullable),
            range: 0,
            offset: 0,
        }
    }

    /// Level entries in the leaf.
    pub fn entries(&self) -> usize {
        match &self.leaf.levels {
            LeafLevels::Flat => self.leaf.array.len(),
            LeafLevels::Nested { def, .. } => def.len(),
        }
    }

    /// The positions of the present values among entries `entries` (walked in order, each once),
    /// listed into `scratch` when not contiguous.
    pub fn present<'s>(
        &mut self,
        entries: Range<usize>,
        validity: Option<&Bitmap>,
        scratch: &'s mut Vec<u32>,
    ) -> Present<'s> {
        scratch.clear();
        match &self.leaf.levels {
            LeafLevels::Flat => match validity {
                Some(v) if v.slice(entries.start, entries.len()).unset_bits() > 0 => {
                    let base = entries.start as u32;
                    let part = v.slice(entries.start, entries.len());
                    scratch.extend(part.set_indices().map(|i| base + i as u32));
                    Present::List(scratch)
                }
                _ => Present::Range(entries),
            },
            LeafLevels::Nested { def, .. } => {
                let (max, slot_def) = (self.leaf.max_def, self.slot_def);
                let ranges = &self.leaf.ranges;
                let defs = &def[entries];
                // Every entry's position is written, and kept (the count moved past it) when
                // the value is present: no branch on presence, and no length kept in memory
                // per push. The walk's place is in locals too: the next position `at` of the
                // current range, which ends at `end`.
                scratch.resize(defs.len(), 0);
                let mut kept = 0;
                let mut range = self.range;
                let (mut at, mut end) = match ranges.get(range) {
                    Some(r) => (r.start + self.offset, r.end),
                    None => (0, 0),
                };
                if end - at >= defs.len() {
                    // The current range holds every position these entries can take (the
                    // usual case: adjacent ranges are merged): no branch at all.
                    for &d in defs {
                        scratch[kept] = at as u32;
                        kept += usize::from(d == max);
                        at += usize::from(d >= slot_def);
                    }
                } else {
                    for &d in defs {
                        if d < slot_def {
                            continue;
                        }
                        while at >= end {
                            range += 1;
                            // ok: the shredder gives every entry reaching the slot a position.
                            let r = &ranges[range];
                            (at, end) = (r.start, r.end);
                        }
                        scratch[kept] = at as u32;
                        kept += usize::from(d == max);
                        at += 1;
                    }
                }
                scratch.truncate(kept);
                self.offset = match ranges.get(range) {
                    Some(r) => at - r.start,
                    None => 0,
                };
                self.range = range;
                Present::List(scratch)
            }
        }
    }
}
