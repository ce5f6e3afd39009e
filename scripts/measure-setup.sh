#!/usr/bin/env bash
# Measures what README's two set-up commands cost on a fresh clone of this repository's HEAD and writes the figures
# to docs/setup-times.md (the file is this script's output: edit the script, not the file).
#
#   scripts/measure-setup.sh [--no-write]
#
# In a scratch directory: `git clone` of this checkout, then, timed by /usr/bin/time (user + system CPU seconds,
# wall seconds, peak RSS of the largest process), `cargo run --release -- solve data/puzzles.txt` and then
# `cargo test --release`, with a fresh target directory. Crates already in cargo's download cache are not
# downloaded again (the figures are for building, not fetching); how many crates the second command compiled again
# is counted from its output.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
write=1
[ "${1:-}" = "--no-write" ] && write=0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git clone --quiet "$repo" "$scratch/clone"
[ -d ../shared ] && ln -s "$(cd ../shared && pwd)" "$scratch/shared"
cd "$scratch/clone"
timed() { # LOG CMD...: runs CMD, its output in LOG.out, its figures in LOG.time
  local log=$1
  shift
  /usr/bin/time -f '%U %S %e %M' -o "$log.time" "$@" >"$log.out" 2>&1
}
timed "$scratch/run" cargo run --release -- solve data/puzzles.txt
cmp <(grep -v '^ ' "$scratch/run.out" | grep -E '^[0-9]{81}$') data/puzzles.solutions.txt >/dev/null \
  || { echo "measure-setup: the first command's answers differ from data/puzzles.solutions.txt" >&2; exit 1; }
timed "$scratch/test" cargo test --release
crates() { grep -E '^ *Compiling ' "$1" | awk '{print $2, $3}' | sort -u; }
first=$(crates "$scratch/run.out" | wc -l)
# Crates the first command had compiled and the second compiled again (other features or flags), and crates only
# the tests need (dev-dependencies).
again=$(comm -12 <(crates "$scratch/run.out") <(crates "$scratch/test.out") | wc -l)
only=$(comm -13 <(crates "$scratch/run.out") <(crates "$scratch/test.out") | wc -l)
again_names=$(comm -12 <(crates "$scratch/run.out") <(crates "$scratch/test.out") | awk '{print $1}' | paste -sd, - | sed 's/,/, /g')
passed=$(grep -E '^test result: ok' "$scratch/test.out" | awk '{s += $4} END {print s + 0}')
row() { awk -v what="$2" '{ printf "| %s | %.0f s | %.0f s | %d MB |\n", what, $1 + $2, $3, $4 / 1024 }' "$1.time"; }
{
  echo "# Set-up times"
  echo
  echo "Written by \`scripts/measure-setup.sh\` on $(date -u +%Y-%m-%d) at commit $(git rev-parse --short HEAD), on $(nproc) cores"
  echo "($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(($(grep MemTotal /proc/meminfo | awk '{print $2}') / 1048576)) GiB): a fresh clone, a fresh target directory,"
  echo "the crates already downloaded. CPU is user + system time of all processes; wall time depends on the cores."
  echo
  echo "| command | CPU | wall | peak RSS |"
  echo "|---|---|---|---|"
  row "$scratch/run" "\`cargo run --release -- solve data/puzzles.txt\` (compiles $first crates)"
  row "$scratch/test" "then \`cargo test --release\` (compiles $again crates again and $only the tests alone need; $passed tests passed)"
  echo
  echo "Compiled again by the second command: ${again_names:-none}."
} >"$scratch/setup-times.md"
cat "$scratch/setup-times.md"
if [ $write = 1 ]; then cp "$scratch/setup-times.md" "$repo/docs/setup-times.md"; fi
