#!/usr/bin/env bash
# The layout rules a machine can check, beside scripts/check-cycles.py (no import cycle):
# - no Rust file of the library or the binary has 800 lines or more;
# - the library's own dependencies (cargo tree of sudoku-batch, normal edges) hold none of the binary's crates.
# Prints each breach and exits 1, or says the rules hold.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
while read -r lines file; do
  [ "$file" = total ] && continue
  if [ "$lines" -ge 800 ]; then
    echo "check-layout: $file has $lines lines (the rule: under 800)"
    status=1
  fi
done < <(find src cli/src -name '*.rs' -print0 | xargs -0 wc -l)
binary_crates='^(clap|clap_complete|clap_mangen|indicatif|signal-hook|anyhow) '
if found=$(cargo tree -p sudoku-batch -e normal --prefix none --quiet | grep -E "$binary_crates" | sort -u) && [ -n "$found" ]; then
  echo "check-layout: the library depends on the binary's crates: $(echo "$found" | tr '\n' ' ')"
  status=1
fi
[ $status -eq 0 ] && echo "check-layout: every file under 800 lines; the library holds none of the binary's crates"
exit $status
