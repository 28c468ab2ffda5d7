"""Writes Arrow IPC files and streams with pyarrow for types the gold set lacks or covers
thinly, plus the values pyarrow holds, in a canonical JSON form that
`tests/it/pyarrow_written.rs` renders from quiver's reading with the same rules.

Usage: write_cases.py OUTDIR. Writes OUTDIR/<case>.arrow_file (when the case has a file),
OUTDIR/<case>.stream and OUTDIR/manifest.json:

    {"pyarrow": version, "cases": [{"name", "file", "stream", "schema", "schema_metadata",
                                      "batches": [{"rows": n, "columns": [[value, ...], ...]}]}]}

Canonical rules (one JSON value per slot, null for a null slot):
- bool and integers: JSON numbers.
- floats: the IEEE bits as "0x" + lowercase hex, 4/8/16 digits for float16/32/64.
- decimals: the unscaled integer as a decimal string.
- dates, times, timestamps, durations: the stored integer.
- month_day_nano intervals: [months, days, nanoseconds].
- strings: JSON strings; binary of every kind: lowercase hex.
- lists of every kind (and fixed-size lists): arrays of the children's values.
- structs: objects keyed by field name; maps: arrays of [key, value].
- dictionaries: the dictionary value (resolved); run-end encoded: decoded, slot by slot.
- unions: [type code, value].
- extension types: their storage.

Types are rendered as strings (see `canon_type`); a field is `name[?]:type[{k=v,...}]`, `?`
meaning nullable, with the field metadata sorted by key (extension types add
ARROW:extension:name and ARROW:extension:metadata, as pyarrow writes them).

Before writing the manifest, every file and stream is read back with pyarrow and must equal
the batches written, so that an expectation never rests on a pyarrow writer bug.
"""

import bisect
import decimal
import functools
import json
import os
import struct
import sys

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc as ipc

# ---------------------------------------------------------------------------------------------
# Canonical values and types


def unscaled(v, scale):
    """The unscaled integer of a Decimal, as a string (exact at any precision)."""
    sign, digits, exp = v.as_tuple()
    n = int("".join(map(str, digits)) or "0")
    shift = exp + scale
    if shift >= 0:
        n *= 10**shift
    else:
        q, r = divmod(n, 10**-shift)
        assert r == 0, (v, scale)
        n = q
    return str(-n if sign else n)


FLOAT_BITS = {16: pa.uint16(), 32: pa.uint32(), 64: pa.uint64()}
TEMPORAL_INT = {32: pa.int32(), 64: pa.int64()}


def is_list_like(t):
    return (
        pa.types.is_list(t)
        or pa.types.is_large_list(t)
        or pa.types.is_fixed_size_list(t)
        or pa.types.is_list_view(t)
        or pa.types.is_large_list_view(t)
    )


def canon(arr):
    """The canonical JSON values of every slot of `arr`."""
    t = arr.type
    if isinstance(t, pa.BaseExtensionType):
        return canon(arr.storage)
    if pa.types.is_null(t):
        return [None] * len(arr)
    if pa.types.is_boolean(t) or pa.types.is_integer(t):
        return arr.to_pylist()
    if pa.types.is_floating(t):
        width = t.bit_width
        bits = arr.view(FLOAT_BITS[width]).to_pylist()
        return [None if b is None else f"0x{b:0{width // 4}x}" for b in bits]
    if pa.types.is_decimal(t):
        return [None if v is None else unscaled(v, t.scale) for v in arr.to_pylist()]
    if (
        pa.types.is_date(t)
        or pa.types.is_time(t)
        or pa.types.is_timestamp(t)
        or pa.types.is_duration(t)
    ):
        return arr.view(TEMPORAL_INT[t.bit_width]).to_pylist()
    if t == pa.month_day_nano_interval():
        return [
            None if v is None else [v.months, v.days, v.nanoseconds]
            for v in arr.to_pylist()
        ]
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return arr.to_pylist()
    if (
        pa.types.is_binary(t)
        or pa.types.is_large_binary(t)
        or pa.types.is_binary_view(t)
        or pa.types.is_fixed_size_binary(t)
    ):
        return [None if v is None else v.hex() for v in arr.to_pylist()]
    if pa.types.is_map(t):
        out = []
        for i in range(len(arr)):
            s = arr[i]
            if not s.is_valid:
                out.append(None)
                continue
            keys, items = (canon(c) for c in s.values.flatten())
            out.append([[k, v] for k, v in zip(keys, items)])
        return out
    if is_list_like(t):
        return [canon(s.values) if s.is_valid else None for s in arr]
    if pa.types.is_struct(t):
        children = [canon(c) for c in arr.flatten()]
        names = [t.field(j).name for j in range(t.num_fields)]
        valid = arr.is_valid().to_pylist()
        return [
            dict(zip(names, (c[i] for c in children))) if valid[i] else None
            for i in range(len(arr))
        ]
    if pa.types.is_dictionary(t):
        values = canon(arr.dictionary)
        return [None if k is None else values[k] for k in arr.indices.to_pylist()]
    if pa.types.is_run_end_encoded(t):
        # .run_ends and .values are the whole children; the slice is arr.offset, len(arr).
        # (pc.run_end_decode would do, but has no kernel for dictionary values.)
        ends = arr.run_ends.to_pylist()
        values = canon(arr.values)
        return [values[bisect.bisect_right(ends, arr.offset + i)] for i in range(len(arr))]
    if pa.types.is_union(t):
        # UnionArray.type_codes and .offsets ignore the array's own offset: read the buffers.
        bufs = arr.buffers()
        n, off = len(arr), arr.offset
        codes = pa.Array.from_buffers(pa.int8(), n, [None, bufs[1]], offset=off).to_pylist()
        dense = t.mode == "dense"
        offsets = None
        if dense:
            offsets = pa.Array.from_buffers(pa.int32(), n, [None, bufs[2]], offset=off).to_pylist()
        children = [canon(arr.field(j)) for j in range(t.num_fields)]
        position = {c: j for j, c in enumerate(t.type_codes)}
        return [
            [c, children[position[c]][offsets[i] if dense else i]]
            for i, c in enumerate(codes)
        ]
    raise TypeError(f"no canonical form for {t}")


