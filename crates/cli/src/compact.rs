//! `quiver compact DIR`: in every partition directory (DIR and each folder below it, such as
//! Hive-style `key=value/` folders), the small Parquet files are packed, in name order, into
//! outputs of about `--target-file-size`, each written by `quiver merge`'s machinery; once all
//! outputs of a partition are in place the inputs are removed.
//!
//! **Crash safety.** An output is written under a hidden temporary name and renamed into place
//! only when complete and synced, so no partial file ever has a final name (a stale temporary
//! is hidden, `.NAME.PID.XXXXXX.quiver-tmp`, and removed by a later run). Inputs are removed
//! only after every output of their partition is renamed and the directory synced, so every
//! row is readable at least once at every moment. Between the first output's rename and the
//! last input's removal a reader listing the directory sees those rows twice: that is the
//! window a table format (an atomic switch of its file list, as Iceberg's or Delta's commit)
//! closes, which a plain directory cannot. Each output records its inputs (name, size and a
//! hash of its footer) under the key-value metadata key [`INPUTS_KEY`]; a run that finds an
//! output whose listed inputs still exist, unchanged, finishes the interrupted compaction by
//! removing them, so a crash never leaves rows duplicated for good.

use crate::args::CompactArgs;
use crate::merge::{MergeBar, is_hidden, merge_into, open_inputs, progress_bar};
use crate::numbers::{count, group};
use anyhow::{Context, Result};
use bytes::Bytes;
use quiver_parquet::file::merge::{MergeOptions, MergeReport};
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The key-value metadata key under which a compacted file lists its inputs.
pub const INPUTS_KEY: &str = "quiver.compacted_from";

/// A data file of a partition.
#[derive(Debug, Clone)]
struct DataFile {
    path: PathBuf,
    bytes: u64,
}

/// What to do in one partition.
#[derive(Debug)]
struct PartitionPlan {
    dir: PathBuf,
    /// Files packed together, each group one output.
    groups: Vec<Vec<DataFile>>,
    /// Parquet files left as they are (large enough, or alone in their group).
    left: Vec<DataFile>,
    /// Other files, left alone.
    skipped: Vec<PathBuf>,
    /// Inputs of an earlier, interrupted compaction, to remove.
    leftovers: Vec<PathBuf>,
}

/// Every partition directory: `root` and the folders below it (hidden ones left out).
fn partitions(root: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    out.push(root.to_path_buf());
    let mut dirs = Vec::new();
    for e in std::fs::read_dir(root).with_context(|| root.display().to_string())? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type()?.is_dir() && !is_hidden(&name) {
            dirs.push(e.path());
        }
    }
    dirs.sort();
    for d in dirs {
        partitions(&d, out)?;
    }
    Ok(())
}

/// Whether `bytes` look like a Parquet file (its magic at both ends).
fn is_parquet(bytes: &[u8]) -> bool {
    bytes.len() >= 12 && bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1")
}

/// How a compacted file names one input: its name, size and the xxHash64 of its footer.
fn fingerprint(path: &Path, bytes: &[u8]) -> Value {
    let footer_len = bytes
        .len()
        .checked_sub(8)
        .map(|t| {
            u32::from_le_bytes([bytes[t], bytes[t + 1], bytes[t + 2], bytes[t + 3]]) as usize + 8
        })
        .unwrap_or(0)
        .min(bytes.len());
    let hash = quiver_parquet::bloom::hash_bytes(&bytes[bytes.len() - footer_len..]);
    json!({
        "name": path.file_name().map(|n| n.to_string_lossy().into_owned()),
        "bytes": bytes.len(),
        "footer_xxh64": format!("{hash:016x}"),
    })
}

/// The inputs an earlier compaction left behind in `dir`: files that a compacted file lists
/// as its inputs and that are still there, unchanged.
fn leftovers(files: &[(DataFile, Bytes)]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for (f, bytes) in files {
        let Ok(meta) = quiver_parquet::metadata::parse_file(bytes) else {
            continue;
        };
        let listed = meta
            .file()
            .key_value_metadata
            .iter()
            .flatten()
            .find(|kv| kv.key == INPUTS_KEY.as_bytes())
            .and_then(|kv| kv.value)
            .and_then(|v| serde_json::from_slice::<Vec<Value>>(v).ok());
        for want in listed.into_iter().flatten() {
            let found = files.iter().find(|(g, b)| {
                g.path != f.path
                    && g.path.file_name().map(|n| n.to_string_lossy().into_owned())
                        == want["name"].as_str().map(str::to_string)
                    && fingerprint(&g.path, b) == want
            });
            if let Some((g, _)) = found
                && !out.contains(&g.path)
            {
                out.push(g.path.clone());
            }
        }
    }
    Ok(out)
}

