"""A randomized merge campaign for decimals stored every way writers store them and for Bloom
filters: each seed writes 2-4 files of one schema (decimals of random precision and scale, a
list of decimals, an id) with pyarrow (FIXED_LEN_BYTE_ARRAY), pyarrow with
`store_decimal_as_integer` (dictionary or not, DELTA_BINARY_PACKED / BYTE_STREAM_SPLIT pages),
DuckDB or quiver (`--decimals auto`, whose storage follows the codec), random codecs, page versions, page sizes, page indexes and Bloom filters; quiver
merges them verbatim and coalescing, and `crates/parquet/tests/merge_check.py` checks each
output against its inputs (values in pyarrow, DuckDB and polars; statistics, page index and
Bloom filters, probed by DuckDB). Long-running, not in CI.

    python3 scripts/merge_stress.py FIRST_SEED COUNT [WORK_DIR]

QUIVER (default target/release/quiver) is the binary used. Prints one line per failure and a
count at the end; each case stays in WORK_DIR (default /tmp/quiver-merge-stress) as case<seed>.
"""
import decimal, json, os, random, shutil, subprocess, sys
import pyarrow as pa, pyarrow.parquet as pq
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(ROOT, "crates", "parquet", "tests")
D = decimal.Decimal
Q = os.environ.get("QUIVER", os.path.join(ROOT, "target", "release", "quiver"))
seed0, n = int(sys.argv[1]), int(sys.argv[2])
WORK = sys.argv[3] if len(sys.argv) > 3 else "/tmp/quiver-merge-stress"
fails = 0
for seed in range(seed0, seed0 + n):
    rng = random.Random(seed)
    precs = [(rng.choice([3, 7, 9, 12, 15, 18, 20, 30, 38]), None) for _ in range(3)]
    precs = [(p, rng.randint(0, min(p, 6))) for p, _ in precs]
    nfiles = rng.randint(2, 4)
    d = os.path.join(WORK, f"case{seed}")
    shutil.rmtree(d, ignore_errors=True); os.makedirs(d)
    start = 0
    for j in range(nfiles):
        rows = rng.choice([0, 1, 50, 300, 1200])
        cols = {"id": pa.array(range(start, start + rows), pa.int64())}
        for k, (p, s) in enumerate(precs):
            distinct = rng.choice([3, 50, 10**6])
            def val(i):
                if rng.random() < 0.15: return None
                v = (i * 7919 + k) % distinct - distinct // 2
                v = v * rng.choice([1, 10**(p // 2)]) % (10**(p - 1))
                if rng.random() < 0.5: v = -v
                return D(v).scaleb(-s)
            cols[f"d{k}"] = pa.array([val(i) for i in range(start, start + rows)], pa.decimal128(p, s))
        p, s = precs[0]
        cols["l"] = pa.array([None if rng.random() < 0.1 else [D(i * 3 + m).scaleb(-s) % D(10**(p-s)) for m in range(i % 3)]
                              for i in range(start, start + rows)], pa.list_(pa.decimal128(p, s)))
        t = pa.table(cols)
        path = f"{d}/{j:03}.parquet"
        start += rows
        how = rng.choice(["pa", "pa-int", "duckdb", "quiver"])
        if how == "quiver":
            # quiver's `--decimals auto`: INT32/INT64 when compressed, FIXED_LEN_BYTE_ARRAY not.
            import pyarrow.feather as feather
            feather.write_feather(t, path + ".arrow", compression="uncompressed")
            r = subprocess.run([Q, "convert", path + ".arrow", path, "-q",
                                "--compression", rng.choice(["none", "snappy", "zstd"]),
                                "--row-group-size", str(rng.choice([100, 1000]))],
                               capture_output=True, text=True)
            os.remove(path + ".arrow")
            if r.returncode != 0:
                print(seed, "WRITE FAILED", r.stderr.strip()[:300]); fails += 1
            continue
        if how == "duckdb":
            import duckdb
            con = duckdb.connect(); con.register("t", t)
            con.sql(f"COPY (SELECT * FROM t) TO '{path}' (FORMAT parquet, ROW_GROUP_SIZE {rng.choice([100, 1000])})")
            continue
        kw = dict(row_group_size=rng.choice([100, 500, 5000]), compression=rng.choice(["snappy", "zstd", "none", "gzip"]),
                  data_page_version=rng.choice(["1.0", "2.0"]), write_page_index=rng.random() < 0.5,
                  data_page_size=rng.choice([200, 1 << 20]))
        if rng.random() < 0.5:
            kw["bloom_filter_options"] = {c: {"ndv": rng.choice([2000, 20000])} for c in ["d0", "d1", "id"] if rng.random() < 0.7}
        if how == "pa-int":
            kw["store_decimal_as_integer"] = True
            if rng.random() < 0.5:
                kw["use_dictionary"] = False
                enc = {}
                for k, (p, _) in enumerate(precs):
                    if p <= 18 and rng.random() < 0.7:
                        enc[f"d{k}"] = rng.choice(["DELTA_BINARY_PACKED", "BYTE_STREAM_SPLIT", "PLAIN"])
                if enc: kw["column_encoding"] = enc
        pq.write_table(t, path, **kw)
    with open(f"{d}/case.json", "w") as f:
        json.dump({"expect": "ok", "target_rows": 100000}, f)
    for mode in ["verbatim", "coalesce"]:
        out = os.path.join(WORK, f"out{seed}-{mode}.parquet")
        args = [Q, "merge", out] + sorted(f"{d}/{x}" for x in os.listdir(d) if x.endswith(".parquet") )
        args += ["--verbatim"] if mode == "verbatim" else ["--row-group-size", "100000"]
        r = subprocess.run(args, capture_output=True, text=True)
        if r.returncode != 0:
            print(seed, mode, "MERGE FAILED", r.stderr.strip()[:500]); fails += 1; continue
        extra = ["--mode", "coalesce", "--target-rows", "100000"] if mode == "coalesce" else []
        c = subprocess.run([sys.executable, os.path.join(TESTS, "merge_check.py"), d, out] + extra,
                           capture_output=True, text=True, cwd=TESTS)
        try:
            res = json.loads(c.stdout.strip().splitlines()[-1])
        except Exception:
            print(seed, mode, "CHECK CRASHED", c.stderr[-800:]); fails += 1; continue
        if not res["ok"]:
            print(seed, mode, "CHECK FAILED", res["failures"][:3]); fails += 1
print("done", fails, "failures")
