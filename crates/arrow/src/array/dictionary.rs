//! Dictionary-encoded arrays.

use super::Array;
use super::assert_slice;
use crate::buffer::Bitmap;
use crate::datatype::{DataType, IntegerType};
use crate::error::{Error, Result};
use std::sync::Arc;

/// Integer keys indexing into a dictionary of values. A slot is null when its key is null (a
/// null in the values is also reported by [`DictionaryArray::is_null_value`]).
///
/// ```
/// use quiver_arrow::{Array, DictionaryArray, PrimitiveArray, StringArray};
/// let values = Array::from(StringArray::from_options([Some("foo"), Some("bar")]));
/// let keys = Array::from(PrimitiveArray::<i32>::from_options([Some(0), None, Some(1), Some(0)]));
/// let d = DictionaryArray::try_new(keys, values, false).unwrap();
/// assert_eq!(d.key(2), Some(1));
/// assert_eq!(d.key(1), None);
/// ```
#[derive(Clone, Debug)]
pub struct DictionaryArray {
    data_type: DataType,
    keys: Box<Array>,
    values: Arc<Array>,
}

/// Calls `$body` with `$k` bound to the typed key array of an integer [`Array`].
macro_rules! with_keys {
    ($keys:expr, $k:ident => $body:expr) => {
        match $keys {
            Array::I8($k) => $body,
            Array::I16($k) => $body,
            Array::I32($k) => $body,
            Array::I64($k) => $body,
            Array::U8($k) => $body,
            Array::U16($k) => $body,
            Array::U32($k) => $body,
            Array::U64($k) => $body,
            _ => unreachable!("dictionary keys are integers (checked at construction)"),
        }
    };
}

impl DictionaryArray {
    /// Builds a dictionary array, checking the key type and that every non-null key indexes
    /// into `values` (O(n)).
    pub fn try_new(keys: Array, values: impl Into<Arc<Array>>, ordered: bool) -> Result<Self> {
        let a = Self::try_new_deferred(keys, values, ordered)?;
        a.check_content()?;
        Ok(a)
    }

    /// Builds the array checking only the key type; keys are checked by full validation (an
    /// unchecked bad key makes value access panic, nothing worse).
    pub fn try_new_deferred(
        keys: Array,
        values: impl Into<Arc<Array>>,
        ordered: bool,
    ) -> Result<Self> {
        let values = values.into();
        let key = IntegerType::try_from_data_type(keys.data_type())
            .filter(|_| keys.data_type().primitive_width().is_some())
            .ok_or_else(|| {
                Error::oos(format!(
                    "dictionary keys must be integers, not {}",
                    keys.data_type()
                ))
            })?;
        let data_type = DataType::Dictionary {
            key,
            value: Arc::new(values.data_type().clone()),
            ordered,
        };
        Ok(DictionaryArray {
            data_type,
            keys: Box::new(keys),
            values,
        })
    }

    /// Checks every non-null key is in `0..values.len()`.
    pub(crate) fn check_content(&self) -> Result<()> {
        let n = self.values.len() as u64;
        with_keys!(&*self.keys, k => {
            let values = k.values().as_slice();
            // Branch-free scan first; locate the culprit only on failure.
            let bad = |i: usize| k.is_valid(i) && !(values[i] as i128 >= 0 && (values[i] as i128) < n as i128);
            let any = match k.validity() {
                None => values.iter().fold(false, |acc, &v| acc | !((v as i128) >= 0 && (v as i128) < n as i128)),
                Some(_) => (0..values.len()).any(bad),
            };
            if any {
                let i = (0..values.len()).find(|&i| bad(i)).expect("found above"); // ok: found above.
                return Err(Error::oos(format!(
                    "dictionary key {i} is {} but the dictionary has {n} values",
                    values[i]
                )));
            }
        });
        Ok(())
    }

    /// Number of slots.
    #[inline]
    pub fn len(&self) -> usize {
        self.keys.len()
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The logical type.
    pub fn data_type(&self) -> &DataType {
        &self.data_type
    }
    /// The key type.
    pub fn key_type(&self) -> IntegerType {
        match &self.data_type {
            DataType::Dictionary { key, .. } => *key,
            _ => unreachable!("dictionary arrays always carry a dictionary type"),
        }
    }
    /// Whether the dictionary is ordered.
    pub fn is_ordered(&self) -> bool {
        matches!(self.data_type, DataType::Dictionary { ordered: true, .. })
    }
    /// The keys (an integer primitive array).
    pub fn keys(&self) -> &Array {
        &self.keys
    }
    /// The dictionary values.
    pub fn values(&self) -> &Arc<Array> {
        &self.values
    }
    /// The validity of the keys.
    pub fn validity(&self) -> Option<&Bitmap> {
        self.keys.validity()
    }
    /// Number of null keys.
    pub fn null_count(&self) -> usize {
        self.keys.null_count()
    }
    /// True when key `i` is null.
    pub fn is_null(&self, i: usize) -> bool {
        self.keys.is_null(i)
    }
    /// True when slot `i` is null through its key or its value.
    pub fn is_null_value(&self, i: usize) -> bool {
        self.key(i).is_none_or(|k| self.values.is_null(k))
    }
    /// Key `i` as an index, `None` when null.
    #[inline]
    pub fn key(&self, i: usize) -> Option<usize> {
        with_keys!(&*self.keys, k => k.get(i).map(|v| v as usize))
    }
    /// Slot `i` as a one-value slice of the dictionary, `None` when the key is null.
    pub fn value(&self, i: usize) -> Option<Array> {
        self.key(i).map(|k| self.values.slice(k, 1))
    }
    /// The same dictionary with other keys (used by builders and concat).
    pub fn with_keys(&self, keys: Array) -> Result<Self> {
        Self::try_new(keys, self.values.clone(), self.is_ordered())
    }
    /// Zero-copy slice (keys sliced, dictionary shared).
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        assert_slice(offset, len, self.len());
        DictionaryArray {
            data_type: self.data_type.clone(),
            keys: Box::new(self.keys.slice(offset, len)),
            values: self.values.clone(),
        }
    }
}
