"""Reads pairs of Arrow IPC files (ours, gold) from stdin, one tab-separated pair per line,
and checks that pyarrow reads both to equal tables (schema metadata included).
Prints one line per mismatch; exits 1 if any."""
import sys

import pyarrow as pa
import pyarrow.ipc as ipc


def read(path):
    with open(path, "rb") as f:
        head = f.read(6)
    if head == b"ARROW1":
        return ipc.open_file(path).read_all()
    return ipc.open_stream(path).read_all()


failures = 0
count = 0
for line in sys.stdin:
    line = line.rstrip("\n")
    if not line:
        continue
    ours, gold = line.split("\t")
    count += 1
    try:
        a, b = read(ours), read(gold)
        if not a.schema.equals(b.schema, check_metadata=True):
            print(f"{ours}: schema differs:\n{a.schema}\nvs gold\n{b.schema}")
            failures += 1
        elif not a.equals(b):
            print(f"{ours}: values differ from {gold}")
            failures += 1
    except Exception as e:  # report and continue with the next pair
        print(f"{ours}: pyarrow error: {type(e).__name__}: {e}")
        failures += 1
print(f"pyarrow {pa.__version__}: {count - failures} of {count} equal")
sys.exit(1 if failures else 0)
