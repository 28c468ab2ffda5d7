//! Appending parsed JSON values to builders, per the schema's types.

use super::parser::Json;
use crate::types::format_data_type;
use crate::value::{BinaryText, append_text, is_text_type};
use quiver_arrow::builder::ArrayBuilder;
use quiver_arrow::{DataType, Error, Field, Result};

/// A conversion error with the path to the value (innermost segment first).
#[derive(Debug)]
pub(crate) struct DecodeError {
    pub path: Vec<String>,
    pub message: String,
}

impl DecodeError {
    fn new(message: impl Into<String>) -> Self {
        DecodeError {
            path: Vec::new(),
            message: message.into(),
        }
    }
    fn at(mut self, segment: String) -> Self {
        self.path.push(segment);
        self
    }
    /// `a.b[2]` from the segments (outermost first once reversed).
    pub(crate) fn path_text(&self) -> String {
        let mut s = String::new();
        for seg in self.path.iter().rev() {
            s.push_str(seg);
        }
        s.trim_start_matches('.').to_string()
    }
}

/// Checks up front that every type in `dt` can be read from JSON.
pub(crate) fn check_readable(field: &Field) -> Result<()> {
    let dt = field.data_type();
    let ok = match dt {
        DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _) => {
            return check_readable(f);
        }
        DataType::Struct(fs) => return fs.iter().try_for_each(|f| check_readable(f)),
        DataType::Map(entries, _) => return check_readable(entries),
        other => is_text_type(other),
    };
    if ok {
        Ok(())
    } else {
        Err(Error::not_supported(format!(
            "reading field {:?} of type {} from JSON",
            field.name(),
            format_data_type(dt)
        )))
    }
}

/// Options carried down the recursion.
#[derive(Clone, Copy)]
pub(crate) struct Mode {
    /// Whether keys missing from the schema are errors (inferred schemas).
    pub strict_keys: bool,
}

/// Appends `v` as a value of `field` to `b`.
pub(crate) fn append(
    b: &mut ArrayBuilder,
    field: &Field,
    v: &Json,
    mode: Mode,
) -> Result<(), DecodeError> {
    if let Json::Null = v {
        if !field.is_nullable() {
            return Err(DecodeError::new("null value for a non-nullable field"));
        }
        b.append_null();
        return Ok(());
    }
    let dt = field.data_type();
    match dt {
        DataType::List(item) | DataType::LargeList(item) | DataType::FixedSizeList(item, _) => {
            append_list(b, item, v, mode)
        }
        DataType::Struct(_) => append_struct(b, dt, v, mode),
        DataType::Map(entries, _) => append_map(b, entries, v, mode),
        _ => append_flat(b, dt, v),
    }
}

fn expected(what: &str, v: &Json) -> DecodeError {
    DecodeError::new(format!("expected {what}, found {}", v.kind()))
}

fn append_flat(b: &mut ArrayBuilder, dt: &DataType, v: &Json) -> Result<(), DecodeError> {
    let text: &str = match (dt, v) {
        (DataType::Boolean, Json::Bool(x)) => {
            if let Some(bb) = b.as_boolean_mut() {
                bb.append_value(*x);
            }
            return Ok(());
        }
        (DataType::Boolean, _) => return Err(expected("boolean", v)),
        (DataType::Null, _) => return Err(expected("null", v)),
        (DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View, Json::Bool(x)) => {
            if *x {
                "true"
            } else {
                "false"
            }
        }
        (_, Json::Number(t)) if accepts_number(dt) => t,
        (_, Json::Number(_)) => return Err(expected("string", v)),
        (_, Json::Str(s)) if accepts_string(dt) => s,
        (_, Json::Str(_)) => return Err(expected("number", v)),
        _ if accepts_number(dt) && !accepts_string(dt) => return Err(expected("number", v)),
        _ => return Err(expected("string", v)),
    };
    append_text(b, dt, text.as_bytes(), BinaryText::Hex).map_err(DecodeError::new)
}

fn accepts_number(dt: &DataType) -> bool {
    dt.is_integer()
        || matches!(
            dt,
            DataType::Float16
                | DataType::Float32
                | DataType::Float64
                | DataType::Decimal32 { .. }
                | DataType::Decimal64 { .. }
                | DataType::Decimal128 { .. }
                | DataType::Decimal256 { .. }
                | DataType::Duration(_)
                | DataType::Utf8
                | DataType::LargeUtf8
                | DataType::Utf8View
        )
}

fn accepts_string(dt: &DataType) -> bool {
    !dt.is_integer() && !matches!(dt, DataType::Duration(_))
}

