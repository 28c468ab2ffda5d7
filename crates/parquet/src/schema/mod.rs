//! The Parquet schema as a tree, and each leaf column's descriptor: its path, the repetition of
//! every node down to it (which fixes its maximum definition and repetition levels) and its
//! physical type.
//!
//! The tree keeps the structure; the annotations (logical and converted types, decimal scale
//! and precision, field ids) stay in the `SchemaElement`s it was built from, which share its
//! indices, so nothing is copied twice.

use crate::format::{FieldRepetitionType, SchemaElement, Type};
use crate::levels::assemble::{Path, Repetition};
use quiver_arrow::{Error, Result};

/// One node of the schema tree; node `i` is schema element `i`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaNode<'a> {
    /// The field name (borrowed from the footer's bytes).
    pub name: &'a str,
    /// How it repeats (the root is `Required`).
    pub repetition: Repetition,
    /// Children, in order (empty for a leaf).
    pub children: Vec<usize>,
    /// The leaf column index, for a leaf.
    pub column: Option<usize>,
}

/// A leaf column.
#[derive(Debug, Clone)]
pub struct ColumnDescriptor<'a> {
    /// Field names from the root's child down to the leaf (borrowed from the footer's bytes).
    pub path: Vec<&'a str>,
    /// Node indices from the root's child down to the leaf.
    pub nodes: Vec<usize>,
    /// The physical type.
    pub physical: Type,
    /// The byte width of FIXED_LEN_BYTE_ARRAY values (0 otherwise).
    pub type_length: usize,
    /// The levels of the path (shared by the columns whose paths repeat alike).
    pub levels: std::sync::Arc<Path>,
}

impl ColumnDescriptor<'_> {
    /// The maximum definition level.
    pub fn max_def(&self) -> i16 {
        self.levels.max_def()
    }

    /// The maximum repetition level.
    pub fn max_rep(&self) -> i16 {
        self.levels.max_rep()
    }

    /// The dotted path, as tools print it (`a.list.element`).
    pub fn dotted_path(&self) -> String {
        self.path.join(".")
    }
}

/// The schema tree and its leaf columns.
#[derive(Debug, Clone)]
pub struct SchemaDescriptor<'a> {
    nodes: Vec<SchemaNode<'a>>,
    columns: Vec<ColumnDescriptor<'a>>,
}

/// Deepest nesting accepted (each level is a node on a path; levels are `i16`).
const MAX_DEPTH: usize = 1000;

impl<'a> SchemaDescriptor<'a> {
    /// Builds the tree from the depth-first element list (the root first); names are
    /// borrowed from the elements' bytes, not copied.
    pub fn new(elements: &[SchemaElement<'a>]) -> Result<SchemaDescriptor<'a>> {
        if elements.is_empty() {
            return Err(Error::oos("the schema has no root element"));
        }
        let mut b = Builder {
            elements,
            nodes: Vec::with_capacity(elements.len()),
            columns: Vec::with_capacity(elements.len()),
            stack: Vec::new(),
            paths: Vec::new(),
        };
        b.node(0, 0)?;
        if b.nodes.len() != elements.len() {
            return Err(Error::oos(format!(
                "the schema's root covers {} of its {} elements",
                b.nodes.len(),
                elements.len()
            )));
        }
        Ok(SchemaDescriptor {
            nodes: b.nodes,
            columns: b.columns,
        })
    }

    /// Node `i` (element `i`).
    pub fn node(&self, i: usize) -> &SchemaNode<'a> {
        &self.nodes[i]
    }

    /// The root's children.
    pub fn fields(&self) -> &[usize] {
        &self.nodes[0].children
    }

    /// The leaf columns, in column-chunk order.
    pub fn columns(&self) -> &[ColumnDescriptor<'a>] {
        &self.columns
    }

    /// The number of nodes (elements).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the schema is only a root.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// The leaf columns under node `i` (all of them for the root), as a range of column indices.
    pub fn column_range(&self, i: usize) -> std::ops::Range<usize> {
        let mut first = i;
        while let Some(&c) = self.nodes[first].children.first() {
            first = c;
        }
        let mut last = i;
        while let Some(&c) = self.nodes[last].children.last() {
            last = c;
        }
        match (self.nodes[first].column, self.nodes[last].column) {
            (Some(a), Some(b)) => a..b + 1,
            // A group without leaves (an empty group).
            _ => 0..0,
        }
    }
}

struct Builder<'e, 'a> {
    elements: &'e [SchemaElement<'a>],
    nodes: Vec<SchemaNode<'a>>,
    columns: Vec<ColumnDescriptor<'a>>,
    /// Node indices from the root's child down to the current node.
    stack: Vec<usize>,
    /// The distinct level paths so far (most schemas have a handful), shared by columns.
    paths: Vec<std::sync::Arc<Path>>,
}

