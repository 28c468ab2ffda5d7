//! BYTE_ARRAY values: PLAIN (each value after a 4-byte little-endian length),
//! DELTA_LENGTH_BYTE_ARRAY (all lengths as DELTA_BINARY_PACKED, then the bytes back to back) and
//! DELTA_BYTE_ARRAY (prefix lengths shared with the previous value, then the suffixes as
//! DELTA_LENGTH_BYTE_ARRAY).
//!
//! The kernels append to a [`ByteArraySink`], so the Arrow layer chooses the layout (offsets and
//! a value buffer, or views into the page) without the kernels knowing arrays.

use super::delta;
use quiver_arrow::buffer::{MutableBuffer, Offset};
use quiver_arrow::{Error, Result};

/// Where decoded byte-array values go.
pub trait ByteArraySink {
    /// Room for `values` more values of `bytes` bytes in all (a hint; may over-estimate).
    fn reserve(&mut self, values: usize, bytes: usize) -> Result<()>;
    /// Appends one value.
    fn push(&mut self, value: &[u8]) -> Result<()>;
    /// Appends values given as back-to-back `data` split at `lengths` (all already checked to
    /// sum to `data.len()`).
    fn extend_concatenated(&mut self, data: &[u8], lengths: &[i32]) -> Result<()> {
        let mut at = 0;
        for &len in lengths {
            let end = at + len as usize;
            self.push(&data[at..end])?;
            at = end;
        }
        Ok(())
    }
}

/// The offsets-and-values layout of `Binary`/`Utf8` (`O = i32`) and their `Large` forms.
#[derive(Debug)]
pub struct OffsetsSink<O: Offset> {
    /// `len + 1` offsets (starting with the offset passed to [`OffsetsSink::new`]'s first 0).
    pub offsets: MutableBuffer,
    /// The value bytes.
    pub values: MutableBuffer,
    _offset: std::marker::PhantomData<O>,
}

impl<O: Offset> Default for OffsetsSink<O> {
    fn default() -> Self {
        Self::new()
    }
}

impl<O: Offset> OffsetsSink<O> {
    /// An empty sink holding the first offset, 0.
    pub fn new() -> Self {
        let mut offsets = MutableBuffer::new();
        offsets.push(O::ZERO);
        OffsetsSink {
            offsets,
            values: MutableBuffer::new(),
            _offset: std::marker::PhantomData,
        }
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.offsets.len() / std::mem::size_of::<O>() - 1
    }

    /// True when no value was appended.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The values' length, once checked that `more` bytes after it still fit offsets of type
    /// `O`.
    fn room_for(&self, more: usize) -> Result<usize> {
        let base = self.values.len();
        match base.checked_add(more).and_then(O::from_usize) {
            Some(_) => Ok(base),
            None => Err(Error::overflow(format!(
                "{} bytes of values overflow {}-bit offsets",
                base.saturating_add(more),
                std::mem::size_of::<O>() * 8
            ))),
        }
    }

    /// The values' length as an offset.
    fn end(&self) -> Result<O> {
        let end = self.room_for(0)?;
        // ok: `room_for` checked that `end` fits `O`.
        Ok(O::from_usize(end).unwrap_or(O::ZERO))
    }
}

impl<O: Offset> ByteArraySink for OffsetsSink<O> {
    fn reserve(&mut self, values: usize, bytes: usize) -> Result<()> {
        self.offsets
            .try_reserve(values.saturating_mul(std::mem::size_of::<O>()))?;
        self.values.try_reserve(bytes)
    }

    #[inline]
    fn push(&mut self, value: &[u8]) -> Result<()> {
        self.values.extend_from_slice(value);
        let end = self.end()?;
        self.offsets.push(end);
        Ok(())
    }

    fn extend_concatenated(&mut self, data: &[u8], lengths: &[i32]) -> Result<()> {
        let base = self.room_for(data.len())?;
        self.values.extend_from_slice(data);
        let mut at = base;
        self.offsets
            .extend_from_exact_iter(lengths.iter().map(|&l| {
                at += l as usize;
                O::from_usize(at).unwrap() // ok: every end is at most `base + data.len()`, checked above to fit `O`.
            }));
        Ok(())
    }
}

