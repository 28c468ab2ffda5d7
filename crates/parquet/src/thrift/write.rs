//! The compact-protocol encoder.

use super::ValueType;

/// A value the encoder can write as a field or a collection element.
pub trait ThriftWrite {
    /// The wire type this value is written as.
    const TYPE: ValueType;
    /// Writes one value (a `bool` as a collection element: one byte).
    fn write(&self, w: &mut CompactWriter);
}

/// A compact-protocol encoder appending to a byte vector.
///
/// Structs are written as [`Self::struct_begin`], fields (`field_*`), [`Self::struct_end`];
/// the encoder keeps the previous field id of each open struct to write short headers.
#[derive(Debug, Default)]
pub struct CompactWriter {
    buf: Vec<u8>,
    last: i16,
    stack: Vec<i16>,
}

impl CompactWriter {
    /// An empty encoder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets what was written, keeping the buffer for reuse.
    pub fn clear(&mut self) {
        self.buf.clear();
        self.last = 0;
        self.stack.clear();
    }

    /// The bytes written so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf
    }

    /// The bytes written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    /// Appends raw bytes (e.g. an already encoded struct).
    pub fn raw(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// Writes an unsigned varint (ULEB128).
    pub fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.buf.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.buf.push(v as u8);
    }

    /// Writes a zigzag `i16`.
    pub fn i16(&mut self, v: i16) {
        self.varint(u64::from(((v << 1) ^ (v >> 15)) as u16));
    }

    /// Writes a zigzag `i32`.
    pub fn i32(&mut self, v: i32) {
        self.varint(u64::from(((v << 1) ^ (v >> 31)) as u32));
    }

    /// Writes a zigzag `i64`.
    pub fn i64(&mut self, v: i64) {
        self.varint(((v << 1) ^ (v >> 63)) as u64);
    }

    /// Writes a `double`.
    pub fn double(&mut self, v: f64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Writes a `binary` (or `string`): length and bytes.
    pub fn binary(&mut self, v: &[u8]) {
        self.varint(v.len() as u64);
        self.buf.extend_from_slice(v);
    }

    /// Opens a struct (its fields' ids count from 0).
    pub fn struct_begin(&mut self) {
        self.stack.push(self.last);
        self.last = 0;
    }

    /// Closes the struct opened last: writes the stop byte.
    pub fn struct_end(&mut self) {
        self.buf.push(0);
        self.last = self.stack.pop().unwrap_or(0);
    }

    /// Writes a field header: short form when the id is 1..=15 above the previous one.
    pub fn field_header(&mut self, id: i16, code: u8) {
        let delta = i32::from(id) - i32::from(self.last);
        if (1..=15).contains(&delta) {
            self.buf.push(((delta as u8) << 4) | code);
        } else {
            self.buf.push(code);
            self.i16(id);
        }
        self.last = id;
    }

    /// Writes a `bool` field (the value is in the header).
    pub fn field_bool(&mut self, id: i16, v: bool) {
        self.field_header(id, if v { 1 } else { 2 });
    }

    /// Writes a field holding `v`.
    pub fn field<T: ThriftWrite + ?Sized>(&mut self, id: i16, v: &T) {
        self.field_header(id, T::TYPE.code());
        v.write(self);
    }

    /// Writes the field when `v` is set.
    pub fn field_opt<T: ThriftWrite>(&mut self, id: i16, v: &Option<T>) {
        if let Some(v) = v {
            self.field(id, v);
        }
    }

    /// Writes a `bool` field when `v` is set.
    pub fn field_bool_opt(&mut self, id: i16, v: Option<bool>) {
        if let Some(v) = v {
            self.field_bool(id, v);
        }
    }

    /// Writes a list header: short form for fewer than 15 elements.
    pub fn list_header(&mut self, ty: ValueType, len: usize) {
        if len < 15 {
            self.buf.push(((len as u8) << 4) | ty.code());
        } else {
            self.buf.push(0xf0 | ty.code());
            self.varint(len as u64);
        }
    }

    /// Writes a `list<T>` field.
    pub fn field_list<T: ThriftWrite>(&mut self, id: i16, v: &[T]) {
        self.field_header(id, ValueType::List.code());
        self.list(v);
    }

    /// Writes a `list<T>` field when `v` is set.
    pub fn field_list_opt<T: ThriftWrite>(&mut self, id: i16, v: &Option<Vec<T>>) {
        if let Some(v) = v {
            self.field_list(id, v);
        }
    }

    /// Writes a `list<T>` value.
    pub fn list<T: ThriftWrite>(&mut self, v: &[T]) {
        self.list_header(T::TYPE, v.len());
        for x in v {
            x.write(self);
        }
    }

    /// Writes a struct field holding one empty struct: a union variant without data.
    pub fn field_empty_struct(&mut self, id: i16) {
        self.field_header(id, ValueType::Struct.code());
        self.struct_begin();
        self.struct_end();
    }
}

impl<T: ThriftWrite> ThriftWrite for Box<T> {
    const TYPE: ValueType = T::TYPE;
    fn write(&self, w: &mut CompactWriter) {
        (**self).write(w);
    }
}

impl ThriftWrite for bool {
    const TYPE: ValueType = ValueType::Bool;
    fn write(&self, w: &mut CompactWriter) {
        w.buf.push(if *self { 1 } else { 2 });
    }
}

impl ThriftWrite for i8 {
    const TYPE: ValueType = ValueType::I8;
    fn write(&self, w: &mut CompactWriter) {
        w.buf.push(*self as u8);
    }
}

impl ThriftWrite for i16 {
    const TYPE: ValueType = ValueType::I16;
    fn write(&self, w: &mut CompactWriter) {
        w.i16(*self);
    }
}

impl ThriftWrite for i32 {
    const TYPE: ValueType = ValueType::I32;
    fn write(&self, w: &mut CompactWriter) {
        w.i32(*self);
    }
}

impl ThriftWrite for i64 {
    const TYPE: ValueType = ValueType::I64;
    fn write(&self, w: &mut CompactWriter) {
        w.i64(*self);
    }
}

impl ThriftWrite for f64 {
    const TYPE: ValueType = ValueType::Double;
    fn write(&self, w: &mut CompactWriter) {
        w.double(*self);
    }
}

impl ThriftWrite for [u8] {
    const TYPE: ValueType = ValueType::Binary;
    fn write(&self, w: &mut CompactWriter) {
        w.binary(self);
    }
}

impl ThriftWrite for &[u8] {
    const TYPE: ValueType = ValueType::Binary;
    fn write(&self, w: &mut CompactWriter) {
        w.binary(self);
    }
}

impl ThriftWrite for &str {
    const TYPE: ValueType = ValueType::Binary;
    fn write(&self, w: &mut CompactWriter) {
        w.binary(self.as_bytes());
    }
}
