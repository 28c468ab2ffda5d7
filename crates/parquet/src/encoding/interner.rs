//! Dictionaries being built: hash tables mapping values to dense `u32` indices in insertion
//! order, as a dictionary page and its RLE-encoded indices need them.
//!
//! The values are stored once, in insertion order ([`FixedInterner`]: a `Vec<T>`;
//! [`BytesInterner`]: one byte buffer and its offsets, no allocation per value). Values are
//! compared by their bits: pass floats as their bit patterns (`f64::to_bits`), so NaN payloads
//! and -0.0/0.0 stay distinct, as Parquet's PLAIN dictionary stores them.
//!
//! Both are built for the writer's hot loop (one lookup per value written):
//! - [`FixedInterner`] is a [`hashbrown::HashTable`] of indices. Its one-byte control array
//!   keeps probes in cache for the large dictionaries of high-cardinality columns (up to the
//!   writer's 1 MiB limit: 131,072 `u64`s), where a table holding the values in its slots
//!   (tried: 16 bytes a slot, half full) missed the cache on most lookups and was no faster.
//!   Integers of a narrow range (dates, small keys, codes, decimals of few distinct values:
//!   a batch whose values span at most [`DENSE_SPAN`]) are looked up in a direct map instead,
//!   an array indexed by the value less the range's base: one load per value, no hashing.
//! - [`BytesInterner`] is its own open-addressed table (linear probing, at most half full)
//!   whose slot holds the index and 32 bits of the hash. Values of at most 16 bytes are also
//!   kept as two words read from their first and last 8 bytes (exact, given the length), so
//!   they are hashed and compared with a few word operations instead of a byte loop and a
//!   `memcmp` call (lineitem's short strings: ~10% of a Snappy write's time before).
//!   Its hashes are folded multiplications (the product's two halves xor-ed) keyed by a seed
//!   drawn per dictionary from the standard library's random hasher keys, so input crafted to
//!   collide cannot be prepared in advance. The indices, and so the files written, do not
//!   depend on the seed.

use hashbrown::hash_table::Entry;
use hashbrown::{DefaultHashBuilder, HashTable};
use std::hash::{BuildHasher, Hash};

/// A multiplier with well-spread bits (the golden ratio's fraction).
const K0: u64 = 0x9e37_79b9_7f4a_7c15;
/// A second one (from splitmix64).
const K1: u64 = 0xbf58_476d_1ce4_e5b9;

/// The 128-bit product of `a` and `b`, its halves xor-ed.
#[inline(always)]
fn fold_mul(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

/// A seed for one dictionary's hashes, from the standard library's per-process random keys.
fn random_seed() -> u64 {
    std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64)
}

/// The smallest table (a power of two) holding `entries` at most half full.
fn table_len(entries: usize) -> usize {
    entries.saturating_mul(2).max(1024).next_power_of_two()
}

/// A fixed-width value a [`FixedInterner`] holds: its bits, and for integers of up to 64 bits
/// their value, so that a narrow range of them can be looked up directly.
pub trait FixedValue: bytemuck::Pod + Eq + Hash {
    /// Whether [`FixedValue::key`] is the value (integers of at most 64 bits).
    const DIRECT: bool;
    /// The value as a signed integer (bits of 32 read as `i32`); 0 unless [`Self::DIRECT`].
    fn key(self) -> i64;
}

impl FixedValue for u32 {
    const DIRECT: bool = true;
    #[inline(always)]
    fn key(self) -> i64 {
        i64::from(self as i32)
    }
}

impl FixedValue for u64 {
    const DIRECT: bool = true;
    #[inline(always)]
    fn key(self) -> i64 {
        self as i64
    }
}

impl FixedValue for u128 {
    const DIRECT: bool = false;
    fn key(self) -> i64 {
        0
    }
}

impl<const N: usize> FixedValue for [u8; N]
where
    [u8; N]: bytemuck::Pod,
{
    const DIRECT: bool = false;
    fn key(self) -> i64 {
        0
    }
}