/// Copies the first `len` bytes of `src` to `dst`: a value of up to 64 bytes as one block of
/// 16, 32 or 64 bytes (no call) when `src` holds them.
///
/// # Safety
/// `src` holds at least `len` bytes, and `dst` has room for `min(src.len(), len + 31)` bytes
/// (a copy rounds `len` up to 16, 32 or 64) and does not overlap `src`.
#[inline(always)]
unsafe fn copy_value(src: &[u8], len: usize, dst: *mut u8) {
    // Whole 16-byte words, loaded and stored as `u128`: fixed-size `memcpy`s of 16, 32 and
    // 64 bytes in the three branches would be merged by the compiler into one call with a
    // variable size, which costs more than the copy for short values.
    // SAFETY: each branch reads `k <= src.len()` bytes and writes as many (within the room
    // the caller promises), unaligned; otherwise exactly `len` bytes are copied.
    unsafe {
        let (s, d) = (src.as_ptr().cast::<u128>(), dst.cast::<u128>());
        let words = if len <= 16 && src.len() >= 16 {
            1
        } else if len <= 32 && src.len() >= 32 {
            2
        } else if len <= 64 && src.len() >= 64 {
            4
        } else {
            std::ptr::copy_nonoverlapping(src.as_ptr(), dst, len);
            return;
        };
        d.write_unaligned(s.read_unaligned());
        if words > 1 {
            d.add(1).write_unaligned(s.add(1).read_unaligned());
        }
        if words > 2 {
            d.add(2).write_unaligned(s.add(2).read_unaligned());
            d.add(3).write_unaligned(s.add(3).read_unaligned());
        }
    }
}

/// Whether `count` byte arrays of `bytes` bytes in all are long enough on average (a dozen
/// bytes and more) to vary in length past 16 bytes and back (comments, names, URLs): each is
/// then best copied as one 64-byte block ([`copy_block`]), without a branch on its length to
/// mispredict. The PLAIN decoder and encoder both decide by it.
pub(crate) fn copy_wide(count: usize, bytes: usize) -> bool {
    count > 0 && bytes / count >= 12
}

/// Copies the first `len` bytes of `src` to `dst`: as one `N`-byte block when `len` is at
/// most `N` and `src` holds `N` bytes, else exactly.
///
/// A 64-byte block compiles to a call of the C library's `memmove`, which moves it in one or
/// two vector words where the CPU has AVX; measured faster than four 16-byte words inline,
/// 32 bytes and a branch for the rest, or the loop compiled for AVX2.
///
/// # Safety
/// `src` holds at least `len` bytes, and `dst` has room for `min(src.len(), N).max(len)`
/// bytes and does not overlap `src`.
#[inline(always)]
pub(crate) unsafe fn copy_block<const N: usize>(src: &[u8], len: usize, dst: *mut u8) {
    // SAFETY: the block reads and writes `N` bytes when `src` holds them (and so, by the
    // caller's promise, `dst` has room for them); otherwise exactly `len` bytes are copied.
    unsafe {
        if len <= N && src.len() >= N {
            dst.cast::<[u8; N]>()
                .write_unaligned(src.as_ptr().cast::<[u8; N]>().read_unaligned());
        } else {
            std::ptr::copy_nonoverlapping(src.as_ptr(), dst, len);
        }
    }
}

