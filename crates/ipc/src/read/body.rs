//! The buffers of one message body: range checks and decompression.
//!
//! Every buffer range is checked by [`buffer_range`] and nowhere else. Uncompressed buffers
//! are zero-copy slices of the body. Compressed buffers (`BodyCompression`, method `BUFFER`)
//! are decompressed after their declared sizes have been checked against the message's
//! budget ([`ReadOptions::with_max_decompression_ratio`]): the sum of the declared lengths may
//! not exceed `max(body length × ratio, 1 MiB)`, capped by
//! [`ReadOptions::with_max_decompressed_bytes`], so a lying length prefix cannot allocate more
//! than that. The buffers of large bodies are decompressed on the threads of
//! [`ReadOptions::with_thread_pool`].

use super::ReadOptions;
use crate::compression::{Codec, Decompressor};
use crate::fb::org::apache::arrow::flatbuf as fb;
use bytes::Bytes;
use quiver_arrow::buffer::{ALIGNMENT, MutableBuffer};
use quiver_arrow::parallel::ThreadPool;
use quiver_arrow::{Error, Result};
use std::ops::Range;

/// Total declared bytes from which decompression is split over the options' thread pool
/// (below it, everything is decompressed on the calling thread).
const PARALLEL_MIN_BYTES: usize = 1 << 20;

/// The byte range of buffer `index` (`offset`, `len` as the metadata declares them), checked
/// against a body of `body_len` bytes.
///
/// ```text
/// buffer 3 needs bytes [64..1088) but the body has 512
/// ```
pub(crate) fn buffer_range(
    index: usize,
    offset: i64,
    len: i64,
    body_len: usize,
) -> Result<Range<usize>> {
    let (Ok(start), Ok(n)) = (usize::try_from(offset), usize::try_from(len)) else {
        return Err(Error::oos(format!(
            "buffer {index} has offset {offset} and length {len}; neither may be negative"
        )));
    };
    match start.checked_add(n) {
        Some(end) if end <= body_len => Ok(start..end),
        Some(end) => Err(Error::oos(format!(
            "buffer {index} needs bytes [{start}..{end}) but the body has {body_len}"
        ))),
        None => Err(Error::oos(format!(
            "buffer {index} at offset {start} with length {n} overflows"
        ))),
    }
}

/// The codec a record batch declares, `None` when the body is not compressed.
pub(crate) fn codec(rb: &fb::RecordBatch<'_>) -> Result<Option<Codec>> {
    let Some(c) = rb.compression() else {
        return Ok(None);
    };
    if c.method() != fb::BodyCompressionMethod::BUFFER {
        return Err(Error::not_supported(format!(
            "body compression method {}",
            c.method().0
        )));
    }
    match c.codec() {
        fb::CompressionType::LZ4_FRAME => Ok(Some(Codec::Lz4Frame)),
        fb::CompressionType::ZSTD => Ok(Some(Codec::Zstd)),
        other => Err(Error::not_supported(format!(
            "compression codec {}",
            other.0
        ))),
    }
}

/// Every buffer of `rb`, in order: slices of `body`, decompressed when the batch says so.
pub(crate) fn body_buffers(
    rb: &fb::RecordBatch<'_>,
    body: &Bytes,
    options: &ReadOptions,
    keep: Option<&[bool]>,
) -> Result<Vec<Bytes>> {
    let descriptors = rb.buffers();
    let raw = descriptors
        .iter()
        .flatten()
        .enumerate()
        .map(|(i, b)| buffer_range(i, b.offset(), b.length(), body.len()).map(|r| body.slice(r)))
        .collect::<Result<Vec<_>>>()?;
    match codec(rb)? {
        None => Ok(raw),
        Some(codec) => decompress_all(
            codec,
            skip_unkept(raw, keep),
            options.decompression_budget(body.len()),
            options.thread_pool(),
        ),
    }
}

/// Compressed buffers of columns a projection leaves out are not decompressed: they are
/// replaced by empty buffers, which the decoder steps over without reading.
fn skip_unkept(mut raw: Vec<Bytes>, keep: Option<&[bool]>) -> Vec<Bytes> {
    if let Some(keep) = keep {
        for (r, &k) in raw.iter_mut().zip(keep) {
            if !k {
                *r = Bytes::new();
            }
        }
    }
    raw
}

/// How one buffer of a compressed body is stored.
#[derive(Clone, Copy)]
enum Stored {
    /// No bytes at all (and no length prefix).
    Empty,
    /// Prefix `-1`: the bytes after the prefix are the buffer.
    Raw,
    /// Compressed; the prefix declares this many uncompressed bytes.
    Compressed(usize),
}

