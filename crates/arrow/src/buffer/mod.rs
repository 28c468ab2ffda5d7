//! Memory: aligned mutable buffers, immutable typed buffers, bitmaps and offsets.

mod bitmap;
mod mutable;
mod offsets;
mod typed;

pub use bitmap::{BitChunks, BitIter, Bitmap, MutableBitmap, SetIndices};
pub use mutable::{ALIGNMENT, MutableBuffer, aligned_copy};
pub use offsets::{Offset, OffsetBuffer, check_offsets};
pub use typed::Buffer;
