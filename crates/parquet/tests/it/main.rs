//! Integration tests of quiver-parquet against the official test files and pyarrow.

mod arrow_schema;
mod mutants;
mod read_values;
