//! quiver-ipc: not yet implemented; see the open issues.
