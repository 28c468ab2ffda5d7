//! The value model, the element-by-element reference builder ([`build`]) and the reader
//! oracle ([`read`]).
//!
//! [`build`] appends each value through `make_builder` and the typed builder accessors; [`read`]
//! walks an array through the typed array accessors (`get`, offsets, children, dictionary keys,
//! union child indices and offsets, run-end physical indices). Neither uses `logical_eq`, so
//! the properties can check the equality kernel against them.

use quiver_arrow::buffer::Offset;
use quiver_arrow::builder::{
    ArrayBuilder, GenericListBuilder, GenericListViewBuilder, make_builder,
};
use quiver_arrow::{
    Array, DataType, Field, GenericListArray, GenericListViewArray, I128, PrimitiveType,
};

/// One slot of an array, independent of its layout.
///
/// Floats are kept as bit patterns (`f32` widened from its own bits), so `NaN`s with equal
/// payloads are equal and `0.0 != -0.0`, as in `logical_eq`. Dictionary slots hold the
/// resolved value, run-end encoded slots the value of their run. A null union slot is
/// `Union(type_id, Null)`: unions have no validity of their own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(u64),
    Decimal(i128),
    Bytes(Vec<u8>),
    Str(String),
    List(Vec<Value>),
    Struct(Vec<Value>),
    Map(Vec<(Value, Value)>),
    Union(i8, Box<Value>),
}

/// The type id [`canon`] gives every null union slot.
const NULL_UNION_ID: i8 = -1;

/// True when the slot is null as `Array::is_null` sees it: a null, or a union slot whose
/// child value is null.
pub fn is_null_slot(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Union(_, x) => is_null_slot(x),
        _ => false,
    }
}

/// The form under which two values are equal exactly when `logical_eq` says so: a union slot
/// that is null (its child value null) loses its type id, since `logical_eq` documents that a
/// slot null on both sides is equal whatever the type ids.
pub fn canon(v: &Value) -> Value {
    match v {
        Value::Union(t, x) => {
            let x = canon(x);
            if is_null_slot(&x) {
                Value::Union(NULL_UNION_ID, Box::new(Value::Null))
            } else {
                Value::Union(*t, Box::new(x))
            }
        }
        Value::List(xs) => Value::List(xs.iter().map(canon).collect()),
        Value::Struct(xs) => Value::Struct(xs.iter().map(canon).collect()),
        Value::Map(kv) => Value::Map(kv.iter().map(|(k, x)| (canon(k), canon(x))).collect()),
        other => other.clone(),
    }
}

/// [`canon`] of every value.
pub fn canon_all(vs: &[Value]) -> Vec<Value> {
    vs.iter().map(canon).collect()
}

// ---------------------------------------------------------------------------------------------
// Reference builder

/// The array of type `dt` holding `values`, appended one by one through `make_builder`.
pub fn build(dt: &DataType, values: &[Value]) -> Array {
    let mut arrays = build_batches(dt, &[values]);
    arrays.pop().expect("one batch")
}

/// One array per batch, all from one builder (`finish` resets it for the next batch). The
/// first batch starts from a builder with room for it, the others from what `finish` left.
pub fn build_batches(dt: &DataType, batches: &[&[Value]]) -> Vec<Array> {
    let capacity = batches.first().map_or(0, |b| b.len());
    let mut b = make_builder(dt, capacity).unwrap_or_else(|e| panic!("make_builder {dt}: {e}"));
    let mut out = Vec::new();
    for values in batches {
        for v in *values {
            append(&mut b, dt, v);
        }
        assert_eq!(b.len(), values.len(), "builder length");
        let a = b
            .try_finish()
            .unwrap_or_else(|e| panic!("finishing {dt}: {e}"));
        assert!(b.is_empty(), "finish left {} slots in the builder", b.len());
        out.push(a);
    }
    out
}

fn narrow<T: TryFrom<X>, X: Copy + std::fmt::Debug>(x: X) -> T {
    T::try_from(x).unwrap_or_else(|_| panic!("model value {x:?} out of range"))
}

fn prim<T: quiver_arrow::builder::PrimitiveBuilderType>(
    b: &mut ArrayBuilder,
) -> &mut quiver_arrow::builder::PrimitiveBuilder<T> {
    b.as_primitive_mut::<T>()
        .expect("a primitive builder of the type's native type")
}

