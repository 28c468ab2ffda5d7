//! Dictionaries being built: hash tables mapping values to dense `u32` indices in insertion
//! order, as a dictionary page and its RLE-encoded indices need them.
//!
//! The tables hold indices only ([`hashbrown::HashTable`]); the values are stored once, in
//! insertion order ([`FixedInterner`]: a `Vec<T>`; [`BytesInterner`]: one byte buffer and its
//! offsets, no allocation per value). Values are compared by their bits: pass floats as their
//! bit patterns (`f64::to_bits`), so NaN payloads and -0.0/0.0 stay distinct, as Parquet's
//! PLAIN dictionary stores them.

use hashbrown::hash_table::Entry;
use hashbrown::{DefaultHashBuilder, HashTable};
use std::hash::{BuildHasher, Hash};

/// A dictionary of fixed-width values (`u32`, `u64`, `u128` for INT96, `[u8; N]`, …): the
/// bits of a physical value, compared and hashed as such.
///
/// ```
/// use quiver_parquet::encoding::interner::FixedInterner;
/// let mut d = FixedInterner::<u64>::new();
/// let mut idx = vec![];
/// d.intern_all(&[0.5f64, -0.0, 0.5, 0.0].map(f64::to_bits), &mut idx);
/// assert_eq!(idx, [0, 1, 0, 2]);
/// assert_eq!(d.values(), [0.5f64, -0.0, 0.0].map(f64::to_bits));
/// ```
#[derive(Debug, Clone)]
pub struct FixedInterner<T> {
    values: Vec<T>,
    table: HashTable<u32>,
    hasher: DefaultHashBuilder,
}

impl<T: bytemuck::Pod + Eq + Hash> Default for FixedInterner<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: bytemuck::Pod + Eq + Hash> FixedInterner<T> {
    /// An empty dictionary.
    pub fn new() -> Self {
        FixedInterner {
            values: Vec::new(),
            table: HashTable::new(),
            hasher: DefaultHashBuilder::default(),
        }
    }

    /// The index of `v`, inserted at the end when new.
    ///
    /// # Panics
    /// When the dictionary already holds 2³² values.
    #[inline]
    pub fn intern(&mut self, v: T) -> u32 {
        let hash = self.hasher.hash_one(v);
        let (values, hasher) = (&self.values, &self.hasher);
        let entry = self.table.entry(
            hash,
            |&i| values[i as usize] == v,
            |&i| hasher.hash_one(values[i as usize]),
        );
        match entry {
            Entry::Occupied(e) => *e.get(),
            Entry::Vacant(e) => {
                let i = index(self.values.len());
                e.insert(i);
                self.values.push(v);
                i
            }
        }
    }

    /// Interns every value of `values`, appending their indices to `out`. Runs of equal values
    /// look the table up once.
    pub fn intern_all(&mut self, values: &[T], out: &mut Vec<u32>) {
        let Some(&first) = values.first() else {
            return;
        };
        let (mut last, mut last_index) = (first, self.intern(first));
        out.extend(values.iter().map(|&v| {
            if v != last {
                (last, last_index) = (v, self.intern(v));
            }
            last_index
        }));
    }

    /// The values, in insertion order (index `i` is `values()[i]`).
    pub fn values(&self) -> &[T] {
        &self.values
    }

    /// The number of distinct values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no value was interned.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Room for `additional` more values without growing the table.
    pub fn reserve(&mut self, additional: usize) {
        let (values, hasher) = (&self.values, &self.hasher);
        self.table
            .reserve(additional, |&i| hasher.hash_one(values[i as usize]));
        self.values.reserve(additional);
    }

    /// Keeps the first `len` values, forgetting the rest.
    pub fn truncate(&mut self, len: usize) {
        if len < self.values.len() {
            self.table.retain(|i| (*i as usize) < len);
            self.values.truncate(len);
        }
    }

    /// Empties the dictionary, keeping its memory.
    pub fn clear(&mut self) {
        self.values.clear();
        self.table.clear();
    }
}

