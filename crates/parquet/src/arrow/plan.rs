//! The Arrow shape of a Parquet schema: each field's Arrow type and a [`Plan`] saying which
//! Parquet nodes give its validity, offsets and values, following the format's
//! `LogicalTypes.md` rules — including the backward-compatibility rules for lists written by
//! older tools (two-level lists, groups whose one field is repeated, `array` and `<name>_tuple`
//! elements, repeated LIST-annotated groups as elements, repeated fields without a LIST
//! annotation) and MAP / MAP_KEY_VALUE groups.

use super::options::ReadOptions;
use super::types::{extension, leaf_type};
use crate::format::{ConvertedType, LogicalType, SchemaElement};
use crate::levels::assemble::Repetition;
use crate::schema::SchemaDescriptor;
use quiver_arrow::datatype::{DataType, Field, Fields, Metadata};
use quiver_arrow::{Error, Result};
use std::sync::Arc;

/// The metadata key carrying a Parquet field id on an Arrow field.
pub const FIELD_ID_KEY: &str = "PARQUET:field_id";

/// How to build one Arrow array from the leaf columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// A leaf column; its validity is that of `node` when optional.
    Leaf {
        /// The leaf column index.
        column: usize,
        /// The schema node (where validity comes from).
        node: usize,
    },
    /// A struct; validity from `node` when optional.
    Struct {
        /// The group node.
        node: usize,
        /// One plan per child field.
        children: Vec<Plan>,
    },
    /// A list (or map: a list of key-value structs); validity from `node` when optional,
    /// offsets from the repeated node `repeated`.
    List {
        /// The node whose validity is the list's (the annotated group, or the repeated node
        /// itself for a bare repeated field).
        node: usize,
        /// The repeated node.
        repeated: usize,
        /// The elements.
        element: Box<Plan>,
    },
}

impl Plan {
    /// The first leaf column under this plan (whose levels carry every ancestor's validity).
    pub fn first_column(&self) -> Option<usize> {
        match self {
            Plan::Leaf { column, .. } => Some(*column),
            Plan::Struct { children, .. } => children.iter().find_map(Plan::first_column),
            Plan::List { element, .. } => element.first_column(),
        }
    }
}

/// Builds Arrow fields and plans from the Parquet schema.
pub(super) struct Planner<'s, 'e, 'a> {
    pub schema: &'s SchemaDescriptor<'s>,
    pub elements: &'e [SchemaElement<'a>],
    pub options: &'s ReadOptions,
}

fn is_list(e: &SchemaElement<'_>) -> bool {
    matches!(e.logical_type, Some(LogicalType::List))
        || e.converted_type == Some(ConvertedType::LIST)
}

fn is_map(e: &SchemaElement<'_>) -> bool {
    matches!(e.logical_type, Some(LogicalType::Map))
        || matches!(
            e.converted_type,
            Some(ConvertedType::MAP | ConvertedType::MAP_KEY_VALUE)
        )
}

