//! Statistics a writer records: min/max per page and per column chunk, compared as the
//! column's sort order says (parquet.thrift's `ColumnOrder` / TYPE_DEFINED_ORDER rules),
//! null counts, and the column index built from the pages.
//!
//! Values are kept as their PLAIN encoding (a byte array without its length prefix), which is
//! what `Statistics.min_value`/`max_value` and the column index store. A batch of dense values
//! is folded with a typed loop ([`fold_fixed`], [`fold_bytes`]); only the folds' results are
//! compared as bytes ([`MinMax::merge`]).
//!
//! Floating point: NaN never becomes a bound (a page of only NaN has none); a zero minimum is
//! written as `-0.0` and a zero maximum as `+0.0`, as the specification asks. Byte arrays
//! longer than the truncation length are cut: the minimum to a prefix, the maximum to a prefix
//! whose last byte (UTF-8: character) is incremented, and the bound is marked inexact.

use super::physical::SortOrder;
use crate::format::{BoundaryOrder, ColumnIndex, Statistics, Type};
use std::cmp::Ordering;

/// Truncated bounds: min, max, and whether each is exact.
pub type Bounds = (Vec<u8>, Vec<u8>, bool, bool);

/// Compares two PLAIN-encoded values of one column.
pub fn compare(order: SortOrder, physical: Type, a: &[u8], b: &[u8]) -> Ordering {
    fn arr<const N: usize>(v: &[u8]) -> [u8; N] {
        let mut out = [0; N];
        let n = v.len().min(N);
        out[..n].copy_from_slice(&v[..n]);
        out
    }
    match (physical, order) {
        (Type::INT32, SortOrder::Unsigned) => {
            u32::from_le_bytes(arr(a)).cmp(&u32::from_le_bytes(arr(b)))
        }
        (Type::INT32, _) => i32::from_le_bytes(arr(a)).cmp(&i32::from_le_bytes(arr(b))),
        (Type::INT64, SortOrder::Unsigned) => {
            u64::from_le_bytes(arr(a)).cmp(&u64::from_le_bytes(arr(b)))
        }
        (Type::INT64, _) => i64::from_le_bytes(arr(a)).cmp(&i64::from_le_bytes(arr(b))),
        (Type::FLOAT, _) => f32::from_le_bytes(arr(a)).total_cmp(&f32::from_le_bytes(arr(b))),
        (Type::DOUBLE, _) => f64::from_le_bytes(arr(a)).total_cmp(&f64::from_le_bytes(arr(b))),
        (_, SortOrder::Float16) => {
            half::f16::from_le_bytes(arr(a)).total_cmp(&half::f16::from_le_bytes(arr(b)))
        }
        (_, SortOrder::Decimal) => compare_big_endian_signed(a, b),
        _ => a.cmp(b),
    }
}

/// Two's-complement big-endian integers of any lengths.
fn compare_big_endian_signed(a: &[u8], b: &[u8]) -> Ordering {
    let neg = |v: &[u8]| v.first().is_some_and(|&x| x & 0x80 != 0);
    match (neg(a), neg(b)) {
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        _ => {}
    }
    let fill = if neg(a) { 0xFF } else { 0 };
    let n = a.len().max(b.len());
    let at = |v: &[u8], i: usize| {
        if i + v.len() < n {
            fill
        } else {
            v[i + v.len() - n]
        }
    };
    (0..n)
        .map(|i| at(a, i).cmp(&at(b, i)))
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// A running minimum and maximum (PLAIN-encoded), and whether each is exact.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MinMax {
    /// The bounds, once any value was seen.
    pub bounds: Option<(Vec<u8>, Vec<u8>)>,
}