impl<'a> Builder<'_, 'a> {
    /// Adds element `i` and its subtree; returns the index after it.
    fn node(&mut self, i: usize, depth: usize) -> Result<usize> {
        let e = &self.elements[i];
        let at = || format!("schema element {i} ({:?})", e.name);
        if depth > MAX_DEPTH {
            return Err(Error::oos(format!(
                "{}: nested deeper than {MAX_DEPTH}",
                at()
            )));
        }
        let repetition = if i == 0 {
            Repetition::Required
        } else {
            match e.repetition_type {
                Some(FieldRepetitionType::REQUIRED) => Repetition::Required,
                Some(FieldRepetitionType::OPTIONAL) => Repetition::Optional,
                Some(FieldRepetitionType::REPEATED) => Repetition::Repeated,
                other => {
                    return Err(Error::oos(format!("{}: repetition {other:?}", at())));
                }
            }
        };
        self.nodes.push(SchemaNode {
            name: e.name,
            repetition,
            children: Vec::new(),
            column: None,
        });
        if i > 0 {
            self.stack.push(i);
        }
        let leaf = i > 0 && e.is_leaf();
        let mut next = i + 1;
        if leaf {
            self.leaf(i)?;
        } else {
            let n = e.num_children.unwrap_or(0);
            if n < 0 {
                return Err(Error::oos(format!("{}: {n} children", at())));
            }
            // The children fit the elements left (checked as they are read); room for them
            // at once.
            let room = (n as usize).min(self.elements.len() - next);
            self.nodes[i].children.reserve_exact(room);
            for _ in 0..n {
                if next >= self.elements.len() {
                    return Err(Error::oos(format!(
                        "{}: declares {n} children, the schema ends first",
                        at()
                    )));
                }
                self.nodes[i].children.push(next);
                next = self.node(next, depth + 1)?;
            }
        }
        if i > 0 {
            self.stack.pop();
        }
        Ok(next)
    }

    fn leaf(&mut self, i: usize) -> Result<()> {
        let e = &self.elements[i];
        let physical = match e.type_ {
            Some(Type::Unknown(t)) => {
                return Err(Error::oos(format!(
                    "leaf {:?} has unknown physical type {t}",
                    e.name
                )));
            }
            Some(t) => t,
            None => {
                return Err(Error::oos(format!(
                    "leaf {:?} has no physical type",
                    e.name
                )));
            }
        };
        let type_length = match physical {
            Type::FIXED_LEN_BYTE_ARRAY => match e.type_length {
                Some(n) if n > 0 => n as usize,
                other => {
                    return Err(Error::oos(format!(
                        "FIXED_LEN_BYTE_ARRAY leaf {:?} has type_length {other:?}",
                        e.name
                    )));
                }
            },
            _ => 0,
        };
        let nodes = &self.nodes;
        let same = |p: &Path| {
            p.nodes().len() == self.stack.len()
                && p.nodes()
                    .iter()
                    .zip(&self.stack)
                    .all(|(r, &n)| *r == nodes[n].repetition)
        };
        let levels = match self.paths.iter().find(|p| same(p)) {
            Some(p) => p.clone(),
            None => {
                let reps: Vec<Repetition> =
                    self.stack.iter().map(|&n| nodes[n].repetition).collect();
                let p = std::sync::Arc::new(Path::new(&reps)?);
                self.paths.push(p.clone());
                p
            }
        };
        let column = self.columns.len();
        self.nodes[i].column = Some(column);
        self.columns.push(ColumnDescriptor {
            path: self.stack.iter().map(|&n| self.nodes[n].name).collect(),
            nodes: self.stack.clone(),
            physical,
            type_length,
            levels,
        });
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests;
