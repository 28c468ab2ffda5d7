//! Synthetic, deterministic data sets for `quiver generate` (benchmarks and tests).
//!
//! # Data sets
//! - **`lineitem`**: a TPC-H `lineitem`-like table. Its first 16 columns carry the TPC-H names
//!   and value rules (scale factor 1 key domains: 200,000 parts, 10,000 suppliers; 1–7 lines per
//!   order; dates between 1992-01-01 and 1998-12-31; flags and statuses derived from the dates
//!   against TPC-H's current date 1995-06-17):
//!   `l_orderkey`, `l_partkey`, `l_suppkey` int64; `l_linenumber` int32; `l_quantity`
//!   (1–50), `l_extendedprice` (quantity × the TPC-H retail price of the part), `l_discount`
//!   (0.00–0.10), `l_tax` (0.00–0.08) decimal128(15, 2); `l_returnflag` (R/A/N),
//!   `l_linestatus` (O/F) utf8; `l_shipdate`, `l_commitdate`, `l_receiptdate` date32;
//!   `l_shipinstruct` (4 values), `l_shipmode` (7 values) utf8; `l_comment` utf8 (high
//!   cardinality: a random substring of a fixed text of pseudo-random words, like TPC-H's
//!   text pool). TPC-H has no floating-point column, so a 17th column is appended:
//!   `l_weight` float64, the line's shipping weight in kg (quantity × a per-part unit weight).
//!   Exactly two columns have nulls, each with probability 5% per row, decided per row:
//!   `l_comment` and `l_weight`. Strings are plain utf8 (not dictionary-encoded), so the table
//!   is comparable with other tools.
//!   In memory (sum of buffer sizes) a row takes 167.2 bytes: 6,000,000 rows take 1.00 GB.
//!   The fixed-width columns and offsets alone take 150.5 bytes a row (0.90 GB for 6 M rows,
//!   with int64 keys, four decimal128 and the extra float64), so the comments are kept shorter
//!   than TPC-H's 10–43 characters to stay near the 0.9 GB of the reference table:
//!   [`COMMENT_MIN`]–[`COMMENT_MAX`] characters (10–43 would make it 176 bytes, 1.05 GB).
//! - **`nested`**: `id` int64 (non-null, the row number), `tags` list<utf8> (0–5 items),
//!   `points` list<struct<x: float64 (non-null), y: float64, label: utf8>> (0–4 items),
//!   `attributes` map<utf8, int64> (0–4 entries with distinct keys), and
//!   `profile` struct<name: utf8, age: int32, address: struct<city: utf8, zip: utf8>>. Nulls
//!   occur at every level: null lists and maps, null items in lists, null structs in lists,
//!   null struct fields, null map values (keys never), null top-level and nested structs; lists
//!   and maps are also empty. Children under a null slot still hold generated values.
//!
//! # Determinism
//! Every value is a function of `(data set, seed, global row number)` only: each row draws from
//! its own SplitMix64 stream seeded from the seed and the row number, and `lineitem` orders are
//! laid out in blocks of 64 rows seeded the same way. Batches therefore do not depend on each
//! other (any batch can be generated alone, in parallel with others), and the concatenated
//! table does not even depend on the batch size. No allocation happens per value: values are
//! appended straight into buffers sized up front, strings are copied from static tables.
//! Single-threaded (release build), 6 M `lineitem` rows take about 1.0 s and 2 M `nested`
//! rows about 0.5 s.

use quiver_arrow::buffer::{MutableBuffer, OffsetBuffer};
use quiver_arrow::{
    Array, Bitmap, Buffer, DataType, Error, Field, FieldRef, Fields, I128, ListArray, MapArray,
    PrimitiveArray, PrimitiveType, RecordBatch, Result, Schema, SchemaRef, StringArray,
    StructArray,
};
use std::marker::PhantomData;
use std::sync::{Arc, OnceLock};

/// The data sets `quiver generate` can produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Dataset {
    /// A TPC-H `lineitem`-like flat table (see the module documentation).
    Lineitem,
    /// Lists, structs and maps with nulls at every level (see the module documentation).
    Nested,
}

impl Dataset {
    /// The schema of every batch of this data set (built once, then shared).
    pub fn schema(&self) -> SchemaRef {
        static LINEITEM: OnceLock<SchemaRef> = OnceLock::new();
        static NESTED: OnceLock<SchemaRef> = OnceLock::new();
        match self {
            Dataset::Lineitem => LINEITEM.get_or_init(lineitem_schema).clone(),
            Dataset::Nested => NESTED.get_or_init(nested_schema).clone(),
        }
    }

    /// The data set's name as given on the command line.
    pub fn name(&self) -> &'static str {
        match self {
            Dataset::Lineitem => "lineitem",
            Dataset::Nested => "nested",
        }
    }

    /// Salt that separates the random streams of the data sets.
    fn salt(&self) -> u64 {
        match self {
            Dataset::Lineitem => 0x6c69_6e65_6974_656d,
            Dataset::Nested => 0x6e65_7374_6564_0000,
        }
    }
}

/// Generates one batch: rows `first_row .. first_row + rows_in_batch` of the data set.
///
/// Deterministic: the same `(dataset, seed, first_row, rows_in_batch)` always gives the same
/// batch, byte for byte, and the values of a row depend only on `(dataset, seed, row)`.
/// `batch_index` only labels errors. Fails when the row numbers exceed 2^62, the batch has
/// 2^31 rows or more, or a string column outgrows 32-bit offsets (from tens of millions of
/// rows in one batch).
pub fn generate_batch(
    dataset: Dataset,
    seed: u64,
    batch_index: usize,
    rows_in_batch: usize,
    first_row: u64,
) -> Result<RecordBatch> {
    let label = || format!("generating {} batch {batch_index}", dataset.name());
    let rows = RowRange::new(first_row, rows_in_batch).map_err(|e| e.context(label()))?;
    let key = mix64(seed ^ dataset.salt());
    let columns = match dataset {
        Dataset::Lineitem => lineitem_columns(key, rows),
        Dataset::Nested => nested_columns(key, rows),
    };
    columns
        .and_then(|c| RecordBatch::try_new(dataset.schema(), c))
        .map_err(|e| e.context(label()))
}

/// All batches of a `rows`-row table in `batch_size`-row chunks (the last may be shorter).
///
/// `rows == 0` gives no batch at all. A zero `batch_size` with `rows > 0` gives one error.
/// Each item is [`generate_batch`] of its index, so the batches can also be produced in
/// parallel by calling that function directly.
pub fn batches(
    dataset: Dataset,
    rows: u64,
    batch_size: usize,
    seed: u64,
) -> impl Iterator<Item = Result<RecordBatch>> {
    let step = batch_size as u64;
    let count = if step == 0 {
        u64::from(rows > 0)
    } else {
        rows.div_ceil(step)
    };
    (0..count).map(move |i| {
        if step == 0 {
            return Err(Error::invalid("the batch size must be positive"));
        }
        let first = i * step;
        let len = (rows - first).min(step) as usize;
        generate_batch(dataset, seed, i as usize, len, first)
    })
}

