//! Integration tests of quiver-parquet against the official test files and pyarrow.

mod arrow_schema;
mod batched;
mod bloom;
mod bomb;
mod codecs;
mod common;
mod files;
mod lzo_pages;
mod merge;
mod merge_decimals;
mod merge_oracles;
mod mutants;
mod mutate;
mod read_cases;
mod read_values;
mod selection;
mod write;
mod write_distinct;
mod write_faults;
mod write_matrix;
mod write_memory;
mod write_meta;
mod writers;
