//! The metadata of a merged column chunk, from its pieces': statistics (min of the minima,
//! max of the maxima by the column's sort order, null and NaN counts summed, exactness kept),
//! size statistics (summed), the column index (the pieces' page entries in order, the
//! boundary order found again), Bloom filters (their union) and the encodings used.
//!
//! Each is written only when every piece has it (a piece of nulls written for an input that
//! lacks the column has all of them, trivially); otherwise the merged chunk goes without, as
//! a writer that did not compute it would. Statistics in the deprecated `min`/`max` fields
//! (signed byte order for byte arrays in old writers) are kept only where that order is the
//! column's (signed integers): readers decide whether to trust them by `created_by`, which
//! the merged file changes.

use super::convert::Conversion;
use crate::arrow::physical::SortOrder;
use crate::arrow::write_stats::{boundary_order_of, compare};
use crate::bloom::Sbbf;
use crate::format::{
    ColumnIndex, ColumnMetaData, ColumnOrder, Encoding, KeyValue, SizeStatistics, Statistics, Type,
};
use std::borrow::Cow;
use std::cmp::Ordering;

/// A bound and whether it is exact (`None`: not said).
type Bound<'a> = (Cow<'a, [u8]>, Option<bool>);

/// The column index entries of the pieces so far, their bounds converted where the piece's
/// were ([`super::convert`]).
#[derive(Debug)]
struct IndexAcc<'a> {
    null_pages: Vec<bool>,
    min_values: Vec<Cow<'a, [u8]>>,
    max_values: Vec<Cow<'a, [u8]>>,
    null_counts: Option<Vec<i64>>,
    repetition_level_histograms: Option<Vec<i64>>,
    definition_level_histograms: Option<Vec<i64>>,
    nan_counts: Option<Vec<i64>>,
}

/// The merged metadata of one output column chunk, fed piece by piece.
#[derive(Debug)]
pub(super) struct MetaAcc<'a> {
    order: SortOrder,
    physical: Type,
    levels: (i16, i16),
    pieces: usize,
    /// The one piece's statistics, when there is one piece.
    single: Option<Statistics<'a>>,
    stats: bool,
    bounds_known: bool,
    null_count: Option<i64>,
    nan_count: Option<i64>,
    min: Option<Bound<'a>>,
    max: Option<Bound<'a>>,
    /// The pieces' size statistics summed (`None` before the first piece with data).
    size: Option<SizeStatistics>,
    /// Every piece with data had size statistics.
    size_known: bool,
    /// Rows of the pieces of nulls (level 0 in both histograms, no bytes).
    null_rows: i64,
    index: Option<IndexAcc<'a>>,
    blooms: Option<Vec<Sbbf>>,
    /// A piece had a Bloom filter.
    pub bloom_seen: bool,
    /// The encodings the chunk's pages use (in the order first seen).
    pub encodings: Vec<Encoding>,
    /// The first piece's column key-value metadata.
    pub key_value_metadata: Option<Vec<KeyValue<'a>>>,
}

/// What one piece brings.
#[derive(Debug)]
pub(super) struct PieceMeta<'a, 'm> {
    /// Its column metadata.
    pub meta: &'m ColumnMetaData<'a>,
    /// Its column order, when its file says.
    pub column_order: Option<ColumnOrder>,
    /// Its column index, when it has one that matches its pages.
    pub index: Option<ColumnIndex<'a>>,
    /// Its Bloom filter, when it has one (rebuilt from the converted values when its values
    /// are converted).
    pub bloom: Option<Sbbf>,
    /// How its decimal values convert to the output's storage, when they do: its statistics
    /// and column index bounds are converted the same way.
    pub convert: Option<Conversion>,
}

/// Whether a PLAIN float or double is NaN.
fn is_nan(v: &[u8]) -> bool {
    match v.len() {
        4 => f32::from_le_bytes([v[0], v[1], v[2], v[3]]).is_nan(),
        8 => f64::from_le_bytes(v.try_into().unwrap_or([0; 8])).is_nan(),
        _ => false,
    }
}

fn add(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    a.zip(b).and_then(|(a, b)| a.checked_add(b))
}

fn add_lists(a: &mut Option<Vec<i64>>, b: Option<&Vec<i64>>) {
    match (a.as_mut(), b) {
        (Some(x), Some(y)) if x.len() == y.len() => {
            for (x, y) in x.iter_mut().zip(y) {
                *x = x.saturating_add(*y);
            }
        }
        _ => *a = None,
    }
}

