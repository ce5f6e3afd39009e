#!/usr/bin/env bash
# Times the real binary generating solved boards, against dd writing the same number of bytes, in one run:
#   1. 1,000,000 boards (grid format, 163 MB) to a file vs `dd if=/dev/zero of=FILE bs=1M count=163`
#      (and vs the same dd with conv=fsync, since `-o` syncs the file before renaming it into place),
#      runs interleaved, medians reported;
#   2. peak memory (/usr/bin/time -v) for 1,000,000 and 10,000,000 boards: it should not grow with N;
#   3. --random throughput with one worker thread (boards/s per thread).
# Usage: scripts/bench-generate.sh [RUNS] [DIR]   (RUNS default 9; DIR for the output files, default a temp dir)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-9}
dir=${2:-$(mktemp -d)}
mkdir -p "$dir"
trap 'rm -f "$dir"/gen.txt "$dir"/dd.out "$dir"/big.txt' EXIT
cargo build --release --quiet
bin=$PWD/target/release/sudoku
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package 'time')" >&2; exit 2; }

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# output directory: $dir ($(df -h "$dir" | awk 'NR==2 {print $1}'))"

# wall seconds of one command (bash's microsecond clock; /usr/bin/time's 10 ms steps are too coarse at 0.1 s)
wall() {
  local t0=$EPOCHREALTIME
  "$@" >/dev/null 2>&1
  local t1=$EPOCHREALTIME
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f\n", b - a}'
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# One warm-up of each, then the three in turn, so that a drift of the machine's speed hits all of them alike; the
# ratio is taken pair by pair (run i of the tool against run i of dd) and its median reported.
"$bin" generate 1000000 -o "$dir/gen.txt" >/dev/null 2>&1
dd if=/dev/zero of="$dir/dd.out" bs=1M count=163 status=none
: >"$dir/gen.s"; : >"$dir/dd.s"; : >"$dir/ddsync.s"; : >"$dir/ratio.s"; : >"$dir/ratiosync.s"
for _ in $(seq "$runs"); do
  g=$(wall "$bin" generate 1000000 -o "$dir/gen.txt")
  d=$(wall dd if=/dev/zero of="$dir/dd.out" bs=1M count=163)
  s=$(wall dd if=/dev/zero of="$dir/dd.out" bs=1M count=163 conv=fsync)
  echo "$g" >>"$dir/gen.s"; echo "$d" >>"$dir/dd.s"; echo "$s" >>"$dir/ddsync.s"
  awk -v g="$g" -v d="$d" 'BEGIN {printf "%.4f\n", g / d}' >>"$dir/ratio.s"
  awk -v g="$g" -v d="$s" 'BEGIN {printf "%.4f\n", g / d}' >>"$dir/ratiosync.s"
done
gen=$(median <"$dir/gen.s"); dd=$(median <"$dir/dd.s"); ddsync=$(median <"$dir/ddsync.s")
echo "1,000,000 boards, grid, -o FILE: median ${gen} s over $runs runs ($(stat -c %s "$dir/gen.txt") bytes)"
echo "dd bs=1M count=163:             median ${dd} s"
echo "dd bs=1M count=163 conv=fsync:  median ${ddsync} s"
echo "ratio to dd, median of pairs: $(median <"$dir/ratio.s") (min $(sort -g "$dir/ratio.s" | head -1), max $(sort -g "$dir/ratio.s" | tail -1))   to dd conv=fsync: $(median <"$dir/ratiosync.s")"

for n in 1000000 10000000; do
  /usr/bin/time -v "$bin" generate "$n" -o "$dir/big.txt" 2>"$dir/rss.txt" >/dev/null
  rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$dir/rss.txt")
  el=$(awk -F': ' '/Elapsed/ {print $2}' "$dir/rss.txt")
  echo "$n boards to a file: peak RSS ${rss} KB, wall ${el}"
done

n=50000
s=$(wall sh -c "exec '$bin' generate $n --random -j1 >/dev/null")
awk -v n="$n" -v s="$s" 'BEGIN {printf "--random -j1: %d boards in %s s = %.0f boards/s per thread\n", n, s, n / s}'
