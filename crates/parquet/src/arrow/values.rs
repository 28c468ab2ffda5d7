//! The values of one data page, decoded a batch at a time: [`PageValues`] remembers where it is
//! in the page (a byte or bit offset for PLAIN, the index stream's state for dictionary and RLE
//! booleans), so a page whose values run into the billions (a few bytes of RLE) is never
//! decoded whole. Pages in DELTA_* and BYTE_STREAM_SPLIT encodings are decoded whole when
//! first touched (their values take at most a bounded multiple of the page's bytes, and their
//! streams cannot be entered part-way) and handed out from there.

use super::dense::{Dense, fixed_width};
use crate::encoding::byte_array::{self, ByteArraySink, DeltaByteArrayScratch, OffsetsSink};
use crate::encoding::rle::{RleDecoder, RleState};
use crate::encoding::{big_endian, byte_stream_split, delta, dictionary, plain};
use crate::format::{Encoding, Type};
use crate::levels::validity;
use crate::schema::ColumnDescriptor;
use quiver_arrow::buffer::MutableBuffer;
use quiver_arrow::{Error, I128, Result};

/// Dictionary values up to this long are gathered in one pass, their bytes bounded by the
/// longest.
const SHORT: usize = 64;

/// Zero bytes after the values of a [`Dict::Bytes`] (at least the 64 that a gather of short
/// values may read past a value's start).
const DICT_PADDING: usize = 64;

/// The dictionary of a column chunk, decoded once.
pub(super) enum Dict {
    Fixed {
        width: usize,
        data: MutableBuffer,
    },
    /// The values, the longest one's length, whether every value is UTF-8 (checked once
    /// here, so that strings gathered from the dictionary need no check of their own), and
    /// whether every value has that length (flags, codes: gathered as fixed-width values, their
    /// offsets computed). The values' buffer ends with [`DICT_PADDING`] zero bytes past the last
    /// value, so that every value, the last ones of a tiny dictionary included, can be copied as
    /// whole 16-byte words when gathered.
    Bytes(OffsetsSink<i64>, usize, bool, bool),
    /// Decimals widened to 16-byte little-endian integers, for [`Dense::Decimal128`].
    Decimal128(MutableBuffer),
}

impl Dict {
    fn len(&self) -> usize {
        match self {
            Dict::Fixed { width, data } => data.len() / width,
            Dict::Bytes(s, ..) => s.len(),
            Dict::Decimal128(data) => data.len() / 16,
        }
    }

    /// Decodes a dictionary page of `n` values of column `descr`, its decimals widened when
    /// `decimal128` says the column is read as Decimal128 ([`Dense::for_target`]).
    pub(super) fn decode(
        descr: &ColumnDescriptor,
        values: &[u8],
        n: usize,
        encoding: Encoding,
        decimal128: bool,
    ) -> Result<Dict> {
        if !matches!(encoding, Encoding::PLAIN | Encoding::PLAIN_DICTIONARY) {
            return Err(Error::not_supported(format!(
                "dictionary page encoded as {}",
                encoding.name()
            )));
        }
        Ok(match descr.physical {
            Type::BYTE_ARRAY => {
                let mut sink = OffsetsSink::new();
                sink.extend_plain(values, n)?;
                let offsets = sink.offsets.typed::<i64>();
                let (shortest, longest) = offsets
                    .windows(2)
                    .map(|w| w[1] - w[0])
                    .fold((i64::MAX, 0), |(lo, hi), l| (lo.min(l), hi.max(l)));
                let uniform = n > 0 && shortest == longest;
                let utf8 = quiver_arrow::array::all_utf8(offsets, sink.values.as_slice());
                sink.values.extend_zeros(DICT_PADDING);
                Dict::Bytes(sink, longest as usize, utf8, uniform)
            }
            Type::BOOLEAN => return Err(Error::not_supported("a dictionary of booleans")),
            t => match Dense::for_target(t, descr.type_length, decimal128)? {
                Dense::Decimal128 { from, .. } => {
                    let mut data = MutableBuffer::new();
                    big_endian::extend_i128(plain::fixed(values, from, n)?, from, &mut data)?;
                    Dict::Decimal128(data)
                }
                _ => {
                    let width = fixed_width(t, descr.type_length)?;
                    let mut data = MutableBuffer::new();
                    data.extend_from_slice(plain::fixed(values, width, n)?);
                    Dict::Fixed { width, data }
                }
            },
        })
    }
}

/// Buffers reused across pages.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    delta: DeltaByteArrayScratch,
    lengths: MutableBuffer,
    ints: Vec<i32>,
}

