//! The JSON writer (JSON Lines or one JSON array).

use crate::types::format_data_type;
use crate::value::{BinaryText, write_text};
use quiver_arrow::display::KnownExtension;
use quiver_arrow::{Array, DataType, Error, Field, RecordBatch, Result, Schema};
use std::io::Write;

/// The layout of [`JsonWriter`]'s output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonFormat {
    /// One object per row, each on its own line (JSON Lines).
    Lines,
    /// One JSON array of objects: `[`, rows separated by `,\n`, `]` (valid JSON even with no
    /// rows).
    Array,
}

/// Flush to the inner writer when the buffer grows beyond this.
const FLUSH_AT: usize = 1 << 16;

/// Writes record batches as JSON (value forms in the [module docs](super)).
///
/// ```
/// use quiver_text::json::{JsonWriter, JsonFormat};
/// use quiver_arrow::{Array, PrimitiveArray, StringArray, RecordBatch, Schema, Field, DataType};
/// let schema = Schema::new(vec![Field::new("id", DataType::Int32, true), Field::new("s", DataType::Utf8, true)]);
/// let batch = RecordBatch::try_new(schema.clone().into(), vec![
///     Array::from(PrimitiveArray::<i32>::from_options([Some(1), None])),
///     Array::from(StringArray::from_options([Some("a\"b"), Some("x")])),
/// ]).unwrap();
/// let mut w = JsonWriter::try_new(Vec::new(), &schema, JsonFormat::Lines).unwrap();
/// w.write(&batch).unwrap();
/// let text = String::from_utf8(w.finish().unwrap()).unwrap();
/// assert_eq!(text, "{\"id\":1,\"s\":\"a\\\"b\"}\n{\"id\":null,\"s\":\"x\"}\n");
/// ```
pub struct JsonWriter<W: Write> {
    w: W,
    schema: Schema,
    format: JsonFormat,
    /// Escaped `"name":` of each column.
    keys: Vec<Vec<u8>>,
    buf: Vec<u8>,
    enc: Enc,
    rows: u64,
}

/// How [`JsonWriter`] writes NaN and ±infinity, which JSON numbers cannot hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NonFinite {
    /// `null` (default): the convention of pandas and polars, so that pyarrow, polars and
    /// DuckDB read the column as numbers (the values read back as nulls).
    #[default]
    Null,
    /// The strings `"NaN"`, `"inf"`, `"-inf"`: the values survive, and quiver reads them back
    /// into a float column (inferred when the column also has numbers, or with a schema), but
    /// other readers see a column of strings.
    String,
}

/// State shared by the value encoders.
struct Enc {
    scratch: Vec<u8>,
    non_finite: NonFinite,
}

impl<W: Write> JsonWriter<W> {
    /// A writer for batches of `schema`; every type can be written.
    pub fn try_new(w: W, schema: &Schema, format: JsonFormat) -> Result<Self> {
        let keys = schema
            .fields
            .iter()
            .map(|f| {
                let mut k = Vec::new();
                escape(&mut k, f.name().as_bytes());
                k.push(b':');
                k
            })
            .collect();
        let mut buf = Vec::with_capacity(FLUSH_AT + 1024);
        if format == JsonFormat::Array {
            buf.push(b'[');
        }
        Ok(JsonWriter {
            w,
            schema: schema.clone(),
            format,
            keys,
            buf,
            enc: Enc {
                scratch: Vec::new(),
                non_finite: NonFinite::Null,
            },
            rows: 0,
        })
    }

    /// Sets how NaN and infinities are written (default [`NonFinite::Null`]).
    pub fn with_non_finite(mut self, non_finite: NonFinite) -> Self {
        self.enc.non_finite = non_finite;
        self
    }

