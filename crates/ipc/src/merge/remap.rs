//! Re-encoding a record batch whose dictionary indices change: only the index buffers of the
//! remapped dictionary fields are decoded (decompressed), rewritten and compressed again with
//! the batch's codec; every other buffer keeps its stored bytes, compressed or not. The
//! message gets new metadata (buffer offsets, body length) with the batch's field nodes,
//! variadic counts and custom metadata.
//!
//! Which buffers belong to which field comes from the one labelling walk,
//! [`label_buffers`](crate::inspect::label_buffers).

use crate::compression::{Codec, Compressor, decompress_buffer};
use crate::inspect::{BufferRole, FieldLayout, MessageInfo, inspect_message, label_buffers};
use crate::message::Message;
use crate::read::{ReadOptions, buffer_range};
use crate::schema::IpcSchema;
use crate::write::{EncodedBatch, FieldNode, RawBatch, WriteOptions};
use bytes::Bytes;
use quiver_arrow::datatype::BufferKind;
use quiver_arrow::{DataType, Error, IntegerType, Result};
use std::collections::HashMap;

/// A re-encoded record batch: its `Message` flatbuffer and body.
pub(super) type Rewritten = (Vec<u8>, Vec<Bytes>);

/// `message` with the indices of the dictionaries in `remaps` (by id: the new index of each
/// old one) rewritten; `None` when no index changes (the message can be copied as it is).
pub(super) fn rewrite(
    message: &Message,
    schema: &IpcSchema,
    remaps: &HashMap<i64, Vec<usize>>,
    options: &ReadOptions,
) -> Result<Option<Rewritten>> {
    let info = inspect_message(message.metadata_bytes())?;
    let fields = label_buffers(schema, &info)?;
    let body = message.body();
    let ctx = Context {
        codec: info.compression,
        body,
        max_len: options.decompression_budget(body.len()),
    };
    let mut replaced: HashMap<usize, Bytes> = HashMap::new();
    for f in &fields {
        let DataType::Dictionary { key, .. } = &f.data_type else {
            continue;
        };
        let id = schema.dictionaries.id_at(&f.field_path);
        let Some(mapping) = id.and_then(|id| remaps.get(&id)) else {
            continue;
        };
        let new = ctx
            .remap_field(f, *key, mapping)
            .map_err(|e| e.context(format!("field {}", f.path)))?;
        if let Some((index, bytes)) = new {
            replaced.insert(index, bytes);
        }
    }
    if replaced.is_empty() {
        return Ok(None);
    }
    if info.version < 4 && has_union(schema) {
        return Err(Error::not_supported(
            "re-encoding a record batch with union fields written with metadata before V5",
        ));
    }
    reassemble(&info, body, replaced).map(Some)
}

/// The message of `info` and `body` with the buffers `replaced` (by index): its nodes,
/// variadic counts, codec and custom metadata, the buffers laid out again.
fn reassemble(
    info: &MessageInfo,
    body: &Bytes,
    mut replaced: HashMap<usize, Bytes>,
) -> Result<Rewritten> {
    let mut stored = Vec::with_capacity(info.buffers.len());
    for (i, &(offset, len)) in info.buffers.iter().enumerate() {
        let bytes = match replaced.remove(&i) {
            Some(b) => b,
            None => body.slice(buffer_range(i, offset, len, body.len())?),
        };
        stored.push(vec![bytes]);
    }
    let count = |n: i64| usize::try_from(n).map_err(|_| Error::oos(format!("negative count {n}")));
    let raw = RawBatch {
        length: count(info.length)?,
        nodes: (info.nodes.iter())
            .map(|&(l, n)| {
                Ok(FieldNode {
                    length: count(l)?,
                    null_count: count(n)?,
                })
            })
            .collect::<Result<_>>()?,
        buffers: Vec::new(),
        variadic_counts: info.variadic_counts.clone(),
    };
    let options = WriteOptions::new().with_compression(info.compression);
    let encoded = EncodedBatch::assemble(raw, stored, &options);
    let metadata = encoded.record_batch_message(&info.custom_metadata)?;
    Ok((metadata, encoded.body_parts().to_vec()))
}

/// What remapping one field needs from its message.
struct Context<'a> {
    codec: Option<Codec>,
    body: &'a Bytes,
    max_len: usize,
}

