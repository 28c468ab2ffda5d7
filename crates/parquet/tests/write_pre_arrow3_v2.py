"""Writes, into the folder argv[1], files as parquet-cpp wrote data pages v2 before Arrow 3.0
(apache/arrow-testing's ARROW-17100.parquet is one): the values compressed, yet every page
header saying `is_compressed = false`, and `created_by` naming "parquet-cpp version 1.5.1".

pyarrow writes each table with data pages v2 (one file per codec); then the footer's
`created_by` is replaced and each v2 page header re-encoded with `is_compressed` false (a
boolean field is one header byte either way, so no offset moves). Readers that apply
Arrow C++'s rule for such writers (pyarrow does) read the values; a reader taking the flag at
its word reads compressed bytes as values.
"""
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import merge_thrift as t  # noqa: E402

OLD = b"parquet-cpp version 1.5.1-SNAPSHOT"


def relabel(path, created_by):
    """Every data page v2 of `path` marked uncompressed, and `created_by` replaced."""
    buf = bytearray(open(path, "rb").read())
    meta, _ = t.footer(buf)
    for rg in meta[4]:
        for chunk in rg[1]:
            for page in t.walk_pages(buf, chunk[3]):
                h = page["header"]
                if page["type"] != t.DATA_PAGE_V2:
                    continue
                h[8].set(7, t.FALSE, False)
                enc = t.encode(h)
                assert len(enc) == page["header_len"], "the header changed length"
                buf[page["offset"]:page["offset"] + len(enc)] = enc
    meta.set(6, t.BINARY, created_by)
    open(path, "wb").write(t.with_footer(buf, meta))


out = sys.argv[1]
n = 5000
table = pa.table({
    "i": pa.array([None if k % 7 == 0 else k * 3 for k in range(n)], pa.int64()),
    "s": pa.array([None if k % 5 == 0 else f"v{k % 37}" for k in range(n)]),
    "d": pa.array([k / 4 for k in range(n)], pa.float64()),
})
# Flat columns only: pyarrow 26 fails to decompress such pages of a list column (repetition
# levels before the values), so it cannot be the oracle there.
for codec in ["snappy", "gzip", "zstd", "brotli", "lz4"]:
    path = f"{out}/old-{codec}.parquet"
    pq.write_table(table, path, compression=codec, data_page_version="2.0",
                   data_page_size=4096, row_group_size=2000, use_dictionary=["s"])
    relabel(path, OLD)