impl<O: Offset> OffsetsSink<O> {
    /// Decodes `n` PLAIN values from the start of `src` as [`plain`] does, in one pass that
    /// writes the bytes and offsets straight into the reserved capacity: the offsets' overflow
    /// is checked once for the whole page (the values take fewer bytes than the page), and a
    /// short value is copied as one 16-byte block. Returns the bytes the values took.
    ///
    /// ```
    /// use quiver_parquet::encoding::byte_array::OffsetsSink;
    /// let page = [2, 0, 0, 0, b'h', b'i', 0, 0, 0, 0, 1, 0, 0, 0, b'!'];
    /// let mut sink = OffsetsSink::<i32>::new();
    /// assert_eq!(sink.extend_plain(&page, 3).unwrap(), 15);
    /// assert_eq!(sink.offsets.typed::<i32>(), &[0, 2, 2, 3]);
    /// assert_eq!(sink.values.as_slice(), b"hi!");
    /// assert!(sink.extend_plain(&page, 4).is_err());
    /// ```
    pub fn extend_plain(&mut self, src: &[u8], n: usize) -> Result<usize> {
        if n > src.len() / 4 {
            return Err(Error::oos(format!(
                "{n} PLAIN byte arrays cannot fit in {} bytes",
                src.len()
            )));
        }
        let base = self.values.len();
        if base
            .checked_add(src.len())
            .and_then(O::from_usize)
            .is_none()
        {
            // The page may still fit: check value by value.
            return plain(src, n, self);
        }
        if copy_wide(n, src.len() - 4 * n) {
            self.extend_plain_copying::<true>(src, n, base)
        } else {
            self.extend_plain_copying::<false>(src, n, base)
        }
    }