UNIT = {"s": "s", "ms": "ms", "us": "us", "ns": "ns"}


def canon_field(f):
    t = f.type
    meta = {k.decode(): v.decode() for k, v in (f.metadata or {}).items()}
    if isinstance(t, pa.BaseExtensionType):
        meta["ARROW:extension:name"] = t.extension_name
        ser = getattr(t, "__arrow_ext_serialize__", None)
        meta["ARROW:extension:metadata"] = ser().decode() if ser else ""
        t = t.storage_type
    text = f"{f.name}{'?' if f.nullable else ''}:{canon_type(t)}"
    if meta:
        text += "{" + ",".join(f"{k}={v}" for k, v in sorted(meta.items())) + "}"
    return text


def canon_type(t):
    if isinstance(t, pa.BaseExtensionType):
        raise TypeError("extension types are rendered by canon_field")
    simple = [
        (pa.types.is_null, "null"),
        (pa.types.is_boolean, "bool"),
        (pa.types.is_string, "utf8"),
        (pa.types.is_large_string, "large_utf8"),
        (pa.types.is_string_view, "utf8_view"),
        (pa.types.is_binary, "binary"),
        (pa.types.is_large_binary, "large_binary"),
        (pa.types.is_binary_view, "binary_view"),
        (pa.types.is_date32, "date32"),
        (pa.types.is_date64, "date64"),
    ]
    for pred, name in simple:
        if pred(t):
            return name
    if pa.types.is_integer(t):
        return f"{'int' if pa.types.is_signed_integer(t) else 'uint'}{t.bit_width}"
    if pa.types.is_floating(t):
        return f"float{t.bit_width}"
    if pa.types.is_decimal(t):
        return f"decimal{t.bit_width}({t.precision},{t.scale})"
    if pa.types.is_time32(t):
        return f"time32({UNIT[t.unit]})"
    if pa.types.is_time64(t):
        return f"time64({UNIT[t.unit]})"
    if pa.types.is_timestamp(t):
        return f"timestamp({UNIT[t.unit]}{',' + t.tz if t.tz else ''})"
    if pa.types.is_duration(t):
        return f"duration({UNIT[t.unit]})"
    if t == pa.month_day_nano_interval():
        return "interval(month_day_nano)"
    if pa.types.is_fixed_size_binary(t):
        return f"fixed_size_binary({t.byte_width})"
    if pa.types.is_map(t):
        entries = pa.field(
            "entries", pa.struct([t.key_field, t.item_field]), nullable=False
        )
        return f"map({'sorted' if t.keys_sorted else 'unsorted'})<{canon_field(entries)}>"
    if pa.types.is_fixed_size_list(t):
        return f"fixed_size_list({t.list_size})<{canon_field(t.value_field)}>"
    for pred, name in [
        (pa.types.is_list, "list"),
        (pa.types.is_large_list, "large_list"),
        (pa.types.is_list_view, "list_view"),
        (pa.types.is_large_list_view, "large_list_view"),
    ]:
        if pred(t):
            return f"{name}<{canon_field(t.value_field)}>"
    if pa.types.is_struct(t):
        return "struct<" + ",".join(canon_field(t.field(j)) for j in range(t.num_fields)) + ">"
    if pa.types.is_union(t):
        parts = [f"{c}={canon_field(t.field(j))}" for j, c in enumerate(t.type_codes)]
        return f"{t.mode}_union<{','.join(parts)}>"
    if pa.types.is_dictionary(t):
        order = "ordered" if t.ordered else "unordered"
        return f"dictionary({canon_type(t.index_type)},{order})<{canon_type(t.value_type)}>"
    if pa.types.is_run_end_encoded(t):
        ends = pa.field("run_ends", t.run_end_type, nullable=False)
        values = pa.field("values", t.value_type)
        return f"run_end_encoded<{canon_field(ends)},{canon_field(values)}>"
    raise TypeError(f"no canonical form for type {t}")


# ---------------------------------------------------------------------------------------------
# Cases: each returns (schema, [RecordBatch, ...])


def batches_of(table, sizes):
    """Zero-copy slices of `table` (combined into one chunk) as record batches."""
    rb = table.combine_chunks().to_batches()[0] if table.num_rows else None
    out, start = [], 0
    for n in sizes:
        out.append(rb.slice(start, n))
        start += n
    assert start == table.num_rows, (start, table.num_rows)
    return out


def long_text(i, n):
    return "".join(chr(ord("a") + (i * 7 + j) % 26) for j in range(n))


