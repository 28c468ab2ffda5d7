"""The metadata checks of merge_check.py: chunk layout, statistics, size statistics, the page
index and bloom filters of the merged file, against its inputs' and its own data.

`mapping[g]` is the list of (input file, input row group) output row group g is made of (None:
unknown, then only the checks against the output's own data run). A column missing from an
input counts as an all-null chunk of that row group's rows, which has no statistics, page
index or bloom filter to carry.
"""
import bisect
import datetime
import math
import struct

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import merge_thrift as T

EPOCH = datetime.datetime(1970, 1, 1)
EPOCH_UTC = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def chunk_of(meta, g, path):
    for cc in meta[4][g][1]:
        if b".".join(cc[3][3].items).decode() == path:
            return cc
    return None


def mapped(metas, m, path):
    """(file, row group, ColumnChunk or None, rows) of the inputs of one output chunk."""
    return [(fi, gi, chunk_of(metas[fi], gi, path), metas[fi][4][gi][3]) for fi, gi in m]


def check_all(ck, metas, buf, meta, mapping):
    _META.clear()
    nodes = {n["path"]: n for n in T.nodes(meta) if n["leaf"]}
    ctx = {"data": {}}
    for g, rg in enumerate(meta[4]):
        total = 0
        for cc in rg[1]:
            md = cc[3]
            path = b".".join(md[3].items).decode()
            node = nodes.get(path)
            if node is None:
                ck.fail("layout", f"row group {g}: chunk of unknown column {path}")
                continue
            where = f"row group {g} column {path}"
            pages = layout(ck, buf, md, node, where, rg[3])
            total += md[7]
            m = mapping[g] if g < len(mapping) else None
            ins = mapped(metas, m, path) if m is not None else None
            stats(ck, g, cc, node, ins, where, ctx)
            size_stats(ck, md, ins, where)
            if pages is not None:
                page_index(ck, buf, g, cc, node, pages, ins, where, rg[3], ctx)
            bloom(ck, buf, g, cc, node, ins, where, ctx)
        if rg.get(6) is not None and rg[6] != total:
            ck.fail("layout", f"row group {g}: total_compressed_size {rg[6]}, chunks sum {total}")
        if rg.get(7) is not None and rg[7] != g:
            ck.fail("layout", f"row group {g}: ordinal {rg[7]}")
    bloom_probes(ck, meta, ctx)


def layout(ck, buf, md, node, where, rows):
    try:
        pages = T.walk_pages(buf, md)
    except (T.ThriftError, IndexError, KeyError) as e:
        ck.fail("layout", f"{where}: pages do not tile the chunk: {e}")
        return None
    if md.get(1) != node["el"].get(1):
        ck.fail("layout", f"{where}: physical type {md.get(1)}, the schema's {node['el'].get(1)}")
    data = [p for p in pages if p["type"] in (T.DATA_PAGE, T.DATA_PAGE_V2)]
    dicts = [i for i, p in enumerate(pages) if p["type"] == T.DICTIONARY_PAGE]
    if dicts and dicts != [0]:
        ck.fail("layout", f"{where}: dictionary pages at positions {dicts} of {len(pages)}")
    if sum(T.page_values(p) for p in data) != md[5]:
        ck.fail("layout", f"{where}: pages hold {sum(T.page_values(p) for p in data)} values, "
                          f"num_values says {md[5]}")
    if sum(p["uncompressed"] for p in pages) != md[6]:
        ck.fail("layout", f"{where}: total_uncompressed_size {md[6]}, pages sum "
                          f"{sum(p['uncompressed'] for p in pages)}")
    if data and md[9] != data[0]["offset"]:
        ck.fail("layout", f"{where}: data_page_offset {md[9]}, first data page at "
                          f"{data[0]['offset']}")
    if dicts and md.get(11) != pages[0]["offset"]:
        ck.fail("layout", f"{where}: dictionary page at {pages[0]['offset']}, "
                          f"dictionary_page_offset {md.get(11)}")
    if not dicts and md.get(11):
        ck.fail("layout", f"{where}: dictionary_page_offset {md[11]} but no dictionary page")
    used = set().union(*(T.page_encodings(p) for p in pages)) if pages else set()
    values = {p["header"][8].get(4) if p["type"] == T.DATA_PAGE_V2 else
              p["header"].get(5, {}).get(2) if p["type"] == T.DATA_PAGE else
              p["header"].get(7, {}).get(2) for p in pages}
    listed = set(md[2].items)
    if not values <= listed:
        ck.fail("layout", f"{where}: encodings {names(listed)}, pages use {names(values)}")
    if md.get(13) is not None:
        counted = {}
        for p in pages:
            ptype = T.DICTIONARY_PAGE if p["type"] == T.DICTIONARY_PAGE else T.DATA_PAGE
            enc = next(iter(values_of(p)))
            counted[(ptype, enc)] = counted.get((ptype, enc), 0) + 1
        stated = {}
        for s in md[13]:
            ptype = T.DICTIONARY_PAGE if s.get(1) == T.DICTIONARY_PAGE else T.DATA_PAGE
            stated[(ptype, s.get(2))] = stated.get((ptype, s.get(2)), 0) + s.get(3, 0)
        if counted != stated:
            ck.fail("layout", f"{where}: encoding_stats {stated}, pages {counted}")
    limit = ck.case.get("dictionary_page_limit")
    if limit and dicts and pages[0]["header"].get(2, 0) > limit:
        ck.fail("layout", f"{where}: dictionary page of {pages[0]['header'][2]} bytes, "
                          f"over the limit {limit}")
    return pages


