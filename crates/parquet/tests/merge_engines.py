"""The engine comparisons of merge_check.py: DuckDB (read_parquet), polars (read_parquet) and
Spark (one local session for the process) each read the merged file and each input, and the
output's columns must equal the inputs' concatenated in order (a column an input lacks: nulls).

Each engine is compared with itself, so only the normalisation of merge_check.norm applies.
A column the engine cannot read in an input is skipped (with the reason); a column it reads in
every input but not in the output is a failure. A whole engine that is not installed is
skipped, unless CI=true, where that is a failure.
"""
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq

SPARK = None


def check_all(ck):
    import merge_check
    names = pq.read_schema(ck.output).names
    rows = [pq.ParquetFile(p).metadata.num_rows for p in ck.inputs]
    for engine in ck.engines:
        if engine == "pyarrow":
            continue
        readers = {"duckdb": duckdb_reader, "polars": polars_reader, "spark": spark_reader}
        reader = readers.get(engine)
        if reader is None:
            ck.fail("engines", f"unknown engine {engine}")
            continue
        try:
            read = reader(ck, names)
        except ImportError as e:
            if os.environ.get("CI") == "true":
                ck.fail(engine, f"not installed (required when CI=true): {e}")
            else:
                ck.skip(engine, f"not installed: {e}")
            continue
        compare(ck, engine, names, rows, read, merge_check)


def compare(ck, engine, names, rows, read, merge_check):
    """`read(path, columns)` -> {column: list or Exception} (a path's missing columns absent)."""
    try:
        inputs = read(ck.inputs, names)
        out = read([ck.output], names)[0]
    except BaseException as e:  # noqa: BLE001 - polars panics are BaseExceptions
        if isinstance(e, KeyboardInterrupt):
            raise
        ck.fail(engine, f"{type(e).__name__}: {str(e)[:500]}")
        return
    starts = [sum(rows[:i]) for i in range(len(rows))]
    files = [ck.name(i) for i in range(len(rows))]
    for name in names:
        want, why = [], None
        for i, cols in enumerate(inputs):
            v = cols.get(name, [None] * rows[i])
            if isinstance(v, BaseException):
                why = f"cannot read column {name} of {files[i]}: {str(v)[:300]}"
                break
            want += v
        if why:
            ck.skip(engine, why)
            continue
        got = out.get(name)
        if got is None and all(name not in cols for cols in inputs):
            continue  # not read at all (a type the engine lacks: skipped with the reason)
        if got is None:
            ck.fail(engine, f"column {name} is missing from the output")
        elif isinstance(got, BaseException):
            ck.fail(engine, f"cannot read column {name} of the output, which it reads in every "
                            f"input: {str(got)[:500]}")
        else:
            merge_check.first_diff(engine, name, want, got, starts, files, ck)


def per_column(read_one, path, names):
    """{column: values} by reading the whole file, or column by column if that fails."""
    try:
        return read_one(path, None)
    except BaseException as e:  # noqa: BLE001
        if isinstance(e, KeyboardInterrupt):
            raise
        out = {}
        for n in names:
            try:
                out.update(read_one(path, [n]))
            except BaseException as e2:  # noqa: BLE001
                if isinstance(e2, KeyboardInterrupt):
                    raise
                if n in pq.read_schema(path).names:
                    out[n] = e2
        return out


def duckdb_reader(ck, names):
    import duckdb
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")

    def one(path, cols):
        sel = "*" if cols is None else ", ".join(f'"{c}"' for c in cols)
        cur = con.execute(f"SELECT {sel} FROM read_parquet(?)", [path])
        heads = [d[0] for d in cur.description]
        rows = cur.fetchall()
        return {h: [r[i] for r in rows] for i, h in enumerate(heads)}

    return lambda paths, names: [per_column(one, p, names) for p in paths]


def polars_reader(ck, names):
    import polars as pl

    def one(path, cols):
        df = pl.read_parquet(path, columns=cols)
        return {c: df[c].to_list() for c in df.columns}

    return lambda paths, names: [per_column(one, p, names) for p in paths]


def spark():
    global SPARK
    if SPARK is None:
        os.environ["TZ"] = "UTC"
        import time
        time.tzset()
        from pyspark.sql import SparkSession
        SPARK = (SparkSession.builder.master("local[1]").appName("quiver-merge-check")
                 .config("spark.ui.enabled", "false")
                 .config("spark.ui.showConsoleProgress", "false")
                 .config("spark.sql.session.timeZone", "UTC")
                 .config("spark.driver.extraJavaOptions",
                         "-XX:+UseSerialGC -XX:TieredStopAtLevel=1")
                 .getOrCreate())
        SPARK.sparkContext.setLogLevel("ERROR")
    return SPARK


def stop_spark():
    global SPARK
    if SPARK is not None:
        SPARK.stop()
        SPARK = None


