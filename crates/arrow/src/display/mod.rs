//! Text rendering of values and record batches (in progress).
