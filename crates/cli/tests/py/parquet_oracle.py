"""pyarrow's side of the Parquet CLI tests. Subcommands:

  write DIR                 writes the test files (types, tiny pages, statistics) into DIR
  ipc PARQUET OUT           pq.read_table(PARQUET) written as an Arrow IPC file
  same PARQUET[#A,B]=ARROW  checks each Arrow IPC file equals pq.read_table (of columns A,B)
  fields PARQUET            the top-level fields as `quiver schema` prints their first line
  tree PARQUET              pyarrow's Parquet schema text rewritten in parquet-mr's form
  meta PARQUET              one JSON line per column chunk of metadata.row_group(i).column(j)
"""
import datetime
import decimal
import json
import re
import sys

import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq


def write(folder):
    t = pa.table({
        "id": pa.array([1, 2, None], pa.int64()),
        "u8": pa.array([1, 2, 3], pa.uint8()),
        "dec": pa.array([decimal.Decimal("1.25"), None, decimal.Decimal("-3.50")],
                        pa.decimal128(9, 2)),
        "bigdec": pa.array([decimal.Decimal("12345678901234567890.5"), None,
                            decimal.Decimal("-1.0")], pa.decimal128(30, 1)),
        "ts": pa.array([0, 1_700_000_000_000_000, None], pa.timestamp("us", tz="Europe/Paris")),
        "tsutc": pa.array([-1, 1_700_000_000_000, None], pa.timestamp("ms", tz="UTC")),
        "tsn": pa.array([0, 1, None], pa.timestamp("ns")),
        "d": pa.array([0, 19000, None], pa.date32()),
        "s": pa.array(["a", None, "ü, \"q\""], pa.string()),
        "l": pa.array([[1, 2], None, []], pa.list_(pa.int32())),
        "m": pa.array([[("k", 1)], None, []], pa.map_(pa.string(), pa.int32())),
        "st": pa.array([{"x": 1, "y": "a"}, None, {"x": None, "y": "b"}],
                       pa.struct([("x", pa.int16()), ("y", pa.string())])),
        "fsb": pa.array([b"abcd", None, b"efgh"], pa.binary(4)),
    })
    schema = t.schema.set(0, pa.field("id", pa.int64(), metadata={b"PARQUET:field_id": b"7"}))
    pq.write_table(t.cast(schema), f"{folder}/types.parquet")

    # 100 required int64 values, a page per 10 (one write batch each, the page size tiny).
    ints = pa.table({"v": pa.array(range(100), pa.int64())}).cast(
        pa.schema([pa.field("v", pa.int64(), nullable=False)]))
    pq.write_table(ints, f"{folder}/tiny_v1.parquet", data_page_size=1, write_batch_size=10,
                   use_dictionary=False, compression="none", write_statistics=True)
    pq.write_table(ints, f"{folder}/tiny_v2.parquet", data_page_size=1, write_batch_size=10,
                   use_dictionary=True, compression="snappy", data_page_version="2.0",
                   write_page_checksum=True)

    # A dictionary<uint8> column over 300 row groups of one row: batches that span row groups
    # join 300 dictionaries of the same 2 values, more than u8 keys index side by side.
    d = pa.array(["x", "y"] * 150).dictionary_encode().cast(
        pa.dictionary(pa.uint8(), pa.string()))
    pq.write_table(pa.table({"d": d}), f"{folder}/dict_groups.parquet", row_group_size=1)

    # Two row groups, a few codecs and statistics, sorted on `k`.
    n = 1000
    stats = pa.table({
        "k": pa.array(range(n), pa.int32()),
        "name": pa.array([f"n{i % 37:03d}" if i % 5 else None for i in range(n)]),
        "x": pa.array([i * 0.5 - 100 for i in range(n)], pa.float64()),
        "when": pa.array([datetime.date(2020, 1, 1) + datetime.timedelta(days=i)
                          for i in range(n)], pa.date32()),
    })
    pq.write_table(stats, f"{folder}/stats.parquet", row_group_size=600,
                   compression={"k": "zstd", "name": "snappy", "x": "gzip", "when": "none"},
                   sorting_columns=[pq.SortingColumn(0)], write_page_index=True,
                   bloom_filter_options={"name": {}} if bloom_supported() else None)


def bloom_supported():
    import inspect
    return "bloom_filter_options" in inspect.signature(pq.ParquetWriter.__init__).parameters \
        or "bloom_filter_options" in (pq.ParquetWriter.__init__.__doc__ or "")


def read_ipc(path):
    with open(path, "rb") as f:
        head = f.read(6)
    if head == b"ARROW1":
        return ipc.open_file(path).read_all()
    return ipc.open_stream(path).read_all()


def decoded(table):
    """`table` with top-level dictionary columns as their values: pyarrow compares dictionary
    arrays by dictionary and indices, and batches cut elsewhere carry other dictionaries."""
    columns = [c.cast(c.type.value_type) if pa.types.is_dictionary(c.type) else c
               for c in table.columns]
    return pa.table(columns, names=table.column_names)


