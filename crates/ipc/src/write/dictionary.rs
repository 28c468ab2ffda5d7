//! The write side of dictionaries: which dictionary each id last carried, and what a new batch
//! requires the writer to send.
//!
//! Dictionary-encoded arrays are found by field path (the convention of
//! [`DictionaryFields`](crate::DictionaryFields)): the children of a dictionary-encoded field are
//! its values' children, so dictionaries nested in dictionary values have paths of their own.
//! Nested dictionaries are sent before the dictionaries whose values use them.
//!
//! The file format cannot replace a dictionary. When a file writer's batch brings a
//! dictionary that neither equals nor extends the one sent (a Parquet column's dictionary per
//! row group, say), the tracker unifies it by value: the values its keys use that the reader
//! lacks go as a delta, and the batch is written with its keys mapped onto the dictionary the
//! reader then has. The values every slot reads are unchanged.

use crate::schema::IpcSchema;
use quiver_arrow::builder::DictionaryBuilder;
use quiver_arrow::compute::logical_eq;
use quiver_arrow::{Array, DictionaryArray, Error, IntegerType, PrimitiveArray, Result};
use std::collections::HashMap;
use std::sync::Arc;

/// One dictionary message to write.
#[derive(Clone, Debug)]
pub struct DictionaryUpdate {
    /// The dictionary id.
    pub id: i64,
    /// The values to send: the whole dictionary, or only the appended values of a delta.
    pub values: Array,
    /// True for a delta (values appended to what the reader has), false for a first
    /// dictionary or a replacement.
    pub is_delta: bool,
}

/// The dictionary messages a batch needs, not yet recorded as sent.
#[derive(Debug, Default)]
pub(crate) struct Pending {
    updates: Vec<DictionaryUpdate>,
    found: Vec<(i64, Arc<Array>)>,
    unified: Vec<(i64, Unified)>,
    columns: Option<Vec<Array>>,
}

impl Pending {
    /// The messages to write, nested dictionaries first.
    pub(crate) fn updates(&self) -> &[DictionaryUpdate] {
        &self.updates
    }

    /// The batch's columns with their keys mapped onto unified dictionaries, when any is: to
    /// encode only. Their unified dictionary arrays hold keys into the values sent under
    /// their ids, and no values (a record batch's body holds none); reading their values
    /// would fail.
    pub(crate) fn columns(&self) -> Option<&[Array]> {
        self.columns.as_deref()
    }
}

/// A dictionary id whose batches are unified by value (file format only): the dictionary the
/// reader has, indexed by value.
#[derive(Debug)]
struct Unifier {
    /// How many values were sent (the reader's dictionary; the values themselves are in
    /// `index`).
    sent: usize,
    /// No values, of the dictionary's value type: the values of the keyed arrays a
    /// unification gives, which only have their keys encoded (a batch's body holds no
    /// dictionary values), so that no batch copies the values sent before (which made a file
    /// of growing dictionaries quadratic to write).
    no_values: Arc<Array>,
    /// The same values, indexed by their bytes.
    index: DictionaryBuilder,
    /// The first null value sent, if any.
    null_at: Option<usize>,
    /// The last dictionary a batch brought, and where each of its values is in `sent`
    /// (`usize::MAX`: not yet needed), so batches sharing a dictionary map each value once.
    last: Option<(Arc<Array>, Vec<usize>)>,
}

/// What unifying one batch's dictionary does, to record on commit.
#[derive(Debug)]
struct Unified {
    /// A new unifier (the first unification of the id).
    start: Option<Unifier>,
    /// How many values were sent after this batch.
    sent: usize,
    /// The values the batch added (the delta).
    added: Array,
    /// The first null among the values sent, after this batch.
    null_at: Option<usize>,
    /// The batch's dictionary and its mapping.
    last: (Arc<Array>, Vec<usize>),
}

/// How a dictionary compares with the one sent before under its id.
enum Change {
    Same,
    Grew,
    Replaced,
}

