#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The publisher's cost per move (docs/hall-scale.md): N tables, each a real tactiled on a
script board (a FIFO) with its tactiled-publish and a private mosquitto, play real games
at a given pace; this measures the CPU time tactiled-publish takes per move made, and per
minute of a game in which nothing happens (the loop looks at tactiled 5 times a second).

Each table plays one of the event scripts hall_game_scripts writes (real games of
tests/data/games), its times stretched so that a ply takes --ply-seconds on average (1.5 s
is the hall benchmark's 10x; a rapid game with thinking is about 15 s). The clocks are
started through the control socket, as an arbiter does. CPU time is user plus system time
from /proc/PID/stat of each tactiled-publish (and of each tactiled, for comparison), over
the moves made while it ran; the idle figure is taken over --idle-seconds with the game
standing before its first move.

usage: publish_load.py BUILD-DIR [--tables 4] [--ply-seconds 1.5] [--plies 80]
                       [--idle-seconds 30] [--publisher PATH] [--json FILE]
--publisher: another tactiled-publish to measure (an older build, to compare).
BUILD-DIR: a Release build with hall_game_scripts, tactiled and tactiled-publish. Needs
mosquitto. Runs for about idle-seconds + plies x ply-seconds + 10 seconds.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "hall"))
from hall_harness import free_port, port_open, wait_until  # noqa: E402
from venue import ask  # noqa: E402

HALL = "bench"
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def script_events(path, plies, ply_ms):
    """The script's event lines up to `plies` announce presses (about as many moves), as
    (ms, text), stretched so that one such press comes every ply_ms on average."""
    events, made = [], 0
    with open(path) as f:
        lines = [line.split("#")[0].split() for line in f]
    lines = [words for words in lines if words]
    span = int(lines[-1][0])
    announces = sum(1 for w in lines if w[2:4] == ["button", "announce"]) or 1
    scale = ply_ms / (span / announces)
    for words in lines:
        if made >= plies:
            break
        events.append((int(int(words[0]) * scale), " ".join(words[1:])))
        if words[2:4] == ["button", "announce"]:
            made += 1
    return events


