//! Numbers in messages (digit groups, nouns in the right number) and in arguments (sizes with
//! units).

/// `1234567` as `1,234,567`.
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` and the noun in its number: `1 row`, `2,500 rows`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", group(n), if n == 1 { one } else { many })
}

/// A size in bytes: digits, optionally a fraction, optionally a unit (case-insensitive):
/// `B`, `KB` `MB` `GB` `TB` (powers of 1000), `KiB` `MiB` `GiB` `TiB` (powers of 1024), e.g.
/// `4096`, `64KiB`, `1.5 GiB`. Returns the bytes and whether a unit was given.
pub fn parse_size(text: &str) -> Result<(u64, bool), String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = (&t[..split], t[split..].trim());
    let bad = || {
        format!(
            "{text:?} is not a size (a number, optionally with a unit: B, KB, MB, GB, KiB, MiB, GiB, …)"
        )
    };
    let scale: u64 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        "tb" => 1_000_000_000_000,
        "kib" => 1 << 10,
        "mib" => 1 << 20,
        "gib" => 1 << 30,
        "tib" => 1 << 40,
        _ => return Err(bad()),
    };
    let bytes = if let Ok(n) = number.parse::<u64>() {
        n.checked_mul(scale)
            .ok_or_else(|| format!("{text:?} is too large"))?
    } else {
        let x: f64 = number.parse().map_err(|_| bad())?;
        let b = (x * scale as f64).round();
        if !b.is_finite() || b >= u64::MAX as f64 {
            return Err(format!("{text:?} is too large"));
        }
        b as u64
    };
    Ok((bytes, !unit.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_with_units() {
        assert_eq!(parse_size("4096"), Ok((4096, false)));
        assert_eq!(parse_size("128MiB"), Ok((128 << 20, true)));
        assert_eq!(parse_size("64MB"), Ok((64_000_000, true)));
        assert_eq!(parse_size("1 GiB"), Ok((1 << 30, true)));
        assert_eq!(parse_size("1.5kib"), Ok((1536, true)));
        assert_eq!(parse_size("10b"), Ok((10, true)));
        for bad in [
            "",
            "MiB",
            "12 parsecs",
            "-5",
            "1.2.3MB",
            "99999999999999999999",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert!(parse_size("20000000TiB").unwrap_err().contains("too large"));
    }

    #[test]
    fn number_formatting() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(1000), "1,000");
        assert_eq!(group(6_000_000), "6,000,000");
        assert_eq!(count(1, "row", "rows"), "1 row");
        assert_eq!(count(2500, "row", "rows"), "2,500 rows");
    }
}
