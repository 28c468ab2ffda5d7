//! Reading and writing Thrift unions: a struct with one field set, each variant a struct.
//!
//! A union is decoded leniently: the first struct field is the variant (any further ones are
//! skipped, and so are fields that are not structs, as the reference implementations skip a
//! field of the wrong type), a variant this version does not know becomes the caller's
//! `Unknown(field id)`, and a union without a variant is `Unknown(0)`: a newer writer's
//! annotation is carried, never an error.

use crate::thrift::{CompactReader, CompactWriter, ValueType};
use quiver_arrow::Result;

/// Reads a union named `name`: `variant` reads the struct of field `id`; fields that are not
/// structs are skipped.
pub(crate) fn read_union<'a, V>(
    r: &mut CompactReader<'a>,
    name: &str,
    unknown: fn(i16) -> V,
    mut variant: impl FnMut(&mut CompactReader<'a>, i16) -> Result<V>,
) -> Result<V> {
    let mut out = None;
    r.read_struct(name, |r, f| {
        if out.is_some() || f.ty != ValueType::Struct {
            r.skip_field(f)?;
        } else {
            out = Some(variant(r, f.id)?);
        }
        Ok(())
    })?;
    Ok(out.unwrap_or_else(|| unknown(0)))
}

/// Reads a union whose variants are all empty structs: `variant` maps the field id.
pub(crate) fn read_empty_union<V>(
    r: &mut CompactReader<'_>,
    name: &str,
    variant: fn(i16) -> V,
) -> Result<V> {
    read_union(r, name, variant, |r, id| {
        r.skip_struct()?;
        Ok(variant(id))
    })
}

/// Writes a union: `body` writes its one field.
pub(crate) fn write_union(w: &mut CompactWriter, body: impl FnOnce(&mut CompactWriter)) {
    w.struct_begin();
    body(w);
    w.struct_end();
}
