#!/usr/bin/env bash
# Builds the benchmark inputs of BENCHMARKS.md from the datasets in DIR (default ../shared/data) into
# target/bench-data (never committed). Puzzle lines only: comments and blank lines are dropped.
#
#   mix-1m.txt        1,000,000 puzzles: the solvable sets (dense 100k, 17-clue, top1465, forum hardest 11+,
#                     hardest 1106) repeated in turn, cut at 1e6; mix-1m.a.txt / mix-1m.b.txt are its two halves
#   dense-1m.txt      1,000,000 easy puzzles: puzzles0_dense_100k ten times (parse and I/O weigh most)
#   dense-100k.txt    puzzles0_dense_100k without its comments
#   dense-10m.txt     10,000,000 easy puzzles (820 MB), for the memory check; only with --big
set -euo pipefail
cd "$(dirname "$0")/.."
dir=../shared/data
big=no
for a in "$@"; do
  case "$a" in
    --big) big=yes ;;
    *) dir=$a ;;
  esac
done
out=target/bench-data
mkdir -p "$out"
puzzles() { grep -hv -e '^#' -e '^[[:space:]]*$' "$@" | tr -d '\r'; }

puzzles "$dir/puzzles0_dense_100k" > "$out/dense-100k.txt"
for _ in 1 2 3 4 5 6 7 8 9 10; do cat "$out/dense-100k.txt"; done > "$out/dense-1m.txt"

puzzles "$dir/puzzles0_dense_100k" "$dir/puzzles2_17_clue" "$dir/puzzles3_magictour_top1465" \
  "$dir/puzzles5_forum_hardest_1905_11+" "$dir/puzzles6_forum_hardest_1106" > "$out/mix-one.txt"
n=$(wc -l < "$out/mix-one.txt")
reps=$(( (1000000 + n - 1) / n ))
# head stops reading early; the writer's broken pipe is expected.
set +o pipefail
for _ in $(seq "$reps"); do cat "$out/mix-one.txt"; done 2>/dev/null | head -n 1000000 > "$out/mix-1m.txt"
set -o pipefail
rm "$out/mix-one.txt"
head -n 500000 "$out/mix-1m.txt" > "$out/mix-1m.a.txt"
tail -n +500001 "$out/mix-1m.txt" > "$out/mix-1m.b.txt"

if [ "$big" = yes ]; then
  for _ in $(seq 10); do cat "$out/dense-1m.txt"; done > "$out/dense-10m.txt"
fi
wc -l "$out"/*.txt
