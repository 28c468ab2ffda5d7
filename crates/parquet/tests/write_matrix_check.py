"""Checks the writer matrix's files (tests/it/write_matrix.rs) against their source.

Reads JSON lines from stdin: {"name", "source": the IPC stream the data came from, "written":
the Parquet file quiver wrote, "readers": ["pyarrow", "duckdb", "polars", "spark"], "arrow_rs":
optional IPC stream of arrow-rs's reading of the file}. The columns a reader cannot be compared
on are in source + ".json" (from matrix_source.py). Prints one JSON line per case: {"name",
"errors": [...]}.

- pyarrow: the file's Arrow schema is the one pyarrow restores from its own file of the same
  data (ARROW:schema), and the values are the source's.
- DuckDB: each column read from the file equals DuckDB's scan of the source Arrow column.
- polars: read_parquet equals pl.from_arrow of the source.
- Spark (one session for all files): each column's values equal pyarrow's reading of the
  file as Python values.
- arrow-rs: its reading (an IPC stream) holds the source's values and pyarrow's schema.
"""
import datetime
import decimal
import io
import json
import math
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq


def norm(v):
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    if isinstance(v, float) and v == 0.0:
        return ("0.0", math.copysign(1.0, v))
    if isinstance(v, (list, tuple)):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    if isinstance(v, datetime.datetime) and v.tzinfo is not None:
        return v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    if isinstance(v, decimal.Decimal):
        return v.normalize() if v == v else "NaN"
    return v


def values(col):
    try:
        return norm(col.to_pylist())
    except (ValueError, OverflowError):
        t = col.type
        if pa.types.is_timestamp(t) or pa.types.is_time(t) or pa.types.is_duration(t):
            return norm(col.cast(pa.int64()).to_pylist())
        raise


def diff(what, a, b, errors):
    if len(a) != len(b):
        errors.append(f"{what}: {len(a)} rows vs {len(b)}")
        return
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            errors.append(f"{what}: row {i}: {x!r} vs {y!r}")
            return


def expected_schema(source):
    """The schema pyarrow restores from its own file of the source (dictionaries holding null
    values, which pyarrow cannot write, re-encoded)."""
    cols = []
    for f, c in zip(source.schema, source.columns):
        if pa.types.is_dictionary(f.type):
            c = c.cast(f.type.value_type).dictionary_encode().cast(f.type)
        cols.append(c)
    buf = io.BytesIO()
    pq.write_table(pa.table(cols, schema=source.schema), buf)
    buf.seek(0)
    return pq.read_table(buf).schema


def same_as_source(what, got, source, want_schema, errors, exact_too=False):
    """`got` has `want_schema` (with `exact_too`, a field may have the source's type instead:
    arrow-rs restores dictionaries of any value type) and the source's values."""
    if len(got.schema) != len(want_schema):
        errors.append(f"{what}: {len(got.schema)} columns, not {len(want_schema)}")
        return
    wrong = False
    for f, g, e in zip(want_schema, got.schema, source.schema):
        if f.remove_metadata() != g.remove_metadata() and not (exact_too and e.remove_metadata() == g.remove_metadata()):
            errors.append(f"{what}: field {f} read as {g}")
            wrong = True
    if wrong:
        return
    for name in source.column_names:
        x, y = source.column(name), got.column(name)
        if x.type == y.type and x.equals(y):
            continue
        diff(f"{what}: {name}", values(x), values(y), errors)


def check_duckdb(path, source, skip, errors):
    import duckdb
    con = duckdb.connect()
    for name in source.column_names:
        if name in skip:
            continue
        src = pa.table({name: source.column(name)})  # noqa: F841 - scanned by DuckDB
        want = con.sql(f'select "{name}" from src').to_arrow_table().column(0)
        got = con.sql(f"select \"{name}\" from read_parquet('{path}')").to_arrow_table().column(0)
        diff(f"duckdb: {name}", values(want), values(got), errors)


def check_polars(path, source, skip, errors):
    import polars as pl
    names = [n for n in source.column_names if n not in skip]
    want = pl.from_arrow(source.select(names))
    got = pl.read_parquet(path, columns=names)
    for name in names:
        a, b = want[name].to_arrow(), got[name].to_arrow()
        diff(f"polars: {name}", values(a), values(b), errors)


SPARK = None