/// The dictionaries a reader has received so far, by id.
///
/// ```
/// use quiver_arrow::{Array, DataType, DictionaryArray, Field, IntegerType, PrimitiveArray, Schema, StringArray};
/// use quiver_ipc::{IpcSchema, write::DictionaryTracker};
/// use std::sync::Arc;
/// let dt = DataType::dictionary(IntegerType::Int32, DataType::Utf8);
/// let schema = IpcSchema::new(Arc::new(Schema::new(vec![Field::new("d", dt, true)])));
/// let column = |values: &[&str]| {
///     let values = Array::from(StringArray::from_options(values.iter().map(|v| Some(*v))));
///     let keys = Array::from(PrimitiveArray::<i32>::new(vec![0]));
///     Array::from(DictionaryArray::try_new(keys, values, false).unwrap())
/// };
/// let mut t = DictionaryTracker::new(false, true);
/// let first = t.updates(&schema, &[column(&["a"])]).unwrap();
/// assert!(first.len() == 1 && !first[0].is_delta);
/// assert!(t.updates(&schema, &[column(&["a"])]).unwrap().is_empty()); // unchanged
/// let delta = t.updates(&schema, &[column(&["a", "b"])]).unwrap();
/// assert!(delta[0].is_delta && delta[0].values.len() == 1);
/// let replaced = t.updates(&schema, &[column(&["c"])]).unwrap();
/// assert!(!replaced[0].is_delta);
/// ```
#[derive(Debug, Default)]
pub struct DictionaryTracker {
    written: HashMap<i64, Arc<Array>>,
    unifiers: HashMap<i64, Unifier>,
    file_format: bool,
    emit_deltas: bool,
}

impl DictionaryTracker {
    /// A tracker for the file format (replacements are errors) or the stream format, sending
    /// grown dictionaries as deltas when `emit_deltas` is set.
    pub fn new(file_format: bool, emit_deltas: bool) -> Self {
        DictionaryTracker {
            written: HashMap::new(),
            unifiers: HashMap::new(),
            file_format,
            emit_deltas,
        }
    }

    /// The dictionary messages to write before a batch of `columns` (laid out as `schema`),
    /// nested dictionaries first, and records them as sent. On error nothing is recorded.
    ///
    /// Fails when a dictionary-encoded field has no id and when fields sharing an id carry
    /// different dictionaries. In the file format, a dictionary that would need replacing is
    /// unified by a [`FileWriter`](super::FileWriter), which also maps the batch's keys (see the
    /// module documentation); messages alone cannot express it, so here it is an error.
    pub fn updates(
        &mut self,
        schema: &IpcSchema,
        columns: &[Array],
    ) -> Result<Vec<DictionaryUpdate>> {
        let pending = self.plan(schema, columns)?;
        if pending.columns.is_some() {
            return Err(Error::invalid(
                "a dictionary changed between batches in a way only a replacement can express, \
                 which the IPC file format does not allow; a FileWriter unifies it and maps the \
                 batch's keys",
            ));
        }
        Ok(self.commit(pending))
    }

    /// Like [`DictionaryTracker::updates`], without recording anything yet.
    pub(crate) fn plan(&self, schema: &IpcSchema, columns: &[Array]) -> Result<Pending> {
        if schema.dictionaries.is_empty() {
            return Ok(Pending::default());
        }
        let (found, paths) = dictionaries_by_id(schema, columns)?;
        let mut p = Pending::default();
        let mut rekeyed: Vec<Keyed> = Vec::new();
        for (id, values) in found {
            let id_paths = &paths[&id];
            let mut started = None;
            let u = match self.unifiers.get(&id) {
                Some(u) => u,
                None => match self.update(id, &values)? {
                    Step::Send(update) => {
                        p.updates.push(*update);
                        p.found.push((id, values));
                        continue;
                    }
                    Step::Keep => {
                        p.found.push((id, values));
                        continue;
                    }
                    Step::Unify(prev) => started.insert(
                        Unifier::start(prev)
                            .map_err(|e| e.context(unifying(schema, id, id_paths)))?,
                    ),
                },
            };
            if id_paths.iter().any(|q| nested_in_dictionary(schema, q)) {
                return Err(Error::not_supported(format!(
                    "dictionary {id} changed between batches, and the IPC file format cannot \
                     replace a dictionary: unifying a dictionary in another dictionary's \
                     values"
                )));
            }
            let (mut unified, keyed) = u
                .unify(&values, columns, id_paths)
                .map_err(|e| e.context(unifying(schema, id, id_paths)))?;
            if !unified.added.is_empty() {
                if !self.emit_deltas {
                    return Err(Error::invalid(format!(
                        "dictionary {id} changed between batches, and the IPC file format \
                         cannot replace a dictionary: enable dictionary deltas to unify it"
                    )));
                }
                p.updates.push(DictionaryUpdate {
                    id,
                    values: unified.added.clone(),
                    is_delta: true,
                });
            }
            rekeyed.extend(keyed);
            unified.start = started;
            p.unified.push((id, unified));
        }
        if !rekeyed.is_empty() {
            p.columns = Some(replace_at_paths(columns, rekeyed)?);
        }
        Ok(p)
    }

