//! Builder of sparse and dense unions.

use super::{ArrayBuilder, Builder, make_builder};
use crate::array::{Array, UnionArray};
use crate::buffer::{Buffer, MutableBuffer};
use crate::datatype::{DataType, UnionFields, UnionMode};
use crate::error::{Error, Result};

/// Builds a [`UnionArray`] with one dynamic [`ArrayBuilder`] per field.
///
/// [`UnionBuilder::append`] records a slot of the given type id and returns that child's
/// builder, to which the caller appends exactly one value (or null). A dense union records as
/// the slot's offset the number of slots already given to that child (its length, when every
/// slot received its value); a sparse union appends a null to every other child. [`UnionBuilder::append_null`] appends a null of the first field's type.
///
/// ```
/// use quiver_arrow::builder::UnionBuilder;
/// use quiver_arrow::{DataType, Field, UnionFields};
/// let fields = UnionFields::try_new(vec![5, 7], vec![
///     Field::new("i", DataType::Int32, true),
///     Field::new("s", DataType::Utf8, true),
/// ]).unwrap();
/// let mut b = UnionBuilder::new_dense(fields).unwrap();
/// b.append(5).unwrap().as_primitive_mut::<i32>().unwrap().append_value(1);
/// b.append(7).unwrap().as_string_mut().unwrap().append_value("x");
/// b.append(5).unwrap().as_primitive_mut::<i32>().unwrap().append_value(2);
/// let u = b.finish().unwrap();
/// assert_eq!(u.type_ids().as_slice(), &[5, 7, 5]);
/// assert_eq!(u.offsets().unwrap().as_slice(), &[0, 0, 1]);
/// ```
#[derive(Clone, Debug)]
pub struct UnionBuilder {
    fields: UnionFields,
    mode: UnionMode,
    type_ids: MutableBuffer,
    /// Dense only.
    offsets: MutableBuffer,
    children: Vec<ArrayBuilder>,
    /// Dense only: slots recorded per child (each child must end up exactly this long).
    counts: Vec<usize>,
    id_table: [u8; 128],
}

impl UnionBuilder {
    /// An empty sparse union builder, children made by [`make_builder`].
    pub fn new_sparse(fields: UnionFields) -> Result<Self> {
        Self::with_capacity(fields, UnionMode::Sparse, 0)
    }

    /// An empty dense union builder, children made by [`make_builder`].
    pub fn new_dense(fields: UnionFields) -> Result<Self> {
        Self::with_capacity(fields, UnionMode::Dense, 0)
    }

    /// An empty builder with room for `capacity` slots.
    pub fn with_capacity(fields: UnionFields, mode: UnionMode, capacity: usize) -> Result<Self> {
        let child_capacity = match mode {
            UnionMode::Sparse => capacity,
            UnionMode::Dense => 0,
        };
        let children = fields
            .fields()
            .iter()
            .map(|f| make_builder(f.data_type(), child_capacity))
            .collect::<Result<Vec<_>>>()?;
        let offsets_capacity = match mode {
            UnionMode::Sparse => 0,
            UnionMode::Dense => capacity * 4,
        };
        Ok(UnionBuilder {
            counts: vec![0; children.len()],
            id_table: fields.id_table(),
            fields,
            mode,
            type_ids: MutableBuffer::with_capacity(capacity),
            offsets: MutableBuffer::with_capacity(offsets_capacity),
            children,
        })
    }

    /// The fields and their type ids.
    pub fn fields(&self) -> &UnionFields {
        &self.fields
    }

    /// Sparse or dense.
    pub fn mode(&self) -> UnionMode {
        self.mode
    }

    fn child_index(&self, type_id: i8) -> Result<usize> {
        usize::try_from(type_id)
            .ok()
            .map(|id| self.id_table[id])
            .filter(|&c| c != u8::MAX)
            .map(usize::from)
            .ok_or_else(|| {
                Error::invalid(format!(
                    "type id {type_id} is not one of the union's {:?}",
                    self.fields.type_ids()
                ))
            })
    }