impl MinMax {
    /// Takes `min`/`max` (of some values) into the running bounds.
    pub fn merge(&mut self, order: SortOrder, physical: Type, min: &[u8], max: &[u8]) {
        match &mut self.bounds {
            None => self.bounds = Some((min.to_vec(), max.to_vec())),
            Some((lo, hi)) => {
                if compare(order, physical, min, lo).is_lt() {
                    lo.clear();
                    lo.extend_from_slice(min);
                }
                if compare(order, physical, max, hi).is_gt() {
                    hi.clear();
                    hi.extend_from_slice(max);
                }
            }
        }
    }

    /// Takes another running bound in.
    pub fn merge_from(&mut self, order: SortOrder, physical: Type, other: &MinMax) {
        if let Some((lo, hi)) = &other.bounds {
            self.merge(order, physical, lo, hi);
        }
    }

    /// Forgets the bounds.
    pub fn clear(&mut self) {
        self.bounds = None;
    }
}

/// Values with a native minimum/maximum fold.
pub trait StatNative: Copy + bytemuck::Pod {
    /// Minimum and maximum of `values` under `order` (`None` when none counts: empty, or only NaN).
    fn fold(values: &[Self], order: SortOrder) -> Option<(Self, Self)>;
}

macro_rules! int_fold {
    ($t:ty, $u:ty) => {
        impl StatNative for $t {
            fn fold(values: &[$t], order: SortOrder) -> Option<($t, $t)> {
                if values.is_empty() {
                    return None;
                }
                if order == SortOrder::Unsigned {
                    let u: &[$u] = bytemuck::cast_slice(values);
                    let (lo, hi) = u.iter().fold((<$u>::MAX, <$u>::MIN), |(lo, hi), &v| {
                        (lo.min(v), hi.max(v))
                    });
                    return Some((lo as $t, hi as $t));
                }
                let (lo, hi) = values.iter().fold((<$t>::MAX, <$t>::MIN), |(lo, hi), &v| {
                    (lo.min(v), hi.max(v))
                });
                Some((lo, hi))
            }
        }
    };
}
int_fold!(i32, u32);
int_fold!(i64, u64);

macro_rules! float_fold {
    ($t:ty) => {
        impl StatNative for $t {
            fn fold(values: &[$t], _: SortOrder) -> Option<($t, $t)> {
                // `min`/`max` ignore NaN; start from the infinities and check a bound was found.
                let (lo, hi) = values
                    .iter()
                    .fold((<$t>::INFINITY, <$t>::NEG_INFINITY), |(lo, hi), &v| {
                        (lo.min(v), hi.max(v))
                    });
                if lo > hi {
                    return None; // empty or only NaN
                }
                let lo = if lo == 0.0 { -0.0 } else { lo };
                let hi = if hi == 0.0 { 0.0 } else { hi };
                Some((lo, hi))
            }
        }
    };
}
float_fold!(f32);
float_fold!(f64);

/// Folds dense fixed-width values into `mm`.
pub fn fold_fixed<T: StatNative>(mm: &mut MinMax, order: SortOrder, physical: Type, values: &[T]) {
    if order == SortOrder::Undefined {
        return;
    }
    if let Some((lo, hi)) = T::fold(values, order) {
        mm.merge(
            order,
            physical,
            bytemuck::bytes_of(&lo),
            bytemuck::bytes_of(&hi),
        );
    }
}

