//! Decimal values an input stores another way than the merged file.
//!
//! Writers disagree on how a DECIMAL column's unscaled integers are stored: pyarrow uses
//! FIXED_LEN_BYTE_ARRAY of the fewest bytes the precision needs (INT32/INT64 only when asked),
//! DuckDB and Spark INT32 or INT64 up to 18 digits, DuckDB 16-byte FIXED_LEN_BYTE_ARRAY beyond,
//! and some writers BYTE_ARRAY. The numbers are the same, so inputs that differ only in this
//! merge: the merged file stores the column as its first input does, and the pieces of other
//! inputs have their values converted. Dictionary pages are converted entry by entry (the
//! data pages' indices stay as they are); other data pages are decoded (PLAIN,
//! DELTA_BINARY_PACKED, BYTE_STREAM_SPLIT, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY) and
//! written PLAIN; statistics, column index bounds and page header statistics are converted
//! the same way, and a Bloom filter is rebuilt from the converted values (it hashes the
//! stored bytes).
//!
//! [`plain_values`] decodes a page's values into PLAIN for that, and for the Bloom filters a
//! merge rebuilds (`chunk`), which hash the values as PLAIN bytes ([`Layout::for_each`]).
//!
//! A value converts through its big-endian two's-complement form without the bytes that only
//! extend its sign, so any width converts to any other the value fits; a value that does not
//! fit the output's width (possible only in a file whose values pass their precision) is an
//! error naming it.

use crate::encoding::byte_array::{ByteArraySink, DeltaByteArrayScratch, delta_byte_array};
use crate::encoding::{byte_array, byte_stream_split, delta};
use crate::format::{Encoding, Statistics, Type};
use quiver_arrow::buffer::MutableBuffer;
use quiver_arrow::{Error, Result};

/// How a decimal column stores its unscaled integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Storage {
    /// INT32, little-endian.
    Int32,
    /// INT64, little-endian.
    Int64,
    /// FIXED_LEN_BYTE_ARRAY of this many bytes, big-endian.
    Fixed(usize),
    /// BYTE_ARRAY, big-endian, each value as long as its writer chose.
    Bytes,
}

impl Storage {
    /// The storage of a column of `physical` type (and `type_length` for fixed-length byte
    /// arrays), if decimals can be stored so.
    pub(super) fn of(physical: Type, type_length: usize) -> Option<Storage> {
        match physical {
            Type::INT32 => Some(Storage::Int32),
            Type::INT64 => Some(Storage::Int64),
            Type::FIXED_LEN_BYTE_ARRAY if type_length > 0 => Some(Storage::Fixed(type_length)),
            Type::BYTE_ARRAY => Some(Storage::Bytes),
            _ => None,
        }
    }

    /// How its PLAIN values lie.
    pub(super) fn layout(self) -> Layout {
        match self {
            Storage::Int32 => Layout::Fixed(4),
            Storage::Int64 => Layout::Fixed(8),
            Storage::Fixed(w) => Layout::Fixed(w),
            Storage::Bytes => Layout::Prefixed,
        }
    }

    /// The physical type.
    fn physical(self) -> Type {
        match self {
            Storage::Int32 => Type::INT32,
            Storage::Int64 => Type::INT64,
            Storage::Fixed(_) => Type::FIXED_LEN_BYTE_ARRAY,
            Storage::Bytes => Type::BYTE_ARRAY,
        }
    }

    /// The width of each PLAIN value (`None`: length-prefixed).
    fn width(self) -> Option<usize> {
        match self.layout() {
            Layout::Fixed(w) => Some(w),
            Layout::Prefixed => None,
        }
    }

    fn name(self) -> String {
        match self {
            Storage::Int32 => "INT32".into(),
            Storage::Int64 => "INT64".into(),
            Storage::Fixed(w) => format!("FIXED_LEN_BYTE_ARRAY({w})"),
            Storage::Bytes => "BYTE_ARRAY".into(),
        }
    }
}

/// How a column's PLAIN values lie: side by side at a fixed width, or byte arrays each behind
/// its 4-byte length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Layout {
    /// Values of this many bytes.
    Fixed(usize),
    /// Length-prefixed byte arrays.
    Prefixed,
}