    /// Records a slot of type `type_id` and returns the child builder that must receive its
    /// value; [`Error::InvalidArgument`] for an undeclared id, [`Error::Overflow`] when a
    /// dense child exceeds `i32::MAX` values (builder unchanged on error).
    pub fn append(&mut self, type_id: i8) -> Result<&mut ArrayBuilder> {
        let c = self.child_index(type_id)?;
        match self.mode {
            UnionMode::Dense => {
                let offset = i32::try_from(self.counts[c]).map_err(|_| {
                    Error::overflow(format!("dense union child {c} exceeds i32::MAX values"))
                })?;
                self.offsets.push(offset);
                self.counts[c] += 1;
            }
            UnionMode::Sparse => {
                for (i, other) in self.children.iter_mut().enumerate() {
                    if i != c {
                        other.append_null();
                    }
                }
            }
        }
        self.type_ids.push(type_id);
        Ok(&mut self.children[c])
    }

    /// Appends a null slot: a null of the first field's type.
    ///
    /// # Panics
    /// When the union has no fields (it cannot hold any slot).
    pub fn append_null(&mut self) {
        let Some(&first) = self.fields.type_ids().first() else {
            panic!("a union without fields cannot hold a null slot");
        };
        match self.append(first) {
            Ok(child) => child.append_null(),
            Err(e) => panic!("{e}"),
        }
    }

    /// The builder of the child with type id `type_id`, for direct access (appending to it
    /// without [`UnionBuilder::append`] breaks the layout and makes `finish` fail).
    pub fn child(&mut self, type_id: i8) -> Option<&mut ArrayBuilder> {
        let c = self.child_index(type_id).ok()?;
        self.children.get_mut(c)
    }

    /// Number of slots appended.
    #[inline]
    pub fn len(&self) -> usize {
        self.type_ids.len()
    }

    /// True when no slot has been appended.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Builds the array and resets the builder, or returns the [`Builder::check_finish`]
    /// error (e.g. a slot whose value was never appended to its child), leaving the builder
    /// unchanged.
    pub fn finish(&mut self) -> Result<UnionArray> {
        Builder::check_finish(self)?;
        Ok(self.finish_checked())
    }

    fn finish_checked(&mut self) -> UnionArray {
        let type_ids = Buffer::from(std::mem::take(&mut self.type_ids));
        let offsets = match self.mode {
            UnionMode::Dense => Some(Buffer::from(std::mem::take(&mut self.offsets))),
            UnionMode::Sparse => None,
        };
        self.counts.fill(0);
        let children = self.children.iter_mut().map(|c| c.finish_array()).collect();
        // Ids come from the declared ones and dense offsets are each child's length at the
        // time (children checked to have exactly the recorded count), so the O(n) content
        // check of `try_new` is skipped.
        UnionArray::try_new_deferred(self.fields.clone(), self.mode, type_ids, offsets, children)
            .expect("checked by check_finish") // ok: checked by check_finish.
    }

    fn expected_len(&self, child: usize) -> usize {
        match self.mode {
            UnionMode::Sparse => self.len(),
            UnionMode::Dense => self.counts[child],
        }
    }
}

