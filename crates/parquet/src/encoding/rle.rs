//! The RLE / bit-packed hybrid (Parquet `Encodings.md`, "RLE"): definition and repetition
//! levels, booleans (data page v2) and dictionary indices.
//!
//! A stream is a sequence of runs, each starting with a ULEB128 header: an even header
//! `n << 1` is a repeated run of `n` copies of one value stored in `ceil(width / 8)` bytes
//! (little endian); an odd header `g << 1 | 1` is a bit-packed run of `g` groups of eight
//! values, `g * width` bytes.
//!
//! [`RleDecoder::next_run`] hands out whole runs, so a caller can turn a repeated run into
//! `n` bits of validity at once; [`RleDecoder::decode`] fills a slice of values.

use super::bitpack::unpack32;
use super::varint::uleb128;
use quiver_arrow::{Error, Result};

/// One run of a hybrid stream, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Run<'a> {
    /// `len` copies of `value`.
    Repeat {
        /// The repeated value (not checked against the bit width's range).
        value: u32,
        /// How many times it repeats.
        len: usize,
    },
    /// `len` bit-packed values in `data` after the first `skip` (a stream's last run may end
    /// early when its bytes end: `len` counts only values whose bits are present).
    Packed {
        /// The packed bytes, starting at a group boundary.
        data: &'a [u8],
        /// Values at the start of `data` to pass over (less than 8: the run was entered inside
        /// a group).
        skip: usize,
        /// The number of values.
        len: usize,
    },
}

/// The value of a repeated run whose header (`header_len` bytes) ends at `at` of `data`, and
/// the bytes it takes (`width` rounded up to whole bytes, little-endian; `width <= 32`).
pub(crate) fn repeated_value(
    data: &[u8],
    at: usize,
    header_len: usize,
    width: u32,
) -> Result<(u32, usize)> {
    let bytes = width.div_ceil(8) as usize;
    let Some(raw) = data.get(at..at + bytes) else {
        return Err(Error::oos(format!(
            "RLE repeated run at byte {} needs {bytes} value bytes, {} left",
            at - header_len,
            data.len().saturating_sub(at)
        )));
    };
    let mut le = [0u8; 4];
    le[..bytes].copy_from_slice(raw);
    Ok((u32::from_le_bytes(le), bytes))
}

/// A decoder over one hybrid stream of `width`-bit values (`width <= 32`).
///
/// ```
/// use quiver_parquet::encoding::rle::RleDecoder;
/// // A repeated run of five 3s, then one bit-packed group: 0, 1, 0, 1, 1, 1, 0, 0.
/// let stream = [5 << 1, 3, 1 << 1 | 1, 0b0011_1010];
/// let mut d = RleDecoder::new(&stream, 2).unwrap();
/// let mut out = [0u32; 13];
/// assert_eq!(d.decode(&mut out).unwrap(), 9);
/// ```
/// (The bit-packed group holds eight 2-bit values in two bytes, but the stream has only one,
/// so only its first four values are present: the decoder returns 9 values, not 13.)
#[derive(Debug, Clone)]
pub struct RleDecoder<'a> {
    data: &'a [u8],
    pos: usize,
    width: u32,
    /// Values left in the current repeated run.
    repeat_left: usize,
    repeat_value: u32,
    /// The current bit-packed run from its next value, and how many values it still has.
    packed: &'a [u8],
    packed_left: usize,
    /// Index of the next value within `packed` (which starts at a group boundary).
    packed_pos: usize,
    /// Where `packed` starts in `data`.
    packed_start: usize,
}

/// Where an [`RleDecoder`] is in its stream, without the stream's bytes: kept between calls by
/// a decoder that must let go of the bytes (a page decoded a batch at a time), and turned
/// back into a decoder over the same bytes by [`RleDecoder::resume`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RleState {
    pos: usize,
    width: u32,
    repeat_left: usize,
    repeat_value: u32,
    packed_start: usize,
    packed_len: usize,
    packed_left: usize,
    packed_pos: usize,
}

impl<'a> RleDecoder<'a> {
    /// A decoder over `data` for values of `width` bits; a width over 32 is an error.
    pub fn new(data: &'a [u8], width: u32) -> Result<Self> {
        if width > 32 {
            return Err(Error::oos(format!(
                "RLE/bit-packed bit width {width} is over 32"
            )));
        }
        Ok(RleDecoder {
            data,
            pos: 0,
            width,
            repeat_left: 0,
            repeat_value: 0,
            packed: &[],
            packed_left: 0,
            packed_pos: 0,
            packed_start: 0,
        })
    }

