"""The merge cases whose inputs come from other writers (merge_inputs.py calls `write_all`):
DuckDB (COPY ... TO (FORMAT parquet): bloom filters on dictionary chunks), polars
(write_parquet: page index), fastparquet, Spark (one local session: codecs, writer versions,
INT96 timestamps, page index, a bloom filter) and one case mixing writers of one logical
schema."""
import glob
import os
import shutil
import sys

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import merge_thrift as T  # noqa: E402


def bloom_columns(paths):
    """Top-level columns whose every chunk in every file has a bloom filter."""
    seen = None
    for p in paths:
        with open(p, "rb") as f:
            meta = T.footer(f.read())[0]
        cols = set()
        for c, (name, _) in enumerate(T.leaves(meta)):
            if "." not in name and all(rg[1][c][3].get(14) for rg in meta[4] if rg[3] > 0):
                cols.add(name)
        seen = cols if seen is None else seen & cols
    return sorted(seen or [])


def duckdb_case(path, finish):
    import duckdb
    con = duckdb.connect()
    con.sql("SET threads = 1")
    con.sql("SET TimeZone = 'UTC'")

    def n(v, every=7):
        return f"CASE WHEN i % {every} = 3 THEN NULL ELSE {v} END"

    cols = {
        "id": "i::BIGINT",
        "i32": n("(i * 7919 % 1009 - 500)::INTEGER"),
        "u8": n("(i % 200)::UTINYINT"),
        "f32": n("(i % 401 / 7)::FLOAT"),
        "f64": n("CASE WHEN i % 29 = 0 THEN 'NaN'::DOUBLE ELSE i % 809 * 1.5 END"),
        "s": n("CASE WHEN i % 13 = 0 THEN '' ELSE 'value-' || (i % 97) END"),
        "blob": n("repeat(chr((65 + i % 26)::INTEGER), (i % 9)::INTEGER)::BLOB", 9),
        "date": n("DATE '1970-01-01' + (i % 367 * 37 - 3000)::INTEGER"),
        "ts": n("TIMESTAMP '2020-01-01' + to_seconds(i * 977)"),
        "tstz": n("TIMESTAMPTZ '2020-01-01 00:00:00+00' + to_seconds(i * 61)"),
        "dec": n("(i % 1000 / 10)::DECIMAL(9, 1)"),
        "dec38": n("(i * 1000003 / 1000)::DECIMAL(38, 3)"),
        "list": n("[i, NULL, i + 1][1:(i % 4)::INTEGER]", 6),
        "st": n("{'a': " + n("i", 5) + ", 'b': 'x' || (i % 5)}", 8),
        "m": n("MAP {'k' || (i % 3): i}", 10),
    }
    select = ", ".join(f"{v} AS {k}" for k, v in cols.items())
    paths = []
    for j, (codec, version) in enumerate([("snappy", "V1"), ("zstd", "V2"), ("gzip", "V1")]):
        p = path("writer-duckdb", j)
        con.sql(f"COPY (SELECT {select} FROM range({j * 1500}, {j * 1500 + 1500}) t(i)) TO '{p}' "
                f"(FORMAT parquet, ROW_GROUP_SIZE 500, COMPRESSION {codec}, "
                f"PARQUET_VERSION {version})")
        paths.append(p)
    blooms = bloom_columns(paths)
    assert "s" in blooms, f"DuckDB wrote no bloom filter on s: {blooms}"
    finish("writer-duckdb", writers=["duckdb"], bloom_columns=blooms, target_rows=4500,
           mixed_codecs=True, about="DuckDB files: snappy/V1, zstd/V2, gzip/V1; its bloom filters")


