"""merge_check.py's self-test (`merge_check.py --self-test TMPDIR [--engines ...]`): the checker
must pass merges done right by pyarrow and fail deliberately wrong ones, naming the check that
should catch each. Exits non-zero on any wrong verdict.

Right merges: each of some inputs as the merge of itself alone (IDENTITY), and pyarrow
imitating the merge of each case: *verbatim*, a ParquetWriter writing one
row group per input row group; *coalesce*, whole input row groups gathered greedily up to the
case's target; *one*, pq.write_table of the whole concatenation (coalesce mode, a target above
the row count). Each carries what the merge must carry: key-value metadata (first file wins),
field ids, page index, bloom filters and sorting_columns where they hold.
Wrong merges: rows shuffled or cut, metadata dropped, statistics, page index, bloom filters,
sorting columns, encodings, sizes or size statistics patched in the footer or in place.
"""
import json
import os
import random
import shutil
import struct
import sys
import time

import pyarrow as pa
import pyarrow.parquet as pq

import merge_check
import merge_inputs
import merge_thrift as T

RIGHT = ["types", "nested", "kv-meta", "sorted-continuous", "sorted-overlap", "sorted-multi",
         "sorted-nulls", "bloom-pyarrow", "bloom-partial", "page-index", "page-index-partial",
         "field-ids", "schema-reordered", "schema-missing-nullable", "schema-new-column",
         "tz-names", "many-tiny", "empty-files", "all-empty", "single-input", "dict-fallback",
         "dict-large", "dict-identical", "dict-overlap", "dict-disjoint", "pages-mixed",
         "encodings-mixed", "codecs-mixed", "writer-duckdb", "writer-polars",
         "writer-fastparquet", "writers-mixed"]


# Inputs checked as the merge of themselves alone (the checker must not fail a writer's quirks
# that a verbatim merge would carry): case -> input numbers.
IDENTITY = {"types": [0], "nested": [0], "pages-mixed": [1], "dict-fallback": [0],
            "encodings-mixed": [1, 2, 3], "writer-duckdb": [0, 1], "writer-polars": [0],
            "writer-fastparquet": [0], "writers-mixed": [1, 2, 3], "page-index": [1]}

# Spark is slow to start and to read: with --engines ...,spark it checks only these.
SPARK_TESTS = {("right-verbatim", "types"), ("right-coalesce", "nested"),
               ("right-one", "schema-missing-nullable"), ("shuffled", "types"),
               ("shuffled", "nested"), ("offset-index-first-row", "page-index")}


def aligned(case_dir):
    """The case's Check, the merged schema (the first file's fields, then new ones; key-value
    metadata with the first file's values) and the inputs' non-empty row groups as tables of
    that schema."""
    ck = merge_check.Check(case_dir, None)
    tables = [pq.read_table(p) for p in ck.inputs]
    first = {}
    for t in tables:
        for f in t.schema:
            first.setdefault(f.name, f)
    kv = {}
    for p in ck.inputs:
        for k, v in (pq.ParquetFile(p).metadata.metadata or {}).items():
            if k != b"ARROW:schema":
                kv.setdefault(k, v)
    schema = pa.schema([first[n] for n in merge_check.expected_names(tables)], metadata=kv)
    groups = []
    for p in ck.inputs:
        f = pq.ParquetFile(p)
        for g in range(f.metadata.num_row_groups):
            t = f.read_row_group(g)
            if t.num_rows:
                groups.append(align(t, schema))
    return ck, schema, groups


def align(t, schema):
    cols = []
    for f in schema:
        if f.name in t.column_names:
            c = t.column(f.name)
            cols.append(c.cast(f.type) if c.type != f.type else c)
        else:
            cols.append(pa.nulls(t.num_rows, f.type))
    return pa.table(cols, schema=schema)


