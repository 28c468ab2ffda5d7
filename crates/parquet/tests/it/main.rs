//! Integration tests of quiver-parquet against the official test files and pyarrow.

mod files;
mod mutate;
