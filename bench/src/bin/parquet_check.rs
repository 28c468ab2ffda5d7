//! Reads a Parquet file with arrow-rs and writes its batches as an Arrow IPC stream, for the
//! Parquet writer's differential tests (`crates/parquet/tests/it/write_matrix.rs` compares the
//! stream with the data the file was written from).
//!
//! ```sh
//! cargo build --release --manifest-path bench/Cargo.toml --bin parquet_check
//! bench/target/release/parquet_check in.parquet out.arrows
//! ```

use anyhow::{Context, Result};
use arrow::array::RecordBatchReader;
use arrow::ipc::writer::StreamWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let [_, input, output] = args.as_slice() else {
        anyhow::bail!("usage: parquet_check IN.parquet OUT.arrows");
    };
    let file = std::fs::File::open(input).with_context(|| input.clone())?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .with_context(|| format!("{input}: footer"))?
        .build()?;
    let out = std::fs::File::create(output).with_context(|| output.clone())?;
    let mut w = StreamWriter::try_new(std::io::BufWriter::new(out), &reader.schema())?;
    for batch in reader {
        w.write(&batch.with_context(|| format!("{input}: reading"))?)?;
    }
    w.finish()?;
    Ok(())
}
