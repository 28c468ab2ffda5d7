"""Writes the inputs of the Parquet merge tests (issue #15) into the folder argv[1]: one folder
per case holding its input files (`000.parquet`, `001.parquet`, ...: name order is merge order)
and `case.json`, what merge_check.py expects of the merged file:

    {"expect": "ok" | "error", "error_contains": [...],   # for errors: field and file names
     "target_rows": N,              # a coalescing target that makes the case coalesce something
     "sorted_by": [...], "sorted_survives_coalesce": bool,
     "bloom_columns": [...], "bloom_rebuilt": [...], "mixed_codecs": bool, "dictionary_page_limit": bytes,
     "writers": [...], "about": "..."}

    python3 merge_inputs.py OUTDIR [--only NAME,...] [--no-spark]

Data is deterministic (fixed seeds). Spark cases use one local session; without pyspark (or
with --no-spark) they are left out with a message, unless CI=true, where that is an error.
Every case asserts here that its inputs have the property it is for (e.g. a chunk with
dictionary and PLAIN pages), using merge_thrift's view of the footer and pages.
"""
import datetime
import decimal
import json
import os
import random
import sys

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import merge_thrift as T  # noqa: E402

OUT = None
ONLY = None
UTC = datetime.timezone.utc


def wanted(name):
    return ONLY is None or name in ONLY


def case_dir(name):
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    return d


def finish(name, **flags):
    flags.setdefault("expect", "ok")
    with open(os.path.join(case_dir(name), "case.json"), "w") as f:
        json.dump(flags, f, indent=1, sort_keys=True)


def path(name, i):
    return os.path.join(case_dir(name), f"{i:03}.parquet")


def nul(rng, v, p=0.1):
    return None if rng.random() < p else v


def types_table(n, seed, start=0):
    """Flat columns of every type pyarrow writes, nulls in all but `req`."""
    r = random.Random(seed)
    ids = list(range(start, start + n))
    f = [float("nan") if i % 17 == 0 else (-0.0 if i % 23 == 0 else (i % 1000) / 8) for i in ids]
    big = [decimal.Decimal(i * 1000003) / 1000 for i in ids]
    base = datetime.datetime(2020, 1, 1)
    cols = {
        "id": pa.array(ids, pa.int64()),
        "req": pa.array([i % 10 for i in ids], pa.int32()),
        "i8": pa.array([nul(r, i % 256 - 128) for i in ids], pa.int8()),
        "i16": pa.array([nul(r, i * 31 % 65536 - 32768) for i in ids], pa.int16()),
        "i32": pa.array([nul(r, i * 7919 % 100003 - 50000) for i in ids], pa.int32()),
        "u8": pa.array([nul(r, i % 256) for i in ids], pa.uint8()),
        "u16": pa.array([nul(r, i * 31 % 65536) for i in ids], pa.uint16()),
        "u32": pa.array([nul(r, i * 2654435761 % 2**32) for i in ids], pa.uint32()),
        "u64": pa.array([nul(r, 2**64 - 1 - i * 1000003) for i in ids], pa.uint64()),
        "f16": pa.array([nul(r, v) for v in f], pa.float32()).cast(pa.float16()),
        "f32": pa.array([nul(r, v) for v in f], pa.float32()),
        "f64": pa.array([nul(r, v) for v in f], pa.float64()),
        "dec32": pa.array([nul(r, decimal.Decimal(i % 100000) / 100) for i in ids],
                          pa.decimal128(7, 2)),
        "dec64": pa.array([nul(r, v) for v in big], pa.decimal128(15, 3)),
        "dec_flba": pa.array([nul(r, -v * 7) for v in big], pa.decimal128(30, 5)),
        "date": pa.array([nul(r, i * 37 - 30000) for i in ids], pa.int32()).cast(pa.date32()),
        "ts_ms": pa.array([nul(r, base + datetime.timedelta(seconds=i * 977)) for i in ids],
                          pa.timestamp("ms")),
        "ts_us_utc": pa.array([nul(r, i * 123456789011) for i in ids], pa.timestamp("us", "UTC")),
        "ts_ns_ny": pa.array([nul(r, i * 1234567890123) for i in ids],
                             pa.timestamp("ns", "America/New_York")),
        "t64": pa.array([nul(r, i * 1000003 % 86400000000) for i in ids], pa.time64("us")),
        "s": pa.array([nul(r, "" if i % 13 == 0 else f"value-{i % 97}") for i in ids]),
        "ls": pa.array([nul(r, f"large-{i % 31}") for i in ids], pa.large_string()),
        "bin": pa.array([nul(r, bytes([i % 256]) * (i % 5)) for i in ids], pa.binary()),
        "fsb": pa.array([nul(r, (i * 40503 % 2**24).to_bytes(3, "little")) for i in ids],
                        pa.binary(3)),
        "b": pa.array([nul(r, i % 3 == 0) for i in ids], pa.bool_()),
        "dict": pa.array([nul(r, f"cat-{i % 7}") for i in ids]).dictionary_encode(),
    }
    schema = pa.schema([pa.field(k, v.type, nullable=k != "req") for k, v in cols.items()])
    return pa.table(list(cols.values()), schema=schema)


