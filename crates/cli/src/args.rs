//! Command-line arguments (clap derive).

use crate::format::Format;
use crate::generate::Dataset;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Look inside, convert, scan and validate Arrow IPC files and streams, Parquet, CSV and JSON
/// Lines.
///
/// Formats are taken from file extensions: .arrow .feather .ipc (IPC file), .arrows (IPC
/// stream), .parquet, .csv .tsv, .jsonl .ndjson (JSON Lines), .json (a JSON array of
/// objects). Arrow and Parquet input is also recognised by its magic bytes, whatever the name.
/// Use - for standard input or output.
///
/// Exit codes: 0 success, 1 data or I/O error, 2 usage error.
#[derive(Debug, Parser)]
#[command(name = "quiver", version, max_term_width = 100)]
pub struct Cli {
    /// Never show progress bars.
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the schema: fields, types, nullability, dictionary ids, extension types, metadata
    /// (with --parquet: a Parquet file's own schema tree).
    #[command(
        after_help = "Examples:\n  quiver schema data.arrow\n  quiver schema data.parquet --parquet"
    )]
    Schema(SchemaArgs),
    /// Print the first rows as a table.
    #[command(after_help = "Example:\n  quiver head data.arrow -n 5")]
    Head(HeadArgs),
    /// Print rows as a table, CSV, JSON Lines or JSON.
    #[command(
        after_help = "Examples:\n  quiver cat data.arrow --columns id,name --offset 100 --limit 20\n  quiver cat data.arrows --format jsonl > data.jsonl"
    )]
    Cat(CatArgs),
    /// Show the physical layout: footer blocks, batches, buffers, compression, dictionaries
    /// (for Parquet: row groups, column chunks, statistics, key-value metadata; for CSV and
    /// JSON: the dialect, the inferred schema and the row count).
    #[command(
        after_help = "Examples:\n  quiver meta data.arrow --verbose\n  quiver meta data.parquet --pages"
    )]
    Meta(MetaArgs),
    /// Convert between Arrow IPC file, Arrow IPC stream, Parquet, CSV and JSON Lines.
    #[command(
        after_help = "Examples:\n  quiver convert data.csv data.parquet\n  quiver convert data.jsonl data.parquet --compression zstd --compression-level 9 --row-group-size 64MiB\n  quiver convert old.parquet new.parquet --profile modern --bloom-filter id:50000 --sort-by day,id\n  quiver convert data.csv data.arrow --compression zstd\n  quiver convert data.arrow - --to csv | head\n  cat data.jsonl | quiver convert - out.arrows --from jsonl\n  quiver convert data.csv out.arrow --schema 'id:int64, price:decimal128(15,2), day:date32'"
    )]
    Convert(ConvertArgs),
    /// Read and decode every selected value with full validation; report the speed.
    #[command(
        after_help = "Example:\n  quiver scan data.arrow --columns l_orderkey,l_comment --threads 2"
    )]
    Scan(ScanArgs),
    /// Fully validate a file: exit 0 when valid, 1 with a report of each problem.
    #[command(after_help = "Example:\n  quiver validate data.arrow")]
    Validate(InputArgs),
    /// Merge Parquet files into one without decoding their values: column chunks are copied,
    /// small row groups joined (dictionaries merged, indices remapped), metadata kept. Arrow
    /// IPC files merge too (record batches copied, dictionaries unified). The output has the
    /// inputs' format.
    #[command(
        after_help = "Examples:\n  quiver merge all.parquet part-0.parquet part-1.parquet\n  quiver merge all.parquet data/ --row-group-size 128MiB\n  quiver merge all.parquet data/ --verbatim --json\n  quiver merge all.arrow a.arrow b.arrow"
    )]
    Merge(MergeArgs),
    /// Compact a directory of Parquet files: in each partition folder, small files are merged
    /// into files of about --target-file-size, then removed.
    #[command(
        after_help = "Examples:\n  quiver compact lake/events --dry-run\n  quiver compact lake/events --target-file-size 256MiB --row-group-size 1048576"
    )]
    Compact(CompactArgs),
    /// Write a deterministic synthetic data set (TPC-H lineitem-like, or nested).
    #[command(
        after_help = "Examples:\n  quiver generate lineitem --rows 6000000 -o lineitem.arrow\n  quiver generate nested --rows 1000 -o nested.jsonl\n  quiver generate lineitem --rows 1000000 -o lineitem.parquet --compression zstd"
    )]
    Generate(GenerateArgs),
}

