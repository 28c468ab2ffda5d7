//! `quiver convert` and `quiver generate`: batches from a source into a sink, a batch at a
//! time (or, with `--sort-by`, the whole input sorted first), into a temporary file renamed
//! into place on success.

use crate::args::{ConvertArgs, GenerateArgs, WriteArgs};
use crate::generate;
use crate::output::Output;
use crate::progress::Progress;
use crate::sink::{Sink, check_write_args, output_format};
use crate::sort::Sorter;
use crate::source::{Input, Position};
use anyhow::{Context, Result};
use quiver_arrow::compute::concat;
use quiver_arrow::{Array, RecordBatch, SchemaRef};
use std::path::Path;
use std::process::ExitCode;

/// Runs `quiver convert`.
pub fn run(a: &ConvertArgs, quiet: bool) -> Result<ExitCode> {
    let to = output_format(&a.output, a.write.to)?;
    check_write_args(to, &a.write)?;
    let mut read = a.read.clone();
    read.batch_size = a.write.batch_size;
    // The work (and the rate) counts from here: opening may read a sample to infer types.
    let mut progress = Progress::new(quiet, "converting");
    let mut input = Input::open(&a.input, &read, a.columns.as_deref())?;
    let mut writer = Writer::start(&a.output, input.schema(), &a.write, to)?;
    progress.set_input_bytes(std::fs::metadata(&a.input).ok().map(|m| m.len()));
    while let Some(b) = input.next_batch()? {
        progress.add_rows(b.num_rows());
        writer.write(b)?;
        progress.update(input.position());
    }
    writer.commit(&progress, quiet)?;
    progress.finish();
    Ok(ExitCode::SUCCESS)
}

/// Runs `quiver generate`: batches are generated on a second thread while this one writes.
pub fn run_generate(a: &GenerateArgs, quiet: bool) -> Result<ExitCode> {
    let to = output_format(&a.output, a.write.to)?;
    check_write_args(to, &a.write)?;
    let batch_size = a.write.batch_size.unwrap_or(65_536);
    let schema = a.dataset.schema();
    let mut writer = Writer::start(&a.output, &schema, &a.write, to)?;
    let total = a.rows.div_ceil(batch_size as u64);
    let mut progress = Progress::new(quiet, "generating");
    let (tx, rx) = std::sync::mpsc::sync_channel(2);
    let (dataset, rows, seed) = (a.dataset, a.rows, a.seed);
    let producer = std::thread::spawn(move || {
        for b in generate::batches(dataset, rows, batch_size, seed) {
            if tx.send(b).is_err() {
                break;
            }
        }
    });
    let mut done = 0;
    let result = rx.iter().try_for_each(|b| {
        let b = b.context("generating data")?;
        progress.add_rows(b.num_rows());
        writer.write(b)?;
        done += 1;
        progress.update(Position::Batches(done, total));
        anyhow::Ok(())
    });
    drop(rx);
    let _ = producer.join();
    result?;
    writer.commit(&progress, quiet)?;
    progress.finish();
    Ok(ExitCode::SUCCESS)
}

/// An output being written: the sink, its temporary file and the rechunker (or the sorter
/// holding every batch until the end).
struct Writer {
    output: Output,
    sink: Sink,
    chunks: Rechunker,
    sorter: Option<Sorter>,
    batch_size: usize,
}

impl Writer {
    fn start(
        path: &Path,
        schema: &SchemaRef,
        args: &WriteArgs,
        to: crate::format::Format,
    ) -> Result<Writer> {
        let sorter = Sorter::new(schema, &args.sort_by)?;
        let mut output = Output::create(path)?;
        let sink = Sink::create(to, output.writer()?, schema, args, path).map_err(|e| {
            if e.downcast_ref::<crate::UsageError>().is_some() {
                e
            } else {
                e.context(output.label().to_string())
            }
        })?;
        Ok(Writer {
            output,
            sink,
            chunks: Rechunker::new(args.batch_size),
            sorter,
            batch_size: args.batch_size.unwrap_or(65_536),
        })
    }

