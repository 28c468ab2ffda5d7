"""Reads a CSV with pyarrow.csv.read_csv, giving it the column types of the Arrow IPC file
quiver wrote from the same CSV, and checks that the two tables hold equal values."""
import sys

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.ipc as ipc

csv_path, ours_path = sys.argv[1], sys.argv[2]
ours = ipc.open_file(ours_path).read_all()
types = {f.name: f.type for f in ours.schema}
theirs = pacsv.read_csv(
    csv_path,
    convert_options=pacsv.ConvertOptions(
        column_types=types,
        strings_can_be_null=True,
        true_values=["true", "TRUE", "True"],
        false_values=["false", "FALSE", "False"],
    ),
    parse_options=pacsv.ParseOptions(newlines_in_values=True),
)
theirs = theirs.cast(ours.schema)
if not theirs.equals(ours):
    for name in ours.column_names:
        a, b = ours.column(name), theirs.column(name)
        if not a.equals(b):
            print(f"column {name}:\n  quiver:  {a.to_pylist()[:8]}\n  pyarrow: {b.to_pylist()[:8]}")
    sys.exit(1)
print(f"{ours.num_rows} rows agree")
