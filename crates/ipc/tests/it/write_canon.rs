//! The canonical JSON `tests/py/read_ipc.py` prints, built from quiver arrays with the same
//! rules (see the script's documentation), and the lines it prints for a whole input.

use quiver_arrow::{Array, Metadata, RecordBatch, Schema};
use std::fmt::{self, Write};

/// A JSON value, printed as Python's `json.dumps(separators=(",", ":"), ensure_ascii=True)`.
#[derive(Clone, Debug, PartialEq)]
pub enum J {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    List(Vec<J>),
    Obj(Vec<(String, J)>),
}

fn write_str(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            '\u{8}' => f.write_str("\\b")?,
            '\u{c}' => f.write_str("\\f")?,
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    write!(f, "\\u{u:04x}")?;
                }
            }
            c => f.write_char(c)?,
        }
    }
    f.write_char('"')
}

impl fmt::Display for J {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            J::Null => f.write_str("null"),
            J::Bool(b) => write!(f, "{b}"),
            J::Int(i) => write!(f, "{i}"),
            J::Str(s) => write_str(f, s),
            J::List(items) => {
                f.write_char('[')?;
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_char(']')
            }
            J::Obj(entries) => {
                f.write_char('{')?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    write_str(f, k)?;
                    write!(f, ":{v}")?;
                }
                f.write_char('}')
            }
        }
    }
}

