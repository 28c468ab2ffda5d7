//! Compressing the buffers of one message on several threads.
//!
//! The work is cut into pieces: whole buffers for ZSTD, and for LZ4 runs of at most
//! [`LZ4_PIECE`] bytes cut at 64 KiB block boundaries (the blocks of a frame are independent,
//! so pieces encoded apart concatenate to the frame's blocks). Pieces are handed out largest
//! first to the threads of a [`ThreadPool`] ([`ThreadPool::run_jobs`]), so threads stay busy
//! until the last piece whatever the mix of buffer sizes and compressibility. The output is byte-for-byte what one thread writes.

use super::lz4;
use super::{Codec, Compressor};
use bytes::Bytes;
use quiver_arrow::Result;
use quiver_arrow::parallel::ThreadPool;
use std::ops::Range;

/// Largest LZ4 piece: four 64 KiB blocks.
const LZ4_PIECE: usize = 4 * lz4::BLOCK;

/// One piece of work: bytes `range` of buffer `buffer`.
struct Piece {
    buffer: usize,
    range: Range<usize>,
}

/// A compressed body buffer as slices to write one after the other: the length prefix, then
/// the compressed bytes (an LZ4 frame is its header, the pieces' blocks and the end mark), or
/// prefix `-1` and the uncompressed buffer itself (shared, not copied) when compression does
/// not make it smaller. An empty buffer has no slices.
pub(crate) type Parts = Vec<Bytes>;

/// Compresses every buffer on the threads of `pool`, this one included, into the bytes
/// [`Compressor::compress`] would append (see [`Parts`]). `before` runs on this thread once
/// the other threads are at work (the file writer writes the previous batch then); it runs
/// exactly once, also when compression fails (see [`ThreadPool::run_jobs`]).
pub(crate) fn compress_buffers(
    codec: Codec,
    level: Option<i32>,
    buffers: &[Bytes],
    pool: &ThreadPool,
    before: impl FnOnce(),
) -> Result<Vec<Parts>> {
    let pieces = cut(codec, buffers);
    let mut order: Vec<usize> = (0..pieces.len()).collect();
    order.sort_by_key(|&p| std::cmp::Reverse(pieces[p].range.len()));
    let worker = || {
        let (pieces, mut c) = (&pieces, Compressor::new(codec, level));
        move |p: usize| {
            let piece = &pieces[p];
            let data = &buffers[piece.buffer][piece.range.clone()];
            let mut out = Vec::new();
            match codec {
                Codec::Lz4Frame => c.lz4_blocks(data, &mut out),
                Codec::Zstd => c.zstd(data, &mut out),
            }
            .map(|()| out)
        }
    };
    let compressed = pool.run_jobs(order.clone(), worker, before)?;
    let mut results = vec![Vec::new(); pieces.len()];
    for (p, out) in order.into_iter().zip(compressed) {
        results[p] = out;
    }
    let mut results = results.into_iter();
    let mut out = Vec::with_capacity(buffers.len());
    let mut pieces = pieces.iter().peekable();
    for (i, data) in buffers.iter().enumerate() {
        let mut parts = Vec::new();
        while pieces.next_if(|p| p.buffer == i).is_some() {
            parts.push(results.next().expect("one result per piece")); // ok: one result per piece.
        }
        out.push(match codec {
            _ if data.is_empty() => Vec::new(),
            Codec::Zstd => zstd_buffer(data, parts.pop().unwrap_or_default()),
            Codec::Lz4Frame => lz4_buffer(data, parts),
        });
    }
    Ok(out)
}

/// The pieces of `buffers`, in buffer order (empty buffers have none).
fn cut(codec: Codec, buffers: &[Bytes]) -> Vec<Piece> {
    let mut pieces = Vec::new();
    for (buffer, b) in buffers.iter().enumerate() {
        let step = match codec {
            Codec::Lz4Frame => LZ4_PIECE,
            Codec::Zstd => b.len().max(1),
        };
        for start in (0..b.len()).step_by(step) {
            pieces.push(Piece {
                buffer,
                range: start..b.len().min(start + step),
            });
        }
    }
    pieces
}

