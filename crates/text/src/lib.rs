//! CSV and JSON Lines for quiver: readers with type inference or an explicit schema, and writers.
//!
//! - [`csv`]: [`csv::CsvReader`] (streaming, batch by batch, types inferred from a sample or
//!   given as a schema) and [`csv::CsvWriter`].
//! - [`json`]: [`json::JsonReader`] for JSON Lines (one object per line; nested objects and
//!   arrays become structs and lists) and [`json::JsonWriter`] (JSON Lines or one JSON array).
//! - [`parse_data_type`] / [`parse_schema`]: types and schemas in pyarrow's spelling
//!   (`id: int64 not null, price: decimal128(15, 2), tags: list<string>`), and their inverses
//!   [`format_data_type`] / [`format_schema`].
//!
//! Every reader error names the line (1-based, as a text editor counts, header included) and
//! the column or field path, and quotes the offending value:
//! `line 17, column "qty": cannot parse "abc" as int64`.
//!
//! Writing a batch and reading the output back with the batch's schema gives a logically equal
//! batch, for every type the readers support (see each module for the text forms used; JSON
//! needs `NonFinite::String` to keep NaN and infinities). CSV writes an empty string as `""`
//! and a null as an empty field; the one exception is a one-column table of strings, where a
//! null row is written `""` too (an empty line would be skipped) and reads back as `""`.

pub mod csv;
pub mod json;
mod types;
mod value;

pub use types::{format_data_type, format_schema, parse_data_type, parse_schema};
