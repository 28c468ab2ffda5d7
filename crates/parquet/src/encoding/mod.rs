//! Encoding kernels: pure functions from encoded bytes to values and back, each tested against
//! a naive oracle written from `Encodings.md` (see `test_util`). Nothing here knows pages,
//! columns or arrays: the page layer hands a kernel the bytes of one page's values, and the
//! Arrow layer hands it the buffers to fill (or the physical values to encode).
//!
//! | Encoding | Kernel (read) |
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
//!
//! | Encoding | Kernel (write) |
//! |---|---|
//! | PLAIN, fixed width | the values' little-endian bytes as they are; booleans [`plain::encode_booleans`] |
//! | PLAIN, BYTE_ARRAY | [`plain::encode_byte_arrays`] |
//! | RLE / bit-packed hybrid | [`rle_encoder::RleEncoder`] (groups packed by [`bitpack::pack32`]) |
//! | DELTA_BINARY_PACKED | [`delta_encoder::encode_i32`], [`delta_encoder::encode_i64`] |
//! | DELTA_LENGTH_BYTE_ARRAY | [`byte_array_encoder::encode_delta_length`] |
//! | DELTA_BYTE_ARRAY | [`byte_array_encoder::encode_delta_byte_array`] |
//! | BYTE_STREAM_SPLIT | [`byte_stream_split::encode`] |
//! | dictionaries being built (RLE_DICTIONARY) | [`interner::FixedInterner`], [`interner::BytesInterner`] |

pub mod big_endian;
pub mod bitpack;
pub mod byte_array;
pub mod byte_array_encoder;
pub mod byte_stream_split;
pub mod delta;
pub mod delta_encoder;
pub mod dictionary;
pub mod interner;
pub mod plain;
pub mod rle;
pub mod rle_encoder;
pub mod varint;

#[cfg(test)]
mod pyarrow_tests;
#[cfg(test)]
pub(crate) mod test_util;
