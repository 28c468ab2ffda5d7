//! Builders from data types.

use super::*;
use crate::array::PrimitiveType;
use crate::datatype::{Field, FieldRef, IntegerType};
use crate::error::Error;
use crate::native::{DaysMs, I128, I256, MonthDayNano};
use half::f16;

/// A dynamic builder for arrays of `data_type`, with room for `capacity` slots (nested
/// children get the same capacity per slot).
///
/// Every [`DataType`] is covered, nested ones included, and the arrays built have exactly the
/// requested type: logical primitive types (dates, timestamps with time zone, decimals,
/// intervals) are set on the primitive builders, and child fields keep their names,
/// nullability and metadata. Dictionaries get a deduplicating [`DictionaryBuilder`], run-end
/// encoded types a merging [`RunEndBuilder`].
///
/// Errors: [`Error::OutOfSpec`] for types whose parameters are invalid
/// ([`DataType::validate`]).
///
/// ```
/// use quiver_arrow::builder::make_builder;
/// use quiver_arrow::{DataType, IntegerType, ValidationLevel};
/// let dt = DataType::dictionary(IntegerType::Int32, DataType::Utf8);
/// let mut b = make_builder(&dt, 0).unwrap();
/// let d = b.as_dictionary_mut().unwrap();
/// d.append_str("x").unwrap();
/// d.append_str("x").unwrap();
/// let a = b.finish();
/// assert_eq!(a.data_type(), &dt);
/// a.validate(ValidationLevel::Full).unwrap();
/// ```
pub fn make_builder(data_type: &DataType, capacity: usize) -> Result<ArrayBuilder> {
    data_type.validate()?;
    make(data_type, capacity)
}

fn make(dt: &DataType, capacity: usize) -> Result<ArrayBuilder> {
    if let Some(b) = make_primitive(dt, capacity)? {
        return Ok(b);
    }
    let cap = capacity;
    Ok(match dt {
        DataType::Null => NullBuilder::new().into(),
        DataType::Boolean => BooleanBuilder::with_capacity(cap).into(),
        DataType::Binary => BinaryBuilder::with_capacity(cap, 0).into(),
        DataType::LargeBinary => LargeBinaryBuilder::with_capacity(cap, 0).into(),
        DataType::Utf8 => StringBuilder::with_capacity(cap, 0).into(),
        DataType::LargeUtf8 => LargeStringBuilder::with_capacity(cap, 0).into(),
        DataType::BinaryView => BinaryViewBuilder::with_capacity(cap).into(),
        DataType::Utf8View => StringViewBuilder::with_capacity(cap).into(),
        DataType::FixedSizeBinary(w) => FixedSizeBinaryBuilder::try_new(*w, cap)?.into(),
        DataType::List(f) => ListBuilder::with_capacity(child(f, cap)?, cap)
            .with_field(f.clone())?
            .into(),
        DataType::LargeList(f) => LargeListBuilder::with_capacity(child(f, cap)?, cap)
            .with_field(f.clone())?
            .into(),
        DataType::ListView(f) => ListViewBuilder::with_capacity(child(f, cap)?, cap)
            .with_field(f.clone())?
            .into(),
        DataType::LargeListView(f) => LargeListViewBuilder::with_capacity(child(f, cap)?, cap)
            .with_field(f.clone())?
            .into(),
        DataType::FixedSizeList(f, size) => {
            let values = child(f, cap.saturating_mul(*size as usize))?;
            FixedSizeListBuilder::try_new(values, *size, cap)?
                .with_field(f.clone())?
                .into()
        }
        DataType::Struct(fields) => StructBuilder::with_capacity(fields.clone(), cap)?.into(),
        DataType::Map(entries, sorted) => make_map(entries, *sorted, cap)?,
        DataType::Union(fields, mode) => {
            UnionBuilder::with_capacity(fields.clone(), *mode, cap)?.into()
        }
        DataType::Dictionary {
            key,
            value,
            ordered,
        } => DictionaryBuilder::with_capacity(*key, (**value).clone(), cap)?
            .with_ordered(*ordered)
            .into(),
        DataType::RunEndEncoded(r, v) => make_run_end(r, v)?,
        other => {
            return Err(Error::not_supported(format!("a builder for {other}")));
        }
    })
}

fn child(field: &Field, capacity: usize) -> Result<Box<ArrayBuilder>> {
    Ok(Box::new(make(field.data_type(), capacity)?))
}

/// A primitive builder when `dt` is stored as a native type.
fn make_primitive(dt: &DataType, capacity: usize) -> Result<Option<ArrayBuilder>> {
    macro_rules! find {
        ($($t:ty),*) => {$(
            if <$t as PrimitiveType>::accepts(dt) {
                let b = PrimitiveBuilder::<$t>::with_capacity(capacity).with_data_type(dt.clone())?;
                return Ok(Some(b.into()));
            }
        )*};
    }
    find! { i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64, I128, I256, DaysMs, MonthDayNano }
    Ok(None)
}

fn make_map(entries: &FieldRef, sorted: bool, capacity: usize) -> Result<ArrayBuilder> {
    let DataType::Struct(kv) = entries.data_type() else {
        return Err(Error::oos("Map entries must be a Struct"));
    };
    let (keys, values) = (child(&kv[0], capacity)?, child(&kv[1], capacity)?);
    let b = MapBuilder::with_capacity(keys, values, capacity)
        .with_entries_field(entries.clone())?
        .with_keys_sorted(sorted);
    Ok(b.into())
}

fn make_run_end(run_ends: &FieldRef, values: &FieldRef) -> Result<ArrayBuilder> {
    let ty = IntegerType::try_from_data_type(run_ends.data_type())
        .ok_or_else(|| Error::oos("run ends must be Int16, Int32 or Int64"))?;
    let b = RunEndBuilder::try_new(ty, values.data_type().clone())?
        .with_fields(run_ends.clone(), values.clone())?;
    Ok(b.into())
}
