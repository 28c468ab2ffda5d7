"""Writes the data of the writer's metadata test (tests/it/write_meta.rs) into the folder
argv[1]: `source.arrow` (an IPC stream), and pyarrow's files of it: `pyarrow.parquet` (decimals as
integers) and `pyarrow_flba.parquet` (its default fixed-size decimals), each with
statistics and the page index, 1000-row row groups and 100-row pages (data_page_size 1 closes a
page after each write batch of 100), no dictionary. Columns: floats with NaN and ±0.0 (and an
all-NaN page), strings longer than the 64-byte column-index truncation, unsigned integers past
the signed range, decimals (with nulls, and without), dates, timestamps, booleans, all-null columns, sorted integers."""
import decimal
import sys

import pyarrow as pa
import pyarrow.parquet as pq

out = sys.argv[1]
n = 3000


def maybe(v, i, every=7):
    return None if i % every == 3 else v


def f(i):
    if 200 <= i < 300:
        return float("nan")
    return [float("nan"), 0.0, -0.0, (i - 1500) / 3][i % 4] if i % 5 == 0 else (i % 97) - 48.5


table = pa.table({
    "sorted": pa.array(range(n), pa.int64()),
    "f64": pa.array([maybe(f(i), i) for i in range(n)], pa.float64()),
    "f32": pa.array([maybe(f(i), i, 11) for i in range(n)], pa.float32()),
    "zeros": pa.array([[0.0, -0.0][i % 2] for i in range(n)], pa.float64()),
    "long": pa.array([maybe(("é" * (i % 50)) + "x" * 80 + str(i % 13), i) for i in range(n)]),
    "bin": pa.array([maybe(bytes([255 - i % 256]) * (i % 70), i) for i in range(n)], pa.binary()),
    "u32": pa.array([maybe(i * 2654435761 % 2**32, i) for i in range(n)], pa.uint32()),
    "u64": pa.array([maybe(i * 11400714819323198485 % 2**64, i) for i in range(n)], pa.uint64()),
    "u8": pa.array([maybe(i * 37 % 256, i) for i in range(n)], pa.uint8()),
    "i32": pa.array([maybe(i * 7919 % 100003 - 50000, i) for i in range(n)], pa.int32()),
    "dec": pa.array([maybe(decimal.Decimal(i * 37 - 50000) / 100, i) for i in range(n)], pa.decimal128(9, 2)),
    "dec30": pa.array([maybe(decimal.Decimal(i * 10**20 - 10**23) / 1000, i) for i in range(n)], pa.decimal128(30, 3)),
    # Without nulls (whole pages of contiguous values), signs mixed within pages: 7 and 9 bytes.
    "dec15": pa.array([decimal.Decimal((i * 7919 % 100003 - 50000) * 10**9 + i) / 100 for i in range(n)], pa.decimal128(15, 2)),
    "dec20": pa.array([decimal.Decimal((i * 7919 % 100003 - 50000) * 10**14 - i) for i in range(n)], pa.decimal128(20, 0)),
    "date": pa.array([maybe(i * 37 - 30000, i) for i in range(n)], pa.date32()),
    "ts": pa.array([maybe(i * 123_456_789 - 10**11, i) for i in range(n)], pa.timestamp("us", "UTC")),
    "b": pa.array([maybe(i % 3 == 0, i) if i < 1000 else maybe(True, i) for i in range(n)], pa.bool_()),
    "all_null": pa.array([None] * n, pa.int32()),
    "some_null_pages": pa.array([None if (i // 100) % 3 == 1 else i for i in range(n)], pa.int64()),
})
with pa.ipc.new_stream(f"{out}/source.arrow", table.schema) as w:
    w.write_table(table)
pq.write_table(table, f"{out}/pyarrow.parquet", row_group_size=1000, data_page_size=1,
               write_batch_size=100, use_dictionary=False, write_page_index=True,
               compression="none", write_statistics=True, store_decimal_as_integer=True)
# pyarrow's default: every decimal a FIXED_LEN_BYTE_ARRAY (what quiver chooses uncompressed).
pq.write_table(table, f"{out}/pyarrow_flba.parquet", row_group_size=1000, data_page_size=1,
               write_batch_size=100, use_dictionary=False, write_page_index=True,
               compression="none", write_statistics=True)
