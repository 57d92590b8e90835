# SPDX-License-Identifier: GPL-3.0-or-later
"""A live training game against a real engine from Debian, end to end (docs/engine.md;
issue 26's "Done when"): the real tactiled, seating = engine, board A a script board on a
FIFO, its control socket driven by the real tactilectl. The test is the blind player: it
learns the engine's move from the log as the game goes, puts it on the board with hole
events (once on a wrong square first, which must be named and then put right), and makes
its own move, any legal one (chessops, tests/engine/chessops_oracle.mjs, lists them; a
seeded choice, but the engine's replies are its own, so no move of the game is fixed
here). On the way: a hint (said, never played), a takeback (two plies back, the board
checked back and put back), the engine killed with SIGKILL once (said, the clocks
stopped quietly, a new engine started, the clocks running again). At the end:

- the PGN tactiled wrote reads in chessops, every move legal, and is the game as played:
  every engine move of it is the log's outside-move and was reproduced on the board;
- the engine's side is named by the engine's own `id name` (asked of the engine program
  here, not of tactiled) and the level: [Black "Stockfish 15.1, level 1"];
- `tactilectl log pgn` of the log, run where no engine can be reached (a mount namespace
  with an empty /usr/games, and an empty PATH), prints the same PGN.

Engines at low levels are not deterministic: nothing here depends on which moves they
choose. No timing is asserted; every wait is bounded.

Usage: engine_live_test.py SOURCE_DIR BUILD_DIR PLAYER_MOVES ENGINE [ARGS...]"""
import json
import os
import random
import signal
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "pylib"))
from daemon_process import print_tail, say_unclean_exit, stop  # noqa: E402
from waiting import wait_until  # noqa: E402

source, build, player_moves = sys.argv[1], sys.argv[2], int(sys.argv[3])
engine_command = sys.argv[4:]
tactiled_bin = os.path.join(build, "daemon", "tactiled")
tactilectl_bin = os.path.join(build, "daemon", "tactilectl")
oracle_script = os.path.join(source, "tests", "engine", "chessops_oracle.mjs")
LEVEL = 1

if not os.access(engine_command[0], os.X_OK):
    print(f"{engine_command[0]} is not installed (script/setup installs it)")
    sys.exit(1)


