//! Random nested columns: every shape the shredder handles, random nulls at every nullable
//! level, slices at every level (children longer than referenced, offsets not starting at 0),
//! empty lists, null list entries whose offsets still span child values, list views out of
//! order and overlapping.

use super::*;
use quiver_arrow::buffer::{Bitmap, Buffer, OffsetBuffer};

/// A random field at `depth` (leaves only from depth 3).
pub(super) fn field(rng: &mut Rng, name: &str, depth: usize) -> Field {
    let t = data_type(rng, depth);
    let nullable = matches!(t, DataType::Null) || rng.below(2) == 0;
    Field::new(name, t, nullable)
}

fn data_type(rng: &mut Rng, depth: usize) -> DataType {
    let child = |rng: &mut Rng| Arc::new(field(rng, "item", depth + 1));
    if depth >= 3 || rng.below(3) == 0 {
        return match rng.below(7) {
            0 => DataType::Utf8,
            1 => DataType::Boolean,
            2 => DataType::dictionary(IntegerType::Int8, DataType::Utf8),
            3 => DataType::RunEndEncoded(
                Arc::new(Field::new("run_ends", DataType::Int32, false)),
                Arc::new(Field::new("values", DataType::Int64, true)),
            ),
            4 => DataType::Null,
            _ => DataType::Int32,
        };
    }
    match rng.below(7) {
        0 => {
            let n = 1 + rng.below(3) as usize;
            let fields: Vec<Field> = (0..n)
                .map(|i| field(rng, &format!("f{i}"), depth + 1))
                .collect();
            DataType::Struct(fields.into())
        }
        1 => DataType::List(child(rng)),
        2 => DataType::LargeList(child(rng)),
        3 => DataType::ListView(child(rng)),
        4 => DataType::LargeListView(child(rng)),
        5 => DataType::FixedSizeList(child(rng), rng.below(3) as i32),
        _ => {
            let key = Field::new("key", DataType::Int32, false);
            let value = field(rng, "value", depth + 1);
            let entries = Field::new("entries", DataType::Struct(vec![key, value].into()), false);
            DataType::Map(Arc::new(entries), false)
        }
    }
}

/// A random array of `field` with `len` slots, sliced out of a longer one.
pub(super) fn array(rng: &mut Rng, field: &Field, len: usize) -> Array {
    let (pre, post) = (rng.below(3) as usize, rng.below(3) as usize);
    let full = raw(
        rng,
        field.data_type(),
        field.is_nullable(),
        pre + len + post,
    );
    full.slice(pre, len)
}

/// Validity with about a third nulls when nullable (sometimes none at all).
fn validity(rng: &mut Rng, nullable: bool, n: usize) -> Option<Bitmap> {
    (nullable && rng.below(4) != 0).then(|| (0..n).map(|_| rng.below(3) != 0).collect())
}

fn options<T>(
    rng: &mut Rng,
    nullable: bool,
    n: usize,
    mut f: impl FnMut(&mut Rng) -> T,
) -> Vec<Option<T>> {
    let v = validity(rng, nullable, n);
    (0..n)
        .map(|i| {
            let x = f(rng);
            v.as_ref().is_none_or(|v| v.get(i)).then_some(x)
        })
        .collect()
}

const WORDS: [&str; 4] = ["a", "bb", "", "dddd"];

