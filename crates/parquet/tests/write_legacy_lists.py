"""Writes, into the folder argv[1], lists of lists in the legacy shapes of LogicalTypes.md's
backward-compatibility rules, which no current writer produces (parquet-mr's avro writer with
`write-old-list-structure` does, as parquet-testing's `old_list_structure.parquet`).

pyarrow writes each table as a standard three-level list of lists; then only the footer's schema
(and each chunk's `path_in_schema`) is replaced by a legacy schema with the same maximum
definition and repetition levels, so the pages stand unchanged. The `ARROW:schema` key is
dropped, so that readers derive the Arrow types from the Parquet schema alone.
"""
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import merge_thrift as t  # noqa: E402

REQUIRED, OPTIONAL, REPEATED = 0, 1, 2
LIST = 3  # ConvertedType.LIST


def element(name, rep, children=0, physical=None, annotated=False):
    e = t.Struct()
    if physical is not None:
        e.set(1, t.I32, physical)
    e.set(3, t.I32, rep)
    e.set(4, t.BINARY, name.encode())
    if children:
        e.set(5, t.I32, children)
    if annotated:
        e.set(6, t.I32, LIST)
        lt = t.Struct()
        lt.set(3, t.STRUCT, t.Struct())  # LogicalType.LIST
        e.set(10, t.STRUCT, lt)
    return e


def rewrite(src, dst, outer_rep, middle, middle_annotated, leaf="array"):
    """`src` (a three-level list of lists of int32 in column `a`) with the legacy schema
    `a (LIST) / repeated group <middle> [(LIST)] / repeated int32 <leaf>`."""
    buf = open(src, "rb").read()
    meta, _ = t.footer(buf)
    root = list(meta[2])[0]
    schema = [
        root,
        element("a", outer_rep, 1, annotated=True),
        element(middle, REPEATED, 1, annotated=middle_annotated),
        element(leaf, REPEATED, physical=1),  # INT32
    ]
    meta.set(2, t.LIST, t.List(t.STRUCT, schema))
    for rg in meta[4]:
        for chunk in rg[1]:
            names = [b"a", middle.encode(), leaf.encode()]
            chunk[3].set(3, t.LIST, t.List(t.BINARY, names))
    meta.pop(5, None)
    meta.types.pop(5, None)
    open(dst, "wb").write(t.with_footer(buf, meta))


out = sys.argv[1]
inner = pa.list_(pa.field("element", pa.int32(), nullable=False))
lists = pa.list_(pa.field("element", inner, nullable=False))
required = pa.table({"a": pa.array([[[1, 2], [3, 4]], [], [[]], [[5], [], [6, 7, 8]]], lists)},
                    schema=pa.schema([pa.field("a", lists, nullable=False)]))
optional = pa.table({"a": pa.array([[[1, 2], [3, 4]], None, [], [[]], None, [[5], [], [6]]],
                                   lists)})
for name, table, rep in [("required", required, REQUIRED), ("optional", optional, OPTIONAL)]:
    src = f"{out}/{name}.standard"
    # Small pages and row groups, so records cross page and row-group boundaries.
    pq.write_table(table, src, use_dictionary=False, compression="none", row_group_size=3,
                   data_page_size=1, write_batch_size=1)
    # The repeated group annotated LIST: a two-level list as the element (rule 3, and what
    # pyarrow and parquet-mr read as a list of lists).
    rewrite(src, f"{out}/{name}-array-annotated.parquet", rep, "array", True)
    rewrite(src, f"{out}/{name}-element-annotated.parquet", rep, "element", True)
    # Not annotated: its one field is repeated, so the group is the element (rule 3): a struct
    # holding a list.
    rewrite(src, f"{out}/{name}-element-plain.parquet", rep, "element", False)
    # Named `array` or `<list>_tuple` (rule 4): the group is the element.
    rewrite(src, f"{out}/{name}-array-plain.parquet", rep, "array", False)
    rewrite(src, f"{out}/{name}-tuple-plain.parquet", rep, "a_tuple", False)
    os.remove(src)