def engine_id_name():
    """The engine's name as it says it itself for `uci` (read up to its `uciok`; some
    engines do not leave at `quit` while their input is open, so it is killed then)."""
    proc = subprocess.Popen(engine_command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    timer = threading.Timer(20, proc.kill)
    timer.start()
    try:
        proc.stdin.write("uci\n")
        proc.stdin.flush()
        name = None
        for line in proc.stdout:
            if line.startswith("id name "):
                name = line[len("id name "):].strip()
            if line.strip() == "uciok":
                break
    finally:
        timer.cancel()
        proc.kill()
        proc.wait()
    assert name, f"{engine_command} said no id name"
    return name


class Oracle:
    """chessops in node, one request a line."""

    def __init__(self):
        self.proc = subprocess.Popen(["node", oracle_script], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def ask(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        return answer

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def board_of(fen):
    """The pieces of a FEN: {square: letter}."""
    pieces = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        file = 0
        for c in row:
            if c.isdigit():
                file += int(c)
            else:
                pieces["abcdefgh"[file] + str(8 - i)] = c
                file += 1
    return pieces


def hole_steps(fen, uci):
    """What a hand does on the board for move `uci` from `fen`: lifts and puts, in order
    (a captured piece off first)."""
    pieces = board_of(fen)
    frm, to = uci[0:2], uci[2:4]
    mover = pieces[frm]
    steps = []
    if mover in "Kk" and abs(ord(frm[0]) - ord(to[0])) == 2:  # castling: the rook too
        rook_from, rook_to = ("h", "f") if to[0] == "g" else ("a", "d")
        return [("up", frm), ("down", to), ("up", rook_from + frm[1]),
                ("down", rook_to + frm[1])]
    if to in pieces:
        steps.append(("up", to))
    steps += [("up", frm), ("down", to)]
    if mover in "Pp" and frm[0] != to[0] and to not in pieces:  # en passant
        steps.append(("up", to[0] + frm[1]))
    return steps


def undo_steps(fen, uci):
    """The hand's steps that take move `uci` (made from `fen`) back off the board."""
    pieces = board_of(fen)
    frm, to = uci[0:2], uci[2:4]
    mover = pieces[frm]
    if mover in "Kk" and abs(ord(frm[0]) - ord(to[0])) == 2:
        rook_from, rook_to = ("h", "f") if to[0] == "g" else ("a", "d")
        return [("up", to), ("down", frm), ("up", rook_to + frm[1]),
                ("down", rook_from + frm[1])]
    steps = [("up", to), ("down", frm)]
    if to in pieces:
        steps.append(("down", to))
    elif mover in "Pp" and frm[0] != to[0]:
        steps.append(("down", to[0] + frm[1]))
    return steps


def read_log(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


KEEP = os.environ.get("ENGINE_TEST_KEEP")  # a folder that keeps the run's files
rng = random.Random(26)
oracle = Oracle()
with tempfile.TemporaryDirectory() as _tmp:
    work = KEEP or _tmp
    fifo = os.path.join(work, "board.fifo")
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    log = os.path.join(work, "game.jsonl")
    pgn = os.path.join(work, "game.pgn")
    sock = os.path.join(work, "control.sock")
    for stale in (log, pgn):
        if os.path.exists(stale):
            os.unlink(stale)
    journal_path = os.path.join(work, "tactiled.out")
    journal = open(journal_path, "wb")
    # The player White, the engine at level 1 (depth 1: it answers at once); 10 minutes
    # each with 2 s a move, so neither flag falls while the test waits.
    tactiled = subprocess.Popen(
        [tactiled_bin, "--board", "script", "--script", fifo, "--log", log, "--pgn", pgn,
         "--control", sock, "--speech", "off", "--auto-resume", "off", "--language", "en",
         "--time-control", "600+2", "--completion", "button", "--seating", "engine",
         "--training", "on", "--player", "white", "--engine", " ".join(engine_command),
         "--engine-level", str(LEVEL)],
        stdout=journal, stderr=subprocess.STDOUT, start_new_session=True)
    started = time.monotonic()
    board = open(fifo, "w")

    def ctl(*args, env=None):
        r = subprocess.run([tactilectl_bin, *args], capture_output=True, text=True,
                           timeout=30, env=env)
        return r

    def status():
        r = ctl("status", "--json", "--socket", sock)
        assert r.returncode == 0, f"tactilectl status: {r.stdout}{r.stderr}"
        return json.loads(r.stdout)

    def hand(steps, buttons_before=(), buttons_after=()):
        """Board events stamped just ahead of the game's clock (queued until then)."""
        ms = int((time.monotonic() - started) * 1000) + 200
        lines = [f"button {b}" for b in buttons_before]
        lines += [f"{kind} {square}" for kind, square in steps]
        lines += [f"button {b}" for b in buttons_after]
        for line in lines:
            board.write(f"{ms} A {line}\n")
            ms += 40
        board.flush()

    def records(kind, **fields):
        return [r for r in read_log(log) if r.get("type") == kind and
                all(r.get(k) == v for k, v in fields.items())]

    def engine_pid():
        """The engine: tactiled's child process (by its parent's pid)."""
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == tactiled.pid and fields[0] != "Z":
                return int(entry)
        return None

    said = []
    played = []  # the game as it stands: (fen before, uci, who)
    done = {"wrong": False, "hint": False, "takeback": False, "kill": False}
    try:
        s = wait_until("the control socket", lambda: os.path.exists(sock) and status())
        assert s["seating"] == "engine" and s["training"] is True, s
        r = ctl("start", "--socket", sock)
        assert r.returncode == 0, r.stdout + r.stderr

        moves_made = 0
        for turn in range(player_moves):
            s = status()
            if s["over"]:
                break
            fen = s["fen"]

            # The engine killed once, on the player's turn: said, the clocks stopped, a
            # new engine, the clocks running again; the game goes on.
            if turn == 2:
                old = wait_until("the engine's process", engine_pid)
                os.kill(old, signal.SIGKILL)
                wait_until("the engine said down", lambda: records("engine", what="down"))
                wait_until("the engine back", lambda: records("engine", what="back"))
                new = wait_until("a new engine", lambda: (p := engine_pid()) != old and p)
                assert new != old
                s = wait_until("the clocks running again",
                               lambda: (x := status())["running"] == "white" and x)
                assert not s["paused"], s
                # In the log: said down, the clocks paused; back, the clocks resumed.
                kinds = [(r["type"], r.get("what") or r.get("command")) for r in read_log(log)
                         if r["type"] == "engine" or (r["type"] == "arbiter" and
                                                      r["command"] in ("pause", "resume"))]
                # A restart over a second is said ("Engine restarting"): its record
                # then stands between down and the resume; one within it is only logged.
                assert kinds in ([("arbiter", "pause"), ("engine", "down"),
                                  ("arbiter", "resume"), ("engine", "back")],
                                 [("arbiter", "pause"), ("engine", "down"),
                                  ("engine", "restarting"), ("arbiter", "resume"),
                                  ("engine", "back")]), kinds
                done["kill"] = True

            # A hint: said, never played.
            if turn == 3:
                before = s["moves"]
                hand([], buttons_after=["hint"])
                hint = wait_until("the hint", lambda: records("engine", what="hint"))
                assert len(hint) == 1
                spoken = wait_until("the hint said", lambda: [
                    r for r in records("speak") if r.get("text", "").startswith("Hint: ")])
                said.append(spoken[0]["text"])
                time.sleep(0.5)
                assert status()["moves"] == before, "the hint was played"
                done["hint"] = True

            # A takeback: his last move and the engine's reply, the board put back.
            if turn == 5:
                before = s["moves"]
                hand([], buttons_after=["takeback"])
                s = wait_until("two plies taken back",
                               lambda: (x := status())["moves"] == before - 2 and x)
                assert s["restoring"], f"nothing to put back after the takeback: {s}"
                (fen2, uci2, _), (fen1, uci1, _) = played[-1], played[-2]
                hand(undo_steps(fen2, uci2) + undo_steps(fen1, uci1))
                s = wait_until("the board put back", lambda: not (x := status())["restoring"]
                               and not x["discrepancies"] and x)
                assert s["fen"] == fen1, (s["fen"], fen1)
                del played[-2:]
                moves_made = s["moves"]
                fen = s["fen"]
                done["takeback"] = True

            # His move: any legal one (a promotion to a queen).
            legal = oracle.ask("legal " + fen)["moves"]
            assert legal, f"no legal move in {fen} but the game is not over"
            uci = rng.choice(sorted(legal))
            promotion = [f"promote-{uci[4]}"] if len(uci) == 5 else []
            hand(hole_steps(fen, uci), buttons_before=promotion, buttons_after=["announce"])
            s = wait_until(f"his move {uci}", lambda: (x := status())["moves"] > moves_made
                           and x)
            played.append((fen, uci, "player"))
            moves_made += 1
            if s["over"] and s["moves"] == moves_made:
                break

            # The engine's reply: in the record when it comes (an outside-move from the
            # engine), then reproduced on his board.
            s = wait_until("the engine's move", lambda: (x := status())["moves"] > moves_made
                           and x, timeout=30)
            assert s["moves"] == moves_made + 1, s
            reply = records("outside-move", source="engine")[-1]["uci"]
            fen_engine = oracle.ask(f"play {fen} {uci}")["fen"]  # the position it moved from
            steps = hole_steps(fen_engine, reply)
            moves_made = s["moves"]
            mirrored_before = len(records("mirrored"))

            # Once: the engine's piece put on a wrong square first (a plain move), named,
            # then put right.
            frm, to = reply[0:2], reply[2:4]
            if not done["wrong"] and turn >= 1 and steps == [("up", frm), ("down", to)]:
                occupied = set(board_of(fen_engine))
                wrong = next(f + r for r in "87654321" for f in "abcdefgh"
                             if f + r not in occupied and f + r != to)
                discrepancies_before = len(records("discrepancy"))
                hand([("up", frm), ("down", wrong)])
                found = wait_until("the wrong square named", lambda: records("discrepancy")[
                    discrepancies_before:])
                assert found[0]["occupied"] == [wrong], (found, wrong)
                spoken = wait_until("the discrepancy said", lambda: [
                    r for r in records("speak") if r["t"] >= found[0]["t"] and
                    r["text"].startswith("Board wrong: ")])
                said.append(spoken[0]["text"])
                assert not records("mirrored")[mirrored_before:], "a wrong square taken"
                hand([("up", wrong), ("down", to)])
                done["wrong"] = True
            else:
                hand(steps)
            wait_until(f"the engine's {reply} reproduced",
                       lambda: len(records("mirrored")) > mirrored_before)
            played.append((fen_engine, reply, "engine"))
            s = status()
            if s["over"]:
                break

        missing = [k for k, v in done.items() if not v]
        assert not missing, f"the game ended before: {missing}"
    finally:
        stop(tactiled, 15)
        board.close()
        journal.close()
        say_unclean_exit("tactiled", tactiled)
        print_tail(journal_path, 4000)

    # The PGN, read by chessops: every move legal, and the game as played.
    game = oracle.ask("pgn " + pgn)
    assert "error" not in game, f"chessops: {game}"
    assert game["moves"] == [uci for _, uci, _ in played], (game["moves"], played)
    engine_records = [r["uci"] for r in records("outside-move", source="engine")]
    for _, uci, who in played:
        if who == "engine":
            assert uci in engine_records, f"{uci} not the engine's"
    # Every engine move made was reproduced (those taken back too).
    assert len(records("mirrored")) >= sum(1 for p in played if p[2] == "engine")
    # The training marks; the engine named by its own name.
    name = engine_id_name()
    tags = game["tags"]
    assert tags.get("Black") == f"{name}, level {LEVEL}", (tags.get("Black"), name)
    assert tags.get("Event") == "Training", tags
    start = records("start")[0]
    assert start["training"] is True and start["engine_name"] == name, start

    # `tactilectl log pgn` where no engine can be reached: the same PGN.
    no_engine = {"PATH": "/nonexistent"}
    command = [tactilectl_bin, "log", "pgn", log]
    unshare, mount = shutil.which("unshare"), shutil.which("mount")
    hidden = False
    if unshare and mount:
        probe = subprocess.run([unshare, "--mount", "--map-root-user", "/bin/sh", "-c",
                                mount + " -t tmpfs none /usr/games && test ! -e " +
                                engine_command[0]], capture_output=True)
        hidden = probe.returncode == 0
    if hidden:
        command = [unshare, "--mount", "--map-root-user", "/bin/sh", "-c",
                   mount + " -t tmpfs none /usr/games && test ! -e \"$1\" && shift && "
                   "exec \"$@\"", "sh", engine_command[0], *command]
    else:
        print("(no mount namespace here: log pgn run with an empty PATH only)")
    r = subprocess.run(command, capture_output=True, text=True, timeout=60, env=no_engine)
    assert r.returncode == 0, f"log pgn: {r.stdout}{r.stderr}"
    live_pgn = open(pgn).read()
    assert r.stdout == live_pgn, f"log pgn:\n{r.stdout}\nlive:\n{live_pgn}"
    oracle.close()
    print(f"PASS: {len(played)} plies against {name} (level {LEVEL}); said {said}; "
          f"log pgn without an engine{' (in a namespace with no /usr/games)' if hidden else ''}"
          " equals the live PGN")
