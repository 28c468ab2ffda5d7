//! `--sort-by`: the whole input held in memory, sorted (quiver-arrow's stable
//! `sort_to_indices`, ascending, nulls last) and handed back in batches gathered with `take`.
//!
//! Memory: the input's batches are joined column by column into one array per column (about
//! twice the input's size at the peak, then once), plus one output batch at a time.
//!
//! A dictionary column whose batches' dictionaries together hold more values than its keys
//! index (row groups each with a dictionary of its own; pyarrow's `sort_by` refuses these) is
//! joined with int32 keys, and each output batch gets a dictionary of just the values its rows
//! use, under the column's own key type: the output keeps the input's schema. A batch whose
//! rows use more values than those keys index is cut in two (again, until each fits).

use anyhow::{Context, Result};
use quiver_arrow::builder::make_builder;
use quiver_arrow::compute::{SortOptions, concat, concat_dictionaries, sort_to_indices, take};
use quiver_arrow::{Array, IntegerType, RecordBatch, SchemaRef};

/// Batches collected for sorting.
pub struct Sorter {
    schema: SchemaRef,
    keys: Vec<usize>,
    batches: Vec<RecordBatch>,
}

impl Sorter {
    /// A sorter by the top-level columns `names` of `schema` (`None` when there are none);
    /// unknown columns and types that cannot be sorted are usage errors.
    pub fn new(schema: &SchemaRef, names: &[String]) -> Result<Option<Sorter>> {
        if names.is_empty() {
            return Ok(None);
        }
        let mut keys = Vec::with_capacity(names.len());
        for name in names {
            let Some(i) = schema.fields.iter().position(|f| f.name() == name) else {
                let all: Vec<&str> = schema.fields.iter().map(|f| f.name()).collect();
                crate::usage!(
                    "--sort-by {name}: no such column (columns: {})",
                    all.join(", ")
                );
            };
            // The type is checked now, on an empty column, rather than after reading it all.
            let empty = make_builder(schema.fields[i].data_type(), 0)?.try_finish()?;
            if let Err(e) = sort_to_indices(&[(&empty, SortOptions::default())]) {
                crate::usage!("--sort-by {name}: {e}");
            }
            keys.push(i);
        }
        Ok(Some(Sorter {
            schema: schema.clone(),
            keys,
            batches: Vec::new(),
        }))
    }

    /// Keeps a batch.
    pub fn push(&mut self, batch: RecordBatch) {
        if batch.num_rows() > 0 {
            self.batches.push(batch);
        }
    }

    /// Sorts the rows and calls `each` with batches of `chunk` rows in order and the rows done
    /// so far of the total.
    pub fn finish(
        self,
        chunk: usize,
        mut each: impl FnMut(RecordBatch, u64, u64) -> Result<()>,
    ) -> Result<()> {
        let Sorter {
            schema,
            keys,
            batches,
        } = self;
        if batches.is_empty() {
            return Ok(());
        }
        // A dictionary column whose batches' dictionaries together outgrow its keys (row
        // groups with dictionaries of their own) is joined with int32 keys; each sorted batch
        // then gets a dictionary of the values it uses, under the column's own keys.
        let mut narrow_to = vec![None; schema.fields.len()];
        let columns = (0..schema.fields.len())
            .map(|c| {
                let parts: Vec<&Array> = batches.iter().map(|b| b.column(c)).collect();
                match (concat(&parts), parts[0]) {
                    (Err(quiver_arrow::Error::Overflow { .. }), Array::Dictionary(first))
                        if !first.values().data_type().is_nested() =>
                    {
                        narrow_to[c] = Some(first.key_type());
                        rekey(&parts, IntegerType::Int32)
                    }
                    (joined, _) => joined,
                }
                .map_err(|e| {
                    anyhow::Error::new(e)
                        .context(format!("--sort-by: column {}", schema.fields[c].name()))
                })
            })
            .collect::<Result<Vec<Array>>>()?;
        drop(batches);
        let sort_keys: Vec<(&Array, SortOptions)> = keys
            .iter()
            .map(|&k| (&columns[k], SortOptions::default()))
            .collect();
        let order = sort_to_indices(&sort_keys).context("sorting")?;
        let total = order.len() as u64;
        let mut done = 0;
        // Batches in order (a stack, the next on top); one whose re-keyed dictionary would
        // outgrow its keys is cut in two.
        let mut pending: Vec<&[usize]> = order.chunks(chunk.max(1)).rev().collect();
        while let Some(rows) = pending.pop() {
            let mut taken = Vec::with_capacity(columns.len());
            let mut overflow = false;
            for (column, narrow) in columns.iter().zip(&narrow_to) {
                let t = take(column, rows)?;
                match narrow.map(|key| rekey(&[&t], key)) {
                    None => taken.push(t),
                    Some(Ok(t)) => taken.push(t),
                    Some(Err(quiver_arrow::Error::Overflow { .. })) if rows.len() > 1 => {
                        overflow = true;
                        break;
                    }
                    Some(Err(e)) => return Err(e.into()),
                }
            }
            if overflow {
                let (first, second) = rows.split_at(rows.len() / 2);
                pending.push(second);
                pending.push(first);
                continue;
            }
            done += rows.len() as u64;
            each(RecordBatch::try_new(schema.clone(), taken)?, done, total)?;
        }
        Ok(())
    }
}

