//! Which field each node and buffer of a batch belongs to, by walking the schema in the
//! order of the Arrow columnar format (the buffers of each type come from the layout table,
//! [`DataType::layout`]).

use super::{MessageHeader, MessageInfo};
use crate::schema::{IpcSchema, path_name};
use quiver_arrow::datatype::BufferKind;
use quiver_arrow::{DataType, Error, Result};

/// What a buffer holds: one of the type's buffers (the layout table's kinds; the validity slot
/// of a union before metadata V5 is [`BufferKind::Validity`]), or a view's variadic data buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferRole {
    /// A buffer of the type's layout.
    Fixed(BufferKind),
    /// Variadic data buffer `k` of a binary or string view.
    VariadicData(usize),
}

impl std::fmt::Display for BufferRole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BufferRole::Fixed(kind) => f.write_str(kind.name()),
            BufferRole::VariadicData(k) => write!(f, "data[{k}]"),
        }
    }
}

/// One buffer of a batch, labelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferLabel {
    /// Index of the buffer in the message.
    pub index: usize,
    /// What it holds.
    pub role: BufferRole,
    /// Offset in the body.
    pub offset: i64,
    /// Length in the body (compressed length, prefix included, when the body is compressed).
    pub length: i64,
    /// Compressed bodies: the declared uncompressed length (`-1`: stored raw), when known.
    pub uncompressed_length: Option<i64>,
}

/// One field node of a batch and its buffers.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldLayout {
    /// Field names from the root, joined by `.`.
    pub path: String,
    /// Child indices from the schema root, the convention of
    /// [`DictionaryFields`](crate::DictionaryFields) (for a dictionary batch, from the path of
    /// the first field using its id).
    pub field_path: Vec<usize>,
    /// Nesting depth (0 for a column or a dictionary's values).
    pub depth: usize,
    /// The field's type.
    pub data_type: DataType,
    /// Node length.
    pub length: i64,
    /// Node null count.
    pub null_count: i64,
    /// The field's buffers, in order.
    pub buffers: Vec<BufferLabel>,
}

/// The field nodes and buffers of a record or dictionary batch, labelled with the field they
/// belong to, in pre-order. A dictionary batch is labelled with the value type of the first
/// field using its id. Other messages have none. Fails when the message does not have the
/// nodes, buffers and variadic counts the schema needs.
pub fn label_buffers(schema: &IpcSchema, info: &MessageInfo) -> Result<Vec<FieldLayout>> {
    let mut walk = Labeler {
        info,
        v4_unions: info.version < 4,
        next_node: 0,
        next_buffer: 0,
        next_variadic: 0,
        out: Vec::new(),
    };
    match info.header {
        MessageHeader::RecordBatch => {
            for (i, f) in schema.schema.fields.iter().enumerate() {
                let at = Position {
                    path: f.name().to_string(),
                    field_path: vec![i],
                    depth: 0,
                };
                walk.field(at, f.data_type())?;
            }
        }
        MessageHeader::DictionaryBatch => {
            let id = info.dictionary_id.unwrap_or_default();
            let types = schema.dictionaries.value_types(&schema.schema)?;
            let (value, path) = types.get(&id).ok_or_else(|| {
                Error::oos(format!("no field of the schema has dictionary id {id}"))
            })?;
            let at = Position {
                path: path_name(&schema.schema, path),
                field_path: path.clone(),
                depth: 0,
            };
            walk.field(at, value)?;
        }
        _ => return Ok(Vec::new()),
    }
    walk.finish()
}

/// The buffers a field of type `dt` has, before any variadic buffers: the layout table's,
/// after the validity slot unions had before metadata V5.
fn roles(dt: &DataType, v4_unions: bool) -> Vec<BufferRole> {
    let v4_slot = v4_unions && matches!(dt, DataType::Union(..));
    let layout = dt.layout();
    let kinds = v4_slot.then_some(BufferKind::Validity).into_iter();
    let kinds = kinds.chain(layout.buffers.iter().copied());
    kinds.map(BufferRole::Fixed).collect()
}

/// Where a field is: its names, its indices and its depth.
struct Position {
    path: String,
    field_path: Vec<usize>,
    depth: usize,
}

/// The walk over one message's nodes, buffers and variadic counts.
struct Labeler<'a> {
    info: &'a MessageInfo,
    v4_unions: bool,
    next_node: usize,
    next_buffer: usize,
    next_variadic: usize,
    out: Vec<FieldLayout>,
}

impl Labeler<'_> {
    /// Labels the field at `at` and its children.
    fn field(&mut self, at: Position, dt: &DataType) -> Result<()> {
        let path = &at.path;
        let i = self.next_node;
        let &(length, null_count) = self
            .info
            .nodes
            .get(i)
            .ok_or_else(|| Error::oos(format!("field {path}: field node {i} is missing")))?;
        self.next_node += 1;
        let mut buffers = Vec::new();
        for role in roles(dt, self.v4_unions) {
            buffers.push(self.buffer(role, path)?);
        }
        if dt.layout().variadic {
            self.variadic(path, &mut buffers)?;
        }
        self.out.push(FieldLayout {
            path: path.clone(),
            field_path: at.field_path.clone(),
            depth: at.depth,
            data_type: dt.clone(),
            length,
            null_count,
            buffers,
        });
        for (j, c) in dt.layout().children.iter().enumerate() {
            let mut field_path = at.field_path.clone();
            field_path.push(j);
            let child = Position {
                path: format!("{path}.{}", c.name()),
                field_path,
                depth: at.depth + 1,
            };
            self.field(child, c.data_type())?;
        }
        Ok(())
    }

    /// The data buffers of a view field, as many as its variadic count says.
    fn variadic(&mut self, path: &str, buffers: &mut Vec<BufferLabel>) -> Result<()> {
        let k = self.next_variadic;
        let &count = self.info.variadic_counts.get(k).ok_or_else(|| {
            Error::oos(format!(
                "field {path}: variadic buffer count {k} is missing"
            ))
        })?;
        self.next_variadic += 1;
        let available = self.info.buffers.len().saturating_sub(self.next_buffer);
        let n = usize::try_from(count).ok().filter(|&n| n <= available);
        let n = n.ok_or_else(|| {
            Error::oos(format!(
                "field {path}: variadic buffer count {count}, but {available} buffers are left"
            ))
        })?;
        for j in 0..n {
            buffers.push(self.buffer(BufferRole::VariadicData(j), path)?);
        }
        Ok(())
    }

    /// The next buffer, labelled `role`.
    fn buffer(&mut self, role: BufferRole, path: &str) -> Result<BufferLabel> {
        let index = self.next_buffer;
        let &(offset, length) = self.info.buffers.get(index).ok_or_else(|| {
            Error::oos(format!("field {path}: buffer {index} ({role}) is missing"))
        })?;
        self.next_buffer += 1;
        Ok(BufferLabel {
            index,
            role,
            offset,
            length,
            uncompressed_length: self.info.uncompressed_lengths.get(index).copied().flatten(),
        })
    }

    /// The labels, after checking that every node, buffer and variadic count was used.
    fn finish(self) -> Result<Vec<FieldLayout>> {
        let info = self.info;
        let used = (self.next_node, self.next_buffer, self.next_variadic);
        let have = (
            info.nodes.len(),
            info.buffers.len(),
            info.variadic_counts.len(),
        );
        if used != have {
            return Err(Error::oos(format!(
                "the schema uses {} field nodes, {} buffers and {} variadic counts but the \
                 message has {}, {} and {}",
                used.0, used.1, used.2, have.0, have.1, have.2
            )));
        }
        Ok(self.out)
    }
}