/// Global row numbers of one batch.
#[derive(Clone, Copy, Debug)]
struct RowRange {
    first: u64,
    len: usize,
}

impl RowRange {
    /// Rows beyond 2^62 are refused so that keys computed from them fit `i64`, and batches of
    /// 2^31 rows or more because 32-bit offsets could not address their children.
    fn new(first: u64, len: usize) -> Result<Self> {
        if i32::try_from(len).is_err() {
            return Err(Error::invalid(format!(
                "a batch of {len} rows is too large (at most {} rows)",
                i32::MAX
            )));
        }
        match first.checked_add(len as u64) {
            Some(end) if end <= 1 << 62 => Ok(RowRange { first, len }),
            _ => Err(Error::invalid(format!(
                "rows {first} + {len} exceed the supported 2^62 rows"
            ))),
        }
    }

    fn iter(self) -> std::ops::Range<u64> {
        self.first..self.first + self.len as u64
    }
}

// ---------------------------------------------------------------------------------------------
// Random numbers

/// The SplitMix64 increment (2^64 / golden ratio, odd).
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// The SplitMix64 / MurmurHash3 finaliser: a bijective, well-mixing function of 64 bits.
#[inline]
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// SplitMix64 (Steele, Lea and Flood, 2014): tiny, fast, and good enough for test data.
#[derive(Clone, Copy, Debug)]
struct Rng(u64);

impl Rng {
    /// The stream of row `row` under `key`; distinct rows get distinct starting states.
    #[inline]
    fn for_row(key: u64, row: u64) -> Self {
        Rng(mix64(key ^ row.wrapping_mul(GAMMA)))
    }

    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        mix64(self.0)
    }

    /// Uniform in `0..n` (multiply-high; the bias is below 2^-40 for our ranges).
    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// Uniform in `lo..=hi`.
    #[inline]
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    /// True with probability `1 / n`.
    #[inline]
    fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }

    /// Uniform in `[0, 1)` with 53 random bits.
    #[inline]
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniformly chosen entry of a non-empty table.
    #[inline]
    fn pick(&mut self, table: &[&'static str]) -> &'static str {
        let i = self.below(table.len() as u64) as usize;
        table.get(i).copied().unwrap_or_default()
    }
}

// ---------------------------------------------------------------------------------------------
// Column writers: values appended straight into 64-byte aligned buffers

/// A validity bitmap that materialises on the first null and is then written 64 bits at a
/// time (columns without nulls pay one predictable branch per value).
struct Validity {
    bytes: MutableBuffer,
    word: u64,
    len: usize,
    nulls: usize,
    capacity: usize,
}

impl Validity {
    fn with_capacity(capacity: usize) -> Self {
        Validity {
            bytes: MutableBuffer::new(),
            word: 0,
            len: 0,
            nulls: 0,
            capacity,
        }
    }

    #[inline(always)]
    fn push(&mut self, valid: bool) {
        if valid && self.nulls == 0 {
            self.len += 1;
        } else {
            self.push_bit(valid);
        }
    }

    #[inline]
    fn push_bit(&mut self, valid: bool) {
        if self.nulls == 0 {
            self.materialize();
        }
        self.word |= u64::from(valid) << (self.len % 64);
        self.nulls += usize::from(!valid);
        self.len += 1;
        if self.len % 64 == 0 {
            self.bytes.extend_from_slice(&self.word.to_le_bytes());
            self.word = 0;
        }
    }

    /// Writes the all-valid bits pushed before the first null.
    #[cold]
    fn materialize(&mut self) {
        self.bytes
            .reserve(self.capacity.max(self.len + 1).div_ceil(64) * 8);
        for _ in 0..self.len / 64 {
            self.bytes.extend_from_slice(&u64::MAX.to_le_bytes());
        }
        self.word = (1u64 << (self.len % 64)) - 1;
    }

    fn len(&self) -> usize {
        self.len
    }

    /// The bitmap (`len.div_ceil(8)` bytes), or `None` when nothing is null.
    fn finish(mut self) -> Result<Option<Bitmap>> {
        if self.nulls == 0 {
            return Ok(None);
        }
        self.bytes.extend_from_slice(&self.word.to_le_bytes());
        self.bytes.truncate(self.len.div_ceil(8));
        Bitmap::try_new_with_unset(self.bytes.freeze(), 0, self.len, self.nulls).map(Some)
    }
}

/// A fixed-width column of logical type `data_type` stored as `T`.
struct Prim<T: PrimitiveType> {
    data_type: DataType,
    values: MutableBuffer,
    validity: Validity,
    _t: PhantomData<T>,
}

impl<T: PrimitiveType> Prim<T> {
    fn new(data_type: DataType, capacity: usize) -> Self {
        Prim {
            data_type,
            values: MutableBuffer::with_capacity(capacity * std::mem::size_of::<T>()),
            validity: Validity::with_capacity(capacity),
            _t: PhantomData,
        }
    }

    /// A column of `T`'s default type (`Int64` for `i64`…).
    fn with_capacity(capacity: usize) -> Self {
        Self::new(T::default_data_type(), capacity)
    }

    #[inline]
    fn push(&mut self, value: T) {
        self.values.push(value);
        self.validity.push(true);
    }

    /// Appends a value or a null (stored as the default value).
    #[inline]
    fn push_opt(&mut self, value: Option<T>) {
        self.validity.push(value.is_some());
        self.values.push(value.unwrap_or_default());
    }

    fn finish(self) -> Result<Array> {
        let values = Buffer::<T>::from(self.values);
        let validity = self.validity.finish()?;
        Ok(PrimitiveArray::try_new(self.data_type, values, validity)?.into())
    }
}

/// A utf8 column (32-bit offsets).
struct Str {
    offsets: MutableBuffer,
    values: MutableBuffer,
    validity: Validity,
}

impl Str {
    fn with_capacity(items: usize, bytes: usize) -> Self {
        let mut offsets = MutableBuffer::with_capacity((items + 1) * 4);
        offsets.push(0i32);
        Str {
            offsets,
            values: MutableBuffer::with_capacity(bytes),
            validity: Validity::with_capacity(items),
        }
    }

    /// Appends a value. Offsets past `i32::MAX` wrap here and are reported by `finish`.
    #[inline(always)]
    fn push(&mut self, value: &str) {
        self.values.extend_from_slice(value.as_bytes());
        self.offsets.push(self.values.len() as i32);
        self.validity.push(true);
    }

    /// Appends a value or a null (an empty range).
    #[inline]
    fn push_opt(&mut self, value: Option<&str>) {
        if let Some(v) = value {
            self.values.extend_from_slice(v.as_bytes());
        }
        self.offsets.push(self.values.len() as i32);
        self.validity.push(value.is_some());
    }

    fn finish(self) -> Result<Array> {
        if i32::try_from(self.values.len()).is_err() {
            return Err(Error::Overflow(format!(
                "{} bytes of strings exceed 32-bit offsets; use smaller batches",
                self.values.len()
            )));
        }
        let offsets = OffsetBuffer::try_new(Buffer::from(self.offsets))?;
        let validity = self.validity.finish()?;
        Ok(StringArray::try_new(offsets, Buffer::from(self.values), validity)?.into())
    }
}

/// Offsets and validity of a list or map column.
struct ListOffsets {
    offsets: MutableBuffer,
    validity: Validity,
    end: usize,
}

impl ListOffsets {
    fn with_capacity(n: usize) -> Self {
        let mut offsets = MutableBuffer::with_capacity((n + 1) * 4);
        offsets.push(0i32);
        ListOffsets {
            offsets,
            validity: Validity::with_capacity(n),
            end: 0,
        }
    }

    /// Appends a list of `len` children (a null list has none).
    #[inline]
    fn push(&mut self, valid: bool, len: usize) {
        self.end += len;
        self.offsets.push(self.end as i32);
        self.validity.push(valid);
    }

    fn finish(self) -> Result<(OffsetBuffer<i32>, Option<Bitmap>)> {
        if i32::try_from(self.end).is_err() {
            return Err(Error::Overflow(format!(
                "{} list children exceed 32-bit offsets; use smaller batches",
                self.end
            )));
        }
        let offsets = OffsetBuffer::try_new(Buffer::from(self.offsets))?;
        Ok((offsets, self.validity.finish()?))
    }
}

// ---------------------------------------------------------------------------------------------
// Static text

/// Words of the comment text (after TPC-H's grammar vocabulary).
#[rustfmt::skip]
const WORDS: &[&str] = &[
    "furiously", "sly", "careful", "blithely", "quickly", "fluffily", "slyly", "ironic",
    "final", "regular", "express", "pending", "bold", "even", "special", "unusual", "silent",
    "daring", "idle", "ruthless", "deposits", "requests", "accounts", "packages", "foxes",
    "pinto", "beans", "instructions", "theodolites", "dependencies", "excuses", "platelets",
    "asymptotes", "courts", "dolphins", "multipliers", "sauternes", "warthogs", "frets",
    "dinos", "attainments", "somas", "tithes", "sheaves", "waters", "sleep", "wake", "are",
    "cajole", "haggle", "nag", "use", "boost", "affix", "detect", "integrate", "maintain",
    "nod", "was", "lose", "sublate", "solve", "thrash", "promise", "engage", "hinder", "print",
    "x-ray", "breach", "eat", "grow", "impress", "mold", "poach", "serve", "run", "dazzle",
    "snooze", "doze", "about", "above", "according", "to", "across", "after", "against",
    "along", "among", "around", "at", "atop", "before", "behind", "beneath", "beside",
    "besides", "between", "beyond", "by", "despite", "during", "except", "for", "from",
    "inside", "instead", "of", "into", "near", "on", "outside", "over", "past", "since",
    "through", "throughout", "toward", "under", "until", "up", "upon", "without", "with",
    "within", "the", "carefully", "never", "always", "sometimes", "ideas",
];

/// Length of the text pool comments are cut from (1 MiB: millions of distinct comments).
const POOL_LEN: usize = 1 << 20;

/// Shortest `l_comment`.
pub const COMMENT_MIN: usize = 10;
/// Longest `l_comment` (TPC-H goes to 43; see the module documentation for why not here).
pub const COMMENT_MAX: usize = 25;

/// The fixed text comments are substrings of (ASCII words separated by spaces).
fn text_pool() -> &'static str {
    static POOL: OnceLock<String> = OnceLock::new();
    POOL.get_or_init(|| {
        let mut rng = Rng(0x5445_5854_504f_4f4c);
        let mut text = String::with_capacity(POOL_LEN + 16);
        while text.len() < POOL_LEN {
            text.push_str(rng.pick(WORDS));
            text.push(' ');
        }
        text
    })
}