/// Folds dense byte-array (or fixed-length byte-array) values into `mm`.
pub fn fold_bytes<'v>(
    mm: &mut MinMax,
    order: SortOrder,
    physical: Type,
    values: impl IntoIterator<Item = &'v [u8]>,
) {
    if order == SortOrder::Undefined {
        return;
    }
    let mut it = values.into_iter();
    let Some(first) = it.next() else { return };
    let ord = |a: &[u8], b: &[u8]| compare(order, physical, a, b);
    let nan16 = |v: &[u8]| {
        order == SortOrder::Float16
            && v.len() == 2
            && half::f16::from_le_bytes([v[0], v[1]]).is_nan()
    };
    let (mut lo, mut hi) = (first, first);
    let mut any = !nan16(first);
    for v in it {
        if nan16(v) {
            continue;
        }
        if !any {
            (lo, hi, any) = (v, v, true);
            continue;
        }
        if ord(v, lo).is_lt() {
            lo = v;
        }
        if ord(v, hi).is_gt() {
            hi = v;
        }
    }
    if !any {
        return;
    }
    if order == SortOrder::Float16 {
        let z = |v: &[u8]| half::f16::from_le_bytes([v[0], v[1]]) == half::f16::ZERO;
        let neg0 = half::f16::NEG_ZERO.to_le_bytes();
        let pos0 = half::f16::ZERO.to_le_bytes();
        let lo = if z(lo) { &neg0[..] } else { lo };
        let hi = if z(hi) { &pos0[..] } else { hi };
        mm.merge(order, physical, lo, hi);
        return;
    }
    mm.merge(order, physical, lo, hi);
}

/// Folds decimals (big-endian two's complement, as FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY stores
/// them) into `mm`; `each` hands every value to the function it is given. Values of up to
/// 16 bytes are compared as the `i128`s they sign-extend to, one integer comparison per value;
/// longer ones byte by byte.
pub fn fold_decimals<'v>(
    mm: &mut MinMax,
    physical: Type,
    each: impl FnOnce(&mut dyn FnMut(&'v [u8])),
) {
    /// A value and its integer.
    type Keyed<'v> = (&'v [u8], i128);
    let mut bounds: Option<(Keyed, Keyed)> = None;
    let mut wide = false;
    let mut vals = Vec::new();
    each(&mut |v: &'v [u8]| {
        if wide || v.is_empty() || v.len() > 16 {
            wide = true;
            vals.push(v);
            return;
        }
        let k = sign_extended(v);
        match &mut bounds {
            None => bounds = Some(((v, k), (v, k))),
            Some((lo, hi)) => {
                if k < lo.1 {
                    *lo = (v, k);
                } else if k > hi.1 {
                    *hi = (v, k);
                }
            }
        }
    });
    if let Some((lo, hi)) = bounds {
        mm.merge(SortOrder::Decimal, physical, lo.0, hi.0);
    }
    if wide {
        fold_bytes(mm, SortOrder::Decimal, physical, vals);
    }
}

/// Folds contiguous decimals of `width` bytes each (`values` holds them back to back) into
/// `mm`: one loop per width up to 16, each value loaded as a fixed-size array and compared as
/// an integer (`i64` up to 8 bytes, `i128` beyond).
pub fn fold_fixed_decimals(mm: &mut MinMax, physical: Type, values: &[u8], width: usize) {
    /// The least and greatest of the values as the integers `key` makes of them, and `W`.
    fn fold<const W: usize, K: Ord + Copy + Into<i128>>(
        values: &[u8],
        key: impl Fn([u8; W]) -> K,
    ) -> Option<(i128, i128, usize)> {
        // chunks_exact gives W-byte chunks: the fallback is never taken.
        let mut it = values
            .chunks_exact(W)
            .map(|v| key(v.try_into().unwrap_or([0; W])));
        let first = it.next()?;
        let (lo, hi) = it.fold((first, first), |(lo, hi), k| (lo.min(k), hi.max(k)));
        Some((lo.into(), hi.into(), W))
    }
    /// Up to 8 bytes sign-extended to an `i64` (the fold then vectorises).
    fn key64<const W: usize>(a: [u8; W]) -> i64 {
        let mut b = [if a[0] & 0x80 != 0 { 0xFF } else { 0 }; 8];
        b[8 - W..].copy_from_slice(&a);
        i64::from_be_bytes(b)
    }
    macro_rules! by_width {
        ($($n:literal)* ; $($w:literal)*) => {
            match width {
                $($n => fold(values, key64::<$n>),)*
                $($w => fold(values, |a: [u8; $w]| sign_extended(&a)),)*
                _ => {
                    fold_decimals(mm, physical, |see| values.chunks_exact(width.max(1)).for_each(see));
                    return;
                }
            }
        };
    }
    if let Some((lo, hi, w)) = by_width!(1 2 3 4 5 6 7 8; 9 10 11 12 13 14 15 16) {
        // The integers' last `w` big-endian bytes are the values (they fit: they are values).
        let (lo, hi) = (lo.to_be_bytes(), hi.to_be_bytes());
        mm.merge(SortOrder::Decimal, physical, &lo[16 - w..], &hi[16 - w..]);
    }
}

