#!/usr/bin/env python3
"""Checks merged IPC files with pyarrow (crates/ipc/tests/it/merge.rs).

Usage: merge_check.py MANIFEST

Each line of MANIFEST is a name, the merged file and its inputs, separated by tabs. For each
it prints one JSON line:
  {"name", "ok", "error", "batches", "rows", "dictionary_deltas"}
`ok` is true when pyarrow reads the merged file, validates it in full, and it equals
`pa.concat_tables` of the inputs: the same schema (metadata included: concat_tables keeps the
first input's) and the same values row by row (dictionaries decoded); and the merged file
has as many record batches as the inputs together.
"""

import json
import sys

import pyarrow as pa
import pyarrow.ipc as ipc


def check(merged_path, input_paths):
    readers = [ipc.open_file(p) for p in input_paths]
    expected = pa.concat_tables([r.read_all() for r in readers])
    merged = ipc.open_file(merged_path)
    table = merged.read_all()
    table.validate(full=True)
    out = {
        "batches": merged.num_record_batches,
        "rows": table.num_rows,
        "dictionary_deltas": merged.stats.num_dictionary_deltas,
    }
    want = sum(r.num_record_batches for r in readers)
    if merged.num_record_batches != want:
        return out, f"{merged.num_record_batches} record batches, the inputs have {want}"
    if not table.schema.equals(expected.schema, check_metadata=True):
        return out, f"schema {table.schema} with metadata {table.schema.metadata}, " \
                    f"expected {expected.schema} with {expected.schema.metadata}"
    got, want = table.to_pylist(), expected.to_pylist()
    if got != want:
        first = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b) \
            if len(got) == len(want) else None
        return out, f"values differ (row {first}: {got[first] if first is not None else len(got)} " \
                    f"vs {want[first] if first is not None else len(want)})"
    return out, None


for line in open(sys.argv[1]):
    name, merged, *inputs = line.rstrip("\n").split("\t")
    try:
        out, error = check(merged, inputs)
    except Exception as e:  # noqa: BLE001 - reported to the Rust test
        out, error = {}, f"{type(e).__name__}: {e}"
    out.update({"name": name, "ok": error is None, "error": error})
    print(json.dumps(out))
