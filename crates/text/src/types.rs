//! Data types and schemas as text, in pyarrow's `str(type)` spelling.
//!
//! [`parse_data_type`] and [`parse_schema`] read what [`format_data_type`] writes (and what
//! pyarrow prints), so users can paste `print(table.schema)` output.

use quiver_arrow::{
    DataType, Error, Field, Fields, IntegerType, IntervalUnit, Result, Schema, TimeUnit, UnionMode,
};
use std::fmt::Write;
use std::sync::Arc;

/// Parses a data type written the way pyarrow prints it.
///
/// Accepted names (case-insensitive): `null`, `bool`/`boolean`, `int8`…`int64`,
/// `uint8`…`uint64`, `float16`/`halffloat`, `float`/`float32`, `double`/`float64`,
/// `string`/`utf8`/`str`, `large_string`/`large_utf8`, `string_view`/`utf8_view`, `binary`,
/// `large_binary`, `binary_view`, `fixed_size_binary[N]`, `date32[day]`/`date32`,
/// `date64[ms]`/`date64`, `time32[s|ms]`, `time64[us|ns]`, `timestamp[unit]`,
/// `timestamp[unit, tz=Zone]`, `duration[unit]`, `month_interval`, `day_time_interval`,
/// `month_day_nano_interval`, `decimal32/64/128/256(p, s)`, `decimal(p, s)` (= decimal128),
/// `list<T>` or `list<item: T>`, `large_list<…>`, `list_view<…>`, `large_list_view<…>`,
/// `fixed_size_list<item: T>[N]` (or `fixed_size_list<T, N>`), `struct<a: T, b: U not null>`,
/// `map<K, V>` (optionally `, keys_sorted`), `dictionary<values=T, indices=I[, ordered=0|1]>`,
/// `run_end_encoded<run_ends: I, values: T>`.
///
/// Child fields are nullable unless followed by `not null`. Field names that are not plain
/// identifiers can be double-quoted (`struct<"a b": int32>`).
///
/// ```
/// use quiver_text::parse_data_type;
/// use quiver_arrow::{DataType, TimeUnit};
/// assert_eq!(parse_data_type("timestamp[us, tz=UTC]").unwrap(),
///            DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())));
/// assert_eq!(parse_data_type("list<item: int32>").unwrap(), DataType::list_of(DataType::Int32));
/// assert!(parse_data_type("list<int32").is_err());
/// ```
pub fn parse_data_type(text: &str) -> Result<DataType> {
    let mut p = Parser { s: text, pos: 0 };
    let dt = p.data_type()?;
    p.ws();
    if p.pos < p.s.len() {
        return Err(p.error("unexpected text after the type"));
    }
    dt.validate()
        .map_err(|e| Error::invalid(format!("type {text:?}: {e}")))?;
    Ok(dt)
}

/// Parses a schema: comma-separated `name: type` pairs, each optionally followed by
/// `not null` (fields are nullable by default), e.g.
/// `id: int64 not null, name: string, price: decimal128(15, 2), tags: list<string>`.
/// Commas inside `<>`, `()` and `[]` do not split fields. Names may be double-quoted.
///
/// ```
/// use quiver_text::parse_schema;
/// let s = parse_schema("id:int64 not null, ts: timestamp[us, tz=UTC], m: map<string, int32>").unwrap();
/// assert_eq!(s.fields.len(), 3);
/// assert!(!s.fields[0].is_nullable());
/// ```
pub fn parse_schema(text: &str) -> Result<Schema> {
    let mut p = Parser { s: text, pos: 0 };
    let mut fields = Vec::new();
    p.ws();
    while p.pos < p.s.len() {
        fields.push(p.field(true)?);
        p.ws();
        if !p.eat(",") && p.pos < p.s.len() {
            return Err(p.error("expected ',' between fields"));
        }
        p.ws();
    }
    if fields.is_empty() {
        return Err(Error::invalid("the schema has no fields"));
    }
    let schema = Schema::new(fields);
    for f in schema.fields.iter() {
        f.data_type()
            .validate()
            .map_err(|e| Error::invalid(format!("field {:?}: {e}", f.name())))?;
    }
    Ok(schema)
}