    /// The loop of [`extend_plain`](Self::extend_plain), its checks done (`base` is the
    /// values' length): values copied as 64-byte blocks ([`copy_block`]) when `WIDE`, else
    /// by [`copy_value`].
    #[inline(always)]
    fn extend_plain_copying<const WIDE: bool>(
        &mut self,
        src: &[u8],
        n: usize,
        base: usize,
    ) -> Result<usize> {
        // Room for `src.len()` value bytes: every value lies inside `src`, after its length.
        self.values.try_reserve_to_fill(src.len())?;
        self.offsets
            .try_reserve_to_fill(n * std::mem::size_of::<O>())?;
        let values = self.values.spare_capacity_mut();
        let cap = values.len();
        let dst = values.as_mut_ptr().cast::<u8>();
        let offsets = &mut self.offsets.spare_capacity_mut()[..n * std::mem::size_of::<O>()];
        let mut pos = 0;
        let mut end = 0;
        for (i, slot) in offsets
            .chunks_exact_mut(std::mem::size_of::<O>())
            .enumerate()
        {
            let len = src
                .get(pos..pos + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
            let start = pos + 4;
            let Some(len) = len.filter(|&l| l <= src.len() - start) else {
                return Err(Error::oos(format!(
                    "PLAIN byte array {i} at byte {pos} runs past the end of its {} bytes",
                    src.len()
                )));
            };
            // `end <= start - 4` (each value so far took 4 more bytes in `src` than in the
            // output), so any `k` bytes from `start` that `src` holds fit from `end` in `cap`.
            debug_assert!(end + len <= cap);
            // SAFETY: `src[start..]` holds at least `len` bytes (checked above), and `dst + end`
            // has room for as many bytes as `src[start..]` holds (see above), what either copy
            // needs; source and output are distinct allocations.
            unsafe {
                if WIDE {
                    copy_block::<64>(&src[start..], len, dst.add(end));
                } else {
                    copy_value(&src[start..], len, dst.add(end));
                }
            }
            end += len;
            pos = start + len;
            // ok: `base + end <= base + src.len()`, checked above to fit `O`.
            let o = O::from_usize(base + end).unwrap_or(O::ZERO);
            for (s, b) in slot.iter_mut().zip(bytemuck::bytes_of(&o)) {
                s.write(*b);
            }
        }
        let offsets_len = self.offsets.len() + n * std::mem::size_of::<O>();
        // SAFETY: the loop wrote `end` value bytes after `base` and `n` offsets after the old
        // length, all inside the capacity reserved above.
        unsafe {
            self.values.set_len(base + end);
            self.offsets.set_len(offsets_len);
        }
        Ok(pos)
    }
}

/// The bytes the values of `dict` at `idx` take in all, or an error for an index out of range.
fn gathered_len(dict: &OffsetsSink<i64>, idx: &[u32]) -> Result<usize> {
    let offsets = dict.offsets.typed::<i64>();
    let mut total = 0usize;
    for &i in idx {
        let i = i as usize;
        let (Some(&start), Some(&end)) = (offsets.get(i), offsets.get(i + 1)) else {
            return Err(Error::oos(format!(
                "dictionary index {i} is out of range for a dictionary of {} values",
                dict.len()
            )));
        };
        total += (end - start) as usize;
    }
    Ok(total)
}

impl<O: Offset> OffsetsSink<O> {
    /// Appends the values of `dict` at `idx` (a dictionary's values gathered), whose bytes take
    /// `total` in all ([`gathered_len`]): one overflow check, and values written straight into
    /// the reserved capacity, in a loop whose state stays in registers (through a closure,
    /// `end` lived in memory); nothing is committed unless every value fits.
    ///
    /// With `W = 0`, short values are copied as whole blocks of 16, 32 or 64 bytes by their
    /// length. With `W > 0`, every value must fit `W` 16-byte words and the dictionary's bytes
    /// go on for `W * 16` bytes after every value's start (the column reader's padding): each
    /// value is copied as exactly `W` words, with no branch on its length (short values of
    /// varied lengths, such as a handful of labels, make such branches mispredict); a value
    /// that breaks either promise is an error.
    fn extend_gather_len<const W: usize>(
        &mut self,
        dict: &OffsetsSink<i64>,
        idx: &[u32],
        total: usize,
    ) -> Result<()> {
        // Room past the last value for its whole blocks.
        let slack = if W == 0 { 32 } else { W * 16 };
        let base = self.room_for(total)?;
        let offsets = dict.offsets.typed::<i64>();
        let bytes = dict.values.as_slice();
        let n = idx.len();
        let width = std::mem::size_of::<O>();
        self.values.try_reserve_to_fill(total + slack)?;
        self.offsets.try_reserve_to_fill(n * width)?;
        let dst = self.values.spare_capacity_mut().as_mut_ptr().cast::<u8>();
        let slots = &mut self.offsets.spare_capacity_mut()[..n * width];
        let mut end = 0;
        for (slot, &i) in slots.chunks_exact_mut(width).zip(idx) {
            let i = i as usize;
            // Every index is below `dict.len()` (`gathered_len` checked, or the caller of
            // `extend_gather_bounded`), and a dictionary's offsets rise within its bytes (built
            // by this sink).
            let (start, stop) = (offsets[i] as usize, offsets[i + 1] as usize);
            if W == 0 {
                let value = &bytes[start..stop];
                if value.len() > total - end {
                    return Err(Error::invalid("gathered values exceed their total"));
                }
                // SAFETY: `bytes[start..]` holds at least `value.len()` bytes, and `dst + end`
                // has room for `value.len() + 32` (`end + len <= total`, checked above, and 32
                // bytes of slack were reserved); distinct allocations.
                unsafe { copy_value(&bytes[start..], value.len(), dst.add(end)) };
                end += value.len();
            } else {
                let len = stop.wrapping_sub(start);
                if (len > W * 16)
                    | (len > total - end)
                    | (start > bytes.len().saturating_sub(W * 16))
                {
                    return Err(Error::invalid(format!(
                        "dictionary value {i} is not a padded value of at most {} bytes within \
                         the gathered total",
                        W * 16
                    )));
                }
                let (s, d) = (bytes[start..].as_ptr().cast::<u128>(), dst.cast::<u128>());
                for k in 0..W {
                    // SAFETY: `bytes[start..]` holds at least `W * 16` bytes (checked above),
                    // and `dst + end` has room for `len + W * 16` bytes (`end + len <= total`,
                    // checked above, and `W * 16` bytes more were reserved); unaligned,
                    // distinct allocations.
                    unsafe {
                        d.byte_add(end)
                            .add(k)
                            .write_unaligned(s.add(k).read_unaligned())
                    };
                }
                end += len;
            }
            // ok: `base + end <= base + total`, checked above to fit `O`.
            let o = O::from_usize(base + end).unwrap_or(O::ZERO);
            for (s, b) in slot.iter_mut().zip(bytemuck::bytes_of(&o)) {
                s.write(*b);
            }
        }
        let offsets_len = self.offsets.len() + n * width;
        // SAFETY: the loop wrote `end` value bytes after `base` and `n` offsets after the old
        // length, all inside the capacity reserved above.
        unsafe {
            self.values.set_len(base + end);
            self.offsets.set_len(offsets_len);
        }
        Ok(())
    }

