# SPDX-License-Identifier: GPL-3.0-or-later
"""Nothing lost (docs/hall.md): a hall stopped while a table plays two games (1,500+
records: the real tactiled on a script board, the real tactiled-publish) on a broker whose
queue keeps only 200 messages for it, then restarted: both games are whole from their
records (from_records, no gap) in round.json and in their files, the records the broker
dropped asked for on the table's resend topic and sent again by the publisher. Restarted
once more with no broker at all, the hall has both games whole from its own record files."""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from hall_harness import Broker, Hall, log_pgn, port_open, wait_until  # noqa: E402
from venue import ask  # noqa: E402

source, build = sys.argv[1], sys.argv[2]
tactiled = os.path.join(build, "daemon", "tactiled")
tactilectl = os.path.join(build, "daemon", "tactilectl")
publisher = os.path.join(build, "daemon", "tactiled-publish", "tactiled-publish")
hall_binary = os.path.join(build, "daemon", "tactiled-hall", "tactiled-hall")


def lines(path):
    with open(path) as f:
        return f.read().splitlines()


def movetext(pgn):
    """The moves with their [%clk] comments and the result: what the records make."""
    return pgn.split("\n\n", 1)[1]


class Table:
    """tactiled live on a script board (a fifo) and its tactiled-publish."""

    def __init__(self, work, broker):
        self.work = work
        self.fifo = os.path.join(work, "board.fifo")
        os.mkfifo(self.fifo)
        self.control = os.path.join(work, "ctl")
        self.log = os.path.join(work, "game.jsonl")
        self.tactiled = subprocess.Popen(
            [tactiled, "--board", "script", "--script", self.fifo, "--control", self.control,
             "--speech", "off", "--log", self.log, "--pgn", os.path.join(work, "game.pgn"),
             "--auto-resume", "off", "--language", "en", "--time-control", "300+2",
             "--event", "Recovery"],
            stdout=open(os.path.join(work, "tactiled.out"), "w"), stderr=subprocess.STDOUT)
        wait_until("tactiled's control socket", lambda: self.status())
        self.board = open(self.fifo, "w")
        self.state_dir = os.path.join(work, "publish-state")
        os.makedirs(self.state_dir)
        with open(os.path.join(work, "publish.conf"), "w") as f:
            f.write("broker-host = 127.0.0.1\nbroker-port = %d\nhall = open\ntable = 5\n"
                    "control = %s\nstate-directory = %s\n"
                    % (broker.port, self.control, self.state_dir))
        self.publisher = subprocess.Popen(
            [publisher, "--config", os.path.join(work, "publish.conf")],
            stdout=open(os.path.join(work, "publish.out"), "w"), stderr=subprocess.STDOUT)

    def status(self):
        # A table busy with hundreds of presses may answer late: waited for, as before.
        s = ask(self.control, {"command": "status"}, timeout=60)
        return s if s and s.get("ok") else None

    def events(self, text):
        self.board.write(text)
        self.board.flush()

    def move(self, a, b):
        before = self.status()["moves"]
        self.events("0 A up %s\n0 A down %s\n0 A button announce\n" % (a, b))
        wait_until("the move " + a + b, lambda: self.status()["moves"] == before + 1)

    def presses(self, n):
        """n presses of the time button: a few records each, the game unchanged."""
        start = len(lines(self.status()["log"]))
        self.events("0 A button time\n" * n)
        wait_until("%d presses logged" % n,
                   lambda: len(lines(self.status()["log"])) >= start + 2 * n, timeout=60)

    def published(self, log):
        """Whether the broker acknowledged every record of `log`."""
        try:
            with open(os.path.join(self.state_dir, "published.json")) as f:
                p = json.load(f)
        except (OSError, ValueError):
            return False
        return p.get("log") == log and p.get("acked") == len(lines(log)) - 1

    def stop(self):
        for p in (self.publisher, self.tactiled):
            if p.poll() is None:
                p.terminate()
                p.wait(10)