/// A big-endian two's-complement integer of 1 to 16 bytes as an `i128`.
#[inline]
fn sign_extended(v: &[u8]) -> i128 {
    let fill = if v[0] & 0x80 != 0 { 0xFF } else { 0 };
    let mut b = [fill; 16];
    b[16 - v.len()..].copy_from_slice(v);
    i128::from_be_bytes(b)
}

/// Bounds cut to at most `limit` bytes: `(min, max, min exact, max exact)`. A maximum that
/// cannot be incremented after cutting (all `0xFF`) is kept whole.
pub fn truncate(
    min: &[u8],
    max: &[u8],
    limit: usize,
    utf8: bool,
) -> (Vec<u8>, Vec<u8>, bool, bool) {
    let (lo, lo_exact) = if min.len() > limit {
        (min[..boundary(min, limit, utf8)].to_vec(), false)
    } else {
        (min.to_vec(), true)
    };
    let (hi, hi_exact) = if max.len() > limit {
        match increment(&max[..boundary(max, limit, utf8)], utf8) {
            Some(v) => (v, false),
            None => (max.to_vec(), true),
        }
    } else {
        (max.to_vec(), true)
    };
    (lo, hi, lo_exact, hi_exact)
}

/// The longest prefix length at most `limit` that ends on a character boundary (UTF-8).
fn boundary(v: &[u8], limit: usize, utf8: bool) -> usize {
    let mut n = limit.min(v.len());
    if utf8 {
        while n > 0 && n < v.len() && (v[n] & 0xC0) == 0x80 {
            n -= 1;
        }
    }
    n
}

/// The smallest value greater than every value starting with `prefix`, of at most its length.
fn increment(prefix: &[u8], utf8: bool) -> Option<Vec<u8>> {
    if utf8 {
        let s = std::str::from_utf8(prefix).ok()?;
        let mut chars: Vec<char> = s.chars().collect();
        while let Some(c) = chars.pop() {
            let next = (c as u32 + 1..=0x10FFFF).find_map(char::from_u32);
            if let Some(n) = next
                && n.len_utf8() == c.len_utf8()
            {
                chars.push(n);
                return Some(chars.into_iter().collect::<String>().into_bytes());
            }
        }
        return None;
    }
    let mut v = prefix.to_vec();
    while let Some(last) = v.pop() {
        if last < 0xFF {
            v.push(last + 1);
            return Some(v);
        }
    }
    None
}

/// The statistics of a page or chunk as written in a header or the column metadata.
pub fn statistics<'a>(bounds: Option<&'a Bounds>, null_count: u64) -> Statistics<'a> {
    Statistics {
        max: None,
        min: None,
        null_count: Some(null_count as i64),
        distinct_count: None,
        max_value: bounds.map(|b| b.1.as_slice()),
        min_value: bounds.map(|b| b.0.as_slice()),
        is_max_value_exact: bounds.map(|b| b.3),
        is_min_value_exact: bounds.map(|b| b.2),
        nan_count: None,
    }
}

