//! Arrays: one typed struct per physical layout, and the [`Array`] enum that holds any of them.
//!
//! Each struct carries its logical [`DataType`]; the enum variant names the physical layout
//! (`Date32` is an [`Array::I32`] whose type says `Date32`). Matching on [`Array`] is the
//! dynamic-dispatch mechanism: adding a layout fails to compile wherever it is not handled.

mod binary;
mod boolean;
mod dictionary;
mod fixed_binary;
mod list;
mod list_view;
mod map;
mod null;
mod primitive;
mod run_end;
mod size;
mod struct_;
mod union;
mod validity;
mod view;

pub use binary::{
    BinaryArray, GenericBinaryArray, GenericStringArray, LargeBinaryArray, LargeStringArray,
    StringArray, all_utf8,
};
pub use boolean::BooleanArray;
pub use dictionary::DictionaryArray;
pub use fixed_binary::FixedSizeBinaryArray;
pub use list::{FixedSizeListArray, GenericListArray, LargeListArray, ListArray};
pub use list_view::{GenericListViewArray, LargeListViewArray, ListViewArray};
pub use map::MapArray;
pub use null::NullArray;
pub use primitive::{PrimitiveArray, PrimitiveType};
pub use run_end::RunEndArray;
pub use struct_::StructArray;
pub use union::UnionArray;
pub use view::{BinaryViewArray, StringViewArray};

pub(crate) use binary::check_offsets_in_values;
pub(crate) use list_view::check_list_views;
pub(crate) use view::check_views;

use crate::buffer::Bitmap;
use crate::datatype::DataType;
use crate::error::{Error, Result};
use crate::native::{DaysMs, I128, I256, MonthDayNano};
use half::f16;

/// Any array: one variant per physical layout.
///
/// ```
/// use quiver_arrow::{Array, PrimitiveArray, DataType};
/// let a = Array::from(PrimitiveArray::<i64>::from_options([Some(1), None]));
/// assert_eq!(a.data_type(), &DataType::Int64);
/// assert_eq!(a.null_count(), 1);
/// let p = a.as_primitive::<i64>().unwrap();
/// assert_eq!(p.get(0), Some(1));
/// ```
#[derive(Clone, Debug)]
#[allow(missing_docs)] // variants are named after their layout; see the wrapped types
pub enum Array {
    Null(NullArray),
    Boolean(BooleanArray),
    I8(PrimitiveArray<i8>),
    I16(PrimitiveArray<i16>),
    I32(PrimitiveArray<i32>),
    I64(PrimitiveArray<i64>),
    U8(PrimitiveArray<u8>),
    U16(PrimitiveArray<u16>),
    U32(PrimitiveArray<u32>),
    U64(PrimitiveArray<u64>),
    F16(PrimitiveArray<f16>),
    F32(PrimitiveArray<f32>),
    F64(PrimitiveArray<f64>),
    I128(PrimitiveArray<I128>),
    I256(PrimitiveArray<I256>),
    DaysMs(PrimitiveArray<DaysMs>),
    MonthDayNano(PrimitiveArray<MonthDayNano>),
    Binary(BinaryArray),
    LargeBinary(LargeBinaryArray),
    Utf8(StringArray),
    LargeUtf8(LargeStringArray),
    BinaryView(BinaryViewArray),
    Utf8View(StringViewArray),
    FixedSizeBinary(FixedSizeBinaryArray),
    List(ListArray),
    LargeList(LargeListArray),
    ListView(ListViewArray),
    LargeListView(LargeListViewArray),
    FixedSizeList(FixedSizeListArray),
    Struct(StructArray),
    Map(MapArray),
    Union(UnionArray),
    Dictionary(DictionaryArray),
    RunEndEncoded(RunEndArray),
}

