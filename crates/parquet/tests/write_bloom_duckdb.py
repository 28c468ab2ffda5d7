"""Writes Parquet files with DuckDB into the folder argv[1]: DuckDB writes a Bloom filter for
each dictionary-encoded column chunk. One file per false-positive ratio (`fpp<P>.parquet`),
row groups of 10,000 rows, columns of every physical type DuckDB dictionary-encodes (INT32
from 16-bit, unsigned and date values, INT64, FLOAT, DOUBLE, BYTE_ARRAY) with nulls."""
import sys

import duckdb

out = sys.argv[1]
con = duckdb.connect()
con.sql("SET threads = 1")
n = lambda v, every=7: f"CASE WHEN i % {every} = 3 THEN NULL ELSE {v} END"  # noqa: E731
columns = {
    "i32": n("(i * 7919 % 1009 - 500)::INTEGER"),
    "i16": n("(i * 31 % 300 - 150)::SMALLINT"),
    "u8": n("(i % 200)::UTINYINT"),
    "u32": n("(i % 613 * 2654435761 % 4294967296)::UINTEGER"),
    "i64": n("(i % 2003 * 1000000007 - 1099511627776)::BIGINT", 5),
    "f32": n("(i % 401 / 7)::FLOAT"),
    "f64": n("(i % 809 * 1.5)::DOUBLE"),
    "s": n("CASE WHEN i % 13 = 0 THEN '' ELSE 'value-' || (i % 997) END"),
    "blob": n("repeat(chr((65 + i % 26)::INTEGER), i % 9)::BLOB", 9),
    "date": n("DATE '1970-01-01' + (i % 367 * 37 - 3000)::INTEGER"),
}
select = ", ".join(f"{v} AS {k}" for k, v in columns.items())
for fpp in [0.01, 0.1]:
    con.sql(
        f"COPY (SELECT {select} FROM range(25000) t(i)) TO '{out}/fpp{fpp}.parquet' "
        f"(FORMAT parquet, ROW_GROUP_SIZE 10000, BLOOM_FILTER_FALSE_POSITIVE_RATIO {fpp})"
    )
