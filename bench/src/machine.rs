//! What the report says about the machine and the versions: `/proc` figures, command
//! output, the git revision and the locked crate versions.

use std::process::Command;

/// The first three fields of `/proc/loadavg`.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

/// The trimmed standard output of a command, or `?`.
pub fn run_text(cmd: &str, args: &[&str]) -> String {
    Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "?".into())
}

/// `model name` from `/proc/cpuinfo`.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "?".into())
}

/// `MemTotal` from `/proc/meminfo`, in GiB.
pub fn mem_total() -> String {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let line = m.lines().find(|l| l.starts_with("MemTotal:"))?;
            let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(format!("{:.1} GiB", kb / 1024.0 / 1024.0))
        })
        .unwrap_or_else(|| "?".into())
}

/// The repository's commit, marked when the work tree has changes (other than in the
/// report this run is about to replace).
pub fn git_revision() -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let rev = run_text("git", &["-C", dir, "rev-parse", "--short", "HEAD"]);
    let status = run_text(
        "git",
        &["-C", dir, "status", "--porcelain", "--untracked-files=no"],
    );
    let dirty = status.lines().any(|l| !l.ends_with("BENCHMARKS.md"));
    if dirty {
        format!("{rev} + uncommitted changes")
    } else {
        rev
    }
}

/// The version of the crate `name` in `bench/Cargo.lock`.
pub fn lock_version(name: &str) -> String {
    let lock = include_str!("../Cargo.lock");
    let wanted = format!("name = \"{name}\"");
    let mut lines = lock.lines();
    while let Some(l) = lines.next() {
        if l == wanted
            && let Some(v) = lines.next().and_then(|v| v.strip_prefix("version = "))
        {
            return v.trim_matches('"').to_string();
        }
    }
    "?".into()
}