/// Plans one partition: its Parquet files in name order, packed into groups of at most
/// `target` bytes; files of `target` or more, and groups of one, stay.
fn plan_partition(dir: &Path, target: u64) -> Result<(PartitionPlan, Vec<(DataFile, Bytes)>)> {
    let mut names = Vec::new();
    for e in std::fs::read_dir(dir).with_context(|| dir.display().to_string())? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type()?.is_file() && !is_hidden(&name) {
            names.push(e.path());
        }
    }
    names.sort();
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    for path in names {
        let (_, bytes) =
            crate::source::open_mapped(&path).with_context(|| path.display().to_string())?;
        if is_parquet(&bytes) {
            files.push((
                DataFile {
                    path,
                    bytes: bytes.len() as u64,
                },
                bytes,
            ));
        } else {
            skipped.push(path);
        }
    }
    let leftovers = leftovers(&files)?;
    let mut plan = PartitionPlan {
        dir: dir.to_path_buf(),
        groups: Vec::new(),
        left: Vec::new(),
        skipped,
        leftovers,
    };
    let mut current: Vec<DataFile> = Vec::new();
    let mut size = 0u64;
    let close = |current: &mut Vec<DataFile>, plan: &mut PartitionPlan| match current.len() {
        0 => {}
        1 => plan.left.append(current),
        _ => plan.groups.push(std::mem::take(current)),
    };
    for (f, _) in &files {
        if plan.leftovers.contains(&f.path) {
            continue;
        }
        if f.bytes >= target {
            plan.left.push(f.clone());
            continue;
        }
        if size + f.bytes > target {
            close(&mut current, &mut plan);
            size = 0;
        }
        size += f.bytes;
        current.push(f.clone());
    }
    close(&mut current, &mut plan);
    Ok((plan, files))
}

/// A free name for output `k` of this run in `dir`.
fn output_name(dir: &Path, stamp: u128, k: usize) -> PathBuf {
    let mut n = 0;
    loop {
        let suffix = if n == 0 {
            String::new()
        } else {
            format!("-{n}")
        };
        let p = dir.join(format!("compacted-{stamp}-{k:04}{suffix}.parquet"));
        if !p.exists() {
            return p;
        }
        n += 1;
    }
}

/// Syncs a directory (so that renames and removals in it are durable).
fn sync_dir(dir: &Path) -> Result<()> {
    std::fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .with_context(|| format!("{}: cannot sync the directory", dir.display()))
}

fn file_json(f: &DataFile) -> Value {
    json!({"file": f.path.display().to_string(), "bytes": f.bytes})
}