def nested_table(n, seed, start=0):
    r = random.Random(seed)
    ids = range(start, start + n)

    def li(i):
        return nul(r, [nul(r, i * 10 + j, 0.2) for j in range(i % 4)], 0.15)

    def ls(i):
        return nul(r, [nul(r, {"a": nul(r, i + j), "b": nul(r, f"b{j}")}, 0.2)
                       for j in range(i % 3)], 0.15)

    def st(i):
        return nul(r, {"x": nul(r, {"y": nul(r, i, 0.3)}, 0.2), "z": nul(r, f"z{i % 11}")}, 0.15)

    def m(i):
        return nul(r, [(f"k{j}", nul(r, i * j, 0.25)) for j in range(i % 4)], 0.15)

    def ll(i):
        return nul(r, [nul(r, [nul(r, f"s{i % 5}{k}", 0.2) for k in range(j % 3)], 0.2)
                       for j in range(i % 3 + 1)], 0.15)

    struct_ab = pa.struct([("a", pa.int32()), ("b", pa.string())])
    return pa.table({
        "id": pa.array(ids, pa.int64()),
        "li": pa.array([li(i) for i in ids], pa.list_(pa.int32())),
        "ls": pa.array([ls(i) for i in ids], pa.list_(struct_ab)),
        "st": pa.array([st(i) for i in ids],
                       pa.struct([("x", pa.struct([("y", pa.int32())])), ("z", pa.string())])),
        "m": pa.array([m(i) for i in ids], pa.map_(pa.string(), pa.int32())),
        "ll": pa.array([ll(i) for i in ids], pa.list_(pa.list_(pa.string()))),
    })


def simple_table(n, start=0, seed=1, strings=lambda i: f"v{i % 50}"):
    r = random.Random(seed)
    ids = range(start, start + n)
    return pa.table({
        "id": pa.array(ids, pa.int64()),
        "x": pa.array([nul(r, i * 0.5) for i in ids], pa.float64()),
        "s": pa.array([nul(r, strings(i)) for i in ids], pa.string()),
        "k": pa.array([nul(r, i % 100) for i in ids], pa.int32()),
    })


def meta_of(p):
    with open(p, "rb") as f:
        buf = f.read()
    return buf, T.footer(buf)[0]


def chunks(p):
    """(buf, ColumnChunk) of every chunk of a file."""
    buf, meta = meta_of(p)
    return [(buf, cc) for rg in meta[4] for cc in rg[1]]


def require(cond, what):
    if not cond:
        raise SystemExit(f"merge_inputs.py: an input does not have its property: {what}")


