#!/usr/bin/env python3
"""A randomized differential campaign for quiver's Parquet reader, writer and merge.

Each case builds a random pyarrow table (flat and nested types, nulls at every level, edge
values), writes it with a random writer and options (pyarrow, DuckDB, polars, fastparquet),
reads it with `quiver convert` and compares with pyarrow's reading; writes it with quiver
under random options and has pyarrow, DuckDB and polars read it back; merges random splits
with `quiver merge`. Discrepancies are logged to $DIFF_DIR/failures.jsonl with a signature,
and their inputs saved under $DIFF_DIR/repro/.

Not part of CI (it runs until stopped): `python3 scripts/differential.py SEED [CASES]
[DEADLINE_UNIX_SECONDS]`, with QUIVER_BIN (default target/release/quiver) and DIFF_DIR
(default /tmp/quiver-diff). Stop 31 ran it for 40 minutes (about 3,200 cases per direction):
it found the fixed-size-list-of-dictionary and list-view bugs fixed then. Stop 32 ran seeds
101-113 for 45 minutes (5,917 reader, 6,542 writer and 1,988 merge cases): it found the
merge's empty v2 pages written as v1 without level lengths, and dictionaries of many row
groups that concat could not index; triaging it found merges keeping an ARROW:schema that
read other inputs' values otherwise. Stop 33 ran seed 301 for 30 minutes (3,058 reader, 3,382
writer and 965 merge cases): nothing new by itself; the hand probes beside it found nested
dictionaries whose merged keys outgrew int8, field ids conflicting across inputs that carry
ids on some fields only, and writes of replaced int8 dictionaries into one row group.
"""
import sys, os, json, random, subprocess, struct, traceback, time, shutil, decimal, hashlib
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pyarrow.compute as pc

DIR = os.environ.get('DIFF_DIR', '/tmp/quiver-diff')
Q = os.environ.get('QUIVER_BIN', os.path.join(os.path.dirname(__file__), '..', 'target', 'release', 'quiver'))
WORK = os.path.join(DIR, 'work')
REPRO = os.path.join(DIR, 'repro')
LOG = os.path.join(DIR, 'failures.jsonl')
STATS = os.path.join(DIR, 'stats.json')
os.makedirs(WORK, exist_ok=True)
os.makedirs(REPRO, exist_ok=True)

def run_q(args, timeout=60):
    cmd = [Q, '-q'] + args
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout)
        err = p.stderr.decode('utf-8', 'replace')
        if p.returncode != 0 and not err.strip():
            # `validate` reports what is wrong on stdout.
            err = p.stdout.decode('utf-8', 'replace')
        return p.returncode, err
    except subprocess.TimeoutExpired:
        return 'timeout', ''

# ---------------------------------------------------------------- types
INT_TYPES = [pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(), pa.uint16(), pa.uint32(), pa.uint64()]
FLOAT_TYPES = [pa.float16(), pa.float32(), pa.float64()]
TS_UNITS = ['s', 'ms', 'us', 'ns']

def rand_leaf(r):
    if r.random() < 0.08:
        return r.choice([pa.null(), pa.string_view(), pa.binary_view(), pa.uuid(), pa.json_(), pa.dictionary(pa.int32(), pa.int64()), pa.dictionary(pa.int8(), pa.date32()), pa.dictionary(pa.int16(), pa.float64()), pa.dictionary(pa.int32(), pa.binary(3))])
    k = r.choice(['int', 'int', 'float', 'bool', 'str', 'str', 'bin', 'fsb', 'dec', 'date', 'time', 'ts', 'ts', 'dur', 'dict'])
    if k == 'int': return r.choice(INT_TYPES)
    if k == 'float': return r.choice(FLOAT_TYPES)
    if k == 'bool': return pa.bool_()
    if k == 'str': return r.choice([pa.string(), pa.large_string()])
    if k == 'bin': return r.choice([pa.binary(), pa.large_binary()])
    if k == 'fsb': return pa.binary(r.choice([1, 3, 16]))
    if k == 'dec':
        if r.random() < 0.5:
            p = r.choice([1, 5, 9, 10, 18, 19, 28, 38]); s = r.randint(0, p)
            return pa.decimal128(p, s)
        p = r.choice([1, 20, 39, 50, 76]); s = r.randint(0, min(p, 10))
        return pa.decimal256(p, s)
    if k == 'date': return r.choice([pa.date32(), pa.date64()])
    if k == 'time': return r.choice([pa.time32('s'), pa.time32('ms'), pa.time64('us'), pa.time64('ns')])
    if k == 'ts': return pa.timestamp(r.choice(TS_UNITS), tz=r.choice([None, None, 'UTC', 'Europe/Paris', '+05:30']))
    if k == 'dur': return pa.duration(r.choice(TS_UNITS))
    if k == 'dict':
        return pa.dictionary(r.choice([pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8()]), r.choice([pa.string(), pa.string(), pa.large_string(), pa.binary(), pa.int32()]))

def rand_type(r, depth):
    if depth <= 0 or r.random() < 0.55:
        return rand_leaf(r)
    k = r.choice(['list', 'large_list', 'fsl', 'struct', 'struct', 'map'] * 5 + ['list_view'])
    if k == 'list_view': return r.choice([pa.list_view, pa.large_list_view])(rand_type(r, depth - 1))
    if k == 'list': return pa.list_(rand_type(r, depth - 1))
    if k == 'large_list': return pa.large_list(rand_type(r, depth - 1))
    if k == 'fsl': return pa.list_(rand_type(r, depth - 1), r.choice([1, 2, 3]))
    if k == 'struct':
        n = r.randint(1, 3)
        return pa.struct([pa.field('f%d' % i, rand_type(r, depth - 1)) for i in range(n)])
    if k == 'map':
        kt = r.choice([pa.string(), pa.int32(), pa.int64(), pa.large_string()])
        return pa.map_(kt, rand_type(r, depth - 1))

# ---------------------------------------------------------------- data
STR_POOL = ['', 'a', 'abc', 'héllo', '日本語テキスト', '🦀🦀', 'x' * 300, 'Zz', 'zzz', '\x00nul', 'ÿ', 'same', 'same2']

def nulldens(r):
    return r.choice([0.0, 0.0, 0.1, 0.1, 0.9, 1.0])

def mask_for(r, n, p):
    if p == 0.0: return None
    if p == 1.0: return np.ones(n, dtype=bool)
    mode = r.random()
    if mode < 0.6:
        return np.array([r.random() < p for _ in range(n)], dtype=bool)
    if mode < 0.85:
        # Runs of nulls and values of random lengths (short to a few pages long): the RLE /
        # bit-packed level runs of every length, and run boundaries at every offset.
        out = np.zeros(n, dtype=bool); i = 0; null = r.random() < p
        scale = r.choice([3, 8, 64, 504, 4096])
        while i < n:
            k = 1 + int(r.expovariate(1.0 / scale))
            out[i:i + k] = null; i += k; null = not null
        return out
    # Periodic patterns (a period of 1 to 70 slots), the shapes word-at-a-time encoders see.
    period = r.randint(1, 70)
    base = [r.random() < p for _ in range(period)]
    return np.array([base[i % period] for i in range(n)], dtype=bool)

