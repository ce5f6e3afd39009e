#!/usr/bin/env python3
"""Fails when a Rust function of the library, the binary or the Python crate has more than 80 lines.

    scripts/check-functions.py

A function runs from its `fn` line to the closing brace at the same indentation (rustfmt's layout), both counted.
Every function is held to the limit, with no exception. Prints each breach and exits 1, or says the rule holds.
"""
import os
import re
import sys

LIMIT = 80
ROOTS = ["src", "cli/src", "python/src"]
FN = re.compile(r"^(\s*)(pub(\([^)]*\))?\s+)?(const\s+)?(unsafe\s+)?fn\s+(\w+)")


def functions(path):
    """(name, first line, length) of every function with a body in the file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        m = FN.match(line)
        if not m or line.rstrip().endswith(";"):
            continue
        indent = m.group(1)
        for j in range(i + 1, len(lines)):
            end = lines[j]
            if end.startswith(indent + "}") and end[len(indent) + 1:len(indent) + 2] in ("", " ", ";"):
                yield m.group(6), i + 1, j - i + 1
                break


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    breaches = []
    for root in ROOTS:
        for folder, _, files in os.walk(root):
            for name in sorted(files):
                if not name.endswith(".rs"):
                    continue
                path = os.path.join(folder, name)
                for fn, first, length in functions(path):
                    if length > LIMIT:
                        breaches.append(f"{path}:{first}: fn {fn} has {length} lines (the rule: at most {LIMIT})")
    for b in breaches:
        print(f"check-functions: {b}")
    if breaches:
        sys.exit(1)
    print(f"check-functions: every function of at most {LIMIT} lines")


if __name__ == "__main__":
    main()
