//! The names of the `FieldData` members that hold buffers: one mapping from the layout
//! table's [`BufferKind`]s (see [`DataType::layout`](quiver_arrow::DataType::layout)) to the
//! JSON member of each, shared by the reader and the writer.
//!
//! A column has the members of its type's layout, in the layout's order, then `children` when
//! the layout has children. The format gives fixed-width values, dictionary indices and the
//! bytes of variable-size binary values the same name, `DATA` (binary values are written one
//! entry per slot, not as one byte buffer).

use quiver_arrow::datatype::BufferKind;

/// The member holding the variable number of data buffers of the view types.
pub(crate) const VARIADIC: &str = "VARIADIC_DATA_BUFFERS";

/// The member holding the child columns.
pub(crate) const CHILDREN: &str = "children";

/// The member holding a buffer of `kind`.
pub(crate) fn member(kind: BufferKind) -> &'static str {
    match kind {
        BufferKind::Validity => "VALIDITY",
        BufferKind::Values | BufferKind::Indices | BufferKind::Data => "DATA",
        BufferKind::Offsets => "OFFSET",
        BufferKind::Sizes => "SIZE",
        BufferKind::Views => "VIEWS",
        BufferKind::TypeIds => "TYPE_ID",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quiver_arrow::{DataType, Field, IntegerType, UnionFields, UnionMode};
    use std::collections::BTreeSet;

    /// The names the integration format (`Integration.rst`) gives each layout's members.
    #[test]
    fn members_of_each_layout() {
        let item = || Field::new("item", DataType::Int8, true);
        let union = |mode| DataType::Union(UnionFields::with_default_ids(vec![item()]), mode);
        let cases: Vec<(DataType, &[&str])> = vec![
            (DataType::Null, &[]),
            (DataType::Boolean, &["VALIDITY", "DATA"]),
            (DataType::FixedSizeBinary(3), &["VALIDITY", "DATA"]),
            (DataType::LargeUtf8, &["VALIDITY", "OFFSET", "DATA"]),
            (DataType::Utf8View, &["VALIDITY", "VIEWS"]),
            (DataType::list_of(DataType::Int8), &["VALIDITY", "OFFSET"]),
            (
                DataType::ListView(item().into()),
                &["VALIDITY", "OFFSET", "SIZE"],
            ),
            (DataType::Struct(vec![item()].into()), &["VALIDITY"]),
            (union(UnionMode::Sparse), &["TYPE_ID"]),
            (union(UnionMode::Dense), &["TYPE_ID", "OFFSET"]),
            (
                DataType::dictionary(IntegerType::UInt8, DataType::Utf8),
                &["VALIDITY", "DATA"],
            ),
        ];
        for (dt, want) in cases {
            let got: Vec<&str> = dt.layout().buffers.iter().map(|&k| member(k)).collect();
            assert_eq!(got, want, "{dt}");
            let distinct: BTreeSet<&str> = got.iter().copied().collect();
            assert_eq!(
                distinct.len(),
                got.len(),
                "{dt}: two buffers share a member"
            );
        }
    }
}
