//! Body buffer compression: LZ4 frame and ZSTD. The LZ4 block and frame decoders ([`lz4`])
//! also serve Parquet's LZ4 codecs.
//!
//! With compression, every body buffer is stored as a little-endian `i64` uncompressed length
//! followed by the compressed bytes; a length of `-1` means the bytes that follow are stored
//! uncompressed (writers do this when compression would not make a buffer smaller). An empty
//! buffer stays empty (no length prefix).

use bytes::Bytes;
use quiver_arrow::buffer::MutableBuffer;
use quiver_arrow::{Error, Result};

/// A body compression codec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Codec {
    /// LZ4 frame format.
    Lz4Frame,
    /// Zstandard.
    Zstd,
}

impl std::fmt::Display for Codec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Codec::Lz4Frame => "LZ4_FRAME",
            Codec::Zstd => "ZSTD",
        })
    }
}

pub mod lz4;
mod parallel;

fn zstd_error(e: std::io::Error) -> Error {
    Error::codec(format!("zstd: {e}"))
}

/// `Ok` when a buffer decompressed to the `declared` number of bytes.
fn check_len(got: usize, declared: usize) -> Result<()> {
    if got == declared {
        Ok(())
    } else {
        Err(Error::oos(format!(
            "buffer decompressed to {got} bytes but declares {declared}"
        )))
    }
}

pub(crate) use parallel::{Parts, compress_buffers};

/// Decompresses one body buffer (length prefix + data). Returns the stored bytes zero-copy
/// when the prefix is `-1`. `max_len` bounds the declared uncompressed length (callers pass a
/// limit derived from the input, so a lying prefix cannot force a huge allocation).
pub fn decompress_buffer(codec: Codec, raw: &Bytes, max_len: usize) -> Result<Bytes> {
    if raw.is_empty() {
        return Ok(Bytes::new());
    }
    let Some(prefix) = raw.get(..8) else {
        return Err(Error::oos(format!(
            "compressed buffer of {} bytes has no 8-byte length prefix",
            raw.len()
        )));
    };
    let declared = i64::from_le_bytes(prefix.try_into().expect("8 bytes")); // ok: `get(..8)` is 8 bytes
    if declared == -1 {
        return Ok(raw.slice(8..));
    }
    let len = usize::try_from(declared).map_err(|_| {
        Error::oos(format!(
            "compressed buffer declares uncompressed length {declared}"
        ))
    })?;
    if len > max_len {
        return Err(Error::oos(format!(
            "compressed buffer declares {len} uncompressed bytes, more than the {max_len} this message can need"
        )));
    }
    let mut out = MutableBuffer::zeroed(len);
    Decompressor::new().decompress_into(codec, &raw[8..], out.as_mut_slice())?;
    Ok(out.freeze())
}

/// Decompression state worth keeping between buffers (a ZSTD context); one per thread.
///
/// ```
/// use quiver_ipc::compression::{Codec, Compressor, Decompressor};
/// let data = vec![7u8; 10_000];
/// let mut stored = Vec::new();
/// Compressor::new(Codec::Zstd, None).compress(&data, &mut stored).unwrap();
/// // The first 8 bytes are the uncompressed length; the codec's bytes follow.
/// let mut back = vec![0u8; 10_000];
/// Decompressor::new().decompress_into(Codec::Zstd, &stored[8..], &mut back).unwrap();
/// assert_eq!(back, data);
/// ```
#[derive(Default)]
pub struct Decompressor {
    zstd: Option<zstd::bulk::Decompressor<'static>>,
}

impl Decompressor {
    /// A decompressor that has not allocated a codec context yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Decompresses `payload` (a buffer's bytes after its length prefix) into `out`, which
    /// must come out exactly full: more or fewer bytes are an error.
    pub fn decompress_into(&mut self, codec: Codec, payload: &[u8], out: &mut [u8]) -> Result<()> {
        match codec {
            Codec::Lz4Frame => lz4::decompress_frame(payload, out),
            Codec::Zstd => {
                let d = match &mut self.zstd {
                    Some(d) => d,
                    None => self
                        .zstd
                        .insert(zstd::bulk::Decompressor::new().map_err(zstd_error)?),
                };
                let got = d.decompress_to_buffer(payload, out).map_err(zstd_error)?;
                check_len(got, out.len())
            }
        }
    }
}

/// Appends `data` compressed with `codec` to `out` (length prefix included), or stored with
/// prefix `-1` when compression does not make it smaller. Empty input appends nothing.
/// Compressing many buffers is cheaper through one [`Compressor`].
pub fn compress_buffer(
    codec: Codec,
    data: &[u8],
    level: Option<i32>,
    out: &mut Vec<u8>,
) -> Result<()> {
    Compressor::new(codec, level).compress(data, out)
}

/// Compresses body buffers with one codec, keeping its state (LZ4 scratch block, ZSTD
/// context) from buffer to buffer; one per thread.
pub struct Compressor {
    codec: Codec,
    level: i32,
    lz4: Option<lz4::Encoder>,
    zstd: Option<zstd::bulk::Compressor<'static>>,
    scratch: Vec<u8>,
}

