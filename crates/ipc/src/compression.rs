//! Body buffer compression: LZ4 frame and ZSTD.
//!
//! With compression, every body buffer is stored as a little-endian `i64` uncompressed length
//! followed by the compressed bytes; a length of `-1` means the bytes that follow are stored
//! uncompressed (writers do this when compression would not make a buffer smaller). An empty
//! buffer stays empty (no length prefix).

use bytes::Bytes;
use quiver_arrow::buffer::MutableBuffer;
use quiver_arrow::{Error, Result};
use std::io::Read;

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
    let declared = i64::from_le_bytes(prefix.try_into().expect("8 bytes"));
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
    let got = match codec {
        Codec::Lz4Frame => read_fully(
            lz4_flex::frame::FrameDecoder::new(&raw[8..]),
            out.as_mut_slice(),
        ),
        Codec::Zstd => zstd::bulk::decompress_to_buffer(&raw[8..], out.as_mut_slice())
            .map_err(|e| Error::Codec(format!("zstd: {e}"))),
    }?;
    if got != len {
        return Err(Error::oos(format!(
            "buffer decompressed to {got} bytes but declares {len}"
        )));
    }
    Ok(out.freeze())
}

/// Reads until `out` is full or the reader ends; errors if more data remains.
fn read_fully<R: Read>(mut r: R, out: &mut [u8]) -> Result<usize> {
    let mut n = 0;
    while n < out.len() {
        match r.read(&mut out[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) => return Err(Error::Codec(format!("lz4: {e}"))),
        }
    }
    let mut probe = [0u8; 1];
    match r.read(&mut probe) {
        Ok(0) => Ok(n),
        Ok(_) => Err(Error::oos(format!(
            "buffer decompresses to more than the declared {} bytes",
            out.len()
        ))),
        Err(e) => Err(Error::Codec(format!("lz4: {e}"))),
    }
}

/// Appends `data` compressed with `codec` to `out` (length prefix included), or stored with
/// prefix `-1` when compression does not make it smaller. Empty input appends nothing.
pub fn compress_buffer(
    codec: Codec,
    data: &[u8],
    level: Option<i32>,
    out: &mut Vec<u8>,
) -> Result<()> {
    if data.is_empty() {
        return Ok(());
    }
    let start = out.len();
    out.extend_from_slice(&(data.len() as i64).to_le_bytes());
    match codec {
        Codec::Lz4Frame => {
            // 64 KiB blocks, as the LZ4 frame library's default (and pyarrow's files) use:
            // decoders size their block buffer by the header, and lz4_flex's automatic choice
            // (4 MiB blocks for large buffers) makes every reader allocate and fault in a 4 MiB
            // buffer per compressed buffer.
            let info =
                lz4_flex::frame::FrameInfo::new().block_size(lz4_flex::frame::BlockSize::Max64KB);
            let mut enc = lz4_flex::frame::FrameEncoder::with_frame_info(info, std::mem::take(out));
            std::io::Write::write_all(&mut enc, data)
                .map_err(|e| Error::Codec(format!("lz4: {e}")))?;
            *out = enc
                .finish()
                .map_err(|e| Error::Codec(format!("lz4: {e}")))?;
        }
        Codec::Zstd => {
            let compressed = zstd::bulk::compress(data, level.unwrap_or(1))
                .map_err(|e| Error::Codec(format!("zstd: {e}")))?;
            out.extend_from_slice(&compressed);
        }
    }
    if out.len() - start - 8 >= data.len() {
        out.truncate(start);
        out.extend_from_slice(&(-1i64).to_le_bytes());
        out.extend_from_slice(data);
    }
    Ok(())
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
