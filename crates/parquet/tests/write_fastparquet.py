"""Writes Parquet files with fastparquet into the folder argv[1]: one pandas frame of flat and
nested columns (numbers, nullable integers, booleans, strings, bytes, JSON-encoded objects,
categoricals, timestamps with and without zones, timedeltas; nulls; empty strings) under each
codec fastparquet offers, both data page versions, with and without statistics, INT96 and
INT64 times, several row groups and an empty frame.

LZO (with python-lzo installed): fastparquet compresses each page with python-lzo's
`lzo.compress`, i.e. a 5-byte header (0xF0, the uncompressed size as a big-endian u32) and one
LZO1X stream, not Hadoop's block framing. pyarrow reads no LZO: each LZO file is compared with
pyarrow's reading of the same frame written uncompressed (oracles.json)."""
import itertools
import json
import sys

import numpy as np
import pandas as pd
import fastparquet
from fastparquet import compression

out = sys.argv[1]
n = 3000
i = np.arange(n)
null = i % 7 == 3


def masked(values, mask=null):
    return values.where(~mask, None)


df = pd.DataFrame({
    "i8": i.astype("int8"),
    "i16": (i * 31 % 65536 - 32768).astype("int16"),
    "i32": (i * 7919 % 100003 - 50000).astype("int32"),
    "i64": i.astype("int64") * 1_000_000_007 - 2**40,
    "u8": (i % 256).astype("uint8"),
    "u32": (i * 2654435761 % 2**32).astype("uint32"),
    "u64": (i.astype("uint64") * 4611686018427387),
    "f32": (i / 7).astype("float32"),
    "f64": np.where(i % 11 == 0, np.nan, i * 1.5),
    "nint": pd.array(np.where(null, None, i * 3), dtype="Int32"),
    "nbool": pd.array(np.where(null, None, i % 3 == 0), dtype="boolean"),
    "b": i % 3 == 0,
    "s": masked(pd.Series(["" if k % 13 == 0 else f"value-{k % 97}-{'x' * (k % 5)}" for k in i],
                          dtype=object)),
    "bytes": masked(pd.Series([bytes([k % 256]) * (k % 4) for k in i], dtype=object), i % 9 == 3),
    "json": masked(pd.Series([{"k": int(k), "l": [1, None]} for k in i], dtype=object)),
    "cat": pd.Categorical(np.where(null, None, np.array(["red", "green", "blue"])[i % 3])),
    "ts": pd.to_datetime(i * 123_456_789_012, unit="ns").where(~null),
    "ts_tz": pd.to_datetime(i * 1_234_567_890, unit="ms", utc=True).tz_convert("Asia/Tokyo"),
    "td": pd.to_timedelta(i * 1_234_567, unit="us"),
})
# fastparquet writes `json` with object_encoding="json"; strings and bytes take "utf8"/"bytes".
encodings = {"s": "utf8", "bytes": "bytes", "json": "json"}


def write(name, frame=df, version=1, page_size=500 * 2**20, **kwargs):
    """Writes `frame` with data pages of `version` (fastparquet's module setting, otherwise
    read from FASTPARQUET_DATAPAGE_V2) at most `page_size` bytes."""
    kwargs.setdefault("object_encoding", encodings)
    fastparquet.writer.DATAPAGE_VERSION = version
    fastparquet.writer.MAX_PAGE_SIZE = page_size
    fastparquet.write(f"{out}/{name}.parquet", frame, **kwargs)


codecs = [c for c in ["UNCOMPRESSED", "SNAPPY", "GZIP", "ZSTD", "BROTLI", "LZ4", "LZ4_RAW"]
          if c in compression.compressions]
for codec, version in itertools.product(codecs, [1, 2]):
    write(f"{codec.lower()}-v{version}", compression=codec, row_group_offsets=1000,
          stats=True, version=version)
write("nostats", stats=False)
write("no-nulls-flag", frame=df.dropna(), has_nulls=False)
# fastparquet annotates fixed-width text (FIXED_LEN_BYTE_ARRAY) as UTF8, which the format does
# not allow: pyarrow and quiver both refuse the file.
write("fixed-text", frame=df[["s"]].fillna("").map(lambda v: (v + "*" * 8)[:8]), fixed_text={"s": 8})
for version in [1, 2]:
    write(f"tiny-pages-v{version}", version=version, page_size=512, row_group_offsets=1000)
write("int96", times="int96")
write("row-groups", row_group_offsets=[0, 1, 2, 100, 1000, 2999])
write("no-index", frame=df.set_index("i32"), write_index=True)
write("empty", frame=df.head(0))
write("all-null-rows", frame=df[null])

oracles = {}
if "LZO" in compression.compressions:
    for version in [1, 2]:
        name = f"lzo-v{version}"
        write(name, compression="LZO", row_group_offsets=1000, version=version)
        oracles[f"{name}.parquet"] = f"uncompressed-v{version}.parquet"
with open(f"{out}/oracles.json", "w") as f:
    json.dump(oracles, f)
