//! The fast path of [`ColumnChunk`] decoding: the column chunks are most of a footer, and
//! their fields come in the shape every writer gives them (short field headers in id order,
//! one-byte list headers, small enums). This decoder takes exactly that shape in one tight
//! pass over the bytes, and gives up (returns `None`, having changed nothing the caller
//! keeps) on anything else: a long-form header, an unknown or mistyped field, a key-value
//! list, encryption, a varint longer than 8 bytes, a required field missing, an error of any
//! kind. The generic decoder ([`ColumnChunk::read_into`]) then decodes the chunk again from
//! its start, and reports errors exactly as before.
//!
//! What it accepts, it checks as the generic decoder checks it (UTF-8 strings, `i32` ranges,
//! lengths within the input, the `check` of statistics, encoding statistics and size
//! statistics), and it decodes to the same values: the tests below compare the two on every
//! column chunk of the test files and on thousands of mutants of them.

use super::{ColumnChunk, ColumnMetaData};
use crate::format::{CompressionCodec, SizeStatistics, Statistics, Type};
use crate::thrift::{CompactReader, Encoded, MAX_DEPTH, ThriftList, varint_in_word};

/// Field ids of the required fields of `ColumnMetaData` (1–7 and 9), as bits.
const REQUIRED: u32 = 0b10_1111_1110;

/// Decodes the column chunk at `r`'s position into `c` (which must be
/// `ColumnChunk::default()`) when it has the common shape, and moves `r` past it. `false`
/// when it does not (then `r` has not moved; `c` may hold part of the chunk).
#[inline]
pub(super) fn column_chunk<'a>(r: &mut CompactReader<'a>, c: &mut ColumnChunk<'a>) -> bool {
    // The generic decoder nests at most 4 deep from here (chunk, metadata, list, element).
    if r.depth() + 4 > MAX_DEPTH {
        return false;
    }
    let mut cur = Cursor {
        buf: r.buffer(),
        pos: r.position(),
    };
    match chunk(&mut cur, c) {
        Some(()) => {
            r.advance_to(cur.pos);
            true
        }
        None => false,
    }
}

/// A position in the bytes being decoded. Every method returns `None` where the fast path
/// gives up.
struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    #[inline(always)]
    fn byte(&mut self) -> Option<u8> {
        let b = *self.buf.get(self.pos)?;
        self.pos += 1;
        Some(b)
    }

    /// A varint of at most 8 bytes.
    #[inline(always)]
    fn varint(&mut self) -> Option<u64> {
        let b = *self.buf.get(self.pos)?;
        if b < 0x80 {
            self.pos += 1;
            return Some(u64::from(b));
        }
        let (v, len) = match self.buf.get(self.pos..self.pos + 8) {
            Some(word) => varint_in_word(u64::from_le_bytes(word.try_into().ok()?))?,
            None => self.varint_near_end()?,
        };
        self.pos += len;
        Some(v)
    }

    /// A varint with fewer than 8 bytes left after its start, byte by byte.
    #[cold]
    fn varint_near_end(&self) -> Option<(u64, usize)> {
        let mut v = 0u64;
        for (i, &b) in self.buf.get(self.pos..)?.iter().enumerate() {
            v |= u64::from(b & 0x7f) << (7 * i);
            if b < 0x80 {
                return Some((v, i + 1));
            }
        }
        None
    }

    #[inline(always)]
    fn i64(&mut self) -> Option<i64> {
        let v = self.varint()?;
        Some(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    #[inline(always)]
    fn i32(&mut self) -> Option<i32> {
        let v = u32::try_from(self.varint()?).ok()?;
        Some(((v >> 1) as i32) ^ -((v & 1) as i32))
    }

    #[inline(always)]
    fn binary(&mut self) -> Option<&'a [u8]> {
        let len = usize::try_from(self.varint()?).ok()?;
        let end = self.pos.checked_add(len)?;
        let s = self.buf.get(self.pos..end)?;
        self.pos = end;
        Some(s)
    }

    #[inline(always)]
    fn string(&mut self) -> Option<&'a str> {
        std::str::from_utf8(self.binary()?).ok()
    }

    /// A short-form field header: its id and type code; `Some(None)` at the stop byte.
    #[inline(always)]
    fn field(&mut self, last: &mut i16) -> Option<Option<(i16, u8)>> {
        let b = self.byte()?;
        if b == 0 {
            return Some(None);
        }
        let (delta, code) = (b >> 4, b & 0x0f);
        if delta == 0 || code == 0 || code > 12 || *last > 0x1000 {
            return None;
        }
        *last += i16::from(delta);
        Some(Some((*last, code)))
    }

    /// A one-byte list header of `n` elements (0 ≤ n ≤ 14) of type `code`: `n`.
    #[inline(always)]
    fn short_list(&mut self, code: u8) -> Option<usize> {
        let b = self.byte()?;
        (b & 0x0f == code && b >> 4 != 15).then_some(usize::from(b >> 4))
    }

    /// A list header of elements of type `code`, short or long form: the count.
    #[inline(always)]
    fn list(&mut self, code: u8) -> Option<usize> {
        let b = self.byte()?;
        if b & 0x0f != code {
            return None;
        }
        match b >> 4 {
            15 => usize::try_from(self.varint()?).ok(),
            n => Some(usize::from(n)),
        }
    }
}

