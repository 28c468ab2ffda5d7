//! Human-readable rendering of types.

use super::{DataType, Field, IntervalUnit, TimeUnit, UnionMode};
use std::fmt;

impl fmt::Display for TimeUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TimeUnit::Second => "s",
            TimeUnit::Millisecond => "ms",
            TimeUnit::Microsecond => "us",
            TimeUnit::Nanosecond => "ns",
        })
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name(), self.data_type())?;
        if !self.is_nullable() {
            write!(f, " not null")?;
        }
        if let Some(ext) = self.extension_type() {
            write!(f, " (extension {})", ext.name)?;
        }
        Ok(())
    }
}

impl fmt::Display for DataType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use DataType::*;
        match self {
            Decimal32 { precision, scale } => write!(f, "Decimal32({precision}, {scale})"),
            Decimal64 { precision, scale } => write!(f, "Decimal64({precision}, {scale})"),
            Decimal128 { precision, scale } => write!(f, "Decimal128({precision}, {scale})"),
            Decimal256 { precision, scale } => write!(f, "Decimal256({precision}, {scale})"),
            Time32(u) => write!(f, "Time32({u})"),
            Time64(u) => write!(f, "Time64({u})"),
            Timestamp(u, None) => write!(f, "Timestamp({u})"),
            Timestamp(u, Some(tz)) => write!(f, "Timestamp({u}, {tz})"),
            Duration(u) => write!(f, "Duration({u})"),
            Interval(IntervalUnit::YearMonth) => write!(f, "Interval(YearMonth)"),
            Interval(IntervalUnit::DayTime) => write!(f, "Interval(DayTime)"),
            Interval(IntervalUnit::MonthDayNano) => write!(f, "Interval(MonthDayNano)"),
            FixedSizeBinary(n) => write!(f, "FixedSizeBinary({n})"),
            FixedSizeList(field, n) => write!(f, "FixedSizeList<{field}>[{n}]"),
            List(field) => write!(f, "List<{field}>"),
            LargeList(field) => write!(f, "LargeList<{field}>"),
            ListView(field) => write!(f, "ListView<{field}>"),
            LargeListView(field) => write!(f, "LargeListView<{field}>"),
            Struct(fields) => {
                write!(f, "Struct<")?;
                for (i, c) in fields.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{c}")?;
                }
                write!(f, ">")
            }
            Map(entries, sorted) => {
                write!(f, "Map<{}", entries.data_type())?;
                if *sorted {
                    write!(f, ", sorted")?;
                }
                write!(f, ">")
            }
            Union(u, mode) => {
                let m = if *mode == UnionMode::Sparse {
                    "Sparse"
                } else {
                    "Dense"
                };
                write!(f, "{m}Union<")?;
                for (i, (id, c)) in u.type_ids().iter().zip(u.fields().iter()).enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{id}={c}")?;
                }
                write!(f, ">")
            }
            Dictionary {
                key,
                value,
                ordered,
            } => {
                write!(f, "Dictionary<{}, {value}", key.data_type())?;
                if *ordered {
                    write!(f, ", ordered")?;
                }
                write!(f, ">")
            }
            RunEndEncoded(r, v) => write!(f, "RunEndEncoded<{}, {}>", r.data_type(), v.data_type()),
            other => write!(f, "{other:?}"),
        }
    }
}