def spark_type(t):
    """The Spark SQL type a Parquet column of Arrow type `t` is read as, or None."""
    if pa.types.is_dictionary(t):
        return spark_type(t.value_type)
    if pa.types.is_struct(t):
        inner = [(f.name, spark_type(f.type)) for f in t]
        if any(s is None for _, s in inner):
            return None
        return "struct<" + ", ".join(f"`{n}`: {s}" for n, s in inner) + ">"
    if pa.types.is_map(t):
        k, v = spark_type(t.key_type), spark_type(t.item_type)
        return None if None in (k, v) else f"map<{k}, {v}>"
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        v = spark_type(t.value_type)
        return None if v is None else f"array<{v}>"
    if pa.types.is_decimal(t):
        return f"decimal({t.precision}, {t.scale})"
    if pa.types.is_timestamp(t):
        return "timestamp" if t.tz else "timestamp_ntz"
    if pa.types.is_fixed_size_binary(t):
        return "binary"
    simple = {pa.bool_(): "boolean", pa.int8(): "tinyint", pa.int16(): "smallint",
              pa.int32(): "int", pa.int64(): "bigint", pa.uint8(): "smallint",
              pa.uint16(): "int", pa.uint32(): "bigint", pa.uint64(): "decimal(20, 0)",
              pa.float32(): "float", pa.float64(): "double", pa.date32(): "date",
              pa.string(): "string", pa.large_string(): "string", pa.string_view(): "string",
              pa.binary(): "binary", pa.large_binary(): "binary"}
    return simple.get(t)


def spark_filtered(ck, queries):
    """Spark's filtered reads (parquet-mr prunes pages by the column index and reads the rest
    by the offset index): (column, "=" or "between", value, expected count) each."""
    try:
        import pyspark  # noqa: F401 - missing: the engine comparison says it is skipped
    except ImportError:
        return
    session = spark()  # col() needs the session
    ddl = spark_ddl(ck)
    from pyspark.sql.functions import col
    for c, op, v, want in queries:
        if c not in ddl or any(isinstance(x, int) and not -2**63 <= x < 2**63
                               for x in (v if op == "between" else [v])):
            continue
        try:
            cond = col(c).between(*v) if op == "between" else col(c) == v
            df = session.read.schema(f"`{c}` {ddl[c]}").parquet(ck.output)
            got = df.filter(cond).count()
        except Exception as e:  # noqa: BLE001 - Py4J errors
            ck.fail("page_index", f"Spark's read filtered by {c} {op} {v!r}: "
                                  f"{type(e).__name__}: {str(e)[:400]}")
            continue
        if got != want:
            ck.fail("page_index", f"Spark's read filtered by {c} {op} {v!r} finds {got} rows, "
                                  f"the data has {want}")


def spark_rejects(path):
    """Top-level columns with a leaf Spark's Parquet reader rejects: FLOAT16, TIME,
    TIMESTAMP(NANOS) (LogicalType union fields 15, 7, 8 with unit 3)."""
    import merge_thrift as T
    with open(path, "rb") as f:
        meta = T.footer(f.read())[0]
    out = set()
    for n in T.nodes(meta):
        lt = n["el"].get(10) or {}
        if 15 in lt or 7 in lt or (8 in lt and 3 in (lt[8].get(2) or {})):
            out.add(n["path"].split(".")[0])
    return out


def spark_value(v):
    from pyspark.sql import Row
    if isinstance(v, Row):
        return {k: spark_value(x) for k, x in v.asDict().items()}
    if isinstance(v, dict):
        return {spark_value(k): spark_value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [spark_value(x) for x in v]
    if isinstance(v, bytearray):
        return bytes(v)
    return v


def spark_ddl(ck):
    """Column -> the Spark type to read it as: Spark's own inference from the output, or where
    that fails (a type Spark rejects anywhere in the file), the mapping of spark_type."""
    if getattr(ck, "spark_ddl", None) is not None:
        return ck.spark_ddl
    ck.spark_ddl = _spark_ddl(ck)
    return ck.spark_ddl


def _spark_ddl(ck):
    rejected = spark_rejects(ck.output)
    try:
        if not rejected:
            return {f.name: f.dataType.simpleString()
                    for f in spark().read.parquet(ck.output).schema}
    except Exception:  # noqa: BLE001 - AnalysisException: a column Spark cannot read
        pass
    ddl = {}
    for f in pq.read_schema(ck.output):
        t = spark_type(f.type)
        if t is None or f.name in rejected:
            ck.skip("spark", f"column {f.name} ({f.type}) has no Spark type")
        else:
            ddl[f.name] = t
    return ddl


def spark_reader(ck, names):
    import pyspark  # noqa: F401 - ImportError means skipped
    ddl = spark_ddl(ck)
    from pyspark.sql.functions import input_file_name

    def read(paths, cols):
        cols = [c for c in cols if c in ddl]
        if not cols:
            return {}
        text = ", ".join(f"`{c}` {ddl[c]}" for c in cols)
        df = spark().read.schema(text).parquet(*paths).withColumn("__file", input_file_name())
        by_file = {}
        for r in df.collect():
            by_file.setdefault(os.path.basename(r["__file"]), []).append(r)
        return [{c: [spark_value(r[c]) for r in by_file.get(os.path.basename(p), [])]
                 for c in cols} for p in paths]

    def reader(paths, names):
        try:
            return read(paths, names)
        except Exception:  # noqa: BLE001 - find the columns Spark cannot read
            out = [{} for _ in paths]
            for c in names:
                try:
                    for o, vals in zip(out, read(paths, [c])):
                        o.update(vals)
                except Exception as e:  # noqa: BLE001
                    for o in out:
                        o[c] = e
            return out

    return reader


if __name__ == "__main__":
    sys.exit("merge_engines.py is used by merge_check.py")
