//! Reading IPC streams and files (in progress).