def gen_ints(r, t, n):
    bits = t.bit_width; signed = pa.types.is_signed_integer(t)
    mode = r.choice(['small', 'full', 'full', 'const'])
    nr = np.random.default_rng(r.randint(0, 2**31))
    if signed: lo, hi = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
    else: lo, hi = 0, 2 ** bits - 1
    if mode == 'small':
        v = nr.integers(max(lo, -5), min(hi, 20) + 1, size=n, dtype=np.int64) if signed else nr.integers(0, 21, size=n, dtype=np.uint64)
    elif mode == 'const':
        v = np.full(n, r.choice([lo, hi, 0]), dtype=np.int64 if signed else np.uint64)
    else:
        v = nr.integers(lo, hi, size=n, dtype=np.int64 if signed else np.uint64, endpoint=True)
        # sprinkle extremes
        for i in range(min(n, 5)):
            v[r.randrange(n)] = r.choice([lo, hi])
    return v

def gen_leaf(r, t, n, p):
    m = mask_for(r, n, p)
    nr = np.random.default_rng(r.randint(0, 2**31))
    if pa.types.is_integer(t):
        return pa.array(gen_ints(r, t, n).astype(t.to_pandas_dtype()), type=t, mask=m)
    if pa.types.is_floating(t):
        npt = {16: np.float16, 32: np.float32, 64: np.float64}[t.bit_width]
        v = (nr.standard_normal(n) * 10 ** r.randint(0, 6)).astype(npt)
        specials = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1e-45 if t.bit_width != 16 else 6e-8], dtype=npt)
        for i in range(n):
            if r.random() < 0.1: v[i] = specials[r.randrange(len(specials))]
        if r.random() < 0.1: v[:] = np.nan
        return pa.array(v, type=t, mask=m)
    if pa.types.is_boolean(t):
        return pa.array(nr.random(n) < r.choice([0.0, 0.5, 1.0, 0.9]), mask=m)
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_binary(t) or pa.types.is_large_binary(t):
        pool = STR_POOL if r.random() < 0.6 else ['s%d' % i for i in range(r.randint(1, 3000))] + ['']
        vals = [pool[r.randrange(len(pool))] for _ in range(n)]
        if r.random() < 0.1: vals = ['k' * r.randint(2000, 40000) for _ in range(n)][:n]
        if pa.types.is_binary(t) or pa.types.is_large_binary(t):
            vals = [v.encode() for v in vals]
        return pa.array(vals, type=t, mask=m)
    if pa.types.is_fixed_size_binary(t):
        w = t.byte_width
        vals = [bytes(nr.integers(0, 256, size=w, dtype=np.uint8)) if r.random() < 0.7 else b'\x00' * w for _ in range(n)]
        return pa.array(vals, type=t, mask=m)
    if pa.types.is_decimal(t):
        P, S = t.precision, t.scale
        vals = []
        decimal.getcontext().prec = 100
        for _ in range(n):
            c = r.random()
            if c < 0.1: d = 10 ** P - 1
            elif c < 0.2: d = -(10 ** P - 1)
            elif c < 0.3: d = 0
            else: d = r.randint(-(10 ** P - 1), 10 ** P - 1)
            vals.append(decimal.Decimal(d).scaleb(-S))
        with decimal.localcontext() as ctx:
            ctx.prec = 100
            return pa.array(vals, type=t, mask=m)
    if pa.types.is_date32(t):
        return pa.array(nr.integers(-800000, 2900000, size=n, dtype=np.int32), type=pa.int32(), mask=m).view(t) if m is None else pa.array(nr.integers(-800000, 2900000, size=n, dtype=np.int32), mask=m).view(t)
    if pa.types.is_date64(t):
        d = nr.integers(-800000, 2900000, size=n).astype(np.int64) * 86400000
        return pa.array(d, mask=m).view(t)
    if pa.types.is_time32(t):
        hi = 86400 if t.unit == 's' else 86400000
        return pa.array(nr.integers(0, hi, size=n, dtype=np.int32), mask=m).view(t)
    if pa.types.is_time64(t):
        hi = 86400 * 10 ** 6 if t.unit == 'us' else 86400 * 10 ** 9
        return pa.array(nr.integers(0, hi, size=n, dtype=np.int64), mask=m).view(t)
    if pa.types.is_timestamp(t) or pa.types.is_duration(t):
        mode = r.choice(['recent', 'full', 'small'])
        if mode == 'recent':
            base = 1_700_000_000 * {'s': 1, 'ms': 10**3, 'us': 10**6, 'ns': 10**9}[t.unit]
            v = base + nr.integers(-10**12, 10**12, size=n, dtype=np.int64)
        elif mode == 'full':
            v = nr.integers(-2**62, 2**62, size=n, dtype=np.int64)
            if t.unit in ('s', 'ms', 'us') and pa.types.is_timestamp(t):
                v = nr.integers(-2**40, 2**40, size=n, dtype=np.int64)
        else:
            v = nr.integers(-1000, 1000, size=n, dtype=np.int64)
        return pa.array(v, mask=m).view(t)
    if pa.types.is_dictionary(t):
        vt = t.value_type
        nd = r.choice([1, 2, 5, 100])
        if pa.types.is_integer(t.index_type) and t.index_type.bit_width == 8:
            nd = min(nd, 100)
        if pa.types.is_int32(vt) or pa.types.is_int64(vt) or pa.types.is_floating(vt):
            dvals = pa.array(list(range(nd)), vt)
        elif pa.types.is_date32(vt):
            dvals = pa.array(list(range(nd)), pa.int32()).view(vt)
        elif pa.types.is_fixed_size_binary(vt):
            dvals = pa.array([b'%03d' % i for i in range(nd)], vt)
        else:
            dv = ['', 'é', 'x' * 50] + ['d%d' % i for i in range(nd)]
            dv = dv[:nd]
            if pa.types.is_binary(vt): dv = [s.encode() for s in dv]
            dvals = pa.array(dv, vt)
        idx = pa.array(nr.integers(0, nd, size=n).astype(t.index_type.to_pandas_dtype()), type=t.index_type, mask=m)
        return pa.DictionaryArray.from_arrays(idx, dvals)
    raise ValueError(t)

