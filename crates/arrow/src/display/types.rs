//! Types spelled as pyarrow prints them (`str(pa_type)`): the one spelling the command-line
//! tool shows.

use crate::datatype::{DataType, Field, IntervalUnit, UnionMode};
use std::fmt::{self, Write};

/// A canonical extension type whose values have a display of their own, recognised from a
/// field's `ARROW:extension:name` and its storage type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KnownExtension {
    /// `arrow.uuid` on `fixed_size_binary[16]`: shown as `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
    Uuid,
    /// `arrow.bool8` on `int8`: shown as `true` (non-zero) or `false`.
    Bool8,
    /// `arrow.json` on a string type: shown as the string.
    Json,
}

impl KnownExtension {
    /// The known extension type of `field`, when its name and storage type match one.
    ///
    /// ```
    /// use quiver_arrow::{DataType, Field};
    /// use quiver_arrow::display::KnownExtension;
    /// let mut f = Field::new("id", DataType::FixedSizeBinary(16), true);
    /// assert_eq!(KnownExtension::of(&f), None);
    /// f = f.with_metadata([("ARROW:extension:name".to_string(), "arrow.uuid".to_string())].into());
    /// assert_eq!(KnownExtension::of(&f), Some(KnownExtension::Uuid));
    /// ```
    pub fn of(field: &Field) -> Option<KnownExtension> {
        let ext = field.extension_type()?;
        match (ext.name, field.data_type()) {
            ("arrow.uuid", DataType::FixedSizeBinary(16)) => Some(KnownExtension::Uuid),
            ("arrow.bool8", DataType::Int8) => Some(KnownExtension::Bool8),
            ("arrow.json", DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View) => {
                Some(KnownExtension::Json)
            }
            _ => None,
        }
    }

    /// The extension's name (`arrow.uuid`, …).
    pub fn name(self) -> &'static str {
        match self {
            KnownExtension::Uuid => "arrow.uuid",
            KnownExtension::Bool8 => "arrow.bool8",
            KnownExtension::Json => "arrow.json",
        }
    }
}

/// A type as pyarrow spells it: `int32`, `large_string`, `timestamp[ms, tz=UTC]`,
/// `decimal128(10, 2)`, `list<item: int32>`, `struct<a: int32 not null>`, `map<string, int64>`,
/// `dictionary<values=string, indices=int32, ordered=0>`, … Child fields with a
/// [`KnownExtension`] are spelled `extension<arrow.uuid>` (see [`format_field_type`]).
///
/// ```
/// use quiver_arrow::{DataType, TimeUnit};
/// use quiver_arrow::display::format_type;
/// assert_eq!(format_type(&DataType::list_of(DataType::Int32)), "list<item: int32>");
/// let ts = DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into()));
/// assert_eq!(format_type(&ts), "timestamp[ms, tz=UTC]");
/// ```
pub fn format_type(dt: &DataType) -> String {
    let mut s = String::new();
    // Writing into a `String` cannot fail.
    let _ = write_type(&mut s, dt);
    s
}

/// The type of `field` as pyarrow spells it: `extension<NAME>` for a [`KnownExtension`] (as
/// pyarrow does for the extension types it registers), else [`format_type`] of its type (an
/// extension pyarrow does not know is read as its storage type).
pub fn format_field_type(field: &Field) -> String {
    let mut s = String::new();
    // Writing into a `String` cannot fail.
    let _ = write_field_type(&mut s, field);
    s
}

fn write_field_type(w: &mut dyn Write, field: &Field) -> fmt::Result {
    match KnownExtension::of(field) {
        Some(ext) => write!(w, "extension<{}>", ext.name()),
        None => write_type(w, field.data_type()),
    }
}

/// `name: type`, with ` not null` when the field is not nullable.
fn write_field(w: &mut dyn Write, field: &Field) -> fmt::Result {
    write!(w, "{}: ", field.name())?;
    write_field_type(w, field)?;
    if !field.is_nullable() {
        w.write_str(" not null")?;
    }
    Ok(())
}

fn flat_name(dt: &DataType) -> Option<&'static str> {
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
        Utf8 => "string",
        LargeUtf8 => "large_string",
        Utf8View => "string_view",
        Binary => "binary",
        LargeBinary => "large_binary",
        BinaryView => "binary_view",
        Date32 => "date32[day]",
        Date64 => "date64[ms]",
        Interval(IntervalUnit::YearMonth) => "month_interval",
        Interval(IntervalUnit::DayTime) => "day_time_interval",
        Interval(IntervalUnit::MonthDayNano) => "month_day_nano_interval",
        _ => return None,
    })
}

