//! Logical equality of arrays, with a diagnostic for the first difference (see
//! [`logical_eq`] for the semantics).

mod encoded;
mod flat;
mod nested;
#[cfg(test)]
mod tests;

use crate::array::Array;
use crate::datatype::DataType;
use std::fmt;

/// Where and why two arrays first differ (see [`first_difference`]).
///
/// Its [`Display`](fmt::Display) reads outermost first, e.g.
/// `index 1, child 0 ("item"), index 3: 5 vs 6` (slot 1 is a list whose element 3 differs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The first top-level slot that differs; `None` when the types or lengths differ.
    pub index: Option<usize>,
    /// Steps from that slot down to the differing value, outermost first (e.g.
    /// `child 0 ("item")`, `index 3`); empty when the slot itself differs.
    pub path: Vec<String>,
    /// What differs: `5 vs 6`, `null vs "a"`, `types differ: Int32 vs Int64`, `length 3 vs 4`.
    pub reason: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(i) = self.index {
            write!(f, "index {i}")?;
            for step in &self.path {
                write!(f, ", {step}")?;
            }
            write!(f, ": ")?;
        }
        f.write_str(&self.reason)
    }
}

/// True when `a` and `b` are logically equal.
///
/// Two arrays are logically equal when their data types are equal (including nested field
/// names, nullability and metadata), their lengths are equal, and every slot is equal: both
/// null, or both valid with equal values. Physical representation does not matter:
///
/// - offsets, slice positions and the contents of null slots are ignored (including the child
///   ranges a null list points at, and the children of a null struct slot);
/// - views are compared by the bytes they denote, whether inline or in any data buffer;
/// - dictionaries are compared by their resolved values (a valid key whose dictionary value is
///   null counts as a null slot), so different keys and dictionaries can be equal;
/// - run-end encoded arrays are compared by their logical sequences, whatever their runs;
/// - unions slot by slot: a slot null in both is equal, otherwise the type ids and the child
///   values must match (dense offsets are irrelevant);
/// - maps compare their entries in order.
///
/// Floating-point values are equal when their bit patterns are (`to_bits` equality): `NaN`
/// equals a `NaN` with the same payload, and `0.0` differs from `-0.0`, as they are different
/// values in Arrow data. Every other fixed-width value (integers, decimals, intervals) is
/// compared by value, which for these types is the same as by bits.
///
/// Arrays are assumed valid (see [`Array::validate`](crate::Array::validate)); a dictionary
/// key outside the dictionary compares as null rather than panicking.
///
/// ```
/// use quiver_arrow::{Array, PrimitiveArray, StringArray, StringViewArray};
/// use quiver_arrow::compute::logical_eq;
/// let x = Array::from(PrimitiveArray::<i32>::from_options([Some(1), None, Some(5)]));
/// let y = Array::from(PrimitiveArray::<i32>::from_options([Some(0), Some(1), None]));
/// assert!(logical_eq(&x.slice(0, 2), &y.slice(1, 2)));
/// assert!(x.slice(0, 2) == y.slice(1, 2)); // `PartialEq for Array` is logical equality
/// let a = Array::from(StringViewArray::from_options([Some("a rather long string"), None]));
/// let b = Array::from(StringViewArray::from_options([None, Some("a rather long string"), None]));
/// assert!(logical_eq(&a, &b.slice(1, 2)));
/// // Different types are never equal.
/// let c = Array::from(StringArray::from_options([Some("a rather long string"), None]));
/// assert!(!logical_eq(&a, &c));
/// ```
pub fn logical_eq(a: &Array, b: &Array) -> bool {
    first_difference(a, b).is_none()
}

