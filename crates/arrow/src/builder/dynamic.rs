//! The dynamic builder: one variant per builder, for schema-driven code.

use super::*;
use crate::array::PrimitiveType;
use crate::native::{DaysMs, I128, I256, MonthDayNano};
use half::f16;

/// A builder of any type, made by [`make_builder`]: one variant per builder, nested builders
/// holding dynamic children. Schema-driven code (CSV and JSON readers, integration JSON) walks
/// it with the typed accessors (`as_primitive_mut`, `as_string_mut`, `as_list_mut`, …) and
/// appends through the typed builder inside.
///
/// ```
/// use quiver_arrow::builder::make_builder;
/// use quiver_arrow::{DataType, Field};
/// let dt = DataType::List(Field::new("item", DataType::Utf8, true).into());
/// let mut b = make_builder(&dt, 16).unwrap();
/// let list = b.as_list_mut().unwrap();
/// list.values().as_string_mut().unwrap().append_value("a");
/// list.append(true);
/// b.append_null();
/// let a = b.finish();
/// assert_eq!(a.data_type(), &dt);
/// assert_eq!(a.null_count(), 1);
/// ```
#[derive(Clone, Debug)]
#[allow(missing_docs)] // variants are named after their layout, like `Array`'s
pub enum ArrayBuilder {
    Null(NullBuilder),
    Boolean(BooleanBuilder),
    I8(PrimitiveBuilder<i8>),
    I16(PrimitiveBuilder<i16>),
    I32(PrimitiveBuilder<i32>),
    I64(PrimitiveBuilder<i64>),
    U8(PrimitiveBuilder<u8>),
    U16(PrimitiveBuilder<u16>),
    U32(PrimitiveBuilder<u32>),
    U64(PrimitiveBuilder<u64>),
    F16(PrimitiveBuilder<f16>),
    F32(PrimitiveBuilder<f32>),
    F64(PrimitiveBuilder<f64>),
    I128(PrimitiveBuilder<I128>),
    I256(PrimitiveBuilder<I256>),
    DaysMs(PrimitiveBuilder<DaysMs>),
    MonthDayNano(PrimitiveBuilder<MonthDayNano>),
    Binary(BinaryBuilder),
    LargeBinary(LargeBinaryBuilder),
    Utf8(StringBuilder),
    LargeUtf8(LargeStringBuilder),
    BinaryView(BinaryViewBuilder),
    Utf8View(StringViewBuilder),
    FixedSizeBinary(FixedSizeBinaryBuilder),
    List(ListBuilder<Box<ArrayBuilder>>),
    LargeList(LargeListBuilder<Box<ArrayBuilder>>),
    ListView(ListViewBuilder<Box<ArrayBuilder>>),
    LargeListView(LargeListViewBuilder<Box<ArrayBuilder>>),
    FixedSizeList(FixedSizeListBuilder<Box<ArrayBuilder>>),
    Struct(StructBuilder),
    Map(MapBuilder<Box<ArrayBuilder>, Box<ArrayBuilder>>),
    Union(Box<UnionBuilder>),
    Dictionary(Box<DictionaryBuilder>),
    RunEndEncoded(Box<RunEndBuilder>),
}

