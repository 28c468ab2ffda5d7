#!/usr/bin/env bash
# The one test command: formatting, lints, and every test of the workspace.
# Installs what the tests need, then runs them. Used by .ci/run and by developers alike.
set -euo pipefail
cd "$(dirname "$0")/.."

# Official test files (arrow-testing, parquet-testing) live outside the repo and are read in place
# (scripts/fetch-testdata.sh clones them at the pinned commits; see README.md).
export QUIVER_TEST_DATA="${QUIVER_TEST_DATA:-$(cd .. && pwd)/shared/testdata}"
if [ ! -d "$QUIVER_TEST_DATA" ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "error: test data folder $QUIVER_TEST_DATA is missing (required when CI=true);" \
      "./scripts/fetch-testdata.sh fetches it" >&2
    exit 1
  fi
  echo "warning: test data folder $QUIVER_TEST_DATA is missing; tests that need it will skip" \
    "(./scripts/fetch-testdata.sh fetches it)" >&2
fi

# Python packages used by interoperability tests (pyarrow, DuckDB and polars read what quiver
# writes; with fastparquet and Spark they write the files the Parquet reader is compared on),
# installed from PyPI into the current Python when missing; numpy is named too, as the tests'
# scripts import it themselves.
for pkg in pyarrow numpy duckdb polars fastparquet pyspark; do
  if ! python3 -c "import $pkg" >/dev/null 2>&1; then
    case $pkg in
      pyarrow) spec="pyarrow>=20" ;;
      *) spec=$pkg ;;
    esac
    python3 -m pip install --quiet --disable-pip-version-check "$spec"
  fi
done

# Spark (pyspark) runs on Debian's Java runtime.
if ! command -v java >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless) >/dev/null || true
  fi
fi

# python-lzo (PyPI, built against Debian's liblzo2-dev) makes the LZO streams the Parquet LZO
# codec is tested against: no other Parquet implementation reads LZO to compare with.
if ! python3 -c "import lzo" >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ ! -e /usr/include/lzo/lzo1x.h ]; then
    (apt-get update -qq && apt-get install -y -qq liblzo2-dev) >/dev/null || true
  fi
  python3 -m pip install --quiet --disable-pip-version-check python-lzo
fi

# `script` (util-linux's bsdutils) runs the CLI in a pseudo-terminal for the terminal-width test.
if ! command -v script >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && apt-get install -y -qq bsdutils) >/dev/null || true
  fi
fi

# Toolchain components the checks use.
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
  rustup component add rustfmt clippy
fi

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy --all-targets -- -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "== module cycles (scripts/module_cycles.py)"
python3 scripts/module_cycles.py

echo "== cargo test"
cargo test --workspace --locked

echo "== cargo check (bench/)"
cargo check --locked --manifest-path bench/Cargo.toml --all-targets