fn chunk<'a>(cur: &mut Cursor<'a>, c: &mut ColumnChunk<'a>) -> Option<()> {
    let mut last = 0i16;
    while let Some((id, code)) = cur.field(&mut last)? {
        match (id, code) {
            (1, 8) => c.file_path = Some(cur.string()?),
            (2, 6) => c.file_offset = cur.i64()?,
            (3, 12) if c.meta_data.is_none() => {
                metadata(cur, c.meta_data.insert(ColumnMetaData::empty()))?
            }
            (4, 6) => c.offset_index_offset = Some(cur.i64()?),
            (5, 5) => c.offset_index_length = Some(cur.i32()?),
            (6, 6) => c.column_index_offset = Some(cur.i64()?),
            (7, 5) => c.column_index_length = Some(cur.i32()?),
            _ => return None,
        }
    }
    Some(())
}

fn metadata<'a>(cur: &mut Cursor<'a>, m: &mut ColumnMetaData<'a>) -> Option<()> {
    let (mut last, mut seen) = (0i16, 0u32);
    while let Some((id, code)) = cur.field(&mut last)? {
        match (id, code) {
            (1, 5) => m.type_ = Type::from(cur.i32()?),
            (2, 9) => {
                // Enum values below 64: one byte each.
                let n = cur.short_list(5)?;
                let bytes = cur.buf.get(cur.pos..cur.pos + n)?;
                if bytes.iter().any(|&b| b >= 0x80) {
                    return None;
                }
                cur.pos += n;
                m.encodings = ThriftList::pre_checked(bytes, n);
            }
            (3, 9) => {
                let n = cur.short_list(8)?;
                let start = cur.pos;
                for _ in 0..n {
                    cur.string()?;
                }
                m.path_in_schema = ThriftList::pre_checked(&cur.buf[start..cur.pos], n);
            }
            (4, 5) => m.codec = CompressionCodec::from(cur.i32()?),
            (5, 6) => m.num_values = cur.i64()?,
            (6, 6) => m.total_uncompressed_size = cur.i64()?,
            (7, 6) => m.total_compressed_size = cur.i64()?,
            (9, 6) => m.data_page_offset = cur.i64()?,
            (10, 6) => m.index_page_offset = Some(cur.i64()?),
            (11, 6) => m.dictionary_page_offset = Some(cur.i64()?),
            (12, 12) => m.statistics = Some(statistics(cur)?),
            (13, 9) => {
                // Each `PageEncodingStats` as its three `i32` fields in order, each with a
                // short header: 15 a 15 b 15 c 00.
                let n = cur.list(12)?;
                let start = cur.pos;
                for _ in 0..n {
                    // Mostly one byte each: 15 a 15 b 15 c 00 stepped over at once.
                    if let Some(e) = cur.buf.get(cur.pos..cur.pos + 7)
                        && e[0] == 0x15
                        && e[2] == 0x15
                        && e[4] == 0x15
                        && e[6] == 0
                        && (e[1] | e[3] | e[5]) < 0x80
                    {
                        cur.pos += 7;
                        continue;
                    }
                    for _ in 0..3 {
                        (cur.byte()? == 0x15).then_some(())?;
                        cur.i32()?;
                    }
                    (cur.byte()? == 0).then_some(())?;
                }
                let bytes = &cur.buf[start..cur.pos];
                m.encoding_stats = Some(ThriftList::pre_checked(bytes, n));
            }
            (14, 6) => m.bloom_filter_offset = Some(cur.i64()?),
            (15, 5) => m.bloom_filter_length = Some(cur.i32()?),
            (16, 12) => m.size_statistics = Some(size_statistics(cur)?),
            _ => return None,
        }
        seen |= 1 << id;
    }
    (seen & REQUIRED == REQUIRED).then_some(())
}

/// `Statistics`, checked as `Statistics::check` does (every field skipped by its type).
fn statistics<'a>(cur: &mut Cursor<'a>) -> Option<Encoded<'a, Statistics<'a>>> {
    let start = cur.pos;
    let mut last = 0i16;
    while let Some((_, code)) = cur.field(&mut last)? {
        match code {
            1 | 2 => {}
            4..=6 => {
                cur.varint()?;
            }
            8 => {
                cur.binary()?;
            }
            _ => return None,
        }
    }
    Some(Encoded::pre_checked(&cur.buf[start..cur.pos]))
}