    /// [`extend_gather_len`](Self::extend_gather_len) with no value longer than `longest`:
    /// values of up to 16 or 32 bytes are copied as whole words without a branch on their
    /// length when the dictionary's bytes are padded for it (as the column reader pads them).
    fn extend_gather_short(
        &mut self,
        dict: &OffsetsSink<i64>,
        idx: &[u32],
        total: usize,
        longest: usize,
    ) -> Result<()> {
        let last = dict
            .offsets
            .typed::<i64>()
            .last()
            .map_or(0, |&o| o as usize);
        let padding = dict.values.len().saturating_sub(last);
        match longest {
            0..=16 if padding >= 16 => self.extend_gather_len::<1>(dict, idx, total),
            17..=32 if padding >= 32 => self.extend_gather_len::<2>(dict, idx, total),
            _ => self.extend_gather_len::<0>(dict, idx, total),
        }
    }

    /// Appends the values of `dict` at `idx` (a dictionary's values gathered).
    ///
    /// ```
    /// use quiver_parquet::encoding::byte_array::OffsetsSink;
    /// let mut dict = OffsetsSink::<i64>::new();
    /// dict.extend_plain(&[2, 0, 0, 0, b'h', b'i', 1, 0, 0, 0, b'!'], 2).unwrap();
    /// let mut sink = OffsetsSink::<i32>::new();
    /// sink.extend_gather(&dict, &[1, 0, 1]).unwrap();
    /// assert_eq!(sink.offsets.typed::<i32>(), &[0, 1, 3, 4]);
    /// assert_eq!(sink.values.as_slice(), b"!hi!");
    /// assert!(sink.extend_gather(&dict, &[2]).is_err());
    /// ```
    pub fn extend_gather(&mut self, dict: &OffsetsSink<i64>, idx: &[u32]) -> Result<()> {
        let total = gathered_len(dict, idx)?;
        self.extend_gather_len::<0>(dict, idx, total)
    }
}

impl<O: Offset> OffsetsSink<O> {
    /// Appends `n` values of `len` bytes each, whose bytes `fill` appends to the values
    /// (exactly `n * len` of them, or it fails): the offsets are the sequence `len` apart, and
    /// nothing is kept when `fill` fails or appends another number of bytes.
    fn extend_uniform(
        &mut self,
        n: usize,
        len: usize,
        total: usize,
        fill: impl FnOnce(&mut MutableBuffer) -> Result<()>,
    ) -> Result<()> {
        let base = self.room_for(total)?;
        let filled = fill(&mut self.values);
        if let Err(e) = filled {
            self.values.truncate(base);
            return Err(e);
        }
        if self.values.len() != base + total {
            let got = self.values.len() - base;
            self.values.truncate(base);
            return Err(Error::invalid(format!(
                "{got} bytes appended for {n} values of {len} bytes"
            )));
        }
        // ok: every end is at most `base + total`, checked above to fit `O`.
        self.offsets.extend_from_exact_iter(
            (1..n + 1).map(|k| O::from_usize(base + k * len).unwrap_or(O::ZERO)),
        );
        Ok(())
    }
}

/// Offsets and values whose offsets are 32-bit while the values fit them and 64-bit from the
/// first value that does not: `Utf8`/`Binary` columns need no narrowing, and larger ones still
/// decode.
#[derive(Debug)]
pub enum FlexOffsets {
    /// 32-bit offsets.
    Narrow(OffsetsSink<i32>),
    /// 64-bit offsets.
    Wide(OffsetsSink<i64>),
}

impl Default for FlexOffsets {
    fn default() -> Self {
        FlexOffsets::Narrow(OffsetsSink::new())
    }
}

impl FlexOffsets {
    /// The number of values.
    pub fn len(&self) -> usize {
        match self {
            FlexOffsets::Narrow(s) => s.len(),
            FlexOffsets::Wide(s) => s.len(),
        }
    }

