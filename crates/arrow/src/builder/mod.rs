//! Builders for every array layout (in progress).
