#!/usr/bin/env bash
# Seeds the fuzz corpora from the official arrow-testing IPC files (copied at run time; the
# corpora are not committed: /fuzz/corpus is in .gitignore).
#
#   ./fuzz/seed.sh              # test data in ../shared/testdata (beside the repository)
#   QUIVER_TEST_DATA=/path ./fuzz/seed.sh
#
# ipc_stream gets every integration *.stream file and the clusterfuzz-*/crash-* regression
# files; ipc_file gets every integration *.arrow_file and the regression files too (mutations
# of a stream are a cheap source of malformed files). Names are prefixed with the version
# folder, since the same file name exists for several versions.
set -euo pipefail

fuzz_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_dir="$(dirname "$fuzz_dir")"
data_dir="${QUIVER_TEST_DATA:-$repo_dir/../shared/testdata}"
src="$data_dir/arrow-testing/data/arrow-ipc-stream"
if [[ ! -d "$src" ]]; then
    echo "seed.sh: $src not found (set QUIVER_TEST_DATA to the test data folder)" >&2
    exit 1
fi

stream_corpus="$fuzz_dir/corpus/ipc_stream"
file_corpus="$fuzz_dir/corpus/ipc_file"
mkdir -p "$stream_corpus" "$file_corpus"

streams=0 files=0 regressions=0
for f in "$src"/integration/*/*.stream; do
    [[ -f "$f" ]] || continue
    install -m 644 "$f" "$stream_corpus/$(basename "$(dirname "$f")")-$(basename "$f")"
    streams=$((streams + 1))
done
for f in "$src"/integration/*/*.arrow_file; do
    [[ -f "$f" ]] || continue
    install -m 644 "$f" "$file_corpus/$(basename "$(dirname "$f")")-$(basename "$f")"
    files=$((files + 1))
done
for f in "$src"/clusterfuzz-* "$src"/crash-*; do
    [[ -f "$f" ]] || continue
    install -m 644 "$f" "$stream_corpus/"
    install -m 644 "$f" "$file_corpus/"
    regressions=$((regressions + 1))
done

echo "seeded $streams streams and $files files, plus $regressions regression inputs each:"
echo "  $stream_corpus ($(ls "$stream_corpus" | wc -l) inputs)"
echo "  $file_corpus ($(ls "$file_corpus" | wc -l) inputs)"

# parquet_metadata gets the footer metadata (the Thrift FileMetaData bytes) of every Parquet
# file in parquet-testing and arrow-testing/data/parquet.
pq_corpus="$fuzz_dir/corpus/parquet_metadata"
mkdir -p "$pq_corpus"
python3 - "$data_dir" "$pq_corpus" <<'PY'
import pathlib, struct, sys
data, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
n = 0
for d in ["parquet-testing/data", "parquet-testing/bad_data", "arrow-testing/data/parquet"]:
    for f in sorted((data / d).rglob("*")):
        b = f.read_bytes() if f.is_file() else b""
        if len(b) < 12 or b[-4:] != b"PAR1":
            continue
        (length,) = struct.unpack("<I", b[-8:-4])
        if 0 < length <= len(b) - 12:
            (out / f.name).write_bytes(b[-8 - length : -8])
            n += 1
print(f"seeded {n} Parquet footers into {out}")
PY

# parquet_read gets whole files: the small Parquet test files (up to 64 KiB, so each run is
# fast), from parquet-testing and arrow-testing/data/parquet (the fuzz regressions included).
read_corpus="$fuzz_dir/corpus/parquet_read"
mkdir -p "$read_corpus"
n=0
for d in parquet-testing/data parquet-testing/bad_data arrow-testing/data/parquet; do
    while IFS= read -r -d '' f; do
        install -m 644 "$f" "$read_corpus/$(basename "$f")"
        n=$((n + 1))
    done < <(find "$data_dir/$d" -type f -size -64k \( -name '*.parquet' -o -path '*fuzzing*' \) -print0)
done
echo "seeded $n Parquet files into $read_corpus"
# parquet_merge gets the same small files: each is merged with itself.
merge_corpus="$fuzz_dir/corpus/parquet_merge"
mkdir -p "$merge_corpus"
cp "$read_corpus"/* "$merge_corpus"/
echo "seeded $(ls "$merge_corpus" | wc -l) Parquet files into $merge_corpus"
# ipc_merge gets the IPC files of ipc_file: each is merged with itself.
ipc_merge_corpus="$fuzz_dir/corpus/ipc_merge"
mkdir -p "$ipc_merge_corpus"
cp "$file_corpus"/* "$ipc_merge_corpus"/
echo "seeded $(ls "$ipc_merge_corpus" | wc -l) IPC files into $ipc_merge_corpus"
# snappy_decompress gets Snappy streams that the Snappy library (through pyarrow) writes for
# page-like inputs: short and long literals, near and far copies, runs.
snappy_corpus="$fuzz_dir/corpus/snappy_decompress"
mkdir -p "$snappy_corpus"
python3 - "$snappy_corpus" <<'PY'
import os, sys, random
import pyarrow as pa
out = sys.argv[1]
rng = random.Random(7)
inputs = [
    b"",
    b"a",
    b"abcd" * 50,
    bytes(rng.randrange(256) for _ in range(300)),
    b"".join(b"%05d" % rng.randrange(100000) for _ in range(2000)),
    b"carefully final deposits sleep quickly " * 40 + bytes(range(256)),
    bytes(5000) + b"xyz" * 700,
]
for i, data in enumerate(inputs):
    with open(os.path.join(out, f"pyarrow-{i}"), "wb") as f:
        f.write(pa.compress(data, codec="snappy", asbytes=True))
PY
echo "seeded $(ls "$snappy_corpus" | wc -l) Snappy streams into $snappy_corpus"
