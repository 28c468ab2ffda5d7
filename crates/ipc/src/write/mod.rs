//! Writing IPC streams and files (in progress).