/// Formats a data type in pyarrow's spelling (what [`parse_data_type`] reads).
///
/// ```
/// use quiver_text::format_data_type;
/// use quiver_arrow::DataType;
/// assert_eq!(format_data_type(&DataType::list_of(DataType::Utf8)), "list<item: string>");
/// ```
pub fn format_data_type(dt: &DataType) -> String {
    let mut s = String::new();
    write_type(&mut s, dt);
    s
}

/// Formats a schema as [`parse_schema`] reads it.
pub fn format_schema(schema: &Schema) -> String {
    let mut s = String::new();
    for (i, f) in schema.fields.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        write_field(&mut s, f);
    }
    s
}

fn unit_name(u: TimeUnit) -> &'static str {
    match u {
        TimeUnit::Second => "s",
        TimeUnit::Millisecond => "ms",
        TimeUnit::Microsecond => "us",
        TimeUnit::Nanosecond => "ns",
    }
}

fn write_field(s: &mut String, f: &Field) {
    let plain = !f.name().is_empty()
        && f.name()
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if plain {
        s.push_str(f.name());
    } else {
        let _ = write!(s, "{:?}", f.name());
    }
    s.push_str(": ");
    write_type(s, f.data_type());
    if !f.is_nullable() {
        s.push_str(" not null");
    }
}

fn simple_name(dt: &DataType) -> Option<&'static str> {
    use DataType::*;
    Some(match dt {
        Null => "null",
        Boolean => "bool",
        Int8 => "int8",
        Int16 => "int16",
        Int32 => "int32",
        Int64 => "int64",
        UInt8 => "uint8",
        UInt16 => "uint16",
        UInt32 => "uint32",
        UInt64 => "uint64",
        Float16 => "halffloat",
        Float32 => "float",
        Float64 => "double",
        Date32 => "date32[day]",
        Date64 => "date64[ms]",
        Interval(IntervalUnit::YearMonth) => "month_interval",
        Interval(IntervalUnit::DayTime) => "day_time_interval",
        Interval(IntervalUnit::MonthDayNano) => "month_day_nano_interval",
        Binary => "binary",
        Utf8 => "string",
        LargeBinary => "large_binary",
        LargeUtf8 => "large_string",
        BinaryView => "binary_view",
        Utf8View => "string_view",
        _ => return None,
    })
}

fn write_type(s: &mut String, dt: &DataType) {
    use DataType::*;
    if let Some(name) = simple_name(dt) {
        s.push_str(name);
        return;
    }
    let _ = match dt {
        Decimal32 { precision, scale } => write!(s, "decimal32({precision}, {scale})"),
        Decimal64 { precision, scale } => write!(s, "decimal64({precision}, {scale})"),
        Decimal128 { precision, scale } => write!(s, "decimal128({precision}, {scale})"),
        Decimal256 { precision, scale } => write!(s, "decimal256({precision}, {scale})"),
        Time32(u) => write!(s, "time32[{}]", unit_name(*u)),
        Time64(u) => write!(s, "time64[{}]", unit_name(*u)),
        Timestamp(u, None) => write!(s, "timestamp[{}]", unit_name(*u)),
        Timestamp(u, Some(tz)) => write!(s, "timestamp[{}, tz={tz}]", unit_name(*u)),
        Duration(u) => write!(s, "duration[{}]", unit_name(*u)),
        FixedSizeBinary(n) => write!(s, "fixed_size_binary[{n}]"),
        _ => {
            write_nested(s, dt);
            Ok(())
        }
    };
}

