//! `--sort-by`: the whole input held in memory, sorted (quiver-arrow's stable
//! `sort_to_indices`, ascending, nulls last) and handed back in batches gathered with `take`.
//!
//! Memory: the input's batches are joined column by column into one array per column (about
//! twice the input's size at the peak, then once), plus one output batch at a time.

use anyhow::{Context, Result};
use quiver_arrow::builder::make_builder;
use quiver_arrow::compute::{SortOptions, concat, sort_to_indices, take};
use quiver_arrow::{Array, RecordBatch, SchemaRef};

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
        let columns = (0..schema.fields.len())
            .map(|c| {
                let parts: Vec<&Array> = batches.iter().map(|b| b.column(c)).collect();
                concat(&parts).map_err(|e| {
                    let name = schema.fields[c].name();
                    let hint = if matches!(e, quiver_arrow::Error::Overflow { .. }) {
                        " (sorting joins the input's dictionaries into one, too many values \
                         for its key type; pyarrow refuses the same)"
                    } else {
                        ""
                    };
                    anyhow::Error::new(e).context(format!("--sort-by: column {name}{hint}"))
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
        for rows in order.chunks(chunk.max(1)) {
            let taken = columns
                .iter()
                .map(|c| take(c, rows))
                .collect::<quiver_arrow::Result<Vec<Array>>>()?;
            done += rows.len() as u64;
            each(RecordBatch::try_new(schema.clone(), taken)?, done, total)?;
        }
        Ok(())
    }
}
