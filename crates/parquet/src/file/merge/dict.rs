//! The dictionary of a coalesced column chunk: the dictionaries of its pieces merged, each
//! piece's indices mapped onto it.
//!
//! A chunk holds one dictionary page, so pieces with dictionaries of their own get one merged
//! dictionary: the first piece's values in their order, then each later piece's values not yet
//! in it. A piece whose dictionary is a prefix of the merged one keeps its indices (its pages
//! are copied as they are); any other piece gets a table from its indices to the merged ones,
//! and its dictionary-encoded pages are rewritten through it. When a piece's new values would
//! take the dictionary past the limit, they are taken back out and that piece (and every later
//! one) falls back: its dictionary-encoded pages are rewritten as PLAIN.
//!
//! Values are compared as their PLAIN encoding (a byte array with its length prefix), so two
//! floats are the same entry only when their bits are (as writers build dictionaries).

use crate::encoding::interner::{BytesInterner, FixedInterner, MAX_ENTRIES};
use crate::format::Type;
use quiver_arrow::{Error, Result};

/// The entries of a PLAIN-encoded dictionary page: each entry's byte range in the page.
pub(super) fn entries(
    values: &[u8],
    num_values: usize,
    physical: Type,
    type_length: usize,
) -> Result<Vec<(usize, usize)>> {
    let width = match physical {
        Type::INT32 | Type::FLOAT => Some(4),
        Type::INT64 | Type::DOUBLE => Some(8),
        Type::INT96 => Some(12),
        Type::FIXED_LEN_BYTE_ARRAY => Some(type_length),
        Type::BYTE_ARRAY => None,
        _ => {
            return Err(Error::not_supported(format!(
                "merging dictionaries of {} values",
                physical.name()
            )));
        }
    };
    let mut out = Vec::with_capacity(num_values.min(values.len()));
    match width {
        Some(w) => {
            let need = num_values.checked_mul(w).filter(|&n| n <= values.len());
            if need.is_none() {
                return Err(Error::oos(format!(
                    "a dictionary page of {num_values} values of {w} bytes holds {} bytes",
                    values.len()
                )));
            }
            out.extend((0..num_values).map(|i| (i * w, i * w + w)));
        }
        None => {
            let mut at = 0;
            for i in 0..num_values {
                let len = values
                    .get(at..at + 4)
                    .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
                let end = len
                    .and_then(|l| (at + 4).checked_add(l))
                    .filter(|&e| e <= values.len());
                let Some(end) = end else {
                    return Err(Error::oos(format!(
                        "dictionary value {i} of {num_values} runs past the page's {} bytes",
                        values.len()
                    )));
                };
                out.push((at, end));
                at = end;
            }
        }
    }
    Ok(out)
}

/// What a piece's indices become.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Mapping {
    /// The same (the piece's dictionary is a prefix of the merged one).
    Same,
    /// Index `i` becomes `table[i]`.
    Table(Vec<u32>),
    /// The dictionary would grow past the limit: the piece's values are written PLAIN.
    Plain,
}

/// The values of a merged dictionary: 4- and 8-byte values as numbers (hashed and compared
/// in one instruction), others as bytes.
#[derive(Debug)]
enum Store {
    U32(FixedInterner<u32>),
    U64(FixedInterner<u64>),
    Bytes(BytesInterner),
}

impl Store {
    /// Interns the entries `page[s..e]` of a dictionary page in order, appending their
    /// indices to `table`: 4- and 8-byte values as one batch (looked up in the interner's
    /// direct map when their range is narrow), others one by one.
    fn intern_entries(&mut self, page: &[u8], entries: &[(usize, usize)], table: &mut Vec<u32>) {
        match self {
            Store::U32(d) => d.intern_all(&entry_values(page, entries, u32::from_le_bytes), table),
            Store::U64(d) => d.intern_all(&entry_values(page, entries, u64::from_le_bytes), table),
            Store::Bytes(d) => table.extend(entries.iter().map(|&(s, e)| d.intern(&page[s..e]))),
        }
    }