/// Evaluates `$body` with `$b` bound to the builder inside an [`ArrayBuilder`].
macro_rules! dispatch_builder {
    ($builder:expr, $b:ident => $body:expr) => {
        match $builder {
            ArrayBuilder::Null($b) => $body,
            ArrayBuilder::Boolean($b) => $body,
            ArrayBuilder::I8($b) => $body,
            ArrayBuilder::I16($b) => $body,
            ArrayBuilder::I32($b) => $body,
            ArrayBuilder::I64($b) => $body,
            ArrayBuilder::U8($b) => $body,
            ArrayBuilder::U16($b) => $body,
            ArrayBuilder::U32($b) => $body,
            ArrayBuilder::U64($b) => $body,
            ArrayBuilder::F16($b) => $body,
            ArrayBuilder::F32($b) => $body,
            ArrayBuilder::F64($b) => $body,
            ArrayBuilder::I128($b) => $body,
            ArrayBuilder::I256($b) => $body,
            ArrayBuilder::DaysMs($b) => $body,
            ArrayBuilder::MonthDayNano($b) => $body,
            ArrayBuilder::Binary($b) => $body,
            ArrayBuilder::LargeBinary($b) => $body,
            ArrayBuilder::Utf8($b) => $body,
            ArrayBuilder::LargeUtf8($b) => $body,
            ArrayBuilder::BinaryView($b) => $body,
            ArrayBuilder::Utf8View($b) => $body,
            ArrayBuilder::FixedSizeBinary($b) => $body,
            ArrayBuilder::List($b) => $body,
            ArrayBuilder::LargeList($b) => $body,
            ArrayBuilder::ListView($b) => $body,
            ArrayBuilder::LargeListView($b) => $body,
            ArrayBuilder::FixedSizeList($b) => $body,
            ArrayBuilder::Struct($b) => $body,
            ArrayBuilder::Map($b) => $body,
            ArrayBuilder::Union($b) => $body,
            ArrayBuilder::Dictionary($b) => $body,
            ArrayBuilder::RunEndEncoded($b) => $body,
        }
    };
}

mod sealed {
    pub trait Sealed {}
}

/// A native type with a [`PrimitiveBuilder`] variant in [`ArrayBuilder`].
pub trait PrimitiveBuilderType: PrimitiveType + sealed::Sealed {
    /// The typed builder inside `b`, when `b` builds this native type.
    fn builder_mut(b: &mut ArrayBuilder) -> Option<&mut PrimitiveBuilder<Self>>;
    /// Wraps a typed builder.
    fn into_builder(b: PrimitiveBuilder<Self>) -> ArrayBuilder;
}

macro_rules! primitive_builder_type {
    ($($t:ty => $variant:ident),* $(,)?) => {$(
        impl sealed::Sealed for $t {}
        impl PrimitiveBuilderType for $t {
            fn builder_mut(b: &mut ArrayBuilder) -> Option<&mut PrimitiveBuilder<Self>> {
                match b {
                    ArrayBuilder::$variant(p) => Some(p),
                    _ => None,
                }
            }
            fn into_builder(b: PrimitiveBuilder<Self>) -> ArrayBuilder {
                ArrayBuilder::$variant(b)
            }
        }
    )*};
}
primitive_builder_type!(
    i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u16 => U16, u32 => U32,
    u64 => U64, f16 => F16, f32 => F32, f64 => F64, I128 => I128, I256 => I256,
    DaysMs => DaysMs, MonthDayNano => MonthDayNano,
);

impl<T: PrimitiveBuilderType> From<PrimitiveBuilder<T>> for ArrayBuilder {
    fn from(b: PrimitiveBuilder<T>) -> Self {
        T::into_builder(b)
    }
}

macro_rules! from_builder {
    ($($variant:ident: $t:ty),* $(,)?) => {$(
        impl From<$t> for ArrayBuilder {
            fn from(b: $t) -> Self {
                ArrayBuilder::$variant(b.into())
            }
        }
    )*};
}
from_builder!(
    Null: NullBuilder, Boolean: BooleanBuilder, Binary: BinaryBuilder,
    LargeBinary: LargeBinaryBuilder, Utf8: StringBuilder, LargeUtf8: LargeStringBuilder,
    BinaryView: BinaryViewBuilder, Utf8View: StringViewBuilder,
    FixedSizeBinary: FixedSizeBinaryBuilder, List: ListBuilder<Box<ArrayBuilder>>,
    LargeList: LargeListBuilder<Box<ArrayBuilder>>, ListView: ListViewBuilder<Box<ArrayBuilder>>,
    LargeListView: LargeListViewBuilder<Box<ArrayBuilder>>,
    FixedSizeList: FixedSizeListBuilder<Box<ArrayBuilder>>, Struct: StructBuilder,
    Map: MapBuilder<Box<ArrayBuilder>, Box<ArrayBuilder>>, Union: UnionBuilder,
    Dictionary: DictionaryBuilder, RunEndEncoded: RunEndBuilder,
);

