//! Parsing and formatting of dates, times, timestamps, durations and intervals.
//!
//! Accepted text (all ASCII):
//! - dates `[-]YYYY-MM-DD` (four or more year digits, as `format_value` writes them);
//! - timestamps `DATE[(T| )HH:MM[:SS[.fraction]]][zone]` where zone is `Z`, `±HH:MM`, `±HHMM`,
//!   `±HH`, `±HH:MM:SS` (as `format_value` writes historical offsets), ` UTC` or `Z[Area/City]`;
//! - times `[-]HH:MM[:SS[.fraction]]` (hours may exceed 23);
//! - durations: an integer count, optionally followed by the unit suffix (`1500ms`);
//! - intervals `1y2m` (year-month), `3d 4000ms` (day-time), `1m 2d 3ns` (month-day-nano).
//!
//! Fraction digits beyond the unit's precision must be zeros (no silent truncation).

use quiver_arrow::tz::parse_offset;
use quiver_arrow::{DaysMs, MonthDayNano, TimeUnit};

const SECONDS_PER_DAY: i64 = 86_400;

/// Units of `unit` per second.
pub(crate) fn per_second(unit: TimeUnit) -> i64 {
    match unit {
        TimeUnit::Second => 1,
        TimeUnit::Millisecond => 1_000,
        TimeUnit::Microsecond => 1_000_000,
        TimeUnit::Nanosecond => 1_000_000_000,
    }
}

fn fraction_digits(unit: TimeUnit) -> usize {
    match unit {
        TimeUnit::Second => 0,
        TimeUnit::Millisecond => 3,
        TimeUnit::Microsecond => 6,
        TimeUnit::Nanosecond => 9,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's `days_from_civil`).
pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn days_in_month(y: i64, m: u32) -> u32 {
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A cursor over ASCII text.
struct Cursor<'a> {
    s: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }
    fn eat(&mut self, b: u8) -> bool {
        let hit = self.peek() == Some(b);
        self.pos += usize::from(hit);
        hit
    }
    fn rest(&self) -> &'a [u8] {
        self.s.get(self.pos..).unwrap_or(&[])
    }
    fn done(&self) -> bool {
        self.pos >= self.s.len()
    }
    /// Exactly `n` digits as a number.
    fn fixed(&mut self, n: usize) -> Option<i64> {
        let digits = self.s.get(self.pos..self.pos + n)?;
        let mut v = 0i64;
        for &d in digits {
            if !d.is_ascii_digit() {
                return None;
            }
            v = v * 10 + i64::from(d - b'0');
        }
        self.pos += n;
        Some(v)
    }
    /// One or more digits (at most 18) as a number, and how many there were.
    fn digits(&mut self) -> Option<(i64, usize)> {
        let n = self
            .rest()
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if n == 0 || n > 18 {
            return None;
        }
        Some((self.fixed(n)?, n))
    }
}

/// `[-]YYYY-MM-DD` as days since the epoch.
fn date(c: &mut Cursor) -> Option<i64> {
    let negative = c.eat(b'-');
    let (mut year, n) = c.digits()?;
    if n < 4 {
        return None;
    }
    if negative {
        year = -year;
    }
    if !c.eat(b'-') {
        return None;
    }
    let month = c.fixed(2)? as u32;
    if !c.eat(b'-') {
        return None;
    }
    let day = c.fixed(2)? as u32;
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    Some(days_from_civil(year, month, day))
}

/// Parses a `Date32` value (days since the epoch).
pub(crate) fn parse_date32(s: &[u8]) -> Option<i32> {
    let mut c = Cursor { s, pos: 0 };
    let d = date(&mut c)?;
    c.done().then_some(())?;
    i32::try_from(d).ok()
}

/// `.fraction` digits scaled to `unit` (extra digits must be zeros).
fn fraction(c: &mut Cursor, unit: TimeUnit) -> Option<i64> {
    if !c.eat(b'.') {
        return Some(0);
    }
    let n = c.rest().iter().take_while(|b| b.is_ascii_digit()).count();
    if n == 0 {
        return None;
    }
    let want = fraction_digits(unit);
    let digits = &c.rest()[..n];
    c.pos += n;
    let (kept, extra) = digits.split_at(n.min(want));
    if extra.iter().any(|&d| d != b'0') {
        return None;
    }
    let mut v = 0i64;
    for &d in kept {
        v = v * 10 + i64::from(d - b'0');
    }
    Some(v * 10i64.pow((want - kept.len()) as u32))
}