/// The widest range of integers [`FixedInterner::intern_all`] looks up in a direct map (a map
/// of `u32`s: 256 KiB at most, within a core's L2 cache).
pub const DENSE_SPAN: u64 = 1 << 16;

/// Batches shorter than this are interned through the hash table alone (the range scan and a
/// possible rebuild of the direct map would not pay).
const DENSE_MIN_BATCH: usize = 64;

/// A dictionary of fixed-width values (`u32`, `u64`, `u128` for INT96, `[u8; N]`): the bits
/// of a physical value, compared and hashed as such.
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
    /// Indices of `values[..hashed]` (values interned through the direct map join the table
    /// when a lookup next needs it).
    table: HashTable<u32>,
    hashed: usize,
    hasher: DefaultHashBuilder,
    /// The direct map of the keys `base..base + dense.len()`: index + 1 of each one interned,
    /// 0 for the others (every interned value in the range is in it).
    dense: Vec<u32>,
    base: i64,
}

impl<T: FixedValue> Default for FixedInterner<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: FixedValue> FixedInterner<T> {
    /// An empty dictionary.
    pub fn new() -> Self {
        FixedInterner {
            values: Vec::new(),
            table: HashTable::new(),
            hashed: 0,
            hasher: DefaultHashBuilder::default(),
            dense: Vec::new(),
            base: 0,
        }
    }

    /// The index of `v`, inserted at the end when new.
    ///
    /// # Panics
    /// When the dictionary already holds 2³² - 1 values.
    #[inline]
    pub fn intern(&mut self, v: T) -> u32 {
        if self.hashed < self.values.len() {
            self.catch_up();
        }
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
                self.hashed += 1;
                if let Some(slot) = self.dense_slot(v) {
                    self.dense[slot] = i + 1;
                }
                i
            }
        }
    }

    /// Adds the values interned through the direct map to the hash table.
    #[cold]
    fn catch_up(&mut self) {
        let (values, hasher) = (&self.values, &self.hasher);
        for (i, &v) in values.iter().enumerate().skip(self.hashed) {
            let hash = hasher.hash_one(v);
            self.table
                .insert_unique(hash, i as u32, |&j| hasher.hash_one(values[j as usize]));
        }
        self.hashed = self.values.len();
    }

    /// `v`'s slot in the direct map, if the map covers it.
    #[inline(always)]
    fn dense_slot(&self, v: T) -> Option<usize> {
        if !T::DIRECT {
            return None;
        }
        let at = v.key().wrapping_sub(self.base) as u64;
        (at < self.dense.len() as u64).then_some(at as usize)
    }

    /// Interns every value of `values`, appending their indices to `out`. Runs of equal values
    /// look the table up once; a batch of integers within [`DENSE_SPAN`] of each other (and
    /// of the values in the direct map) is looked up in the direct map.
    pub fn intern_all(&mut self, values: &[T], out: &mut Vec<u32>) {
        let Some(&first) = values.first() else {
            return;
        };
        if T::DIRECT && values.len() >= DENSE_MIN_BATCH {
            let (lo, hi) = values.iter().fold((i64::MAX, i64::MIN), |(lo, hi), &v| {
                (lo.min(v.key()), hi.max(v.key()))
            });
            if self.cover(lo, hi) {
                self.intern_dense(values, out);
                return;
            }
        }
        let (mut last, mut last_index) = (first, self.intern(first));
        out.extend(values.iter().map(|&v| {
            if v != last {
                (last, last_index) = (v, self.intern(v));
            }
            last_index
        }));
    }

    /// Whether the direct map covers the keys `lo..=hi`, after widening it if need be (to at
    /// most [`DENSE_SPAN`] keys).
    fn cover(&mut self, lo: i64, hi: i64) -> bool {
        let end = self.base as i128 + self.dense.len() as i128;
        if !self.dense.is_empty() && i128::from(lo) >= i128::from(self.base) && i128::from(hi) < end
        {
            return true;
        }
        // The new range also covers the old one, so that values looked up there stay there.
        let (lo, hi) = if self.dense.is_empty() {
            (i128::from(lo), i128::from(hi))
        } else {
            (
                i128::from(lo).min(i128::from(self.base)),
                i128::from(hi).max(end - 1),
            )
        };
        let span = hi - lo + 1;
        if span > DENSE_SPAN as i128 {
            return false;
        }
        // Room to grow by half on each side, within the limit and the keys' range.
        let len = (span * 2).min(DENSE_SPAN as i128);
        let base = (lo - (len - span) / 2).max(i128::from(i64::MIN));
        let base = base.min(i128::from(i64::MAX) - len + 1);
        self.rebuild_dense(base as i64, len as usize);
        true
    }

    /// A direct map of `len` keys from `base`, holding every interned value in it.
    #[cold]
    fn rebuild_dense(&mut self, base: i64, len: usize) {
        self.base = base;
        self.dense.clear();
        self.dense.resize(len, 0);
        for (i, &v) in self.values.iter().enumerate() {
            if let Some(slot) = self.dense_slot(v) {
                self.dense[slot] = i as u32 + 1;
            }
        }
    }

    /// [`FixedInterner::intern_all`] through the direct map, which covers every value.
    fn intern_dense(&mut self, values: &[T], out: &mut Vec<u32>) {
        let (base, dense, stored) = (self.base, &mut self.dense[..], &mut self.values);
        out.extend(values.iter().map(|&v| {
            let slot = &mut dense[v.key().wrapping_sub(base) as usize];
            if *slot == 0 {
                *slot = index(stored.len()) + 1;
                stored.push(v);
            }
            *slot - 1
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
        let pending = values.len() - self.hashed;
        self.table.reserve(additional + pending, |&i| {
            hasher.hash_one(values[i as usize])
        });
        self.values.reserve(additional);
    }

    /// Keeps the first `len` values, forgetting the rest.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.values.len() {
            return;
        }
        for i in len..self.values.len() {
            if let Some(slot) = self.dense_slot(self.values[i]) {
                self.dense[slot] = 0;
            }
        }
        if self.hashed > len {
            self.table.retain(|i| (*i as usize) < len);
            self.hashed = len;
        }
        self.values.truncate(len);
    }

    /// Empties the dictionary, keeping its memory (and the direct map's range).
    pub fn clear(&mut self) {
        self.values.clear();
        self.table.clear();
        self.hashed = 0;
        self.dense.fill(0);
    }
}