def spark():
    global SPARK
    if SPARK is None:
        os.environ["TZ"] = "UTC"
        import time
        time.tzset()
        from pyspark.sql import SparkSession
        SPARK = (SparkSession.builder.master("local[1]").appName("quiver-writer-matrix")
                 .config("spark.ui.enabled", "false")
                 .config("spark.ui.showConsoleProgress", "false")
                 .config("spark.sql.session.timeZone", "UTC")
                 .config("spark.driver.extraJavaOptions", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1")
                 .getOrCreate())
        SPARK.sparkContext.setLogLevel("ERROR")
    return SPARK


def spark_value(v):
    """A Spark value as pyarrow's to_pylist spells it (rows as dicts, maps as pairs)."""
    from pyspark.sql import Row
    if isinstance(v, Row):
        return {k: spark_value(x) for k, x in v.asDict().items()}
    if isinstance(v, dict):
        return [(spark_value(k), spark_value(x)) for k, x in v.items()]
    if isinstance(v, (list, tuple)):
        return [spark_value(x) for x in v]
    if isinstance(v, bytearray):
        return bytes(v)
    return v


def spark_type(t):
    """The Spark SQL type (DDL) Spark reads a Parquet column written from Arrow type `t` as."""
    if pa.types.is_dictionary(t):
        return spark_type(t.value_type)
    if pa.types.is_struct(t):
        return "struct<" + ", ".join(f"`{f.name}`: {spark_type(f.type)}" for f in t) + ">"
    if pa.types.is_map(t):
        return f"map<{spark_type(t.key_type)}, {spark_type(t.item_type)}>"
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        return f"array<{spark_type(t.value_type)}>"
    if pa.types.is_decimal(t):
        return f"decimal({t.precision}, {t.scale})"
    if pa.types.is_timestamp(t):
        return "timestamp" if t.tz else "timestamp_ntz"
    simple = {pa.bool_(): "boolean", pa.int8(): "tinyint", pa.int16(): "smallint",
              pa.int32(): "int", pa.int64(): "bigint", pa.uint8(): "smallint",
              pa.uint16(): "int", pa.uint32(): "bigint", pa.uint64(): "decimal(20, 0)",
              pa.float32(): "float", pa.float64(): "double", pa.date32(): "date",
              pa.string(): "string", pa.large_string(): "string", pa.binary(): "binary",
              pa.large_binary(): "binary"}
    if pa.types.is_fixed_size_binary(t):
        return "binary"
    return simple[t]


def check_spark(path, table, skip, errors):
    """Spark reads the columns it has types for (given as a schema: inferring one from the file
    fails on the types it has not)."""
    names = [n for n in table.column_names if n not in skip]
    ddl = ", ".join(f"`{n}` {spark_type(table.schema.field(n).type)}" for n in names)
    rows = spark().read.schema(ddl).parquet(path).collect()
    for j, name in enumerate(names):
        want = values(table.column(name))
        got = norm([spark_value(r[j]) for r in rows])
        diff(f"spark: {name}", want, got, errors)


for line in sys.stdin:
    case = json.loads(line)
    errors = []
    source = pa.ipc.open_stream(case["source"]).read_all()
    with open(case["source"] + ".json") as f:
        skips = json.load(f)
    for entry in case.get("skip", []):
        if ":" in entry:
            reader, column = entry.split(":")
            skips[reader].append(column)
    want_schema = expected_schema(source)
    path = case["written"]
    try:
        table = pq.read_table(path)
        same_as_source("pyarrow", table, source, want_schema, errors)
    except Exception as e:  # noqa: BLE001
        errors.append(f"pyarrow: cannot read: {type(e).__name__}: {e}")
        table = None
    if case.get("arrow_rs"):
        got = pa.ipc.open_stream(case["arrow_rs"]).read_all()
        same_as_source("arrow-rs", got, source, want_schema, errors, exact_too=True)
    checks = {"duckdb": check_duckdb, "polars": check_polars}
    for reader in case["readers"]:
        try:
            if reader in checks:
                checks[reader](path, source, skips[reader], errors)
            elif reader == "spark" and table is not None:
                check_spark(path, table, skips["spark"], errors)
        except BaseException as e:  # noqa: BLE001 - polars panics are BaseExceptions
            errors.append(f"{reader}: {type(e).__name__}: {str(e)[:2000]}")
    print(json.dumps({"name": case["name"], "errors": errors[:40]}), flush=True)
if SPARK is not None:
    SPARK.stop()