/// Evaluates `$body` with `$a` bound to the typed array inside an [`Array`], whatever its
/// layout. The body must type-check for every layout (use it for methods all layouts share:
/// `len`, `data_type`, `slice`…).
///
/// ```
/// use quiver_arrow::{Array, PrimitiveArray, dispatch_array};
/// let a = Array::from(PrimitiveArray::<u8>::new(vec![1, 2, 3]));
/// let n = dispatch_array!(&a, x => x.len());
/// assert_eq!(n, 3);
/// ```
#[macro_export]
macro_rules! dispatch_array {
    ($array:expr, $a:ident => $body:expr) => {
        match $array {
            $crate::Array::Null($a) => $body,
            $crate::Array::Boolean($a) => $body,
            $crate::Array::I8($a) => $body,
            $crate::Array::I16($a) => $body,
            $crate::Array::I32($a) => $body,
            $crate::Array::I64($a) => $body,
            $crate::Array::U8($a) => $body,
            $crate::Array::U16($a) => $body,
            $crate::Array::U32($a) => $body,
            $crate::Array::U64($a) => $body,
            $crate::Array::F16($a) => $body,
            $crate::Array::F32($a) => $body,
            $crate::Array::F64($a) => $body,
            $crate::Array::I128($a) => $body,
            $crate::Array::I256($a) => $body,
            $crate::Array::DaysMs($a) => $body,
            $crate::Array::MonthDayNano($a) => $body,
            $crate::Array::Binary($a) => $body,
            $crate::Array::LargeBinary($a) => $body,
            $crate::Array::Utf8($a) => $body,
            $crate::Array::LargeUtf8($a) => $body,
            $crate::Array::BinaryView($a) => $body,
            $crate::Array::Utf8View($a) => $body,
            $crate::Array::FixedSizeBinary($a) => $body,
            $crate::Array::List($a) => $body,
            $crate::Array::LargeList($a) => $body,
            $crate::Array::ListView($a) => $body,
            $crate::Array::LargeListView($a) => $body,
            $crate::Array::FixedSizeList($a) => $body,
            $crate::Array::Struct($a) => $body,
            $crate::Array::Map($a) => $body,
            $crate::Array::Union($a) => $body,
            $crate::Array::Dictionary($a) => $body,
            $crate::Array::RunEndEncoded($a) => $body,
        }
    };
}

/// Matches the primitive layouts of an [`Array`], binding `$p` to the typed
/// `PrimitiveArray<T>` (for code generic over native types); other layouts go to `$other`.
///
/// ```
/// use quiver_arrow::{Array, PrimitiveArray, match_primitive};
/// fn byte_size(a: &Array) -> Option<usize> {
///     match_primitive!(a, p => Some(std::mem::size_of_val(p.values().as_slice())), _ => None)
/// }
/// assert_eq!(byte_size(&Array::from(PrimitiveArray::<i16>::new(vec![1, 2]))), Some(4));
/// ```
#[macro_export]
macro_rules! match_primitive {
    ($array:expr, $p:ident => $body:expr, _ => $other:expr) => {
        match $array {
            $crate::Array::I8($p) => $body,
            $crate::Array::I16($p) => $body,
            $crate::Array::I32($p) => $body,
            $crate::Array::I64($p) => $body,
            $crate::Array::U8($p) => $body,
            $crate::Array::U16($p) => $body,
            $crate::Array::U32($p) => $body,
            $crate::Array::U64($p) => $body,
            $crate::Array::F16($p) => $body,
            $crate::Array::F32($p) => $body,
            $crate::Array::F64($p) => $body,
            $crate::Array::I128($p) => $body,
            $crate::Array::I256($p) => $body,
            $crate::Array::DaysMs($p) => $body,
            $crate::Array::MonthDayNano($p) => $body,
            _ => $other,
        }
    };
}

macro_rules! as_typed {
    ($($name:ident -> $variant:ident: $t:ty),* $(,)?) => {$(
        #[doc = concat!("The [`", stringify!($t), "`] inside, if this is one.")]
        pub fn $name(&self) -> Option<&$t> {
            match self {
                Array::$variant(a) => Some(a),
                _ => None,
            }
        }
    )*};
}

macro_rules! from_typed {
    ($($variant:ident: $t:ty),* $(,)?) => {$(
        impl From<$t> for Array {
            fn from(a: $t) -> Self {
                Array::$variant(a)
            }
        }
    )*};
}