def gen_array(r, t, n, depth=0):
    p = nulldens(r) if depth == 0 or r.random() < 0.7 else 0.0
    if pa.types.is_list_view(t) or pa.types.is_large_list_view(t):
        base = gen_array(r, (pa.list_ if pa.types.is_list_view(t) else pa.large_list)(t.value_field), n, depth)
        cls = pa.ListViewArray if pa.types.is_list_view(t) else pa.LargeListViewArray
        it = pa.int32() if pa.types.is_list_view(t) else pa.int64()
        offs = base.offsets.to_numpy()
        sizes = pa.array(np.diff(offs), it)
        return cls.from_arrays(pa.array(offs[:-1], it), sizes, base.values, type=t, mask=base.is_null())
    if t == pa.null():
        return pa.nulls(n)
    if isinstance(t, pa.ExtensionType) or isinstance(t, (pa.UuidType, pa.JsonType)):
        if isinstance(t, pa.UuidType):
            st = gen_leaf(r, pa.binary(16), n, p)
        else:
            st = pa.array(['{"a": %d}' % i if i % 3 else '[]' for i in range(n)], pa.string(), mask=mask_for(r, n, p))
        return pa.ExtensionArray.from_storage(t, st)
    if pa.types.is_string_view(t) or pa.types.is_binary_view(t):
        return gen_leaf(r, pa.string() if pa.types.is_string_view(t) else pa.binary(), n, p).cast(t)
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_map(t):
        lens = [r.choice([0, 0, 1, 2, 3, 5]) for _ in range(n)] if r.random() < 0.9 else [0] * n
        m = mask_for(r, n, p)
        if m is not None:
            lens = [0 if m[i] else lens[i] for i in range(n)]
        offs = np.concatenate([[0], np.cumsum(lens)])
        total = int(offs[-1])
        if pa.types.is_map(t):
            kt = t.key_type
            # unique keys per map
            keys = []
            for L in lens:
                ks = r.sample(range(1000), L)
                keys.extend(ks)
            if pa.types.is_string(kt) or pa.types.is_large_string(kt):
                keys = pa.array(['k%d' % k for k in keys], kt)
            else:
                keys = pa.array(keys, kt)
            items = gen_array(r, t.item_type, total, depth + 1)
            return pa.MapArray.from_arrays(pa.array(offs, pa.int32()), keys, items, type=t, mask=pa.array(m) if m is not None else None)
        vals = gen_array(r, t.value_type, total, depth + 1)
        if pa.types.is_list(t):
            return pa.ListArray.from_arrays(pa.array(offs, pa.int32()), vals, type=t, mask=pa.array(m) if m is not None else None)
        return pa.LargeListArray.from_arrays(pa.array(offs, pa.int64()), vals, type=t, mask=pa.array(m) if m is not None else None)
    if pa.types.is_fixed_size_list(t):
        m = mask_for(r, n, p)
        vals = gen_array(r, t.value_type, n * t.list_size, depth + 1)
        return pa.FixedSizeListArray.from_arrays(vals, type=t, mask=pa.array(m) if m is not None else None)
    if pa.types.is_struct(t):
        m = mask_for(r, n, p)
        ch = [gen_array(r, f.type, n, depth + 1) for f in t]
        return pa.StructArray.from_arrays(ch, fields=list(t), mask=pa.array(m) if m is not None else None)
    return gen_leaf(r, t, n, p)

NAMES = ['a', 'b', 'col', 'x_y', 'é名', 'value', 'id', 'z9']

def rand_table(r, flat_only=False):
    n = r.choice([100, 257, 1000, 2049, 5000, r.randint(100, 5000)])
    if r.random() < 0.05: n = r.choice([0, 1, 2])
    if r.random() < 0.03: n = r.choice([20000, 70000])
    ncol = r.randint(1, 6)
    names = r.sample(NAMES, ncol)
    cols, fields = [], []
    for nm in names:
        t = rand_leaf(r) if flat_only else rand_type(r, r.choice([0, 1, 2, 3]))
        a = gen_array(r, t, n)
        nullable = True
        if a.null_count == 0 and r.random() < 0.2:
            nullable = False
        cols.append(a); fields.append(pa.field(nm, a.type, nullable=nullable))
    return pa.Table.from_arrays(cols, schema=pa.schema(fields))

# ---------------------------------------------------------------- compare
def is_float(t): return pa.types.is_floating(t)

STORAGE = {}
def storage_view(a):
    t = a.type
    if pa.types.is_timestamp(t) or pa.types.is_duration(t) or pa.types.is_date64(t) or pa.types.is_time64(t):
        return a.view(pa.int64())
    if pa.types.is_date32(t) or pa.types.is_time32(t):
        return a.view(pa.int32())
    return a

def canon(v):
    if isinstance(v, float):
        return ('nan',) if v != v else ('f', struct.pack('>d', v))
    if isinstance(v, list): return [canon(x) for x in v]
    if isinstance(v, tuple): return tuple(canon(x) for x in v)
    if isinstance(v, dict): return {k: canon(x) for k, x in v.items()}
    return v

def decode(a):
    if pa.types.is_dictionary(a.type):
        a = a.dictionary_decode()
    if isinstance(a, pa.ExtensionArray):
        a = a.storage
    if pa.types.is_string_view(a.type):
        a = a.cast(pa.large_string())
    elif pa.types.is_binary_view(a.type):
        a = a.cast(pa.large_binary())
    return a

def cmp_struct(a, b, path):
    """Compares two struct arrays field by field (names, then values)."""
    ta, tb = a.type, b.type
    if ta.num_fields != tb.num_fields:
        return f'{path}: type kind {ta} vs {tb}'
    fa = a.flatten(); fb = b.flatten()
    for i in range(ta.num_fields):
        if ta.field(i).name != tb.field(i).name:
            return f'{path}: field name {ta.field(i).name} vs {tb.field(i).name}'
        e = cmp_arr(fa[i], fb[i], path + '.' + ta.field(i).name)
        if e: return e
    return None