def same(pairs):
    failures = []
    for pair in pairs:
        source, output = pair.split("=", 1)
        columns = None
        if "#" in source:
            source, cols = source.split("#", 1)
            columns = cols.split(",")
        if columns and any("." in c for c in columns):
            # Dotted paths into structs, as ParquetFile.read selects them.
            expected = pq.ParquetFile(source).read(columns=columns)
        else:
            expected = pq.read_table(source, columns=columns)
        actual = read_ipc(output)
        if not actual.schema.equals(expected.schema, check_metadata=False):
            failures.append(f"{source}: schema\n{actual.schema}\n!=\n{expected.schema}")
        elif not actual.equals(expected) and not decoded(actual).equals(decoded(expected)):
            failures.append(f"{source}: values differ")
    print(f"{len(pairs)} files checked")
    if failures:
        print("\n".join(failures))
        sys.exit(1)


def fields(path):
    for f in pq.read_schema(path):
        # pyarrow names a map's entries field when it is not "entries" (`map<k, v ('m')>`);
        # quiver's type spelling does not (its `schema` shows the field on the next line).
        typ = re.sub(r" \('[^']*'\)>$", ">", str(f.type))
        print(f"  {f.name}: {typ}{'' if f.nullable else ' not null'}")


ANNOTATIONS = {"String": "STRING", "List": "LIST", "Map": "MAP", "Date": "DATE", "Enum": "ENUM",
               "JSON": "JSON", "BSON": "BSON", "UUID": "UUID", "Float16": "FLOAT16",
               "Null": "UNKNOWN", "Interval": "INTERVAL"}
UNITS = {"milliseconds": "MILLIS", "microseconds": "MICROS", "nanoseconds": "NANOS"}


def annotation(a):
    if a in ANNOTATIONS:
        return ANNOTATIONS[a]
    args = dict(re.findall(r"(\w+)=([\w.-]+)", a))
    if a.startswith("Int("):
        return f"INTEGER({args['bitWidth']},{args['isSigned']})"
    if a.startswith("Decimal("):
        return f"DECIMAL({args['precision']},{args['scale']})"
    if a.startswith("Timestamp(") or a.startswith("Time("):
        name = "TIMESTAMP" if a.startswith("Timestamp(") else "TIME"
        return f"{name}({UNITS[args['timeUnit']]},{args['isAdjustedToUTC']})"
    raise SystemExit(f"annotation {a!r} has no parquet-mr spelling here")


NODE = re.compile(r"^(\s*)(required|optional|repeated) (group|\S+) field_id=(-?\d+) (\S+?)"
                  r"(?: \((.+)\))?( \{|;)$")


def tree(path):
    text = str(pq.ParquetFile(path).schema)
    out = []
    for line in text.splitlines()[1:]:
        if line.strip() == "}":
            out.append(line)
            continue
        m = NODE.match(line)
        if not m:
            raise SystemExit(f"cannot parse {line!r}")
        indent, rep, typ, fid, name, ann, end = m.groups()
        ann = f" ({annotation(ann)})" if ann else ""
        fid = "" if fid == "-1" else f" = {fid}"
        if not indent:
            out.append(f"message {name}{ann}{fid} {{")
        elif typ == "group":
            out.append(f"{indent}{rep} group {name}{ann}{fid} {{")
        else:
            out.append(f"{indent}{rep} {typ} {name}{ann}{fid};")
    print("\n".join(out))


def show(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, bytes):
        return "0x" + v.hex()
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    return str(v)


def meta(path):
    md = pq.ParquetFile(path).metadata
    for g in range(md.num_row_groups):
        rg = md.row_group(g)
        for c in range(rg.num_columns):
            col = rg.column(c)
            s = col.statistics
            has = s is not None and s.has_min_max
            print(json.dumps({
                "row_group": g, "column": c, "path": col.path_in_schema,
                "rows": rg.num_rows,
                "type": col.physical_type, "codec": col.compression,
                "encodings": sorted(col.encodings),
                "compressed": col.total_compressed_size,
                "uncompressed": col.total_uncompressed_size,
                "values": col.num_values,
                "nulls": s.null_count if s is not None and s.has_null_count else None,
                "min": show(s.min) if has else None,
                "max": show(s.max) if has else None,
                "column_index": col.has_column_index,
                "offset_index": col.has_offset_index,
                "bloom": col.bloom_filter_offset,
            }))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "write":
        write(args[0])
    elif cmd == "ipc":
        with ipc.new_file(args[1], pq.read_schema(args[0])) as w:
            w.write_table(pq.read_table(args[0]))
    elif cmd == "same":
        same(args)
    elif cmd == "fields":
        fields(args[0])
    elif cmd == "tree":
        tree(args[0])
    elif cmd == "meta":
        meta(args[0])
    else:
        raise SystemExit(f"unknown subcommand {cmd}")


main()
