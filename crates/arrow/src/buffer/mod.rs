//! Memory: aligned mutable buffers, immutable typed buffers, bitmaps and offsets.

mod alloc;
mod bit_builder;
mod bitmap;
mod mutable;
mod offsets;
mod typed;

pub use alloc::ALIGNMENT;
pub use bit_builder::MutableBitmap;
pub(crate) use bit_builder::low_bits;
pub use bitmap::{BitChunks, BitIter, Bitmap, SetIndices};
pub use mutable::{MutableBuffer, aligned_copy};
pub use offsets::{Offset, OffsetBuffer, check_offsets};
pub use typed::{Buffer, misaligned_copies};