from_typed!(
    Null: NullArray, Boolean: BooleanArray, Binary: BinaryArray, LargeBinary: LargeBinaryArray,
    Utf8: StringArray, LargeUtf8: LargeStringArray, BinaryView: BinaryViewArray,
    Utf8View: StringViewArray, FixedSizeBinary: FixedSizeBinaryArray, List: ListArray,
    LargeList: LargeListArray, ListView: ListViewArray, LargeListView: LargeListViewArray,
    FixedSizeList: FixedSizeListArray, Struct: StructArray, Map: MapArray, Union: UnionArray,
    Dictionary: DictionaryArray, RunEndEncoded: RunEndArray,
);

impl<T: PrimitiveType> From<PrimitiveArray<T>> for Array {
    fn from(a: PrimitiveArray<T>) -> Self {
        T::into_array(a)
    }
}

impl Array {
    /// The logical type.
    pub fn data_type(&self) -> &DataType {
        dispatch_array!(self, a => a.data_type())
    }
    /// Number of slots.
    pub fn len(&self) -> usize {
        dispatch_array!(self, a => a.len())
    }
    /// True when there are no slots.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Number of null slots. For most layouts this is the validity bitmap's count; a Null
    /// array is all nulls; unions and run-end encoded arrays count their children's nulls;
    /// dictionaries count null keys.
    pub fn null_count(&self) -> usize {
        match self {
            Array::Null(a) => a.len(),
            _ => dispatch_array!(self, a => a.null_count_impl()),
        }
    }
    /// True when slot `i` is null (see [`Array::null_count`] for what null means per layout).
    pub fn is_null(&self, i: usize) -> bool {
        match self {
            Array::Null(a) => {
                assert!(i < a.len());
                true
            }
            _ => dispatch_array!(self, a => a.is_null(i)),
        }
    }
    /// True when slot `i` is not null.
    pub fn is_valid(&self, i: usize) -> bool {
        !self.is_null(i)
    }
    /// The validity bitmap of layouts that have one (`None` means no nulls there, or a layout
    /// without a bitmap: Null, Union, RunEndEncoded).
    pub fn validity(&self) -> Option<&Bitmap> {
        match self {
            Array::Null(_) | Array::Union(_) | Array::RunEndEncoded(_) => None,
            Array::Dictionary(d) => d.validity(),
            _ => dispatch_array!(self, a => a.validity_impl()),
        }
    }
    /// The child arrays, in the order of the type's layout children
    /// ([`DataType::layout`](crate::DataType::layout)): a list's values, a struct's columns, a
    /// map's `entries` struct, a union's children, a run-end encoded array's run ends then
    /// values. A dictionary's values are not a child (they are a separate array). Cheap: the
    /// children share their buffers.
    ///
    /// ```
    /// use quiver_arrow::{Array, DataType};
    /// use quiver_arrow::builder::{ListBuilder, PrimitiveBuilder};
    /// let mut b = ListBuilder::new(PrimitiveBuilder::<i32>::new());
    /// b.values().append_value(7);
    /// b.append(true);
    /// let list = Array::from(b.finish());
    /// let children = list.children();
    /// assert_eq!(children.len(), list.data_type().layout().children.len());
    /// assert_eq!(children[0].data_type(), &DataType::Int32);
    /// ```
    pub fn children(&self) -> Vec<Array> {
        match self {
            Array::List(l) => vec![l.values().clone()],
            Array::LargeList(l) => vec![l.values().clone()],
            Array::ListView(l) => vec![l.values().clone()],
            Array::LargeListView(l) => vec![l.values().clone()],
            Array::FixedSizeList(l) => vec![l.values().clone()],
            Array::Struct(s) => s.columns().to_vec(),
            Array::Map(m) => vec![Array::Struct(m.entries().clone())],
            Array::Union(u) => u.children().to_vec(),
            Array::RunEndEncoded(r) => vec![r.run_ends().clone(), r.values().clone()],
            _ => Vec::new(),
        }
    }

