//! The batches of a [`Selection`]: row groups read one at a time, in the order selected; rows
//! outside the selected ranges, before the offset or past the limit dropped (a row group whose
//! rows are all skipped is not read at all); what is left cut into batches of at most the batch
//! size, zero-copy.

use super::{FileReader, Projection, Selection};
use quiver_arrow::{Error, RecordBatch, Result};
use std::collections::{BTreeMap, VecDeque};
use std::ops::Range;

/// An iterator of record batches from [`FileReader::batches`].
pub struct Batches<'r, 'a> {
    reader: &'r FileReader<'a>,
    projection: Projection,
    row_groups: VecDeque<usize>,
    rows: BTreeMap<usize, Vec<Range<usize>>>,
    skip: usize,
    left: usize,
    batch_size: usize,
    ready: VecDeque<RecordBatch>,
    failed: bool,
}

impl<'r, 'a> Batches<'r, 'a> {
    pub(super) fn new(reader: &'r FileReader<'a>, s: &Selection) -> Result<Self> {
        if s.batch_size == 0 {
            return Err(Error::invalid("the batch size must be at least 1"));
        }
        let n = reader.num_row_groups();
        let row_groups: VecDeque<usize> = match &s.row_groups {
            Some(v) => v.iter().copied().collect(),
            None => (0..n).collect(),
        };
        if let Some(&bad) = row_groups.iter().find(|&&g| g >= n) {
            return Err(Error::invalid(format!(
                "row group {bad} requested; the file has {n}"
            )));
        }
        Ok(Batches {
            reader,
            projection: reader.project(s.columns.as_deref())?,
            row_groups,
            rows: s.rows.clone(),
            skip: s.offset,
            left: s.limit.unwrap_or(usize::MAX),
            batch_size: s.batch_size,
            ready: VecDeque::new(),
            failed: false,
        })
    }

    /// The schema of the batches.
    pub fn schema(&self) -> &quiver_arrow::datatype::SchemaRef {
        self.projection.schema()
    }

    /// The selected row ranges of row group `g` of `rows` rows, checked.
    fn ranges(&self, g: usize, rows: usize) -> Result<Vec<Range<usize>>> {
        let Some(ranges) = self.rows.get(&g) else {
            return Ok(std::iter::once(0..rows).collect());
        };
        let mut end = 0;
        for r in ranges {
            if r.start < end || r.start > r.end || r.end > rows {
                return Err(Error::invalid(format!(
                    "row group {g}: row ranges must be sorted, disjoint and within its {rows} rows ({r:?})"
                )));
            }
            end = r.end;
        }
        Ok(ranges.clone())
    }

    /// Reads the next row group with selected rows left after the offset; `false` when none.
    fn fill(&mut self) -> Result<bool> {
        while let Some(g) = self.row_groups.pop_front() {
            let rows = self.reader.meta.row_group(g)?.num_rows;
            let rows = usize::try_from(rows)
                .map_err(|_| Error::oos(format!("row group {g}: {rows} rows")))?;
            let mut ranges = self.ranges(g, rows)?;
            let selected: usize = ranges.iter().map(|r| r.len()).sum();
            if self.skip >= selected {
                // Every selected row is before the offset: the row group is not read.
                self.skip -= selected;
                continue;
            }
            // Drop the rows before the offset, and those past the limit.
            let mut skip = std::mem::take(&mut self.skip);
            let mut want = self.left;
            ranges.retain_mut(|r| {
                let drop = skip.min(r.len());
                r.start += drop;
                skip -= drop;
                r.end = r.start + r.len().min(want);
                want -= r.len();
                r.start < r.end
            });
            let batch = self.reader.read_projected(g, &self.projection)?;
            for r in ranges {
                let mut at = r.start;
                while at < r.end {
                    let n = (r.end - at).min(self.batch_size);
                    self.ready.push_back(batch.slice(at, n));
                    at += n;
                }
            }
            return Ok(true);
        }
        Ok(false)
    }
}

impl Iterator for Batches<'_, '_> {
    type Item = Result<RecordBatch>;

    fn next(&mut self) -> Option<Result<RecordBatch>> {
        while !self.failed && self.left > 0 {
            if let Some(b) = self.ready.pop_front() {
                self.left -= b.num_rows();
                return Some(Ok(b));
            }
            match self.fill() {
                Ok(true) => {}
                Ok(false) => return None,
                Err(e) => {
                    self.failed = true;
                    return Some(Err(e));
                }
            }
        }
        None
    }
}