fn write_nested(s: &mut String, dt: &DataType) {
    use DataType::*;
    let (open, fields): (&str, Vec<_>) = match dt {
        List(f) => ("list<", vec![f.clone()]),
        LargeList(f) => ("large_list<", vec![f.clone()]),
        ListView(f) => ("list_view<", vec![f.clone()]),
        LargeListView(f) => ("large_list_view<", vec![f.clone()]),
        FixedSizeList(f, _) => ("fixed_size_list<", vec![f.clone()]),
        Struct(fs) => ("struct<", fs.iter().cloned().collect()),
        RunEndEncoded(r, v) => ("run_end_encoded<", vec![r.clone(), v.clone()]),
        Map(entries, sorted) => return write_map(s, entries, *sorted),
        Dictionary {
            key,
            value,
            ordered,
        } => {
            s.push_str("dictionary<values=");
            write_type(s, value);
            s.push_str(", indices=");
            write_type(s, &key.data_type());
            let _ = write!(s, ", ordered={}>", u8::from(*ordered));
            return;
        }
        Union(u, mode) => return write_union(s, u, *mode),
        other => {
            let _ = write!(s, "{other}");
            return;
        }
    };
    s.push_str(open);
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        write_field(s, f);
    }
    s.push('>');
    if let FixedSizeList(_, n) = dt {
        let _ = write!(s, "[{n}]");
    }
}

fn write_map(s: &mut String, entries: &Field, sorted: bool) {
    s.push_str("map<");
    if let DataType::Struct(kv) = entries.data_type() {
        if let [k, v] = &kv[..] {
            write_type(s, k.data_type());
            s.push_str(", ");
            if v.name() == "value" && v.is_nullable() {
                write_type(s, v.data_type());
            } else {
                write_field(s, v);
            }
        }
    }
    if sorted {
        s.push_str(", keys_sorted");
    }
    s.push('>');
}

fn write_union(s: &mut String, u: &quiver_arrow::UnionFields, mode: UnionMode) {
    s.push_str(match mode {
        UnionMode::Sparse => "sparse_union<",
        UnionMode::Dense => "dense_union<",
    });
    for (i, (id, f)) in u.type_ids().iter().zip(u.fields().iter()).enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        write_field(s, f);
        let _ = write!(s, "={id}");
    }
    s.push('>');
}

/// A recursive-descent parser over the type text.
struct Parser<'a> {
    s: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> Error {
        let rest: String = self.s[self.pos..].chars().take(30).collect();
        let at = if rest.is_empty() {
            "at the end".to_string()
        } else {
            format!("at {rest:?}")
        };
        Error::invalid(format!(
            "cannot parse type {:?}: {what} {at} (position {})",
            self.s, self.pos
        ))
    }
    fn ws(&mut self) {
        let rest = &self.s[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }
    fn eat(&mut self, token: &str) -> bool {
        self.ws();
        let hit = self.s[self.pos..].starts_with(token);
        if hit {
            self.pos += token.len();
        }
        hit
    }
    /// Consumes `token`, or fails naming it.
    fn expect_token(&mut self, token: &str) -> Result<()> {
        if self.eat(token) {
            Ok(())
        } else {
            Err(self.error(&format!("expected {token:?}")))
        }
    }
    fn ident(&mut self) -> &str {
        self.ws();
        let rest = &self.s[self.pos..];
        let n = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        self.pos += n;
        &rest[..n]
    }
    fn number(&mut self) -> Result<i64> {
        self.ws();
        let rest = &self.s[self.pos..];
        let n = rest
            .bytes()
            .enumerate()
            .take_while(|&(i, b)| b.is_ascii_digit() || (i == 0 && b == b'-'))
            .count();
        let v = rest[..n]
            .parse()
            .map_err(|_| self.error("expected a number"))?;
        self.pos += n;
        Ok(v)
    }
    fn unit(&mut self) -> Result<TimeUnit> {
        Ok(match self.ident() {
            "s" => TimeUnit::Second,
            "ms" => TimeUnit::Millisecond,
            "us" => TimeUnit::Microsecond,
            "ns" => TimeUnit::Nanosecond,
            _ => return Err(self.error("expected a time unit s, ms, us or ns")),
        })
    }
    /// A field name: a double-quoted string or the text up to `:`.
    fn name(&mut self) -> Result<String> {
        self.ws();
        let rest = &self.s[self.pos..];
        if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted
                .find('"')
                .ok_or_else(|| self.error("unterminated quoted name"))?;
            self.pos += end + 2;
            return Ok(quoted[..end].to_string());
        }
        let end = rest
            .find(':')
            .ok_or_else(|| self.error("expected 'name: type'"))?;
        let name = rest[..end].trim();
        if name.is_empty() || name.contains([',', '<', '>', '(', ')', '[', ']']) {
            return Err(self.error("expected a field name"));
        }
        self.pos += end;
        Ok(name.to_string())
    }
    /// `name: type [not null]`.
    fn field(&mut self, _top: bool) -> Result<Field> {
        let name = self.name()?;
        self.expect_token(":")?;
        let dt = self.data_type()?;
        let nullable = !self.not_null();
        Ok(Field::new(name, dt, nullable))
    }
    fn not_null(&mut self) -> bool {
        self.ws();
        let rest = &self.s[self.pos..];
        let words: Vec<&str> = rest.split_whitespace().take(2).collect();
        let hit = words.len() == 2
            && words[0].eq_ignore_ascii_case("not")
            && words[1]
                .get(..4)
                .is_some_and(|w| w.eq_ignore_ascii_case("null"))
            && !words[1][4..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        if hit {
            let after_not = rest[3..].trim_start();
            self.pos = self.s.len() - after_not.len() + 4;
        }
        hit
    }
    /// A child: `name: type [not null]` or a bare type (named `item`, nullable).
    fn child(&mut self, default_name: &str) -> Result<Field> {
        let save = self.pos;
        let is_named = {
            let name = self.ident();
            !name.is_empty() && self.eat(":")
        } || {
            self.pos = save;
            self.ws();
            self.s[self.pos..].starts_with('"')
        };
        self.pos = save;
        if is_named {
            return self.field(false);
        }
        let dt = self.data_type()?;
        let nullable = !self.not_null();
        Ok(Field::new(default_name, dt, nullable))
    }
}

