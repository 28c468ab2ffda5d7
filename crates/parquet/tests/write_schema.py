"""pyarrow's Parquet schema for every Arrow type it writes: the oracle of quiver's WriteSchema.

`write_schema.py write DIR`: writes empty files with store_schema=True:
  types_int.parquet  (store_decimal_as_integer=True: decimals INT32/INT64 up to precision 18)
  types_flba.parquet (pyarrow's default: every decimal a FIXED_LEN_BYTE_ARRAY)
quiver reads each file's ARROW:schema back, builds its own Parquet schema from it and compares
the schema elements with the file's.

`write_schema.py compare`: reads JSON lines {"theirs": base64, "ours": base64} (ARROW:schema
values) and prints one JSON line per case: whether pyarrow reads both to equal schemas
(metadata included), and both as pyarrow prints them.

`write_schema.py refuses`: reads JSON lines {"schema": base64 ARROW:schema value} and prints
{"schema": ..., "error": pyarrow's error making a Parquet writer for it, or null}.
"""
import base64
import json
import sys

import pyarrow as pa
import pyarrow.parquet as pq


def fid(i):
    return {b"PARQUET:field_id": str(i).encode()}


def schema():
    scalars = [
        ("b", pa.bool_()),
        ("i8", pa.int8()),
        ("i16", pa.int16()),
        ("i32", pa.int32()),
        ("i64", pa.int64()),
        ("u8", pa.uint8()),
        ("u16", pa.uint16()),
        ("u32", pa.uint32()),
        ("u64", pa.uint64()),
        ("f16", pa.float16()),
        ("f32", pa.float32()),
        ("f64", pa.float64()),
        ("d32", pa.decimal32(5, 2)),
        ("d64", pa.decimal64(15, 3)),
        ("d64_small", pa.decimal64(4, 1)),
        ("d128_1", pa.decimal128(1, 0)),
        ("d128_9", pa.decimal128(9, 2)),
        ("d128_10", pa.decimal128(10, 2)),
        ("d128_18", pa.decimal128(18, 2)),
        ("d128_19", pa.decimal128(19, 2)),
        ("d128_20", pa.decimal128(20, 0)),
        ("d128_38", pa.decimal128(38, 10)),
        ("d256_10", pa.decimal256(10, 5)),
        ("d256_39", pa.decimal256(39, 5)),
        ("d256_40", pa.decimal256(40, 5)),
        ("d256_76", pa.decimal256(76, 5)),
        ("date32", pa.date32()),
        ("date64", pa.date64()),
        ("t32s", pa.time32("s")),
        ("t32ms", pa.time32("ms")),
        ("t64us", pa.time64("us")),
        ("t64ns", pa.time64("ns")),
        ("tss", pa.timestamp("s")),
        ("tsms", pa.timestamp("ms")),
        ("tsus", pa.timestamp("us")),
        ("tsns", pa.timestamp("ns")),
        ("tssz", pa.timestamp("s", "Europe/Paris")),
        ("tsmsz", pa.timestamp("ms", "UTC")),
        ("tsusz", pa.timestamp("us", "+01:00")),
        ("tsnsz", pa.timestamp("ns", "UTC")),
        ("durs", pa.duration("s")),
        ("durns", pa.duration("ns")),
        ("bin", pa.binary()),
        ("lbin", pa.large_binary()),
        ("vbin", pa.binary_view()),
        ("str", pa.string()),
        ("lstr", pa.large_string()),
        ("vstr", pa.string_view()),
        ("fsb", pa.binary(5)),
        ("uuid", pa.uuid()),
        ("json", pa.json_()),
        ("ljson", pa.json_(pa.large_string())),
        ("null", pa.null()),
        ("dict", pa.dictionary(pa.int8(), pa.string())),
        ("dict_date64", pa.dictionary(pa.int32(), pa.date64())),
        ("dict_dec", pa.dictionary(pa.int16(), pa.decimal128(20, 2))),
    ]
    fields = [pa.field(n, t) for n, t in scalars]
    fields += [pa.field(n + "_req", t, nullable=False) for n, t in scalars if n != "null"]
    fields += [
        pa.field("with_id", pa.int32(), metadata=fid(7)),
        pa.field("bad_id", pa.int32(), metadata={b"PARQUET:field_id": b"x"}),
        pa.field("neg_id", pa.int32(), metadata={b"PARQUET:field_id": b"-3"}),
        pa.field("other_meta", pa.int32(), metadata={b"k": b"v"}),
        pa.field(
            "st",
            pa.struct(
                [
                    pa.field("a", pa.int32(), metadata=fid(3)),
                    pa.field("b", pa.string(), nullable=False),
                    pa.field("c", pa.struct([("d", pa.list_(pa.int64()))])),
                ]
            ),
            metadata=fid(2),
        ),
        pa.field("lst", pa.list_(pa.int32())),
        pa.field("lst_req", pa.list_(pa.field("it", pa.int32(), nullable=False)), nullable=False),
        pa.field("llst", pa.large_list(pa.field("x", pa.string(), metadata=fid(9)))),
        pa.field("fsl", pa.list_(pa.float32(), 3)),
        pa.field("lv", pa.list_view(pa.int32())),
        pa.field("llv", pa.large_list_view(pa.binary())),
        pa.field("luuid", pa.list_(pa.uuid())),
        pa.field("lol", pa.list_(pa.list_(pa.struct([("x", pa.int8()), ("y", pa.date64())])))),
        pa.field("map", pa.map_(pa.string(), pa.int32())),
        pa.field(
            "map_req",
            pa.map_(
                pa.field("k", pa.int64(), nullable=False),
                pa.field("v", pa.list_(pa.decimal128(30, 3)), nullable=False),
            ),
            nullable=False,
        ),
        pa.field("map_of_map", pa.map_(pa.int32(), pa.map_(pa.string(), pa.null()))),
    ]
    return pa.schema(fields, metadata={b"origin": b"pyarrow", b"n": b"1"})


def write(out_dir):
    s = schema()
    # (Schema.empty_table cannot build a list of an extension type.)
    t = pa.Table.from_arrays([pa.nulls(0, f.type) for f in s], schema=s)
    pq.write_table(t, f"{out_dir}/types_int.parquet", store_schema=True, store_decimal_as_integer=True)
    pq.write_table(t, f"{out_dir}/types_flba.parquet", store_schema=True)


def compare():
    for line in sys.stdin:
        case = json.loads(line)
        theirs = pa.ipc.read_schema(pa.py_buffer(base64.b64decode(case["theirs"])))
        ours = pa.ipc.read_schema(pa.py_buffer(base64.b64decode(case["ours"])))
        print(
            json.dumps(
                {
                    "equal": ours.equals(theirs, check_metadata=True),
                    "ours": ours.to_string(show_field_metadata=True),
                    "theirs": theirs.to_string(show_field_metadata=True),
                }
            ),
            flush=True,
        )


def refuses():
    for line in sys.stdin:
        s = pa.ipc.read_schema(pa.py_buffer(base64.b64decode(json.loads(line)["schema"])))
        try:
            # The writer converts the schema when it is made (no arrays needed: pyarrow cannot
            # make arrays of every type, e.g. month intervals).
            pq.ParquetWriter(pa.BufferOutputStream(), s).close()
            error = None
        except Exception as e:  # noqa: BLE001 - any refusal counts
            error = f"{type(e).__name__}: {e}"
        print(json.dumps({"schema": str(s), "error": error}), flush=True)


if __name__ == "__main__":
    {"write": lambda: write(sys.argv[2]), "compare": compare, "refuses": refuses}[sys.argv[1]]()