fn write_type(w: &mut dyn Write, dt: &DataType) -> fmt::Result {
    use DataType::*;
    if let Some(name) = flat_name(dt) {
        return w.write_str(name);
    }
    match dt {
        Decimal32 { precision, scale } => write!(w, "decimal32({precision}, {scale})"),
        Decimal64 { precision, scale } => write!(w, "decimal64({precision}, {scale})"),
        Decimal128 { precision, scale } => write!(w, "decimal128({precision}, {scale})"),
        Decimal256 { precision, scale } => write!(w, "decimal256({precision}, {scale})"),
        Time32(u) => write!(w, "time32[{u}]"),
        Time64(u) => write!(w, "time64[{u}]"),
        Timestamp(u, None) => write!(w, "timestamp[{u}]"),
        Timestamp(u, Some(tz)) => write!(w, "timestamp[{u}, tz={tz}]"),
        Duration(u) => write!(w, "duration[{u}]"),
        FixedSizeBinary(n) => write!(w, "fixed_size_binary[{n}]"),
        _ => write_nested(w, dt),
    }
}

fn write_nested(w: &mut dyn Write, dt: &DataType) -> fmt::Result {
    use DataType::*;
    let (open, children): (&str, Vec<&Field>) = match dt {
        List(f) => ("list", vec![f]),
        LargeList(f) => ("large_list", vec![f]),
        ListView(f) => ("list_view", vec![f]),
        LargeListView(f) => ("large_list_view", vec![f]),
        FixedSizeList(f, _) => ("fixed_size_list", vec![f]),
        Struct(fs) => ("struct", fs.iter().map(|f| &**f).collect()),
        RunEndEncoded(r, v) => {
            w.write_str("run_end_encoded<run_ends: ")?;
            write_field_type(w, r)?;
            w.write_str(", values: ")?;
            write_field_type(w, v)?;
            return w.write_char('>');
        }
        Map(entries, sorted) => return write_map(w, entries, *sorted),
        Dictionary {
            key,
            value,
            ordered,
        } => {
            w.write_str("dictionary<values=")?;
            write_type(w, value)?;
            w.write_str(", indices=")?;
            write_type(w, &key.data_type())?;
            return write!(w, ", ordered={}>", u8::from(*ordered));
        }
        Union(u, mode) => return write_union(w, u, *mode),
        other => return write!(w, "{other}"),
    };
    write!(w, "{open}<")?;
    for (i, f) in children.into_iter().enumerate() {
        if i > 0 {
            w.write_str(", ")?;
        }
        write_field(w, f)?;
    }
    w.write_char('>')?;
    if let FixedSizeList(_, n) = dt {
        write!(w, "[{n}]")?;
    }
    Ok(())
}

/// `map<K, V>`. The key and item field names are not shown: pyarrow's IPC reader renames them
/// `key` and `value`, so this is how pyarrow shows a map read from any file (the names stay
/// visible among the children in `quiver schema`).
fn write_map(w: &mut dyn Write, entries: &Field, sorted: bool) -> fmt::Result {
    w.write_str("map<")?;
    if let DataType::Struct(kv) = entries.data_type() {
        for (i, f) in kv.iter().enumerate() {
            if i > 0 {
                w.write_str(", ")?;
            }
            write_field_type(w, f)?;
        }
    }
    if sorted {
        w.write_str(", keys_sorted")?;
    }
    w.write_char('>')
}

