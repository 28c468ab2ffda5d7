"""Checks a merged Parquet file against the inputs of its case (merge_inputs.py's folders).

    python3 merge_check.py CASE_DIR OUTPUT [--mode verbatim|coalesce] [--target-rows N]
                           [--target-bytes N] [--engines pyarrow,duckdb,polars,spark]
    python3 merge_check.py CASE_DIR --error MESSAGE      # an error case: the merge's message
    python3 merge_check.py [--stdin]   # JSON lines {"case", "output" | "error", "mode",
                                       # "target_rows", "target_bytes", "engines"}: one Spark
                                       # session for them all, one result line each (what
                                       # tests/it/common.rs's python_lines sends)
    python3 merge_check.py --self-test TMPDIR [--engines ...]

Prints {"ok": bool, "failures": [...], "skipped": [...]} (exit 0 either way). Each failure
starts with the check that found it:
- values: pyarrow's reading of OUTPUT equals the inputs read by pyarrow and concatenated in
  order, columns in the output's order (the first file's, then new ones as they appear),
  missing columns null; types that differ only in Arrow representation (string/large_string,
  dictionary, time zone name) are cast to the output's, others are failures;
- schema: the exact Arrow schema (field metadata too) when every input had the same
  ARROW:schema, else each field's type up to representation and its nullability;
- duckdb: / polars: / spark: each engine's reading of OUTPUT equals its own reading of the
  inputs, column by column, values normalised only where the engine's types differ (NaN stays
  apart from null, "" from null, instants compared in UTC, zoned apart from local);
- row_groups: verbatim: the inputs' non-empty row groups' row counts, in order; coalesce: output
  row groups are runs of whole input row groups, each within --target-rows/--target-bytes
  (bytes: the inputs' compressed chunk sizes) unless it is one input row group, and no two
  neighbours could have been one;
- layout: each chunk's pages tile its byte range, page header counts and sizes add up to the
  chunk's num_values and total sizes, one dictionary page at most and first, the offsets the
  footer gives are pages', `encodings` lists every encoding a page uses, encoding_stats counts
  pages truly, the file's num_rows, dictionary pages within case.json's dictionary_page_limit;
- kv: every input key present once, the first file's value where they conflict, ARROW:schema
  when an input had one;
- stats / size_stats / page_index / bloom: merge_meta.py;
- sorting: claimed sorting_columns (by column path) hold in the data; verbatim keeps every input
  row group's; coalesce keeps them where case.json's sorted_survives_coalesce says so;
- field_ids: every schema node's field_id is that of the first input with an id at that path.
"""
import json
import math
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import merge_thrift as T  # noqa: E402


class Check:
    """One case's inputs and output, the failures and skips found."""

    def __init__(self, case_dir, output, mode="verbatim", target_rows=None, target_bytes=None,
                 engines=("pyarrow", "duckdb", "polars")):
        self.case_dir, self.output, self.mode = case_dir, output, mode
        with open(os.path.join(case_dir, "case.json")) as f:
            self.case = json.load(f)
        self.inputs = sorted(os.path.join(case_dir, n) for n in os.listdir(case_dir)
                             if n.endswith(".parquet"))
        self.target_rows = target_rows or self.case.get("target_rows")
        self.target_bytes = target_bytes
        self.engines = list(engines)
        self.failures, self.skipped = [], []

    def fail(self, tag, msg):
        self.failures.append(f"{tag}: {msg}")

    def skip(self, tag, msg):
        self.skipped.append(f"{tag}: {msg}")

    def name(self, i):
        return os.path.basename(self.inputs[i])

    def result(self):
        """The verdict, with at most 8 failures and skips per check."""
        def cap(items):
            out, seen = [], {}
            for f in items:
                tag = f.split(":", 1)[0]
                seen[tag] = seen.get(tag, 0) + 1
                if seen[tag] <= 8:
                    out.append(f)
            return out
        return {"ok": not self.failures, "failures": cap(self.failures),
                "skipped": cap(self.skipped)}