    /// This array with its [`Array::children`] replaced by `children` (same number, each of its
    /// predecessor's type and length), its own buffers shared: for rewriting a value deep
    /// inside a nested array, such as re-keying a dictionary in a struct. Arrays without
    /// children take an empty list and come back as they are.
    ///
    /// ```
    /// use quiver_arrow::{Array, PrimitiveArray, StructArray, Field, Fields};
    /// use std::sync::Arc;
    /// let fields = Fields::from(vec![Arc::new(Field::new("a", quiver_arrow::DataType::Int32, true))]);
    /// let s = Array::from(StructArray::try_new(fields, 2,
    ///     vec![Array::from(PrimitiveArray::<i32>::new(vec![1, 2]))], None).unwrap());
    /// let t = s.with_children(vec![Array::from(PrimitiveArray::<i32>::new(vec![7, 8]))]).unwrap();
    /// assert_eq!(t.children()[0], Array::from(PrimitiveArray::<i32>::new(vec![7, 8])));
    /// assert!(s.with_children(vec![]).is_err());
    /// ```
    pub fn with_children(&self, children: Vec<Array>) -> Result<Array> {
        let old = self.children();
        if old.len() != children.len() {
            return Err(Error::invalid(format!(
                "{} has {} children, not {}",
                self.data_type(),
                old.len(),
                children.len()
            )));
        }
        for (i, (o, n)) in old.iter().zip(&children).enumerate() {
            if o.data_type() != n.data_type() || o.len() != n.len() {
                return Err(Error::invalid(format!(
                    "child {i} of {} must stay a {} of {} values, not a {} of {}",
                    self.data_type(),
                    o.data_type(),
                    o.len(),
                    n.data_type(),
                    n.len()
                )));
            }
        }
        let mut it = children.into_iter();
        let mut one = || it.next().expect("one child per child checked above"); // ok: the number of children was checked above; only arrays with children take one.
        let v = |b: Option<&Bitmap>| b.cloned();
        Ok(match self {
            Array::List(l) => Array::from(ListArray::try_new(
                l.field().clone(),
                l.offsets().clone(),
                one(),
                v(l.validity()),
            )?),
            Array::LargeList(l) => Array::from(LargeListArray::try_new(
                l.field().clone(),
                l.offsets().clone(),
                one(),
                v(l.validity()),
            )?),
            Array::ListView(l) => Array::from(ListViewArray::try_new_deferred(
                l.field().clone(),
                l.offsets().clone(),
                l.sizes().clone(),
                one(),
                v(l.validity()),
            )?),
            Array::LargeListView(l) => Array::from(LargeListViewArray::try_new_deferred(
                l.field().clone(),
                l.offsets().clone(),
                l.sizes().clone(),
                one(),
                v(l.validity()),
            )?),
            Array::FixedSizeList(l) => Array::from(FixedSizeListArray::try_new(
                l.field().clone(),
                l.size() as i32,
                l.len(),
                one(),
                v(l.validity()),
            )?),
            Array::Struct(s) => Array::from(StructArray::try_new(
                s.fields().clone(),
                s.len(),
                it.collect(),
                v(s.validity()),
            )?),
            Array::Map(m) => {
                let Array::Struct(entries) = one() else {
                    // (Not reached: the type of the child was checked above.)
                    return Err(Error::invalid("map entries must be a struct"));
                };
                Array::from(MapArray::try_new(
                    m.entries_field().clone(),
                    m.keys_sorted(),
                    m.offsets().clone(),
                    entries,
                    v(m.validity()),
                )?)
            }
            Array::Union(u) => Array::from(UnionArray::try_new_deferred(
                u.fields().clone(),
                u.mode(),
                u.type_ids().clone(),
                u.offsets().cloned(),
                it.collect(),
            )?),
            Array::RunEndEncoded(r) => {
                let (ends, values) = (one(), one());
                Array::from(RunEndArray::try_new_deferred(
                    ends,
                    values,
                    r.offset(),
                    r.len(),
                )?)
            }
            other => other.clone(),
        })
    }

    /// A zero-copy slice of `len` slots from `offset`. Panics when out of bounds.
    pub fn slice(&self, offset: usize, len: usize) -> Array {
        dispatch_array!(self, a => Array::from(a.slice(offset, len)))
    }

    /// The primitive array of native type `T`, if this is one.
    pub fn as_primitive<T: PrimitiveType>(&self) -> Option<&PrimitiveArray<T>> {
        T::from_array(self)
    }