fn hex(bytes: &[u8]) -> J {
    J::Str(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Metadata as a JSON object.
pub fn metadata(m: &Metadata) -> J {
    J::Obj(
        m.iter()
            .map(|(k, v)| (k.clone(), J::Str(v.clone())))
            .collect(),
    )
}

/// The canonical values of every slot of `a`.
pub fn canon(a: &Array) -> Vec<J> {
    match a {
        Array::Dictionary(d) => {
            let values = canon(d.values());
            (0..d.len())
                .map(|i| d.key(i).map_or(J::Null, |k| values[k].clone()))
                .collect()
        }
        Array::RunEndEncoded(r) => {
            let values = canon(r.values());
            (0..r.len())
                .map(|i| values[r.physical_index(i)].clone())
                .collect()
        }
        Array::Union(u) => {
            let children: Vec<Vec<J>> = u.children().iter().map(canon).collect();
            let pair = |i: usize| {
                let v = children[u.child_index(i)][u.value_offset(i)].clone();
                J::List(vec![J::Int(u.type_ids()[i] as i64), v])
            };
            (0..u.len()).map(pair).collect()
        }
        _ => {
            let values = slot_values(a);
            let valid =
                |i: usize| a.validity().is_none_or(|v| v.get(i)) && !matches!(a, Array::Null(_));
            values
                .into_iter()
                .enumerate()
                .map(|(i, v)| if valid(i) { v } else { J::Null })
                .collect()
        }
    }
}

/// Values of every slot, ignoring validity.
fn slot_values(a: &Array) -> Vec<J> {
    let n = a.len();
    quiver_arrow::match_primitive!(a, p => {
        let bytes = p.values().bytes();
        let w = bytes.len() / n.max(1);
        return (0..n).map(|i| hex(&bytes[i * w..(i + 1) * w])).collect();
    }, _ => {});
    match a {
        Array::Null(_) => vec![J::Null; n],
        Array::Boolean(b) => (0..n).map(|i| J::Bool(b.value(i))).collect(),
        Array::Binary(b) => (0..n).map(|i| hex(b.value(i))).collect(),
        Array::LargeBinary(b) => (0..n).map(|i| hex(b.value(i))).collect(),
        Array::BinaryView(b) => (0..n).map(|i| hex(b.value(i))).collect(),
        Array::FixedSizeBinary(b) => (0..n).map(|i| hex(b.value(i))).collect(),
        Array::Utf8(s) => (0..n).map(|i| J::Str(s.value(i).into())).collect(),
        Array::LargeUtf8(s) => (0..n).map(|i| J::Str(s.value(i).into())).collect(),
        Array::Utf8View(s) => (0..n).map(|i| J::Str(s.value(i).into())).collect(),
        Array::List(l) => lists(&canon(l.values()), (0..n).map(|i| l.offsets().range(i))),
        Array::LargeList(l) => lists(&canon(l.values()), (0..n).map(|i| l.offsets().range(i))),
        Array::ListView(l) => {
            let r = |i: usize| l.offsets()[i] as usize..(l.offsets()[i] + l.sizes()[i]) as usize;
            lists(&canon(l.values()), (0..n).map(r))
        }
        Array::LargeListView(l) => {
            let r = |i: usize| l.offsets()[i] as usize..(l.offsets()[i] + l.sizes()[i]) as usize;
            lists(&canon(l.values()), (0..n).map(r))
        }
        Array::FixedSizeList(l) => {
            let k = l.size();
            lists(&canon(l.values()), (0..n).map(|i| i * k..(i + 1) * k))
        }
        Array::Struct(s) => {
            let names: Vec<String> = s.fields().iter().map(|f| f.name().to_string()).collect();
            let children: Vec<Vec<J>> = s.columns().iter().map(canon).collect();
            let row = |i: usize| {
                J::Obj(
                    names
                        .iter()
                        .cloned()
                        .zip(children.iter().map(|c| c[i].clone()))
                        .collect(),
                )
            };
            (0..n).map(row).collect()
        }
        Array::Map(m) => {
            let (keys, values) = (canon(m.keys()), canon(m.values()));
            let entry = |j: usize| J::List(vec![keys[j].clone(), values[j].clone()]);
            (0..n)
                .map(|i| J::List(m.offsets().range(i).map(entry).collect()))
                .collect()
        }
        other => unreachable!("{} has no slot values of its own", other.data_type()),
    }
}

fn lists(child: &[J], ranges: impl Iterator<Item = std::ops::Range<usize>>) -> Vec<J> {
    ranges.map(|r| J::List(child[r].to_vec())).collect()
}

/// A field as the script prints it.
fn field_line(f: &quiver_arrow::Field, pyarrow_type: &str) -> String {
    let obj = J::Obj(vec![
        ("name".into(), J::Str(f.name().into())),
        ("type".into(), J::Str(pyarrow_type.into())),
        ("nullable".into(), J::Bool(f.is_nullable())),
        ("metadata".into(), metadata(f.metadata())),
    ]);
    format!("FIELD {obj}")
}

/// Types pyarrow reads but has no Python array class for (the script prints a marker for
/// their values).
const NO_PYTHON_CLASS: [&str; 2] = ["month_interval", "day_time_interval"];

/// What one written input should look like to pyarrow.
pub struct Expected<'a> {
    pub schema: &'a Schema,
    /// The pyarrow type string of each field.
    pub types: &'a [&'a str],
    /// Footer custom metadata (`Some` for files).
    pub footer: Option<&'a Metadata>,
    /// Each batch with its message-level custom metadata.
    pub batches: &'a [(RecordBatch, Metadata)],
}

impl Expected<'_> {
    /// The lines the script prints for the input, without `FILE`, `SCHEMA` and `END`.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!(
            "SCHEMA_METADATA {}",
            metadata(&self.schema.metadata)
        )];
        for (f, t) in self.schema.fields.iter().zip(self.types) {
            out.push(field_line(f, t));
        }
        if let Some(m) = self.footer {
            out.push(format!("FOOTER_METADATA {}", metadata(m)));
        }
        for (b, m) in self.batches {
            out.push(format!("BATCH {}", metadata(m)));
            for (c, t) in b.columns().iter().zip(self.types) {
                let values = if NO_PYTHON_CLASS.contains(t) {
                    J::Str("no python array class".into())
                } else {
                    J::List(canon(c))
                };
                out.push(format!("COLUMN {values}"));
            }
        }
        out
    }
}
