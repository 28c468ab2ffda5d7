//! Byte swapping of big-endian bodies into new aligned, native (little-endian) buffers.
//!
//! Fixed-width values are described by the widths of their fields: an `i64` is `[8]`, an
//! `Interval(DAY_TIME)` is `[4, 4]`, a `MonthDayNano` is `[4, 4, 8]`; each field's bytes are
//! reversed. A decimal is one field (`[16]` or `[32]`), so reversing it also reverses the order
//! of its 64-bit words. Bitmaps and single bytes need no swap. Views swap their length and, for
//! values not stored inline, their buffer index and offset (the prefix is bytes).

use bytes::Bytes;
use quiver_arrow::View;
use quiver_arrow::buffer::MutableBuffer;

/// The field widths of one value of `name` (a [`quiver_arrow::NativeType::NAME`]) of `size`
/// bytes.
pub(crate) fn fields_of(name: &str, size: usize) -> &'static [usize] {
    match (name, size) {
        ("days_ms", _) => &[4, 4],
        ("month_day_nano", _) => &[4, 4, 8],
        (_, 2) => &[2],
        (_, 4) => &[4],
        (_, 8) => &[8],
        (_, 16) => &[16],
        (_, 32) => &[32],
        _ => &[1],
    }
}

/// `raw` with each field of each value byte-reversed (trailing bytes that do not form a whole
/// value are dropped).
pub(crate) fn swap_fields(raw: &[u8], fields: &[usize]) -> Bytes {
    let stride: usize = fields.iter().sum();
    if stride <= 1 {
        return Bytes::copy_from_slice(raw);
    }
    let whole = raw.len() - raw.len() % stride;
    let mut out = MutableBuffer::zeroed(whole);
    for (dst, src) in out
        .as_mut_slice()
        .chunks_exact_mut(stride)
        .zip(raw.chunks_exact(stride))
    {
        let mut pos = 0;
        for &w in fields {
            let (d, s) = (&mut dst[pos..pos + w], &src[pos..pos + w]);
            d.iter_mut().zip(s.iter().rev()).for_each(|(d, s)| *d = *s);
            pos += w;
        }
    }
    out.freeze()
}

/// Big-endian views → native views.
pub(crate) fn swap_views(raw: &[u8]) -> Bytes {
    const SIZE: usize = std::mem::size_of::<View>();
    let whole = raw.len() - raw.len() % SIZE;
    let mut out = MutableBuffer::zeroed(whole);
    for (dst, src) in out
        .as_mut_slice()
        .chunks_exact_mut(SIZE)
        .zip(raw.chunks_exact(SIZE))
    {
        let len = u32::from_be_bytes([src[0], src[1], src[2], src[3]]);
        dst[..4].copy_from_slice(&len.to_le_bytes());
        dst[4..].copy_from_slice(&src[4..]);
        if len as usize > View::MAX_INLINE {
            dst[8..12].reverse();
            dst[12..16].reverse();
        }
    }
    out.freeze()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swaps_each_field() {
        let raw = [1u8, 2, 3, 4, 5, 6, 7, 8];
        assert_eq!(&swap_fields(&raw, &[4, 4])[..], &[4, 3, 2, 1, 8, 7, 6, 5]);
        assert_eq!(&swap_fields(&raw, &[8])[..], &[8, 7, 6, 5, 4, 3, 2, 1]);
        assert_eq!(&swap_fields(&raw[..7], &[2])[..], &[2, 1, 4, 3, 6, 5]);
        let v: i64 = -2;
        assert_eq!(&swap_fields(&v.to_be_bytes(), &[8])[..], &v.to_le_bytes());
        let d: i128 = -123456789012345678901234567;
        assert_eq!(&swap_fields(&d.to_be_bytes(), &[16])[..], &d.to_le_bytes());
        assert_eq!(fields_of("month_day_nano", 16), &[4, 4, 8]);
        assert_eq!(fields_of("i128", 16), &[16]);
    }

    #[test]
    fn swaps_views() {
        let mut inline = [0u8; 16];
        inline[..4].copy_from_slice(&5u32.to_be_bytes());
        inline[4..9].copy_from_slice(b"hello");
        let mut long = [0u8; 16];
        long[..4].copy_from_slice(&20u32.to_be_bytes());
        long[4..8].copy_from_slice(b"abcd");
        long[8..12].copy_from_slice(&1u32.to_be_bytes());
        long[12..].copy_from_slice(&7u32.to_be_bytes());
        let out = swap_views(&[inline, long].concat());
        let views = quiver_arrow::Buffer::<View>::from_bytes(out);
        assert_eq!(views[0], View::inline(b"hello"));
        assert_eq!(views[1], View::reference(20, *b"abcd", 1, 7));
    }
}