impl Builder for UnionBuilder {
    fn len(&self) -> usize {
        self.len()
    }
    fn data_type(&self) -> DataType {
        DataType::Union(self.fields.clone(), self.mode)
    }
    fn append_null(&mut self) {
        self.append_null()
    }
    fn check_finish(&self) -> Result<()> {
        let fields = self.fields.fields().iter();
        for (i, (f, c)) in fields.zip(&self.children).enumerate() {
            c.check_finish()?;
            if c.len() != self.expected_len(i) {
                return Err(Error::invalid(format!(
                    "union child \"{}\" has {} values but {} slots were recorded for it",
                    f.name(),
                    c.len(),
                    self.expected_len(i)
                )));
            }
            if f.data_type() != &c.data_type() {
                return Err(Error::invalid(format!(
                    "union child \"{}\" is declared {} but its builder builds {}",
                    f.name(),
                    f.data_type(),
                    c.data_type()
                )));
            }
        }
        Ok(())
    }
    fn finish_array(&mut self) -> Array {
        if let Err(e) = Builder::check_finish(self) {
            panic!("UnionBuilder::finish: {e}");
        }
        Array::from(self.finish_checked())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::tests::{assert_aligned, assert_valid};
    use crate::datatype::Field;

    fn fields() -> UnionFields {
        UnionFields::try_new(
            vec![0, 1],
            vec![
                Field::new("f", DataType::Float32, true),
                Field::new("i", DataType::Int32, true),
            ],
        )
        .unwrap()
    }

    fn push(b: &mut UnionBuilder, v: Option<Result<f32, i32>>) {
        match v {
            Some(Ok(f)) => b
                .append(0)
                .unwrap()
                .as_primitive_mut()
                .unwrap()
                .append_value(f),
            Some(Err(i)) => b
                .append(1)
                .unwrap()
                .as_primitive_mut()
                .unwrap()
                .append_value(i),
            None => b.append_null(),
        }
    }

    #[test]
    fn dense_matches_spec() {
        // Spec example: dense union of f: Float32, i: Int32 with [{f=1.2}, null, {f=3.4}, {i=5}].
        let mut b = UnionBuilder::new_dense(fields()).unwrap();
        for v in [Some(Ok(1.2)), None, Some(Ok(3.4)), Some(Err(5))] {
            push(&mut b, v);
        }
        let u = b.finish().unwrap();
        assert_eq!(u.type_ids().as_slice(), &[0, 0, 0, 1]);
        assert_eq!(u.offsets().unwrap().as_slice(), &[0, 1, 2, 0]);
        let f = u.children()[0].as_primitive::<f32>().unwrap();
        assert_eq!(f.values().as_slice(), &[1.2, 0.0, 3.4]);
        assert_eq!(&f.validity().unwrap().bytes()[..], &[0b101]);
        let i = u.children()[1].as_primitive::<i32>().unwrap();
        assert_eq!(i.values().as_slice(), &[5]);
        assert!(i.validity().is_none());
        assert_aligned(u.type_ids().bytes());
        assert_aligned(u.offsets().unwrap().bytes());
        assert_eq!(u.null_count(), 1);
        assert_valid(&Array::from(u));
    }

    #[test]
    fn sparse_matches_spec() {
        // Spec example: sparse union of f: Float32, i: Int32 with [{i=5}, {f=1.2}, {f=null}, {i=4}].
        let mut b = UnionBuilder::new_sparse(fields()).unwrap();
        push(&mut b, Some(Err(5)));
        push(&mut b, Some(Ok(1.2)));
        b.append(0).unwrap().append_null();
        push(&mut b, Some(Err(4)));
        let u = b.finish().unwrap();
        assert_eq!(u.type_ids().as_slice(), &[1, 0, 0, 1]);
        assert!(u.offsets().is_none());
        let f = u.children()[0].as_primitive::<f32>().unwrap();
        assert_eq!(f.values().as_slice(), &[0.0, 1.2, 0.0, 0.0]);
        assert_eq!(&f.validity().unwrap().bytes()[..], &[0b0010]);
        let i = u.children()[1].as_primitive::<i32>().unwrap();
        assert_eq!(i.values().as_slice(), &[5, 0, 0, 4]);
        assert_eq!(&i.validity().unwrap().bytes()[..], &[0b1001]);
        assert_valid(&Array::from(u));
    }

    #[test]
    fn misuse_is_an_error() {
        let mut b = UnionBuilder::new_dense(fields()).unwrap();
        assert!(b.append(3).is_err());
        assert!(b.append(-1).is_err());
        assert!(b.is_empty());
        b.append(1).unwrap(); // no value appended to the child
        let err = b.finish().unwrap_err();
        assert!(err.to_string().contains("1 slots were recorded"), "{err}");
        b.child(1).unwrap().append_null();
        let u = b.finish().unwrap();
        assert_eq!(u.len(), 1);
        assert!(b.is_empty());
        assert_valid(&Array::from(u));
    }
}
