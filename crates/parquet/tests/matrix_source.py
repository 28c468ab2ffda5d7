"""Writes the source data of the writer matrix (`tests/it/write_matrix.rs`) as an Arrow IPC
stream to argv[1]: three record batches of one schema covering every Arrow type Parquet holds,
flat and nested (struct, list, large list, map, list of struct of list, fixed-size list, struct
of struct), nulls at every level (empty lists beside null lists, non-nullable children under
nullable parents, an all-null column), and dictionary columns whose dictionaries differ from
batch to batch and hold null values (stream replacement dictionaries).

Also writes argv[1] + ".json": the columns each reader cannot be compared on, with why:
{"duckdb": [...], "polars": [...], "spark": [...]} (Spark: only the types it reads)."""
import datetime
import decimal
import json
import sys

import pyarrow as pa

out = sys.argv[1]


def maybe(v, i, every=7, at=3):
    return None if i % every == at else v


def floats(i):
    special = [float("nan"), 0.0, -0.0, float("inf"), float("-inf")]
    return special[i % 5] if i % 17 == 0 else (i - 500) / 7


UTC = datetime.timezone.utc


def batch(rows, seed):
    r = [seed * 10_000 + i for i in range(rows)]
    d = decimal.Decimal
    cols = {
        "b": pa.array([maybe(i % 3 == 0, i) for i in r], pa.bool_()),
        "i8": pa.array([maybe(i % 256 - 128, i) for i in r], pa.int8()),
        "i16": pa.array([maybe(i * 31 % 65536 - 32768, i) for i in r], pa.int16()),
        "i32": pa.array([maybe(i * 7919 % 100003 - 50000, i) for i in r], pa.int32()),
        "i64": pa.array([maybe(i * 1_000_000_007 - 2**62, i, 5) for i in r], pa.int64()),
        "u8": pa.array([maybe(i * 13 % 256, i) for i in r], pa.uint8()),
        "u16": pa.array([maybe(i * 977 % 65536, i) for i in r], pa.uint16()),
        "u32": pa.array([maybe(i * 2654435761 % 2**32, i) for i in r], pa.uint32()),
        "u64": pa.array([maybe(i * 11400714819323198485 % 2**64, i) for i in r], pa.uint64()),
        "f16": pa.array([maybe(floats(i), i) for i in r], pa.float32()).cast(pa.float16()),
        "f32": pa.array([maybe(floats(i), i) for i in r], pa.float32()),
        "f64": pa.array([maybe(floats(i) * 1e10, i, 11) for i in r], pa.float64()),
        "dec9": pa.array([maybe(d(i * 37 % 10**7 - 5 * 10**6) / 100, i) for i in r], pa.decimal128(9, 2)),
        "dec18": pa.array([maybe(d(i * 1_000_003 - 10**15) / 1000, i) for i in r], pa.decimal128(18, 3)),
        "dec38": pa.array([maybe(d(i * 10**25 + 7) / 10**10, i) for i in r], pa.decimal128(38, 10)),
        "date": pa.array([maybe(i * 37 - 30000, i) for i in r], pa.date32()),
        "t_ms": pa.array([maybe(i * 1237 % 86_400_000, i) for i in r], pa.time32("ms")),
        "t_us": pa.array([maybe(i * 123457 % 86_400_000_000, i) for i in r], pa.time64("us")),
        "t_ns": pa.array([maybe(i * 12345679 % 86_400_000_000_000, i) for i in r], pa.time64("ns")),
        "ts_s": pa.array([maybe(i * 86_399 - 10**8, i) for i in r], pa.timestamp("s")),
        "ts_ms": pa.array([maybe(i * 86_399_123 + 10**11, i) for i in r], pa.timestamp("ms", "UTC")),
        "ts_us": pa.array([maybe(i * 123_456_789_012 - 10**15, i) for i in r], pa.timestamp("us", "UTC")),
        "ts_us_ntz": pa.array([maybe(i * 1_234_567, i) for i in r], pa.timestamp("us")),
        "ts_ns": pa.array([maybe(i * 123_456_789_123, i) for i in r], pa.timestamp("ns", "Europe/Paris")),
        "dur": pa.array([maybe(i * 1_000_003 - 10**9, i) for i in r], pa.duration("ns")),
        "s": pa.array([maybe("" if i % 13 == 0 else f"value-{i % 97}-{'ü' * (i % 5)}", i) for i in r]),
        "ls": pa.array([maybe(f"{i % 301:05}" * (1 + i % 30), i, 9) for i in r], pa.large_string()),
        "sv": pa.array([maybe(f"view-{i % 41}" * (1 + i % 3), i) for i in r], pa.string_view()),
        "bin": pa.array([maybe(bytes([i % 256]) * (i % 4), i, 9) for i in r], pa.binary()),
        "lbin": pa.array([maybe(i.to_bytes(8, "big") * (i % 3), i) for i in r], pa.large_binary()),
        "fsb": pa.array([maybe((i * 7).to_bytes(5, "little"), i) for i in r], pa.binary(5)),
        "req": pa.array([i % 10 for i in r], pa.int16()),
        "req_s": pa.array([f"r{i % 50}" for i in r], pa.string()),
        "all_null": pa.array([None] * rows, pa.int32()),
        "all_null_s": pa.array([None] * rows, pa.string()),
        # A nullable struct with a non-nullable child (nulls only where the struct is null).
        "st": pa.StructArray.from_arrays(
            [pa.array([i % 1000 for i in r], pa.int32()),
             pa.array([maybe(str(i), i, 3, 1) for i in r])],
            fields=[pa.field("x", pa.int32(), nullable=False), pa.field("y", pa.string())],
            mask=pa.array([i % 8 == 5 for i in r])),
        "st_st": pa.array([maybe({"in": maybe({"v": maybe(i, i, 4), "w": float(i)}, i, 5)}, i, 6)
                           for i in r],
                          pa.struct([("in", pa.struct([("v", pa.int64()), ("w", pa.float64())]))])),
        # Empty lists beside null lists, null items.
        "list": pa.array([maybe([maybe(j, j, 4) for j in range(i % 4)], i, 6) for i in r],
                         pa.list_(pa.int64())),
        "list_req": pa.array([maybe(list(range(i % 3)), i, 5) for i in r],
                             pa.list_(pa.field("item", pa.int32(), nullable=False))),
        "llist": pa.array([maybe([maybe(f"s{j}", j, 3, 1) for j in range(i % 3)], i, 5) for i in r],
                          pa.large_list(pa.string())),
        "map": pa.array([maybe([(f"k{j}", maybe(j, j, 2)) for j in range(i % 3)], i, 10) for i in r],
                        pa.map_(pa.string(), pa.int32())),
        "deep": pa.array([maybe([maybe({"l": maybe([i, None][: i % 3], i, 4)}, i, 5), None][: 1 + i % 2], i, 9)
                          for i in r],
                         pa.list_(pa.struct([("l", pa.list_(pa.int32()))]))),
        "fsl": pa.array([maybe([maybe(i * 0.5, i, 3, 2), i * 1.0, -i * 1.0], i, 7) for i in r],
                        pa.list_(pa.float64(), 3)),
        "list_list": pa.array([maybe([maybe(list(range(j)), j, 3) for j in range(i % 4)], i, 11) for i in r],
                              pa.list_(pa.list_(pa.int16()))),
    }
    # Dictionaries that differ per batch, with a null value inside: keys pointing to it are nulls.
    words = [f"w{seed}-{k}" for k in range(5)] + [None] + [f"common-{k}" for k in range(3)]
    keys = pa.array([maybe((i * 7) % len(words), i, 13) for i in r], pa.int32())
    cols["dict_s"] = pa.DictionaryArray.from_arrays(keys, pa.array(words, pa.string()))
    ints = pa.array([seed * 100 + k for k in range(4)] + [None], pa.int64())
    cols["dict_i"] = pa.DictionaryArray.from_arrays(
        pa.array([maybe(i % 5, i, 9) for i in r], pa.int8()), ints)
    return pa.record_batch(cols)


batches = [batch(1000, 0), batch(1300, 1), batch(700, 2)]
with pa.ipc.new_stream(out, batches[0].schema) as w:
    for b in batches:
        w.write_batch(b)

# Spark reads neither times, durations, float16, nanosecond timestamps nor unsigned 64-bit
# as their Arrow types; DuckDB and polars scan some Arrow types differently from Parquet's.
spark_types = (pa.types.is_time, pa.types.is_duration, pa.types.is_float16)
spark_skip = [f.name for f in batches[0].schema
              if any(t(f.type) for t in spark_types)
              or (pa.types.is_timestamp(f.type) and f.type.unit == "ns")
              or f.name in ("sv",)]
skip = {
    "duckdb": ["f16", "sv", "dur"],
    "polars": ["f16", "t_ms", "u64"],
    "spark": spark_skip,
}
with open(out + ".json", "w") as f:
    json.dump(skip, f)