def values_of(p):
    h = p["header"]
    if p["type"] == T.DATA_PAGE_V2:
        return {h[8].get(4)}
    if p["type"] == T.DATA_PAGE:
        return {h[5].get(2)}
    return {h.get(7, {}).get(2)}


def names(encs):
    return sorted(T.ENCODINGS.get(e, str(e)) for e in encs if e is not None)


# Statistics ------------------------------------------------------------------------------

def key(v):
    """A statistics or data value in one comparable domain (None: NaN or not comparable)."""
    if isinstance(v, float):
        return None if math.isnan(v) else v
    if type(v).__name__ == "Timestamp":
        return ("ts", v.tz is not None, v.value)
    if isinstance(v, datetime.datetime):
        d = v - (EPOCH_UTC if v.tzinfo else EPOCH)
        return ("ts", v.tzinfo is not None, (d.days * 86400 + d.seconds) * 10**9
                + d.microseconds * 1000)
    return v


_META = {}


def pa_meta(path):
    if path not in _META:
        _META.clear() if len(_META) > 400 else None
        _META[path] = pq.ParquetFile(path).metadata
    return _META[path]


def pa_stats(path, g, path_in_schema):
    """(stats, num_values) of pyarrow's view of a chunk of row group g, stats None if unset."""
    rg = pa_meta(path).row_group(g)
    col = next(rg.column(i) for i in range(rg.num_columns)
               if rg.column(i).path_in_schema == path_in_schema)
    s = col.statistics if col.is_stats_set else None
    return s, col.num_values


def stat_minmax(s, f16):
    def dec(v):
        if f16 and isinstance(v, bytes):
            return float(np.frombuffer(v, "<f2")[0])
        return v
    return key(dec(s.min)), key(dec(s.max))


def stats(ck, g, cc, node, ins, where, ctx):
    path = node["path"]
    el = node["el"]
    if el.get(1) == 3:  # INT96: no defined order
        return
    f16 = (el.get(10) or {}).get(15) is not None
    s, _ = pa_stats(ck.output, g, path)
    merged = expected_stats(ck, ins, path, f16, where) if ins else None
    if merged is not None:
        if s is None:
            ck.fail("stats", f"{where}: no statistics, its inputs all had them")
            return
        if merged["nulls"] is not None and (not s.has_null_count or s.null_count != merged["nulls"]):
            ck.fail("stats", f"{where}: null_count {s.null_count if s.has_null_count else None}, "
                             f"the inputs' sum {merged['nulls']}")
        if merged["minmax"] is not None:
            got = stat_minmax(s, f16) if s.has_min_max else None
            want = merged["minmax"] if merged["minmax"] != "none" else None
            if got != want:
                ck.fail("stats", f"{where}: min/max {got}, the inputs' merged {want}")
    if s is not None and node["rep"] == 0 and "." not in path:
        against_data(ck, g, path, s, f16, where, ctx)


def expected_stats(ck, ins, path, f16, where):
    """The statistics merged from the inputs' chunks: {"nulls": sum or None, "minmax": (min,
    max), "none" (all null) or None (unknown)}; None when an input chunk had no statistics."""
    nulls, lo, hi, known = 0, [], [], True
    for fi, gi, cc, rows in ins:
        if cc is None:
            nulls += rows
            continue
        s, num = pa_stats(ck.inputs[fi], gi, path)
        if s is None:
            return None
        nulls = nulls + s.null_count if (nulls is not None and s.has_null_count) else None
        if s.has_min_max:
            a, b = stat_minmax(s, f16)
            if a is None or b is None:
                known = False
            lo.append(a)
            hi.append(b)
        elif not (s.has_null_count and s.null_count == num):
            known = False
    minmax = None
    if known:
        try:
            minmax = (min(lo), max(hi)) if lo else "none"
        except TypeError:
            minmax = None
    return {"nulls": nulls, "minmax": minmax}