/// An input file.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// The input file (- for standard input).
    pub file: PathBuf,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// How to read text inputs.
#[derive(Debug, Args, Clone, Default)]
pub struct ReadArgs {
    /// Input format (default: from the first bytes for Arrow and Parquet, else from the
    /// extension).
    #[arg(long, value_enum)]
    pub from: Option<Format>,
    /// CSV field delimiter (one character; `\t` for tab).
    #[arg(long, value_name = "CHAR")]
    pub delimiter: Option<String>,
    /// The CSV input has no header line (columns are named f0, f1, …).
    #[arg(long)]
    pub no_header: bool,
    /// Rows sampled to infer CSV / JSON types.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub infer_rows: usize,
    /// Explicit schema for CSV / JSON input instead of inference, e.g.
    /// 'id:int64, name:utf8, price:decimal128(15,2), ts:timestamp[us, tz=UTC]'.
    #[arg(long, value_name = "SPEC", conflicts_with = "schema_from")]
    pub schema: Option<String>,
    /// Take the schema for CSV / JSON input from an Arrow IPC file or stream.
    #[arg(long, value_name = "FILE")]
    pub schema_from: Option<PathBuf>,
    /// CSV text read as null, besides the unquoted empty field (repeatable or comma-separated:
    /// --null-value NA,NULL). A quoted empty field "" is an empty string, and in string columns
    /// quoted text never matches.
    #[arg(long = "null-value", value_name = "TEXT", value_delimiter = ',')]
    pub null_values: Vec<String>,
    /// The unit Parquet INT96 timestamps are read in (ns, as pyarrow reads them, covers the
    /// years 1677 to 2262); a value outside the unit's range is an error, never a wrapped date.
    #[arg(long, value_enum, value_name = "UNIT", default_value_t)]
    pub int96_unit: Int96Unit,
    /// Read Parquet pages whose CRC32 checksum does not match their bytes (by default such a
    /// page is an error naming it).
    #[arg(long)]
    pub skip_crc: bool,
    /// Rows per batch read from CSV / JSON (set from `--batch-size` where there is one).
    #[arg(skip)]
    pub batch_size: Option<usize>,
    /// Threads decoding Parquet column chunks (set from `scan --threads`; default: all cores).
    #[arg(skip)]
    pub threads: Option<usize>,
}

/// `schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The input file (- for standard input).
    pub file: PathBuf,
    /// Print a Parquet file's schema tree as parquet-mr writes it (`message schema { … }`)
    /// instead of the Arrow schema it is read as.
    #[arg(long)]
    pub parquet: bool,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// `head`.
#[derive(Debug, Args)]
pub struct HeadArgs {
    /// The input file (- for standard input).
    pub file: PathBuf,
    /// Number of rows.
    #[arg(short = 'n', long = "rows", default_value_t = 10)]
    pub rows: usize,
    #[command(flatten)]
    pub view: ViewArgs,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// `cat`.
#[derive(Debug, Args)]
pub struct CatArgs {
    /// The input file (- for standard input).
    pub file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CatFormat::Table)]
    pub format: CatFormat,
    /// Print at most this many rows.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Skip this many rows first.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub offset: usize,
    #[command(flatten)]
    pub view: ViewArgs,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// Column selection and table width.
#[derive(Debug, Args, Clone, Default)]
pub struct ViewArgs {
    /// Only these columns, in this order (comma-separated names; for Parquet also dotted
    /// paths into structs, e.g. address.city).
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub columns: Option<Vec<String>>,
    /// Fit tables into this many terminal cells, at least 1 (default: the terminal's width
    /// when standard output is a terminal; no limit, nothing cut, otherwise).
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub width: Option<usize>,
}

/// `cat --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CatFormat {
    /// A text table.
    Table,
    /// CSV with a header.
    Csv,
    /// One JSON object per line.
    Jsonl,
    /// One JSON array of objects.
    Json,
}

