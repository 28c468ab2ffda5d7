"""Writes one single-page column per JSON line of stdin with pyarrow and prints the column
chunk's bytes (hex), for the encoders' byte-for-byte tests (src/encoding/pyarrow_tests.rs).

Each line: {"name", "type": "int32"|"int64"|"float"|"bool"|"binary", "encoding": a pyarrow
column_encoding or "DICTIONARY", "values": numbers, booleans or hex strings}. The column is
required (no levels), uncompressed, without statistics or page index, so the chunk ends
with the page's value bytes."""
import json
import os
import sys
import tempfile

import pyarrow as pa
import pyarrow.parquet as pq

TYPES = {"int32": pa.int32(), "int64": pa.int64(), "float": pa.float32(),
         "bool": pa.bool_(), "binary": pa.binary()}

with tempfile.TemporaryDirectory() as tmp:
    for line in sys.stdin:
        case = json.loads(line)
        t = TYPES[case["type"]]
        values = case["values"]
        if case["type"] == "binary":
            values = [bytes.fromhex(v) for v in values]
        table = pa.table({"c": pa.array(values, t)},
                         schema=pa.schema([pa.field("c", t, nullable=False)]))
        path = os.path.join(tmp, case["name"] + ".parquet")
        dictionary = case["encoding"] == "DICTIONARY"
        pq.write_table(
            table, path, compression="NONE", use_dictionary=dictionary,
            column_encoding=None if dictionary else {"c": case["encoding"]},
            write_statistics=False, data_page_size=1 << 30,
        )
        meta = pq.ParquetFile(path).metadata
        assert meta.num_row_groups == 1
        col = meta.row_group(0).column(0)
        start = col.dictionary_page_offset if dictionary else col.data_page_offset
        with open(path, "rb") as f:
            f.seek(start)
            chunk = f.read(col.total_compressed_size)
        print(json.dumps({"name": case["name"], "chunk": chunk.hex()}))
