//! [`IpcSchema`] → flatbuffer `Schema`.

use super::{DictionaryFields, Endianness, IpcSchema, MAX_NESTING, ipc_children};
use crate::fb::org::apache::arrow::flatbuf as fb;
use flatbuffers::{FlatBufferBuilder, UnionWIPOffset, WIPOffset};
use quiver_arrow::{
    DataType, Error, Field, FieldRef, IntegerType, IntervalUnit, Metadata, Result, TimeUnit,
    UnionMode,
};

type Fbb<'b> = FlatBufferBuilder<'b>;

/// Writes key/value metadata; `None` when empty (the field is then omitted).
pub(crate) fn metadata_to_fb<'b>(
    fbb: &mut Fbb<'b>,
    metadata: &Metadata,
) -> Option<WIPOffset<flatbuffers::Vector<'b, flatbuffers::ForwardsUOffset<fb::KeyValue<'b>>>>> {
    if metadata.is_empty() {
        return None;
    }
    let kvs: Vec<_> = metadata
        .iter()
        .map(|(k, v)| {
            let key = fbb.create_string(k);
            let value = fbb.create_string(v);
            fb::KeyValue::create(
                fbb,
                &fb::KeyValueArgs {
                    key: Some(key),
                    value: Some(value),
                },
            )
        })
        .collect();
    Some(fbb.create_vector(&kvs))
}

/// Builds a flatbuffer `Schema` table for `schema` inside `fbb`.
pub(crate) fn schema_to_fb<'b>(
    fbb: &mut Fbb<'b>,
    schema: &IpcSchema,
) -> Result<WIPOffset<fb::Schema<'b>>> {
    check_nesting(&schema.schema)?;
    let mut path = Vec::new();
    let mut fields = Vec::with_capacity(schema.schema.fields.len());
    for (i, f) in schema.schema.fields.iter().enumerate() {
        path.push(i);
        fields.push(field_to_fb(fbb, f, &schema.dictionaries, &mut path)?);
        path.pop();
    }
    let fields = fbb.create_vector(&fields);
    let custom_metadata = metadata_to_fb(fbb, &schema.schema.metadata);
    let endianness = match schema.endianness {
        Endianness::Little => fb::Endianness::Little,
        Endianness::Big => fb::Endianness::Big,
    };
    Ok(fb::Schema::create(
        fbb,
        &fb::SchemaArgs {
            endianness,
            fields: Some(fields),
            custom_metadata,
            features: None,
        },
    ))
}

/// Refuses a schema with a field more than [`MAX_NESTING`] fields deep, the top-level field
/// counting as one (63 nested lists of a primitive are the most): pyarrow refuses deeper
/// types ("Max recursion depth reached"), and quiver's reader refuses one level more. The error
/// names the first such field.
///
/// ```
/// use quiver_arrow::{DataType, Field, Schema};
/// use quiver_ipc::schema::check_nesting;
/// let mut t = DataType::Int8;
/// for _ in 0..63 {
///     t = DataType::list_of(t);
/// }
/// assert!(check_nesting(&Schema::new(vec![Field::new("l", t.clone(), true)])).is_ok());
/// let deeper = Schema::new(vec![Field::new("l", DataType::list_of(t), true)]);
/// let e = check_nesting(&deeper).unwrap_err().to_string();
/// assert!(e.contains("field \"l.item.item"), "{e}");
/// ```
pub fn check_nesting(schema: &quiver_arrow::Schema) -> Result<()> {
    let mut path = Vec::new();
    if too_deep(&schema.fields, &mut path) {
        return Err(Error::invalid(format!(
            "field \"{}\": types nested more than {MAX_NESTING} fields deep (the top-level \
             field counting as one), which pyarrow refuses",
            super::path_name(schema, &path)
        )));
    }
    Ok(())
}

/// Whether a field under `fields` (`path.len()` fields deep) lies more than [`MAX_NESTING`]
/// fields deep; `path` is then the first such field's.
fn too_deep(fields: &[FieldRef], path: &mut Vec<usize>) -> bool {
    for (i, f) in fields.iter().enumerate() {
        path.push(i);
        if path.len() > MAX_NESTING || too_deep(&ipc_children(f.data_type()), path) {
            return true;
        }
        path.pop();
    }
    false
}

