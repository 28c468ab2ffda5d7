#!/usr/bin/env python3
"""The benchmark operations with pyarrow: performs ONE operation, times only the operation and
prints one JSON line, like `quiver-bench op` (see bench/README.md).

    python3 bench/py/ops.py --op read_mmap_validated --input lineitem-6000000.arrow
"""

import argparse
import json
import os
import resource
import sys
import time

import pyarrow as pa
import pyarrow.ipc as ipc

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
    with pa.OSFile(str(path)) as f:
        reader = ipc.open_file(f)
        batches = [reader.get_batch(i) for i in range(reader.num_record_batches)]
    return reader.schema, batches


def write(path, out, compression, stream):
    """Loads `path`, then times writing its batches to `out` (including the close)."""
    schema, batches = load(path)
    # use_threads: pyarrow's default, compresses the buffers of a batch in parallel.
    options = ipc.IpcWriteOptions(compression=compression, use_threads=True)
    t = time.perf_counter()
    with pa.OSFile(str(out), "wb") as sink:
        new = ipc.new_stream if stream else ipc.new_file
        with new(sink, schema, options=options) as w:
            for b in batches:
                w.write_batch(b)
    seconds = time.perf_counter() - t
    return seconds, batches


def read(op, path, threads):
    """Times reading every batch of `path` the way `op` says; validates in full unless the
    operation is `read_mmap_unvalidated`. Returns the seconds and the batches."""
    options = ipc.IpcReadOptions(use_threads=threads > 1)
    t = time.perf_counter()
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
    seconds = time.perf_counter() - t
    return seconds, batches


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--op", required=True)
    p.add_argument("--input")
    p.add_argument("--output")
    p.add_argument("--threads", type=int)
    a = p.parse_args()
    threads = a.threads or (2 if a.op.endswith("_t2") else 1)
    if a.op in WRITES:
        threads = a.threads or os.cpu_count() or 1
    pa.set_cpu_count(threads)
    pa.set_io_thread_count(max(threads, 1))
    start_rss_kb = status_kb("VmRSS")
    if a.op in WRITES:
        if not a.output:
            sys.exit("--output is required for " + a.op)
        seconds, batches = write(a.input, a.output, *WRITES[a.op])
    elif a.op in READS:
        seconds, batches = read(a.op, a.input, threads)
    else:
        sys.exit("unknown operation " + a.op)
    result = {
        "impl": "pyarrow",
        "op": a.op,
        "seconds": seconds,
        "bytes": sum(b.nbytes for b in batches),
        "rows": sum(b.num_rows for b in batches),
        "batches": len(batches),
        "threads": threads,
        # ru_maxrss is in KiB on Linux.
        "peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "start_rss_kb": start_rss_kb,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
