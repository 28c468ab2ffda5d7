#!/usr/bin/env python3
"""The benchmark operations with pyarrow, DuckDB and polars: performs ONE operation, times only
the operation and prints one JSON line, like `quiver-bench op` (see bench/README.md).

    python3 bench/py/ops.py --op read_mmap_validated --input lineitem-6000000.arrow
    python3 bench/py/ops.py --impl polars --op parquet_read_snappy_t2 --input lineitem-6000000.pa.snappy.parquet

    python3 bench/py/ops.py --impl duckdb --op merge_coalesce --input lineitem-6000000-small --output out.parquet

IPC operations and footer decodes are pyarrow's only; Parquet reads run with every --impl,
Parquet writes with pyarrow and DuckDB, the merge of small files (issue #15, `merge_coalesce`:
the Parquet files of the folder --input in name order into one file with row groups of 1Mi
rows) with pyarrow, DuckDB and polars. The driver times a merge as a whole process (start-up
and imports included); the "seconds" printed here are the merge alone, imports excluded.
Modules are imported by the implementation that needs them (polars never imports pyarrow).
"""

import argparse
import json
import os
import resource
import sys
import time

WRITES = {
    "write_file_none": (None, False),
    "write_file_lz4": ("lz4", False),
    "write_file_zstd": ("zstd", False),
    "write_stream": (None, True),
}
READS = {
    "read_file_seek",
    "read_stream",
    "read_mmap_validated",
    "read_mmap_unvalidated",
    "read_file_lz4_t1",
    "read_file_lz4_t2",
    "read_file_zstd_t1",
    "read_file_zstd_t2",
}
PARQUET_READS = {
    "parquet_read_snappy_t1",
    "parquet_read_snappy_t2",
    "parquet_read_zstd_t1",
    "parquet_read_zstd_t2",
    "parquet_read_plain_t1",
    "parquet_read_plain_t2",
    "parquet_project4_snappy",
}
FOOTERS = {"parquet_footer_lineitem", "parquet_footer_wide3"}
# Parquet writes (issue #14): codec and dictionary encoding; _t1 / _t2 is DuckDB's thread count
# (pyarrow's write_table encodes on the calling thread either way).
PARQUET_WRITES = {
    f"parquet_write_{name}_t{n}": settings
    for name, settings in {
        "snappy": ("snappy", True),
        "zstd": ("zstd", True),
        "plain": ("none", False),
    }.items()
    for n in (1, 2)
}
# The ZSTD level of every writer (pyarrow's and arrow-rs's default; DuckDB's is 3).
ZSTD_LEVEL = 1
# Rows per row group of every writer (pyarrow's and arrow-rs's default; DuckDB's is 122,880).
ROW_GROUP_ROWS = 1 << 20
# Rows per batch of the readers that take a batch size (as quiver-bench's).
BATCH_SIZE = 65536
# A footer decode is repeated for at least this long (and 3 times) in one process.
FOOTER_MIN_SECONDS = 0.3
FOOTER_MIN_REPEATS = 3


# CPU seconds (user, system) of the process during the last timed part (start_clock ..
# stop_clock), every thread included: where its time went (computing, or the kernel's system
# calls and page faults).
_cpu = {}


def start_clock():
    """Starts a timed part: notes the process's CPU times and returns `perf_counter()`."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    _cpu["start"] = (r.ru_utime, r.ru_stime)
    return time.perf_counter()


def stop_clock(t):
    """Ends the timed part started at `t`: returns its seconds and keeps its CPU seconds."""
    seconds = time.perf_counter() - t
    r = resource.getrusage(resource.RUSAGE_SELF)
    u, s = _cpu.pop("start", (r.ru_utime, r.ru_stime))
    _cpu["user_s"], _cpu["sys_s"] = r.ru_utime - u, r.ru_stime - s
    return seconds


def status_kb(key):
    """A /proc/self/status value in KiB (0 if unknown)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def load(path):
    """Every batch of the IPC file at `path`, read into memory (not memory-mapped)."""
    import pyarrow as pa
    import pyarrow.ipc as ipc

    with pa.OSFile(str(path)) as f:
        reader = ipc.open_file(f)
        batches = [reader.get_batch(i) for i in range(reader.num_record_batches)]
    return reader.schema, batches


