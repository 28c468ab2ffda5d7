"""A small Thrift compact-protocol codec and Parquet footer/page walker for the merge oracles
(merge_check.py), written from the Thrift compact protocol spec and parquet.thrift, so that the
checks see the footer, page headers and page index as they are in the file, independently of
the readers under test.

A struct decodes to a `Struct`: field id -> value, with each field's wire type kept (so it can
be encoded again unchanged, which the self-test uses to make deliberately wrong files). A list
decodes to a `List` (element type, items). Field ids are parquet.thrift's.
"""
import struct

STOP, TRUE, FALSE, BYTE, I16, I32, I64, DOUBLE, BINARY, LIST, SET, MAP, STRUCT = range(13)
# Page types and encodings (parquet.thrift enums).
DATA_PAGE, INDEX_PAGE, DICTIONARY_PAGE, DATA_PAGE_V2 = 0, 1, 2, 3
ENCODINGS = {0: "PLAIN", 2: "PLAIN_DICTIONARY", 3: "RLE", 4: "BIT_PACKED",
             5: "DELTA_BINARY_PACKED", 6: "DELTA_LENGTH_BYTE_ARRAY", 7: "DELTA_BYTE_ARRAY",
             8: "RLE_DICTIONARY", 9: "BYTE_STREAM_SPLIT"}
CODECS = {0: "UNCOMPRESSED", 1: "SNAPPY", 2: "GZIP", 3: "LZO", 4: "BROTLI", 5: "LZ4", 6: "ZSTD",
          7: "LZ4_RAW"}
PHYSICAL = {0: "BOOLEAN", 1: "INT32", 2: "INT64", 3: "INT96", 4: "FLOAT", 5: "DOUBLE",
            6: "BYTE_ARRAY", 7: "FIXED_LEN_BYTE_ARRAY"}


class ThriftError(ValueError):
    pass


class Struct(dict):
    """Field id -> value; `types` keeps each field's compact type."""

    def __init__(self):
        super().__init__()
        self.types = {}

    def set(self, fid, ttype, value):
        self[fid] = value
        self.types[fid] = ttype


class List:
    def __init__(self, etype, items):
        self.etype, self.items = etype, items

    def __iter__(self):
        return iter(self.items)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


class Reader:
    def __init__(self, buf, pos=0):
        self.buf, self.pos = buf, pos

    def byte(self):
        if self.pos >= len(self.buf):
            raise ThriftError(f"thrift: end of input at byte {self.pos}")
        b = self.buf[self.pos]
        self.pos += 1
        return b

    def varint(self):
        out = shift = 0
        while True:
            b = self.byte()
            out |= (b & 0x7F) << shift
            if b < 0x80:
                return out
            shift += 7
            if shift > 70:
                raise ThriftError(f"thrift: varint too long at byte {self.pos}")

    def zigzag(self):
        v = self.varint()
        return (v >> 1) ^ -(v & 1)

    def value(self, ttype):
        if ttype in (TRUE, FALSE):
            return ttype == TRUE
        if ttype == BYTE:
            return struct.unpack("b", bytes([self.byte()]))[0]
        if ttype in (I16, I32, I64):
            return self.zigzag()
        if ttype == DOUBLE:
            self.pos += 8
            return struct.unpack("<d", self.buf[self.pos - 8:self.pos])[0]
        if ttype == BINARY:
            n = self.varint()
            if self.pos + n > len(self.buf):
                raise ThriftError(f"thrift: binary of {n} bytes past the end at {self.pos}")
            self.pos += n
            return bytes(self.buf[self.pos - n:self.pos])
        if ttype in (LIST, SET):
            head = self.byte()
            n, etype = head >> 4, head & 0x0F
            if n == 15:
                n = self.varint()
            if n > len(self.buf) - self.pos:
                raise ThriftError(f"thrift: list of {n} items past the end at {self.pos}")
            if etype in (TRUE, FALSE):
                return List(TRUE, [self.byte() == 1 for _ in range(n)])
            return List(etype, [self.value(etype) for _ in range(n)])
        if ttype == MAP:
            n = self.varint()
            kv = self.byte() if n else 0
            return [(self.value(kv >> 4), self.value(kv & 0x0F)) for _ in range(n)]
        if ttype == STRUCT:
            return self.struct()
        raise ThriftError(f"thrift: unknown type {ttype} at byte {self.pos}")

    def struct(self):
        out, last = Struct(), 0
        while True:
            head = self.byte()
            ttype = head & 0x0F
            if ttype == STOP:
                return out
            delta = head >> 4
            fid = last + delta if delta else self.zigzag()
            out.set(fid, ttype, self.value(ttype))
            last = fid