fn field_to_fb<'b>(
    fbb: &mut Fbb<'b>,
    field: &Field,
    dictionaries: &DictionaryFields,
    path: &mut Vec<usize>,
) -> Result<WIPOffset<fb::Field<'b>>> {
    let mut children = Vec::new();
    for (j, c) in ipc_children(field.data_type()).iter().enumerate() {
        path.push(j);
        children.push(field_to_fb(fbb, c, dictionaries, path)?);
        path.pop();
    }
    let children = fbb.create_vector(&children);
    let (value_type, dictionary) = match field.data_type() {
        DataType::Dictionary {
            key,
            value,
            ordered,
        } => {
            let id = dictionaries.id_at(path).ok_or_else(|| {
                Error::invalid(format!(
                    "no dictionary id for field \"{}\" at {path:?}",
                    field.name()
                ))
            })?;
            let index = int_to_fb(fbb, *key);
            let enc = fb::DictionaryEncoding::create(
                fbb,
                &fb::DictionaryEncodingArgs {
                    id,
                    indexType: Some(index),
                    isOrdered: *ordered,
                    dictionaryKind: fb::DictionaryKind::DenseArray,
                },
            );
            (value.as_ref(), Some(enc))
        }
        other => (other, None),
    };
    let (type_type, type_) = type_to_fb(fbb, value_type)?;
    let name = fbb.create_string(field.name());
    let custom_metadata = metadata_to_fb(fbb, field.metadata());
    Ok(fb::Field::create(
        fbb,
        &fb::FieldArgs {
            name: Some(name),
            nullable: field.is_nullable(),
            type_type,
            type_: Some(type_),
            dictionary,
            children: Some(children),
            custom_metadata,
        },
    ))
}

fn int_to_fb<'b>(fbb: &mut Fbb<'b>, t: IntegerType) -> WIPOffset<fb::Int<'b>> {
    fb::Int::create(
        fbb,
        &fb::IntArgs {
            bitWidth: t.bit_width() as i32,
            is_signed: t.is_signed(),
        },
    )
}

fn unit_to_fb(u: TimeUnit) -> fb::TimeUnit {
    match u {
        TimeUnit::Second => fb::TimeUnit::SECOND,
        TimeUnit::Millisecond => fb::TimeUnit::MILLISECOND,
        TimeUnit::Microsecond => fb::TimeUnit::MICROSECOND,
        TimeUnit::Nanosecond => fb::TimeUnit::NANOSECOND,
    }
}

macro_rules! empty_table {
    ($fbb:expr, $t:ident, $args:ident) => {
        fb::$t::create($fbb, &fb::$args {}).as_union_value()
    };
}

fn decimal_to_fb<'b>(
    fbb: &mut Fbb<'b>,
    precision: u8,
    scale: i8,
    bits: i32,
) -> WIPOffset<UnionWIPOffset> {
    let args = fb::DecimalArgs {
        precision: precision as i32,
        scale: scale as i32,
        bitWidth: bits,
    };
    fb::Decimal::create(fbb, &args).as_union_value()
}