def pyarrow_cases():
    for codec in ["snappy", "gzip", "zstd", "brotli", "lz4_raw", "none"]:
        name = f"codec-{codec}"
        if wanted(name):
            for i in range(3):
                pq.write_table(types_table(700, i, i * 700), path(name, i), compression=codec,
                               row_group_size=300, store_decimal_as_integer=True)
            finish(name, target_rows=1000, about=f"types table, every file {codec}")
    if wanted("codecs-mixed"):
        codecs = ["snappy", "gzip", "zstd", "brotli", "lz4_raw", "none"]
        for i, codec in enumerate(codecs):
            pq.write_table(types_table(400, 10 + i, i * 400), path("codecs-mixed", i),
                           compression=codec, row_group_size=250, store_decimal_as_integer=True)
        finish("codecs-mixed", mixed_codecs=True, target_rows=2000,
               about="one codec per file: " + ", ".join(codecs))
    for name, versions in [("pages-v1", ["1.0"] * 3), ("pages-v2", ["2.0"] * 3),
                           ("pages-mixed", ["1.0", "2.0", "1.0", "2.0"])]:
        if wanted(name):
            for i, v in enumerate(versions):
                t = types_table(500, 20 + i, i * 500).append_column(
                    "nested", nested_table(500, i).column("ls"))
                pq.write_table(t, path(name, i), data_page_version=v, row_group_size=200,
                               data_page_size=2000, store_decimal_as_integer=True)
            finish(name, target_rows=1000, about=f"data page versions {versions}")
    if wanted("pages-v2-empty"):
        # pyarrow cuts pages of a list column by bytes and leaves some of no values; joined
        # with a v1 file, they are written as v1 pages, which hold their levels' lengths.
        rng = random.Random(0)
        vals = [None if rng.random() < 0.2 else
                [nul(rng, rng.choice("abc"), 0.3) for _ in range(rng.choice([0, 1, 2, 5]))]
                for _ in range(100)]
        t = pa.table({"l": pa.array(vals, pa.list_(pa.string()))})
        pq.write_table(t, path("pages-v2-empty", 0), data_page_version="1.0")
        pq.write_table(t, path("pages-v2-empty", 1), data_page_version="2.0",
                       data_page_size=100, write_batch_size=10, compression="none")
        require(any(p["type"] == T.DATA_PAGE_V2 and p["header"][8][1] == 0
                    for b, cc in chunks(path("pages-v2-empty", 1))
                    for p in T.walk_pages(b, cc[3])),
                "pages-v2-empty: a data page v2 of no values")
        finish("pages-v2-empty", target_rows=1000,
               about="a v1 file, then a v2 file with data pages of no values (list<string>)")
    if wanted("dict-fallback"):
        for i in range(3):
            t = simple_table(3000, i * 3000, strings=lambda j: f"value-{j % 900:05}")
            pq.write_table(t, path("dict-fallback", i), dictionary_pagesize_limit=2000,
                           write_batch_size=100, data_page_size=1000, row_group_size=1500)
        require(any({8} <= e and any(T.page_encodings(p) == {0, 3} for p in T.walk_pages(b, cc[3]))
                    for b, cc in chunks(path("dict-fallback", 0))
                    for e in [{x for p in T.walk_pages(b, cc[3]) for x in T.page_encodings(p)}]),
                "dict-fallback: a chunk with dictionary and PLAIN data pages")
        finish("dict-fallback", target_rows=6000,
               about="dictionary pages then PLAIN pages in one chunk (dictionary past its limit)")
    dict_sets = {
        "dict-identical": lambda i, j: f"same-{j % 50:03}",
        "dict-overlap": lambda i, j: f"ov-{i * 30 + j % 60:03}",
        "dict-disjoint": lambda i, j: f"file{i}-{j % 40:03}",
    }
    for name, fn in dict_sets.items():
        if wanted(name):
            for i in range(3):
                t = simple_table(1200, i * 1200, seed=i, strings=lambda j, i=i: fn(i, j))
                pq.write_table(t, path(name, i), row_group_size=400)
            finish(name, target_rows=3600,
                   about=f"string dictionaries {name[5:]} across files")
    if wanted("dict-large"):
        for i in range(3):
            t = simple_table(5000, i * 5000, seed=i,
                             strings=lambda j, i=i: f"f{i}-{j:06}-" + "x" * 90)
            pq.write_table(t, path("dict-large", i), row_group_size=5000)
        for b, cc in chunks(path("dict-large", 0)):
            if cc[3][3].items == [b"s"]:
                d = T.walk_pages(b, cc[3])[0]
                require(d["type"] == T.DICTIONARY_PAGE and 400_000 < d["header"][2] < 1 << 20,
                        "dict-large: a dictionary page of 400 KiB-1 MiB")
        finish("dict-large", dictionary_page_limit=1 << 20, target_rows=15000,
               about="3 string dictionaries of ~490 KiB: merged they pass 1 MiB")
    if wanted("dict-large-repeats"):
        # As dict-large, but each file repeats a few of its values (about 1 in 60, none in
        # the first file, some at the very end) among nulls: the pages of the files after the
        # one whose dictionary passes the merged dictionary's limit are made PLAIN from their
        # dictionary page's Snappy stream with the repeats inserted (codec::snappy::gather),
        # not compressed again.
        for i in range(5):
            rng = random.Random(60 + i)
            vals = [f"f{i}-{j:06}-" + "y" * (60 + j % 40) for j in range(5000)]
            if i > 0:
                for j in rng.sample(range(1, 5000), 80):
                    vals[j] = vals[rng.randrange(j)]
                vals[-1] = vals[0]
            vals = [None if rng.random() < 0.05 else v for v in vals]
            t = pa.table({"id": pa.array(range(i * 5000, (i + 1) * 5000), pa.int64()),
                          "s": pa.array(vals, pa.string())})
            pq.write_table(t, path("dict-large-repeats", i), row_group_size=5000)
            present = [v for v in vals if v is not None]
            require(i == 0 or 0 < len(present) - len(set(present)) <= len(present) // 32,
                    "dict-large-repeats: a few repeated values")
        finish("dict-large-repeats", dictionary_page_limit=1 << 20, target_rows=25000,
               about="5 string dictionaries of ~400 KiB with a few repeats: merged they pass "
                     "1 MiB")
    if wanted("nested"):
        for i in range(3):
            pq.write_table(nested_table(900, 30 + i, i * 900), path("nested", i),
                           row_group_size=300, max_rows_per_page=100, write_page_index=True)
        finish("nested", target_rows=2000,
               about="list<int>, list<struct>, struct<struct> with nulls at every level, "
                     "map<string,int>, list<list<string>>; page index")
    if wanted("types"):
        for i in range(3):
            pq.write_table(types_table(1000, 40 + i, i * 1000), path("types", i),
                           row_group_size=400, write_page_index=True, max_rows_per_page=150,
                           store_decimal_as_integer=True)
        finish("types", target_rows=2500, about="every flat type pyarrow writes; page index")
    if wanted("encodings-mixed"):
        t = [simple_table(1500, i * 1500, seed=i) for i in range(4)]
        pq.write_table(t[0], path("encodings-mixed", 0), row_group_size=500)
        pq.write_table(t[1], path("encodings-mixed", 1), use_dictionary=False,
                       column_encoding={"id": "DELTA_BINARY_PACKED", "x": "BYTE_STREAM_SPLIT",
                                        "s": "DELTA_BYTE_ARRAY", "k": "DELTA_BINARY_PACKED"})
        pq.write_table(t[2], path("encodings-mixed", 2), use_dictionary=False,
                       column_encoding={"s": "DELTA_LENGTH_BYTE_ARRAY"}, write_statistics=False)
        pq.write_table(t[3], path("encodings-mixed", 3), use_dictionary=["s"],
                       data_page_version="2.0")
        finish("encodings-mixed", target_rows=6000,
               about="dictionary, DELTA_*, BYTE_STREAM_SPLIT per file; one file without statistics")


