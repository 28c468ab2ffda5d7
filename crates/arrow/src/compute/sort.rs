//! Sorting: the permutation that orders rows by one or more key columns
//! ([`sort_to_indices`]); [`take`](super::take()) applies it.
//!
//! Keys of every flat type CSV, JSON and Parquet produce are supported: booleans (false
//! first), integers, floats, decimals, dates, times, timestamps and durations (by their stored
//! value), strings and binaries (bytewise, which for UTF-8 is code point order) in their
//! offset, view and fixed-size layouts. Floats order `-inf < … < -0.0 = 0.0 < … < inf < NaN`
//! (every NaN equal, after every number, as pyarrow and DuckDB sort them). Nulls go last
//! unless [`SortOptions::nulls_first`]. The sort is stable: rows with equal keys keep their
//! order.

use crate::array::Array;
use crate::{Error, Result};
use std::cmp::Ordering;

/// How one key orders its rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SortOptions {
    /// Largest first.
    pub descending: bool,
    /// Nulls before the values (default: after them, whatever the direction).
    pub nulls_first: bool,
}

/// A comparison of two non-null rows of one column.
type Compare<'a> = Box<dyn Fn(usize, usize) -> Ordering + Send + Sync + 'a>;

/// The row indices of the sort by `keys` (columns of one length; the first key decides,
/// later ones break ties), stable.
///
/// ```
/// use quiver_arrow::array::{Array, PrimitiveArray, StringArray};
/// use quiver_arrow::compute::{SortOptions, sort_to_indices};
/// let a = Array::from(StringArray::from_options([Some("b"), None, Some("a"), Some("b")]));
/// let b = Array::from(PrimitiveArray::<f64>::from_options([Some(2.0), Some(1.0), Some(f64::NAN), Some(1.0)]));
/// let order = sort_to_indices(&[(&a, SortOptions::default()), (&b, SortOptions::default())])?;
/// assert_eq!(order, [2, 3, 0, 1]);
/// # Ok::<(), quiver_arrow::Error>(())
/// ```
pub fn sort_to_indices(keys: &[(&Array, SortOptions)]) -> Result<Vec<usize>> {
    let Some((first, _)) = keys.first() else {
        return Err(Error::invalid("sorting needs at least one key column"));
    };
    let len = first.len();
    let mut compares = Vec::with_capacity(keys.len());
    for (i, (array, options)) in keys.iter().enumerate() {
        if array.len() != len {
            return Err(Error::invalid(format!(
                "sort key {i} has {} rows, the first {len}",
                array.len()
            )));
        }
        compares.push(with_nulls(array, *options, values_compare(array)?));
    }
    let mut indices: Vec<usize> = (0..len).collect();
    if let [only] = compares.as_slice() {
        indices.sort_by(|&i, &j| only(i, j));
    } else {
        indices.sort_by(|&i, &j| {
            compares
                .iter()
                .map(|c| c(i, j))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        });
    }
    Ok(indices)
}

/// The comparison of rows of `array` with nulls placed and the direction applied.
fn with_nulls<'a>(array: &'a Array, options: SortOptions, values: Compare<'a>) -> Compare<'a> {
    let direct = move |i: usize, j: usize| {
        let o = values(i, j);
        if options.descending { o.reverse() } else { o }
    };
    let Some(validity) = array.validity().filter(|v| v.unset_bits() > 0) else {
        return Box::new(direct);
    };
    let null = if options.nulls_first {
        Ordering::Less
    } else {
        Ordering::Greater
    };
    Box::new(move |i, j| match (validity.get(i), validity.get(j)) {
        (true, true) => direct(i, j),
        (false, false) => Ordering::Equal,
        (false, true) => null,
        (true, false) => null.reverse(),
    })
}

/// Ascending order of `a` before `b`, NaN after every number, all NaNs equal.
fn float_cmp<T: PartialOrd + Copy>(a: T, b: T) -> Ordering {
    #[allow(clippy::eq_op)] // x != x is the NaN test for any float type
    a.partial_cmp(&b).unwrap_or_else(|| (a != a).cmp(&(b != b)))
}

