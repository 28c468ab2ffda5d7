//! Arrow schema → Parquet schema, as Arrow C++ (pyarrow) writes it: the schema elements (root
//! `schema`, then depth-first), one [`LeafSpec`] per leaf column, and the `ARROW:schema` value
//! from which readers restore what Parquet cannot say.
//!
//! The shape (shared with `shred`, which produces levels in exactly this shape): a field is
//! `optional` when nullable, else `required` (the `null` type is always optional); list-likes
//! (list, large list, list view, large list view, fixed-size list) are
//! `group name (LIST) { repeated group list { element } }`; a map is
//! `group name (MAP) { repeated group key_value { required key; value } }`; a struct is a group of
//! its children; anything else is one leaf (dictionary and run-end encoded: their value type).

mod leaf;

pub use super::physical::LeafSpec;
use super::plan::FIELD_ID_KEY;
use crate::format::{ConvertedType, FieldRepetitionType, LogicalType, SchemaElement};
use quiver_arrow::datatype::{DataType, Field, Schema};
use quiver_arrow::display::format_field_type;
use quiver_arrow::{Error, Result};
use std::sync::Arc;

/// The name of the root element (as Arrow C++ names it).
pub const ROOT_NAME: &str = "schema";
/// The repeated group of a LIST.
pub const LIST_NAME: &str = "list";
/// The element field of a LIST.
pub const ELEMENT_NAME: &str = "element";
/// The repeated group of a MAP.
pub const KEY_VALUE_NAME: &str = "key_value";
/// The key field of a MAP.
pub const KEY_NAME: &str = "key";
/// The value field of a MAP.
pub const VALUE_NAME: &str = "value";

/// Choices in how Arrow types become Parquet types.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SchemaOptions {
    /// The physical type of decimals of precision ≤ 18 (wider ones are always fixed-size
    /// byte arrays of the fewest bytes their precision needs).
    pub decimals: DecimalLayout,
}

/// How decimals of precision ≤ 18 are stored ([`SchemaOptions::decimals`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DecimalLayout {
    /// [`Integer`](Self::Integer) where the column is compressed or may be delta-encoded,
    /// [`FixedLenByteArray`](Self::FixedLenByteArray) where its values are stored as they are
    /// (no codec, PLAIN or byte-stream-split pages). Each is the smaller there: integers
    /// compress better (lineitem's decimal(15, 2) columns under snappy and zstd: up to 15%
    /// smaller, never 0.1% larger) and take DELTA_BINARY_PACKED, while uncompressed a value
    /// takes the fewest bytes its precision needs (7 at precision 15, against 8 for an INT64:
    /// 24 MB of lineitem's 807 MB uncompressed file). Decided per column by the writer
    /// ([`WriteSchema::with_stored_raw`]); without it (as [`WriteSchema::new`]), integers.
    #[default]
    Auto,
    /// Precision ≤ 9 as INT32 and ≤ 18 as INT64 (pyarrow's `store_decimal_as_integer=True`;
    /// as arrow-rs, DuckDB and Spark write them): decoded without byte swapping, with integer
    /// statistics.
    Integer,
    /// Every decimal as a `FIXED_LEN_BYTE_ARRAY` (pyarrow's default), for readers that know
    /// only fixed-size decimals.
    FixedLenByteArray,
}

/// The Parquet schema of an Arrow schema; built once per file.
#[derive(Debug, Clone)]
pub struct WriteSchema {
    schema: Arc<Schema>,
    /// One per element: its name and the element (whose own name is empty).
    nodes: Vec<(String, SchemaElement<'static>)>,
    leaves: Vec<LeafSpec>,
}

impl WriteSchema {
    /// The Parquet schema of `schema`. Types Parquet cannot hold (unions, intervals, structs
    /// without fields) are an error naming the field's path.
    pub fn new(schema: &Schema, options: &SchemaOptions) -> Result<WriteSchema> {
        WriteSchema::with_stored_raw(schema, options, &|_| false)
    }