impl Stored {
    fn len(self) -> usize {
        match self {
            Stored::Compressed(n) => n,
            Stored::Empty | Stored::Raw => 0,
        }
    }
}

/// How buffer `index` (`raw`, length prefix included) is stored.
fn stored(index: usize, raw: &[u8]) -> Result<Stored> {
    if raw.is_empty() {
        return Ok(Stored::Empty);
    }
    let Some(prefix) = raw.get(..8) else {
        return Err(Error::oos(format!(
            "compressed buffer {index} has {} bytes, too few for its 8-byte length prefix",
            raw.len()
        )));
    };
    let declared = i64::from_le_bytes(prefix.try_into().expect("8 bytes")); // ok: `prefix` is the 8 bytes split off above.
    match declared {
        -1 => Ok(Stored::Raw),
        d => usize::try_from(d).map(Stored::Compressed).map_err(|_| {
            Error::oos(format!(
                "compressed buffer {index} declares uncompressed length {d}"
            ))
        }),
    }
}

/// One buffer to decompress: its index, the bytes after its prefix, and its output.
type Job<'a> = (usize, &'a [u8], &'a mut [u8]);

/// Decompresses every buffer after checking the declared total against `budget`, on the
/// threads of `pool` when there is enough work, the largest buffers first. Of several bad
/// buffers, the error names the first in that order (the largest), whatever the threads.
///
/// All decompressed buffers of the message share one 64-byte aligned allocation, each at a
/// multiple of 64 bytes, and are decompressed straight into it: one allocation (with
/// transparent huge pages when large) instead of one per buffer, whose fresh pages cost more
/// than decompressing into them. Like the buffers of a memory-mapped file, the allocation is
/// freed when the last buffer of the message is dropped. Stored (`-1`) buffers stay
/// zero-copy slices of the body.
fn decompress_all(
    codec: Codec,
    raw: Vec<Bytes>,
    budget: usize,
    pool: &ThreadPool,
) -> Result<Vec<Bytes>> {
    let kinds = raw
        .iter()
        .enumerate()
        .map(|(i, r)| stored(i, r))
        .collect::<Result<Vec<_>>>()?;
    let total = kinds.iter().fold(0usize, |t, k| t.saturating_add(k.len()));
    if total > budget {
        return Err(Error::oos(format!(
            "compressed buffers declare {total} uncompressed bytes, more than the {budget} \
             allowed for this message (see ReadOptions::with_max_decompression_ratio)"
        )));
    }
    // Each buffer padded to a multiple of 64 bytes (checked: a caller may set no budget).
    let padded = |k: Stored| k.len().checked_next_multiple_of(ALIGNMENT);
    let arena_len = kinds
        .iter()
        .try_fold(0usize, |t, &k| t.checked_add(padded(k)?))
        .ok_or_else(|| {
            Error::oos(format!(
                "compressed buffers declare {total} uncompressed bytes, more than memory can hold"
            ))
        })?;
    let mut arena = MutableBuffer::zeroed(arena_len);
    let mut starts = Vec::with_capacity(kinds.len());
    let mut jobs: Vec<Job<'_>> = Vec::new();
    let mut rest = arena.as_mut_slice();
    let mut at = 0;
    for (i, (r, &k)) in raw.iter().zip(&kinds).enumerate() {
        starts.push(at);
        // In range: the arena holds every padded length.
        let (out, tail) = std::mem::take(&mut rest).split_at_mut(padded(k).unwrap_or(0));
        rest = tail;
        at += out.len();
        if let Stored::Compressed(n) = k {
            jobs.push((i, &r[8..], &mut out[..n]));
        }
    }
    let sequential = ThreadPool::sequential();
    let pool = if total < PARALLEL_MIN_BYTES {
        &sequential
    } else {
        pool
    };
    jobs.sort_by_key(|j| std::cmp::Reverse(j.2.len()));
    let worker = || {
        let mut d = Decompressor::new();
        move |(i, src, out): Job<'_>| {
            d.decompress_into(codec, src, out)
                .map_err(|e| e.context(format!("buffer {i}")))
        }
    };
    pool.run_jobs(jobs, worker, || ())?;
    let arena = arena.freeze();
    Ok(raw
        .iter()
        .zip(kinds)
        .zip(starts)
        .map(|((r, k), start)| match k {
            Stored::Empty | Stored::Compressed(0) => Bytes::new(),
            Stored::Raw => r.slice(8..),
            Stored::Compressed(n) => arena.slice(start..start + n),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compression::compress_buffer;

    #[test]
    fn buffer_range_errors_name_the_numbers() {
        assert_eq!(buffer_range(3, 64, 1024, 2048).unwrap(), 64..1088);
        let e = buffer_range(3, 64, 1024, 512).unwrap_err();
        assert_eq!(
            e.to_string(),
            "buffer 3 needs bytes [64..1088) but the body has 512"
        );
        let e = buffer_range(1, -8, 8, 512).unwrap_err();
        assert!(e.to_string().contains("may be negative"), "{e}");
        let e = buffer_range(2, i64::MAX, i64::MAX, 512).unwrap_err();
        assert!(e.to_string().contains("buffer 2"), "{e}");
    }

    fn compressed(codec: Codec, data: &[u8]) -> Bytes {
        let mut out = Vec::new();
        compress_buffer(codec, data, None, &mut out).unwrap();
        Bytes::from(out)
    }

    /// No pool, the global pool, and dedicated pools of 1, 2 and 3 threads.
    fn pools() -> Vec<ThreadPool> {
        let dedicated = (1..=3).map(|t| ThreadPool::new(t).unwrap());
        [ThreadPool::sequential(), ThreadPool::global()]
            .into_iter()
            .chain(dedicated)
            .collect()
    }

    #[test]
    fn decompression_in_parallel_keeps_order() {
        for codec in [Codec::Lz4Frame, Codec::Zstd] {
            let data: Vec<Vec<u8>> = (0..7u8)
                .map(|k| {
                    (0..(300_000 + k as usize * 1000))
                        .map(|i| (i % 13) as u8 ^ k)
                        .collect()
                })
                .collect();
            let mut raw: Vec<Bytes> = data.iter().map(|d| compressed(codec, d)).collect();
            raw.push(Bytes::new());
            for pool in pools() {
                let out = decompress_all(codec, raw.clone(), usize::MAX, &pool).unwrap();
                assert_eq!(out.len(), 8);
                for (d, o) in data.iter().zip(&out) {
                    assert_eq!(&o[..], &d[..]);
                    assert_eq!(o.as_ptr() as usize % ALIGNMENT, 0);
                }
                assert!(out[7].is_empty());
            }
        }
    }

    #[test]
    fn of_several_bad_buffers_the_largest_is_named_whatever_the_threads() {
        for codec in [Codec::Lz4Frame, Codec::Zstd] {
            // Eight buffers, large enough together to be split over threads; buffers 2 and 5
            // declare one byte more than their frames hold, 5 being the larger.
            let sizes = [
                300_000, 200_000, 400_000, 100_000, 250_000, 500_000, 150_000, 50,
            ];
            let raw: Vec<Bytes> = (sizes.iter().enumerate())
                .map(|(k, &n)| {
                    let data: Vec<u8> = (0..n).map(|i| (i % 29) as u8 ^ k as u8).collect();
                    let mut c = compressed(codec, &data).to_vec();
                    if k == 2 || k == 5 {
                        c[..8].copy_from_slice(&(n as i64 + 1).to_le_bytes());
                    }
                    Bytes::from(c)
                })
                .collect();
            for pool in pools() {
                let e = decompress_all(codec, raw.clone(), usize::MAX, &pool).unwrap_err();
                assert!(
                    e.to_string().starts_with("buffer 5: "),
                    "{codec}, {pool:?}: {e}"
                );
            }
        }
    }

    #[test]
    fn declared_sizes_are_bounded_before_allocating() {
        let global = ThreadPool::global();
        let mut lying = (1i64 << 40).to_le_bytes().to_vec();
        lying.extend_from_slice(&[0; 16]);
        let e =
            decompress_all(Codec::Zstd, vec![Bytes::from(lying)], 1 << 20, &global).unwrap_err();
        assert!(
            e.to_string().contains("more than the 1048576 allowed"),
            "{e}"
        );
        let e = decompress_all(
            Codec::Zstd,
            vec![Bytes::from_static(&[1, 2, 3])],
            100,
            &global,
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("too few for its 8-byte length prefix"),
            "{e}"
        );
        let neg = (-5i64).to_le_bytes().to_vec();
        let e = decompress_all(Codec::Lz4Frame, vec![Bytes::from(neg)], 100, &global).unwrap_err();
        assert!(e.to_string().contains("uncompressed length -5"), "{e}");
    }
}
