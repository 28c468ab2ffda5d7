//! Cutting decoded batches at record boundaries, so that no batch holds more bytes of
//! byte-array values in one column than a limit (2³¹ − 1 by default: what 32-bit offsets
//! address). The rows of a batch are decoded first; only when a column's values overflow is
//! the batch cut into pieces, each piece built into its own record batch.

use super::dense::Dense;
use super::leaf::{LeafChunk, LeafLevels};
use crate::encoding::byte_array::{FlexOffsets, OffsetsSink};
use quiver_arrow::buffer::{MutableBitmap, MutableBuffer, Offset};
use quiver_arrow::{Error, Result};

/// Where each record of `leaf` starts: (level entry, value) of records `0..=records` (the last
/// pair is the end of the leaf).
fn boundaries(leaf: &LeafChunk, max_def: i16) -> Vec<(usize, usize)> {
    match &leaf.levels {
        LeafLevels::None { len } => (0..=*len).map(|r| (r, r)).collect(),
        LeafLevels::Validity(bits) => {
            let mut out = Vec::with_capacity(bits.len() + 1);
            let mut v = 0;
            for i in 0..bits.len() {
                out.push((i, v));
                v += usize::from(bits.get(i));
            }
            out.push((bits.len(), v));
            out
        }
        LeafLevels::Full { def, rep } => {
            let mut out = Vec::new();
            let mut v = 0;
            for (i, &d) in def.iter().enumerate() {
                if rep.get(i).is_none_or(|&r| r == 0) {
                    out.push((i, v));
                }
                v += usize::from(d == max_def);
            }
            out.push((def.len(), v));
            out
        }
    }
}

/// The byte offset where value `v` of `sink` starts.
fn value_start(sink: &FlexOffsets, v: usize) -> u64 {
    match sink {
        FlexOffsets::Narrow(s) => s.offsets.typed::<i32>()[v] as u64,
        FlexOffsets::Wide(s) => s.offsets.typed::<i64>()[v] as u64,
    }
}

/// The bytes of values of `leaf`, when it holds byte arrays.
pub(crate) fn value_bytes(leaf: &LeafChunk) -> Option<usize> {
    match &leaf.dense {
        Dense::Bytes(FlexOffsets::Narrow(s)) => Some(s.values.len()),
        Dense::Bytes(FlexOffsets::Wide(s)) => Some(s.values.len()),
        _ => None,
    }
}

/// The record counts at which to cut `records` records so that no piece holds more than
/// `limit` bytes of values in any of `leaves` (with their maximum definition levels); the
/// last cut is `records`. A single record over the limit is an error naming its column.
pub(crate) fn cuts(
    leaves: &[(&LeafChunk, i16, String)],
    records: usize,
    limit: usize,
) -> Result<Vec<usize>> {
    let starts: Vec<(Vec<u64>, &str)> = leaves
        .iter()
        .filter_map(|(leaf, max_def, name)| {
            let Dense::Bytes(sink) = &leaf.dense else {
                return None;
            };
            let b = boundaries(leaf, *max_def);
            Some((
                b.iter().map(|&(_, v)| value_start(sink, v)).collect(),
                name.as_str(),
            ))
        })
        .collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at < records {
        let mut end = records;
        for (bytes, name) in &starts {
            // The most records from `at` whose values fit the limit.
            let fit = bytes[at..=end].partition_point(|&b| b - bytes[at] <= limit as u64);
            let fit_end = at + fit - 1;
            if fit_end == at {
                return Err(Error::overflow(format!(
                    "column {name}: record {at} of the batch holds {} bytes, more than {limit} \
                     (read it as a large or view type)",
                    bytes[at + 1] - bytes[at]
                )));
            }
            end = end.min(fit_end);
        }
        out.push(end);
        at = end;
    }
    Ok(out)
}

/// Cuts `leaf` before record `r` (its maximum definition level `max_def`): the records before
/// it and those from it on.
pub(crate) fn split(leaf: LeafChunk, r: usize, max_def: i16) -> Result<(LeafChunk, LeafChunk)> {
    let b = boundaries(&leaf, max_def);
    let leaf_utf8 = leaf.utf8;
    let Some(&(e, v)) = b.get(r) else {
        return Err(Error::invalid(format!("no record {r} to cut before")));
    };
    let (head_levels, tail_levels) = match leaf.levels {
        LeafLevels::None { len } => (
            LeafLevels::None { len: r },
            LeafLevels::None { len: len - r },
        ),
        LeafLevels::Validity(bits) => {
            let (a, b) = split_bits(&bits, e);
            (LeafLevels::Validity(a), LeafLevels::Validity(b))
        }
        LeafLevels::Full { mut def, mut rep } => {
            let def_tail = def.split_off(e);
            let rep_tail = if rep.is_empty() {
                Vec::new()
            } else {
                rep.split_off(e)
            };
            (
                LeafLevels::Full { def, rep },
                LeafLevels::Full {
                    def: def_tail,
                    rep: rep_tail,
                },
            )
        }
    };
    let (head_dense, tail_dense) = match leaf.dense {
        Dense::Bool(bits) => {
            let (a, b) = split_bits(&bits, v);
            (Dense::Bool(a), Dense::Bool(b))
        }
        Dense::Fixed { width, data } => {
            let (a, b) = split_fixed(&data, width, v);
            (
                Dense::Fixed { width, data: a },
                Dense::Fixed { width, data: b },
            )
        }
        Dense::Decimal128 { from, data } => {
            let (a, b) = split_fixed(&data, 16, v);
            (
                Dense::Decimal128 { from, data: a },
                Dense::Decimal128 { from, data: b },
            )
        }
        Dense::Bytes(FlexOffsets::Narrow(s)) => {
            let (a, b) = split_sink(&s, v)?;
            (
                Dense::Bytes(FlexOffsets::Narrow(a)),
                Dense::Bytes(FlexOffsets::Narrow(b)),
            )
        }
        Dense::Bytes(FlexOffsets::Wide(s)) => {
            let (a, b) = split_sink(&s, v)?;
            (
                Dense::Bytes(FlexOffsets::Wide(a)),
                Dense::Bytes(FlexOffsets::Wide(b)),
            )
        }
    };
    Ok((
        LeafChunk {
            dense: head_dense,
            levels: head_levels,
            utf8: leaf_utf8,
        },
        LeafChunk {
            dense: tail_dense,
            levels: tail_levels,
            utf8: leaf_utf8,
        },
    ))
}