/// Where the decoding of a page's values stands.
#[derive(Debug)]
enum Cursor {
    /// Nothing decoded yet (the stream's header, if any, not read).
    Start,
    /// PLAIN: the next value's byte offset (bit offset for booleans).
    Plain(usize),
    /// Dictionary indices or RLE booleans: the stream (after its width byte or length prefix)
    /// and where its decoder is.
    Rle {
        from: usize,
        to: usize,
        state: RleState,
    },
    /// A page decoded whole, and the next value to hand out.
    Decoded(Dense, usize),
}

/// The values of one data page.
#[derive(Debug)]
pub(super) struct PageValues {
    encoding: Encoding,
    cursor: Cursor,
}

impl PageValues {
    /// The values of a page in `encoding`, none decoded yet.
    pub(super) fn new(encoding: Encoding) -> PageValues {
        PageValues {
            encoding,
            cursor: Cursor::Start,
        }
    }

    /// Whether the page's values must be decoded whole ([`PageValues::decode_whole`]) before
    /// any is taken.
    pub(super) fn needs_whole(&self) -> bool {
        matches!(
            self.encoding,
            Encoding::DELTA_BINARY_PACKED
                | Encoding::DELTA_LENGTH_BYTE_ARRAY
                | Encoding::DELTA_BYTE_ARRAY
                | Encoding::BYTE_STREAM_SPLIT
        )
    }

    /// Decodes all `n` values of `src`, the page's value bytes (for encodings that
    /// [`needs_whole`](PageValues::needs_whole)).
    pub(super) fn decode_whole(
        &mut self,
        descr: &ColumnDescriptor,
        src: &[u8],
        n: usize,
        scratch: &mut Scratch,
    ) -> Result<()> {
        let enc = self.encoding;
        let ctx = |e: Error| e.context(format!("{} values", enc.name()));
        let mut dense = Dense::new(descr.physical, descr.type_length)?;
        match (&mut dense, enc) {
            (Dense::Fixed { width: 4, data }, Encoding::DELTA_BINARY_PACKED)
                if descr.physical == Type::INT32 =>
            {
                let d = delta::decode::<i32>(src, n, data).map_err(ctx)?;
                check_count(d.values, n).map_err(ctx)?;
            }
            (Dense::Fixed { width: 8, data }, Encoding::DELTA_BINARY_PACKED)
                if descr.physical == Type::INT64 =>
            {
                let d = delta::decode::<i64>(src, n, data).map_err(ctx)?;
                check_count(d.values, n).map_err(ctx)?;
            }
            (Dense::Fixed { width, data }, Encoding::BYTE_STREAM_SPLIT) => {
                let bytes = n
                    .checked_mul(*width)
                    .filter(|&b| b <= src.len())
                    .ok_or_else(|| ctx(Error::oos("page too short")))?;
                byte_stream_split::decode(&src[..bytes], *width, n, data).map_err(ctx)?;
            }
            (Dense::Fixed { width, data }, Encoding::DELTA_BYTE_ARRAY)
                if descr.physical == Type::FIXED_LEN_BYTE_ARRAY =>
            {
                let mut sink = OffsetsSink::<i64>::new();
                byte_array::delta_byte_array(src, n, &mut sink, &mut scratch.delta).map_err(ctx)?;
                if sink.values.len() != n * *width {
                    return Err(ctx(Error::oos(format!(
                        "values are not all {width} bytes long"
                    ))));
                }
                data.extend_from_slice(sink.values.as_slice());
            }
            (Dense::Bytes(_), Encoding::DELTA_LENGTH_BYTE_ARRAY | Encoding::DELTA_BYTE_ARRAY) => {
                // Decoded with 64-bit offsets, so that any range can be handed out.
                let mut sink = OffsetsSink::<i64>::new();
                if enc == Encoding::DELTA_BYTE_ARRAY {
                    byte_array::delta_byte_array(src, n, &mut sink, &mut scratch.delta)
                } else {
                    byte_array::delta_length(src, n, &mut sink, &mut scratch.lengths)
                }
                .map_err(ctx)?;
                dense = Dense::Bytes(byte_array::FlexOffsets::Wide(sink));
            }
            (_, e) => return Err(unsupported(e, descr.physical)),
        }
        self.cursor = Cursor::Decoded(dense, 0);
        Ok(())
    }

