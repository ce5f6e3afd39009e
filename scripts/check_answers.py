#!/usr/bin/env python3
"""Independent checker: every output line for a puzzle line is a valid full grid that keeps the givens,
or the failure that the caller expects. Written without any code of the project.

usage: check_answers.py PUZZLES OUTPUT MODE
  MODE solved       every record must have a valid solution keeping its givens
  MODE no-solution  every record must be reported as 'no solution'
  MODE several      every record must be reported as having several solutions (run with --unique)
"""
import sys


def records(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\r\n")
            if line.strip() and not line.startswith("#"):
                yield n, line.strip()


def valid(sol, puz):
    if len(sol) != 81 or any(c not in "123456789" for c in sol):
        return False
    if any(p not in ".0" and p != s for p, s in zip(puz, sol)):
        return False
    units = [[r * 9 + c for c in range(9)] for r in range(9)]
    units += [[r * 9 + c for r in range(9)] for c in range(9)]
    units += [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)]
    return all(len({sol[i] for i in u}) == 9 for u in units)


def main():
    puzzles, output, mode = sys.argv[1:4]
    outs = [l.rstrip("\r\n") for l in open(output, encoding="utf-8", errors="replace")]
    ins = list(records(puzzles))
    bad = 0
    if len(outs) != len(ins):
        print(f"{output}: {len(outs)} output records for {len(ins)} puzzles", file=sys.stderr)
        sys.exit(1)
    for (n, puz), out in zip(ins, outs):
        if mode == "solved":
            ok = valid(out, puz)
        elif mode == "no-solution":
            ok = "no solution" in out
        elif mode == "several":
            ok = "several solutions" in out or "more than one solution" in out
        else:
            sys.exit(f"unknown mode {mode}")
        if not ok:
            bad += 1
            if bad <= 5:
                print(f"{puzzles}:{n}: expected {mode}, got {out[:100]!r}", file=sys.stderr)
    print(f"{puzzles}: {len(ins)} records, {len(ins) - bad} as expected ({mode})")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
