"""Writes Parquet files with polars' own writer (use_pyarrow=False) into the folder argv[1]: one
frame of flat and nested columns (every type polars stores, nulls at every level, empty strings
and lists) under each codec, with and without statistics, tiny pages and row groups, and an
empty frame. Categorical and Enum columns are stored as dictionaries with UInt32 and UInt8
indices in ARROW:schema, which quiver and pyarrow restore."""
import datetime
import decimal
import itertools
import sys

import polars as pl

out = sys.argv[1]
n = 3000
rows = range(n)


def maybe(v, i, every=7):
    return None if i % every == 3 else v


def col(name, dtype, f, every=7):
    return pl.Series(name, [maybe(f(i), i, every) for i in rows], dtype=dtype)


epoch = datetime.datetime(2000, 1, 1)
df = pl.DataFrame([
    col("b", pl.Boolean, lambda i: i % 3 == 0),
    col("i8", pl.Int8, lambda i: i % 256 - 128),
    col("i16", pl.Int16, lambda i: i * 31 % 65536 - 32768),
    col("i32", pl.Int32, lambda i: i * 7919 % 100003 - 50000),
    col("i64", pl.Int64, lambda i: i * 1_000_000_007 - 2**40, 5),
    col("u8", pl.UInt8, lambda i: i % 256),
    col("u16", pl.UInt16, lambda i: i * 31 % 65536),
    col("u32", pl.UInt32, lambda i: i * 2654435761 % 2**32),
    col("u64", pl.UInt64, lambda i: i * 4611686018427387 % 2**64),
    col("f32", pl.Float32, lambda i: i / 7),
    col("f64", pl.Float64, lambda i: float("nan") if i % 11 == 0 else i * 1.5),
    col("dec", pl.Decimal(20, 4), lambda i: decimal.Decimal(i * 1000003) / 10000),
    col("s", pl.String, lambda i: "" if i % 13 == 0 else f"value-{i % 97}-{'x' * (i % 5)}"),
    col("bin", pl.Binary, lambda i: bytes([i % 256]) * (i % 4), 9),
    col("date", pl.Date, lambda i: datetime.date(1970, 1, 1) + datetime.timedelta(days=i * 37 - 30000)),
    col("time", pl.Time, lambda i: (epoch + datetime.timedelta(microseconds=i * 12345678)).time()),
    col("ts_ms", pl.Datetime("ms"), lambda i: epoch + datetime.timedelta(milliseconds=i * 1234567)),
    col("ts_us", pl.Datetime("us"), lambda i: epoch + datetime.timedelta(microseconds=i * 123456789)),
    col("ts_ns", pl.Datetime("ns"), lambda i: epoch + datetime.timedelta(microseconds=i * 1234567)),
    col("ts_tz", pl.Datetime("us", "Europe/Paris"),
        lambda i: (epoch + datetime.timedelta(seconds=i * 12345)).replace(tzinfo=datetime.timezone.utc)),
    col("dur", pl.Duration("ms"), lambda i: datetime.timedelta(milliseconds=i * 999 - 5000)),
    pl.Series("req", [i % 10 for i in rows], dtype=pl.Int16),
    col("list", pl.List(pl.Int64), lambda i: [maybe(j, j, 4) for j in range(i % 4)], 6),
    col("slist", pl.List(pl.String), lambda i: [maybe(f"s{j}", j, 2) for j in range(i % 3)], 5),
    col("nested", pl.List(pl.List(pl.Int32)), lambda i: [[j, None] for j in range(i % 3)] + ([None] if i % 4 == 0 else [[]]), 9),
    col("arr", pl.Array(pl.Int32, 3), lambda i: [i, i + 1, None], 6),
    col("struct", pl.Struct({"x": pl.Int32, "y": pl.String}), lambda i: {"x": maybe(i, i, 5), "y": maybe(str(i), i, 3)}, 8),
    col("deep", pl.List(pl.Struct({"l": pl.List(pl.Int32)})), lambda i: [{"l": maybe([i, None], i, 4)}, None], 9),
    pl.Series("null", [None] * n, dtype=pl.Null),
    col("cat", pl.Categorical, lambda i: f"c{i % 17}"),
    col("enum", pl.Enum(["red", "green", "blue"]), lambda i: ["red", "green", "blue"][i % 3]),
])

codecs = ["uncompressed", "snappy", "gzip", "brotli", "zstd", "lz4"]
for codec, stats in itertools.product(codecs, [True, False]):
    df.write_parquet(f"{out}/{codec}-{'stats' if stats else 'nostats'}.parquet", compression=codec,
                     statistics=stats, row_group_size=1000, use_pyarrow=False)
df.write_parquet(f"{out}/tiny-pages.parquet", data_page_size=256, row_group_size=300,
                 use_pyarrow=False)
df.write_parquet(f"{out}/zstd-level-19.parquet", compression="zstd", compression_level=19,
                 use_pyarrow=False)
df.head(500).write_parquet(f"{out}/row-groups-of-7.parquet", row_group_size=7, use_pyarrow=False)
df.head(0).write_parquet(f"{out}/empty.parquet", use_pyarrow=False)
df.filter(pl.col("req") == 3).write_parquet(f"{out}/all-null-rows.parquet", use_pyarrow=False)
