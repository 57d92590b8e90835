# SPDX-License-Identifier: GPL-3.0-or-later
"""An engine cannot drain the table, and its state is said briefly (docs/engine.md, "An
engine that fails"; issues 33 and 34). The real tactiled, seating = engine, a script board
on a FIFO, its control socket driven by the real tactilectl, against engines that fail on
purpose (tests/engine/fake_engine.py):

- missing: a program that cannot be started is a fault (status `faults`, a `fault` log
  record), `tactilectl start` is held with a warning, the clocks do not start, and the
  player hears "Engine restarting" once, never "Clock started";
- press-held: an announce press on the start position before the engine has answered is
  answered ("The clocks start when the engine answers"), logged `"held":true`, and the
  clocks start only once the engine answers, as the daemon's `start`; the log replays
  clean; an arbiter's pause with a reason (the daemon's own) is refused;
- first-go: the engine (White) ready before the arbiter's start is asked its first move at
  once, nothing else waking the daemon;
- crash-at-go: restarts back off (a handful in 10 s, not thousands), the clocks stopped
  and started quietly ("Clock stopped" never said);
- resumed-paused: a game stopped while its engine was down (its log left the clocks paused
  for the engine) is resumed, and once the engine answers the clocks run again and the
  engine's move is made;
- hang-at-go: an engine hung in its search with 4 s on its clock is found hung before its
  flag, again and again, and never loses on time;
- flood: an engine writing without end leaves `status` answering and the daemon's memory
  bounded (the latencies are printed, not asserted);
- fork: an engine's children are gone once tactiled has stopped.

Waits are bounded and wait on events; the only counts asserted are ones the backoff makes
smaller on a slower machine.

Usage: engine_faults_test.py SOURCE_DIR BUILD_DIR [CASE...]"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "pylib"))
from daemon_process import print_tail, say_unclean_exit, stop  # noqa: E402
from waiting import wait_until  # noqa: E402

source, build = sys.argv[1], sys.argv[2]
cases = sys.argv[3:]
tactiled_bin = os.path.join(build, "daemon", "tactiled")
tactilectl_bin = os.path.join(build, "daemon", "tactilectl")
fake = os.path.join(source, "tests", "engine", "fake_engine.py")
python = "/usr/bin/python3"


def read_lines(path):
    try:
        with open(path) as f:
            return [line.rstrip("\n") for line in f]
    except FileNotFoundError:
        return []


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class Table:
    """tactiled with `engine` as its engine, the player `player`."""

    def __init__(self, work, engine, player="black", time_control="600+2", resume=None):
        self.work = work
        fifo = os.path.join(work, "board.fifo")
        os.mkfifo(fifo)
        self.log = resume or os.path.join(work, "game.jsonl")
        self.sock = os.path.join(work, "control.sock")
        self.journal = os.path.join(work, "tactiled.out")
        # AddressSanitizer keeps up to 256 MB of freed memory aside (its quarantine): kept
        # small, the daemon's memory is what the daemon holds.
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = ":".join(x for x in (env.get("ASAN_OPTIONS", ""),
                                                   "quarantine_size_mb=4") if x)
        self.proc = subprocess.Popen(
            [tactiled_bin, "--board", "script", "--script", fifo,
             "--resume" if resume else "--log", self.log, "--pgn",
             os.path.join(work, "game.pgn"), "--control", self.sock, "--speech", "off",
             "--auto-resume", "off", "--language", "en", "--time-control", time_control,
             "--completion", "button", "--seating", "engine", "--training", "on",
             "--player", player, "--engine", engine, "--engine-level", "1"],
            stdout=open(self.journal, "wb"), stderr=subprocess.STDOUT, start_new_session=True,
            env=env)
        # The script board waits for its writer; a daemon that exits instead is named.
        self.board = open(wait_until("the board's FIFO opened by tactiled",
                                     lambda: self.open_writer(fifo)), "w")
        wait_until("the control socket", lambda: os.path.exists(self.sock) and self.status())

    def open_writer(self, fifo):
        if self.proc.poll() is not None:
            self.fail(f"tactiled exited with {self.proc.returncode}")
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # ENXIO: no reader yet
            return None
        os.set_blocking(fd, True)
        return fd

    def ctl(self, *args):
        return subprocess.run([tactilectl_bin, *args, "--socket", self.sock],
                              capture_output=True, text=True, timeout=30)

    def status(self):
        r = self.ctl("status", "--json")
        assert r.returncode == 0, f"tactilectl status: {r.stdout}{r.stderr}"
        return json.loads(r.stdout)

    def status_direct(self):
        """`status` asked on the control socket itself (no tactilectl to start): the
        daemon's own answer time."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as c:
            c.settimeout(30)
            c.connect(self.sock)
            c.sendall(b'{"command":"status"}\n')
            data = b""
            while not data.endswith(b"\n"):
                more = c.recv(65536)
                assert more, "the control socket closed"
                data += more
        answer = json.loads(data)
        assert answer.get("ok"), answer
        return answer

    def records(self, kind=None):
        out = []
        for line in read_lines(self.log):
            if line.strip():
                r = json.loads(line)
                if kind is None or r.get("type") == kind:
                    out.append(r)
        return out

    def said(self):
        return [r["text"] for r in self.records("speak")]

    def rss_kb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def stop(self):
        stop(self.proc, 30)
        self.board.close()
        say_unclean_exit("tactiled", self.proc)

    def fail(self, why):
        print_tail(self.journal, 3000)
        raise AssertionError(why)


