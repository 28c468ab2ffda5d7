"""Writes Parquet files with pyarrow's Bloom filters on every column into the folder argv[1]:
each file `ndv<N>-fpp<P>[-plain].parquet` under those filter options (`-plain`: dictionaries
off), three row groups, every physical type a filter takes (INT32 from 8/16/32-bit and unsigned
integers, INT64, FLOAT and DOUBLE with NaN and -0.0, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY), nulls."""
import sys

import pyarrow as pa
import pyarrow.parquet as pq

out = sys.argv[1]
n = 3000


def col(values, ty, every=11):
    """`values` with a null on every `every`-th row."""
    return pa.array([None if i % every == 5 else v for i, v in enumerate(values)], ty)


floats = [float("nan") if i % 97 == 0 else (-0.0 if i % 89 == 0 else i / 8) for i in range(n)]
table = pa.table(
    {
        "i32": col([i * 7919 % 100003 - 50000 for i in range(n)], pa.int32()),
        "i8": col([i % 256 - 128 for i in range(n)], pa.int8()),
        "u16": col([i * 31 % 65536 for i in range(n)], pa.uint16()),
        "u32": col([i * 2654435761 % 4294967296 for i in range(n)], pa.uint32()),
        "i64": col([i * 1000000007 - 1099511627776 for i in range(n)], pa.int64()),
        "ts": col([i * 123456789 for i in range(n)], pa.timestamp("us")),
        "f32": col(floats, pa.float32()),
        "f64": col(floats, pa.float64(), 13),
        "s": col(["" if i % 13 == 0 else f"value-{i % 700}" for i in range(n)], pa.string()),
        "bin": col([bytes([i % 256]) * (i % 5) for i in range(n)], pa.binary(), 7),
        "fsb": col([(i * 40503 % 16777216).to_bytes(3, "little") for i in range(n)], pa.binary(3)),
    }
)
for ndv, fpp, dictionary in [(1000, 0.05, True), (100000, 0.01, True), (10, 0.2, True),
                             (5000, 0.001, False)]:
    name = f"ndv{ndv}-fpp{fpp}{'' if dictionary else '-plain'}.parquet"
    opts = {c: {"ndv": ndv, "fpp": fpp} for c in table.column_names}
    pq.write_table(table, f"{out}/{name}", row_group_size=1000, use_dictionary=dictionary,
                   bloom_filter_options=opts)
