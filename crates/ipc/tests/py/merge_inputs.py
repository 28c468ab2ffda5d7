#!/usr/bin/env python3
"""Writes the pyarrow inputs of the IPC merge tests (crates/ipc/tests/it/merge.rs).

Usage: merge_inputs.py DIR

Writes DIR/<scenario>.<k>.arrow and prints one line per scenario: the scenario name and its
input paths, separated by spaces. Every input of a scenario has the same schema; what
differs is the data, the batching, the compression and (for dictionary columns) the
dictionaries, as the scenario's name says.
"""

import sys

import pyarrow as pa
import pyarrow.ipc as ipc

OUT = sys.argv[1]
SCENARIOS = {}


def write(scenario, table, codec=None, chunk=None, schema=None, footer=None):
    """One input: `table` in batches of `chunk` rows (None: an empty file of `schema`)."""
    files = SCENARIOS.setdefault(scenario, [])
    path = f"{OUT}/{scenario}.{len(files)}.arrow"
    schema = schema if table is None else table.schema
    opts = ipc.IpcWriteOptions(compression=codec)
    with ipc.new_file(path, schema, options=opts, metadata=footer) as w:
        if table is not None:
            w.write_table(table, max_chunksize=chunk)
    files.append(path)


def plain(lo, n):
    r = range(lo, lo + n)
    return pa.table({
        "i": pa.array(list(r), pa.int64()),
        "f": pa.array([x * 0.5 if x % 3 else None for x in r], pa.float64()),
        "s": pa.array([f"s{x}" if x % 4 else None for x in r], pa.string()),
        "b": pa.array([x % 2 == 0 for x in r]),
        "t": pa.array(list(r), pa.timestamp("ms", tz="UTC")),
    })


def nested(lo, n):
    r = range(lo, lo + n)
    st = pa.struct([("a", pa.int32()), ("b", pa.string())])
    return pa.table({
        "l": pa.array([[x, x + 1][: x % 3] if x % 5 else None for x in r], pa.list_(pa.int32())),
        "st": pa.array([{"a": x, "b": f"b{x}"} if x % 4 else None for x in r], st),
        "m": pa.array([[("k", x)] for x in r], pa.map_(pa.string(), pa.int64())),
        "ls": pa.array([[{"x": float(x)}] * (x % 3) for x in r],
                       pa.list_(pa.struct([("x", pa.float64())]))),
    })


def dcol(indices, values, key=pa.int32()):
    return pa.DictionaryArray.from_arrays(pa.array(indices, key), pa.array(values, pa.string()))


def dtable(indices, values, key=pa.int32(), **more):
    cols = {"i": pa.array(range(len(indices)), pa.int64()), "d": dcol(indices, values, key)}
    cols.update(more)
    return pa.table(cols)


# Plain columns, several batches per file, an empty file in the middle.
write("plain", plain(0, 7), chunk=3)
write("plain", None, schema=plain(0, 1).schema)
write("plain", plain(100, 5), chunk=2)
# Nested columns.
write("nested", nested(0, 6), chunk=4)
write("nested", nested(50, 5), chunk=2)
# Compression: LZ4 files, ZSTD files, and all three in one merge.
write("lz4", plain(0, 300), codec="lz4", chunk=100)
write("lz4", plain(300, 200), codec="lz4", chunk=150)
write("zstd", nested(0, 300), codec="zstd", chunk=120)
write("zstd", nested(300, 50), codec="zstd")
write("codecs", plain(0, 10), chunk=4)
write("codecs", plain(10, 10), codec="lz4", chunk=4)
write("codecs", plain(20, 10), codec="zstd", chunk=4)
# Schema and footer metadata differing: the first input's is kept.
t = plain(0, 3)
write("metadata", t.replace_schema_metadata({"k": "1", "only_first": "x"}), footer={"f": "1"})
write("metadata", plain(3, 3).replace_schema_metadata({"k": "2"}), footer={"f": "2", "g": "3"})
# No batches at all.
write("all_empty", None, schema=dtable([0], ["a"]).schema)
write("all_empty", None, schema=dtable([0], ["a"]).schema)
# An empty file first: the first dictionary comes from the second.
write("dict_empty_first", None, schema=dtable([0], ["a"]).schema)
write("dict_empty_first", dtable([1, 0, None], ["a", "b"]))
# Dictionaries: identical.
write("dict_same", dtable([0, 1, 2, 1, 0], ["a", "b", "c"]), chunk=2)
write("dict_same", dtable([2, 2, 1], ["a", "b", "c"]))
# Extending (delta), then a prefix (nothing to write).
write("dict_extend", dtable([0, 1, 1], ["a", "b"]), chunk=2)
write("dict_extend", dtable([3, 2, 0, None], ["a", "b", "c", "d"]))
write("dict_extend", dtable([2, 0], ["a", "b", "c"]))
# Overlapping: unified (one new value), then the same values in another order.
write("dict_overlap", dtable([0, 1, 2, None], ["a", "b", "c"]), chunk=3)
write("dict_overlap", dtable([0, 1, 2, 0, 1], ["c", "d", "a"]), chunk=2)
write("dict_overlap", dtable([1, 0], ["b", "a"]))
# Disjoint, with Int8 indices.
write("dict_disjoint", dtable([0, 1], ["a", "b"], key=pa.int8()))
write("dict_disjoint", dtable([2, 1, 0, 2], ["x", "y", "z"], key=pa.int8()), chunk=3)
# Null indices and null dictionary values.
write("dict_nulls", dtable([0, None, 1, 2], ["a", None, "b"]))
write("dict_nulls", dtable([2, 1, None, 0, 1], ["b", "c", None]))
write("dict_nulls", dtable([None, 0], ["q"]))
# Two dictionary columns, only the second differing.
two = lambda k1, k2, v2: dtable(k1, ["p", "q"], e=dcol(k2, v2))
write("dict_two", two([0, 1, 1], [0, 1, 0], ["x", "y"]), chunk=2)
write("dict_two", two([1, 0], [1, 0], ["y", "w"]))
# A dictionary in a list.
def dlist(offsets, indices, values):
    return pa.table({"l": pa.ListArray.from_arrays(pa.array(offsets, pa.int32()),
                                                  dcol(indices, values))})
write("dict_list", dlist([0, 2, 2, 3], [0, 1, 1], ["a", "b"]))
write("dict_list", dlist([0, 1, 4], [0, 2, 1, 0], ["b", "c", "a"]), chunk=1)
# Compressed inputs whose dictionaries are unified: the re-encoded batches stay compressed.
write("dict_zstd", dtable([i % 3 for i in range(200)], ["a", "b", "c"]), codec="zstd", chunk=80)
write("dict_zstd", dtable([i % 4 for i in range(150)], ["d", "c", "b", "e"]), codec="zstd",
      chunk=60)
write("dict_lz4", dtable([0, 1, 0], ["a", "b"]), codec="lz4")
write("dict_lz4", dtable([2, 1, 0], ["a", "b", "c"]), codec="lz4")
write("dict_lz4", dtable([0, 1, 1], ["c", "a"]), codec="lz4")

for name, files in SCENARIOS.items():
    print(name, *files)