def metadata_cases():
    if wanted("page-index"):
        for i in range(3):
            t = simple_table(2000, i * 2000, seed=i)
            pq.write_table(t, path("page-index", i), write_page_index=True, row_group_size=700,
                           max_rows_per_page=100, data_page_version=["1.0", "2.0"][i % 2])
        finish("page-index", target_rows=3000,
               about="column and offset indexes, ~7 pages per chunk, v1 and v2 pages")
    if wanted("page-index-partial"):
        for i in range(3):
            pq.write_table(simple_table(1000, i * 1000, seed=i), path("page-index-partial", i),
                           write_page_index=i != 1, max_rows_per_page=200, row_group_size=500)
        finish("page-index-partial", target_rows=3000, about="the middle file has no page index")
    if wanted("bloom-pyarrow"):
        opts = {"s": {"ndv": 200, "fpp": 0.01}, "k": {"ndv": 200, "fpp": 0.01}}
        for i in range(3):
            pq.write_table(simple_table(1500, i * 1500, seed=i, strings=lambda j: f"b{j % 300}"),
                           path("bloom-pyarrow", i), bloom_filter_options=opts,
                           row_group_size=500)
        require(all(cc[3].get(14) for _, cc in chunks(path("bloom-pyarrow", 0))
                    if cc[3][3].items[0] in (b"s", b"k")), "bloom-pyarrow: bloom filters")
        finish("bloom-pyarrow", bloom_columns=["s", "k"], target_rows=4500,
               about="pyarrow's bloom_filter_options on s and k")
    if wanted("bloom-partial"):
        for i in range(2):
            pq.write_table(simple_table(1000, i * 1000, seed=i), path("bloom-partial", i),
                           bloom_filter_options={"s": True} if i == 0 else None)
        finish("bloom-partial", target_rows=500,
               about="only the first file has a bloom filter on s")
    if wanted("bloom-rebuilt"):
        # Joined, the middle file's row group (no filters) and the others' cannot be united:
        # the merged filters are rebuilt from the values (DuckDB probes them).
        opts = {"s": {"ndv": 300, "fpp": 0.01}, "k": {"ndv": 300, "fpp": 0.01}}
        for i in range(3):
            t = simple_table(1000, i * 1000, seed=i, strings=lambda j: f"r{j % 400}")
            pq.write_table(t, path("bloom-rebuilt", i), row_group_size=1000,
                           bloom_filter_options=None if i == 1 else opts,
                           use_dictionary=i != 1,
                           column_encoding={"s": "DELTA_BYTE_ARRAY",
                                            "k": "DELTA_BINARY_PACKED"} if i == 1 else None)
        finish("bloom-rebuilt", bloom_rebuilt=["s", "k"], target_rows=3000,
               about="bloom filters on s and k in the first and last file, none in the "
                     "middle one (DELTA pages): rebuilt when joined")
    sorted_cases()
    if wanted("kv-meta"):
        for i in range(3):
            t = simple_table(500, i * 500, seed=i)
            kv = {"shared": "same everywhere", "owner": f"file-{i}"}
            if i == 2:
                kv["late"] = "only in the last file"
            pq.write_table(t.replace_schema_metadata(kv), path("kv-meta", i))
        finish("kv-meta", about="key 'shared' identical, 'owner' conflicting (file 0 wins), "
                                "'late' only in the last file")
    if wanted("field-ids"):
        def fid(name, ty, n, nullable=True):
            return pa.field(name, ty, nullable, metadata={"PARQUET:field_id": str(n)})
        item = pa.list_(fid("element", pa.int32(), 4))
        schema = pa.schema([fid("id", pa.int64(), 1), fid("name", pa.string(), 2),
                            fid("vals", item, 3),
                            fid("pt", pa.struct([fid("x", pa.float64(), 6),
                                                 fid("y", pa.float64(), 7)]), 5)])
        for i in range(3):
            n = 400
            t = pa.table([pa.array(range(i * n, i * n + n), pa.int64()),
                          pa.array([f"n{j % 9}" for j in range(n)]),
                          pa.array([[j, j + 1] for j in range(n)], item),
                          pa.array([{"x": j / 2, "y": None} for j in range(n)], schema[3].type)],
                         schema=schema)
            pq.write_table(t, path("field-ids", i), row_group_size=200)
        finish("field-ids", target_rows=1200, about="PARQUET:field_id on every field, nested too")