def decimal_layouts_case(path, finish):
    """One decimal schema stored three ways: pyarrow's FIXED_LEN_BYTE_ARRAY (dictionary pages),
    pyarrow's INT32/INT64 (`store_decimal_as_integer`; DELTA_BINARY_PACKED and
    BYTE_STREAM_SPLIT pages, v2), and DuckDB's (INT32/INT64, 16-byte FIXED_LEN_BYTE_ARRAY
    past 18 digits; its bloom filters). The merge converts the later inputs' values to the
    first input's storage."""
    import decimal
    import random

    import duckdb
    D = decimal.Decimal
    name = "decimal-layouts"
    n = 900

    def table(j):
        rng = random.Random(j)
        ids = range(j * n, j * n + n)

        def nul(v):
            return None if rng.random() < 0.1 else v
        return pa.table({
            "id": pa.array(ids, pa.int64()),
            "d7": pa.array([nul(D(i % 300 * 37 - 5000) / 100) for i in ids], pa.decimal128(7, 2)),
            "d15": pa.array([nul(D((i * 7919 - 3_000_000) * 1003) / 1000) for i in ids],
                            pa.decimal128(15, 3)),
            "d30": pa.array([nul(D(i * 1_000_000_007 - 10**12) * 10**8 / 10**5) for i in ids],
                            pa.decimal128(30, 5)),
            "ld": pa.array([None if i % 11 == 5 else
                            [nul(D(i * 13 - k * 7) / 10) for k in range(i % 4)] for i in ids],
                           pa.list_(pa.decimal128(9, 1))),
        })
    pq.write_table(table(0), path(name, 0), row_group_size=400)
    pq.write_table(table(1), path(name, 1), row_group_size=400, store_decimal_as_integer=True,
                   use_dictionary=["id"], data_page_version="2.0",
                   column_encoding={"d7": "BYTE_STREAM_SPLIT", "d15": "DELTA_BINARY_PACKED",
                                    "ld.list.element": "DELTA_BINARY_PACKED"})
    con = duckdb.connect()
    con.register("t", table(2))
    con.sql(f"COPY (SELECT * FROM t) TO '{path(name, 2)}' (FORMAT parquet, ROW_GROUP_SIZE 400)")
    pq.write_table(table(3), path(name, 3), row_group_size=400, store_decimal_as_integer=True,
                   compression="zstd")
    physical = []
    for j in range(4):
        with open(path(name, j), "rb") as f:
            meta = T.footer(f.read())[0]
        physical.append([(el.get(1), el.get(2)) for _, el in T.leaves(meta)])
    INT32, INT64, FLBA = 1, 2, 7
    assert physical[0][1:4] == [(FLBA, 4), (FLBA, 7), (FLBA, 13)], physical[0]
    assert [t for t, _ in physical[1][1:]] == [INT32, INT64, FLBA, INT32], physical[1]
    assert physical[2][3][0] == FLBA and physical[2][3][1] != 13, physical[2]
    finish(name, writers=["pyarrow", "duckdb"], target_rows=3600, mixed_codecs=True,
           about="decimals as FIXED_LEN_BYTE_ARRAY (pyarrow), INT32/INT64 with DELTA and "
                 "BYTE_STREAM_SPLIT pages (pyarrow), DuckDB's layout (16-byte FLBA past 18 "
                 "digits), zstd INT32/INT64: converted to the first file's storage")


def polars_case(path, finish):
    import polars as pl
    for j, codec in enumerate(["zstd", "snappy", "lz4"]):
        n, start = 1200, j * 1200
        df = pl.DataFrame({
            "id": range(start, start + n),
            "f": [None if i % 11 == 0 else (float("nan") if i % 17 == 0 else i / 4)
                  for i in range(start, start + n)],
            "s": [None if i % 7 == 0 else f"p{i % 40}" for i in range(start, start + n)],
            "cat": [f"c{i % 5}" for i in range(start, start + n)],
            "l": [None if i % 9 == 0 else list(range(i % 3)) for i in range(start, start + n)],
            "st": [{"a": i, "b": None if i % 2 else str(i)} for i in range(start, start + n)],
        }).with_columns(pl.col("cat").cast(pl.Categorical),
                        pl.from_epoch(pl.col("id") * 86_400_000, "ms")
                        .dt.replace_time_zone("UTC").alias("ts"))
        df.write_parquet(path("writer-polars", j), compression=codec, row_group_size=400,
                         statistics=True)
    finish("writer-polars", writers=["polars"], mixed_codecs=True, target_rows=3600,
           about="polars files: zstd, snappy, lz4; categorical, list, struct, tz timestamp")


def fastparquet_case(path, finish):
    import fastparquet
    import pandas as pd
    for j, codec in enumerate(["GZIP", "SNAPPY", "ZSTD"]):
        n, start = 1000, j * 1000
        r = range(start, start + n)
        df = pd.DataFrame({
            "id": pd.array(list(r), dtype="Int64"),
            "f": [float("nan") if i % 13 == 0 else i / 3 for i in r],
            "s": [None if i % 7 == 0 else f"fp{i % 30}" for i in r],
            "b": pd.array([None if i % 5 == 0 else i % 2 == 0 for i in r], dtype="boolean"),
            "ts": pd.to_datetime([1_600_000_000 + i * 3600 for i in r], unit="s"),
        })
        fastparquet.write(path("writer-fastparquet", j), df, row_group_offsets=[0, 400, 800],
                          compression=codec, write_index=False)
    finish("writer-fastparquet", writers=["fastparquet"], mixed_codecs=True, target_rows=3000,
           about="fastparquet files: gzip, snappy, zstd; pandas metadata")


