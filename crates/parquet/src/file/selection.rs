//! What to read of a file: which columns, which row groups, which rows, and in batches of
//! what size. [`Selection`] is plain data; [`super::FileReader::batches`] reads it.

use std::collections::BTreeMap;
use std::ops::Range;

/// The rows to read of one row group: ranges of row numbers within it, sorted and not
/// overlapping (the interface that pruning by statistics, page index and bloom filters fills).
pub type RowRanges = Vec<Range<usize>>;

/// What [`super::FileReader::batches`] reads.
///
/// ```
/// use quiver_parquet::file::Selection;
/// let s = Selection {
///     columns: Some(vec!["l_orderkey".into(), "l_comment".into()]),
///     batch_size: 8192,
///     offset: 100,
///     limit: Some(10),
///     ..Selection::default()
/// };
/// assert_eq!(s.row_groups, None);
/// ```
#[derive(Debug, Clone)]
pub struct Selection {
    /// Fields by name, in the order wanted (`None`: all, in schema order): top-level names, or
    /// dotted paths into structs (`"a.b"`: the struct `a` with only its child `b`; a path goes
    /// through a list to the struct of its elements, `"l.x"`). Paths into one field merge.
    pub columns: Option<Vec<String>>,
    /// Row groups by index, in the order wanted (`None`: all, in order).
    pub row_groups: Option<Vec<usize>>,
    /// Per row group, the rows to read (row groups absent from the map are read whole).
    pub rows: BTreeMap<usize, RowRanges>,
    /// Rows to skip first (after the row selection).
    pub offset: usize,
    /// Rows to return at most (`None`: all).
    pub limit: Option<usize>,
    /// Rows per batch at most.
    pub batch_size: usize,
    /// The name of a column to add after the selected ones: each row's position in the file
    /// (`int64`, not null, counting from 0 over every row of the file whatever is selected).
    pub row_number: Option<String>,
}

impl Default for Selection {
    fn default() -> Self {
        Selection {
            columns: None,
            row_groups: None,
            rows: BTreeMap::new(),
            offset: 0,
            limit: None,
            batch_size: 65_536,
            row_number: None,
        }
    }
}