def sorted_cases():
    def sc(col, desc=False, nulls_first=False):
        return {"column": col, "descending": desc, "nulls_first": nulls_first}

    def write(name, tables, keys):
        cols = [pq.SortingColumn(tables[0].column_names.index(k["column"]), k["descending"],
                                 k["nulls_first"]) for k in keys]
        for i, t in enumerate(tables):
            pq.write_table(t, path(name, i), sorting_columns=cols, row_group_size=400,
                           write_page_index=True)

    if wanted("sorted-continuous"):
        write("sorted-continuous", [simple_table(1000, i * 1000, i) for i in range(3)], [sc("id")])
        finish("sorted-continuous", sorted_by=[sc("id")], sorted_survives_coalesce=True,
               target_rows=3000, about="ids ascending within and across files")
    if wanted("sorted-overlap"):
        write("sorted-overlap", [simple_table(1000, i * 300, i) for i in range(3)], [sc("id")])
        finish("sorted-overlap", sorted_by=[sc("id")], sorted_survives_coalesce=False,
               target_rows=3000, about="each file sorted, ranges overlap: concatenation is not")
    if wanted("sorted-nulls"):
        ts = []
        for i in range(3):
            ids = list(range(i * 1000, i * 1000 + 990)) + [None] * 10
            ts.append(pa.table({"id": pa.array(ids, pa.int64()),
                                "s": pa.array([f"s{j}" for j in range(1000)])}))
        write("sorted-nulls", ts, [sc("id")])
        finish("sorted-nulls", sorted_by=[sc("id")], sorted_survives_coalesce=False,
               target_rows=3000, about="nulls last in each file: concatenation puts nulls "
                                       "in the middle although max(file i) < min(file i+1)")
    if wanted("sorted-float-nan"):
        # Ascending doubles, NaN last (as quiver and pyarrow sort them): min/max leave NaN out,
        # so max(file i) < min(file i+1) although file i ends in NaN.
        ts = [pa.table({"x": pa.array([i * 10.0 + j for j in range(9)] + [float("nan")]),
                        "n": pa.array(range(10), pa.int32())}) for i in range(3)]
        write("sorted-float-nan", ts, [sc("x")])
        finish("sorted-float-nan", sorted_by=[sc("x")], sorted_survives_coalesce=False,
               target_rows=3000, about="doubles ascending, NaN last in each file: the "
                                       "concatenation is not sorted")
    if wanted("sorted-multi"):
        ts = []
        for i in range(3):
            n = 600
            ts.append(pa.table({"s": pa.array([f"note{j}" for j in range(n)]),
                                "a": pa.array([i] * n, pa.int32()),
                                "b": pa.array(range(n, 0, -1), pa.int64())}))
        keys = [sc("a"), sc("b", desc=True)]
        write("sorted-multi", ts, keys)
        finish("sorted-multi", sorted_by=keys, sorted_survives_coalesce=True, target_rows=1800,
               about="sorted by (a asc, b desc), a = file number; sorting column 1 and 2")