/// The first difference between `a` and `b`, `None` when they are logically equal.
///
/// Types are compared first, then lengths, then slots in order; the reported slot is the
/// smallest top-level index that differs.
///
/// ```
/// use quiver_arrow::{Array, PrimitiveArray};
/// use quiver_arrow::compute::first_difference;
/// let a = Array::from(PrimitiveArray::<i32>::new(vec![1, 2, 3]));
/// let b = Array::from(PrimitiveArray::<i64>::new(vec![1, 2, 3]));
/// assert_eq!(first_difference(&a, &b).unwrap().to_string(), "types differ: Int32 vs Int64");
/// let c = Array::from(PrimitiveArray::<i32>::new(vec![1, 2, 3, 4]));
/// assert_eq!(first_difference(&a, &c).unwrap().to_string(), "length 3 vs 4");
/// ```
pub fn first_difference(a: &Array, b: &Array) -> Option<Difference> {
    if a.data_type() != b.data_type() {
        return Some(Difference {
            index: None,
            path: Vec::new(),
            reason: type_difference(a.data_type(), b.data_type()),
        });
    }
    if a.len() != b.len() {
        return Some(Difference {
            index: None,
            path: Vec::new(),
            reason: format!("length {} vs {}", a.len(), b.len()),
        });
    }
    diff(a, b, Span::new(0, 0, a.len())).map(Mismatch::into_difference)
}

impl PartialEq for Array {
    /// Logical equality ([`logical_eq`]).
    fn eq(&self, other: &Self) -> bool {
        logical_eq(self, other)
    }
}

fn type_difference(a: &DataType, b: &DataType) -> String {
    let (sa, sb) = (a.to_string(), b.to_string());
    if sa == sb {
        // Only what the type's text omits differs: field metadata.
        format!("types differ: {sa} vs {sb} (field metadata differs)")
    } else {
        format!("types differ: {sa} vs {sb}")
    }
}

/// Slots `[a, a + len)` of one array against `[b, b + len)` of another.
#[derive(Clone, Copy, Debug)]
pub(super) struct Span {
    a: usize,
    b: usize,
    len: usize,
}

impl Span {
    fn new(a: usize, b: usize, len: usize) -> Self {
        Span { a, b, len }
    }
    /// The sub-span of positions `r` (relative to this span).
    fn sub(self, r: std::ops::Range<usize>) -> Self {
        Span::new(self.a + r.start, self.b + r.start, r.end - r.start)
    }
}

/// A difference found inside a span, positioned relative to the span's start.
#[derive(Debug)]
pub(super) struct Mismatch {
    at: usize,
    /// Path steps below `at`, innermost first (reversed on output).
    rev_path: Vec<String>,
    detail: String,
}

impl Mismatch {
    /// The difference seen from a parent: at the parent's slot `at`, going through `step` and,
    /// when the child position is not implied by `at`, through `index {inner}`.
    fn nest(mut self, at: usize, step: String, inner: Option<usize>) -> Mismatch {
        if let Some(i) = inner {
            self.rev_path.push(format!("index {i}"));
        }
        self.rev_path.push(step);
        self.at = at;
        self
    }

    /// The same difference, attributed to the parent's slot `at` without an extra step (used
    /// for encodings whose children are not logically separate: dictionaries, run ends).
    fn relocate(mut self, at: usize) -> Mismatch {
        self.at = at;
        self
    }

    fn into_difference(self) -> Difference {
        let mut path = self.rev_path;
        path.reverse();
        Difference {
            index: Some(self.at),
            path,
            reason: self.detail,
        }
    }
}

/// What a layout comparison found: a slot that differs as a whole (rendered by the caller,
/// which knows the arrays) or a difference further down.
#[derive(Debug)]
pub(super) enum Found {
    Slot(usize),
    Nested(Mismatch),
}

impl Found {
    /// Position relative to the span.
    fn at(&self) -> usize {
        match self {
            Found::Slot(p) => *p,
            Found::Nested(m) => m.at,
        }
    }
    /// Shifts the position by `by` (a run's start within the span).
    fn shifted(self, by: usize) -> Found {
        match self {
            Found::Slot(p) => Found::Slot(p + by),
            Found::Nested(mut m) => {
                m.at += by;
                Found::Nested(m)
            }
        }
    }
}

/// Longest rendering of a value in a difference's reason.
const MAX_RENDER: usize = 80;

/// Renders slot `i` of `a` as a nested value (strings quoted), shortened to [`MAX_RENDER`].
fn render(a: &Array, i: usize) -> String {
    let mut s = String::new();
    if crate::display::write_nested_value(&mut s, a, i).is_err() {
        return "<unprintable>".into();
    }
    if s.chars().count() > MAX_RENDER {
        let mut short: String = s.chars().take(MAX_RENDER - 1).collect();
        short.push('…');
        return short;
    }
    s
}