def mixed_case(path, finish):
    import duckdb
    import fastparquet
    import polars as pl
    n = 600

    def rows(j):
        return range(j * n, j * n + n)

    t = pa.table({"id": pa.array(rows(0), pa.int64()),
                  "x": pa.array([i / 2 for i in rows(0)], pa.float64()),
                  "s": pa.array([f"m{i % 20}" for i in rows(0)])})
    pq.write_table(t, path("writers-mixed", 0))
    duckdb.connect().sql(f"COPY (SELECT i::BIGINT AS id, i / 2 AS x, 'm' || (i % 20) AS s "
                         f"FROM range({n}, {2 * n}) t(i)) TO '{path('writers-mixed', 1)}' "
                         f"(FORMAT parquet)")
    pl.DataFrame({"id": rows(2), "x": [i / 2 for i in rows(2)],
                  "s": [f"m{i % 20}" for i in rows(2)]}).write_parquet(path("writers-mixed", 2))
    import pandas as pd
    fastparquet.write(path("writers-mixed", 3), pd.DataFrame({
        "id": pd.array(list(rows(3)), dtype="Int64"), "x": [i / 2 for i in rows(3)],
        "s": [f"m{i % 20}" for i in rows(3)]}), write_index=False)
    for j in range(4):
        with open(path("writers-mixed", j), "rb") as f:
            meta = T.footer(f.read())[0]
        reps = [el.get(3) for _, el in T.leaves(meta)]
        assert reps == [1, 1, 1], f"writers-mixed file {j}: repetitions {reps}, not all optional"
    finish("writers-mixed", writers=["pyarrow", "duckdb", "polars", "fastparquet"],
           target_rows=2400, about="id int64, x double, s string from four writers (annotations "
                                   "differ: DuckDB's INT_64, fastparquet's type_length on INT64)")


def spark_case(path, finish):
    os.environ["TZ"] = "UTC"
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master("local[1]").appName("quiver-merge-inputs")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.shuffle.partitions", "1")
             .config("spark.sql.session.timeZone", "UTC")
             .config("spark.driver.extraJavaOptions", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")

    def n(v, every=7):
        return f"CASE WHEN id % {every} = 3 THEN NULL ELSE {v} END"

    cols = {
        "id": "id",
        "i32": n("CAST(id * 7919 % 100003 - 50000 AS INT)"),
        "f64": n("CASE WHEN id % 11 = 0 THEN double('NaN') ELSE id * 1.5 END"),
        "s": n("concat('spark-', id % 97)"),
        "u": n("concat('u', id * 7)"),
        "dec": n("CAST(id * 37 / 100 AS DECIMAL(12, 2))"),
        "ts": n("timestamp_micros(946684800000000 + id * 123456789)"),
        "list": n("transform(sequence(0, id % 4 - 1), j -> CASE WHEN j = 2 THEN NULL ELSE j END)"),
        "st": n("named_struct('x', " + n("CAST(id AS INT)", 5) + ", 'y', CAST(id AS STRING))", 8),
        "m": n("map_from_arrays(array('a', 'b'), array(id, " + n("id", 3) + "))", 10),
    }
    select = ", ".join(f"{v} AS {k}" for k, v in cols.items())
    try:
        for j, (codec, version) in enumerate([("snappy", "PARQUET_1_0"), ("lz4", "PARQUET_2_0"),
                                              ("zstd", "PARQUET_1_0")]):
            df = spark.sql(f"SELECT {select} FROM range({j * 1500}, {j * 1500 + 1500})")
            tmp = path("writer-spark", j) + ".dir"
            (df.coalesce(1).write.mode("overwrite")
             .option("compression", codec)
             .option("parquet.writer.version", version)
             .option("parquet.block.size", "16384")
             .option("parquet.page.size", "2048")
             .option("parquet.bloom.filter.enabled#u", "true")
             .option("parquet.bloom.filter.expected.ndv#u", "2000")
             .parquet(tmp))
            (part,) = glob.glob(f"{tmp}/part-*.parquet")
            os.rename(part, path("writer-spark", j))
            shutil.rmtree(tmp)
    finally:
        spark.stop()
    paths = [path("writer-spark", j) for j in range(3)]
    blooms = bloom_columns(paths)
    assert "u" in blooms, f"Spark wrote no bloom filter on u: {blooms}"
    for p in paths:
        md = pq.ParquetFile(p).metadata
        assert md.num_row_groups > 1, f"{p}: one row group"
        assert md.row_group(0).column(0).has_offset_index, f"{p}: no page index"
    finish("writer-spark", writers=["spark"], bloom_columns=blooms, mixed_codecs=True,
           target_rows=4500, about="Spark files: snappy/v1, lz4 (Hadoop)/v2, zstd/v1; INT96 "
                                   "timestamps, page index, a bloom filter on u (parquet-mr writes "
                                   "none for chunks wholly dictionary-encoded), several row groups")


def write_all(wanted, path, finish, spark=True):
    for name, fn in [("writer-duckdb", duckdb_case), ("writer-polars", polars_case),
                     ("writer-fastparquet", fastparquet_case), ("writers-mixed", mixed_case),
                     ("decimal-layouts", decimal_layouts_case)]:
        if wanted(name):
            fn(path, finish)
    if wanted("writer-spark"):
        try:
            import pyspark  # noqa: F401
            ok = spark and shutil.which("java") is not None
        except ImportError:
            ok = False
        if ok:
            spark_case(path, finish)
        elif os.environ.get("CI") == "true":
            raise SystemExit("merge_inputs.py: Spark (pyspark and java) is required when CI=true")
        else:
            print("merge_inputs.py: writer-spark left out (no pyspark/java, or --no-spark)",
                  file=sys.stderr)
