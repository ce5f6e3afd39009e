#!/usr/bin/env bash
# Whole-tool benchmarks of `sudoku solve` for BENCHMARKS.md: wall time at -j1 / -j2 against this machine's own
# ceiling (two -j1 processes on the two halves of the file, side by side), against the solver-only `sudoku bench`,
# and peak RSS from 1e5 to 1e7 puzzles. Inputs come from scripts/bench-data.sh (built when missing).
#
# usage: scripts/bench-pipeline.sh [RUNS]      (median of RUNS runs per figure, default 3)
# Public tools only: /usr/bin/time (GNU time) for wall seconds and peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
cargo build --release --quiet
bin=target/release/sudoku
data=target/bench-data
[ -f "$data/mix-1m.a.txt" ] || bash scripts/bench-data.sh > /dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%F)"

# median of the numbers on stdin
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# wall seconds of one run of the command given
wall() {
  /usr/bin/time -f %e -o "$tmp/t" "$@" > /dev/null 2>&1 || true
  tail -1 "$tmp/t"
}

halves() {
  "$bin" solve -q -j1 "$1" > /dev/null &
  "$bin" solve -q -j1 "$2" > /dev/null &
  wait
}

echo
echo "| input | -j1 s | -j2 s | two -j1 on halves, side by side s | speedup -j2 | ceiling (-j1 / halves) | -j2 as % of ceiling |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for name in mix-1m dense-1m; do
  f=$data/$name.txt
  [ -f "$data/$name.a.txt" ] || {
    n=$(wc -l < "$f"); head -n $((n / 2)) "$f" > "$data/$name.a.txt"; tail -n +$((n / 2 + 1)) "$f" > "$data/$name.b.txt"
  }
  : > "$tmp/j1"; : > "$tmp/j2"; : > "$tmp/h"
  for _ in $(seq "$runs"); do
    # interleaved, so that drift in the machine's speed touches all three alike
    wall "$bin" solve -q -j1 "$f" >> "$tmp/j1"
    wall "$bin" solve -q -j2 "$f" >> "$tmp/j2"
    s=$(date +%s.%N); halves "$data/$name.a.txt" "$data/$name.b.txt"; e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f\n", e - s}' >> "$tmp/h"
  done
  j1=$(median < "$tmp/j1"); j2=$(median < "$tmp/j2"); h=$(median < "$tmp/h")
  awk -v n="$name" -v a="$j1" -v b="$j2" -v h="$h" \
    'BEGIN {printf "| %s | %.2f | %.2f | %.2f | %.2fx | %.2fx | %.0f%% |\n", n, a, b, h, a/b, a/h, 100*(a/b)/(a/h)}'
done

if "$bin" bench --help > /dev/null 2>&1; then
  echo
  echo "| input | solve -j1 wall s | bench (solver only, 1 thread) s | wall / bench |"
  echo "|---|---:|---:|---:|"
  for name in mix-1m dense-1m; do
    f=$data/$name.txt
    n=$(wc -l < "$f")
    : > "$tmp/j1"
    for _ in $(seq "$runs"); do wall "$bin" solve -q -j1 "$f" >> "$tmp/j1"; done
    j1=$(median < "$tmp/j1")
    # `sudoku bench` prints a row per file: name, puzzles, bad, puzzles/s, ...; solver-only time = N / rate.
    rate=$("$bin" bench --seconds 3 "$f" | awk -v n="$name" 'index($1, n) == 1 {print $4; exit}')
    awk -v n="$name" -v a="$j1" -v c="$n" -v r="$rate" \
      'BEGIN {printf "| %s | %.2f | %.2f | %.3f |\n", n, a, c/r, a/(c/r)}'
  done
fi

echo
echo "| input | puzzles | peak RSS, mapped (kB) | peak RSS, --no-mmap (kB) |"
echo "|---|---:|---:|---:|"
for name in dense-100k dense-1m dense-10m; do
  f=$data/$name.txt
  [ -f "$f" ] || { echo "| $name | (build with scripts/bench-data.sh --big) | | |"; continue; }
  /usr/bin/time -f %M -o "$tmp/m" "$bin" solve -q -j2 "$f" > /dev/null
  /usr/bin/time -f %M -o "$tmp/r" "$bin" solve -q -j2 --no-mmap "$f" > /dev/null
  echo "| $name | $(wc -l < "$f") | $(tail -1 "$tmp/m") | $(tail -1 "$tmp/r") |"
done