    /// Writes the rows of `batch`, whose column types must be the schema's.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        check_batch(&self.schema, batch)?;
        for row in 0..batch.num_rows() {
            if self.format == JsonFormat::Array && self.rows > 0 {
                self.buf.extend_from_slice(b",\n");
            }
            self.buf.push(b'{');
            for (c, (key, col)) in self.keys.iter().zip(batch.columns()).enumerate() {
                if c > 0 {
                    self.buf.push(b',');
                }
                self.buf.extend_from_slice(key);
                field_value(
                    &mut self.buf,
                    &mut self.enc,
                    &self.schema.fields[c],
                    col,
                    row,
                );
            }
            self.buf.push(b'}');
            if self.format == JsonFormat::Lines {
                self.buf.push(b'\n');
            }
            self.rows += 1;
            if self.buf.len() >= FLUSH_AT {
                self.w.write_all(&self.buf)?;
                self.buf.clear();
            }
        }
        Ok(())
    }

    /// Writes what is buffered (and the closing `]` of [`JsonFormat::Array`]), flushes and
    /// returns the inner writer.
    pub fn finish(mut self) -> Result<W> {
        if self.format == JsonFormat::Array {
            self.buf.extend_from_slice(b"]\n");
        }
        self.w.write_all(&self.buf)?;
        self.w.flush()?;
        Ok(self.w)
    }
}

fn check_batch(schema: &Schema, batch: &RecordBatch) -> Result<()> {
    if batch.num_columns() != schema.fields.len() {
        return Err(Error::invalid(format!(
            "the batch has {} columns, the JSON writer's schema {}",
            batch.num_columns(),
            schema.fields.len()
        )));
    }
    for (f, c) in schema.fields.iter().zip(batch.columns()) {
        if c.data_type() != f.data_type() {
            return Err(Error::invalid(format!(
                "column {:?} has type {} in the batch but {} in the writer's schema",
                f.name(),
                format_data_type(c.data_type()),
                format_data_type(f.data_type())
            )));
        }
    }
    Ok(())
}

