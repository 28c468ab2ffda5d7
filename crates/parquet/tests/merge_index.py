"""The page index and bloom filter checks of merge_check.py (called from merge_meta.py).

Page index: an output chunk whose inputs all had an offset/column index has them; the offset
index lists exactly the chunk's data pages (offsets and sizes as the page headers give them),
first_row_index starts at 0, rises, and matches the rows each page holds (v2 pages and flat
v1 pages say); the column index has one entry per page, null_pages/null_counts true of each
page's rows, bounds that hold each page's values (flat integer, decimal, date, float, string and
binary columns) and a truthful boundary_order; and readers that use the index find the rows a
filter selects (DuckDB prunes pages by the column index; Spark's parquet-mr also seeks by the
offset index).

Bloom filters: a chunk whose inputs all had one has one (and case.json's bloom_columns must),
its header parses and fits, bloom_filter_length agrees, DuckDB's parquet_bloom_probe never
excludes a value the row group holds, and excludes most values absent from the file.
"""
import bisect
import struct

import pyarrow as pa
import pyarrow.parquet as pq

import merge_thrift as T
from merge_meta import EPOCH, column_data, key

# Page index ------------------------------------------------------------------------------

def same(v):
    return v


def ci_decoder(el):
    """(decode a column-index bound, map a data value to the bounds' domain), or None for the
    types not compared (INT96, timestamps and times, FIXED_LEN_BYTE_ARRAY)."""
    phys, lt, conv = el.get(1), el.get(10) or {}, el.get(6)
    unsigned = (lt.get(10) is not None and not lt[10].get(2, True)) or conv in (11, 12, 13, 14)

    def unpack(fmt):
        return lambda b: struct.unpack(fmt, b)[0]

    if phys in (1, 2):
        fmt = "<i" if phys == 1 else "<q"
        if lt.get(5) is not None or conv == 5:  # DECIMAL: the unscaled integer
            scale = el.get(7, 0)
            return unpack(fmt), lambda d: int(d.scaleb(scale))
        if lt.get(6) is not None or conv == 6:  # DATE: days
            return unpack(fmt), lambda d: (d - EPOCH.date()).days
        if not lt or lt.get(10) is not None:
            return unpack(fmt.upper() if unsigned else fmt), same
        return None
    if phys in (4, 5):
        f = unpack("<f" if phys == 4 else "<d")
        return (lambda b: key(f(b))), key
    if phys == 6 and not (lt.get(5) is not None or conv == 5):
        return bytes, lambda d: d.encode() if isinstance(d, str) else d
    if phys == 0:
        return (lambda b: bool(b[0] & 1)), same
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
        if node["rep"] == 0 and "." not in node["path"]:
            ctx.setdefault("page_indexed", set()).add(node["path"])


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
    if firsts is None or node["rep"] or "." in node["path"]:
        return  # rows per page known only for flat columns
    decode, domain = ci_decoder(node["el"]) or (None, None)
    _, vals = column_data(ck, g, node["path"], ctx)
    ends = firsts[1:] + [rows]
    bounds = []
    for i, (a, b) in enumerate(zip(firsts, ends)):
        page = vals[a:b]
        n_null = sum(v is None for v in page)
        if counts is not None and counts[i] != n_null:
            ck.fail("page_index", f"{where}: page {i} null_count {counts[i]}, its rows {n_null}")
        if nulls[i] != (n_null == len(page)):
            ck.fail("page_index", f"{where}: page {i} null_pages {nulls[i]}, rows {a}..{b} have "
                                  f"{n_null} nulls of {len(page)}")
            continue
        present = [domain(v) for v in page if v is not None] if decode else []
        present = [v for v in present if v is not None]
        if nulls[i] or not present:
            continue
        pl, ph = decode(lo[i]), decode(hi[i])
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


def duckdb_offsets(ck, meta):
    """DuckDB's parquet_metadata() sees the page index and bloom filter offsets this reading of
    the footer sees, chunk by chunk."""
    try:
        import duckdb
    except ImportError:
        ck.skip("page_index", "duckdb is missing: parquet_metadata() not compared")
        return
    rows = duckdb.connect().execute(
        "select row_group_id, column_id, column_index_offset, offset_index_offset, "
        "bloom_filter_offset from parquet_metadata(?)", [ck.output]).fetchall()
    theirs = {(g, c): tuple(rest) for g, c, *rest in rows}
    for g, rg in enumerate(meta[4]):
        for c, cc in enumerate(rg[1]):
            ours = (cc.get(6), cc.get(4), cc[3].get(14))
            if theirs.get((g, c)) != ours:
                ck.fail("page_index", f"row group {g} column {c}: DuckDB's parquet_metadata gives "
                                      f"column/offset index and bloom filter offsets "
                                      f"{theirs.get((g, c))}, the footer {ours}")
                return


def filtered_reads(ck, ctx):
    """Readers that prune pages by the column index and seek by the offset index (DuckDB prunes
    by the column index; Spark's parquet-mr does both) find every row an equality or a range
    filter selects, on flat integer and string columns with a page index."""
    cols = sorted(ctx.get("page_indexed", ()))
    if not cols:
        return
    table = pq.read_table(ck.output, columns=cols)
    queries = []
    for c in cols:
        col = table.column(c)
        t = col.type.value_type if pa.types.is_dictionary(col.type) else col.type
        if not (pa.types.is_integer(t) or t in (pa.string(), pa.large_string())):
            continue
        vals = [v for v in col.to_pylist() if v is not None]
        if not vals:
            continue
        picks = [vals[i * (len(vals) - 1) // 6] for i in range(7)]
        for v in picks:
            queries.append((c, "=", v, sum(x == v for x in vals)))
        lo, hi = sorted(picks[2:4])
        queries.append((c, "between", (lo, hi), sum(lo <= x <= hi for x in vals)))
    try:
        import duckdb
        con = duckdb.connect()
        for c, op, v, want in queries:
            args = list(v) if op == "between" else [v]
            cond = f'"{c}" between ? and ?' if op == "between" else f'"{c}" = ?'
            try:
                got = con.execute(f"select count(*) from read_parquet(?) where {cond}",
                                  [ck.output] + args).fetchone()[0]
            except duckdb.Error as e:
                ck.fail("page_index", f"DuckDB's read filtered by {c} {op} {v!r}: {e}"[:600])
                continue
            if got != want:
                ck.fail("page_index", f"DuckDB's read filtered by {c} {op} {v!r} finds {got} "
                                      f"rows, the data has {want}")
    except ImportError:
        ck.skip("page_index", "duckdb is missing: no filtered reads")
    if "spark" in ck.engines:
        import merge_engines
        merge_engines.spark_filtered(ck, queries[::max(1, len(queries) // 6)][:6])  # slow jobs


# Bloom filters ---------------------------------------------------------------------------

def bloom(ck, buf, g, cc, node, ins, where, ctx):
    md = cc[3]
    path = node["path"]
    wanted = path in ck.case.get("bloom_columns", []) or (
        ins and all(c is not None and c[3].get(14) is not None for _, _, c, _ in ins))
    if ins and any(c is None or c[3].get(14) is None for _, _, c, _ in ins):
        wanted = False
    # Joined row groups whose filters cannot be united get one rebuilt from the values.
    if len(ins) > 1 and path in ck.case.get("bloom_rebuilt", []) and ck.mode != "verbatim":
        wanted = True
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
