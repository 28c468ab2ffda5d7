//! The layout table: which buffers and children each [`DataType`] has, as data.
//!
//! This is the one place that knows the columnar format's "Buffer Layouts" section. Readers and
//! writers of every format (IPC decode and encode, the IPC inspector's labels, the integration
//! JSON reader and writer) walk a type's [`Layout`] instead of writing the list out again.
//!
//! | type | buffers | children |
//! |---|---|---|
//! | Null | – | – |
//! | Boolean, primitives, decimals, intervals, FixedSizeBinary | validity, values | – |
//! | Binary, Utf8 (and `Large`) | validity, offsets, data | – |
//! | BinaryView, Utf8View | validity, views, then a variable number of data buffers | – |
//! | List, LargeList, Map | validity, offsets | the item (Map: the `entries` struct) |
//! | ListView, LargeListView | validity, offsets, sizes | the item |
//! | FixedSizeList, Struct | validity | the item / the fields |
//! | Union | type ids (+ offsets when dense) | the fields |
//! | Dictionary | validity, indices | – (the values are a separate array) |
//! | RunEndEncoded | – | run ends, values |

use super::{DataType, FieldRef, UnionMode};

/// What one buffer of a physical layout holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferKind {
    /// The validity bitmap (one bit per slot, LSB first).
    Validity,
    /// Fixed-width values, or the value bits of a boolean array.
    Values,
    /// Integer indices of a dictionary-encoded array.
    Indices,
    /// Offsets: of variable-size binary values, list items, list views, or dense union slots.
    Offsets,
    /// List-view sizes.
    Sizes,
    /// The bytes of variable-size binary or string values.
    Data,
    /// The 16-byte views of a binary or string view array.
    Views,
    /// Union type ids.
    TypeIds,
}

impl BufferKind {
    /// A short lowercase name for messages and labels ("validity", "type ids").
    pub fn name(self) -> &'static str {
        match self {
            BufferKind::Validity => "validity",
            BufferKind::Values => "values",
            BufferKind::Indices => "indices",
            BufferKind::Offsets => "offsets",
            BufferKind::Sizes => "sizes",
            BufferKind::Data => "data",
            BufferKind::Views => "views",
            BufferKind::TypeIds => "type ids",
        }
    }
}

impl std::fmt::Display for BufferKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The physical children of a type, borrowed from it (no allocation).
#[derive(Clone, Copy, Debug)]
pub enum Children<'a> {
    /// Flat types and dictionaries.
    None,
    /// Lists, list views, fixed-size lists and maps.
    One(&'a FieldRef),
    /// Run-end encoded: run ends, then values.
    Two(&'a FieldRef, &'a FieldRef),
    /// Structs and unions.
    Many(&'a [FieldRef]),
}

impl<'a> Children<'a> {
    /// Number of children.
    pub fn len(&self) -> usize {
        match self {
            Children::None => 0,
            Children::One(_) => 1,
            Children::Two(..) => 2,
            Children::Many(f) => f.len(),
        }
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Child `i`.
    pub fn get(&self, i: usize) -> Option<&'a FieldRef> {
        match (*self, i) {
            (Children::One(f), 0) | (Children::Two(f, _), 0) | (Children::Two(_, f), 1) => Some(f),
            (Children::Many(fs), i) => fs.get(i),
            _ => None,
        }
    }

    /// The children in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &'a FieldRef> + use<'a> {
        let this = *self;
        (0..this.len()).map(move |i| this.get(i).expect("index below len")) // ok: i < len
    }
}

/// The buffers and children of one type's physical layout.
///
/// ```
/// use quiver_arrow::DataType;
/// use quiver_arrow::datatype::BufferKind;
/// let l = DataType::Utf8View.layout();
/// assert_eq!(l.buffers, [BufferKind::Validity, BufferKind::Views]);
/// assert!(l.variadic);
/// let list = DataType::list_of(DataType::Int32);
/// let l = list.layout();
/// assert_eq!(l.buffers, [BufferKind::Validity, BufferKind::Offsets]);
/// assert_eq!(l.children.get(0).unwrap().data_type(), &DataType::Int32);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Layout<'a> {
    /// The fixed buffers, in the order the format stores them.
    pub buffers: &'static [BufferKind],
    /// True when a variable number of data buffers follows `buffers` (the view types).
    pub variadic: bool,
    /// The physical children, in order.
    pub children: Children<'a>,
}

impl Layout<'_> {
    /// Position of the first buffer of `kind`, if the layout has one.
    pub fn position(&self, kind: BufferKind) -> Option<usize> {
        self.buffers.iter().position(|&k| k == kind)
    }

    /// True when the layout starts with a validity bitmap.
    pub fn has_validity(&self) -> bool {
        self.buffers.first() == Some(&BufferKind::Validity)
    }
}