fn append_list(
    b: &mut ArrayBuilder,
    item: &Field,
    v: &Json,
    mode: Mode,
) -> Result<(), DecodeError> {
    let Json::Array(items) = v else {
        return Err(expected("array", v));
    };
    let push_items = |values: &mut ArrayBuilder| {
        for (i, x) in items.iter().enumerate() {
            append(values, item, x, mode).map_err(|e| e.at(format!("[{i}]")))?;
        }
        Ok::<_, DecodeError>(())
    };
    let overflow = |e: Error| DecodeError::new(e.to_string());
    match b {
        ArrayBuilder::List(l) => {
            push_items(l.values())?;
            l.try_append(true).map_err(overflow)
        }
        ArrayBuilder::LargeList(l) => {
            push_items(l.values())?;
            l.try_append(true).map_err(overflow)
        }
        ArrayBuilder::FixedSizeList(l) => {
            if items.len() != l.size() as usize {
                let msg = format!("expected {} list elements, found {}", l.size(), items.len());
                return Err(DecodeError::new(msg));
            }
            push_items(l.values())?;
            l.try_append(true).map_err(overflow)
        }
        _ => Err(DecodeError::new("internal error: not a list builder")),
    }
}

/// The value of key `name`: the member at `hint` when its key matches, else the first match.
fn member<'v, 'a>(
    members: &'v [(std::borrow::Cow<'a, str>, Json<'a>)],
    hint: usize,
    name: &str,
) -> Option<&'v Json<'a>> {
    match members.get(hint) {
        Some((k, v)) if k == name => Some(v),
        _ => members.iter().find(|(k, _)| k == name).map(|(_, v)| v),
    }
}

/// Appends the members of an object to struct children `fields` / `builders`.
pub(crate) fn append_members(
    builders: &mut [ArrayBuilder],
    fields: &[quiver_arrow::FieldRef],
    members: &[(std::borrow::Cow<str>, Json)],
    mode: Mode,
) -> Result<(), DecodeError> {
    let mut found = 0;
    for (i, (f, b)) in fields.iter().zip(builders.iter_mut()).enumerate() {
        let seg = || format!(".{}", f.name());
        match member(members, i, f.name()) {
            Some(x) => {
                found += 1;
                append(b, f, x, mode).map_err(|e| e.at(seg()))?
            }
            None if f.is_nullable() => b.append_null(),
            None => {
                return Err(DecodeError::new("missing value for a non-nullable field").at(seg()));
            }
        }
    }
    if found == members.len() {
        // Every member was a field's (schema names are unique): no key twice, none unknown.
        return Ok(());
    }
    // A key given twice would lose one of its values (pyarrow and DuckDB refuse it too).
    let mut seen = std::collections::HashSet::with_capacity(members.len());
    if let Some((k, _)) = members.iter().find(|(k, _)| !seen.insert(k.as_ref())) {
        return Err(DecodeError::new("key given twice in one object").at(format!(".{k}")));
    }
    if mode.strict_keys {
        if let Some((k, _)) = members
            .iter()
            .find(|(k, _)| !fields.iter().any(|f| f.name() == k))
        {
            let msg = "key not in the schema inferred from the first rows (pass an explicit schema to ignore it)";
            return Err(DecodeError::new(msg).at(format!(".{k}")));
        }
    }
    Ok(())
}

fn append_struct(
    b: &mut ArrayBuilder,
    dt: &DataType,
    v: &Json,
    mode: Mode,
) -> Result<(), DecodeError> {
    let Json::Object(members) = v else {
        return Err(expected("object", v));
    };
    let (DataType::Struct(fields), Some(s)) = (dt, b.as_struct_mut()) else {
        return Err(DecodeError::new("internal error: not a struct builder"));
    };
    append_members(s.field_builders(), fields, members, mode)?;
    s.append(true);
    Ok(())
}

fn append_map(
    b: &mut ArrayBuilder,
    entries: &Field,
    v: &Json,
    mode: Mode,
) -> Result<(), DecodeError> {
    let (DataType::Struct(kv), Some(m)) = (entries.data_type(), b.as_map_mut()) else {
        return Err(DecodeError::new("internal error: not a map builder"));
    };
    let [key_field, value_field] = &kv[..] else {
        return Err(DecodeError::new(
            "internal error: map entries need two fields",
        ));
    };
    match v {
        Json::Object(members) => {
            for (k, x) in members {
                let kdt = key_field.data_type();
                append_text(m.keys(), kdt, k.as_bytes(), BinaryText::Hex)
                    .map_err(|e| DecodeError::new(e).at(format!(".{k}")))?;
                append(m.values(), value_field, x, mode).map_err(|e| e.at(format!(".{k}")))?;
            }
        }
        Json::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let Json::Object(pair) = item else {
                    return Err(
                        expected("object with \"key\" and \"value\"", item).at(format!("[{i}]"))
                    );
                };
                let key = member(pair, 0, "key").unwrap_or(&Json::Null);
                let value = member(pair, 1, "value").unwrap_or(&Json::Null);
                append(m.keys(), key_field, key, mode).map_err(|e| e.at(format!("[{i}].key")))?;
                append(m.values(), value_field, value, mode)
                    .map_err(|e| e.at(format!("[{i}].value")))?;
            }
        }
        _ => return Err(expected("object", v)),
    }
    m.try_append(true)
        .map_err(|e| DecodeError::new(e.to_string()))
}
