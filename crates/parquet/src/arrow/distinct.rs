//! Exact distinct counts of column chunks (`Statistics.distinct_count`, written on request)
//! for chunks whose every data page is dictionary-encoded: the chunk's distinct non-null values
//! are the dictionary entries its pages use ([`UsedEntries`]), counted by value
//! ([`DistinctCounter`]).
//!
//! parquet.thrift says only "count of distinct values occurring". Here it is what SQL engines'
//! `COUNT(DISTINCT column)` gives for the chunk's rows (DuckDB's, Spark's): nulls are not values
//! (the null count is its own field); `-0.0` and `+0.0` are one value; every NaN (whatever its
//! sign and payload) is one value. The dictionary keeps floating-point values by their bits, so
//! that pages store each value exactly; its NaN and zero entries are folded here. Other values
//! are equal exactly when their PLAIN encodings are (integers, decimals, byte arrays), so each
//! entry is one value.

use super::physical::SortOrder;
use crate::format::Type;

/// The dictionary indices some page used: a bit per entry.
#[derive(Debug, Clone, Default)]
pub struct UsedEntries {
    words: Vec<u64>,
}

impl UsedEntries {
    /// Marks the entries at `indices`.
    pub fn mark(&mut self, indices: &[u32]) {
        for &i in indices {
            let (word, bit) = (i as usize / 64, i % 64);
            if word >= self.words.len() {
                self.words.resize(word + 1, 0);
            }
            self.words[word] |= 1 << bit;
        }
    }

    /// Whether entry `i` was marked.
    pub fn contains(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }
}

/// Counts distinct values among dictionary entries (each entry a different bit pattern).
#[derive(Debug, Clone, Copy, Default)]
pub struct DistinctCounter {
    entries: u64,
    nans: u64,
    zeros: u64,
}

impl DistinctCounter {
    /// Sees one entry: its PLAIN encoding (a byte array without its length) in a leaf of this
    /// physical type and sort order.
    pub fn see(&mut self, physical: Type, order: SortOrder, plain: &[u8]) {
        self.entries += 1;
        let (nan, zero) = match (physical, order) {
            (Type::FLOAT, _) => match plain.first_chunk::<4>() {
                Some(b) => {
                    let v = f32::from_le_bytes(*b);
                    (v.is_nan(), v == 0.0)
                }
                None => (false, false),
            },
            (Type::DOUBLE, _) => match plain.first_chunk::<8>() {
                Some(b) => {
                    let v = f64::from_le_bytes(*b);
                    (v.is_nan(), v == 0.0)
                }
                None => (false, false),
            },
            (_, SortOrder::Float16) => match plain.first_chunk::<2>() {
                Some(b) => {
                    let bits = u16::from_le_bytes(*b);
                    let nan = bits & 0x7C00 == 0x7C00 && bits & 0x03FF != 0;
                    (nan, bits & 0x7FFF == 0)
                }
                None => (false, false),
            },
            _ => (false, false),
        };
        self.nans += u64::from(nan);
        self.zeros += u64::from(zero);
    }

    /// The distinct values seen: the NaN entries count as one, so do the two zeros.
    pub fn count(&self) -> u64 {
        self.entries - self.nans.saturating_sub(1) - self.zeros.saturating_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(physical: Type, order: SortOrder, entries: &[&[u8]]) -> u64 {
        let mut c = DistinctCounter::default();
        entries.iter().for_each(|e| c.see(physical, order, e));
        c.count()
    }

    #[test]
    fn floats_count_by_value() {
        let d = |v: f64| v.to_le_bytes();
        let quiet = f64::from_bits(0x7FF8_0000_0000_0001);
        let entries = [d(0.0), d(-0.0), d(f64::NAN), d(-f64::NAN), d(quiet), d(1.5)];
        let all: Vec<&[u8]> = entries.iter().map(|e| &e[..]).collect();
        // 0.0 and -0.0 one value, three NaNs one value, and 1.5.
        assert_eq!(count(Type::DOUBLE, SortOrder::Float, &all), 3);
        assert_eq!(count(Type::DOUBLE, SortOrder::Float, &all[2..3]), 1);
        assert_eq!(count(Type::DOUBLE, SortOrder::Float, &all[..1]), 1);
        assert_eq!(count(Type::DOUBLE, SortOrder::Float, &[]), 0);
        // The same bits as integers are six values.
        assert_eq!(count(Type::INT64, SortOrder::Signed, &all), 6);

        let f = |v: f32| v.to_le_bytes();
        let entries = [f(-0.0), f(0.0), f(f32::NAN), f(f32::INFINITY), f(-1.0)];
        let all: Vec<&[u8]> = entries.iter().map(|e| &e[..]).collect();
        assert_eq!(count(Type::FLOAT, SortOrder::Float, &all), 4);

        let h = |bits: u16| bits.to_le_bytes();
        // +0, -0, NaN, another NaN, -NaN, +inf (not NaN), 1.0.
        let entries = [
            h(0),
            h(0x8000),
            h(0x7E00),
            h(0x7C01),
            h(0xFE00),
            h(0x7C00),
            h(0x3C00),
        ];
        let all: Vec<&[u8]> = entries.iter().map(|e| &e[..]).collect();
        let fixed = Type::FIXED_LEN_BYTE_ARRAY;
        assert_eq!(count(fixed, SortOrder::Float16, &all), 4);
        assert_eq!(count(fixed, SortOrder::Bytes, &all), 7);
    }

    #[test]
    fn used_entries() {
        let mut u = UsedEntries::default();
        u.mark(&[3, 200, 3, 64]);
        let marked: Vec<usize> = (0..300).filter(|&i| u.contains(i)).collect();
        assert_eq!(marked, [3, 64, 200]);
        assert!(!UsedEntries::default().contains(0));
    }
}
