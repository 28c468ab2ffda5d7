//! Integration tests of the `quiver` binary: every subcommand run as a process.

mod common;
mod convert;
mod failures;
mod inspect;
mod pyarrow;
mod scan_validate;
mod terminal;
mod text_values;
