//! The integration test binary of quiver-ipc (one binary per crate to keep link time low).

mod inspect;
mod merge;
mod merge_errors;
mod read_common;
mod read_dictionary_budget;
mod read_errors;
mod read_fuzz;
mod read_fuzz_regressions;
mod read_gold;
mod read_projection;
mod read_pyarrow_compressed;
mod read_stream_state;
mod read_zero_copy;
mod schema_message;
mod thread_pool;
mod write_canon;
mod write_data;
mod write_dictionary;
mod write_layout;
mod write_pyarrow;
mod write_roundtrip;
