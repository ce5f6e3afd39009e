#!/usr/bin/env bash
# What each codec costs (the README's "Dumps" tables): `sudoku solve -j2` on the same text plain and compressed by
# each tool installed (gzip -6, zstd -3, xz -1, bzip2 -9), then written to -o out.EXT for each codec; CPU seconds
# (user + system), wall seconds and peak RSS, the median of RUNS runs.
#
# usage: scripts/bench-compressed.sh [DIR] [RUNS]   (DIR: the datasets, default ../shared/data; RUNS default 3)
# The text is the 100k dense and 49k 17-clue sets five times over (61 MB, 745,790 puzzles).
# Public tools only: /usr/bin/time (GNU time).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/data}
runs=${2:-3}
cargo build --release --quiet
bin=$PWD/target/release/sudoku
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%F)"
for _ in 1 2 3 4 5; do cat "$dir/puzzles0_dense_100k" "$dir/puzzles2_17_clue"; done > "$tmp/in.txt"

# median of the numbers on stdin
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# "cpu wall rss" medians of RUNS runs of the command given
measure() {
  for _ in $(seq "$runs"); do
    /usr/bin/time -f '%U %S %e %M' -o "$tmp/t" "$@" > /dev/null 2>&1
    tail -1 "$tmp/t"
  done > "$tmp/runs"
  printf '%s s cpu, %s s wall, %s MiB peak RSS' \
    "$(awk '{print $1 + $2}' "$tmp/runs" | median)" "$(awk '{print $3}' "$tmp/runs" | median)" \
    "$(awk '{printf "%.1f\n", $4 / 1024}' "$tmp/runs" | median)"
}

echo "input: $(wc -c < "$tmp/in.txt") bytes plain: $(measure "$bin" solve -q -j2 "$tmp/in.txt" -o /dev/null)"
for tool in "gzip -6" "zstd -3" "xz -1" "bzip2 -9"; do
  name=${tool% *}
  if ! command -v "$name" > /dev/null; then
    echo "input: $name not installed, skipped"
    continue
  fi
  $tool -c < "$tmp/in.txt" > "$tmp/in.packed"
  echo "input: $(wc -c < "$tmp/in.packed") bytes $tool: $(measure "$bin" solve -q -j2 "$tmp/in.packed" -o /dev/null)"
done
for ext in txt gz zst bz2 xz; do
  echo "output -o out.$ext: $(measure "$bin" solve -q -j2 "$tmp/in.txt" -o "$tmp/out.$ext"), $(wc -c < "$tmp/out.$ext") bytes"
done