fn type_to_fb<'b>(
    fbb: &mut Fbb<'b>,
    dt: &DataType,
) -> Result<(fb::Type, WIPOffset<UnionWIPOffset>)> {
    use DataType as D;
    Ok(match dt {
        D::Null => (fb::Type::Null, empty_table!(fbb, Null, NullArgs)),
        D::Boolean => (fb::Type::Bool, empty_table!(fbb, Bool, BoolArgs)),
        D::Int8 | D::Int16 | D::Int32 | D::Int64 | D::UInt8 | D::UInt16 | D::UInt32 | D::UInt64 => {
            let t = IntegerType::try_from_data_type(dt).expect("matched integer types"); // ok: matched integer types.
            (fb::Type::Int, int_to_fb(fbb, t).as_union_value())
        }
        D::Float16 | D::Float32 | D::Float64 => {
            let precision = match dt {
                D::Float16 => fb::Precision::HALF,
                D::Float32 => fb::Precision::SINGLE,
                _ => fb::Precision::DOUBLE,
            };
            (
                fb::Type::FloatingPoint,
                fb::FloatingPoint::create(fbb, &fb::FloatingPointArgs { precision })
                    .as_union_value(),
            )
        }
        D::Decimal32 { precision, scale } => (
            fb::Type::Decimal,
            decimal_to_fb(fbb, *precision, *scale, 32),
        ),
        D::Decimal64 { precision, scale } => (
            fb::Type::Decimal,
            decimal_to_fb(fbb, *precision, *scale, 64),
        ),
        D::Decimal128 { precision, scale } => (
            fb::Type::Decimal,
            decimal_to_fb(fbb, *precision, *scale, 128),
        ),
        D::Decimal256 { precision, scale } => (
            fb::Type::Decimal,
            decimal_to_fb(fbb, *precision, *scale, 256),
        ),
        D::Date32 | D::Date64 => {
            let unit = if *dt == D::Date32 {
                fb::DateUnit::DAY
            } else {
                fb::DateUnit::MILLISECOND
            };
            (
                fb::Type::Date,
                fb::Date::create(fbb, &fb::DateArgs { unit }).as_union_value(),
            )
        }
        D::Time32(u) | D::Time64(u) => {
            let bit_width = if matches!(dt, D::Time32(_)) { 32 } else { 64 };
            let args = fb::TimeArgs {
                unit: unit_to_fb(*u),
                bitWidth: bit_width,
            };
            (
                fb::Type::Time,
                fb::Time::create(fbb, &args).as_union_value(),
            )
        }
        D::Timestamp(u, tz) => {
            let timezone = tz.as_ref().map(|tz| fbb.create_string(tz));
            let args = fb::TimestampArgs {
                unit: unit_to_fb(*u),
                timezone,
            };
            (
                fb::Type::Timestamp,
                fb::Timestamp::create(fbb, &args).as_union_value(),
            )
        }
        D::Duration(u) => (
            fb::Type::Duration,
            fb::Duration::create(
                fbb,
                &fb::DurationArgs {
                    unit: unit_to_fb(*u),
                },
            )
            .as_union_value(),
        ),
        D::Interval(u) => {
            let unit = match u {
                IntervalUnit::YearMonth => fb::IntervalUnit::YEAR_MONTH,
                IntervalUnit::DayTime => fb::IntervalUnit::DAY_TIME,
                IntervalUnit::MonthDayNano => fb::IntervalUnit::MONTH_DAY_NANO,
            };
            (
                fb::Type::Interval,
                fb::Interval::create(fbb, &fb::IntervalArgs { unit }).as_union_value(),
            )
        }
        D::Binary => (fb::Type::Binary, empty_table!(fbb, Binary, BinaryArgs)),
        D::Utf8 => (fb::Type::Utf8, empty_table!(fbb, Utf8, Utf8Args)),
        D::LargeBinary => (
            fb::Type::LargeBinary,
            empty_table!(fbb, LargeBinary, LargeBinaryArgs),
        ),
        D::LargeUtf8 => (
            fb::Type::LargeUtf8,
            empty_table!(fbb, LargeUtf8, LargeUtf8Args),
        ),
        D::BinaryView => (
            fb::Type::BinaryView,
            empty_table!(fbb, BinaryView, BinaryViewArgs),
        ),
        D::Utf8View => (
            fb::Type::Utf8View,
            empty_table!(fbb, Utf8View, Utf8ViewArgs),
        ),
        D::FixedSizeBinary(w) => (
            fb::Type::FixedSizeBinary,
            fb::FixedSizeBinary::create(fbb, &fb::FixedSizeBinaryArgs { byteWidth: *w })
                .as_union_value(),
        ),
        _ => nested_to_fb(fbb, dt)?,
    })
}

fn nested_to_fb<'b>(
    fbb: &mut Fbb<'b>,
    dt: &DataType,
) -> Result<(fb::Type, WIPOffset<UnionWIPOffset>)> {
    use DataType as D;
    Ok(match dt {
        D::List(_) => (fb::Type::List, empty_table!(fbb, List, ListArgs)),
        D::LargeList(_) => (
            fb::Type::LargeList,
            empty_table!(fbb, LargeList, LargeListArgs),
        ),
        D::ListView(_) => (
            fb::Type::ListView,
            empty_table!(fbb, ListView, ListViewArgs),
        ),
        D::LargeListView(_) => (
            fb::Type::LargeListView,
            empty_table!(fbb, LargeListView, LargeListViewArgs),
        ),
        D::FixedSizeList(_, n) => (
            fb::Type::FixedSizeList,
            fb::FixedSizeList::create(fbb, &fb::FixedSizeListArgs { listSize: *n })
                .as_union_value(),
        ),
        D::Struct(_) => (fb::Type::Struct_, empty_table!(fbb, Struct_, Struct_Args)),
        D::Map(_, sorted) => (
            fb::Type::Map,
            fb::Map::create(
                fbb,
                &fb::MapArgs {
                    keysSorted: *sorted,
                },
            )
            .as_union_value(),
        ),
        D::RunEndEncoded(..) => (
            fb::Type::RunEndEncoded,
            empty_table!(fbb, RunEndEncoded, RunEndEncodedArgs),
        ),
        D::Union(fields, mode) => {
            let ids: Vec<i32> = fields.type_ids().iter().map(|&i| i as i32).collect();
            let type_ids = Some(fbb.create_vector(&ids));
            let mode = if *mode == UnionMode::Sparse {
                fb::UnionMode::Sparse
            } else {
                fb::UnionMode::Dense
            };
            let args = fb::UnionArgs {
                mode,
                typeIds: type_ids,
            };
            (
                fb::Type::Union,
                fb::Union::create(fbb, &args).as_union_value(),
            )
        }
        D::Dictionary { .. } => {
            return Err(Error::not_supported(
                "a dictionary type directly inside a dictionary value",
            ));
        }
        other => return Err(Error::invalid(format!("{other} is not a nested type"))),
    })
}
