#!/usr/bin/env python3
"""Python module against the CLI on the same puzzle files, in the same run (public tools only).

For each file: `sudoku bench` puzzles/s (in-process solver, 1 thread), then `sudoku_batch.solve_array` and
`sudoku_batch.solve` (strings) at threads=1 (best of repeated passes for --seconds), then solve_array at
threads=2 against `sudoku solve -j2 FILE -o /dev/null`-style runs to a file (best of 3). Pin it for steady
figures: `taskset -c 1 scripts/bench-python.py FILE...` for the one-thread columns.

Usage: scripts/bench-python.py [--seconds S] [--sudoku PATH] [--two] FILE...
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import sudoku_batch as sb


def lines_of(path):
    with open(path) as f:
        return [l.strip() for l in f if l.strip() and not l.startswith("#")]


def best_rate(fn, n, seconds):
    fn()  # warm-up
    best, spent = 0.0, 0.0
    while spent < seconds:
        t = time.perf_counter()
        fn()
        dt = time.perf_counter() - t
        spent += dt
        best = max(best, n / dt)
    return best


def cli_bench(exe, path, seconds):
    out = subprocess.run([exe, "bench", path, "--seconds", str(seconds)], capture_output=True, text=True, check=True)
    row = out.stdout.strip().splitlines()[-1].split()
    return float(row[3])


def cli_solve(exe, path, threads, runs=3):
    best = None
    with tempfile.TemporaryDirectory() as d:
        for _ in range(runs):
            t = time.perf_counter()
            subprocess.run([exe, "solve", "-q", "-j", str(threads), path, "-o", os.path.join(d, "out")], check=True)
            dt = time.perf_counter() - t
            best = dt if best is None else min(best, dt)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--sudoku", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "sudoku"))
    ap.add_argument("--two", action="store_true", help="also time 2 threads (do not pin to one core)")
    a = ap.parse_args()
    print(f"{'dataset':34} {'puzzles':>8} {'bench/s':>10} {'array/s':>10} {'ratio':>6} {'strings/s':>10} {'ratio':>6}")
    for path in a.files:
        lines = lines_of(path)
        grids = sb.to_array(lines)
        n = len(lines)
        bench = cli_bench(a.sudoku, path, a.seconds)
        arr = best_rate(lambda: sb.solve_array(grids, threads=1), n, a.seconds)
        strs = best_rate(lambda: sb.solve(lines, threads=1), n, a.seconds)
        name = os.path.basename(path)
        print(f"{name:34} {n:>8} {bench:>10.0f} {arr:>10.0f} {arr / bench:>6.3f} {strs:>10.0f} {strs / bench:>6.3f}")
        if a.two:
            for threads in (1, 2):
                t_cli = cli_solve(a.sudoku, path, threads)
                t_arr = n / best_rate(lambda: sb.solve_array(grids, threads=threads), n, a.seconds)
                print(f"  threads={threads}: sudoku solve -j{threads} to a file {n / t_cli:>10.0f}/s (whole process), "
                      f"solve_array {n / t_arr:>10.0f}/s")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