    fn write(&mut self, batch: RecordBatch) -> Result<()> {
        if let Some(sorter) = &mut self.sorter {
            sorter.push(batch);
            return Ok(());
        }
        for piece in self.chunks.push(batch)? {
            let label = self.output.label();
            self.sink.write(&piece).with_context(|| label.to_string())?;
        }
        Ok(())
    }

    /// Writes what is held back and the end of the output, and moves it into place. Sorting
    /// replaces the reading bar `progress` with its own.
    fn commit(mut self, progress: &Progress, quiet: bool) -> Result<()> {
        let label = self.output.label().to_string();
        if let Some(sorter) = self.sorter.take() {
            progress.clear();
            let mut bar = Progress::new(quiet, "writing sorted rows");
            let sink = &mut self.sink;
            sorter.finish(self.batch_size, |b, done, total| {
                sink.write(&b).with_context(|| label.clone())?;
                bar.update(Position::Rows(done, total));
                Ok(())
            })?;
            bar.clear();
        }
        for last in self.chunks.finish()? {
            self.sink.write(&last).with_context(|| label.clone())?;
        }
        self.sink.finish().with_context(|| label.clone())?;
        self.output.commit()
    }
}

/// Cuts and joins batches to a fixed number of rows (slices are zero-copy; only batches
/// smaller than the target are concatenated). A joined batch is cut short where joining one
/// more piece would give a dictionary column more distinct values than its key type indexes
/// (row groups with dictionaries of their own, each within the keys): the output keeps the
/// input's types, as pyarrow and the Parquet writer expect of every batch.
struct Rechunker {
    size: Option<usize>,
    pending: Vec<RecordBatch>,
    pending_rows: usize,
}

impl Rechunker {
    fn new(size: Option<usize>) -> Self {
        Rechunker {
            size,
            pending: Vec::new(),
            pending_rows: 0,
        }
    }

    fn push(&mut self, b: RecordBatch) -> Result<Vec<RecordBatch>> {
        let Some(size) = self.size else {
            return Ok(vec![b]);
        };
        let mut out = Vec::new();
        let mut offset = 0;
        while offset < b.num_rows() {
            let avail = b.num_rows() - offset;
            if self.pending.is_empty() && avail >= size {
                out.push(b.slice(offset, size));
                offset += size;
                continue;
            }
            let take = avail.min(size - self.pending_rows);
            self.pending.push(b.slice(offset, take));
            self.pending_rows += take;
            offset += take;
            if self.pending_rows == size {
                out.extend(self.flush()?);
            }
        }
        Ok(out)
    }

    fn finish(&mut self) -> Result<Vec<RecordBatch>> {
        self.flush()
    }

