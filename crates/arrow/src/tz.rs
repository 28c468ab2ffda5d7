//! Time zones of zoned timestamps: the one place that turns a `Timestamp` type's zone string
//! into offsets.
//!
//! A zone string (the `tz` of [`DataType::Timestamp`](crate::DataType::Timestamp)) is either a
//! fixed offset written `±HH:MM`, `±HHMM` or `±HH`, `UTC`/`Z`, or an IANA name such as
//! `America/New_York`. IANA names are looked up in the time zone database bundled with the
//! `jiff` crate (no system files are read, so every machine gives the same answers).
//!
//! Two directions:
//! - [`TimeZone::offset_at`]: the offset in force at a UTC instant (for showing a zoned
//!   timestamp as local time);
//! - [`TimeZone::to_utc`]: the UTC instant of a local wall-clock time (for reading text without
//!   an offset into a zoned column). Like pyarrow's `assume_timezone` with its defaults
//!   (`ambiguous="raise"`, `nonexistent="raise"`), a local time in a daylight-saving gap or
//!   fold is an error ([`LocalTimeError`]), never a silent guess.
//!
//! Instants beyond the years ±9999 use the offset in force at the nearest end of that range.

use crate::error::{Error, Result};
use jiff::Timestamp;
use jiff::tz::{AmbiguousOffset, Offset};
use std::cell::RefCell;
use std::fmt;

/// A parsed time zone: a fixed offset or an IANA zone.
#[derive(Clone, Debug)]
pub struct TimeZone {
    repr: Repr,
}

#[derive(Clone, Debug)]
enum Repr {
    /// Seconds east of UTC.
    Fixed(i32),
    Named(jiff::tz::TimeZone),
}

/// Why a local time has no single UTC instant in a zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalTimeError {
    /// The local time was skipped (a daylight-saving gap): clocks jumped over it.
    Nonexistent,
    /// The local time happened twice (a daylight-saving fold): clocks were set back over it.
    Ambiguous,
}

impl fmt::Display for LocalTimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LocalTimeError::Nonexistent => {
                "this local time does not exist in the zone (clocks skipped it)"
            }
            LocalTimeError::Ambiguous => {
                "this local time is ambiguous in the zone (it happened twice); \
                 write it with an explicit offset"
            }
        })
    }
}

/// Zones parsed on this thread, most recent last (parsing an IANA name costs a lookup).
const CACHE_SIZE: usize = 8;

thread_local! {
    static CACHE: RefCell<Vec<(String, TimeZone)>> = const { RefCell::new(Vec::new()) };
}

impl TimeZone {
    /// UTC.
    pub const UTC: TimeZone = TimeZone {
        repr: Repr::Fixed(0),
    };

    /// Parses a zone string (see the [module docs](self)); an unknown name is
    /// [`Error::InvalidArgument`](crate::Error) naming it.
    ///
    /// ```
    /// use quiver_arrow::tz::TimeZone;
    /// assert_eq!(TimeZone::parse("+05:30").unwrap().offset_at(0), 19_800);
    /// assert_eq!(TimeZone::parse("America/New_York").unwrap().offset_at(1_704_070_807), -18_000);
    /// assert!(TimeZone::parse("Mars/Olympus").is_err());
    /// ```
    pub fn parse(tz: &str) -> Result<TimeZone> {
        if let Some(offset) = parse_offset(tz) {
            return Ok(TimeZone {
                repr: Repr::Fixed(offset),
            });
        }
        if tz == "UTC" || tz == "Z" {
            return Ok(TimeZone::UTC);
        }
        if let Some(hit) = CACHE.with(|c| c.borrow().iter().find(|(n, _)| n == tz).cloned()) {
            return Ok(hit.1);
        }
        let named = jiff::tz::TimeZone::get(tz).map_err(|_| {
            Error::invalid(format!(
                "unknown time zone {tz:?}: expected an IANA name (America/New_York), UTC, \
                 or an offset ±HH:MM"
            ))
        })?;
        let zone = TimeZone {
            repr: Repr::Named(named),
        };
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            if c.len() == CACHE_SIZE {
                c.remove(0);
            }
            c.push((tz.to_string(), zone.clone()));
        });
        Ok(zone)
    }

    /// Seconds east of UTC in force at `utc_seconds` since the epoch.
    pub fn offset_at(&self, utc_seconds: i64) -> i32 {
        match &self.repr {
            Repr::Fixed(o) => *o,
            Repr::Named(tz) => tz.to_offset(instant(utc_seconds)).seconds(),
        }
    }

    /// The UTC instant (seconds since the epoch) of the local wall-clock time `local_seconds`
    /// (seconds since 1970-01-01 00:00:00 local time); a time in a gap or fold is an error.
    pub fn to_utc(&self, local_seconds: i64) -> std::result::Result<i64, LocalTimeError> {
        let offset = match &self.repr {
            Repr::Fixed(o) => *o,
            Repr::Named(tz) => {
                let civil = Offset::UTC.to_datetime(instant(local_seconds));
                match tz.to_ambiguous_timestamp(civil).offset() {
                    AmbiguousOffset::Unambiguous { offset } => offset.seconds(),
                    AmbiguousOffset::Gap { .. } => return Err(LocalTimeError::Nonexistent),
                    AmbiguousOffset::Fold { .. } => return Err(LocalTimeError::Ambiguous),
                }
            }
        };
        Ok(local_seconds.saturating_sub(i64::from(offset)))
    }
}

/// The instant `seconds` after the epoch, clamped to what the database covers.
fn instant(seconds: i64) -> Timestamp {
    let (min, max) = (Timestamp::MIN.as_second(), Timestamp::MAX.as_second());
    Timestamp::from_second(seconds.clamp(min, max)).unwrap_or(Timestamp::UNIX_EPOCH)
}