/// `sparse_union<a: int32=0, b: string=1>`.
fn write_union(w: &mut dyn Write, u: &crate::UnionFields, mode: UnionMode) -> fmt::Result {
    w.write_str(match mode {
        UnionMode::Sparse => "sparse_union<",
        UnionMode::Dense => "dense_union<",
    })?;
    for (i, (id, f)) in u.type_ids().iter().zip(u.fields().iter()).enumerate() {
        if i > 0 {
            w.write_str(", ")?;
        }
        write_field(w, f)?;
        write!(w, "={id}")?;
    }
    w.write_char('>')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::{Fields, IntegerType, Metadata, TimeUnit, UnionFields};
    use std::sync::Arc;

    fn field(name: &str, dt: DataType, nullable: bool) -> Arc<Field> {
        Arc::new(Field::new(name, dt, nullable))
    }

    fn extension(name: &str, dt: DataType) -> Field {
        let m: Metadata = [("ARROW:extension:name".to_string(), name.to_string())].into();
        Field::new("x", dt, true).with_metadata(m)
    }

    fn map(key: &str, value: &str, sorted: bool) -> DataType {
        let kv = Fields::from(vec![
            field(key, DataType::Utf8, false),
            field(value, DataType::Int32, true),
        ]);
        DataType::Map(field("entries", DataType::Struct(kv), false), sorted)
    }

    /// Each type with `str()` of the same type in pyarrow 26.
    #[test]
    fn types_are_spelled_as_pyarrow_spells_them() {
        use DataType::*;
        let dict = |key, value: DataType, ordered| Dictionary {
            key,
            value: Arc::new(value),
            ordered,
        };
        let union = |mode| {
            let fs = vec![field("a", Int32, true), field("b", Utf8, true)];
            Union(UnionFields::try_new(vec![3, 5], fs).unwrap(), mode)
        };
        let cases: Vec<(DataType, &str)> = vec![
            (Null, "null"),
            (Boolean, "bool"),
            (UInt16, "uint16"),
            (Float16, "halffloat"),
            (Float32, "float"),
            (Float64, "double"),
            (LargeUtf8, "large_string"),
            (Utf8View, "string_view"),
            (BinaryView, "binary_view"),
            (Date32, "date32[day]"),
            (Date64, "date64[ms]"),
            (Time32(TimeUnit::Millisecond), "time32[ms]"),
            (Time64(TimeUnit::Nanosecond), "time64[ns]"),
            (
                Timestamp(TimeUnit::Millisecond, Some("UTC".into())),
                "timestamp[ms, tz=UTC]",
            ),
            (
                Timestamp(TimeUnit::Microsecond, Some("+02:00".into())),
                "timestamp[us, tz=+02:00]",
            ),
            (Timestamp(TimeUnit::Second, None), "timestamp[s]"),
            (Duration(TimeUnit::Second), "duration[s]"),
            (
                Interval(IntervalUnit::MonthDayNano),
                "month_day_nano_interval",
            ),
            (FixedSizeBinary(16), "fixed_size_binary[16]"),
            (
                Decimal128 {
                    precision: 10,
                    scale: 2,
                },
                "decimal128(10, 2)",
            ),
            (
                Decimal256 {
                    precision: 40,
                    scale: -3,
                },
                "decimal256(40, -3)",
            ),
            (
                Decimal32 {
                    precision: 5,
                    scale: 2,
                },
                "decimal32(5, 2)",
            ),
            (
                dict(IntegerType::Int32, Utf8, false),
                "dictionary<values=string, indices=int32, ordered=0>",
            ),
            (
                dict(IntegerType::Int8, Utf8, true),
                "dictionary<values=string, indices=int8, ordered=1>",
            ),
            (DataType::list_of(Int32), "list<item: int32>"),
            (List(field("x", Int32, false)), "list<x: int32 not null>"),
            (
                ListView(field("item", Int32, true)),
                "list_view<item: int32>",
            ),
            (
                LargeListView(field("item", Int32, true)),
                "large_list_view<item: int32>",
            ),
            (
                FixedSizeList(field("v", Float32, false), 2),
                "fixed_size_list<v: float not null>[2]",
            ),
            (
                Struct(Fields::from(vec![
                    field("a", Int32, true),
                    field("b c", Utf8, true),
                ])),
                "struct<a: int32, b c: string>",
            ),
            (Struct(Fields::from(Vec::<Arc<Field>>::new())), "struct<>"),
            (map("key", "value", false), "map<string, int32>"),
            (map("key", "value", true), "map<string, int32, keys_sorted>"),
            // As pyarrow shows the type after reading it from a file (its reader renames the
            // fields `key` and `value`; see generated_map_non_canonical in the CLI tests).
            (map("k", "v", false), "map<string, int32>"),
            (
                RunEndEncoded(field("run_ends", Int32, false), field("values", Utf8, true)),
                "run_end_encoded<run_ends: int32, values: string>",
            ),
            (
                union(UnionMode::Sparse),
                "sparse_union<a: int32=3, b: string=5>",
            ),
            (
                union(UnionMode::Dense),
                "dense_union<a: int32=3, b: string=5>",
            ),
        ];
        for (dt, pyarrow) in cases {
            assert_eq!(format_type(&dt), pyarrow, "{dt:?}");
        }
    }

    #[test]
    fn known_extensions_are_spelled_by_name() {
        let uuid = extension("arrow.uuid", DataType::FixedSizeBinary(16));
        assert_eq!(format_field_type(&uuid), "extension<arrow.uuid>");
        let bool8 = extension("arrow.bool8", DataType::Int8);
        assert_eq!(format_field_type(&bool8), "extension<arrow.bool8>");
        let list = DataType::List(Arc::new(uuid.clone()));
        assert_eq!(format_type(&list), "list<x: extension<arrow.uuid>>");
        // Unknown names, or a storage type that does not fit, show the storage type.
        let other = extension("my.ext", DataType::Int8);
        assert_eq!(format_field_type(&other), "int8");
        let bad = extension("arrow.uuid", DataType::FixedSizeBinary(4));
        assert_eq!(format_field_type(&bad), "fixed_size_binary[4]");
    }
}
