#!/bin/sh
# Rates data/se_sample_hard.txt (puzzles serate rates 9.0 and up; how they were rated is in data/README.md) on SE's
# scale on one thread and compares with serate's ER, EP, ED: equal, within 0.2, or above this build's ladder
# (consistent when serate's ER is above the ceiling printed). Then compares the path `explain --scale se` takes on
# each puzzle of data/se_paths_hard.txt with serate's, step rating by step rating. Too slow for `cargo test`.
# Usage: scripts/check-se-hard.sh [SUDOKU_BINARY]
set -eu
cd "$(dirname "$0")/.."
BIN=${1:-target/release/sudoku}
[ -x "$BIN" ] || cargo build --release
IN=data/se_sample_hard.txt
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
grep -v '^#' "$IN" > "$TMP/ref"
cut -d' ' -f1 "$TMP/ref" > "$TMP/puzzles"
/usr/bin/time -f '%e s elapsed, %U s user' "$BIN" rate --scale se -q -j 1 "$TMP/puzzles" > "$TMP/ours"
paste -d' ' "$TMP/ref" "$TMP/ours" | awk '
{
    # serate: $1 puzzle, $2 ER, $3 EP, $4 ED, $5 source, $6 technique; ours: $7 puzzle, $8 ER, $9 EP, $10 ED, $11
    n++
    if ($1 != $7) { print "order differs at " n; exit 1 }
    if (substr($8, 1, 1) == ">") {
        top = substr($8, 2) + 0
        if ($2 + 0 > top) above++; else { bad++; print "above the ladder but serate " $2 ": " $0 }
        next
    }
    d = $8 - $2; if (d < 0) d = -d
    if (d < 0.05) eq++; else print "differs: serate " $2 " " $6 ", ours " $8 " " $11 ": " $1
    if (d < 0.25) within++
    if ($9 == $3 && $10 == $4) epd++
}
END {
    rated = n - above - bad
    printf "%d puzzles: %d rated by this build, %d above its ladder (serate agrees: %d, disagrees: %d)\n", n, rated, above + bad, above, bad
    if (rated > 0) printf "ER equal %d (%.1f%%), within 0.2 %d (%.1f%%); EP and ED equal %d\n", eq, 100 * eq / rated, within, 100 * within / rated, epd
    exit (bad > 0 || eq < rated)
}' || fail=1
# Paths: serate's step ratings (without nested chains) against ours, and where each path ends.
same=0 n=0
grep -v '^#' data/se_paths_hard.txt > "$TMP/paths"
while read -r p source ratings end; do
    n=$((n + 1))
    "$BIN" explain --scale se "$p" < /dev/null > "$TMP/explain"
    ours=$(grep -E '^ +[0-9]+\. ' "$TMP/explain" | sed -E 's/^ +[0-9]+\. [^:]* ([0-9]+\.[0-9]):.*/\1/' | paste -sd, -)
    [ -n "$ours" ] || ours=-
    if grep -q '^stopped:' "$TMP/explain"; then ours_end=stuck; else
        ours_end=$(tail -1 "$TMP/explain" | sed -E 's/.*: ([0-9.]+) .*/\1/'); fi
    if [ "$ours" = "$ratings" ] && [ "$ours_end" = "$end" ]; then same=$((same + 1)); else
        echo "path differs ($source): $p"; echo "  serate $ratings $end"; echo "  ours   $ours $ours_end"; fi
done < "$TMP/paths"
echo "$n paths: $same identical to serate's (every step's rating, and where it ends)"
[ "$same" = "$n" ] && [ "${fail:-0}" = 0 ]
