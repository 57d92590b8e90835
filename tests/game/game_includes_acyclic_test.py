#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""core/game's include graph has no cycle (issue 35, "core/game acyclic").

Each header of core/game is a node, with its own .cpp (X.cpp belongs to X.h); a .cpp with
no header of its name (session_arbiter.cpp) belongs to the first core/game header it
includes, the one whose functions it defines. An edge goes from a node to every core/game
header its files include. The graph must have no cycle: the session knows the seating
interfaces only, the seatings and their registry sit above it, and nothing below points up.
A cycle is printed as the files that make it, each arrow with the file and line of its
#include.

Run: game_includes_acyclic_test.py SOURCE_DIR. It first checks two small planted trees
(one with a cycle through a .cpp, one without), so that a check that has stopped finding
cycles fails too, then core/game.
"""

import pathlib
import re
import sys
import tempfile

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"core/game/([A-Za-z0-9_]+)\.h"')


def includes(path):
    """The core/game headers `path` includes, as (stem, line number), in order."""
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = INCLUDE_RE.match(line)
        if m:
            found.append((m.group(1), number))
    return found


def graph(folder):
    """Node -> {target node: (file, line)} for the .h and .cpp files of `folder`."""
    headers = {p.stem for p in folder.glob("*.h")}
    edges = {h: {} for h in headers}
    for path in sorted(folder.glob("*.h")) + sorted(folder.glob("*.cpp")):
        found = includes(path)
        if path.suffix == ".h" or path.stem in headers:
            node = path.stem
        elif found:
            node = found[0][0]  # a .cpp of its first header (session_arbiter.cpp: session)
        else:
            continue  # a .cpp that includes nothing of core/game: no arrow
        for target, line in found:
            if target != node and target in headers:
                edges[node].setdefault(target, (path.name, line))
    return edges


def find_cycle(edges):
    """One cycle as a list of nodes (first == last), or None."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = {n: WHITE for n in edges}
    stack = []

    def visit(n):
        colour[n] = GREY
        stack.append(n)
        for m in sorted(edges[n]):
            if colour[m] == GREY:
                return stack[stack.index(m):] + [m]
            if colour[m] == WHITE:
                cycle = visit(m)
                if cycle:
                    return cycle
        stack.pop()
        colour[n] = BLACK
        return None

    for n in sorted(edges):
        if colour[n] == WHITE:
            cycle = visit(n)
            if cycle:
                return cycle
    return None


def describe(edges, cycle):
    lines = []
    for a, b in zip(cycle, cycle[1:]):
        file, line = edges[a][b]
        lines.append(f"  {a} -> {b}  ({file}:{line})")
    return "\n".join(lines)


def planted(files):
    """A temporary folder holding `files` (name -> text)."""
    d = tempfile.TemporaryDirectory()
    for name, text in files.items():
        (pathlib.Path(d.name) / name).write_text(text, encoding="utf-8")
    return d


def self_check():
    """The check finds a cycle made through a .cpp (and through a .cpp with no header of
    its own), and none where the arrows go one way."""
    cyclic = {
        "session.h": '#include "core/game/seating_rules.h"\n',
        "seating_rules.h": "// the interface\n",
        "seating_rules.cpp": '#include "core/game/seating_rules.h"\n',
        "session_more.cpp": '#include "core/game/session.h"\n#include "core/game/seatings.h"\n',
        "seatings.h": "",
        "seatings.cpp": '#include "core/game/seatings.h"\n#include "core/game/session.h"\n',
    }
    with planted(cyclic) as d:
        edges = graph(pathlib.Path(d))
        cycle = find_cycle(edges)
        if cycle is None or set(cycle) != {"session", "seatings"}:
            return f"the planted cycle session <-> seatings was not found (found {cycle})"
    acyclic = dict(cyclic)
    acyclic["seatings.cpp"] = '#include "core/game/seatings.h"\n'
    with planted(acyclic) as d:
        cycle = find_cycle(graph(pathlib.Path(d)))
        if cycle is not None:
            return f"a cycle found where there is none: {cycle}"
    return None


def main():
    if len(sys.argv) != 2:
        print("usage: game_includes_acyclic_test.py SOURCE_DIR", file=sys.stderr)
        return 2
    why = self_check()
    if why:
        print("the check itself is broken: " + why)
        return 1
    folder = pathlib.Path(sys.argv[1]) / "core" / "game"
    edges = graph(folder)
    if len(edges) < 10:
        print(f"only {len(edges)} headers found under {folder}: the wrong folder?")
        return 1
    cycle = find_cycle(edges)
    if cycle:
        print("core/game's includes make a cycle:\n" + describe(edges, cycle))
        return 1
    print(f"core/game: {len(edges)} headers, "
          f"{sum(len(t) for t in edges.values())} arrows, no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
