#!/usr/bin/env bash
# Fetches the official Arrow and Parquet test files at the commits the tests were written
# against, into $QUIVER_TEST_DATA (default: ../shared/testdata beside the repository):
#
#   $QUIVER_TEST_DATA/arrow-testing     https://github.com/apache/arrow-testing
#   $QUIVER_TEST_DATA/parquet-testing   https://github.com/apache/parquet-testing
#
# Needs git and network access. Re-running moves existing clones to the pinned commits.
# ARROW_TESTING_URL / PARQUET_TESTING_URL override where the repositories are cloned from
# (a mirror or a local copy).
set -euo pipefail
cd "$(dirname "$0")/.."

ARROW_TESTING_COMMIT=9cfebfef8982fb8612e0a2c59059752bd32321a3
PARQUET_TESTING_COMMIT=1a2a75127be06fc0123f03ebd36c966f7beda27d

dest="${QUIVER_TEST_DATA:-$(cd .. && pwd)/shared/testdata}"

fetch() {
  local name=$1 url=$2 commit=$3
  local dir="$dest/$name"
  if [ -d "$dir/.git" ]; then
    git -C "$dir" fetch --quiet origin
  elif [ -e "$dir" ]; then
    echo "error: $dir exists but is not a git clone; move it away or set QUIVER_TEST_DATA" >&2
    exit 1
  else
    git clone --quiet --no-checkout "$url" "$dir"
  fi
  git -C "$dir" -c advice.detachedHead=false checkout --quiet --detach "$commit"
  echo "$name: $commit in $dir"
}

mkdir -p "$dest"
fetch arrow-testing "${ARROW_TESTING_URL:-https://github.com/apache/arrow-testing.git}" "$ARROW_TESTING_COMMIT"
fetch parquet-testing "${PARQUET_TESTING_URL:-https://github.com/apache/parquet-testing.git}" "$PARQUET_TESTING_COMMIT"
echo "export QUIVER_TEST_DATA=$dest"