class Writer:
    def __init__(self):
        self.out = bytearray()

    def varint(self, v):
        while v >= 0x80:
            self.out.append((v & 0x7F) | 0x80)
            v >>= 7
        self.out.append(v)

    def zigzag(self, v):
        self.varint((v << 1) ^ (v >> 63))

    def value(self, ttype, v):
        if ttype in (TRUE, FALSE):
            self.out.append(1 if v else 2)  # only inside lists; fields carry it in the header
        elif ttype == BYTE:
            self.out += struct.pack("b", v)
        elif ttype in (I16, I32, I64):
            self.zigzag(v)
        elif ttype == DOUBLE:
            self.out += struct.pack("<d", v)
        elif ttype == BINARY:
            self.varint(len(v))
            self.out += v
        elif ttype in (LIST, SET):
            n = len(v.items)
            self.out.append((min(n, 15) << 4) | v.etype)
            if n >= 15:
                self.varint(n)
            for item in v.items:
                self.value(v.etype, item)
        elif ttype == STRUCT:
            self.struct(v)
        else:
            raise ThriftError(f"thrift: cannot write type {ttype}")

    def struct(self, s):
        last = 0
        for fid in sorted(s):
            ttype = s.types[fid]
            if ttype in (TRUE, FALSE):
                ttype = TRUE if s[fid] else FALSE
            if 0 < fid - last <= 15:
                self.out.append(((fid - last) << 4) | ttype)
            else:
                self.out.append(ttype)
                self.zigzag(fid)
            if ttype not in (TRUE, FALSE):
                self.value(ttype, s[fid])
            last = fid
        self.out.append(STOP)


def encode(s):
    w = Writer()
    w.struct(s)
    return bytes(w.out)


def decode_at(buf, pos):
    """The struct at `pos` and the position after it."""
    r = Reader(buf, pos)
    s = r.struct()
    return s, r.pos


def footer(buf):
    """FileMetaData of a whole file's bytes, and where the footer starts."""
    if len(buf) < 12 or buf[:4] != b"PAR1" or buf[-4:] != b"PAR1":
        raise ThriftError("not a Parquet file (PAR1 magic missing)")
    n = struct.unpack("<I", buf[-8:-4])[0]
    start = len(buf) - 8 - n
    if start < 4:
        raise ThriftError(f"footer length {n} larger than the file")
    meta, end = decode_at(buf, start)
    if end != len(buf) - 8:
        raise ThriftError(f"footer ends at {end}, not at {len(buf) - 8}")
    return meta, start


def with_footer(buf, meta, extra=b""):
    """The file `buf` with its footer replaced by `meta` (and `extra` bytes put before it)."""
    _, start = footer(buf)
    body = bytes(buf[:start]) + extra
    enc = encode(meta)
    return body + enc + struct.pack("<I", len(enc)) + b"PAR1"


def nodes(meta):
    """Every SchemaElement below the root with its dotted path, max definition and repetition
    levels and whether it is a leaf, in schema order."""
    schema = list(meta[2])
    out, pos = [], 1

    def walk(prefix, count, dl, rl):
        nonlocal pos
        for _ in range(count):
            if pos >= len(schema):
                raise ThriftError("schema: fewer elements than num_children says")
            el = schema[pos]
            pos += 1
            rep = el.get(3, 0)
            d, r = dl + (rep != 0), rl + (rep == 2)
            path = prefix + [el[4].decode()]
            children = el.get(5) or 0
            out.append({"path": ".".join(path), "el": el, "def": d, "rep": r,
                        "leaf": not children})
            walk(path, children, d, r)

    walk([], schema[0].get(5, 0), 0, 0)
    return out


def leaves(meta):
    """The leaf SchemaElements with their dotted paths, in column order."""
    return [(n["path"], n["el"]) for n in nodes(meta) if n["leaf"]]


def chunk_range(md):
    """(start, end) of a ColumnMetaData's pages."""
    start = md[9]
    if md.get(11) is not None and 0 < md[11] and (md[11] < start or start < 4):
        start = md[11]  # (pyarrow writes data_page_offset 0 for an empty chunk)
    return start, start + md[7]


def walk_pages(buf, md):
    """The pages of one column chunk: dicts {offset, header_len, type, header, ...}; raises
    ThriftError when the pages do not tile the chunk's byte range."""
    start, end = chunk_range(md)
    pages, pos = [], start
    while pos < end:
        header, after = decode_at(buf, pos)
        size = header.get(3)
        if size is None or size < 0:
            raise ThriftError(f"page at {pos}: no compressed_page_size")
        pages.append({"offset": pos, "header_len": after - pos, "type": header.get(1),
                      "header": header, "size": after - pos + size,
                      "uncompressed": after - pos + header.get(2, 0)})
        pos = after + size
    if pos != end:
        raise ThriftError(f"pages run to byte {pos}, the chunk ends at {end}")
    return pages


def page_encodings(page):
    """The encodings one page uses (its values and, for v1, its levels)."""
    h = page["header"]
    if page["type"] == DICTIONARY_PAGE:
        return {h[7].get(2)}
    if page["type"] == DATA_PAGE:
        d = h[5]
        return {d.get(2), d.get(3), d.get(4)}
    if page["type"] == DATA_PAGE_V2:
        return {h[8].get(4), 3}  # v2 levels are always RLE
    return set()


def page_values(page):
    h = page["header"]
    if page["type"] == DATA_PAGE:
        return h[5].get(1, 0)
    if page["type"] == DATA_PAGE_V2:
        return h[8].get(1, 0)
    return 0