/// Seconds east of UTC of a fixed offset written `±HH:MM`, `±HHMM`, `±HH` or `±HH:MM:SS` (as
/// [`write_offset`] writes historical offsets; hours up to 23, minutes and seconds up to 59);
/// `None` for anything else.
///
/// ```
/// use quiver_arrow::tz::parse_offset;
/// assert_eq!(parse_offset("-0530"), Some(-19_800));
/// assert_eq!(parse_offset("UTC"), None);
/// ```
pub fn parse_offset(tz: &str) -> Option<i32> {
    let (sign, rest) = match tz.as_bytes() {
        [b'+', rest @ ..] => (1, rest),
        [b'-', rest @ ..] => (-1, rest),
        _ => return None,
    };
    let (hh, mm, ss) = match rest {
        [h1, h2] => ([*h1, *h2], *b"00", *b"00"),
        [h1, h2, m1, m2] | [h1, h2, b':', m1, m2] => ([*h1, *h2], [*m1, *m2], *b"00"),
        [h1, h2, b':', m1, m2, b':', s1, s2] => ([*h1, *h2], [*m1, *m2], [*s1, *s2]),
        _ => return None,
    };
    let two = |d: [u8; 2]| -> Option<i32> {
        let (a, b) = (d[0].checked_sub(b'0')?, d[1].checked_sub(b'0')?);
        (a <= 9 && b <= 9).then_some(i32::from(a * 10 + b))
    };
    let (hours, minutes, seconds) = (two(hh)?, two(mm)?, two(ss)?);
    let ok = hours <= 23 && minutes <= 59 && seconds <= 59;
    ok.then_some(sign * (hours * 3600 + minutes * 60 + seconds))
}

/// Writes an offset of `seconds` east of UTC as `±HH:MM` (`±HH:MM:SS` when it has seconds,
/// as some historical local mean times do).
pub fn write_offset(w: &mut dyn fmt::Write, seconds: i32) -> fmt::Result {
    let sign = if seconds < 0 { '-' } else { '+' };
    let s = seconds.unsigned_abs();
    write!(w, "{sign}{:02}:{:02}", s / 3600, s / 60 % 60)?;
    match s % 60 {
        0 => Ok(()),
        sec => write!(w, ":{sec:02}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_parse() {
        assert_eq!(parse_offset("+02:00"), Some(7200));
        assert_eq!(parse_offset("-0530"), Some(-(5 * 3600 + 30 * 60)));
        assert_eq!(parse_offset("+05"), Some(5 * 3600));
        assert_eq!(parse_offset("-04:56:02"), Some(-17_762));
        assert_eq!(parse_offset("-04:56:60"), None);
        assert_eq!(parse_offset("UTC"), None);
        assert_eq!(parse_offset("+25:00"), None);
        assert_eq!(parse_offset("+2:00"), None);
        assert_eq!(parse_offset("+"), None);
    }

    #[test]
    fn offsets_write() {
        let w = |s| {
            let mut out = String::new();
            write_offset(&mut out, s).unwrap();
            out
        };
        assert_eq!(w(0), "+00:00");
        assert_eq!(w(-18_000), "-05:00");
        assert_eq!(w(19_800), "+05:30");
        assert_eq!(w(-17_762), "-04:56:02");
    }

    #[test]
    fn zones_parse_or_name_the_unknown() {
        for good in [
            "UTC",
            "Z",
            "+01:00",
            "Europe/Paris",
            "Etc/UTC",
            "Asia/Kolkata",
        ] {
            assert!(TimeZone::parse(good).is_ok(), "{good}");
        }
        let e = TimeZone::parse("Europe/Pariss").unwrap_err().to_string();
        assert!(e.contains("unknown time zone \"Europe/Pariss\""), "{e}");
        assert!(TimeZone::parse("+2:00").is_err());
    }

    /// Offsets and local times checked against the published rules of New York: EST (-5)
    /// in winter, EDT (-4) from 2024-03-10 02:00 local to 2024-11-03 02:00 local.
    #[test]
    fn new_york_2024() {
        let ny = TimeZone::parse("America/New_York").unwrap();
        let utc = |d: &str| {
            let days = match d {
                "01-01" => 19_723,
                "07-01" => 19_905,
                "03-10" => 19_792,
                "11-03" => 20_030,
                _ => unreachable!(),
            };
            days * 86_400
        };
        assert_eq!(ny.offset_at(utc("01-01") + 12 * 3600), -5 * 3600);
        assert_eq!(ny.offset_at(utc("07-01") + 12 * 3600), -4 * 3600);
        // 12:00 local in July is 16:00 UTC.
        let noon = utc("07-01") + 12 * 3600;
        assert_eq!(ny.to_utc(noon), Ok(noon + 4 * 3600));
        // 02:30 on 2024-03-10 was skipped; 01:30 on 2024-11-03 happened twice.
        assert_eq!(
            ny.to_utc(utc("03-10") + 2 * 3600 + 1800),
            Err(LocalTimeError::Nonexistent)
        );
        assert_eq!(
            ny.to_utc(utc("11-03") + 3600 + 1800),
            Err(LocalTimeError::Ambiguous)
        );
        // Far outside the database's years: the nearest known rule, no panic.
        assert_eq!(ny.offset_at(i64::MAX), ny.offset_at(i64::MAX / 2));
        assert!(ny.to_utc(i64::MIN).is_ok());
    }

    #[test]
    fn fixed_offsets_convert_both_ways() {
        let z = TimeZone::parse("-03:30").unwrap();
        assert_eq!(z.offset_at(123), -12_600);
        assert_eq!(z.to_utc(0), Ok(12_600));
        assert_eq!(TimeZone::UTC.to_utc(42), Ok(42));
    }
}
