# SPDX-License-Identifier: GPL-3.0-or-later
"""tactiled-hall against a real mosquitto, started after the hall: records of real logs
(made by tactiled --replay) published out of order, duplicated, with a bad one, and the broker killed and
restarted in the middle; live.pgn ends with exactly each game's own PGN, by board."""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from hall_harness import (Broker, Hall, log_pgn, make_log, publish, publish_one,  # noqa: E402
                          wait_until)

source, build = sys.argv[1], sys.argv[2]
tactiled = os.path.join(build, "daemon", "tactiled")
tactilectl = os.path.join(build, "daemon", "tactilectl")
hall_binary = os.path.join(build, "daemon", "tactiled-hall", "tactiled-hall")
scripts = os.path.join(source, "tests", "data", "scripts")

with tempfile.TemporaryDirectory() as work:
    path1, log1 = make_log(tactiled, work, "t1",
                           os.path.join(scripts, "molinari-bordais-1979.txt"),
                           "--time-control", "300+2")
    path2, log2 = make_log(tactiled, work, "t2",
                           os.path.join(scripts, "chess960-both-wings.txt"),
                           "--chess960", "607", "--completion", "auto")
    # The hall starts before the broker (a server booted before the broker's): libmosquitto
    # alone would never try that first connection again.
    broker = Broker(work, start=False)
    # The round is the hall's (hall.conf), never a table's: table east's log and state name
    # none, and it is round 2 as table 7's.
    hall = Hall(hall_binary, work, broker, options=["--round", "2"])
    try:
        time.sleep(0.5)  # long enough for the hall's first attempt to be refused
        broker.start()
        # (offline: the step after the broker's restart below waits for online.)
        publish_one(broker, "tactiled/open/7/status", "offline", retain=True)
        wait_until("the hall on the broker", lambda: any(
            t["table"] == "7" and t["status"] == "offline" for t in hall.round()["tables"]))
        # Table 7 first (board 7), then table "east" (numbered on: board 8).
        half = len(log1) // 2
        publish(broker, "tactiled/open/7/record", log1[:half])
        publish_one(broker, "tactiled/open/east/record", "this is no log record")
        publish(broker, "tactiled/open/east/record", log2[20:] + log2[:20] + log2[:10])
        publish_one(broker, "tactiled/open/7/state", '{"round":"2","white_ms":null,'
                    '"black_ms":null,"alarms":[]}', retain=True)
        publish_one(broker, "tactiled/other/7/record", log1[0])  # another hall's
        wait_until("table 7's first half", lambda: any(
            t["table"] == "7" and t["records"] == half for t in hall.round()["tables"]))

        # The broker goes away and comes back: the hall reconnects and subscribes again.
        broker.stop()
        broker.start()
        wait_until("the hall back on the broker", lambda: (publish_one(
            broker, "tactiled/open/7/status", "online", retain=True) or True) and any(
            t["table"] == "7" and t["status"] == "online" for t in hall.round()["tables"]))
        publish(broker, "tactiled/open/7/record", log1[half - 5:])  # 5 again: duplicates

        own1 = log_pgn(tactilectl, path1).replace('[Round "?"]', '[Round "2"]')
        own2 = log_pgn(tactilectl, path2).replace('[Round "?"]', '[Round "2"]')

        def with_board(pgn, board):
            # The writer puts tags in the order set, SetUp and FEN last: Board comes right
            # after the log's own tags, which end with LogHead.
            head, rest = pgn.split("[LogHead ", 1)
            line, rest = rest.split("\n", 1)
            return head + "[LogHead " + line + '\n[Board "%d"]\n' % board + rest

        expected = with_board(own1, 7) + "\n" + with_board(own2, 8)
        try:
            wait_until("live.pgn to hold both whole games",
                       lambda: hall.file("live.pgn") == expected)
        except AssertionError:
            print("expected:\n" + expected + "\nlive.pgn:\n" + hall.file("live.pgn"))
            print(hall.file("round.json"))
            raise
        assert "[%clk " in expected
        assert hall.file("table-7.pgn") == with_board(own1, 7)
        assert hall.file("table-east.pgn") == with_board(own2, 8)
        index = hall.round()
        tables = {t["table"]: t for t in index["tables"]}
        assert index["round"] == "2", index
        assert sorted(tables) == ["7", "east"], tables
        assert tables["7"]["board"] == 7 and tables["east"]["board"] == 8
        assert tables["7"]["records"] == len(log1) and tables["east"]["records"] == len(log2)
        assert tables["7"]["flags"] == [], tables["7"]
        assert len(tables["east"]["flags"]) == 1, tables["east"]  # the bad record
        assert tables["7"]["result"] == "0-1" and tables["7"]["file"] == "table-7.pgn"
        assert not tables["east"]["gap"]
        assert hall.stop() == 0
    finally:
        hall.stop()
        broker.stop()
print("hall broker test passed")
