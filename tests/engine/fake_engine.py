#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A UCI engine that misbehaves on purpose, for the tests of an engine that cannot drain the
table (docs/engine.md, "An engine that fails"). It shakes hands as an engine does (id name,
uciok, readyok) and then does what MODE says:

  log FILE          writes every line it is sent to FILE; answers `go` with e2e4 (White's
                    first move: the tests ask no other)
  crash-at-go FILE  appends "start" to FILE when it starts; exits at `go`, unless
                    FILE.mended exists (then it answers as `log` does, e2e4)
  hang-at-go FILE   appends "start" to FILE when it starts; never answers `go`
  flood             after its uciok writes `info` lines as fast as it can, for ever
  fork FILE         starts three `sleep 1000` children and writes their pids to FILE
  fork-silent FILE  the same, and never says uciok
  gated FILE        says uciok only once FILE exists (an engine slow to start)

Usage: fake_engine.py MODE [FILE]"""
import os
import subprocess
import sys
import time

mode = sys.argv[1]
path = sys.argv[2] if len(sys.argv) > 2 else None


def note(text):
    with open(path, "a") as f:
        f.write(text + "\n")


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def flood():
    chunk = ("info depth 1 string " + "x" * 200 + "\n") * 256
    while True:
        sys.stdout.write(chunk)


if mode in ("crash-at-go", "hang-at-go"):
    note("start")
if mode in ("fork", "fork-silent"):
    children = [subprocess.Popen(["sleep", "1000"]) for _ in range(3)]
    note(" ".join(str(c.pid) for c in children))

for raw in sys.stdin:
    line = raw.strip()
    if mode == "log":
        note(line)
    if line == "uci":
        say("id name Fake " + mode)
        say("id author tactiled's tests")
        if mode in ("fork", "fork-silent"):
            continue  # never answers: found hung, and its whole group killed
        while mode == "gated" and not os.path.exists(path):
            time.sleep(0.05)
        say("uciok")
        if mode == "flood":
            flood()
    elif line == "isready":
        say("readyok")
    elif line.startswith("go"):
        mended = mode == "crash-at-go" and os.path.exists(path + ".mended")
        if mode == "crash-at-go" and not mended:
            os._exit(3)
        if mode == "log" or mended:
            say("bestmove e2e4")
    elif line == "quit":
        break
