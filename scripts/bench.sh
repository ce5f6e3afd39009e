#!/usr/bin/env bash
# One command that times the real tool on every dataset next to its peers, keeps the raw results and draws charts.
#
#   scripts/bench.sh [--reps N] [--seconds S] [--datasets PATTERN] [--data-dir DIR] [--quick] [--no-peer]
#                    [--no-generate] [--all] [--out DIR | --update]
#
# Needs: cargo and python3 (standard library only). Optional: ../shared/data (the large datasets) and
# ../shared/peers/rust-sudoku-peer (the `sudoku` crate, timed side by side); the script says what it skips and why.
# Results: raw.csv, summary.md and *.svg in a scratch directory (--out DIR, or a new one under $TMPDIR; the
# checkout is left as it was). --update keeps them in benches/results/<date>-<host>/ and rewrites the tables in
# BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v python3 >/dev/null; then
  echo "bench.sh: python3 is needed to drive the runs and draw the charts" >&2
  exit 2
fi
exec python3 scripts/bench.py "$@"