    /// Appends the next `n` values of the page, whose value bytes are `src`, to `out`.
    /// Returns whether the values appended to byte arrays are all known to be UTF-8: copies of
    /// entries of a dictionary found to be UTF-8 when it was decoded (or none appended).
    pub(super) fn take(
        &mut self,
        src: &[u8],
        n: usize,
        dict: Option<&Dict>,
        out: &mut Dense,
        scratch: &mut Scratch,
    ) -> Result<bool> {
        if n == 0 {
            return Ok(true);
        }
        let enc = self.encoding;
        let ctx = |e: Error| e.context(format!("{} values", enc.name()));
        if matches!(self.cursor, Cursor::Start) {
            self.cursor = start(enc, src).map_err(ctx)?;
        }
        let checked = match (&*out, &self.cursor, dict) {
            (Dense::Bytes(_), Cursor::Rle { .. }, Some(Dict::Bytes(_, _, utf8, _))) => *utf8,
            (Dense::Bytes(_), ..) => false,
            _ => true,
        };
        let r = match &mut self.cursor {
            Cursor::Start => Err(unsupported(enc, out_physical(out))),
            Cursor::Plain(at) => take_plain(src, at, n, out).map_err(ctx),
            Cursor::Rle { from, to, state } => {
                let stream = src.get(*from..*to).unwrap_or(&[]);
                let mut d = RleDecoder::resume(stream, *state);
                let r = match (enc, out) {
                    (Encoding::RLE, Dense::Bool(bits)) => {
                        validity::append(&mut d, n, bits).map(drop)
                    }
                    (Encoding::RLE, out) => Err(unsupported(enc, out_physical(out))),
                    (_, out) => gather(&mut d, n, dict, out),
                };
                *state = d.state();
                r.map_err(ctx)
            }
            Cursor::Decoded(dense, at) => {
                copy_range(dense, *at, n, out, &mut scratch.ints).map_err(ctx)?;
                *at += n;
                Ok(())
            }
        };
        r.map(|()| checked)
    }
}

/// The cursor at the start of a page's values in `encoding`.
fn start(encoding: Encoding, src: &[u8]) -> Result<Cursor> {
    Ok(match encoding {
        Encoding::PLAIN => Cursor::Plain(0),
        Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY => {
            let Some(&width) = src.first() else {
                return Err(Error::oos("dictionary-encoded page has no bit width byte"));
            };
            let state = RleDecoder::new(&src[1..], u32::from(width))?.state();
            Cursor::Rle {
                from: 1,
                to: src.len(),
                state,
            }
        }
        Encoding::RLE => {
            // RLE booleans carry a 4-byte length prefix.
            let len = src
                .first_chunk::<4>()
                .map(|b| u32::from_le_bytes(*b) as usize);
            let Some(len) = len.filter(|&l| l <= src.len() - 4) else {
                return Err(Error::oos("RLE booleans: bad length prefix"));
            };
            let state = RleDecoder::new(&src[4..4 + len], 1)?.state();
            Cursor::Rle {
                from: 4,
                to: 4 + len,
                state,
            }
        }
        // Decoded whole first (`decode_whole`); reaching here means it was not.
        _ => Cursor::Start,
    })
}

fn out_physical(out: &Dense) -> Type {
    match out {
        Dense::Bool(_) => Type::BOOLEAN,
        Dense::Fixed { .. } => Type::FIXED_LEN_BYTE_ARRAY,
        Dense::Bytes(_) => Type::BYTE_ARRAY,
        Dense::Decimal128 { .. } => Type::FIXED_LEN_BYTE_ARRAY,
    }
}

fn unsupported(e: Encoding, physical: Type) -> Error {
    Error::not_supported(format!("{} values of physical type {physical:?}", e.name()))
}

/// The next `n` PLAIN values from byte (bit, for booleans) offset `at` of `src`.
fn take_plain(src: &[u8], at: &mut usize, n: usize, out: &mut Dense) -> Result<()> {
    match out {
        Dense::Bool(bits) => {
            if at.saturating_add(n) > src.len().saturating_mul(8) {
                return Err(Error::oos(format!(
                    "{n} PLAIN booleans from bit {at} need more than the page's {} bytes",
                    src.len()
                )));
            }
            bits.try_reserve(n)?;
            bits.extend_from_bytes(src, *at, n);
            *at += n;
        }
        Dense::Fixed { width, data } => {
            let rest = src.get(*at..).unwrap_or(&[]);
            let values = plain::fixed(rest, *width, n)?;
            data.extend_from_slice(values);
            *at += values.len();
        }
        Dense::Bytes(sink) => {
            let rest = src.get(*at..).unwrap_or(&[]);
            *at += sink.extend_plain(rest, n)?;
        }
        Dense::Decimal128 { from, data } => {
            let rest = src.get(*at..).unwrap_or(&[]);
            let values = plain::fixed(rest, *from, n)?;
            big_endian::extend_i128(values, *from, data)?;
            *at += values.len();
        }
    }
    Ok(())
}

