//! Snappy: the compressor here, the decompressor in [`decode`] (the raw format of
//! google/snappy's `format_description.txt`).
//!
//! The input is taken in blocks of 64 KiB, each compressed on its own with a table of the last
//! position of each hash of 4 bytes: a scan looks up the next positions, ever more sparsely
//! while nothing matches (one more byte skipped per 32 misses), extends a match as far as it
//! goes and emits the literal before it and the copy. The table has 2¹⁵ entries, as the Snappy
//! library's compressor (which pyarrow and Arrow C++ use) has since version 1.1.9; the `snap`
//! crate's has 2¹⁴ and misses more matches: 1.6% more bytes on a dictionary page of five-digit
//! strings, 1.2% on lineitem's comments. The hash, the table's size per block, the order of the
//! probes and the elements chosen are the library's, so the output is byte for byte what the
//! library writes (`tests/it/codecs.rs` checks it against pyarrow's `pa.compress`, and so do
//! 800 MB of lineitem and nested pages): a page quiver compresses is the page pyarrow would.
//!
//! The scan's first 16 positions after a literal starts are hashed from four 8-byte loads, the
//! library's unrolled loop; the rest one 4-byte load each.

/// Bytes of input compressed on its own (offsets and table entries fit in 16 bits).
const BLOCK: usize = 1 << 16;
/// Bits of the largest hash table.
const TABLE_BITS: u32 = 15;
/// Blocks shorter than this are one literal; the scan stops this far from a block's end, so
/// that its 4-byte loads stay inside.
const MARGIN: usize = 15;
/// The multiplier of the hash of 4 bytes.
const HASH_MUL: u32 = 0x1e35_a7bd;

/// The most bytes [`SnappyEncoder::compress`] writes for `n` bytes of input.
pub fn max_compressed_len(n: usize) -> usize {
    32 + n + n / 6
}

/// A Snappy compressor; its hash table is reused from call to call.
#[derive(Debug, Clone)]
pub struct SnappyEncoder {
    table: Box<[u16; 1 << TABLE_BITS]>,
}

impl Default for SnappyEncoder {
    fn default() -> Self {
        SnappyEncoder {
            table: Box::new([0; 1 << TABLE_BITS]),
        }
    }
}

/// The compressed bytes being written.
struct Out<'a> {
    buf: &'a mut [u8],
    at: usize,
}