    /// Records the dictionaries of a plan as sent; returns its messages.
    pub(crate) fn commit(&mut self, pending: Pending) -> Vec<DictionaryUpdate> {
        self.written.extend(pending.found);
        for (id, mut done) in pending.unified {
            if let Some(u) = done.start.take() {
                self.written.remove(&id);
                self.unifiers.insert(id, u);
            }
            if let Some(u) = self.unifiers.get_mut(&id) {
                // (Always there: a unification is of an id with a unifier, or starts one.)
                u.record(done);
            }
        }
        pending.updates
    }

    fn update(&self, id: i64, values: &Arc<Array>) -> Result<Step<'_>> {
        let Some(prev) = self.written.get(&id) else {
            return Ok(Step::Send(Box::new(full(id, values))));
        };
        match compare(prev, values) {
            Change::Same => Ok(Step::Keep),
            Change::Grew if self.emit_deltas => {
                let (from, to) = (prev.len(), values.len());
                Ok(Step::Send(Box::new(DictionaryUpdate {
                    id,
                    values: values.slice(from, to - from),
                    is_delta: true,
                })))
            }
            Change::Replaced if self.file_format => Ok(Step::Unify(prev)),
            _ if self.file_format => Err(Error::invalid(format!(
                "dictionary {id} grew between batches, and the IPC file format cannot \
                 replace a dictionary: enable dictionary deltas"
            ))),
            _ => Ok(Step::Send(Box::new(full(id, values)))),
        }
    }
}

/// What a batch's dictionary of an id (without a unifier) asks for.
enum Step<'a> {
    /// Nothing to send.
    Keep,
    /// A first dictionary, a delta or a replacement.
    Send(Box<DictionaryUpdate>),
    /// Unification, starting from the dictionary sent before.
    Unify(&'a Arc<Array>),
}

impl Unifier {
    /// A unifier whose reader has `sent`.
    fn start(sent: &Arc<Array>) -> Result<Unifier> {
        // The index only finds values; the batches' key type bounds the dictionary.
        let index = DictionaryBuilder::with_values(IntegerType::UInt64, sent)?;
        let null_at = (sent.null_count() > 0)
            .then(|| (0..sent.len()).find(|&i| sent.is_null(i)))
            .flatten();
        Ok(Unifier {
            sent: sent.len(),
            no_values: Arc::new(sent.slice(0, 0)),
            index,
            null_at,
            last: None,
        })
    }

    /// Maps the keys of the dictionary arrays at `paths` of `columns` (whose dictionary is
    /// `values`) onto the values sent, those missing added: the keyed arrays by path and what
    /// to record. Changes nothing.
    fn unify(
        &self,
        values: &Arc<Array>,
        columns: &[Array],
        paths: &[Vec<usize>],
    ) -> Result<(Unified, Vec<Keyed>)> {
        let mut mapping = match &self.last {
            Some((v, m)) if Arc::ptr_eq(v, values) => m.clone(),
            _ => vec![usize::MAX; values.len()],
        };
        let base = self.sent;
        let mut fresh: Option<DictionaryBuilder> = None;
        let mut null_at = self.null_at;
        let mut keyed = Vec::with_capacity(paths.len());
        for path in paths {
            let a = array_at(columns, path)?;
            let Array::Dictionary(d) = &a else {
                return Err(Error::oos(format!("no dictionary array at path {path:?}")));
            };
            let key = d.key_type();
            let mut resolve = |k: usize| -> Result<usize> {
                let slot = mapping.get_mut(k).ok_or_else(|| {
                    Error::invalid(format!(
                        "dictionary key {k} is beyond its {} values",
                        values.len()
                    ))
                })?;
                if *slot != usize::MAX {
                    return Ok(*slot);
                }
                let at = if values.is_null(k) {
                    match null_at {
                        Some(z) => z,
                        None => {
                            let f = fresh_builder(&mut fresh, key, values)?;
                            let z = base + f.values_len();
                            f.intern_value(values, k, &mut None)?;
                            null_at = Some(z);
                            z
                        }
                    }
                } else if let Some(i) = self.index.find_value(values, k)? {
                    i
                } else {
                    let f = fresh_builder(&mut fresh, key, values)?;
                    let mut no_null = Some(usize::MAX);
                    base + f.intern_value(values, k, &mut no_null)?
                };
                if !key.holds(at) {
                    return Err(Error::overflow(format!(
                        "the unified dictionary needs more than the {} values {} keys index \
                         (an IPC stream, which can replace dictionaries, holds these batches)",
                        key.max_value() as u128 + 1,
                        quiver_arrow::display::format_type(&key.data_type())
                    )));
                }
                *slot = at;
                Ok(at)
            };
            let keys = remap_keys(d.keys(), &mut resolve)?;
            keyed.push((path, keys, d.is_ordered()));
        }
        let added = match fresh {
            Some(mut f) => f.finish().values().as_ref().clone(),
            None => values.slice(0, 0),
        };
        let sent = base + added.len();
        let keyed = keyed
            .into_iter()
            .map(|(path, keys, ordered)| {
                // Keys into the values sent, which these arrays do not hold: only their keys
                // are encoded (`Pending::columns`). Not checked against the values, then.
                let d = DictionaryArray::try_new_deferred(keys, self.no_values.clone(), ordered)?;
                Ok((path.clone(), Array::from(d)))
            })
            .collect::<Result<Vec<_>>>()?;
        let unified = Unified {
            start: None,
            sent,
            added,
            null_at,
            last: (values.clone(), mapping),
        };
        Ok((unified, keyed))
    }