/// A value of at most 16 bytes as two words: its bytes zero-padded to 16, little-endian.
/// Given the length, the two words are the value. Built from the value's first and last 8
/// bytes (shorter ones: 4, or single bytes), overlapping where it is shorter than 16.
#[inline(always)]
fn short_key(v: &[u8]) -> [u64; 2] {
    let n = v.len();
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&v[at..at + 8]);
        u64::from_le_bytes(w)
    };
    let half = |at: usize| {
        let mut w = [0u8; 4];
        w.copy_from_slice(&v[at..at + 4]);
        u64::from(u32::from_le_bytes(w))
    };
    match n {
        // Bytes 8.. are the last word's last n - 8 bytes.
        9.. => [word(0), word(n - 8) >> (8 * (16 - n))],
        8 => [word(0), 0],
        // The two halves overlap where n < 8; their common bytes are the same.
        4.. => [half(0) | half(n - 4) << (8 * (n - 4)), 0],
        1.. => [
            u64::from(v[0])
                | u64::from(v[n / 2]) << (8 * (n / 2))
                | u64::from(v[n - 1]) << (8 * (n - 1)),
            0,
        ],
        0 => [0, 0],
    }
}

/// The [`short_key`] of the `n <= 16` bytes at `data[at..]`, from two 8-byte loads masked to
/// the value's bytes, without a branch on the length: `data` must hold 16 bytes from `at`.
#[inline(always)]
fn short_key_in(data: &[u8], at: usize, n: usize) -> [u64; 2] {
    debug_assert!(n <= 16);
    let mut w = [0u8; 16];
    w.copy_from_slice(&data[at..at + 16]);
    let [a, b] = [
        u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]),
        u64::from_le_bytes([w[8], w[9], w[10], w[11], w[12], w[13], w[14], w[15]]),
    ];
    let mask = |k: usize| {
        if k >= 8 {
            u64::MAX
        } else {
            (1u64 << (8 * k)) - 1
        }
    };
    [a & mask(n), b & mask(n.saturating_sub(8))]
}

