use super::*;
use crate::format::{ConvertedType, LogicalType};

/// A schema element: `rep` R/O/P (required/optional/repeated, `-` for the root), a physical
/// type for leaves or a child count for groups.
pub(crate) fn el(
    name: &'static str,
    rep: char,
    t: Option<Type>,
    children: Option<i32>,
) -> SchemaElement<'static> {
    SchemaElement {
        name,
        repetition_type: match rep {
            'R' => Some(FieldRepetitionType::REQUIRED),
            'O' => Some(FieldRepetitionType::OPTIONAL),
            'P' => Some(FieldRepetitionType::REPEATED),
            _ => None,
        },
        type_: t,
        num_children: children,
        ..Default::default()
    }
}

pub(crate) fn group(name: &'static str, rep: char, n: i32) -> SchemaElement<'static> {
    el(name, rep, None, Some(n))
}

pub(crate) fn leaf(name: &'static str, rep: char, t: Type) -> SchemaElement<'static> {
    el(name, rep, Some(t), None)
}

#[test]
fn levels_and_paths_of_a_nested_schema() {
    // message m { required int32 a; optional group b (LIST) { repeated group list {
    //   optional group element { optional binary x; required int64 y; } } } }
    let mut b = group("b", 'O', 1);
    b.converted_type = Some(ConvertedType::LIST);
    b.logical_type = Some(LogicalType::List);
    let elements = vec![
        group("m", '-', 2),
        leaf("a", 'R', Type::INT32),
        b,
        group("list", 'P', 1),
        group("element", 'O', 2),
        leaf("x", 'O', Type::BYTE_ARRAY),
        leaf("y", 'R', Type::INT64),
    ];
    let s = SchemaDescriptor::new(&elements).unwrap();
    let cols = s.columns();
    assert_eq!(cols.len(), 3);
    let summary: Vec<(String, i16, i16)> = cols
        .iter()
        .map(|c| (c.dotted_path(), c.max_def(), c.max_rep()))
        .collect();
    assert_eq!(
        summary,
        [
            ("a".to_string(), 0, 0),
            ("b.list.element.x".to_string(), 4, 1),
            ("b.list.element.y".to_string(), 3, 1)
        ]
    );
    assert_eq!(cols[1].nodes, [2, 3, 4, 5]);
    assert_eq!(s.fields(), [1, 2]);
    assert_eq!(s.column_range(2), 1..3);
    assert_eq!(s.column_range(0), 0..3);
    assert_eq!(s.node(6).column, Some(2));
}

#[test]
fn malformed_trees_are_errors() {
    let cases: Vec<(Vec<SchemaElement<'static>>, &str)> = vec![
        (vec![], "no root"),
        (
            vec![group("m", '-', 2), leaf("a", 'R', Type::INT32)],
            "the schema ends first",
        ),
        (
            vec![
                group("m", '-', 1),
                leaf("a", 'R', Type::INT32),
                leaf("b", 'R', Type::INT32),
            ],
            "covers 2 of its 3",
        ),
        (
            vec![group("m", '-', 1), el("a", 'R', None, None)],
            "no physical type",
        ),
        (
            vec![group("m", '-', 1), leaf("a", '-', Type::INT32)],
            "repetition None",
        ),
        (
            vec![
                group("m", '-', 1),
                leaf("f", 'R', Type::FIXED_LEN_BYTE_ARRAY),
            ],
            "type_length None",
        ),
        (vec![group("m", '-', 1), group("g", 'R', -1)], "-1 children"),
        (
            vec![group("m", '-', 1), leaf("a", 'R', Type::Unknown(9))],
            "unknown physical type 9",
        ),
    ];
    for (elements, want) in cases {
        let e = SchemaDescriptor::new(&elements).unwrap_err().to_string();
        assert!(e.contains(want), "{want:?} not in {e:?}");
    }
}