    /// Takes in what a committed batch did.
    fn record(&mut self, done: Unified) {
        for i in 0..done.added.len() {
            // The values were deduplicated against the index when planned (a null value
            // only when none was sent), so each is appended at its planned index; a null is
            // appended as one (`None`: no null entry to reuse). The index's u64 keys and the
            // value type (that of the values sent) cannot fail.
            let added = self.index.intern_value(&done.added, i, &mut None);
            debug_assert!(added.is_ok_and(|at| at + 1 == self.index.values_len()));
        }
        self.sent = done.sent;
        self.null_at = done.null_at;
        self.last = Some(done.last);
    }
}

/// The context of a unification's errors: the dictionary's id and the fields it encodes.
fn unifying(schema: &IpcSchema, id: i64, paths: &[Vec<usize>]) -> String {
    let fields: Vec<String> = paths
        .iter()
        .map(|p| crate::schema::path_name(&schema.schema, p))
        .collect();
    format!(
        "field {} (dictionary {id}): its dictionary changed between batches, and the IPC file \
         format cannot replace a dictionary, so the batches' dictionaries are unified",
        fields.join(", ")
    )
}

fn full(id: i64, values: &Arc<Array>) -> DictionaryUpdate {
    DictionaryUpdate {
        id,
        values: values.as_ref().clone(),
        is_delta: false,
    }
}

fn compare(prev: &Arc<Array>, new: &Arc<Array>) -> Change {
    if Arc::ptr_eq(prev, new) {
        return Change::Same;
    }
    if new.len() < prev.len() || !logical_eq(prev, &new.slice(0, prev.len())) {
        return Change::Replaced;
    }
    if new.len() == prev.len() {
        Change::Same
    } else {
        Change::Grew
    }
}

/// The builder of the values a batch adds to a unified dictionary, made when first needed.
fn fresh_builder<'a>(
    fresh: &'a mut Option<DictionaryBuilder>,
    key: IntegerType,
    values: &Array,
) -> Result<&'a mut DictionaryBuilder> {
    match fresh {
        Some(f) => Ok(f),
        None => Ok(fresh.insert(DictionaryBuilder::try_new(key, values.data_type().clone())?)),
    }
}

/// True when the field at `path` lies in another dictionary's values.
fn nested_in_dictionary(schema: &IpcSchema, path: &[usize]) -> bool {
    (1..path.len()).any(|n| schema.dictionaries.id_at(&path[..n]).is_some())
}

/// The array at `path` (column index, then child indices), not inside dictionary values.
fn array_at(columns: &[Array], path: &[usize]) -> Result<Array> {
    let missing = || Error::oos(format!("no array at field path {path:?}"));
    let (&first, rest) = path.split_first().ok_or_else(missing)?;
    let mut a = columns.get(first).ok_or_else(missing)?.clone();
    for &j in rest {
        a = a.children().into_iter().nth(j).ok_or_else(missing)?;
    }
    Ok(a)
}

/// `columns` with the array at each path of `replaced` (paths as in [`array_at`]) replaced.
fn replace_at_paths(columns: &[Array], replaced: Vec<Keyed>) -> Result<Vec<Array>> {
    fn put(a: &Array, rest: &[usize], new: Array) -> Result<Array> {
        let Some((&j, rest)) = rest.split_first() else {
            return Ok(new);
        };
        let mut children = a.children();
        let child = children
            .get(j)
            .ok_or_else(|| Error::oos(format!("no child {j} of {}", a.data_type())))?;
        children[j] = put(child, rest, new)?;
        a.with_children(children)
    }
    let mut out = columns.to_vec();
    for (path, new) in replaced {
        let (&first, rest) = path
            .split_first()
            .ok_or_else(|| Error::oos("an empty field path"))?;
        let column = out
            .get_mut(first)
            .ok_or_else(|| Error::oos(format!("no column {first}")))?;
        *column = put(column, rest, new)?;
    }
    Ok(out)
}