/// A random substring of the text pool of `min..=max` bytes.
#[inline]
fn pool_text(rng: &mut Rng, min: usize, max: usize) -> &'static str {
    let pool = text_pool();
    let start = rng.below((pool.len() - max) as u64) as usize;
    let len = rng.range(min as i64, max as i64) as usize;
    pool.get(start..start + len).unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// lineitem

const SHIP_INSTRUCT: &[&str] = &[
    "DELIVER IN PERSON",
    "COLLECT COD",
    "NONE",
    "TAKE BACK RETURN",
];
const SHIP_MODE: &[&str] = &["REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"];

/// 1992-01-01 as days since the epoch.
const START_DATE: i32 = 8035;
/// 1998-12-31 as days since the epoch.
const END_DATE: i32 = 10591;
/// TPC-H's "current date" 1995-06-17, which decides return flags and line statuses.
const CURRENT_DATE: i32 = 9298;
/// Parts and suppliers at scale factor 1.
const PARTS: u64 = 200_000;
const SUPPLIERS: i64 = 10_000;
/// Rows per block of orders (and the key range each block uses).
const BLOCK_ROWS: u64 = 64;
/// One null in this many rows in `l_comment` and in `l_weight` (5%).
const NULL_ONE_IN: u64 = 20;

fn decimal_15_2() -> DataType {
    DataType::Decimal128 {
        precision: 15,
        scale: 2,
    }
}

fn lineitem_schema() -> SchemaRef {
    let f = |name: &str, dt: DataType| Field::new(name, dt, false);
    Arc::new(Schema::new(vec![
        f("l_orderkey", DataType::Int64),
        f("l_partkey", DataType::Int64),
        f("l_suppkey", DataType::Int64),
        f("l_linenumber", DataType::Int32),
        f("l_quantity", decimal_15_2()),
        f("l_extendedprice", decimal_15_2()),
        f("l_discount", decimal_15_2()),
        f("l_tax", decimal_15_2()),
        f("l_returnflag", DataType::Utf8),
        f("l_linestatus", DataType::Utf8),
        f("l_shipdate", DataType::Date32),
        f("l_commitdate", DataType::Date32),
        f("l_receiptdate", DataType::Date32),
        f("l_shipinstruct", DataType::Utf8),
        f("l_shipmode", DataType::Utf8),
        Field::new("l_comment", DataType::Utf8, true),
        Field::new("l_weight", DataType::Float64, true),
    ]))
}

