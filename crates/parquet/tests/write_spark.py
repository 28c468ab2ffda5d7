"""Writes Parquet files with Spark (PyPI's pyspark, one local session) into the folder argv[1]:
one table of flat and nested columns (every Spark SQL type Parquet stores, nulls at every level,
empty strings, lists and maps) under each codec, writer versions v1/v2, the three timestamp
types, legacy and standard nested/decimal layouts, dictionaries on and off, tiny pages and row
groups, and an empty table. Each file is one part file (coalesce(1)) moved to `<name>.parquet`."""
import glob
import os
import shutil
import sys

from pyspark.sql import SparkSession

out = sys.argv[1]
spark = (SparkSession.builder.master("local[1]").appName("quiver-parquet-tests")
         .config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false")
         .config("spark.sql.shuffle.partitions", "1")
         .config("spark.sql.session.timeZone", "UTC")
         .config("spark.driver.extraJavaOptions", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1")
         .getOrCreate())
spark.sparkContext.setLogLevel("ERROR")


def n(v, every=7):
    """`v`, or NULL on every `every`-th row."""
    return f"CASE WHEN id % {every} = 3 THEN NULL ELSE {v} END"


columns = {
    "id": "id",
    "b": n("id % 3 = 0"),
    "i8": n("CAST(id % 256 - 128 AS TINYINT)"),
    "i16": n("CAST(id * 31 % 65536 - 32768 AS SMALLINT)"),
    "i32": n("CAST(id * 7919 % 100003 - 50000 AS INT)"),
    "i64": n("id * 1000000007 - 1099511627776", 5),
    "f32": n("CAST(id / 7 AS FLOAT)"),
    "f64": n("CASE WHEN id % 11 = 0 THEN double('NaN') ELSE id * 1.5 END"),
    "dec5": n("CAST(id % 1000 / 10 AS DECIMAL(5, 1))"),
    "dec12": n("CAST(id * 37 / 100 AS DECIMAL(12, 2))"),
    "dec18": n("CAST(id * 1000003 / 1000 AS DECIMAL(18, 3))"),
    "dec38": n("CAST(CAST(id AS DECIMAL(38, 0)) * 1000000000000000007 / 10000000000 AS DECIMAL(38, 10))"),
    "s": n("CASE WHEN id % 13 = 0 THEN '' ELSE concat('value-', id % 97, repeat('x', id % 5)) END"),
    "bin": n("CAST(repeat(chr(65 + id % 26), id % 4) AS BINARY)", 9),
    "date": n("date_add(DATE'1970-01-01', CAST(id * 37 - 30000 AS INT))"),
    "ts": n("timestamp_micros(946684800000000 + id * 123456789012)"),
    "ts_ntz": n("CAST(timestamp_micros(946684800000000 + id * 1234567) AS TIMESTAMP_NTZ)"),
    "req": "CAST(id % 10 AS SMALLINT)",
    "list": n("transform(sequence(0, id % 4 - 1), j -> CASE WHEN j % 4 = 3 THEN NULL ELSE j END)", 6),
    "slist": n("transform(sequence(0, id % 3 - 1), j -> CASE WHEN j = 1 THEN NULL ELSE concat('s', j) END)", 5),
    "nested": n("array(array(id, NULL), CASE WHEN id % 4 = 0 THEN NULL ELSE array() END)", 9),
    "struct": n("named_struct('x', " + n("CAST(id AS INT)", 5) + ", 'y', " + n("CAST(id AS STRING)", 3) + ")", 8),
    "map": n("map_from_arrays(transform(sequence(0, id % 3 - 1), j -> concat('k', j)), "
             "transform(sequence(0, id % 3 - 1), j -> CASE WHEN j = 1 THEN NULL ELSE CAST(j AS INT) END))", 10),
    "deep": n("array(named_struct('l', " + n("array(CAST(id AS INT), NULL)", 4) + "), NULL)", 9),
    "mlist": n("map('a', array(id, NULL), 'b', NULL)", 6),
}
select = ", ".join(f"{v} AS {k}" for k, v in columns.items())
table = spark.sql(f"SELECT {select} FROM range(3000)")
table.cache().count()


def write(name, df=table, **conf):
    """Writes `df` with the session settings `conf` (restored afterwards) to `<name>.parquet`."""
    old = {k: spark.conf.get(k, None) for k in conf}
    for k, v in conf.items():
        spark.conf.set(k, v)
    tmp = f"{out}/{name}.dir"
    df.coalesce(1).write.mode("overwrite").parquet(tmp)
    for k, v in old.items():
        if v is None:
            spark.conf.unset(k)
        else:
            spark.conf.set(k, v)
    (part,) = glob.glob(f"{tmp}/part-*.parquet")
    os.rename(part, f"{out}/{name}.parquet")
    shutil.rmtree(tmp)


codec = "spark.sql.parquet.compression.codec"
writer = {"v1": "PARQUET_1_0", "v2": "PARQUET_2_0"}
for c in ["none", "snappy", "gzip", "zstd", "lz4_raw", "lz4"]:
    for version in ["v1", "v2"]:
        write(f"{c}-{version}", **{codec: c, "parquet.writer.version": writer[version]})
for ts in ["INT96", "TIMESTAMP_MICROS", "TIMESTAMP_MILLIS"]:
    write(f"ts-{ts}", **{"spark.sql.parquet.outputTimestampType": ts})
for legacy in ["true", "false"]:
    write(f"legacy-{legacy}", **{"spark.sql.parquet.writeLegacyFormat": legacy})
write("no-dict", **{"parquet.enable.dictionary": "false"})
write("no-dict-v2", **{"parquet.enable.dictionary": "false", "parquet.writer.version": writer["v2"]})
write("tiny-pages", **{"parquet.page.size": "512", "parquet.page.row.count.limit": "100",
                       "parquet.block.size": "16384"})
write("empty", table.limit(0))
# INT96 past the 64-bit nanosecond range (parquet-testing's int96_from_spark.parquet: the years
# 9999 and 290000, whose Julian day Spark computes with a wrapping 64-bit multiply), beside the
# same instants as INT64 microseconds, into the subfolder `int96/` (pyarrow wraps them to other
# dates, so they are not among the files compared with pyarrow).
os.makedirs(f"{out}/int96")
micros = [1704141296123456, 1704070800000000, 253402225200000000, 1735599600000000, None,
          9089380393200000000, -62135596800000000, -1]
far = spark.createDataFrame([(i, m) for i, m in enumerate(micros)], "i INT, m BIGINT") \
    .selectExpr("i", "timestamp_micros(m) AS a")
for ts in ["INT96", "TIMESTAMP_MICROS"]:
    write(f"int96/far-{ts}", far, **{"spark.sql.parquet.outputTimestampType": ts})
write("all-null-rows", table.where("id % 35 = 3"))
spark.stop()
