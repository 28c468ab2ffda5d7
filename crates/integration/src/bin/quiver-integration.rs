//! `quiver-integration`: the Arrow cross-implementation integration tester interface.
//!
//! ```text
//! quiver-integration --mode VALIDATE      --json F.json[.gz] --arrow F.arrow_file|F.stream
//! quiver-integration --mode JSON_TO_ARROW --json F.json[.gz] --arrow OUT.arrow_file
//! quiver-integration --mode ARROW_TO_JSON --arrow F.arrow_file|F.stream --json OUT.json
//! quiver-integration --mode STREAM_TO_FILE < in.stream > out.arrow_file
//! quiver-integration --mode FILE_TO_STREAM < in.arrow_file > out.stream
//! ```
//! Exit codes: 0 success (VALIDATE: the data is equal), 1 data differs or cannot be read or
//! written, 2 usage error.

use anyhow::{Context, Result, bail};
use clap::{Parser, ValueEnum};
use quiver_arrow::{RecordBatch, SchemaRef};
use quiver_integration::compare::{compare_batches, compare_schemas};
use quiver_integration::{Dictionaries, JsonFile, read_json_path, write_json};
use quiver_ipc::IpcSchema;
use quiver_ipc::read::{FileReader, StreamReader};
use quiver_ipc::write::{FileWriter, StreamWriter, WriteOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, ValueEnum)]
#[value(rename_all = "SCREAMING_SNAKE_CASE")]
enum Mode {
    /// Compare an IPC file or stream with a JSON file.
    Validate,
    /// Convert JSON to an IPC file.
    JsonToArrow,
    /// Convert an IPC file or stream to JSON.
    ArrowToJson,
    /// Convert an IPC stream on stdin to an IPC file on stdout.
    StreamToFile,
    /// Convert an IPC file on stdin to an IPC stream on stdout.
    FileToStream,
}

/// Arrow integration tester for quiver.
#[derive(Parser, Debug)]
#[command(
    version,
    about = "Arrow integration tester for quiver: validate and convert between integration JSON and Arrow IPC"
)]
struct Args {
    /// What to do.
    #[arg(long, value_enum)]
    mode: Mode,
    /// The integration JSON file (`.json` or `.json.gz`).
    #[arg(long)]
    json: Option<PathBuf>,
    /// The Arrow IPC file or stream.
    #[arg(long)]
    arrow: Option<PathBuf>,
    /// Print what is compared.
    #[arg(long)]
    verbose: bool,
}

/// Batches, schema and dictionary ids read from IPC.
struct IpcData {
    schema: IpcSchema,
    batches: Vec<RecordBatch>,
}

fn main() {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => {}
        Err(e) => {
            eprintln!("quiver-integration: {e:#}");
            std::process::exit(1);
        }
    }
}

fn run(args: &Args) -> Result<()> {
    let need = |p: &Option<PathBuf>, flag: &str| -> Result<PathBuf> {
        match p {
            Some(p) => Ok(p.clone()),
            None => {
                eprintln!("quiver-integration: --mode {:?} needs {flag}", args.mode);
                std::process::exit(2);
            }
        }
    };
    match args.mode {
        Mode::Validate => validate(
            &need(&args.json, "--json")?,
            &need(&args.arrow, "--arrow")?,
            args.verbose,
        ),
        Mode::JsonToArrow => {
            json_to_arrow(&need(&args.json, "--json")?, &need(&args.arrow, "--arrow")?)
        }
        Mode::ArrowToJson => {
            arrow_to_json(&need(&args.arrow, "--arrow")?, &need(&args.json, "--json")?)
        }
        Mode::StreamToFile => stream_to_file(),
        Mode::FileToStream => file_to_stream(),
    }
}

/// Reads an IPC file or stream. The schema's byte order is reset to little-endian: decoded
/// data is in native (little-endian) order whatever the source's was.
fn read_ipc(bytes: Vec<u8>) -> Result<IpcData> {
    let mut data = read_ipc_as_is(bytes)?;
    data.schema.endianness = quiver_ipc::Endianness::Little;
    Ok(data)
}