def write(path, out, compression, stream):
    """Loads `path`, then times writing its batches to `out` (including the close)."""
    import pyarrow as pa
    import pyarrow.ipc as ipc

    schema, batches = load(path)
    # use_threads: pyarrow's default, compresses the buffers of a batch in parallel.
    options = ipc.IpcWriteOptions(compression=compression, use_threads=True)
    t = start_clock()
    with pa.OSFile(str(out), "wb") as sink:
        new = ipc.new_stream if stream else ipc.new_file
        with new(sink, schema, options=options) as w:
            for b in batches:
                w.write_batch(b)
    seconds = stop_clock(t)
    return seconds, batches


def read(op, path, threads):
    """Times reading every batch of `path` the way `op` says; validates in full unless the
    operation is `read_mmap_unvalidated`. Returns the seconds and the batches."""
    import pyarrow as pa
    import pyarrow.ipc as ipc

    options = ipc.IpcReadOptions(use_threads=threads > 1)
    t = start_clock()
    if op == "read_file_seek":
        source = pa.OSFile(str(path))
        reader = ipc.open_file(source, options=options)
        batches = [reader.get_batch(i) for i in range(reader.num_record_batches)]
    elif op == "read_stream":
        source = pa.OSFile(str(path))
        reader = ipc.open_stream(source, options=options)
        batches = list(reader)
    else:
        source = pa.memory_map(str(path))
        reader = ipc.open_file(source, options=options)
        batches = [reader.get_batch(i) for i in range(reader.num_record_batches)]
    if op != "read_mmap_unvalidated":
        for b in batches:
            b.validate(full=True)
    seconds = stop_clock(t)
    return seconds, batches


def quoted(names):
    """SQL identifiers, double-quoted."""
    return ", ".join('"' + n.replace('"', '""') + '"' for n in names)


def parquet_read(impl, path, threads, columns):
    """Times reading the Parquet file `path` (the top-level `columns`, or all) into memory
    with `impl` on `threads` threads. Returns the seconds and a dict of what was read."""
    if impl == "pyarrow":
        # read_table imports pyarrow.dataset on its first call (~0.3 s): not to be timed.
        import pyarrow.dataset  # noqa: F401
        import pyarrow.parquet as pq

        t = start_clock()
        table = pq.read_table(path, columns=columns, use_threads=threads > 1, memory_map=True)
        seconds = stop_clock(t)
        return seconds, arrow_totals(table)
    if impl == "duckdb":
        import duckdb
        import pyarrow  # noqa: F401 (imported by to_arrow_table otherwise: not to be timed)

        con = duckdb.connect()
        con.execute(f"SET threads = {threads}")
        select = quoted(columns) if columns else "*"
        t = start_clock()
        rel = con.sql(f"SELECT {select} FROM read_parquet(?)", params=[str(path)])
        table = rel.to_arrow_table(batch_size=BATCH_SIZE)
        seconds = stop_clock(t)
        return seconds, arrow_totals(table)
    if impl == "polars":
        # POLARS_MAX_THREADS was set before polars was imported (main).
        import polars as pl

        t = start_clock()
        df = pl.read_parquet(path, columns=columns, use_pyarrow=False, memory_map=True)
        seconds = stop_clock(t)
        return seconds, {
            "bytes": df.estimated_size(),
            "rows": df.height,
            "batches": df.n_chunks(),
            "columns": df.width,
        }
    sys.exit(f"no Parquet reader for {impl}")


def arrow_totals(table):
    """Bytes, rows, batches and columns of a pyarrow Table."""
    return {
        "bytes": table.nbytes,
        "rows": table.num_rows,
        "batches": len(table.to_batches()),
        "columns": table.num_columns,
    }


