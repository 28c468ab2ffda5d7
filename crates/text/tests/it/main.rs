//! Integration tests of quiver-text: CSV, JSON Lines, round trips and pyarrow comparisons.

mod csv;
mod empty_strings;
mod json;
mod json_types;
mod oracle;
mod pyarrow;
mod roundtrip;
mod util;
mod zones;