    /// True when no value was appended.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of the values appended.
    pub fn value_bytes(&self) -> usize {
        match self {
            FlexOffsets::Narrow(s) => s.values.len(),
            FlexOffsets::Wide(s) => s.values.len(),
        }
    }

    /// The values with 64-bit offsets (widened if they were 32-bit).
    pub fn into_wide(self) -> OffsetsSink<i64> {
        match self {
            FlexOffsets::Wide(s) => s,
            FlexOffsets::Narrow(s) => {
                let mut offsets = MutableBuffer::with_capacity(s.offsets.len() * 2);
                offsets.extend_from_exact_iter(s.offsets.typed::<i32>().iter().map(|&o| o as i64));
                OffsetsSink {
                    offsets,
                    values: s.values,
                    _offset: std::marker::PhantomData,
                }
            }
        }
    }

    /// Widens the offsets unless `more` bytes of values fit 32-bit offsets.
    fn make_room(&mut self, more: usize) {
        if let FlexOffsets::Narrow(s) = self
            && s.values.len().saturating_add(more) > i32::MAX as usize
        {
            let narrow = std::mem::take(self);
            *self = FlexOffsets::Wide(narrow.into_wide());
        }
    }

    /// Decodes `n` PLAIN values from the start of `src` ([`OffsetsSink::extend_plain`]).
    pub fn extend_plain(&mut self, src: &[u8], n: usize) -> Result<usize> {
        self.make_room(src.len());
        match self {
            FlexOffsets::Narrow(s) => s.extend_plain(src, n),
            FlexOffsets::Wide(s) => s.extend_plain(src, n),
        }
    }
}

impl FlexOffsets {
    /// Appends the values of `dict` at `idx` ([`OffsetsSink::extend_gather`]).
    pub fn extend_gather(&mut self, dict: &OffsetsSink<i64>, idx: &[u32]) -> Result<()> {
        let total = gathered_len(dict, idx)?;
        self.make_room(total);
        match self {
            FlexOffsets::Narrow(s) => s.extend_gather_len::<0>(dict, idx, total),
            FlexOffsets::Wide(s) => s.extend_gather_len::<0>(dict, idx, total),
        }
    }
}

impl FlexOffsets {
    /// Appends the values of `dict` at `idx` as [`extend_gather`](FlexOffsets::extend_gather)
    /// does, in one pass: every index must be below `dict.len()` (the dictionary decoder checks
    /// a block's maximum) and no value is longer than `longest`, so `idx.len() * longest` bytes
    /// bound what is appended (when that bound would widen the offsets, the exact total is
    /// counted first).
    ///
    /// ```
    /// use quiver_parquet::encoding::byte_array::{FlexOffsets, OffsetsSink};
    /// let mut dict = OffsetsSink::<i64>::new();
    /// dict.extend_plain(&[2, 0, 0, 0, b'h', b'i', 1, 0, 0, 0, b'!'], 2).unwrap();
    /// let mut sink = FlexOffsets::default();
    /// sink.extend_gather_bounded(&dict, &[1, 0, 1], 2).unwrap();
    /// let FlexOffsets::Narrow(s) = sink else { panic!() };
    /// assert_eq!(s.values.as_slice(), b"!hi!");
    /// ```
    pub fn extend_gather_bounded(
        &mut self,
        dict: &OffsetsSink<i64>,
        idx: &[u32],
        longest: usize,
    ) -> Result<()> {
        let bound = idx.len().saturating_mul(longest);
        match self {
            FlexOffsets::Narrow(s) if s.values.len().saturating_add(bound) <= i32::MAX as usize => {
                s.extend_gather_short(dict, idx, bound, longest)
            }
            FlexOffsets::Wide(s) => s.extend_gather_short(dict, idx, bound, longest),
            FlexOffsets::Narrow(_) => self.extend_gather(dict, idx),
        }
    }
}

impl FlexOffsets {
    /// Appends `n` values of `len` bytes each, whose bytes `fill` appends to the values buffer
    /// it is handed (exactly `n * len`, or it fails: then nothing is kept); the offsets are
    /// computed. For dictionaries whose values all have one length, gathered as fixed-width
    /// values.
    ///
    /// ```
    /// use quiver_parquet::encoding::byte_array::FlexOffsets;
    /// let mut sink = FlexOffsets::default();
    /// sink.extend_uniform(3, 2, |v| Ok(v.extend_from_slice(b"abcdef"))).unwrap();
    /// let FlexOffsets::Narrow(s) = &sink else { panic!() };
    /// assert_eq!(s.offsets.typed::<i32>(), &[0, 2, 4, 6]);
    /// assert!(sink.extend_uniform(2, 2, |v| Ok(v.extend_from_slice(b"abc"))).is_err());
    /// assert_eq!(sink.value_bytes(), 6);
    /// ```
    pub fn extend_uniform(
        &mut self,
        n: usize,
        len: usize,
        fill: impl FnOnce(&mut MutableBuffer) -> Result<()>,
    ) -> Result<()> {
        let total = n
            .checked_mul(len)
            .ok_or_else(|| Error::overflow(format!("{n} values of {len} bytes")))?;
        self.make_room(total);
        match self {
            FlexOffsets::Narrow(s) => s.extend_uniform(n, len, total, fill),
            FlexOffsets::Wide(s) => s.extend_uniform(n, len, total, fill),
        }
    }
}

impl ByteArraySink for FlexOffsets {
    fn reserve(&mut self, values: usize, bytes: usize) -> Result<()> {
        self.make_room(bytes);
        match self {
            FlexOffsets::Narrow(s) => s.reserve(values, bytes),
            FlexOffsets::Wide(s) => s.reserve(values, bytes),
        }
    }

