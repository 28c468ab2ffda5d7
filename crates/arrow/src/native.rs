//! Fixed-width value types stored in Arrow buffers.
//!
//! Every type here is plain old data with a little-endian in-memory layout that matches the Arrow
//! columnar format. 128- and 256-bit values are stored as arrays of `u64` words so that buffers
//! written with the 8-byte alignment other implementations use can be viewed without copying
//! (Rust's `i128` wants 16-byte alignment).

use bytemuck::{Pod, Zeroable};
use std::fmt;

#[cfg(target_endian = "big")]
compile_error!("quiver assumes a little-endian host; big-endian input is byte-swapped on read");

/// A fixed-width value that can be stored in a [`Buffer`](crate::Buffer).
pub trait NativeType:
    Pod + Send + Sync + fmt::Debug + PartialEq + Default + 'static + sealed::Sealed
{
    /// Name of the type for messages.
    const NAME: &'static str;
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! native {
    ($($t:ty => $name:literal),* $(,)?) => {$(
        impl sealed::Sealed for $t {}
        impl NativeType for $t { const NAME: &'static str = $name; }
    )*};
}
native!(
    u8 => "u8", u16 => "u16", u32 => "u32", u64 => "u64",
    i8 => "i8", i16 => "i16", i32 => "i32", i64 => "i64",
    half::f16 => "f16", f32 => "f32", f64 => "f64",
    I128 => "i128", I256 => "i256", DaysMs => "days_ms", MonthDayNano => "month_day_nano",
    View => "view",
);

/// A signed 128-bit integer stored as two little-endian `u64` words (8-byte aligned).
///
/// ```
/// use quiver_arrow::I128;
/// let v = I128::from_i128(-12345678901234567890123);
/// assert_eq!(v.to_i128(), -12345678901234567890123);
/// assert_eq!(v.to_string(), "-12345678901234567890123");
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Pod, Zeroable)]
#[repr(C)]
pub struct I128(pub [u64; 2]);

impl I128 {
    /// Converts from `i128`.
    #[inline]
    pub const fn from_i128(v: i128) -> Self {
        I128([v as u64, (v >> 64) as u64])
    }
    /// Converts to `i128`.
    #[inline]
    pub const fn to_i128(self) -> i128 {
        ((self.0[1] as i128) << 64) | self.0[0] as i128
    }
}
impl From<i128> for I128 {
    fn from(v: i128) -> Self {
        Self::from_i128(v)
    }
}
impl PartialOrd for I128 {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for I128 {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.to_i128().cmp(&other.to_i128())
    }
}
impl fmt::Debug for I128 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_i128(), f)
    }
}
impl fmt::Display for I128 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_i128(), f)
    }
}

/// A signed 256-bit two's-complement integer stored as four little-endian `u64` words.
///
/// ```
/// use quiver_arrow::I256;
/// let v = I256::from_i128(-42);
/// assert!(v.is_negative());
/// assert_eq!(v.to_string(), "-42");
/// let big = I256::from_le_bytes([0xff; 32]);
/// assert_eq!(big, I256::from_i128(-1));
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Pod, Zeroable)]
#[repr(C)]
pub struct I256(pub [u64; 4]);

impl I256 {
    /// Sign-extends an `i128`.
    pub const fn from_i128(v: i128) -> Self {
        let ext = if v < 0 { u64::MAX } else { 0 };
        I256([v as u64, (v >> 64) as u64, ext, ext])
    }
    /// Builds a value from 32 little-endian bytes.
    pub fn from_le_bytes(b: [u8; 32]) -> Self {
        let mut w = [0u64; 4];
        for (i, word) in w.iter_mut().enumerate() {
            let mut chunk = [0u8; 8];
            chunk.copy_from_slice(&b[i * 8..i * 8 + 8]);
            *word = u64::from_le_bytes(chunk);
        }
        I256(w)
    }
    /// The 32 little-endian bytes of the value.
    pub fn to_le_bytes(self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (i, word) in self.0.iter().enumerate() {
            out[i * 8..i * 8 + 8].copy_from_slice(&word.to_le_bytes());
        }
        out
    }
    /// The value as `i128` when it fits.
    pub fn to_i128(self) -> Option<i128> {
        let low = I128([self.0[0], self.0[1]]).to_i128();
        (I256::from_i128(low) == self).then_some(low)
    }
    /// True when the value is below zero.
    pub const fn is_negative(self) -> bool {
        (self.0[3] as i64) < 0
    }
    /// Two's-complement negation (wrapping).
    pub fn wrapping_neg(self) -> Self {
        let mut out = [0u64; 4];
        let mut carry = 1u64;
        for (o, w) in out.iter_mut().zip(self.0) {
            let (s, c) = (!w).overflowing_add(carry);
            *o = s;
            carry = c as u64;
        }
        I256(out)
    }
    /// Magnitude as unsigned words and the sign.
    fn unsigned_abs(self) -> ([u64; 4], bool) {
        if self.is_negative() {
            (self.wrapping_neg().0, true)
        } else {
            (self.0, false)
        }
    }
}
impl PartialOrd for I256 {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for I256 {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let hi = (self.0[3] as i64).cmp(&(other.0[3] as i64));
        hi.then_with(|| {
            [self.0[2], self.0[1], self.0[0]].cmp(&[other.0[2], other.0[1], other.0[0]])
        })
    }
}
impl From<i128> for I256 {
    fn from(v: i128) -> Self {
        Self::from_i128(v)
    }
}
impl fmt::Debug for I256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
impl fmt::Display for I256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mut mag, neg) = self.unsigned_abs();
        // Repeated division by 10^19 (the largest power of ten in a u64), most significant word first.
        const CHUNK: u64 = 10_000_000_000_000_000_000;
        let mut parts = Vec::with_capacity(5);
        loop {
            let mut rem: u128 = 0;
            for w in mag.iter_mut().rev() {
                let cur = (rem << 64) | *w as u128;
                *w = (cur / CHUNK as u128) as u64;
                rem = cur % CHUNK as u128;
            }
            parts.push(rem as u64);
            if mag.iter().all(|&w| w == 0) {
                break;
            }
        }
        let mut digits = String::with_capacity(80);
        let mut it = parts.iter().rev();
        if let Some(first) = it.next() {
            digits.push_str(&first.to_string());
        }
        for p in it {
            digits.push_str(&format!("{p:019}"));
        }
        f.pad_integral(!neg, "", &digits)
    }
}