    as_typed!(
        as_null -> Null: NullArray,
        as_boolean -> Boolean: BooleanArray,
        as_binary -> Binary: BinaryArray,
        as_large_binary -> LargeBinary: LargeBinaryArray,
        as_utf8 -> Utf8: StringArray,
        as_large_utf8 -> LargeUtf8: LargeStringArray,
        as_binary_view -> BinaryView: BinaryViewArray,
        as_utf8_view -> Utf8View: StringViewArray,
        as_fixed_size_binary -> FixedSizeBinary: FixedSizeBinaryArray,
        as_list -> List: ListArray,
        as_large_list -> LargeList: LargeListArray,
        as_list_view -> ListView: ListViewArray,
        as_large_list_view -> LargeListView: LargeListViewArray,
        as_fixed_size_list -> FixedSizeList: FixedSizeListArray,
        as_struct -> Struct: StructArray,
        as_map -> Map: MapArray,
        as_union -> Union: UnionArray,
        as_dictionary -> Dictionary: DictionaryArray,
        as_run_end_encoded -> RunEndEncoded: RunEndArray,
    );
}

/// Uniform access used by [`Array`]'s dispatch (so every layout answers the same calls).
trait LayoutExt {
    fn null_count_impl(&self) -> usize;
    fn validity_impl(&self) -> Option<&Bitmap>;
}

macro_rules! layout_ext_with_validity {
    ($($t:ty),* $(,)?) => {$(
        impl LayoutExt for $t {
            fn null_count_impl(&self) -> usize { self.null_count() }
            fn validity_impl(&self) -> Option<&Bitmap> { self.validity() }
        }
    )*};
}
layout_ext_with_validity!(
    BooleanArray,
    FixedSizeBinaryArray,
    FixedSizeListArray,
    StructArray,
    MapArray,
    BinaryViewArray,
    StringViewArray,
    DictionaryArray,
);
impl<T: PrimitiveType> LayoutExt for PrimitiveArray<T> {
    fn null_count_impl(&self) -> usize {
        self.null_count()
    }
    fn validity_impl(&self) -> Option<&Bitmap> {
        self.validity()
    }
}
impl<O: crate::buffer::Offset> LayoutExt for GenericBinaryArray<O> {
    fn null_count_impl(&self) -> usize {
        self.null_count()
    }
    fn validity_impl(&self) -> Option<&Bitmap> {
        self.validity()
    }
}
impl<O: crate::buffer::Offset> LayoutExt for GenericStringArray<O> {
    fn null_count_impl(&self) -> usize {
        self.null_count()
    }
    fn validity_impl(&self) -> Option<&Bitmap> {
        self.validity()
    }
}
impl<O: crate::buffer::Offset> LayoutExt for GenericListArray<O> {
    fn null_count_impl(&self) -> usize {
        self.null_count()
    }
    fn validity_impl(&self) -> Option<&Bitmap> {
        self.validity()
    }
}
impl<O: crate::buffer::Offset> LayoutExt for GenericListViewArray<O> {
    fn null_count_impl(&self) -> usize {
        self.null_count()
    }
    fn validity_impl(&self) -> Option<&Bitmap> {
        self.validity()
    }
}
impl LayoutExt for NullArray {
    fn null_count_impl(&self) -> usize {
        self.len()
    }
    fn validity_impl(&self) -> Option<&Bitmap> {
        None
    }
}
impl LayoutExt for UnionArray {
    fn null_count_impl(&self) -> usize {
        self.null_count()
    }
    fn validity_impl(&self) -> Option<&Bitmap> {
        None
    }
}
impl LayoutExt for RunEndArray {
    fn null_count_impl(&self) -> usize {
        self.null_count()
    }
    fn validity_impl(&self) -> Option<&Bitmap> {
        None
    }
}
impl NullArray {
    /// Always true: every slot of a Null array is null.
    pub fn is_null(&self, i: usize) -> bool {
        assert!(i < self.len());
        true
    }
}

/// Checks `offset + len <= bound` without overflow; panics with a clear message otherwise
/// (slicing past the end is a programming error, not bad data).
#[inline]
pub(crate) fn assert_slice(offset: usize, len: usize, bound: usize) {
    assert!(
        offset.checked_add(len).is_some_and(|e| e <= bound),
        "slice [{offset}, {offset}+{len}) out of bounds of array of length {bound}"
    );
}
