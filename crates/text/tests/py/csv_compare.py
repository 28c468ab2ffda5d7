"""Compares quiver's CSV reading with pyarrow's.

Usage:
  csv_compare.py infer CSV                 prints pyarrow's inferred schema, one `name: type` a line
  csv_compare.py values CSV JSONL TYPES    reads CSV with pyarrow using the column types in the
                                           TYPES JSON file ({name: type string}), and compares
                                           each value with quiver's JSON Lines output JSONL
Exit status 0 when equal; otherwise prints the differences and exits 1.
"""
import datetime
import decimal
import json
import math
import re
import struct
import sys

import pyarrow as pa
import pyarrow.csv as pc

NULLS = ["", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "1.#IND", "1.#QNAN",
         "N/A", "NA", "NULL", "n/a", "null"]


def parse_type(text):
    simple = {"int8": pa.int8(), "int16": pa.int16(), "int32": pa.int32(), "int64": pa.int64(),
              "uint8": pa.uint8(), "uint16": pa.uint16(), "uint32": pa.uint32(),
              "uint64": pa.uint64(), "float": pa.float32(), "double": pa.float64(),
              "bool": pa.bool_(), "string": pa.string(), "date32[day]": pa.date32()}
    if text in simple:
        return simple[text]
    m = re.fullmatch(r"timestamp\[(\w+)(?:, tz=(.+))?\]", text)
    if m:
        return pa.timestamp(m.group(1), tz=m.group(2))
    m = re.fullmatch(r"decimal128\((\d+), (-?\d+)\)", text)
    if m:
        return pa.decimal128(int(m.group(1)), int(m.group(2)))
    raise ValueError(f"unsupported type {text}")


def read(path, types=None):
    convert = pc.ConvertOptions(null_values=NULLS, strings_can_be_null=True,
                                column_types=types or {})
    return pc.read_csv(path, convert_options=convert)


def canonical_quiver(value, typ):
    """quiver's JSON value as the Python value pyarrow gives."""
    if value is None:
        return None
    if pa.types.is_floating(typ):
        return f32(float(value)) if typ == pa.float32() else float(value)
    if pa.types.is_date32(typ):
        return datetime.date.fromisoformat(value)
    if pa.types.is_timestamp(typ):
        return datetime.datetime.fromisoformat(value)
    if pa.types.is_decimal(typ):
        return decimal.Decimal(value)
    return value


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, datetime.datetime) and isinstance(b, datetime.datetime):
        if (a.tzinfo is None) != (b.tzinfo is None):
            return False
        return a == b
    return a == b


def values(csv_path, jsonl_path, types_path):
    with open(types_path) as f:
        spec = json.load(f)
    types = {name: parse_type(t) for name, t in spec.items()}
    table = read(csv_path, types)
    with open(jsonl_path) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    problems = []
    if table.num_rows != len(rows):
        problems.append(f"row count: pyarrow {table.num_rows}, quiver {len(rows)}")
    for name, typ in types.items():
        # Nanosecond timestamps do not fit datetime; compare their integers instead.
        column = table.column(name)
        if pa.types.is_timestamp(typ) and typ.unit == "ns":
            column = column.cast(pa.int64())
        theirs = column.to_pylist()
        for i, (want, row) in enumerate(zip(theirs, rows)):
            got = row.get(name)
            if pa.types.is_timestamp(typ) and typ.unit == "ns":
                got = None if got is None else ns_of(got)
            else:
                got = canonical_quiver(got, typ)
            if not same(want, got):
                problems.append(f"row {i}, column {name}: pyarrow {want!r}, quiver {got!r}")
    for p in problems:
        print(p)
    print(f"compared {table.num_rows} rows x {len(types)} columns")
    return 1 if problems else 0


def ns_of(text):
    base, _, frac = text.partition(".")
    digits = re.match(r"\d*", frac).group(0)
    zone = frac[len(digits):]
    dt = datetime.datetime.fromisoformat(base + zone)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=datetime.timezone.utc)
    seconds = (dt - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)) // datetime.timedelta(seconds=1)
    return seconds * 1_000_000_000 + int(digits.ljust(9, "0") or 0)


def infer(csv_path):
    table = read(csv_path)
    for field in table.schema:
        print(f"{field.name}: {field.type}")
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "infer":
        sys.exit(infer(sys.argv[2]))
    sys.exit(values(sys.argv[2], sys.argv[3], sys.argv[4]))