/// How 64 consecutive rows are split into orders: order `j` of block `b` has key
/// `64 b + j + 1`, so keys increase and about a quarter of them are used (as in TPC-H).
struct OrderBlock {
    block: u64,
    /// Order index (within the block) of each row.
    order: [u8; BLOCK_ROWS as usize],
    /// Line number of each row within its order.
    line: [u8; BLOCK_ROWS as usize],
    /// Order date of each order index.
    order_date: [i32; BLOCK_ROWS as usize],
}

impl OrderBlock {
    fn new(key: u64, block: u64) -> Self {
        let mut rng = Rng::for_row(key ^ 0x4f52_4445_5253, block);
        let mut b = OrderBlock {
            block,
            order: [0; BLOCK_ROWS as usize],
            line: [0; BLOCK_ROWS as usize],
            order_date: [0; BLOCK_ROWS as usize],
        };
        let mut rows = b.order.iter_mut().zip(b.line.iter_mut()).peekable();
        for (order, date) in b.order_date.iter_mut().enumerate() {
            if rows.peek().is_none() {
                break;
            }
            *date = rng.range(i64::from(START_DATE), i64::from(END_DATE - 151)) as i32;
            let lines = rng.range(1, 7) as u8;
            // Line numbers first: `zip` must not pull a row once the order is complete.
            for (line, (o, l)) in (1..=lines).zip(rows.by_ref()) {
                (*o, *l) = (order as u8, line);
            }
        }
        b
    }

    fn of_row(&self, row: u64) -> (i64, i32, i32) {
        let i = (row % BLOCK_ROWS) as usize;
        let order = self.order.get(i).copied().unwrap_or_default();
        let line = self.line.get(i).copied().unwrap_or_default();
        let date = self.order_date.get(usize::from(order)).copied();
        let key = self.block * BLOCK_ROWS + u64::from(order) + 1;
        (key as i64, i32::from(line), date.unwrap_or(START_DATE))
    }
}

/// One generated `lineitem` row (decimals as hundredths).
struct LineRow {
    orderkey: i64,
    partkey: i64,
    suppkey: i64,
    linenumber: i32,
    quantity: i64,
    extended_price: i64,
    discount: i64,
    tax: i64,
    return_flag: &'static str,
    line_status: &'static str,
    ship_date: i32,
    commit_date: i32,
    receipt_date: i32,
    ship_instruct: &'static str,
    ship_mode: &'static str,
    comment: Option<&'static str>,
    weight: Option<f64>,
}

impl LineRow {
    fn generate(key: u64, row: u64, block: &OrderBlock) -> Self {
        let mut rng = Rng::for_row(key, row);
        let (orderkey, linenumber, order_date) = block.of_row(row);
        let partkey = rng.below(PARTS) as i64 + 1;
        let supplier = rng.range(0, 3);
        let quantity = rng.range(1, 50);
        let ship_date = order_date + rng.range(1, 121) as i32;
        let commit_date = order_date + rng.range(30, 90) as i32;
        let receipt_date = ship_date + rng.range(1, 30) as i32;
        let return_flag = match (receipt_date <= CURRENT_DATE, rng.one_in(2)) {
            (false, _) => "N",
            (true, true) => "R",
            (true, false) => "A",
        };
        LineRow {
            orderkey,
            partkey,
            suppkey: supplier_of(partkey, supplier),
            linenumber,
            quantity,
            extended_price: quantity * retail_price(partkey),
            discount: rng.range(0, 10),
            tax: rng.range(0, 8),
            return_flag,
            line_status: if ship_date > CURRENT_DATE { "O" } else { "F" },
            ship_date,
            commit_date,
            receipt_date,
            ship_instruct: rng.pick(SHIP_INSTRUCT),
            ship_mode: rng.pick(SHIP_MODE),
            comment: (!rng.one_in(NULL_ONE_IN))
                .then(|| pool_text(&mut rng, COMMENT_MIN, COMMENT_MAX)),
            weight: (!rng.one_in(NULL_ONE_IN)).then(|| quantity as f64 * unit_weight(key, partkey)),
        }
    }
}

/// TPC-H's `P_RETAILPRICE` of a part, in hundredths.
fn retail_price(partkey: i64) -> i64 {
    90_000 + (partkey / 10) % 20_001 + 100 * (partkey % 1_000)
}

/// TPC-H's `i`-th (0–3) supplier of a part.
fn supplier_of(partkey: i64, i: i64) -> i64 {
    (partkey + i * (SUPPLIERS / 4 + (partkey - 1) / SUPPLIERS)) % SUPPLIERS + 1
}

/// A part's weight per unit in kg, 0.5–50 (a function of the part and the seed).
fn unit_weight(key: u64, partkey: i64) -> f64 {
    0.5 + 49.5 * Rng::for_row(key ^ 0x5745_4947_4854, partkey as u64).unit()
}

/// Column writers of `lineitem`.
struct LineitemColumns {
    ints: [Prim<i64>; 3],
    linenumber: Prim<i32>,
    decimals: [Prim<I128>; 4],
    flags: [Str; 2],
    dates: [Prim<i32>; 3],
    ship: [Str; 2],
    comment: Str,
    weight: Prim<f64>,
}

impl LineitemColumns {
    fn with_capacity(n: usize) -> Self {
        LineitemColumns {
            ints: std::array::from_fn(|_| Prim::with_capacity(n)),
            linenumber: Prim::with_capacity(n),
            decimals: std::array::from_fn(|_| Prim::new(decimal_15_2(), n)),
            flags: std::array::from_fn(|_| Str::with_capacity(n, n)),
            dates: std::array::from_fn(|_| Prim::new(DataType::Date32, n)),
            ship: [Str::with_capacity(n, n * 12), Str::with_capacity(n, n * 5)],
            comment: Str::with_capacity(n, n * (COMMENT_MIN + COMMENT_MAX) / 2),
            weight: Prim::with_capacity(n),
        }
    }

    #[inline]
    fn push(&mut self, r: &LineRow) {
        let ints = [r.orderkey, r.partkey, r.suppkey];
        for (c, v) in self.ints.iter_mut().zip(ints) {
            c.push(v);
        }
        self.linenumber.push(r.linenumber);
        let decimals = [r.quantity * 100, r.extended_price, r.discount, r.tax];
        for (c, v) in self.decimals.iter_mut().zip(decimals) {
            c.push(I128::from_i128(i128::from(v)));
        }
        for (c, v) in self.flags.iter_mut().zip([r.return_flag, r.line_status]) {
            c.push(v);
        }
        let dates = [r.ship_date, r.commit_date, r.receipt_date];
        for (c, v) in self.dates.iter_mut().zip(dates) {
            c.push(v);
        }
        for (c, v) in self.ship.iter_mut().zip([r.ship_instruct, r.ship_mode]) {
            c.push(v);
        }
        self.comment.push_opt(r.comment);
        self.weight.push_opt(r.weight);
    }