    /// [`WriteSchema::new`], told which leaves (by Parquet path) will have their values stored
    /// as they are (no codec, no delta encoding): there [`DecimalLayout::Auto`] chooses
    /// fixed-size byte arrays.
    pub fn with_stored_raw(
        schema: &Schema,
        options: &SchemaOptions,
        stored_raw: &dyn Fn(&[String]) -> bool,
    ) -> Result<WriteSchema> {
        // The stored ARROW:schema must be readable (and the levels stay far from their limit).
        quiver_ipc::schema::check_nesting(schema)?;
        let mut b = Builder {
            options,
            stored_raw,
            nodes: Vec::new(),
            leaves: Vec::new(),
            path: Vec::new(),
            arrow_path: Vec::new(),
            def: 0,
            rep: 0,
        };
        b.nodes.push((
            ROOT_NAME.to_string(),
            SchemaElement {
                repetition_type: Some(FieldRepetitionType::REQUIRED),
                num_children: Some(schema.fields.len() as i32),
                ..SchemaElement::default()
            },
        ));
        for f in schema.fields.iter() {
            b.field(f.name(), f, None)?;
        }
        Ok(WriteSchema {
            schema: Arc::new(schema.clone()),
            nodes: b.nodes,
            leaves: b.leaves,
        })
    }

    /// The Arrow schema it was built from.
    pub fn arrow_schema(&self) -> &Schema {
        &self.schema
    }

    /// The schema elements: the root first, then depth-first.
    pub fn elements(&self) -> Vec<SchemaElement<'_>> {
        self.nodes
            .iter()
            .map(|(name, e)| SchemaElement { name, ..*e })
            .collect()
    }

    /// One spec per leaf column, in schema order.
    pub fn leaves(&self) -> &[LeafSpec] {
        &self.leaves
    }

    /// The value of the `ARROW:schema` key ([`super::restore::encode_arrow_schema`] of the
    /// Arrow schema).
    pub fn arrow_schema_value(&self) -> Result<String> {
        super::restore::encode_arrow_schema((*self.schema).clone())
    }

    /// [`WriteSchema::arrow_schema_value`] with int32 keys for the dictionaries (at any depth)
    /// whose int8/int16 keys cannot index the most entries a dictionary page of their leaf
    /// held (`dictionary_entries`, per leaf; batches with other dictionaries are written into
    /// one), and the dotted paths of the fields widened. `first_leaves[i]`: the first leaf of
    /// top-level field `i`.
    pub fn arrow_schema_value_for(
        &self,
        first_leaves: &[usize],
        dictionary_entries: &[usize],
    ) -> Result<(String, Vec<String>)> {
        let known: Vec<(usize, bool)> = dictionary_entries.iter().map(|&e| (e, false)).collect();
        let first_leaf = |i: usize, _: &Field| first_leaves.get(i).copied();
        match super::restore::widen_schema_keys(&self.schema, first_leaf, &known) {
            Some((out, widened)) => Ok((super::restore::encode_arrow_schema(out)?, widened)),
            None => Ok((self.arrow_schema_value()?, Vec::new())),
        }
    }
}

/// The field id a field's metadata carries, as Arrow C++ reads it: a non-negative `i32`;
/// anything else is no id.
fn field_id(f: &Field) -> Option<i32> {
    f.metadata()
        .get(FIELD_ID_KEY)
        .and_then(|v| v.parse::<i32>().ok())
        .filter(|&id| id >= 0)
}

struct Builder<'o> {
    options: &'o SchemaOptions,
    /// Whether the leaf at a path has its values stored as they are.
    stored_raw: &'o dyn Fn(&[String]) -> bool,
    nodes: Vec<(String, SchemaElement<'static>)>,
    leaves: Vec<LeafSpec>,
    /// The Parquet path of the node being built.
    path: Vec<String>,
    /// The Arrow path (field names) of the field being built, for errors.
    arrow_path: Vec<String>,
    def: i16,
    rep: i16,
}

