"""Compresses each `*.bin` file of a folder with the Snappy library pyarrow bundles (the C++
library, google/snappy), writing `NAME.bin.snappy` beside it.

    python3 libsnappy.py DIR
"""

import os
import sys

import pyarrow as pa

folder = sys.argv[1]
for name in sorted(os.listdir(folder)):
    if name.endswith(".bin"):
        with open(os.path.join(folder, name), "rb") as f:
            data = f.read()
        out = pa.compress(data, "snappy", asbytes=True)
        with open(os.path.join(folder, name + ".snappy"), "wb") as f:
            f.write(out)