def footer(path, columns):
    """Times decoding the footer of the Parquet file `path` (in memory) with
    `pq.read_metadata`, repeated; with `columns`, reads those leaf columns' chunk metadata in
    every row group after each decode. Returns the seconds per decode and what was seen."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    with open(path, "rb") as f:
        buf = pa.py_buffer(f.read())

    def decode():
        md = pq.read_metadata(pa.BufferReader(buf))
        if not columns:
            return md.num_rows, md.num_columns
        names = md.schema.names
        indices = [names.index(c) for c in columns]
        total = 0
        for g in range(md.num_row_groups):
            rg = md.row_group(g)
            for c in indices:
                total += rg.column(c).total_compressed_size
        return md.num_rows, len(indices)

    t = time.perf_counter()
    first = decode()
    repeats = 1
    while repeats < FOOTER_MIN_REPEATS or time.perf_counter() - t < FOOTER_MIN_SECONDS:
        again = decode()
        if again != first:
            sys.exit(f"decode {repeats} saw {again}, the first {first}")
        repeats += 1
    seconds = (time.perf_counter() - t) / repeats
    return seconds, {"bytes": 0, "rows": first[0], "batches": 0, "columns": first[1], "repeats": repeats}


def reset_peak():
    """Resets VmHWM to the current resident size (Linux >= 4.0) and returns that size, KiB."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    return status_kb("VmRSS")


def parquet_write(impl, path, out, threads, codec, dictionary):
    """Loads the IPC file `path` into a pyarrow Table, then times writing it to `out` as
    Parquet with `impl`. Returns the seconds and a dict of what was written, with the peak RSS
    since the input was loaded and the RSS then."""
    import pyarrow as pa

    schema, batches = load(path)
    table = pa.Table.from_batches(batches, schema)
    if impl == "pyarrow":
        import pyarrow.parquet as pq

        start_rss_kb = reset_peak()
        t = start_clock()
        pq.write_table(
            table,
            str(out),
            compression=codec,
            compression_level=ZSTD_LEVEL if codec == "zstd" else None,
            use_dictionary=dictionary,
            row_group_size=ROW_GROUP_ROWS,
            # quiver's defaults, which issue #14 requires: its size target is "with the same
            # settings", and the same work is timed.
            write_page_index=True,
            write_page_checksum=True,
        )
        seconds = stop_clock(t)
        threads = 1
    elif impl == "duckdb":
        import duckdb

        con = duckdb.connect()
        con.execute(f"SET threads = {threads}")
        con.register("input", table)
        duckdb_codec = "uncompressed" if codec == "none" else codec
        options = [f"COMPRESSION {duckdb_codec}", f"ROW_GROUP_SIZE {ROW_GROUP_ROWS}"]
        if codec == "zstd":
            options.append(f"COMPRESSION_LEVEL {ZSTD_LEVEL}")
        if not dictionary:
            options.append("DICTIONARY_SIZE_LIMIT 0")
        target = str(out).replace("'", "''")
        sql = f"COPY input TO '{target}' (FORMAT parquet, {', '.join(options)})"
        start_rss_kb = reset_peak()
        t = start_clock()
        con.execute(sql)
        seconds = stop_clock(t)
        con.close()
    else:
        sys.exit(f"no Parquet writer for {impl}")
    return seconds, {
        **arrow_totals(table),
        "threads": threads,
        "peak_rss_kb": status_kb("VmHWM"),
        "start_rss_kb": start_rss_kb,
    }


