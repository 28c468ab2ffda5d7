//! Process memory figures from `/proc/self/status`, and the CPU time the process used.

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

/// CPU seconds the whole process (every thread) has used so far: (user, system), from
/// `getrusage(RUSAGE_SELF)`. The difference of two readings around a timed part says how much
/// of its time the process spent computing and how much in the kernel (system calls, page
/// faults) for it.
pub fn cpu_seconds() -> (f64, f64) {
    // SAFETY: `getrusage` writes one `rusage` into the zeroed value it is given; a zeroed
    // `rusage` (integers only) is a valid value.
    let usage = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut u) != 0 {
            return (0.0, 0.0);
        }
        u
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    (secs(usage.ru_utime), secs(usage.ru_stime))
}

/// CPU seconds (user, system) used since `start` (a [`cpu_seconds`] reading).
pub fn cpu_since(start: (f64, f64)) -> (f64, f64) {
    let now = cpu_seconds();
    (now.0 - start.0, now.1 - start.1)
}