impl Out<'_> {
    #[inline]
    fn put<const N: usize>(&mut self, b: [u8; N]) {
        self.buf[self.at..self.at + N].copy_from_slice(&b);
        self.at += N;
    }

    /// A literal of `block[from..to]`: its length less one in the tag (below 60) or in 1-4
    /// bytes after it.
    #[inline]
    fn literal(&mut self, block: &[u8], from: usize, to: usize) {
        let len = to - from;
        if len == 0 {
            return;
        }
        let n = len - 1;
        if n < 16 && from + 16 <= block.len() && self.at + 17 <= self.buf.len() {
            // Short: 16 bytes copied at once, the tail overwritten by what follows.
            self.buf[self.at] = (n as u8) << 2;
            self.buf[self.at + 1..self.at + 17].copy_from_slice(&block[from..from + 16]);
            self.at += 1 + len;
            return;
        }
        if n < 60 {
            self.put([(n as u8) << 2]);
        } else {
            let bytes = (n.ilog2() / 8 + 1) as usize;
            self.put([(59 + bytes as u8) << 2]);
            self.buf[self.at..self.at + bytes].copy_from_slice(&(n as u32).to_le_bytes()[..bytes]);
            self.at += bytes;
        }
        self.buf[self.at..self.at + len].copy_from_slice(&block[from..to]);
        self.at += len;
    }

    /// A literal of `block[from..to]`, 1 to 16 bytes with 16 bytes of `block` from `from`:
    /// the tag and 16 bytes written at once, the tail overwritten by what follows.
    #[inline(always)]
    fn short_literal(&mut self, block: &[u8], from: usize, to: usize) {
        let len = to - from;
        debug_assert!((1..=16).contains(&len) && from + 16 <= block.len());
        if self.at + 17 > self.buf.len() {
            return self.literal(block, from, to);
        }
        self.buf[self.at] = ((len - 1) as u8) << 2;
        self.buf[self.at + 1..self.at + 17].copy_from_slice(&block[from..from + 16]);
        self.at += 1 + len;
    }

    /// A copy of `len` bytes (4 or more) from `offset` back (below 65,536): 4-11 bytes from
    /// less than 2,048 back take 2 bytes, others 3 bytes per piece of at most 64 (none
    /// shorter than 4).
    #[inline]
    fn copy(&mut self, offset: usize, len: usize) {
        if len < 12 && offset < 2048 {
            self.copy1(offset, len);
        } else {
            self.long_copy(offset, len);
        }
    }

    fn long_copy(&mut self, offset: usize, mut len: usize) {
        while len >= 68 {
            self.copy2(offset, 64);
            len -= 64;
        }
        if len > 64 {
            self.copy2(offset, 60);
            len -= 60;
        }
        if len < 12 && offset < 2048 {
            self.copy1(offset, len);
        } else {
            self.copy2(offset, len);
        }
    }

    /// A copy with a 1-byte offset: 4-11 bytes from less than 2,048 back.
    #[inline]
    fn copy1(&mut self, offset: usize, len: usize) {
        self.put([
            1 | ((len - 4) as u8) << 2 | ((offset >> 8) as u8) << 5,
            offset as u8,
        ]);
    }

    /// A copy with a 2-byte offset: 1-64 bytes.
    #[inline]
    fn copy2(&mut self, offset: usize, len: usize) {
        let [lo, hi] = (offset as u16).to_le_bytes();
        self.put([2 | ((len - 1) as u8) << 2, lo, hi]);
    }
}

/// The 4 bytes at `at` (little-endian).
///
/// # Safety
/// `at + 4 <= src.len()`.
#[inline(always)]
unsafe fn load32_unchecked(src: &[u8], at: usize) -> u32 {
    debug_assert!(at + 4 <= src.len());
    // SAFETY: the caller guarantees that the 4 bytes are inside `src`; the read is unaligned.
    u32::from_le(unsafe { src.as_ptr().add(at).cast::<u32>().read_unaligned() })
}

/// The 8 bytes at `at` (little-endian).
///
/// # Safety
/// `at + 8 <= src.len()`.
#[inline(always)]
unsafe fn load64_unchecked(src: &[u8], at: usize) -> u64 {
    debug_assert!(at + 8 <= src.len());
    // SAFETY: the caller guarantees that the 8 bytes are inside `src`; the read is unaligned.
    u64::from_le(unsafe { src.as_ptr().add(at).cast::<u64>().read_unaligned() })
}

/// How many bytes from `a` on equal those from `b` on (`a < b`), up to the end of `src`, and
/// (when 4 bytes follow there) the bytes at `b` plus that many: their low 32 bits are
/// `src[b + n..b + n + 4]` (little-endian).
///
/// The common case, a match shorter than 8 bytes, takes that next word from loads at `b` and
/// `b + 4` (not at `b + n`), so that it does not wait for the comparison: the next hash lookup
/// of the compressor hangs on it.
#[inline(always)]
fn match_len(src: &[u8], a: usize, b: usize) -> (usize, u64) {
    let load = |at: usize| {
        debug_assert!(at + 8 <= src.len());
        // SAFETY: every caller below checks `at + 8 <= src.len()` first.
        unsafe { load64_unchecked(src, at) }
    };
    let mut n = 0;
    if b + 16 <= src.len() {
        // `a < b`: `a`'s 8 bytes are inside too.
        let (x, y) = (load(a), load(b));
        if x != y {
            let diff = x ^ y;
            let shift = diff.trailing_zeros();
            // Fewer than 4 bytes equal: the word at `b` holds the next 5 or more; otherwise
            // the one at `b + 4` does.
            let w = if diff as u32 == 0 { load(b + 4) } else { y };
            return ((shift / 8) as usize, w >> (shift & 24));
        }
        n = 8;
    }
    while b + n + 8 <= src.len() {
        let diff = load(a + n) ^ load(b + n);
        if diff != 0 {
            n += (diff.trailing_zeros() / 8) as usize;
            return (n, next_word(src, b + n));
        }
        n += 8;
    }
    while b + n < src.len() && src[a + n] == src[b + n] {
        n += 1;
    }
    (n, next_word(src, b + n))
}