use BufferKind as K;

const NONE: &[BufferKind] = &[];
const VALIDITY: &[BufferKind] = &[K::Validity];
const FIXED: &[BufferKind] = &[K::Validity, K::Values];
const VARIABLE: &[BufferKind] = &[K::Validity, K::Offsets, K::Data];
const VIEWS: &[BufferKind] = &[K::Validity, K::Views];
const LIST: &[BufferKind] = &[K::Validity, K::Offsets];
const LIST_VIEW: &[BufferKind] = &[K::Validity, K::Offsets, K::Sizes];
const SPARSE: &[BufferKind] = &[K::TypeIds];
const DENSE: &[BufferKind] = &[K::TypeIds, K::Offsets];
const DICTIONARY: &[BufferKind] = &[K::Validity, K::Indices];

impl DataType {
    /// The type's physical layout: buffers and children (see the table in `datatype/layout.rs`).
    pub fn layout(&self) -> Layout<'_> {
        use DataType as D;
        let (buffers, children) = match self {
            D::Null => (NONE, Children::None),
            D::Boolean
            | D::Int8
            | D::Int16
            | D::Int32
            | D::Int64
            | D::UInt8
            | D::UInt16
            | D::UInt32
            | D::UInt64
            | D::Float16
            | D::Float32
            | D::Float64
            | D::Decimal32 { .. }
            | D::Decimal64 { .. }
            | D::Decimal128 { .. }
            | D::Decimal256 { .. }
            | D::Date32
            | D::Date64
            | D::Time32(_)
            | D::Time64(_)
            | D::Timestamp(..)
            | D::Interval(_)
            | D::Duration(_)
            | D::FixedSizeBinary(_) => (FIXED, Children::None),
            D::Binary | D::Utf8 | D::LargeBinary | D::LargeUtf8 => (VARIABLE, Children::None),
            D::BinaryView | D::Utf8View => (VIEWS, Children::None),
            D::List(f) | D::LargeList(f) | D::Map(f, _) => (LIST, Children::One(f)),
            D::ListView(f) | D::LargeListView(f) => (LIST_VIEW, Children::One(f)),
            D::FixedSizeList(f, _) => (VALIDITY, Children::One(f)),
            D::Struct(fields) => (VALIDITY, Children::Many(fields)),
            D::Union(fields, UnionMode::Sparse) => (SPARSE, Children::Many(fields.fields())),
            D::Union(fields, UnionMode::Dense) => (DENSE, Children::Many(fields.fields())),
            D::Dictionary { .. } => (DICTIONARY, Children::None),
            D::RunEndEncoded(r, v) => (NONE, Children::Two(r, v)),
        };
        Layout {
            buffers,
            variadic: matches!(self, D::BinaryView | D::Utf8View),
            children,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Field, IntegerType, UnionFields};

    #[test]
    fn children_match_data_type_children() {
        let f = |t: DataType| Field::new("f", t, true);
        let types = [
            DataType::Int32,
            DataType::list_of(DataType::Utf8),
            DataType::Struct(vec![f(DataType::Int8), f(DataType::Utf8View)].into()),
            DataType::Union(
                UnionFields::with_default_ids(vec![f(DataType::Int8), f(DataType::Null)]),
                UnionMode::Dense,
            ),
            DataType::RunEndEncoded(
                Field::new("run_ends", DataType::Int32, false).into(),
                f(DataType::Utf8).into(),
            ),
            DataType::dictionary(IntegerType::Int8, DataType::list_of(DataType::Int8)),
        ];
        for t in types {
            let l = t.layout();
            let got: Vec<FieldRef> = l.children.iter().cloned().collect();
            assert_eq!(got, t.children(), "{t}");
            assert_eq!(l.children.get(l.children.len()), None);
        }
    }

    #[test]
    fn union_and_dictionary_buffers() {
        let u = |m| DataType::Union(UnionFields::with_default_ids(Vec::<Field>::new()), m);
        assert_eq!(u(UnionMode::Sparse).layout().buffers, [K::TypeIds]);
        assert_eq!(
            u(UnionMode::Dense).layout().buffers,
            [K::TypeIds, K::Offsets]
        );
        assert!(!u(UnionMode::Dense).layout().has_validity());
        let d = DataType::dictionary(IntegerType::UInt16, DataType::Utf8);
        assert_eq!(d.layout().buffers, [K::Validity, K::Indices]);
        assert_eq!(d.layout().position(K::Indices), Some(1));
        assert!(d.layout().children.is_empty());
    }
}