impl Builder<'_> {
    fn error(&self, what: String) -> Error {
        Error::not_supported(format!("field {:?}: {what}", self.arrow_path.join(".")))
    }

    /// Adds the node `name` for Arrow field `f` (and its subtree); `repetition` overrides the
    /// one its nullability gives (the repeated groups, map keys).
    fn field(
        &mut self,
        name: &str,
        f: &Field,
        repetition: Option<FieldRepetitionType>,
    ) -> Result<()> {
        let repetition = repetition.unwrap_or(
            if f.is_nullable() || matches!(f.data_type(), DataType::Null) {
                FieldRepetitionType::OPTIONAL
            } else {
                FieldRepetitionType::REQUIRED
            },
        );
        self.path.push(name.to_string());
        self.arrow_path.push(f.name().to_string());
        let (def, rep) = (self.def, self.rep);
        match repetition {
            FieldRepetitionType::OPTIONAL => self.def += 1,
            FieldRepetitionType::REPEATED => {
                self.def += 1;
                self.rep += 1;
            }
            _ => {}
        }
        let element = SchemaElement {
            repetition_type: Some(repetition),
            field_id: field_id(f),
            ..SchemaElement::default()
        };
        self.node(f, element)?;
        self.path.pop();
        self.arrow_path.pop();
        (self.def, self.rep) = (def, rep);
        Ok(())
    }

    fn group(&mut self, mut element: SchemaElement<'static>, children: usize) -> usize {
        element.num_children = Some(children as i32);
        let name = self.path.last().cloned().unwrap_or_default();
        self.nodes.push((name, element));
        self.nodes.len() - 1
    }

    fn node(&mut self, f: &Field, element: SchemaElement<'static>) -> Result<()> {
        match f.data_type() {
            DataType::Struct(fields) => {
                if fields.is_empty() {
                    // As Arrow C++: Parquet has no empty groups.
                    return Err(self.error(
                        "a struct with no fields cannot be written to Parquet (add a dummy field)"
                            .into(),
                    ));
                }
                self.group(element, fields.len());
                for c in fields.iter() {
                    self.field(c.name(), c, None)?;
                }
                Ok(())
            }
            DataType::List(item)
            | DataType::LargeList(item)
            | DataType::ListView(item)
            | DataType::LargeListView(item)
            | DataType::FixedSizeList(item, _) => {
                let list = SchemaElement {
                    logical_type: Some(LogicalType::List),
                    converted_type: Some(ConvertedType::LIST),
                    ..element
                };
                self.group(list, 1);
                self.repeated(LIST_NAME, 1, |b| b.field(ELEMENT_NAME, item, None))
            }
            DataType::Map(entries, _) => self.map(entries, element),
            DataType::Union(..) => Err(self.error(format!(
                "{} cannot be written to Parquet",
                format_field_type(f)
            ))),
            _ => self.leaf(f, element),
        }
    }

    /// The repeated group `name` of a LIST or MAP, its children added by `children`.
    fn repeated(
        &mut self,
        name: &str,
        count: usize,
        children: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        self.path.push(name.to_string());
        self.def += 1;
        self.rep += 1;
        let element = SchemaElement {
            repetition_type: Some(FieldRepetitionType::REPEATED),
            ..SchemaElement::default()
        };
        self.group(element, count);
        children(self)?;
        self.def -= 1;
        self.rep -= 1;
        self.path.pop();
        Ok(())
    }

    fn map(&mut self, entries: &Field, element: SchemaElement<'static>) -> Result<()> {
        let DataType::Struct(kv) = entries.data_type() else {
            return Err(self.error(format!("map entries of type {}", entries.data_type())));
        };
        let [key, value] = kv.as_ref() else {
            return Err(self.error(format!("map entries with {} fields", kv.len())));
        };
        let map = SchemaElement {
            logical_type: Some(LogicalType::Map),
            converted_type: Some(ConvertedType::MAP),
            ..element
        };
        self.group(map, 1);
        self.repeated(KEY_VALUE_NAME, 2, |b| {
            b.field(KEY_NAME, key, Some(FieldRepetitionType::REQUIRED))?;
            b.field(VALUE_NAME, value, None)
        })
    }

    fn leaf(&mut self, f: &Field, element: SchemaElement<'static>) -> Result<()> {
        let decimal_as_integer = match self.options.decimals {
            DecimalLayout::Integer => true,
            DecimalLayout::FixedLenByteArray => false,
            DecimalLayout::Auto => !(self.stored_raw)(&self.path),
        };
        let a = leaf::annotate(f, decimal_as_integer).map_err(|why| self.error(why))?;
        let name = self.path.last().cloned().unwrap_or_default();
        self.nodes.push((
            name,
            SchemaElement {
                type_: Some(a.physical),
                type_length: a.type_length,
                converted_type: a.converted,
                logical_type: a.logical,
                precision: a.precision,
                scale: a.scale,
                ..element
            },
        ));
        self.leaves.push(LeafSpec {
            path: self.path.clone(),
            physical: a.physical,
            type_length: a.type_length,
            sort_order: a.sort_order,
            conversion: a.conversion,
            max_def: self.def,
            max_rep: self.rep,
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests;