/// The 4 bytes at `at` when they are inside `src` (0 otherwise: the caller does not use them).
#[inline]
fn next_word(src: &[u8], at: usize) -> u64 {
    match src.get(at..at + 4) {
        Some(w) => u64::from(u32::from_le_bytes([w[0], w[1], w[2], w[3]])),
        None => 0,
    }
}

/// The decompressed length a Snappy stream's preamble states, and the stream's elements (the
/// bytes after the preamble); `None` when the preamble is not a varint of at most 32 bits.
pub fn split_preamble(stream: &[u8]) -> Option<(u64, &[u8])> {
    let mut len = 0u64;
    for (i, &b) in stream.iter().enumerate().take(5) {
        len |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return (len <= u64::from(u32::MAX)).then(|| (len, &stream[i + 1..]));
        }
    }
    None
}

/// Appends the preamble of a stream of `total` decompressed bytes and one literal element
/// holding `bytes`. Followed by the elements of a stream of `total - bytes.len()` bytes (see
/// [`split_preamble`]), the whole is a stream of `bytes` and then that stream's bytes: copy
/// elements address what they copy by its distance back, so a stream's elements keep their
/// meaning behind other output. This is how a merge turns a dictionary page into a PLAIN data
/// page (levels, then the dictionary's values) without decompressing it.
///
/// # Panics
/// If `bytes` is longer than `total` or `total` does not fit in 32 bits.
pub fn start_with_literal(total: usize, bytes: &[u8], out: &mut Vec<u8>) {
    assert!(
        bytes.len() <= total && u32::try_from(total).is_ok(),
        "a Snappy stream of {total} bytes starting with {} bytes",
        bytes.len()
    );
    let mut n = total as u64;
    while n >= 0x80 {
        out.push(n as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
    push_literal(bytes, out);
}

/// Appends a literal element holding `bytes` (nothing when empty; at most 4 GiB).
fn push_literal(bytes: &[u8], out: &mut Vec<u8>) {
    if bytes.is_empty() {
        return;
    }
    let n = bytes.len() - 1;
    if n < 60 {
        out.push((n as u8) << 2);
    } else {
        let len_bytes = (n.ilog2() / 8 + 1) as usize;
        out.push((59 + len_bytes as u8) << 2);
        out.extend_from_slice(&(n as u32).to_le_bytes()[..len_bytes]);
    }
    out.extend_from_slice(bytes);
}

impl SnappyEncoder {
    /// A compressor.
    pub fn new() -> Self {
        Self::default()
    }

    /// Compresses `src` into `dst` (at least [`max_compressed_len`] bytes); returns the bytes
    /// written. Inputs of 4 GiB or more are not Snappy's (the preamble is a 32-bit length).
    ///
    /// # Panics
    /// If `dst` is shorter than [`max_compressed_len`] of `src`'s length.
    pub fn compress(&mut self, src: &[u8], dst: &mut [u8]) -> usize {
        assert!(
            dst.len() >= max_compressed_len(src.len()),
            "snappy output of {} bytes for {} bytes of input",
            dst.len(),
            src.len()
        );
        let mut out = Out { buf: dst, at: 0 };
        let mut n = src.len() as u64;
        while n >= 0x80 {
            out.put([n as u8 | 0x80]);
            n >>= 7;
        }
        out.put([n as u8]);
        for block in src.chunks(BLOCK) {
            self.block(block, &mut out);
        }
        out.at
    }

    fn block(&mut self, src: &[u8], out: &mut Out<'_>) {
        if src.len() < MARGIN {
            out.literal(src, 0, src.len());
            return;
        }
        let size = src.len().next_power_of_two().clamp(256, 1 << TABLE_BITS);
        self.table[..size].fill(0);
        let table = &mut *self.table;
        // The slot of 4 bytes: bits 17 and up of their product with the multiplier, as many as
        // the table needs, as the Snappy library takes them (its hash is a byte offset into a
        // table of u16: the product shifted by 16, masked to even offsets below twice `size`).
        // The shift alone keeps it below 2^15, inside the table, as the compiler can see.
        let mask = size - 1;
        let slot = |x: u32| (x.wrapping_mul(HASH_MUL) >> (32 - TABLE_BITS)) as usize & mask;
        let limit = src.len() - MARGIN;
        // Every 4-byte load below is at 1 (`src` holds 15 bytes or more) or at most `limit`
        // (the scan stops before passing it, the copies loop only while below it, a candidate
        // is an earlier position), so its bytes are inside `src`, which ends 15 bytes after
        // `limit`. 8-byte loads are at most `limit + 4`.
        let load = |at: usize| {
            debug_assert!(at == 1 || at <= limit);
            // SAFETY: `at + 4 <= max(1, limit) + 4 <= src.len()` (see above).
            unsafe { load32_unchecked(src, at) }
        };
        let load64 = |at: usize| {
            debug_assert!(at + 8 <= src.len());
            // SAFETY: every caller's `at` is at most `limit + 4`, and `limit + 12 <= src.len()`.
            unsafe { load64_unchecked(src, at) }
        };
        let mut emitted = 0;
        let mut ip = 1;
        'scan: loop {
            // Look for a 4-byte match, skipping ever more bytes while there is none: the first
            // 32 positions one by one, then one more byte skipped per 32 misses. Every scan
            // starts one byte after the pending literal (`emitted == ip - 1`).
            let mut candidate;
            let literal_done = 'found: {
                let mut skip = 32;
                if ip + 16 <= limit {
                    // The first 16 positions from four 8-byte loads (the skipping loop below
                    // would look at the same ones, one by one). A match there ends a literal
                    // of at most 16 bytes, written at once.
                    for j in 0..4 {
                        let mut data = load64(ip + 4 * j);
                        for k in 0..4 {
                            let at = ip + 4 * j + k;
                            let h = slot(data as u32);
                            candidate = table[h] as usize;
                            table[h] = at as u16;
                            if data as u32 == load(candidate) {
                                out.short_literal(src, emitted, at);
                                ip = at;
                                break 'found true;
                            }
                            data >>= 8;
                        }
                    }
                    ip += 16;
                    skip += 16;
                }
                let mut next_hash = slot(load(ip));
                loop {
                    let h = next_hash;
                    let step = skip >> 5;
                    skip += step;
                    let next = ip + step;
                    if next > limit {
                        break 'scan;
                    }
                    next_hash = slot(load(next));
                    candidate = table[h] as usize;
                    table[h] = ip as u16;
                    if load(ip) == load(candidate) {
                        break 'found false;
                    }
                    ip = next;
                }
            };
            if !literal_done {
                out.literal(src, emitted, ip);
            }
            // Copies, as long as the bytes right after one start another match.
            loop {
                let (n, data) = match_len(src, candidate + 4, ip + 4);
                let len = 4 + n;
                out.copy(ip - candidate, len);
                ip += len;
                emitted = ip;
                if ip >= limit {
                    break 'scan;
                }
                // `data`'s low 32 bits are the 4 bytes at `ip` (inside: `ip < limit`).
                table[slot(load(ip - 1))] = (ip - 1) as u16;
                let word = data as u32;
                debug_assert_eq!(word, load(ip));
                let h = slot(word);
                candidate = table[h] as usize;
                table[h] = ip as u16;
                if word != load(candidate) {
                    break;
                }
            }
            ip += 1;
        }
        out.literal(src, emitted, src.len());
    }
}

pub mod decode;
pub mod gather;
pub use decode::{decompress, decompress_len};

#[cfg(test)]
mod tests;
