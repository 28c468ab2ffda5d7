"""Reads a CSV or JSON Lines file that quiver wrote with pyarrow, DuckDB and polars, and prints
what each of them found as one JSON object, so that the Rust tests can compare it with the data
quiver wrote.

Usage:
  read_back.py csv PATH     pyarrow.csv.read_csv (null_values=[""], strings_can_be_null=True,
                            quoted_strings_can_be_null=False) and DuckDB read_csv
                            (allow_quoted_nulls=false)
  read_back.py jsonl PATH   pyarrow.json.read_json, DuckDB read_json, polars.read_ndjson

Output: {"pyarrow": {COLUMN: {"type": TYPE, "values": [...]}, ...}, "duckdb": {...}, ...}
with values made comparable: timestamps as integer nanoseconds since the epoch (UTC), dates
as days since the epoch, non-finite floats as the strings "NaN", "inf", "-inf", nulls as null.
"""
import json
import math
import sys

import pyarrow as pa
import pyarrow.compute as pc


def canonical(column):
    typ = column.type
    if pa.types.is_timestamp(typ):
        column = pc.cast(column, pa.timestamp("ns", tz=typ.tz)).cast(pa.int64())
    elif pa.types.is_date32(typ):
        column = column.cast(pa.int32())
    values = column.to_pylist()
    if pa.types.is_floating(typ):
        values = [v if v is None or math.isfinite(v) else repr(v).replace("nan", "NaN")
                  for v in values]
    return {"type": str(typ), "values": values}


def table_json(table):
    return {name: canonical(table.column(name)) for name in table.column_names}


def main():
    kind, path = sys.argv[1], sys.argv[2]
    import duckdb

    out = {}
    if kind == "csv":
        import pyarrow.csv as pcsv

        convert = pcsv.ConvertOptions(null_values=[""], strings_can_be_null=True,
                                      quoted_strings_can_be_null=False)
        out["pyarrow"] = table_json(pcsv.read_csv(path, convert_options=convert))
        sql = f"SELECT * FROM read_csv('{path}', allow_quoted_nulls = false)"
        out["duckdb"] = table_json(duckdb.sql(sql).arrow().read_all())
    elif kind == "jsonl":
        import polars
        import pyarrow.json as pjson

        out["pyarrow"] = table_json(pjson.read_json(path))
        out["duckdb"] = table_json(duckdb.sql(f"SELECT * FROM read_json('{path}')").arrow().read_all())
        out["polars"] = table_json(polars.read_ndjson(path).to_arrow())
    else:
        raise SystemExit(f"unknown kind {kind}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
