"""Writes the data of the writer's distinct-count test (tests/it/write_distinct.rs) into the
folder argv[1] as `source.arrow` (an IPC stream) of 3000 rows: integers, decimals (INT32 and
FIXED_LEN_BYTE_ARRAY), doubles, floats and half floats with -0.0 and +0.0 and NaNs of several
payloads and signs, strings (the empty one among them), a dictionary array whose dictionary
holds unused values and a null, booleans, a list column, an all-null column, and `big`, whose
values are all different (its dictionary falls back to PLAIN at the test's limit)."""
import decimal
import sys

import numpy as np
import pyarrow as pa

out = sys.argv[1]
n = 3000


def maybe(v, i, every=7):
    return None if i % every == 3 else v


def bits64(b):
    return np.array([b], dtype=np.uint64).view(np.float64)[0]


def bits32(b):
    return np.array([b], dtype=np.uint32).view(np.float32)[0]


f64_pool = [0.0, -0.0, float("nan"), bits64(0x7FF8000000000001), bits64(0xFFF8000000000000),
            1.5, -2.25, float("inf")]
f32_pool = [bits32(0x80000000), 0.0, bits32(0x7FC00000), bits32(0x7FC00123), 3.5]
f16_bits = [0x0000, 0x8000, 0x7E00, 0x7C01, 0xFE00, 0x3C00, 0x7C00, 0xC000]
f16 = np.array([f16_bits[(i * 5) % len(f16_bits)] for i in range(n)], dtype=np.uint16)
f16_mask = np.array([i % 9 == 4 for i in range(n)])
# Row group 1 (rows 1000-1999) of f64 holds no NaN and only +0.0.
f64 = [maybe(f64_pool[(i * 3) % len(f64_pool)] if not 1000 <= i < 2000 else [0.0, 1.5][i % 2], i)
       for i in range(n)]
keys = pa.array([maybe([0, 1, 2, 5][i % 4], i, 11) for i in range(n)], pa.int32())
dictionary = pa.array(["a", "b", "c", "unused", "also unused", None])

table = pa.table({
    "i32": pa.array([maybe(i % 17, i) for i in range(n)], pa.int32()),
    "i64": pa.array([maybe(i * 7919 % 2500 - 1250, i, 5) for i in range(n)], pa.int64()),
    "dec": pa.array([maybe(decimal.Decimal(i % 40 - 20) / 100, i)
                     for i in range(n)], pa.decimal128(9, 2)),
    "dec30": pa.array([maybe(decimal.Decimal((i % 30) * 10**20) / 1000, i)
                       for i in range(n)], pa.decimal128(30, 3)),
    "f64": pa.array(f64, pa.float64()),
    "f32": pa.array([maybe(f32_pool[i % len(f32_pool)], i) for i in range(n)], pa.float32()),
    "f16": pa.array(f16.view(np.float16), pa.float16(), mask=f16_mask),
    "s": pa.array([maybe(["", "x", "yy", "zzz", "é"][i % 5] + str(i % 23), i) for i in range(n)]),
    "dict": pa.DictionaryArray.from_arrays(keys, dictionary),
    "b": pa.array([maybe(i % 3 == 0, i) for i in range(n)], pa.bool_()),
    "tags": pa.array([maybe([i % 13, (i * 7) % 13, None][: i % 4], i) for i in range(n)],
                     pa.list_(pa.int32())),
    "all_null": pa.array([None] * n, pa.int32()),
    "big": pa.array(range(n), pa.int64()),
})
with pa.ipc.new_stream(f"{out}/source.arrow", table.schema) as w:
    w.write_table(table)
