"""Writes, into the folder argv[1], Parquet files past the 16-bit counts some readers keep: more
than 32,767 row groups (one row each), and a column chunk of more than 32,767 data pages (one
value per page: a page is cut after every write batch of one value)."""
import sys

import pyarrow as pa
import pyarrow.parquet as pq

out = sys.argv[1]
n = 33_000
table = pa.table({"a": pa.array(range(n), pa.int32()),
                  "s": pa.array([None if i % 5 == 0 else str(i % 7) for i in range(n)])})
pq.write_table(table.select(["a"]), f"{out}/row-groups.parquet", row_group_size=1)
pq.write_table(table, f"{out}/pages.parquet", data_page_size=1, write_batch_size=1,
               use_dictionary=["s"], compression="none")
