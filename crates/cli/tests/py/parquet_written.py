"""pyarrow's side of the Parquet output tests (files quiver wrote). Subcommands:

  same ARROW=PARQUET ...     each Parquet file, read by pq.read_table, equals the Arrow IPC
                             file or stream ARROW (schema and values; NaN equals NaN)
  sorted ARROW PARQUET A,B   PARQUET equals ARROW sorted by pyarrow (stable, ascending, nulls
                             at the end) by the columns A, B
  meta PARQUET               the file's metadata as one JSON object (pyarrow's view)
"""
import json
import math
import sys

import pyarrow.compute as pc
import pyarrow.ipc as ipc
import pyarrow.parquet as pq


def read_arrow(path):
    with open(path, "rb") as f:
        head = f.read(6)
    if head == b"ARROW1":
        return ipc.open_file(path).read_all()
    return ipc.open_stream(path).read_all()


def rows(table):
    """The rows as lists, NaN replaced by a string (NaN equals nothing, not even itself)."""
    def fix(v):
        return "NaN" if isinstance(v, float) and math.isnan(v) else v
    return [[fix(v) for v in col.to_pylist()] for col in table.columns]


def same(pairs):
    failures = []
    for pair in pairs:
        source, output = pair.split("=", 1)
        expected, actual = read_arrow(source), pq.read_table(output)
        if not actual.schema.equals(expected.schema):
            failures.append(f"{output}: schema\n{actual.schema}\n!=\n{expected.schema}")
        elif not actual.equals(expected) and rows(actual) != rows(expected):
            failures.append(f"{output}: values differ from {source}")
    print(f"{len(pairs)} files checked")
    if failures:
        print("\n".join(failures))
        sys.exit(1)


def is_sorted(source, output, columns):
    keys = [(c, "ascending") for c in columns.split(",")]
    # Stable, nulls at the end (the default), NaN after the numbers.
    expected = read_arrow(source).sort_by(keys)
    actual = pq.read_table(output)
    if not actual.schema.equals(expected.schema) or rows(actual) != rows(expected):
        print(f"{output}: not {source} sorted by {columns}")
        print(actual.slice(0, 10).to_pydict())
        print(expected.slice(0, 10).to_pydict())
        sys.exit(1)


def meta(path):
    m = pq.ParquetFile(path).metadata
    flat = len(m.schema.to_arrow_schema()) == m.num_columns
    groups = []
    for i in range(m.num_row_groups):
        g = m.row_group(i)
        columns = []
        for j in range(g.num_columns):
            c = g.column(j)
            s = c.statistics
            distinct = s.distinct_count if s is not None and s.has_distinct_count else None
            columns.append({
                "distinct_count": distinct,
                # A flat file's column's distinct non-null values in the row group (pyarrow's).
                "distinct_values": pc.count_distinct(
                    pq.ParquetFile(path).read_row_group(i).column(j)).as_py() if flat else None,
                "path": c.path_in_schema,
                "compression": c.compression,
                "physical_type": c.physical_type,
                "encodings": list(c.encodings),
                "statistics": c.is_stats_set,
                "dictionary": c.has_dictionary_page,
                "column_index": c.has_column_index,
                "offset_index": c.has_offset_index,
                "bloom": c.bloom_filter_offset is not None,
            })
        sorting = [[s.column_index, s.descending, s.nulls_first] for s in (g.sorting_columns or [])]
        groups.append({"rows": g.num_rows, "sorting": sorting, "columns": columns})
    print(json.dumps({"rows": m.num_rows, "row_groups": groups}))


command, args = sys.argv[1], sys.argv[2:]
if command == "same":
    same(args)
elif command == "sorted":
    is_sorted(*args)
elif command == "meta":
    meta(args[0])
else:
    sys.exit(f"unknown command {command}")
