//! The page a column writer is building: its levels (RLE encoders), its values (PLAIN bytes,
//! dictionary indices or booleans), counts, bounds and level histograms; and how it becomes
//! the encoded parts of a data page.

use super::write_stats::MinMax;
use crate::encoding::rle_encoder::RleEncoder;
use crate::encoding::{byte_array_encoder, byte_stream_split, delta_encoder, plain};
use crate::format::{Encoding, Type};
use crate::levels::level_width;
use quiver_arrow::{Error, Result};

/// The values of the page being built.
#[derive(Debug, Default)]
pub struct ValueBuf {
    plain: Vec<u8>,
    indices: Vec<u32>,
    bools: Vec<bool>,
}

impl ValueBuf {
    /// PLAIN-encoded values (fixed width, or byte arrays with their length prefixes).
    pub fn plain(&mut self) -> &mut Vec<u8> {
        &mut self.plain
    }

    /// Dictionary indices.
    pub fn indices(&mut self) -> &mut Vec<u32> {
        &mut self.indices
    }

    /// Boolean values.
    pub fn bools(&mut self) -> &mut Vec<bool> {
        &mut self.bools
    }

    fn clear(&mut self) {
        self.plain.clear();
        self.indices.clear();
        self.bools.clear();
    }
}

/// A page being built.
#[derive(Debug)]
pub struct PageBuf {
    /// Definition levels.
    pub def: RleEncoder,
    /// Repetition levels.
    pub rep: RleEncoder,
    /// Values.
    pub values: ValueBuf,
    /// Level entries.
    pub num_values: usize,
    /// Null entries.
    pub num_nulls: usize,
    /// Records.
    pub num_rows: usize,
    /// Bounds of the page's values.
    pub mm: MinMax,
    /// Definition level histogram (empty when the maximum is 0).
    pub def_hist: Vec<i64>,
    /// Repetition level histogram (empty when the maximum is 0).
    pub rep_hist: Vec<i64>,
    /// The chunk stopped dictionary-encoding.
    pub fallen_back: bool,
    max_def: i16,
    max_rep: i16,
    out_def: Vec<u8>,
    out_rep: Vec<u8>,
    out_values: Vec<u8>,
    alt: Vec<u8>,
}

/// The encoded parts of a data page, borrowed from the [`PageBuf`].
#[derive(Debug)]
pub struct PageValues<'p> {
    /// The values' encoding.
    pub encoding: Encoding,
    /// Repetition levels (RLE).
    pub rep: &'p [u8],
    /// Definition levels (RLE).
    pub def: &'p [u8],
    /// Values.
    pub values: &'p [u8],
}

impl PageBuf {
    /// An empty page of a leaf with these maximum levels.
    pub fn new(max_def: i16, max_rep: i16) -> Self {
        let hist = |m: i16| vec![0; if m > 0 { m as usize + 1 } else { 0 }];
        PageBuf {
            def: RleEncoder::new(level_width(max_def)),
            rep: RleEncoder::new(level_width(max_rep)),
            values: ValueBuf::default(),
            num_values: 0,
            num_nulls: 0,
            num_rows: 0,
            mm: MinMax::default(),
            def_hist: hist(max_def),
            rep_hist: hist(max_rep),
            fallen_back: false,
            max_def,
            max_rep,
            out_def: Vec::new(),
            out_rep: Vec::new(),
            out_values: Vec::new(),
            alt: Vec::new(),
        }
    }

    /// An estimate of the encoded page's size (before compression).
    pub fn estimated_size(&self, dict_len: usize) -> usize {
        let levels = (self.def.len() * level_width(self.max_def) as usize
            + self.rep.len() * level_width(self.max_rep) as usize)
            / 8;
        let idx_width = level_width_u32(dict_len) as usize;
        levels
            + self.values.plain.len()
            + self.values.indices.len() * idx_width / 8
            + self.values.bools.len() / 8
    }

    /// Forgets the page (keeping buffers and the fallback state).
    pub fn reset(&mut self) {
        self.values.clear();
        self.num_values = 0;
        self.num_nulls = 0;
        self.num_rows = 0;
        self.mm.clear();
        self.def_hist.iter_mut().for_each(|h| *h = 0);
        self.rep_hist.iter_mut().for_each(|h| *h = 0);
    }