impl Layout {
    /// The layout of a column of `physical` type (`type_length` for fixed-length byte arrays);
    /// `None` for booleans (bit-packed) and unknown types.
    pub(super) fn of(physical: Type, type_length: usize) -> Option<Layout> {
        match physical {
            Type::INT32 | Type::FLOAT => Some(Layout::Fixed(4)),
            Type::INT64 | Type::DOUBLE => Some(Layout::Fixed(8)),
            Type::INT96 => Some(Layout::Fixed(12)),
            Type::FIXED_LEN_BYTE_ARRAY if type_length > 0 => Some(Layout::Fixed(type_length)),
            Type::BYTE_ARRAY => Some(Layout::Prefixed),
            _ => None,
        }
    }

    /// Calls `each` with every one of the `n` PLAIN values at the start of `src` (byte arrays
    /// without their length prefix): the bytes a Bloom filter hashes.
    pub(super) fn for_each(
        self,
        src: &[u8],
        n: usize,
        mut each: impl FnMut(&[u8]) -> Result<()>,
    ) -> Result<()> {
        match self {
            Layout::Fixed(w) => {
                let need = n.checked_mul(w).filter(|&b| b <= src.len());
                if need.is_none() {
                    return Err(Error::oos(format!(
                        "{n} values of {w} bytes need more than the {} bytes there are",
                        src.len()
                    )));
                }
                src.chunks_exact(w).take(n).try_for_each(each)
            }
            Layout::Prefixed => {
                let mut at = 0usize;
                for i in 0..n {
                    let len = src
                        .get(at..at + 4)
                        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
                    let value = len.and_then(|l| src.get(at + 4..(at + 4).checked_add(l)?));
                    let Some(value) = value else {
                        return Err(Error::oos(format!(
                            "byte array {i} of {n} runs past the {} bytes there are",
                            src.len()
                        )));
                    };
                    each(value)?;
                    at += 4 + value.len();
                }
                Ok(())
            }
        }
    }
}

/// The `n` values of a data page's values section `vals` (of `encoding`, not dictionary
/// indices; a column of `physical` type laid out as `layout`) as PLAIN values: `vals` itself
/// when PLAIN, else decoded into `scratch`.
pub(super) fn plain_values<'s>(
    vals: &'s [u8],
    n: usize,
    encoding: Encoding,
    physical: Type,
    layout: Layout,
    scratch: &'s mut Scratch,
) -> Result<&'s [u8]> {
    let Scratch {
        decoded,
        fixed,
        lengths,
        delta: delta_scratch,
    } = scratch;
    Ok(match (encoding, physical, layout) {
        (Encoding::PLAIN, ..) => vals,
        (Encoding::DELTA_BINARY_PACKED, Type::INT32 | Type::INT64, _) => {
            fixed.clear();
            let d = match physical {
                Type::INT32 => delta::decode::<i32>(vals, n, fixed)?,
                _ => delta::decode::<i64>(vals, n, fixed)?,
            };
            if d.values != n {
                return Err(Error::oos(format!(
                    "DELTA_BINARY_PACKED holds {} values, the page {n}",
                    d.values
                )));
            }
            fixed.as_slice()
        }
        (Encoding::BYTE_STREAM_SPLIT, _, Layout::Fixed(w)) => {
            fixed.clear();
            byte_stream_split::decode(vals, w, n, fixed)?;
            fixed.as_slice()
        }
        (
            Encoding::DELTA_LENGTH_BYTE_ARRAY | Encoding::DELTA_BYTE_ARRAY,
            Type::BYTE_ARRAY | Type::FIXED_LEN_BYTE_ARRAY,
            _,
        ) => {
            decoded.clear();
            let mut sink = PlainOf {
                out: decoded,
                layout,
            };
            // Each decodes `n` values or fails.
            if encoding == Encoding::DELTA_BYTE_ARRAY {
                delta_byte_array(vals, n, &mut sink, delta_scratch)?;
            } else {
                byte_array::delta_length(vals, n, &mut sink, lengths)?;
            }
            decoded.as_slice()
        }
        (e, t, _) => {
            return Err(Error::oos(format!(
                "{} values in a column of {} values",
                e.name(),
                t.name()
            )));
        }
    })
}

/// Collects byte arrays as PLAIN values laid out as `layout`: length-prefixed, or side by
/// side (each checked to be the width).
struct PlainOf<'o> {
    out: &'o mut Vec<u8>,
    layout: Layout,
}

