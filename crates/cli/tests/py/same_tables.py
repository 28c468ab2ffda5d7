"""For each argument `SOURCE=OUTPUT`, reads both Arrow IPC files/streams with pyarrow and
checks that the tables are equal (schema and values). Exits 1 listing every mismatch."""
import sys

import pyarrow as pa
import pyarrow.ipc as ipc


def read(path):
    with open(path, "rb") as f:
        head = f.read(6)
    if head == b"ARROW1":
        return ipc.open_file(path).read_all()
    return ipc.open_stream(path).read_all()


failures = []
for pair in sys.argv[1:]:
    source, output = pair.split("=", 1)
    expected, actual = read(source), read(output)
    if not actual.schema.equals(expected.schema):
        failures.append(f"{output}: schema {actual.schema} != {expected.schema}")
    elif not actual.equals(expected):
        failures.append(f"{output}: values differ from {source}")
print(f"{len(sys.argv) - 1} files checked")
if failures:
    print("\n".join(failures))
    sys.exit(1)
