//! Dictionary-encoded values (PLAIN_DICTIONARY / RLE_DICTIONARY): a data page holds a one-byte
//! bit width followed by an RLE / bit-packed hybrid stream of indices into the column chunk's
//! dictionary page. The indices are decoded in blocks into reused scratch and gathered.

use super::rle::RleDecoder;
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
        // Each value written once, straight into the capacity.
        // ok: every index was checked against `dict.len()` by `for_each_block`.
        out.extend_from_exact_iter(idx.iter().map(|&i| dict[i as usize]));
        Ok(())
    })
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
}
