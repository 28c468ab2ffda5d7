"""Compares the metadata of quiver's Parquet file with pyarrow's file of the same data.

    python3 write_meta_check.py PYARROW.parquet QUIVER.parquet BLOOM_COLUMN...

Prints JSON lines {"error": ...} for each difference and ends with {"checked": n}:
- pyarrow's view of each chunk's statistics (has_min_max, min, max, null_count; NaN as "NaN"),
- DuckDB's parquet_metadata() (null_count, min/max_value, exactness flags),
- DuckDB's parquet_bloom_probe() true for every value of each bloom-filtered column in quiver's
  file (and the filter offset listed), and filtered queries (answered with row-group pruning by
  the statistics) returning the rows pyarrow's own file returns.
"""
import json
import math
import sys

import duckdb
import pyarrow.parquet as pq

theirs, ours, blooms = sys.argv[1], sys.argv[2], sys.argv[3:]
checked = 0


def error(msg):
    print(json.dumps({"error": msg}), flush=True)


def norm(v):
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    if isinstance(v, float) and v == 0.0:
        return str(v)
    return repr(v)


def stats(path):
    md = pq.ParquetFile(path).metadata
    out = {}
    for g in range(md.num_row_groups):
        for c in range(md.num_columns):
            col = md.row_group(g).column(c)
            s = col.statistics
            key = (g, col.path_in_schema)
            if s is None:
                out[key] = None
                continue
            out[key] = {"has_min_max": s.has_min_max, "null_count": s.null_count,
                        "min": norm(s.min) if s.has_min_max else None,
                        "max": norm(s.max) if s.has_min_max else None}
    return out


a, b = stats(theirs), stats(ours)
if a.keys() != b.keys():
    error(f"chunks differ: {sorted(a)} vs {sorted(b)}")
for k in a:
    checked += 1
    if a[k] != b.get(k):
        error(f"pyarrow statistics of {k}: pyarrow's file {a[k]}, quiver's {b.get(k)}")

con = duckdb.connect()
# Not the deprecated min/max fields: quiver writes only min_value/max_value (pyarrow both).
cols = ("row_group_id, path_in_schema, stats_null_count, stats_min_value, stats_max_value, "
        "min_is_exact, max_is_exact")


def duck_meta(path):
    rows = con.sql(f"select {cols} from parquet_metadata('{path}') order by all").fetchall()
    return {(r[0], r[1]): r[2:] for r in rows}


da, db = duck_meta(theirs), duck_meta(ours)
for k in da:
    checked += 1
    if da[k] != db.get(k):
        error(f"DuckDB parquet_metadata of {k}: pyarrow's file {da[k]}, quiver's {db.get(k)}")

for col in blooms:
    offsets = con.sql(f"select bloom_filter_offset from parquet_metadata('{ours}') "
                      f"where path_in_schema = '{col}'").fetchall()
    if not offsets or any(o[0] is None for o in offsets):
        error(f"{col}: no bloom filter offset in DuckDB's parquet_metadata: {offsets}")
    values = [r[0] for r in con.sql(f"select distinct \"{col}\" from read_parquet('{ours}') "
                                    f"where \"{col}\" is not null").fetchall()]
    for v in values[:300]:
        checked += 1
        probe = con.execute(f"select row_group_id, bloom_filter_excludes from "
                            f"parquet_bloom_probe('{ours}', '{col}', ?)", [v]).fetchall()
        hit = con.execute(f"select distinct row_group_id from (select *, "
                          f"file_row_number // 1000 as row_group_id from "
                          f"read_parquet('{ours}', file_row_number = true)) where \"{col}\" = ?",
                          [v]).fetchall()
        excluded = {g for g, ex in probe if ex}
        wrong = excluded & {g for (g,) in hit}
        if wrong:
            error(f"{col}: bloom filter of row groups {wrong} excludes {v!r}, which they hold")

queries = ["sorted between 1234 and 1789", "i32 > 40000", "u64 > 18000000000000000000",
           "u32 < 1000000", "f64 > 40", "date < DATE '1950-01-01'", "long like 'ééé%x7'",
           "dec > 400", "ts > TIMESTAMPTZ '2000-01-01 00:00:00+00'", "b = false",
           "some_null_pages is null and sorted > 2000"]
for q in queries:
    checked += 1
    want = con.sql(f"select sorted from read_parquet('{theirs}') where {q} order by 1").fetchall()
    got = con.sql(f"select sorted from read_parquet('{ours}') where {q} order by 1").fetchall()
    if want != got:
        error(f"DuckDB `{q}`: {len(got)} rows, pyarrow's file gives {len(want)}")
print(json.dumps({"checked": checked}), flush=True)
