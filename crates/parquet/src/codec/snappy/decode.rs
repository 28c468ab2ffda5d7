//! The Snappy decompressor: the raw format of google/snappy's `format_description.txt` (a
//! varint of the decompressed length, then literal and copy elements).
//!
//! Parquet pages are mostly short elements (about 7 bytes each on lineitem: a literal of a
//! few bytes, then a short copy), so the time goes per element, not per byte. The loop keeps
//! each element's work short and free of calls:
//! - While at least 17 input bytes and 64 output bytes are left (the fast region), an element
//!   is decoded from its tag and the 4 bytes after it, read as one word whatever the element:
//!   no length is checked against the buffers, since no element there can overrun them.
//! - A literal of up to 16 bytes is one 16-byte load and store; up to 60 bytes, four.
//! - A copy's length and the high bits of a 1-byte-offset copy's offset come from a table
//!   indexed by the tag. A copy from 16 or more bytes back moves 16-byte blocks (each block
//!   reads only bytes already final); from 8 to 15 back, 8-byte blocks; closer, byte by byte.
//! - Blocks may write past the element's end (at most 64 bytes on, inside the output): later
//!   elements overwrite those bytes, and a stream whose elements do not fill the output
//!   exactly is an error.
//!
//! Any other element (long literals, 4-byte offsets) and every element near the buffers' ends
//! goes through the checked step (`Decoder::checked_step`), which checks each length. Every
//! offset is checked in both paths: a copy may not reach before the output's start.

use super::split_preamble;
use quiver_arrow::{Error, Result};

/// Input bytes the fast region needs at the tag: the tag and a 16-byte literal.
const FAST_IN: usize = 17;
/// Output bytes the fast region needs: four 16-byte blocks of a copy of up to 64 bytes.
const FAST_OUT: usize = 64;

/// For each tag: the element's length (bits 0-7; a literal's for tags below 60), the offset
/// bits a 1-byte-offset copy's tag holds (bits 8-10), [`ODD`], and the bytes from the tag to
/// the next element (bits 16-23: the tag, a literal's bytes or a copy's offset bytes).
static TAGS: [u32; 256] = tag_table();
/// Set for the tags the fast loop leaves to the checked step: copies with 4-byte offsets
/// (and literals longer than 16 bytes, which it takes on a branch of their own).
const ODD: usize = 1 << 11;

const fn tag_table() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut tag = 0;
    while tag < 256 {
        let (len, high, step, odd) = match tag & 3 {
            0 => ((tag >> 2) + 1, 0, (tag >> 2) + 2, tag >> 2 >= 16),
            1 => (4 + ((tag >> 2) & 7), (tag >> 5) << 8, 2, false),
            2 => ((tag >> 2) + 1, 0, 3, false),
            _ => ((tag >> 2) + 1, 0, 5, true),
        };
        t[tag] = (len | high | (step << 16) | if odd { ODD } else { 0 }) as u32;
        tag += 1;
    }
    t
}

/// The offset bytes after a tag of each type (a copy's: 1 or 2 bytes; none for literals and
/// for 4-byte offsets, which the fast loop leaves), as a mask of the word after the tag.
const OFFSET_MASK: [u32; 4] = [0, 0xFF, 0xFFFF, 0];

/// The decompressed length a Snappy stream states (its preamble).
///
/// ```
/// use quiver_parquet::codec::snappy::decompress_len;
/// assert_eq!(decompress_len(&[0xAC, 0x02, 0]).unwrap(), 300);
/// assert!(decompress_len(&[0x80]).is_err());
/// ```
pub fn decompress_len(src: &[u8]) -> Result<usize> {
    let (len, _) = preamble(src)?;
    Ok(len)
}

fn preamble(src: &[u8]) -> Result<(usize, &[u8])> {
    split_preamble(src)
        .and_then(|(len, rest)| Some((usize::try_from(len).ok()?, rest)))
        .ok_or_else(|| {
            Error::codec("Snappy stream: the preamble is not a varint of at most 32 bits")
        })
}