/// One page's entry in the column index.
#[derive(Debug, Clone)]
pub struct PageStats {
    /// Min/max (already truncated), `None` for a page of only nulls (or only NaN).
    pub bounds: Option<(Vec<u8>, Vec<u8>)>,
    /// Null entries in the page.
    pub null_count: u64,
    /// The page holds values but no bounds: only NaN. It is no null page, and without bounds
    /// for it the chunk gets no column index (as parquet-mr and Arrow C++ do).
    pub only_nan: bool,
    /// Level histograms (empty when not kept).
    pub def_histogram: Vec<i64>,
    /// Repetition level histogram (empty when not kept).
    pub rep_histogram: Vec<i64>,
}

/// Builds the column index of a chunk's pages (`None` when the order is undefined or a page
/// holds only NaN: marking it a null page would let readers skip its values).
pub fn column_index(
    order: SortOrder,
    physical: Type,
    pages: &[PageStats],
) -> Option<ColumnIndex<'_>> {
    if order == SortOrder::Undefined || pages.is_empty() || pages.iter().any(|p| p.only_nan) {
        return None;
    }
    let null_pages: Vec<bool> = pages.iter().map(|p| p.bounds.is_none()).collect();
    let empty: &[u8] = &[];
    let min_values = pages
        .iter()
        .map(|p| p.bounds.as_ref().map_or(empty, |b| &b.0[..]))
        .collect();
    let max_values = pages
        .iter()
        .map(|p| p.bounds.as_ref().map_or(empty, |b| &b.1[..]))
        .collect();
    let hist = |f: fn(&PageStats) -> &Vec<i64>| {
        (!f(&pages[0]).is_empty())
            .then(|| pages.iter().flat_map(|p| f(p).iter().copied()).collect())
    };
    Some(ColumnIndex {
        null_pages,
        min_values,
        max_values,
        boundary_order: boundary_order(order, physical, pages),
        null_counts: Some(pages.iter().map(|p| p.null_count as i64).collect()),
        repetition_level_histograms: hist(|p| &p.rep_histogram),
        definition_level_histograms: hist(|p| &p.def_histogram),
        nan_counts: None,
    })
}

/// ASCENDING when every non-null page's min and max are at least the previous page's,
/// DESCENDING when at most, else UNORDERED.
fn boundary_order(order: SortOrder, physical: Type, pages: &[PageStats]) -> BoundaryOrder {
    let bounds: Vec<(&[u8], &[u8])> = pages
        .iter()
        .filter_map(|p| p.bounds.as_ref().map(|(lo, hi)| (&lo[..], &hi[..])))
        .collect();
    boundary_order_of(order, physical, &bounds)
}

/// The boundary order of pages whose (min, max) are `bounds`, in page order (null pages left
/// out): ASCENDING when every page's min and max are at least the previous page's, DESCENDING
/// when at most, else UNORDERED.
pub fn boundary_order_of(
    order: SortOrder,
    physical: Type,
    bounds: &[(&[u8], &[u8])],
) -> BoundaryOrder {
    let cmp = |a: &[u8], b: &[u8]| compare(order, physical, a, b);
    let asc = bounds
        .windows(2)
        .all(|w| cmp(w[0].0, w[1].0).is_le() && cmp(w[0].1, w[1].1).is_le());
    if asc {
        return BoundaryOrder::ASCENDING;
    }
    let desc = bounds
        .windows(2)
        .all(|w| cmp(w[0].0, w[1].0).is_ge() && cmp(w[0].1, w[1].1).is_ge());
    if desc {
        BoundaryOrder::DESCENDING
    } else {
        BoundaryOrder::UNORDERED
    }
}

