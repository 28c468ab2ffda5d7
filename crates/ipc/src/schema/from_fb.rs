//! Flatbuffer `Schema` → [`IpcSchema`].

use super::{DictionaryFields, Endianness, IpcSchema};
use crate::fb::org::apache::arrow::flatbuf as fb;
use quiver_arrow::{
    DataType, Error, Field, FieldRef, IntegerType, IntervalUnit, Metadata, Result, Schema,
    TimeUnit, UnionFields, UnionMode,
};
use std::sync::Arc;

/// Deepest type nesting accepted from input (guards recursion on malicious metadata).
pub const MAX_NESTING: usize = 64;

/// Checks a message's metadata version: V4 and V5 are read; older, newer and negative
/// (invalid) enum values are rejected.
pub(crate) fn check_version(v: fb::MetadataVersion) -> Result<()> {
    match v {
        fb::MetadataVersion::V4 | fb::MetadataVersion::V5 => Ok(()),
        fb::MetadataVersion::V1 | fb::MetadataVersion::V2 | fb::MetadataVersion::V3 => {
            Err(Error::not_supported(format!(
                "metadata version {:?} (before Arrow 0.8); only V4 and V5 are read",
                v
            )))
        }
        other if other.0 < 0 => Err(Error::oos(format!(
            "invalid metadata version: enum value {} (V1 to V5 are 0 to 4)",
            other.0
        ))),
        // Widened: `i16::MAX + 1` overflows.
        other => Err(Error::oos(format!(
            "metadata version {} is newer than V5, the newest this reader knows",
            i32::from(other.0) + 1
        ))),
    }
}

/// Key/value pairs → [`Metadata`] (a missing key or value reads as empty).
pub(crate) fn metadata_from_fb<'a>(
    kv: Option<flatbuffers::Vector<'a, flatbuffers::ForwardsUOffset<fb::KeyValue<'a>>>>,
) -> Metadata {
    kv.map(|kv| {
        kv.iter()
            .map(|e| {
                (
                    e.key().unwrap_or_default().to_string(),
                    e.value().unwrap_or_default().to_string(),
                )
            })
            .collect()
    })
    .unwrap_or_default()
}

/// Converts a flatbuffer schema, rejecting unknown features and malformed types.
pub(crate) fn schema_from_fb(s: fb::Schema<'_>) -> Result<IpcSchema> {
    if let Some(features) = s.features() {
        for f in features.iter() {
            let known = [
                fb::Feature::UNUSED.0,
                fb::Feature::DICTIONARY_REPLACEMENT.0,
                fb::Feature::COMPRESSED_BODY.0,
            ];
            if !known.contains(&f.0) {
                return Err(Error::not_supported(format!(
                    "schema requires unknown feature {}",
                    f.0
                )));
            }
        }
    }
    let endianness = match s.endianness() {
        fb::Endianness::Little => Endianness::Little,
        fb::Endianness::Big => Endianness::Big,
        other => return Err(Error::oos(format!("unknown endianness {}", other.0))),
    };
    let mut dictionaries = DictionaryFields::default();
    let mut fields = Vec::new();
    let (mut path, mut names) = (Vec::new(), Vec::new());
    for (i, f) in s.fields().into_iter().flatten().enumerate() {
        path.push(i);
        let mut ctx = Ctx {
            dictionaries: &mut dictionaries,
            path: &mut path,
            names: &mut names,
            depth: 0,
        };
        fields.push(field_from_fb(f, &mut ctx)?);
        path.pop();
    }
    let schema = Schema::new(fields).with_metadata(metadata_from_fb(s.custom_metadata()));
    Ok(IpcSchema {
        schema: Arc::new(schema),
        dictionaries,
        endianness,
    })
}

struct Ctx<'c> {
    dictionaries: &'c mut DictionaryFields,
    /// Child indices from the schema down to this field (the dictionary fields' key).
    path: &'c mut Vec<usize>,
    /// The names along `path`, for errors: each names its field's whole path once.
    names: &'c mut Vec<String>,
    depth: usize,
}

impl Ctx<'_> {
    /// `e` located at this field: `field "a.b.c"` (the names from the schema down, joined by
    /// dots as [`super::path_name`] joins them).
    fn at(&self, e: Error) -> Error {
        e.context(format!("field \"{}\"", self.names.join(".")))
    }
}

fn field_from_fb(f: fb::Field<'_>, ctx: &mut Ctx<'_>) -> Result<FieldRef> {
    let name = f.name().unwrap_or_default();
    ctx.names.push(name.to_string());
    let field = field_here(f, name, ctx);
    ctx.names.pop();
    field
}

