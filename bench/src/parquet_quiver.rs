//! The Parquet operations with quiver (`quiver-parquet`).

use crate::quiver_ops::{map, totals};
use crate::{Measured, Op, timed, timed_repeated};
use anyhow::{Context, Result, bail};
use quiver_arrow::RecordBatch;
use quiver_arrow::parallel::ThreadPool;
use quiver_parquet::arrow::options::ReadOptions;
use quiver_parquet::file::{FileReader, Selection};
use quiver_parquet::metadata::{
    FOOTER_TAIL_LEN, ParquetMetaData, footer_len, parse_metadata, parse_metadata_eager,
};
use std::path::Path;

/// Rows per batch of every Parquet read.
pub const BATCH_SIZE: usize = 65_536;

/// Performs the Parquet operation `op` on `input`, timing only the operation.
pub fn run(op: Op, input: &Path, columns: Option<&[String]>, threads: usize) -> Result<Measured> {
    match op {
        Op::ParquetFooterLineitem => {
            let map = map(input)?;
            timed_repeated(|| {
                let meta = footer(&map, parse_metadata_eager)?;
                Ok((meta.num_rows() as u64, meta.num_columns() as u64))
            })
        }
        Op::ParquetFooterWide3 => {
            let columns = columns.context("--columns is required")?;
            let map = map(input)?;
            timed_repeated(|| footer_columns(&map, columns))
        }
        _ if op.is_parquet() || op.is_merge_read() => {
            // The pool is started before the clock (pyarrow's and polars' exist at import).
            let pool = if threads > 1 {
                ThreadPool::new(threads)?
            } else {
                ThreadPool::sequential()
            };
            let options = ReadOptions {
                threads: pool,
                ..ReadOptions::default()
            };
            timed(|| read(input, columns, options), totals)
        }
        other => bail!("{} is not a Parquet operation", other.name()),
    }
}

/// Every batch of the Parquet file at `path` (the top-level `columns`, or all), read from a
/// memory map in batches of [`BATCH_SIZE`] rows.
fn read(path: &Path, columns: Option<&[String]>, options: ReadOptions) -> Result<Vec<RecordBatch>> {
    let map = map(path)?;
    let reader = FileReader::try_new(&map, options)?;
    let selection = Selection {
        columns: columns.map(<[String]>::to_vec),
        batch_size: BATCH_SIZE,
        ..Selection::default()
    };
    let batches = reader
        .batches(&selection)?
        .collect::<quiver_arrow::Result<Vec<_>>>()?;
    Ok(batches)
}

/// The metadata of the Parquet file `file`, located from its last 8 bytes and decoded by
/// `parse`.
fn footer<'a>(
    file: &'a [u8],
    parse: fn(&'a [u8], u64) -> quiver_arrow::Result<ParquetMetaData<'a>>,
) -> Result<ParquetMetaData<'a>> {
    let n = file.len();
    let tail = file
        .get(n.saturating_sub(FOOTER_TAIL_LEN)..)
        .and_then(|t| <&[u8; FOOTER_TAIL_LEN]>::try_from(t).ok())
        .context("file shorter than a Parquet footer")?;
    let len = footer_len(tail)?;
    let start = n.checked_sub(len).context("footer longer than the file")?;
    Ok(parse(&file[start..n - FOOTER_TAIL_LEN], n as u64)?)
}

/// Decodes the footer of `file` (column chunks indexed, not decoded), then the column chunks
/// of the leaf columns named `columns` in every row group. Returns the rows and the columns.
fn footer_columns(file: &[u8], columns: &[String]) -> Result<(u64, u64)> {
    let meta = footer(file, parse_metadata)?;
    let leaves = meta.schema_descr().columns();
    let indices = columns
        .iter()
        .map(|name| {
            leaves
                .iter()
                .position(|c| c.path.len() == 1 && c.path[0] == *name)
                .with_context(|| format!("no column {name}"))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut bytes = 0i64;
    for g in 0..meta.num_row_groups() {
        for &c in &indices {
            let chunk = meta.column_chunk(g, c)?;
            let m = chunk.meta_data.as_ref().context("chunk without metadata")?;
            bytes += m.total_compressed_size;
        }
    }
    std::hint::black_box(bytes);
    Ok((meta.num_rows() as u64, indices.len() as u64))
}
