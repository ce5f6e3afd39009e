#!/usr/bin/env bash
# The solver alone, one thread, next to the `sudoku` crate peer in the same run: for each dataset, ROUNDS rounds of
# `sudoku bench` and the peer's `bench`, alternated, each timing SECONDS of repeated passes (parse + solve every
# puzzle). Prints the median µs/puzzle of each and the median of the per-round ratios (ours / peer), with our guess
# statistics.
#
#   scripts/bench-solver.sh [--unique] [ROUNDS] [SECONDS] [FILE...]     (defaults: 5 rounds, 2 s, ../shared/data)
#
# The peer is built from ../shared/peers/rust-sudoku-peer into target/peer (it links the AGPL `sudoku` crate only
# to be timed); PEER=path/to/binary uses another build.
set -euo pipefail
cd "$(dirname "$0")/.."
unique=()
if [ "${1:-}" = "--unique" ]; then
  unique=(--unique)
  shift
fi
rounds=${1:-5}
seconds=${2:-2}
shift $(($# < 2 ? $# : 2))
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=(../shared/data/puzzles*)
fi
cargo build --release --quiet
ours=target/release/sudoku
if [ -z "${PEER:-}" ]; then
  cargo build --release --quiet --manifest-path ../shared/peers/rust-sudoku-peer/Cargo.toml --target-dir target/peer
  PEER=target/peer/release/rust-sudoku-peer
fi
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
printf '%-34s %10s %10s %8s %10s %10s\n' dataset "ours µs" "peer µs" ratio no-guess% guesses/pz
for f in "${files[@]}"; do
  a=() p=() r=() stats=""
  for _ in $(seq "$rounds"); do
    line=$("$ours" bench "${unique[@]}" --seconds "$seconds" "$f" | tail -1)
    us=$(awk '{print $5}' <<< "$line")
    stats=$(awk '{print $6, $7}' <<< "$line")
    pu=$("$PEER" bench "${unique[@]}" "$seconds" "$f" | awk '{print $(NF - 3)}')
    a+=("$us") p+=("$pu") r+=("$(awk -v x="$us" -v y="$pu" 'BEGIN {print x / y}')")
  done
  printf '%-34s %10.3f %10.3f %8.3f %10s %10s\n' "$(basename "$f")" \
    "$(printf '%s\n' "${a[@]}" | median)" "$(printf '%s\n' "${p[@]}" | median)" \
    "$(printf '%s\n' "${r[@]}" | median)" $stats
done