def cmp_arr(a, b, path='$'):
    """Return None if equal else a description string."""
    a = decode(a); b = decode(b)
    if len(a) != len(b):
        return f'{path}: length {len(a)} vs {len(b)}'
    ta, tb = a.type, b.type
    na = a.is_null().to_numpy(zero_copy_only=False); nb = b.is_null().to_numpy(zero_copy_only=False)
    if not np.array_equal(na, nb):
        i = int(np.nonzero(na != nb)[0][0])
        return f'{path}: null mismatch at row {i}: expected null={na[i]} got null={nb[i]} (types {ta} / {tb})'
    if pa.types.is_struct(ta) and pa.types.is_struct(tb):
        # children of null struct slots are masked by flatten()
        return cmp_struct(a, b, path)
    valid = pa.array(~na)
    try:
        a2 = a.filter(valid); b2 = b.filter(valid)
    except pa.ArrowNotImplementedError:
        la_, lb_ = a.to_pylist(), b.to_pylist()
        if canon(la_) != canon(lb_):
            return f'{path}: pylist mismatch ({ta} / {tb})'
        return None
    if pa.types.is_map(ta) != pa.types.is_map(tb):
        return f'{path}: type kind {ta} vs {tb}'
    if pa.types.is_map(ta):
        a2 = pa.ListArray.from_arrays(a2.offsets, a2.values)
        b2 = pa.ListArray.from_arrays(b2.offsets, b2.values)
        ta, tb = a2.type, b2.type
    listy = lambda t: pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t) or pa.types.is_list_view(t) or pa.types.is_large_list_view(t)
    if listy(ta) or listy(tb):
        if not (listy(ta) and listy(tb)):
            return f'{path}: type kind {ta} vs {tb}'
        la = pc.list_value_length(a2).cast(pa.int64()).to_numpy(zero_copy_only=False)
        lb = pc.list_value_length(b2).cast(pa.int64()).to_numpy(zero_copy_only=False)
        if not np.array_equal(la, lb):
            i = int(np.nonzero(la != lb)[0][0])
            return f'{path}: list length mismatch at valid row {i}: {la[i]} vs {lb[i]}'
        return cmp_arr(a2.flatten(), b2.flatten(), path + '[]')
    if pa.types.is_struct(ta) or pa.types.is_struct(tb):
        if not (pa.types.is_struct(ta) and pa.types.is_struct(tb)):
            return f'{path}: type kind {ta} vs {tb}'
        return cmp_struct(a2, b2, path)
    if is_float(ta) or is_float(tb):
        if ta != tb:
            return f'{path}: float type {ta} vs {tb}'
        x = a2.to_numpy(zero_copy_only=False); y = b2.to_numpy(zero_copy_only=False)
        ux = {2: np.uint16, 4: np.uint32, 8: np.uint64}[x.dtype.itemsize]
        bx = x.view(ux).copy(); by = y.view(ux).copy()
        bx[np.isnan(x)] = 0; by[np.isnan(y)] = 0
        nx = np.isnan(x); ny = np.isnan(y)
        if not np.array_equal(nx, ny) or not np.array_equal(bx, by):
            i = int(np.nonzero((bx != by) | (nx != ny))[0][0])
            return f'{path}: float mismatch at valid row {i}: {x[i]!r} vs {y[i]!r}'
        return None
    if ta != tb:
        try:
            b2 = b2.cast(ta)
        except Exception as e:
            return f'{path}: type {ta} vs {tb} (uncastable)'
    x = storage_view(a2); y = storage_view(b2)
    if not x.equals(y):
        eq = pc.equal(x, y).to_numpy(zero_copy_only=False) if not (pa.types.is_fixed_size_binary(ta)) else None
        if eq is not None:
            i = int(np.nonzero(~eq)[0][0])
            return f'{path}: value mismatch at valid row {i}: {x[i]!r:.200} vs {y[i]!r:.200} (types {ta}/{tb})'
        return f'{path}: value mismatch ({ta})'
    return None

def cmp_tables(exp, got):
    errs = []
    if exp.num_rows != got.num_rows:
        return [f'row count {exp.num_rows} vs {got.num_rows}'], []
    if exp.column_names != got.column_names:
        return [f'column names {exp.column_names} vs {got.column_names}'], []
    tdiffs = []
    for i, nm in enumerate(exp.column_names):
        ca = pa.concat_arrays(exp.column(i).chunks) if exp.column(i).num_chunks > 1 else (exp.column(i).chunk(0) if exp.column(i).num_chunks == 1 else None)
        cb = pa.concat_arrays(got.column(i).chunks) if got.column(i).num_chunks > 1 else (got.column(i).chunk(0) if got.column(i).num_chunks == 1 else None)
        if exp.column(i).num_chunks == 0:
            ca = pa.array([], exp.schema.field(i).type)
        if got.column(i).num_chunks == 0:
            cb = pa.array([], got.schema.field(i).type)
        if exp.schema.field(i).type != got.schema.field(i).type:
            tdiffs.append((nm, str(exp.schema.field(i).type), str(got.schema.field(i).type)))
        try:
            e = cmp_arr(ca, cb, nm)
        except Exception as ex:
            e = f'{nm}: compare exception {type(ex).__name__}: {ex}'
        if e: errs.append(e)
    return errs, tdiffs

# ---------------------------------------------------------------- failures
SEEN = {}
def load_seen():
    if os.path.exists(LOG):
        for line in open(LOG):
            try:
                d = json.loads(line); SEEN[d['sig']] = SEEN.get(d['sig'], 0) + 1
            except Exception: pass

def sigof(kind, msg):
    import re
    m = re.sub(r'\d+', 'N', msg)
    m = re.sub(r"'[^']*'", "'S'", m)
    return kind + ': ' + m[:160]

def typediff_sig(msg):
    import difflib, re
    msg = re.sub(r" \('[^']*'\)", '', msg)
    a, _, b = msg.partition(' -> ')
    b = b.split(' (pyarrow')[0]
    ta = re.findall(r'[A-Za-z_]+\d*|\[[^\]]*\]', a); tb = re.findall(r'[A-Za-z_]+\d*|\[[^\]]*\]', b)
    ta = [x for x in ta if x not in ('item', 'element')]; tb = [x for x in tb if x not in ('item', 'element')]
    ops = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=ta, b=tb, autojunk=False).get_opcodes():
        if tag != 'equal': ops.append(' '.join(ta[i1:i2]) + '=>' + ' '.join(tb[j1:j2]))
    return '; '.join(sorted(set(ops))) or 'field-name-only'

# Deliberate refusals: pyarrow reads INT96 values past the nanosecond range as wrapped (wrong)
# timestamps; quiver refuses them, naming `--int96-unit` (DuckDB refuses them too).
KNOWN_REFUSALS = [('INT96 timestamp', 'is out of the ran')]

def record(kind, msg, files, cmd, extra):
    if any(all(k in msg for k in ks) for ks in KNOWN_REFUSALS):
        bump('known_refusal_' + kind)
        return
    sig = sigof(kind, msg) if 'typediff' not in kind else kind + ': ' + typediff_sig(msg)
    cnt = SEEN.get(sig, 0)
    SEEN[sig] = cnt + 1
    entry = dict(sig=sig, kind=kind, msg=msg[:2000], cmd=cmd, extra=extra)
    if cnt < 2:
        existing = [int(x) for x in os.listdir(REPRO) if x.isdigit()]
        nn = '%03d' % (max(existing + [0]) + 1)
        d = os.path.join(REPRO, nn); os.makedirs(d, exist_ok=True)
        for f in files:
            if os.path.exists(f): shutil.copy(f, d)
        with open(os.path.join(d, 'README'), 'w') as fh:
            fh.write(f'kind: {kind}\nsig: {sig}\ncmd: {cmd}\nmsg: {msg[:4000]}\nextra: {json.dumps(extra, default=str)[:4000]}\n')
        entry['repro'] = d
    with open(LOG, 'a') as fh:
        fh.write(json.dumps(entry, default=str) + '\n')
    print('FAIL', sig, entry.get('repro', ''), flush=True)

