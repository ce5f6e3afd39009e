#!/bin/sh
# Rates data/se_sample_hard.txt (puzzles serate rates 9.0 and up; how they were rated is in data/README.md) on SE's
# scale on one thread and compares with serate's ER, EP, ED: equal, within 0.2, or unknown (where SE's ladder
# gives up; consistent when serate's ER is above the ceiling printed). Then compares the path `explain --scale se` takes on
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
        if ($2 + 0 > top) above++; else { bad++; print "unknown (above " top ") but serate " $2 ": " $0 }
        next
    }
    d = $8 - $2; if (d < 0) d = -d
    if (d < 0.05) eq++; else print "differs: serate " $2 " " $6 ", ours " $8 " " $11 ": " $1
    if (d < 0.25) within++
    if ($9 == $3 && $10 == $4) epd++
}
END {
    rated = n - above - bad
    printf "%d puzzles: %d rated by this build, %d unknown (serate above the ceiling: %d, not: %d)\n", n, rated, above + bad, above, bad
    if (rated > 0) printf "ER equal %d (%.1f%%), within 0.2 %d (%.1f%%); EP and ED equal %d\n", eq, 100 * eq / rated, within, 100 * within / rated, epd
    exit (bad > 0 || eq < rated)
}' || fail=1
# Paths: serate's step ratings without nested chains against ours, and where each path ends. Where serate stops
# ("stuck": it needs nested chains), ours must take the same steps, then stop too or go on with nested chains,
# "(+ Forcing Chains)", "(+ Multiple Forcing Chains)" or "(+ Dynamic Forcing Chains)" (as serate does with them;
# data/se_paths_nested.txt checks those). Ours stops before a step rated above 9.9 or above the path's hardest step (--max-se), so that only the
# first nested step is looked for, not the whole nested path.
same=0 n=0
grep -v '^#' data/se_paths_hard.txt > "$TMP/paths"
steps() { grep -E '^ *[0-9]+\. ' "$1" | sed -E 's/^ *[0-9]+\. [^:]* ([0-9]+\.[0-9]):.*/\1/' | paste -sd, -; }
while read -r p source ratings end; do
    n=$((n + 1))
    max=$(echo "$ratings" | tr , '\n' | awk 'BEGIN { m = 9.9 } $1 + 0 > m { m = $1 + 0 } END { print m }')
    "$BIN" explain --scale se --max-se "$max" "$p" < /dev/null > "$TMP/explain"
    ours=$(steps "$TMP/explain")
    [ -n "$ours" ] || ours=-
    if grep -q '^stopped:' "$TMP/explain"; then ours_end=stuck; else
        ours_end=$(tail -1 "$TMP/explain" | sed -E 's/.*: ([0-9.]+) .*/\1/'); fi
    k=$(echo "$ratings" | tr , '\n' | grep -c .)
    [ "$ratings" = - ] && k=0
    prefix=$(grep -E '^ *[0-9]+\. ' "$TMP/explain" | head -n "$k" | sed -E 's/^ *[0-9]+\. [^:]* ([0-9]+\.[0-9]):.*/\1/' | paste -sd, -)
    [ -n "$prefix" ] || prefix=-
    next=$(grep -E '^ *[0-9]+\. ' "$TMP/explain" | sed -n "$((k + 1))p")
    if [ "$end" = stuck ]; then
        case "$next" in
            '') ok=$([ "$ours_end" = stuck ] && echo 1) ;;
            *'(+ Forcing Chains)'* | *'(+ Multiple Forcing Chains)'* | *'(+ Dynamic Forcing Chains)'*) ok=1 ;;
            *) ok= ;;
        esac
    else
        ok=$([ "$ours" = "$ratings" ] && [ "$ours_end" = "$end" ] && echo 1)
    fi
    if [ "$prefix" = "$ratings" ] && [ -n "$ok" ]; then same=$((same + 1)); else
        echo "path differs ($source): $p"; echo "  serate $ratings $end"; echo "  ours   $ours $ours_end"; fi
done < "$TMP/paths"
echo "$n paths: $same as serate's (every step's rating up to where serate needs nested chains, then a nested step or a stop)"
# Paths with nested chains: serate's whole path and ER, or its steps up to where it gives up (`beyond`: ours must
# stop there too), or up to where serate's run was stopped for time (`cut`: ours must
# begin with those steps; it stops after the hardest of them).
same2=0 n2=0
grep -v '^#' data/se_paths_nested.txt > "$TMP/nested"
while read -r p source ratings end; do
    n2=$((n2 + 1))
    if [ "$end" = cut ]; then
        max=$(echo "$ratings" | tr , '\n' | sort -n | tail -1)
        "$BIN" explain --scale se --max-se "$max" "$p" < /dev/null > "$TMP/explain"
        ours=$(steps "$TMP/explain" | cut -d, -f"1-$(echo "$ratings" | tr , '\n' | grep -c .)")
        ours_end=cut
    else
        "$BIN" explain --scale se "$p" < /dev/null > "$TMP/explain"
        ours=$(steps "$TMP/explain")
        if grep -q '^stopped:' "$TMP/explain"; then ours_end=beyond; else
            ours_end=$(tail -1 "$TMP/explain" | sed -E 's/.*: ([0-9.]+) .*/\1/'); fi
    fi
    if [ "$ours" = "$ratings" ] && [ "$ours_end" = "$end" ]; then same2=$((same2 + 1)); else
        echo "nested path differs ($source): $p"; echo "  serate $ratings $end"; echo "  ours   $ours $ours_end"; fi
done < "$TMP/nested"
echo "$n2 nested paths: $same2 identical to serate's"
[ "$same" = "$n" ] && [ "$same2" = "$n2" ] && [ "${fail:-0}" = 0 ]