impl<'a> MetaAcc<'a> {
    /// An empty accumulator for a leaf of `physical` type, `order` and maximum levels (def,
    /// rep), whose output column order is `column_order`.
    pub(super) fn new(order: SortOrder, physical: Type, levels: (i16, i16)) -> Self {
        MetaAcc {
            order,
            physical,
            levels,
            pieces: 0,
            single: None,
            stats: true,
            bounds_known: true,
            null_count: Some(0),
            nan_count: Some(0),
            min: None,
            max: None,
            size: None,
            size_known: true,
            null_rows: 0,
            index: Some(IndexAcc {
                null_pages: Vec::new(),
                min_values: Vec::new(),
                max_values: Vec::new(),
                null_counts: Some(Vec::new()),
                repetition_level_histograms: Some(Vec::new()),
                definition_level_histograms: Some(Vec::new()),
                nan_counts: Some(Vec::new()),
            }),
            blooms: Some(Vec::new()),
            bloom_seen: false,
            encodings: Vec::new(),
            key_value_metadata: None,
        }
    }

    /// Records that the chunk uses `e`.
    pub(super) fn encoding(&mut self, e: Encoding) {
        if !self.encodings.contains(&e) {
            self.encodings.push(e);
        }
    }

    fn take_bound(&mut self, min: Bound<'a>, max: Bound<'a>) {
        let (order, physical) = (self.order, self.physical);
        let pick = |cur: &mut Option<Bound<'a>>, new: Bound<'a>, want: Ordering| match cur {
            None => *cur = Some(new),
            Some(c) => match compare(order, physical, &new.0, &c.0) {
                o if o == want => *cur = Some(new),
                Ordering::Equal if new.1 == Some(true) => c.1 = Some(true),
                _ => {}
            },
        };
        pick(&mut self.min, min, Ordering::Less);
        pick(&mut self.max, max, Ordering::Greater);
    }

    /// Takes a piece of an input in.
    pub(super) fn piece(&mut self, p: PieceMeta<'a, '_>) {
        self.pieces += 1;
        let m = p.meta;
        if self.key_value_metadata.is_none() {
            self.key_value_metadata = m.key_value_metadata.clone();
        }
        for e in m.encodings.iter() {
            // A converted piece's pages that were not dictionary-encoded are PLAIN now.
            let rewritten = matches!(
                e,
                Encoding::DELTA_BINARY_PACKED
                    | Encoding::BYTE_STREAM_SPLIT
                    | Encoding::DELTA_LENGTH_BYTE_ARRAY
                    | Encoding::DELTA_BYTE_ARRAY
            );
            if p.convert.is_some() && rewritten {
                self.encoding(Encoding::PLAIN);
            } else {
                self.encoding(e);
            }
        }
        let s = m.statistics.as_ref().map(|e| e.get());
        if self.pieces == 1 {
            // A converted piece's deprecated bounds are not carried.
            self.single = s.clone().map(|mut s| {
                if p.convert.is_some() {
                    (s.min, s.max) = (None, None);
                }
                s
            });
        }
        let typed = p.column_order.unwrap_or(ColumnOrder::TypeDefined) == ColumnOrder::TypeDefined;
        match s {
            None => self.stats = false,
            Some(s) => {
                self.null_count = add(self.null_count, s.null_count);
                self.nan_count = add(self.nan_count, s.nan_count);
                let bounds = match (s.min_value, s.max_value) {
                    (Some(lo), Some(hi)) => {
                        Some(((lo, s.is_min_value_exact), (hi, s.is_max_value_exact)))
                    }
                    // The deprecated fields compare signed: the column's order for signed
                    // integers and floats (a NaN bound says nothing).
                    _ if self.order == SortOrder::Signed
                        || (self.order == SortOrder::Float
                            && !s.min.is_some_and(is_nan)
                            && !s.max.is_some_and(is_nan)) =>
                    {
                        s.min.zip(s.max).map(|(lo, hi)| ((lo, None), (hi, None)))
                    }
                    _ => None,
                };
                // Converted bounds are owned; one that does not convert leaves them unknown.
                let bounds = bounds.and_then(|((lo, lx), (hi, hx))| match p.convert {
                    None => Some(((Cow::Borrowed(lo), lx), (Cow::Borrowed(hi), hx))),
                    Some(c) => Some((
                        (Cow::Owned(c.bound(lo).ok()?), lx),
                        (Cow::Owned(c.bound(hi).ok()?), hx),
                    )),
                });
                match bounds {
                    Some((lo, hi)) if typed && self.order != SortOrder::Undefined => {
                        self.take_bound(lo, hi)
                    }
                    // Only nulls: no bounds to take.
                    None if s.null_count == Some(m.num_values) => {}
                    _ => self.bounds_known = false,
                }
            }
        }
        match (&mut self.size, m.size_statistics.as_ref().map(|e| e.get())) {
            (_, None) => self.size_known = false,
            (None, Some(s)) => self.size = Some(s),
            (Some(acc), Some(s)) => {
                acc.unencoded_byte_array_data_bytes = add(
                    acc.unencoded_byte_array_data_bytes,
                    s.unencoded_byte_array_data_bytes,
                );
                add_lists(
                    &mut acc.repetition_level_histogram,
                    s.repetition_level_histogram.as_ref(),
                );
                add_lists(
                    &mut acc.definition_level_histogram,
                    s.definition_level_histogram.as_ref(),
                );
            }
        }
        self.extend_index(p.index, p.convert);
        self.bloom_seen |= p.bloom.is_some();
        match (&mut self.blooms, p.bloom) {
            (Some(list), Some(b)) => list.push(b),
            _ => self.blooms = None,
        }
    }

