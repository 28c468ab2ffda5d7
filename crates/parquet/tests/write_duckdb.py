"""Writes Parquet files with DuckDB into the folder argv[1]: one table of flat and nested
columns (every type DuckDB stores, nulls at every level, empty strings and lists) under each
codec and both Parquet versions (v2 writes the delta and byte-stream-split encodings), with
dictionaries forced off, tiny pages and row groups, and an empty table."""
import itertools
import json
import sys

import duckdb

out = sys.argv[1]
con = duckdb.connect()
con.sql("SET threads = 1")
con.sql("CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')")

# `n(v, every)`: v, or NULL on every `every`-th row (i is the row number).
n = lambda v, every=7: f"CASE WHEN i % {every} = 3 THEN NULL ELSE {v} END"  # noqa: E731
columns = {
    "id": "i",
    "b": n("i % 3 = 0"),
    "i8": n("(i % 256 - 128)::TINYINT"),
    "i16": n("(i * 31 % 65536 - 32768)::SMALLINT"),
    "i32": n("(i * 7919 % 100003 - 50000)::INTEGER"),
    "i64": n("(i * 1000000007 - 1099511627776)::BIGINT", 5),
    "i128": n("(i::HUGEINT * 17014118346046923173168730371588 - 3)"),
    "u8": n("(i % 256)::UTINYINT"),
    "u16": n("(i * 31 % 65536)::USMALLINT"),
    "u32": n("(i * 2654435761 % 4294967296)::UINTEGER"),
    "u64": n("(i::UBIGINT * 4611686018427387)"),
    "f32": n("(i / 7)::FLOAT"),
    "f64": n("CASE WHEN i % 11 = 0 THEN 'NaN'::DOUBLE ELSE i * 1.5 END"),
    "dec4": n("(i % 1000 / 10)::DECIMAL(4, 1)"),
    "dec9": n("(i * 37 / 100)::DECIMAL(9, 2)"),
    "dec18": n("(i * 1000003 / 1000)::DECIMAL(18, 3)"),
    "dec38": n("(i::HUGEINT * 1000000000000000007 / 10000000000)::DECIMAL(38, 10)"),
    "s": n("CASE WHEN i % 13 = 0 THEN '' ELSE 'value-' || (i % 97) || repeat('x', i % 5) END"),
    "blob": n("repeat(chr((65 + i % 26)::INTEGER), i % 4)::BLOB", 9),
    "date": n("DATE '1970-01-01' + (i * 37 - 30000)::INTEGER"),
    "time": n("TIME '00:00:00' + to_microseconds(i * 1234567)"),
    "ts": n("TIMESTAMP '2000-01-01' + to_microseconds(i * 123456789012)"),
    "ts_s": n("(TIMESTAMP '2000-01-01' + to_seconds(i * 12345))::TIMESTAMP_S"),
    "ts_ms": n("(TIMESTAMP '2000-01-01' + to_milliseconds(i * 1234567))::TIMESTAMP_MS"),
    "ts_ns": n("(TIMESTAMP '2000-01-01' + to_microseconds(i * 1234567))::TIMESTAMP_NS"),
    "tstz": n("(TIMESTAMP '2000-01-01' + to_microseconds(i * 1234567))::TIMESTAMPTZ"),
    "uuid": n("('00000000-0000-0000-0000-' || lpad(i::VARCHAR, 12, '0'))::UUID"),
    "enum": n("(['sad', 'ok', 'happy'][i % 3 + 1])::mood"),
    "req": "(i % 10)::SMALLINT",
    "list": n("[CASE WHEN j % 4 = 3 THEN NULL ELSE j END FOR j IN range(i % 4)]", 6),
    "slist": n("[CASE WHEN j = 1 THEN NULL ELSE 's' || j END FOR j IN range(i % 3)]", 5),
    "nested": n("[[j, NULL] FOR j IN range(i % 3)] || CASE WHEN i % 4 = 0 THEN [NULL] ELSE [[]] END", 9),
    "struct": n("{'x': " + n("i::INTEGER", 5) + ", 'y': " + n("i::VARCHAR", 3) + "}", 8),
    "map": n("MAP(['k' || (i % 3)], [" + n("i::INTEGER", 2) + "])", 10),
    "deep": n("[{'l': " + n("[i::INTEGER, NULL]", 4) + "}, NULL]", 9),
    # Fixed-size arrays: DuckDB writes a NULL array's level entries wrongly (see below).
    "arr": "[i, i + 1, NULL]::INTEGER[3]",
}
select = ", ".join(f"{v} AS {k}" for k, v in columns.items())
con.sql(f"CREATE TABLE t AS SELECT {select} FROM range(3000) r(i)")


def copy(name, options, query="SELECT * FROM t"):
    opts = ", ".join(["FORMAT parquet"] + options)
    con.sql(f"COPY ({query}) TO '{out}/{name}.parquet' ({opts})")


# pyarrow 26 fails on DuckDB's v2 (DELTA_BINARY_PACKED) UINTEGER column ("Unexpected end of
# stream: InitBlock EOF"; DuckDB and polars read it): the v2 files leave it out, and it has files
# of its own below, the v2 one compared with pyarrow's reading of the v1 one.
query = {"v1": "SELECT * FROM t", "v2": "SELECT * EXCLUDE (u32) FROM t"}
codecs = ["uncompressed", "snappy", "gzip", "zstd", "brotli", "lz4", "lz4_raw"]
for codec, version in itertools.product(codecs, ["v1", "v2"]):
    copy(f"{codec}-{version}", [f"COMPRESSION '{codec}'", f"PARQUET_VERSION {version}",
                                "ROW_GROUP_SIZE 1000"], query[version])
for version in ["v1", "v2"]:
    copy(f"no-dict-{version}", ["DICTIONARY_SIZE_LIMIT 1", "STRING_DICTIONARY_PAGE_SIZE_LIMIT 1",
                                f"PARQUET_VERSION {version}"], query[version])
    copy(f"tiny-pages-{version}", ["DATA_PAGE_SIZE_LIMIT 512", "ROW_GROUP_SIZE 300",
                                   f"PARQUET_VERSION {version}"], query[version])
    copy(f"u32-{version}", [f"PARQUET_VERSION {version}", "DICTIONARY_SIZE_LIMIT 1"],
         "SELECT u32 FROM t")
with open(f"{out}/oracles.json", "w") as f:
    json.dump({"u32-v2.parquet": "u32-v1.parquet"}, f)
copy("row-groups-of-7", ["ROW_GROUP_SIZE 7"], "SELECT * FROM t LIMIT 500")
copy("empty", [], "SELECT * FROM t LIMIT 0")
copy("all-null", [], "SELECT * FROM t WHERE id % 35 = 3")
# DuckDB writes a NULL fixed-size array (INTEGER[3]) with definition level 0 followed by two
# entries repeating at level 1 inside that undefined list: invalid levels, which pyarrow and
# quiver both refuse.
copy("null-fixed-array", [], "SELECT CASE WHEN i % 3 = 1 THEN NULL ELSE [i, i]::INTEGER[2] END "
     "AS arr FROM range(10) r(i)")
# VARIANT, shredded by DuckDB into typed fields (read as its physical struct, as pyarrow reads it),
# with nulls, scalars of several types and objects.
copy("variant", [], "SELECT i, CASE WHEN i % 3 = 0 THEN NULL WHEN i % 3 = 1 "
     "THEN {'a': i, 'b': 'x' || i}::VARIANT ELSE (i * 1.5)::VARIANT END AS v, "
     "[i, i + 1]::VARIANT AS l FROM range(200) r(i)")
