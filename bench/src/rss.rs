//! Process memory figures from `/proc/self/status`.

/// The value (in KiB) of a `/proc/self/status` line such as `VmHWM:  123456 kB`.
pub fn status_kb(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|line| {
        let rest = line.strip_prefix(key)?.strip_prefix(':')?;
        rest.split_whitespace().next()?.parse().ok()
    })
}