/// Keys of the same type and validity as `keys`, each non-null key `k` replaced by
/// `resolve(k)`; null slots become 0.
fn remap_keys(keys: &Array, resolve: &mut dyn FnMut(usize) -> Result<usize>) -> Result<Array> {
    macro_rules! remap {
        ($k:expr, $t:ty) => {{
            let k = $k;
            let mut out: Vec<$t> = Vec::new();
            out.try_reserve_exact(k.len())
                .map_err(|e| Error::overflow(e.to_string()))?;
            for (i, v) in k.values().iter().enumerate() {
                if k.is_null(i) {
                    out.push(0);
                    continue;
                }
                let v = usize::try_from(v)
                    .map_err(|_| Error::invalid(format!("dictionary key {i} is negative")))?;
                // `resolve` checked the new key against the key type.
                out.push(<$t>::try_from(resolve(v)?).map_err(|_| {
                    Error::overflow(format!("a dictionary key past {}", stringify!($t)))
                })?);
            }
            let validity = k.validity().cloned();
            Array::from(PrimitiveArray::<$t>::try_new(
                k.data_type().clone(),
                out.into(),
                validity,
            )?)
        }};
    }
    Ok(match keys {
        Array::I8(k) => remap!(k, i8),
        Array::I16(k) => remap!(k, i16),
        Array::I32(k) => remap!(k, i32),
        Array::I64(k) => remap!(k, i64),
        Array::U8(k) => remap!(k, u8),
        Array::U16(k) => remap!(k, u16),
        Array::U32(k) => remap!(k, u32),
        Array::U64(k) => remap!(k, u64),
        other => {
            return Err(Error::oos(format!(
                "dictionary keys must be integers, not {}",
                other.data_type()
            )));
        }
    })
}

/// Every dictionary in `columns` with its id, nested ones first, each id once, and the field
/// paths of each id. Fields sharing an id must carry the same dictionary.
fn dictionaries_by_id(schema: &IpcSchema, columns: &[Array]) -> Result<(ById, Paths)> {
    let mut found = Vec::new();
    for (i, c) in columns.iter().enumerate() {
        walk(c, &mut vec![i], &mut found);
    }
    let mut out: Vec<(i64, Arc<Array>)> = Vec::new();
    let mut paths: Paths = HashMap::new();
    let mut first_path: HashMap<i64, (Vec<usize>, Arc<Array>)> = HashMap::new();
    for (path, values) in found {
        let id = schema.dictionaries.id_at(&path).ok_or_else(|| {
            Error::invalid(format!(
                "the dictionary-encoded array at field path {path:?} has no dictionary id"
            ))
        })?;
        paths.entry(id).or_default().push(path.clone());
        match first_path.get(&id) {
            None => {
                out.push((id, values.clone()));
                first_path.insert(id, (path, values));
            }
            Some((p, seen)) => {
                if !Arc::ptr_eq(seen, &values) && !logical_eq(seen, &values) {
                    return Err(Error::invalid(format!(
                        "dictionary {id} is shared by the fields at paths {p:?} and {path:?}, \
                         which carry different dictionaries"
                    )));
                }
            }
        }
    }
    Ok((out, paths))
}

/// A dictionary array with its keys mapped, and its field path.
type Keyed = (Vec<usize>, Array);

/// Each dictionary id with the values a batch carries.
type ById = Vec<(i64, Arc<Array>)>;

/// The field paths of each dictionary id.
type Paths = HashMap<i64, Vec<Vec<usize>>>;

type Found = Vec<(Vec<usize>, Arc<Array>)>;

/// Collects the dictionaries at and below `a` (at `path`), children before parents.
fn walk(a: &Array, path: &mut Vec<usize>, out: &mut Found) {
    if let Array::Dictionary(d) = a {
        // The values' children are the field's children (see `DictionaryFields`).
        walk(d.values(), path, out);
        out.push((path.clone(), d.values().clone()));
        return;
    }
    for (j, c) in a.children().iter().enumerate() {
        path.push(j);
        walk(c, path, out);
        path.pop();
    }
}