# ---------------------------------------------------------------- writers
CODECS = ['snappy', 'gzip', 'brotli', 'zstd', 'lz4', 'none']

def flat_top(t):
    return not (pa.types.is_nested(t))

def pa_write_opts(r, table):
    o = {}
    o['version'] = r.choice(['1.0', '2.4', '2.6', '2.6'])
    o['data_page_version'] = r.choice(['1.0', '2.0'])
    if r.random() < 0.5:
        o['compression'] = r.choice(CODECS)
    else:
        o['compression'] = {nm: r.choice(CODECS) for nm in table.column_names}
    ud = r.choice([True, False, 'list'])
    if ud == 'list':
        ud = [nm for nm in table.column_names if r.random() < 0.5]
    o['use_dictionary'] = ud
    if r.random() < 0.4:
        enc = {}
        for f in table.schema:
            t = f.type
            dict_on = (ud is True) or (isinstance(ud, list) and f.name in ud)
            if dict_on or not flat_top(t) or pa.types.is_dictionary(t): continue
            if r.random() < 0.3: continue
            cand = ['PLAIN']
            if pa.types.is_integer(t) and t.bit_width >= 32 or pa.types.is_date(t) or pa.types.is_time(t) or pa.types.is_timestamp(t) or pa.types.is_duration(t) or (pa.types.is_integer(t)):
                cand += ['DELTA_BINARY_PACKED', 'BYTE_STREAM_SPLIT']
            if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_binary(t) or pa.types.is_large_binary(t):
                cand += ['DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY']
            if pa.types.is_fixed_size_binary(t) or pa.types.is_decimal(t):
                cand += ['DELTA_BYTE_ARRAY', 'BYTE_STREAM_SPLIT']
            if pa.types.is_floating(t):
                cand += ['BYTE_STREAM_SPLIT']
            if pa.types.is_boolean(t):
                cand += ['RLE']
            enc[f.name] = r.choice(cand)
        if enc: o['column_encoding'] = enc
    if 'column_encoding' not in o and r.random() < 0.2 and o['use_dictionary'] is False:
        o['use_byte_stream_split'] = True
    if r.random() < 0.7: o['data_page_size'] = r.choice([64, 100, 512, 1024, 4096, 65536])
    if r.random() < 0.7: o['row_group_size'] = r.choice([1, 7, 100, 1000, 3000, 10000])
    o['write_page_index'] = r.random() < 0.5
    o['write_statistics'] = r.random() < 0.8
    o['store_schema'] = r.random() < 0.7
    if r.random() < 0.3: o['write_batch_size'] = r.choice([1, 10, 100, 1024])
    if r.random() < 0.2: o['store_decimal_as_integer'] = True
    if r.random() < 0.2: o['use_compliant_nested_type'] = False
    if r.random() < 0.2: o['write_page_checksum'] = True
    if r.random() < 0.1: o['max_rows_per_page'] = r.choice([1, 10, 100])
    if r.random() < 0.1: o['use_deprecated_int96_timestamps'] = True
    if r.random() < 0.1: o['dictionary_pagesize_limit'] = r.choice([64, 1024])
    pass
    return o

def write_pyarrow(r, table, path):
    o = pa_write_opts(r, table)
    if o.get('row_group_size') == 1 and table.num_rows > 1000:
        o['row_group_size'] = 7
    for attempt in range(4):
        try:
            pq.write_table(table, path, **o)
            return o
        except Exception as e:
            # drop the most exotic options and retry
            for k in ['column_encoding', 'use_byte_stream_split', 'use_content_defined_chunking', 'max_rows_per_page', 'store_decimal_as_integer', 'use_deprecated_int96_timestamps', 'version']:
                if k in o:
                    o.pop(k); break
            last = e
    raise last

def write_duckdb(r, table, path):
    import duckdb
    con = duckdb.connect()
    con.register('t', table)
    comp = r.choice(['snappy', 'gzip', 'zstd', 'uncompressed', 'lz4', 'brotli'])
    rg = r.choice([100, 1000, 122880])
    ver = r.choice(['V1', 'V2'])
    opts = f"FORMAT parquet, COMPRESSION {comp}, ROW_GROUP_SIZE {rg}, PARQUET_VERSION {ver}"
    con.execute(f"COPY t TO '{path}' ({opts})")
    con.close()
    return opts

def write_polars(r, table, path):
    import polars as pl
    df = pl.from_arrow(table)
    o = dict(compression=r.choice(['snappy', 'gzip', 'zstd', 'lz4', 'uncompressed', 'brotli']),
             statistics=r.choice([True, False]), row_group_size=r.choice([None, 100, 1000]),
             data_page_size=r.choice([None, 1024, 8192]))
    df.write_parquet(path, **o)
    return o

def write_fastparquet(r, table, path):
    o = dict(compression=r.choice(['SNAPPY', 'GZIP', 'ZSTD', None, 'BROTLI']), row_group_offsets=r.choice([50000000, 500, 100]),
             stats=r.choice([True, False]), times=r.choice(['int64', 'int96']))
    # In a child process: fastparquet has crashed the interpreter (a segfault) on some tables.
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            import fastparquet
            fastparquet.write(path, table.to_pandas(), **o)
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        bump('write_crash_fastparquet')
        raise RuntimeError(f'fastparquet died by signal {os.WTERMSIG(status)}')
    if os.WEXITSTATUS(status) != 0:
        raise RuntimeError('fastparquet failed')
    return o

# ---------------------------------------------------------------- checks
COUNTS = {}
def bump(k):
    COUNTS[k] = COUNTS.get(k, 0) + 1

def check_reader(case, src_path, writer, wopts):
    bump('reader_' + writer)
    try:
        exp = pq.read_table(src_path)
    except Exception as e:
        bump('reader_skip_pyarrow_fails_' + writer)
        return
    out = os.path.join(WORK, f'{case}.arrows')
    cmd = ['convert', src_path, out]
    rr = random.Random(case)
    if rr.random() < 0.25 and '' not in exp.column_names:
        cols = rr.sample(exp.column_names, rr.randint(1, len(exp.column_names)))
        exp = exp.select(cols)
        cmd += ['--columns', ','.join(cols)]
    if rr.random() < 0.15:
        cmd += ['--batch-size', rr.choice(['1', '7', '1000'])]
    rc, err = run_q(cmd)
    meta = pq.ParquetFile(src_path).metadata.metadata or {}
    has_schema = b'ARROW:schema' in meta
    extra = dict(writer=writer, wopts=wopts, has_arrow_schema=has_schema, schema=str(exp.schema))
    cmdline = 'quiver ' + ' '.join(cmd[:1] + ['IN.parquet', 'OUT.arrows'] + cmd[3:])
    if rc == 'timeout' or (isinstance(rc, int) and (rc < 0 or rc > 2)) or 'panicked' in err:
        record('reader-crash', f'rc={rc} {err[-800:]}', [src_path], cmdline, extra); return
    if rc != 0:
        record('reader-error', err.strip()[:600], [src_path], cmdline, extra); return
    try:
        got = pa.ipc.open_stream(out).read_all()
    except Exception as e:
        record('reader-badipc', f'{type(e).__name__}: {e}', [src_path], cmdline, extra); return
    errs, tdiffs = cmp_tables(exp, got)
    for e in errs:
        record('reader-mismatch', e, [src_path], cmdline, extra)
    for td in tdiffs:
        kind = 'reader-typediff-withschema' if has_schema else 'reader-typediff-noschema'
        record(kind, f'{td[1]} -> {td[2]}', [src_path], cmdline, extra)
    os.remove(out)

