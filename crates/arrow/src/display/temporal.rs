//! Rendering of dates, times, timestamps, durations and intervals, with the civil calendar
//! computed here (zone offsets come from [`crate::tz`]).

use crate::datatype::TimeUnit;
use crate::native::{DaysMs, MonthDayNano};
use crate::tz::{TimeZone, write_offset};
use std::fmt::{self, Write};

const SECONDS_PER_DAY: i64 = 86_400;

/// Units of `unit` per second.
fn per_second(unit: TimeUnit) -> i64 {
    match unit {
        TimeUnit::Second => 1,
        TimeUnit::Millisecond => 1_000,
        TimeUnit::Microsecond => 1_000_000,
        TimeUnit::Nanosecond => 1_000_000_000,
    }
}

/// Number of fractional digits shown for `unit`.
fn fraction_digits(unit: TimeUnit) -> usize {
    match unit {
        TimeUnit::Second => 0,
        TimeUnit::Millisecond => 3,
        TimeUnit::Microsecond => 6,
        TimeUnit::Nanosecond => 9,
    }
}

/// The proleptic Gregorian date `days` after 1970-01-01 as `(year, month, day)`.
///
/// This is the `civil_from_days` algorithm published by Howard Hinnant: days are shifted to
/// start on 0000-03-01 so that leap days fall at the end of a year, split into 400-year eras
/// of 146097 days, then into years of the era, day of year and a March-based month.
pub(crate) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // day of era, [0, 146096]
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // day of year from March 1, [0, 365]
    let mp = (5 * doy + 2) / 153; // month from March, [0, 11]
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Writes `YYYY-MM-DD` (years beyond 0..=9999 keep their sign and all digits).
pub(super) fn write_date(w: &mut dyn Write, days: i64) -> fmt::Result {
    let (y, m, d) = civil_from_days(days);
    if y < 0 {
        write!(w, "-{:04}-{m:02}-{d:02}", y.unsigned_abs())
    } else {
        write!(w, "{y:04}-{m:02}-{d:02}")
    }
}

/// Writes `HH:MM:SS` plus the unit's fraction digits for `ticks` into a day (`0 <= ticks`).
fn write_clock(w: &mut dyn Write, ticks: u64, unit: TimeUnit) -> fmt::Result {
    let per = per_second(unit) as u64;
    let (secs, frac) = (ticks / per, ticks % per);
    write!(
        w,
        "{:02}:{:02}:{:02}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )?;
    match fraction_digits(unit) {
        0 => Ok(()),
        n => write!(w, ".{frac:0n$}"),
    }
}

/// Time of day (`Time32`/`Time64`): `12:34:56.789` with the unit's fraction digits. Values
/// outside one day are shown with hours beyond 23 (and a sign when negative), not wrapped.
pub(super) fn write_time(w: &mut dyn Write, v: i64, unit: TimeUnit) -> fmt::Result {
    if v < 0 {
        w.write_char('-')?;
    }
    write_clock(w, v.unsigned_abs(), unit)
}

/// `YYYY-MM-DD HH:MM:SS[.fff]` of an instant `v` in `unit` since the epoch: ISO 8601 with the
/// space separator RFC 3339 allows, as pyarrow and DuckDB write timestamps (and read them
/// back, as quiver does).
fn write_date_time(w: &mut dyn Write, v: i64, unit: TimeUnit) -> fmt::Result {
    let per_day = per_second(unit) * SECONDS_PER_DAY;
    write_date(w, v.div_euclid(per_day))?;
    w.write_char(' ')?;
    write_clock(w, v.rem_euclid(per_day) as u64, unit)
}

/// `Date64` (milliseconds): the date, plus the time when not a whole day.
pub(super) fn write_date64(w: &mut dyn Write, ms: i64) -> fmt::Result {
    if ms.rem_euclid(SECONDS_PER_DAY * 1000) == 0 {
        write_date(w, ms.div_euclid(SECONDS_PER_DAY * 1000))
    } else {
        write_date_time(w, ms, TimeUnit::Millisecond)
    }
}

/// `Timestamp`: without a zone, the wall-clock time `2020-01-31 12:24:56.789`. With a zone
/// (a fixed offset such as `+02:00`, `UTC`, or an IANA name such as `America/New_York`, see
/// [`crate::tz`]), the local time in that zone followed by the offset in force then, as
/// pyarrow's CSV writer shows it: `2023-12-31 20:00:07-05:00`, `2020-01-31 12:24:56.789+00:00`
/// — an ISO 8601 / RFC 3339 text that pyarrow, DuckDB and quiver read back to the same instant.
/// A zone the database does not know shows the UTC time marked `Z` and annotated with the zone
/// (`2020-01-31 12:24:56Z[Mars/Olympus]`, RFC 9557).
pub(super) fn write_timestamp(
    w: &mut dyn Write,
    v: i64,
    unit: TimeUnit,
    tz: Option<&str>,
) -> fmt::Result {
    let Some(tz) = tz else {
        return write_date_time(w, v, unit);
    };
    if let Ok(zone) = TimeZone::parse(tz) {
        let offset = zone.offset_at(v.div_euclid(per_second(unit)));
        let shifted = i64::from(offset)
            .checked_mul(per_second(unit))
            .and_then(|o| v.checked_add(o));
        if let Some(local) = shifted {
            write_date_time(w, local, unit)?;
            return write_offset(w, offset);
        }
    }
    write_date_time(w, v, unit)?;
    write!(w, "Z[{tz}]")
}

/// The suffix of a duration in `unit`.
fn unit_suffix(unit: TimeUnit) -> &'static str {
    match unit {
        TimeUnit::Second => "s",
        TimeUnit::Millisecond => "ms",
        TimeUnit::Microsecond => "us",
        TimeUnit::Nanosecond => "ns",
    }
}

