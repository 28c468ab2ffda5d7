#!/usr/bin/env python3
"""Reads Arrow IPC files or streams with pyarrow and prints a canonical description of each.

Usage: read_ipc.py FILE...

For each input it prints `FILE <path>`, then one line per item, a keyword and JSON:
  SCHEMA "<str(schema)>"                (for messages; not compared)
  SCHEMA_METADATA {...}
  FIELD {"name", "type": str(type), "nullable", "metadata"}     (one per field)
  FOOTER_METADATA {...}                 (files only)
  BATCH {message custom metadata}       (one per batch, followed by its columns)
  COLUMN [value...]                     (one per column; "no python array class" for
                                        month and day-time intervals, which pyarrow reads
                                        but cannot wrap as Python arrays)
  ERROR "<message>"                     (when pyarrow cannot read the input)
then `END`.

Values are canonical, so that the Rust tests can build the same text from quiver arrays:
  null -> null; booleans -> true/false; fixed-width values (integers, floats, decimals, dates,
  times, timestamps, durations, intervals, fixed-size binary) -> hex of their little-endian
  bytes; binary -> hex; strings -> strings; lists of every kind -> JSON lists; structs ->
  objects in field order; maps -> lists of [key, value]; unions -> [type code, value];
  dictionaries and run-end encoded values -> the decoded values; the Null type -> null.
Output uses json.dumps(separators=(",", ":"), ensure_ascii=True).
"""

import json
import sys

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc as ipc


def fixed_width(a):
    t = a.type
    if pa.types.is_fixed_size_binary(t):
        w = t.byte_width
    else:
        w = t.bit_width // 8
    data = a.buffers()[1]
    raw = data.to_pybytes() if data is not None else b""
    return [raw[(a.offset + i) * w:(a.offset + i + 1) * w].hex() for i in range(len(a))]


def slot_values(a):
    """Values of every slot, ignoring validity."""
    t = a.type
    n = len(a)
    if pa.types.is_null(t):
        return [None] * n
    if pa.types.is_boolean(t):
        return a.to_pylist()
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return a.to_pylist()
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return [None if x is None else x.hex() for x in a.to_pylist()]
    if pa.types.is_map(t):
        offs = a.offsets.to_pylist()
        keys, items = canon(a.keys), canon(a.items)
        return [[[keys[j], items[j]] for j in range(offs[i], offs[i + 1])] for i in range(n)]
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        offs = a.offsets.to_pylist()
        child = canon(a.values)
        return [child[offs[i]:offs[i + 1]] for i in range(n)]
    if pa.types.is_list_view(t) or pa.types.is_large_list_view(t):
        offs, sizes = a.offsets.to_pylist(), a.sizes.to_pylist()
        child = canon(a.values)
        return [child[o:o + s] if o is not None else [] for o, s in zip(offs, sizes)]
    if pa.types.is_fixed_size_list(t):
        child = canon(a.values)
        k = t.list_size
        return [child[(a.offset + i) * k:(a.offset + i + 1) * k] for i in range(n)]
    if pa.types.is_struct(t):
        children = [canon(a.field(j)) for j in range(t.num_fields)]
        names = [t.field(j).name for j in range(t.num_fields)]
        return [{names[j]: children[j][i] for j in range(len(names))} for i in range(n)]
    return fixed_width(a)


def canon(a):
    """Canonical values of every slot of array `a`."""
    t = a.type
    if len(a) == 0:
        return []  # (pyarrow 26 crashes reading the type codes of an empty sparse union)
    if pa.types.is_dictionary(t):
        d = canon(a.dictionary)
        return [None if k is None else d[k] for k in a.indices.to_pylist()]
    if pa.types.is_run_end_encoded(t):
        return canon(pc.run_end_decode(a))
    if pa.types.is_union(t):
        children = [canon(a.field(j)) for j in range(t.num_fields)]
        pos = {code: j for j, code in enumerate(t.type_codes)}
        codes = a.type_codes.to_pylist()
        if t.mode == "dense":
            offs = a.offsets.to_pylist()
        else:
            offs = list(range(len(a)))
        return [[c, children[pos[c]][o]] for c, o in zip(codes, offs)]
    valid = a.is_valid().to_pylist()
    return [v if ok else None for v, ok in zip(slot_values(a), valid)]


def column(batch, i):
    """Canonical values of column `i`; "no python array class" for the types pyarrow reads but
    cannot hand to Python (month and day-time intervals)."""
    try:
        c = batch.column(i)
    except KeyError:
        return "no python array class"
    return canon(c)


def metadata(m):
    if not m:
        return {}
    return {k.decode("utf-8"): v.decode("utf-8") for k, v in m.items()}


def dumps(x):
    return json.dumps(x, separators=(",", ":"), ensure_ascii=True)


def describe(schema, batches, footer):
    """The lines describing one input (see the module documentation)."""
    lines = ["SCHEMA " + dumps(str(schema)), "SCHEMA_METADATA " + dumps(metadata(schema.metadata))]
    for f in schema:
        field = {"name": f.name, "type": str(f.type), "nullable": f.nullable,
                 "metadata": metadata(f.metadata)}
        lines.append("FIELD " + dumps(field))
    if footer is not None:
        lines.append("FOOTER_METADATA " + dumps(metadata(footer)))
    for batch, custom in batches:
        lines.append("BATCH " + dumps(metadata(custom)))
        try:
            batch.validate(full=True)
        except pa.ArrowInvalid as e:
            lines.append("ERROR " + dumps(f"invalid batch: {e}"))
        lines.extend("COLUMN " + dumps(column(batch, i)) for i in range(batch.num_columns))
    return lines


def read(path):
    with open(path, "rb") as f:
        head = f.read(6)
    if head == b"ARROW1":
        r = ipc.open_file(path)
        batches = [r.get_batch_with_custom_metadata(i) for i in range(r.num_record_batches)]
        return describe(r.schema, batches, r.metadata)
    r = ipc.open_stream(path)
    return describe(r.schema, list(r.iter_batches_with_custom_metadata()), None)


def main():
    for path in sys.argv[1:]:
        print("FILE " + path)
        try:
            lines = read(path)
        except Exception as e:  # reported to the Rust test, which fails with it
            lines = ["ERROR " + dumps(f"{type(e).__name__}: {e}")]
        for line in lines:
            print(line)
        print("END")


if __name__ == "__main__":
    main()