def stat_check(path, table, extra):
    pf = pq.ParquetFile(path)
    md = pf.metadata
    for rg in range(md.num_row_groups):
        rgt = None
        for ci in range(md.num_columns):
            col = md.row_group(rg).column(ci)
            pth = col.path_in_schema
            if '.' in pth: continue
            if pth not in table.column_names: continue
            t = table.schema.field(pth).type
            ok_type = pa.types.is_integer(t) or t in (pa.float32(), pa.float64(), pa.string(), pa.large_string(), pa.binary(), pa.bool_())
            st = col.statistics
            if st is None: continue
            if rgt is None:
                rgt = pf.read_row_group(rg)
            a = rgt.column(pth).combine_chunks()
            if st.has_null_count and st.null_count != a.null_count:
                record('writer-stats', f'null_count {st.null_count} != {a.null_count} type {t}', [path], 'stats', extra)
            if not ok_type or not st.has_min_max: continue
            v = a.drop_null()
            if pa.types.is_floating(t):
                x = v.to_numpy(zero_copy_only=False); x = x[~np.isnan(x)]
                if len(x) == 0: continue
                mn, mx = float(x.min()), float(x.max())
                if not (float(st.min) == mn and float(st.max) == mx):
                    record('writer-stats', f'float min/max {st.min},{st.max} != {mn},{mx} type {t}', [path], 'stats', extra)
                continue
            if len(v) == 0:
                continue
            pyv = v.to_pylist()
            mn, mx = min(pyv), max(pyv)
            smin, smax = st.min, st.max
            if isinstance(smin, str) and isinstance(mn, bytes): mn, mx = mn.decode('utf-8', 'replace'), mx.decode('utf-8', 'replace')
            if isinstance(smin, bytes) and isinstance(mn, str): mn, mx = mn.encode(), mx.encode()
            exact_min = getattr(st, 'is_min_value_exact', True); exact_max = getattr(st, 'is_max_value_exact', True)
            L = lambda v: len(v) if hasattr(v, '__len__') else 0
            good_min = (smin == mn) or (isinstance(mn, (str, bytes)) and L(smin) < L(mn) and mn.startswith(smin))
            good_max = (smax == mx) or (isinstance(mx, (str, bytes)) and L(smax) < L(mx) and smax > mx)
            if not (good_min and good_max):
                record('writer-stats', f'min/max (len {len(smin) if hasattr(smin,"__len__") else "-"},{len(smax) if hasattr(smax,"__len__") else "-"}) {smin!r:.60},{smax!r:.60} != (len {len(mn) if hasattr(mn,"__len__") else "-"},{len(mx) if hasattr(mx,"__len__") else "-"}) {mn!r:.60},{mx!r:.60} type {t}', [path], 'stats', extra)