impl ByteArraySink for PlainOf<'_> {
    fn reserve(&mut self, values: usize, bytes: usize) -> Result<()> {
        self.out
            .try_reserve(values.saturating_mul(4).saturating_add(bytes))
            .map_err(|e| Error::invalid(format!("{e}")))
    }

    fn push(&mut self, value: &[u8]) -> Result<()> {
        match self.layout {
            Layout::Fixed(w) if value.len() != w => {
                return Err(Error::oos(format!(
                    "a value of {} bytes in a column of {w}-byte values",
                    value.len()
                )));
            }
            Layout::Fixed(_) => {}
            Layout::Prefixed => {
                let len = u32::try_from(value.len())
                    .map_err(|_| Error::oos(format!("a byte array of {} bytes", value.len())))?;
                self.out.extend_from_slice(&len.to_le_bytes());
            }
        }
        self.out.extend_from_slice(value);
        Ok(())
    }
}

/// Buffers a conversion reuses.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    decoded: Vec<u8>,
    fixed: MutableBuffer,
    lengths: MutableBuffer,
    delta: DeltaByteArrayScratch,
}

/// A conversion of decimal values from an input's storage to the merged file's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Conversion {
    /// The input's.
    pub from: Storage,
    /// The merged file's.
    pub to: Storage,
}

impl Conversion {
    /// The conversion from a column stored as `from` to one stored as `to` (`None` when they
    /// are the same).
    pub(super) fn between(from: Storage, to: Storage) -> Option<Conversion> {
        (from != to).then_some(Conversion { from, to })
    }

    /// Appends value `v` (stored as `from`, a byte array without its length prefix) stored as
    /// `to`, with its length prefix when `prefixed` and `to` is BYTE_ARRAY.
    fn push(&self, v: &[u8], prefixed: bool, out: &mut Vec<u8>) -> Result<()> {
        let mut le = [0u8; 8];
        let be: &[u8] = match self.from {
            Storage::Int32 | Storage::Int64 => {
                let w = self.from.width().unwrap_or(8);
                if v.len() != w {
                    return Err(Error::oos(format!(
                        "a {} value of {} bytes",
                        self.from.name(),
                        v.len()
                    )));
                }
                for (d, s) in le.iter_mut().zip(v.iter().rev()) {
                    *d = *s;
                }
                &le[..w]
            }
            Storage::Fixed(_) | Storage::Bytes => v,
        };
        let Some(&top) = be.first() else {
            return Err(Error::oos("a decimal value of no bytes"));
        };
        let negative = top & 0x80 != 0;
        let fill = if negative { 0xFF } else { 0x00 };
        // The bytes that only extend the sign go: what is left is the value's least width.
        let mut skip = 0;
        while skip + 1 < be.len() && be[skip] == fill && (be[skip + 1] & 0x80 != 0) == negative {
            skip += 1;
        }
        let least = &be[skip..];
        let width = self.to.width().unwrap_or(least.len());
        if least.len() > width {
            let hex: String = be.iter().map(|b| format!("{b:02x}")).collect();
            return Err(Error::oos(format!(
                "the decimal value 0x{hex} (stored as {}) does not fit the merged file's {}",
                self.from.name(),
                self.to.name()
            )));
        }
        let pad = width - least.len();
        match self.to {
            Storage::Int32 | Storage::Int64 => {
                out.extend(least.iter().rev());
                out.extend(std::iter::repeat_n(fill, pad));
            }
            Storage::Fixed(_) => {
                out.extend(std::iter::repeat_n(fill, pad));
                out.extend_from_slice(least);
            }
            Storage::Bytes => {
                if prefixed {
                    out.extend_from_slice(&(least.len() as u32).to_le_bytes());
                }
                out.extend_from_slice(least);
            }
        }
        Ok(())
    }

