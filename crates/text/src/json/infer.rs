//! Schema inference for JSON Lines (rules in the module docs of [`crate::json`]).

use super::parser::Json;
use crate::value::{parse_date32, parse_timestamp};
use quiver_arrow::{DataType, Field, Fields, TimeUnit};
use std::sync::Arc;

/// The inferred shape of a value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Kind {
    Null,
    Bool,
    Int,
    Float,
    Str,
    /// A string holding an ISO date, `2024-03-01`.
    Date,
    /// A string holding an ISO timestamp: the most fraction digits seen, and whether the
    /// values carry an offset (`Z`, `+02:00`).
    Timestamp {
        digits: usize,
        zoned: bool,
    },
    /// One of the strings `"NaN"`, `"inf"`, `"-inf"` (a float written as text).
    NonFinite,
    List(Box<Kind>),
    /// Fields in first-seen order.
    Struct(Vec<(String, Kind)>),
}

impl Kind {
    fn name(&self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "boolean",
            Kind::Int | Kind::Float => "number",
            Kind::Str | Kind::Date | Kind::Timestamp { .. } | Kind::NonFinite => "string",
            Kind::List(_) => "array",
            Kind::Struct(_) => "object",
        }
    }

    /// The Arrow type (all fields nullable).
    pub(crate) fn data_type(&self) -> DataType {
        match self {
            Kind::Null => DataType::Null,
            Kind::Bool => DataType::Boolean,
            Kind::Int => DataType::Int64,
            Kind::Float => DataType::Float64,
            Kind::Str | Kind::NonFinite => DataType::Utf8,
            Kind::Date => DataType::Date32,
            Kind::Timestamp { digits, zoned } => {
                let unit = unit_for_digits(*digits);
                DataType::Timestamp(unit, zoned.then(|| "UTC".into()))
            }
            Kind::List(item) => {
                DataType::List(Arc::new(Field::new("item", item.data_type(), true)))
            }
            Kind::Struct(fields) => DataType::Struct(struct_fields(fields)),
        }
    }
}

/// Nullable fields for inferred struct members.
pub(crate) fn struct_fields(fields: &[(String, Kind)]) -> Fields {
    fields
        .iter()
        .map(|(name, k)| Field::new(name.clone(), k.data_type(), true))
        .collect()
}

/// A conflict between kinds, with the path to it (innermost segment first).
#[derive(Debug)]
pub(crate) struct Conflict {
    pub path: Vec<String>,
    pub message: String,
}

/// Merges the kind of `v` into `into`.
pub(crate) fn merge_value(into: &mut Kind, v: &Json) -> Result<(), Conflict> {
    match (&mut *into, v) {
        (_, Json::Null) => Ok(()),
        (Kind::Null, _) => {
            *into = Kind::Null;
            fresh(into, v)
        }
        (Kind::List(item), Json::Array(items)) => {
            for (i, x) in items.iter().enumerate() {
                merge_value(item, x).map_err(|c| c.at(format!("[{i}]")))?;
            }
            Ok(())
        }
        (Kind::Struct(fields), Json::Object(members)) => merge_object(fields, members),
        (k, v) => {
            let scalar = scalar_kind(v);
            match scalar {
                Some(s) => merge_scalar(k, s),
                None => Err(conflict(k.name(), v.kind())),
            }
        }
    }
}

/// Builds the kind of `v` in `into` (which is `Null`).
fn fresh(into: &mut Kind, v: &Json) -> Result<(), Conflict> {
    *into = match v {
        Json::Array(_) => Kind::List(Box::new(Kind::Null)),
        Json::Object(_) => Kind::Struct(Vec::new()),
        other => scalar_kind(other).unwrap_or(Kind::Null),
    };
    if matches!(v, Json::Array(_) | Json::Object(_)) {
        merge_value(into, v)?;
    }
    Ok(())
}

fn merge_object(
    fields: &mut Vec<(String, Kind)>,
    members: &[(std::borrow::Cow<str>, Json)],
) -> Result<(), Conflict> {
    for (i, (key, value)) in members.iter().enumerate() {
        let pos = match fields.get(i) {
            Some((name, _)) if name == key => Some(i),
            _ => fields.iter().position(|(name, _)| name == key),
        };
        let slot = match pos {
            Some(p) => &mut fields[p].1,
            None => {
                fields.push((key.to_string(), Kind::Null));
                &mut fields.last_mut().expect("just pushed").1 // ok: pushed on the line above
            }
        };
        merge_value(slot, value).map_err(|c| c.at(format!(".{key}")))?;
    }
    Ok(())
}