    fn extend_index(&mut self, index: Option<ColumnIndex<'a>>, convert: Option<Conversion>) {
        let (Some(acc), Some(ci)) = (&mut self.index, index) else {
            self.index = None;
            return;
        };
        acc.null_pages.extend_from_slice(&ci.null_pages);
        match convert {
            None => {
                acc.min_values
                    .extend(ci.min_values.iter().map(|&v| Cow::Borrowed(v)));
                acc.max_values
                    .extend(ci.max_values.iter().map(|&v| Cow::Borrowed(v)));
            }
            Some(c) => {
                // A page of nulls has no bounds (its entries are empty).
                let bounds = |from: &[&'a [u8]], to: &mut Vec<Cow<'a, [u8]>>| {
                    for (&v, &null) in from.iter().zip(&ci.null_pages) {
                        to.push(match null {
                            true => Cow::Borrowed(v),
                            false => Cow::Owned(c.bound(v)?),
                        });
                    }
                    Ok::<_, quiver_arrow::Error>(())
                };
                let converted = bounds(&ci.min_values, &mut acc.min_values)
                    .and_then(|_| bounds(&ci.max_values, &mut acc.max_values));
                if converted.is_err() {
                    self.index = None;
                    return;
                }
            }
        }
        let lists = [
            (&mut acc.null_counts, ci.null_counts),
            (
                &mut acc.repetition_level_histograms,
                ci.repetition_level_histograms,
            ),
            (
                &mut acc.definition_level_histograms,
                ci.definition_level_histograms,
            ),
            (&mut acc.nan_counts, ci.nan_counts),
        ];
        for (a, b) in lists {
            match (a.as_mut(), b) {
                (Some(a), Some(b)) => a.extend_from_slice(&b),
                _ => *a = None,
            }
        }
    }

    /// Replaces the pieces' Bloom filters by `bloom`, rebuilt from the chunk's values.
    pub(super) fn rebuilt_bloom(&mut self, bloom: Option<Sbbf>) {
        self.bloom_seen = true;
        self.blooms = bloom.map(|b| vec![b]);
    }

    /// Takes in a page of `rows` nulls written for an input that lacks the column.
    pub(super) fn nulls(&mut self, rows: i64) {
        self.pieces += 1;
        if self.pieces == 1 {
            self.single = Some(Statistics {
                null_count: Some(rows),
                ..Statistics::default()
            });
        }
        self.null_count = add(self.null_count, Some(rows));
        self.encoding(Encoding::PLAIN);
        self.encoding(Encoding::RLE);
        let (max_def, max_rep) = self.levels;
        let hist = |max: i16| {
            let mut h = vec![0i64; max as usize + 1];
            h[0] = rows;
            h
        };
        self.null_rows += rows;
        let empty: &'static [u8] = &[];
        self.extend_index(
            Some(ColumnIndex {
                null_pages: vec![true],
                min_values: vec![empty],
                max_values: vec![empty],
                boundary_order: crate::format::BoundaryOrder::UNORDERED,
                null_counts: Some(vec![rows]),
                repetition_level_histograms: Some(hist(max_rep)),
                definition_level_histograms: Some(hist(max_def)),
                nan_counts: Some(vec![0]),
            }),
            None,
        );
    }

    /// The chunk's statistics.
    pub(super) fn statistics(&self) -> Option<Statistics<'_>> {
        if !self.stats {
            return None;
        }
        let bounds = self
            .bounds_known
            .then_some(self.min.as_ref().zip(self.max.as_ref()))
            .flatten();
        // One piece keeps its distinct count, and its deprecated bounds where they are in the
        // column's order.
        let single = self.single.as_ref().filter(|_| self.pieces == 1);
        let legacy = single.filter(|_| self.order == SortOrder::Signed);
        Some(Statistics {
            max: legacy.and_then(|s| s.max),
            min: legacy.and_then(|s| s.min),
            null_count: self.null_count,
            distinct_count: single.and_then(|s| s.distinct_count),
            max_value: bounds.map(|b| &*b.1.0),
            min_value: bounds.map(|b| &*b.0.0),
            is_max_value_exact: bounds.and_then(|b| b.1.1),
            is_min_value_exact: bounds.and_then(|b| b.0.1),
            nan_count: self.nan_count,
        })
    }

