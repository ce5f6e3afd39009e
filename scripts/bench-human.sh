#!/usr/bin/env bash
# Human-style solving benchmarks with the release binary: `rate` throughput and level distribution per dataset,
# and puzzle generation rate per difficulty level. Wall time and peak memory come from /usr/bin/time -v; the
# counts and the histogram come from the tool's own summary on stderr.
# Usage: scripts/bench-human.sh [DATA_DIR] [THREADS]   (defaults: ../shared/data, all cores)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/data}
jobs=${2:-0}
jflag=()
if [ "$jobs" != 0 ]; then jflag=(-j "$jobs"); fi
cargo build --release --quiet
bin=target/release/sudoku
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "# $(date -u +%Y-%m-%d) $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "## rate"
for f in "$dir"/puzzles2_17_clue "$dir"/puzzles6_forum_hardest_1106 "$dir"/puzzles5_forum_hardest_1905_11+; do
  [ -f "$f" ] || { echo "skipped: $f not found"; continue; }
  /usr/bin/time -v "$bin" rate "${jflag[@]}" "$f" 2> "$log" > /dev/null
  echo "### $(basename "$f")"
  grep -E '^sudoku: [0-9]+ records' "$log"
  grep -E 'Elapsed \(wall|Maximum resident' "$log" | sed 's/^\s*//'
  sed -n '/^level /,/^mean score/p' "$log"
done
echo "## generate --puzzles (minimal, no symmetry, seed 1)"
for spec in "none 2000" "simple 100" "easy 1000" "intermediate 1000" "expert 1000"; do
  set -- $spec
  level=$1 n=$2
  args=(generate --puzzles "$n" --format line --seed 1 "${jflag[@]}")
  [ "$level" != none ] && args+=(--difficulty "$level")
  /usr/bin/time -v "$bin" "${args[@]}" 2> "$log" > /dev/null
  echo "difficulty $level: $(grep -E '^sudoku: generated' "$log")"
done
