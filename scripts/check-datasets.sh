#!/usr/bin/env bash
# Large-data check: solve every dataset in DIR (default ../shared/data) with the release binary and check every
# answer with an independent checker (scripts/check_answers.py); the dataset tools on real data, and canon
# --pattern-first against checksums of dobrichev's minlexer's output.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/data}
cargo build --release --quiet
bin=target/release/sudoku
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for f in "$dir"/puzzles*; do
  name=$(basename "$f")
  case "$name" in
    puzzles8_*) "$bin" solve "$f" > "$out/$name" 2>/dev/null || true
                python3 scripts/check_answers.py "$f" "$out/$name" no-solution || status=1 ;;
    puzzles7_*) "$bin" solve "$f" > "$out/$name" || status=1
                python3 scripts/check_answers.py "$f" "$out/$name" solved || status=1
                "$bin" solve --unique "$f" > "$out/$name.u" 2>/dev/null || true
                python3 scripts/check_answers.py "$f" "$out/$name.u" several || status=1 ;;
    *)          "$bin" solve "$f" > "$out/$name" || status=1
                python3 scripts/check_answers.py "$f" "$out/$name" solved || status=1 ;;
  esac
done
# Chunking invariant on a large file: the parallel run with small chunks, and the read (not mapped) run, write the
# bytes of the sequential run.
f=$dir/puzzles0_dense_100k
if [ -f "$f" ]; then
  "$bin" solve -q -j1 "$f" > "$out/seq"
  "$bin" solve -q -j2 --chunk-size 4096 "$f" > "$out/par"
  "$bin" solve -q -j2 --no-mmap "$f" > "$out/read"
  if cmp -s "$out/seq" "$out/par" && cmp -s "$out/seq" "$out/read"; then
    echo "$f: -j1, -j2 with small chunks and --no-mmap write the same bytes"
  else
    echo "$f: chunked or read output differs from the sequential run" >&2
    status=1
  fi
fi
# Compressed inputs on real data: a file made by each tool installed gives the plain file's bytes, read from the
# file and from standard input.
f=$dir/puzzles2_17_clue
if [ -f "$f" ]; then
  "$bin" solve -q -j2 "$f" > "$out/plain17"
  for tool in gzip zstd xz bzip2; do
    if ! command -v "$tool" > /dev/null; then
      echo "$tool not installed: its compressed check skipped"
      continue
    fi
    "$tool" -c < "$f" > "$out/packed17"
    if "$bin" solve -q -j2 "$out/packed17" | cmp -s - "$out/plain17" \
      && "$bin" solve -q -j2 < "$out/packed17" | cmp -s - "$out/plain17"; then
      echo "$f: $tool-compressed, from the file and from stdin: the plain file's bytes"
    else
      echo "$f: the $tool-compressed file gives other bytes than the plain one" >&2
      status=1
    fi
  done