def norm(v):
    """A value as compared: NaN a token, zeros signed, instants in UTC (zoned kept apart from
    local), decimals normalised, rows and maps recursively."""
    import datetime
    import decimal
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        return ("0.0", math.copysign(1.0, v)) if v == 0.0 else v
    if isinstance(v, (list, tuple)):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    if isinstance(v, bytearray):
        return bytes(v)
    if isinstance(v, datetime.datetime) and v.tzinfo is not None:
        return ("zoned", v.astimezone(datetime.timezone.utc).replace(tzinfo=None))
    if type(v).__name__ == "Timestamp" and getattr(v, "tz", None) is not None:
        return ("zoned", v.tz_convert("UTC").tz_localize(None))
    if isinstance(v, decimal.Decimal):
        return v.normalize() if v == v else "NaN"
    return v


def first_diff(tag, column, want, got, starts, names, ck):
    """Fails with the first row where the lists `want` and `got` differ (after norm)."""
    if len(want) != len(got):
        ck.fail(tag, f"column {column}: {len(got)} rows, the inputs have {len(want)}")
        return
    if want == got:
        return
    for i, (a, b) in enumerate(zip(want, got)):
        if norm(a) != norm(b):
            f = max(j for j, s in enumerate(starts) if s <= i)
            ck.fail(tag, f"column {column}: row {i} ({names[f]} row {i - starts[f]}): "
                         f"expected {a!r}, got {b!r}"[:500])
            return


def canon(t):
    """A type up to its Arrow representation (large/view/dictionary, zone name, item names)."""
    if pa.types.is_dictionary(t):
        return canon(t.value_type)
    if t in (pa.large_string(), pa.string_view()):
        return "string"
    if t in (pa.large_binary(), pa.binary_view()):
        return "binary"
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_list_view(t) \
            or pa.types.is_large_list_view(t):
        return ("list", canon(t.value_type), t.value_field.nullable)
    if pa.types.is_map(t):
        return ("map", canon(t.key_type), canon(t.item_type), t.item_field.nullable)
    if pa.types.is_struct(t):
        return ("struct", tuple((f.name, canon(f.type), f.nullable) for f in t))
    if pa.types.is_timestamp(t):
        return ("timestamp", t.unit, t.tz is not None)
    return str(t)


def expected_names(tables):
    names = []
    for t in tables:
        names += [n for n in t.column_names if n not in names]
    return names


def arrow_schemas(ck):
    out = []
    for p in ck.inputs:
        md = pq.ParquetFile(p).metadata.metadata or {}
        out.append(md.get(b"ARROW:schema"))
    return out


def int32_keys(t):
    """`t` with every dictionary's keys (at any depth) int32."""
    if pa.types.is_dictionary(t):
        return pa.dictionary(pa.int32(), t.value_type, t.ordered)
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        f = t.value_field.with_type(int32_keys(t.value_type))
        return pa.list_(f) if pa.types.is_list(t) else pa.large_list(f)
    if pa.types.is_struct(t):
        return pa.struct([t.field(i).with_type(int32_keys(t.field(i).type))
                          for i in range(t.num_fields)])
    return t


def widened(ck, g):
    """Field `g` as a coalescing merge writes it: in the fields the case names as joined past
    their dictionaries' key range (`arrow_keys_widened`), keys become int32."""
    if ck.mode == "coalesce" and g.name in ck.case.get("arrow_keys_widened", []):
        return g.with_type(int32_keys(g.type))
    return g


def check_schema(ck, tables, out):
    first = {}
    for i, t in enumerate(tables):
        for f in t.schema:
            first.setdefault(f.name, (i, widened(ck, f)))
    want = expected_names(tables)
    if out.column_names != want:
        ck.fail("schema", f"columns {out.column_names}, expected {want}")
    same = arrow_schemas(ck)
    want_schema = pa.schema([widened(ck, f) for f in tables[0].schema])
    if same and all(s is not None and s == same[0] for s in same) \
            and not out.schema.equals(want_schema, check_metadata=False):
        ck.fail("schema", "the inputs share one ARROW:schema, the output's schema differs")
    for f in out.schema:
        if f.name not in first:
            continue
        i, g = first[f.name]
        agreed = all(widened(ck, t.schema.field(f.name)).equals(g, check_metadata=True)
                     for t in tables if f.name in t.column_names)
        if agreed and not f.equals(g, check_metadata=True):
            ck.fail("schema", f"field {f} ({f.metadata}), every input that has it: "
                              f"{g} ({g.metadata})")
        elif canon(f.type) != canon(g.type) or f.nullable != g.nullable:
            ck.fail("schema", f"field {f}, {ck.name(i)} has {g}")