/// `Interval(DAY_TIME)` value: days and milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Pod, Zeroable)]
#[repr(C)]
pub struct DaysMs {
    /// Number of days.
    pub days: i32,
    /// Number of milliseconds.
    pub milliseconds: i32,
}

/// `Interval(MONTH_DAY_NANO)` value: months, days and nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Pod, Zeroable)]
#[repr(C)]
pub struct MonthDayNano {
    /// Number of months.
    pub months: i32,
    /// Number of days.
    pub days: i32,
    /// Number of nanoseconds.
    pub nanoseconds: i64,
}

/// One 16-byte element of a `BinaryView` / `Utf8View` array.
///
/// Strings of at most 12 bytes are stored inline (`length`, then the bytes, zero padded); longer
/// ones keep their length, a 4-byte prefix, and the index and offset of the rest in a data buffer.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Pod, Zeroable)]
#[repr(C)]
pub struct View {
    /// Length in bytes of the value.
    pub length: u32,
    /// Inline data (length ≤ 12) or prefix + buffer index + offset (length > 12).
    pub data: [u8; 12],
}

impl View {
    /// Largest length stored inline.
    pub const MAX_INLINE: usize = 12;

    /// An inline view of `bytes` (which must be at most 12 bytes long).
    pub fn inline(bytes: &[u8]) -> Self {
        debug_assert!(bytes.len() <= Self::MAX_INLINE);
        let mut data = [0u8; 12];
        data[..bytes.len()].copy_from_slice(bytes);
        View {
            length: bytes.len() as u32,
            data,
        }
    }
    /// A view referencing `len` bytes at `offset` of data buffer `buffer_index`, whose first
    /// four bytes are `prefix`.
    pub fn reference(len: u32, prefix: [u8; 4], buffer_index: u32, offset: u32) -> Self {
        let mut data = [0u8; 12];
        data[..4].copy_from_slice(&prefix);
        data[4..8].copy_from_slice(&buffer_index.to_le_bytes());
        data[8..12].copy_from_slice(&offset.to_le_bytes());
        View { length: len, data }
    }
    /// True when the value is stored inline.
    #[inline]
    pub fn is_inline(&self) -> bool {
        self.length as usize <= Self::MAX_INLINE
    }
    /// The 4-byte prefix (meaningful for both inline and referenced views).
    #[inline]
    pub fn prefix(&self) -> [u8; 4] {
        [self.data[0], self.data[1], self.data[2], self.data[3]]
    }
    /// Data buffer index of a referenced view.
    #[inline]
    pub fn buffer_index(&self) -> u32 {
        u32::from_le_bytes([self.data[4], self.data[5], self.data[6], self.data[7]])
    }
    /// Offset into the data buffer of a referenced view.
    #[inline]
    pub fn offset(&self) -> u32 {
        u32::from_le_bytes([self.data[8], self.data[9], self.data[10], self.data[11]])
    }
}
impl fmt::Debug for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_inline() {
            write!(f, "View(inline {:?})", &self.data[..self.length as usize])
        } else {
            write!(
                f,
                "View(len {}, prefix {:?}, buffer {}, offset {})",
                self.length,
                self.prefix(),
                self.buffer_index(),
                self.offset()
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn i256_display_matches_i128() {
        for v in [
            0i128,
            1,
            -1,
            9,
            10,
            -10,
            i64::MAX as i128 * 7,
            i128::MAX,
            i128::MIN,
            10i128.pow(19),
            10i128.pow(38),
        ] {
            assert_eq!(I256::from_i128(v).to_string(), v.to_string());
            assert_eq!(I256::from_i128(v).to_i128(), Some(v));
        }
    }

    #[test]
    fn i256_large_values() {
        // 2^255 - 1 and -2^255
        let max = I256([u64::MAX, u64::MAX, u64::MAX, i64::MAX as u64]);
        assert_eq!(
            max.to_string(),
            "57896044618658097711785492504343953926634992332820282019728792003956564819967"
        );
        let min = I256([0, 0, 0, 1 << 63]);
        assert_eq!(
            min.to_string(),
            "-57896044618658097711785492504343953926634992332820282019728792003956564819968"
        );
        assert!(min < max);
        assert!(I256::from_i128(-1) < I256::from_i128(0));
        assert_eq!(max.to_i128(), None);
    }

    #[test]
    fn layouts() {
        assert_eq!(std::mem::size_of::<I128>(), 16);
        assert_eq!(std::mem::align_of::<I128>(), 8);
        assert_eq!(std::mem::size_of::<I256>(), 32);
        assert_eq!(std::mem::size_of::<MonthDayNano>(), 16);
        assert_eq!(std::mem::size_of::<DaysMs>(), 8);
        assert_eq!(std::mem::size_of::<View>(), 16);
        assert_eq!(std::mem::align_of::<View>(), 4);
    }
}
