//! Dictionary-encoded values (PLAIN_DICTIONARY / RLE_DICTIONARY): a data page holds a one-byte
//! bit width followed by an RLE / bit-packed hybrid stream of indices into the column chunk's
//! dictionary page. The indices are decoded in blocks into reused scratch and gathered.

use super::bitpack::{pack32, unpack32};
use super::rle::{RleDecoder, repeated_value};
use super::varint::uleb128;
use quiver_arrow::buffer::MutableBuffer;
use quiver_arrow::{Error, Result};

/// Indices decoded per block.
const BLOCK: usize = 1024;

/// The index stream of a dictionary-encoded data page: reads the bit width byte.
pub fn indices(page: &[u8]) -> Result<RleDecoder<'_>> {
    let Some((&width, rest)) = page.split_first() else {
        return Err(Error::oos("dictionary-encoded page has no bit width byte"));
    };
    RleDecoder::new(rest, u32::from(width))
}

fn out_of_range(index: u32, len: usize) -> Error {
    Error::oos(format!(
        "dictionary index {index} is out of range for a dictionary of {len} values"
    ))
}

/// Decodes `n` indices from `decoder` and calls `each` with every block of them, after checking
/// all are below `dict_len`.
pub fn for_each_block(
    decoder: &mut RleDecoder,
    n: usize,
    dict_len: usize,
    mut each: impl FnMut(&[u32]) -> Result<()>,
) -> Result<()> {
    let mut block = [0u32; BLOCK];
    let mut left = n;
    while left > 0 {
        let want = left.min(BLOCK);
        let got = decoder.decode(&mut block[..want])?;
        if got < want {
            return Err(Error::oos(format!(
                "dictionary indices end after {} of {n} values",
                n - left + got
            )));
        }
        let idx = &block[..got];
        // One pass for the maximum (vectorised), so the gather needs no per-value error path.
        let max = idx.iter().copied().max().unwrap_or(0);
        if got > 0 && max as usize >= dict_len {
            return Err(out_of_range(max, dict_len));
        }
        each(idx)?;
        left -= got;
    }
    Ok(())
}

/// Appends the `n` values the next `n` indices select from the fixed-width `dict` (values of
/// `T`) to `out`.
///
/// ```
/// use quiver_arrow::buffer::MutableBuffer;
/// use quiver_parquet::encoding::dictionary::{gather, indices};
/// // Bit width 2, then a bit-packed group: 2, 0, 1, 2, 0, 0, 0, 0.
/// let page = [2, 1 << 1 | 1, 0b1001_0010, 0b0000_0000];
/// let mut out = MutableBuffer::new();
/// gather(&mut indices(&page).unwrap(), 4, &[10i64, 20, 30], &mut out).unwrap();
/// assert_eq!(out.typed::<i64>(), &[30, 10, 20, 30]);
/// ```
pub fn gather<T: bytemuck::Pod>(
    decoder: &mut RleDecoder,
    n: usize,
    dict: &[T],
    out: &mut MutableBuffer,
) -> Result<()> {
    let size = std::mem::size_of::<T>();
    out.try_reserve_to_fill(n.saturating_mul(size))?;
    for_each_block(decoder, n, dict.len(), |idx| {
        // Each value written once, straight into the capacity, with no bounds check per
        // value (the check and its branch kept the loop from running a value per cycle).
        out.extend_from_exact_iter(idx.iter().map(|&i| {
            // SAFETY: `for_each_block` checked every index of the block against `dict.len()`
            // (their maximum) before handing it over.
            unsafe { *dict.get_unchecked(i as usize) }
        }));
        Ok(())
    })
}

