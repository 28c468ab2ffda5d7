//! One `FieldData` object as the reader sees it: its `count`, its buffers taken by
//! [`BufferKind`] (only those its type's layout lists, under the names of `members.rs`), and
//! its `children`.

use super::members::{CHILDREN, VARIADIC, member};
use super::value::{Object, array_member, as_object, int_member, json_bool, kind};
use quiver_arrow::datatype::BufferKind;
use quiver_arrow::{Bitmap, DataType, Error, Result};
use serde_json::Value;
use std::cell::Cell;

/// One `FieldData` object of a column of a known type.
pub(crate) struct Node<'a> {
    obj: &'a Object,
    /// The `count` member: the array's length.
    pub len: usize,
    /// The buffers of the type's layout.
    buffers: &'static [BufferKind],
    /// True when the layout has variadic data buffers.
    variadic: bool,
    /// The kinds taken so far (bit `kind as u8`).
    taken: Cell<u8>,
}

impl<'a> Node<'a> {
    /// Reads the object and its `count`; `dt` says which buffers it has.
    pub fn new(v: &'a Value, dt: &DataType) -> Result<Self> {
        let obj = as_object(v, "column data")?;
        // Lengths are 64-bit signed in the format; bounding them keeps `len + 1` exact.
        let count: i64 = int_member(obj, "count")?;
        let len = usize::try_from(count)
            .map_err(|_| Error::oos(format!("\"count\" {count} is negative or too large")))?;
        let layout = dt.layout();
        Ok(Node {
            obj,
            len,
            buffers: layout.buffers,
            variadic: layout.variadic,
            taken: Cell::new(0),
        })
    }

    /// The `name` member, when present.
    pub fn name(&self) -> Option<&'a str> {
        self.obj.get("name").and_then(Value::as_str)
    }

    /// The member of buffer `kind`, which the layout must list (a reader asking for another
    /// is an internal error).
    fn take(&self, kind: BufferKind) -> Result<&'static str> {
        if !self.buffers.contains(&kind) {
            return Err(Error::not_supported(format!(
                "the layout has no {kind} buffer (internal error)"
            )));
        }
        self.taken.set(self.taken.get() | 1 << kind as u8);
        Ok(member(kind))
    }

    /// The buffers of the layout not taken yet (none once a column is decoded).
    pub fn untaken(&self) -> Vec<BufferKind> {
        let taken = self.taken.get();
        let untaken = |k: &&BufferKind| taken & 1 << **k as u8 == 0;
        self.buffers.iter().filter(untaken).copied().collect()
    }

    /// Buffer `kind`, which must be an array of `expected` entries.
    pub fn buffer(&self, kind: BufferKind, expected: usize) -> Result<&'a [Value]> {
        let key = self.take(kind)?;
        self.array(key, expected)
    }

    /// Buffer `kind` of `expected` entries, each decoded by `parse` (errors name the entry).
    pub fn values<T>(
        &self,
        kind: BufferKind,
        expected: usize,
        parse: impl Fn(&Value) -> Result<T>,
    ) -> Result<Vec<T>> {
        let key = self.take(kind)?;
        self.decode(key, expected, parse)
    }

    /// The validity bitmap: `None` when its member is absent or every slot is valid.
    pub fn validity(&self) -> Result<Option<Bitmap>> {
        let key = self.take(BufferKind::Validity)?;
        self.bits(key)
    }

    /// Member `key`, which must be an array of `expected` entries.
    fn array(&self, key: &str, expected: usize) -> Result<&'a [Value]> {
        let b = array_member(self.obj, key)?;
        if b.len() != expected {
            return Err(Error::oos(format!(
                "{key} has {} entries, expected {expected} (count is {})",
                b.len(),
                self.len
            )));
        }
        Ok(b)
    }

    /// Member `key` of `expected` entries, each decoded by `parse`.
    fn decode<T>(
        &self,
        key: &str,
        expected: usize,
        parse: impl Fn(&Value) -> Result<T>,
    ) -> Result<Vec<T>> {
        self.array(key, expected)?
            .iter()
            .enumerate()
            .map(|(i, v)| parse(v).map_err(|e| e.context(format!("{key}[{i}]"))))
            .collect()
    }

    /// Member `key` as one bit per slot: `None` when absent or when every bit is set.
    fn bits(&self, key: &str) -> Result<Option<Bitmap>> {
        if self.obj.get(key).is_none_or(Value::is_null) {
            return Ok(None);
        }
        let bits = self.decode(key, self.len, json_bool)?;
        Ok(bits.iter().any(|b| !b).then(|| bits.into_iter().collect()))
    }

    /// Checks the validity bitmap a union had before format 1.0 (files of 0.17), which its
    /// layout no longer lists: accepted when absent or when it marks no slot null, as it then
    /// adds nothing.
    pub fn check_pre_v1_union_validity(&self) -> Result<()> {
        if self.bits(member(BufferKind::Validity))?.is_some() {
            return Err(Error::not_supported(
                "a union with nulls in its own VALIDITY (pre-1.0 unions); nulls are in the children now"
                    .to_string(),
            ));
        }
        Ok(())
    }

    /// The variadic data buffers (any number), which the layout must have.
    pub fn variadic(&self) -> Result<&'a [Value]> {
        if !self.variadic {
            return Err(Error::not_supported(
                "the layout has no variadic buffers (internal error)".to_string(),
            ));
        }
        array_member(self.obj, VARIADIC)
    }

    /// The `children` array, which must have `n` entries (absent counts as empty).
    pub fn children(&self, n: usize) -> Result<&'a [Value]> {
        let children = match self.obj.get(CHILDREN) {
            None | Some(Value::Null) => &[][..],
            Some(Value::Array(c)) => c.as_slice(),
            Some(other) => {
                return Err(Error::oos(format!(
                    "\"{CHILDREN}\" must be an array, not {}",
                    kind(other)
                )));
            }
        };
        if children.len() != n {
            return Err(Error::oos(format!(
                "{} children, expected {n}",
                children.len()
            )));
        }
        Ok(children)
    }
}