    /// The chunk's size statistics: the pieces' summed, the rows of null pages added at level
    /// 0 of each histogram the pieces kept.
    pub(super) fn size_statistics(&self) -> Option<SizeStatistics> {
        if !self.size_known {
            return None;
        }
        let (max_def, max_rep) = self.levels;
        let hist = |max: i16| {
            let mut h = vec![0i64; max as usize + 1];
            h[0] = self.null_rows;
            h
        };
        let Some(mut s) = self.size.clone() else {
            // Only nulls.
            return Some(SizeStatistics {
                unencoded_byte_array_data_bytes: (self.physical == Type::BYTE_ARRAY).then_some(0),
                repetition_level_histogram: (max_rep > 0).then(|| hist(max_rep)),
                definition_level_histogram: (max_def > 0).then(|| hist(max_def)),
            });
        };
        for (list, max) in [
            (&mut s.repetition_level_histogram, max_rep),
            (&mut s.definition_level_histogram, max_def),
        ] {
            match list {
                Some(h) if h.len() == max as usize + 1 => {
                    h[0] = h[0].saturating_add(self.null_rows)
                }
                Some(h) if h.is_empty() => {}
                _ => *list = None,
            }
        }
        Some(s)
    }

    /// The chunk's column index, for `pages` data pages (`None` when a piece had none, or the
    /// entries do not match the pages).
    pub(super) fn column_index(&mut self, pages: usize) -> Option<ColumnIndex<'_>> {
        let acc = self.index.as_ref()?;
        let mut ci = ColumnIndex {
            null_pages: acc.null_pages.clone(),
            min_values: acc.min_values.iter().map(|v| &**v).collect(),
            max_values: acc.max_values.iter().map(|v| &**v).collect(),
            boundary_order: crate::format::BoundaryOrder::UNORDERED,
            null_counts: acc.null_counts.clone(),
            repetition_level_histograms: acc.repetition_level_histograms.clone(),
            definition_level_histograms: acc.definition_level_histograms.clone(),
            nan_counts: acc.nan_counts.clone(),
        };
        let n = ci.null_pages.len();
        if n != pages || ci.min_values.len() != n || ci.max_values.len() != n {
            return None;
        }
        let per_page =
            |l: &Option<Vec<i64>>, each: usize| l.as_ref().is_some_and(|l| l.len() == n * each);
        if !per_page(&ci.null_counts, 1) {
            ci.null_counts = None;
        }
        if !per_page(&ci.nan_counts, 1) {
            ci.nan_counts = None;
        }
        if !per_page(&ci.repetition_level_histograms, self.levels.1 as usize + 1) {
            ci.repetition_level_histograms = None;
        }
        if !per_page(&ci.definition_level_histograms, self.levels.0 as usize + 1) {
            ci.definition_level_histograms = None;
        }
        let bounds: Vec<(&[u8], &[u8])> = (0..n)
            .filter(|&i| !ci.null_pages[i])
            .map(|i| (ci.min_values[i], ci.max_values[i]))
            .collect();
        ci.boundary_order = boundary_order_of(self.order, self.physical, &bounds);
        Some(ci)
    }

    /// The union of the pieces' Bloom filters, or the filter rebuilt in their place (`None`
    /// when a piece had none and none was rebuilt).
    pub(super) fn bloom(&mut self) -> Option<Sbbf> {
        let blooms = self.blooms.take()?;
        let refs: Vec<&Sbbf> = blooms.iter().collect();
        Sbbf::union(&refs)
    }
}