def case_views():
    schema = pa.schema(
        [
            ("sv", pa.string_view()),
            ("bv", pa.binary_view()),
            pa.field("sv_required", pa.string_view(), nullable=False),
        ]
    )
    values = [
        "", "a", "twelve bytes", "thirteen byte", None, "héllo wörld ✓✓✓", long_text(1, 40),
        "x" * 12, None, long_text(2, 200),
    ]

    def chunk(k):
        sv = pa.array([None if v is None else v + str(k) * (k % 3) for v in values], pa.string_view())
        bv = pa.array(
            [None if v is None else (v.encode() + bytes([k, 0, 255]) * k) for v in values],
            pa.binary_view(),
        )
        req = pa.array([long_text(k + j, j * 3) for j in range(len(values))], pa.string_view())
        return pa.record_batch([sv, bv, req], schema=schema)

    # Concatenating view chunks keeps each chunk's data buffers: several variadic buffers.
    multi = pa.Table.from_batches([chunk(k) for k in range(1, 5)]).combine_chunks()
    rb = multi.to_batches()[0]
    assert len(rb.column(0).buffers()) > 4, "expected several variadic buffers"
    return schema, [chunk(0), rb, rb.slice(7, 20), chunk(5)]


def case_list_views():
    values = pa.array([1, 2, None, 4, 5, 6, 7, None, 9, 10], pa.int32())
    # Out of order, overlapping, empty and null views (the null view's offset/size are junk).
    offsets = pa.array([6, 0, 2, 3, 9, 5, 0, 1], pa.int32())
    sizes = pa.array([4, 3, 5, 0, 1, 2, 10, 3], pa.int32())
    mask = pa.array([False, False, False, False, False, False, False, True])
    lv = pa.ListViewArray.from_arrays(offsets, sizes, values, mask=mask)
    svalues = pa.array(["p", None, "quiver arrow values", "", "r", "s", "t"], pa.large_string())
    loffsets = pa.array([5, 0, 2, 0, 1, 6, 3, 4], pa.int64())
    lsizes = pa.array([2, 7, 0, 3, 4, 1, 3, 0], pa.int64())
    lmask = pa.array([False, True, False, False, False, False, False, False])
    llv = pa.LargeListViewArray.from_arrays(loffsets, lsizes, svalues, mask=lmask)
    # A list view of list views.
    inner = pa.ListViewArray.from_arrays(
        pa.array([2, 0, 1, 3], pa.int32()), pa.array([2, 1, 3, 0], pa.int32()),
        pa.array([10, 20, 30, 40, 50], pa.int8()),
    )
    nested = pa.ListViewArray.from_arrays(
        pa.array([3, 0, 1, 0, 2, 1, 0, 3], pa.int32()),
        pa.array([1, 2, 3, 0, 2, 1, 4, 1], pa.int32()), inner,
    )
    table = pa.table({"lv": lv, "llv": llv, "nested": nested})
    rb = table.to_batches()[0]
    return table.schema, [rb, rb.slice(2, 5), rb.slice(7, 1), rb.slice(0, 0)]


def case_run_end_encoded():
    def ree(ends, values, end_type):
        return pa.RunEndEncodedArray.from_arrays(pa.array(ends, end_type), values)

    n = 12
    i64 = ree([2, 3, 7, 8, 12], pa.array([10, None, -3, 2**62, 5], pa.int64()), pa.int32())
    s = ree([1, 5, 6, 12], pa.array(["a", "run of text longer", None, ""]), pa.int32())
    f = ree([4, 12], pa.array([1.5, None], pa.float64()), pa.int16())
    b = ree([3, 9, 10, 12], pa.array([True, None, False, True]), pa.int64())
    schema = pa.schema([("i64", i64.type), ("s", s.type), ("f", f.type), ("b", b.type)])
    full = pa.record_batch([i64, s, f, b], schema=schema)
    assert full.num_rows == n
    # Slices start and end inside runs.
    return schema, [full, full.slice(1, 5), full.slice(6, 5), full.slice(3, 1)]


def case_decimals():
    D = decimal.Decimal
    cols = {
        "d32": pa.array(
            [D("1234567.89"), D("-9999999.99"), None, D("0.01"), D("-0.01"), D("0")],
            pa.decimal32(9, 2),
        ),
        "d32_neg_scale": pa.array(
            [D("1.23E+5"), D("-9.99E+4"), None, D("0"), D("1E+2"), D("-9.999E+7")],
            pa.decimal32(6, -2),
        ),
        "d64": pa.array(
            [D("123456789012.345678"), D("-999999999999.999999"), D("0"), None, D("-1"), D("1")],
            pa.decimal64(18, 6),
        ),
        "d128": pa.array(
            [D("9" * 28 + "." + "9" * 10), D("-" + "9" * 28 + "." + "9" * 10), None,
             D("-0.0000000001"), D("12345"), D("-12345.5")],
            pa.decimal128(38, 10),
        ),
        "d256": pa.array(
            [D("9" * 76), D("-" + "9" * 76), D("-1"), None, D("2") ** 200, -(D("3") ** 150)],
            pa.decimal256(76, 0),
        ),
        "d256_scaled": pa.array(
            [D("-1.5"), None, D("0.00001"), D("-12345678901234567890.12345"), D("7"), D("-7")],
            pa.decimal256(40, 5),
        ),
    }
    table = pa.table(cols)
    return table.schema, batches_of(table, [2, 3, 1])


def case_large_types():
    n = 9
    ls = pa.array([None if i % 4 == 1 else long_text(i, i * 5) for i in range(n)], pa.large_string())
    lb = pa.array([None if i % 3 == 2 else bytes(range(i, 3 * i)) for i in range(n)], pa.large_binary())
    ll = pa.array(
        [None if i == 4 else [None if j == 1 else i * 100 + j for j in range(i % 4)] for i in range(n)],
        pa.large_list(pa.int64()),
    )
    lls = pa.array(
        [[long_text(i, 3), None] if i % 2 else [] for i in range(n)],
        pa.large_list(pa.large_string()),
    )
    table = pa.table({"ls": ls, "lb": lb, "ll": ll, "lls": lls})
    return table.schema, batches_of(table, [3, 4, 2])


