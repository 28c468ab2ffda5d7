//! Logical equality and concatenation (in progress).
