//! CSV reading and writing.
//!
//! # Reading
//! [`CsvReader`] streams record batches of at most [`CsvReadOptions::batch_size`] rows, holding
//! one batch (plus the inference sample) in memory. Fields are read as bytes and parsed
//! straight into the column builders.
//!
//! **Nulls and empty strings.** An unquoted empty field is null and a quoted empty field
//! `""` is the empty string, so that CSV written by [`CsvWriter`] reads back equal. In
//! string and binary columns an *unquoted* field equal to one of
//! [`CsvReadOptions::null_values`] is null (quoted fields never are); in other columns an
//! empty field, quoted or not, and any field equal to a marker are null. The default markers
//! are only the empty field.
//!
//! Deliberate differences from pyarrow's defaults: pyarrow reads an empty field in a string
//! column as `""` (`strings_can_be_null=False`) and treats `NA`, `NULL`, `null`, `N/A`, `NaN`
//! and others as null in other columns. Reading text such as `NA` (a name, a country code)
//! as null would change the data, so quiver keeps it unless asked (`with_null_values`).
//! pyarrow reads quiver's CSV equal with `ConvertOptions(null_values=[""],
//! strings_can_be_null=True, quoted_strings_can_be_null=False)`; DuckDB with `read_csv(…, allow_quoted_nulls=false)`
//! (both default to reading `""` as null).
//!
//! **Inference** (without [`CsvReadOptions::schema`]) looks at the first
//! [`CsvReadOptions::infer_rows`] records, ignoring nulls, and picks per column the first type
//! every value parses as, following pyarrow:
//! 1. `null` when every sampled value is null (pyarrow does the same);
//! 2. `bool`: `true`/`false` in any case;
//! 3. `int64`: an optional sign and decimal digits, within range;
//! 4. `double`: decimal or exponent notation, `inf`, `NaN`;
//! 5. `date32[day]`: `YYYY-MM-DD`;
//! 6. `timestamp[s]`: `YYYY-MM-DD[T| ]HH:MM[:SS]` (dates allowed in the mix);
//!    `timestamp[ns]` when some value has a fraction of a second; with `, tz=UTC` when every
//!    value ends in a zone (`Z`, `±HH:MM`), converted to UTC (a mix of zoned and unzoned
//!    values is a string column, as in pyarrow);
//! 7. `string` otherwise.
//!
//! Times of day are not inferred (they stay strings; pyarrow infers `time32[s]` for
//! `HH:MM:SS`). Records after the sample must parse as the inferred type: a value that does not
//! is an error naming its line and column, never a silent change of type.
//!
//! **Explicit schemas** give the column types (names come from the schema; the header, if
//! any, is skipped but must have as many fields). See [`CsvReader`] for the text each type
//! accepts.
//!
//! # Writing
//! [`CsvWriter`] writes a header line and one record per row; nulls are empty fields, empty
//! strings are `""`, other strings are quoted only when needed (they contain the delimiter, a
//! quote or a line end). A row whose only field is null is written `""` too, since an empty
//! line would be skipped by readers: in a one-column table of strings a null reads back as the
//! empty string (pyarrow writes an empty line, which loses the row). Values use the forms the reader parses back: floats in Rust's
//! shortest round-trip form (`0.1`, `1e-7`, `NaN`, `inf`), decimals with exactly their scale's
//! digits, timestamps in ISO 8601 with the unit's fraction digits (`2020-01-31T12:24:56.789`;
//! zoned columns as local time in their zone with the offset in force,
//! `2023-12-31T20:00:07.000-05:00`, which pyarrow and DuckDB read to the same instant),
//! durations as integer counts, binary values as their raw bytes, dictionaries as their values.

mod infer;
mod reader;
mod record;
mod writer;

pub use reader::CsvReader;
pub use writer::{CsvWriteOptions, CsvWriter};

use quiver_arrow::SchemaRef;

/// Options of [`CsvReader`]; see the [module docs](self) for nulls and inference.
///
/// ```
/// use quiver_text::csv::CsvReadOptions;
/// let o = CsvReadOptions::default().with_delimiter(b';').with_batch_size(1024);
/// assert!(o.has_header);
/// assert_eq!(o.delimiter, b';');
/// ```
#[derive(Clone, Debug)]
pub struct CsvReadOptions {
    /// Field delimiter (default `,`).
    pub delimiter: u8,
    /// Whether the first line holds column names (default `true`). Without a header, columns
    /// are named `f0`, `f1`, … (as pyarrow's `autogenerate_column_names`) unless a schema is
    /// given.
    pub has_header: bool,
    /// Explicit column types: no inference; the column count must match, names are taken
    /// from the schema.
    pub schema: Option<SchemaRef>,
    /// Number of records sampled for inference (default 1000; at least 1 is used).
    pub infer_rows: usize,
    /// Maximum rows per batch (default 65536; at least 1 is used).
    pub batch_size: usize,
    /// Field values read as null (default: only the empty field; see the module docs for
    /// quoted fields).
    pub null_values: Vec<String>,
    /// Whether string and binary columns can hold nulls at all (default `true`); when
    /// `false`, such fields are read verbatim (an unquoted empty field is an empty string,
    /// as with pyarrow's default).
    pub strings_can_be_null: bool,
    /// Quote character (default `"`); quotes inside quoted fields are doubled.
    pub quote: u8,
}

/// The default [`CsvReadOptions::null_values`]: only the empty field.
pub const DEFAULT_NULL_VALUES: [&str; 1] = [""];

impl Default for CsvReadOptions {
    fn default() -> Self {
        CsvReadOptions {
            delimiter: b',',
            has_header: true,
            schema: None,
            infer_rows: 1000,
            batch_size: 65536,
            null_values: DEFAULT_NULL_VALUES.iter().map(|s| s.to_string()).collect(),
            strings_can_be_null: true,
            quote: b'"',
        }
    }
}

impl CsvReadOptions {
    /// Sets [`CsvReadOptions::delimiter`].
    pub fn with_delimiter(mut self, delimiter: u8) -> Self {
        self.delimiter = delimiter;
        self
    }
    /// Sets [`CsvReadOptions::has_header`].
    pub fn with_header(mut self, has_header: bool) -> Self {
        self.has_header = has_header;
        self
    }
    /// Sets [`CsvReadOptions::schema`].
    pub fn with_schema(mut self, schema: SchemaRef) -> Self {
        self.schema = Some(schema);
        self
    }
    /// Sets [`CsvReadOptions::infer_rows`].
    pub fn with_infer_rows(mut self, rows: usize) -> Self {
        self.infer_rows = rows;
        self
    }
    /// Sets [`CsvReadOptions::batch_size`].
    pub fn with_batch_size(mut self, rows: usize) -> Self {
        self.batch_size = rows;
        self
    }
    /// Sets [`CsvReadOptions::null_values`].
    pub fn with_null_values(mut self, values: Vec<String>) -> Self {
        self.null_values = values;
        self
    }
    /// Sets [`CsvReadOptions::strings_can_be_null`].
    pub fn with_strings_can_be_null(mut self, yes: bool) -> Self {
        self.strings_can_be_null = yes;
        self
    }
    /// Sets [`CsvReadOptions::quote`].
    pub fn with_quote(mut self, quote: u8) -> Self {
        self.quote = quote;
        self
    }
}