/// `meta`.
#[derive(Debug, Args)]
pub struct MetaArgs {
    /// The input file (- for standard input): an Arrow IPC file or stream, Parquet, CSV or
    /// JSON.
    pub file: PathBuf,
    /// List every batch's field nodes and buffers (Parquet: show long key-value metadata
    /// values, such as ARROW:schema, in full).
    #[arg(short, long)]
    pub verbose: bool,
    /// List every page header of every column chunk (Parquet).
    #[arg(long)]
    pub pages: bool,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// Output options shared by `convert` and `generate`.
#[derive(Debug, Args, Clone)]
pub struct WriteArgs {
    /// Output format, when the extension does not say.
    #[arg(long, value_enum)]
    pub to: Option<Format>,
    /// Compression of Arrow IPC buffers (none, lz4 or zstd; default none) or of Parquet pages
    /// (any; default snappy; lz4 is Parquet's deprecated Hadoop-framed LZ4: prefer lz4_raw).
    #[arg(long, value_enum, value_name = "CODEC")]
    pub compression: Option<Compression>,
    /// Rows per output batch.
    #[arg(long, value_name = "N")]
    pub batch_size: Option<usize>,
    /// CSV output delimiter (one character; `\t` for tab).
    #[arg(long = "out-delimiter", value_name = "CHAR")]
    pub out_delimiter: Option<String>,
    #[command(flatten)]
    pub json: JsonOutArgs,
    /// Sort the rows by these columns (top-level names; ascending, nulls last, stable) before
    /// writing: the whole input is held in memory. Parquet records them as the row groups'
    /// sorting_columns.
    #[arg(long, value_name = "COL,...", value_delimiter = ',')]
    pub sort_by: Vec<String>,
    #[command(flatten)]
    pub parquet: ParquetOutArgs,
}

/// Parquet output options of `convert` and `generate`.
#[derive(Debug, Args, Clone, Default)]
pub struct ParquetOutArgs {
    /// Parquet: the codec's level (zstd -7..=22, gzip 0..=9, brotli 0..=11; default: the
    /// codec's own).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub compression_level: Option<i32>,
    /// Parquet: when a row group ends: a plain number is rows, a number with a unit encoded
    /// bytes (128MiB, 64MB, 1GiB); the writer holds one row group's encoded pages in memory
    /// (default: 1Mi rows or 128MiB, whichever comes first).
    #[arg(long, value_name = "ROWS|BYTES", value_parser = parse_row_group_size)]
    pub row_group_size: Option<RowGroupSize>,
    /// Parquet: encoded bytes after which a data page ends, e.g. 1MiB, 64KiB (default 1MiB).
    #[arg(long, value_name = "BYTES", value_parser = parse_page_size)]
    pub page_size: Option<usize>,
    /// Parquet: compatible (data page v1, dictionary + plain: what every reader handles;
    /// default) or modern (data page v2; delta and byte-stream-split encodings where they make
    /// a column smaller).
    #[arg(long, value_enum)]
    pub profile: Option<Profile>,
    /// Parquet: a bloom filter on column COL (a top-level name or dotted path), sized for NDV
    /// distinct values per row group (default 100000); repeatable.
    #[arg(long = "bloom-filter", value_name = "COL[:NDV]")]
    pub bloom_filters: Vec<String>,
    /// Parquet: the bloom filters' false-positive probability, above 0 and below 1 (default
    /// 0.05).
    #[arg(long, value_name = "P")]
    pub bloom_fpp: Option<f64>,
    /// Parquet: dictionary-encode columns, falling back to plain when a dictionary passes 1MiB
    /// (the default).
    #[arg(long, overrides_with = "no_dictionary")]
    pub dictionary: bool,
    /// Parquet: no dictionary encoding.
    #[arg(long, overrides_with = "dictionary")]
    pub no_dictionary: bool,
    /// Parquet: statistics written: none, chunk (min, max and null count per column chunk) or
    /// page (also the page index: column and offset indexes; default).
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub statistics: Option<Statistics>,
    /// Parquet: write each column chunk's distinct value count where it is exact: chunks whose
    /// pages are all dictionary-encoded (nulls not counted; every NaN one value, -0.0 and 0.0
    /// one value, as COUNT(DISTINCT) counts them).
    #[arg(long)]
    pub distinct_count: bool,
    /// Parquet: how decimals of precision up to 18 are stored: auto (the default: INT32/INT64
    /// in compressed or delta-encoded columns, where they are smaller; FIXED_LEN_BYTE_ARRAY of
    /// the fewest bytes in uncompressed PLAIN ones), integer, or fixed (always
    /// FIXED_LEN_BYTE_ARRAY, as pyarrow writes them, for readers that know only those).
    #[arg(long, value_enum, value_name = "STORAGE")]
    pub decimals: Option<Decimals>,
}

impl ParquetOutArgs {
    /// The option given, by its flag, if any (they apply to Parquet output only).
    pub fn first_given(&self) -> Option<&'static str> {
        [
            (self.compression_level.is_some(), "--compression-level"),
            (self.row_group_size.is_some(), "--row-group-size"),
            (self.page_size.is_some(), "--page-size"),
            (self.profile.is_some(), "--profile"),
            (!self.bloom_filters.is_empty(), "--bloom-filter"),
            (self.bloom_fpp.is_some(), "--bloom-fpp"),
            (self.dictionary, "--dictionary"),
            (self.no_dictionary, "--no-dictionary"),
            (self.statistics.is_some(), "--statistics"),
            (self.distinct_count, "--distinct-count"),
            (self.decimals.is_some(), "--decimals"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}

/// `quiver merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The merged file (written under a temporary name, renamed when complete).
    pub output: PathBuf,
    /// Input files, in order; a directory stands for the files in it, in name order (hidden
    /// files and names starting with _ left out).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Do not sync the output to disk before renaming it into place (faster: the kernel
    /// writes it back later; a crash of the machine soon after could leave it incomplete).
    /// The inputs are kept, so the merge can be run again. `compact`, which removes its
    /// inputs, always syncs.
    #[arg(long)]
    pub no_sync: bool,
    #[command(flatten)]
    pub merge: MergeOptionArgs,
}

/// How `quiver merge` and `quiver compact` merge files.
#[derive(Debug, Args, Clone, Default)]
pub struct MergeOptionArgs {
    /// Keep every input row group as one output row group (no joining).
    #[arg(long, conflicts_with = "row_group_size")]
    pub verbatim: bool,
    /// Join consecutive row groups up to this size: a plain number is rows, a number with a
    /// unit stored bytes (default: 1Mi rows or 128MiB, whichever comes first). Row groups are
    /// never split.
    #[arg(long, value_name = "ROWS|BYTES", value_parser = parse_row_group_size)]
    pub row_group_size: Option<RowGroupSize>,
    /// The largest merged dictionary page, e.g. 1MiB (the default): past it, a column's
    /// dictionary-encoded pages are written PLAIN.
    #[arg(long, value_name = "BYTES", value_parser = parse_page_size)]
    pub dictionary_limit: Option<usize>,
    /// Check the CRC of every input page that has one.
    #[arg(long)]
    pub verify: bool,
    /// Threads building column chunks (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print the report as JSON on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `quiver compact`.
#[derive(Debug, Args)]
pub struct CompactArgs {
    /// The directory: it and every folder below it (e.g. Hive-style key=value folders) is a
    /// partition whose small Parquet files are compacted.
    pub dir: PathBuf,
    /// The size of the files to make, e.g. 512MiB (the default): files are packed, in name
    /// order, up to it; files already that large stay as they are.
    #[arg(long, value_name = "BYTES", value_parser = parse_page_size)]
    pub target_file_size: Option<usize>,
    /// Print the plan (files in, files out, sizes) without writing or removing anything.
    #[arg(long)]
    pub dry_run: bool,
    /// Keep the input files (by default they are removed once every output of their
    /// partition is in place).
    #[arg(long)]
    pub keep_inputs: bool,
    #[command(flatten)]
    pub merge: MergeOptionArgs,
}

/// `--row-group-size`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowGroupSize {
    /// Rows per row group.
    Rows(usize),
    /// Encoded bytes per row group.
    Bytes(usize),
}

fn parse_row_group_size(text: &str) -> Result<RowGroupSize, String> {
    let (n, unit) = crate::numbers::parse_size(text)?;
    let n = usize::try_from(n).map_err(|_| format!("{text:?} is too large"))?;
    if n == 0 {
        return Err("a row group needs at least 1 row or byte".into());
    }
    Ok(if unit {
        RowGroupSize::Bytes(n)
    } else {
        RowGroupSize::Rows(n)
    })
}

fn parse_page_size(text: &str) -> Result<usize, String> {
    let (n, _) = crate::numbers::parse_size(text)?;
    match usize::try_from(n) {
        Ok(0) => Err("a page needs at least 1 byte".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("{text:?} is too large")),
    }
}

/// `--int96-unit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Int96Unit {
    /// Seconds.
    S,
    /// Milliseconds.
    Ms,
    /// Microseconds (Spark's own unit).
    Us,
    /// Nanoseconds.
    #[default]
    Ns,
}

impl Int96Unit {
    /// The Arrow time unit.
    pub fn time_unit(self) -> quiver_arrow::datatype::TimeUnit {
        use quiver_arrow::datatype::TimeUnit;
        match self {
            Int96Unit::S => TimeUnit::Second,
            Int96Unit::Ms => TimeUnit::Millisecond,
            Int96Unit::Us => TimeUnit::Microsecond,
            Int96Unit::Ns => TimeUnit::Nanosecond,
        }
    }
}

/// `--profile`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Profile {
    /// Data page v1, dictionary + plain.
    Compatible,
    /// Data page v2, chosen encodings.
    Modern,
}