/// Appends the `n` values of `width` bytes (1 to 16) the next `n` indices of `indices` select
/// from `values` (the dictionary's values back to back), each width by its own kernel.
fn gather_width(
    indices: &mut RleDecoder,
    n: usize,
    values: &[u8],
    width: usize,
    out: &mut MutableBuffer,
) -> Result<()> {
    fn typed<T: bytemuck::Pod>(values: &[u8]) -> Result<&[T]> {
        bytemuck::try_cast_slice(values).map_err(|e| {
            Error::invalid(format!(
                "{} dictionary bytes as values of {} bytes: {e}",
                values.len(),
                std::mem::size_of::<T>()
            ))
        })
    }
    macro_rules! by_width {
        ($($w:literal)*) => {
            match width {
                4 => dictionary::gather(indices, n, typed::<u32>(values)?, out),
                8 => dictionary::gather(indices, n, typed::<u64>(values)?, out),
                $($w => dictionary::gather(indices, n, typed::<[u8; $w]>(values)?, out),)*
                w => Err(Error::invalid(format!("gather of width {w}"))),
            }
        };
    }
    by_width!(1 2 3 5 6 7 9 10 11 12 13 14 15 16)
}

/// Appends the `n` dictionary values the next `n` indices of `indices` select.
fn gather(indices: &mut RleDecoder, n: usize, dict: Option<&Dict>, out: &mut Dense) -> Result<()> {
    let Some(dict) = dict else {
        return Err(Error::oos(
            "dictionary-encoded page without a dictionary page",
        ));
    };
    match (out, dict) {
        (Dense::Fixed { width, data }, Dict::Fixed { data: values, .. }) => match *width {
            w @ 1..=16 => gather_width(indices, n, values.as_slice(), w, data),
            w => {
                let all = values.as_slice();
                dictionary::for_each_block(indices, n, dict.len(), |idx| {
                    for &i in idx {
                        data.extend_from_slice(&all[i as usize * w..(i as usize + 1) * w]);
                    }
                    Ok(())
                })
            }
        },
        (Dense::Decimal128 { data, .. }, Dict::Decimal128(values)) => {
            dictionary::gather(indices, n, values.typed::<I128>(), data)
        }
        (Dense::Bytes(sink), Dict::Bytes(values, len @ 1..=16, _, true)) => {
            // Every value `len` bytes: gathered as fixed-width values, the offsets a sequence.
            let all = &values.values.as_slice()[..values.len() * len];
            sink.extend_uniform(n, *len, |out| gather_width(indices, n, all, *len, out))
        }
        (Dense::Bytes(sink), Dict::Bytes(values, longest, ..)) => {
            dictionary::for_each_block(indices, n, dict.len(), |idx| {
                // One pass when the longest value bounds the bytes closely enough (short
                // values); otherwise the bound could reserve far more than is written.
                if *longest <= SHORT {
                    sink.extend_gather_bounded(values, idx, *longest)
                } else {
                    sink.extend_gather(values, idx)
                }
            })
        }
        _ => Err(Error::oos("dictionary of another physical type")),
    }
}

/// Appends values `at..at + n` of `src` (a page decoded whole) to `out`.
fn copy_range(
    src: &Dense,
    at: usize,
    n: usize,
    out: &mut Dense,
    lengths: &mut Vec<i32>,
) -> Result<()> {
    if at.saturating_add(n) > src.len() {
        return Err(Error::oos(format!(
            "the page holds {} values, {} are needed",
            src.len(),
            at.saturating_add(n)
        )));
    }
    match (src, out) {
        (Dense::Fixed { width, data }, Dense::Fixed { data: out, .. }) => {
            out.extend_from_slice(&data.as_slice()[at * width..(at + n) * width]);
        }
        (Dense::Fixed { width, data }, Dense::Decimal128 { from, data: out }) if width == from => {
            big_endian::extend_i128(&data.as_slice()[at * width..(at + n) * width], *from, out)?;
        }
        (Dense::Bytes(byte_array::FlexOffsets::Wide(s)), Dense::Bytes(out)) => {
            let offsets = &s.offsets.typed::<i64>()[at..=at + n];
            lengths.clear();
            lengths.extend(offsets.windows(2).map(|w| (w[1] - w[0]) as i32));
            let bytes = &s.values.as_slice()[offsets[0] as usize..offsets[n] as usize];
            out.reserve(n, bytes.len())?;
            out.extend_concatenated(bytes, lengths)?;
        }
        _ => return Err(Error::invalid("decoded page of another physical type")),
    }
    Ok(())
}

fn check_count(got: usize, want: usize) -> Result<()> {
    if got == want {
        Ok(())
    } else {
        Err(Error::oos(format!(
            "{got} values where the levels say {want}"
        )))
    }
}