impl Context<'_> {
    /// Buffer `index` (`offset`, `len` in the body), decompressed.
    fn buffer(&self, index: usize, offset: i64, len: i64) -> Result<Bytes> {
        let raw = self
            .body
            .slice(buffer_range(index, offset, len, self.body.len())?);
        match self.codec {
            None => Ok(raw),
            Some(codec) => decompress_buffer(codec, &raw, self.max_len)
                .map_err(|e| e.context(format!("buffer {index}"))),
        }
    }

    /// The new stored bytes of the index buffer of dictionary field `f` (with its buffer
    /// index), `None` when no index changes.
    fn remap_field(
        &self,
        f: &FieldLayout,
        key: IntegerType,
        mapping: &[usize],
    ) -> Result<Option<(usize, Bytes)>> {
        let find = |kind| {
            (f.buffers.iter())
                .find(|b| b.role == BufferRole::Fixed(kind))
                .ok_or_else(|| Error::oos(format!("no {kind} buffer")))
        };
        let (validity, indices) = (find(BufferKind::Validity)?, find(BufferKind::Indices)?);
        let len = usize::try_from(f.length)
            .map_err(|_| Error::oos(format!("field node length {}", f.length)))?;
        let bits = self.buffer(validity.index, validity.offset, validity.length)?;
        let keys = self.buffer(indices.index, indices.offset, indices.length)?;
        let Some(new) = remap_keys(&keys, &bits, len, key, mapping)? else {
            return Ok(None);
        };
        let stored = match self.codec {
            None => Bytes::from(new),
            Some(codec) => {
                let mut out = Vec::new();
                Compressor::new(codec, None).compress(&new, &mut out)?;
                Bytes::from(out)
            }
        };
        Ok(Some((indices.index, stored)))
    }
}

/// The `len` keys in `keys` (little-endian, of type `key`) with every valid one (by the
/// validity bitmap `bits`, all valid when empty) replaced by `mapping[key]`; `None` when
/// none changes. Null slots keep their bytes; bytes past the keys are kept.
fn remap_keys(
    keys: &[u8],
    bits: &[u8],
    len: usize,
    key: IntegerType,
    mapping: &[usize],
) -> Result<Option<Vec<u8>>> {
    let width = key.bit_width() as usize / 8;
    let need = len.checked_mul(width).filter(|&n| n <= keys.len());
    let need = need.ok_or_else(|| {
        Error::oos(format!(
            "the index buffer has {} bytes, too few for {len} indices of {width} bytes",
            keys.len()
        ))
    })?;
    if !bits.is_empty() && bits.len() < len.div_ceil(8) {
        return Err(Error::oos(format!(
            "the validity buffer has {} bytes, too few for {len} slots",
            bits.len()
        )));
    }
    let mut out = keys.to_vec();
    let mut changed = false;
    // In range: `need <= keys.len()`, and `bits` holds a bit for each of the `len` slots.
    for (i, slot) in out[..need].chunks_exact_mut(width).enumerate() {
        if !bits.is_empty() && bits[i / 8] & (1 << (i % 8)) == 0 {
            continue;
        }
        let mut word = [0u8; 8];
        word[..width].copy_from_slice(slot);
        let raw = i128::from(u64::from_le_bytes(word));
        let old = if key.is_signed() && slot[width - 1] & 0x80 != 0 {
            raw - (1i128 << (8 * width))
        } else {
            raw
        };
        let new = usize::try_from(old)
            .ok()
            .and_then(|k| mapping.get(k))
            .ok_or_else(|| {
                Error::oos(format!(
                    "index {i} is {old} but the input's dictionary has {} values",
                    mapping.len()
                ))
            })?;
        // Below the key type's maximum: the unified dictionary was built with this key type.
        let bytes = (*new as u64).to_le_bytes();
        changed |= slot != &bytes[..width];
        slot.copy_from_slice(&bytes[..width]);
    }
    Ok(changed.then_some(out))
}

/// True when a union type appears anywhere in `schema` (dictionary values included).
fn has_union(schema: &IpcSchema) -> bool {
    fn walk(dt: &DataType) -> bool {
        matches!(dt, DataType::Union(..))
            || crate::schema::ipc_children(dt)
                .iter()
                .any(|f| walk(f.data_type()))
    }
    schema.schema.fields.iter().any(|f| walk(f.data_type()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_remapped_where_valid() {
        let keys: Vec<u8> = [2i16, 0, 7, 1]
            .iter()
            .flat_map(|k| k.to_le_bytes())
            .collect();
        // Slot 2 is null (its garbage key 7 is kept).
        let new = remap_keys(&keys, &[0b1011], 4, IntegerType::Int16, &[5, 6, 4]).unwrap();
        let got: Vec<i16> = new
            .unwrap()
            .chunks(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        assert_eq!(got, [4, 5, 7, 6]);
        // The identity changes nothing.
        assert_eq!(
            remap_keys(&keys, &[0b1011], 4, IntegerType::Int16, &[0, 1, 2]).unwrap(),
            None
        );
    }

    #[test]
    fn bad_keys_and_short_buffers_are_errors() {
        let keys: Vec<u8> = [1i8, -1].iter().flat_map(|k| k.to_le_bytes()).collect();
        let e = remap_keys(&keys, &[], 2, IntegerType::Int8, &[0, 1]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "index 1 is -1 but the input's dictionary has 2 values"
        );
        let e = remap_keys(&keys, &[], 2, IntegerType::UInt8, &[0, 1]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "index 1 is 255 but the input's dictionary has 2 values"
        );
        let e = remap_keys(&keys, &[], 3, IntegerType::Int8, &[0, 1]).unwrap_err();
        assert!(
            e.to_string().contains("has 2 bytes, too few for 3 indices"),
            "{e}"
        );
        let e = remap_keys(&[0; 16], &[0xff], 9, IntegerType::Int8, &[0]).unwrap_err();
        assert!(
            e.to_string()
                .contains("validity buffer has 1 bytes, too few for 9"),
            "{e}"
        );
    }
}
