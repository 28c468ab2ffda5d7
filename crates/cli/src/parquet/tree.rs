//! The Parquet schema as parquet-mr's `MessageType.toString` writes it:
//!
//! ```text
//! message schema {
//!   required int64 id (INTEGER(64,true));
//!   optional group tags (LIST) = 7 {
//!     repeated group list {
//!       optional binary element (STRING);
//!     }
//!   }
//! }
//! ```
//!
//! A node is `<repetition> <type> <name>`, then its annotation in parentheses and its field id
//! after `=`; a leaf ends with `;`, a group opens a block. The annotation is the logical type,
//! else the converted type as parquet-mr reads it (`UTF8` is `STRING`, `INT_32` is
//! `INTEGER(32,true)`, `TIMESTAMP_MILLIS` is `TIMESTAMP(MILLIS,true)`; `MAP_KEY_VALUE`,
//! `INTERVAL` stay). Differences from pyarrow's `ParquetFile.schema`, on purpose: pyarrow
//! writes Arrow C++'s form (`required group field_id=-1 schema`, `field_id=-1` on every node,
//! annotations such as `(Int(bitWidth=64, isSigned=true))`); parquet-mr's form is the one
//! Parquet's own tools print and parse back (`MessageTypeParser`).

use quiver_parquet::format::{ConvertedType, LogicalType, SchemaElement, TimeUnit, Type};
use quiver_parquet::metadata::ParquetMetaData;
use std::fmt::Write as _;

/// The schema of `meta` as text, ending with a newline.
pub fn render(meta: &ParquetMetaData<'_>) -> String {
    let elements = meta.schema();
    let descr = meta.schema_descr();
    let mut s = String::new();
    let root = &elements[0];
    let _ = write!(s, "message {}", root.name);
    annotation_and_id(&mut s, root);
    s.push_str(" {\n");
    for &child in &descr.node(0).children {
        node(&mut s, meta, child, 1);
    }
    s.push_str("}\n");
    s
}

fn node(s: &mut String, meta: &ParquetMetaData<'_>, i: usize, depth: usize) {
    let e = &meta.schema()[i];
    let indent = "  ".repeat(depth);
    let repetition = e
        .repetition_type
        .map_or("required".to_string(), |r| r.name().to_ascii_lowercase());
    let children = &meta.schema_descr().node(i).children;
    match (e.type_, children.is_empty()) {
        (Some(t), true) => {
            let _ = write!(s, "{indent}{repetition} {}", physical(t, e.type_length));
            let _ = write!(s, " {}", e.name);
            annotation_and_id(s, e);
            s.push_str(";\n");
        }
        _ => {
            let _ = write!(s, "{indent}{repetition} group {}", e.name);
            annotation_and_id(s, e);
            s.push_str(" {\n");
            for &c in children {
                node(s, meta, c, depth + 1);
            }
            let _ = writeln!(s, "{indent}}}");
        }
    }
}

/// `int64`, `fixed_len_byte_array(16)`, `binary`.
fn physical(t: Type, length: Option<i32>) -> String {
    match t {
        Type::BYTE_ARRAY => "binary".into(),
        Type::FIXED_LEN_BYTE_ARRAY => {
            format!("fixed_len_byte_array({})", length.unwrap_or_default())
        }
        other => other.name().to_ascii_lowercase(),
    }
}

fn annotation_and_id(s: &mut String, e: &SchemaElement<'_>) {
    if let Some(a) = annotation(e) {
        let _ = write!(s, " ({a})");
    }
    if let Some(id) = e.field_id {
        let _ = write!(s, " = {id}");
    }
}

/// The annotation parquet-mr shows: the logical type, else the converted type.
pub fn annotation(e: &SchemaElement<'_>) -> Option<String> {
    match &e.logical_type {
        Some(LogicalType::Unknown(_)) | None => e.converted_type.and_then(|c| converted(c, e)),
        Some(l) => Some(logical(l)),
    }
}