    fn finish(self) -> Result<Vec<Array>> {
        let mut columns = Vec::with_capacity(17);
        for c in self.ints {
            columns.push(c.finish()?);
        }
        columns.push(self.linenumber.finish()?);
        for c in self.decimals {
            columns.push(c.finish()?);
        }
        for c in self.flags {
            columns.push(c.finish()?);
        }
        for c in self.dates {
            columns.push(c.finish()?);
        }
        for c in self.ship.into_iter().chain([self.comment]) {
            columns.push(c.finish()?);
        }
        columns.push(self.weight.finish()?);
        Ok(columns)
    }
}

fn lineitem_columns(key: u64, rows: RowRange) -> Result<Vec<Array>> {
    let mut columns = LineitemColumns::with_capacity(rows.len);
    let mut block = OrderBlock::new(key, rows.first / BLOCK_ROWS);
    for row in rows.iter() {
        if row / BLOCK_ROWS != block.block {
            block = OrderBlock::new(key, row / BLOCK_ROWS);
        }
        columns.push(&LineRow::generate(key, row, &block));
    }
    columns.finish()
}

// ---------------------------------------------------------------------------------------------
// nested

#[rustfmt::skip]
const FIRST_NAMES: &[&str] = &[
    "Ada", "Alan", "Barbara", "Claude", "Donald", "Edsger", "Frances", "Grace", "Hedy", "John",
    "Katherine", "Leslie", "Margaret", "Niklaus", "Radia", "Tim", "Xavier", "Zoë",
];
#[rustfmt::skip]
const LAST_NAMES: &[&str] = &[
    "Lovelace", "Turing", "Liskov", "Shannon", "Knuth", "Dijkstra", "Allen", "Hopper", "Lamarr",
    "Backus", "Johnson", "Lamport", "Hamilton", "Wirth", "Perlman", "Berners-Lee", "Leroy",
    "Øresund",
];
#[rustfmt::skip]
const CITIES: &[&str] = &[
    "Amsterdam", "Berlin", "Cairo", "Delhi", "Edinburgh", "Florence", "Genève", "Helsinki",
    "Istanbul", "Jakarta", "Kyōto", "Lagos", "Montréal", "Nairobi", "Oslo", "São Paulo",
];
#[rustfmt::skip]
const ATTRIBUTE_KEYS: &[&str] = &[
    "clicks", "views", "likes", "shares", "score", "rank", "level", "visits", "orders",
    "returns",
];

/// Probability `1/n` of each kind of null in `nested`.
const NESTED_NULL_ONE_IN: u64 = 20;
const NESTED_FIELD_NULL_ONE_IN: u64 = 10;

fn item_field(dt: DataType) -> FieldRef {
    Arc::new(Field::new("item", dt, true))
}

fn point_fields() -> Fields {
    Fields::from(vec![
        Field::new("x", DataType::Float64, false),
        Field::new("y", DataType::Float64, true),
        Field::new("label", DataType::Utf8, true),
    ])
}

fn map_entries_field() -> FieldRef {
    let kv = Fields::from(vec![
        Field::new("key", DataType::Utf8, false),
        Field::new("value", DataType::Int64, true),
    ]);
    Arc::new(Field::new("entries", DataType::Struct(kv), false))
}

fn address_fields() -> Fields {
    Fields::from(vec![
        Field::new("city", DataType::Utf8, true),
        Field::new("zip", DataType::Utf8, true),
    ])
}

fn profile_fields() -> Fields {
    Fields::from(vec![
        Field::new("name", DataType::Utf8, true),
        Field::new("age", DataType::Int32, true),
        Field::new("address", DataType::Struct(address_fields()), true),
    ])
}

fn nested_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("tags", DataType::List(item_field(DataType::Utf8)), true),
        Field::new(
            "points",
            DataType::List(item_field(DataType::Struct(point_fields()))),
            true,
        ),
        Field::new(
            "attributes",
            DataType::Map(map_entries_field(), false),
            true,
        ),
        Field::new("profile", DataType::Struct(profile_fields()), true),
    ]))
}

/// `tags: list<utf8>`.
struct Tags {
    lists: ListOffsets,
    items: Str,
}

impl Tags {
    fn with_capacity(n: usize) -> Self {
        Tags {
            lists: ListOffsets::with_capacity(n),
            items: Str::with_capacity(n * 3, n * 30),
        }
    }

    #[inline]
    fn push(&mut self, rng: &mut Rng) {
        let valid = !rng.one_in(NESTED_NULL_ONE_IN);
        let len = if valid { rng.below(6) as usize } else { 0 };
        for _ in 0..len {
            let item = (!rng.one_in(NESTED_NULL_ONE_IN)).then(|| rng.pick(WORDS));
            self.items.push_opt(item);
        }
        self.lists.push(valid, len);
    }

    fn finish(self) -> Result<Array> {
        let (offsets, validity) = self.lists.finish()?;
        let items = self.items.finish()?;
        let list = ListArray::try_new(item_field(DataType::Utf8), offsets, items, validity)?;
        Ok(list.into())
    }
}

/// `points: list<struct<x, y, label>>`.
struct Points {
    lists: ListOffsets,
    structs: Validity,
    x: Prim<f64>,
    y: Prim<f64>,
    label: Str,
}

impl Points {
    fn with_capacity(n: usize) -> Self {
        Points {
            lists: ListOffsets::with_capacity(n),
            structs: Validity::with_capacity(n * 2),
            x: Prim::with_capacity(n * 2),
            y: Prim::with_capacity(n * 2),
            label: Str::with_capacity(n * 2, n * 16),
        }
    }

    #[inline]
    fn push(&mut self, rng: &mut Rng) {
        let valid = !rng.one_in(NESTED_NULL_ONE_IN);
        let len = if valid { rng.below(5) as usize } else { 0 };
        for _ in 0..len {
            self.structs.push(!rng.one_in(NESTED_NULL_ONE_IN));
            self.x.push(rng.unit() * 360.0 - 180.0);
            let y = rng.unit() * 180.0 - 90.0;
            self.y
                .push_opt((!rng.one_in(NESTED_NULL_ONE_IN)).then_some(y));
            let label = (!rng.one_in(NESTED_FIELD_NULL_ONE_IN)).then(|| rng.pick(CITIES));
            self.label.push_opt(label);
        }
        self.lists.push(valid, len);
    }

    fn finish(self) -> Result<Array> {
        let (offsets, validity) = self.lists.finish()?;
        let children = vec![self.x.finish()?, self.y.finish()?, self.label.finish()?];
        let len = self.structs.len();
        let items = StructArray::try_new(point_fields(), len, children, self.structs.finish()?)?;
        let field = item_field(DataType::Struct(point_fields()));
        Ok(ListArray::try_new(field, offsets, items.into(), validity)?.into())
    }
}