/// Prefix `-1` and `data` itself.
fn stored(data: &Bytes) -> Parts {
    vec![Bytes::from_static(&STORED_PREFIX), data.clone()]
}

/// The length prefix of an uncompressed buffer.
static STORED_PREFIX: [u8; 8] = (-1i64).to_le_bytes();

/// Length prefix and ZSTD frame; or the data stored when that is not smaller (as
/// [`Compressor::compress`] decides).
fn zstd_buffer(data: &Bytes, frame: Vec<u8>) -> Parts {
    if frame.len() >= data.len() {
        return stored(data);
    }
    let prefix = (data.len() as i64).to_le_bytes().to_vec();
    vec![Bytes::from(prefix), Bytes::from(frame)]
}

/// Length prefix, frame header, the pieces' blocks and the end mark; or the data stored
/// when that is not smaller (as [`Compressor::compress`] decides).
fn lz4_buffer(data: &Bytes, blocks: Vec<Vec<u8>>) -> Parts {
    let framed = 7 + blocks.iter().map(Vec::len).sum::<usize>() + 4;
    if framed >= data.len() {
        return stored(data);
    }
    let mut head = Vec::with_capacity(8 + 7);
    head.extend_from_slice(&(data.len() as i64).to_le_bytes());
    lz4::header(&mut head);
    let mut parts = Vec::with_capacity(blocks.len() + 2);
    parts.push(Bytes::from(head));
    parts.extend(blocks.into_iter().map(Bytes::from));
    parts.push(Bytes::from_static(&lz4::END));
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffers() -> Vec<Bytes> {
        let sizes = [
            0,
            1,
            100,
            lz4::BLOCK,
            LZ4_PIECE,
            LZ4_PIECE + 1,
            3 * LZ4_PIECE + 12_345,
        ];
        let mut v: Vec<Bytes> = sizes
            .iter()
            .enumerate()
            .map(|(k, &n)| {
                Bytes::from(
                    (0..n)
                        .map(|i| ((i / 5) % 53) as u8 ^ k as u8)
                        .collect::<Vec<u8>>(),
                )
            })
            .collect();
        // Incompressible: stored with prefix -1.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        v.push(Bytes::from(
            (0..300_000)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x >> 32) as u8
                })
                .collect::<Vec<u8>>(),
        ));
        v
    }

    /// No pool, and dedicated pools of 1, 2 and 3 threads.
    fn pools() -> Vec<ThreadPool> {
        let dedicated = (1..=3).map(|t| ThreadPool::new(t).unwrap());
        std::iter::once(ThreadPool::sequential())
            .chain(dedicated)
            .collect()
    }

    #[test]
    fn same_bytes_as_one_thread() {
        let bufs = buffers();
        for codec in [Codec::Lz4Frame, Codec::Zstd] {
            let mut c = Compressor::new(codec, None);
            let sequential: Vec<Vec<u8>> = bufs
                .iter()
                .map(|b| {
                    let mut out = Vec::new();
                    c.compress(b, &mut out).unwrap();
                    out
                })
                .collect();
            for pool in pools() {
                let mut ran = 0;
                let parallel = compress_buffers(codec, None, &bufs, &pool, || ran += 1).unwrap();
                assert_eq!(ran, 1);
                assert_eq!(parallel.len(), bufs.len());
                for (i, (p, s)) in parallel.iter().zip(&sequential).enumerate() {
                    assert_eq!(p.concat(), &s[..], "{codec} buffer {i}, {pool:?}");
                }
            }
            let stored = &sequential[bufs.len() - 1];
            assert_eq!(stored[..8], (-1i64).to_le_bytes());
            // The stored buffer is the input itself, not a copy.
            let pool = ThreadPool::new(2).unwrap();
            let parallel = compress_buffers(codec, None, &bufs, &pool, || ()).unwrap();
            let last = bufs.len() - 1;
            assert_eq!(parallel[last][1].as_ptr(), bufs[last].as_ptr());
        }
    }
}