class Table:
    def __init__(self, build, work, name, port, publisher):
        self.dir = os.path.join(work, "table-" + name)
        os.makedirs(os.path.join(self.dir, "publish-state"))
        self.fifo = os.path.join(self.dir, "board.fifo")
        os.mkfifo(self.fifo)
        self.control = os.path.join(self.dir, "ctl")
        out = open(os.path.join(self.dir, "tactiled.out"), "w")
        self.tactiled = subprocess.Popen(
            [os.path.join(build, "daemon", "tactiled"), "--board", "script", "--script",
             self.fifo, "--control", self.control, "--speech", "off", "--log",
             os.path.join(self.dir, "game.jsonl"), "--pgn", os.path.join(self.dir, "game.pgn"),
             "--auto-resume", "off", "--language", "en", "--time-control", "900+10"],
            stdout=out, stderr=subprocess.STDOUT)
        self.origin = time.monotonic()  # the script's ms 0: the daemon's start, near enough
        wait_until("tactiled " + name, lambda: ask(self.control, {"command": "status"}))
        with open(os.path.join(self.dir, "publish.conf"), "w") as f:
            f.write("broker-host = 127.0.0.1\nbroker-port = %d\nhall = %s\ntable = %s\n"
                    "control = %s\nstate-directory = %s\n"
                    % (port, HALL, name, self.control, os.path.join(self.dir, "publish-state")))
        self.publisher = subprocess.Popen(
            [publisher, "--config",
             os.path.join(self.dir, "publish.conf")],
            stdout=open(os.path.join(self.dir, "publish.out"), "w"), stderr=subprocess.STDOUT)
        self.board = os.open(self.fifo, os.O_WRONLY)

    def moves(self):
        s = ask(self.control, {"command": "status"})
        return s.get("moves", 0) if s else 0

    def play(self, events, delay_ms):
        """Writes the script, each event `delay_ms` after now (the daemon hands each on at
        its time)."""
        now_ms = int((time.monotonic() - self.origin) * 1000) + delay_ms
        text = "".join("%d %s\n" % (now_ms + ms, line) for ms, line in events)
        os.write(self.board, text.encode())

    def cpu(self):
        return cpu_seconds(self.publisher.pid), cpu_seconds(self.tactiled.pid)

    def close(self):
        for p in (self.publisher, self.tactiled):
            p.terminate()
        for p in (self.publisher, self.tactiled):
            p.wait(10)
        os.close(self.board)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build")
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--ply-seconds", type=float, default=1.5)
    parser.add_argument("--plies", type=int, default=80)
    parser.add_argument("--idle-seconds", type=float, default=30)
    parser.add_argument("--publisher")
    parser.add_argument("--json")
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    publisher = args.publisher or os.path.join(build, "daemon", "tactiled-publish",
                                               "tactiled-publish")
    with tempfile.TemporaryDirectory() as work:
        scripts = os.path.join(work, "scripts")
        subprocess.run([os.path.join(build, "tests", "hall_game_scripts"), scripts], check=True,
                       stdout=subprocess.DEVNULL)
        names = sorted(os.listdir(scripts))
        port = free_port()
        conf = os.path.join(work, "mosquitto.conf")
        with open(conf, "w") as f:
            f.write("listener %d 127.0.0.1\nallow_anonymous true\n" % port)
        broker = subprocess.Popen(["mosquitto", "-c", conf], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        wait_until("mosquitto", lambda: port_open(port))
        tables = [Table(build, work, str(n + 1), port, publisher) for n in range(args.tables)]
        try:
            for t in tables:
                assert ask(t.control, {"command": "start"}).get("ok"), "start refused"
            time.sleep(2)  # the publishers connected, the start records sent
            idle0 = [t.cpu() for t in tables]
            time.sleep(args.idle_seconds)
            idle1 = [t.cpu() for t in tables]
            plays = [script_events(os.path.join(scripts, names[n % len(names)]), args.plies,
                                   args.ply_seconds * 1000) for n in range(len(tables))]
            for t, events in zip(tables, plays):
                t.play(events, 500)
            span = max(events[-1][0] for events in plays) / 1000.0
            time.sleep(span + 1.0)
            # Every event handed on: the moves stand still (the scripts' other presses,
            # time and repeat, make no move).
            last = None
            while last != [t.moves() for t in tables]:
                last = [t.moves() for t in tables]
                time.sleep(2.0)
            busy1 = [t.cpu() for t in tables]
            made = [t.moves() for t in tables]
        finally:
            for t in tables:
                t.close()
            broker.terminate()
            broker.wait(10)
    per_move = [1000 * (b[0] - i[0]) / m for b, i, m in zip(busy1, idle1, made)]
    tactiled_per_move = [1000 * (b[1] - i[1]) / m for b, i, m in zip(busy1, idle1, made)]
    idle = [100 * (b[0] - a[0]) / args.idle_seconds for a, b in zip(idle0, idle1)]
    result = {
        "tables": args.tables, "ply_seconds": args.ply_seconds, "moves": made,
        "publisher_cpu_ms_per_move": {"median": round(statistics.median(per_move), 2),
                                      "max": round(max(per_move), 2)},
        "tactiled_cpu_ms_per_move": {"median": round(statistics.median(tactiled_per_move), 2)},
        "publisher_idle_cpu_percent": {"median": round(statistics.median(idle), 3),
                                       "max": round(max(idle), 3)},
    }
    print(json.dumps(result, indent=1))
    print("| tables | s a ply | moves | publisher CPU ms a move (median / max) | "
          "tactiled CPU ms a move | publisher idle CPU % |")
    print("| %d | %.1f | %d | %.2f / %.2f | %.2f | %.3f |" % (
        args.tables, args.ply_seconds, sum(made), result["publisher_cpu_ms_per_move"]["median"],
        result["publisher_cpu_ms_per_move"]["max"],
        result["tactiled_cpu_ms_per_move"]["median"],
        result["publisher_idle_cpu_percent"]["median"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
