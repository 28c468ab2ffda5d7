//! Integration tests of quiver-arrow (one test binary; modules mirror the library).

mod alignment;
mod proptests;
mod spec_layouts;
mod validation;