impl Parser<'_> {
    fn data_type(&mut self) -> Result<DataType> {
        let start = self.pos;
        let name = self.ident().to_ascii_lowercase();
        if let Some(dt) = simple_type(&name) {
            return Ok(dt);
        }
        match name.as_str() {
            "date32" => self.optional_param("day").map(|_| DataType::Date32),
            "date64" => self.optional_param("ms").map(|_| DataType::Date64),
            "time32" | "time64" | "duration" => {
                self.expect_token("[")?;
                let u = self.unit()?;
                self.expect_token("]")?;
                Ok(match name.as_str() {
                    "time32" => DataType::Time32(u),
                    "time64" => DataType::Time64(u),
                    _ => DataType::Duration(u),
                })
            }
            "timestamp" => self.timestamp(),
            "fixed_size_binary" => {
                self.expect_token("[")?;
                let n = self.number()?;
                self.expect_token("]")?;
                let n = i32::try_from(n).map_err(|_| self.error("width out of range"))?;
                Ok(DataType::FixedSizeBinary(n))
            }
            "decimal" | "decimal32" | "decimal64" | "decimal128" | "decimal256" => {
                self.decimal(&name)
            }
            _ => self.nested(&name, start),
        }
    }
    fn optional_param(&mut self, value: &str) -> Result<()> {
        if self.eat("[") {
            if self.ident() != value {
                return Err(self.error(&format!("expected {value:?}")));
            }
            self.expect_token("]")?;
        }
        Ok(())
    }
    fn timestamp(&mut self) -> Result<DataType> {
        self.expect_token("[")?;
        let u = self.unit()?;
        let mut tz = None;
        if self.eat(",") {
            self.expect_token("tz")?;
            self.expect_token("=")?;
            let rest = &self.s[self.pos..];
            let end = rest.find(']').ok_or_else(|| self.error("expected ']'"))?;
            let zone = rest[..end].trim();
            if zone.is_empty() {
                return Err(self.error("expected a time zone"));
            }
            if let Err(e) = quiver_arrow::tz::TimeZone::parse(zone) {
                return Err(self.error(&e.to_string().replace("invalid argument: ", "")));
            }
            tz = Some(Arc::<str>::from(zone));
            self.pos += end;
        }
        self.expect_token("]")?;
        Ok(DataType::Timestamp(u, tz))
    }
    fn decimal(&mut self, name: &str) -> Result<DataType> {
        self.expect_token("(")?;
        let p = self.number()?;
        let s = if self.eat(",") { self.number()? } else { 0 };
        self.expect_token(")")?;
        let precision = u8::try_from(p).map_err(|_| self.error("precision out of range"))?;
        let scale = i8::try_from(s).map_err(|_| self.error("scale out of range"))?;
        Ok(match name {
            "decimal32" => DataType::Decimal32 { precision, scale },
            "decimal64" => DataType::Decimal64 { precision, scale },
            "decimal256" => DataType::Decimal256 { precision, scale },
            _ => DataType::Decimal128 { precision, scale },
        })
    }
    fn nested(&mut self, name: &str, start: usize) -> Result<DataType> {
        let list = |f: Field| Arc::new(f);
        match name {
            "list" | "large_list" | "list_view" | "large_list_view" => {
                self.expect_token("<")?;
                let item = list(self.child("item")?);
                self.expect_token(">")?;
                Ok(match name {
                    "list" => DataType::List(item),
                    "large_list" => DataType::LargeList(item),
                    "list_view" => DataType::ListView(item),
                    _ => DataType::LargeListView(item),
                })
            }
            "fixed_size_list" => self.fixed_size_list(),
            "struct" => self.struct_(),
            "map" => self.map(),
            "dictionary" => self.dictionary(),
            "run_end_encoded" => {
                self.expect_token("<")?;
                let r = self.child("run_ends")?;
                self.expect_token(",")?;
                let v = self.child("values")?;
                self.expect_token(">")?;
                Ok(DataType::RunEndEncoded(Arc::new(r), Arc::new(v)))
            }
            _ => {
                self.pos = start;
                self.ws();
                Err(self.error("unknown type"))
            }
        }
    }
    fn fixed_size_list(&mut self) -> Result<DataType> {
        self.expect_token("<")?;
        let item = Arc::new(self.child("item")?);
        let size = if self.eat(",") {
            let n = self.number()?;
            self.expect_token(">")?;
            n
        } else {
            self.expect_token(">")?;
            self.expect_token("[")?;
            let n = self.number()?;
            self.expect_token("]")?;
            n
        };
        let size = i32::try_from(size).map_err(|_| self.error("size out of range"))?;
        Ok(DataType::FixedSizeList(item, size))
    }
    fn struct_(&mut self) -> Result<DataType> {
        self.expect_token("<")?;
        let mut fields = Vec::new();
        if !self.eat(">") {
            loop {
                fields.push(self.field(false)?);
                if self.eat(">") {
                    break;
                }
                self.expect_token(",")?;
            }
        }
        Ok(DataType::Struct(Fields::from(fields)))
    }
    fn map(&mut self) -> Result<DataType> {
        self.expect_token("<")?;
        let key = self.data_type()?;
        self.expect_token(",")?;
        let value = self.child("value")?.with_name("value");
        let sorted = self.eat(",") && {
            if self.ident() != "keys_sorted" {
                return Err(self.error("expected keys_sorted"));
            }
            true
        };
        self.expect_token(">")?;
        let entries = DataType::Struct(Fields::from(vec![Field::new("key", key, false), value]));
        Ok(DataType::Map(
            Arc::new(Field::new("entries", entries, false)),
            sorted,
        ))
    }
    fn dictionary(&mut self) -> Result<DataType> {
        self.expect_token("<")?;
        let (mut value, mut key, mut ordered) = (None, None, false);
        loop {
            let what = self.ident().to_string();
            self.expect_token("=")?;
            match what.as_str() {
                "values" => value = Some(self.data_type()?),
                "indices" => {
                    let t = self.data_type()?;
                    key =
                        Some(IntegerType::try_from_data_type(&t).ok_or_else(|| {
                            self.error("dictionary indices must be an integer type")
                        })?);
                }
                "ordered" => ordered = self.number()? != 0,
                _ => return Err(self.error("expected values=, indices= or ordered=")),
            }
            if self.eat(">") {
                break;
            }
            self.expect_token(",")?;
        }
        let value = value.ok_or_else(|| self.error("dictionary without values="))?;
        let key = key.unwrap_or(IntegerType::Int32);
        Ok(DataType::Dictionary {
            key,
            value: Arc::new(value),
            ordered,
        })
    }
}

