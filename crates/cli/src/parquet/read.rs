//! A Parquet input as a stream of record batches. The library's reader borrows the file's
//! bytes, so it runs on a thread of its own that owns them (a memory map or what standard
//! input held) and hands the batches over a short channel: memory stays bounded by a couple
//! of batches ahead, and reading overlaps with what the caller does with each batch.

use crate::args::ReadArgs;
use anyhow::Result;
use bytes::Bytes;
use quiver_arrow::parallel::ThreadPool;
use quiver_arrow::{RecordBatch, SchemaRef};
use quiver_parquet::arrow::options::ReadOptions;
use quiver_parquet::file::{FileReader, Selection};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};

/// Batches read ahead of the consumer.
const AHEAD: usize = 2;

/// A Parquet file being read: the selection is settled until the first batch is asked for.
pub struct ParquetInput {
    bytes: Bytes,
    schema: SchemaRef,
    total_rows: u64,
    options: ReadOptions,
    selection: Selection,
    stream: Option<Receiver<quiver_arrow::Result<RecordBatch>>>,
    rows_read: Arc<AtomicU64>,
}

impl ParquetInput {
    /// Decodes the footer of the file `bytes` (the error names what is wrong with it), to be
    /// read as `args` say: `threads` decode column chunks (`None`: the process-wide pool),
    /// batches have at most `batch_size` rows, INT96 in `int96_unit`, CRCs checked unless
    /// `skip_crc`.
    pub fn open(bytes: Bytes, args: &ReadArgs) -> Result<Self> {
        let threads = match args.threads {
            None => ThreadPool::global(),
            Some(1) => ThreadPool::sequential(),
            Some(n) => ThreadPool::new(n)?,
        };
        let options = ReadOptions {
            threads,
            int96_unit: args.int96_unit.time_unit(),
            verify_crc: !args.skip_crc,
            ..ReadOptions::default()
        };
        let batch_size = args.batch_size;
        let reader = FileReader::try_new(&bytes, options.clone())?;
        let schema = reader.schema().clone();
        let total_rows = u64::try_from(reader.metadata().num_rows()).unwrap_or(0);
        drop(reader);
        let mut selection = Selection::default();
        if let Some(n) = batch_size {
            selection.batch_size = n.max(1);
        }
        Ok(ParquetInput {
            bytes,
            schema,
            total_rows,
            options,
            selection,
            stream: None,
            rows_read: Arc::new(AtomicU64::new(0)),
        })
    }

    /// The Arrow schema of the whole file.
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// Reads only the fields `names` (in this order): top-level names or dotted paths into
    /// structs (`a.b`), as the library takes them; returns the schema of the batches, or the
    /// library's error naming an unknown field. Before the first batch.
    pub fn select_columns(&mut self, names: &[String]) -> quiver_arrow::Result<SchemaRef> {
        let mut selection = self.selection.clone();
        selection.columns = Some(names.to_vec());
        let reader = FileReader::try_new(&self.bytes, self.options.clone())?;
        let schema = reader.batches(&selection)?.schema().clone();
        self.selection = selection;
        Ok(schema)
    }

    /// Skips `offset` rows and returns at most `limit`: row groups wholly before the offset
    /// are not read, nor any after the limit. Before the first batch.
    pub fn select_rows(&mut self, offset: usize, limit: Option<usize>) {
        self.selection.offset = offset;
        self.selection.limit = limit;
    }

    /// The next batch, or `None` at the end (the reader starts on the first call).
    pub fn next_batch(&mut self) -> quiver_arrow::Result<Option<RecordBatch>> {
        let stream = match &self.stream {
            Some(s) => s,
            None => self.stream.insert(self.start()),
        };
        match stream.recv() {
            Ok(Ok(b)) => {
                self.rows_read
                    .fetch_add(b.num_rows() as u64, Ordering::Relaxed);
                Ok(Some(b))
            }
            Ok(Err(e)) => Err(e),
            Err(_) => Ok(None),
        }
    }

    /// Rows handed out so far, and the rows the selection will give in all.
    pub fn progress(&self) -> (u64, u64) {
        let after_offset = self.total_rows.saturating_sub(self.selection.offset as u64);
        let total = match self.selection.limit {
            Some(l) => after_offset.min(l as u64),
            None => after_offset,
        };
        (self.rows_read.load(Ordering::Relaxed), total)
    }

    /// Starts the reading thread. It ends after the last batch, after an error (sent as the
    /// last item), or when the receiver is dropped.
    fn start(&self) -> Receiver<quiver_arrow::Result<RecordBatch>> {
        let (tx, rx) = sync_channel(AHEAD);
        let bytes = self.bytes.clone();
        let options = self.options.clone();
        let selection = self.selection.clone();
        std::thread::spawn(move || {
            let reader = match FileReader::try_new(&bytes, options) {
                Ok(r) => r,
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            };
            let batches = match reader.batches(&selection) {
                Ok(b) => b,
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            };
            for b in batches {
                let failed = b.is_err();
                if tx.send(b).is_err() || failed {
                    return;
                }
            }
        });
        rx
    }
}