fn raw(rng: &mut Rng, t: &DataType, nullable: bool, n: usize) -> Array {
    match t {
        DataType::Int32 => {
            PrimitiveArray::<i32>::from_options(options(rng, nullable, n, |r| r.below(100) as i32))
                .into()
        }
        DataType::Int64 => {
            PrimitiveArray::<i64>::from_options(options(rng, nullable, n, |r| r.below(100) as i64))
                .into()
        }
        DataType::Boolean => {
            BooleanArray::from_options(options(rng, nullable, n, |r| r.below(2) == 1)).into()
        }
        DataType::Utf8 => {
            StringArray::from_options(options(rng, nullable, n, |r| WORDS[r.below(4) as usize]))
                .into()
        }
        DataType::Null => NullArray::new(n).into(),
        DataType::Dictionary { .. } => {
            let m = 1 + rng.below(4) as usize;
            let values = StringArray::from_options(options(rng, nullable, m, |r| {
                WORDS[r.below(4) as usize]
            }));
            let m = values.len() as u64;
            let keys =
                PrimitiveArray::<i8>::from_options(options(rng, nullable, n, |r| r.below(m) as i8));
            DictionaryArray::try_new(keys.into(), Array::from(values), false)
                .unwrap()
                .into()
        }
        DataType::RunEndEncoded(..) => {
            let mut ends = Vec::new();
            let mut end = 0i32;
            while (end as usize) < n || ends.is_empty() {
                end += 1 + rng.below(4) as i32;
                ends.push(end);
            }
            let values =
                PrimitiveArray::<i64>::from_options(options(rng, nullable, ends.len(), |r| {
                    r.below(100) as i64
                }));
            let r = RunEndArray::try_new(PrimitiveArray::<i32>::new(ends).into(), values.into())
                .unwrap();
            Array::from(r).slice(0, n)
        }
        DataType::Struct(fields) => {
            let children = fields.iter().map(|f| array(rng, f, n)).collect();
            StructArray::try_new(fields.clone(), n, children, validity(rng, nullable, n))
                .unwrap()
                .into()
        }
        DataType::List(f) => {
            let (offsets, child_len, v) = offsets(rng, nullable, n);
            let o = OffsetBuffer::try_new(Buffer::from(
                offsets.iter().map(|&o| o as i32).collect::<Vec<_>>(),
            ))
            .unwrap();
            ListArray::try_new(f.clone(), o, array(rng, f, child_len), v)
                .unwrap()
                .into()
        }
        DataType::LargeList(f) => {
            let (offsets, child_len, v) = offsets(rng, nullable, n);
            let o = OffsetBuffer::try_new(Buffer::from(offsets)).unwrap();
            LargeListArray::try_new(f.clone(), o, array(rng, f, child_len), v)
                .unwrap()
                .into()
        }
        DataType::ListView(f) | DataType::LargeListView(f) => {
            let child_len = rng.below(10) as usize;
            let mut offsets = Vec::new();
            let mut sizes = Vec::new();
            for _ in 0..n {
                let o = rng.below(child_len as u64 + 1);
                let s = rng.below((child_len as u64 - o).min(4) + 1);
                offsets.push(o as i64);
                sizes.push(s as i64);
            }
            let child = array(rng, f, child_len);
            let v = validity(rng, nullable, n);
            if matches!(t, DataType::ListView(_)) {
                let narrow =
                    |x: Vec<i64>| Buffer::from(x.into_iter().map(|x| x as i32).collect::<Vec<_>>());
                ListViewArray::try_new(f.clone(), narrow(offsets), narrow(sizes), child, v)
                    .unwrap()
                    .into()
            } else {
                LargeListViewArray::try_new(f.clone(), offsets.into(), sizes.into(), child, v)
                    .unwrap()
                    .into()
            }
        }
        DataType::FixedSizeList(f, size) => {
            let child = array(rng, f, n * *size as usize);
            FixedSizeListArray::try_new(f.clone(), *size, n, child, validity(rng, nullable, n))
                .unwrap()
                .into()
        }
        DataType::Map(entries, _) => {
            let DataType::Struct(kv) = entries.data_type() else {
                unreachable!()
            };
            let (offsets, child_len, v) = offsets(rng, nullable, n);
            let o = OffsetBuffer::try_new(Buffer::from(
                offsets.iter().map(|&o| o as i32).collect::<Vec<_>>(),
            ))
            .unwrap();
            let keys = array(rng, &kv[0], child_len);
            let values = array(rng, &kv[1], child_len);
            let e = StructArray::try_new(kv.clone(), child_len, vec![keys, values], None).unwrap();
            MapArray::try_new(entries.clone(), false, o, e, v)
                .unwrap()
                .into()
        }
        other => unreachable!("{other}"),
    }
}

/// List offsets starting past some child values, with empty lists, nulls, and null entries that
/// still span child values; the child's length (some values after the last offset) and validity.
fn offsets(rng: &mut Rng, nullable: bool, n: usize) -> (Vec<i64>, usize, Option<Bitmap>) {
    let v = validity(rng, nullable, n);
    let mut o = vec![rng.below(3) as i64];
    for _ in 0..n {
        let len = rng.below(4) as i64;
        o.push(o.last().unwrap() + len);
    }
    let child_len = *o.last().unwrap() as usize + rng.below(3) as usize;
    (o, child_len, v)
}