    /// Encodes the page: levels, and values as dictionary indices (`dict_len` is `Some` with
    /// the dictionary's size when dictionary-encoding), or PLAIN, or `forced`, or (when
    /// `choose`) whichever of PLAIN and the type's alternative is smaller.
    pub fn encode(
        &mut self,
        physical: Type,
        fixed_width: usize,
        dict_len: Option<usize>,
        forced: Option<Encoding>,
        choose: bool,
    ) -> Result<PageValues<'_>> {
        self.out_def.clear();
        self.out_rep.clear();
        if self.max_def > 0 {
            self.def.finish_into(&mut self.out_def);
        }
        if self.max_rep > 0 {
            self.rep.finish_into(&mut self.out_rep);
        }
        self.out_values.clear();
        let encoding = if let Some(dict_len) = dict_len {
            let width = level_width_u32(dict_len);
            self.out_values.push(width as u8);
            let mut rle = RleEncoder::new(width);
            rle.put_u32s(&self.values.indices);
            rle.finish_into(&mut self.out_values);
            Encoding::RLE_DICTIONARY
        } else if physical == Type::BOOLEAN {
            self.encode_bools(forced)
        } else {
            self.encode_plain_or(physical, fixed_width, forced, choose)?
        };
        // PLAIN values are the page's own buffer (not copied).
        let plain = encoding == Encoding::PLAIN && physical != Type::BOOLEAN;
        Ok(PageValues {
            encoding,
            rep: &self.out_rep,
            def: &self.out_def,
            values: if plain {
                &self.values.plain
            } else {
                &self.out_values
            },
        })
    }

    fn encode_bools(&mut self, forced: Option<Encoding>) -> Encoding {
        let bools = &self.values.bools;
        if forced == Some(Encoding::RLE) {
            // RLE booleans: a 4-byte length, then the hybrid runs of width 1.
            let mut rle = RleEncoder::new(1);
            for &b in bools {
                rle.put(u32::from(b));
            }
            self.out_values.extend_from_slice(&[0; 4]);
            rle.finish_into(&mut self.out_values);
            let n = (self.out_values.len() - 4) as u32;
            self.out_values[..4].copy_from_slice(&n.to_le_bytes());
            return Encoding::RLE;
        }
        let mut words = vec![0u64; bools.len().div_ceil(64)];
        for (i, &b) in bools.iter().enumerate() {
            words[i / 64] |= u64::from(b) << (i % 64);
        }
        plain::encode_booleans(&words, 0, bools.len(), &mut self.out_values);
        Encoding::PLAIN
    }

    /// PLAIN (the values stay in `values.plain`), or the alternative into `out_values`.
    fn encode_plain_or(
        &mut self,
        physical: Type,
        fixed_width: usize,
        forced: Option<Encoding>,
        choose: bool,
    ) -> Result<Encoding> {
        let plain = &self.values.plain;
        let alt = match forced {
            Some(Encoding::PLAIN) => None,
            Some(e) => Some(e),
            None if choose => alternative(physical),
            None => None,
        };
        let Some(alt_encoding) = alt else {
            return Ok(Encoding::PLAIN);
        };
        self.alt.clear();
        encode_as(alt_encoding, physical, fixed_width, plain, &mut self.alt)?;
        if forced.is_none() && self.alt.len() >= plain.len() {
            return Ok(Encoding::PLAIN);
        }
        std::mem::swap(&mut self.out_values, &mut self.alt);
        Ok(alt_encoding)
    }
}

/// The encoding the modern profile tries against PLAIN for a physical type.
fn alternative(physical: Type) -> Option<Encoding> {
    match physical {
        Type::INT32 | Type::INT64 => Some(Encoding::DELTA_BINARY_PACKED),
        Type::FLOAT | Type::DOUBLE | Type::FIXED_LEN_BYTE_ARRAY => {
            Some(Encoding::BYTE_STREAM_SPLIT)
        }
        Type::BYTE_ARRAY => Some(Encoding::DELTA_BYTE_ARRAY),
        _ => None,
    }
}

/// Re-encodes PLAIN values as `encoding`.
fn encode_as(
    encoding: Encoding,
    physical: Type,
    fixed_width: usize,
    plain: &[u8],
    out: &mut Vec<u8>,
) -> Result<()> {
    let unsupported = || {
        Error::invalid(format!(
            "the {} encoding does not apply to {} columns",
            encoding.name(),
            physical.name()
        ))
    };
    match (encoding, physical) {
        (Encoding::DELTA_BINARY_PACKED, Type::INT32) => {
            delta_encoder::encode_i32(&le_values::<4, i32>(plain, i32::from_le_bytes), out)
        }
        (Encoding::DELTA_BINARY_PACKED, Type::INT64) => {
            delta_encoder::encode_i64(&le_values::<8, i64>(plain, i64::from_le_bytes), out)
        }
        (Encoding::BYTE_STREAM_SPLIT, Type::FLOAT | Type::INT32) => {
            byte_stream_split::encode(plain, 4, out)
        }
        (Encoding::BYTE_STREAM_SPLIT, Type::DOUBLE | Type::INT64) => {
            byte_stream_split::encode(plain, 8, out)
        }
        (Encoding::BYTE_STREAM_SPLIT, Type::FIXED_LEN_BYTE_ARRAY) if fixed_width > 0 => {
            byte_stream_split::encode(plain, fixed_width, out)
        }
        (Encoding::DELTA_LENGTH_BYTE_ARRAY, Type::BYTE_ARRAY) => {
            byte_array_encoder::encode_delta_length(&split_byte_arrays(plain), out)
        }
        (Encoding::DELTA_BYTE_ARRAY, Type::BYTE_ARRAY) => {
            byte_array_encoder::encode_delta_byte_array(&split_byte_arrays(plain), out)
        }
        (Encoding::DELTA_BYTE_ARRAY, Type::FIXED_LEN_BYTE_ARRAY) if fixed_width > 0 => {
            let values: Vec<&[u8]> = plain.chunks_exact(fixed_width).collect();
            byte_array_encoder::encode_delta_byte_array(&values, out)
        }
        _ => return Err(unsupported()),
    }
    Ok(())
}

fn le_values<const N: usize, T>(plain: &[u8], f: fn([u8; N]) -> T) -> Vec<T> {
    plain
        .chunks_exact(N)
        .map(|c| f(c.try_into().unwrap_or([0; N])))
        .collect()
}

/// PLAIN byte arrays (length-prefixed, as this module wrote them) back into slices.
fn split_byte_arrays(mut plain: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    while let Some((len, rest)) = plain.split_first_chunk::<4>() {
        let n = u32::from_le_bytes(*len) as usize;
        out.push(&rest[..n]);
        plain = &rest[n..];
    }
    out
}

/// Bits for dictionary indices below `n`.
fn level_width_u32(n: usize) -> u32 {
    if n <= 1 {
        0
    } else {
        usize::BITS - (n - 1).leading_zeros()
    }
}
