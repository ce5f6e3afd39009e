#!/usr/bin/env bash
# Parquet against CSV (the README's "Parquet and Arrow tables" figures): the same 1,000,000 puzzles as a CSV
# (`id,question`) and as a Parquet file written by pyarrow with its defaults (Snappy, one row group of 1Mi rows),
# each solved by `sudoku solve -j2 -o FILE`, the two alternated, RUNS runs each; CPU seconds (user + system), wall
# seconds and peak RSS medians, and the ratio of the wall medians.
#
# usage: scripts/bench-parquet.sh [DIR] [RUNS]   (DIR: the datasets, default ../shared/data; RUNS default 5)
# The puzzles: the 100k dense set five times, then the 49k 17-clue set ten times, cut at 1,000,000.
# Needs a Python with pyarrow ($PYTHON, default python3). Public tools only: /usr/bin/time (GNU time).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/data}
runs=${2:-5}
python=${PYTHON:-python3}
cargo build --release --quiet
bin=$PWD/target/release/sudoku
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%F)"
"$python" - "$dir" "$tmp" <<'EOF'
import sys
import pyarrow as pa, pyarrow.parquet as pq
src, out = sys.argv[1], sys.argv[2]
def lines(name):
    return [l[:81] for l in open(f"{src}/{name}") if l.strip() and not l.startswith("#")]
rows = (lines("puzzles0_dense_100k") * 5 + lines("puzzles2_17_clue") * 10)[:1_000_000]
pq.write_table(pa.table({"id": pa.array(range(len(rows)), pa.int64()), "question": rows}), f"{out}/in.parquet")
with open(f"{out}/in.csv", "w") as f:
    f.write("id,question\n")
    f.writelines(f"{i},{r}\n" for i, r in enumerate(rows))
EOF

# median of the numbers on stdin
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

for _ in $(seq "$runs"); do
  for kind in csv parquet; do
    /usr/bin/time -f '%U %S %e %M' -o "$tmp/t" "$bin" solve -q -j2 "$tmp/in.$kind" -o "$tmp/out.$kind" > /dev/null 2>&1
    tail -1 "$tmp/t" >> "$tmp/runs.$kind"
  done
done
for kind in csv parquet; do
  printf '%s: %s bytes in, %s bytes out: %s s cpu, %s s wall, %s MiB peak RSS\n' "$kind" \
    "$(wc -c < "$tmp/in.$kind")" "$(wc -c < "$tmp/out.$kind")" \
    "$(awk '{print $1 + $2}' "$tmp/runs.$kind" | median)" "$(awk '{print $3}' "$tmp/runs.$kind" | median)" \
    "$(awk '{printf "%.1f\n", $4 / 1024}' "$tmp/runs.$kind" | median)"
done
echo "parquet/csv wall: $(echo "$(awk '{print $3}' "$tmp/runs.parquet" | median) $(awk '{print $3}' "$tmp/runs.csv" | median)" | awk '{printf "%.2f", $1 / $2}')"
