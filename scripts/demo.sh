#!/usr/bin/env bash
# The main job, from a fresh clone: build the quiver CLI, generate a TPC-H lineitem-like data
# set, convert it to a ZSTD-compressed Arrow IPC file, and look inside it.
#
#   ./scripts/demo.sh [ROWS]        (default 1,000,000 rows; files go to target/demo/)
set -euo pipefail
cd "$(dirname "$0")/.."
rows="${1:-1000000}"
cargo build --release --locked -p quiver-cli
q=target/release/quiver
out=target/demo
mkdir -p "$out"
run() {
    printf '\n$ quiver %s\n' "$*"
    "$q" "$@"
}
run generate lineitem --rows "$rows" -o "$out/lineitem.arrows"
run convert "$out/lineitem.arrows" "$out/lineitem.arrow" --compression zstd
ls -l "$out/lineitem.arrows" "$out/lineitem.arrow"
run schema "$out/lineitem.arrow"
run head "$out/lineitem.arrow" -n 5 --width 100
run meta "$out/lineitem.arrow" | head -n 12
run scan "$out/lineitem.arrow"
run validate "$out/lineitem.arrow"
run convert "$out/lineitem.arrow" "$out/lineitem.csv" --columns l_orderkey,l_quantity,l_shipdate,l_comment
run head "$out/lineitem.csv" -n 3