/// The hash of a byte value (`key`: its [`short_key`], for one of at most 16 bytes).
#[inline(always)]
fn hash_bytes(v: &[u8], key: [u64; 2], seed: u64) -> u64 {
    let len = v.len() as u64;
    if v.len() <= 16 {
        return fold_mul(key[0] ^ seed, key[1] ^ K1 ^ len.wrapping_mul(K0));
    }
    let mut h = seed ^ len.wrapping_mul(K0);
    let mut chunks = v.chunks_exact(16);
    for c in &mut chunks {
        let [a, b] = short_key(c);
        h = fold_mul(a ^ h, b ^ K1);
    }
    // The last 16 bytes (overlapping the chunks when the length is not a multiple of 16).
    let [a, b] = short_key(&v[v.len() - 16..]);
    fold_mul(a ^ h, b ^ K1)
}

/// Slots from which a [`BytesInterner`]'s table (8 bytes a slot) outgrows the caches near
/// the core, and batches fetch slots ahead.
const PREFETCH_SLOTS: usize = 1 << 15;
/// How many values ahead a batch fetches slots.
const AHEAD: usize = 8;

/// Asks for the cache line of `v` (a hint: nothing is read).
#[inline(always)]
fn prefetch<T>(v: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch reads nothing and cannot fault; the address is a reference's.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(v).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = v;
}

/// A [`BytesInterner`] slot: index + 1 (0: empty) and its value's [`tag`].
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    id: u32,
    tag: u32,
}