def schema_cases():
    if wanted("schema-reordered"):
        for i in range(3):
            t = nested_table(500, 50 + i, i * 500)
            names = t.column_names[::-1] if i == 1 else t.column_names[1:] + t.column_names[:1]
            pq.write_table(t.select(names if i else t.column_names), path("schema-reordered", i))
        finish("schema-reordered", target_rows=1500,
               about="top-level columns in other orders (output: the first file's)")
    if wanted("schema-missing-nullable"):
        for i in range(3):
            t = nested_table(500, 60 + i, i * 500)
            if i == 1:
                t = t.drop(["st", "li"])
            pq.write_table(t, path("schema-missing-nullable", i))
        finish("schema-missing-nullable", target_rows=1500,
               about="the middle file lacks the nullable list li and struct st")
    if wanted("schema-new-column"):
        for i in range(3):
            t = simple_table(500, i * 500, seed=i)
            if i >= 1:
                t = t.append_column("added", pa.array([f"new{j}" for j in range(500)],
                                                      pa.large_string()))
            if i == 2:
                t = t.append_column("later", nested_table(500, 1).column("st"))
            pq.write_table(t, path("schema-new-column", i))
        finish("schema-new-column", target_rows=1500,
               about="'added' (large_string: the ARROW:schema must gain it) from the second "
                     "file on, the struct 'later' only in the third")
    if wanted("arrow-layouts"):
        # Arrow types that read the same stored values alike: the first file's are kept.
        n = 200
        words = [f"w{i % 7}" for i in range(n)]
        lists = [[i, i + 1] if i % 5 else None for i in range(n)]
        for i, (st, lt, dt) in enumerate([
                (pa.string(), pa.list_(pa.int64()), pa.dictionary(pa.int32(), pa.string())),
                (pa.large_string(), pa.large_list(pa.int64()), pa.string())]):
            pq.write_table(pa.table({"s": pa.array(words, st), "l": pa.array(lists, lt),
                                     "d": pa.array(words).cast(dt)}), path("arrow-layouts", i))
        finish("arrow-layouts", target_rows=400,
               about="string/large_string, list/large_list, dictionary/plain string")
    if wanted("dict-int8-widened"):
        # pandas-style categoricals (int8 keys) of 100 values each: joined, a row group holds
        # 200, more than int8 indexes; the merged ARROW:schema's keys must be wider.
        for i in range(2):
            vals = pa.array([f"c{i}-{j:03}" for j in range(100)])
            keys = pa.array([j % 100 for j in range(300)], pa.int8())
            pq.write_table(pa.table({"c": pa.DictionaryArray.from_arrays(keys, vals)}),
                           path("dict-int8-widened", i))
        finish("dict-int8-widened", target_rows=600, arrow_keys_widened=["c"],
               about="dictionary<int8> columns of 100 values each, joined into one row group")
    for name, rows, widen in [("dict-int8-plain-kept", 30, []),
                              ("dict-int8-plain-widened", 100, ["c"])]:
        if not wanted(name):
            continue
        # dictionary<int8> columns, the middle file's pages PLAIN (not dictionary-encoded):
        # its values count towards the distinct values a merged row group may hold. Few rows
        # in all stay within int8's keys; more must widen them.
        for i in range(3):
            vals = pa.array([f"p{i}-{j:03}" for j in range(20 if rows == 30 else 100)])
            keys = pa.array([j % len(vals) for j in range(rows)], pa.int8())
            pq.write_table(pa.table({"c": pa.DictionaryArray.from_arrays(keys, vals)}),
                           path(name, i), use_dictionary=(i != 1))
        finish(name, target_rows=600, arrow_keys_widened=widen,
               about=f"dictionary<int8> columns of {rows} rows, one file's pages PLAIN, "
                     "joined into one row group")
    if wanted("dict-int8-plain-own-keys"):
        # PLAIN pages only, 200 rows over 100 values per file: copied as they are (verbatim),
        # each row group holds what its own int8 keys index, so the keys stay; joined, the
        # 400 values may not fit, so they widen.
        for i in range(2):
            vals = pa.array([f"o{i}-{j:03}" for j in range(100)])
            keys = pa.array([j % 100 for j in range(200)], pa.int8())
            pq.write_table(pa.table({"c": pa.DictionaryArray.from_arrays(keys, vals)}),
                           path("dict-int8-plain-own-keys", i), use_dictionary=False)
        finish("dict-int8-plain-own-keys", target_rows=600, arrow_keys_widened=["c"],
               about="dictionary<int8> columns in PLAIN pages of 200 rows: kept when copied, "
                     "widened when joined")
    if wanted("dict-int8-nested-widened"):
        # The same inside a list and a struct: the keys of nested dictionaries widen too.
        for i in range(2):
            vals = pa.array([f"n{i}-{j:03}" for j in range(100)])
            d = pa.DictionaryArray.from_arrays(pa.array([j % 100 for j in range(300)],
                                                        pa.int8()), vals)
            offsets = pa.array(range(0, 301, 3), pa.int32())
            t = pa.table({"l": pa.ListArray.from_arrays(offsets, d),
                          "s": pa.StructArray.from_arrays([d.slice(0, 100)], ["d"])})
            pq.write_table(t, path("dict-int8-nested-widened", i))
        finish("dict-int8-nested-widened", target_rows=600, arrow_keys_widened=["l", "s"],
               about="list<dictionary<int8>> and struct<d: dictionary<int8>> of 100 values "
                     "each, joined into one row group")
    if wanted("tz-names"):
        for i, tz in enumerate(["UTC", "Europe/Paris", "America/New_York"]):
            t = pa.table({"id": pa.array(range(i * 100, i * 100 + 100), pa.int64()),
                          "ts": pa.array([j * 3600 * 10**6 for j in range(100)],
                                         pa.timestamp("us", tz))})
            pq.write_table(t, path("tz-names", i))
        finish("tz-names", target_rows=300, about="same Parquet type, ARROW:schema time zones "
                                                  "differ (the first file's wins)")