/// `attributes: map<utf8, int64>`.
struct Attributes {
    maps: ListOffsets,
    keys: Str,
    values: Prim<i64>,
}

impl Attributes {
    fn with_capacity(n: usize) -> Self {
        Attributes {
            maps: ListOffsets::with_capacity(n),
            keys: Str::with_capacity(n * 2, n * 12),
            values: Prim::with_capacity(n * 2),
        }
    }

    /// Keys are consecutive entries of [`ATTRIBUTE_KEYS`] from a random start, so distinct.
    #[inline]
    fn push(&mut self, rng: &mut Rng) {
        let valid = !rng.one_in(NESTED_NULL_ONE_IN);
        let len = if valid { rng.below(5) as usize } else { 0 };
        let start = rng.below(ATTRIBUTE_KEYS.len() as u64) as usize;
        for k in ATTRIBUTE_KEYS.iter().cycle().skip(start).take(len) {
            self.keys.push(k);
            let v = rng.range(-1_000_000, 1_000_000);
            self.values
                .push_opt((!rng.one_in(NESTED_FIELD_NULL_ONE_IN)).then_some(v));
        }
        self.maps.push(valid, len);
    }

    fn finish(self) -> Result<Array> {
        let (offsets, validity) = self.maps.finish()?;
        let field = map_entries_field();
        let DataType::Struct(kv) = field.data_type().clone() else {
            return Err(Error::invalid("map entries must be a struct"));
        };
        let children = vec![self.keys.finish()?, self.values.finish()?];
        let len = children.first().map_or(0, Array::len);
        let entries = StructArray::try_new(kv, len, children, None)?;
        Ok(MapArray::try_new(field, false, offsets, entries, validity)?.into())
    }
}

/// `profile: struct<name, age, address: struct<city, zip>>`.
struct Profile {
    validity: Validity,
    name: Str,
    age: Prim<i32>,
    address: Validity,
    city: Str,
    zip: Str,
    /// Reused for values assembled from parts (no allocation per value).
    scratch: String,
}

impl Profile {
    fn with_capacity(n: usize) -> Self {
        Profile {
            validity: Validity::with_capacity(n),
            name: Str::with_capacity(n, n * 14),
            age: Prim::with_capacity(n),
            address: Validity::with_capacity(n),
            city: Str::with_capacity(n, n * 8),
            zip: Str::with_capacity(n, n * 5),
            scratch: String::with_capacity(64),
        }
    }

    #[inline]
    fn push(&mut self, rng: &mut Rng) {
        self.validity.push(!rng.one_in(NESTED_NULL_ONE_IN));
        self.scratch.clear();
        self.scratch.push_str(rng.pick(FIRST_NAMES));
        self.scratch.push(' ');
        self.scratch.push_str(rng.pick(LAST_NAMES));
        let name = (!rng.one_in(NESTED_NULL_ONE_IN)).then_some(self.scratch.as_str());
        self.name.push_opt(name);
        let age = rng.range(18, 90) as i32;
        self.age
            .push_opt((!rng.one_in(NESTED_FIELD_NULL_ONE_IN)).then_some(age));
        self.address.push(!rng.one_in(NESTED_FIELD_NULL_ONE_IN));
        let city = (!rng.one_in(NESTED_NULL_ONE_IN)).then(|| rng.pick(CITIES));
        self.city.push_opt(city);
        self.scratch.clear();
        let zip = rng.below(100_000);
        for power in [10_000, 1_000, 100, 10, 1] {
            self.scratch
                .push(char::from(b'0' + (zip / power % 10) as u8));
        }
        let zip = (!rng.one_in(NESTED_NULL_ONE_IN)).then_some(self.scratch.as_str());
        self.zip.push_opt(zip);
    }

    fn finish(self) -> Result<Array> {
        let len = self.validity.len();
        let address = StructArray::try_new(
            address_fields(),
            len,
            vec![self.city.finish()?, self.zip.finish()?],
            self.address.finish()?,
        )?;
        let children = vec![self.name.finish()?, self.age.finish()?, address.into()];
        let validity = self.validity.finish()?;
        Ok(StructArray::try_new(profile_fields(), len, children, validity)?.into())
    }
}