def both_whole(hall, games):
    """Table 5's games in round.json and their files are exactly their logs' games."""
    index = hall.round()
    tables = [t for t in index["tables"] if t["table"] == "5"]
    if not tables:
        return False
    t = tables[0]
    by_id = {g["game_id"]: g for g in t["games"]}
    for game_id, log in games:
        g = by_id.get(game_id)
        if not g or g["gap"] or not g["from_records"] or g["records"] != len(lines(log)):
            return False
        if g["missing"]:
            return False
        if movetext(hall.file(g["file"])) != movetext(log_pgn(tactilectl, log)):
            return False
    return t["from_records"] and not t["gap"] and t["game_id"] == games[-1][0]


with tempfile.TemporaryDirectory() as work:
    broker = Broker(work, start=False)
    with open(broker.conf, "a") as f:
        # A broker that keeps only 200 messages for a client away (mosquitto's default is
        # 1000): most of what the table sends while the hall is stopped is dropped.
        f.write("max_queued_messages 200\n")
    broker.start()
    hall = Hall(hall_binary, work, broker)
    table = Table(work, broker)
    try:
        table.move("e2", "e4")
        first_log = table.status()["log"]
        wait_until("the first records at the hall", lambda: any(
            t["table"] == "5" and t["records"] > 5 for t in hall.round()["tables"]))
        assert hall.stop() == 0

        # The hall away: the table plays on, a new game, and on.
        table.presses(300)
        table.move("e7", "e5")
        table.presses(100)
        answer = ask(table.control, {"command": "new-game", "white": "Anna", "black": "Ben"},
                     timeout=60)
        assert answer and answer["ok"], answer
        second_log = answer["log"]
        table.move("d2", "d4")
        table.presses(350)
        table.move("d7", "d5")
        first, second = lines(first_log), lines(second_log)
        assert len(first) + len(second) >= 1500, (len(first), len(second))
        wait_until("the publisher to have sent everything",
                   lambda: table.published(second_log), timeout=60)
        games = [(json.loads(first[0])["game_id"], first_log),
                 (json.loads(second[0])["game_id"], second_log)]

        # The hall back: the broker's queue held 200 of the 1,500; the rest the hall asks
        # for on the table's resend topic (watched here), and the publisher sends again.
        requests = open(os.path.join(work, "resend.out"), "w+")
        watcher = subprocess.Popen(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(broker.port),
                                    "-q", "1", "-t", "tactiled/open/5/resend"], stdout=requests)
        time.sleep(0.5)  # subscribed
        hall = Hall(hall_binary, work, broker)
        try:
            wait_until("both games whole at the hall", lambda: both_whole(hall, games),
                       timeout=60)
        except AssertionError:
            print(json.dumps(hall.round(), indent=1)[:6000])
            raise
        watcher.terminate()
        watcher.wait(10)
        requests.seek(0)
        asked = [json.loads(line) for line in requests.read().splitlines()]
        for game_id, _ in games:
            assert any(r["game_id"] == game_id and 0 <= r["from"] <= r["to"] for r in asked), asked
        with open(os.path.join(work, "mosquitto.log")) as f:
            broker_log = f.read()
        assert "dropped" in broker_log.lower(), "the broker's queue never overflowed"
        hall.output.seek(0)
        assert hall.stop() == 0

        # Once more, with no broker: the games come from the hall's own record files.
        broker.stop()
        kept = sorted(os.listdir(os.path.join(hall.dir, "records", "5")))
        assert [k.split("-", 1)[1] for k in kept] == [g + ".jsonl" for g, _ in games], kept
        hall = Hall(hall_binary, work, broker)
        wait_until("both games whole from the hall's own files", lambda: both_whole(hall, games))
        assert hall.stop() == 0
    finally:
        table.stop()
        hall.stop()
        broker.stop()
print("hall recovery test passed")
