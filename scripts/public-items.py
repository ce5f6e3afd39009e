#!/usr/bin/env python3
"""Counts the public items of the library: those a user reaches from the crate root.

    cargo +nightly rustdoc --lib -- -Z unstable-options --output-format json
    python3 scripts/public-items.py [target/doc/sudoku_batch.json] [--list]

Walks rustdoc's JSON from the root module through modules, re-exports, types and their inherent impls, and
counts each item once (wherever it is re-exported): modules, types, traits, functions, constants, and the methods
and associated items of inherent impls and of our traits; public fields and enum variants are counted apart. Items of
trait impls (`Display::fmt`, ...) are not counted; `#[doc(hidden)]` items are not in the JSON.
"""

import collections
import json
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
path = args[0] if args else "target/doc/sudoku_batch.json"
doc = json.load(open(path))
index = doc["index"]

counted = {}  # id -> (kind, path shown)
modules = []


def kind_of(item):
    return next(iter(item["inner"]))


def visit(item_id, where):
    key = str(item_id)
    if key not in index or key in counted:
        return
    item = index[key]
    kind = kind_of(item)
    inner = item["inner"][kind]
    name = item.get("name") or ""
    if kind == "use":
        if inner.get("id") is not None:
            target = index.get(str(inner["id"]))
            if inner.get("is_glob") and target and kind_of(target) == "module":
                for child in target["inner"]["module"]["items"]:
                    visit(child, where)
            else:
                visit(inner["id"], where)
        return
    shown = f"{where}::{name}" if where else name
    if kind == "impl":
        return
    counted[key] = (kind, shown)
    if kind == "module":
        if not inner.get("is_crate"):
            modules.append(shown)
        for child in inner["items"]:
            visit(child, shown)
    elif kind in ("struct", "enum", "union"):
        if kind == "struct":
            fields = inner["kind"]
            if isinstance(fields, dict):
                for f in fields.get("plain", {}).get("fields", []) or fields.get("tuple", []) or []:
                    if f is not None:
                        visit(f, shown)
        for v in inner.get("variants", []):
            visit(v, shown)
        for impl_id in inner.get("impls", []):
            impl = index.get(str(impl_id))
            if impl and impl["inner"]["impl"]["trait"] is None:
                for child in impl["inner"]["impl"]["items"]:
                    visit(child, shown)
    elif kind == "trait":
        for child in inner["items"]:
            visit(child, shown)


visit(doc["root"], "")
del counted[str(doc["root"])]
kinds = collections.Counter(k for k, _ in counted.values())
if "--list" in sys.argv:
    for kind, shown in sorted(counted.values(), key=lambda x: x[1]):
        print(f"{kind:14} {shown}")
members = kinds["struct_field"] + kinds["variant"]
print(f"{len(counted) - members} public items (+ {members} public fields and enum variants), {len(modules)} public modules ({', '.join(sorted(modules))})")
print("  " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