    /// Where the decoder is, to [`resume`](RleDecoder::resume) later over the same bytes.
    pub fn state(&self) -> RleState {
        RleState {
            pos: self.pos,
            width: self.width,
            repeat_left: self.repeat_left,
            repeat_value: self.repeat_value,
            packed_start: self.packed_start,
            packed_len: self.packed.len(),
            packed_left: self.packed_left,
            packed_pos: self.packed_pos,
        }
    }

    /// A decoder over `data` from `state`, which [`state`](RleDecoder::state) took from a
    /// decoder over the same bytes (other bytes give other values or an error, never a panic).
    ///
    /// ```
    /// use quiver_parquet::encoding::rle::RleDecoder;
    /// let stream = [5 << 1, 3, 1 << 1 | 1, 0b0011_1010];
    /// let mut d = RleDecoder::new(&stream, 2).unwrap();
    /// let mut out = [0u32; 7];
    /// d.decode(&mut out[..3]).unwrap();
    /// let mut d = RleDecoder::resume(&stream, d.state());
    /// d.decode(&mut out[3..]).unwrap();
    /// assert_eq!(out, [3, 3, 3, 3, 3, 2, 2]);
    /// ```
    pub fn resume(data: &'a [u8], state: RleState) -> Self {
        let start = state.packed_start.min(data.len());
        let end = start.saturating_add(state.packed_len).min(data.len());
        RleDecoder {
            data,
            pos: state.pos,
            width: state.width.min(32),
            repeat_left: state.repeat_left,
            repeat_value: state.repeat_value,
            packed: &data[start..end],
            packed_left: state.packed_left,
            packed_pos: state.packed_pos,
            packed_start: start,
        }
    }

    /// The bit width.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Reads the next run header; `false` at the end of the stream.
    fn next_header(&mut self) -> Result<bool> {
        if self.pos >= self.data.len() {
            return Ok(false);
        }
        let (header, used) = uleb128(&self.data[self.pos..])
            .map_err(|e| e.context(format!("RLE run header at byte {}", self.pos)))?;
        self.pos += used;
        let count = usize::try_from(header >> 1).unwrap_or(usize::MAX);
        if header & 1 == 0 {
            let (value, bytes) = repeated_value(self.data, self.pos, used, self.width)?;
            self.pos += bytes;
            self.repeat_value = value;
            self.repeat_left = count;
        } else {
            let rest = &self.data[self.pos..];
            let want = count.saturating_mul(self.width as usize);
            let take = want.min(rest.len());
            self.packed = &rest[..take];
            self.packed_start = self.pos;
            self.pos += take;
            // Values whose bits are all present (all of them for a well-formed run).
            self.packed_left = if self.width == 0 {
                count.saturating_mul(8)
            } else {
                (take * 8 / self.width as usize).min(count.saturating_mul(8))
            };
            self.packed_pos = 0;
        }
        Ok(true)
    }