fn nested_columns(key: u64, rows: RowRange) -> Result<Vec<Array>> {
    let n = rows.len;
    let mut ids = Prim::<i64>::with_capacity(n);
    let (mut tags, mut points) = (Tags::with_capacity(n), Points::with_capacity(n));
    let (mut attributes, mut profile) = (Attributes::with_capacity(n), Profile::with_capacity(n));
    for row in rows.iter() {
        let mut rng = Rng::for_row(key, row);
        ids.push(row as i64);
        tags.push(&mut rng);
        points.push(&mut rng);
        attributes.push(&mut rng);
        profile.push(&mut rng);
    }
    Ok(vec![
        ids.finish()?,
        tags.finish()?,
        points.finish()?,
        attributes.finish()?,
        profile.finish()?,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use quiver_arrow::ValidationLevel;

    fn all(dataset: Dataset, rows: u64, batch_size: usize, seed: u64) -> Vec<RecordBatch> {
        batches(dataset, rows, batch_size, seed)
            .collect::<Result<Vec<_>>>()
            .unwrap()
    }

    /// One batch of `rows` rows from row 0.
    fn one(dataset: Dataset, rows: usize) -> RecordBatch {
        generate_batch(dataset, 42, 0, rows, 0).unwrap()
    }

    /// Calls `f` with every buffer of an array (validity, offsets, values), children included.
    fn visit(a: &Array, f: &mut dyn FnMut(&[u8])) {
        if let Some(v) = a.validity() {
            f(v.bytes());
        }
        match a {
            Array::I32(p) => f(p.values().bytes()),
            Array::I64(p) => f(p.values().bytes()),
            Array::F64(p) => f(p.values().bytes()),
            Array::I128(p) => f(p.values().bytes()),
            Array::Utf8(s) => {
                f(s.offsets().buffer().bytes());
                f(s.values().bytes());
            }
            Array::List(l) => {
                f(l.offsets().buffer().bytes());
                visit(l.values(), f);
            }
            Array::Struct(s) => s.columns().iter().for_each(|c| visit(c, f)),
            Array::Map(m) => {
                f(m.offsets().buffer().bytes());
                visit(&Array::from(m.entries().clone()), f);
            }
            other => panic!("unexpected layout {}", other.data_type()),
        }
    }

    fn batch_buffers(b: &RecordBatch) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for c in b.columns() {
            visit(c, &mut |bytes| out.push(bytes.to_vec()));
        }
        out
    }

    /// In-memory size: the sum of the buffer sizes.
    fn batch_bytes(b: &RecordBatch) -> usize {
        let mut n = 0;
        for c in b.columns() {
            visit(c, &mut |bytes| n += bytes.len());
        }
        n
    }

    fn strings<'a>(b: &'a RecordBatch, name: &str) -> &'a StringArray {
        match b.column_by_name(name) {
            Some(Array::Utf8(s)) => s,
            _ => panic!("{name} is not utf8"),
        }
    }

    fn prims<'a, T: quiver_arrow::PrimitiveType>(
        b: &'a RecordBatch,
        name: &str,
    ) -> &'a PrimitiveArray<T> {
        b.column_by_name(name).unwrap().as_primitive::<T>().unwrap()
    }

    fn list<'a>(b: &'a RecordBatch, name: &str) -> &'a ListArray {
        match b.column_by_name(name) {
            Some(Array::List(l)) => l,
            _ => panic!("{name} is not a list"),
        }
    }

    fn as_struct(a: &Array) -> &StructArray {
        match a {
            Array::Struct(s) => s,
            _ => panic!("not a struct"),
        }
    }

    #[test]
    fn validity_matches_pushed_bits() {
        let mut rng = Rng(9);
        for len in [0usize, 1, 63, 64, 65, 130, 200] {
            for first_null in [0usize, 1, 64, 100, usize::MAX] {
                let bits: Vec<bool> = (0..len).map(|i| i < first_null || rng.one_in(2)).collect();
                let mut v = Validity::with_capacity(len);
                bits.iter().for_each(|&b| v.push(b));
                match v.finish().unwrap() {
                    None => assert!(bits.iter().all(|&b| b)),
                    Some(bitmap) => {
                        assert_eq!(bitmap.iter().collect::<Vec<_>>(), bits);
                        assert_eq!(bitmap.unset_bits(), bitmap.count_unset());
                        assert_eq!(bitmap.bytes().len(), len.div_ceil(8));
                    }
                }
            }
        }
    }

    #[test]
    fn deterministic_byte_for_byte() {
        for dataset in [Dataset::Lineitem, Dataset::Nested] {
            let a = all(dataset, 5_000, 1_024, 7);
            let b = all(dataset, 5_000, 1_024, 7);
            assert_eq!(a.len(), b.len());
            for (x, y) in a.iter().zip(&b) {
                assert_eq!(batch_buffers(x), batch_buffers(y), "{dataset:?}");
            }
            let c = all(dataset, 5_000, 1_024, 8);
            assert_ne!(batch_buffers(&a[0]), batch_buffers(&c[0]), "{dataset:?}");
        }
    }

    #[test]
    fn batches_are_independent() {
        for dataset in [Dataset::Lineitem, Dataset::Nested] {
            let from_iter = all(dataset, 10_000, 1_000, 3);
            let alone = generate_batch(dataset, 3, 3, 1_000, 3_000).unwrap();
            assert_eq!(batch_buffers(&alone), batch_buffers(&from_iter[3]));
            // Rows do not depend on the batch size either.
            let whole = one_seeded(dataset, 3, 10_000);
            for (k, b) in all(dataset, 10_000, 777, 3).iter().enumerate() {
                let expected = whole.slice(k * 777, b.num_rows());
                assert_eq!(expected.columns(), b.columns(), "{dataset:?} batch {k}");
            }
        }
    }

    fn one_seeded(dataset: Dataset, seed: u64, rows: usize) -> RecordBatch {
        generate_batch(dataset, seed, 0, rows, 0).unwrap()
    }

    #[test]
    fn schemas_match() {
        let names: Vec<_> = Dataset::Lineitem
            .schema()
            .fields
            .iter()
            .map(|f| f.name().to_string())
            .collect();
        assert_eq!(names.len(), 17);
        assert_eq!(names[0], "l_orderkey");
        assert_eq!(names[15], "l_comment");
        assert_eq!(names[16], "l_weight");
        for dataset in [Dataset::Lineitem, Dataset::Nested] {
            let b = one(dataset, 100);
            assert_eq!(b.schema(), &dataset.schema());
            for (f, c) in b.schema().fields.iter().zip(b.columns()) {
                assert_eq!(f.data_type(), c.data_type());
            }
        }
        let nested = Dataset::Nested.schema();
        assert!(matches!(nested.fields[3].data_type(), DataType::Map(..)));
    }

    #[test]
    fn full_validation_passes() {
        for dataset in [Dataset::Lineitem, Dataset::Nested] {
            for b in all(dataset, 20_000, 6_000, 11) {
                b.validate(ValidationLevel::Full).unwrap();
            }
        }
    }

    #[test]
    fn lineitem_null_ratios() {
        let b = one(Dataset::Lineitem, 100_000);
        for (i, (f, c)) in b.schema().fields.iter().zip(b.columns()).enumerate() {
            let ratio = c.null_count() as f64 / 100_000.0;
            if i >= 15 {
                assert!((0.045..=0.055).contains(&ratio), "{}: {ratio}", f.name());
            } else {
                assert_eq!(c.null_count(), 0, "{}", f.name());
            }
        }
    }

    #[test]
    fn lineitem_value_ranges() {
        let b = one(Dataset::Lineitem, 50_000);
        let dec = |n| {
            prims::<I128>(&b, n)
                .values()
                .iter()
                .map(I128::to_i128)
                .collect::<Vec<_>>()
        };
        let (qty, price) = (dec("l_quantity"), dec("l_extendedprice"));
        let partkeys = prims::<i64>(&b, "l_partkey").values();
        for (i, (q, p)) in qty.iter().zip(&price).enumerate() {
            assert!((100..=5_000).contains(q) && q % 100 == 0, "quantity {q}");
            let pk = partkeys[i];
            assert!((1..=200_000).contains(&pk));
            assert_eq!(*p, i128::from(retail_price(pk)) * q / 100);
        }
        assert!(dec("l_discount").iter().all(|d| (0..=10).contains(d)));
        assert!(dec("l_tax").iter().all(|d| (0..=8).contains(d)));
        assert_eq!(b.column(4).data_type(), &decimal_15_2());
        let date = |n| prims::<i32>(&b, n).values().as_slice().to_vec();
        let (ship, commit, receipt) = (
            date("l_shipdate"),
            date("l_commitdate"),
            date("l_receiptdate"),
        );
        for i in 0..b.num_rows() {
            for d in [ship[i], commit[i], receipt[i]] {
                assert!((START_DATE..=END_DATE).contains(&d), "date {d}");
            }
            assert!(receipt[i] > ship[i]);
            let expected = if ship[i] > CURRENT_DATE { "O" } else { "F" };
            assert_eq!(strings(&b, "l_linestatus").value(i), expected);
            let flag = strings(&b, "l_returnflag").value(i);
            assert_eq!(flag == "N", receipt[i] > CURRENT_DATE, "flag {flag}");
        }
        assert_eq!(b.column(10).data_type(), &DataType::Date32);
        check_lineitem_strings(&b);
    }

    fn check_lineitem_strings(b: &RecordBatch) {
        let supp = prims::<i64>(b, "l_suppkey");
        assert!(supp.values().iter().all(|s| (1..=10_000).contains(&s)));
        for s in strings(b, "l_shipmode").iter() {
            assert!(SHIP_MODE.contains(&s.unwrap()));
        }
        for s in strings(b, "l_shipinstruct").iter() {
            assert!(SHIP_INSTRUCT.contains(&s.unwrap()));
        }
        for c in strings(b, "l_comment").iter().flatten() {
            assert!((COMMENT_MIN..=COMMENT_MAX).contains(&c.len()), "{c:?}");
        }
        let distinct: std::collections::HashSet<_> = strings(b, "l_comment").iter().collect();
        assert!(distinct.len() > b.num_rows() * 9 / 10, "{}", distinct.len());
        for w in prims::<f64>(b, "l_weight").iter().flatten() {
            assert!((0.5..=2_500.0).contains(&w), "weight {w}");
        }
    }

    #[test]
    fn lineitem_orders_like_tpch() {
        // Start mid-block to cover a batch boundary inside an order block.
        let b = generate_batch(Dataset::Lineitem, 5, 0, 10_000, 1_000_003).unwrap();
        let keys = prims::<i64>(&b, "l_orderkey").values();
        let lines = prims::<i32>(&b, "l_linenumber").values();
        let mut orders = 0;
        for i in 1..b.num_rows() {
            if keys[i] == keys[i - 1] {
                assert_eq!(lines[i], lines[i - 1] + 1);
            } else {
                assert!(keys[i] > keys[i - 1]);
                assert_eq!(lines[i], 1, "row {i}");
                orders += 1;
            }
            assert!((1..=7).contains(&lines[i]));
        }
        // About 4 lines per order on average.
        assert!((2_000..3_300).contains(&orders), "{orders} orders");
    }

    #[test]
    fn nested_nulls_at_every_level() {
        let b = one(Dataset::Nested, 20_000);
        let id = prims::<i64>(&b, "id");
        assert_eq!(id.null_count(), 0);
        assert_eq!(id.value(19_999), 19_999);
        let count = |what: &str, n: usize| assert!(n > 100, "{what}: {n}");
        let empty = |l: &ListArray| {
            (0..l.len())
                .filter(|&i| l.is_valid(i) && l.offsets().len_of(i) == 0)
                .count()
        };
        let (tags, points) = (list(&b, "tags"), list(&b, "points"));
        count("null tag lists", tags.null_count());
        count("empty tag lists", empty(tags));
        count("null tags", tags.values().null_count());
        count("null point lists", points.null_count());
        count("empty point lists", empty(points));
        let point = as_struct(points.values());
        count("null points", point.null_count());
        assert_eq!(point.column(0).null_count(), 0, "x is not nullable");
        count("null y", point.column(1).null_count());
        count("null labels", point.column(2).null_count());
        let Some(Array::Map(map)) = b.column_by_name("attributes") else {
            panic!("map")
        };
        count("null maps", map.null_count());
        count(
            "empty maps",
            (0..map.len())
                .filter(|&i| map.is_valid(i) && map.offsets().len_of(i) == 0)
                .count(),
        );
        assert_eq!(map.keys().null_count(), 0);
        count("null map values", map.values().null_count());
        let profile = as_struct(b.column_by_name("profile").unwrap());
        count("null profiles", profile.null_count());
        count("null names", profile.column(0).null_count());
        count("null ages", profile.column(1).null_count());
        let address = as_struct(profile.column(2));
        count("null addresses", address.null_count());
        count("null cities", address.column(0).null_count());
        count("null zips", address.column(1).null_count());
    }

    #[test]
    fn nested_map_keys_are_distinct() {
        let b = one(Dataset::Nested, 2_000);
        let Some(Array::Map(map)) = b.column_by_name("attributes") else {
            panic!("map")
        };
        for i in 0..map.len() {
            let entries = map.value(i);
            let Array::Utf8(keys) = entries.column(0) else {
                panic!("keys")
            };
            let set: std::collections::HashSet<_> = keys.iter().collect();
            assert_eq!(set.len(), keys.len());
        }
    }

    #[test]
    fn row_counts_and_partial_last_batch() {
        for dataset in [Dataset::Lineitem, Dataset::Nested] {
            let bs = all(dataset, 10_005, 1_000, 1);
            assert_eq!(bs.len(), 11);
            assert!(bs[..10].iter().all(|b| b.num_rows() == 1_000));
            assert_eq!(bs[10].num_rows(), 5);
            assert!(all(dataset, 0, 1_000, 1).is_empty());
            assert_eq!(one(dataset, 0).num_rows(), 0);
            let zero: Vec<_> = batches(dataset, 10, 0, 1).collect();
            assert!(zero.len() == 1 && zero[0].is_err());
        }
        assert!(generate_batch(Dataset::Lineitem, 0, 0, 10, u64::MAX - 5).is_err());
        assert!(generate_batch(Dataset::Nested, 0, 0, 1 << 31, 0).is_err());
    }

    #[test]
    fn lineitem_size_for_six_million_rows() {
        let rows = 200_000;
        let b = one(Dataset::Lineitem, rows);
        let per_row = batch_bytes(&b) as f64 / rows as f64;
        let total = per_row * 6_000_000.0;
        println!(
            "lineitem: {per_row:.1} bytes/row, 6M rows = {:.3} GB",
            total / 1e9
        );
        assert!((0.75e9..=1.1e9).contains(&total), "{total}");
        let nested = one(Dataset::Nested, rows);
        let per_row = batch_bytes(&nested) as f64 / rows as f64;
        println!(
            "nested: {per_row:.1} bytes/row, 2M rows = {:.3} GB",
            per_row * 2e6 / 1e9
        );
    }

    /// `cargo test --release -p quiver-cli --bins generate -- --ignored --nocapture`
    #[test]
    #[ignore = "timing; run in release"]
    fn timing() {
        for (dataset, rows) in [(Dataset::Lineitem, 6_000_000), (Dataset::Nested, 2_000_000)] {
            for _ in 0..2 {
                let t = std::time::Instant::now();
                let (mut n, mut bytes) = (0, 0);
                for b in batches(dataset, rows, 65_536, 1) {
                    let b = b.unwrap();
                    n += b.num_rows();
                    bytes += batch_bytes(&b);
                }
                let secs = t.elapsed().as_secs_f64();
                println!("{dataset:?}: {n} rows, {bytes} bytes in memory, in {secs:.3} s");
            }
        }
    }
}