fi
# Dataset tools on real data.
# - dedupe: the 17-clue list followed by a randomly shuffled copy of itself gives back exactly the originals;
# - canon: the shuffled copy has the same canonical forms, line for line, for the puzzles and for their solutions;
# - check: every puzzle paired with the solution `solve` gave is ok (with --unique);
# - count: Serg's puzzles all have 2+ solutions, the no-solution set 0.
f=$(ls "$dir"/puzzles2_17_clue* 2>/dev/null | head -1 || true)
if [ -n "$f" ]; then
  grep -v '^#' "$f" | grep . > "$out/17"
  "$bin" shuffle -q --seed 2026 "$out/17" > "$out/17s"
  cat "$out/17" "$out/17s" | "$bin" dedupe -q > "$out/17d"
  if cmp -s "$out/17" "$out/17d"; then
    echo "$f: dedupe of the list and a shuffled copy gives the $(wc -l < "$out/17") originals, in order"
  else
    echo "$f: dedupe did not give back the originals ($(wc -l < "$out/17d") records)" >&2
    status=1
  fi
  if cmp -s <("$bin" canon -q "$out/17") <("$bin" canon -q "$out/17s"); then
    echo "$f: canon of every shuffled record equals canon of its original"
  else
    echo "$f: canon differs between records and their shuffled copies" >&2
    status=1
  fi
  # Solved grids take canon's own search: the same checks on the solutions of the list.
  "$bin" solve -q "$out/17" > "$out/17sol"
  "$bin" shuffle -q --seed 7 "$out/17sol" > "$out/17sols"
  if cmp -s <("$bin" canon -q "$out/17sol") <("$bin" canon -q "$out/17sols") \
    && cmp -s <("$bin" dedupe -q "$out/17sol") <(cat "$out/17sol" "$out/17sols" | "$bin" dedupe -q); then
    echo "$f: canon of every shuffled solution grid equals canon of its original; dedupe of both keeps" \
      "$("$bin" dedupe -q "$out/17sol" | wc -l) of $(wc -l < "$out/17sol") grids, the same as of the originals"
  else
    echo "$f: canon or dedupe of solution grids differs between grids and their shuffled copies" >&2
    status=1
  fi
  "$bin" solve -q "$out/17" | paste -d' ' "$out/17" - > "$out/17p"
  if [ "$("$bin" check --unique -q "$out/17p" | sort | uniq -c | awk '{print $1, $2}')" = "$(wc -l < "$out/17") ok" ]; then
    echo "$f: check --unique says ok for every puzzle with its solution"
  else
    echo "$f: check --unique rejected a true solution" >&2
    status=1
  fi
fi
# canon --pattern-first gives, byte for byte, what dobrichev's minlexer (sudoku-minlexing-tool, commit f3c1a68, run
# outside this repository as data/README.md says) gives on each file with its comment and blank lines left out:
# the SHA-256 of the minlexer's output, one 81-character line per puzzle, `.` for blanks.
while read -r sum name; do
  f=$dir/$name
  [ -f "$f" ] || continue
  got=$(grep -v '^#' "$f" | grep . | "$bin" canon --pattern-first -q | sha256sum | cut -c1-64)
  if [ "$got" = "$sum" ]; then
    echo "$f: canon --pattern-first gives the minlexer's output, byte for byte"
  else
    echo "$f: canon --pattern-first differs from the minlexer's output" >&2
    status=1
  fi
done <<'SUMS'
c1d5201dd4a3618990ec925ad996da65571338d2ef284ee8343c2c6085b92622 puzzles0_dense_100k
5aadfd71526a264c8874ae0455c0220380929d6e381e9173d9eba8c1e14d35e1 puzzles2_17_clue
c322f85abc4e78faf3c45d4ec9fb96f8b70b9c780eda84e92138f1b313fbf785 puzzles3_magictour_top1465
aa53bea531aac382d33edccd2a42b9489f18098e10955e643eaae9e1d2222c71 puzzles5_forum_hardest_1905_11+
43dedc4409717be20beec210aa661b8eb8510937a75b4529b987df04897431c8 puzzles6_forum_hardest_1106
d2d272bd1c3b70c22be23aa4ae8c5bd11c0f9d3492b8b56b1eea8767cf7096dc puzzles7_serg_benchmark
14a8c206bbb62db13fad69c17dd540ee3feb7d41d317c83866a07f1160c86055 puzzles8_no_solution_1000
SUMS
for pair in "puzzles7_:2+" "puzzles8_:0"; do
  f=$(ls "$dir"/${pair%%:*}* 2>/dev/null | head -1 || true)
  [ -n "$f" ] || continue
  counts=$("$bin" count -q "$f" | sort -u)
  if [ "$counts" = "${pair#*:}" ]; then
    echo "$f: count gives ${pair#*:} for every puzzle"
  else
    echo "$f: count gives $(echo "$counts" | tr '\n' ' ')" >&2
    status=1
  fi
done
exit $status