/// Decompresses the raw Snappy stream `src` into `dst`, which must be exactly as long as the
/// stream states ([`decompress_len`]). A stream that is cut short, whose elements overrun or
/// underfill `dst`, or whose copies reach before its start is an error; nothing is read or
/// written outside `src` and `dst`.
///
/// ```
/// use quiver_parquet::codec::snappy::{SnappyEncoder, decompress, max_compressed_len};
/// let page = b"parquet page parquet page parquet page";
/// let mut stored = vec![0; max_compressed_len(page.len())];
/// let n = SnappyEncoder::new().compress(page, &mut stored);
/// let mut out = vec![0; page.len()];
/// decompress(&stored[..n], &mut out).unwrap();
/// assert_eq!(&out, page);
/// assert!(decompress(&stored[..n - 1], &mut out).is_err());
/// ```
pub fn decompress(src: &[u8], dst: &mut [u8]) -> Result<()> {
    let (len, elements) = preamble(src)?;
    if len != dst.len() {
        return Err(Error::codec(format!(
            "Snappy stream of {len} bytes, {} expected",
            dst.len()
        )));
    }
    let head = src.len() - elements.len();
    let mut d = Decoder {
        src: elements,
        dst,
        ip: 0,
        op: 0,
    };
    d.run()
        .map_err(|e| e.context(format!("Snappy element at byte {}", head + d.ip)))
}

/// A stream being decompressed: the elements, the output, and the positions in both.
struct Decoder<'a> {
    src: &'a [u8],
    dst: &'a mut [u8],
    /// The next element's tag in `src`.
    ip: usize,
    /// Bytes of `dst` written.
    op: usize,
}

