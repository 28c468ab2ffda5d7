#!/usr/bin/env python3
"""Reports import cycles between the modules of each crate under crates/*/src.

A module is a source file (`lib.rs`/`main.rs` is the crate root, `a.rs` and `a/mod.rs` are
module `a`). Module A depends on module B when A's code names a path into B: `use` items and
paths written in code (`crate::x::y`, `super::z`, `self::w`), with re-exports followed (an item
that `mod.rs` re-exports from a child is that child's). Dependencies between a module and its
own ancestors or descendants are structure (a parent declares and re-exports its children; a
child uses what its parent defines), not layering, and are not counted; nor are test modules
(`#[cfg(test)] mod … { }`, `tests.rs`, `tests/`), which may use anything. Any other cycle (siblings
or cousins importing each other, directly or around a loop) is reported and makes the exit
status 1.

    python3 scripts/module_cycles.py            # all crates
    python3 scripts/module_cycles.py crates/ipc # one crate
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def strip_comments_and_strings(text):
    """Blanks comments, string and char literals, keeping line structure."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + len(m.group(0)))
            i = n if j < 0 else j + len(end)
            out.append('""')
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""')
            i = j + 1
        elif c == "'" and re.match(r"'(\\.[^']*|[^'\\])'", text[i:i + 12]):
            m = re.match(r"'(\\.[^']*|[^'\\])'", text[i:])
            out.append("' '")
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def module_files(src):
    """Module path (tuple of names) → file, for one crate's src directory."""
    mods = {}
    for f in src.rglob("*.rs"):
        rel = f.relative_to(src)
        if rel.parts[0] == "bin" or "tests" in rel.parts or rel.name == "tests.rs":
            continue  # binaries are crates of their own; test modules may use anything
        parts = list(rel.parts)
        if parts[-1] in ("lib.rs", "main.rs") and len(parts) == 1:
            key = ()
        elif parts[-1] == "mod.rs":
            key = tuple(parts[:-1])
        else:
            key = tuple(parts[:-1]) + (parts[-1][:-3],)
        mods[key] = f
    return mods


def expand_use(body):
    """`a::{b, c::{d, e}}` → ['a::b', 'a::c::d', 'a::c::e']."""
    body = re.sub(r"\s+as\s+\w+", "", body)
    body = re.sub(r"\s+", "", body)
    out = []

    def walk(prefix, s):
        depth, start, items = 0, 0, []
        for k, ch in enumerate(s):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                items.append(s[start:k])
                start = k + 1
        items.append(s[start:])
        for it in items:
            if not it:
                continue
            if "{" in it:
                head, rest = it.split("{", 1)
                walk(prefix + head, rest[: rest.rfind("}")])
            else:
                out.append(prefix + it)

    walk("", body)
    return out


def strip_test_modules(text):
    """Removes `#[cfg(test)] mod name { … }` blocks: tests may use anything."""
    while True:
        m = re.search(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text)
        if not m:
            return text
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        text = text[: m.start()] + text[i:]


def parse(path):
    text = strip_test_modules(strip_comments_and_strings(path.read_text()))
    uses = [u for m in re.finditer(r"\buse\s+([^;]+);", text) for u in expand_use(m.group(1))]
    reexports = [u for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", text)
                 for u in expand_use(m.group(1))]
    inline = re.findall(r"\b((?:crate|super|self)(?:::\w+)+)", text)
    return uses + inline, reexports


def resolve(mods, exports, here, path):
    """The module a path (from module `here`) points into, or None (another crate, std)."""
    segs = [s for s in path.split("::") if s]
    if not segs:
        return None
    if segs[0] == "crate":
        cur, segs = (), segs[1:]
    elif segs[0] in ("super", "self"):
        cur = here
        while segs and segs[0] in ("super", "self"):
            if segs[0] == "super":
                cur = cur[:-1]
            segs = segs[1:]
    else:
        first = here + (segs[0],)
        if first in mods:  # `use child::x` (2018 paths relative to the module)
            cur, segs = first, segs[1:]
        else:
            return None
    for _ in range(20):
        while segs and cur + (segs[0],) in mods:
            cur, segs = cur + (segs[0],), segs[1:]
        if not segs:
            return cur
        target = exports.get(cur, {}).get(segs[0])
        if target is None:
            return cur
        cur, segs = target, segs[1:]
    return cur


def related(a, b):
    return a[: len(b)] == b or b[: len(a)] == a


def sccs(nodes, edges):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
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
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def crate_cycles(src):
    mods = module_files(src)
    parsed = {m: parse(f) for m, f in mods.items()}
    # Re-exports: module → {item name → module it comes from}.
    exports = {}
    for m, (_, reexports) in parsed.items():
        for r in reexports:
            name = r.split("::")[-1]
            if name in ("*", "self"):
                continue
            target = resolve(mods, {}, m, r)
            if target is not None and target != m:
                exports.setdefault(m, {})[name] = target
    edges, why = {}, {}
    for m, (paths, _) in parsed.items():
        for p in paths:
            t = resolve(mods, exports, m, p)
            if t is None or t == m or related(m, t):
                continue
            edges.setdefault(m, set()).add(t)
            why.setdefault((m, t), p)
    cycles = [sorted(c) for c in sccs(list(mods), edges) if len(c) > 1]
    return cycles, edges, why, mods


def name(m):
    return "::".join(m) or "crate"


def main(args):
    crates = [Path(a) for a in args] or sorted((ROOT / "crates").iterdir())
    found = 0
    for crate in crates:
        src = crate / "src"
        if not src.is_dir():
            continue
        cycles, edges, why, mods = crate_cycles(src)
        for c in cycles:
            found += 1
            members = set(c)
            print(f"{crate.name}: cycle among {', '.join(name(m) for m in c)}")
            for a in c:
                for b in sorted(edges.get(a, ())):
                    if b in members:
                        print(f"    {name(a)} -> {name(b)}  (via {why[(a, b)]})")
    if found:
        print(f"{found} module cycle(s)")
        return 1
    print("no module cycles in " + ", ".join(c.name for c in crates if (c / "src").is_dir()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
