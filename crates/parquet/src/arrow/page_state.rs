//! Where a page's parts lie once its header is parsed ([`At`]: in the column chunk when stored
//! uncompressed, else in the decompressed page), and how far its levels have been decoded
//! ([`LevelCursor`]): the state a column stream keeps between batches.

use crate::encoding::rle::{RleDecoder, RleState};
use crate::levels::{self, LevelEncoding, validity};
use quiver_arrow::buffer::MutableBitmap;
use quiver_arrow::{Error, Result};
use std::ops::Range;

/// Where part of a page lies: in the column chunk's bytes (stored uncompressed) or in the
/// page decompressed into the stream's buffer.
#[derive(Debug, Clone)]
pub(super) enum At {
    Chunk(Range<usize>),
    Buf(Range<usize>),
}

impl At {
    /// Where `part` (address and length) lies, in `chunk` or in `buf`.
    pub(super) fn of((addr, len): (usize, usize), chunk: &[u8], buf: &[u8]) -> Result<At> {
        let within = |base: &[u8]| {
            let start = base.as_ptr() as usize;
            (addr >= start && addr + len <= start + base.len()).then(|| addr - start)
        };
        if len == 0 {
            Ok(At::Chunk(0..0))
        } else if let Some(off) = within(chunk) {
            Ok(At::Chunk(off..off + len))
        } else if let Some(off) = within(buf) {
            Ok(At::Buf(off..off + len))
        } else {
            Err(Error::invalid(
                "a page's bytes are neither in its chunk nor decompressed",
            ))
        }
    }

    pub(super) fn get<'x>(&self, chunk: &'x [u8], buf: &'x [u8]) -> &'x [u8] {
        match self {
            At::Chunk(r) => chunk.get(r.clone()).unwrap_or(&[]),
            At::Buf(r) => buf.get(r.clone()).unwrap_or(&[]),
        }
    }
}

/// The address and length of a slice (to find it again once its borrow has ended).
pub(super) fn span(s: &[u8]) -> (usize, usize) {
    (s.as_ptr() as usize, s.len())
}

/// How far one kind of levels of a page has been decoded.
#[derive(Debug)]
pub(super) enum LevelCursor {
    /// The column has none (its maximum level is 0).
    Absent,
    /// The RLE / bit-packed hybrid, part-way.
    Rle { at: At, state: RleState },
    /// The deprecated BIT_PACKED levels, decoded whole (`n * width` bits of the page).
    Decoded { levels: Vec<i16>, at: usize },
}

impl LevelCursor {
    pub(super) fn new(
        at: At,
        encoding: LevelEncoding,
        max: i16,
        n: usize,
        bytes: &[u8],
    ) -> Result<Self> {
        if max == 0 {
            return Ok(LevelCursor::Absent);
        }
        Ok(match encoding {
            LevelEncoding::Rle => LevelCursor::Rle {
                at,
                state: RleDecoder::new(bytes, levels::level_width(max))?.state(),
            },
            LevelEncoding::BitPacked => {
                let mut all = Vec::new();
                all.try_reserve_exact(n)
                    .map_err(|_| Error::overflow(format!("{n} levels do not fit in memory")))?;
                all.resize(n, 0);
                levels::decode(bytes, encoding, max, &mut all)?;
                LevelCursor::Decoded { levels: all, at: 0 }
            }
        })
    }

    /// Decodes the next `out.len()` levels.
    pub(super) fn take(
        &mut self,
        max: i16,
        out: &mut [i16],
        chunk: &[u8],
        buf: &[u8],
    ) -> Result<()> {
        match self {
            LevelCursor::Absent => out.fill(0),
            LevelCursor::Rle { at, state } => {
                let mut d = RleDecoder::resume(at.get(chunk, buf), *state);
                levels::decode_rle(&mut d, max, out)?;
                *state = d.state();
            }
            LevelCursor::Decoded { levels, at } => {
                let Some(src) = levels.get(*at..*at + out.len()) else {
                    return Err(Error::oos("levels end early"));
                };
                out.copy_from_slice(src);
                *at += out.len();
            }
        }
        Ok(())
    }

    /// Appends the validity of the next `n` slots (levels of at most 1) to `bits`; returns how
    /// many are valid.
    pub(super) fn take_validity(
        &mut self,
        n: usize,
        bits: &mut MutableBitmap,
        chunk: &[u8],
        buf: &[u8],
    ) -> Result<usize> {
        match self {
            LevelCursor::Rle { at, state } => {
                let mut d = RleDecoder::resume(at.get(chunk, buf), *state);
                let valid = validity::append(&mut d, n, bits)?;
                *state = d.state();
                Ok(valid)
            }
            _ => {
                let mut tmp = vec![0i16; n];
                self.take(1, &mut tmp, chunk, buf)?;
                bits.try_reserve(n)?;
                tmp.iter().for_each(|&l| bits.push(l == 1));
                Ok(tmp.iter().filter(|&&l| l == 1).count())
            }
        }
    }

    /// How many of the page's `n` levels (from its start) equal `max`.
    pub(super) fn count(&self, max: i16, n: usize, chunk: &[u8], buf: &[u8]) -> Result<usize> {
        match self {
            LevelCursor::Absent => Ok(n),
            LevelCursor::Decoded { levels, .. } => Ok(levels.iter().filter(|&&l| l == max).count()),
            LevelCursor::Rle { at, .. } => {
                let mut d = RleDecoder::new(at.get(chunk, buf), levels::level_width(max))?;
                let mut block = [0i16; 1024];
                let mut left = n;
                let mut count = 0;
                while left > 0 {
                    let k = left.min(block.len());
                    levels::decode_rle(&mut d, max, &mut block[..k])?;
                    count += block[..k].iter().filter(|&&l| l == max).count();
                    left -= k;
                }
                Ok(count)
            }
        }
    }
}