/// A logical type as parquet-mr's `LogicalTypeAnnotation.toString`.
pub fn logical(l: &LogicalType<'_>) -> String {
    match *l {
        LogicalType::Decimal { scale, precision } => format!("DECIMAL({precision},{scale})"),
        LogicalType::Time {
            is_adjusted_to_utc,
            unit,
        } => format!("TIME({},{is_adjusted_to_utc})", unit_name(unit)),
        LogicalType::Timestamp {
            is_adjusted_to_utc,
            unit,
        } => format!("TIMESTAMP({},{is_adjusted_to_utc})", unit_name(unit)),
        LogicalType::Integer {
            bit_width,
            is_signed,
        } => format!("INTEGER({bit_width},{is_signed})"),
        LogicalType::Variant {
            specification_version,
        } => match specification_version {
            Some(v) => format!("VARIANT({v})"),
            None => "VARIANT".into(),
        },
        LogicalType::Geometry { crs } => format!("GEOMETRY({})", crs.unwrap_or("OGC:CRS84")),
        LogicalType::Geography { crs, algorithm } => format!(
            "GEOGRAPHY({},{})",
            crs.unwrap_or("OGC:CRS84"),
            algorithm.map_or("SPHERICAL", |a| a.name())
        ),
        LogicalType::String => "STRING".into(),
        LogicalType::Map => "MAP".into(),
        LogicalType::List => "LIST".into(),
        LogicalType::Enum => "ENUM".into(),
        LogicalType::Date => "DATE".into(),
        LogicalType::Null => "UNKNOWN".into(),
        LogicalType::Json => "JSON".into(),
        LogicalType::Bson => "BSON".into(),
        LogicalType::Uuid => "UUID".into(),
        LogicalType::Float16 => "FLOAT16".into(),
        LogicalType::Vector => "VECTOR".into(),
        LogicalType::Unknown(id) => format!("UNKNOWN_LOGICAL_TYPE({id})"),
    }
}

fn unit_name(u: TimeUnit) -> String {
    match u {
        TimeUnit::Millis => "MILLIS".into(),
        TimeUnit::Micros => "MICROS".into(),
        TimeUnit::Nanos => "NANOS".into(),
        TimeUnit::Unknown(id) => format!("UNIT_{id}"),
    }
}

/// A converted type as parquet-mr reads it into a logical type annotation.
fn converted(c: ConvertedType, e: &SchemaElement<'_>) -> Option<String> {
    use ConvertedType as C;
    let int = |bits: u8, signed: bool| format!("INTEGER({bits},{signed})");
    Some(match c {
        C::UTF8 => "STRING".into(),
        C::DECIMAL => format!(
            "DECIMAL({},{})",
            e.precision.unwrap_or_default(),
            e.scale.unwrap_or_default()
        ),
        C::TIME_MILLIS => "TIME(MILLIS,true)".into(),
        C::TIME_MICROS => "TIME(MICROS,true)".into(),
        C::TIMESTAMP_MILLIS => "TIMESTAMP(MILLIS,true)".into(),
        C::TIMESTAMP_MICROS => "TIMESTAMP(MICROS,true)".into(),
        C::UINT_8 => int(8, false),
        C::UINT_16 => int(16, false),
        C::UINT_32 => int(32, false),
        C::UINT_64 => int(64, false),
        C::INT_8 => int(8, true),
        C::INT_16 => int(16, true),
        C::INT_32 => int(32, true),
        C::INT_64 => int(64, true),
        C::Unknown(_) => return None,
        // MAP, MAP_KEY_VALUE, LIST, ENUM, DATE, JSON, BSON, INTERVAL: the same name.
        other => other.name().into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_as_parquet_mr_writes_them() {
        let ts = LogicalType::Timestamp {
            is_adjusted_to_utc: false,
            unit: TimeUnit::Nanos,
        };
        assert_eq!(logical(&ts), "TIMESTAMP(NANOS,false)");
        let int = LogicalType::Integer {
            bit_width: 16,
            is_signed: false,
        };
        assert_eq!(logical(&int), "INTEGER(16,false)");
        let d = LogicalType::Decimal {
            scale: 2,
            precision: 9,
        };
        assert_eq!(logical(&d), "DECIMAL(9,2)");
        let e = SchemaElement {
            converted_type: Some(ConvertedType::DECIMAL),
            precision: Some(5),
            scale: Some(1),
            ..SchemaElement::default()
        };
        assert_eq!(annotation(&e).as_deref(), Some("DECIMAL(5,1)"));
        let e = SchemaElement {
            converted_type: Some(ConvertedType::MAP_KEY_VALUE),
            ..SchemaElement::default()
        };
        assert_eq!(annotation(&e).as_deref(), Some("MAP_KEY_VALUE"));
        assert_eq!(
            physical(Type::FIXED_LEN_BYTE_ARRAY, Some(16)),
            "fixed_len_byte_array(16)"
        );
        assert_eq!(physical(Type::INT96, None), "int96");
    }
}
