//! Sparse and dense unions.

use super::Array;
use super::assert_slice;
use super::list::check_child_type;
use crate::buffer::Buffer;
use crate::datatype::{DataType, UnionFields, UnionMode};
use crate::error::{Error, Result};
use std::sync::Arc;

/// A union: each slot has a type id selecting a child; dense unions also have an offset into
/// that child, sparse unions use the slot's own index. Unions have no validity bitmap: a slot
/// is null when its child's value is.
#[derive(Clone, Debug)]
pub struct UnionArray {
    data_type: DataType,
    type_ids: Buffer<i8>,
    offsets: Option<Buffer<i32>>,
    children: Arc<[Array]>,
    /// Type id → child index (`u8::MAX` for undeclared ids).
    id_table: [u8; 128],
}

impl UnionArray {
    /// Builds a union, checking children against the fields, buffer lengths, and every type id
    /// and dense offset (O(n)).
    pub fn try_new(
        fields: UnionFields,
        mode: UnionMode,
        type_ids: Buffer<i8>,
        offsets: Option<Buffer<i32>>,
        children: Vec<Array>,
    ) -> Result<Self> {
        let a = Self::try_new_deferred(fields, mode, type_ids, offsets, children)?;
        a.check_content()?;
        Ok(a)
    }

    /// Builds a union with structural checks only; type ids and offsets are checked by full
    /// validation (an unchecked bad id makes value access panic, nothing worse).
    pub fn try_new_deferred(
        fields: UnionFields,
        mode: UnionMode,
        type_ids: Buffer<i8>,
        offsets: Option<Buffer<i32>>,
        children: Vec<Array>,
    ) -> Result<Self> {
        if fields.len() != children.len() {
            return Err(Error::oos(format!(
                "union has {} fields but {} children",
                fields.len(),
                children.len()
            )));
        }
        for (i, (f, c)) in fields.fields().iter().zip(&children).enumerate() {
            check_child_type(f, c).map_err(|e| e.context(format!("union child {i}")))?;
        }
        let len = type_ids.len();
        let mut children = children;
        match (mode, &offsets) {
            (UnionMode::Sparse, Some(_)) => {
                return Err(Error::oos("sparse union has an offsets buffer"));
            }
            (UnionMode::Dense, None) => {
                return Err(Error::oos("dense union has no offsets buffer"));
            }
            (UnionMode::Dense, Some(o)) if o.len() != len => {
                return Err(Error::oos(format!(
                    "dense union has {} offsets for {len} type ids",
                    o.len()
                )));
            }
            (UnionMode::Sparse, None) => {
                for (i, c) in children.iter_mut().enumerate() {
                    if c.len() < len {
                        return Err(Error::oos(format!(
                            "sparse union child {i} has {} values but the union has {len}",
                            c.len()
                        )));
                    }
                    if c.len() > len {
                        *c = c.slice(0, len);
                    }
                }
            }
            _ => {}
        }
        let id_table = fields.id_table();
        Ok(UnionArray {
            data_type: DataType::Union(fields, mode),
            type_ids,
            offsets,
            children: children.into(),
            id_table,
        })
    }

    /// Checks every type id is declared and every dense offset is inside its child.
    pub(crate) fn check_content(&self) -> Result<()> {
        for (i, id) in self.type_ids.iter().enumerate() {
            let child = usize::try_from(id)
                .ok()
                .map(|id| self.id_table[id])
                .filter(|&c| c != u8::MAX);
            let Some(child) = child else {
                return Err(Error::oos(format!(
                    "slot {i} has type id {id}, which the union does not declare"
                )));
            };
            if let Some(offsets) = &self.offsets {
                let o = offsets[i];
                let clen = self.children[child as usize].len();
                if o < 0 || o as usize >= clen {
                    return Err(Error::oos(format!(
                        "slot {i} has offset {o} into child {child} which has {clen} values"
                    )));
                }
            }
        }
        Ok(())
    }

    /// Number of slots.
    #[inline]
    pub fn len(&self) -> usize {
        self.type_ids.len()
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The logical type.
    pub fn data_type(&self) -> &DataType {
        &self.data_type
    }
    /// The union's fields and type ids.
    pub fn fields(&self) -> &UnionFields {
        match &self.data_type {
            DataType::Union(f, _) => f,
            _ => unreachable!("union arrays always carry a union type"),
        }
    }
    /// Sparse or dense.
    pub fn mode(&self) -> UnionMode {
        match &self.data_type {
            DataType::Union(_, m) => *m,
            _ => unreachable!("union arrays always carry a union type"),
        }
    }
    /// The type ids.
    pub fn type_ids(&self) -> &Buffer<i8> {
        &self.type_ids
    }
    /// The dense offsets (`None` for sparse unions).
    pub fn offsets(&self) -> Option<&Buffer<i32>> {
        self.offsets.as_ref()
    }
    /// The children.
    pub fn children(&self) -> &[Array] {
        &self.children
    }
    /// Child index of slot `i`.
    #[inline]
    pub fn child_index(&self, i: usize) -> usize {
        let id = self.type_ids[i];
        let c = self.id_table[(id as u8 & 0x7f) as usize];
        assert!(
            id >= 0 && c != u8::MAX,
            "slot {i} has undeclared type id {id}"
        );
        c as usize
    }
    /// Index into the child of slot `i`.
    #[inline]
    pub fn value_offset(&self, i: usize) -> usize {
        match &self.offsets {
            Some(o) => o[i] as usize,
            None => i,
        }
    }
    /// Slot `i` as a one-value slice of its child.
    pub fn value(&self, i: usize) -> Array {
        self.children[self.child_index(i)].slice(self.value_offset(i), 1)
    }
    /// True when slot `i`'s value is null in its child.
    pub fn is_null(&self, i: usize) -> bool {
        self.children[self.child_index(i)].is_null(self.value_offset(i))
    }
    /// Number of null slots (computed by visiting every slot).
    pub fn null_count(&self) -> usize {
        (0..self.len()).filter(|&i| self.is_null(i)).count()
    }
    /// Zero-copy slice. Sparse children are sliced along; dense children are shared.
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        assert_slice(offset, len, self.len());
        let children = match self.offsets {
            Some(_) => self.children.clone(),
            None => self.children.iter().map(|c| c.slice(offset, len)).collect(),
        };
        UnionArray {
            data_type: self.data_type.clone(),
            type_ids: self.type_ids.slice(offset, len),
            offsets: self.offsets.as_ref().map(|o| o.slice(offset, len)),
            children,
            id_table: self.id_table,
        }
    }
}