impl Compressor {
    /// A compressor for `codec`; `level` is ZSTD's level (default 1, as Arrow C++ uses) and
    /// is ignored for LZ4.
    pub fn new(codec: Codec, level: Option<i32>) -> Self {
        Compressor {
            codec,
            level: level.unwrap_or(1),
            lz4: None,
            zstd: None,
            scratch: Vec::new(),
        }
    }

    /// Appends the LZ4 blocks of `data` (a piece of a buffer starting at a multiple of 64 KiB)
    /// to `out`, without frame header or end mark.
    fn lz4_blocks(&mut self, data: &[u8], out: &mut Vec<u8>) -> Result<()> {
        self.lz4
            .get_or_insert_with(lz4::Encoder::new)
            .blocks(data, out)
    }

    /// Replaces the contents of `out` with the ZSTD frame of `data`.
    fn zstd(&mut self, data: &[u8], out: &mut Vec<u8>) -> Result<()> {
        let c = match &mut self.zstd {
            Some(c) => c,
            None => self
                .zstd
                .insert(zstd::bulk::Compressor::new(self.level).map_err(zstd_error)?),
        };
        out.clear();
        out.reserve(zstd::zstd_safe::compress_bound(data.len()));
        c.compress_to_buffer(data, out).map_err(zstd_error)?;
        Ok(())
    }

    /// Appends `data` to `out` as one body buffer: the little-endian `i64` uncompressed
    /// length and the compressed bytes, or `-1` and the bytes themselves when compression
    /// does not make them smaller. Empty input appends nothing.
    pub fn compress(&mut self, data: &[u8], out: &mut Vec<u8>) -> Result<()> {
        if data.is_empty() {
            return Ok(());
        }
        let start = out.len();
        out.reserve(8 + data.len());
        out.extend_from_slice(&(data.len() as i64).to_le_bytes());
        match self.codec {
            Codec::Lz4Frame => self
                .lz4
                .get_or_insert_with(lz4::Encoder::new)
                .frame(data, out)?,
            Codec::Zstd => {
                let mut frame = std::mem::take(&mut self.scratch);
                self.zstd(data, &mut frame)?;
                out.extend_from_slice(&frame);
                self.scratch = frame;
            }
        }
        if out.len() - start - 8 >= data.len() {
            // (`parallel::lz4_buffer` makes the same choice for frames built from pieces.)
            out.truncate(start);
            out.extend_from_slice(&(-1i64).to_le_bytes());
            out.extend_from_slice(data);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lz4_frames_use_64_kib_blocks() {
        let data: Vec<u8> = (0..1_000_000u32).map(|i| (i % 251) as u8).collect();
        let mut out = Vec::new();
        compress_buffer(Codec::Lz4Frame, &data, None, &mut out).unwrap();
        // After the 8-byte length prefix: the frame magic, FLG, then BD whose bits 4-6 give
        // the block maximum size (4 = 64 KiB), as the LZ4 frame format defines.
        assert_eq!(out[8..12], 0x184D_2204u32.to_le_bytes());
        assert_eq!((out[13] >> 4) & 7, 4);
    }

    #[test]
    fn round_trip_and_stored_fallback() {
        let data: Vec<u8> = (0..10_000u32).flat_map(|i| (i % 7).to_le_bytes()).collect();
        for codec in [Codec::Lz4Frame, Codec::Zstd] {
            let mut out = Vec::new();
            compress_buffer(codec, &data, None, &mut out).unwrap();
            assert!(
                out.len() < data.len() / 4,
                "{codec} compressed {} to {}",
                data.len(),
                out.len()
            );
            assert_eq!(
                i64::from_le_bytes(out[..8].try_into().unwrap()),
                data.len() as i64
            );
            let back = decompress_buffer(codec, &Bytes::from(out), data.len()).unwrap();
            assert_eq!(&back[..], &data[..]);
            // Incompressible data is stored with prefix -1.
            let noise: Vec<u8> = (0..64u32)
                .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
                .collect();
            let mut out = Vec::new();
            compress_buffer(codec, &noise, None, &mut out).unwrap();
            assert_eq!(i64::from_le_bytes(out[..8].try_into().unwrap()), -1);
            assert_eq!(
                &decompress_buffer(codec, &Bytes::from(out), 0).unwrap()[..],
                &noise[..]
            );
        }
    }

    #[test]
    fn lying_lengths_are_errors() {
        let mut out = Vec::new();
        compress_buffer(Codec::Zstd, &[7u8; 1000], None, &mut out).unwrap();
        let raw = Bytes::from(out.clone());
        let e = decompress_buffer(Codec::Zstd, &raw, 999).unwrap_err();
        assert!(e.to_string().contains("more than the 999"), "{e}");
        out[..8].copy_from_slice(&500i64.to_le_bytes());
        assert!(decompress_buffer(Codec::Zstd, &Bytes::from(out), 10_000).is_err());
        assert!(decompress_buffer(Codec::Lz4Frame, &Bytes::from_static(&[1, 0, 0]), 10).is_err());
    }
}