fn simple_type(name: &str) -> Option<DataType> {
    use DataType::*;
    Some(match name {
        "null" | "na" => Null,
        "bool" | "boolean" => Boolean,
        "int8" => Int8,
        "int16" => Int16,
        "int32" => Int32,
        "int64" => Int64,
        "uint8" => UInt8,
        "uint16" => UInt16,
        "uint32" => UInt32,
        "uint64" => UInt64,
        "float16" | "halffloat" => Float16,
        "float" | "float32" => Float32,
        "double" | "float64" => Float64,
        "string" | "utf8" | "str" => Utf8,
        "large_string" | "large_utf8" => LargeUtf8,
        "string_view" | "utf8_view" => Utf8View,
        "binary" => Binary,
        "large_binary" => LargeBinary,
        "binary_view" => BinaryView,
        "month_interval" => Interval(IntervalUnit::YearMonth),
        "day_time_interval" => Interval(IntervalUnit::DayTime),
        "month_day_nano_interval" => Interval(IntervalUnit::MonthDayNano),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_text() {
        for text in [
            "int8",
            "uint64",
            "halffloat",
            "double",
            "string",
            "large_string",
            "string_view",
            "binary_view",
            "fixed_size_binary[16]",
            "date32[day]",
            "date64[ms]",
            "time32[ms]",
            "time64[ns]",
            "timestamp[s]",
            "timestamp[us, tz=UTC]",
            "timestamp[ns, tz=Europe/Paris]",
            "duration[ms]",
            "decimal128(15, 2)",
            "decimal256(76, -3)",
            "list<item: int32>",
            "large_list<item: string not null>",
            "fixed_size_list<item: float>[3]",
            "struct<a: int64, b: list<item: string>, \"c d\": bool not null>",
            "map<string, int64>",
            "map<int32, list<item: string>, keys_sorted>",
            "dictionary<values=string, indices=int8, ordered=0>",
            "month_day_nano_interval",
            "run_end_encoded<run_ends: int32 not null, values: string>",
        ] {
            let dt = parse_data_type(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(format_data_type(&dt), text);
        }
    }

    #[test]
    fn aliases() {
        let p = |s| parse_data_type(s).unwrap();
        assert_eq!(
            p("decimal(5,2)"),
            DataType::Decimal128 {
                precision: 5,
                scale: 2
            }
        );
        assert_eq!(p("list<utf8>"), DataType::list_of(DataType::Utf8));
        assert_eq!(p("DATE32"), DataType::Date32);
        assert_eq!(
            p("dictionary<values=string, indices=int32>"),
            DataType::dictionary(IntegerType::Int32, DataType::Utf8)
        );
        assert_eq!(
            p("fixed_size_list<int32, 2>"),
            p("fixed_size_list<item: int32>[2]")
        );
    }

    #[test]
    fn errors_name_the_position() {
        let e = parse_data_type("list<int32").unwrap_err().to_string();
        assert!(
            e.contains("expected \">\"") && e.contains("position 10"),
            "{e}"
        );
        let e = parse_data_type("int33").unwrap_err().to_string();
        assert!(e.contains("unknown type at \"int33\""), "{e}");
        let e = parse_data_type("decimal128(50, 2)")
            .unwrap_err()
            .to_string();
        assert!(e.contains("precision 50"), "{e}");
        let e = parse_schema("a: int32 b: int64").unwrap_err().to_string();
        assert!(e.contains("expected ',' between fields"), "{e}");
        assert!(parse_schema("").is_err());
        assert!(parse_data_type("timestamp[xs]").is_err());
    }

    #[test]
    fn schemas() {
        let s = parse_schema(
            "id:int64 not null, name:utf8, price:decimal128(15,2), ts:timestamp[us, tz=UTC], d:date32, tags:list<utf8>",
        )
        .unwrap();
        assert_eq!(s.fields.len(), 6);
        assert!(!s.fields[0].is_nullable());
        assert!(s.fields[1].is_nullable());
        assert_eq!(parse_schema(&format_schema(&s)).unwrap(), s);
        let s = parse_schema("\"a,b\": struct<x: int8, y: map<string, double>>").unwrap();
        assert_eq!(s.fields[0].name(), "a,b");
    }
}