fn ord<'a, T: Ord + Copy + Send + Sync>(v: &'a [T]) -> Compare<'a> {
    Box::new(move |i, j| v[i].cmp(&v[j]))
}

fn float<'a, T: PartialOrd + Copy + Send + Sync>(v: &'a [T]) -> Compare<'a> {
    Box::new(move |i, j| float_cmp(v[i], v[j]))
}

/// The comparison of two rows' values (whatever their validity) for the column's type.
fn values_compare(array: &Array) -> Result<Compare<'_>> {
    Ok(match array {
        Array::Boolean(a) => Box::new(move |i, j| a.value(i).cmp(&a.value(j))),
        Array::I8(a) => ord(a.values().as_slice()),
        Array::I16(a) => ord(a.values().as_slice()),
        Array::I32(a) => ord(a.values().as_slice()),
        Array::I64(a) => ord(a.values().as_slice()),
        Array::U8(a) => ord(a.values().as_slice()),
        Array::U16(a) => ord(a.values().as_slice()),
        Array::U32(a) => ord(a.values().as_slice()),
        Array::U64(a) => ord(a.values().as_slice()),
        Array::F16(a) => float(a.values().as_slice()),
        Array::F32(a) => float(a.values().as_slice()),
        Array::F64(a) => float(a.values().as_slice()),
        Array::I128(a) => {
            let v = a.values().as_slice();
            Box::new(move |i, j| v[i].to_i128().cmp(&v[j].to_i128()))
        }
        Array::Binary(a) => Box::new(move |i, j| a.value(i).cmp(a.value(j))),
        Array::LargeBinary(a) => Box::new(move |i, j| a.value(i).cmp(a.value(j))),
        Array::Utf8(a) => {
            let a = a.as_binary();
            Box::new(move |i, j| a.value(i).cmp(a.value(j)))
        }
        Array::LargeUtf8(a) => {
            let a = a.as_binary();
            Box::new(move |i, j| a.value(i).cmp(a.value(j)))
        }
        Array::BinaryView(a) => Box::new(move |i, j| a.value(i).cmp(a.value(j))),
        Array::Utf8View(a) => Box::new(move |i, j| a.value(i).cmp(a.value(j))),
        Array::FixedSizeBinary(a) => Box::new(move |i, j| a.value(i).cmp(a.value(j))),
        other => {
            return Err(Error::not_supported(format!(
                "sorting by a column of type {}",
                other.data_type()
            )));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::array::{BooleanArray, PrimitiveArray, StringArray};

    /// The naive oracle: rows as `Option<key>` compared the documented way.
    fn naive<T: Clone>(
        rows: &[Option<T>],
        cmp: impl Fn(&T, &T) -> Ordering,
        o: SortOptions,
    ) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..rows.len()).collect();
        // Insertion sort: obviously stable.
        for k in 1..idx.len() {
            let mut m = k;
            while m > 0 {
                let (a, b) = (&rows[idx[m - 1]], &rows[idx[m]]);
                let ord = match (a, b) {
                    (Some(x), Some(y)) if o.descending => cmp(x, y).reverse(),
                    (Some(x), Some(y)) => cmp(x, y),
                    (None, None) => Ordering::Equal,
                    (None, Some(_)) if o.nulls_first => Ordering::Less,
                    (None, Some(_)) => Ordering::Greater,
                    (Some(_), None) if o.nulls_first => Ordering::Greater,
                    (Some(_), None) => Ordering::Less,
                };
                if ord != Ordering::Greater {
                    break;
                }
                idx.swap(m - 1, m);
                m -= 1;
            }
        }
        idx
    }

    fn all_options() -> [SortOptions; 4] {
        [(false, false), (false, true), (true, false), (true, true)].map(|(d, n)| SortOptions {
            descending: d,
            nulls_first: n,
        })
    }

    /// A deterministic pseudo-random sequence.
    fn lcg(seed: u64) -> impl Iterator<Item = u64> {
        let mut x = seed;
        std::iter::from_fn(move || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            Some(x >> 33)
        })
    }

    #[test]
    fn integers_match_the_naive_sort() {
        let rows: Vec<Option<i64>> = lcg(1)
            .take(500)
            .map(|r| (r % 7 != 0).then_some((r % 50) as i64 - 25))
            .collect();
        let a = Array::from(PrimitiveArray::from_options(rows.clone()));
        for o in all_options() {
            let got = sort_to_indices(&[(&a, o)]).unwrap();
            assert_eq!(got, naive(&rows, |x, y| x.cmp(y), o), "{o:?}");
        }
        // A slice sorts its own rows.
        let sliced = a.slice(100, 200);
        let got = sort_to_indices(&[(&sliced, SortOptions::default())]).unwrap();
        let want = naive(&rows[100..300], |x, y| x.cmp(y), SortOptions::default());
        assert_eq!(got, want);
    }

    #[test]
    fn floats_put_nan_after_numbers_and_nulls_last() {
        let rows = [
            Some(1.5),
            None,
            Some(f64::NAN),
            Some(-0.0),
            Some(f64::NEG_INFINITY),
            Some(0.0),
            Some(-f64::NAN),
            Some(f64::INFINITY),
        ];
        let a = Array::from(PrimitiveArray::from_options(rows));
        let got = sort_to_indices(&[(&a, SortOptions::default())]).unwrap();
        assert_eq!(got, [4, 3, 5, 0, 7, 2, 6, 1]);
        let desc = SortOptions {
            descending: true,
            nulls_first: false,
        };
        let got = sort_to_indices(&[(&a, desc)]).unwrap();
        assert_eq!(got, [2, 6, 7, 0, 3, 5, 4, 1]);
        let f32s: Vec<Option<f32>> = rows.iter().map(|v| v.map(|x| x as f32)).collect();
        let a = Array::from(PrimitiveArray::from_options(f32s));
        let got = sort_to_indices(&[(&a, SortOptions::default())]).unwrap();
        assert_eq!(got, [4, 3, 5, 0, 7, 2, 6, 1]);
    }

    #[test]
    fn strings_booleans_and_several_keys() {
        let words: Vec<Option<String>> = lcg(7)
            .take(300)
            .map(|r| (r % 9 != 0).then(|| format!("w{}", r % 13)))
            .collect();
        let flags: Vec<Option<bool>> = lcg(9)
            .take(300)
            .map(|r| (r % 5 != 0).then_some(r % 2 == 0))
            .collect();
        let s = Array::from(StringArray::from_options(
            words.iter().map(|w| w.as_deref()),
        ));
        let b = Array::from(BooleanArray::from_options(flags.clone()));
        for o in all_options() {
            let got = sort_to_indices(&[(&s, o)]).unwrap();
            assert_eq!(got, naive(&words, |x, y| x.cmp(y), o));
            let got = sort_to_indices(&[(&b, o)]).unwrap();
            assert_eq!(got, naive(&flags, |x, y| x.cmp(y), o));
        }
        // Two keys: the naive sort by the second key, then stably by the first.
        let o = SortOptions::default();
        let by_flag = naive(&flags, |x, y| x.cmp(y), o);
        let reordered: Vec<Option<String>> = by_flag.iter().map(|&i| words[i].clone()).collect();
        let want: Vec<usize> = naive(&reordered, |x, y| x.cmp(y), o)
            .into_iter()
            .map(|k| by_flag[k])
            .collect();
        assert_eq!(sort_to_indices(&[(&s, o), (&b, o)]).unwrap(), want);
    }

    #[test]
    fn unsupported_and_mismatched_keys_are_errors() {
        let a = Array::from(PrimitiveArray::<i32>::new(vec![1, 2]));
        let b = Array::from(PrimitiveArray::<i32>::new(vec![1]));
        let e = sort_to_indices(&[(&a, SortOptions::default()), (&b, SortOptions::default())]);
        assert!(e.unwrap_err().to_string().contains("sort key 1 has 1 rows"));
        assert!(sort_to_indices(&[]).is_err());
        let nulls = Array::from(crate::array::NullArray::new(2));
        let e = sort_to_indices(&[(&nulls, SortOptions::default())]).unwrap_err();
        assert!(
            e.to_string().contains("sorting by a column of type Null"),
            "{e}"
        );
    }
}