def case_unions():
    n = 10
    codes = pa.array([5, 2, 5, 5, 2, 2, 5, 2, 5, 2], pa.int8())
    sparse = pa.UnionArray.from_sparse(
        codes,
        [
            pa.array([i * 11 if i % 3 else None for i in range(n)], pa.int64()),
            pa.array([None if i == 4 else f"s{i}" for i in range(n)]),
        ],
        field_names=["i", "s"],
        type_codes=[5, 2],
    )
    dcodes = pa.array([9, 2, 5, 9, 9, 5, 2, 2, 9, 5], pa.int8())
    ints = pa.array([1, None, 3], pa.int32())  # code 5
    strs = pa.array(["two", None, "long string value here"])  # code 2
    lists = pa.array([[1, 2], None, [], [None], [7]], pa.list_(pa.int8()))  # code 9
    doffsets = pa.array([0, 0, 0, 1, 2, 1, 1, 2, 3, 2], pa.int32())
    dense = pa.UnionArray.from_dense(
        dcodes, doffsets, [ints, strs, lists], field_names=["i", "s", "l"], type_codes=[5, 2, 9]
    )
    # A dense union whose children hold values no slot refers to (offsets increase per child
    # with gaps, as the format requires).
    gaps = pa.UnionArray.from_dense(
        pa.array([1, 1, 0, 1, 0, 0, 1, 1, 0, 1], pa.int8()),
        pa.array([0, 2, 1, 3, 2, 4, 5, 7, 5, 8], pa.int32()),
        [
            pa.array([False, True, None, False, True, None], pa.bool_()),
            pa.array([0.5, -1.0, -2.0, None, 3.0, 8.25, 9.5, 1e-3, -0.0], pa.float32()),
        ],
        field_names=["b", "f"],
    )
    table = pa.table({"sparse": sparse, "dense": dense, "gaps": gaps})
    rb = table.to_batches()[0]
    return table.schema, [rb.slice(0, 4), rb.slice(4, 3), rb.slice(7, 3), rb.slice(3, 6)]


def case_dictionaries():
    n = 12
    words = pa.array(["zero", "one", None, "three", "a longer dictionary word"])
    d8 = pa.DictionaryArray.from_arrays(
        pa.array([None if i % 5 == 3 else i % 5 for i in range(n)], pa.int8()), words
    )
    d16 = pa.DictionaryArray.from_arrays(
        pa.array([(i * 7) % 4 for i in range(n)], pa.uint16()),
        pa.array([-1, 2**40, None, 3], pa.int64()),
    )
    d64 = pa.DictionaryArray.from_arrays(
        pa.array([None if i == 6 else (n - i) % 3 for i in range(n)], pa.int64()),
        pa.array(["low", "mid", "high"]), ordered=True,
    )
    inner = pa.DictionaryArray.from_arrays(
        pa.array([0, 1, 1, None, 2, 0, 2, 2, 1, 0, 0, 1, 2, 0], pa.int32()),
        pa.array(["x", "yy", "zzz"]),
    )
    offsets = pa.array([0, 2, 2, None, 5, 6, 8, 9, 9, 11, 12, 13, 14], pa.int32())
    list_of_dict = pa.ListArray.from_arrays(offsets, inner)
    struct_dict = pa.DictionaryArray.from_arrays(
        pa.array([1, 0, None, 2, 1, 1, 0, 2, 2, None, 0, 1], pa.int16()),
        pa.array([{"a": 1, "b": "x"}, {"a": None, "b": "y"}, None],
                 pa.struct([("a", pa.int32()), ("b", pa.string())])),
    )
    dict_of_decimal = pa.DictionaryArray.from_arrays(
        pa.array([i % 2 for i in range(n)], pa.uint8()),
        pa.array([decimal.Decimal("1.5"), decimal.Decimal("-2.25")], pa.decimal128(10, 2)),
    )
    table = pa.table(
        {"d8": d8, "d16": d16, "d64_ordered": d64, "list_of_dict": list_of_dict,
         "struct_dict": struct_dict, "decimal_dict": dict_of_decimal}
    )
    return table.schema, batches_of(table, [4, 5, 3])


