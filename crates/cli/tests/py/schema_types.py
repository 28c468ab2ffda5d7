"""Prints `name<TAB>type<TAB>nullable` for every top-level field of an Arrow IPC file or
stream, with pyarrow's spelling (`str(type)`) of the type (used to check `quiver schema`)."""
import sys

import pyarrow.ipc as ipc

path = sys.argv[1]
with open(path, "rb") as f:
    head = f.read(6)
reader = ipc.open_file(path) if head == b"ARROW1" else ipc.open_stream(path)
for field in reader.schema:
    print(f"{field.name}\t{field.type}\t{field.nullable}")
