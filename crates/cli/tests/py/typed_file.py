"""Writes an Arrow IPC file (argv[1]) with a column of many types, three rows each, including
the canonical extension types pyarrow knows (arrow.uuid, arrow.bool8); prints
`name<TAB>str(type)` for every column (pyarrow's spelling of each type)."""
import datetime
import decimal
import sys
import uuid

import pyarrow as pa
import pyarrow.ipc as ipc

U = [uuid.UUID("12345678-1234-5678-9abc-def012345678"), None, uuid.UUID(int=2**128 - 1)]
uuids = pa.ExtensionArray.from_storage(
    pa.uuid(), pa.array([u.bytes if u else None for u in U], pa.binary(16))
)
bool8 = pa.ExtensionArray.from_storage(pa.bool8(), pa.array([1, 0, None], pa.int8()))
ts = [datetime.datetime(2024, 3, 1, 12, 0), None, datetime.datetime(1999, 12, 31)]
columns = {
    "i": pa.array([1, None, 3], pa.int32()),
    "ls": pa.array(["a", None, "c"], pa.large_string()),
    "sv": pa.array(["a", None, "c"], pa.string_view()),
    "ts": pa.array(ts, pa.timestamp("ms", tz="UTC")),
    "tz": pa.array(ts, pa.timestamp("us", tz="+02:00")),
    "naive": pa.array(ts, pa.timestamp("s")),
    "d": pa.array(["x", None, "x"]).dictionary_encode(),
    "l": pa.array([[1], None, []], pa.list_(pa.int32())),
    "ll": pa.array([[1], None, []], pa.large_list(pa.int16())),
    "fsl": pa.array([[1, 2, 3], None, [4, 5, 6]], pa.list_(pa.int8(), 3)),
    "fsb": pa.array([b"0123456789abcdef", None, bytes(16)], pa.binary(16)),
    "dec": pa.array([decimal.Decimal("1.50"), None, decimal.Decimal("-2.25")], pa.decimal128(10, 2)),
    "dur": pa.array([1, None, 3], pa.duration("s")),
    "mdn": pa.array([(1, 2, 3), None, (0, 0, 0)], pa.month_day_nano_interval()),
    "date": pa.array([datetime.date(2024, 3, 1), None, datetime.date(1970, 1, 1)], pa.date32()),
    "t": pa.array([1, None, 2], pa.time64("ns")),
    "st": pa.array(
        [{"a": 1, "b": "x"}, None, {"a": 2, "b": None}],
        pa.struct([pa.field("a", pa.int32(), nullable=False), ("b", pa.string())]),
    ),
    "m": pa.array([[("k", 1)], None, []], pa.map_(pa.string(), pa.int32())),
    "u": uuids,
    "b8": bool8,
    "lu": pa.ListArray.from_arrays(pa.array([0, 2, 2, 3], pa.int32()), uuids),
    "ree": pa.RunEndEncodedArray.from_arrays(pa.array([2, 3], pa.int32()), pa.array(["r", "s"])),
    "h": pa.array([1.5, None, 2.0], pa.float16()) if hasattr(pa, "float16") else None,
}
columns = {k: v for k, v in columns.items() if v is not None}
table = pa.table(columns)
with ipc.new_file(sys.argv[1], table.schema) as w:
    w.write_table(table)
for field in table.schema:
    print(f"{field.name}\t{field.type}")