def case_nested_dictionaries():
    """Dictionaries inside every kind of parent, and parents inside dictionaries."""
    n = 8

    def dct(indices, words, index_type=pa.int8(), value_type=pa.string()):
        return pa.DictionaryArray.from_arrays(pa.array(indices, index_type), pa.array(words, value_type))

    d = dct([0, 1, None, 0, 2, 2, 1, 0], ["a", "b", None])
    keys = dct([0, 1, 1, 0, 2, 1, 0, 2, 2, 1, 0, 1, 2, 0, 1, 2], ["k0", "k1", "k2"], pa.int16())
    map_offsets = pa.array([0, 2, 2, 5, 6, 8, 11, 14, 16], pa.int32())
    ree_values = dct([1, 0, None, 2], ["r0", "r1", "a string longer than twelve"], pa.uint8())
    list_dict = pa.ListArray.from_arrays(pa.array([0, 2, 3, 3, 5], pa.int32()), dct([1, 0, None, 1, 0], ["p", "q"]))
    cols = {
        "struct_of_dict": pa.StructArray.from_arrays([d, pa.array(range(n), pa.int32())], names=["d", "i"]),
        "sparse_union_of_dict": pa.UnionArray.from_sparse(
            pa.array([0, 1, 0, 1, 1, 0, 0, 1], pa.int8()), [d, pa.array(range(n), pa.int64())],
            field_names=["d", "i"],
        ),
        "dense_union_of_dict": pa.UnionArray.from_dense(
            pa.array([3, 3, 1, 3, 1, 1, 3, 3], pa.int8()), pa.array([0, 1, 0, 2, 1, 2, 3, 4], pa.int32()),
            [d, pa.array([10, None, 30], pa.int64())], field_names=["d", "i"], type_codes=[3, 1],
        ),
        "fixed_list_of_dict": pa.FixedSizeListArray.from_arrays(dct([0, 1] * n, ["f0", "f1"]), 2),
        "dict_of_list": dct([1, 0, None, 2, 1, 1, 0, 2], [["x", "y"], None, []], pa.int32(), pa.list_(pa.string())),
        "dict_of_list_of_dict": pa.DictionaryArray.from_arrays(
            pa.array([3, 2, 1, 0, None, 3, 2, 1], pa.int8()), list_dict
        ),
        "map_of_dicts": pa.MapArray.from_arrays(map_offsets, keys, dct([1, None, 0] * 5 + [1], ["v0", "v1"])),
        "ree_of_dict": pa.RunEndEncodedArray.from_arrays(pa.array([1, 4, 6, 8], pa.int32()), ree_values),
        "list_view_of_dict": pa.ListViewArray.from_arrays(
            pa.array([4, 0, 2, 7, 1, 3, 0, 5], pa.int32()), pa.array([3, 2, 0, 1, 4, 2, 8, 3], pa.int32()), d
        ),
        "dict_of_views": dct([0, 1, None, 0, 1, 0, 1, 1], ["a much longer value than twelve", "b"],
                             pa.uint64(), pa.string_view()),
        "dict_u32_of_f16": dct([2, 0, 1, None, 2, 1, 0, 0], [0.5, None, -1.0], pa.uint32(), pa.float16()),
    }
    table = pa.table(cols)
    return table.schema, batches_of(table, [3, 1, 4])


def case_empty_stream():
    """A schema and no batches."""
    schema = pa.schema([("i", pa.int32()), ("d", pa.dictionary(pa.int8(), pa.string())),
                        ("r", pa.run_end_encoded(pa.int32(), pa.utf8()))])
    return schema, []


def case_no_columns():
    """Batches with rows but no columns."""
    rb = pa.RecordBatch.from_struct_array(pa.array([{}] * 5, pa.struct([])))
    return rb.schema, [rb, rb.slice(0, 0), rb.slice(1, 3)]