def shape_cases():
    if wanted("many-tiny"):
        for i in range(200):
            pq.write_table(simple_table(50, i * 50, seed=i), path("many-tiny", i))
        finish("many-tiny", target_rows=2000, about="200 files of one 50-row row group")
    if wanted("empty-files"):
        t = nested_table(300, 70)
        for i, n in enumerate([0, 300, 0, 300, 0]):
            pq.write_table(t.slice(0, n), path("empty-files", i))
        finish("empty-files", target_rows=1000, about="files of 0 rows first, between and last")
    if wanted("all-empty"):
        for i in range(2):
            pq.write_table(simple_table(0), path("all-empty", i))
        finish("all-empty", about="two files of 0 rows")
    if wanted("single-input"):
        pq.write_table(types_table(1000, 80), path("single-input", 0), row_group_size=300,
                       store_decimal_as_integer=True)
        finish("single-input", target_rows=10000, about="one input file")


def error_cases():
    def two(name, a, b, contains, about):
        if wanted(name):
            pq.write_table(a, path(name, 0))
            pq.write_table(b, path(name, 1))
            finish(name, expect="error", error_contains=contains, about=about)

    n = 100
    ids = pa.array(range(n), pa.int64())
    two("err-type", pa.table({"id": ids, "amount": pa.array(range(n), pa.int64())}),
        pa.table({"id": ids, "amount": pa.array([str(i) for i in range(n)])}),
        ["amount", "001.parquet"], "amount is int64, then string")
    two("err-decimal-scale",
        pa.table({"id": ids, "price": pa.array([decimal.Decimal(i) for i in range(n)],
                                               pa.decimal128(10, 2))}),
        pa.table({"id": ids, "price": pa.array([decimal.Decimal(i) for i in range(n)],
                                               pa.decimal128(10, 3))}),
        ["price", "001.parquet"], "decimal(10,2) then decimal(10,3): same physical type")
    two("err-timestamp-unit",
        pa.table({"id": ids, "moment": pa.array(range(n), pa.timestamp("ms"))}),
        pa.table({"id": ids, "moment": pa.array(range(n), pa.timestamp("us"))}),
        ["moment", "001.parquet"], "TIMESTAMP(MILLIS) then TIMESTAMP(MICROS): both INT64")
    two("err-timestamp-utc",
        pa.table({"id": ids, "moment": pa.array(range(n), pa.timestamp("us", "UTC"))}),
        pa.table({"id": ids, "moment": pa.array(range(n), pa.timestamp("us"))}),
        ["moment", "001.parquet"], "isAdjustedToUTC true then false")
    # Same Parquet schema, but the first file's ARROW:schema (which the merged file keeps)
    # would read the second file's values otherwise: lists of 3 as pairs, 7 ms as 7 s.
    two("err-arrow-fixed-size-list",
        pa.table({"a": pa.array([[1, 2]] * n, pa.list_(pa.int64(), 2))}),
        pa.table({"a": pa.array([[1, 2, 3], [4]] * (n // 2), pa.list_(pa.int64()))}),
        ["\"a\"", "001.parquet", "000.parquet"],
        "fixed_size_list<int64>[2] then list<int64>: the same 3-level LIST")
    two("err-arrow-duration-unit",
        pa.table({"id": ids, "wait": pa.array(range(n), pa.duration("s"))}),
        pa.table({"id": ids, "wait": pa.array(range(n), pa.duration("ms"))}),
        ["wait", "001.parquet", "000.parquet"], "duration[s] then duration[ms]: both INT64")
    if wanted("err-arrow-third"):
        # The first two files store the same ARROW:schema bytes (decoded once); the third's
        # differs, and is the one named.
        t = pa.table({"id": ids, "wait": pa.array(range(n), pa.duration("s"))})
        pq.write_table(t, path("err-arrow-third", 0))
        pq.write_table(t, path("err-arrow-third", 1))
        pq.write_table(pa.table({"id": ids, "wait": pa.array(range(n), pa.duration("ms"))}),
                       path("err-arrow-third", 2))
        finish("err-arrow-third", expect="error",
               error_contains=["wait", "002.parquet", "000.parquet"],
               about="duration[s] twice (the same ARROW:schema), then duration[ms]")
    if wanted("err-arrow-schemaless"):
        # The second file has no ARROW:schema (as DuckDB, Spark and others write): its plain
        # lists would be read through the first file's fixed-size list type.
        pq.write_table(pa.table({"a": pa.array([[1, 2]] * n, pa.list_(pa.int64(), 2))}),
                       path("err-arrow-schemaless", 0))
        pq.write_table(pa.table({"a": pa.array([[1, 2, 3], [4]] * (n // 2),
                                               pa.list_(pa.int64()))}),
                       path("err-arrow-schemaless", 1), store_schema=False)
        finish("err-arrow-schemaless", expect="error",
               error_contains=["\"a\"", "001.parquet", "000.parquet"],
               about="fixed_size_list<int64>[2], then list<int64> without ARROW:schema")
    def with_ids(pairs):
        """A table of int64 columns `name=id` carrying PARQUET:field_id `fid` each."""
        fields = [pa.field(c, pa.int64(), metadata={"PARQUET:field_id": str(fid)})
                  for c, fid in pairs]
        return pa.table([ids] * len(fields), schema=pa.schema(fields))
    two("err-field-id-swapped", with_ids([("a", 1), ("b", 2)]), with_ids([("a", 2), ("b", 1)]),
        ["\"a\"", "field id 2", "field id 1", "001.parquet", "000.parquet"],
        "the same names with swapped field ids: different columns under one name")
    two("err-field-id-renamed", with_ids([("a", 1), ("b", 2)]), with_ids([("a", 1), ("c", 2)]),
        ["\"c\"", "\"b\"", "field id 2", "001.parquet", "000.parquet"],
        "field id 2 named b, then c (a rename): one column under two names")
    def some_ids(pairs):
        fields = [pa.field(c, pa.int64(), metadata=None if fid is None
                           else {"PARQUET:field_id": str(fid)}) for c, fid in pairs]
        return pa.table([ids] * len(fields), schema=pa.schema(fields))
    two("err-field-id-partial-rename", some_ids([("a", 1), ("b", None)]),
        some_ids([("a", None), ("b", 1)]),
        ["\"b\"", "\"a\"", "field id 1", "001.parquet", "000.parquet"],
        "id 1 on a in the first file and on b in the second, no other ids: a rename")
    if wanted("err-field-id-nested-rename"):
        st = pa.struct([pa.field("x", pa.int64(), metadata={"PARQUET:field_id": "1"})])
        pq.write_table(pa.table({"s": pa.array([{"x": 1}] * n, st)}),
                       path("err-field-id-nested-rename", 0))
        pq.write_table(with_ids([("a", 1)]), path("err-field-id-nested-rename", 1))
        finish("err-field-id-nested-rename", expect="error",
               error_contains=["\"a\"", "\"x\" within it", "001.parquet", "000.parquet"],
               about="id 1 on struct child s.x, then on a top-level column a")
    if wanted("field-ids-later"):
        # The first input has no ids: the merged file takes the second's.
        pq.write_table(pa.table({"a": ids, "b": ids}), path("field-ids-later", 0))
        pq.write_table(with_ids([("a", 1), ("b", 2)]), path("field-ids-later", 1))
        finish("field-ids-later", target_rows=200, about="ids only in the second input")
    if wanted("field-ids-partial"):
        # Ids in one input only are no conflict: the first input's elements are kept.
        pq.write_table(with_ids([("a", 1), ("b", 2)]), path("field-ids-partial", 0))
        pq.write_table(pa.table({"a": ids, "b": ids}), path("field-ids-partial", 1))
        pq.write_table(with_ids([("a", 1), ("b", 2), ("c", 3)]), path("field-ids-partial", 2))
        finish("field-ids-partial", target_rows=300,
               about="field ids in the first and third inputs, none in the second")
    req = pa.schema([pa.field("id", pa.int64()), pa.field("customer_id", pa.int64(), False)])
    with_req = pa.table([ids, ids], schema=req)
    two("err-required-missing", with_req, pa.table({"id": ids}),
        ["customer_id", "001.parquet"], "a required column missing from the second file")
    two("err-required-new", pa.table({"id": ids}), with_req,
        ["customer_id", "001.parquet"], "a required column only in the second file")
    two("err-nullability", with_req,
        pa.table({"id": ids, "customer_id": ids}),
        ["customer_id", "001.parquet"], "customer_id required, then optional")
    def payload(other):
        ty = pa.struct([("alpha", pa.int32()), (other, pa.int32())])
        return pa.table({"id": ids, "payload": pa.array([{"alpha": i, other: i}
                                                         for i in range(n)], ty)})
    two("err-nested-children", payload("beta"), payload("gamma"),
        ["payload", "001.parquet"], "struct payload{alpha, beta} then payload{alpha, gamma}")
    for name, mangle, about in [
        ("err-truncated", lambda b: b[: len(b) // 2], "the second file cut in half"),
        ("err-not-parquet", lambda b: b"id,s\n1,a\n2,b\n", "the second file is CSV text"),
    ]:
        if wanted(name):
            t = simple_table(1000)
            pq.write_table(t, path(name, 0))
            pq.write_table(t, path(name, 1))
            with open(path(name, 1), "rb") as f:
                data = f.read()
            with open(path(name, 1), "wb") as f:
                f.write(mangle(data))
            pq.write_table(t, path(name, 2))
            finish(name, expect="error", error_contains=["001.parquet"], about=about)


def generate(out, only=None, spark=True):
    """Writes the cases named in `only` (all when None) under `out`."""
    global OUT, ONLY
    OUT, ONLY = out, only
    os.makedirs(OUT, exist_ok=True)
    pyarrow_cases()
    metadata_cases()
    schema_cases()
    shape_cases()
    error_cases()
    import merge_writers  # beside this file
    merge_writers.write_all(wanted, path, finish, spark)


if __name__ == "__main__":
    args = sys.argv[1:]
    only = set(args[args.index("--only") + 1].split(",")) if "--only" in args else None
    generate(args[0], only, "--no-spark" not in args)
