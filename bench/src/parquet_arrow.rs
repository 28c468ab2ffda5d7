//! The Parquet operations with arrow-rs (the crates.io `parquet` crate, with `arrow`).
//!
//! arrow-rs's synchronous reader decodes on the calling thread only: the `_t2` reads run on
//! one thread (and report `threads: 1`).

use crate::arrow_ops::totals;
use crate::parquet_quiver::BATCH_SIZE;
use crate::quiver_ops::map;
use crate::{Measured, Op, timed, timed_repeated};
use anyhow::{Context, Result, bail};
use arrow::array::RecordBatch;
use bytes::Bytes;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::metadata::{
    ParquetMetaDataOptions, ParquetMetaDataReader, ParquetStatisticsPolicy,
};
use std::path::Path;

/// Performs the Parquet operation `op` on `input`, timing only the operation.
pub fn run(op: Op, input: &Path, columns: Option<&[String]>, _threads: usize) -> Result<Measured> {
    match op {
        Op::ParquetFooterLineitem => {
            let bytes = map(input)?;
            timed_repeated(|| {
                let meta = ParquetMetaDataReader::new().parse_and_finish(&bytes)?;
                let file = meta.file_metadata();
                Ok((
                    file.num_rows() as u64,
                    file.schema_descr().num_columns() as u64,
                ))
            })
        }
        Op::ParquetFooterWide3 => {
            let columns = columns.context("--columns is required")?;
            let bytes = map(input)?;
            footer_columns(&bytes, columns)
        }
        _ if op.is_parquet() => timed(|| read(input, columns), totals),
        other => bail!("{} is not a Parquet operation", other.name()),
    }
}

/// Every batch of the Parquet file at `path` (the top-level `columns`, or all), read from a
/// memory map with `ParquetRecordBatchReader` in batches of [`BATCH_SIZE`] rows.
fn read(path: &Path, columns: Option<&[String]>) -> Result<Vec<RecordBatch>> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(map(path)?)?.with_batch_size(BATCH_SIZE);
    let builder = match columns {
        None => builder,
        Some(names) => {
            let roots = names
                .iter()
                .map(|n| builder.schema().index_of(n))
                .collect::<Result<Vec<_>, _>>()?;
            let mask = ProjectionMask::roots(builder.parquet_schema(), roots);
            builder.with_projection(mask)
        }
    };
    Ok(builder.build()?.collect::<Result<Vec<_>, _>>()?)
}

/// Decodes the footer of `bytes` repeatedly with the statistics of every column but `columns`
/// skipped (arrow-rs decodes every column chunk; skipping statistics is what it offers for a
/// projection), reading the chunks of `columns` in every row group. The leaf indices of
/// `columns` are looked up once, before the clock (arrow-rs needs them to build the options).
fn footer_columns(bytes: &Bytes, columns: &[String]) -> Result<Measured> {
    let schema = ParquetMetaDataReader::new().parse_and_finish(bytes)?;
    let leaves = schema.file_metadata().schema_descr();
    let indices = columns
        .iter()
        .map(|name| {
            (0..leaves.num_columns())
                .find(|&i| leaves.column(i).path().parts() == [name.as_str()])
                .with_context(|| format!("no column {name}"))
        })
        .collect::<Result<Vec<_>>>()?;
    drop(schema);
    let keep = ParquetStatisticsPolicy::skip_except(&indices);
    let options = ParquetMetaDataOptions::new()
        .with_column_stats_policy(keep.clone())
        .with_encoding_stats_policy(keep.clone())
        .with_size_stats_policy(keep);
    timed_repeated(|| {
        let meta = ParquetMetaDataReader::new()
            .with_metadata_options(Some(options.clone()))
            .parse_and_finish(bytes)?;
        let mut total = 0i64;
        for rg in meta.row_groups() {
            for &c in &indices {
                total += rg.column(c).compressed_size();
            }
        }
        std::hint::black_box(total);
        Ok((meta.file_metadata().num_rows() as u64, indices.len() as u64))
    })
}