/// The first `v` values of `data` (`width` bytes each) and the rest, copied apart.
fn split_fixed(data: &MutableBuffer, width: usize, v: usize) -> (MutableBuffer, MutableBuffer) {
    let bytes = data.as_slice();
    let mut a = MutableBuffer::with_capacity(v * width);
    a.extend_from_slice(&bytes[..v * width]);
    let mut b = MutableBuffer::with_capacity(bytes.len() - v * width);
    b.extend_from_slice(&bytes[v * width..]);
    (a, b)
}

fn split_bits(bits: &MutableBitmap, at: usize) -> (MutableBitmap, MutableBitmap) {
    let mut a = MutableBitmap::with_capacity(at);
    a.extend_from_bytes(bits.as_slice(), 0, at);
    let mut b = MutableBitmap::with_capacity(bits.len() - at);
    b.extend_from_bytes(bits.as_slice(), at, bits.len() - at);
    (a, b)
}

/// Values `..v` and `v..` of `s`, the second with offsets from 0 again.
fn split_sink<O: Offset>(s: &OffsetsSink<O>, v: usize) -> Result<(OffsetsSink<O>, OffsetsSink<O>)> {
    let offsets = s.offsets.typed::<O>();
    let cut = offsets[v].as_usize();
    let mut a = OffsetsSink::<O>::new();
    let mut b = OffsetsSink::<O>::new();
    a.offsets.extend_from_slice(&offsets[1..=v]);
    a.values.extend_from_slice(&s.values.as_slice()[..cut]);
    for &o in &offsets[v + 1..] {
        let rebased = O::from_usize(o.as_usize() - cut)
            .ok_or_else(|| Error::overflow("rebased offset out of range"))?;
        b.offsets.push(rebased);
    }
    b.values.extend_from_slice(&s.values.as_slice()[cut..]);
    Ok((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(values: &[&str]) -> FlexOffsets {
        let mut s = OffsetsSink::<i32>::new();
        for v in values {
            s.values.extend_from_slice(v.as_bytes());
            s.offsets.push(s.values.len() as i32);
        }
        FlexOffsets::Narrow(s)
    }

    fn texts(d: &Dense) -> Vec<String> {
        let Dense::Bytes(FlexOffsets::Narrow(s)) = d else {
            panic!("not narrow bytes")
        };
        let o = s.offsets.typed::<i32>();
        o.windows(2)
            .map(|w| {
                String::from_utf8(s.values.as_slice()[w[0] as usize..w[1] as usize].to_vec())
                    .unwrap()
            })
            .collect()
    }

    #[test]
    fn nested_leaves_are_cut_at_record_starts_within_the_limit() {
        // list<string> with max_def 3: [["ab", "cde"], [], null, ["f", null, "ghij"]].
        let leaf = LeafChunk {
            dense: Dense::Bytes(strings(&["ab", "cde", "f", "ghij"])),
            levels: LeafLevels::Full {
                def: vec![3, 3, 1, 0, 3, 2, 3],
                rep: vec![0, 1, 0, 0, 0, 1, 1],
            },
            utf8: false,
        };
        let col = vec![(&leaf, 3, "l".to_string())];
        // Records hold 5, 0, 0 and 5 bytes.
        assert_eq!(cuts(&col, 4, 10).unwrap(), vec![4]);
        assert_eq!(cuts(&col, 4, 5).unwrap(), vec![3, 4]);
        let e = cuts(&col, 4, 4).unwrap_err().to_string();
        assert!(
            e.contains("column l: record 0 of the batch holds 5 bytes"),
            "{e}"
        );
        let (a, b) = split(leaf, 3, 3).unwrap();
        assert_eq!(texts(&a.dense), ["ab", "cde"]);
        assert_eq!(texts(&b.dense), ["f", "ghij"]);
        assert_eq!(a.records(), 3);
        assert_eq!(b.records(), 1);
        let LeafLevels::Full { def, rep } = b.levels else {
            panic!()
        };
        assert_eq!((def, rep), (vec![3, 2, 3], vec![0, 1, 1]));
    }

    #[test]
    fn flat_leaves_with_nulls_are_cut_by_their_values() {
        let mut bits = MutableBitmap::with_capacity(5);
        for b in [true, false, true, true, false] {
            bits.push(b);
        }
        let leaf = LeafChunk {
            dense: Dense::Bytes(strings(&["xx", "yyy", "z"])),
            levels: LeafLevels::Validity(bits),
            utf8: false,
        };
        let col = vec![(&leaf, 1, "s".to_string())];
        assert_eq!(cuts(&col, 5, 5).unwrap(), vec![3, 5]);
        let (a, b) = split(leaf, 3, 1).unwrap();
        assert_eq!(
            (texts(&a.dense), texts(&b.dense)),
            (vec!["xx".to_string(), "yyy".into()], vec!["z".to_string()])
        );
        assert_eq!((a.records(), b.records()), (3, 2));
    }
}