impl Planner<'_, '_, '_> {
    fn element(&self, i: usize) -> &SchemaElement<'_> {
        &self.elements[i]
    }

    fn metadata(&self, i: usize) -> Metadata {
        let mut m = Metadata::new();
        if let Some(id) = self.elements[i].field_id {
            m.insert(FIELD_ID_KEY.to_string(), id.to_string());
        }
        m
    }

    fn field(&self, i: usize, name: &str, data_type: DataType, nullable: bool) -> Field {
        let f = Field::new(name, data_type, nullable);
        let m = self.metadata(i);
        if m.is_empty() { f } else { f.with_metadata(m) }
    }

    /// The field and plan of node `i` as a field of its parent.
    pub fn node(&self, i: usize) -> Result<(Field, Plan)> {
        let n = self.schema.node(i);
        if n.repetition == Repetition::Repeated {
            // A repeated field outside a LIST or MAP: a non-null list of non-null elements.
            let (item, plan) = self.plain(i, false)?;
            let list = DataType::List(Arc::new(item));
            let plan = Plan::List {
                node: i,
                repeated: i,
                element: Box::new(plan),
            };
            return Ok((self.field(i, n.name, list, false), plan));
        }
        let nullable = n.repetition == Repetition::Optional;
        let e = self.element(i);
        if !n.children.is_empty() || !e.is_leaf() {
            if is_list(e) {
                return self.list(i, nullable);
            }
            if is_map(e) {
                return self.map(i, nullable);
            }
        }
        self.plain(i, nullable)
    }

    /// Node `i` as a struct or leaf, whatever its repetition.
    fn plain(&self, i: usize, nullable: bool) -> Result<(Field, Plan)> {
        let n = self.schema.node(i);
        if let Some(column) = n.column {
            let mut t = leaf_type(self.element(i), self.options)?;
            let path = self.schema.columns()[column].dotted_path();
            if self.options.dictionary.contains(&path)
                && matches!(
                    t,
                    DataType::Utf8 | DataType::Binary | DataType::LargeUtf8 | DataType::LargeBinary
                )
            {
                t = DataType::Dictionary {
                    key: quiver_arrow::datatype::IntegerType::Int32,
                    value: Arc::new(t),
                    ordered: false,
                };
            }
            let mut f = self.field(i, n.name, t, nullable);
            if let Some(name) = extension(self.element(i)) {
                f = f.with_extension(name, "");
            }
            return Ok((f, Plan::Leaf { column, node: i }));
        }
        let mut fields = Vec::with_capacity(n.children.len());
        let mut plans = Vec::with_capacity(n.children.len());
        for &c in &n.children {
            let (f, p) = self.node(c)?;
            fields.push(f);
            plans.push(p);
        }
        if fields.is_empty() {
            return Err(Error::not_supported(format!(
                "group {:?} has no fields (an empty struct cannot be read from Parquet)",
                n.name
            )));
        }
        let t = DataType::Struct(Fields::from(fields));
        Ok((
            self.field(i, n.name, t, nullable),
            Plan::Struct {
                node: i,
                children: plans,
            },
        ))
    }

    /// The only child of a LIST or MAP group, which must be repeated.
    fn repeated_child(&self, i: usize, what: &str) -> Result<usize> {
        let n = self.schema.node(i);
        match n.children.as_slice() {
            [c] if self.schema.node(*c).repetition == Repetition::Repeated => Ok(*c),
            _ => Err(Error::oos(format!(
                "{what} group {:?} must have exactly one repeated child",
                n.name
            ))),
        }
    }

    fn list(&self, i: usize, nullable: bool) -> Result<(Field, Plan)> {
        let n = self.schema.node(i);
        let (item, plan) = self.list_items(i)?;
        Ok((
            self.field(i, n.name, DataType::List(Arc::new(item)), nullable),
            plan,
        ))
    }

    /// The item field and the plan of the LIST-annotated group `i` (its validity, if any, is
    /// that of `i`).
    fn list_items(&self, i: usize) -> Result<(Field, Plan)> {
        let n = self.schema.node(i);
        let r = self.repeated_child(i, "LIST")?;
        let rep = self.schema.node(r);
        let (item, element) = if rep.column.is_none()
            && is_list(self.element(r))
            && self.repeated_child(r, "LIST").is_ok()
        {
            // A repeated LIST-annotated group: a two-level list serving as the element of
            // this one (LogicalTypes.md: the only place such a group may appear). Its items
            // are a non-null list named after it, as pyarrow reads it.
            let (inner, plan) = self.list_items(r)?;
            (
                self.field(r, rep.name, DataType::List(Arc::new(inner)), false),
                plan,
            )
        } else if rep.children.len() != 1
            || self.schema.node(rep.children[0]).repetition == Repetition::Repeated
            || rep.name == "array"
            || rep.name == format!("{}_tuple", n.name)
        {
            // LogicalTypes.md's backward-compatibility rules 1 to 4: the repeated node is
            // itself the (required) element when it is a leaf (no children), has several
            // fields, has one repeated field, or is named `array` or `<list>_tuple`.
            self.plain(r, false)?
        } else {
            self.node(rep.children[0])?
        };
        Ok((
            item,
            Plan::List {
                node: i,
                repeated: r,
                element: Box::new(element),
            },
        ))
    }

    fn map(&self, i: usize, nullable: bool) -> Result<(Field, Plan)> {
        let n = self.schema.node(i);
        let r = self.repeated_child(i, "MAP")?;
        let kv = self.schema.node(r);
        match kv.children.len() {
            2 => {}
            // Keys without values: the list of keys (as pyarrow reads it).
            1 => {
                let (item, element) = self.node(kv.children[0])?;
                let plan = Plan::List {
                    node: i,
                    repeated: r,
                    element: Box::new(element),
                };
                let t = DataType::List(Arc::new(item));
                return Ok((self.field(i, n.name, t, nullable), plan));
            }
            _ => {
                return Err(Error::oos(format!(
                    "MAP group {:?}: its repeated group has {} fields, not a key and a value",
                    n.name,
                    kv.children.len()
                )));
            }
        }
        if self.schema.node(kv.children[0]).repetition != Repetition::Required {
            return Err(Error::oos(format!(
                "MAP group {:?}: its keys must be required (Arrow map keys are never null)",
                n.name
            )));
        }
        let (key, key_plan) = self.node(kv.children[0])?;
        let (value, value_plan) = self.node(kv.children[1])?;
        // The entries field is named after the map (as Arrow C++ names it).
        let entries = Field::new(
            n.name,
            DataType::Struct(Fields::from(vec![key, value])),
            false,
        );
        let plan = Plan::List {
            node: i,
            repeated: r,
            element: Box::new(Plan::Struct {
                node: r,
                children: vec![key_plan, value_plan],
            }),
        };
        let t = DataType::Map(Arc::new(entries), false);
        Ok((self.field(i, n.name, t, nullable), plan))
    }
}
