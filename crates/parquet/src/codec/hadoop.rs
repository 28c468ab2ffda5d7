//! Hadoop's block framing, used by parquet-mr's LZ4 (Hadoop `Lz4Codec`) and LZO (`LzoCodec`)
//! pages: a sequence of blocks, each a big-endian `u32` uncompressed size followed by one or
//! more chunks of a big-endian `u32` compressed size and that many compressed bytes, until the
//! chunks have produced the block's size.

use quiver_arrow::{Error, Result};

fn be32(src: &[u8], at: usize) -> Option<usize> {
    let b = src.get(at..at + 4)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
}

/// Decompresses Hadoop-framed `src` into `out` (which it must fill exactly) with `chunk`, the
/// raw decompressor of one chunk (returning the bytes it wrote into the slice it is given).
pub fn decompress(
    src: &[u8],
    out: &mut [u8],
    mut chunk: impl FnMut(&[u8], &mut [u8]) -> Result<usize>,
) -> Result<()> {
    let mut pos = 0;
    let mut done = 0;
    while pos < src.len() {
        let Some(block) = be32(src, pos) else {
            return Err(Error::oos(format!(
                "Hadoop block header at byte {pos} is cut short"
            )));
        };
        pos += 4;
        if block > out.len() - done {
            return Err(Error::oos(format!(
                "Hadoop block at byte {} declares {block} bytes, {} left of the page's size",
                pos - 4,
                out.len() - done
            )));
        }
        let end = done + block;
        while done < end {
            let Some(len) = be32(src, pos) else {
                return Err(Error::oos(format!(
                    "Hadoop chunk header at byte {pos} is cut short"
                )));
            };
            pos += 4;
            let Some(data) = src.get(pos..pos + len) else {
                return Err(Error::oos(format!(
                    "Hadoop chunk at byte {} declares {len} bytes, {} left",
                    pos - 4,
                    src.len() - pos
                )));
            };
            pos += len;
            let n = chunk(data, &mut out[done..end])?;
            if n == 0 && !data.is_empty() {
                return Err(Error::oos("Hadoop chunk decompressed to nothing"));
            }
            done += n;
        }
    }
    if done != out.len() {
        return Err(Error::oos(format!(
            "Hadoop-framed data decompressed to {done} bytes, the page declares {}",
            out.len()
        )));
    }
    Ok(())
}
