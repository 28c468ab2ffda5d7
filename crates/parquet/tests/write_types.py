"""Writes Parquet files covering the Arrow types pyarrow can store, into the folder argv[1]:
each type in its own column, with and without the ARROW:schema key, and under several writer
settings (format versions, legacy nested names, INT96 timestamps)."""
import datetime
import decimal
import sys

import pyarrow as pa
import pyarrow.parquet as pq

out = sys.argv[1]
n = 3


def col(t, values):
    return pa.array(values, type=t)


s = ["a", None, "ccc"]
cols = {
    "bool": col(pa.bool_(), [True, None, False]),
    "i8": col(pa.int8(), [1, None, -3]),
    "i16": col(pa.int16(), [1, None, -3]),
    "i32": col(pa.int32(), [1, None, -3]),
    "i64": col(pa.int64(), [1, None, -3]),
    "u8": col(pa.uint8(), [1, None, 255]),
    "u16": col(pa.uint16(), [1, None, 65535]),
    "u32": col(pa.uint32(), [1, None, 2**32 - 1]),
    "u64": col(pa.uint64(), [1, None, 2**64 - 1]),
    "f16": col(pa.float16(), [1.5, None, -2.0]),
    "f32": col(pa.float32(), [1.5, None, float("nan")]),
    "f64": col(pa.float64(), [1.5, None, float("inf")]),
    "str": col(pa.string(), s),
    "lstr": col(pa.large_string(), s),
    "vstr": col(pa.string_view(), s),
    "bin": col(pa.binary(), [b"a", None, b""]),
    "lbin": col(pa.large_binary(), [b"a", None, b""]),
    "fsb": col(pa.binary(3), [b"abc", None, b"xyz"]),
    "d32": col(pa.date32(), [1, None, -1]),
    "d64": col(pa.date64(), [86400000, None, 0]),
    "t32s": col(pa.time32("s"), [1, None, 3]),
    "t32ms": col(pa.time32("ms"), [1, None, 3]),
    "t64us": col(pa.time64("us"), [1, None, 3]),
    "t64ns": col(pa.time64("ns"), [1, None, 3]),
    "ts_s": col(pa.timestamp("s"), [1, None, 3]),
    "ts_ms": col(pa.timestamp("ms"), [1, None, 3]),
    "ts_us_utc": col(pa.timestamp("us", tz="UTC"), [1, None, 3]),
    "ts_ns_ny": col(pa.timestamp("ns", tz="America/New_York"), [1, None, 3]),
    "ts_ms_off": col(pa.timestamp("ms", tz="+05:30"), [1, None, 3]),
    "dur_s": col(pa.duration("s"), [1, None, 3]),
    "dur_ns": col(pa.duration("ns"), [1, None, 3]),
    "dec9": col(pa.decimal128(9, 2), [decimal.Decimal("1.23"), None, decimal.Decimal("-4.56")]),
    "dec18": col(pa.decimal128(18, 3), [decimal.Decimal("1.234"), None, decimal.Decimal("0")]),
    "dec38": col(pa.decimal128(38, 10), [decimal.Decimal("1.5"), None, decimal.Decimal("-1")]),
    "dec76": col(pa.decimal256(76, 20), [decimal.Decimal("1.5"), None, decimal.Decimal("-1")]),
    "dict": pa.array(s).dictionary_encode(),
    "list": col(pa.list_(pa.int32()), [[1, None], None, []]),
    "llist": col(pa.large_list(pa.string()), [["a"], None, []]),
    "fsl": col(pa.list_(pa.int16(), 2), [[1, 2], None, [3, None]]),
    "lv_dur": col(pa.list_view(pa.duration("s")), [[1, None], None, []]),
    "llv_ts": col(pa.large_list_view(pa.timestamp("ns", tz="Europe/Paris")), [[1], None, []]),
    "struct": col(pa.struct([("x", pa.int32()), ("y", pa.string())]), [{"x": 1, "y": "a"}, None, {"x": None, "y": None}]),
    "map": col(pa.map_(pa.string(), pa.int64()), [[("a", 1)], None, []]),
    "nested": col(pa.list_(pa.struct([("l", pa.list_(pa.int8()))])), [[{"l": [1]}], None, [None]]),
    "null": pa.nulls(n),
    "uuid": pa.array([b"0123456789abcdef", None, b"fedcba9876543210"], pa.binary(16)).cast(pa.uuid()),
    "json": pa.array(['{"a":1}', None, "[]"], pa.string()).cast(pa.json_()),
}
meta = {"field": "value"}
table = pa.table(cols).replace_schema_metadata(meta)
for name, kwargs in {
    "default": {},
    "no_arrow_schema": {"store_schema": False},
    "v1_0": {"version": "1.0"},
    "legacy_nested": {"use_compliant_nested_type": False},
    "int96": {"use_deprecated_int96_timestamps": True},
    "v2_pages": {"data_page_version": "2.0"},
    "decimal_as_integer": {"store_decimal_as_integer": True},
}.items():
    t = table
    if name == "v1_0":
        # Version 1.0 cannot hold some logical types.
        t = t.drop_columns(["u32", "u64", "f16", "t64ns", "ts_ns_ny", "dur_ns", "uuid", "json", "llv_ts"])
    pq.write_table(t, f"{out}/{name}.parquet", **kwargs)
# Field ids.
ids = pa.schema([pa.field("a", pa.int32(), metadata={"PARQUET:field_id": "7"})])
pq.write_table(pa.table({"a": [1]}, schema=ids), f"{out}/field_ids.parquet")
# Decimal32 and Decimal64 (restored from ARROW:schema) in files of their own: polars cannot
# read them (it panics on the whole file), and would skip every column of the others.
small = pa.table({
    "dec32": col(pa.decimal32(7, 2), [decimal.Decimal("12345.67"), None, decimal.Decimal("-0.01")]),
    "dec64": col(pa.decimal64(15, 0), [decimal.Decimal("123456789012345"), None, decimal.Decimal("-300")]),
    "dec64_9": col(pa.decimal64(9, 9), [decimal.Decimal("0.999999999"), None, decimal.Decimal("-0.000000001")]),
})
pq.write_table(small, f"{out}/small_decimals.parquet")
pq.write_table(small, f"{out}/small_decimals_int.parquet", store_decimal_as_integer=True)
pq.write_table(small, f"{out}/small_decimals_v2_dict.parquet", data_page_version="2.0",
               use_dictionary=True, store_decimal_as_integer=True)