def options(ck, sorted_ok=True):
    """pyarrow's writer options carrying what the inputs had: page index, bloom filters (every
    column any input had one on), INT96 timestamps, sorting columns (where `sorted_ok`)."""
    metas = [pq.ParquetFile(p).metadata for p in ck.inputs]
    page_index = any(m.num_row_groups and m.row_group(0).column(0).has_offset_index
                     for m in metas)
    opts = {"write_page_index": page_index, "store_decimal_as_integer": True,
            "max_rows_per_page": 100}
    blooms = {b".".join(cc[3][3].items).decode() for p in ck.inputs
              for rg in merge_check.read_meta(p)[1][4] for cc in rg[1] if cc[3].get(14)}
    if blooms:
        opts["bloom_filter_options"] = {c: {"ndv": 5000, "fpp": 0.01} for c in blooms}
    if any(el.get(1) == 3 for p in ck.inputs for _, el in T.leaves(merge_check.read_meta(p)[1])):
        opts["use_deprecated_int96_timestamps"] = True
    if ck.case.get("dictionary_page_limit"):
        opts["dictionary_pagesize_limit"] = ck.case["dictionary_page_limit"] // 2
    if ck.case.get("sorted_by") and sorted_ok:
        leaves = [n for n, _ in T.leaves(merge_check.read_meta(ck.inputs[0])[1])]
        opts["sorting_columns"] = [pq.SortingColumn(leaves.index(s["column"]), s["descending"],
                                                    s["nulls_first"]) for s in ck.case["sorted_by"]]
    return opts


def write_groups(path, schema, groups, **opts):
    """One row group per table; dictionary columns get one dictionary for all (pyarrow writes
    PLAIN pages after a batch whose dictionary differs from the last)."""
    if groups:
        whole = pa.concat_tables(groups).unify_dictionaries()
        starts = [sum(t.num_rows for t in groups[:i]) for i in range(len(groups))]
        groups = [whole.slice(s, t.num_rows) for s, t in zip(starts, groups)]
    with pq.ParquetWriter(path, schema, **opts) as w:
        for t in groups:
            w.write_table(t, row_group_size=max(t.num_rows, 1))


def verbatim(case_dir, out, **extra):
    ck, schema, groups = aligned(case_dir)
    opts = {**options(ck), **extra}
    write_groups(out, schema, groups, **opts)


def coalesce(case_dir, out, target, sorted_ok=None, **extra):
    ck, schema, groups = aligned(case_dir)
    runs, cur = [], []
    for t in groups:
        if cur and sum(x.num_rows for x in cur) + t.num_rows > target:
            runs.append(cur)
            cur = []
        cur.append(t)
    if cur:
        runs.append(cur)
    keep = ck.case.get("sorted_survives_coalesce", True) if sorted_ok is None else sorted_ok
    write_groups(out, schema, [pa.concat_tables(r) for r in runs],
                 **{**options(ck, keep), **extra})


def one(case_dir, out, **extra):
    ck, schema, groups = aligned(case_dir)
    t = pa.concat_tables(groups).unify_dictionaries() if groups else schema.empty_table()
    keep = ck.case.get("sorted_survives_coalesce", True) or len(groups) <= 1
    pq.write_table(t, out, row_group_size=max(t.num_rows, 1),
                   **{**options(ck, keep), **extra})


# Deliberately wrong outputs ---------------------------------------------------------------

def patch_footer(path, fn):
    with open(path, "rb") as f:
        buf = f.read()
    meta, start = T.footer(buf)
    extra = fn(meta, start) or b""
    with open(path, "wb") as f:
        f.write(T.with_footer(buf, meta, extra))


def chunk(meta, g, name):
    return next(cc for cc in meta[4][g][1] if b".".join(cc[3][3].items) == name.encode())


def patch_index(path, g, name, fid, fn):
    """Re-encodes the page index struct at field `fid` (4 offset index, 6 column index) of a
    chunk after `fn` changed it, placing it before the new footer."""
    with open(path, "rb") as f:
        buf = f.read()

    def change(meta, start):
        cc = chunk(meta, g, name)
        s, _ = T.decode_at(buf, cc[fid])
        fn(s)
        enc = T.encode(s)
        cc[fid], cc[fid + 1] = start, len(enc)
        return enc
    patch_footer(path, change)


def patch_bloom(path, g, name, byte):
    with open(path, "rb") as f:
        buf = bytearray(f.read())
    md = chunk(T.footer(bytes(buf))[0], g, name)[3]
    h, end = T.decode_at(bytes(buf), md[14])
    buf[end:end + h[1]] = bytes([byte]) * h[1]
    with open(path, "wb") as f:
        f.write(bytes(buf))


