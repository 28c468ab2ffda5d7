//! One leaf column chunk decoded: its non-null values, densely, in the physical type's layout
//! ([`Dense`]), and its levels ([`LeafLevels`]): none for a required flat column, validity bits
//! (decoded run by run) for a flat column with one optional node, full levels otherwise.

use crate::codec::Decompressor;
use crate::encoding::byte_array::{self, DeltaByteArrayScratch, FlexOffsets, OffsetsSink};
use crate::encoding::rle::RleDecoder;
use crate::encoding::{byte_stream_split, delta, dictionary, plain};
use crate::format::{ColumnMetaData, Encoding, Type};
use crate::levels::{self, LevelEncoding, validity};
use crate::page::{Page, PageContext, PageReader, StoredPage, decode_page};
use crate::schema::ColumnDescriptor;
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
}

impl Dense {
    fn new(physical: Type, type_length: usize) -> Result<Dense> {
        Ok(match physical {
            Type::BOOLEAN => Dense::Bool(MutableBitmap::with_capacity(0)),
            Type::BYTE_ARRAY => Dense::Bytes(FlexOffsets::default()),
            other => Dense::Fixed {
                width: fixed_width(other, type_length)?,
                data: MutableBuffer::new(),
            },
        })
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        match self {
            Dense::Bool(b) => b.len(),
            Dense::Fixed { width, data } => data.len() / width,
            Dense::Bytes(s) => s.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn fixed_width(t: Type, type_length: usize) -> Result<usize> {
    Ok(match t {
        Type::INT32 | Type::FLOAT => 4,
        Type::INT64 | Type::DOUBLE => 8,
        Type::INT96 => 12,
        Type::FIXED_LEN_BYTE_ARRAY => type_length,
        other => return Err(Error::not_supported(format!("physical type {other:?}"))),
    })
}

/// A leaf column chunk's levels.
#[derive(Debug)]
pub enum LeafLevels {
    /// No levels: a required column outside any list; `len` values.
    None {
        /// Rows (and values).
        len: usize,
    },
    /// One optional node and no repetition: the validity of that node's slots.
    Validity(MutableBitmap),
    /// Full definition and repetition levels (`rep` empty without repetition).
    Full {
        /// Definition levels.
        def: Vec<i16>,
        /// Repetition levels.
        rep: Vec<i16>,
    },
}

/// A decoded leaf column chunk.
#[derive(Debug)]
pub struct LeafChunk {
    /// Non-null values.
    pub dense: Dense,
    /// Levels.
    pub levels: LeafLevels,
}

/// The dictionary of a column chunk, decoded once.
enum Dict {
    Fixed { width: usize, data: MutableBuffer },
    Bytes(OffsetsSink<i64>),
}

impl Dict {
    fn len(&self) -> usize {
        match self {
            Dict::Fixed { width, data } => data.len() / width,
            Dict::Bytes(s) => s.len(),
        }
    }
}

/// Options of chunk decoding.
#[derive(Debug, Clone, Copy)]
pub struct ChunkOptions {
    /// Verify page CRCs.
    pub verify_crc: bool,
}

/// Decodes the whole column chunk `bytes` (from its first page to its end) of column `descr`.
pub fn decode_chunk(
    bytes: &[u8],
    meta: &ColumnMetaData<'_>,
    descr: &ColumnDescriptor,
    options: ChunkOptions,
    decompressor: &mut Decompressor,
) -> Result<LeafChunk> {
    let cx = PageContext {
        codec: crate::page::codec(meta.codec)?,
        max_def: descr.max_def(),
        max_rep: descr.max_rep(),
        verify_crc: options.verify_crc,
    };
    let mut d = ChunkDecoder {
        descr,
        dense: Dense::new(descr.physical, descr.type_length)?,
        levels: if cx.max_rep == 0 && cx.max_def == 0 {
            LeafLevels::None { len: 0 }
        } else if cx.max_rep == 0 && cx.max_def == 1 {
            LeafLevels::Validity(MutableBitmap::with_capacity(0))
        } else {
            LeafLevels::Full {
                def: Vec::new(),
                rep: Vec::new(),
            }
        },
        dict: None,
        scratch: DeltaByteArrayScratch::default(),
        lengths: MutableBuffer::new(),
    };
    let mut pages = PageReader::new(bytes, meta.num_values, meta.total_uncompressed_size);
    let mut buf = Vec::new();
    let mut index = 0;
    while let Some(stored) = pages.next_page()? {
        let at = |e: Error| e.context(format!("page {index}"));
        if d.bare(&stored, &cx, decompressor).map_err(at)? {
            index += 1;
            continue;
        }
        let page = decode_page(&stored, &cx, decompressor, &mut buf).map_err(at)?;
        d.page(page).map_err(at)?;
        index += 1;
    }
    Ok(LeafChunk {
        dense: d.dense,
        levels: d.levels,
    })
}

struct ChunkDecoder<'d> {
    descr: &'d ColumnDescriptor,
    dense: Dense,
    levels: LeafLevels,
    dict: Option<Dict>,
    scratch: DeltaByteArrayScratch,
    lengths: MutableBuffer,
}

impl ChunkDecoder<'_> {
    /// Decompresses a page of PLAIN fixed-width values of a column without levels straight
    /// into the dense values (no scratch, no copy); false for any other page.
    fn bare(
        &mut self,
        stored: &StoredPage<'_>,
        cx: &PageContext,
        decompressor: &mut Decompressor,
    ) -> Result<bool> {
        let (LeafLevels::None { len }, Dense::Fixed { width, data }) =
            (&mut self.levels, &mut self.dense)
        else {
            return Ok(false);
        };
        let Some(b) = crate::page::bare_values(stored, cx) else {
            return Ok(false);
        };
        if b.encoding != Encoding::PLAIN
            || b.uncompressed == 0
            || b.num_values.checked_mul(*width) != Some(b.uncompressed)
        {
            return Ok(false);
        }
        crate::page::check_crc(stored, cx)?;
        let start = data.len();
        data.try_reserve(b.uncompressed)?;
        // Zeros in fresh capacity cost no writes; the codec overwrites them.
        data.resize(start + b.uncompressed);
        if let Err(e) = b.decompress_into(cx, decompressor, &mut data.as_mut_slice()[start..]) {
            data.truncate(start);
            return Err(e.context("PLAIN values"));
        }
        *len += b.num_values;
        Ok(true)
    }

    fn page(&mut self, page: Page<'_>) -> Result<()> {
        match page {
            Page::Dictionary {
                values,
                num_values,
                encoding,
            } => self.dictionary(values, num_values, encoding),
            Page::Data {
                num_values,
                encoding,
                rep,
                def,
                values,
            } => {
                let present = self.levels(num_values, rep, def)?;
                self.values(values, present, encoding)
            }
        }
    }

    fn dictionary(&mut self, values: &[u8], n: usize, encoding: Encoding) -> Result<()> {
        if !matches!(encoding, Encoding::PLAIN | Encoding::PLAIN_DICTIONARY) {
            return Err(Error::not_supported(format!(
                "dictionary page encoded as {}",
                encoding.name()
            )));
        }
        let dict = match self.descr.physical {
            Type::BYTE_ARRAY => {
                let mut sink = OffsetsSink::new();
                sink.extend_plain(values, n)?;
                Dict::Bytes(sink)
            }
            Type::BOOLEAN => return Err(Error::not_supported("a dictionary of booleans")),
            t => {
                let width = fixed_width(t, self.descr.type_length)?;
                let mut data = MutableBuffer::new();
                data.extend_from_slice(plain::fixed(values, width, n)?);
                Dict::Fixed { width, data }
            }
        };
        self.dict = Some(dict);
        Ok(())
    }

    /// Decodes a page's levels; returns how many values are present (non-null).
    fn levels(
        &mut self,
        n: usize,
        rep: crate::page::Levels<'_>,
        def: crate::page::Levels<'_>,
    ) -> Result<usize> {
        let max_def = self.descr.max_def();
        let max_rep = self.descr.max_rep();
        match &mut self.levels {
            LeafLevels::None { len } => {
                *len += n;
                Ok(n)
            }
            LeafLevels::Validity(bits) if def.encoding == LevelEncoding::Rle => {
                let mut d = RleDecoder::new(def.data, 1)?;
                validity::append(&mut d, n, bits).map_err(|e| e.context("definition levels"))
            }
            LeafLevels::Validity(bits) => {
                let mut tmp = vec![0i16; n];
                levels::decode(def.data, def.encoding, max_def, &mut tmp)?;
                let before = bits.unset_bits();
                for &l in &tmp {
                    bits.push(l == 1);
                }
                Ok(n - (bits.unset_bits() - before))
            }
            LeafLevels::Full {
                def: defs,
                rep: reps,
            } => {
                let start = defs.len();
                defs.try_reserve(n)
                    .map_err(|_| Error::overflow(format!("{n} levels do not fit in memory")))?;
                defs.resize(start + n, 0);
                levels::decode(def.data, def.encoding, max_def, &mut defs[start..])
                    .map_err(|e| e.context("definition levels"))?;
                if max_rep > 0 {
                    reps.try_reserve(n)
                        .map_err(|_| Error::overflow(format!("{n} levels do not fit in memory")))?;
                    reps.resize(start + n, 0);
                    levels::decode(rep.data, rep.encoding, max_rep, &mut reps[start..])
                        .map_err(|e| e.context("repetition levels"))?;
                }
                Ok(defs[start..].iter().filter(|&&d| d == max_def).count())
            }
        }
    }

    fn values(&mut self, src: &[u8], n: usize, encoding: Encoding) -> Result<()> {
        let enc = encoding.name();
        let ctx = |e: Error| e.context(format!("{enc} values"));
        match (&mut self.dense, encoding) {
            (_, Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY) => {
                self.gather_dictionary(src, n).map_err(ctx)
            }
            (Dense::Bool(bits), Encoding::PLAIN) => {
                plain::booleans(src, n, bits).map(drop).map_err(ctx)
            }
            (Dense::Bool(bits), Encoding::RLE) => {
                // RLE booleans carry a 4-byte length prefix.
                let len = src
                    .first_chunk::<4>()
                    .map(|b| u32::from_le_bytes(*b) as usize);
                let stream = len
                    .and_then(|l| src.get(4..4 + l))
                    .ok_or_else(|| ctx(Error::oos("RLE booleans: bad length prefix")))?;
                let mut d = RleDecoder::new(stream, 1)?;
                validity::append(&mut d, n, bits).map(drop).map_err(ctx)
            }
            (Dense::Fixed { width, data }, Encoding::PLAIN) => {
                data.extend_from_slice(plain::fixed(src, *width, n).map_err(ctx)?);
                Ok(())
            }
            (Dense::Fixed { width: 4, data }, Encoding::DELTA_BINARY_PACKED)
                if self.descr.physical == Type::INT32 =>
            {
                let d = delta::decode::<i32>(src, n, data).map_err(ctx)?;
                check_count(d.values, n).map_err(ctx)
            }
            (Dense::Fixed { width: 8, data }, Encoding::DELTA_BINARY_PACKED)
                if self.descr.physical == Type::INT64 =>
            {
                let d = delta::decode::<i64>(src, n, data).map_err(ctx)?;
                check_count(d.values, n).map_err(ctx)
            }
            (Dense::Fixed { width, data }, Encoding::BYTE_STREAM_SPLIT) => {
                let bytes = n
                    .checked_mul(*width)
                    .filter(|&b| b <= src.len())
                    .ok_or_else(|| ctx(Error::oos("page too short")))?;
                byte_stream_split::decode(&src[..bytes], *width, n, data).map_err(ctx)
            }
            (Dense::Fixed { width, data }, Encoding::DELTA_BYTE_ARRAY)
                if self.descr.physical == Type::FIXED_LEN_BYTE_ARRAY =>
            {
                let mut sink = OffsetsSink::<i64>::new();
                byte_array::delta_byte_array(src, n, &mut sink, &mut self.scratch).map_err(ctx)?;
                if sink.values.len() != n * *width {
                    return Err(ctx(Error::oos(format!(
                        "values are not all {width} bytes long"
                    ))));
                }
                data.extend_from_slice(sink.values.as_slice());
                Ok(())
            }
            (Dense::Bytes(sink), Encoding::PLAIN) => {
                sink.extend_plain(src, n).map(drop).map_err(ctx)
            }
            (Dense::Bytes(sink), Encoding::DELTA_LENGTH_BYTE_ARRAY) => {
                byte_array::delta_length(src, n, sink, &mut self.lengths)
                    .map(drop)
                    .map_err(ctx)
            }
            (Dense::Bytes(sink), Encoding::DELTA_BYTE_ARRAY) => {
                byte_array::delta_byte_array(src, n, sink, &mut self.scratch)
                    .map(drop)
                    .map_err(ctx)
            }
            (_, e) => Err(Error::not_supported(format!(
                "{} values of physical type {:?}",
                e.name(),
                self.descr.physical
            ))),
        }
    }

    fn gather_dictionary(&mut self, src: &[u8], n: usize) -> Result<()> {
        let Some(dict) = &self.dict else {
            return Err(Error::oos(
                "dictionary-encoded page without a dictionary page",
            ));
        };
        let mut indices = dictionary::indices(src)?;
        match (&mut self.dense, dict) {
            (Dense::Fixed { width, data }, Dict::Fixed { data: values, .. }) => match *width {
                4 => dictionary::gather(&mut indices, n, values.typed::<u32>(), data),
                8 => dictionary::gather(&mut indices, n, values.typed::<u64>(), data),
                w @ 1..=16 => {
                    macro_rules! by_width {
                        ($($w:literal)*) => {
                            match w {
                                $($w => dictionary::gather(
                                    &mut indices,
                                    n,
                                    values.typed::<[u8; $w]>(),
                                    data,
                                ),)*
                                _ => Err(Error::invalid(format!("gather of width {w}"))),
                            }
                        };
                    }
                    by_width!(1 2 3 5 6 7 9 10 11 12 13 14 15 16)
                }
                w => {
                    let all = values.as_slice();
                    dictionary::for_each_block(&mut indices, n, dict.len(), |idx| {
                        for &i in idx {
                            data.extend_from_slice(&all[i as usize * w..(i as usize + 1) * w]);
                        }
                        Ok(())
                    })
                }
            },
            (Dense::Bytes(sink), Dict::Bytes(values)) => {
                dictionary::for_each_block(&mut indices, n, dict.len(), |idx| {
                    sink.extend_gather(values, idx)
                })
            }
            _ => Err(Error::oos("dictionary of another physical type")),
        }
    }
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