/// A value's tag in its slot: 27 bits of its hash and its length up to 31, so that for values
/// of at most 16 bytes equal tags mean equal lengths and the two-word keys decide.
#[inline(always)]
fn tag(hash: u64, len: usize) -> u32 {
    ((hash >> 32) as u32 & !31) | len.min(31) as u32
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
    /// Each value's [`short_key`] when it is at most 16 bytes long (unused otherwise).
    keys: Vec<[u64; 2]>,
    /// A power of two long (or empty), at most half full.
    slots: Vec<Slot>,
    seed: u64,
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
            keys: Vec::new(),
            slots: Vec::new(),
            seed: random_seed(),
        }
    }

    /// The index of `v`, inserted at the end when new.
    ///
    /// # Panics
    /// When the dictionary already holds 2³² - 1 values.
    #[inline]
    pub fn intern(&mut self, v: &[u8]) -> u32 {
        let key = if v.len() <= 16 { short_key(v) } else { [0, 0] };
        self.intern_keyed(v, key)
    }

    /// Interns the values between consecutive `offsets` into `data` (Arrow's 32-bit offsets,
    /// valid for `data`), calling `each` with each one's index and bytes, in order.
    ///
    /// # Panics
    /// If an offset is negative, out of `data` or less than the one before; when the
    /// dictionary already holds 2³² - 1 values.
    #[inline]
    pub fn intern_offsets<'d>(
        &mut self,
        data: &'d [u8],
        offsets: &[i32],
        mut each: impl FnMut(u32, &'d [u8]),
    ) {
        let span = |j: usize| (offsets[j] as usize, offsets[j + 1] as usize);
        let n = offsets.len().saturating_sub(1);
        self.intern_spans(data, n, span, |k, s, e| each(k, &data[s..e]));
    }

    /// Interns the values at `positions` of Arrow's 32-bit `offsets` into `data` (value `i` is
    /// `data[offsets[i]..offsets[i + 1]]`), calling `each` with each one's index and bytes,
    /// in order.
    ///
    /// # Panics
    /// As [`BytesInterner::intern_offsets`], and if a position is not below
    /// `offsets.len() - 1`.
    #[inline]
    pub fn intern_positions<'d>(
        &mut self,
        data: &'d [u8],
        offsets: &[i32],
        positions: &[u32],
        mut each: impl FnMut(u32, &'d [u8]),
    ) {
        let span = |j: usize| {
            let i = positions[j] as usize;
            (offsets[i] as usize, offsets[i + 1] as usize)
        };
        self.intern_spans(data, positions.len(), span, |k, s, e| each(k, &data[s..e]));
    }

    /// Interns `data[span(j)]` for `j` in `0..n`, calling `each` with each one's index and
    /// range. In a table larger than the caches near the core, each value's slot is fetched
    /// [`AHEAD`] values before it is probed (its hash computed then and kept), so that the
    /// cache misses of several values overlap.
    #[inline(always)]
    fn intern_spans(
        &mut self,
        data: &[u8],
        n: usize,
        span: impl Fn(usize) -> (usize, usize),
        mut each: impl FnMut(u32, usize, usize),
    ) {
        if self.slots.len() < PREFETCH_SLOTS || n < 2 * AHEAD {
            for j in 0..n {
                let (s, e) = span(j);
                each(self.intern_at(data, s, e), s, e);
            }
            return;
        }
        let mut ahead = [(0u64, [0u64; 2]); AHEAD];
        for (j, a) in ahead.iter_mut().enumerate() {
            let (s, e) = span(j);
            *a = self.hashed(data, s, e);
            self.prefetch(a.0);
        }
        for j in 0..n {
            let (s, e) = span(j);
            let (hash, key) = ahead[j % AHEAD];
            if j + AHEAD < n {
                let (s, e) = span(j + AHEAD);
                let next = self.hashed(data, s, e);
                self.prefetch(next.0);
                ahead[j % AHEAD] = next;
            }
            if j + AHEAD / 2 < n {
                // Half-way, the slot has come: fetch the key of the value it holds.
                self.prefetch_key(ahead[(j + AHEAD / 2) % AHEAD].0);
            }
            each(self.probe(&data[s..e], hash, key), s, e);
        }
    }

    /// The hash and [`short_key`] of `data[start..end]` (as [`BytesInterner::intern_at`] reads
    /// them).
    #[inline(always)]
    fn hashed(&self, data: &[u8], start: usize, end: usize) -> (u64, [u64; 2]) {
        let v = &data[start..end];
        let key = if v.len() > 16 {
            [0, 0]
        } else if start + 16 <= data.len() {
            short_key_in(data, start, v.len())
        } else {
            short_key(v)
        };
        (hash_bytes(v, key, self.seed), key)
    }

    /// Asks for the cache line of the slot where a probe for `hash` starts.
    #[inline(always)]
    fn prefetch(&self, hash: u64) {
        prefetch(&self.slots[hash as usize & (self.slots.len() - 1)]);
    }

    /// Asks for the cache line of the key of the value in the slot where a probe for `hash`
    /// starts, if any.
    #[inline(always)]
    fn prefetch_key(&self, hash: u64) {
        let slot = self.slots[hash as usize & (self.slots.len() - 1)];
        if let Some(key) = self.keys.get(slot.id.wrapping_sub(1) as usize) {
            prefetch(key);
        }
    }

    /// The index of `data[start..end]`, inserted at the end when new. A short value with 16
    /// bytes of `data` from its start is read by masked word loads; others (near the end of
    /// `data`) byte by byte.
    ///
    /// # Panics
    /// If `start..end` is not a range of `data`; when the dictionary already holds 2³² - 1
    /// values.
    #[inline(always)]
    pub fn intern_at(&mut self, data: &[u8], start: usize, end: usize) -> u32 {
        let (hash, key) = self.hashed(data, start, end);
        self.probe(&data[start..end], hash, key)
    }

    /// [`BytesInterner::intern`] of `v` and its [`short_key`] (`[0, 0]` when longer than 16).
    #[inline(always)]
    fn intern_keyed(&mut self, v: &[u8], key: [u64; 2]) -> u32 {
        let hash = hash_bytes(v, key, self.seed);
        self.probe(v, hash, key)
    }

    /// The index of `v` (its hash and key), inserted at the end when new.
    #[inline(always)]
    fn probe(&mut self, v: &[u8], hash: u64, key: [u64; 2]) -> u32 {
        if (self.hashes.len() + 1) * 2 > self.slots.len() {
            self.grow(self.hashes.len() + 1);
        }
        let short = v.len() <= 16;
        let tag = tag(hash, v.len());
        let mask = self.slots.len() - 1;
        let mut at = hash as usize & mask;
        loop {
            let slot = self.slots[at];
            if slot.id == 0 {
                return self.insert(at, v, hash, key);
            }
            if slot.tag == tag {
                let i = (slot.id - 1) as usize;
                let same = if short {
                    // The tag holds the length.
                    self.keys[i] == key
                } else {
                    &self.data[self.offsets[i]..self.offsets[i + 1]] == v
                };
                if same {
                    return slot.id - 1;
                }
            }
            at = (at + 1) & mask;
        }
    }

    /// Adds `v` (its hash and key) in the empty slot `at`.
    #[inline(never)]
    fn insert(&mut self, at: usize, v: &[u8], hash: u64, key: [u64; 2]) -> u32 {
        let i = index(self.hashes.len());
        self.slots[at] = Slot {
            id: i + 1,
            tag: tag(hash, v.len()),
        };
        self.data.extend_from_slice(v);
        self.offsets.push(self.data.len());
        self.hashes.push(hash);
        self.keys.push(key);
        i
    }

    /// A table for `entries` values, the current ones placed in it.
    #[cold]
    fn grow(&mut self, entries: usize) {
        let len = table_len(entries);
        if len <= self.slots.len() {
            return;
        }
        self.slots = vec![Slot::default(); len];
        self.place_all();
    }

    /// Places every value in the (empty) table.
    fn place_all(&mut self) {
        let mask = self.slots.len() - 1;
        for (i, &hash) in self.hashes.iter().enumerate() {
            let mut at = hash as usize & mask;
            while self.slots[at].id != 0 {
                at = (at + 1) & mask;
            }
            self.slots[at] = Slot {
                id: i as u32 + 1,
                tag: tag(hash, self.offsets[i + 1] - self.offsets[i]),
            };
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
        self.grow(self.hashes.len().saturating_add(additional));
        self.hashes.reserve(additional);
        self.keys.reserve(additional);
        self.offsets.reserve(additional);
        self.data.reserve(bytes);
    }

    /// Keeps the first `len` values, forgetting the rest.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len() {
            return;
        }
        self.data.truncate(self.offsets[len]);
        self.offsets.truncate(len + 1);
        self.hashes.truncate(len);
        self.keys.truncate(len);
        self.slots.fill(Slot::default());
        self.place_all();
    }

    /// Empties the dictionary, keeping its memory.
    pub fn clear(&mut self) {
        self.data.clear();
        self.offsets.truncate(1);
        self.hashes.clear();
        self.keys.clear();
        self.slots.fill(Slot::default());
    }
}

/// The most entries a dictionary being written may hold: dictionary indices are `i32` to
/// readers (Parquet's Java and C++ readers index dictionaries with `int`). The writer and the
/// merge fall back to PLAIN before interning what could take a dictionary past it, so the
/// `u32` indices of [`FixedInterner`] and [`BytesInterner`] never overflow through them.
pub const MAX_ENTRIES: usize = i32::MAX as usize;

fn index(len: usize) -> u32 {
    // The slots hold index + 1, so 2^32 - 1 entries are the most.
    let fits = u32::try_from(len).ok().filter(|&i| i < u32::MAX);
    fits.expect("a dictionary of 2^32 - 1 values or more") // ok: a documented panic of `intern`; quiver's writers stop at MAX_ENTRIES
}

#[cfg(test)]
mod tests;