/// `Duration`: the count and its unit, `3600s`, `1500ms`, `12us`, `5ns`.
pub(super) fn write_duration(w: &mut dyn Write, v: i64, unit: TimeUnit) -> fmt::Result {
    write!(w, "{v}{}", unit_suffix(unit))
}

/// `Interval(YearMonth)`: `1y2m` (years and months, both truncated toward zero, so -14 months
/// is `-1y-2m`).
pub(super) fn write_year_month(w: &mut dyn Write, months: i32) -> fmt::Result {
    write!(w, "{}y{}m", months / 12, months % 12)
}

/// `Interval(DayTime)`: `3d 4000ms`.
pub(super) fn write_day_time(w: &mut dyn Write, v: DaysMs) -> fmt::Result {
    write!(w, "{}d {}ms", v.days, v.milliseconds)
}

/// `Interval(MonthDayNano)`: `1m 2d 3ns`.
pub(super) fn write_month_day_nano(w: &mut dyn Write, v: MonthDayNano) -> fmt::Result {
    write!(w, "{}m {}d {}ns", v.months, v.days, v.nanoseconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slow oracle: walk day by day from the epoch with the Gregorian leap rule.
    fn naive_civil(days: i64) -> (i64, u32, u32) {
        let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let month_len = |y: i64, m: u32| match m {
            2 if leap(y) => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        let (mut y, mut m, mut d) = (1970i64, 1u32, 1u32);
        if days >= 0 {
            for _ in 0..days {
                d += 1;
                if d > month_len(y, m) {
                    d = 1;
                    m += 1;
                    if m > 12 {
                        m = 1;
                        y += 1;
                    }
                }
            }
        } else {
            for _ in 0..-days {
                if d > 1 {
                    d -= 1;
                } else {
                    if m > 1 {
                        m -= 1;
                    } else {
                        m = 12;
                        y -= 1;
                    }
                    d = month_len(y, m);
                }
            }
        }
        (y, m, d)
    }

    #[test]
    fn civil_dates_match_day_by_day_oracle() {
        for days in [
            -800_000i64,
            -719_469,
            -1,
            0,
            1,
            59,
            11_016,
            18_292,
            30_000,
            800_000,
        ] {
            assert_eq!(civil_from_days(days), naive_civil(days), "day {days}");
        }
        // Every day of a leap century boundary stretch.
        for days in 10_900..11_100 {
            assert_eq!(civil_from_days(days), naive_civil(days), "day {days}");
        }
    }

    #[test]
    fn known_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(18_292), (2020, 1, 31));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(-719_528), (0, 1, 1));
    }
}
