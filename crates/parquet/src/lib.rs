//! quiver-parquet: not yet implemented; see the open issues.
