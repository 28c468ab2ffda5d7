"""Writes a matrix of Parquet files with pyarrow into the folder argv[1]: the same table (flat
and nested columns, nulls everywhere, empty strings and lists) under every codec, both data page
versions, dictionary on and off, each non-default encoding pyarrow offers, tiny pages and row
groups, page checksums, and an empty table."""
import decimal
import itertools
import struct
import sys

import pyarrow as pa
import pyarrow.parquet as pq

out = sys.argv[1]
n = 2000
rng = list(range(n))


def maybe(v, i, every=7):
    return None if i % every == 3 else v


table = pa.table({
    "b": pa.array([maybe(i % 3 == 0, i) for i in rng], pa.bool_()),
    "i32": pa.array([maybe((i * 7919) % 100003 - 50000, i) for i in rng], pa.int32()),
    "i64": pa.array([maybe(i * 1_000_000_007 - 2**40, i, 5) for i in rng], pa.int64()),
    "f32": pa.array([maybe(i / 7, i) for i in rng], pa.float32()),
    "f64": pa.array([maybe(float("nan") if i % 11 == 0 else i * 1.5, i) for i in rng], pa.float64()),
    "s": pa.array([maybe("" if i % 13 == 0 else f"value-{i % 97}-{'x' * (i % 5)}", i) for i in rng]),
    "bin": pa.array([maybe(bytes([i % 256]) * (i % 4), i, 9) for i in rng], pa.binary()),
    "fsb": pa.array([maybe(i.to_bytes(4, "little"), i) for i in rng], pa.binary(4)),
    "req": pa.array([i % 10 for i in rng], pa.int16()),
    # FIXED_LEN_BYTE_ARRAY decimals of 4 and 13 bytes, negative values included.
    "dec9": pa.array([maybe(decimal.Decimal(i * 7919 % 10**7 - 5 * 10**6) / 100, i) for i in rng],
                     pa.decimal128(9, 2)),
    "dec30": pa.array([maybe(decimal.Decimal((i - 1000) * 10**20 + i) / 1000, i, 6) for i in rng],
                      pa.decimal128(30, 3)),
    "list": pa.array([maybe([maybe(j, j, 4) for j in range(i % 4)], i, 6) for i in rng], pa.list_(pa.int64())),
    "struct": pa.array([maybe({"x": maybe(i, i, 5), "y": maybe(str(i), i, 3)}, i, 8) for i in rng],
                       pa.struct([("x", pa.int32()), ("y", pa.string())])),
    "map": pa.array([maybe([(f"k{j}", maybe(j, j, 2)) for j in range(i % 3)], i, 10) for i in rng],
                    pa.map_(pa.string(), pa.int32())),
    "deep": pa.array([maybe([maybe({"l": maybe([i, None], i, 4)}, i, 5)], i, 9) for i in rng],
                     pa.list_(pa.struct([("l", pa.list_(pa.int32()))]))),
})

codecs = ["none", "snappy", "gzip", "brotli", "zstd", "lz4"]
for codec, version, dictionary in itertools.product(codecs, ["1.0", "2.0"], [True, False]):
    pq.write_table(table, f"{out}/{codec}-v{version}-{'dict' if dictionary else 'plain'}.parquet",
                   compression=codec, data_page_version=version, use_dictionary=dictionary,
                   data_page_size=2048, row_group_size=700, write_page_checksum=True)

encodings = {
    "delta": {"i32": "DELTA_BINARY_PACKED", "i64": "DELTA_BINARY_PACKED", "req": "DELTA_BINARY_PACKED",
              "s": "DELTA_LENGTH_BYTE_ARRAY", "bin": "DELTA_BYTE_ARRAY", "fsb": "DELTA_BYTE_ARRAY",
              "dec9": "DELTA_BYTE_ARRAY", "dec30": "DELTA_BYTE_ARRAY"},
    "bss": {"f32": "BYTE_STREAM_SPLIT", "f64": "BYTE_STREAM_SPLIT", "i32": "BYTE_STREAM_SPLIT",
            "i64": "BYTE_STREAM_SPLIT", "fsb": "BYTE_STREAM_SPLIT", "dec9": "BYTE_STREAM_SPLIT",
            "dec30": "BYTE_STREAM_SPLIT"},
    "rle_bool": {"b": "RLE"},
}
for name, enc in encodings.items():
    for version in ["1.0", "2.0"]:
        pq.write_table(table, f"{out}/enc-{name}-v{version}.parquet", use_dictionary=False,
                       column_encoding=enc, data_page_version=version, compression="snappy",
                       data_page_size=1024)

pq.write_table(table.slice(0, 0), f"{out}/empty.parquet")
pq.write_table(table, f"{out}/one-row-groups.parquet", row_group_size=1)


# GEOMETRY: pyarrow writes the logical type (and geospatial statistics) for an extension type
# named geoarrow.wkb; a reader without the extension (pyarrow by default, quiver) reads binary.
class Wkb(pa.ExtensionType):
    def __init__(self):
        super().__init__(pa.binary(), "geoarrow.wkb")

    def __arrow_ext_serialize__(self):
        return b"{}"

    @classmethod
    def __arrow_ext_deserialize__(cls, storage_type, serialized):
        return Wkb()


def point(x, y):
    return b"\x01" + (1).to_bytes(4, "little") + struct.pack("<dd", x, y)


pa.register_extension_type(Wkb())
geo = pa.ExtensionArray.from_storage(
    Wkb(), pa.array([None if i % 5 == 0 else point(i, -i) for i in range(300)], pa.binary()))
pq.write_table(pa.table({"g": geo, "i": pa.array(range(300))}), f"{out}/geometry.parquet",
               store_schema=False)
pa.unregister_extension_type("geoarrow.wkb")