/// `HH:MM[:SS[.fraction]]` as ticks of `unit`; hours are not limited to 23 when `any_hour`.
fn clock(c: &mut Cursor, unit: TimeUnit, any_hour: bool) -> Option<i64> {
    let (h, _) = c.digits()?;
    if !c.eat(b':') {
        return None;
    }
    let m = c.fixed(2)?;
    let s = if c.eat(b':') { c.fixed(2)? } else { 0 };
    if (!any_hour && h > 23) || m > 59 || s > 59 {
        return None;
    }
    let secs = h.checked_mul(3600)?.checked_add(m * 60 + s)?;
    let frac = fraction(c, unit)?;
    secs.checked_mul(per_second(unit))?.checked_add(frac)
}

/// A time zone suffix: seconds east of UTC (`Some(0)` for `Z`/`UTC`), `None` when absent.
/// Offsets are read by `quiver_arrow::tz::parse_offset`, the one parser of their forms.
fn zone(c: &mut Cursor) -> Result<Option<i64>, ()> {
    let rest = c.rest();
    if rest.is_empty() {
        return Ok(None);
    }
    let utc = matches!(rest, b"Z" | b" UTC" | b"UTC")
        || (rest.starts_with(b"Z[") && rest.ends_with(b"]"));
    let offset = if utc {
        0
    } else {
        let text = std::str::from_utf8(rest).map_err(|_| ())?;
        parse_offset(text).ok_or(())?
    };
    c.pos = c.s.len();
    Ok(Some(i64::from(offset)))
}

/// A parsed timestamp: ticks of the unit since the epoch (UTC when a zone was given), and
/// whether the text carried a zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Timestamp {
    pub value: i64,
    pub has_zone: bool,
    /// True when the text had a fraction of a second.
    pub has_fraction: bool,
}

/// Parses a timestamp in `unit` (see the module docs for the accepted forms).
pub(crate) fn parse_timestamp(s: &[u8], unit: TimeUnit) -> Option<Timestamp> {
    let mut c = Cursor { s, pos: 0 };
    let days = date(&mut c)?;
    let mut ticks = 0;
    if c.peek() == Some(b'T') || (c.peek() == Some(b' ') && c.rest() != b" UTC") {
        c.pos += 1;
        ticks = clock(&mut c, unit, false)?;
    }
    let has_fraction = s.contains(&b'.');
    let offset = zone(&mut c).ok()?;
    let per = per_second(unit);
    let mut value = days
        .checked_mul(SECONDS_PER_DAY * per)?
        .checked_add(ticks)?;
    if let Some(o) = offset {
        value = value.checked_sub(o.checked_mul(per)?)?;
    }
    Some(Timestamp {
        value,
        has_zone: offset.is_some(),
        has_fraction,
    })
}

/// Parses a time of day in `unit`: `[-]HH:MM[:SS[.fraction]]`.
pub(crate) fn parse_time(s: &[u8], unit: TimeUnit) -> Option<i64> {
    let mut c = Cursor { s, pos: 0 };
    let negative = c.eat(b'-');
    let v = clock(&mut c, unit, true)?;
    c.done().then_some(if negative { -v } else { v })
}

/// Parses a duration: an integer count, optionally with the unit's suffix (`1500ms`).
pub(crate) fn parse_duration(s: &[u8], unit: TimeUnit) -> Option<i64> {
    let suffix = unit_suffix(unit).as_bytes();
    let s = s.strip_suffix(suffix).unwrap_or(s);
    std::str::from_utf8(s).ok()?.parse().ok()
}

/// The suffix `format_value` gives durations in `unit`.
pub(crate) fn unit_suffix(unit: TimeUnit) -> &'static str {
    match unit {
        TimeUnit::Second => "s",
        TimeUnit::Millisecond => "ms",
        TimeUnit::Microsecond => "us",
        TimeUnit::Nanosecond => "ns",
    }
}

/// Splits `text` into integers each followed by its expected suffix.
fn suffixed<const N: usize>(text: &[u8], suffixes: [&str; N]) -> Option<[i64; N]> {
    let text = std::str::from_utf8(text).ok()?;
    let mut rest = text.trim();
    let mut out = [0i64; N];
    for (slot, suffix) in out.iter_mut().zip(suffixes) {
        rest = rest.trim_start();
        let end = rest
            .char_indices()
            .find(|&(i, ch)| !(ch.is_ascii_digit() || (i == 0 && (ch == '-' || ch == '+'))))
            .map_or(rest.len(), |(i, _)| i);
        *slot = rest[..end].parse().ok()?;
        rest = rest[end..].strip_prefix(suffix)?;
    }
    rest.trim().is_empty().then_some(out)
}

/// `Interval(YearMonth)` from `1y2m` (as `format_value` writes it) or a month count.
pub(crate) fn parse_year_month(s: &[u8]) -> Option<i32> {
    if let Some([y, m]) = suffixed(s, ["y", "m"]) {
        return i32::try_from(y.checked_mul(12)?.checked_add(m)?).ok();
    }
    std::str::from_utf8(s).ok()?.parse().ok()
}

