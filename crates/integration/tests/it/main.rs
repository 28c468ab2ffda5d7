//! Integration tests of quiver-integration (one test binary; modules mirror the library).

mod binary;
mod dictionary_paths;
mod gold;
mod ipc_gold;
mod malformed;
mod mutations;
mod pyarrow_gold;
mod pyarrow_written;
mod spot_checks;
mod types;
