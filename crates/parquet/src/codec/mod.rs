//! Page decompression for every Parquet codec: SNAPPY, GZIP (concatenated members too), BROTLI,
//! ZSTD, LZ4_RAW, LZ4 (Hadoop framing, falling back to an LZ4 frame and then a raw block, as
//! other readers do) and LZO (LZO1X, see [`lzo`]: Hadoop-framed as parquet-mr writes it, or
//! behind python-lzo's 5-byte header as fastparquet writes and reads it).
//!
//! The caller knows each page's uncompressed size from its header and passes an output of exactly
//! that size (checked against the column chunk before allocating): a codec producing more or fewer
//! bytes is an error. Contexts (ZSTD's) live in the [`Decompressor`], reused across pages.

mod compress;
pub mod hadoop;
pub mod lzo;
pub mod snappy;

pub use compress::Compressor;

/// The first `n` bytes of `scratch`, grown (and zero-filled) only by what it lacks: a codec
/// overwrites every byte it is handed, so a buffer reused across pages is zeroed once, not on
/// every page.
pub(crate) fn scratch_of(scratch: &mut Vec<u8>, n: usize) -> &mut [u8] {
    if scratch.len() < n {
        scratch.resize(n, 0);
    }
    &mut scratch[..n]
}

use quiver_arrow::{Error, Result};
use std::io::Read;

/// A Parquet compression codec (`CompressionCodec` in parquet.thrift).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Codec {
    /// No compression.
    Uncompressed,
    /// Snappy, raw format.
    Snappy,
    /// Gzip (RFC 1952), possibly several members.
    Gzip,
    /// LZO1X in Hadoop block framing.
    Lzo,
    /// Brotli.
    Brotli,
    /// Deprecated LZ4: Hadoop block framing (or, from some writers, an LZ4 frame or a raw block).
    Lz4,
    /// Zstandard.
    Zstd,
    /// One raw LZ4 block.
    Lz4Raw,
}

impl std::fmt::Display for Codec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Codec::Uncompressed => "UNCOMPRESSED",
            Codec::Snappy => "SNAPPY",
            Codec::Gzip => "GZIP",
            Codec::Lzo => "LZO",
            Codec::Brotli => "BROTLI",
            Codec::Lz4 => "LZ4",
            Codec::Zstd => "ZSTD",
            Codec::Lz4Raw => "LZ4_RAW",
        })
    }
}

/// Decompresses pages, keeping codec contexts between them.
///
/// ```
/// use quiver_parquet::codec::{Codec, Decompressor};
/// let page = b"parquet page parquet page parquet page";
/// let mut stored = vec![0; quiver_parquet::codec::snappy::max_compressed_len(page.len())];
/// let n = quiver_parquet::codec::snappy::SnappyEncoder::new().compress(page, &mut stored);
/// let stored = &stored[..n];
/// let mut out = vec![0u8; page.len()];
/// Decompressor::default().decompress(Codec::Snappy, stored, &mut out).unwrap();
/// assert_eq!(&out, page);
/// ```
#[derive(Default)]
pub struct Decompressor {
    zstd: quiver_ipc::compression::Decompressor,
}

impl std::fmt::Debug for Decompressor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Decompressor")
    }
}

impl Decompressor {
    /// Decompresses `src` into `out`, which it must fill exactly.
    pub fn decompress(&mut self, codec: Codec, src: &[u8], out: &mut [u8]) -> Result<()> {
        self.run(codec, src, out)
            .map_err(|e| e.context(format!("{codec} page of {} bytes", src.len())))
    }

    fn run(&mut self, codec: Codec, src: &[u8], out: &mut [u8]) -> Result<()> {
        match codec {
            Codec::Uncompressed => {
                if src.len() != out.len() {
                    return Err(sizes(src.len(), out.len()));
                }
                out.copy_from_slice(src);
                Ok(())
            }
            Codec::Snappy => snappy(src, out),
            Codec::Gzip => gzip(src, out),
            Codec::Brotli => brotli(src, out),
            Codec::Zstd => self.zstd.decompress_into(quiver_ipc::Codec::Zstd, src, out),
            Codec::Lz4Raw => lz4_block(src, out),
            Codec::Lz4 => lz4_hadoop(src, out),
            Codec::Lzo => lzo_page(src, out),
        }
    }
}

