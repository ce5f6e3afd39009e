#!/usr/bin/env bash
# Peak memory on table layouts (the README's "Parquet and Arrow tables" figures): ROWS rows of data/puzzles.txt's
# puzzles (cycled) with an `id` column, written by pyarrow as a Parquet file of one-row row groups, an Arrow IPC file
# and an Arrow IPC stream of one-row record batches, and as a Parquet file of one row group for comparison; each
# solved by `sudoku solve -q -j2 -o FILE`, its peak RSS taken by GNU time. Fails when a layout of small row groups
# or batches peaks above LIMIT_KB.
#
# usage: scripts/check-table-memory.sh [ROWS] [LIMIT_KB]   (default 300000 rows, 65536 KB = 64 MiB)
# Needs a Python with pyarrow ($PYTHON, default python3); $SUDOKU names the binary (default: a release build).
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-300000}
limit=${2:-65536}
python=${PYTHON:-python3}
if [ -z "${SUDOKU:-}" ]; then
  cargo build --release --quiet
  SUDOKU=$PWD/target/release/sudoku
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$python" - "$rows" "$tmp" <<'PY'
import sys
import pyarrow as pa, pyarrow.parquet as pq, pyarrow.ipc as ipc
n, out = int(sys.argv[1]), sys.argv[2]
p = [l.strip() for l in open("data/puzzles.txt") if l.strip() and not l.startswith("#")]
t = pa.table({"id": pa.array(range(n), pa.int64()), "question": [p[i % len(p)] for i in range(n)]})
pq.write_table(t, f"{out}/groups.parquet", row_group_size=1)
pq.write_table(t, f"{out}/whole.parquet")
with ipc.new_file(f"{out}/batches.arrow", t.schema) as w:
    w.write_table(t, max_chunksize=1)
with ipc.new_stream(f"{out}/batches.arrows", t.schema) as w:
    w.write_table(t, max_chunksize=1)
PY
status=0
for f in groups.parquet batches.arrow batches.arrows whole.parquet; do
  /usr/bin/time -f '%M %e' -o "$tmp/t" "$SUDOKU" solve -q -j2 "$tmp/$f" -o "$tmp/out.$f"
  read -r kb secs < <(tail -1 "$tmp/t")
  printf '%-15s %10s bytes: peak RSS %6.1f MiB, %s s wall\n' "$f" "$(wc -c < "$tmp/$f")" "$(echo "$kb" | awk '{print $1 / 1024}')" "$secs"
  if [ "$f" != whole.parquet ] && [ "$kb" -gt "$limit" ]; then
    echo "  over the limit of $limit KB" >&2
    status=1
  fi
done
exit $status
