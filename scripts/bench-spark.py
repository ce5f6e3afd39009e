#!/usr/bin/env python3
"""Spark local[2] end to end against `sudoku solve -j2` on the same puzzle file (public tools only).

Spark: read the text file, sudoku_batch.spark.solve, write the solution column as text; timed from the first
action with the session already started (session start-up is printed apart). CLI: `sudoku solve -j2 FILE -o OUT`.

Usage: scripts/bench-spark.py [--sudoku PATH] FILE
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--sudoku", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "sudoku"))
    a = ap.parse_args()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    from sudoku_batch import spark as sbs

    out = tempfile.mkdtemp()
    try:
        t = time.perf_counter()
        subprocess.run([a.sudoku, "solve", "-q", "-j2", a.file, "-o", os.path.join(out, "cli.txt")], check=True)
        cli = time.perf_counter() - t
        t = time.perf_counter()
        spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
                 .config("spark.driver.memory", "4g").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        start = time.perf_counter() - t
        t = time.perf_counter()
        df = spark.read.text(a.file).withColumnRenamed("value", "puzzle")
        sbs.solve(df).select("solution").na.fill("error").write.text(os.path.join(out, "spark"))
        run = time.perf_counter() - t
        spark.stop()
        print(f"sudoku solve -j2: {cli:.2f} s; Spark local[2] start-up {start:.1f} s, read+solve+write {run:.2f} s "
              f"({run / cli:.1f}x the CLI)")
    finally:
        shutil.rmtree(out)


if __name__ == "__main__":
    main()