fn sizes(got: usize, want: usize) -> Error {
    Error::oos(format!(
        "decompressed to {got} bytes, the page header declares {want}"
    ))
}

fn snappy(src: &[u8], out: &mut [u8]) -> Result<()> {
    let declared = snappy::decompress_len(src)?;
    if declared != out.len() {
        return Err(sizes(declared, out.len()));
    }
    snappy::decompress(src, out)
}

/// Fills `out` from `reader` and checks that nothing is left.
fn read_exact_all(mut reader: impl Read, out: &mut [u8]) -> Result<()> {
    let mut done = 0;
    while done < out.len() {
        match reader.read(&mut out[done..]) {
            Ok(0) => return Err(sizes(done, out.len())),
            Ok(n) => done += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::codec(e.to_string())),
        }
    }
    let mut extra = [0u8; 1];
    match reader.read(&mut extra) {
        Ok(0) => Ok(()),
        Ok(_) => Err(Error::oos(format!(
            "decompresses to more than the {} bytes the page header declares",
            out.len()
        ))),
        Err(e) => Err(Error::codec(e.to_string())),
    }
}

fn gzip(src: &[u8], out: &mut [u8]) -> Result<()> {
    read_exact_all(flate2::read::MultiGzDecoder::new(src), out)
}

fn brotli(src: &[u8], out: &mut [u8]) -> Result<()> {
    read_exact_all(brotli::Decompressor::new(src, 1 << 16), out)
}

fn lz4_block(src: &[u8], out: &mut [u8]) -> Result<()> {
    let n = quiver_ipc::compression::lz4::decompress_block(src, out)?;
    if n != out.len() {
        return Err(sizes(n, out.len()));
    }
    Ok(())
}

/// The LZ4 magic number that starts an LZ4 frame.
const LZ4_FRAME_MAGIC: [u8; 4] = [0x04, 0x22, 0x4D, 0x18];

fn lz4_hadoop(src: &[u8], out: &mut [u8]) -> Result<()> {
    let hadoop = hadoop::decompress(src, out, quiver_ipc::compression::lz4::decompress_block);
    match hadoop {
        Ok(()) => Ok(()),
        Err(e) => {
            // Older parquet-cpp wrote LZ4 pages as a frame or as one raw block.
            if src.starts_with(&LZ4_FRAME_MAGIC) {
                quiver_ipc::compression::lz4::decompress_frame(src, out)
            } else {
                lz4_block(src, out).map_err(|_| e)
            }
        }
    }
}

/// python-lzo's header: a first byte of `0xF0` (`lzo1x_1`) or `0xF1` (`lzo1x_999`), then the
/// uncompressed size as a big-endian `u32`. A Hadoop-framed page cannot start with either byte:
/// its first block's size is at most the page's, which is under 2^31.
const PYTHON_LZO_MARKS: [u8; 2] = [0xF0, 0xF1];

/// An LZO page: python-lzo's framing (fastparquet's) when it starts with its header, else
/// Hadoop's (parquet-mr's).
fn lzo_page(src: &[u8], out: &mut [u8]) -> Result<()> {
    let Some((&[mark, a, b, c, d], stream)) = src.split_first_chunk::<5>() else {
        return hadoop::decompress(src, out, lzo::decompress);
    };
    if !PYTHON_LZO_MARKS.contains(&mark) {
        return hadoop::decompress(src, out, lzo::decompress);
    }
    let declared = u32::from_be_bytes([a, b, c, d]) as usize;
    if declared != out.len() {
        return Err(Error::oos(format!(
            "python-lzo header declares {declared} bytes, the page header {}",
            out.len()
        )));
    }
    let n = lzo::decompress(stream, out)?;
    if n != out.len() {
        return Err(sizes(n, out.len()));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