def check_values(ck):
    try:
        tables = [pq.read_table(p) for p in ck.inputs]
    except Exception as e:  # noqa: BLE001
        ck.fail("values", f"pyarrow cannot read an input: {e}")
        return
    try:
        out = pq.read_table(ck.output)
    except Exception as e:  # noqa: BLE001
        ck.fail("values", f"pyarrow cannot read the output: {type(e).__name__}: {e}")
        return
    check_schema(ck, tables, out)
    starts = [sum(t.num_rows for t in tables[:i]) for i in range(len(tables))]
    names = [ck.name(i) for i in range(len(tables))]
    total = sum(t.num_rows for t in tables)
    if out.num_rows != total:
        ck.fail("values", f"{out.num_rows} rows, the inputs have {total}")
    for f in out.schema:
        parts = []
        for i, t in enumerate(tables):
            if f.name not in t.column_names:
                parts.append(pa.nulls(t.num_rows, f.type))
                continue
            c = t.column(f.name)
            if c.type != f.type:
                if canon(c.type) != canon(f.type):
                    ck.fail("values", f"column {f.name}: {ck.name(i)} has {c.type}, "
                                      f"the output {f.type}")
                    parts = None
                    break
                c = c.cast(f.type)
            parts += c.chunks
        if parts is None:
            continue
        want = pa.chunked_array(parts, type=f.type)
        got = out.column(f.name)
        if not got.equals(want):
            first_diff("values", f.name, want.to_pylist(), got.to_pylist(), starts, names, ck)


def row_group_map(ck, metas, out_meta):
    """Per output row group, the (file, row group) inputs it is made of, or None where its
    boundaries are not input row-group boundaries."""
    ins = [(fi, gi, rg[3]) for fi, m in enumerate(metas) for gi, rg in enumerate(m[4]) if rg[3]]
    out, pos = [], 0
    for rg in out_meta[4]:
        rows, taken = rg[3], []
        while rows > 0 and pos < len(ins) and ins[pos][2] <= rows:
            taken.append(ins[pos][:2])
            rows -= ins[pos][2]
            pos += 1
        out.append(taken if rows == 0 else None)
        if rows:  # an input row group split: the rest cannot be mapped
            return out + [None] * (len(out_meta[4]) - len(out))
    return out


def input_bytes(metas, fi, gi):
    return sum(cc[3][7] for cc in metas[fi][4][gi][1])


def check_row_groups(ck, metas, out_meta, mapping):
    ins = [rg[3] for m in metas for rg in m[4] if rg[3]]
    outs = [rg[3] for rg in out_meta[4]]
    if sum(outs) != sum(ins):
        ck.fail("row_groups", f"{sum(outs)} rows in row groups, the inputs have {sum(ins)}")
    if out_meta.get(3) != sum(outs):
        ck.fail("layout", f"footer num_rows {out_meta.get(3)}, its row groups hold {sum(outs)}")
    if ck.mode == "verbatim":
        if [r for r in outs if r] != ins:
            ck.fail("row_groups", f"verbatim: row counts {outs[:40]}, the inputs' {ins[:40]}")
        return
    if ck.target_rows is None and ck.target_bytes is None:
        ck.skip("row_groups", "coalesce: no --target-rows/--target-bytes")
    for g, m in enumerate(mapping):
        if m is None:
            ck.fail("row_groups", f"row group {g} ends inside an input row group")
            return
        size = sum(input_bytes(metas, *x) for x in m)
        if len(m) > 1 and ck.target_rows and outs[g] > ck.target_rows:
            ck.fail("row_groups", f"row group {g}: {outs[g]} rows > target {ck.target_rows}")
        if len(m) > 1 and ck.target_bytes and size > ck.target_bytes:
            ck.fail("row_groups", f"row group {g}: {size} input bytes > target {ck.target_bytes}")
    groups = [(g, m) for g, m in enumerate(mapping) if m]
    for (g, a), (h, b) in zip(groups, groups[1:]):
        rows = outs[g] + metas[b[0][0]][4][b[0][1]][3]
        size = sum(input_bytes(metas, *x) for x in a + b[:1])
        if (ck.target_rows or ck.target_bytes) and rows <= (ck.target_rows or rows) \
                and size <= (ck.target_bytes or size):
            ck.fail("row_groups", f"row groups {g} and {h} split needlessly: {outs[g]} rows "
                                  f"and the next input row group fit the target")
            return