/// `--decimals`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Decimals {
    /// Integers where compressed or delta-encoded, fixed-size bytes where stored raw.
    Auto,
    /// INT32 up to precision 9, INT64 up to 18.
    Integer,
    /// FIXED_LEN_BYTE_ARRAY always.
    Fixed,
}

/// `--statistics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Statistics {
    /// No statistics.
    None,
    /// Column chunk statistics.
    Chunk,
    /// Column chunk statistics and the page index.
    Page,
}

/// JSON output options of `convert` and `generate` (`cat` writes the defaults).
#[derive(Debug, Args, Clone, Copy, Default)]
pub struct JsonOutArgs {
    /// How JSON output writes NaN and infinities: null (default; pyarrow, polars and DuckDB
    /// read a number column) or string ("NaN", "inf", "-inf": exact, read back by quiver).
    #[arg(
        long = "json-nonfinite",
        value_enum,
        value_name = "HOW",
        default_value_t
    )]
    pub non_finite: JsonNonFinite,
}

/// `--json-nonfinite`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum JsonNonFinite {
    /// Write null.
    #[default]
    Null,
    /// Write the strings "NaN", "inf", "-inf".
    String,
}

/// `--compression`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Compression {
    /// Uncompressed.
    None,
    /// Snappy (Parquet).
    Snappy,
    /// Gzip (Parquet).
    Gzip,
    /// Brotli (Parquet).
    Brotli,
    /// Zstandard.
    Zstd,
    /// A raw LZ4 block (Parquet).
    #[value(name = "lz4_raw", alias = "lz4-raw")]
    Lz4Raw,
    /// Arrow IPC: LZ4 frame; Parquet: the deprecated Hadoop-framed LZ4.
    Lz4,
}

/// `convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The input file (- for standard input).
    pub input: PathBuf,
    /// The output file (- for standard output).
    pub output: PathBuf,
    /// Only these columns, in this order (comma-separated names; for Parquet also dotted
    /// paths into structs, e.g. address.city).
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub columns: Option<Vec<String>>,
    #[command(flatten)]
    pub read: ReadArgs,
    #[command(flatten)]
    pub write: WriteArgs,
}

/// `scan`.
#[derive(Debug, Args)]
pub struct ScanArgs {
    /// The input file (- for standard input).
    pub file: PathBuf,
    /// Only these columns (comma-separated names).
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub columns: Option<Vec<String>>,
    /// Decoding threads for Arrow IPC and Parquet files (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Print the result as one JSON object (for scripts and benchmarks).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// `generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Which data set.
    #[arg(value_enum)]
    pub dataset: Dataset,
    /// Number of rows.
    #[arg(long, value_name = "N")]
    pub rows: u64,
    /// The output file (- for standard output; format from the extension or --to).
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Seed of the pseudo-random generator (same seed, same data).
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    #[command(flatten)]
    pub write: WriteArgs,
}
