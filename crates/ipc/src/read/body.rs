//! The buffers of one message body: range checks and decompression.
//!
//! Every buffer range is checked by [`buffer_range`] and nowhere else. Uncompressed buffers
//! are zero-copy slices of the body. Compressed buffers (`BodyCompression`, method `BUFFER`)
//! are decompressed after their declared sizes have been checked against the message's
//! budget ([`ReadOptions::with_max_decompression_ratio`]): the sum of the declared lengths may
//! not exceed `max(body length × ratio, 1 MiB)`, capped by
//! [`ReadOptions::with_max_decompressed_bytes`], so a lying length prefix cannot allocate more
//! than that. Large bodies are decompressed on two threads.

use super::ReadOptions;
use crate::compression::{Codec, decompress_buffer};
use crate::fb::org::apache::arrow::flatbuf as fb;
use bytes::Bytes;
use quiver_arrow::{Error, Result};
use std::ops::Range;

/// Total declared bytes from which decompression is split over two threads.
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
        return Err(Error::NotSupported(format!(
            "body compression method {}",
            c.method().0
        )));
    }
    match c.codec() {
        fb::CompressionType::LZ4_FRAME => Ok(Some(Codec::Lz4Frame)),
        fb::CompressionType::ZSTD => Ok(Some(Codec::Zstd)),
        other => Err(Error::NotSupported(format!(
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
            options.parallel_decompression(),
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

/// The uncompressed length a compressed buffer declares (0 for empty and stored buffers,
/// which need no allocation).
fn declared_len(index: usize, raw: &[u8]) -> Result<usize> {
    if raw.is_empty() {
        return Ok(0);
    }
    let Some(prefix) = raw.get(..8) else {
        return Err(Error::oos(format!(
            "compressed buffer {index} has {} bytes, too few for its 8-byte length prefix",
            raw.len()
        )));
    };
    let declared = i64::from_le_bytes(prefix.try_into().expect("8 bytes"));
    match declared {
        -1 => Ok(0),
        d => usize::try_from(d).map_err(|_| {
            Error::oos(format!(
                "compressed buffer {index} declares uncompressed length {d}"
            ))
        }),
    }
}

/// Decompresses every buffer after checking the declared total against `budget`.
fn decompress_all(
    codec: Codec,
    raw: Vec<Bytes>,
    budget: usize,
    parallel: bool,
) -> Result<Vec<Bytes>> {
    let mut sizes = Vec::with_capacity(raw.len());
    let mut total = 0usize;
    for (i, r) in raw.iter().enumerate() {
        let n = declared_len(i, r)?;
        total = total.saturating_add(n);
        sizes.push(n);
    }
    if total > budget {
        return Err(Error::oos(format!(
            "compressed buffers declare {total} uncompressed bytes, more than the {budget} \
             allowed for this message (see ReadOptions::with_max_decompression_ratio)"
        )));
    }
    let one = |i: usize, r: &Bytes| {
        decompress_buffer(codec, r, sizes[i]).map_err(|e| e.context(format!("buffer {i}")))
    };
    if !parallel || total < PARALLEL_MIN_BYTES || raw.len() < 2 {
        return raw.iter().enumerate().map(|(i, r)| one(i, r)).collect();
    }
    decompress_on_two_threads(&raw, &sizes, one)
}

/// Runs `one` over every buffer, the buffers split by size between this thread and a scoped
/// second one (all on this thread if it cannot be spawned).
fn decompress_on_two_threads(
    raw: &[Bytes],
    sizes: &[usize],
    one: impl Fn(usize, &Bytes) -> Result<Bytes> + Sync,
) -> Result<Vec<Bytes>> {
    let second = split_by_size(sizes);
    let run = |pick: bool| {
        let picked = raw.iter().enumerate().filter(|(i, _)| second[*i] == pick);
        picked.map(|(i, r)| (i, one(i, r))).collect::<Vec<_>>()
    };
    let mut out: Vec<Option<Result<Bytes>>> = (0..raw.len()).map(|_| None).collect();
    std::thread::scope(|s| {
        let handle = std::thread::Builder::new().spawn_scoped(s, || run(true));
        let mut results = run(false);
        match handle {
            Ok(h) => match h.join() {
                Ok(r) => results.extend(r),
                Err(_) => {
                    results.push((0, Err(Error::Codec("decompression thread panicked".into()))))
                }
            },
            Err(_) => results.extend(run(true)),
        }
        for (i, r) in results {
            out[i] = Some(r);
        }
    });
    out.into_iter()
        .enumerate()
        .map(|(i, r)| {
            r.unwrap_or_else(|| Err(Error::Codec(format!("buffer {i} was not decompressed"))))
        })
        .collect()
}

/// Assigns buffers to two workers with about equal bytes (greedy, largest first): `true`
/// marks the buffers of the second worker.
fn split_by_size(sizes: &[usize]) -> Vec<bool> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_unstable_by_key(|&i| std::cmp::Reverse(sizes[i]));
    let mut second = vec![false; sizes.len()];
    let (mut a, mut b) = (0usize, 0usize);
    for i in order {
        if b < a {
            second[i] = true;
            b += sizes[i];
        } else {
            a += sizes[i];
        }
    }
    second
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
            for parallel in [true, false] {
                let out = decompress_all(codec, raw.clone(), usize::MAX, parallel).unwrap();
                assert_eq!(out.len(), 8);
                for (d, o) in data.iter().zip(&out) {
                    assert_eq!(&o[..], &d[..]);
                }
                assert!(out[7].is_empty());
            }
        }
    }

    #[test]
    fn declared_sizes_are_bounded_before_allocating() {
        let mut lying = (1i64 << 40).to_le_bytes().to_vec();
        lying.extend_from_slice(&[0; 16]);
        let e = decompress_all(Codec::Zstd, vec![Bytes::from(lying)], 1 << 20, true).unwrap_err();
        assert!(
            e.to_string().contains("more than the 1048576 allowed"),
            "{e}"
        );
        let e = decompress_all(Codec::Zstd, vec![Bytes::from_static(&[1, 2, 3])], 100, true)
            .unwrap_err();
        assert!(
            e.to_string()
                .contains("too few for its 8-byte length prefix"),
            "{e}"
        );
        let neg = (-5i64).to_le_bytes().to_vec();
        let e = decompress_all(Codec::Lz4Frame, vec![Bytes::from(neg)], 100, true).unwrap_err();
        assert!(e.to_string().contains("uncompressed length -5"), "{e}");
    }

    #[test]
    fn split_balances() {
        let second = split_by_size(&[10, 9, 2, 1]);
        let b: usize = [10, 9, 2, 1]
            .iter()
            .zip(&second)
            .filter(|(_, s)| **s)
            .map(|(x, _)| x)
            .sum();
        assert_eq!(b, 11); // 9 + 2 against 10 + 1
    }
}
