//! Checks of the merge benchmark's outputs with arrow-rs (independent of quiver's reader and
//! writer): the shape a file's footer declares, and its content row by row against a
//! reference file of the same data, so that a merge that drops, repeats or reorders rows is a
//! failure rather than a fast run.

use anyhow::{Context, Result, ensure};
use arrow::array::{Array, RecordBatch, RecordBatchReader};
use arrow::compute::cast;
use arrow::datatypes::SchemaRef;
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::file::metadata::ParquetMetaDataReader;
use std::fs::File;
use std::path::Path;

/// What a Parquet file's footer says about it.
#[derive(Debug, Clone, Copy, Default)]
pub struct FileShape {
    /// Size of the file.
    pub bytes: u64,
    /// Rows (the sum over its row groups, equal to the footer's `num_rows`).
    pub rows: u64,
    /// Row groups.
    pub row_groups: usize,
    /// Rows of its largest row group.
    pub max_group_rows: u64,
    /// Whether its key-value metadata holds `ARROW:schema` (the Arrow types pyarrow and quiver
    /// restore from).
    pub arrow_schema: bool,
}

/// The shape of the Parquet file at `path`, from its footer (decoded by arrow-rs); the row
/// groups' rows must add up to the footer's `num_rows`.
pub fn inspect(path: &Path) -> Result<FileShape> {
    let file = File::open(path).with_context(|| path.display().to_string())?;
    let bytes = file.metadata()?.len();
    let meta = ParquetMetaDataReader::new()
        .parse_and_finish(&file)
        .with_context(|| format!("{}: footer (arrow-rs)", path.display()))?;
    let groups = meta.row_groups();
    let rows: i64 = groups.iter().map(|g| g.num_rows()).sum();
    let declared = meta.file_metadata().num_rows();
    ensure!(
        rows == declared,
        "{}: its row groups hold {rows} rows, its footer says {declared}",
        path.display()
    );
    let arrow_schema = meta
        .file_metadata()
        .key_value_metadata()
        .is_some_and(|kv| kv.iter().any(|e| e.key == "ARROW:schema"));
    Ok(FileShape {
        bytes,
        rows: u64::try_from(rows).context("negative row count")?,
        row_groups: groups.len(),
        max_group_rows: groups
            .iter()
            .map(|g| u64::try_from(g.num_rows()).unwrap_or(0))
            .max()
            .unwrap_or(0),
        arrow_schema,
    })
}

/// Checks that the Parquet file at `path` holds the same columns (by name, in order) and the
/// same values in the same row order as `reference`, both read by arrow-rs. A column read as
/// another type than the reference's (a file without `ARROW:schema`) is cast to the
/// reference's type first.
pub fn same_content(path: &Path, reference: &Path) -> Result<()> {
    let mut a = Cursor::open(path)?;
    let mut b = Cursor::open(reference)?;
    let names = |s: &SchemaRef| -> Vec<String> {
        s.fields().iter().map(|f| f.name().to_string()).collect()
    };
    ensure!(
        names(&a.schema) == names(&b.schema),
        "columns {:?}, the reference's {:?}",
        names(&a.schema),
        names(&b.schema)
    );
    let mut row = 0u64;
    loop {
        let (na, nb) = (a.available()?, b.available()?);
        if na == 0 || nb == 0 {
            ensure!(
                na == nb,
                "{} rows, the reference has {}",
                if na == 0 { row } else { row + na as u64 },
                if nb == 0 { row } else { row + nb as u64 }
            );
            return Ok(());
        }
        let n = na.min(nb);
        let (x, y) = (a.take(n)?, b.take(n)?);
        let end = row + n as u64;
        for (i, field) in b.schema.fields().iter().enumerate() {
            let (cx, cy) = (x.column(i), y.column(i));
            let cx = if cx.data_type() == cy.data_type() {
                cx.clone()
            } else {
                cast(cx, cy.data_type()).with_context(|| {
                    format!(
                        "column {}: read as {}, the reference as {}",
                        field.name(),
                        cx.data_type(),
                        cy.data_type()
                    )
                })?
            };
            ensure!(
                cx.as_ref() == cy.as_ref(),
                "column {} differs from the reference in rows {row}..{end}",
                field.name()
            );
        }
        row = end;
    }
}

/// A position in the batches of a Parquet file read by arrow-rs.
struct Cursor {
    reader: ParquetRecordBatchReader,
    schema: SchemaRef,
    batch: Option<RecordBatch>,
    pos: usize,
}

