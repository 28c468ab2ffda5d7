//! `quiver merge OUT IN... | DIR`: Parquet files merged into one by copying their column
//! chunks (quiver-parquet's `file::merge`), without decoding values; the report says what was
//! copied and what was rewritten.

use crate::args::{MergeArgs, MergeOptionArgs, RowGroupSize};
use crate::format::Format;
use crate::numbers::{count, group};
use crate::output::Output;
use crate::progress::Progress;
use crate::source::Position;
use anyhow::{Context, Result};
use bytes::Bytes;
use quiver_arrow::parallel::ThreadPool;
use quiver_parquet::file::merge::{
    FileSink, MergeInput, MergeOptions, MergeReport, Progress as MergeProgress, ReadAhead,
    RowGroupTarget, merge,
};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Whether a directory entry is one a writer leaves beside its data (`_SUCCESS`, `.crc`,
/// temporary files), which merging and compaction pass over.
pub fn is_hidden(name: &str) -> bool {
    name.starts_with('.') || name.starts_with('_')
}

/// The input files: files as given, directories as the files in them (not below), in name
/// order, leaving out hidden files and `exclude` (the output).
pub fn list_inputs(paths: &[PathBuf], exclude: &Path) -> Result<Vec<PathBuf>> {
    let excluded = std::fs::canonicalize(exclude).ok();
    let mut out = Vec::new();
    for p in paths {
        if !p.is_dir() {
            out.push(p.clone());
            continue;
        }
        let mut files = Vec::new();
        for e in std::fs::read_dir(p).with_context(|| p.display().to_string())? {
            let e = e.with_context(|| p.display().to_string())?;
            let name = e.file_name().to_string_lossy().into_owned();
            if is_hidden(&name) || !e.file_type()?.is_file() {
                continue;
            }
            let path = e.path();
            if excluded.is_some() && std::fs::canonicalize(&path).ok() == excluded {
                continue;
            }
            files.push(path);
        }
        files.sort();
        out.extend(files);
    }
    Ok(out)
}

/// The merge options `a` asks for.
pub fn options(a: &MergeOptionArgs) -> Result<MergeOptions> {
    let coalesce = if a.verbatim {
        None
    } else {
        Some(match a.row_group_size {
            Some(RowGroupSize::Rows(n)) => RowGroupTarget {
                rows: n as u64,
                bytes: u64::MAX,
            },
            Some(RowGroupSize::Bytes(n)) => RowGroupTarget {
                rows: u64::MAX,
                bytes: n as u64,
            },
            None => RowGroupTarget::default(),
        })
    };
    let mut o = MergeOptions {
        coalesce,
        ..MergeOptions::default()
    };
    if let Some(limit) = a.dictionary_limit {
        o.dictionary_limit = limit;
    }
    o.verify_crc = a.verify;
    if let Some(n) = a.threads {
        if n == 0 {
            crate::usage!("--threads 0: at least one thread is needed");
        }
        o.threads = ThreadPool::new(n)?;
    }
    Ok(o)
}

/// Opens every input (memory-mapped, read ahead: [`ReadAhead`]).
pub fn open_inputs(paths: &[PathBuf]) -> Result<Vec<(String, File, Bytes)>> {
    let mut ahead = ReadAhead::new();
    paths
        .iter()
        .map(|p| {
            if crate::source::is_stdio(p) {
                crate::usage!(
                    "merge reads its inputs from files (memory-mapped), not from standard input"
                );
            }
            let label = crate::source::label_of(p);
            let (f, b) = crate::source::open_mapped_with(p, |m| ahead.advise(m))
                .with_context(|| label.clone())?;
            Ok((label, f, b))
        })
        .collect()
}

/// Merges the opened `inputs` into `output` (atomically; synced to disk before the rename
/// when `sync`) with `opts`. The inputs are closed (unmapped) while the output is synced.
pub fn merge_into(
    inputs: Vec<(String, File, Bytes)>,
    output: &Path,
    opts: &MergeOptions,
    sync: bool,
) -> Result<MergeReport> {
    let list: Vec<MergeInput<'_>> = inputs
        .iter()
        .map(|(name, f, b)| MergeInput {
            name,
            bytes: b,
            file: Some(f),
        })
        .collect();
    let out = Output::create(output)?;
    let mut sink = FileSink::new(out.file()?).syncing_ahead(sync)?;
    let report = merge(&list, &mut sink, opts).with_context(|| out.label().to_string())?;
    sink.into_file()?;
    drop(list);
    // Unmapping the inputs (1,000 small files: 15 ms on the project's machine) overlaps the
    // sync, which waits for the disk: on a thread of its own where one can be had (if not,
    // they are unmapped here, as the failed spawn drops them).
    let unmapping = std::thread::Builder::new()
        .name("quiver-unmap".into())
        .spawn(move || drop(inputs));
    let committed = out.commit_with(sync);
    if let Ok(t) = unmapping {
        // Dropping maps does not panic; were it to, the maps would only stay to the exit.
        let _ = t.join();
    }
    committed?;
    Ok(report)
}

/// A progress bar fed by a merge's progress callback.
pub struct MergeBar(Arc<Mutex<Progress>>);

/// A bar labelled `message`, never shown when `quiet`.
pub fn progress_bar(quiet: bool, message: &str) -> MergeBar {
    MergeBar(Arc::new(Mutex::new(Progress::new(quiet, message))))
}

impl MergeBar {
    /// The callback to put in `MergeOptions::progress`.
    pub fn callback(&self) -> MergeProgress {
        let bar = self.0.clone();
        MergeProgress(Arc::new(move |done, total| {
            if let Ok(mut p) = bar.lock() {
                p.update(Position::Bytes(done, Some(total)));
            }
        }))
    }

    /// Removes the bar.
    pub fn clear(&self) {
        if let Ok(p) = self.0.lock() {
            p.clear();
        }
    }
}

/// Runs `quiver merge`.
pub fn run(a: &MergeArgs, quiet: bool) -> Result<ExitCode> {
    let start = Instant::now();
    let paths = list_inputs(&a.inputs, &a.output)?;
    if paths.is_empty() {
        crate::usage!(
            "no input files (directories are read for their files, hidden ones left out)"
        );
    }
    let inputs = open_inputs(&paths)?;
    if let Some((name, _, _)) = inputs
        .iter()
        .find(|(_, _, b)| b.starts_with(&[0xFF, 0xFF, 0xFF, 0xFF]))
    {
        crate::usage!(
            "{name}: an Arrow IPC stream; merge takes Arrow IPC files or Parquet files \
             (`quiver convert` makes an IPC file of a stream)"
        );
    }
    let ipc = inputs
        .first()
        .is_some_and(|(_, _, b)| b.starts_with(b"ARROW1"));
    let format = if ipc { Format::Arrow } else { Format::Parquet };
    if let Some(named) = Format::from_path(&a.output)
        && named != format
    {
        crate::usage!(
            "{}: its extension names {}, and the inputs are in {} format: merge writes its inputs' \
             format (`quiver convert` changes formats)",
            crate::source::label_of(&a.output),
            named.describe(),
            format.describe()
        );
    }
    if ipc {
        return run_ipc(a, &inputs, quiet, start);
    }
    let mut opts = options(&a.merge)?;
    let bar = progress_bar(quiet || a.merge.json, "merging");
    opts.progress = Some(bar.callback());
    let report = merge_into(inputs, &a.output, &opts, !a.no_sync);
    bar.clear();
    let report = report?;
    let seconds = start.elapsed().as_secs_f64();
    let label = crate::source::label_of(&a.output);
    let mut out = std::io::stdout().lock();
    if a.merge.json {
        writeln!(out, "{}", report_json(&report, &label, seconds))?;
    } else if !quiet {
        write_report(&mut std::io::stderr().lock(), &report, &label, seconds)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `quiver merge` of Arrow IPC files (quiver-ipc's `merge`: record batches copied as they
/// are, dictionaries unified).
fn run_ipc(
    a: &MergeArgs,
    inputs: &[(String, File, Bytes)],
    quiet: bool,
    start: Instant,
) -> Result<ExitCode> {
    if a.merge.verbatim || a.merge.row_group_size.is_some() || a.merge.dictionary_limit.is_some() {
        crate::usage!(
            "--verbatim, --row-group-size and --dictionary-limit are for Parquet; Arrow IPC \
             record batches are always copied as they are"
        );
    }
    if let Some((name, _, _)) = inputs.iter().find(|(_, _, b)| !b.starts_with(b"ARROW1")) {
        anyhow::bail!(
            "{name}: not an Arrow IPC file, as the first input is: inputs are merged only with inputs of their format"
        );
    }
    let list: Vec<quiver_ipc::merge::MergeInput> = inputs
        .iter()
        .map(|(name, _, b)| quiver_ipc::merge::MergeInput::new(name.clone(), b.clone()))
        .collect();
    let mut out = Output::create(&a.output)?;
    let opts = quiver_ipc::merge::MergeOptions::new().with_full_validation(a.merge.verify);
    let (mut w, r) = quiver_ipc::merge::merge(&list, out.writer_syncing(!a.no_sync)?, &opts)
        .with_context(|| out.label().to_string())?;
    w.flush()?;
    drop(w);
    out.commit_with(!a.no_sync)?;
    let seconds = start.elapsed().as_secs_f64();
    let t = &r.totals;
    let label = crate::source::label_of(&a.output);
    if a.merge.json {
        let v = serde_json::json!({
            "output": label,
            "seconds": seconds,
            "rows": t.rows,
            "batches": t.batches,
            "bytes": r.output_bytes,
            "batches_verbatim": t.batches_verbatim,
            "batches_reencoded": t.batches_reencoded,
            "dictionary_batches": t.dictionary_batches,
            "inputs": r.inputs.iter().map(|i| serde_json::json!({
                "name": i.name, "rows": i.rows, "batches": i.batches, "bytes": i.bytes,
                "batches_verbatim": i.batches_verbatim, "batches_reencoded": i.batches_reencoded,
                "dictionaries_delta": i.dictionaries_delta, "dictionaries_unified": i.dictionaries_unified,
            })).collect::<Vec<_>>(),
            "conflicts": r.metadata_conflicts.iter().map(|c| serde_json::json!({
                "input": c.input, "key": c.key, "kept": c.kept, "dropped": c.dropped,
            })).collect::<Vec<_>>(),
        });
        writeln!(std::io::stdout().lock(), "{v}")?;
    } else if !quiet {
        let mut e = std::io::stderr().lock();
        writeln!(
            e,
            "merged {} ({}, {}) into {label}: {} bytes in {seconds:.2} s",
            count(t.inputs as u64, "file", "files"),
            count(t.rows, "row", "rows"),
            count(t.batches as u64, "record batch", "record batches"),
            group(r.output_bytes),
        )?;
        writeln!(
            e,
            "  record batches: {} copied as stored, {} re-encoded (dictionary indices remapped); {} dictionary batches written",
            group(t.batches_verbatim as u64),
            group(t.batches_reencoded as u64),
            group(t.dictionary_batches as u64),
        )?;
        for c in &r.metadata_conflicts {
            writeln!(
                e,
                "  metadata {:?} differs in {} (the first value was kept)",
                c.key, c.input
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The report as text, a few lines.
pub fn write_report(w: &mut impl Write, r: &MergeReport, output: &str, seconds: f64) -> Result<()> {
    let in_rows: u64 = r.inputs.iter().map(|i| i.rows).sum();
    let in_groups: usize = r.inputs.iter().map(|i| i.row_groups).sum();
    let in_bytes: u64 = r.inputs.iter().map(|i| i.bytes).sum();
    writeln!(
        w,
        "merged {} ({}, {}, {} bytes) into {output}: {}, {} bytes in {seconds:.2} s",
        count(r.inputs.len() as u64, "file", "files"),
        count(in_rows, "row", "rows"),
        count(in_groups as u64, "row group", "row groups"),
        group(in_bytes),
        count(r.row_groups as u64, "row group", "row groups"),
        group(r.bytes),
    )?;
    let p = &r.pages;
    writeln!(
        w,
        "  column chunks: {} written, {} copied as stored; {} bytes copied",
        group(r.chunks),
        group(r.chunks_verbatim),
        group(r.bytes_copied)
    )?;
    writeln!(
        w,
        "  pages: {} copied, {} indices remapped ({} dictionaries merged), {} re-encoded PLAIN \
         ({} of them from their dictionary page as stored), {} re-compressed, {} v2 written as \
         v1, {} of nulls (missing columns)",
        group(p.copied),
        group(p.remapped),
        group(p.dictionaries_merged),
        group(p.reencoded),
        group(p.from_dictionary),
        group(p.recompressed),
        group(p.as_v1),
        group(p.nulls)
    )?;
    if p.converted > 0 {
        writeln!(
            w,
            "  {} pages of decimal columns an input stores another way converted to the first \
             input's storage",
            group(p.converted)
        )?;
    }
    if !r.appended_fields.is_empty() {
        writeln!(
            w,
            "  fields missing from earlier inputs (null there): {}",
            r.appended_fields.join(", ")
        )?;
    }
    for c in &r.conflicts {
        writeln!(
            w,
            "  key-value metadata {:?} differs in {} (the first value was kept)",
            c.key, c.input
        )?;
    }
    for n in &r.notes {
        writeln!(w, "  note: {n}")?;
    }
    Ok(())
}

/// The report as one JSON object.
pub fn report_json(r: &MergeReport, output: &str, seconds: f64) -> serde_json::Value {
    let p = &r.pages;
    serde_json::json!({
        "output": output,
        "seconds": seconds,
        "rows": r.rows,
        "row_groups": r.row_groups,
        "bytes": r.bytes,
        "inputs": r.inputs.iter().map(|i| serde_json::json!({
            "name": i.name, "rows": i.rows, "row_groups": i.row_groups, "bytes": i.bytes,
        })).collect::<Vec<_>>(),
        "column_chunks": r.chunks,
        "column_chunks_verbatim": r.chunks_verbatim,
        "bytes_copied": r.bytes_copied,
        "pages": {
            "copied": p.copied,
            "remapped": p.remapped,
            "reencoded": p.reencoded,
            "reencoded_from_dictionary": p.from_dictionary,
            "recompressed": p.recompressed,
            "nulls": p.nulls,
            "dictionaries_merged": p.dictionaries_merged,
            "v2_as_v1": p.as_v1,
            "converted": p.converted,
        },
        "appended_fields": r.appended_fields,
        "conflicts": r.conflicts.iter().map(|c| serde_json::json!({"key": c.key, "input": c.input})).collect::<Vec<_>>(),
        "notes": r.notes,
    })
}