def shuffled(case_dir, out):
    ck, schema, groups = aligned(case_dir)
    t = pa.concat_tables(groups)
    idx = list(range(t.num_rows))
    random.Random(5).shuffle(idx)
    t = t.take(idx)
    sizes = [g.num_rows for g in groups]
    write_groups(out, schema, [t.slice(sum(sizes[:i]), n) for i, n in enumerate(sizes)],
                 **options(ck))


def truncated(case_dir, out):
    ck, schema, groups = aligned(case_dir)
    groups[-1] = groups[-1].slice(0, groups[-1].num_rows - 10)
    write_groups(out, schema, groups, **options(ck))


def no_metadata(case_dir, out):
    ck, schema, groups = aligned(case_dir)
    write_groups(out, schema.remove_metadata(), [g.replace_schema_metadata() for g in groups],
                 store_schema=False)


def last_wins(case_dir, out):
    ck, schema, groups = aligned(case_dir)
    schema = schema.with_metadata({**schema.metadata, b"owner": b"file-2"})
    write_groups(out, schema, [g.replace_schema_metadata(schema.metadata) for g in groups])


def with_stats(field, value_fid, pack):
    def fn(meta, start):
        st = chunk(meta, 0, field)[3][12]
        st[value_fid] = pack(st[value_fid])
        if value_fid == 6 and 2 in st:
            st[2] = st[6]
    return fn


def null_filled_zero(case_dir, out):
    ck, schema, groups = aligned(case_dir)
    fixed = []
    for t in groups:
        for i, f in enumerate(schema):
            if t.column(i).null_count == t.num_rows and pa.types.is_list(f.type):
                t = t.set_column(i, f, pa.array([[]] * t.num_rows, f.type))
        fixed.append(t)
    write_groups(out, schema, fixed, **options(ck))


def widened(case_dir, out):
    ck, schema, groups = aligned(case_dir)
    i = schema.get_field_index("i32")
    schema = schema.set(i, pa.field("i32", pa.int64()))
    write_groups(out, schema, [g.cast(schema) for g in groups], **options(ck))


def no_field_ids(case_dir, out):
    ck, schema, groups = aligned(case_dir)

    def strip(t):
        if pa.types.is_struct(t):
            return pa.struct([pa.field(f.name, strip(f.type), f.nullable) for f in t])
        if pa.types.is_list(t):
            return pa.list_(pa.field("element", strip(t.value_type)))
        return t
    plain = pa.schema([pa.field(f.name, strip(f.type), f.nullable) for f in schema],
                      metadata=schema.metadata)
    write_groups(out, plain, [pa.Table.from_arrays(g.columns, schema=plain) for g in groups])


def stale_arrow_schema(case_dir, out):
    """A verbatim merge whose ARROW:schema is the first file's, although columns were added."""
    verbatim(case_dir, out)
    first = merge_check.read_meta(sorted(merge_check.Check(case_dir, None).inputs)[0])[1]
    (value,) = [kv[2] for kv in first[5] if kv[1] == b"ARROW:schema"]

    def change(meta, start):
        for kv in meta[5]:
            if kv[1] == b"ARROW:schema":
                kv[2] = value
    patch_footer(out, change)


def patched(build, fn):
    def make(case_dir, out):
        build(case_dir, out)
        fn(out)
    return make


def footer_patch(fn):
    return lambda out: patch_footer(out, fn)


def set_md(field, fid, fn):
    def change(meta, start):
        md = chunk(meta, 0, field)[3]
        md[fid] = fn(md[fid])
    return footer_patch(change)


def drop_sorting(meta, start):
    for rg in meta[4]:
        rg.pop(4, None)
        rg.types.pop(4, None)


def shift_sorting(meta, start):
    for rg in meta[4]:
        for s in rg[4]:
            s[1] = (s[1] + 1) % 3


def index_patch(g, col, fid, fn):
    return patched(verbatim, lambda o: patch_index(o, g, col, fid, fn))


def footer_fix(fn):
    """A verbatim merge whose footer `fn` changes in place."""
    def change(meta, start):
        fn(meta, start)
    return patched(verbatim, footer_patch(change))


def set_item(container, k, v):
    container[k] = v
    return container