impl Cursor {
    /// Opens `path` for reading every column in batches of 65,536 rows.
    fn open(path: &Path) -> Result<Self> {
        let file = File::open(path).with_context(|| path.display().to_string())?;
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .with_context(|| format!("{}: footer (arrow-rs)", path.display()))?
            .with_batch_size(65_536)
            .build()?;
        let schema = reader.schema();
        Ok(Cursor {
            reader,
            schema,
            batch: None,
            pos: 0,
        })
    }

    /// Rows left in the current batch, the next batch loaded when none are left (0: the end).
    fn available(&mut self) -> Result<usize> {
        loop {
            if let Some(b) = &self.batch
                && self.pos < b.num_rows()
            {
                return Ok(b.num_rows() - self.pos);
            }
            match self.reader.next() {
                None => return Ok(0),
                Some(b) => {
                    self.batch = Some(b.context("reading (arrow-rs)")?);
                    self.pos = 0;
                }
            }
        }
    }

    /// The next `n` rows, `n` at most [`Cursor::available`].
    fn take(&mut self, n: usize) -> Result<RecordBatch> {
        let b = self.batch.as_ref().context("no batch loaded")?;
        ensure!(self.pos + n <= b.num_rows(), "past the batch");
        let slice = b.slice(self.pos, n);
        self.pos += n;
        Ok(slice)
    }
}

#[cfg(test)]
mod tests {
    use super::{inspect, same_content};
    use arrow::array::{ArrayRef, Int64Array, LargeStringArray, RecordBatch, StringArray};
    use parquet::arrow::ArrowWriter;
    use parquet::file::properties::WriterProperties;
    use std::path::PathBuf;
    use std::sync::Arc;

    /// A Parquet file in the temporary folder with the rows `ids` (and their names), written
    /// by arrow-rs in row groups of `group` rows; `large`: the names as `LargeUtf8`.
    fn file(name: &str, ids: &[i64], group: usize, large: bool) -> PathBuf {
        let path = std::env::temp_dir().join(format!(
            "quiver-bench-merge-check-{}-{name}.parquet",
            std::process::id()
        ));
        let names: Vec<String> = ids.iter().map(|i| format!("name {i}")).collect();
        let names: ArrayRef = if large {
            Arc::new(LargeStringArray::from_iter_values(&names))
        } else {
            Arc::new(StringArray::from_iter_values(&names))
        };
        let ids: ArrayRef = Arc::new(Int64Array::from(ids.to_vec()));
        let batch = RecordBatch::try_from_iter([("id", ids), ("name", names)]).unwrap(); // ok: test data
        let props = WriterProperties::builder()
            .set_max_row_group_row_count(Some(group))
            .build();
        let out = std::fs::File::create(&path).unwrap(); // ok: test set-up
        let mut w = ArrowWriter::try_new(out, batch.schema(), Some(props)).unwrap(); // ok: test set-up
        w.write(&batch).unwrap(); // ok: test set-up
        w.close().unwrap(); // ok: test set-up
        path
    }

    #[test]
    fn equal_rows_in_other_row_groups_and_types_are_the_same_content() {
        let ids: Vec<i64> = (0..100_000).collect();
        let reference = file("ref", &ids, 1 << 20, false);
        let merged = file("merged", &ids, 6_000, true);
        let shape = inspect(&merged).unwrap();
        assert_eq!(
            (shape.rows, shape.row_groups, shape.max_group_rows),
            (100_000, 17, 6_000)
        );
        same_content(&merged, &reference).unwrap();
        let _ = std::fs::remove_file(reference);
        let _ = std::fs::remove_file(merged);
    }

    #[test]
    fn reordered_or_missing_rows_are_not() {
        let ids: Vec<i64> = (0..100_000).collect();
        let reference = file("ref2", &ids, 1 << 20, false);
        let mut swapped = ids.clone();
        swapped.swap(70_000, 70_001);
        let reordered = file("reordered", &swapped, 6_000, false);
        let err = same_content(&reordered, &reference)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("column id differs from the reference in rows"),
            "{err}"
        );
        let short = file("short", &ids[..99_999], 6_000, false);
        let err = same_content(&short, &reference).unwrap_err().to_string();
        assert_eq!(err, "99999 rows, the reference has 100000");
        for p in [reference, reordered, short] {
            let _ = std::fs::remove_file(p);
        }
    }
}