/// A dictionary of byte arrays (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values), stored back to
/// back in one buffer.
///
/// ```
/// use quiver_parquet::encoding::interner::BytesInterner;
/// let mut d = BytesInterner::new();
/// assert_eq!(d.intern(b"b"), 0);
/// assert_eq!(d.intern(b""), 1);
/// assert_eq!(d.intern(b"b"), 0);
/// assert_eq!((d.len(), d.data_len(), d.get(0)), (2, 1, &b"b"[..]));
/// ```
#[derive(Debug, Clone)]
pub struct BytesInterner {
    data: Vec<u8>,
    /// Value `i` is `data[offsets[i]..offsets[i + 1]]`.
    offsets: Vec<usize>,
    /// Each value's hash, so growing the table hashes nothing again.
    hashes: Vec<u64>,
    table: HashTable<u32>,
    hasher: DefaultHashBuilder,
}

impl Default for BytesInterner {
    fn default() -> Self {
        Self::new()
    }
}

impl BytesInterner {
    /// An empty dictionary.
    pub fn new() -> Self {
        BytesInterner {
            data: Vec::new(),
            offsets: vec![0],
            hashes: Vec::new(),
            table: HashTable::new(),
            hasher: DefaultHashBuilder::default(),
        }
    }

    /// The index of `v`, inserted at the end when new.
    ///
    /// # Panics
    /// When the dictionary already holds 2³² values.
    #[inline]
    pub fn intern(&mut self, v: &[u8]) -> u32 {
        let hash = self.hasher.hash_one(v);
        let (data, offsets, hashes) = (&self.data, &self.offsets, &self.hashes);
        let entry = self.table.entry(
            hash,
            |&i| {
                let i = i as usize;
                &data[offsets[i]..offsets[i + 1]] == v
            },
            |&i| hashes[i as usize],
        );
        match entry {
            Entry::Occupied(e) => *e.get(),
            Entry::Vacant(e) => {
                let i = index(self.hashes.len());
                e.insert(i);
                self.data.extend_from_slice(v);
                self.offsets.push(self.data.len());
                self.hashes.push(hash);
                i
            }
        }
    }

    /// Interns every value of `values`, appending their indices to `out`. (Unlike
    /// [`FixedInterner::intern_all`] there is no shortcut for runs: comparing each value with the
    /// one before costs more than it saves on short strings in random order.)
    pub fn intern_all<'v>(
        &mut self,
        values: impl IntoIterator<Item = &'v [u8]>,
        out: &mut Vec<u32>,
    ) {
        out.extend(values.into_iter().map(|v| self.intern(v)));
    }

    /// Value `i`.
    ///
    /// # Panics
    /// If `i >= len()`.
    pub fn get(&self, i: u32) -> &[u8] {
        let i = i as usize;
        &self.data[self.offsets[i]..self.offsets[i + 1]]
    }

    /// The values in insertion order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        self.offsets.windows(2).map(|w| &self.data[w[0]..w[1]])
    }

    /// The values' bytes back to back (for FIXED_LEN_BYTE_ARRAY values: their PLAIN encoding).
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The number of distinct values.
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// Whether no value was interned.
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// The total bytes of the values.
    pub fn data_len(&self) -> usize {
        self.data.len()
    }

    /// Room for `additional` more values (of `bytes` bytes in all) without growing.
    pub fn reserve(&mut self, additional: usize, bytes: usize) {
        let hashes = &self.hashes;
        self.table.reserve(additional, |&i| hashes[i as usize]);
        self.hashes.reserve(additional);
        self.offsets.reserve(additional);
        self.data.reserve(bytes);
    }

    /// Keeps the first `len` values, forgetting the rest.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len() {
            return;
        }
        self.table.retain(|i| (*i as usize) < len);
        self.data.truncate(self.offsets[len]);
        self.offsets.truncate(len + 1);
        self.hashes.truncate(len);
    }

    /// Empties the dictionary, keeping its memory.
    pub fn clear(&mut self) {
        self.data.clear();
        self.offsets.truncate(1);
        self.hashes.clear();
        self.table.clear();
    }
}

/// The most entries a dictionary being written may hold: dictionary indices are `i32` to
/// readers (Parquet's Java and C++ readers index dictionaries with `int`). The writer and the
/// merge fall back to PLAIN before interning what could take a dictionary past it, so the
/// `u32` indices of [`FixedInterner`] and [`BytesInterner`] never overflow through them.
pub const MAX_ENTRIES: usize = i32::MAX as usize;

fn index(len: usize) -> u32 {
    // ok: a documented panic of `intern` (2^32 entries); quiver's writers stop at MAX_ENTRIES
    u32::try_from(len).expect("a dictionary of more than 2^32 values")
}

#[cfg(test)]
mod tests;
