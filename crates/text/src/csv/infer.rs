//! Type inference for CSV columns (rules in the module docs of [`crate::csv`]).

use crate::value::{is_bool_word, parse_date32, parse_f64, parse_int, parse_timestamp};
use quiver_arrow::{DataType, TimeUnit};

/// What the sampled values of one column allow.
#[derive(Clone, Debug)]
pub(crate) struct ColumnGuess {
    seen: bool,
    bool_: bool,
    int: bool,
    float: bool,
    date: bool,
    timestamp: bool,
    zoned: Option<bool>,
    fraction: bool,
    /// A quoted empty field `""` was seen (an empty string, not a null).
    quoted_empty: bool,
}

impl Default for ColumnGuess {
    fn default() -> Self {
        ColumnGuess {
            seen: false,
            bool_: true,
            int: true,
            float: true,
            date: true,
            timestamp: true,
            zoned: None,
            fraction: false,
            quoted_empty: false,
        }
    }
}

impl ColumnGuess {
    /// Narrows the candidates with one non-null value.
    pub(crate) fn add(&mut self, v: &[u8]) {
        self.seen = true;
        self.bool_ &= is_bool_word(v);
        self.int &= parse_int::<i64>(v).is_ok();
        self.float &= self.int || parse_f64(v).is_some();
        self.date &= parse_date32(v).is_some();
        if self.timestamp {
            self.add_timestamp(v);
        }
    }

    /// Notes a quoted empty field: no type but `string` holds it, yet it does not narrow
    /// the others (it reads as null in non-string columns).
    pub(crate) fn add_quoted_empty(&mut self) {
        self.quoted_empty = true;
    }

    fn add_timestamp(&mut self, v: &[u8]) {
        let parsed = parse_timestamp(v, TimeUnit::Nanosecond)
            .or_else(|| parse_timestamp(v, TimeUnit::Second));
        let Some(t) = parsed else {
            self.timestamp = false;
            return;
        };
        if *self.zoned.get_or_insert(t.has_zone) != t.has_zone {
            self.timestamp = false;
        }
        self.fraction |= t.has_fraction;
    }

    /// The inferred type.
    pub(crate) fn data_type(&self) -> DataType {
        if !self.seen && self.quoted_empty {
            DataType::Utf8
        } else if !self.seen {
            DataType::Null
        } else if self.bool_ {
            DataType::Boolean
        } else if self.int {
            DataType::Int64
        } else if self.float {
            DataType::Float64
        } else if self.date {
            DataType::Date32
        } else if self.timestamp {
            let unit = if self.fraction {
                TimeUnit::Nanosecond
            } else {
                TimeUnit::Second
            };
            let tz = (self.zoned == Some(true)).then(|| "UTC".into());
            DataType::Timestamp(unit, tz)
        } else {
            DataType::Utf8
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn infer(values: &[&str]) -> DataType {
        let mut g = ColumnGuess::default();
        for v in values {
            g.add(v.as_bytes());
        }
        g.data_type()
    }

    #[test]
    fn inference_order() {
        assert_eq!(infer(&[]), DataType::Null);
        assert_eq!(infer(&["true", "FALSE"]), DataType::Boolean);
        assert_eq!(infer(&["1", "-2"]), DataType::Int64);
        assert_eq!(infer(&["1", "2.5", "1e3"]), DataType::Float64);
        assert_eq!(infer(&["99999999999999999999"]), DataType::Float64);
        assert_eq!(infer(&["2020-01-01"]), DataType::Date32);
        assert_eq!(
            infer(&["2020-01-01", "2020-01-01 10:00:00"]),
            DataType::Timestamp(TimeUnit::Second, None)
        );
        assert_eq!(
            infer(&["2020-01-01T10:00:00.5"]),
            DataType::Timestamp(TimeUnit::Nanosecond, None)
        );
        assert_eq!(
            infer(&["2020-01-01T10:00:00Z", "2020-01-01T10:00:00+01:00"]),
            DataType::Timestamp(TimeUnit::Second, Some("UTC".into()))
        );
        assert_eq!(
            infer(&["2020-01-01T10:00:00Z", "2020-01-01T10:00:00"]),
            DataType::Utf8
        );
        assert_eq!(infer(&["true", "1"]), DataType::Utf8);
        assert_eq!(infer(&["12:00:00"]), DataType::Utf8);
    }
}