    /// The pending pieces joined: into one batch, or into a few where their dictionaries
    /// together outgrow the keys (each batch then the longest run of pieces that joins).
    fn flush(&mut self) -> Result<Vec<RecordBatch>> {
        let parts = std::mem::take(&mut self.pending);
        self.pending_rows = 0;
        let mut out = Vec::new();
        let mut rest = &parts[..];
        while !rest.is_empty() {
            match join(rest) {
                Ok(b) => {
                    out.push(b);
                    break;
                }
                Err(quiver_arrow::Error::Overflow { .. }) => {
                    // The distinct values of a prefix only grow with it: find the longest
                    // prefix that joins (one piece always does) by bisection.
                    let (mut fits, mut overflows) = (1, rest.len());
                    let mut best = rest[0].clone();
                    while overflows - fits > 1 {
                        let mid = (fits + overflows) / 2;
                        match join(&rest[..mid]) {
                            Ok(b) => (fits, best) = (mid, b),
                            Err(quiver_arrow::Error::Overflow { .. }) => overflows = mid,
                            Err(e) => return Err(e.into()),
                        }
                    }
                    out.push(best);
                    rest = &rest[fits..];
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok(out)
    }
}

/// `parts` (batches of one schema) concatenated column by column.
fn join(parts: &[RecordBatch]) -> quiver_arrow::Result<RecordBatch> {
    if let [one] = parts {
        return Ok(one.clone());
    }
    let schema = parts[0].schema().clone();
    let columns = (0..schema.fields.len())
        .map(|c| {
            let arrays: Vec<&Array> = parts.iter().map(|p| p.column(c)).collect();
            concat(&arrays)
        })
        .collect::<quiver_arrow::Result<Vec<_>>>()?;
    RecordBatch::try_new(schema, columns)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quiver_arrow::{DataType, Field, PrimitiveArray, Schema};
    use std::sync::Arc;

    fn batch(start: i64, n: i64) -> RecordBatch {
        let schema = Arc::new(Schema::new(vec![Field::new("a", DataType::Int64, false)]));
        let values: Vec<i64> = (start..start + n).collect();
        RecordBatch::try_new(
            schema,
            vec![Array::from(PrimitiveArray::<i64>::new(values))],
        )
        .unwrap()
    }

    #[test]
    fn rechunker_cuts_and_joins_in_order() {
        let mut r = Rechunker::new(Some(4));
        let mut out = Vec::new();
        for (s, n) in [(0, 3), (3, 10), (13, 1), (14, 0), (14, 2)] {
            out.extend(r.push(batch(s, n)).unwrap());
        }
        out.extend(r.finish().unwrap());
        let sizes: Vec<usize> = out.iter().map(RecordBatch::num_rows).collect();
        assert_eq!(sizes, [4, 4, 4, 4]);
        let all: Vec<i64> = out
            .iter()
            .flat_map(|b| {
                b.column(0)
                    .as_primitive::<i64>()
                    .unwrap()
                    .values()
                    .as_slice()
                    .to_vec()
            })
            .collect();
        assert_eq!(all, (0..16).collect::<Vec<_>>());
    }

    /// `n` rows of a dictionary<int8> column whose dictionary holds `n` values of its own.
    fn dictionary_batch(group: usize, n: usize) -> RecordBatch {
        let d = crate::test_util::own_dictionary(group, n);
        let schema = Arc::new(Schema::new(vec![Field::new(
            "d",
            d.data_type().clone(),
            false,
        )]));
        RecordBatch::try_new(schema, vec![d]).unwrap()
    }

    fn dictionary_strings(b: &RecordBatch) -> Vec<String> {
        crate::test_util::dictionary_strings(b.column(0))
    }

    #[test]
    fn rechunker_cuts_joins_short_where_dictionaries_outgrow_their_keys() {
        let mut r = Rechunker::new(Some(250));
        let (mut out, mut expected) = (Vec::new(), Vec::new());
        for g in 0..3 {
            let b = dictionary_batch(g, 100);
            expected.extend(dictionary_strings(&b));
            out.extend(r.push(b).unwrap());
        }
        out.extend(r.finish().unwrap());
        // 200 distinct values outgrow int8 keys (128): 100 | 100 | 50 (the cut at 250) | 50.
        let sizes: Vec<usize> = out.iter().map(RecordBatch::num_rows).collect();
        assert_eq!(sizes, [100, 100, 50, 50]);
        let all: Vec<String> = out.iter().flat_map(dictionary_strings).collect();
        assert_eq!(all, expected);
        // Dictionaries that fit together are joined.
        let mut r = Rechunker::new(Some(120));
        let mut out = Vec::new();
        for g in 0..4 {
            out.extend(r.push(dictionary_batch(g, 30)).unwrap());
        }
        out.extend(r.finish().unwrap());
        let sizes: Vec<usize> = out.iter().map(RecordBatch::num_rows).collect();
        assert_eq!(sizes, [120]);
    }
}
