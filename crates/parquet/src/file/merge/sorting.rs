//! The `sorting_columns` of a merged row group: kept when every joined row group says the
//! same and their statistics prove that, one after another, they are still in that order.

use super::Cx;
use crate::arrow::physical::SortOrder;
use crate::arrow::write_stats::compare;
use crate::format::SortingColumn;
use quiver_arrow::Result;
use std::cmp::Ordering;

/// The sorting columns of an output row group: the pieces' (in output leaf indices) when all
/// say the same and, for several pieces, the chunk statistics of the first sorting column show
/// the pieces follow each other in that order.
pub(super) fn sorting_columns(
    cx: &Cx<'_, '_>,
    pieces: &[(usize, usize, u64)],
    notes: &mut Vec<String>,
) -> Result<Option<Vec<SortingColumn>>> {
    let mut common: Option<Vec<SortingColumn>> = None;
    for (k, &(input, g, _)) in pieces.iter().enumerate() {
        let rg = cx.inputs[input].meta.row_group(g)?;
        let mapped = rg.sorting_columns.as_ref().map(|cols| {
            cols.iter()
                .map(|s| {
                    let leaf = cx.schema.maps[input]
                        .iter()
                        .position(|&l| l == Some(s.column_idx.max(0) as usize))?;
                    Some(SortingColumn {
                        column_idx: leaf as i32,
                        ..*s
                    })
                })
                .collect::<Option<Vec<_>>>()
        });
        match (k, mapped.flatten()) {
            (0, Some(m)) => common = Some(m),
            (_, Some(m)) if common.as_ref() == Some(&m) => {}
            (_, m) => {
                if common.is_some() || m.is_some() {
                    notes.push(format!(
                        "sorting_columns dropped from output row group {}: its input row groups \
                         are not sorted alike",
                        cx_group_label(cx, pieces)
                    ));
                }
                return Ok(None);
            }
        }
    }
    let Some(cols) = common else {
        return Ok(None);
    };
    if pieces.len() > 1 && !in_order(cx, pieces, &cols)? {
        notes.push(format!(
            "sorting_columns dropped from output row group {}: the joined row groups are not \
             in order by its first sorting column (by their statistics)",
            cx_group_label(cx, pieces)
        ));
        return Ok(None);
    }
    Ok(Some(cols))
}

fn cx_group_label(cx: &Cx<'_, '_>, pieces: &[(usize, usize, u64)]) -> String {
    let (i, g, _) = pieces[0];
    format!("starting at {} row group {g}", cx.inputs[i].name)
}

/// A chunk's minimum, maximum and null count.
type KeyBounds<'a> = (&'a [u8], &'a [u8], i64);

/// A piece's chunk statistics for one sorting column: its bounds and null count (`None`:
/// unknown, or only nulls).
fn bounds<'a>(
    cx: &Cx<'_, 'a>,
    piece: (usize, usize, u64),
    leaf: usize,
) -> Result<Option<KeyBounds<'a>>> {
    let (input, g, _) = piece;
    let Some(l) = cx.schema.maps[input][leaf] else {
        return Ok(None);
    };
    let chunk = cx.inputs[input].meta.column_chunk(g, l)?.into_owned();
    let st = chunk.meta_data.and_then(|m| m.statistics).map(|e| e.get());
    Ok(
        st.and_then(|st| match (st.min_value, st.max_value, st.null_count) {
            (Some(lo), Some(hi), Some(n)) if n >= 0 => Some((lo, hi, n)),
            _ => None,
        }),
    )
}

/// Whether every row of piece `p` sorts before every row of piece `q` by `cols`, as their
/// chunk statistics prove: the first key decides when its bounds are apart; when `p`'s last
/// value equals `q`'s first, the next key decides the tie (by whole-chunk bounds, which hold
/// for the tied rows too); ties on the last key are in order. Nulls go where the key says:
/// a piece may hold them only at the end it places them. Float keys prove nothing (NaN is
/// not in their statistics).
fn pair_in_order(
    cx: &Cx<'_, '_>,
    p: (usize, usize, u64),
    q: (usize, usize, u64),
    cols: &[SortingColumn],
) -> Result<bool> {
    for (k, s) in cols.iter().enumerate() {
        let leaf = s.column_idx.max(0) as usize;
        let order = cx.schema.orders[leaf];
        // Float statistics leave NaN out, and NaN sorts past every number: a NaN at the end
        // of `p` (or, descending, at the start of `q`) is invisible to them. Without a NaN
        // count to prove there is none, float keys prove no order.
        if matches!(
            order,
            SortOrder::Undefined | SortOrder::Float | SortOrder::Float16
        ) {
            return Ok(false);
        }
        let physical = cx.schema.physical[leaf];
        let (Some(a), Some(b)) = (bounds(cx, p, leaf)?, bounds(cx, q, leaf)?) else {
            return Ok(false);
        };
        // Ascending: p's maximum against q's minimum; descending: q's maximum against p's
        // minimum.
        let c = if s.descending {
            compare(order, physical, b.1, a.0)
        } else {
            compare(order, physical, a.1, b.0)
        };
        let nulls_in_place = if s.nulls_first { b.2 == 0 } else { a.2 == 0 };
        match c {
            Ordering::Less => return Ok(nulls_in_place),
            Ordering::Greater => return Ok(false),
            Ordering::Equal if a.2 != 0 || b.2 != 0 => return Ok(false),
            Ordering::Equal if k + 1 == cols.len() => return Ok(true),
            Ordering::Equal => {}
        }
    }
    Ok(true)
}

/// Whether consecutive pieces are in order by `cols` ([`pair_in_order`]).
fn in_order(
    cx: &Cx<'_, '_>,
    pieces: &[(usize, usize, u64)],
    cols: &[SortingColumn],
) -> Result<bool> {
    for w in pieces.windows(2) {
        if !pair_in_order(cx, w[0], w[1], cols)? {
            return Ok(false);
        }
    }
    Ok(true)
}
