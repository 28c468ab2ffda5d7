"""Compresses buffers with python-lzo (LZO1X-1) in Hadoop's block framing, as parquet-mr's
LzoCodec writes LZO pages: each block of at most argv[1] bytes is its uncompressed size (a
big-endian u32), then one chunk: the compressed size (a big-endian u32) and the LZO1X stream.

Reads from stdin a sequence of buffers, each a little-endian u32 length and the bytes; writes
each framed buffer to stdout the same way."""
import struct
import sys

import lzo

block = int(sys.argv[1])
data = sys.stdin.buffer.read()
out = sys.stdout.buffer
pos = 0
while pos < len(data):
    (n,) = struct.unpack_from("<I", data, pos)
    body = data[pos + 4:pos + 4 + n]
    pos += 4 + n
    framed = bytearray()
    for at in range(0, len(body), block):
        part = body[at:at + block]
        stream = lzo.compress(part, 1, False)  # no python-lzo header
        framed += struct.pack(">II", len(part), len(stream)) + stream
    out.write(struct.pack("<I", len(framed)) + framed)
