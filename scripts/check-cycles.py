#!/usr/bin/env python3
"""Fails when the Rust files of a crate import each other in a circle.

    scripts/check-cycles.py [SRC_DIR ...]      (default: src, and cli/src when it exists)

Reads every `use crate::…`, `use super::…` and `use self::…` declaration (braces expanded) and every path written
as `crate::a::b` or `super::a` in code, maps each to the file that defines it (the longest prefix of the path that
is a file: `a/b.rs` or `a/b/mod.rs`), and looks for cycles among files. A module (`a/mod.rs`, or `a.rs` beside a
folder `a/`) declares and re-exports its children: its edges to its own descendants are not imports and are not
counted; nor are test
modules (`#[cfg(test)] mod … { … }`), which may drive the code under test with a module of a higher layer;
everything else is.
Prints each cycle found (as a path of files) and exits 1, or prints the count of files and edges and exits 0.
"""
import os
import re
import sys


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    out = []
    for line in text.splitlines():
        # drop // comments, but not inside a string literal (good enough: skip lines' tails after a // outside quotes)
        inq = False
        cut = len(line)
        i = 0
        while i < len(line):
            c = line[i]
            if c == '"' and (i == 0 or line[i - 1] != "\\"):
                inq = not inq
            elif not inq and line.startswith("//", i):
                cut = i
                break
            i += 1
        out.append(line[:cut])
    text = "\n".join(out)
    # string literals can hold `crate::` in messages: blank them
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return strip_test_modules(text)


def strip_test_modules(text):
    """Drops `#[cfg(test)] mod NAME { ... }` blocks: a test may walk the code with a module of a higher layer."""
    while True:
        m = re.search(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{", text)
        if not m:
            return text
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        text = text[: m.start()] + text[i:]


def expand(tree):
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e']"""
    tree = tree.strip()
    depth = 0
    for i, c in enumerate(tree):
        if c == "{":
            prefix = tree[:i]
            body = tree[i + 1 : tree.rindex("}")]
            parts, depth, start = [], 0, 0
            for j, d in enumerate(body):
                if d == "{":
                    depth += 1
                elif d == "}":
                    depth -= 1
                elif d == "," and depth == 0:
                    parts.append(body[start:j])
                    start = j + 1
            parts.append(body[start:])
            res = []
            for p in parts:
                if p.strip():
                    res.extend(expand(prefix + p.strip()))
            return res
    return [re.sub(r"\s+as\s+\w+$", "", tree)]


class Crate:
    def __init__(self, src):
        self.src = src
        self.files = []
        for root, _, names in os.walk(src):
            for n in names:
                if n.endswith(".rs"):
                    self.files.append(os.path.relpath(os.path.join(root, n), src))
        self.files.sort()
        self.fileset = set(self.files)

    def module_of(self, rel):
        """a/b.rs -> ['a','b']; a/mod.rs -> ['a']; lib.rs/main.rs -> []"""
        parts = rel[:-3].split("/")
        if parts[-1] == "mod":
            parts = parts[:-1]
        if parts in (["lib"], ["main"]):
            return []
        return parts

    def file_of(self, segs):
        """the file defining the longest module prefix of segs"""
        for k in range(len(segs), -1, -1):
            pre = segs[:k]
            if not pre:
                for root in ("lib.rs", "main.rs"):
                    if root in self.fileset:
                        return root
                return None
            cand = "/".join(pre)
            if cand + ".rs" in self.fileset:
                return cand + ".rs"
            if cand + "/mod.rs" in self.fileset:
                return cand + "/mod.rs"
        return None

    def resolve(self, rel, path):
        segs = [s for s in path.split("::") if s]
        if not segs:
            return None
        here = self.module_of(rel)
        if segs[0] == "crate":
            segs = segs[1:]
        elif segs[0] in ("super", "self"):
            base = list(here)
            while segs and segs[0] in ("super", "self"):
                if segs[0] == "super":
                    base = base[:-1]
                segs = segs[1:]
            segs = base + segs
        else:
            return None
        segs = [s for s in segs if s != "*"]
        return self.file_of(segs)

    def edges(self):
        out = {f: set() for f in self.files}
        for rel in self.files:
            text = strip_comments(open(os.path.join(self.src, rel), encoding="utf-8").read())
            paths = []
            for m in re.finditer(r"\buse\s+((?:crate|super|self)\b[^;]*);", text, flags=re.S):
                paths.extend(expand(m.group(1)))
            body = re.sub(r"\buse\s+[^;]*;", " ", text, flags=re.S)
            for m in re.finditer(r"\b((?:crate|super)(?:::\w+)+)", body):
                paths.append(m.group(1))
            here = self.module_of(rel)
            for p in paths:
                tgt = self.resolve(rel, p)
                if tgt is None or tgt == rel:
                    continue
                tm = self.module_of(tgt)
                if tm[: len(here)] == here and len(tm) > len(here):
                    continue  # a module's own children: declared and re-exported, not imported
                out[rel].add(tgt)
        return out


def cycles(graph):
    index, low, stack, on, sccs, n = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            strong(v)
    return sccs


def one_cycle(graph, comp):
    comp = set(comp)
    start = min(comp)
    prev, queue = {start: None}, [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v]):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return [start] + path[::-1][1:] + [start] if path[-1] == start else list(reversed(path)) + [start]
            if w in comp and w not in prev:
                prev[w] = v
                queue.append(w)
    return [start]


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    dirs = sys.argv[1:] or [d for d in ("src", "cli/src") if os.path.isdir(d)]
    bad = 0
    for d in dirs:
        crate = Crate(d)
        graph = crate.edges()
        found = cycles(graph)
        nedges = sum(len(v) for v in graph.values())
        for comp in found:
            bad += 1
            path = one_cycle(graph, comp)
            print(f"check-cycles: {d}: files importing each other in a circle: {' -> '.join(path)}"
                  f" (all {len(comp)} in the circle: {', '.join(comp)})")
        if not found:
            print(f"check-cycles: {d}: no import cycle among {len(crate.files)} files ({nedges} imports)")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