/// Appends `v` (a value of type `dt`) to `b`.
fn append(b: &mut ArrayBuilder, dt: &DataType, v: &Value) {
    if *v == Value::Null {
        b.append_null();
        return;
    }
    match dt {
        DataType::Boolean => b.as_boolean_mut().expect("boolean").append_value(v.bool()),
        DataType::Int8 => prim::<i8>(b).append_value(narrow(v.int())),
        DataType::Int32 | DataType::Date32 => prim::<i32>(b).append_value(narrow(v.int())),
        DataType::Int64 | DataType::Timestamp(..) => prim::<i64>(b).append_value(v.int()),
        DataType::UInt16 => prim::<u16>(b).append_value(narrow(v.uint())),
        DataType::UInt64 => prim::<u64>(b).append_value(v.uint()),
        DataType::Float32 => prim::<f32>(b).append_value(f32::from_bits(narrow(v.float_bits()))),
        DataType::Float64 => prim::<f64>(b).append_value(f64::from_bits(v.float_bits())),
        DataType::Decimal128 { .. } => prim::<I128>(b).append_value(I128::from_i128(v.decimal())),
        DataType::Utf8 => b.as_string_mut().expect("utf8").append_value(v.str()),
        DataType::LargeUtf8 => b
            .as_large_string_mut()
            .expect("large utf8")
            .append_value(v.str()),
        DataType::Utf8View => b
            .as_string_view_mut()
            .expect("utf8 view")
            .append_value(v.str()),
        DataType::Binary => b.as_binary_mut().expect("binary").append_value(v.bytes()),
        DataType::LargeBinary => b
            .as_large_binary_mut()
            .expect("large")
            .append_value(v.bytes()),
        DataType::BinaryView => b
            .as_binary_view_mut()
            .expect("view")
            .append_value(v.bytes()),
        DataType::FixedSizeBinary(_) => {
            let fb = b.as_fixed_size_binary_mut().expect("fixed-size binary");
            fb.append_value(v.bytes())
                .expect("value of the declared width");
        }
        _ => append_nested(b, dt, v),
    }
}

fn append_nested(b: &mut ArrayBuilder, dt: &DataType, v: &Value) {
    match dt {
        DataType::List(f) => list(b.as_list_mut().expect("list"), f, v.list()),
        DataType::LargeList(f) => list(b.as_large_list_mut().expect("large list"), f, v.list()),
        DataType::ListView(f) => list_view(b.as_list_view_mut().expect("list view"), f, v.list()),
        DataType::LargeListView(f) => {
            list_view(b.as_large_list_view_mut().expect("view"), f, v.list())
        }
        DataType::FixedSizeList(f, _) => {
            let l = b.as_fixed_size_list_mut().expect("fixed-size list");
            for x in v.list() {
                append(l.values(), f.data_type(), x);
            }
            l.try_append(true).expect("as many values as the list size");
        }
        DataType::Struct(fields) => {
            let s = b.as_struct_mut().expect("struct");
            let Value::Struct(xs) = v else {
                panic!("not a struct value: {v:?}")
            };
            assert_eq!(xs.len(), fields.len(), "struct value arity");
            for (i, (f, x)) in fields.iter().zip(xs).enumerate() {
                append(s.field_builder(i), f.data_type(), x);
            }
            s.append(true);
        }
        DataType::Map(entries, _) => {
            let DataType::Struct(kv) = entries.data_type() else {
                panic!("map entries of type {}", entries.data_type())
            };
            let m = b.as_map_mut().expect("map");
            let Value::Map(pairs) = v else {
                panic!("not a map value: {v:?}")
            };
            for (k, x) in pairs {
                append(m.keys(), kv[0].data_type(), k);
                append(m.values(), kv[1].data_type(), x);
            }
            m.append(true);
        }
        DataType::Union(fields, _) => {
            let Value::Union(id, x) = v else {
                panic!("not a union value: {v:?}")
            };
            let c = fields.index_of(*id).expect("a declared type id");
            let child = b
                .as_union_mut()
                .expect("union")
                .append(*id)
                .expect("declared id");
            append(child, fields.fields()[c].data_type(), x);
        }
        DataType::Dictionary { value, .. } => {
            let d = b.as_dictionary_mut().expect("dictionary");
            match &**value {
                DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => {
                    d.append_str(v.str()).map(drop)
                }
                other => panic!("no reference append for dictionaries of {other}"),
            }
            .expect("dictionary append");
        }
        DataType::RunEndEncoded(_, values) => {
            let r = b.as_run_end_mut().expect("run-end encoded");
            match values.data_type() {
                DataType::Int64 => r.append_primitive::<i64>(v.int()),
                DataType::Utf8 => r.append_str(v.str()),
                other => panic!("no reference append for run values of {other}"),
            }
            .expect("run-end append");
        }
        other => panic!("no reference append for {other}"),
    }
}