/// The first 8 bytes of `v` as a big-endian word (short values zero-padded): comparing two
/// heads orders the values unless the heads are equal.
///
/// Shorter values take no loop: 4 to 7 bytes are two overlapping 4-byte loads (the bytes they
/// share land on the same bits), 1 to 3 bytes the first, middle and last byte.
#[inline]
fn head(v: &[u8]) -> u64 {
    let n = v.len();
    if let Some(w) = v.first_chunk::<8>() {
        u64::from_be_bytes(*w)
    } else if n >= 4 {
        let first = u32::from_be_bytes([v[0], v[1], v[2], v[3]]);
        let last = u32::from_be_bytes([v[n - 4], v[n - 3], v[n - 2], v[n - 1]]);
        // `last`'s final byte is byte n - 1, which belongs at bit 64 - 8 n.
        (u64::from(first) << 32) | (u64::from(last) << (64 - 8 * n))
    } else if n > 0 {
        let (a, b, c) = (v[0], v[n / 2], v[n - 1]);
        (u64::from(a) << 56) | (u64::from(b) << (56 - 8 * (n / 2))) | (u64::from(c) << (64 - 8 * n))
    } else {
        0
    }
}

/// `a < b` for two byte strings with equal [`head`]s, 8 bytes at a time through heads, without
/// a call to a byte comparison. Once the shorter string ends within the bytes compared, it is
/// a prefix of the longer (the padding zeros of its head matched the longer one's bytes), so
/// the lengths order them.
#[inline]
fn tied_less(a: &[u8], b: &[u8]) -> bool {
    let shorter = a.len().min(b.len());
    let mut at = 8;
    while shorter > at {
        let (x, y) = (head(&a[at..]), head(&b[at..]));
        if x != y {
            return x < y;
        }
        at += 8;
    }
    a.len() < b.len()
}

/// The least and greatest byte strings seen (unsigned lexicographic order), with their heads
/// so that most comparisons are one integer comparison.
#[derive(Debug, Default)]
pub struct LexBounds<'a> {
    bounds: Option<(Headed<'a>, Headed<'a>)>,
}

/// A byte string and its [`head`].
type Headed<'a> = (&'a [u8], u64);

impl<'a> LexBounds<'a> {
    /// Takes `v` into the bounds.
    #[inline(always)]
    pub fn see(&mut self, v: &'a [u8]) {
        let h = head(v);
        match &mut self.bounds {
            None => self.bounds = Some(((v, h), (v, h))),
            Some((lo, hi)) => {
                if h < lo.1 || (h == lo.1 && tied_less(v, lo.0)) {
                    *lo = (v, h);
                } else if h > hi.1 || (h == hi.1 && tied_less(hi.0, v)) {
                    *hi = (v, h);
                }
            }
        }
    }

    /// The least and greatest values seen (`None` before the first).
    pub fn get(&self) -> Option<(&'a [u8], &'a [u8])> {
        self.bounds.map(|(lo, hi)| (lo.0, hi.0))
    }
}

/// Which dictionary entries the values of one batch have reached, so that the batch's
/// [`LexBounds`] see each distinct value once: a low-cardinality column's values then cost
/// one load and compare each instead of a bounds comparison.
#[derive(Debug, Default)]
pub struct SeenEntries {
    /// The batch that last saw each entry.
    stamps: Vec<u32>,
    batch: u32,
}

impl SeenEntries {
    /// Starts a batch over a dictionary of at most `entries` entries once it is done.
    pub fn start(&mut self, entries: usize) {
        self.batch = self.batch.wrapping_add(1);
        if self.batch == 0 {
            self.stamps.fill(0);
            self.batch = 1;
        }
        if self.stamps.len() < entries {
            self.stamps.resize(entries, 0);
        }
    }

    /// Whether entry `i` is seen for the first time in this batch (it is seen now).
    ///
    /// # Panics
    /// If `i` is not below the `entries` of [`SeenEntries::start`].
    #[inline]
    pub fn first(&mut self, i: u32) -> bool {
        let stamp = &mut self.stamps[i as usize];
        let first = *stamp != self.batch;
        *stamp = self.batch;
        first
    }
}

#[cfg(test)]
mod lex_tests {
    use super::{LexBounds, head};

