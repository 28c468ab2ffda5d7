//! `struct Statistics`, `struct SizeStatistics`, `struct GeospatialStatistics` and
//! `struct BoundingBox`.
//!
//! ```thrift
//! struct Statistics {
//!    1: optional binary max;  2: optional binary min;
//!    3: optional i64 null_count;  4: optional i64 distinct_count;
//!    5: optional binary max_value;  6: optional binary min_value;
//!    7: optional bool is_max_value_exact;  8: optional bool is_min_value_exact;
//!    9: optional i64 nan_count;
//! }
//! struct SizeStatistics {
//!    1: optional i64 unencoded_byte_array_data_bytes;
//!    2: optional list<i64> repetition_level_histogram;
//!    3: optional list<i64> definition_level_histogram;
//! }
//! struct BoundingBox {
//!   1: required double xmin; 2: required double xmax; 3: required double ymin; 4: required double ymax;
//!   5: optional double zmin; 6: optional double zmax; 7: optional double mmin; 8: optional double mmax;
//! }
//! struct GeospatialStatistics { 1: optional BoundingBox bbox; 2: optional list<i32> geospatial_types; }
//! ```

use crate::thrift::{CompactReader, CompactWriter, ThriftList, ThriftRead, ThriftWrite, ValueType};
use quiver_arrow::{Error, Result};

/// `struct Statistics`: of a column chunk or a page. Values are PLAIN-encoded (byte arrays
/// without their length prefix).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Statistics<'a> {
    /// `1: optional binary max` (deprecated: signed order).
    pub max: Option<&'a [u8]>,
    /// `2: optional binary min` (deprecated: signed order).
    pub min: Option<&'a [u8]>,
    /// `3: optional i64 null_count`.
    pub null_count: Option<i64>,
    /// `4: optional i64 distinct_count`.
    pub distinct_count: Option<i64>,
    /// `5: optional binary max_value` (in the column's order).
    pub max_value: Option<&'a [u8]>,
    /// `6: optional binary min_value` (in the column's order).
    pub min_value: Option<&'a [u8]>,
    /// `7: optional bool is_max_value_exact`.
    pub is_max_value_exact: Option<bool>,
    /// `8: optional bool is_min_value_exact`.
    pub is_min_value_exact: Option<bool>,
    /// `9: optional i64 nan_count`.
    pub nan_count: Option<i64>,
}

impl<'a> ThriftRead<'a> for Statistics<'a> {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let mut s = Statistics::default();
        r.read_struct("Statistics", |r, f| {
            match f.id {
                1 => s.max = r.value(f)?,
                2 => s.min = r.value(f)?,
                3 => s.null_count = r.value(f)?,
                4 => s.distinct_count = r.value(f)?,
                5 => s.max_value = r.value(f)?,
                6 => s.min_value = r.value(f)?,
                7 => s.is_max_value_exact = r.bool_field(f)?,
                8 => s.is_min_value_exact = r.bool_field(f)?,
                9 => s.nan_count = r.value(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        Ok(s)
    }

    /// Every field [`Self::read`] knows is a binary, an `i64` or a `bool`, which skipping
    /// checks as reading does; a field of another type is skipped by both.
    #[inline]
    fn check(r: &mut CompactReader<'a>) -> Result<()> {
        r.read_struct("Statistics", |r, f| r.skip_field(f))
    }
}

impl ThriftWrite for Statistics<'_> {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field_opt(1, &self.max);
        w.field_opt(2, &self.min);
        w.field_opt(3, &self.null_count);
        w.field_opt(4, &self.distinct_count);
        w.field_opt(5, &self.max_value);
        w.field_opt(6, &self.min_value);
        w.field_bool_opt(7, self.is_max_value_exact);
        w.field_bool_opt(8, self.is_min_value_exact);
        w.field_opt(9, &self.nan_count);
        w.struct_end();
    }
}