    /// The next run, or what is left of it, cut to at most `max` values (the rest stays for the
    /// next call); `None` at the end of the stream or when `max` is 0.
    pub fn next_run(&mut self, max: usize) -> Result<Option<Run<'a>>> {
        if max == 0 {
            return Ok(None);
        }
        loop {
            if self.repeat_left > 0 {
                let len = self.repeat_left.min(max);
                self.repeat_left -= len;
                return Ok(Some(Run::Repeat {
                    value: self.repeat_value,
                    len,
                }));
            }
            if self.packed_left > 0 {
                let w = self.width as usize;
                let start = (self.packed_pos / 8 * w).min(self.packed.len());
                let skip = self.packed_pos % 8;
                let len = self.packed_left.min(max);
                self.packed_left -= len;
                self.packed_pos += len;
                return Ok(Some(Run::Packed {
                    data: &self.packed[start..],
                    skip,
                    len,
                }));
            }
            if !self.next_header()? {
                return Ok(None);
            }
        }
    }

    /// Decodes up to `out.len()` values; returns how many were written, fewer only at the end
    /// of the stream.
    pub fn decode(&mut self, out: &mut [u32]) -> Result<usize> {
        let mut n = 0;
        while n < out.len() {
            let rest = &mut out[n..];
            // Bit-packed values are unpacked in place; a repeated run is expanded here.
            let Some((repeated, k)) = self.next_chunk(rest.len(), rest)? else {
                break;
            };
            if let Some(v) = repeated {
                rest[..k].fill(v);
            }
            n += k;
        }
        Ok(n)
    }

    /// The next values, up to `max`, without expanding a repeated run: `Some((Some(value),
    /// len))` for `len` copies of `value` (not checked against the bit width's range), or
    /// `Some((None, len))` for `len` values unpacked into `scratch[..len]` (at most
    /// `scratch.len()` of a bit-packed run); `None` at the end of the stream or when `max` or
    /// `scratch` is empty. For consumers that handle a run of one value as a whole (levels).
    ///
    /// ```
    /// use quiver_parquet::encoding::rle::RleDecoder;
    /// // Five 3s, then a bit-packed group of 2-bit values: 2, 1, 0, 3, 0, 0, 0, 0.
    /// let stream = [5 << 1, 3, 1 << 1 | 1, 0b1100_0110, 0];
    /// let mut d = RleDecoder::new(&stream, 2).unwrap();
    /// let mut scratch = [0u32; 3];
    /// assert_eq!(d.next_chunk(100, &mut scratch).unwrap(), Some((Some(3), 5)));
    /// assert_eq!(d.next_chunk(100, &mut scratch).unwrap(), Some((None, 3)));
    /// assert_eq!(scratch, [2, 1, 0]);
    /// assert_eq!(d.next_chunk(1, &mut scratch).unwrap(), Some((None, 1)));
    /// assert_eq!(scratch[0], 3);
    /// ```
    pub fn next_chunk(
        &mut self,
        max: usize,
        scratch: &mut [u32],
    ) -> Result<Option<(Option<u32>, usize)>> {
        if max == 0 || scratch.is_empty() {
            return Ok(None);
        }
        loop {
            if self.repeat_left > 0 {
                let k = self.repeat_left.min(max);
                self.repeat_left -= k;
                return Ok(Some((Some(self.repeat_value), k)));
            }
            if self.packed_left > 0 {
                let k = self.packed_left.min(max).min(scratch.len());
                self.unpack_into(&mut scratch[..k]);
                return Ok(Some((None, k)));
            }
            if !self.next_header()? {
                return Ok(None);
            }
        }
    }

    /// Skips up to `n` values; returns how many were skipped.
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        let mut done = 0;
        while done < n {
            if self.repeat_left > 0 {
                let k = self.repeat_left.min(n - done);
                self.repeat_left -= k;
                done += k;
            } else if self.packed_left > 0 {
                let k = self.packed_left.min(n - done);
                self.packed_pos += k;
                self.packed_left -= k;
                done += k;
            } else if !self.next_header()? {
                break;
            }
        }
        Ok(done)
    }

    /// Unpacks the next `out.len()` (at most `packed_left`) values of the bit-packed run.
    fn unpack_into(&mut self, out: &mut [u32]) {
        let w = self.width as usize;
        let mut pos = self.packed_pos;
        let mut done = 0;
        // The stream from the run's start: the unpacking reads groups in place where a whole
        // window of bytes follows them, and the run's last groups usually have the next runs'
        // bytes after them (only values of the run are kept: `out` holds at most `packed_left`).
        let packed = self.data.get(self.packed_start..).unwrap_or(&[]);
        // A group entered mid-way, and the last partial group, go through one group of scratch.
        let mut group = [0u32; 8];
        if pos % 8 != 0 {
            let g = pos / 8;
            unpack32(packed.get(g * w..).unwrap_or(&[]), self.width, &mut group);
            let k = (8 - pos % 8).min(out.len());
            out[..k].copy_from_slice(&group[pos % 8..pos % 8 + k]);
            done += k;
            pos += k;
        }
        let whole = (out.len() - done) / 8 * 8;
        if whole > 0 {
            let src = packed.get(pos / 8 * w..).unwrap_or(&[]);
            unpack32(src, self.width, &mut out[done..done + whole]);
            done += whole;
            pos += whole;
        }
        if done < out.len() {
            let src = packed.get(pos / 8 * w..).unwrap_or(&[]);
            unpack32(src, self.width, &mut group);
            let k = out.len() - done;
            out[done..].copy_from_slice(&group[..k]);
            pos += k;
        }
        self.packed_left -= out.len();
        self.packed_pos = pos;
    }
}

#[cfg(test)]
mod tests;