def kv_pairs(meta):
    return [(kv[1], kv.get(2)) for kv in meta.get(5, [])]


def check_kv(ck, metas, out_meta):
    want = {}
    for m in metas:
        for k, v in kv_pairs(m):
            want.setdefault(k, v)
    got = kv_pairs(out_meta)
    keys = [k for k, _ in got]
    for k in set(keys):
        if keys.count(k) > 1:
            ck.fail("kv", f"key {k!r} appears {keys.count(k)} times")
    got = dict(got)
    for k, v in want.items():
        if k not in got:
            ck.fail("kv", f"key {k!r} is missing")
        elif k != b"ARROW:schema" and got[k] != v:
            ck.fail("kv", f"key {k!r} is {got[k]!r:.200}, the first file's value is {v!r:.200}")


def check_field_ids(ck, metas, out_meta):
    want = {}
    for m in metas:
        for n in T.nodes(m):
            if want.get(n["path"]) is None:  # the first input's id, or a later one's
                want[n["path"]] = n["el"].get(9)
    for n in T.nodes(out_meta):
        if n["path"] in want and n["el"].get(9) != want[n["path"]]:
            ck.fail("field_ids", f"{n['path']}: field_id {n['el'].get(9)}, "
                                 f"the inputs' {want[n['path']]}")


def claims(meta, rg):
    names = [p for p, _ in T.leaves(meta)]
    out = []
    for s in rg.get(4, []):
        idx = s.get(1)
        out.append((names[idx] if idx is not None and 0 <= idx < len(names) else f"#{idx}",
                    bool(s.get(2)), bool(s.get(3))))
    return out


def sorted_error(rows, keys):
    """The first row out of the order `keys` ((desc, nulls_first) per column), or None."""
    def cmp(a, b, desc, nulls_first):
        if a is None or b is None:
            if a is None and b is None:
                return 0
            return (-1 if a is None else 1) * (1 if nulls_first else -1)
        return 0 if a == b else (1 if (a > b) != desc else -1)

    for i in range(1, len(rows)):
        for a, b, (desc, nf) in zip(rows[i - 1], rows[i], keys):
            c = cmp(a, b, desc, nf)
            if c > 0:
                return i
            if c < 0:
                break
    return None


def check_sorting(ck, metas, out_meta, mapping):
    f = pq.ParquetFile(ck.output)
    for g, rg in enumerate(out_meta[4]):
        claim = claims(out_meta, rg)
        m = mapping[g] if g < len(mapping) else None
        if claim:
            cols = [c for c, _, _ in claim]
            if any("." in c for c in cols):
                ck.skip("sorting", f"row group {g}: nested sorting column in {cols}")
            else:
                t = f.read_row_group(g, columns=cols)
                rows = list(zip(*[t.column(c).to_pylist() for c in cols]))
                bad = sorted_error(rows, [(d, n) for _, d, n in claim])
                if bad is not None:
                    ck.fail("sorting", f"row group {g} claims sorting {claim}, row {bad} breaks it")
        if m is None:
            continue
        inputs = [claims(metas[fi], metas[fi][4][gi]) for fi, gi in m]
        agreed = inputs[0] if inputs and all(c == inputs[0] for c in inputs) else []
        keep = ck.mode == "verbatim" or len(m) == 1 or ck.case.get("sorted_survives_coalesce")
        if agreed and keep and claim != agreed:
            ck.fail("sorting", f"row group {g} claims {claim}, its inputs {agreed}")
        elif claim and claim != agreed:
            ck.fail("sorting", f"row group {g} claims {claim}, its inputs do not all: {inputs}")