def bitmap(bits):
    """A validity buffer from a list of 0/1."""
    b = bytearray((len(bits) + 7) // 8)
    for i, v in enumerate(bits):
        if v:
            b[i // 8] |= 1 << (i % 8)
    return pa.py_buffer(bytes(b))


def view(data, buffer_index=0, offset=0):
    """One 16-byte view: inline when `data` is at most 12 bytes, else a reference."""
    n = len(data)
    if n <= 12:
        return struct.pack("<i12s", n, data)
    return struct.pack("<i4sii", n, data[:4], buffer_index, offset)


def case_garbage_under_nulls():
    """Null slots whose bytes are arbitrary, as the format allows, and pyarrow's full
    validation accepts: a dictionary key out of range, views pointing nowhere or holding
    invalid UTF-8, a decimal beyond its precision."""
    valid = bitmap([1, 0, 1, 0])
    keys = pa.Array.from_buffers(pa.int8(), 4, [valid, pa.py_buffer(bytes([1, 100, 0, 0x80]))])
    views = view(b"hi") + view(b"z" * 40, 7, 1000) + view(b"a longer value", 0, 0) + view(b"\xff\xfe")
    data = pa.py_buffer(b"a longer value")
    decimals = b"".join(v.to_bytes(16, "little", signed=True) for v in (12345, 10**30, -99999, -(10**35)))
    cols = {
        "dict_key": pa.DictionaryArray.from_arrays(keys, pa.array(["x", "y"])),
        "string_view": pa.Array.from_buffers(pa.string_view(), 4, [valid, pa.py_buffer(views), data]),
        "binary_view": pa.Array.from_buffers(pa.binary_view(), 4, [valid, pa.py_buffer(views), data]),
        "decimal": pa.Array.from_buffers(pa.decimal128(5, 2), 4, [valid, pa.py_buffer(decimals)]),
    }
    for name, a in cols.items():
        a.validate(full=True)
    table = pa.table(cols)
    return table.schema, batches_of(table, [4])


def utf8_under_nulls(values, offsets, valid):
    n = len(valid)
    cols = {
        "utf8": pa.Array.from_buffers(
            pa.string(), n, [bitmap(valid), pa.py_buffer(struct.pack(f"<{n + 1}i", *offsets)), values]
        ),
        "large_utf8": pa.Array.from_buffers(
            pa.large_string(), n, [bitmap(valid), pa.py_buffer(struct.pack(f"<{n + 1}q", *offsets)), values]
        ),
    }
    for a in cols.values():
        a.validate(full=True)  # valid for pyarrow: it checks non-null strings only
    table = pa.table(cols)
    return table.schema, batches_of(table, [n])


def case_utf8_invalid_under_nulls():
    """String null slots holding bytes that are not UTF-8."""
    return utf8_under_nulls(pa.py_buffer(b"ok\xff\xfe-yes"), [0, 2, 4, 5, 8], [1, 0, 1, 1])


def case_utf8_split_under_nulls():
    """A character split between two null string slots."""
    return utf8_under_nulls(pa.py_buffer(b"ok\xc3\xa9yes"), [0, 2, 3, 4, 7], [1, 0, 0, 1])


def dict_batch(schema, indices, words, list_indices, list_words, list_offsets):
    d = pa.DictionaryArray.from_arrays(pa.array(indices, pa.int16()), pa.array(words))
    inner = pa.DictionaryArray.from_arrays(pa.array(list_indices, pa.int32()), pa.array(list_words))
    lst = pa.ListArray.from_arrays(pa.array(list_offsets, pa.int32()), inner)
    return pa.record_batch([d, lst], schema=schema)


DICT_SCHEMA = pa.schema(
    [
        ("d", pa.dictionary(pa.int16(), pa.string())),
        ("ld", pa.list_(pa.dictionary(pa.int32(), pa.string()))),
    ]
)


def case_dict_deltas():
    s = DICT_SCHEMA
    return s, [
        dict_batch(s, [0, 1, None, 1], ["a", "b"], [0, 0], ["p"], [0, 1, 1, 2, 2]),
        dict_batch(s, [2, 0, 2], ["a", "b", "c"], [1, 0, None], ["p", "q"], [0, 3, None, 3]),
        dict_batch(s, [4, 3, None, 0, 1], ["a", "b", "c", "d", None],
                   [2, 3, 1], ["p", "q", "r", "s"], [0, 1, 2, 2, 3, 3]),
        dict_batch(s, [3], ["a", "b", "c", "d", None], [3], ["p", "q", "r", "s"], [0, 1]),
    ]


def case_dict_replacements():
    s = DICT_SCHEMA
    return s, [
        dict_batch(s, [0, 1, None], ["x", "y"], [0, 1], ["m", "n"], [0, 2, 2, 2]),
        dict_batch(s, [0, 0], ["p"], [0], ["o"], [0, 0, 1]),
        dict_batch(s, [2, 1, 0, 2], ["q", "r", "s"], [1, 0, 2], ["k", "l", "m"], [0, 1, 3, 3, 3]),
        dict_batch(s, [0], ["x", "y"], [0], ["m", "n"], [0, 1]),
    ]


@functools.cache
def case_mixed():
    n = 5000
    table = pa.table(
        {
            "i32": pa.array([None if i % 17 == 0 else i * 3 - 7000 for i in range(n)], pa.int32()),
            "f64": pa.array([None if i % 13 == 0 else i / 7 for i in range(n)], pa.float64()),
            "text": pa.array([None if i % 11 == 0 else f"row {i % 50}" for i in range(n)]),
            "noise": pa.array([((i * 2654435761) % 2**32).to_bytes(4, "little") * 3 for i in range(n)]),
            "flag": pa.array([None if i % 19 == 0 else i % 3 == 0 for i in range(n)]),
            "li": pa.array([None if i % 23 == 0 else list(range(i % 5)) for i in range(n)],
                           pa.list_(pa.int64())),
            "st": pa.array([None if i % 29 == 0 else {"a": i % 7, "b": str(i)} for i in range(n)],
                           pa.struct([("a", pa.int16()), ("b", pa.string())])),
            "day": pa.array([i - 2500 for i in range(n)], pa.int32()).cast(pa.date32()),
            "ts": pa.array([i * 1_000_003 for i in range(n)], pa.timestamp("us", "UTC")),
            "empty_bits": pa.array([None] * n, pa.null()),
        }
    )
    return table.schema, batches_of(table, [2000, 1, 2999])


def repeated_views(n):
    """A string_view array of `n` slots cycling through 64 values, inline and not, whose views
    point into two small data buffers (built from raw buffers: pyarrow has no `take` for
    views, and a cast would reference one data buffer as long as the whole array)."""
    data = [bytearray(), bytearray()]
    block = bytearray()
    for k in range(64):
        v = (f"view value number {k}" if k % 3 else str(k)).encode()
        if len(v) <= 12:
            block += len(v).to_bytes(4, "little") + v.ljust(12, b"\0")
        else:
            b = k % 2
            block += len(v).to_bytes(4, "little") + v[:4] + b.to_bytes(4, "little")
            block += len(data[b]).to_bytes(4, "little")
            data[b] += v
    assert n % 64 == 0
    buffers = [None, pa.py_buffer(bytes(block) * (n // 64))] + [pa.py_buffer(bytes(d)) for d in data]
    views = pa.Array.from_buffers(pa.string_view(), n, buffers)
    views.validate(full=True)
    return views


@functools.cache
def case_big_slices():
    n = 1_000_000  # a multiple of 64 (see repeated_views)
    ints = pa.array(range(n), pa.int64())
    text = pc.cast(ints, pa.string())
    valid = pc.not_equal(pc.bit_wise_and(ints, pa.scalar(7, pa.int64())), pa.scalar(3, pa.int64()))
    with_nulls = pc.if_else(valid, ints, pa.scalar(None, pa.int64()))
    flags = pc.equal(pc.bit_wise_and(ints, pa.scalar(1, pa.int64())), pa.scalar(0, pa.int64()))
    offsets = pc.multiply(pa.array(range(n + 1), pa.int32()), pa.scalar(2, pa.int32()))
    lists = pa.ListArray.from_arrays(offsets, pc.cast(pa.array(range(2 * n), pa.int64()), pa.int32()))
    structs = pa.StructArray.from_arrays(
        [pc.cast(pc.bit_wise_and(ints, pa.scalar(0x7FFF, pa.int64())), pa.int16()), text],
        names=["a", "b"],
        mask=pc.invert(valid),
    )
    views = repeated_views(n)
    dictionary = pc.dictionary_encode(pc.cast(pc.bit_wise_and(ints, pa.scalar(15, pa.int64())), pa.string()))
    table = pa.table(
        {"int": with_nulls, "text": text, "flag": flags, "list": lists, "struct": structs,
         "view": views, "dict": dictionary}
    )
    rb = table.combine_chunks().to_batches()[0]
    assert rb.num_rows == n
    assert len(rb.column("view").buffers()) > 2, "expected views into data buffers"
    slices = [(0, 1000), (500_001, 999), (123_457, 3), (n - 1001, 1001), (777_777, 0)]
    return table.schema, [rb.slice(o, k) for o, k in slices]


def case_misc_types():
    n = 9
    ts_values = [None if i == 3 else 1_700_000_000_000 + i * 3_600_123 for i in range(n)]
    cols = {
        "map": pa.array(
            [
                [("a", 1), ("b", None)], None, [], [("k", -5)], [("x", 1), ("y", 2), ("z", 3)],
                [("", 0)], None, [("dup", 1), ("dup", 2)], [],
            ],
            pa.map_(pa.string(), pa.int32()),
        ),
        "fsl": pa.array(
            [[1, 2, 3], None, [None, 5, 6], [7, None, 9], [0, 0, 0], None, [1, 1, 1],
             [-1, -2, -3], [4, 4, None]],
            pa.list_(pa.int16(), 3),
        ),
        "f16": pa.array(
            [1.0, -0.0, float("inf"), float("nan"), None, 65504.0, -2.0**-24, 0.5, float("-inf")],
            pa.float16(),
        ),
        "f32": pa.array(
            [1.5, None, float("nan"), -0.0, 3.4028234663852886e38, 1e-45, 0.1, -7.25, 2.0],
            pa.float32(),
        ),
        "f64": pa.array(
            [0.1, 5e-324, None, float("-inf"), -0.0, 1.7976931348623157e308, float("nan"), 1/3, 2.0],
            pa.float64(),
        ),
        "ts_utc": pa.array(ts_values, pa.timestamp("ms", "UTC")),
        "ts_ny": pa.array(ts_values, pa.timestamp("us", "America/New_York")),
        "ts_offset": pa.array(ts_values, pa.timestamp("ns", "+05:30")),
        "ts_naive": pa.array(ts_values, pa.timestamp("s")),
        "t32s": pa.array([None if i == 0 else i * 3000 for i in range(n)], pa.time32("s")),
        "t32ms": pa.array([i * 8_000_000 for i in range(n)], pa.time32("ms")),
        "t64us": pa.array([i * 9_000_000_000 for i in range(n)], pa.time64("us")),
        "t64ns": pa.array([None if i == 8 else i * 9_000_000_000_000 for i in range(n)], pa.time64("ns")),
        "dur_s": pa.array([i - 4 for i in range(n)], pa.duration("s")),
        "dur_ms": pa.array([None if i == 2 else -(i**9) for i in range(n)], pa.duration("ms")),
        "dur_us": pa.array([i**10 for i in range(n)], pa.duration("us")),
        "dur_ns": pa.array([-(2**62) + i for i in range(n)], pa.duration("ns")),
        "mdn": pa.array(
            [None if i == 5 else pa.MonthDayNano([i - 3, -i * 40, (i - 4) * 10**15]) for i in range(n)],
            pa.month_day_nano_interval(),
        ),
        "d64": pa.array([None if i == 1 else (i - 4) * 86_400_000 for i in range(n)], pa.int64()).cast(pa.date64()),
        "fsb": pa.array([None if i == 7 else bytes([i] * 5) for i in range(n)], pa.binary(5)),
        "u64": pa.array([2**64 - 1 - i for i in range(n)], pa.uint64()),
        "i8": pa.array([-128 + i * 31 for i in range(n)], pa.int8()),
        "nested": pa.array(
            [
                {"id": 1, "items": [{"k": "a", "v": [1.5, None]}, None, {"k": None, "v": []}]},
                None,
                {"id": None, "items": None},
                {"id": 4, "items": []},
                {"id": 5, "items": [{"k": "only", "v": None}]},
                {"id": 6, "items": [None]},
                {"id": 7, "items": [{"k": "x", "v": [0.25]}, {"k": "y", "v": [1.0, 2.0, 3.0]}]},
                None,
                {"id": 9, "items": [{"k": "z", "v": [-1.0]}]},
            ],
            pa.struct([
                ("id", pa.int32()),
                ("items", pa.list_(pa.struct([("k", pa.string()), ("v", pa.list_(pa.float64()))]))),
            ]),
        ),
    }
    table = pa.table(cols)
    return table.schema, batches_of(table, [3, 3, 3])


class RationalType(pa.ExtensionType):
    """A custom extension type: a struct of numerator and denominator."""

    def __init__(self):
        super().__init__(
            pa.struct([("num", pa.int32()), ("den", pa.int32())]), "quiver.test.rational"
        )

    def __arrow_ext_serialize__(self):
        return b"v1;reduced=false"

    @classmethod
    def __arrow_ext_deserialize__(cls, storage_type, serialized):
        return RationalType()


def case_extension():
    n = 6
    pa.register_extension_type(RationalType())
    try:
        uuid_storage = pa.array(
            [None if i == 2 else bytes((i * 37 + j) % 256 for j in range(16)) for i in range(n)],
            pa.binary(16),
        )
        uuids = pa.ExtensionArray.from_storage(pa.uuid(), uuid_storage)
        rational_storage = pa.array(
            [{"num": i, "den": i + 1} if i != 4 else None for i in range(n)],
            pa.struct([("num", pa.int32()), ("den", pa.int32())]),
        )
        rationals = pa.ExtensionArray.from_storage(RationalType(), rational_storage)
        list_of_uuid = pa.ListArray.from_arrays(
            pa.array([0, 1, 1, 3, 4, 4, 6], pa.int32()), uuids
        )
        schema = pa.schema(
            [
                pa.field("uuid", pa.uuid()),
                pa.field("rational", RationalType(), metadata={"note": "field metadata kept"}),
                pa.field("uuids", list_of_uuid.type),
                pa.field("plain", pa.int32(), nullable=False, metadata={"a": "1", "b": "two"}),
            ],
            metadata={"schema level": "value", "quiver": "pyarrow_written"},
        )
        table = pa.Table.from_arrays(
            [uuids, rationals, list_of_uuid, pa.array(range(n), pa.int32())], schema=schema
        )
        return schema, batches_of(table, [2, 4])
    finally:
        pa.unregister_extension_type("quiver.test.rational")


# (name, builder, stream options, whether a file is written too)
CASES = [
    ("views", case_views, {}, True),
    ("list_views", case_list_views, {}, True),
    ("run_end_encoded", case_run_end_encoded, {}, True),
    ("decimals", case_decimals, {}, True),
    ("large_types", case_large_types, {}, True),
    ("unions", case_unions, {}, True),
    ("dictionaries", case_dictionaries, {}, True),
    ("nested_dictionaries", case_nested_dictionaries, {}, True),
    ("nested_dictionaries_zstd", case_nested_dictionaries, {"compression": "zstd"}, False),
    ("empty_stream", case_empty_stream, {}, True),
    ("no_columns", case_no_columns, {}, True),
    ("garbage_under_nulls", case_garbage_under_nulls, {}, True),
    ("utf8_invalid_under_nulls", case_utf8_invalid_under_nulls, {}, True),
    ("utf8_split_under_nulls", case_utf8_split_under_nulls, {}, True),
    ("dict_deltas", case_dict_deltas, {"emit_dictionary_deltas": True}, True),
    # The file format cannot replace a dictionary: stream only.
    ("dict_replacements", case_dict_replacements, {}, False),
    ("mixed", case_mixed, {}, True),
    ("mixed_lz4", case_mixed, {"compression": "lz4"}, True),
    ("mixed_zstd", case_mixed, {"compression": "zstd"}, True),
    ("views_zstd", case_views, {"compression": "zstd"}, True),
    ("unions_lz4", case_unions, {"compression": "lz4"}, True),
    ("dict_deltas_lz4", case_dict_deltas, {"emit_dictionary_deltas": True, "compression": "lz4"}, True),
    # Metadata version V4 (unions keep a validity buffer slot) and the pre-0.15 stream framing
    # without the continuation marker.
    ("unions_v4", case_unions, {"metadata_version": ipc.MetadataVersion.V4}, True),
    ("misc_types_v4", case_misc_types, {"metadata_version": ipc.MetadataVersion.V4}, True),
    ("misc_types_legacy", case_misc_types, {"use_legacy_format": True}, True),
    ("big_slices", case_big_slices, {}, True),
    ("big_slices_lz4", case_big_slices, {"compression": "lz4"}, False),
    ("misc_types", case_misc_types, {}, True),
    ("extension", case_extension, {}, True),
]


def write(path, schema, batches, options, kind):
    opts = pa.ipc.IpcWriteOptions(**options)
    open_ = ipc.new_file if kind == "file" else ipc.new_stream
    with open_(path, schema, options=opts) as w:
        for b in batches:
            w.write_batch(b)


def read_back(path, kind):
    if kind == "file":
        r = ipc.open_file(path)
        return [r.get_batch(i) for i in range(r.num_record_batches)], r.stats
    r = ipc.open_stream(path)
    batches = list(r)
    return batches, r.stats


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    manifest = {"pyarrow": pa.__version__, "cases": []}
    for name, build, options, with_file in CASES:
        schema, batches = build()
        if name == "extension":
            pa.register_extension_type(RationalType())
        try:
            entry = {
                "name": name,
                "options": {k: str(v) for k, v in options.items()},
                "schema": [canon_field(f) for f in schema],
                "schema_metadata": {
                    k.decode(): v.decode() for k, v in (schema.metadata or {}).items()
                },
                "batches": [
                    {"rows": b.num_rows, "columns": [canon(c) for c in b.columns]}
                    for b in batches
                ],
                "file": None,
                "stream": None,
            }
            for kind, ext, wanted in (("file", "arrow_file", with_file), ("stream", "stream", True)):
                if not wanted:
                    continue
                path = os.path.join(out, f"{name}.{ext}")
                write(path, schema, batches, options, kind)
                back, stats = read_back(path, kind)
                assert len(back) == len(batches), (name, kind)
                for i, (a, b) in enumerate(zip(back, batches)):
                    # Values, not physical equality: a file's dictionaries are its last deltas.
                    same = a.schema.equals(b.schema) and all(
                        canon(x) == canon(y) for x, y in zip(a.columns, b.columns)
                    )
                    assert same, f"{name} {kind}: pyarrow reads batch {i} back differently"
                if kind == "stream" and name.startswith("dict_deltas"):
                    assert stats.num_dictionary_deltas >= 4, stats
                if kind == "stream" and name == "dict_replacements":
                    assert stats.num_replaced_dictionaries >= 4, stats
                entry[kind] = os.path.basename(path)
        finally:
            if name == "extension":
                pa.unregister_extension_type("quiver.test.rational")
        manifest["cases"].append(entry)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, ensure_ascii=False)
    print(f"pyarrow {pa.__version__}: wrote {len(manifest['cases'])} cases to {out}")


if __name__ == "__main__":
    main()
