//! quiver-integration: the Arrow integration-test JSON format and shared test helpers.
//!
//! - [`json`]: read and write the JSON files the Arrow integration tests exchange
//!   ([`json::read_json`], [`json::read_json_path`], [`json::write_json`]).
//! - [`testdata`]: where the official test files are (`QUIVER_TEST_DATA`).

pub mod compare;
pub mod json;
pub mod testdata;

pub use json::{Dictionaries, JsonFile, read_json, read_json_path, write_json};