def check_writer(case, r, table):
    bump('writer_quiver')
    arrows = os.path.join(WORK, f'{case}.src.arrows')
    with pa.ipc.new_stream(arrows, table.schema) as w:
        # random batching
 
        bs = r.choice([None, 1000, 333])
        if any(pa.types.is_binary_view(f.type) or pa.types.is_string_view(f.type) for f in table.schema): bs = None
        if bs:
            for b in table.to_batches(max_chunksize=bs): w.write_batch(b)
        else:
            w.write_table(table)
    out = os.path.join(WORK, f'{case}.q.parquet')
    args = ['convert', arrows, out]
    opts = []
    if r.random() < 0.8: opts += ['--compression', r.choice(['none', 'snappy', 'gzip', 'brotli', 'zstd', 'lz4_raw', 'lz4'])]
    if r.random() < 0.7: opts += ['--profile', r.choice(['compatible', 'modern'])]
    if r.random() < 0.6: opts += ['--row-group-size', r.choice(['1', '7', '100', '1000', '4096', '10KiB', '1MiB'])]
    if r.random() < 0.6: opts += ['--page-size', r.choice(['64', '100', '1KiB', '4096', '64KiB'])]
    if r.random() < 0.4: opts += [r.choice(['--dictionary', '--no-dictionary'])]
    if r.random() < 0.5: opts += ['--statistics', r.choice(['none', 'chunk', 'page'])]
    if r.random() < 0.2: opts += ['--decimals', r.choice(['auto', 'integer', 'fixed'])]
    if r.random() < 0.1: opts += ['--distinct-count']
    if r.random() < 0.1: opts += ['--batch-size', r.choice(['1', '10', '1000'])]
    if r.random() < 0.1 and '--compression' in opts and opts[opts.index('--compression')+1] in ('zstd','gzip','brotli'): opts += ['--compression-level', '3']
    if '--distinct-count' in opts and '--no-dictionary' in opts: opts.remove('--distinct-count')
    sortable = [f.name for f in table.schema if (pa.types.is_integer(f.type) or pa.types.is_string(f.type) or pa.types.is_large_string(f.type) or pa.types.is_date32(f.type) or pa.types.is_boolean(f.type))]
    sort_cols = []
    if sortable and r.random() < 0.2:
        sort_cols = r.sample(sortable, min(len(sortable), r.randint(1, 2)))
        opts += ['--sort-by', ','.join(sort_cols)]
    pointable = [f.name for f in table.schema if (pa.types.is_signed_integer(f.type) or (pa.types.is_unsigned_integer(f.type) and f.type.bit_width <= 32) or pa.types.is_string(f.type) or pa.types.is_large_string(f.type))]
    if pointable and r.random() < 0.3:
        for nm in r.sample(pointable, r.randint(1, len(pointable))):
            opts += ['--bloom-filter', nm + r.choice(['', ':10', ':1000'])]
        if r.random() < 0.3: opts += ['--bloom-fpp', r.choice(['0.5', '0.01'])]
    if '--row-group-size' in opts and opts[opts.index('--row-group-size') + 1] == '1' and table.num_rows > 1000:
        opts[opts.index('--row-group-size') + 1] = '7'
    cmdline = 'quiver convert IN.arrows OUT.parquet ' + ' '.join(opts)
    extra = dict(opts=opts, schema=str(table.schema))
    rc, err = run_q(args + opts)
    if rc == 'timeout' or (isinstance(rc, int) and (rc < 0 or rc > 2)) or 'panicked' in err:
        record('writer-crash', f'rc={rc} {err[-800:]}', [arrows], cmdline, extra); return
    if rc == 2:
        bump('writer_usage_error'); print('usage', err[:200]); return
    if rc != 0:
        record('writer-error', err.strip()[:600], [arrows], cmdline, extra); return
    exp_t = table
    if sort_cols:
        idx = pc.sort_indices(table, sort_keys=[(c, 'ascending', 'at_end') for c in sort_cols])
        exp_t = table.take(idx)
    try:
        got = pq.read_table(out)
    except Exception as e:
        record('writer-pyarrow-read-error', f'{type(e).__name__}: {e}', [arrows, out], cmdline, extra); return
    errs, tdiffs = cmp_tables(exp_t, got)
    for e in errs:
        record('writer-mismatch', e, [arrows, out], cmdline, extra)
    ref = os.path.join(WORK, f'{case}.ref.parquet')
    pq.write_table(exp_t, ref)
    ref_schema = pq.read_schema(ref)
    for td in tdiffs:
        if str(ref_schema.field(td[0]).type) == td[2]:
            bump('writer_typediff_same_as_pyarrow_roundtrip')
        else:
            record('writer-typediff', f'{td[1]} -> {td[2]} (pyarrow roundtrip gives {ref_schema.field(td[0]).type})', [arrows, out], cmdline, extra)
    if got.schema.metadata != table.schema.metadata and table.schema.metadata:
        pass
    try:
        stat_check(out, table, extra)
    except Exception as e:
        record('writer-stats-exception', f'{type(e).__name__}: {e}', [arrows, out], cmdline, extra)
    rt = os.path.join(WORK, f'{case}.rt.arrows')
    rc, err = run_q(['convert', out, rt])
    if rc != 0:
        record('writer-roundtrip-read-error', f'rc={rc} {err.strip()[:400]}', [arrows, out], cmdline + ' ; quiver convert OUT.parquet RT.arrows', extra)
    else:
        try:
            rtt = pa.ipc.open_stream(rt).read_all()
            errs, tdiffs = cmp_tables(exp_t, rtt)
            for e in errs: record('writer-roundtrip-mismatch', e, [arrows, out], cmdline + ' ; quiver convert OUT.parquet RT.arrows', extra)
            for t in tdiffs:
                if typediff_sig(str(got.schema.field(t[0]).type) + ' -> ' + t[2]) == 'field-name-only':
                    bump('writer_roundtrip_typediff_same_as_pyarrow'); continue
                record('writer-roundtrip-typediff', f'{t[1]} -> {t[2]} (pyarrow reads {got.schema.field(t[0]).type})', [arrows, out], cmdline + ' ; quiver convert OUT.parquet RT.arrows', extra)
        except Exception as e:
            record('writer-roundtrip-badipc', f'{type(e).__name__}: {e}', [arrows, out], cmdline, extra)
        os.remove(rt)
    rc, err = run_q(['validate', out])
    if rc != 0:
        record('writer-validate', f'rc={rc} {err.strip()[:400]}', [arrows, out], cmdline, extra)
    # cross readers: compare quiver-written file vs pyarrow-written reference with same reader
    if r.random() < 0.5:
        bump('writer_xcheck_duckdb')
        import duckdb
        try:
            e_t = duckdb.sql(f"select * from read_parquet('{ref}')").to_arrow_table()
            ok = True
        except Exception:
            ok = False
        if ok:
            try:
                g_t = duckdb.sql(f"select * from read_parquet('{out}')").to_arrow_table()
            except Exception as e:
                record('writer-duckdb-error', f'{type(e).__name__}: {str(e)[:300]}', [arrows, out], cmdline, extra); g_t = None
            if g_t is not None:
                errs, td = cmp_tables(e_t, g_t)
                for e in errs: record('writer-duckdb-mismatch', e, [arrows, out], cmdline, extra)
                for t in td: record('writer-duckdb-typediff', f'{t[1]} -> {t[2]}', [arrows, out], cmdline, extra)
    else:
        bump('writer_xcheck_polars')
        import polars as pl
        try:
            e_t = pl.read_parquet(ref).to_arrow(); ok = True
        except BaseException:
            ok = False
        if ok:
            try:
                g_t = pl.read_parquet(out).to_arrow()
            except BaseException as e:
                record('writer-polars-error', f'{type(e).__name__}: {str(e)[:300]}', [arrows, out], cmdline, extra); g_t = None
            if g_t is not None:
                errs, td = cmp_tables(e_t, g_t)
                for e in errs: record('writer-polars-mismatch', e, [arrows, out], cmdline, extra)
                for t in td: record('writer-polars-typediff', f'{t[1]} -> {t[2]}', [arrows, out], cmdline, extra)
    if pointable:
        bump('writer_point_queries')
        import duckdb
        con = duckdb.connect()
        for nm in pointable[:3]:
            col = table.column(nm).drop_null()
            if len(col) == 0: continue
            vals = col.to_pylist()
            for v in [vals[r.randrange(len(vals))] for _ in range(3)]:
                if isinstance(v, str) and len(v) > 1000: continue
                want = sum(1 for x in vals if x == v)
                try:
                    got_n = con.execute(f'select count(*) from read_parquet(?) where "{nm}" = ?', [out, v]).fetchone()[0]
                    ref_n = con.execute(f'select count(*) from read_parquet(?) where "{nm}" = ?', [ref, v]).fetchone()[0]
                except Exception as e:
                    got_n = ref_n = None
                if ref_n == want and got_n != want:
                    record('writer-duckdb-pointquery', f'column {nm} ({table.schema.field(nm).type}) = {v!r:.60}: duckdb count {got_n}, expected {want}', [arrows, out], cmdline, extra)
        con.close()
    for f in (arrows, out, ref):
        if os.path.exists(f): os.remove(f)