fn scalar_kind(v: &Json) -> Option<Kind> {
    Some(match v {
        Json::Bool(_) => Kind::Bool,
        Json::Number(t) if t.contains(['.', 'e', 'E']) => Kind::Float,
        // Integers beyond int64 are doubles, as pyarrow and DuckDB infer them.
        Json::Number(t) if t.parse::<i64>().is_err() => Kind::Float,
        Json::Number(_) => Kind::Int,
        Json::Str(t) => string_kind(t.as_bytes()),
        _ => return None,
    })
}

/// The kind of a string: a date, a timestamp, a non-finite float spelling, or plain text.
fn string_kind(t: &[u8]) -> Kind {
    if matches!(t, b"NaN" | b"inf" | b"-inf") {
        return Kind::NonFinite;
    }
    if !t.first().is_some_and(|b| b.is_ascii_digit() || *b == b'-') {
        return Kind::Str;
    }
    if parse_date32(t).is_some() {
        return Kind::Date;
    }
    let digits = fraction_digits(t);
    match parse_timestamp(t, unit_for_digits(digits)) {
        Some(ts) => Kind::Timestamp {
            digits,
            zoned: ts.has_zone,
        },
        None => Kind::Str,
    }
}

/// Digits after the decimal point of a timestamp's seconds (0 without a fraction).
fn fraction_digits(t: &[u8]) -> usize {
    t.iter().position(|b| *b == b'.').map_or(0, |dot| {
        t[dot + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    })
}

/// The coarsest unit that holds `digits` fraction digits.
fn unit_for_digits(digits: usize) -> TimeUnit {
    match digits {
        0 => TimeUnit::Second,
        1..=3 => TimeUnit::Millisecond,
        4..=6 => TimeUnit::Microsecond,
        _ => TimeUnit::Nanosecond,
    }
}

/// Scalars: equal kinds stay; int, float and non-finite spellings give float; a date and a
/// timestamp without offset give the timestamp; timestamps keep the most fraction digits;
/// any other mix gives string.
fn merge_scalar(k: &mut Kind, s: Kind) -> Result<(), Conflict> {
    use Kind::{Bool, Date, Float, Int, NonFinite, Str, Timestamp};
    let merged = match (&*k, &s) {
        (a, b) if a == b => return Ok(()),
        (Int | NonFinite, Float) | (Float, Int | NonFinite) => Float,
        (Int, NonFinite) | (NonFinite, Int) => Float,
        (Date, Timestamp { zoned: false, .. }) => s,
        (Timestamp { zoned: false, .. }, Date) => return Ok(()),
        (
            Timestamp { digits: a, zoned },
            Timestamp {
                digits: b,
                zoned: z,
            },
        ) if zoned == z => Timestamp {
            digits: *a.max(b),
            zoned: *zoned,
        },
        (Bool | Int | Float | Str | Date | Timestamp { .. } | NonFinite, _) => Str,
        (other, _) => return Err(conflict(other.name(), s.name())),
    };
    *k = merged;
    Ok(())
}

fn conflict(had: &str, found: &str) -> Conflict {
    Conflict {
        path: Vec::new(),
        message: format!("conflicting types: {had} in earlier rows, {found} here"),
    }
}

impl Conflict {
    fn at(mut self, segment: String) -> Self {
        self.path.push(segment);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::super::parser::parse;
    use super::*;

    fn infer(lines: &[&str]) -> Result<Kind, String> {
        let mut k = Kind::Null;
        for l in lines {
            merge_value(&mut k, &parse(l.as_bytes()).unwrap()).map_err(|c| c.message)?;
        }
        Ok(k)
    }

    #[test]
    fn kinds_merge() {
        assert_eq!(infer(&["1", "2.5"]), Ok(Kind::Float));
        assert_eq!(infer(&["1", "\"a\""]), Ok(Kind::Str));
        assert_eq!(
            infer(&["null", "[]", "[null]", "[1]"]),
            Ok(Kind::List(Box::new(Kind::Int)))
        );
        assert_eq!(
            infer(&[r#"{"a":1}"#, r#"{"b":true,"a":null}"#]),
            Ok(Kind::Struct(vec![
                ("a".into(), Kind::Int),
                ("b".into(), Kind::Bool)
            ]))
        );
        assert!(
            infer(&["[1]", "1"])
                .unwrap_err()
                .contains("array in earlier rows, number here")
        );
        assert!(infer(&["{}", "\"x\""]).is_err());
    }
}