impl Decoder<'_> {
    fn run(&mut self) -> Result<()> {
        while self.ip < self.src.len() {
            self.fast();
            if self.ip < self.src.len() {
                self.checked_step()?;
            }
        }
        if self.op != self.dst.len() {
            return Err(Error::codec(format!(
                "the stream ends after {} of its {} bytes",
                self.op,
                self.dst.len()
            )));
        }
        Ok(())
    }

    /// Decodes elements while in the fast region; returns at the first element it leaves to
    /// [`checked_step`](Self::checked_step) (or that has a bad offset), `ip` at its tag.
    #[inline(always)]
    fn fast(&mut self) {
        let (slen, dlen) = (self.src.len(), self.dst.len());
        let sp = self.src.as_ptr();
        let dp = self.dst.as_mut_ptr();
        let (mut ip, mut op) = (self.ip, self.op);
        while ip + FAST_IN <= slen && op + FAST_OUT <= dlen {
            // SAFETY: `ip + 17 <= slen`: the tag and the 16 bytes after it are inside `src`.
            let (tag, word) = unsafe {
                (
                    usize::from(*sp.add(ip)),
                    u32::from_le(sp.add(ip + 1).cast::<u32>().read_unaligned()),
                )
            };
            let kind = tag & 3;
            if kind == 0 {
                let len = (tag >> 2) + 1;
                if len <= 16 {
                    // SAFETY: reads `src[ip + 1..ip + 17]` (`ip + 17 <= slen`), writes
                    // `dst[op..op + 16]` (`op + 64 <= dlen`); distinct buffers.
                    unsafe { copy_block::<16>(sp.add(ip + 1), dp.add(op)) };
                } else if len <= 60 && ip + 1 + 64 <= slen {
                    // SAFETY: reads `src[ip + 1..ip + 65]` (checked just above), writes
                    // `dst[op..op + 64]` (`op + 64 <= dlen`); distinct buffers.
                    unsafe { copy_block::<64>(sp.add(ip + 1), dp.add(op)) };
                } else {
                    break;
                }
                ip += 1 + len;
                op += len;
                continue;
            }
            let e = TAGS[tag] as usize;
            let len = e & 0xFF;
            let offset = (e & 0x700) | (word & OFFSET_MASK[kind]) as usize;
            if (e & ODD != 0) | (offset.wrapping_sub(1) >= op) {
                // A 4-byte offset, or offset 0 or before the output's start: the checked step
                // decodes or reports it.
                break;
            }
            let from = op - offset;
            // SAFETY: in all three arms, `1 <= offset <= op`, so reads start at `from >= 0`;
            // writes end by `op + 64 <= dlen` (`len <= 64`). Each block reads bytes below the
            // block it writes (`offset` at least the block's size), written already;
            // `copy_block` copies through a register, so overlap is harmless.
            unsafe {
                if offset >= 16 {
                    copy_block::<16>(dp.add(from), dp.add(op));
                    let mut k = 16;
                    while k < len {
                        copy_block::<16>(dp.add(from + k), dp.add(op + k));
                        k += 16;
                    }
                } else if offset >= 8 {
                    let mut k = 0;
                    while k < len {
                        copy_block::<8>(dp.add(from + k), dp.add(op + k));
                        k += 8;
                    }
                } else {
                    for k in 0..len {
                        *dp.add(op + k) = *dp.add(from + k);
                    }
                }
            }
            ip += 1 + kind;
            op += len;
        }
        self.ip = ip;
        self.op = op;
    }

    /// Decodes the element at `ip`, checking every length and offset against the buffers.
    #[cold]
    #[inline(never)]
    fn checked_step(&mut self) -> Result<()> {
        let (src, ip) = (self.src, self.ip);
        let tag = usize::from(src[ip]);
        let kind = tag & 3;
        if kind == 0 {
            let mut len = tag >> 2;
            let mut at = ip + 1;
            if len >= 60 {
                let n = len - 59;
                let bytes = src
                    .get(at..at + n)
                    .ok_or_else(|| Error::codec("a literal's length is cut short"))?;
                len = bytes
                    .iter()
                    .rev()
                    .fold(0usize, |l, &b| l << 8 | usize::from(b));
                at += n;
            }
            let len = len + 1;
            let bytes = src.get(at..).and_then(|s| s.get(..len)).ok_or_else(|| {
                Error::codec(format!(
                    "a literal of {len} bytes runs past the stream's end"
                ))
            })?;
            if len > self.dst.len() - self.op {
                return Err(Error::codec(self.overrun(len)));
            }
            self.dst[self.op..self.op + len].copy_from_slice(bytes);
            self.ip = at + len;
            self.op += len;
            return Ok(());
        }
        let n = [0, 1, 2, 4][kind];
        let bytes = src
            .get(ip + 1..ip + 1 + n)
            .ok_or_else(|| Error::codec("a copy's offset is cut short"))?;
        let low = bytes
            .iter()
            .rev()
            .fold(0usize, |o, &b| o << 8 | usize::from(b));
        let entry = TAGS[tag] as usize;
        let (len, offset) = (entry & 0xFF, (entry & 0x700) | low);
        if offset == 0 || offset > self.op {
            return Err(Error::codec(format!(
                "a copy from {offset} bytes back at output byte {}",
                self.op
            )));
        }
        if len > self.dst.len() - self.op {
            return Err(Error::codec(self.overrun(len)));
        }
        let from = self.op - offset;
        if offset >= len {
            self.dst.copy_within(from..from + len, self.op);
        } else {
            // The copy repeats bytes it writes: one at a time, in order.
            for k in 0..len {
                self.dst[self.op + k] = self.dst[from + k];
            }
        }
        self.ip = ip + 1 + n;
        self.op += len;
        Ok(())
    }

    fn overrun(&self, len: usize) -> String {
        format!(
            "an element of {len} bytes at output byte {} overruns the {} bytes stated",
            self.op,
            self.dst.len()
        )
    }
}

/// Copies `N` bytes from `src` to `dst` through a register (unaligned; the ranges may
/// overlap, the bytes are read before any is written).
///
/// # Safety
/// `src` must be valid for reads of `N` bytes and `dst` for writes of `N` bytes.
#[inline(always)]
unsafe fn copy_block<const N: usize>(src: *const u8, dst: *mut u8) {
    // SAFETY: the caller's promise; `[u8; N]` has alignment 1.
    unsafe {
        dst.cast::<[u8; N]>()
            .write_unaligned(src.cast::<[u8; N]>().read_unaligned())
    }
}