/// [`field_from_fb`] with `name` pushed: errors that arise at this field are located with
/// [`Ctx::at`]; a child's come back located already.
fn field_here(f: fb::Field<'_>, name: &str, ctx: &mut Ctx<'_>) -> Result<FieldRef> {
    if ctx.depth > MAX_NESTING {
        return Err(ctx.at(Error::oos(format!(
            "types nested deeper than {MAX_NESTING} levels"
        ))));
    }
    let mut children = Vec::new();
    for (j, c) in f.children().into_iter().flatten().enumerate() {
        ctx.path.push(j);
        ctx.depth += 1;
        let child = field_from_fb(c, ctx);
        ctx.depth -= 1;
        ctx.path.pop();
        children.push(child?);
    }
    let mut data_type = type_from_fb(&f, children).map_err(|e| ctx.at(e))?;
    if let Some(d) = f.dictionary() {
        let key = match d.indexType() {
            None => IntegerType::Int32,
            Some(int) => int_type(int.bitWidth(), int.is_signed()).map_err(|e| ctx.at(e))?,
        };
        if d.dictionaryKind() != fb::DictionaryKind::DenseArray {
            return Err(ctx.at(Error::not_supported(format!(
                "dictionary kind {}",
                d.dictionaryKind().0
            ))));
        }
        ctx.dictionaries.insert(ctx.path.clone(), d.id());
        data_type = DataType::Dictionary {
            key,
            value: Arc::new(data_type),
            ordered: d.isOrdered(),
        };
    }
    let field = Field::new(name, data_type, f.nullable())
        .with_metadata(metadata_from_fb(f.custom_metadata()));
    field.data_type().validate().map_err(|e| ctx.at(e))?;
    Ok(Arc::new(field))
}

fn int_type(bits: i32, signed: bool) -> Result<IntegerType> {
    IntegerType::from_bit_width(bits.into(), signed)
        .ok_or_else(|| Error::oos(format!("integer bit width {bits} is not 8, 16, 32 or 64")))
}

fn time_unit(u: fb::TimeUnit) -> Result<TimeUnit> {
    Ok(match u {
        fb::TimeUnit::SECOND => TimeUnit::Second,
        fb::TimeUnit::MILLISECOND => TimeUnit::Millisecond,
        fb::TimeUnit::MICROSECOND => TimeUnit::Microsecond,
        fb::TimeUnit::NANOSECOND => TimeUnit::Nanosecond,
        other => return Err(Error::oos(format!("unknown time unit {}", other.0))),
    })
}

fn missing(what: &str) -> Error {
    Error::oos(format!("{what} type table is missing"))
}

fn one_child(children: Vec<FieldRef>, what: &str) -> Result<FieldRef> {
    let n = children.len();
    let mut it = children.into_iter();
    match (it.next(), n) {
        (Some(c), 1) => Ok(c),
        _ => Err(Error::oos(format!(
            "{what} needs exactly 1 child field, found {n}"
        ))),
    }
}

fn no_children(children: &[FieldRef], dt: DataType) -> Result<DataType> {
    if !children.is_empty() {
        return Err(Error::oos(format!(
            "{dt} has {} child fields, expected none",
            children.len()
        )));
    }
    Ok(dt)
}

fn type_from_fb(f: &fb::Field<'_>, children: Vec<FieldRef>) -> Result<DataType> {
    let t = f.type_type();
    let dt = match t {
        fb::Type::Null => DataType::Null,
        fb::Type::Bool => DataType::Boolean,
        fb::Type::Int => {
            let i = f.type__as_int().ok_or_else(|| missing("Int"))?;
            int_type(i.bitWidth(), i.is_signed())?.data_type()
        }
        fb::Type::FloatingPoint => match f
            .type__as_floating_point()
            .ok_or_else(|| missing("FloatingPoint"))?
            .precision()
        {
            fb::Precision::HALF => DataType::Float16,
            fb::Precision::SINGLE => DataType::Float32,
            fb::Precision::DOUBLE => DataType::Float64,
            p => {
                return Err(Error::oos(format!(
                    "unknown floating point precision {}",
                    p.0
                )));
            }
        },
        fb::Type::Binary => DataType::Binary,
        fb::Type::Utf8 => DataType::Utf8,
        fb::Type::LargeBinary => DataType::LargeBinary,
        fb::Type::LargeUtf8 => DataType::LargeUtf8,
        fb::Type::BinaryView => DataType::BinaryView,
        fb::Type::Utf8View => DataType::Utf8View,
        fb::Type::FixedSizeBinary => DataType::FixedSizeBinary(
            f.type__as_fixed_size_binary()
                .ok_or_else(|| missing("FixedSizeBinary"))?
                .byteWidth(),
        ),
        fb::Type::Decimal => decimal(f.type__as_decimal().ok_or_else(|| missing("Decimal"))?)?,
        fb::Type::Date => match f.type__as_date().ok_or_else(|| missing("Date"))?.unit() {
            fb::DateUnit::DAY => DataType::Date32,
            fb::DateUnit::MILLISECOND => DataType::Date64,
            u => return Err(Error::oos(format!("unknown date unit {}", u.0))),
        },
        fb::Type::Time => {
            let tm = f.type__as_time().ok_or_else(|| missing("Time"))?;
            let unit = time_unit(tm.unit())?;
            match (tm.bitWidth(), unit) {
                (32, TimeUnit::Second | TimeUnit::Millisecond) => DataType::Time32(unit),
                (64, TimeUnit::Microsecond | TimeUnit::Nanosecond) => DataType::Time64(unit),
                (w, u) => {
                    return Err(Error::oos(format!(
                        "time of bit width {w} cannot have unit {u:?}"
                    )));
                }
            }
        }
        fb::Type::Timestamp => {
            let ts = f.type__as_timestamp().ok_or_else(|| missing("Timestamp"))?;
            DataType::Timestamp(time_unit(ts.unit())?, ts.timezone().map(Arc::from))
        }
        fb::Type::Duration => DataType::Duration(time_unit(
            f.type__as_duration()
                .ok_or_else(|| missing("Duration"))?
                .unit(),
        )?),
        fb::Type::Interval => match f
            .type__as_interval()
            .ok_or_else(|| missing("Interval"))?
            .unit()
        {
            fb::IntervalUnit::YEAR_MONTH => DataType::Interval(IntervalUnit::YearMonth),
            fb::IntervalUnit::DAY_TIME => DataType::Interval(IntervalUnit::DayTime),
            fb::IntervalUnit::MONTH_DAY_NANO => DataType::Interval(IntervalUnit::MonthDayNano),
            u => return Err(Error::oos(format!("unknown interval unit {}", u.0))),
        },
        _ => return nested_from_fb(f, children),
    };
    no_children(&children, dt)
}

