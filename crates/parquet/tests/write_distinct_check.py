"""Checks the distinct counts in quiver's Parquet file (tests/it/write_distinct.rs).

    python3 write_distinct_check.py FILE

For every column chunk: a chunk whose data pages are all dictionary-encoded (DuckDB's
parquet_metadata encoding_stats) has a distinct count, as pyarrow and DuckDB read it, equal to
DuckDB's COUNT(DISTINCT) of the chunk's values (the row group's rows, list elements unnested);
any other chunk has none. Prints JSON lines {"error": ...}, then {"counted": [...], "absent":
[...], "checked": n} (the chunks as "row group:path").
"""
import json
import sys

import duckdb
import pyarrow.parquet as pq

path = sys.argv[1]
con = duckdb.connect()
checked = 0
counted, absent = [], []


def error(msg):
    print(json.dumps({"error": msg}), flush=True)


def truth(column, lo, hi):
    """DuckDB's COUNT(DISTINCT) of a leaf's values in rows [lo, hi)."""
    rows = f"read_parquet('{path}', file_row_number=true) where file_row_number >= {lo} " \
           f"and file_row_number < {hi}"
    if column.endswith(".list.element"):
        top = column.split(".")[0]
        sql = f"select count(distinct v) from (select unnest({top}) as v from {rows})"
    else:
        sql = f"select count(distinct {column}) from {rows}"
    return con.execute(sql).fetchone()[0]


md = pq.ParquetFile(path).metadata
# DuckDB spells a path "tags, list, element".
duck = {(r[0], r[1].replace(", ", ".")): r[2:] for r in con.sql(
    "select row_group_id, path_in_schema, stats_distinct_count, encoding_stats "
    f"from parquet_metadata('{path}')").fetchall()}
lo = 0
for g in range(md.num_row_groups):
    rg = md.row_group(g)
    hi = lo + rg.num_rows
    for c in range(md.num_columns):
        col = rg.column(c)
        name = col.path_in_schema
        key = f"{g}:{name}"
        s = col.statistics
        ours = s.distinct_count if s is not None and s.has_distinct_count else None
        duck_count, enc_stats = duck[(g, name)]
        if duck_count != ours:
            error(f"{key}: pyarrow reads distinct count {ours}, DuckDB {duck_count}")
        data = [e for e in enc_stats if e["page_type"] != "DICTIONARY_PAGE"]
        dictionary = bool(data) and all(e["encoding"] == "RLE_DICTIONARY" for e in data)
        checked += 1
        if not dictionary:
            absent.append(key)
            if ours is not None:
                error(f"{key}: distinct count {ours} on pages {enc_stats}")
            continue
        counted.append(key)
        want = truth(name, lo, hi)
        if ours != want:
            error(f"{key}: distinct count {ours}, COUNT(DISTINCT) {want}")
    lo = hi
print(json.dumps({"counted": counted, "absent": absent, "checked": checked}), flush=True)