/// Runs `quiver compact`.
pub fn run(a: &CompactArgs, quiet: bool) -> Result<ExitCode> {
    let start = Instant::now();
    if !a.dir.is_dir() {
        crate::usage!("{}: not a directory", a.dir.display());
    }
    let target = a.target_file_size.unwrap_or(512 << 20) as u64;
    let mut opts: MergeOptions = crate::merge::options(&a.merge)?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let mut dirs = Vec::new();
    partitions(&a.dir, &mut dirs)?;
    let mut report = Vec::new();
    let mut k = 0;
    let bar = progress_bar(quiet || a.merge.json, "compacting");
    for dir in dirs {
        if !a.dry_run {
            crate::output::remove_stale_temporaries(&dir);
        }
        let (plan, _) = plan_partition(&dir, target)?;
        if plan.groups.is_empty() && plan.leftovers.is_empty() {
            continue;
        }
        let outputs = if a.dry_run {
            Vec::new()
        } else {
            compact_partition(&plan, &mut opts, a.keep_inputs, stamp, &mut k, &bar)?
        };
        report.push(partition_json(&plan, &outputs, a));
    }
    bar.clear();
    let seconds = start.elapsed().as_secs_f64();
    let summary = json!({"dir": a.dir.display().to_string(), "dry_run": a.dry_run, "seconds": seconds, "partitions": report});
    let mut out = std::io::stdout().lock();
    if a.merge.json {
        writeln!(out, "{summary}")?;
    } else if a.dry_run || !quiet {
        write_text(&mut out, &summary)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Compacts one partition: every group merged into its output, the outputs synced into
/// place, then (unless `keep`) the inputs and the leftovers of earlier runs removed.
fn compact_partition(
    plan: &PartitionPlan,
    opts: &mut MergeOptions,
    keep: bool,
    stamp: u128,
    k: &mut usize,
    bar: &MergeBar,
) -> Result<Vec<(PathBuf, Vec<DataFile>, MergeReport)>> {
    let mut outputs = Vec::new();
    for group in &plan.groups {
        let paths: Vec<PathBuf> = group.iter().map(|f| f.path.clone()).collect();
        let inputs = open_inputs(&paths)?;
        let listed: Vec<Value> = paths
            .iter()
            .zip(&inputs)
            .map(|(p, (_, _, b))| fingerprint(p, b))
            .collect();
        opts.key_value_metadata.clear();
        if !keep {
            opts.key_value_metadata
                .push((INPUTS_KEY.to_string(), Value::Array(listed).to_string()));
        }
        opts.progress = Some(bar.callback());
        let out = output_name(&plan.dir, stamp, *k);
        *k += 1;
        let r = merge_into(inputs, &out, opts, true)?;
        outputs.push((out, group.clone(), r));
    }
    sync_dir(&plan.dir)?;
    if !keep {
        let inputs = plan.groups.iter().flatten().map(|f| &f.path);
        for p in plan.leftovers.iter().chain(inputs) {
            std::fs::remove_file(p).with_context(|| format!("{}: cannot remove", p.display()))?;
        }
        sync_dir(&plan.dir)?;
    }
    Ok(outputs)
}

fn partition_json(
    plan: &PartitionPlan,
    outputs: &[(PathBuf, Vec<DataFile>, MergeReport)],
    a: &CompactArgs,
) -> Value {
    let groups: Vec<Value> = if a.dry_run {
        plan.groups
            .iter()
            .map(|g| {
                json!({
                    "inputs": g.iter().map(file_json).collect::<Vec<_>>(),
                    "bytes": g.iter().map(|f| f.bytes).sum::<u64>(),
                })
            })
            .collect()
    } else {
        outputs
            .iter()
            .map(|(out, g, r)| {
                json!({
                    "output": out.display().to_string(),
                    "inputs": g.iter().map(file_json).collect::<Vec<_>>(),
                    "bytes": r.bytes,
                    "rows": r.rows,
                    "row_groups": r.row_groups,
                    "input_row_groups": r.inputs.iter().map(|i| i.row_groups).sum::<usize>(),
                    "pages": {
                        "copied": r.pages.copied, "remapped": r.pages.remapped,
                        "reencoded": r.pages.reencoded,
                        "reencoded_from_dictionary": r.pages.from_dictionary,
                        "recompressed": r.pages.recompressed, "nulls": r.pages.nulls,
                        "converted": r.pages.converted,
                    },
                    "notes": r.notes,
                })
            })
            .collect()
    };
    json!({
        "partition": plan.dir.display().to_string(),
        "outputs": groups,
        "left": plan.left.iter().map(file_json).collect::<Vec<_>>(),
        "skipped": plan.skipped.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "leftovers_removed": plan.leftovers.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "inputs_kept": a.keep_inputs,
    })
}

/// The report (or plan) as text: a line per partition and per output.
fn write_text(w: &mut impl Write, s: &Value) -> Result<()> {
    let dry = s["dry_run"].as_bool().unwrap_or(false);
    let empty = Vec::new();
    let parts = s["partitions"].as_array().unwrap_or(&empty);
    if parts.is_empty() {
        writeln!(
            w,
            "nothing to compact in {}",
            s["dir"].as_str().unwrap_or("")
        )?;
        return Ok(());
    }
    for p in parts {
        let outs = p["outputs"].as_array().unwrap_or(&empty);
        let inputs: u64 = outs
            .iter()
            .map(|o| o["inputs"].as_array().map_or(0, |a| a.len() as u64))
            .sum();
        let bytes: u64 = outs
            .iter()
            .flat_map(|o| o["inputs"].as_array().into_iter().flatten())
            .map(|f| f["bytes"].as_u64().unwrap_or(0))
            .sum();
        writeln!(
            w,
            "{}: {} ({} bytes) {} {}; {} left as they are",
            p["partition"].as_str().unwrap_or(""),
            count(inputs, "file", "files"),
            group(bytes),
            if dry { "would become" } else { "became" },
            count(outs.len() as u64, "file", "files"),
            count(
                p["left"].as_array().map_or(0, |a| a.len() as u64),
                "file",
                "files"
            ),
        )?;
        for o in outs {
            if let Some(out) = o["output"].as_str() {
                writeln!(
                    w,
                    "  {out}: {}, {} ({} row groups in), {} bytes",
                    count(o["rows"].as_u64().unwrap_or(0), "row", "rows"),
                    count(
                        o["row_groups"].as_u64().unwrap_or(0),
                        "row group",
                        "row groups"
                    ),
                    group(o["input_row_groups"].as_u64().unwrap_or(0)),
                    group(o["bytes"].as_u64().unwrap_or(0)),
                )?;
            } else {
                let names: Vec<&str> = o["inputs"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|f| f["file"].as_str())
                    .collect();
                let shown = names.len().min(4);
                let more = if names.len() > shown { ", …" } else { "" };
                writeln!(
                    w,
                    "  {} files into one: {}{more}",
                    names.len(),
                    names[..shown].join(", ")
                )?;
            }
        }
        let removed = p["leftovers_removed"].as_array().map_or(0, Vec::len);
        if removed > 0 {
            writeln!(
                w,
                "  {} of an interrupted compaction (already in a compacted file) {}",
                count(removed as u64, "input", "inputs"),
                if dry { "would be removed" } else { "removed" }
            )?;
        }
    }
    Ok(())
}