def read_meta(path):
    with open(path, "rb") as f:
        buf = f.read()
    return buf, T.footer(buf)[0]


def check(case_dir, output=None, mode="verbatim", target_rows=None, target_bytes=None,
          engines=("pyarrow", "duckdb", "polars"), error=None):
    import merge_engines
    import merge_meta
    ck = Check(case_dir, output, mode, target_rows, target_bytes, engines)
    if ck.case["expect"] == "error":
        if output is not None:
            ck.fail("expect", "the case expects an error, the merge wrote a file")
        for s in ck.case.get("error_contains", []):
            if error is None or s not in error:
                ck.fail("expect", f"the error {error!r} does not name {s!r}")
        return ck.result()
    if output is None:
        ck.fail("expect", f"the merge failed ({error!r}); the case expects a file")
        return ck.result()
    try:
        out_buf, out_meta = read_meta(output)
    except (OSError, T.ThriftError, IndexError, KeyError) as e:
        ck.fail("layout", f"cannot read the output's footer: {e}")
        return ck.result()
    ck.in_bufs, metas = zip(*[read_meta(p) for p in ck.inputs]) if ck.inputs else ((), ())
    mapping = row_group_map(ck, metas, out_meta)
    if mode == "verbatim" and None in mapping:
        mapping = [None] * len(out_meta[4])
    steps = [("values", lambda: check_values(ck)),
             ("row_groups", lambda: check_row_groups(ck, metas, out_meta, mapping)),
             ("kv", lambda: check_kv(ck, metas, out_meta)),
             ("field_ids", lambda: check_field_ids(ck, metas, out_meta)),
             ("sorting", lambda: check_sorting(ck, metas, out_meta, mapping)),
             ("meta", lambda: merge_meta.check_all(ck, metas, out_buf, out_meta, mapping)),
             ("engines", lambda: merge_engines.check_all(ck))]
    for tag, step in steps:
        try:
            step()
        except Exception as e:  # noqa: BLE001 - a crash of one check is that check's failure
            ck.fail(tag, f"check crashed: {type(e).__name__}: {e}")
    return ck.result()


def options(args):
    opts = {"mode": "verbatim", "engines": ("pyarrow", "duckdb", "polars")}
    i = 0
    rest = []
    while i < len(args):
        a = args[i]
        if a in ("--mode", "--target-rows", "--target-bytes", "--engines", "--error"):
            v = args[i + 1]
            key = a[2:].replace("-", "_")
            opts[key] = int(v) if key.startswith("target") else (
                tuple(v.split(",")) if key == "engines" else v)
            i += 2
        else:
            rest.append(a)
            i += 1
    return rest, opts


def main(argv):
    rest, opts = options(argv)
    if rest and rest[0] == "--self-test":
        import merge_selftest
        return merge_selftest.run(rest[1], opts["engines"])
    if not rest or rest[0] == "--stdin":
        for line in sys.stdin:
            job = json.loads(line)
            res = check(job["case"], job.get("output"), job.get("mode", "verbatim"),
                        job.get("target_rows"), job.get("target_bytes"),
                        job.get("engines", opts["engines"]), job.get("error"))
            print(json.dumps({"case": job["case"], **res}), flush=True)
        return 0
    output = rest[1] if len(rest) > 1 else None
    res = check(rest[0], output, opts["mode"], opts.get("target_rows"), opts.get("target_bytes"),
                opts["engines"], opts.get("error"))
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    code = main(sys.argv[1:])
    import merge_engines
    merge_engines.stop_spark()
    sys.exit(code)
