//! Integration tests of quiver-integration (one test binary; modules mirror the library).

mod gold;
mod malformed;
mod mutations;
mod spot_checks;
mod types;
