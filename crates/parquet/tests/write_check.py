"""Checks Parquet files quiver wrote against the files they were made from.

Reads JSON lines from stdin: {"original": path, "written": path, "readers": ["pyarrow",
"duckdb", "polars"], "ipc": optional path of the batches quiver wrote, as an Arrow IPC stream}.
Each reader reads both files (or the IPC stream instead of the original, when given); the
written file must read as the original does: same schema (pyarrow: the Arrow schema, restored
from ARROW:schema) and same values, NaN equal to NaN. A reader that cannot read the original
is skipped for that file. Prints one JSON line per case: {"written", "errors": [...]}.
"""
import json
import math
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


def pylist(col):
    try:
        return norm(col.to_pylist())
    except (ValueError, OverflowError):
        t = col.type
        if pa.types.is_timestamp(t) or pa.types.is_time(t) or pa.types.is_duration(t):
            return norm(col.cast(pa.int64()).to_pylist())
        raise


def tables_equal(a, b, what, errors, check_schema=True):
    if check_schema and a.schema.remove_metadata() != b.schema.remove_metadata():
        errors.append(f"{what}: schema\n{a.schema.remove_metadata()}\nvs\n{b.schema.remove_metadata()}")
        return
    if a.num_rows != b.num_rows:
        errors.append(f"{what}: {a.num_rows} rows vs {b.num_rows}")
        return
    for i, name in enumerate(a.column_names):
        x, y = a.column(i), b.column(i)
        if x.equals(y):
            continue
        if pylist(x) != pylist(y):
            errors.append(f"{what}: column {name} differs: {pylist(x)[:5]} vs {pylist(y)[:5]}")


def read_pyarrow(path):
    return pq.read_table(path)


def read_duckdb(path):
    import duckdb
    con = duckdb.connect()
    return con.sql(f"select * from read_parquet('{path}')").to_arrow_table()


def read_polars(path):
    import polars as pl
    return pl.read_parquet(path).to_arrow()


READERS = {"pyarrow": read_pyarrow, "duckdb": read_duckdb, "polars": read_polars}

for line in sys.stdin:
    case = json.loads(line)
    errors = []
    for reader in case["readers"]:
        read = READERS[reader]
        try:
            if case.get("ipc") and reader == "pyarrow":
                want = pa.ipc.open_stream(case["ipc"]).read_all()
            else:
                want = read(case["original"])
        except BaseException:  # noqa: BLE001 - the reader cannot read the original (polars panics are BaseExceptions): skip it
            continue
        try:
            got = read(case["written"])
        except BaseException as e:  # noqa: BLE001
            errors.append(f"{reader}: cannot read the written file: {type(e).__name__}: {e}")
            continue
        tables_equal(want, got, reader, errors, check_schema=(reader == "pyarrow"))
    print(json.dumps({"written": case["written"], "errors": errors}), flush=True)