def column_data(ck, g, path, ctx):
    cache = ctx["data"] if ctx else {}
    if (g, path) not in cache:
        col = pq.ParquetFile(ck.output).read_row_group(g, columns=[path]).column(0)
        col = col.combine_chunks() if col.num_chunks else pa.array([], col.type)
        if pa.types.is_dictionary(col.type):
            col = col.dictionary_decode()
        if pa.types.is_float16(col.type):
            vals = [None if v is None else float(v) for v in col.to_numpy(zero_copy_only=False)]
            vals = [None if m else v for v, m in zip(vals, col.is_null().to_pylist())]
        else:
            vals = col.to_pylist()
        cache[(g, path)] = (col.type, vals)
    return cache[(g, path)]


def against_data(ck, g, path, s, f16, where, ctx=None):
    _, vals = column_data(ck, g, path, ctx)
    nulls = sum(v is None for v in vals)
    if s.has_null_count and s.null_count != nulls:
        ck.fail("stats", f"{where}: null_count {s.null_count}, the data has {nulls}")
    present = [key(v) for v in vals if v is not None]
    present = [v for v in present if v is not None]
    if not s.has_min_max:
        return
    lo, hi = stat_minmax(s, f16)
    if not present:
        if nulls == len(vals):
            ck.fail("stats", f"{where}: min/max {lo}, {hi} on a chunk of nulls")
        return
    if lo is not None and lo > min(present):
        ck.fail("stats", f"{where}: min {lo} > the data's min {min(present)}")
    if hi is not None and hi < max(present):
        ck.fail("stats", f"{where}: max {hi} < the data's max {max(present)}")


def size_stats(ck, md, ins, where):
    if not ins or any(cc is None or cc[3].get(16) is None for _, _, cc, _ in ins):
        return
    got = md.get(16)
    if got is None:
        ck.fail("size_stats", f"{where}: no size_statistics, its inputs all had them")
        return
    parts = [cc[3][16] for _, _, cc, _ in ins]
    if all(p.get(1) is not None for p in parts):
        want = sum(p[1] for p in parts)
        if got.get(1) != want:
            ck.fail("size_stats", f"{where}: unencoded_byte_array_data_bytes {got.get(1)}, "
                                  f"the inputs' sum {want}")
    for fid, what in [(2, "repetition"), (3, "definition")]:
        hs = [list(p[fid]) for p in parts if p.get(fid) is not None]
        if len(hs) == len(parts) and hs and all(len(h) == len(hs[0]) for h in hs):
            want = [sum(x) for x in zip(*hs)]
            have = list(got[fid]) if got.get(fid) is not None else None
            if have != want:
                ck.fail("size_stats", f"{where}: {what} level histogram {have}, inputs' sum {want}")


# Page index ------------------------------------------------------------------------------

def ci_decoder(el):
    """A decoder of column-index bounds into the data's domain, or None for other types."""
    phys, lt, conv = el.get(1), el.get(10) or {}, el.get(6)
    unsigned = (lt.get(10) is not None and not lt[10].get(2, True)) or conv in (11, 12, 13, 14)
    if lt.get(5) is not None or conv == 5:  # DECIMAL: unscaled
        if phys not in (1, 2):
            return None
        scale = el.get(7, 0)
        fmt = "<i" if phys == 1 else "<q"
        return lambda b, d=None: struct.unpack(fmt, b)[0] if d is None else int(d.scaleb(scale))
    if phys in (1, 2) and (not lt or lt.get(10) is not None or lt.get(6) is not None):
        fmt = {1: "<i", 2: "<q"}[phys]
        fmt = fmt.upper() if unsigned else fmt
        if lt.get(6) is not None or conv == 6:  # DATE
            return lambda b, d=None: struct.unpack("<i", b)[0] if d is None else (d - EPOCH.date()).days
        return lambda b, d=None: struct.unpack(fmt, b)[0] if d is None else d
    if phys in (4, 5):
        fmt = "<f" if phys == 4 else "<d"
        return lambda b, d=None: key(struct.unpack(fmt, b)[0]) if d is None else key(d)
    if phys == 6:
        return lambda b, d=None: bytes(b) if d is None else (d.encode() if isinstance(d, str) else d)
    if phys == 0:
        return lambda b, d=None: bool(b[0]) if d is None else d
    return None