    /// A statistics bound or column index entry (PLAIN, byte arrays without their prefix)
    /// stored as `to`.
    pub(super) fn bound(&self, v: &[u8]) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(16);
        self.push(v, false, &mut out)?;
        Ok(out)
    }

    /// Appends the `n` PLAIN values at the start of `src` (stored as `from`) as PLAIN values
    /// stored as `to`.
    pub(super) fn plain(&self, src: &[u8], n: usize, out: &mut Vec<u8>) -> Result<()> {
        let each = self.to.width().unwrap_or(8);
        out.try_reserve(n.saturating_mul(each).min(src.len().saturating_mul(4) + 64))
            .map_err(|e| Error::invalid(format!("{e}")))?;
        self.from
            .layout()
            .for_each(src, n, |v| self.push(v, true, out))
    }

    /// Appends the `n` values of a data page's values section `vals` (of `encoding`, stored as
    /// `from`, not dictionary indices) as PLAIN values stored as `to`.
    pub(super) fn values(
        &self,
        vals: &[u8],
        n: usize,
        encoding: Encoding,
        scratch: &mut Scratch,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let (physical, layout) = (self.from.physical(), self.from.layout());
        let plain = plain_values(vals, n, encoding, physical, layout, scratch)?;
        self.plain(plain, n, out)
    }

    /// Page or chunk statistics with their bounds stored as `to` (`bufs` holds them); a pair of
    /// bounds that does not convert is left out.
    pub(super) fn statistics<'s>(
        &self,
        s: &Statistics<'_>,
        bufs: &'s mut [Vec<u8>; 4],
    ) -> Statistics<'s> {
        let mut ok = [false; 4];
        for ((v, buf), ok) in [s.min, s.max, s.min_value, s.max_value]
            .iter()
            .zip(bufs.iter_mut())
            .zip(&mut ok)
        {
            buf.clear();
            if let Some(v) = v {
                *ok = self.push(v, false, buf).is_ok();
            }
        }
        let [min, max, min_value, max_value] = &*bufs;
        let legacy = ok[0] && ok[1];
        let typed = ok[2] && ok[3];
        Statistics {
            min: legacy.then_some(min.as_slice()),
            max: legacy.then_some(max.as_slice()),
            null_count: s.null_count,
            distinct_count: s.distinct_count,
            min_value: typed.then_some(min_value.as_slice()),
            max_value: typed.then_some(max_value.as_slice()),
            is_min_value_exact: s.is_min_value_exact.filter(|_| typed),
            is_max_value_exact: s.is_max_value_exact.filter(|_| typed),
            nan_count: s.nan_count,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of a big-endian two's-complement integer (the oracle).
    fn be_value(b: &[u8]) -> i128 {
        let mut v: i128 = if b.first().is_some_and(|&t| t & 0x80 != 0) {
            -1
        } else {
            0
        };
        for &x in b {
            v = (v << 8) | i128::from(x);
        }
        v
    }

    /// Value `v` stored as `s` (PLAIN, byte arrays prefixed, `bytes_len` bytes for them).
    fn stored(v: i128, s: Storage, bytes_len: usize) -> Vec<u8> {
        match s {
            Storage::Int32 => (v as i32).to_le_bytes().to_vec(),
            Storage::Int64 => (v as i64).to_le_bytes().to_vec(),
            Storage::Fixed(w) => v.to_be_bytes()[16 - w..].to_vec(),
            Storage::Bytes => {
                let mut out = (bytes_len as u32).to_le_bytes().to_vec();
                out.extend_from_slice(&v.to_be_bytes()[16 - bytes_len..]);
                out
            }
        }
    }

    #[test]
    fn every_storage_converts_to_every_other_by_value() {
        let values: [i128; 9] = [0, 1, -1, 127, -128, 128, -129, 999_999_999, -999_999_999];
        let storages = [
            Storage::Int32,
            Storage::Int64,
            Storage::Fixed(4),
            Storage::Fixed(5),
            Storage::Fixed(16),
            Storage::Bytes,
        ];
        for from in storages {
            for to in storages {
                let Some(c) = Conversion::between(from, to) else {
                    assert_eq!(from, to);
                    continue;
                };
                let mut src = Vec::new();
                for &v in &values {
                    src.extend(stored(v, from, 9));
                }
                let mut out = Vec::new();
                c.plain(&src, values.len(), &mut out).unwrap();
                let mut got = Vec::new();
                to.layout()
                    .for_each(&out, values.len(), |b| {
                        got.push(match to {
                            Storage::Int32 => i128::from(i32::from_le_bytes(b.try_into().unwrap())),
                            Storage::Int64 => i128::from(i64::from_le_bytes(b.try_into().unwrap())),
                            _ => be_value(b),
                        });
                        Ok(())
                    })
                    .unwrap();
                assert_eq!(got, values, "{from:?} -> {to:?}");
                if to == Storage::Bytes {
                    // The least width: 0 and -1 in one byte, 128 in two.
                    assert_eq!(&out[..5], &[1, 0, 0, 0, 0]);
                    let skip = if from == Storage::Bytes { 4 } else { 0 };
                    assert_eq!(
                        c.bound(&stored(128, from, 9)[skip..]).unwrap(),
                        [0x00, 0x80]
                    );
                }
            }
        }
    }

    #[test]
    fn a_value_too_wide_for_the_output_is_an_error_naming_it() {
        let c = Conversion::between(Storage::Int64, Storage::Int32).unwrap();
        let err = c
            .bound(&(1i64 << 40).to_le_bytes())
            .unwrap_err()
            .to_string();
        assert!(err.contains("0x0000010000000000"), "{err}");
        assert!(err.contains("INT32"), "{err}");
        // Sign extension is not width: -1 and i32::MIN fit.
        assert_eq!(
            c.bound(&(-1i64).to_le_bytes()).unwrap(),
            (-1i32).to_le_bytes()
        );
        assert_eq!(
            c.bound(&i64::from(i32::MIN).to_le_bytes()).unwrap(),
            i32::MIN.to_le_bytes()
        );
        let f = Conversion::between(Storage::Fixed(9), Storage::Fixed(3)).unwrap();
        assert!(f.bound(&[0, 0, 0, 0, 0, 0, 0x80, 0, 0]).is_err());
        assert_eq!(
            f.bound(&[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x80, 0, 0])
                .unwrap(),
            [0x80, 0, 0]
        );
        assert!(c.bound(&[]).is_err());
        // A bound of the wrong width (a corrupt footer) is an error, not a guess.
        assert!(c.bound(&[1, 2, 3]).is_err());
    }

    #[test]
    fn encoded_pages_decode_before_they_convert() {
        let values: Vec<i64> = (0..300).map(|i| i * 7919 - 1000).collect();
        let c = Conversion::between(Storage::Int64, Storage::Fixed(8)).unwrap();
        let want: Vec<u8> = values.iter().flat_map(|v| v.to_be_bytes()).collect();
        let mut scratch = Scratch::default();
        let mut delta_page = Vec::new();
        crate::encoding::delta_encoder::encode_i64(&values, &mut delta_page);
        let plain: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut split = Vec::new();
        byte_stream_split::encode(&plain, 8, &mut split);
        for (enc, page) in [
            (Encoding::PLAIN, &plain),
            (Encoding::DELTA_BINARY_PACKED, &delta_page),
            (Encoding::BYTE_STREAM_SPLIT, &split),
        ] {
            let mut out = Vec::new();
            c.values(page, values.len(), enc, &mut scratch, &mut out)
                .unwrap();
            assert_eq!(out, want, "{enc:?}");
        }
        // Fixed-length values under DELTA_BYTE_ARRAY, to INT64.
        let back = Conversion::between(Storage::Fixed(8), Storage::Int64).unwrap();
        let arrays: Vec<&[u8]> = want.chunks(8).collect();
        let mut dba = Vec::new();
        crate::encoding::byte_array_encoder::encode_delta_byte_array(&arrays, &mut dba);
        let mut out = Vec::new();
        back.values(
            &dba,
            values.len(),
            Encoding::DELTA_BYTE_ARRAY,
            &mut scratch,
            &mut out,
        )
        .unwrap();
        assert_eq!(out, plain);
        // A dictionary-index encoding is not values.
        assert!(
            c.values(&plain, 1, Encoding::RLE_DICTIONARY, &mut scratch, &mut out)
                .is_err()
        );
    }

    #[test]
    fn statistics_bounds_convert_in_pairs() {
        let c = Conversion::between(Storage::Int32, Storage::Fixed(3)).unwrap();
        let (lo, hi) = ((-5i32).to_le_bytes(), 70000i32.to_le_bytes());
        let s = Statistics {
            min_value: Some(&lo),
            max_value: Some(&hi),
            null_count: Some(3),
            is_min_value_exact: Some(true),
            ..Statistics::default()
        };
        let mut bufs = Default::default();
        let t = c.statistics(&s, &mut bufs);
        assert_eq!(t.min_value, Some(&[0xFF, 0xFF, 0xFB][..]));
        assert_eq!(t.max_value, Some(&[0x01, 0x11, 0x70][..]));
        assert_eq!((t.null_count, t.is_min_value_exact), (Some(3), Some(true)));
        assert_eq!((t.min, t.max), (None, None));
        // A bound that does not fit takes its pair with it.
        let big = (1i32 << 30).to_le_bytes();
        let s = Statistics {
            max_value: Some(&big),
            ..s
        };
        let t = c.statistics(&s, &mut bufs);
        assert_eq!((t.min_value, t.max_value), (None, None));
    }
}
