"""Compares quiver's Arrow schema of Parquet files with pyarrow's.

Reads JSON lines from stdin: {"file": path, "ipc": hex of an IPC schema message} or
{"file": path, "error": message}. Prints one JSON line per file: pyarrow's schema, whether
pyarrow can read the file's schema, and whether quiver's equals it (names, types,
nullability; field metadata compared separately).
"""
import json
import sys

import pyarrow as pa
import pyarrow.parquet as pq

for line in sys.stdin:
    case = json.loads(line)
    out = {"file": case["file"]}
    try:
        theirs = pq.ParquetFile(case["file"]).schema_arrow
        out["pyarrow"] = str(theirs)
    except Exception as e:  # noqa: BLE001 - any refusal counts
        out["pyarrow_error"] = f"{type(e).__name__}: {e}"
        theirs = None
    if "ipc" in case:
        try:
            ours = pa.ipc.read_schema(pa.py_buffer(bytes.fromhex(case["ipc"])))
        except Exception as e:  # noqa: BLE001
            out["quiver"] = f"(pyarrow cannot read quiver's schema: {e})"
            out["equal"] = False
            print(json.dumps(out), flush=True)
            continue
        out["quiver"] = str(ours)
        if theirs is not None:
            out["equal"] = ours.equals(theirs, check_metadata=False)
            out["metadata_equal"] = all(
                (a.metadata or {}) == (b.metadata or {}) for a, b in zip(ours, theirs)
            ) and (ours.metadata or {}) == (theirs.metadata or {})
    print(json.dumps(out), flush=True)
