#!/usr/bin/env python3
"""Writes the pyarrow copies of a benchmark data set: reads the quiver-written IPC file
`{dir}/{name}-{rows}.arrow` and writes `{name}-{rows}.pa.arrow`, `.pa.lz4.arrow`,
`.pa.zstd.arrow` (IPC files) and `.pa.arrows` (IPC stream) with the same record batches.
Existing copies are kept.

    python3 bench/py/write_inputs.py bench/data lineitem 6000000
"""

import os
import sys

import pyarrow as pa
import pyarrow.ipc as ipc


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    folder, name, rows = sys.argv[1:]
    base = os.path.join(folder, f"{name}-{rows}")
    outputs = {
        ".pa.arrow": (None, False),
        ".pa.lz4.arrow": ("lz4", False),
        ".pa.zstd.arrow": ("zstd", False),
        ".pa.arrows": (None, True),
    }
    todo = {k: v for k, v in outputs.items() if not os.path.exists(base + k)}
    if not todo:
        return
    with pa.memory_map(base + ".arrow") as source:
        reader = ipc.open_file(source)
        batches = [reader.get_batch(i) for i in range(reader.num_record_batches)]
        for suffix, (compression, stream) in todo.items():
            options = ipc.IpcWriteOptions(compression=compression)
            tmp = base + suffix + ".tmp"
            with pa.OSFile(tmp, "wb") as sink:
                new = ipc.new_stream if stream else ipc.new_file
                with new(sink, reader.schema, options=options) as w:
                    for b in batches:
                        w.write_batch(b)
            os.replace(tmp, base + suffix)
            print(f"wrote {base + suffix}", file=sys.stderr)


if __name__ == "__main__":
    main()
