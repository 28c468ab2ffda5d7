//! JSON Lines reading and writing (one JSON object per line), and JSON array output.
//!
//! # Reading
//! [`JsonReader`] reads one line at a time into a reused buffer, parses it with a small
//! built-in parser (numbers keep their text, so 64-bit integers and decimals convert exactly)
//! and appends the values straight into the column builders; memory is bounded by one batch
//! (plus the inference sample). Blank lines are skipped; every other line must hold one JSON
//! object.
//!
//! **Inference** (without [`JsonReadOptions::schema`]) over the first
//! [`JsonReadOptions::infer_rows`] objects, fields in first-seen order (the union of keys;
//! missing keys are null):
//! - a number without fraction or exponent is `int64`, any other number `double`; a mix of the
//!   two is `double`;
//! - `true`/`false` are `bool`; strings are `string`, except:
//!   - ISO dates (`"2024-03-01"`) are `date32`, and ISO timestamps
//!     (`"2024-03-01T12:00:00"`, `"2024-03-01 12:00"`) are timestamps whose unit holds the
//!     most fraction digits seen (none: `s`, up to 3: `ms`, 6: `us`, 9: `ns`), with `tz=UTC`
//!     when every value has an offset or `Z` (converted to UTC); dates mixed with timestamps
//!     without offsets give the timestamp type, offsets mixed with none give `string` — so
//!     quiver's own JSON Lines read back with their types (a zone name other than UTC is not
//!     in the text: such columns come back as `tz=UTC`, the same instants);
//!   - `"NaN"`, `"inf"`, `"-inf"` mixed with numbers are `double` (what
//!     [`NonFinite::String`] writes);
//!
//!   pyarrow's `read_json` differs: it infers dates as `timestamp[s]`, keeps timestamps with a
//!   fraction as strings, and gives timestamps with offsets no zone;
//! - an object is a `struct`, an array a `list` of the merged element kind (empty arrays and
//!   nulls do not fix it);
//! - a field that is null (or an empty list's element) in every sampled row is `null`-typed;
//! - other scalar mixes (e.g. number and string, bool and number) become `string`, reading the
//!   numbers and booleans as their JSON text (pyarrow raises an error instead);
//! - a mix of object or array with anything but null is an error naming the line and path.
//!
//! Rows after the sample must fit the inferred schema: a value of another kind, or a key the
//! sample did not have, is an error naming the line and field path (pass an explicit schema to
//! ignore extra keys).
//!
//! **Explicit schemas**: absent fields are null (an error for non-nullable fields), keys not in
//! the schema are ignored. Values per type: integers from JSON integers (range-checked); floats
//! from numbers or the strings `"NaN"`, `"inf"`, `"-inf"`; decimals from numbers or strings,
//! exactly (`"123.45"`); strings from strings (numbers and booleans as their JSON text);
//! binary and fixed-size binary from hex strings (`"6a6f65"`, optional `0x`); dates, times,
//! timestamps and intervals from strings in the CSV forms (see [`crate::csv::CsvReader`]);
//! durations from integers; lists (`list`, `large_list`, `fixed_size_list`) from arrays;
//! structs from objects; maps from objects `{"k": v}` (keys converted from text to the key
//! type) or from arrays of `{"key": k, "value": v}`; dictionaries of strings from strings.
//! List views, unions and run-end encoded types cannot be read ([`Error::NotSupported`]).
//!
//! # Writing
//! [`JsonWriter`] writes every type: integers and finite floats as JSON numbers (shortest
//! round-trip form), NaN and infinities as `null` (as pandas and polars do; the strings
//! `"NaN"`, `"inf"`, `"-inf"` with [`NonFinite::String`]); booleans;
//! strings escaped (`"`, `\`, control characters); binary as lowercase hex strings; decimals
//! as strings with exactly their scale's digits (`"-123.45"`); durations as integers; dates,
//! times, timestamps and intervals as the strings `quiver_arrow::display::format_value` gives
//! them (zoned timestamps as local time with the offset, `"2023-12-31T20:00:07.789-05:00"`);
//! lists as arrays, structs as objects (null children as
//! `"k": null`), maps as objects when the keys are strings and otherwise as arrays of
//! `{"key": k, "value": v}`; unions as the selected child's value; dictionaries and run-end
//! encoded values as their value; nulls as `null`.
//!
//! [`Error::NotSupported`]: quiver_arrow::Error::NotSupported

mod array;
mod decode;
mod infer;
mod parser;
mod reader;
mod writer;

pub use array::ArrayAsLines;
pub use reader::JsonReader;
pub use writer::{JsonFormat, JsonWriter, NonFinite};

use quiver_arrow::SchemaRef;

/// Options of [`JsonReader`].
///
/// ```
/// use quiver_text::json::JsonReadOptions;
/// let o = JsonReadOptions::default().with_infer_rows(10);
/// assert_eq!(o.infer_rows, 10);
/// assert_eq!(o.batch_size, 65536);
/// ```
#[derive(Clone, Debug)]
pub struct JsonReadOptions {
    /// Explicit schema: no inference (see the [module docs](self)).
    pub schema: Option<SchemaRef>,
    /// Number of objects sampled for inference (default 1000; at least 1 is used).
    pub infer_rows: usize,
    /// Maximum rows per batch (default 65536; at least 1 is used).
    pub batch_size: usize,
}

impl Default for JsonReadOptions {
    fn default() -> Self {
        JsonReadOptions {
            schema: None,
            infer_rows: 1000,
            batch_size: 65536,
        }
    }
}

impl JsonReadOptions {
    /// Sets [`JsonReadOptions::schema`].
    pub fn with_schema(mut self, schema: SchemaRef) -> Self {
        self.schema = Some(schema);
        self
    }
    /// Sets [`JsonReadOptions::infer_rows`].
    pub fn with_infer_rows(mut self, rows: usize) -> Self {
        self.infer_rows = rows;
        self
    }
    /// Sets [`JsonReadOptions::batch_size`].
    pub fn with_batch_size(mut self, rows: usize) -> Self {
        self.batch_size = rows;
        self
    }
}