    #[inline]
    fn push(&mut self, value: &[u8]) -> Result<()> {
        self.make_room(value.len());
        match self {
            FlexOffsets::Narrow(s) => s.push(value),
            FlexOffsets::Wide(s) => s.push(value),
        }
    }

    fn extend_concatenated(&mut self, data: &[u8], lengths: &[i32]) -> Result<()> {
        self.make_room(data.len());
        match self {
            FlexOffsets::Narrow(s) => s.extend_concatenated(data, lengths),
            FlexOffsets::Wide(s) => s.extend_concatenated(data, lengths),
        }
    }
}

/// Decodes `n` PLAIN BYTE_ARRAY values from the start of `src` into `sink`; returns the bytes
/// they took.
///
/// ```
/// use quiver_parquet::encoding::byte_array::{plain, OffsetsSink};
/// let page = [2, 0, 0, 0, b'h', b'i', 0, 0, 0, 0, 1, 0, 0, 0, b'!'];
/// let mut sink = OffsetsSink::<i32>::new();
/// assert_eq!(plain(&page, 3, &mut sink).unwrap(), 15);
/// assert_eq!(sink.offsets.typed::<i32>(), &[0, 2, 2, 3]);
/// assert_eq!(sink.values.as_slice(), b"hi!");
/// ```
pub fn plain(src: &[u8], n: usize, sink: &mut impl ByteArraySink) -> Result<usize> {
    // Each value takes at least its 4-byte length.
    if n > src.len() / 4 {
        return Err(Error::oos(format!(
            "{n} PLAIN byte arrays cannot fit in {} bytes",
            src.len()
        )));
    }
    sink.reserve(n, src.len() - 4 * n)?;
    let mut pos = 0;
    for i in 0..n {
        let value = src
            .get(pos..pos + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .and_then(|len| src.get(pos + 4..(pos + 4).checked_add(len)?));
        let Some(value) = value else {
            return Err(Error::oos(format!(
                "PLAIN byte array {i} at byte {pos} runs past the end of its {} bytes",
                src.len()
            )));
        };
        sink.push(value)?;
        pos += 4 + value.len();
    }
    Ok(pos)
}

/// Reads a DELTA_BINARY_PACKED stream of exactly `n` lengths (each ≥ 0) into `lengths`;
/// returns their sum and the bytes the stream took.
fn lengths(
    src: &[u8],
    n: usize,
    what: &str,
    lengths: &mut MutableBuffer,
) -> Result<(usize, usize)> {
    lengths.clear();
    let d = delta::decode::<i32>(src, n, lengths).map_err(|e| e.context(what))?;
    if d.values != n {
        return Err(Error::oos(format!(
            "{what}: {} values where {n} were expected",
            d.values
        )));
    }
    let mut sum = 0usize;
    for (i, &len) in lengths.typed::<i32>().iter().enumerate() {
        if len < 0 {
            return Err(Error::oos(format!("{what}: value {i} has length {len}")));
        }
        sum += len as usize;
    }
    Ok((sum, d.bytes))
}

/// Decodes `n` DELTA_LENGTH_BYTE_ARRAY values from `src` into `sink`; returns the bytes taken.
/// `scratch` holds the lengths (reused across pages).
pub fn delta_length(
    src: &[u8],
    n: usize,
    sink: &mut impl ByteArraySink,
    scratch: &mut MutableBuffer,
) -> Result<usize> {
    let (total, at) = lengths(src, n, "DELTA_LENGTH_BYTE_ARRAY lengths", scratch)?;
    let Some(data) = src.get(at..at + total) else {
        return Err(Error::oos(format!(
            "DELTA_LENGTH_BYTE_ARRAY: lengths add up to {total} bytes, {} left after them",
            src.len() - at
        )));
    };
    sink.reserve(n, total)?;
    sink.extend_concatenated(data, scratch.typed::<i32>())?;
    Ok(at + total)
}

/// Reused buffers of [`delta_byte_array`].
#[derive(Debug, Default)]
pub struct DeltaByteArrayScratch {
    prefixes: MutableBuffer,
    suffixes: MutableBuffer,
    value: Vec<u8>,
}

/// Decodes `n` DELTA_BYTE_ARRAY values from `src` into `sink`; returns the bytes taken.
pub fn delta_byte_array(
    src: &[u8],
    n: usize,
    sink: &mut impl ByteArraySink,
    scratch: &mut DeltaByteArrayScratch,
) -> Result<usize> {
    let what = "DELTA_BYTE_ARRAY prefix lengths";
    let (_, at) = lengths(src, n, what, &mut scratch.prefixes)?;
    let rest = &src[at..];
    let (total, sat) = lengths(
        rest,
        n,
        "DELTA_BYTE_ARRAY suffix lengths",
        &mut scratch.suffixes,
    )?;
    let Some(data) = rest.get(sat..sat + total) else {
        return Err(Error::oos(format!(
            "DELTA_BYTE_ARRAY: suffix lengths add up to {total} bytes, {} left after them",
            rest.len() - sat
        )));
    };
    sink.reserve(n, total)?;
    let value = &mut scratch.value;
    value.clear();
    let mut pos = 0;
    let pairs = scratch
        .prefixes
        .typed::<i32>()
        .iter()
        .zip(scratch.suffixes.typed::<i32>());
    for (i, (&prefix, &suffix)) in pairs.enumerate() {
        let prefix = prefix as usize;
        if prefix > value.len() {
            return Err(Error::oos(format!(
                "DELTA_BYTE_ARRAY value {i} shares a prefix of {prefix} bytes with a previous \
                 value of {}",
                value.len()
            )));
        }
        value.truncate(prefix);
        value.extend_from_slice(&data[pos..pos + suffix as usize]);
        pos += suffix as usize;
        sink.push(value)?;
    }
    Ok(at + sat + total)
}

#[cfg(test)]
mod tests;
