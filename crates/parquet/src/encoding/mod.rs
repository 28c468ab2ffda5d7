//! Encoding kernels: pure functions from encoded bytes to values, each tested against a naive
//! oracle written from `Encodings.md` (see `test_util`). Nothing here knows pages, columns or
//! arrays: the page layer hands a kernel the bytes of one page's values, and the Arrow layer
//! hands it the buffers to fill.
//!
//! | Encoding | Kernel |
//! |---|---|
//! | PLAIN, fixed width | a bounds-checked slice ([`plain::fixed`]); booleans are bits ([`plain::booleans`]) |
//! | PLAIN, BYTE_ARRAY | [`byte_array::plain`] |
//! | RLE / bit-packed hybrid (levels, booleans, dictionary indices) | [`rle::RleDecoder`] |
//! | BIT_PACKED (deprecated levels) | [`bitpack`], most significant bit first via [`plain::bit_packed_msb`] |
//! | DELTA_BINARY_PACKED | [`delta::decode`] |
//! | DELTA_LENGTH_BYTE_ARRAY | [`byte_array::delta_length`] |
//! | DELTA_BYTE_ARRAY | [`byte_array::delta_byte_array`] |
//! | BYTE_STREAM_SPLIT | [`byte_stream_split::decode`] |
//! | big-endian decimals (FIXED_LEN_BYTE_ARRAY) | [`big_endian::to_i128_in_place`] |

pub mod big_endian;
pub mod bitpack;
pub mod byte_array;
pub mod byte_array_encoder;
pub mod byte_stream_split;
pub mod delta;
pub mod delta_encoder;
pub mod dictionary;
pub mod plain;
pub mod rle;
pub mod rle_encoder;
pub mod varint;

#[cfg(test)]
pub(crate) mod test_util;