def page_index(ck, buf, g, cc, node, pages, ins, where, rows, ctx):
    had = ins and all(c is not None for _, _, c, _ in ins)
    for fid, what in [(4, "offset index"), (6, "column index")]:
        if had and all(c.get(fid) is not None for _, _, c, _ in ins) and cc.get(fid) is None:
            ck.fail("page_index", f"{where}: no {what}, its inputs all had one")
    data = [p for p in pages if p["type"] in (T.DATA_PAGE, T.DATA_PAGE_V2)]
    firsts = None
    if cc.get(4) is not None:
        firsts = offset_index(ck, buf, cc, node, data, where, rows)
    if cc.get(6) is not None:
        column_index(ck, buf, g, cc, node, data, firsts, where, rows, ctx)


def offset_index(ck, buf, cc, node, data, where, rows):
    try:
        oi, _ = T.decode_at(buf, cc[4])
        locs = [(loc[1], loc[2], loc[3]) for loc in oi[1]]
    except (T.ThriftError, KeyError, IndexError) as e:
        ck.fail("page_index", f"{where}: offset index unreadable: {e}")
        return None
    if [x[0] for x in locs] != [p["offset"] for p in data]:
        ck.fail("page_index", f"{where}: offset index offsets {[x[0] for x in locs][:8]}, data "
                              f"pages at {[p['offset'] for p in data][:8]}")
        return None
    if [x[1] for x in locs] != [p["size"] for p in data]:
        ck.fail("page_index", f"{where}: offset index page sizes differ from the pages'")
    firsts = [x[2] for x in locs]
    if firsts and (firsts[0] != 0 or any(b <= a for a, b in zip(firsts, firsts[1:]))
                   or firsts[-1] >= rows):
        ck.fail("page_index", f"{where}: first_row_index {firsts[:10]} for {rows} rows")
        return None
    ends = firsts[1:] + [rows]
    for i, p in enumerate(data):
        h = p["header"]
        n = h[8].get(3) if p["type"] == T.DATA_PAGE_V2 else (
            h[5].get(1) if node["rep"] == 0 else None)
        if n is not None and n != ends[i] - firsts[i]:
            ck.fail("page_index", f"{where}: page {i} holds {n} rows, the offset index says "
                                  f"{ends[i] - firsts[i]} (first_row_index {firsts[i]})")
            return None
    if oi.get(2) is not None and len(oi[2]) != len(locs):
        ck.fail("page_index", f"{where}: {len(oi[2])} unencoded sizes for {len(locs)} pages")
    return firsts


def column_index(ck, buf, g, cc, node, data, firsts, where, rows, ctx):
    try:
        ci, _ = T.decode_at(buf, cc[6])
        nulls, lo, hi = list(ci[1]), list(ci[2]), list(ci[3])
    except (T.ThriftError, KeyError, IndexError) as e:
        ck.fail("page_index", f"{where}: column index unreadable: {e}")
        return
    if not (len(nulls) == len(lo) == len(hi) == len(data)):
        ck.fail("page_index", f"{where}: column index of {len(nulls)} pages, the chunk has "
                              f"{len(data)}")
        return
    counts = list(ci[5]) if ci.get(5) is not None else None
    dec = ci_decoder(node["el"])
    if dec is None or firsts is None or node["rep"] or "." in node["path"]:
        return
    _, vals = column_data(ck, g, node["path"], ctx)
    ends = firsts[1:] + [rows]
    bounds = []
    for i, (a, b) in enumerate(zip(firsts, ends)):
        page = vals[a:b]
        present = [dec(None, v) for v in page if v is not None]
        present = [v for v in present if v is not None]
        n_null = sum(v is None for v in page)
        if counts is not None and counts[i] != n_null:
            ck.fail("page_index", f"{where}: page {i} null_count {counts[i]}, its rows {n_null}")
        if nulls[i] != (n_null == len(page)):
            ck.fail("page_index", f"{where}: page {i} null_pages {nulls[i]}, rows {a}..{b} have "
                                  f"{n_null} nulls of {len(page)}")
            continue
        if nulls[i] or not present:
            continue
        pl, ph = dec(lo[i]), dec(hi[i])
        bounds.append((pl, ph))
        if (pl is not None and pl > min(present)) or (ph is not None and ph < max(present)):
            ck.fail("page_index", f"{where}: page {i} (rows {a}..{b}) bounds {pl!r}..{ph!r}, "
                                  f"its data {min(present)!r}..{max(present)!r}")
            return
    order = ci.get(4)
    pairs = [(x, y) for x, y in zip(bounds, bounds[1:]) if None not in x + y]
    if order == 1 and any(x[0] > y[0] or x[1] > y[1] for x, y in pairs):
        ck.fail("page_index", f"{where}: boundary_order ASCENDING, the page bounds are not")
    if order == 2 and any(x[0] < y[0] or x[1] < y[1] for x, y in pairs):
        ck.fail("page_index", f"{where}: boundary_order DESCENDING, the page bounds are not")


