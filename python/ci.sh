#!/usr/bin/env bash
# Tests the Python package as a user gets it: a fresh virtualenv, `pip install './python[spark]' pytest pyarrow`
# (maturin builds the extension from source; pyarrow reads the binary's Parquet and Arrow output in
# test_tables.py), the release `sudoku` binary for the byte-for-byte comparisons and the RDD.pipe recipe, then
# pytest over python/tests (the Spark tests skip with a reason when Java is missing).
# Usage: bash python/ci.sh [extra pytest arguments]. SUDOKU_PY_VENV picks the virtualenv's directory;
# SUDOKU_PY_INSTALLED=1 uses it as it is (.ci/run installs into it itself).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
venv=${SUDOKU_PY_VENV:-$root/target/python-ci-venv}
python=${PYTHON:-python3}

if [ "${SUDOKU_PY_INSTALLED:-0}" != 1 ]; then
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  "$venv/bin/python" -m pip install --quiet "$here[spark]" pytest pyarrow
fi
(cd "$root" && cargo build --quiet --release --bin sudoku)

export SUDOKU_BIN="$root/target/release/sudoku"
export PYSPARK_PYTHON="$venv/bin/python"
# From tests/, so that the source tree's sudoku_batch/ (without the built extension) cannot shadow the installed
# package (python -m puts the working directory first on sys.path).
cd "$here/tests"
"$venv/bin/python" -m pytest -q -p no:cacheprovider -W ignore::DeprecationWarning . "$@"