/// `Interval(DayTime)` from `3d 4000ms`.
pub(crate) fn parse_day_time(s: &[u8]) -> Option<DaysMs> {
    let [days, ms] = suffixed(s, ["d", "ms"])?;
    Some(DaysMs {
        days: i32::try_from(days).ok()?,
        milliseconds: i32::try_from(ms).ok()?,
    })
}

/// `Interval(MonthDayNano)` from `1m 2d 3ns`.
pub(crate) fn parse_month_day_nano(s: &[u8]) -> Option<MonthDayNano> {
    let [months, days, ns] = suffixed(s, ["m", "d", "ns"])?;
    Some(MonthDayNano {
        months: i32::try_from(months).ok()?,
        days: i32::try_from(days).ok()?,
        nanoseconds: ns,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(parse_date32(b"1970-01-01"), Some(0));
        assert_eq!(parse_date32(b"2020-01-31"), Some(18_292));
        assert_eq!(parse_date32(b"1969-12-31"), Some(-1));
        assert_eq!(parse_date32(b"2021-02-29"), None);
        assert_eq!(parse_date32(b"2020-13-01"), None);
        assert_eq!(parse_date32(b"2020-1-01"), None);
        assert_eq!(parse_date32(b"2020-01-01x"), None);
        for d in [-800_000i64, -1, 0, 11_016, 18_292, 2_932_896] {
            let a = quiver_arrow::PrimitiveArray::<i32>::new(vec![d as i32])
                .with_data_type(quiver_arrow::DataType::Date32)
                .unwrap();
            let s = quiver_arrow::display::format_value(&a.into(), 0);
            assert_eq!(parse_date32(s.as_bytes()).map(i64::from), Some(d), "{s}");
        }
    }

    #[test]
    fn timestamps() {
        let p = |s: &str, u| parse_timestamp(s.as_bytes(), u).map(|t| (t.value, t.has_zone));
        assert_eq!(p("1970-01-01 00:00:01", TimeUnit::Second), Some((1, false)));
        assert_eq!(
            p("1970-01-01T00:00:01.5", TimeUnit::Millisecond),
            Some((1500, false))
        );
        assert_eq!(p("1970-01-01T00:00:01.5", TimeUnit::Second), None);
        assert_eq!(
            p("1970-01-01T00:00:01.000", TimeUnit::Second),
            Some((1, false))
        );
        assert_eq!(
            p("1970-01-01T01:00:00+01:00", TimeUnit::Second),
            Some((0, true))
        );
        assert_eq!(p("1970-01-01T00:00:00Z", TimeUnit::Second), Some((0, true)));
        assert_eq!(
            p("1970-01-01T00:00:00 UTC", TimeUnit::Second),
            Some((0, true))
        );
        assert_eq!(
            p("1970-01-01T00:00:00Z[Europe/Paris]", TimeUnit::Second),
            Some((0, true))
        );
        assert_eq!(p("1970-01-02", TimeUnit::Second), Some((86_400, false)));
        assert_eq!(p("1970-01-01T24:00:00", TimeUnit::Second), None);
        assert_eq!(p("9999999-01-01T00:00:00", TimeUnit::Nanosecond), None);
        let s = "1969-12-31T23:59:59.999999Z";
        assert_eq!(p(s, TimeUnit::Microsecond), Some((-1, true)));
        assert_eq!(
            p("1970-01-01T00:00:00-04:56:02", TimeUnit::Second),
            Some((17_762, true))
        );
    }

    #[test]
    fn times_durations_intervals() {
        assert_eq!(
            parse_time(b"12:34:56.789", TimeUnit::Millisecond),
            Some(45_296_789)
        );
        assert_eq!(parse_time(b"-00:00:01", TimeUnit::Second), Some(-1));
        assert_eq!(parse_time(b"12:34", TimeUnit::Second), Some(45_240));
        assert_eq!(parse_duration(b"1500ms", TimeUnit::Millisecond), Some(1500));
        assert_eq!(parse_duration(b"-7", TimeUnit::Second), Some(-7));
        assert_eq!(parse_year_month(b"-1y-2m"), Some(-14));
        assert_eq!(
            parse_day_time(b"3d -4000ms"),
            Some(DaysMs {
                days: 3,
                milliseconds: -4000
            })
        );
        let mdn = parse_month_day_nano(b"1m 2d 3ns").unwrap();
        assert_eq!((mdn.months, mdn.days, mdn.nanoseconds), (1, 2, 3));
        assert_eq!(parse_month_day_nano(b"1m 2d"), None);
    }
}