def check_merge(case, r, table):
    bump('merge')
    k = r.randint(2, 5)
    n = table.num_rows
    if n < 2: return
    cuts = sorted(r.sample(range(1, n), k - 1)) if n > k else [n // 2]
    bounds = [0] + cuts + [n]
    o = pa_write_opts(r, table)
    o.pop('use_content_defined_chunking', None)
    parts = []
    mode = r.choice(['same', 'same', 'mixed', 'quiver'])
    partinfo = {}
    bump('merge_mode_' + mode)
    try:
        for i in range(len(bounds) - 1):
            p = os.path.join(WORK, f'{case}.part{i}.parquet')
            sl = table.slice(bounds[i], bounds[i + 1] - bounds[i])
            if mode == 'quiver':
                a = p + '.arrows'
                with pa.ipc.new_stream(a, table.schema) as w: w.write_table(sl)
                qo = []
                if r.random() < 0.7: qo += ['--compression', r.choice(['none', 'snappy', 'zstd', 'gzip', 'lz4_raw'])]
                if r.random() < 0.7: qo += ['--profile', r.choice(['compatible', 'modern'])]
                if r.random() < 0.5: qo += [r.choice(['--dictionary', '--no-dictionary'])]
                if r.random() < 0.5: qo += ['--row-group-size', r.choice(['7', '100', '1000'])]
                if r.random() < 0.5: qo += ['--page-size', r.choice(['100', '1KiB'])]
                if r.random() < 0.3: qo += ['--statistics', r.choice(['none', 'chunk', 'page'])]
                partinfo.setdefault('quiver_part_opts', []).append(qo)
                rc, err = run_q(['convert', a, p] + qo)
                os.remove(a)
                if rc != 0:
                    record('merge-part-writer-error', f'rc={rc} {err.strip()[:400]}', [], 'quiver convert PART.arrows PART.parquet ' + ' '.join(qo), dict(schema=str(table.schema)))
                    bump('merge_skip_write'); return
            elif mode == 'mixed':
                oi = dict(o)
                oi['compression'] = r.choice(CODECS)
                oi['use_dictionary'] = r.choice([True, False])
                oi.pop('column_encoding', None); oi.pop('use_byte_stream_split', None)
                oi['data_page_version'] = r.choice(['1.0', '2.0'])
                oi['data_page_size'] = r.choice([64, 1024, 65536])
                if r.random() < 0.5: oi['row_group_size'] = r.choice([7, 100, 1000])
                oi['write_page_index'] = r.random() < 0.5
                oi['write_statistics'] = r.random() < 0.8
                partinfo.setdefault('mixed_part_opts', []).append({k: oi[k] for k in ('compression', 'use_dictionary', 'data_page_version', 'data_page_size', 'write_page_index', 'write_statistics')})
                pq.write_table(sl, p, **oi)
            else:
                pq.write_table(sl, p, **o)
            parts.append(p)
    except Exception as e:
        print('merge skip', mode, repr(e)[:200])
        bump('merge_skip_write'); return
    try:
        exp = pa.concat_tables([pq.read_table(p) for p in parts])
    except Exception:
        bump('merge_skip_read'); return
    out = os.path.join(WORK, f'{case}.merged.parquet')
    mopts = ['--threads', '1']
    if r.random() < 0.5: mopts.append('--verbatim')
    elif r.random() < 0.5: mopts += ['--row-group-size', r.choice(['100', '1000', '1MiB', '10KiB'])]
    if r.random() < 0.2: mopts += ['--dictionary-limit', r.choice(['100', '1KiB', '1MiB'])]
    if r.random() < 0.2: mopts += ['--verify']
    cmdline = 'quiver merge OUT.parquet ' + ' '.join(os.path.basename(p) for p in parts) + ' ' + ' '.join(mopts)
    extra = dict(wopts=o, mode=mode, partinfo=partinfo, mopts=mopts, schema=str(table.schema))
    rc, err = run_q(['merge', '--no-sync', out] + parts + mopts)
    if rc == 'timeout' or (isinstance(rc, int) and (rc < 0 or rc > 2)) or 'panicked' in err:
        record('merge-crash', f'rc={rc} {err[-800:]}', parts, cmdline, extra); return
    if rc != 0:
        record('merge-error', err.strip()[:600], parts, cmdline, extra); return
    try:
        got = pq.read_table(out)
    except Exception as e:
        record('merge-pyarrow-read-error', f'{type(e).__name__}: {e}', parts + [out], cmdline, extra); return
    errs, tdiffs = cmp_tables(exp, got)
    for e in errs: record('merge-mismatch', e, parts + [out], cmdline, extra)
    for t in tdiffs: record('merge-typediff', f'{t[1]} -> {t[2]}', parts + [out], cmdline, extra)
    if exp.schema.equals(table.schema):
        try:
            stat_check(out, exp, dict(extra, phase='merge'))
        except Exception as e:
            record('merge-stats-exception', f'{type(e).__name__}: {e}', parts + [out], cmdline, extra)
    bump('merge_point_queries')
    import duckdb
    con = duckdb.connect()
    for f in exp.schema:
        if not (pa.types.is_signed_integer(f.type) or pa.types.is_string(f.type)): continue
        vals = exp.column(f.name).drop_null().to_pylist()
        if not vals: continue
        for v in [vals[r.randrange(len(vals))] for _ in range(3)]:
            if isinstance(v, str) and len(v) > 1000: continue
            want = sum(1 for x in vals if x == v)
            try:
                got_n = con.execute(f'select count(*) from read_parquet(?) where "{f.name}" = ?', [out, v]).fetchone()[0]
            except Exception:
                got_n = None
            if got_n is not None and got_n != want:
                record('merge-duckdb-pointquery', f'column {f.name} = {v!r:.60}: duckdb count {got_n}, expected {want}', parts + [out], cmdline, extra)
    con.close()
    rc, err = run_q(['validate', out])
    if rc != 0:
        record('merge-validate', f'rc={rc} {err.strip()[:400]}', parts + [out], cmdline, extra)
    for f in parts + [out]:
        if os.path.exists(f): os.remove(f)

def main():
    seed = int(sys.argv[1]); iters = int(sys.argv[2]) if len(sys.argv) > 2 else 10**9
    deadline = float(sys.argv[3]) if len(sys.argv) > 3 else 1e18
    load_seen()
    if os.path.exists(STATS):
        COUNTS.update(json.load(open(STATS)))
    for it in range(iters):
        if time.time() > deadline: break
        r = random.Random(seed * 100003 + it)
        case = f's{seed}_{it}'
        try:
            wr = r.choices(['pyarrow', 'duckdb', 'polars', 'fastparquet'], weights=[70, 12, 12, 6])[0]
            table = rand_table(r, flat_only=(wr == 'fastparquet'))
            src = os.path.join(WORK, f'{case}.parquet')
            try:
                if wr == 'pyarrow': wo = write_pyarrow(r, table, src)
                elif wr == 'duckdb': wo = write_duckdb(r, table, src)
                elif wr == 'polars': wo = write_polars(r, table, src)
                else: wo = write_fastparquet(r, table, src)
            except BaseException as e:
                if isinstance(e, KeyboardInterrupt): raise
                bump('write_fail_' + wr); wo = None
            if wo is not None:
                check_reader(case, src, wr, wo)
            if os.path.exists(src): os.remove(src)
            check_writer(case, r, table)
            if r.random() < 0.3:
                check_merge(case, r, table)
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt): raise
            bump('driver_exception')
            print('driver exception', case, repr(e)[:300], flush=True)
            traceback.print_exc()
        if it % 10 == 0:
            json.dump(COUNTS, open(STATS, 'w'))
            print(time.strftime('%H:%M:%S'), case, COUNTS, flush=True)
    json.dump(COUNTS, open(STATS, 'w'))

if __name__ == '__main__':
    main()