fn list<O: Offset>(l: &mut GenericListBuilder<O, Box<ArrayBuilder>>, f: &Field, xs: &[Value]) {
    for x in xs {
        append(l.values(), f.data_type(), x);
    }
    l.append(true);
}

fn list_view<O: Offset>(
    l: &mut GenericListViewBuilder<O, Box<ArrayBuilder>>,
    f: &Field,
    xs: &[Value],
) {
    for x in xs {
        append(l.values(), f.data_type(), x);
    }
    l.append(true);
}

impl Value {
    fn bool(&self) -> bool {
        match self {
            Value::Bool(b) => *b,
            v => panic!("not a boolean: {v:?}"),
        }
    }
    fn int(&self) -> i64 {
        match self {
            Value::Int(x) => *x,
            v => panic!("not an integer: {v:?}"),
        }
    }
    fn uint(&self) -> u64 {
        match self {
            Value::UInt(x) => *x,
            v => panic!("not an unsigned integer: {v:?}"),
        }
    }
    fn float_bits(&self) -> u64 {
        match self {
            Value::Float(x) => *x,
            v => panic!("not a float: {v:?}"),
        }
    }
    fn decimal(&self) -> i128 {
        match self {
            Value::Decimal(x) => *x,
            v => panic!("not a decimal: {v:?}"),
        }
    }
    fn str(&self) -> &str {
        match self {
            Value::Str(s) => s,
            v => panic!("not a string: {v:?}"),
        }
    }
    fn bytes(&self) -> &[u8] {
        match self {
            Value::Bytes(s) => s,
            v => panic!("not bytes: {v:?}"),
        }
    }
    fn list(&self) -> &[Value] {
        match self {
            Value::List(xs) => xs,
            v => panic!("not a list: {v:?}"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reader oracle

/// The values of every slot of `a`, read through the typed accessors.
pub fn read(a: &Array) -> Vec<Value> {
    let n = a.len();
    let out = match a.data_type() {
        DataType::Null => vec![Value::Null; a.as_null().expect("null layout").len()],
        DataType::Boolean => {
            let x = a.as_boolean().expect("boolean layout");
            (0..n)
                .map(|i| x.get(i).map_or(Value::Null, Value::Bool))
                .collect()
        }
        DataType::Int8 => prims(a, |v: i8| Value::Int(v.into())),
        DataType::Int32 | DataType::Date32 => prims(a, |v: i32| Value::Int(v.into())),
        DataType::Int64 | DataType::Timestamp(..) => prims(a, Value::Int),
        DataType::UInt16 => prims(a, |v: u16| Value::UInt(v.into())),
        DataType::UInt64 => prims(a, Value::UInt),
        DataType::Float32 => prims(a, |v: f32| Value::Float(v.to_bits().into())),
        DataType::Float64 => prims(a, |v: f64| Value::Float(v.to_bits())),
        DataType::Decimal128 { .. } => prims(a, |v: I128| Value::Decimal(v.to_i128())),
        DataType::Utf8 => strs(n, |i| a.as_utf8().expect("utf8 layout").get(i)),
        DataType::LargeUtf8 => strs(n, |i| a.as_large_utf8().expect("layout").get(i)),
        DataType::Utf8View => strs(n, |i| a.as_utf8_view().expect("view layout").get(i)),
        DataType::Binary => bins(n, |i| a.as_binary().expect("binary layout").get(i)),
        DataType::LargeBinary => bins(n, |i| a.as_large_binary().expect("layout").get(i)),
        DataType::BinaryView => bins(n, |i| a.as_binary_view().expect("view layout").get(i)),
        DataType::FixedSizeBinary(_) => {
            bins(n, |i| a.as_fixed_size_binary().expect("layout").get(i))
        }
        _ => read_nested(a),
    };
    assert_eq!(
        out.len(),
        n,
        "read {} slots of an array of length {n}",
        out.len()
    );
    out
}

fn prims<T: PrimitiveType>(a: &Array, f: impl Fn(T) -> Value) -> Vec<Value> {
    let p = a
        .as_primitive::<T>()
        .unwrap_or_else(|| panic!("{} is not stored as its native type", a.data_type()));
    (0..p.len())
        .map(|i| p.get(i).map_or(Value::Null, &f))
        .collect()
}

fn strs<'a>(n: usize, get: impl Fn(usize) -> Option<&'a str>) -> Vec<Value> {
    (0..n)
        .map(|i| get(i).map_or(Value::Null, |s| Value::Str(s.to_string())))
        .collect()
}

fn bins<'a>(n: usize, get: impl Fn(usize) -> Option<&'a [u8]>) -> Vec<Value> {
    (0..n)
        .map(|i| get(i).map_or(Value::Null, |s| Value::Bytes(s.to_vec())))
        .collect()
}

fn read_nested(a: &Array) -> Vec<Value> {
    let n = a.len();
    match a {
        Array::List(l) => read_list(l),
        Array::LargeList(l) => read_list(l),
        Array::ListView(l) => read_list_view(l),
        Array::LargeListView(l) => read_list_view(l),
        Array::FixedSizeList(l) => {
            let child = read(l.values());
            let w = l.size();
            (0..n)
                .map(|i| {
                    valid(l.is_valid(i), || {
                        Value::List(child[i * w..(i + 1) * w].to_vec())
                    })
                })
                .collect()
        }
        Array::Struct(s) => {
            let cols: Vec<Vec<Value>> = s.columns().iter().map(read).collect();
            for c in &cols {
                assert_eq!(c.len(), n, "struct child length");
            }
            (0..n)
                .map(|i| {
                    valid(s.is_valid(i), || {
                        Value::Struct(cols.iter().map(|c| c[i].clone()).collect())
                    })
                })
                .collect()
        }
        Array::Map(m) => {
            let (keys, values) = (read(m.keys()), read(m.values()));
            let o = m.offsets().as_slice();
            (0..n)
                .map(|i| {
                    valid(m.is_valid(i), || {
                        let r = o[i].as_usize()..o[i + 1].as_usize();
                        Value::Map(r.map(|k| (keys[k].clone(), values[k].clone())).collect())
                    })
                })
                .collect()
        }
        Array::Union(u) => {
            let children: Vec<Vec<Value>> = u.children().iter().map(read).collect();
            (0..n)
                .map(|i| {
                    let id = u.type_ids()[i];
                    let c = u.child_index(i);
                    assert_eq!(u.fields().type_ids()[c], id, "child index of slot {i}");
                    Value::Union(id, Box::new(children[c][u.value_offset(i)].clone()))
                })
                .collect()
        }
        Array::Dictionary(d) => {
            let values = read(d.values());
            (0..n)
                .map(|i| d.key(i).map_or(Value::Null, |k| values[k].clone()))
                .collect()
        }
        Array::RunEndEncoded(r) => {
            let values = read(r.values());
            (0..n)
                .map(|i| values[r.physical_index(i)].clone())
                .collect()
        }
        other => panic!("no reader for {}", other.data_type()),
    }
}

fn valid(is_valid: bool, value: impl FnOnce() -> Value) -> Value {
    if is_valid { value() } else { Value::Null }
}

fn read_list<O: Offset>(l: &GenericListArray<O>) -> Vec<Value> {
    let child = read(l.values());
    let o = l.offsets().as_slice();
    (0..l.len())
        .map(|i| {
            valid(l.is_valid(i), || {
                Value::List(child[o[i].as_usize()..o[i + 1].as_usize()].to_vec())
            })
        })
        .collect()
}

fn read_list_view<O: Offset>(l: &GenericListViewArray<O>) -> Vec<Value> {
    let child = read(l.values());
    (0..l.len())
        .map(|i| {
            valid(l.is_valid(i), || {
                let start = l.offsets()[i].as_usize();
                Value::List(child[start..start + l.sizes()[i].as_usize()].to_vec())
            })
        })
        .collect()
}