def case_missing(work):
    t = Table(work, "/nonexistent/engine", player="white")
    try:
        fault = "engine: /nonexistent/engine: No such file or directory"
        s = wait_until("the engine's fault in status", lambda: (x := t.status())["faults"] and x)
        assert fault in s["faults"], s["faults"]
        r = t.ctl("start")
        assert r.returncode == 0, r.stdout + r.stderr
        assert "held" in r.stdout and "warning" in r.stdout and fault in r.stdout, r.stdout
        wait_until("Engine restarting said", lambda: "Engine restarting" in t.said())
        s = t.status()
        assert not s["started"] and s["running"] == "none", s
        faults = [r for r in t.records("fault") if r.get("fault") == fault]
        assert len(faults) == 1, t.records("fault")
        assert t.said().count("Engine restarting") == 1, t.said()
        assert not [x for x in t.said() if x.startswith("Clock")], t.said()
    finally:
        t.stop()
    return "missing program: a fault, start held, said once"


def case_press_held(work):
    gate = os.path.join(work, "gate")
    t = Table(work, f"{python} {fake} gated {gate}", player="white")
    try:
        held = "The clocks start when the engine answers"
        t.board.write("0 A button announce\n")
        t.board.flush()
        wait_until("the held start answered", lambda: held in t.said())
        s = t.status()
        assert not s["started"] and s["running"] == "none", s
        presses = [r for r in t.records("button") if r.get("button") == "announce"]
        assert len(presses) == 1 and presses[0].get("held") is True, presses
        notes = [r.get("what") for r in t.records("engine")]
        assert "start-held" in notes, notes
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as c:
            c.settimeout(30)
            c.connect(t.sock)
            c.sendall(b'{"command":"pause","reason":"engine"}\n')
            answer = json.loads(c.makefile().readline())
        assert not answer["ok"] and "reason" in answer["error"], answer
        open(gate, "w").close()
        wait_until("the clocks started once the engine answered",
                   lambda: t.status()["started"], timeout=60)
        said = t.said()
        assert "Clock started, White to move" in said[said.index(held):], said
        starts = [r for r in t.records("arbiter") if r["command"] == "start"]
        assert len(starts) == 1 and starts[0]["uid"] == os.getuid(), starts
        assert starts[0]["t"] >= presses[0]["t"], (starts, presses)
    finally:
        t.stop()
    r = subprocess.run([tactilectl_bin, "log", "replay", t.log], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return "press held: answered, clocks started once the engine answered, log replays"


def case_first_go(work):
    seen = os.path.join(work, "engine.in")
    t = Table(work, f"{python} {fake} log {seen}", player="black")
    try:
        # The engine answered the new game before the arbiter starts the clocks.
        wait_until("the engine ready", lambda: read_lines(seen).count("isready") >= 1)
        time.sleep(0.5)
        r = t.ctl("start")
        assert r.returncode == 0 and "done" in r.stdout, r.stdout + r.stderr
        wait_until("the engine's first go", lambda: any(x.startswith("go ") for x in
                                                        read_lines(seen)), timeout=10)
        wait_until("its move made", lambda: t.status()["moves"] == 1, timeout=10)
    finally:
        t.stop()
    return "first go sent at the start"


def case_crash_at_go(work):
    starts = os.path.join(work, "starts")
    t = Table(work, f"{python} {fake} crash-at-go {starts}", player="black")
    try:
        wait_until("the engine started", lambda: read_lines(starts))
        r = t.ctl("start")
        assert r.returncode == 0, r.stdout + r.stderr
        began = time.monotonic()
        time.sleep(10)
        n = len(read_lines(starts))
        t.status()  # answers
        # Backoff 0, 1, 2, 4 s: at most 6 engines in 10 s (fewer on a slower machine).
        assert n <= 6, f"{n} engines started in 10 s"
        assert n >= 2, f"the engine was not restarted ({n})"
        said = t.said()
        assert "Clock stopped" not in said and "Clock running again" not in said, said
        assert said.count("Engine restarting") == said.count("Engine back") or \
            said.count("Engine restarting") == said.count("Engine back") + 1, said
        pauses = [r for r in t.records("arbiter") if r["command"] == "pause"]
        assert pauses and all(r.get("reason") == "engine" for r in pauses), pauses
    finally:
        t.stop()
    return f"crash at go: {n} engines in {time.monotonic() - began:.0f} s"


def case_resumed_paused(work):
    starts = os.path.join(work, "starts")
    t = Table(work, f"{python} {fake} crash-at-go {starts}", player="black")

    def last_engine_note():
        notes = t.records("engine")
        return notes[-1].get("what") if notes else None
    try:
        wait_until("the engine started", lambda: read_lines(starts))
        r = t.ctl("start")
        assert r.returncode == 0, r.stdout + r.stderr
        # Its third start or later: the next is 4 s or more away, time enough to stop.
        wait_until("an engine down for the third time",
                   lambda: len(read_lines(starts)) >= 3 and last_engine_note() == "restarting",
                   timeout=60)
    finally:
        t.stop()
    assert last_engine_note() == "restarting", t.records("engine")
    assert t.records("arbiter")[-1]["command"] == "pause", t.records("arbiter")
    open(starts + ".mended", "w").close()
    again = os.path.join(work, "again")
    os.mkdir(again)
    # The log names its engine; an engine given here would fail at once.
    t = Table(again, "/bin/false", player="black", resume=t.log)
    try:
        wait_until("the engine's move made", lambda: t.status()["moves"] == 1, timeout=60)
        s = t.status()
        assert s["running"] == "black", s
        records = t.records()
        at = max(i for i, r in enumerate(records) if r.get("type") == "resume")
        resumed = [r for r in records[at:] if r.get("type") == "arbiter" and
                   r["command"] == "resume" and r.get("reason") == "engine"]
        assert len(resumed) == 1, records[at:]
    finally:
        t.stop()
    return "resumed while paused for its engine: clocks run again once it answers"


def case_hang_at_go(work):
    starts = os.path.join(work, "starts")
    t = Table(work, f"{python} {fake} hang-at-go {starts}", player="black", time_control="4+0")
    try:
        wait_until("the engine started", lambda: read_lines(starts))
        r = t.ctl("start")
        assert r.returncode == 0, r.stdout + r.stderr
        # Found hung (before 4 s), replaced, hung again: three engines, no flag.
        wait_until("two hung engines replaced", lambda: len(read_lines(starts)) >= 3, timeout=30)
        s = t.status()
        assert not s["over"], s
        assert s["white_ms"] > 0, s
        assert not [r for r in t.records() if r.get("type") in ("flag", "game-over")], \
            "the engine lost on time"
    finally:
        t.stop()
    return f"hung at go: never flagged, {s['white_ms']} ms left"


def case_flood(work):
    t = Table(work, f"{python} {fake} flood", player="white")
    try:
        time.sleep(1)
        before = t.rss_kb()
        times = []
        for _ in range(20):
            began = time.monotonic()
            t.status_direct()
            times.append(time.monotonic() - began)
            time.sleep(0.1)
        after = t.rss_kb()
        times.sort()
        assert after - before < 64 * 1024, f"RSS grew {before} -> {after} kB"
    finally:
        t.stop()
    return (f"flood: status median {1000 * times[10]:.0f} ms, max "
            f"{1000 * times[-1]:.0f} ms; RSS {before} -> {after} kB")


def case_fork(work):
    pids = os.path.join(work, "pids")
    t = Table(work, f"{python} {fake} fork {pids}", player="white")
    try:
        children = wait_until("the engine's children", lambda: read_lines(pids))
        children = [int(p) for p in children[0].split()]
        assert all(alive(p) for p in children)
    finally:
        t.stop()
    wait_until("the engine's children gone", lambda: not any(alive(p) for p in children),
               timeout=10)
    return "fork: no child behind after stop"


ALL = {"missing": case_missing, "press-held": case_press_held, "first-go": case_first_go,
       "crash-at-go": case_crash_at_go, "resumed-paused": case_resumed_paused,
       "hang-at-go": case_hang_at_go, "flood": case_flood, "fork": case_fork}
for name in cases or ALL:
    with tempfile.TemporaryDirectory() as work:
        print("PASS:", ALL[name](work), flush=True)