/// `struct SizeStatistics`: unencoded sizes and level histograms.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SizeStatistics {
    /// `1: optional i64 unencoded_byte_array_data_bytes`.
    pub unencoded_byte_array_data_bytes: Option<i64>,
    /// `2: optional list<i64> repetition_level_histogram`.
    pub repetition_level_histogram: Option<Vec<i64>>,
    /// `3: optional list<i64> definition_level_histogram`.
    pub definition_level_histogram: Option<Vec<i64>>,
}

impl<'a> ThriftRead<'a> for SizeStatistics {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let mut s = SizeStatistics::default();
        r.read_struct("SizeStatistics", |r, f| {
            match f.id {
                1 => s.unencoded_byte_array_data_bytes = r.value(f)?,
                2 => s.repetition_level_histogram = r.list_field(f)?,
                3 => s.definition_level_histogram = r.list_field(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        Ok(s)
    }

    /// As [`Self::read`] without collecting the histograms: a histogram field of a list
    /// type must hold `i64`s (checked, not collected); anything else is skipped by both.
    #[inline]
    fn check(r: &mut CompactReader<'a>) -> Result<()> {
        r.read_struct("SizeStatistics", |r, f| match (f.id, f.ty) {
            (2 | 3, ValueType::List | ValueType::Set) => ThriftList::<i64>::read(r).map(drop),
            _ => r.skip_field(f),
        })
    }
}

impl ThriftWrite for SizeStatistics {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field_opt(1, &self.unencoded_byte_array_data_bytes);
        w.field_list_opt(2, &self.repetition_level_histogram);
        w.field_list_opt(3, &self.definition_level_histogram);
        w.struct_end();
    }
}

/// `struct BoundingBox`: per-axis bounds of geospatial values.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BoundingBox {
    /// `1: required double xmin`.
    pub xmin: f64,
    /// `2: required double xmax`.
    pub xmax: f64,
    /// `3: required double ymin`.
    pub ymin: f64,
    /// `4: required double ymax`.
    pub ymax: f64,
    /// `5: optional double zmin`.
    pub zmin: Option<f64>,
    /// `6: optional double zmax`.
    pub zmax: Option<f64>,
    /// `7: optional double mmin`.
    pub mmin: Option<f64>,
    /// `8: optional double mmax`.
    pub mmax: Option<f64>,
}

impl<'a> ThriftRead<'a> for BoundingBox {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let mut b = BoundingBox::default();
        let mut required = [None; 4];
        r.read_struct("BoundingBox", |r, f| {
            match f.id {
                1..=4 => required[f.id as usize - 1] = r.value(f)?,
                5 => b.zmin = r.value(f)?,
                6 => b.zmax = r.value(f)?,
                7 => b.mmin = r.value(f)?,
                8 => b.mmax = r.value(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        let [Some(xmin), Some(xmax), Some(ymin), Some(ymax)] = required else {
            return Err(Error::oos(
                "BoundingBox lacks one of xmin, xmax, ymin, ymax",
            ));
        };
        Ok(BoundingBox {
            xmin,
            xmax,
            ymin,
            ymax,
            ..b
        })
    }
}

impl ThriftWrite for BoundingBox {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field(1, &self.xmin);
        w.field(2, &self.xmax);
        w.field(3, &self.ymin);
        w.field(4, &self.ymax);
        w.field_opt(5, &self.zmin);
        w.field_opt(6, &self.zmax);
        w.field_opt(7, &self.mmin);
        w.field_opt(8, &self.mmax);
        w.struct_end();
    }
}

/// `struct GeospatialStatistics`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GeospatialStatistics {
    /// `1: optional BoundingBox bbox`.
    pub bbox: Option<BoundingBox>,
    /// `2: optional list<i32> geospatial_types`.
    pub geospatial_types: Option<Vec<i32>>,
}

impl<'a> ThriftRead<'a> for GeospatialStatistics {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let mut g = GeospatialStatistics::default();
        r.read_struct("GeospatialStatistics", |r, f| {
            match f.id {
                1 => g.bbox = r.value(f)?,
                2 => g.geospatial_types = r.list_field(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        Ok(g)
    }
}

impl ThriftWrite for GeospatialStatistics {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field_opt(1, &self.bbox);
        w.field_list_opt(2, &self.geospatial_types);
        w.struct_end();
    }
}