/// The dictionary arrays `parts` joined into one with `key` keys (quiver-arrow's
/// [`concat_dictionaries`]: each value its keys use kept once).
fn rekey(parts: &[&Array], key: IntegerType) -> quiver_arrow::Result<Array> {
    let dictionaries = parts
        .iter()
        .map(|p| match p {
            Array::Dictionary(d) => Ok(d),
            _ => Err(quiver_arrow::Error::invalid(
                "rekey: not a dictionary array",
            )),
        })
        .collect::<quiver_arrow::Result<Vec<_>>>()?;
    Ok(concat_dictionaries(&dictionaries, key)?.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use quiver_arrow::{DataType, Field, PrimitiveArray, Schema};
    use std::sync::Arc;

    /// 100 rows whose dictionary<int8> has 100 values of its own (`g{group}-{i}`), and a sort
    /// key `n` = i.
    fn batch(schema: &SchemaRef, group: usize) -> RecordBatch {
        let d = crate::test_util::own_dictionary(group, 100);
        let n = PrimitiveArray::<i64>::new((0..100i64).collect::<Vec<_>>());
        RecordBatch::try_new(schema.clone(), vec![d, n.into()]).unwrap()
    }

    fn strings(b: &RecordBatch) -> Vec<String> {
        crate::test_util::dictionary_strings(b.column(0))
    }

    #[test]
    fn dictionaries_outgrowing_their_keys_together_sort_into_batches_under_those_keys() {
        let int8 = DataType::dictionary(IntegerType::Int8, DataType::Utf8);
        let schema: SchemaRef = Arc::new(Schema::new(vec![
            Field::new("k", int8.clone(), false),
            Field::new("n", DataType::Int64, false),
        ]));
        let sorter = |chunk| {
            let mut s = Sorter::new(&schema, &["n".to_string()]).unwrap().unwrap();
            for g in 0..3 {
                s.push(batch(&schema, g));
            }
            let mut out = Vec::new();
            s.finish(chunk, |b, _, _| {
                out.push(b);
                Ok(())
            })
            .map(|()| out)
        };
        let out = sorter(100).unwrap();
        assert_eq!(out.len(), 3);
        // Stable: n = 0 of groups 0, 1, 2, then n = 1 of each…
        let want: Vec<String> = (0..100)
            .flat_map(|i| (0..3).map(move |g| format!("g{g}-{i}")))
            .collect();
        let got: Vec<String> = out.iter().flat_map(strings).collect();
        assert_eq!(got, want);
        for b in &out {
            assert_eq!(b.schema().fields[0].data_type(), &int8);
            assert_eq!(b.column(0).as_dictionary().unwrap().values().len(), 100);
        }
        // A batch of all 300 rows cannot be int8-keyed: it is cut until each part fits.
        let out = sorter(300).unwrap();
        let sizes: Vec<usize> = out.iter().map(RecordBatch::num_rows).collect();
        assert_eq!(sizes, [75, 75, 75, 75]);
        let got: Vec<String> = out.iter().flat_map(strings).collect();
        assert_eq!(got, want);
    }
}
