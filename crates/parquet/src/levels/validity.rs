//! Flat nullable columns (maximum definition level 1, no repetition): definition levels become
//! validity bits run by run — a repeated run is one `append_n`, a bit-packed run of 1-bit levels
//! is copied as bits — never an `i16` per value.

use crate::encoding::rle::{RleDecoder, Run};
use quiver_arrow::buffer::MutableBitmap;
use quiver_arrow::{Error, Result};

/// Appends the validity of the next `n` values, read from the 1-bit definition levels in
/// `levels`, to `out`; returns how many of them are valid (non-null).
///
/// ```
/// use quiver_arrow::buffer::MutableBitmap;
/// use quiver_parquet::encoding::rle::RleDecoder;
/// use quiver_parquet::levels::validity::append;
/// // Three valid values, then a bit-packed group: null, valid, null, null, ….
/// let levels = [3 << 1, 1, 1 << 1 | 1, 0b0000_0010];
/// let mut d = RleDecoder::new(&levels, 1).unwrap();
/// let mut bits = MutableBitmap::with_capacity(7);
/// assert_eq!(append(&mut d, 7, &mut bits).unwrap(), 4);
/// assert_eq!((0..7).map(|i| bits.get(i)).collect::<Vec<_>>(),
///            [true, true, true, false, true, false, false]);
/// ```
pub fn append(levels: &mut RleDecoder, n: usize, out: &mut MutableBitmap) -> Result<usize> {
    if levels.width() != 1 {
        return Err(Error::invalid(format!(
            "flat validity needs 1-bit levels, not {}-bit",
            levels.width()
        )));
    }
    out.try_reserve(n)?;
    let before_len = out.len();
    let before_unset = out.unset_bits();
    let mut left = n;
    while left > 0 {
        match levels.next_run(left)? {
            None => {
                return Err(Error::oos(format!(
                    "definition levels end after {} of {n} values",
                    n - left
                )));
            }
            Some(Run::Repeat { value, len }) => {
                if value > 1 {
                    return Err(Error::oos(format!(
                        "definition level {value} is above the maximum 1"
                    )));
                }
                out.append_n(value == 1, len);
                left -= len;
            }
            Some(Run::Packed { data, skip, len }) => {
                if data.len() * 8 < skip + len {
                    return Err(Error::invalid("bit-packed run shorter than its length"));
                }
                out.extend_from_bytes(data, skip, len);
                left -= len;
            }
        }
    }
    let unset = out.unset_bits() - before_unset;
    Ok(out.len() - before_len - unset)
}