/// `SizeStatistics`, checked as `SizeStatistics::check` does.
fn size_statistics<'a>(cur: &mut Cursor<'a>) -> Option<Encoded<'a, SizeStatistics>> {
    let start = cur.pos;
    let mut last = 0i16;
    while let Some((id, code)) = cur.field(&mut last)? {
        match (id, code) {
            (1, 6) => {
                cur.varint()?;
            }
            (2 | 3, 9) => {
                for _ in 0..cur.list(6)? {
                    cur.varint()?;
                }
            }
            _ => return None,
        }
    }
    Some(Encoded::pre_checked(&cur.buf[start..cur.pos]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::FileMetaData;
    use quiver_integration::testdata::parquet_test_files;

    /// How the fast path and the generic decoder fared on one chunk's bytes.
    #[derive(Default)]
    struct Tally {
        chunks: usize,
        fast: usize,
    }

    /// Decodes `bytes` both ways. Where the fast path takes a chunk, the generic decoder
    /// must succeed at the same end with an equal chunk (field by field, and the kept bytes
    /// of the lists and statistics alike); where it declines, it must have left the reader
    /// where it was.
    fn compare(bytes: &[u8], tally: &mut Tally) {
        let mut fast = ColumnChunk::default();
        let mut r = CompactReader::new(bytes);
        let took = column_chunk(&mut r, &mut fast);
        let mut generic = ColumnChunk::default();
        let mut g = CompactReader::new(bytes);
        let decoded = generic.read_into_generic(&mut g);
        tally.chunks += 1;
        if !took {
            assert_eq!(r.position(), 0, "a declined chunk moved the reader");
            return;
        }
        tally.fast += 1;
        decoded.unwrap_or_else(|e| panic!("fast path took a chunk the decoder rejects: {e}"));
        assert_eq!(fast, generic, "{bytes:02x?}");
        assert_eq!(r.position(), g.position(), "{bytes:02x?}");
        let (f, g) = (fast.meta_data.as_ref(), generic.meta_data.as_ref());
        // Equality compares decoded values: the kept bytes must be the same bytes too.
        let kept = |m: Option<&ColumnMetaData<'_>>| {
            m.map(|m| {
                format!(
                    "{:?} {:?}",
                    m.statistics.map(|s| s.bytes()),
                    m.size_statistics.map(|s| s.bytes())
                )
            })
        };
        assert_eq!(kept(f), kept(g));
    }

    /// The encoded column chunks of every official test file whose footer decodes.
    fn official_chunks() -> Option<Vec<Vec<u8>>> {
        let files = parquet_test_files().unwrap_or_else(|e| panic!("{e}"))?;
        let mut chunks = Vec::new();
        for path in files {
            let file = std::fs::read(&path).unwrap();
            let n = file.len();
            if n < 12 || &file[n - 4..] != b"PAR1" {
                continue;
            }
            let len = u32::from_le_bytes(file[n - 8..n - 4].try_into().unwrap()) as usize;
            let Some(meta) = n.checked_sub(8 + len).map(|s| &file[s..n - 8]) else {
                continue;
            };
            let Ok(m) = FileMetaData::decode(meta) else {
                continue;
            };
            for g in &m.row_groups {
                // A few chunks of each row group: files with thousands of groups are alike.
                for i in 0..g.columns.len().min(64) {
                    chunks.extend(g.columns.raw(i).map(<[u8]>::to_vec));
                }
            }
        }
        Some(chunks)
    }

    #[test]
    fn fast_path_decodes_every_official_chunk_as_the_generic_decoder() {
        let Some(chunks) = official_chunks() else {
            return;
        };
        let mut tally = Tally::default();
        for c in &chunks {
            compare(c, &mut tally);
        }
        // Most writers give every chunk the shape the fast path takes.
        assert!(tally.chunks > 1000, "{} chunks", tally.chunks);
        assert!(
            tally.fast * 10 > tally.chunks * 8,
            "the fast path took {} of {} chunks",
            tally.fast,
            tally.chunks
        );
    }

    /// Mutants of the official chunks (bytes flipped, replaced, cut, dropped, repeated): the
    /// fast path never accepts what the generic decoder rejects, nor decodes it otherwise.
    #[test]
    fn fast_path_agrees_with_the_generic_decoder_on_mutants() {
        let Some(chunks) = official_chunks() else {
            return;
        };
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed >> 12;
            seed ^= seed << 25;
            seed ^= seed >> 27;
            seed.wrapping_mul(0x2545_f491_4f6c_dd1d)
        };
        let mut tally = Tally::default();
        // Every third chunk, 60 mutants each.
        for c in chunks.iter().step_by(3) {
            for _ in 0..60 {
                let mut m = c.clone();
                for _ in 0..1 + next() % 3 {
                    if m.is_empty() {
                        break;
                    }
                    let at = (next() % m.len() as u64) as usize;
                    match next() % 6 {
                        0 => m[at] ^= 1 << (next() % 8),
                        1 => m[at] = next() as u8,
                        2 => {
                            m[at] = [0x00, 0xff, 0x7f, 0x80, 0x0f, 0xf0, 0x15, 0x19]
                                [(next() % 8) as usize]
                        }
                        3 => m.truncate(at),
                        4 => {
                            m.remove(at);
                        }
                        _ => {
                            let b = m[at];
                            m.insert(at, b);
                        }
                    }
                }
                compare(&m, &mut tally);
            }
        }
        assert!(
            tally.fast > 1000,
            "the fast path took {} mutants",
            tally.fast
        );
    }
}
