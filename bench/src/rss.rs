//! Process memory figures from `/proc/self/status`.

/// The value (in KiB) of a `/proc/self/status` line such as `VmHWM:  123456 kB`.
pub fn status_kb(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|line| {
        let rest = line.strip_prefix(key)?.strip_prefix(':')?;
        rest.split_whitespace().next()?.parse().ok()
    })
}

/// Resets the process's peak resident set size (VmHWM) to its current size, by writing `5` to
/// `/proc/self/clear_refs` (Linux ≥ 4.0), and returns that size (VmRSS, KiB): the peak read
/// later is then the peak since this call.
pub fn reset_peak() -> anyhow::Result<u64> {
    use anyhow::Context;
    std::fs::write("/proc/self/clear_refs", "5").context("resetting VmHWM")?;
    status_kb("VmRSS").context("no VmRSS in /proc/self/status")
}
