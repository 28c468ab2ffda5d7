//! The batches of a [`Selection`]: row groups read one at a time, in the order selected; rows
//! outside the selected ranges, before the offset or past the limit dropped (a row group whose
//! rows are all skipped is not read at all); what is left cut into batches of at most the batch
//! size, zero-copy.

use super::{FileReader, Projection, RowGroupStream, Selection};
use quiver_arrow::parallel::ThreadPool;
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
    /// Whether the selection has no limit.
    unlimited: bool,
    batch_size: usize,
    ready: VecDeque<RecordBatch>,
    /// The row group being read and its selected row ranges left.
    current: Option<(RowGroupStream<'r>, VecDeque<Range<usize>>)>,
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
            projection: reader.project(s.columns.as_deref(), s.row_number.as_deref())?,
            row_groups,
            rows: s.rows.clone(),
            skip: s.offset,
            left: s.limit.unwrap_or(usize::MAX),
            unlimited: s.limit.is_none(),
            batch_size: s.batch_size,
            ready: VecDeque::new(),
            current: None,
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

    /// Decodes the next batch of selected rows; `false` when none are left.
    fn fill(&mut self) -> Result<bool> {
        loop {
            if let Some((rg, ranges)) = &mut self.current {
                if let Some(r) = ranges.front() {
                    let pos = rg.done();
                    if pos < r.start {
                        // Rows before the range: decoded a batch at a time and dropped.
                        let k = (r.start - pos).min(self.batch_size);
                        self.reader.next_rows(rg, k, &self.projection)?;
                        continue;
                    }
                    let k = (r.end - pos).min(self.batch_size);
                    let end = r.end;
                    let batches = self.reader.next_rows(rg, k, &self.projection)?;
                    if rg.done() >= end {
                        ranges.pop_front();
                    }
                    self.ready.extend(batches);
                    return Ok(true);
                }
                self.current = None;
            }
            if self.small_row_groups_in_parallel()? {
                return Ok(true);
            }
            let Some(g) = self.row_groups.pop_front() else {
                return Ok(false);
            };
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
            if ranges.is_empty() {
                continue;
            }
            let rg = self.reader.open_row_group(g, &self.projection)?;
            self.current = Some((rg, ranges.into()));
        }
    }
}

impl Batches<'_, '_> {
    /// A read without row ranges or a limit (and past any offset) of row groups that each fit
    /// one batch:
    /// several of them decoded at once, one per thread (each with its columns decoded on that
    /// thread), their batches queued in order. `false` when the next row groups are not such.
    fn small_row_groups_in_parallel(&mut self) -> Result<bool> {
        let threads = &self.reader.options.threads;
        if threads.threads() < 2 || !self.rows.is_empty() || self.skip > 0 || !self.unlimited {
            return Ok(false);
        }
        let mut groups = Vec::new();
        while groups.len() < threads.threads() {
            let Some(&g) = self.row_groups.front() else {
                break;
            };
            let rows = usize::try_from(self.reader.meta.row_group(g)?.num_rows).unwrap_or(0);
            if rows == 0 || rows > self.batch_size {
                break;
            }
            self.row_groups.pop_front();
            groups.push((g, rows));
        }
        if groups.len() < 2 {
            // One at most: read it as any other.
            if let Some((g, _)) = groups.pop() {
                self.row_groups.push_front(g);
            }
            return Ok(false);
        }
        let (reader, projection) = (self.reader, &self.projection);
        let batches = threads.run_jobs(
            groups,
            || {
                let one = ThreadPool::sequential();
                move |(g, rows): (usize, usize)| {
                    let mut rg = reader.open_row_group(g, projection)?;
                    reader.next_rows_on(&mut rg, rows, projection, &one)
                }
            },
            || {},
        )?;
        self.ready.extend(batches.into_iter().flatten());
        Ok(true)
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