    /// `head` is the first 8 bytes, big-endian, zero-padded, for every length (the loads of
    /// short values overlap differently at each length).
    #[test]
    fn head_is_the_zero_padded_big_endian_prefix() {
        let noise = crate::encoding::test_util::noise(3, 13 * 50);
        for (case, bytes) in noise.chunks(13).enumerate() {
            for len in 0..=12 {
                let v = &bytes[..len];
                let mut padded = [0u8; 8];
                let n = len.min(8);
                padded[..n].copy_from_slice(&v[..n]);
                assert_eq!(head(v), u64::from_be_bytes(padded), "case {case}, {v:?}");
            }
        }
    }

    /// The bounds kept through heads are the naive minimum and maximum of byte strings made
    /// to tie on their heads: prefixes of each other, zero bytes, lengths around 8.
    #[test]
    fn lex_bounds_are_the_naive_min_and_max() {
        let noise = crate::encoding::test_util::noise(11, 12000);
        let alphabet = [0u8, 1, b'a', 0xff];
        let values: Vec<Vec<u8>> = noise
            .chunks(12)
            .map(|c| {
                let len = (c[0] % 12) as usize;
                c[1..=len]
                    .iter()
                    .map(|b| alphabet[(b % 4) as usize])
                    .collect()
            })
            .collect();
        // Longer values that tie on one or more 8-byte heads: prefixes of three strings of 40
        // bytes, some with one byte changed.
        let bases: Vec<Vec<u8>> = noise[..120]
            .chunks(40)
            .map(|c| c.iter().map(|b| alphabet[(b % 2) as usize]).collect())
            .collect();
        let long: Vec<Vec<u8>> = noise[120..]
            .chunks(4)
            .map(|c| {
                let mut v = bases[(c[0] % 3) as usize][..(c[1] % 41) as usize].to_vec();
                if !v.is_empty() && c[2] % 2 == 0 {
                    let at = c[3] as usize % v.len();
                    v[at] = alphabet[(c[2] / 2 % 4) as usize];
                }
                v
            })
            .collect();
        let values: Vec<Vec<u8>> = values.into_iter().chain(long).collect();
        for window in values.chunks(37) {
            let mut bounds = LexBounds::default();
            for v in window {
                bounds.see(v);
            }
            let (lo, hi) = bounds.get().unwrap();
            assert_eq!(lo, window.iter().min().unwrap().as_slice());
            assert_eq!(hi, window.iter().max().unwrap().as_slice());
        }
    }
}

#[cfg(test)]
mod decimal_tests {
    use super::*;

    /// The bounds of contiguous fixed-size decimals (each width from 1 to 20 bytes: the 64-bit,
    /// 128-bit and byte-by-byte loops) are those of the naive comparison of every value, and
    /// the same through the per-value fold.
    #[test]
    fn fixed_decimal_bounds_are_the_naive_min_and_max() {
        let noise = crate::encoding::test_util::noise(5, 3 * 20 * 20);
        for width in 1..=20 {
            for (case, values) in noise.chunks(20 * width).take(3).enumerate() {
                let values = &values[..values.len() / width * width];
                let mut naive = MinMax::default();
                fold_bytes(
                    &mut naive,
                    SortOrder::Decimal,
                    Type::FIXED_LEN_BYTE_ARRAY,
                    values.chunks_exact(width),
                );
                let mut fast = MinMax::default();
                fold_fixed_decimals(&mut fast, Type::FIXED_LEN_BYTE_ARRAY, values, width);
                assert_eq!(fast, naive, "width {width}, case {case}");
                let mut each = MinMax::default();
                fold_decimals(&mut each, Type::FIXED_LEN_BYTE_ARRAY, |see| {
                    values.chunks_exact(width).for_each(see)
                });
                assert_eq!(each, naive, "width {width}, case {case}");
                // Both signs appear in these bytes, so the bounds differ in sign.
                let (lo, hi) = naive.bounds.unwrap();
                assert!(lo[0] & 0x80 != 0 && hi[0] & 0x80 == 0, "width {width}");
            }
        }
    }
}