/// Compares slots of `a` and `b` (whose data types are equal) over `s`.
pub(super) fn diff(a: &Array, b: &Array, s: Span) -> Option<Mismatch> {
    if s.len == 0 {
        return None;
    }
    let found = dispatch(a, b, s)?;
    Some(match found {
        Found::Slot(p) => Mismatch {
            at: p,
            rev_path: Vec::new(),
            detail: format!("{} vs {}", render(a, s.a + p), render(b, s.b + p)),
        },
        Found::Nested(m) => m,
    })
}

fn dispatch(a: &Array, b: &Array, s: Span) -> Option<Found> {
    use Array as A;
    let slot = |p: Option<usize>| p.map(Found::Slot);
    match (a, b) {
        (A::Null(_), A::Null(_)) => None,
        (A::Boolean(x), A::Boolean(y)) => slot(flat::boolean(x, y, s)),
        (A::I8(x), A::I8(y)) => slot(flat::primitive(x, y, s)),
        (A::I16(x), A::I16(y)) => slot(flat::primitive(x, y, s)),
        (A::I32(x), A::I32(y)) => slot(flat::primitive(x, y, s)),
        (A::I64(x), A::I64(y)) => slot(flat::primitive(x, y, s)),
        (A::U8(x), A::U8(y)) => slot(flat::primitive(x, y, s)),
        (A::U16(x), A::U16(y)) => slot(flat::primitive(x, y, s)),
        (A::U32(x), A::U32(y)) => slot(flat::primitive(x, y, s)),
        (A::U64(x), A::U64(y)) => slot(flat::primitive(x, y, s)),
        (A::F16(x), A::F16(y)) => slot(flat::primitive(x, y, s)),
        (A::F32(x), A::F32(y)) => slot(flat::primitive(x, y, s)),
        (A::F64(x), A::F64(y)) => slot(flat::primitive(x, y, s)),
        (A::I128(x), A::I128(y)) => slot(flat::primitive(x, y, s)),
        (A::I256(x), A::I256(y)) => slot(flat::primitive(x, y, s)),
        (A::DaysMs(x), A::DaysMs(y)) => slot(flat::primitive(x, y, s)),
        (A::MonthDayNano(x), A::MonthDayNano(y)) => slot(flat::primitive(x, y, s)),
        (A::Binary(x), A::Binary(y)) => slot(flat::binary(x, y, s)),
        (A::LargeBinary(x), A::LargeBinary(y)) => slot(flat::binary(x, y, s)),
        (A::Utf8(x), A::Utf8(y)) => slot(flat::binary(x.as_binary(), y.as_binary(), s)),
        (A::LargeUtf8(x), A::LargeUtf8(y)) => slot(flat::binary(x.as_binary(), y.as_binary(), s)),
        (A::BinaryView(x), A::BinaryView(y)) => slot(flat::views(x, y, s)),
        (A::Utf8View(x), A::Utf8View(y)) => slot(flat::views(x.as_binary(), y.as_binary(), s)),
        (A::FixedSizeBinary(x), A::FixedSizeBinary(y)) => slot(flat::fixed_binary(x, y, s)),
        _ => nested_dispatch(a, b, s),
    }
}

fn nested_dispatch(a: &Array, b: &Array, s: Span) -> Option<Found> {
    use Array as A;
    match (a, b) {
        (A::List(x), A::List(y)) => nested::list(x, y, s),
        (A::LargeList(x), A::LargeList(y)) => nested::list(x, y, s),
        (A::ListView(x), A::ListView(y)) => nested::list_view(x, y, s),
        (A::LargeListView(x), A::LargeListView(y)) => nested::list_view(x, y, s),
        (A::FixedSizeList(x), A::FixedSizeList(y)) => nested::fixed_list(x, y, s),
        (A::Struct(x), A::Struct(y)) => nested::struct_(x, y, s),
        (A::Map(x), A::Map(y)) => nested::map(x, y, s),
        (A::Union(x), A::Union(y)) => encoded::union(x, y, s),
        (A::Dictionary(x), A::Dictionary(y)) => encoded::dictionary(x, y, s),
        (A::RunEndEncoded(x), A::RunEndEncoded(y)) => encoded::run_end(x, y, s),
        // Equal data types imply equal layouts; a mismatch here means a malformed array.
        _ => Some(Found::Nested(Mismatch {
            at: 0,
            rev_path: Vec::new(),
            detail: "physical layouts differ for equal data types".into(),
        })),
    }
}