macro_rules! as_typed_mut {
    ($($name:ident -> $variant:ident: $t:ty),* $(,)?) => {$(
        #[doc = concat!("The [`", stringify!($t), "`] inside, if this is one.")]
        pub fn $name(&mut self) -> Option<&mut $t> {
            match self {
                ArrayBuilder::$variant(b) => {
                    let b: &mut $t = b;
                    Some(b)
                }
                _ => None,
            }
        }
    )*};
}

impl ArrayBuilder {
    /// Number of slots appended.
    pub fn len(&self) -> usize {
        dispatch_builder!(self, b => Builder::len(b))
    }
    /// True when nothing has been appended.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The logical type of the array being built.
    pub fn data_type(&self) -> DataType {
        dispatch_builder!(self, b => Builder::data_type(b))
    }
    /// Appends a null slot (see [`Builder::append_null`]).
    ///
    /// # Panics
    /// When the slot would overflow the builder's offset or run-end type.
    pub fn append_null(&mut self) {
        dispatch_builder!(self, b => Builder::append_null(b))
    }
    /// Builds the array and resets the builder.
    ///
    /// # Panics
    /// When [`Builder::check_finish`] fails (nested builders appended inconsistently).
    pub fn finish(&mut self) -> Array {
        dispatch_builder!(self, b => Builder::finish_array(b))
    }
    /// Builds the array, or returns the [`Builder::check_finish`] error (builder unchanged).
    pub fn try_finish(&mut self) -> Result<Array> {
        Builder::try_finish_array(self)
    }

    /// The primitive builder of native type `T`, if this is one.
    pub fn as_primitive_mut<T: PrimitiveBuilderType>(
        &mut self,
    ) -> Option<&mut PrimitiveBuilder<T>> {
        T::builder_mut(self)
    }

    as_typed_mut!(
        as_null_mut -> Null: NullBuilder,
        as_boolean_mut -> Boolean: BooleanBuilder,
        as_binary_mut -> Binary: BinaryBuilder,
        as_large_binary_mut -> LargeBinary: LargeBinaryBuilder,
        as_string_mut -> Utf8: StringBuilder,
        as_large_string_mut -> LargeUtf8: LargeStringBuilder,
        as_binary_view_mut -> BinaryView: BinaryViewBuilder,
        as_string_view_mut -> Utf8View: StringViewBuilder,
        as_fixed_size_binary_mut -> FixedSizeBinary: FixedSizeBinaryBuilder,
        as_list_mut -> List: ListBuilder<Box<ArrayBuilder>>,
        as_large_list_mut -> LargeList: LargeListBuilder<Box<ArrayBuilder>>,
        as_list_view_mut -> ListView: ListViewBuilder<Box<ArrayBuilder>>,
        as_large_list_view_mut -> LargeListView: LargeListViewBuilder<Box<ArrayBuilder>>,
        as_fixed_size_list_mut -> FixedSizeList: FixedSizeListBuilder<Box<ArrayBuilder>>,
        as_struct_mut -> Struct: StructBuilder,
        as_map_mut -> Map: MapBuilder<Box<ArrayBuilder>, Box<ArrayBuilder>>,
        as_union_mut -> Union: UnionBuilder,
        as_dictionary_mut -> Dictionary: DictionaryBuilder,
        as_run_end_mut -> RunEndEncoded: RunEndBuilder,
    );
}

impl Builder for ArrayBuilder {
    fn len(&self) -> usize {
        self.len()
    }
    fn data_type(&self) -> DataType {
        self.data_type()
    }
    fn append_null(&mut self) {
        self.append_null()
    }
    fn check_finish(&self) -> Result<()> {
        dispatch_builder!(self, b => Builder::check_finish(b))
    }
    fn finish_array(&mut self) -> Array {
        self.finish()
    }
}