def wrong_cases():
    """(name, case, mode, how the output is made, the checks that must fail: [] = none)."""
    def low(b):
        return struct.pack("<i", struct.unpack("<i", b)[0] - 1000)

    def v(**kw):
        return lambda c, o: verbatim(c, o, **kw)

    values = ["values:", "duckdb:", "polars:"]
    return [
        ("shuffled", "types", "verbatim", shuffled, values),
        ("shuffled", "nested", "verbatim", shuffled, values),
        ("truncated", "types", "verbatim", truncated, ["values:", "row_groups:"]),
        ("kv-dropped", "kv-meta", "coalesce", no_metadata, ["kv:"]),
        ("kv-last-wins", "kv-meta", "verbatim", last_wins, ["kv:"]),
        ("stats-min-low", "types", "verbatim", footer_fix(with_stats("i32", 6, low)), ["stats:"]),
        ("stats-nested-min-low", "nested", "verbatim",
         footer_fix(with_stats("li.list.element", 6, low)), ["stats:"]),
        ("stats-null-count", "types", "verbatim",
         footer_fix(lambda m, s: set_item(chunk(m, 0, "s")[3][12], 3, 0)), ["stats:"]),
        # a footer decoded and encoded again unchanged is still right
        ("footer-reencoded-unchanged", "types", "verbatim", footer_fix(lambda m, s: None), []),
        ("verbatim-regrouped", "types", "verbatim", lambda c, o: coalesce(c, o, 2500),
         ["row_groups:"]),
        ("coalesce-needless-split", "many-tiny", "coalesce", verbatim, ["row_groups:"]),
        ("coalesce-over-target", "many-tiny", "coalesce", one, ["row_groups:"]),
        ("page-index-dropped", "page-index", "verbatim", v(write_page_index=False),
         ["page_index:"]),
        ("offset-index-offset", "page-index", "verbatim",
         index_patch(0, "k", 4, lambda s: set_item(s[1][1], 1, s[1][1][1] + 1)), ["page_index:"]),
        ("offset-index-first-row", "page-index", "verbatim",
         index_patch(1, "id", 4, lambda s: set_item(s[1][2], 3, s[1][2][3] + 7)),
         ["page_index:"]),
        ("column-index-bound", "page-index", "verbatim",
         index_patch(0, "id", 6, lambda s: set_item(s[2].items, 1, struct.pack("<q", 10**6))),
         ["page_index:"]),
        ("bloom-dropped", "bloom-pyarrow", "verbatim", v(bloom_filter_options=None), ["bloom:"]),
        ("bloom-zeroed", "bloom-pyarrow", "verbatim",
         patched(verbatim, lambda o: patch_bloom(o, 1, "s", 0)), ["bloom:"]),
        ("bloom-saturated-int", "bloom-pyarrow", "verbatim",
         patched(verbatim, lambda o: patch_bloom(o, 0, "k", 255)), ["bloom:"]),
        ("bloom-saturated-string", "bloom-pyarrow", "verbatim",
         patched(verbatim, lambda o: patch_bloom(o, 2, "s", 255)), ["bloom:"]),
        ("sorting-false-claim", "sorted-overlap", "coalesce",
         lambda c, o: coalesce(c, o, 3000, sorted_ok=True), ["sorting:"]),
        ("sorting-nulls-claim", "sorted-nulls", "coalesce",
         lambda c, o: coalesce(c, o, 3000, sorted_ok=True), ["sorting:"]),
        ("sorting-dropped", "sorted-continuous", "verbatim", footer_fix(drop_sorting),
         ["sorting:"]),
        ("sorting-column-index", "sorted-multi", "verbatim", footer_fix(shift_sorting),
         ["sorting:"]),
        ("field-ids-dropped", "field-ids", "verbatim", no_field_ids, ["field_ids:"]),
        ("null-fill-empty-lists", "schema-missing-nullable", "verbatim", null_filled_zero,
         ["values:"]),
        ("type-widened", "types", "verbatim", widened, ["schema:", "values:"]),
        ("arrow-schema-stale", "schema-new-column", "verbatim", stale_arrow_schema, ["schema:"]),
        ("encodings-incomplete", "types", "verbatim",
         patched(verbatim, set_md("s", 2, lambda e: T.List(e.etype, [0]))), ["layout:"]),
        ("num-values", "types", "verbatim", patched(verbatim, set_md("i32", 5, lambda n: n + 1)),
         ["layout:"]),
        ("total-uncompressed", "types", "verbatim",
         patched(verbatim, set_md("i32", 6, lambda n: n + 1)), ["layout:"]),
        ("total-byte-size", "types", "verbatim",
         footer_fix(lambda m, s: set_item(m[4][1], 2, m[4][1][2] + 1)), ["layout:"]),
        ("size-stats", "types", "verbatim",
         patched(verbatim, set_md("s", 16, lambda s: set_item(s, 1, s[1] + 1))), ["size_stats:"]),
        ("dictionary-over-limit", "dict-large", "coalesce",
         lambda c, o: one(c, o, dictionary_pagesize_limit=4 << 20), ["layout:"]),
        ("dictionary-decoded", "dict-overlap", "coalesce",
         lambda c, o: coalesce(c, o, 3600, use_dictionary=False), ["dictionary:"]),
        ("error-case-output", "err-type", "verbatim",
         lambda c, o: shutil.copy(os.path.join(c, "000.parquet"), o), ["expect:"]),
    ]