def merge(impl, folder, out):
    """Times merging the Parquet files of `folder` (in name order) into `out` with `impl`, row
    groups of ROW_GROUP_ROWS rows, SNAPPY, each library's defaults otherwise (every core).
    Returns the seconds (imports excluded) and a dict of what was written."""
    files = sorted(
        os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".parquet")
    )
    if not files:
        sys.exit(f"no Parquet files in {folder}")
    if impl == "pyarrow":
        import pyarrow.dataset  # noqa: F401 (imported by read_table on first use)
        import pyarrow.parquet as pq

        t = start_clock()
        table = pq.read_table(files)
        pq.write_table(table, out, row_group_size=ROW_GROUP_ROWS, compression="snappy")
        seconds = stop_clock(t)
    elif impl == "duckdb":
        import duckdb

        def literal(text):
            return "'" + text.replace("'", "''") + "'"

        con = duckdb.connect()
        # Its default, set so that the output keeps the files' order (and each file's rows').
        con.execute("SET preserve_insertion_order = true")
        listed = "[" + ", ".join(literal(f) for f in files) + "]"
        sql = (
            f"COPY (SELECT * FROM read_parquet({listed})) TO {literal(out)} "
            f"(FORMAT parquet, ROW_GROUP_SIZE {ROW_GROUP_ROWS})"
        )
        t = start_clock()
        con.execute(sql)
        seconds = stop_clock(t)
        con.close()
    elif impl == "polars":
        import polars as pl

        t = start_clock()
        pl.scan_parquet(files).sink_parquet(
            out, compression="snappy", row_group_size=ROW_GROUP_ROWS
        )
        seconds = stop_clock(t)
    else:
        sys.exit(f"no merge for {impl}")
    return seconds, {"bytes": 0, "rows": 0, "batches": 0, "columns": 0, "files": len(files)}


def run(a, threads):
    """Performs the operation; returns the seconds and a dict of what it read or wrote."""
    columns = a.columns.split(",") if a.columns else None
    if a.op == "merge_coalesce":
        if not a.output:
            sys.exit("--output is required for " + a.op)
        return merge(a.impl, a.input, a.output)
    if a.op in PARQUET_READS:
        return parquet_read(a.impl, a.input, threads, columns)
    if a.op in PARQUET_WRITES:
        if not a.output:
            sys.exit("--output is required for " + a.op)
        return parquet_write(a.impl, a.input, a.output, threads, *PARQUET_WRITES[a.op])
    if a.impl != "pyarrow":
        sys.exit(f"{a.impl} has no operation {a.op}")
    if a.op in FOOTERS:
        return footer(a.input, columns)
    if a.op in WRITES:
        if not a.output:
            sys.exit("--output is required for " + a.op)
        seconds, batches = write(a.input, a.output, *WRITES[a.op])
    elif a.op in READS:
        seconds, batches = read(a.op, a.input, threads)
    else:
        sys.exit("unknown operation " + a.op)
    return seconds, {
        "bytes": sum(b.nbytes for b in batches),
        "rows": sum(b.num_rows for b in batches),
        "batches": len(batches),
        "columns": batches[0].num_columns if batches else 0,
    }


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--impl", default="pyarrow", choices=["pyarrow", "duckdb", "polars"])
    p.add_argument("--op", required=True)
    p.add_argument("--input")
    p.add_argument("--output")
    p.add_argument("--threads", type=int)
    p.add_argument("--columns", help="top-level columns to read, comma-separated")
    a = p.parse_args()
    threads = a.threads or (2 if a.op.endswith("_t2") else 1)
    if a.op in WRITES:
        threads = a.threads or os.cpu_count() or 1
    if a.op == "merge_coalesce":
        # Every library with its default thread count (all cores).
        threads = os.cpu_count() or 1
    elif a.impl == "polars":
        # Read by polars when it is imported: set before.
        os.environ["POLARS_MAX_THREADS"] = str(threads)
    elif a.impl == "pyarrow":
        import pyarrow as pa

        pa.set_cpu_count(threads)
        pa.set_io_thread_count(max(threads, 1))
    start_rss_kb = status_kb("VmRSS")
    seconds, seen = run(a, threads)
    result = {
        "impl": a.impl,
        "op": a.op,
        "seconds": seconds,
        "threads": threads,
        # ru_maxrss is in KiB on Linux.
        "peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "start_rss_kb": start_rss_kb,
        # What the operation measured (Parquet writes: also threads and RSS since loading).
        **seen,
        # CPU seconds of the timed part, when it was one (not the repeated footer decodes).
        **{k: v for k, v in _cpu.items() if k in ("user_s", "sys_s")},
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
