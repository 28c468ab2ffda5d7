//! Flat values as text, in the forms the readers parse back.

use super::BinaryText;
use quiver_arrow::display::{KnownExtension, write_field_value, write_value};
use quiver_arrow::{Array, DataType, Field};
use std::fmt;

/// `fmt::Write` into a byte vector.
struct Bytes<'a>(&'a mut Vec<u8>);

impl fmt::Write for Bytes<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// Appends `bytes` as lowercase hex digits.
fn hex(out: &mut Vec<u8>, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)]);
        out.push(DIGITS[usize::from(b & 15)]);
    }
}

/// Decodes hex digits (either case, optional `0x` prefix); `None` when malformed.
pub(crate) fn hex_decode(s: &[u8]) -> Option<Vec<u8>> {
    let s = s.strip_prefix(b"0x").unwrap_or(s);
    if s.len() % 2 != 0 {
        return None;
    }
    let nibble = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    s.chunks_exact(2)
        .map(|p| Some(nibble(p[0])? << 4 | nibble(p[1])?))
        .collect()
}

fn binary(out: &mut Vec<u8>, bytes: &[u8], mode: BinaryText) {
    match mode {
        BinaryText::Raw => out.extend_from_slice(bytes),
        BinaryText::Hex => hex(out, bytes),
    }
}

/// Appends the text of valid flat slot `i` of `a` (not null; dictionaries and run-end encoded
/// arrays write their value). Strings are written as they are (no quoting or escaping),
/// binary per `mode`, durations as their integer count, everything else as
/// `quiver_arrow::display::format_value` renders it (zoned timestamps as local time with the
/// offset, `2023-12-31T20:00:07-05:00`).
pub(crate) fn write_text(out: &mut Vec<u8>, a: &Array, i: usize, mode: BinaryText) {
    match a {
        Array::Utf8(x) => out.extend_from_slice(x.value(i).as_bytes()),
        Array::LargeUtf8(x) => out.extend_from_slice(x.value(i).as_bytes()),
        Array::Utf8View(x) => out.extend_from_slice(x.value(i).as_bytes()),
        Array::Binary(x) => binary(out, x.value(i), mode),
        Array::LargeBinary(x) => binary(out, x.value(i), mode),
        Array::BinaryView(x) => binary(out, x.value(i), mode),
        Array::FixedSizeBinary(x) => binary(out, x.value(i), mode),
        Array::I64(x) => match x.data_type() {
            DataType::Duration(_) => out.extend_from_slice(x.value(i).to_string().as_bytes()),
            _ => display(out, a, i),
        },
        Array::Dictionary(d) => match d.key(i) {
            Some(k) if k < d.values().len() && d.values().is_valid(k) => {
                write_text(out, d.values(), k, mode)
            }
            _ => {}
        },
        Array::RunEndEncoded(r) => {
            let j = r.physical_index(i);
            if j < r.values().len() {
                write_text(out, r.values(), j, mode);
            }
        }
        _ => display(out, a, i),
    }
}

/// [`write_text`] for slot `i` of a column of `field`: values of a known extension type are
/// written as they are shown (`arrow.uuid` as `xxxxxxxx-xxxx-…`, `arrow.bool8` as
/// `true`/`false`), everything else as [`write_text`] writes it.
pub(crate) fn write_field_text(
    out: &mut Vec<u8>,
    field: &Field,
    a: &Array,
    i: usize,
    mode: BinaryText,
) {
    match KnownExtension::of(field) {
        Some(KnownExtension::Uuid | KnownExtension::Bool8) => {
            // Writing into a Vec cannot fail.
            let _ = write_field_value(&mut Bytes(out), field, a, i);
        }
        _ => write_text(out, a, i, mode),
    }
}

fn display(out: &mut Vec<u8>, a: &Array, i: usize) {
    // Writing into a Vec cannot fail.
    let _ = write_value(&mut Bytes(out), a, i);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip() {
        let mut out = Vec::new();
        hex(&mut out, &[0, 0xab, 0xff]);
        assert_eq!(out, b"00abff");
        assert_eq!(hex_decode(b"00ABff"), Some(vec![0, 0xab, 0xff]));
        assert_eq!(hex_decode(b"0x00"), Some(vec![0]));
        assert_eq!(hex_decode(b"0"), None);
        assert_eq!(hex_decode(b"zz"), None);
        assert_eq!(hex_decode("é1".as_bytes()), None);
    }
}
