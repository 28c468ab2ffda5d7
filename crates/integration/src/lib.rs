//! quiver-integration: not yet implemented; see the open issues.
