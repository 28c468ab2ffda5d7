//! Integration tests of the `quiver` binary: every subcommand run as a process.

mod common;
mod convert;
mod detection;
mod display;
mod failures;
mod inspect;
mod merge;
mod parquet;
mod parquet_write;
mod pyarrow;
mod readme;
mod scan_validate;
mod signals;
mod terminal;
mod text_values;
