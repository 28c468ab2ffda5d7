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
//! - **`nested`**: `id` int64 (non-null, the row number), `tags` `list<utf8>` (0–5 items),
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

mod columns;
mod lineitem;
mod nested;
mod rng;
#[cfg(test)]
mod tests;

use columns::*;
use lineitem::*;
use nested::*;
use rng::*;

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
