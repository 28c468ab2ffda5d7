#!/usr/bin/env bash
# Runs the comparative benchmarks (quiver vs arrow-rs vs pyarrow, and DuckDB and polars for
# Parquet reads) and writes BENCHMARKS.md.
#
#   ./bench/run.sh                                   # full run: lineitem 6M rows, nested 2M, 7 runs
#   ROWS_LINEITEM=300000 ROWS_NESTED=100000 REPS=3 ./bench/run.sh   # quick run
#   OPS='parquet_write_*' SECTION=parquet-write ./bench/run.sh     # the Parquet writes only,
#                                                 # as one section of the existing BENCHMARKS.md
#   OPS='merge_*' SECTION=merge ./bench/run.sh      # the merge of 1,000 small files (issue #15)
#
# Environment: ROWS_LINEITEM, ROWS_NESTED, REPS, OPS (comma-separated operation names, or
# prefixes ending in `*`), IMPLS (default quiver,arrow-rs,pyarrow,duckdb,polars), PYTHON
# (default python3), OUT (default BENCHMARKS.md), SECTION (write the report as the section of
# that name of OUT, replacing only it).
# Data goes to bench/data/ (gitignored) and is reused by later runs with the same row counts.
set -euo pipefail
cd "$(dirname "$0")/.."

# The command line recorded in the report: the script plus the overrides it was given.
COMMAND="./bench/run.sh"
for v in SECTION OUT PYTHON IMPLS OPS REPS ROWS_NESTED ROWS_LINEITEM; do
  if [ -n "${!v:-}" ]; then
    COMMAND="$v=$(printf %q "${!v}") $COMMAND"
  fi
done

ROWS_LINEITEM="${ROWS_LINEITEM:-6000000}"
ROWS_NESTED="${ROWS_NESTED:-2000000}"
# 7 runs: this virtual machine has occasional runs 1.5–3× slower than the rest (host noise,
# for every implementation), and a median of 7 is steadier than one of 5.
REPS="${REPS:-7}"
PYTHON="${PYTHON:-python3}"
OUT="${OUT:-BENCHMARKS.md}"
BATCH=65536
DATA=bench/data
# The footer benchmark's file: 1,000 int32 columns in 20 row groups of 1,000 rows.
ROWS_WIDE=20000

echo "== building quiver, quiver-bench and arrow-rs's parquet-concat (release)"
cargo build --release --locked -p quiver-cli
cargo build --release --locked --manifest-path bench/Cargo.toml
# The `parquet` crate's own tool, built with the workspace's Cargo.lock: quiver-bench's feature
# `parquet-cli` enables the crate's `cli` feature (cargo takes no --features for a package
# outside the workspace), and `--bin` builds only the tool.
cargo build --release --locked --manifest-path bench/Cargo.toml --features parquet-cli -p quiver-bench -p parquet --bin parquet-concat
QUIVER="$PWD/target/release/quiver"
BENCH="$PWD/bench/target/release/quiver-bench"
PARQUET_CONCAT="$PWD/bench/target/release/parquet-concat"

if ! "$PYTHON" -c 'import sys, pyarrow; sys.exit(0 if pyarrow.__version__.startswith("26.") else 1)' 2>/dev/null; then
  echo "== installing pyarrow 26"
  "$PYTHON" -m pip install --quiet --disable-pip-version-check 'pyarrow>=26,<27'
fi
for module in duckdb polars; do
  if ! "$PYTHON" -c "import $module" 2>/dev/null; then
    echo "== installing $module"
    "$PYTHON" -m pip install --quiet --disable-pip-version-check "$module"
  fi
done

echo "== data in $DATA"
mkdir -p "$DATA"
# Files quiver wrote are reused only while quiver's writer and generator are unchanged (the
# pyarrow-written copies depend on the generated data only, which the stamp covers too).
stamp=$(git ls-tree -r HEAD crates/ipc/src/write crates/ipc/src/compression crates/cli/src/generate 2>/dev/null | sha1sum | cut -c1-16)
if [ "$(cat "$DATA/writer.stamp" 2>/dev/null)" != "$stamp" ]; then
  rm -f "$DATA"/*.arrow "$DATA"/*.arrows "$DATA"/*.parquet
  rm -rf "$DATA"/*-small
  echo "$stamp" > "$DATA/writer.stamp"
fi
for spec in "lineitem:$ROWS_LINEITEM" "nested:$ROWS_NESTED"; do
  name="${spec%%:*}"; rows="${spec##*:}"; base="$DATA/$name-$rows"
  if [ ! -s "$base.arrow" ]; then
    "$QUIVER" generate "$name" --rows "$rows" --batch-size "$BATCH" -q -o "$DATA/tmp-$name.arrow"
    mv "$DATA/tmp-$name.arrow" "$base.arrow"
  fi
  for c in lz4 zstd; do
    if [ ! -s "$base.$c.arrow" ]; then
      "$QUIVER" convert "$base.arrow" "$DATA/tmp-$name.arrow" --compression "$c" --batch-size "$BATCH" -q
      mv "$DATA/tmp-$name.arrow" "$base.$c.arrow"
    fi
  done
  if [ ! -s "$base.arrows" ]; then
    "$QUIVER" convert "$base.arrow" "$DATA/tmp-$name.arrows" --batch-size "$BATCH" -q
    mv "$DATA/tmp-$name.arrows" "$base.arrows"
  fi
  "$PYTHON" bench/py/write_inputs.py "$DATA" "$name" "$rows"
done
"$PYTHON" bench/py/write_inputs.py "$DATA" wide "$ROWS_WIDE"
# The merge benchmark's input: lineitem in files of 6,000 rows (ROWS_LINEITEM / 6,000 files).
"$PYTHON" bench/py/write_inputs.py "$DATA" lineitem-small "$ROWS_LINEITEM"

echo "== running (REPS=$REPS)"
"$BENCH" drive \
  --data "$DATA" \
  --dataset "lineitem:$ROWS_LINEITEM" \
  --dataset "nested:$ROWS_NESTED" \
  --dataset "wide:$ROWS_WIDE" \
  --reps "$REPS" \
  --quiver-cli "$QUIVER" \
  --parquet-concat "$PARQUET_CONCAT" \
  --python "$PYTHON" \
  --py-ops bench/py/ops.py \
  --impls "${IMPLS:-quiver,arrow-rs,pyarrow,duckdb,polars}" \
  ${OPS:+--ops "$OPS"} \
  ${SECTION:+--section "$SECTION"} \
  --command "$COMMAND" \
  --out "$OUT"