fn read_ipc_as_is(bytes: Vec<u8>) -> Result<IpcData> {
    if bytes.starts_with(b"ARROW1") {
        let reader = FileReader::from_bytes(bytes.into())?;
        let schema = reader.ipc_schema().clone();
        let batches = reader.collect::<quiver_arrow::Result<Vec<_>>>()?;
        Ok(IpcData { schema, batches })
    } else {
        let reader = StreamReader::try_new(std::io::Cursor::new(bytes))?;
        let schema = reader.ipc_schema().clone();
        let batches = reader.collect::<quiver_arrow::Result<Vec<_>>>()?;
        Ok(IpcData { schema, batches })
    }
}

fn read_ipc_path(path: &Path) -> Result<IpcData> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    read_ipc(bytes).with_context(|| path.display().to_string())
}

fn validate(json: &Path, arrow: &Path, verbose: bool) -> Result<()> {
    let expected = read_json_path(json).with_context(|| json.display().to_string())?;
    let actual = read_ipc_path(arrow)?;
    if verbose {
        eprintln!(
            "{}: {} batches; {}: {} batches",
            json.display(),
            expected.batches.len(),
            arrow.display(),
            actual.batches.len()
        );
    }
    compare_schemas(&expected.schema, &actual.schema.schema).map_err(anyhow::Error::msg)?;
    compare_batches(&expected.batches, &actual.batches).map_err(anyhow::Error::msg)?;
    Ok(())
}

/// Writes to a temporary file beside `path` and renames it into place on success.
fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> Result<()>,
) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = std::fs::File::create(&tmp)
        .with_context(|| format!("cannot create {}", tmp.display()))
        .and_then(|mut f| {
            write(&mut f)?;
            f.sync_all()?;
            Ok(())
        })
        .and_then(|()| {
            std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
        });
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn json_to_arrow(json: &Path, arrow: &Path) -> Result<()> {
    let file = read_json_path(json).with_context(|| json.display().to_string())?;
    let schema = file.ipc_schema();
    write_atomically(arrow, |out| {
        let mut w = FileWriter::try_new(
            std::io::BufWriter::new(out),
            schema,
            WriteOptions::default(),
        )?;
        for b in &file.batches {
            w.write(b)?;
        }
        w.finish()?.flush()?;
        Ok(())
    })
}

fn arrow_to_json(arrow: &Path, json: &Path) -> Result<()> {
    let data = read_ipc_path(arrow)?;
    let schema: SchemaRef = data.schema.schema.clone();
    let mut dictionaries = Dictionaries::default();
    for (path, id) in data.schema.dictionaries.iter() {
        dictionaries.ids.insert(path.to_vec(), id);
    }
    let text = write_json(&JsonFile {
        schema,
        batches: data.batches,
        dictionaries,
    })?;
    write_atomically(json, |out| Ok(out.write_all(text.as_bytes())?))
}

fn read_stdin() -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .context("cannot read standard input")?;
    Ok(bytes)
}

fn stream_to_file() -> Result<()> {
    let data = read_ipc(read_stdin()?)?;
    let out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut w = FileWriter::try_new(out, data.schema, WriteOptions::default())?;
    for b in &data.batches {
        w.write(b)?;
    }
    w.finish()?.flush()?;
    Ok(())
}

fn file_to_stream() -> Result<()> {
    let bytes = read_stdin()?;
    if !bytes.starts_with(b"ARROW1") {
        bail!("standard input is not an Arrow IPC file (no ARROW1 magic)");
    }
    let data = read_ipc(bytes)?;
    let out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut w = StreamWriter::try_new(out, data.schema, WriteOptions::default())?;
    for b in &data.batches {
        w.write(b)?;
    }
    w.finish()?.flush()?;
    Ok(())
}