# Bloom filters ---------------------------------------------------------------------------

def bloom(ck, buf, g, cc, node, ins, where, ctx):
    md = cc[3]
    path = node["path"]
    wanted = path in ck.case.get("bloom_columns", []) or (
        ins and all(c is not None and c[3].get(14) is not None for _, _, c, _ in ins))
    if ins and any(c is None or c[3].get(14) is None for _, _, c, _ in ins):
        wanted = False
    if wanted and md.get(14) is None:
        ck.fail("bloom", f"{where}: no bloom filter, its inputs all had one")
        return
    if md.get(14) is None:
        return
    try:
        h, end = T.decode_at(buf, md[14])
        n = h[1]
    except (T.ThriftError, KeyError, IndexError) as e:
        ck.fail("bloom", f"{where}: bloom filter header unreadable at {md[14]}: {e}")
        return
    if n <= 0 or n % 32 or end + n > T.footer(buf)[1]:
        ck.fail("bloom", f"{where}: bloom filter of {n} bytes at {md[14]}")
        return
    if md.get(15) is not None and md[15] != end - md[14] + n:
        ck.fail("bloom", f"{where}: bloom_filter_length {md[15]}, header and bitset "
                         f"{end - md[14] + n}")
    ctx.setdefault("bloom", {}).setdefault(path, set()).add(g)


def bloom_probes(ck, meta, ctx):
    """DuckDB's parquet_bloom_probe: no filter excludes a value its row group holds, and the
    filters exclude most values absent from the file (a saturated filter is a failure)."""
    if not ctx.get("bloom") or "." in "".join(ctx["bloom"]):
        return
    try:
        import duckdb
    except ImportError:
        ck.skip("bloom", "duckdb is missing: filters not probed")
        return
    con = duckdb.connect()
    starts = [0]
    for rg in meta[4]:
        starts.append(starts[-1] + rg[3])
    for col, groups in ctx["bloom"].items():
        rows = con.execute(f'select "{col}", file_row_number from read_parquet(?, '
                           f'file_row_number = true) where "{col}" is not null',
                           [ck.output]).fetchall()
        where = {}
        for v, r in rows:
            where.setdefault(v, set()).add(bisect.bisect_right(starts, r) - 1)
        present = sorted(where, key=repr)
        sample = present[:: max(1, len(present) // 40)][:40]
        for v in sample:
            res = con.execute("select row_group_id, bloom_filter_excludes from "
                              "parquet_bloom_probe(?, ?, ?)", [ck.output, col, v]).fetchall()
            bad = sorted({gid for gid, ex in res if ex} & where[v])
            if bad:
                ck.fail("bloom", f"column {col}: the filters of row groups {bad} exclude {v!r}, "
                                 f"which they hold")
                break
        absent = absent_values(present)
        if not absent:
            continue
        excluded, probed = {}, 0
        for v in absent:
            try:
                res = con.execute("select row_group_id, bloom_filter_excludes from "
                                  "parquet_bloom_probe(?, ?, ?)", [ck.output, col, v]).fetchall()
            except duckdb.Error:  # out of the column type's range
                continue
            probed += 1
            for gid, ex in res:
                if gid in groups:
                    excluded[gid] = excluded.get(gid, 0) + bool(ex)
        if probed < 20:
            ck.skip("bloom", f"column {col}: {probed} absent values to probe")
            continue
        weak = sorted(gid for gid, n in excluded.items() if n < probed // 2)
        if weak:
            ck.fail("bloom", f"column {col}: the filters of row groups {weak[:10]} exclude fewer "
                             f"than half of {probed} absent values")


def absent_values(present):
    if present and all(isinstance(v, str) for v in present):
        return [f"absent-{i}-zz" for i in range(30)]
    if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        have, lo, hi = set(present), min(present), max(present)
        step = max(1, (hi - lo) // 400)
        out = [v for v in range(lo, hi, step) if v not in have][:30]
        return out + list(range(hi + 1, hi + 31 - len(out))) + list(range(lo - 30, lo))
    return []