fn decimal(d: fb::Decimal<'_>) -> Result<DataType> {
    let precision = u8::try_from(d.precision())
        .map_err(|_| Error::oos(format!("decimal precision {} out of range", d.precision())))?;
    let scale = i8::try_from(d.scale())
        .map_err(|_| Error::oos(format!("decimal scale {} out of range", d.scale())))?;
    Ok(match d.bitWidth() {
        32 => DataType::Decimal32 { precision, scale },
        64 => DataType::Decimal64 { precision, scale },
        128 => DataType::Decimal128 { precision, scale },
        256 => DataType::Decimal256 { precision, scale },
        w => {
            return Err(Error::oos(format!(
                "decimal bit width {w} is not 32, 64, 128 or 256"
            )));
        }
    })
}

fn nested_from_fb(f: &fb::Field<'_>, children: Vec<FieldRef>) -> Result<DataType> {
    Ok(match f.type_type() {
        fb::Type::List => DataType::List(one_child(children, "List")?),
        fb::Type::LargeList => DataType::LargeList(one_child(children, "LargeList")?),
        fb::Type::ListView => DataType::ListView(one_child(children, "ListView")?),
        fb::Type::LargeListView => DataType::LargeListView(one_child(children, "LargeListView")?),
        fb::Type::FixedSizeList => {
            let size = f
                .type__as_fixed_size_list()
                .ok_or_else(|| missing("FixedSizeList"))?
                .listSize();
            DataType::FixedSizeList(one_child(children, "FixedSizeList")?, size)
        }
        fb::Type::Struct_ => DataType::Struct(children.into()),
        fb::Type::Map => {
            let sorted = f.type__as_map().ok_or_else(|| missing("Map"))?.keysSorted();
            DataType::Map(one_child(children, "Map")?, sorted)
        }
        fb::Type::RunEndEncoded => {
            if children.len() != 2 {
                return Err(Error::oos(format!(
                    "RunEndEncoded needs 2 child fields, found {}",
                    children.len()
                )));
            }
            DataType::RunEndEncoded(children[0].clone(), children[1].clone())
        }
        fb::Type::Union => {
            let u = f.type__as_union().ok_or_else(|| missing("Union"))?;
            let mode = match u.mode() {
                fb::UnionMode::Sparse => UnionMode::Sparse,
                fb::UnionMode::Dense => UnionMode::Dense,
                m => return Err(Error::oos(format!("unknown union mode {}", m.0))),
            };
            let ids: Vec<i8> = match u.typeIds() {
                Some(ids) => ids
                    .iter()
                    .map(|id| {
                        i8::try_from(id).map_err(|_| {
                            Error::oos(format!("union type id {id} is outside 0..=127"))
                        })
                    })
                    .collect::<Result<_>>()?,
                None => (0..children.len()).map(|i| i as i8).collect(),
            };
            let fields =
                UnionFields::try_new(ids, children).map_err(|e| Error::oos(e.to_string()))?;
            DataType::Union(fields, mode)
        }
        fb::Type::NONE => return Err(Error::oos("field has no type")),
        other => return Err(Error::oos(format!("unknown type {}", other.0))),
    })
}