def run(tmp, engines):
    os.makedirs(tmp, exist_ok=True)
    cases = os.path.join(tmp, "cases")
    t0 = time.time()
    merge_inputs.generate(cases, set(RIGHT) | {"err-type"}, spark=False)
    print(json.dumps({"generated": round(time.time() - t0, 1)}), flush=True)
    wrong_verdicts = 0
    n = 0

    def verdict(name, case, mode, build, want_tags, target=None):
        nonlocal wrong_verdicts, n
        use = engines if (name, case) in SPARK_TESTS else [e for e in engines if e != "spark"]
        if "spark" in use and want_tags and "values:" in want_tags:
            want_tags = want_tags + ["spark:"]
        n += 1
        out = os.path.join(tmp, f"out-{n:03}-{case}-{name}.parquet")
        d = os.path.join(cases, case)
        start = time.time()
        try:
            build(d, out)
        except Exception as e:  # noqa: BLE001
            print(json.dumps({"test": name, "case": case, "error": f"cannot build: {e}"}))
            wrong_verdicts += 1
            return
        res = merge_check.check(d, out, mode, target, None, use)
        good = (res["ok"] if not want_tags else
                not res["ok"] and all(any(f.startswith(t) for f in res["failures"])
                                      for t in want_tags))
        wrong_verdicts += not good
        print(json.dumps({"test": name, "case": case, "mode": mode, "engines": use,
                          "verdict_right": good,
                          "ok": res["ok"], "expected": want_tags or "ok",
                          "seconds": round(time.time() - start, 2),
                          "failures": res["failures"][:4] if not good or want_tags else [],
                          "skipped": len(res["skipped"])}), flush=True)

    for case in RIGHT:
        target = json.load(open(os.path.join(cases, case, "case.json"))).get("target_rows", 10**6)
        verdict("right-verbatim", case, "verbatim", verbatim, [])
        verdict("right-coalesce", case, "coalesce", lambda c, o: coalesce(c, o, target), [],
                target)
        verdict("right-one", case, "coalesce", one, [], 10**9)
    for case, files in IDENTITY.items():
        for i in files:
            name = f"identity-{case}-{i:03}"
            os.makedirs(os.path.join(cases, name), exist_ok=True)
            shutil.copy(os.path.join(cases, case, f"{i:03}.parquet"), os.path.join(cases, name))
            shutil.copy(os.path.join(cases, case, "case.json"), os.path.join(cases, name))
            verdict("identity", name, "verbatim",
                    lambda c, o: shutil.copy(os.path.join(c, f"{i:03}.parquet"), o), [])
    wrongs = wrong_cases()
    for name, case, mode, build, tags in wrongs:
        target = json.load(open(os.path.join(cases, case, "case.json"))).get("target_rows")
        verdict(name, case, mode, build, tags, target)
    print(json.dumps({"tests": n, "wrong_verdicts": wrong_verdicts,
                      "seconds": round(time.time() - t0, 1)}), flush=True)
    return 1 if wrong_verdicts else 0


if __name__ == "__main__":
    sys.exit("run it as: merge_check.py --self-test TMPDIR")
