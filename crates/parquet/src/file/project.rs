//! Which fields a read returns ([`Projection`]): top-level fields by name, or fields inside
//! structs by dotted path (`a.b.c`: the struct `a` with only the child `b`, itself with only
//! `c`; paths go through lists to the struct of their elements), in the order first named,
//! and the leaf columns they need.

use super::FileReader;
use crate::arrow::build::leaf_targets;
use crate::arrow::plan::Plan;
use quiver_arrow::datatype::{DataType, Field, FieldRef, Fields, Schema, SchemaRef};
use quiver_arrow::display::format_type;
use quiver_arrow::{Error, Result};
use std::sync::Arc;

/// The fields to read, how to build each, and the leaf columns they need.
pub(crate) struct Projection {
    /// Output fields in order, each with its (possibly pruned) plan.
    pub(super) items: Vec<(Plan, FieldRef)>,
    /// The leaf columns to decode, sorted.
    pub(super) columns: Vec<usize>,
    pub(super) schema: SchemaRef,
    /// Whether a row-number column follows the fields.
    pub(super) row_number: bool,
    /// Per leaf column of the file: the schema node and Arrow type its array is built as
    /// (`None` for columns not projected), so that decoding threads build leaf arrays ahead.
    pub(super) leaf_targets: Vec<Option<(usize, DataType)>>,
}

impl Projection {
    /// The schema of the projected batches.
    pub(crate) fn schema(&self) -> &SchemaRef {
        &self.schema
    }
}

/// Appends the leaf columns under `plan`.
fn leaf_columns(plan: &Plan, out: &mut Vec<usize>) {
    match plan {
        Plan::Leaf { column, .. } => out.push(*column),
        Plan::Struct { children, .. } => children.iter().for_each(|c| leaf_columns(c, out)),
        Plan::List { element, .. } => leaf_columns(element, out),
    }
}

impl FileReader<'_> {
    /// Every field, in schema order.
    pub(crate) fn project_all(&self) -> Projection {
        let items = self
            .arrow
            .plans
            .iter()
            .cloned()
            .zip(self.arrow.schema.fields.iter().cloned())
            .collect();
        self.projection(items, None, true)
    }

    fn projection(
        &self,
        items: Vec<(Plan, FieldRef)>,
        row_number: Option<&str>,
        whole_schema: bool,
    ) -> Projection {
        let mut columns = Vec::new();
        for (plan, _) in &items {
            leaf_columns(plan, &mut columns);
        }
        columns.sort_unstable();
        columns.dedup();
        let mut targets = Vec::new();
        for (plan, field) in &items {
            leaf_targets(plan, field, &mut targets);
        }
        let mut leaf_targets = vec![None; self.meta.schema_descr().columns().len()];
        for (column, node, t) in targets {
            if let Some(slot) = leaf_targets.get_mut(column) {
                *slot = Some((node, t));
            }
        }
        let schema = if whole_schema && row_number.is_none() {
            self.schema_ref.clone()
        } else {
            let mut fields: Vec<FieldRef> = items.iter().map(|(_, f)| f.clone()).collect();
            if let Some(name) = row_number {
                fields.push(Arc::new(Field::new(name, DataType::Int64, false)));
            }
            Arc::new(Schema::new(fields).with_metadata(self.arrow.schema.metadata.clone()))
        };
        Projection {
            items,
            columns,
            schema,
            row_number: row_number.is_some(),
            leaf_targets,
        }
    }

    /// The projection of the fields `names` (`None`: all): top-level names, or dotted paths
    /// into structs; with a row-number column named `row_number` after them. An unknown name,
    /// or a row-number column named like a selected field, is an error naming it.
    pub(crate) fn project(
        &self,
        names: Option<&[String]>,
        row_number: Option<&str>,
    ) -> Result<Projection> {
        let fields = &self.arrow.schema.fields;
        let Some(names) = names else {
            if let Some(name) = row_number
                && fields.iter().any(|f| f.name() == name)
            {
                return Err(row_number_clash(name));
            }
            let mut p = self.project_all();
            if row_number.is_some() {
                p = self.projection(p.items, row_number, false);
            }
            return Ok(p);
        };
        // Per top-level field, in the order first named: the paths asked for inside it (an
        // empty path: the whole field).
        let mut wanted: Vec<(usize, Vec<Vec<&str>>)> = Vec::new();
        for n in names {
            let (f, rest) = match fields.iter().position(|f| f.name() == n) {
                Some(f) => (f, Vec::new()),
                None => {
                    let mut parts = n.split('.');
                    let top = parts.next().unwrap_or_default();
                    let f = fields
                        .iter()
                        .position(|f| f.name() == top && n.contains('.'))
                        .ok_or_else(|| {
                            let known: Vec<&str> = fields.iter().map(|f| f.name()).collect();
                            Error::invalid(format!(
                                "no column {n:?} (the columns are {})",
                                known.join(", ")
                            ))
                        })?;
                    (f, parts.collect())
                }
            };
            match wanted.iter_mut().find(|(g, _)| *g == f) {
                Some((_, paths)) => paths.push(rest),
                None => wanted.push((f, vec![rest])),
            }
        }
        let items = wanted
            .into_iter()
            .map(|(f, paths)| {
                let name = fields[f].name().to_string();
                prune(&self.arrow.plans[f], &fields[f], &paths, &name)
            })
            .collect::<Result<Vec<_>>>()?;
        if let Some(name) = row_number
            && items.iter().any(|(_, f)| f.name() == name)
        {
            return Err(row_number_clash(name));
        }
        Ok(self.projection(items, row_number, false))
    }
}

