//! Page compression for the codecs quiver writes: SNAPPY, GZIP, BROTLI, ZSTD, LZ4_RAW and LZ4
//! (Hadoop framing, as Arrow C++ writes it). LZO is read only.
//!
//! Default levels follow arrow-rs and the libraries' own defaults: ZSTD 1 (also Arrow C++'s),
//! GZIP 6 (zlib's), BROTLI 1. A [`Compressor`] keeps its ZSTD context and LZ4 hash table
//! between pages; one per thread.

use super::Codec;
use quiver_arrow::{Error, Result};
use std::io::Write;

/// The levels a codec accepts, for the error message of an out-of-range level.
fn level_range(codec: Codec) -> Option<(i32, i32)> {
    match codec {
        Codec::Gzip => Some((0, 9)),
        Codec::Brotli => Some((0, 11)),
        Codec::Zstd => Some((-7, 22)),
        _ => None,
    }
}

/// Compresses pages with one codec, keeping its state and output buffer from page to page.
///
/// ```
/// use quiver_parquet::codec::{Codec, Compressor, Decompressor};
/// let page = b"parquet page parquet page parquet page".repeat(10);
/// let mut c = Compressor::new(Codec::Zstd, Some(3)).unwrap();
/// let stored = c.compress(&page).unwrap().to_vec();
/// let mut back = vec![0u8; page.len()];
/// Decompressor::default().decompress(Codec::Zstd, &stored, &mut back).unwrap();
/// assert_eq!(back, page);
/// ```
pub struct Compressor {
    codec: Codec,
    level: Option<i32>,
    zstd: Option<zstd::bulk::Compressor<'static>>,
    /// Made on the first snappy page: its table is 64 KiB to zero, which a merge making a
    /// compressor for each of thousands of column chunks copied verbatim would pay for each.
    snappy: Option<super::snappy::SnappyEncoder>,
    /// The output, reused: its length only grows (to the largest bound seen), so it is
    /// zero-filled once rather than per page.
    scratch: Vec<u8>,
}

impl std::fmt::Debug for Compressor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Compressor({}, {:?})", self.codec, self.level)
    }
}

impl Compressor {
    /// A compressor for `codec` at `level` (the codec's default when `None`). A level the
    /// codec does not have, a level for a codec without levels, or LZO is an error.
    pub fn new(codec: Codec, level: Option<i32>) -> Result<Compressor> {
        if codec == Codec::Lzo {
            return Err(Error::not_supported("writing LZO pages (LZO is read only)"));
        }
        if let Some(l) = level {
            match level_range(codec) {
                Some((lo, hi)) if (lo..=hi).contains(&l) => {}
                Some((lo, hi)) => {
                    return Err(Error::invalid(format!(
                        "{codec} compression level {l} is outside {lo}..={hi}"
                    )));
                }
                None => {
                    return Err(Error::invalid(format!(
                        "{codec} has no compression levels (got level {l})"
                    )));
                }
            }
        }
        Ok(Compressor {
            codec,
            level,
            zstd: None,
            snappy: None,
            scratch: Vec::new(),
        })
    }

    /// The codec.
    pub fn codec(&self) -> Codec {
        self.codec
    }

    /// `src` compressed (`src` itself when the codec is UNCOMPRESSED); valid until the next call.
    pub fn compress<'s>(&'s mut self, src: &'s [u8]) -> Result<&'s [u8]> {
        let n = match self.codec {
            Codec::Uncompressed => return Ok(src),
            Codec::Snappy => self.snappy(src),
            Codec::Gzip => gzip(src, self.level.unwrap_or(6), &mut self.scratch),
            Codec::Brotli => brotli(src, self.level.unwrap_or(1), &mut self.scratch),
            Codec::Zstd => self.zstd(src),
            Codec::Lz4Raw => Ok(lz4_block(
                src,
                super::scratch_of(&mut self.scratch, lz4_bound(src)),
            )),
            Codec::Lz4 => Ok(lz4_hadoop(
                src,
                super::scratch_of(&mut self.scratch, 8 + lz4_bound(src)),
            )),
            Codec::Lzo => Err(Error::not_supported("writing LZO pages")),
        };
        let n = n.map_err(|e| {
            e.context(format!(
                "compressing {} bytes with {}",
                src.len(),
                self.codec
            ))
        })?;
        Ok(&self.scratch[..n])
    }

    fn snappy(&mut self, src: &[u8]) -> Result<usize> {
        if u32::try_from(src.len()).is_err() {
            return Err(Error::codec(format!(
                "snappy: {} bytes of input, more than its 32-bit length holds",
                src.len()
            )));
        }
        let out = super::scratch_of(
            &mut self.scratch,
            super::snappy::max_compressed_len(src.len()),
        );
        let encoder = self
            .snappy
            .get_or_insert_with(super::snappy::SnappyEncoder::new);
        Ok(encoder.compress(src, out))
    }

    fn zstd(&mut self, src: &[u8]) -> Result<usize> {
        let c = match &mut self.zstd {
            Some(c) => c,
            None => self.zstd.insert(
                zstd::bulk::Compressor::new(self.level.unwrap_or(1))
                    .map_err(|e| Error::codec(format!("zstd: {e}")))?,
            ),
        };
        let out = super::scratch_of(
            &mut self.scratch,
            zstd::zstd_safe::compress_bound(src.len()),
        );
        c.compress_to_buffer(src, out)
            .map_err(|e| Error::codec(format!("zstd: {e}")))
    }
}

fn gzip(src: &[u8], level: i32, out: &mut Vec<u8>) -> Result<usize> {
    out.clear();
    let mut enc = flate2::write::GzEncoder::new(&mut *out, flate2::Compression::new(level as u32));
    enc.write_all(src)
        .and_then(|()| enc.try_finish())
        .map_err(|e| Error::codec(format!("gzip: {e}")))?;
    drop(enc);
    Ok(out.len())
}

fn brotli(src: &[u8], level: i32, out: &mut Vec<u8>) -> Result<usize> {
    out.clear();
    let params = brotli::enc::BrotliEncoderParams {
        quality: level,
        lgwin: 22,
        ..Default::default()
    };
    let mut input = src;
    brotli::BrotliCompress(&mut input, out, &params)
        .map_err(|e| Error::codec(format!("brotli: {e}")))?;
    Ok(out.len())
}

fn lz4_bound(src: &[u8]) -> usize {
    lz4_flex::block::get_maximum_output_size(src.len())
}

/// One raw LZ4 block of `src` at the start of `out` (at least `lz4_bound` long); its length.
fn lz4_block(src: &[u8], out: &mut [u8]) -> usize {
    // `out` holds the block format's worst case, so compression into it cannot fail.
    lz4_flex::block::compress_into(src, out).unwrap_or(0) // ok: cannot fail
}

/// Hadoop framing as Arrow C++ writes LZ4 pages: one block, prefixed by the uncompressed and
/// the compressed size as big-endian `u32`s (page sizes are `i32` in the page header).
/// An empty page is no block at all (a block of nothing would declare a 1-byte block for 0
/// bytes of output, which Hadoop's decoder rejects).
fn lz4_hadoop(src: &[u8], out: &mut [u8]) -> usize {
    if src.is_empty() {
        return 0;
    }
    let n = lz4_block(src, &mut out[8..]);
    out[..4].copy_from_slice(&(src.len() as u32).to_be_bytes());
    out[4..8].copy_from_slice(&(n as u32).to_be_bytes());
    8 + n
}
