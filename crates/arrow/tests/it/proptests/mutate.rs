//! Values near a given one, for equality tests: parts swapped for random values, leaves
//! changed in place, null union slots given other type ids.

use super::model::{Value, is_null_slot};
use quiver_arrow::{DataType, Fields};

/// A small deterministic generator for mutation choices (SplitMix64).
pub struct Coins(u64);

impl Coins {
    pub fn new(seed: u64) -> Self {
        Coins(seed)
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// True with probability `1 / n`.
    fn one_in(&mut self, n: u64) -> bool {
        self.next() % n == 0
    }
}

/// A value of the same type as `a` and `fresh` that is mostly `a`, with parts of `fresh`
/// swapped in at random depths (each node is replaced with probability `1 / rate`).
pub fn merge(a: &Value, fresh: &Value, coins: &mut Coins, rate: u64) -> Value {
    if coins.one_in(rate) {
        return fresh.clone();
    }
    let mut pair = |x: &Value, y: &Value| merge(x, y, coins, rate);
    match (a, fresh) {
        (Value::List(xs), Value::List(ys)) => {
            let mut out: Vec<Value> = xs.iter().zip(ys).map(|(x, y)| pair(x, y)).collect();
            out.extend(xs.iter().skip(ys.len()).cloned());
            Value::List(out)
        }
        (Value::Struct(xs), Value::Struct(ys)) => {
            Value::Struct(xs.iter().zip(ys).map(|(x, y)| pair(x, y)).collect())
        }
        (Value::Map(xs), Value::Map(ys)) => {
            let mut out: Vec<(Value, Value)> = (xs.iter().zip(ys))
                .map(|((kx, vx), (ky, vy))| (pair(kx, ky), pair(vx, vy)))
                .collect();
            out.extend(xs.iter().skip(ys.len()).cloned());
            Value::Map(out)
        }
        (Value::Union(ix, x), Value::Union(iy, y)) if ix == iy => {
            Value::Union(*ix, Box::new(pair(x, y)))
        }
        _ => a.clone(),
    }
}

/// `a` with slots merged with `fresh` (same length or not: extra slots of `a` are kept).
pub fn merge_all(a: &[Value], fresh: &[Value], seed: u64, rate: u64) -> Vec<Value> {
    let mut coins = Coins::new(seed);
    a.iter()
        .enumerate()
        .map(|(i, x)| match fresh.get(i) {
            Some(y) => merge(x, y, &mut coins, rate),
            None => x.clone(),
        })
        .collect()
}

/// `v` with some leaves (each with probability `1 / rate`) changed to a nearby value of the
/// same shape: the lowest bit of a number flipped, a boolean negated, the last byte of a
/// binary or the last ASCII character of a string changed (same lengths, so that equality
/// kernels must look past equal offsets).
pub fn tweak(v: &Value, coins: &mut Coins, rate: u64) -> Value {
    let mut go = |x: &Value| tweak(x, coins, rate);
    match v {
        Value::List(xs) => Value::List(xs.iter().map(&mut go).collect()),
        Value::Struct(xs) => Value::Struct(xs.iter().map(&mut go).collect()),
        Value::Map(kv) => Value::Map(kv.iter().map(|(k, x)| (go(k), go(x))).collect()),
        Value::Union(id, x) => Value::Union(*id, Box::new(go(x))),
        Value::Null => Value::Null,
        leaf if !coins.one_in(rate) => leaf.clone(),
        Value::Bool(b) => Value::Bool(!b),
        Value::Int(x) => Value::Int(x ^ 1),
        Value::UInt(x) => Value::UInt(x ^ 1),
        Value::Float(x) => Value::Float(x ^ 1),
        Value::Decimal(x) => Value::Decimal(x ^ 1),
        Value::Bytes(b) => {
            let mut b = b.clone();
            if let Some(last) = b.last_mut() {
                *last ^= 1;
            }
            Value::Bytes(b)
        }
        Value::Str(s) => {
            let mut s = s.clone();
            if let Some(c) = s.pop() {
                s.push(if c.is_ascii() {
                    ((c as u8) ^ 1) as char
                } else {
                    c
                });
            }
            Value::Str(s)
        }
    }
}

/// [`tweak`] of every value.
pub fn tweak_all(vs: &[Value], seed: u64, rate: u64) -> Vec<Value> {
    let mut coins = Coins::new(seed);
    vs.iter().map(|v| tweak(v, &mut coins, rate)).collect()
}

/// `v` (of type `dt`) with every null union slot given a random declared type id (and a null
/// of that child): logically the same value, physically different.
pub fn retag(dt: &DataType, v: &Value, coins: &mut Coins) -> Value {
    match (dt, v) {
        (DataType::Union(fields, _), Value::Union(id, x)) => {
            if is_null_slot(v) {
                let ids = fields.type_ids();
                let id = ids[(coins.next() % ids.len() as u64) as usize];
                return Value::Union(id, Box::new(Value::Null));
            }
            let c = fields.index_of(*id).expect("a declared type id");
            Value::Union(
                *id,
                Box::new(retag(fields.fields()[c].data_type(), x, coins)),
            )
        }
        (
            DataType::List(f)
            | DataType::LargeList(f)
            | DataType::ListView(f)
            | DataType::LargeListView(f)
            | DataType::FixedSizeList(f, _),
            Value::List(xs),
        ) => Value::List(xs.iter().map(|x| retag(f.data_type(), x, coins)).collect()),
        (DataType::Struct(fields), Value::Struct(xs)) => {
            Value::Struct(retag_fields(fields, xs, coins))
        }
        (DataType::Map(entries, _), Value::Map(kv)) => {
            let DataType::Struct(fields) = entries.data_type() else {
                unreachable!("generated maps have struct entries")
            };
            let value_type = fields[1].data_type();
            Value::Map(
                kv.iter()
                    .map(|(k, x)| (k.clone(), retag(value_type, x, coins)))
                    .collect(),
            )
        }
        _ => v.clone(),
    }
}

fn retag_fields(fields: &Fields, xs: &[Value], coins: &mut Coins) -> Vec<Value> {
    fields
        .iter()
        .zip(xs)
        .map(|(f, x)| retag(f.data_type(), x, coins))
        .collect()
}

/// [`retag`] of every value.
pub fn retag_all(dt: &DataType, vs: &[Value], seed: u64) -> Vec<Value> {
    let mut coins = Coins::new(seed);
    vs.iter().map(|v| retag(dt, v, &mut coins)).collect()
}
