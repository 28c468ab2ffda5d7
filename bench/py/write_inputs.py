#!/usr/bin/env python3
"""Writes the pyarrow copies of a benchmark data set: reads the quiver-written IPC file
`{dir}/{name}-{rows}.arrow` and writes `{name}-{rows}.pa.arrow`, `.pa.lz4.arrow`,
`.pa.zstd.arrow` (IPC files), `.pa.arrows` (IPC stream) with the same record batches, and
`.pa.snappy.parquet`, `.pa.zstd.parquet`, `.pa.plain.parquet` (Parquet, pyarrow's defaults but
the codec: row groups of 1Mi rows, dictionary encoding, data page v1, format 2.6, statistics,
the ARROW:schema key). Existing copies are kept.

`{name}-small` (e.g. `lineitem-small`) cuts the same data into files of 6,000 rows written by
pyarrow with its defaults (SNAPPY, dictionary encoding): `{dir}/{name}-{rows}-small/part-NNNNN.parquet`,
ceil(rows / 6,000) files (the merge benchmark of issue #15). The folder is written under a
temporary name and renamed when complete; an existing one is kept.

The data set `wide` is written from nothing: `{dir}/wide-{rows}.pa.snappy.parquet`, 1,000 int32
columns `c0`…`c999` of small values in 20 row groups of rows/20 rows (for the footer benchmark).

    python3 bench/py/write_inputs.py bench/data lineitem 6000000
    python3 bench/py/write_inputs.py bench/data wide 20000
    python3 bench/py/write_inputs.py bench/data lineitem-small 6000000
"""

import os
import sys

import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

IPC_OUTPUTS = {
    ".pa.arrow": (None, False),
    ".pa.lz4.arrow": ("lz4", False),
    ".pa.zstd.arrow": ("zstd", False),
    ".pa.arrows": (None, True),
}
PARQUET_OUTPUTS = {
    ".pa.snappy.parquet": "snappy",
    ".pa.zstd.parquet": "zstd",
    ".pa.plain.parquet": "none",
}
SMALL_FILE_ROWS = 6000
WIDE_COLUMNS = 1000
WIDE_ROW_GROUPS = 20


def write_ipc(path, schema, batches, compression, stream):
    """Writes `batches` to `path` as an IPC file (or stream)."""
    options = ipc.IpcWriteOptions(compression=compression)
    with pa.OSFile(path, "wb") as sink:
        new = ipc.new_stream if stream else ipc.new_file
        with new(sink, schema, options=options) as w:
            for b in batches:
                w.write_batch(b)


def write_wide(base, rows):
    """The wide Parquet file: 1,000 small int32 columns, 20 row groups."""
    path = base + ".pa.snappy.parquet"
    if os.path.exists(path):
        return
    if rows % WIDE_ROW_GROUPS:
        sys.exit(f"wide: {rows} rows do not split into {WIDE_ROW_GROUPS} row groups")
    # Column c holds (7 r + c) mod 100: 100 distinct arrays, shared by the columns.
    arrays = [pa.array([(r * 7 + c) % 100 for r in range(rows)], pa.int32()) for c in range(100)]
    table = pa.table({f"c{c}": arrays[c % 100] for c in range(WIDE_COLUMNS)})
    pq.write_table(table, path + ".tmp", row_group_size=rows // WIDE_ROW_GROUPS)
    os.replace(path + ".tmp", path)
    print(f"wrote {path}", file=sys.stderr)


def write_small(folder, name, rows):
    """The data set `name` cut into files of SMALL_FILE_ROWS rows, pyarrow's defaults."""
    final = os.path.join(folder, f"{name}-{rows}-small")
    if os.path.isdir(final):
        return
    tmp = final + ".tmp"
    if os.path.isdir(tmp):
        for f in os.listdir(tmp):
            os.remove(os.path.join(tmp, f))
    else:
        os.mkdir(tmp)
    with pa.memory_map(os.path.join(folder, f"{name}-{rows}.arrow")) as source:
        reader = ipc.open_file(source)
        batches = [reader.get_batch(i) for i in range(reader.num_record_batches)]
        table = pa.Table.from_batches(batches, reader.schema)
        if table.num_rows != int(rows):
            sys.exit(f"{name}-{rows}.arrow holds {table.num_rows} rows")
        # Zero-padded numbers: name order is row order.
        for i, start in enumerate(range(0, table.num_rows, SMALL_FILE_ROWS)):
            part = table.slice(start, SMALL_FILE_ROWS)
            pq.write_table(part, os.path.join(tmp, f"part-{i:05}.parquet"))
    os.rename(tmp, final)
    print(f"wrote {final}/ ({i + 1} files)", file=sys.stderr)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    folder, name, rows = sys.argv[1:]
    base = os.path.join(folder, f"{name}-{rows}")
    if name == "wide":
        write_wide(base, int(rows))
        return
    if name.endswith("-small"):
        write_small(folder, name.removesuffix("-small"), rows)
        return
    todo = [k for k in list(IPC_OUTPUTS) + list(PARQUET_OUTPUTS) if not os.path.exists(base + k)]
    if not todo:
        return
    with pa.memory_map(base + ".arrow") as source:
        reader = ipc.open_file(source)
        batches = [reader.get_batch(i) for i in range(reader.num_record_batches)]
        for suffix in todo:
            tmp = base + suffix + ".tmp"
            if suffix in IPC_OUTPUTS:
                write_ipc(tmp, reader.schema, batches, *IPC_OUTPUTS[suffix])
            else:
                table = pa.Table.from_batches(batches, reader.schema)
                pq.write_table(table, tmp, compression=PARQUET_OUTPUTS[suffix])
            os.replace(tmp, base + suffix)
            print(f"wrote {base + suffix}", file=sys.stderr)


if __name__ == "__main__":
    main()