/// Appends `bytes` as a JSON string (quoted, escaped).
fn escape(out: &mut Vec<u8>, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0..=0x1f => b"",
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        if esc.is_empty() {
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(b >> 4)]);
            out.push(HEX[usize::from(b & 15)]);
        } else {
            out.extend_from_slice(esc);
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// Whether values of `dt` are written as bare JSON numbers.
fn is_number(dt: &DataType) -> bool {
    dt.is_integer() || matches!(dt, DataType::Duration(_))
}

/// Slot `i` of `a`, a column of `field`, as JSON: a UUID (`arrow.uuid`) as its text, a bool8
/// (`arrow.bool8`) as `true`/`false`, anything else as [`value`] writes it.
fn field_value(out: &mut Vec<u8>, enc: &mut Enc, field: &Field, a: &Array, i: usize) {
    let known = KnownExtension::of(field);
    if a.is_null(i) || !matches!(known, Some(KnownExtension::Uuid | KnownExtension::Bool8)) {
        return value(out, enc, a, i);
    }
    enc.scratch.clear();
    crate::value::write_field_text(&mut enc.scratch, field, a, i, BinaryText::Hex);
    if known == Some(KnownExtension::Bool8) {
        out.extend_from_slice(&enc.scratch);
    } else {
        escape(out, &enc.scratch);
    }
}

/// Slot `i` of `a` as JSON.
fn value(out: &mut Vec<u8>, enc: &mut Enc, a: &Array, i: usize) {
    if !matches!(a, Array::Union(_) | Array::Dictionary(_)) && a.is_null(i) {
        out.extend_from_slice(b"null");
        return;
    }
    match a {
        Array::Null(_) => out.extend_from_slice(b"null"),
        Array::Boolean(x) => out.extend_from_slice(if x.value(i) { b"true" } else { b"false" }),
        Array::F16(x) if x.value(i).is_finite() => write_text(out, a, i, BinaryText::Hex),
        Array::F32(x) if x.value(i).is_finite() => write_text(out, a, i, BinaryText::Hex),
        Array::F64(x) if x.value(i).is_finite() => write_text(out, a, i, BinaryText::Hex),
        Array::List(_)
        | Array::LargeList(_)
        | Array::ListView(_)
        | Array::LargeListView(_)
        | Array::FixedSizeList(_)
        | Array::Struct(_)
        | Array::Map(_)
        | Array::Union(_)
        | Array::Dictionary(_)
        | Array::RunEndEncoded(_) => nested(out, enc, a, i),
        _ if is_number(a.data_type()) => write_text(out, a, i, BinaryText::Hex),
        Array::F16(_) | Array::F32(_) | Array::F64(_) => non_finite(out, enc, a, i),
        _ => {
            enc.scratch.clear();
            write_text(&mut enc.scratch, a, i, BinaryText::Hex);
            escape(out, &enc.scratch);
        }
    }
}

/// A NaN or infinity: `null`, or its text (`"NaN"`, `"inf"`, `"-inf"`).
fn non_finite(out: &mut Vec<u8>, enc: &mut Enc, a: &Array, i: usize) {
    match enc.non_finite {
        NonFinite::Null => out.extend_from_slice(b"null"),
        NonFinite::String => {
            enc.scratch.clear();
            write_text(&mut enc.scratch, a, i, BinaryText::Hex);
            escape(out, &enc.scratch);
        }
    }
}

fn nested(out: &mut Vec<u8>, enc: &mut Enc, a: &Array, i: usize) {
    match a {
        Array::List(x) => items(out, enc, a, x.values(), x.offsets().range(i)),
        Array::LargeList(x) => items(out, enc, a, x.values(), x.offsets().range(i)),
        Array::ListView(x) => {
            let start = x.offsets()[i].max(0) as usize;
            items(
                out,
                enc,
                a,
                x.values(),
                start..start + x.sizes()[i].max(0) as usize,
            )
        }
        Array::LargeListView(x) => {
            let start = x.offsets()[i].max(0) as usize;
            items(
                out,
                enc,
                a,
                x.values(),
                start..start + x.sizes()[i].max(0) as usize,
            )
        }
        Array::FixedSizeList(x) => items(out, enc, a, x.values(), i * x.size()..(i + 1) * x.size()),
        Array::Struct(x) => {
            out.push(b'{');
            for (n, (f, c)) in x.fields().iter().zip(x.columns()).enumerate() {
                if n > 0 {
                    out.push(b',');
                }
                escape(out, f.name().as_bytes());
                out.push(b':');
                field_value(out, enc, f, c, i);
            }
            out.push(b'}');
        }
        Array::Map(m) => map(out, enc, m, i),
        Array::Union(u) => {
            let (c, offset) = (u.child_index(i), u.value_offset(i));
            value(out, enc, &u.children()[c], offset);
        }
        Array::Dictionary(d) => match d.key(i) {
            Some(k) if k < d.values().len() => value(out, enc, d.values(), k),
            _ => out.extend_from_slice(b"null"),
        },
        Array::RunEndEncoded(r) => value(out, enc, r.values(), r.physical_index(i)),
        _ => out.extend_from_slice(b"null"),
    }
}

/// The items `range` of `child`, the values of list array `list` (whose item field carries the
/// items' extension type, if any).
fn items(
    out: &mut Vec<u8>,
    enc: &mut Enc,
    list: &Array,
    child: &Array,
    range: std::ops::Range<usize>,
) {
    let item = match list.data_type() {
        DataType::List(f)
        | DataType::LargeList(f)
        | DataType::ListView(f)
        | DataType::LargeListView(f)
        | DataType::FixedSizeList(f, _) => Some(f.clone()),
        _ => None,
    };
    out.push(b'[');
    for (n, k) in range.enumerate() {
        if n > 0 {
            out.push(b',');
        }
        match &item {
            Some(f) => field_value(out, enc, f, child, k),
            None => value(out, enc, child, k),
        }
    }
    out.push(b']');
}

fn map(out: &mut Vec<u8>, enc: &mut Enc, m: &quiver_arrow::MapArray, i: usize) {
    let (keys, values) = (m.keys(), m.values());
    let string_keys = matches!(
        keys.data_type(),
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
    );
    out.push(if string_keys { b'{' } else { b'[' });
    for (n, k) in m.offsets().range(i).enumerate() {
        if n > 0 {
            out.push(b',');
        }
        if string_keys {
            value(out, enc, keys, k);
            out.push(b':');
        } else {
            out.extend_from_slice(b"{\"key\":");
            value(out, enc, keys, k);
            out.extend_from_slice(b",\"value\":");
        }
        value(out, enc, values, k);
        if !string_keys {
            out.push(b'}');
        }
    }
    out.push(if string_keys { b'}' } else { b']' });
}
