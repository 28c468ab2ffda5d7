"""The metadata checks of merge_check.py: chunk layout, dictionaries kept when coalescing,
statistics and size statistics of the merged file, against its inputs' and its own data; the
page index and bloom filters are merge_index.py's.

`mapping[g]` is the list of (input file, input row group) output row group g is made of (None:
unknown, then only the checks against the output's own data run). A column missing from an
input counts as an all-null chunk of that row group's rows, which has no statistics, page
index or bloom filter to carry.
"""
import datetime
import math

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
    import merge_index  # it uses this module's helpers
    _META.clear()
    nodes = {n["path"]: n for n in T.nodes(meta) if n["leaf"]}
    ctx = {"data": {}}
    for g, rg in enumerate(meta[4]):
        total = uncompressed = 0
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
            uncompressed += md[6]
            m = mapping[g] if g < len(mapping) else None
            ins = mapped(metas, m, path) if m is not None else None
            if pages is not None and ins and ck.mode == "coalesce":
                dictionary_kept(ck, pages, ins, where)
            stats(ck, g, cc, node, ins, where, ctx)
            size_stats(ck, md, ins, where)
            if pages is not None:
                merge_index.page_index(ck, buf, g, cc, node, pages, ins, where, rg[3], ctx)
            merge_index.bloom(ck, buf, g, cc, node, ins, where, ctx)
        if rg.get(6) is not None and rg[6] != total:
            ck.fail("layout", f"row group {g}: total_compressed_size {rg[6]}, chunks sum {total}")
        if rg.get(7) is not None and rg[7] != g:
            ck.fail("layout", f"row group {g}: ordinal {rg[7]}")
        if rg.get(2) != uncompressed:
            ck.fail("layout", f"row group {g}: total_byte_size {rg.get(2)}, the chunks' "
                              f"uncompressed sizes sum {uncompressed}")
        if rg.get(5) is not None and rg[1] and rg[5] != T.chunk_range(rg[1][0][3])[0]:
            ck.fail("layout", f"row group {g}: file_offset {rg[5]}, its first chunk starts at "
                              f"{T.chunk_range(rg[1][0][3])[0]}")
    merge_index.bloom_probes(ck, meta, ctx)
    merge_index.filtered_reads(ck, ctx)
    merge_index.duckdb_offsets(ck, meta)


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
    # Every data page's value encoding is listed; a dictionary page's PLAIN may be left out
    # where a dictionary encoding is listed (DuckDB lists only PLAIN_DICTIONARY/RLE_DICTIONARY).
    values = set().union(*(values_of(p) for p in data)) if data else set()
    listed = set(md[2].items)
    if dicts and not listed & (DICTIONARY_ENCODINGS | values_of(pages[0])):
        values |= values_of(pages[0])
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


DICTIONARY_ENCODINGS = {2, 8}  # PLAIN_DICTIONARY, RLE_DICTIONARY


def dictionary_kept(ck, pages, ins, where):
    """Coalescing: a chunk made of dictionary-encoded chunks whose dictionaries together fit the
    limit is still wholly dictionary-encoded (merged dictionary, remapped indices)."""
    if len(ins) < 2 or any(cc is None for _, _, cc, _ in ins):
        return
    limit = ck.case.get("dictionary_page_limit", 1 << 20)
    size = 0
    for fi, _, cc, _ in ins:
        in_pages = T.walk_pages(ck.in_bufs[fi], cc[3])
        if not in_pages or in_pages[0]["type"] != T.DICTIONARY_PAGE:
            return
        if any(not values_of(p) <= DICTIONARY_ENCODINGS for p in in_pages[1:]):
            return
        size += in_pages[0]["header"].get(2, 0)
    if size > limit:
        return
    plain = [i for i, p in enumerate(pages)
             if p["type"] != T.DICTIONARY_PAGE and not values_of(p) <= DICTIONARY_ENCODINGS]
    if plain or not pages or pages[0]["type"] != T.DICTIONARY_PAGE:
        ck.fail("dictionary", f"{where}: its inputs are dictionary-encoded with dictionaries of "
                              f"{size} bytes together (limit {limit}), but pages {plain[:8]} of "
                              f"{len(pages)} are not (or there is no dictionary page)")


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
        got_nulls = s.null_count if s.has_null_count else None
        if merged["nulls"] is not None and got_nulls != merged["nulls"]:
            ck.fail("stats", f"{where}: null_count {got_nulls}, the inputs' sum {merged['nulls']}")
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
    """Each SizeStatistics field every input chunk has is the sum of theirs."""
    if not ins or any(cc is None or cc[3].get(16) is None for _, _, cc, _ in ins):
        return
    parts = [cc[3][16] for _, _, cc, _ in ins]
    got = md.get(16)
    if got is None:
        if any(all(p.get(f) is not None for p in parts) for f in (1, 2, 3)):
            ck.fail("size_stats", f"{where}: no size_statistics, its inputs all had them")
        return
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
