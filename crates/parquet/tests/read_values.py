"""Compares the values quiver reads from Parquet files with pyarrow's.

Reads JSON lines from stdin: {"file": parquet path, "ipc": path of quiver's batches as an Arrow
IPC stream} or {"file": ..., "error": quiver's error}, with an optional "oracle": the file pyarrow
reads instead (one holding the same values in a form pyarrow reads, e.g. for LZO pages). Prints one JSON line per file: whether
pyarrow reads it, and whether every column holds the same values (NaN equal to NaN; types
compared separately).
"""
import json
import math
import re
import sys

import pyarrow as pa
import pyarrow.parquet as pq


def norm(v):
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, tuple):
        return tuple(norm(x) for x in v)
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    return v


def as_integers(t):
    """`t` with every timestamp, time and duration inside it replaced by int64."""
    if pa.types.is_timestamp(t) or pa.types.is_time(t) or pa.types.is_duration(t):
        return pa.int64()
    if pa.types.is_struct(t):
        return pa.struct([f.with_type(as_integers(f.type)) for f in t])
    if pa.types.is_map(t):
        return pa.map_(t.key_field.with_type(as_integers(t.key_type)),
                       t.item_field.with_type(as_integers(t.item_type)))
    if pa.types.is_large_list(t):
        return pa.large_list(t.value_field.with_type(as_integers(t.value_type)))
    if pa.types.is_fixed_size_list(t):
        return pa.list_(t.value_field.with_type(as_integers(t.value_type)), t.list_size)
    if pa.types.is_list(t):
        return pa.list_(t.value_field.with_type(as_integers(t.value_type)))
    return t


def values(col):
    """The column as Python values (times and timestamps as their integers where `datetime`
    cannot hold them: nanoseconds, or years outside 1..9999), at any depth."""
    try:
        return norm(col.to_pylist())
    except (ValueError, OverflowError):
        return norm(col.cast(as_integers(col.type)).to_pylist())


for line in sys.stdin:
    case = json.loads(line)
    out = {"file": case["file"]}
    try:
        theirs = pq.read_table(case.get("oracle") or case["file"])
    except Exception as e:  # noqa: BLE001
        out["pyarrow_error"] = f"{type(e).__name__}: {e}"
        theirs = None
    if theirs is not None:
        out["their_rows"] = theirs.num_rows
    if "ipc" in case:
        ours = pa.ipc.open_stream(case["ipc"]).read_all()
        out["rows"] = ours.num_rows
        if theirs is not None:
            diffs = []
            if ours.num_rows != theirs.num_rows:
                diffs.append(f"rows {ours.num_rows} vs {theirs.num_rows}")
            for i, name in enumerate(theirs.column_names):
                a, b = ours.column(i), theirs.column(i)
                # pyarrow's IPC reader drops the names of map entries fields: ignore them.
                unnamed = lambda t: re.sub(r" \('[^']*'\)", "", str(t))  # noqa: E731
                if unnamed(a.type) != unnamed(b.type):
                    diffs.append(f"{name}: type {a.type} vs {b.type}")
                    continue
                la, lb = values(a), values(b)
                if la != lb:
                    first = next(j for j, (x, y) in enumerate(zip(la, lb)) if x != y) if len(la) == len(lb) else -1
                    diffs.append(f"{name}: row {first}: {la[first] if first >= 0 else len(la)!r} vs {lb[first] if first >= 0 else len(lb)!r}")
            out["diffs"] = diffs
    print(json.dumps(out, default=str), flush=True)
