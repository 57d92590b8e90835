#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The hall's load benchmark (docs/hall-scale.md): N simulated tables publish real games to
a private mosquitto the way tactiled-publish does, one tactiled-hall follows them, and this
measures how long a record takes to reach live.pgn and the page, and the CPU and memory
of tactiled-hall and of the broker, for several hall sizes and two speeds.

Each table replays a real arbiter log, made beforehand by `tactiled --replay` from a real
game of tests/data/games (hall_game_scripts writes the scripts): its records one message
each on tactiled/<hall>/<table>/record (QoS 1), and at every move its retained state and
pgn, with the log's own timing stretched so that a ply takes --ply-seconds on average
(human speed), or a tenth of that (10x).

The delay to live.pgn of a record is measured by the LogHead tag of its table's game,
the SHA-256 of the game's last record: the moment live.pgn (polled every 10 ms) first
shows the record's hash. The delay to the page is that of each move to the page's
server-sent events (/events: the table's move count). Only records published after the
first ply-seconds of a run count (the start, when every table sends its first records,
is not the steady state).

usage: hall_load.py BUILD-DIR [--tables 10,25,50,100,200] [--speeds 1,10] [--seconds 60]
                    [--ply-seconds 15] [--games 12] [--hall PATH] [--json FILE]
BUILD-DIR: a Release build with hall_game_scripts (cmake --preset release; the benchmark
presets build it), tactiled and tactiled-hall. Needs mosquitto and python3-paho-mqtt.
It runs for about (seconds + 15) x tables x speeds seconds.
--hall PATH: another tactiled-hall to measure in its place (an older build, to compare).
"""
import argparse
import copy
import hashlib
import heapq
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import paho.mqtt.client as mqtt

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "hall"))
from hall_harness import free_port, port_open, wait_until  # noqa: E402

HALL = "bench"


class Game:
    """One real arbiter log: its lines, their times, and what a publisher sends with them."""

    def __init__(self, path):
        with open(path) as f:
            self.lines = f.read().splitlines()
        self.records = [json.loads(line) for line in self.lines]
        self.hashes = [hashlib.sha256(line.encode()).hexdigest() for line in self.lines]
        self.seq_of = {h: i for i, h in enumerate(self.hashes)}
        self.plies = sum(1 for r in self.records if r.get("kind") == "made")
        self.span_ms = max(1, self.records[-1]["t"])

    def for_table(self, name):
        """The same game as table `name`'s own: a game id is one table's (docs/hall.md, "One
        game, one table"), so its start record names a game id of the table's, and the
        chain is made again from it."""
        game = copy.copy(self)
        own = hashlib.sha256(("%s/%s" % (self.lines[0], name)).encode()).hexdigest()[:32]
        start = json.loads(self.lines[0])
        start["game_id"] = own
        lines = [json.dumps(start, separators=(",", ":"))]
        for line in self.lines[1:]:
            at = line.index('"prev":"') + 8
            lines.append(line[:at] + hashlib.sha256(lines[-1].encode()).hexdigest() +
                         line[at + 64:])
        game.lines = lines
        game.hashes = [hashlib.sha256(line.encode()).hexdigest() for line in lines]
        game.seq_of = {h: i for i, h in enumerate(game.hashes)}
        return game


def make_games(build, work, count):
    scripts = os.path.join(work, "scripts")
    subprocess.run([os.path.join(build, "tests", "hall_game_scripts"), scripts], check=True,
                   stdout=subprocess.DEVNULL)
    games = []
    for name in sorted(os.listdir(scripts))[:count]:
        log = os.path.join(work, name + ".jsonl")
        subprocess.run([os.path.join(build, "daemon", "tactiled"), "--replay",
                        os.path.join(scripts, name), "--language", "en", "--time-control",
                        "900+10", "--log", log, "--pgn", log + ".pgn"], check=True,
                       stdout=subprocess.DEVNULL)
        games.append(Game(log))
    return games


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_kb(pid):
    found = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0])
    return found


class Table:
    """A simulated tactiled-publish: its own MQTT connection, its game's records on time."""

    def __init__(self, name, game, port, scale, start):
        self.name, self.game, self.scale, self.start = name, game, scale, start
        self.prefix = "tactiled/%s/%s/" % (HALL, name)
        self.client = mqtt.Client(client_id="bench-%s" % name, clean_session=True)
        self.client.max_queued_messages_set(0)
        self.client.will_set(self.prefix + "status", "offline", 1, True)
        self.client.connect("127.0.0.1", port, 30)
        self.client.loop_start()
        self.client.publish(self.prefix + "status", "online", 1, True)
        self.next = 0
        self.sans = []
        self.clock = {}

    def due(self):
        """When its next record is due (monotonic s), None when its game is over."""
        if self.next >= len(self.game.records):
            return None
        return self.start + self.game.records[self.next]["t"] * self.scale / 1000.0

    def send(self, published):
        """Publishes its next record (and at a move the state and pgn); notes when."""
        i = self.next
        record = self.game.records[i]
        self.client.publish(self.prefix + "record", self.game.lines[i], 1)
        published.append((self.name, i, record.get("kind") == "made", time.monotonic()))
        if record.get("type") == "clock":
            self.clock = record
        if record.get("kind") == "made":
            self.sans.append(record.get("san", ""))
            state = {"hall": HALL, "table": self.name, "white": "White " + self.name,
                     "black": "Black " + self.name, "round": "1", "moves": self.sans,
                     "white_ms": self.clock.get("white_ms"), "black_ms": self.clock.get("black_ms"),
                     "running": "black" if len(self.sans) % 2 else "white",
                     "read_at": int(time.time() * 1000),
                     "last_move": {"san": self.sans[-1], "by": "white" if len(self.sans) % 2
                                   else "black"}, "alarms": [], "result": "*", "seq": i,
                     "log_head": self.game.hashes[i]}
            self.client.publish(self.prefix + "state", json.dumps(state), 1, True)
            movetext = " ".join(("%d. " % (k // 2 + 1) if k % 2 == 0 else "") + s
                                for k, s in enumerate(self.sans))
            self.client.publish(self.prefix + "pgn", '[Event "bench"]\n\n%s *\n' % movetext, 1,
                                True)
        self.next += 1

    def close(self):
        self.client.loop_stop()
        self.client.disconnect()


class LiveWatch(threading.Thread):
    """Polls live.pgn every 10 ms: when each (board, LogHead) first shows. Changes within
    the hall's coalesce-ms make one rewrite, so a record may never be the last one shown:
    it has reached live.pgn when a record of its table at or after it shows."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.path, self.seen, self.stop = path, {}, False
        self.pattern = re.compile(r'\[Board "(\d+)"\]|\[LogHead "([0-9a-f]{64})"\]')

    def run(self):
        last = None
        while not self.stop:
            try:
                stamp = os.stat(self.path).st_mtime_ns
                if stamp != last:
                    last = stamp
                    now = time.monotonic()
                    with open(self.path) as f:
                        text = f.read()
                    head = None
                    for m in self.pattern.finditer(text):
                        if m.group(2):
                            head = m.group(2)
                        elif head:
                            self.seen.setdefault((m.group(1), head), now)
                            head = None
            except FileNotFoundError:
                pass
            time.sleep(0.01)


class PageWatch(threading.Thread):
    """A page's server-sent events: when each table's move count first shows."""

    def __init__(self, url):
        super().__init__(daemon=True)
        self.url, self.seen = url, {}

    def run(self):
        with urllib.request.urlopen(self.url + "events", timeout=600) as stream:
            for raw in stream:
                line = raw.decode()
                if not line.startswith("data: {"):
                    continue
                now = time.monotonic()
                for t in json.loads(line[6:]).get("tables", []):
                    self.seen.setdefault((t["table"], t["moves"]), now)


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1))))]


def run_step(build, work, games, tables, speed, seconds, ply_seconds, rng, hall_binary=None):
    step = os.path.join(work, "step-%d-%d" % (tables, speed))
    os.makedirs(step)
    port = free_port()
    conf = os.path.join(step, "mosquitto.conf")
    with open(conf, "w") as f:
        f.write("listener %d 127.0.0.1\nallow_anonymous true\nmax_queued_messages 100000\n"
                % port)
    broker = subprocess.Popen(["mosquitto", "-c", conf], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    wait_until("mosquitto", lambda: port_open(port))
    out = os.path.join(step, "out")
    os.makedirs(out)
    hall_log = open(os.path.join(step, "hall.out"), "w+")
    hall_binary = hall_binary or os.path.join(build, "daemon", "tactiled-hall", "tactiled-hall")
    hall = subprocess.Popen([hall_binary,
                             "--config", "/dev/null", "--hall", HALL, "--broker-host",
                             "127.0.0.1", "--broker-port", str(port), "--output-dir", out,
                             "--http-address", "127.0.0.1", "--http-port", "0"],
                            stdout=hall_log, stderr=subprocess.STDOUT)

    def page_url():
        hall_log.seek(0)
        m = re.search(r"page at (http://\S+)", hall_log.read())
        return m.group(1) if m else None
    wait_until("tactiled-hall", page_url)
    live = LiveWatch(os.path.join(out, "live.pgn"))
    live.start()
    page = PageWatch(page_url())
    page.start()
    time.sleep(1.0)  # the hall subscribed, the page's stream open

    begin = time.monotonic() + 1.0
    sims = []
    for n in range(tables):
        game = games[n % len(games)].for_table(str(n + 1))
        scale = ply_seconds * 1000.0 / speed / (game.span_ms / game.plies)  # log ms -> ms
        # Tables start a random part of a ply apart, as games in a hall do.
        sims.append(Table(str(n + 1), game, port, scale,
                          begin + rng.uniform(0, ply_seconds / speed)))
    cpu0 = {name: cpu_seconds(p.pid) for name, p in (("hall", hall), ("broker", broker))}
    me0 = resource.getrusage(resource.RUSAGE_SELF)
    wall0 = time.monotonic()
    published = []
    queue = [(t.due(), n) for n, t in enumerate(sims) if t.due() is not None]
    heapq.heapify(queue)
    end = begin + seconds
    while queue and queue[0][0] < end:
        due, n = heapq.heappop(queue)
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        sims[n].send(published)
        nxt = sims[n].due()
        if nxt is not None:
            heapq.heappush(queue, (nxt, n))
    wall1 = time.monotonic()
    cpu1 = {name: cpu_seconds(p.pid) for name, p in (("hall", hall), ("broker", broker))}
    me1 = resource.getrusage(resource.RUSAGE_SELF)
    memory = {name: memory_kb(p.pid) for name, p in (("hall", hall), ("broker", broker))}

    # Every record that counts reached live.pgn, every move the page (or 15 s passed).
    steady = begin + ply_seconds / speed
    counted = [p for p in published if p[3] >= steady]

    def shown_seqs():
        """Per board, the seqs live.pgn showed, in time order: (time, seq)."""
        shown = {}
        for (board, head), at in sorted(list(live.seen.items()), key=lambda kv: kv[1]):
            seq = sims[int(board) - 1].game.seq_of.get(head)
            if seq is not None:
                shown.setdefault(board, []).append((at, seq))
        return shown

    def reached_at(shown, board, seq):
        """When live.pgn first showed a record of `board` at or after `seq`."""
        for at, s in shown.get(board, []):
            if s >= seq:
                return at
        return None

    def all_seen():
        shown = shown_seqs()
        return all(reached_at(shown, name, i) is not None for name, i, _, _ in counted[-20:])
    try:
        wait_until("the last records in live.pgn", all_seen, timeout=15)
    except AssertionError:
        pass  # counted as missing below
    live.stop = True
    shown = shown_seqs()
    live_delays, page_delays, missing = [], [], 0
    ply_of, plies = {}, {}
    for name, i, made, _ in published:
        if made:
            plies[name] = plies.get(name, 0) + 1
            ply_of[(name, i)] = plies[name]
    for name, i, made, at in counted:
        seen = reached_at(shown, name, i)
        if seen is None:
            missing += 1
        else:
            live_delays.append(seen - at)
        if made:
            on_page = page.seen.get((name, ply_of[(name, i)]))
            if on_page is not None:
                page_delays.append(on_page - at)
    for t in sims:
        t.close()
    hall.terminate()
    hall.wait(10)
    broker.terminate()
    broker.wait(10)
    wall = wall1 - wall0
    result = {
        "tables": tables, "speed": speed, "seconds": round(wall, 1),
        "records_per_s": round(len(published) / wall, 1),
        "records_counted": len(counted), "records_missing_in_live_pgn": missing,
        "live_pgn_ms": {"median": round(1000 * statistics.median(live_delays), 1)
                        if live_delays else None,
                        "p99": round(1000 * percentile(live_delays, 99), 1)},
        "page_ms": {"median": round(1000 * statistics.median(page_delays), 1)
                    if page_delays else None,
                    "p99": round(1000 * percentile(page_delays, 99), 1),
                    "moves": len(page_delays)},
        "hall": {"cpu_percent": round(100 * (cpu1["hall"] - cpu0["hall"]) / wall, 1),
                 "rss_mb": round(memory["hall"].get("VmRSS", 0) / 1024, 1),
                 "peak_rss_mb": round(memory["hall"].get("VmHWM", 0) / 1024, 1)},
        "broker": {"cpu_percent": round(100 * (cpu1["broker"] - cpu0["broker"]) / wall, 1),
                   "rss_mb": round(memory["broker"].get("VmRSS", 0) / 1024, 1),
                   "peak_rss_mb": round(memory["broker"].get("VmHWM", 0) / 1024, 1)},
        "generator_cpu_percent": round(100 * ((me1.ru_utime + me1.ru_stime) -
                                              (me0.ru_utime + me0.ru_stime)) / wall, 1),
    }
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build")
    parser.add_argument("--tables", default="10,25,50,100,200")
    parser.add_argument("--speeds", default="1,10")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--ply-seconds", type=float, default=15)
    parser.add_argument("--games", type=int, default=12, help="distinct real games (12)")
    parser.add_argument("--hall", help="another tactiled-hall to measure (an older build)")
    parser.add_argument("--json")
    args = parser.parse_args()
    rng = random.Random(1)
    results = []
    with tempfile.TemporaryDirectory() as work:
        games = make_games(args.build, work, args.games)
        print("%d real games, %d to %d plies" % (len(games), min(g.plies for g in games),
                                                 max(g.plies for g in games)), flush=True)
        for speed in [int(s) for s in args.speeds.split(",")]:
            for tables in [int(n) for n in args.tables.split(",")]:
                r = run_step(args.build, work, games, tables, speed, args.seconds,
                             args.ply_seconds, rng, args.hall)
                results.append(r)
                print(json.dumps(r), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print("\n| tables | speed | records/s | live.pgn median / p99 ms | page median / p99 ms "
          "| hall CPU % | hall RSS MB | broker CPU % | broker RSS MB |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print("| %d | %dx | %.0f | %s / %s | %s / %s | %.1f | %.1f | %.1f | %.1f |" % (
            r["tables"], r["speed"], r["records_per_s"], r["live_pgn_ms"]["median"],
            r["live_pgn_ms"]["p99"], r["page_ms"]["median"], r["page_ms"]["p99"],
            r["hall"]["cpu_percent"], r["hall"]["peak_rss_mb"], r["broker"]["cpu_percent"],
            r["broker"]["peak_rss_mb"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