fn row_number_clash(name: &str) -> Error {
    Error::invalid(format!(
        "the row-number column {name:?} has the name of a selected column"
    ))
}

/// `field` (built by `plan`, named `shown` in messages) with only the parts `paths` select.
fn prune(
    plan: &Plan,
    field: &FieldRef,
    paths: &[Vec<&str>],
    shown: &str,
) -> Result<(Plan, FieldRef)> {
    if paths.iter().any(|p| p.is_empty()) {
        return Ok((plan.clone(), field.clone()));
    }
    let with_type = |t: DataType| Arc::new(field.as_ref().clone().with_data_type(t));
    match (plan, field.data_type()) {
        (Plan::Struct { node, children }, DataType::Struct(fields)) => {
            for p in paths {
                if !fields.iter().any(|f| f.name() == p[0]) {
                    let known: Vec<&str> = fields.iter().map(|f| f.name()).collect();
                    return Err(Error::invalid(format!(
                        "no field {:?} in {shown:?} (its fields are {})",
                        p[0],
                        known.join(", ")
                    )));
                }
            }
            let mut plans = Vec::new();
            let mut kept = Vec::new();
            for (child, f) in children.iter().zip(fields.iter()) {
                let sub: Vec<Vec<&str>> = paths
                    .iter()
                    .filter(|p| p[0] == f.name())
                    .map(|p| p[1..].to_vec())
                    .collect();
                if !sub.is_empty() {
                    let (p, f) = prune(child, f, &sub, &format!("{shown}.{}", f.name()))?;
                    plans.push(p);
                    kept.push(f);
                }
            }
            let plan = Plan::Struct {
                node: *node,
                children: plans,
            };
            Ok((plan, with_type(DataType::Struct(Fields::from(kept)))))
        }
        (
            Plan::List {
                node,
                repeated,
                element,
            },
            t,
        ) => {
            type Rebuild = Box<dyn Fn(FieldRef) -> DataType>;
            let (e, rebuild): (&FieldRef, Rebuild) = match t {
                DataType::List(e) => (e, Box::new(DataType::List)),
                DataType::LargeList(e) => (e, Box::new(DataType::LargeList)),
                DataType::ListView(e) => (e, Box::new(DataType::ListView)),
                DataType::LargeListView(e) => (e, Box::new(DataType::LargeListView)),
                DataType::FixedSizeList(e, n) => {
                    let n = *n;
                    (e, Box::new(move |e| DataType::FixedSizeList(e, n)))
                }
                t => {
                    return Err(Error::invalid(format!(
                        "{shown:?} is of type {}: fields inside it cannot be selected",
                        format_type(t)
                    )));
                }
            };
            // A path through a list names fields of its elements (no step for the element).
            if !matches!(e.data_type(), DataType::Struct(_))
                && !matches!(**element, Plan::List { .. })
            {
                return Err(Error::invalid(format!(
                    "{shown:?} is of type {}, whose elements have no fields to select {:?} \
                     from (a path through a list names fields of its elements, with no step \
                     for the element itself)",
                    format_type(t),
                    paths[0].join(".")
                )));
            }
            let (p, e) = prune(element, e, paths, shown)?;
            let plan = Plan::List {
                node: *node,
                repeated: *repeated,
                element: Box::new(p),
            };
            Ok((plan, with_type(rebuild(e))))
        }
        (_, t) => Err(Error::invalid(format!(
            "{shown:?} is of type {}, which has no fields to select {:?} from",
            format_type(t),
            paths[0].join(".")
        ))),
    }
}