    fn reserve(&mut self, n: usize, bytes: usize) {
        match self {
            Store::U32(d) => d.reserve(n),
            Store::U64(d) => d.reserve(n),
            Store::Bytes(d) => d.reserve(n, bytes),
        }
    }

    fn len(&self) -> usize {
        match self {
            Store::U32(d) => d.len(),
            Store::U64(d) => d.len(),
            Store::Bytes(d) => d.len(),
        }
    }

    /// The values, PLAIN.
    fn data(&self) -> &[u8] {
        match self {
            Store::U32(d) => bytemuck::cast_slice(d.values()),
            Store::U64(d) => bytemuck::cast_slice(d.values()),
            Store::Bytes(d) => d.data(),
        }
    }

    fn truncate(&mut self, len: usize) {
        match self {
            Store::U32(d) => d.truncate(len),
            Store::U64(d) => d.truncate(len),
            Store::Bytes(d) => d.truncate(len),
        }
    }
}

/// The entries `page[s..e]` of a dictionary page of `N`-byte values, read by `from` (an entry
/// of another length, which the page split does not make, reads as zeros).
fn entry_values<T, const N: usize>(
    page: &[u8],
    entries: &[(usize, usize)],
    from: fn([u8; N]) -> T,
) -> Vec<T> {
    entries
        .iter()
        .map(|&(s, e)| from(page[s..e].try_into().unwrap_or([0; N])))
        .collect()
}

/// The merged dictionary of a chunk.
#[derive(Debug)]
pub(super) struct MergedDictionary {
    values: Store,
    /// A piece had a dictionary page (perhaps of no values).
    seen: bool,
    /// The merged dictionary is the first piece's, unchanged.
    grown: bool,
    /// A piece fell back: every later one does too.
    fallen_back: bool,
}

impl MergedDictionary {
    /// An empty dictionary of `physical` values.
    pub(super) fn new(physical: Type) -> Self {
        let values = match physical {
            Type::INT32 | Type::FLOAT => Store::U32(FixedInterner::new()),
            Type::INT64 | Type::DOUBLE => Store::U64(FixedInterner::new()),
            _ => Store::Bytes(BytesInterner::new()),
        };
        MergedDictionary {
            values,
            seen: false,
            grown: false,
            fallen_back: false,
        }
    }

    /// Takes a piece's dictionary (`page`, split into `entries`) in, within `limit` bytes.
    pub(super) fn add(&mut self, page: &[u8], entries: &[(usize, usize)], limit: usize) -> Mapping {
        if self.fallen_back {
            return Mapping::Plain;
        }
        let first = !self.seen;
        let before = self.values.len();
        if !first && before.saturating_add(entries.len()) > MAX_ENTRIES {
            // Interning could take the dictionary past what readers index.
            self.fallen_back = true;
            return Mapping::Plain;
        }
        self.seen = true;
        self.values.reserve(entries.len(), page.len());
        let mut table = Vec::with_capacity(entries.len());
        self.values.intern_entries(page, entries, &mut table);
        let same = table.iter().enumerate().all(|(i, &k)| k as usize == i);
        if !first && self.values.data().len() > limit {
            self.values.truncate(before);
            self.fallen_back = true;
            return Mapping::Plain;
        }
        self.grown |= !first && self.values.len() > before;
        if same {
            Mapping::Same
        } else {
            Mapping::Table(table)
        }
    }

    /// Takes no more values: later pieces fall back to PLAIN.
    pub(super) fn fall_back(&mut self) {
        self.fallen_back = true;
    }

    /// Whether no piece had a dictionary page.
    pub(super) fn is_empty(&self) -> bool {
        !self.seen
    }

    /// Whether the dictionary is the first piece's as it was.
    pub(super) fn is_first_pieces(&self) -> bool {
        !self.grown
    }

    /// The number of entries.
    pub(super) fn len(&self) -> usize {
        self.values.len()
    }

    /// The dictionary page's values (PLAIN).
    pub(super) fn page(&self) -> &[u8] {
        self.values.data()
    }

    /// The bit width of indices into the dictionary (at least 1).
    pub(super) fn index_width(&self) -> u32 {
        let max = self.values.len().saturating_sub(1) as u32;
        (32 - max.leading_zeros()).max(1)
    }
}