/// Appends the values section `page` of a dictionary-encoded data page (a bit width byte, then
/// the RLE / bit-packed hybrid stream) with each of its first `present` indices `i` replaced by
/// `table[i]`, its runs kept as they are: a repeated run's value is mapped, a bit-packed run
/// unpacked, mapped and packed again at the same width (the slots after the `present`-th
/// value, which readers skip, become 0). Returns `false`, appending nothing, when the page's
/// width is not `width` (nor 1 to 32): the caller then encodes the mapped indices anew.
///
/// This is the new page a merged dictionary needs when it has the width of the page's own:
/// no run is searched for, and the bytes have the same length.
///
/// ```
/// use quiver_parquet::encoding::dictionary::{for_each_block, indices, remap_runs};
/// // Width 2: a run of five 1s, then a bit-packed group of 2, 0, 1, 2 (and four padding 0s).
/// let page = [2, 5 << 1, 1, 1 << 1 | 1, 0b1001_0010, 0];
/// let mut out = vec![];
/// assert!(remap_runs(&page, 9, &[3, 0, 2], 2, &mut out, &mut vec![]).unwrap());
/// let mut got = vec![];
/// for_each_block(&mut indices(&out).unwrap(), 9, 4, |b| Ok(got.extend_from_slice(b))).unwrap();
/// assert_eq!(got, [0, 0, 0, 0, 0, 2, 3, 0, 2]);
/// assert!(!remap_runs(&page, 9, &[3, 0, 2], 3, &mut out, &mut vec![]).unwrap());
/// ```
pub fn remap_runs(
    page: &[u8],
    present: usize,
    table: &[u32],
    width: u32,
    out: &mut Vec<u8>,
    scratch: &mut Vec<u32>,
) -> Result<bool> {
    let Some((&w, stream)) = page.split_first() else {
        return Ok(false);
    };
    if u32::from(w) != width || !(1..=32).contains(&width) {
        return Ok(false);
    }
    let map = |i: u32| {
        table
            .get(i as usize)
            .copied()
            .ok_or_else(|| out_of_range(i, table.len()))
    };
    let start = out.len();
    out.push(w);
    // The runs, each appended as it is read; on an error the output is cut back.
    let mut runs = || -> Result<()> {
        let (mut left, mut at) = (present, 0usize);
        while left > 0 {
            let (header, used) = uleb128(&stream[at..])
                .map_err(|e| e.context(format!("RLE run header at byte {at}")))?;
            out.extend_from_slice(&stream[at..at + used]);
            at += used;
            let count = usize::try_from(header >> 1).unwrap_or(usize::MAX);
            if header & 1 == 0 {
                let (value, bytes) = repeated_value(stream, at, used, width)?;
                // A run of no values repeats nothing: its value is left unchecked, as readers do.
                let mapped = if count == 0 { 0 } else { map(value)? };
                out.extend_from_slice(&mapped.to_le_bytes()[..bytes]);
                at += bytes;
                left = left.saturating_sub(count);
            } else {
                let bytes = count.saturating_mul(width as usize);
                let Some(packed) = stream.get(at..at.saturating_add(bytes)) else {
                    return Err(Error::oos(format!(
                        "RLE bit-packed run at byte {at} needs {bytes} bytes, {} left",
                        stream.len() - at
                    )));
                };
                // `count` groups of 8, at most 8 values per byte of the page: bounded by the input.
                scratch.clear();
                scratch.resize(count * 8, 0);
                unpack32(packed, width, scratch);
                let real = scratch.len().min(left);
                for v in &mut scratch[..real] {
                    *v = map(*v)?;
                }
                scratch[real..].fill(0);
                pack32(scratch, width, out);
                at += bytes;
                left -= real;
            }
        }
        Ok(())
    };
    let r = runs();
    if r.is_err() {
        out.truncate(start);
    }
    r.map(|()| true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::test_util::{Rng, pack_naive};

    #[test]
    fn gather_matches_indexing() {
        let mut rng = Rng::new(31);
        let dict: Vec<u64> = (0..300).map(|_| rng.next()).collect();
        for n in [0usize, 1, 8, 1000, 5000] {
            let idx: Vec<u64> = (0..n).map(|_| rng.below(300)).collect();
            let mut page = vec![9u8];
            crate::encoding::varint::write_uleb128(&mut page, (n.div_ceil(8) as u64) << 1 | 1);
            page.extend(pack_naive(&idx, 9));
            let mut out = MutableBuffer::new();
            gather(&mut indices(&page).unwrap(), n, &dict, &mut out).unwrap();
            let want: Vec<u64> = idx.iter().map(|&i| dict[i as usize]).collect();
            assert_eq!(out.typed::<u64>(), &want[..]);
            // The same indices against a dictionary one value too short.
            if idx.contains(&299) {
                let e = gather(&mut indices(&page).unwrap(), n, &dict[..299], &mut out);
                assert!(
                    e.unwrap_err()
                        .to_string()
                        .contains("index 299 is out of range")
                );
            }
        }
        assert!(indices(&[]).is_err());
        assert!(indices(&[33]).is_err());
        // Fewer indices than values.
        let e = gather(
            &mut indices(&[1, 2 << 1, 1]).unwrap(),
            3,
            &[1u8, 2],
            &mut MutableBuffer::new(),
        );
        assert!(e.unwrap_err().to_string().contains("after 2 of 3"));
    }

    /// Indices encoded by the writer's RLE encoder (repeated and bit-packed runs), remapped
    /// run by run, decode as the naive mapping of the indices.
    #[test]
    fn remapped_runs_decode_as_the_mapped_indices() {
        use crate::encoding::rle_encoder::RleEncoder;
        let mut rng = Rng::new(77);
        for width in 1..=20u32 {
            let len = 1usize << width.min(12);
            for n in [1usize, 7, 8, 9, 100, 3000] {
                // Runs of repeats among random values, so that both kinds of run occur.
                let mut idx = Vec::with_capacity(n);
                while idx.len() < n {
                    let v = rng.below(len as u64) as u32;
                    let k = if rng.below(3) == 0 {
                        rng.below(20) + 1
                    } else {
                        1
                    };
                    idx.extend(std::iter::repeat_n(v, k as usize));
                }
                idx.truncate(n);
                let mut enc = RleEncoder::new(width);
                enc.put_u32s(&idx);
                let mut page = vec![width as u8];
                enc.finish_into(&mut page);
                let table: Vec<u32> = (0..len).map(|_| rng.below(1u64 << width) as u32).collect();
                let mut out = vec![0xAA];
                let mut scratch = vec![];
                assert!(remap_runs(&page, n, &table, width, &mut out, &mut scratch).unwrap());
                assert_eq!(out[0], 0xAA);
                assert_eq!(out.len() - 1, page.len(), "same runs, same bytes");
                let mut got = Vec::new();
                // The mapped values are any of `width` bits.
                for_each_block(&mut indices(&out[1..]).unwrap(), n, 1 << width, |b| {
                    got.extend_from_slice(b);
                    Ok(())
                })
                .unwrap();
                let want: Vec<u32> = idx.iter().map(|&i| table[i as usize]).collect();
                assert_eq!(got, want, "width {width}, {n} values");
                // Another width: nothing appended.
                let before = out.len();
                assert!(!remap_runs(&page, n, &table, width + 1, &mut out, &mut scratch).unwrap());
                assert_eq!(out.len(), before);
                // A table one entry short of an index used: an error, nothing appended.
                let top = *idx.iter().max().unwrap();
                let e = remap_runs(
                    &page,
                    n,
                    &table[..top as usize],
                    width,
                    &mut out,
                    &mut scratch,
                )
                .unwrap_err();
                assert!(
                    e.to_string()
                        .contains(&format!("index {top} is out of range")),
                    "{e}"
                );
                assert_eq!(out.len(), before);
            }
        }
        // A stream that ends before its values: an error.
        let e = remap_runs(
            &[3, 3 << 1 | 1, 0xff],
            24,
            &[0; 8],
            3,
            &mut vec![],
            &mut vec![],
        );
        assert!(e.unwrap_err().to_string().contains("needs 9 bytes"));
    }
}
