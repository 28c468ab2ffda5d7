"""Prints pyarrow's view of each Parquet file's metadata as one JSON object per line.

    python3 pyarrow_metadata.py FILE...

Statistics min/max are pyarrow's raw physical values re-encoded as PLAIN bytes (hex), so that
they compare with the bytes in the footer. A file pyarrow rejects gives {"error": ...}, one on
which it aborts {"aborted": ...}; "table_ok" says whether pyarrow also reads the file's data.
"""

import json
import os
import struct
import sys

import pyarrow.parquet as pq


def plain(physical, v):
    if v is None:
        return None
    if physical == "BOOLEAN":
        return bytes([int(v)]).hex()
    if isinstance(v, str):
        return v.encode().hex()
    if isinstance(v, bytes):
        return v.hex()
    fmt = {"INT32": "<i", "INT64": "<q", "FLOAT": "<f", "DOUBLE": "<d"}[physical]
    try:
        return struct.pack(fmt, v).hex()
    except struct.error:
        return struct.pack(fmt.upper(), v).hex()


def column(c):
    out = {
        "path": c.path_in_schema,
        "physical_type": c.physical_type,
        "compression": c.compression,
        "encodings": list(c.encodings),
        "num_values": c.num_values,
        "total_compressed_size": c.total_compressed_size,
        "total_uncompressed_size": c.total_uncompressed_size,
        "data_page_offset": c.data_page_offset,
        "dictionary_page_offset": c.dictionary_page_offset if c.has_dictionary_page else None,
        "file_offset": c.file_offset,
        "stats": None,
    }
    s = c.statistics if c.is_stats_set else None
    if s is not None:
        out["stats"] = {
            "min": plain(c.physical_type, s.min_raw) if s.has_min_max else None,
            "max": plain(c.physical_type, s.max_raw) if s.has_min_max else None,
            "null_count": s.null_count if s.has_null_count else None,
        }
    return out


def describe(path):
    m = pq.ParquetFile(path).metadata
    kv = m.metadata or {}
    return {
        "num_rows": m.num_rows,
        "num_columns": m.num_columns,
        "serialized_size": m.serialized_size,
        "created_by": m.created_by,
        "kv": [[k.hex(), v.hex()] for k, v in kv.items()],
        "row_groups": [
            {
                "num_rows": m.row_group(i).num_rows,
                "total_byte_size": m.row_group(i).total_byte_size,
                "columns": [column(m.row_group(i).column(j)) for j in range(m.num_columns)],
            }
            for i in range(m.num_row_groups)
        ],
    }


def in_child(f, path):
    """f(path) in a forked child, as JSON: pyarrow aborts the process on some encrypted and
    fuzzed files. An exception is {"error": ...}; an abort is {"aborted": ...}."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        try:
            line = f(path)
        except Exception as e:  # noqa: BLE001 - any rejection is the expected answer
            line = {"error": f"{type(e).__name__}: {e}"}
        with os.fdopen(write, "w") as out:
            out.write(json.dumps(line))
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as out:
        text = out.read()
    _, status = os.waitpid(pid, 0)
    if status != 0 or not text:
        return {"aborted": f"pyarrow aborted (wait status {status})"}
    return json.loads(text)


def table_rows(path):
    return {"rows": pq.read_table(path).num_rows}


for path in sys.argv[1:]:
    line = in_child(describe, path)
    if "error" not in line and "aborted" not in line:
        # The data is read in a child of its own: pyarrow may read the footer and then abort
        # on the pages, and the footer's view still holds.
        table = in_child(table_rows, path)
        line["table_ok"] = "rows" in table
        if "rows" in table:
            line["table_rows"] = table["rows"]
    line["file"] = path
    print(json.dumps(line), flush=True)
